// The HIP runtime functions libuqrt uses, listed once. Include with
// UQ_HIP_REQUIRED(name, result, params) and UQ_HIP_OPTIONAL(...) defined:
// once to declare the table, once to resolve it. A missing required symbol
// fails the load; a missing optional one leaves its pointer NULL.
// No include guard on purpose.

UQ_HIP_REQUIRED(hipGetErrorName, const char *, (hipError_t))
UQ_HIP_REQUIRED(hipGetErrorString, const char *, (hipError_t))
UQ_HIP_REQUIRED(hipGetDeviceCount, hipError_t, (int *))
UQ_HIP_REQUIRED(hipSetDevice, hipError_t, (int))
UQ_HIP_REQUIRED(hipModuleLoadData, hipError_t, (hipModule_t *, const void *))
UQ_HIP_REQUIRED(hipModuleUnload, hipError_t, (hipModule_t))
UQ_HIP_REQUIRED(hipModuleGetFunction, hipError_t,
                (hipFunction_t *, hipModule_t, const char *))
UQ_HIP_REQUIRED(hipModuleLaunchKernel, hipError_t,
                (hipFunction_t, unsigned int, unsigned int, unsigned int,
                 unsigned int, unsigned int, unsigned int, unsigned int,
                 hipStream_t, void **, void **))
UQ_HIP_REQUIRED(hipMalloc, hipError_t, (void **, size_t))
UQ_HIP_REQUIRED(hipFree, hipError_t, (void *))
UQ_HIP_REQUIRED(hipMemcpy, hipError_t,
                (void *, const void *, size_t, hipMemcpyKind))
UQ_HIP_REQUIRED(hipStreamSynchronize, hipError_t, (hipStream_t))
UQ_HIP_OPTIONAL(hipRuntimeGetVersion, hipError_t, (int *))
