// The CUDA driver API loaded with dlopen("libcuda.so.1"): its types and
// constants (values from the driver API's cuda.h, which is not needed to
// build), the function table, and the one place CUDA errors become uq
// statuses. Nothing of CUDA is needed to build or to load libuqrt.
#ifndef UQ_RUNTIME_CUDA_CUDA_SYMBOLS_H_
#define UQ_RUNTIME_CUDA_CUDA_SYMBOLS_H_

#include <stddef.h>
#include <stdint.h>

#include "uq/status.h"

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;

enum {
  UQ_CUDA_SUCCESS = 0,
  UQ_CUDA_ERROR_INVALID_VALUE = 1,
  UQ_CUDA_ERROR_OUT_OF_MEMORY = 2,
  UQ_CUDA_ERROR_NOT_INITIALIZED = 3,
  UQ_CUDA_ERROR_DEINITIALIZED = 4,
  UQ_CUDA_ERROR_INSUFFICIENT_DRIVER = 35,
  UQ_CUDA_ERROR_NO_DEVICE = 100,
  UQ_CUDA_ERROR_INVALID_DEVICE = 101,
  UQ_CUDA_ERROR_INVALID_IMAGE = 200,
  UQ_CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  UQ_CUDA_ERROR_INVALID_HANDLE = 400,
  UQ_CUDA_ERROR_NOT_FOUND = 500,
  UQ_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  UQ_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  UQ_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  UQ_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
  UQ_CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  UQ_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};
// cuLaunchKernelEx's configuration (cuda.h's CUlaunchConfig and
// CUlaunchAttribute: the cluster dimension and programmatic stream
// serialization only).
typedef struct uq_cu_launch_attribute_s {
  int id; // UQ_CU_LAUNCH_ATTRIBUTE_*
  char pad[4];
  union {
    char pad[64];
    struct {
      unsigned x, y, z;
    } cluster_dim;
    int programmatic_stream_serialization_allowed;
  } value;
} uq_cu_launch_attribute_t;
typedef struct uq_cu_launch_config_s {
  unsigned grid_dim[3];
  unsigned block_dim[3];
  unsigned shared_mem_bytes;
  CUstream stream;
  uq_cu_launch_attribute_t *attrs;
  unsigned num_attrs;
} uq_cu_launch_config_t;
enum {
  UQ_CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4,
  UQ_CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6,
};
// cuLaunchKernelEx's `extra` markers: the packed argument block and its
// size.
#define UQ_CU_LAUNCH_PARAM_END ((void *)0x00)
#define UQ_CU_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define UQ_CU_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)

typedef struct uq_cuda_symbols_s {
  void *library; // dlopen handle; NULL when not loaded
#define UQ_CUDA_SYMBOL(name, symbol, params) CUresult(*name) params;
#include "runtime/cuda/cuda_symbol_table.h"
#undef UQ_CUDA_SYMBOL
} uq_cuda_symbols_t;

// Loads `library` (NULL: libcuda.so.1, then libcuda.so) and resolves the
// table. UNAVAILABLE naming what was tried or which symbols are missing.
uq_status_t uq_cuda_symbols_initialize(const char *library,
                                       uq_cuda_symbols_t *out_symbols);
void uq_cuda_symbols_deinitialize(uq_cuda_symbols_t *symbols);

// "cuModuleLoadData: CUDA_ERROR_NO_BINARY_FOR_GPU (no kernel image is
// available for execution on the device)".
uq_status_t uq_cuda_result_to_status(const uq_cuda_symbols_t *symbols,
                                     CUresult result, const char *call,
                                     const char *file, int line);

#define UQ_CUDA_CALL(syms, name, args)                                         \
  uq_cuda_result_to_status((syms), (syms)->name args, #name, __FILE__, __LINE__)

#endif // UQ_RUNTIME_CUDA_CUDA_SYMBOLS_H_
