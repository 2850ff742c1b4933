// Builds without the CUDA backend (UQ_ENABLE_CUDA=OFF).
#include "runtime/api/device.h"

uq_status_t uq_cuda_device_create(const uq_allocator_t *allocator,
                                  const char *library, int32_t ordinal,
                                  uq_rt_device_t **out_device) {
  (void)allocator;
  (void)library;
  (void)ordinal;
  *out_device = NULL;
  return UQ_MAKE_STATUS(UQ_STATUS_UNAVAILABLE,
                        "libuqrt was built without the CUDA backend");
}
