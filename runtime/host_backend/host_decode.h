// The host backend's decode: the kernel-faithful reference on host memory,
// with the same P/TGPP and partials layout the kernels use.
#ifndef UQ_RUNTIME_HOST_BACKEND_HOST_DECODE_H_
#define UQ_RUNTIME_HOST_BACKEND_HOST_DECODE_H_

#include <stdint.h>

#include "runtime/api/device.h"

#ifdef __cplusplus
extern "C" {
#endif

// `args`' device addresses are host pointers (the host backend's memory).
uq_status_t uq_host_decode(const uq_rt_decode_args_t *args);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_RUNTIME_HOST_BACKEND_HOST_DECODE_H_
