// The CUDA driver functions libuqrt uses, listed once: field name, the
// exported symbol (the _v2 names are the current ABI of the 64-bit calls),
// parameters. Include with UQ_CUDA_SYMBOL defined. No include guard.
UQ_CUDA_SYMBOL(cuInit, "cuInit", (unsigned))
UQ_CUDA_SYMBOL(cuDriverGetVersion, "cuDriverGetVersion", (int *))
UQ_CUDA_SYMBOL(cuDeviceGetCount, "cuDeviceGetCount", (int *))
UQ_CUDA_SYMBOL(cuDeviceGet, "cuDeviceGet", (CUdevice *, int))
UQ_CUDA_SYMBOL(cuDeviceGetAttribute, "cuDeviceGetAttribute",
               (int *, int, CUdevice))
UQ_CUDA_SYMBOL(cuDeviceGetName, "cuDeviceGetName", (char *, int, CUdevice))
UQ_CUDA_SYMBOL(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",
               (CUcontext *, CUdevice))
UQ_CUDA_SYMBOL(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2",
               (CUdevice))
UQ_CUDA_SYMBOL(cuCtxSetCurrent, "cuCtxSetCurrent", (CUcontext))
UQ_CUDA_SYMBOL(cuModuleLoadData, "cuModuleLoadData", (CUmodule *, const void *))
UQ_CUDA_SYMBOL(cuModuleUnload, "cuModuleUnload", (CUmodule))
UQ_CUDA_SYMBOL(cuModuleGetFunction, "cuModuleGetFunction",
               (CUfunction *, CUmodule, const char *))
UQ_CUDA_SYMBOL(cuFuncGetAttribute, "cuFuncGetAttribute",
               (int *, int, CUfunction))
UQ_CUDA_SYMBOL(cuFuncSetAttribute, "cuFuncSetAttribute", (CUfunction, int, int))
UQ_CUDA_SYMBOL(cuMemAlloc, "cuMemAlloc_v2", (CUdeviceptr *, size_t))
UQ_CUDA_SYMBOL(cuMemFree, "cuMemFree_v2", (CUdeviceptr))
UQ_CUDA_SYMBOL(cuMemcpyHtoD, "cuMemcpyHtoD_v2",
               (CUdeviceptr, const void *, size_t))
UQ_CUDA_SYMBOL(cuMemcpyDtoH, "cuMemcpyDtoH_v2", (void *, CUdeviceptr, size_t))
UQ_CUDA_SYMBOL(cuStreamSynchronize, "cuStreamSynchronize", (CUstream))
UQ_CUDA_SYMBOL(cuLaunchKernelEx, "cuLaunchKernelEx",
               (const uq_cu_launch_config_t *, CUfunction, void **, void **))
UQ_CUDA_SYMBOL(cuOccupancyMaxActiveBlocksPerMultiprocessor,
               "cuOccupancyMaxActiveBlocksPerMultiprocessor",
               (int *, CUfunction, int, size_t))
UQ_CUDA_SYMBOL(cuOccupancyMaxActiveClusters, "cuOccupancyMaxActiveClusters",
               (int *, CUfunction, const uq_cu_launch_config_t *))
UQ_CUDA_SYMBOL(cuGetErrorName, "cuGetErrorName", (CUresult, const char **))
UQ_CUDA_SYMBOL(cuGetErrorString, "cuGetErrorString", (CUresult, const char **))
