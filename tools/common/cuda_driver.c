// Loads the CUDA driver API entries of cuda_driver.h with dlopen/dlsym.
#include "tools/common/cuda_driver.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef struct entry_s {
  const char *name;
  size_t offset;
} entry_t;

#define ENTRY(field, symbol)                                                   \
  { symbol, offsetof(uq_cuda_t, field) }

static const entry_t kEntries[] = {
    ENTRY(Init, "cuInit"),
    ENTRY(DeviceGet, "cuDeviceGet"),
    ENTRY(DeviceGetAttribute, "cuDeviceGetAttribute"),
    ENTRY(DeviceGetName, "cuDeviceGetName"),
    ENTRY(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
    ENTRY(CtxSetCurrent, "cuCtxSetCurrent"),
    ENTRY(CtxSynchronize, "cuCtxSynchronize"),
    ENTRY(ModuleLoadData, "cuModuleLoadData"),
    ENTRY(ModuleGetFunction, "cuModuleGetFunction"),
    ENTRY(FuncSetAttribute, "cuFuncSetAttribute"),
    ENTRY(FuncGetAttribute, "cuFuncGetAttribute"),
    ENTRY(OccupancyMaxActiveBlocksPerMultiprocessor,
          "cuOccupancyMaxActiveBlocksPerMultiprocessor"),
    ENTRY(MemAlloc, "cuMemAlloc_v2"),
    ENTRY(MemFree, "cuMemFree_v2"),
    ENTRY(MemcpyHtoD, "cuMemcpyHtoD_v2"),
    ENTRY(MemcpyDtoH, "cuMemcpyDtoH_v2"),
    ENTRY(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"),
    ENTRY(MemsetD8, "cuMemsetD8_v2"),
    ENTRY(LaunchKernel, "cuLaunchKernel"),
    ENTRY(StreamCreate, "cuStreamCreate"),
    ENTRY(StreamDestroy, "cuStreamDestroy_v2"),
    ENTRY(StreamSynchronize, "cuStreamSynchronize"),
    ENTRY(EventCreate, "cuEventCreate"),
    ENTRY(EventRecord, "cuEventRecord"),
    ENTRY(EventSynchronize, "cuEventSynchronize"),
    ENTRY(EventElapsedTime, "cuEventElapsedTime"),
    ENTRY(StreamBeginCapture, "cuStreamBeginCapture_v2"),
    ENTRY(StreamEndCapture, "cuStreamEndCapture"),
    ENTRY(GraphInstantiateWithFlags, "cuGraphInstantiateWithFlags"),
    ENTRY(GraphLaunch, "cuGraphLaunch"),
    ENTRY(GraphExecDestroy, "cuGraphExecDestroy"),
    ENTRY(GraphDestroy, "cuGraphDestroy"),
    ENTRY(GetErrorName, "cuGetErrorName"),
};

int uq_cuda_load(uq_cuda_t *cuda, char *why, size_t why_size) {
  memset(cuda, 0, sizeof(*cuda));
  cuda->library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!cuda->library) {
    snprintf(why, why_size, "no CUDA driver (dlopen libcuda.so.1: %s)",
             dlerror());
    return -1;
  }
  for (size_t i = 0; i < sizeof(kEntries) / sizeof(kEntries[0]); ++i) {
    void *symbol = dlsym(cuda->library, kEntries[i].name);
    if (!symbol) {
      snprintf(why, why_size, "the CUDA driver lacks %s", kEntries[i].name);
      dlclose(cuda->library);
      cuda->library = NULL;
      return -1;
    }
    // POSIX guarantees function pointers round-trip through void *.
    memcpy((char *)cuda + kEntries[i].offset, &symbol, sizeof(symbol));
  }
  return 0;
}

const char *uq_cuda_error_name(const uq_cuda_t *cuda, CUresult result) {
  static _Thread_local char fallback[32];
  const char *name = NULL;
  if (cuda->GetErrorName && cuda->GetErrorName(result, &name) == 0 && name)
    return name;
  snprintf(fallback, sizeof(fallback), "CUDA error %d", result);
  return fallback;
}
