// The HIP backend when the build has none (UQ_ENABLE_HIP=OFF or no HIP
// headers): contexts asking for hip get UNAVAILABLE, auto uses the sim.
#include "runtime/api/device.h"

uq_status_t uq_hip_device_create(const uq_allocator_t *allocator,
                                 const char *library, int32_t ordinal,
                                 uq_rt_device_t **out_device) {
  (void)allocator;
  (void)library;
  (void)ordinal;
  *out_device = NULL;
  return UQ_MAKE_STATUS(UQ_STATUS_UNAVAILABLE,
                        "this libuqrt was built without the HIP backend "
                        "(UQ_ENABLE_HIP=OFF or no HIP headers)");
}
