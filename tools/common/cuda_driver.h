// The CUDA driver API beyond libuqrt's table that the CUDA tools and tests
// use (events, streams, graph capture, raw launches), loaded at run time
// with dlopen("libcuda.so.1"): nothing of CUDA is needed to build, and a
// tool reports the missing driver instead of failing to start. The types
// and the values libuqrt also uses come from its runtime/cuda/cuda_symbols.h.
#ifndef UQ_TOOLS_COMMON_CUDA_DRIVER_H_
#define UQ_TOOLS_COMMON_CUDA_DRIVER_H_

#include <stddef.h>
#include <stdint.h>

#include "runtime/cuda/cuda_symbols.h"

typedef struct CUevent_st *CUevent;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;

// Values from the CUDA driver API (cuda.h) that libuqrt does not use.
enum {
  UQ_CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  UQ_CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  UQ_CU_STREAM_NON_BLOCKING = 1,
  UQ_CU_STREAM_CAPTURE_MODE_GLOBAL = 0,
};

typedef struct uq_cuda_s {
  void *library;
  CUresult (*Init)(unsigned);
  CUresult (*DeviceGet)(CUdevice *, int);
  CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*DeviceGetName)(char *, int, CUdevice);
  CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*CtxSetCurrent)(CUcontext);
  CUresult (*CtxSynchronize)(void);
  CUresult (*ModuleLoadData)(CUmodule *, const void *);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*FuncSetAttribute)(CUfunction, int, int);
  CUresult (*FuncGetAttribute)(int *, int, CUfunction);
  CUresult (*OccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction, int,
                                                        size_t);
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*MemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*MemsetD8)(CUdeviceptr, unsigned char, size_t);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, CUstream, void **,
                           void **);
  CUresult (*StreamCreate)(CUstream *, unsigned);
  CUresult (*StreamDestroy)(CUstream);
  CUresult (*StreamSynchronize)(CUstream);
  CUresult (*EventCreate)(CUevent *, unsigned);
  CUresult (*EventRecord)(CUevent, CUstream);
  CUresult (*EventSynchronize)(CUevent);
  CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*StreamBeginCapture)(CUstream, int);
  CUresult (*StreamEndCapture)(CUstream, CUgraph *);
  CUresult (*GraphInstantiateWithFlags)(CUgraphExec *, CUgraph,
                                        unsigned long long);
  CUresult (*GraphLaunch)(CUgraphExec, CUstream);
  CUresult (*GraphExecDestroy)(CUgraphExec);
  CUresult (*GraphDestroy)(CUgraph);
  CUresult (*GetErrorName)(CUresult, const char **);
} uq_cuda_t;

// Loads the driver and every entry above. Returns 0, or -1 with a one-line
// reason in `why`.
int uq_cuda_load(uq_cuda_t *cuda, char *why, size_t why_size);

// "CUDA_ERROR_..." for a result (or "CUDA error N").
const char *uq_cuda_error_name(const uq_cuda_t *cuda, CUresult result);

#endif // UQ_TOOLS_COMMON_CUDA_DRIVER_H_
