// Each target's launch traits (runtime/plan/launch_traits.h).
#include "runtime/plan/launch_traits.h"

#include <stddef.h>
#include <string.h>

#include "runtime/kernel_abi.h"

// runtime/kernel_abi.h: gfx950's kernels are one 64-lane wave a workgroup
// (a decode whose code object requires more runs those,
// uq_rt_plan_decode_threads) and its reduce takes 64 elements of a head a
// workgroup; sm_90a's decode runs UQ_SM90_DECODE_THREADS threads on the dynamic
// shared memory its cubin states, its reduce a whole head (one thread an
// element) and starts before the decode ends (it waits in griddepcontrol.wait).
static const uq_rt_launch_traits_t launch_traits[] = {
    {.target = "gfx950",
     .decode_threads = 64,
     .reduce_slice = 64,
     .store_threads = 64,
     .view_threads = 64},
    {.target = "sm_90a",
     .decode_threads = UQ_SM90_DECODE_THREADS,
     .decode_dynamic_lds = 1,
     .reduce_slice = 0,
     .reduce_waits_for_previous = 1,
     .store_threads = UQ_SM90_STORE_THREADS,
     .view_threads = UQ_SM90_VIEW_THREADS},
};

const uq_rt_launch_traits_t *
uq_rt_launch_traits(const uq_variant_record_t *record) {
  const char *target = uq_rt_record_target(record);
  for (size_t i = 0; i < sizeof(launch_traits) / sizeof(launch_traits[0]); ++i)
    if (strcmp(launch_traits[i].target, target) == 0)
      return &launch_traits[i];
  return NULL;
}

uq_status_t uq_rt_launch_traits_of(const uq_rt_object_t *object,
                                   const uq_rt_launch_traits_t **out) {
  *out = uq_rt_launch_traits(&object->source);
  if (*out)
    return UQ_OK;
  return UQ_MAKE_STATUS(UQ_STATUS_UNIMPLEMENTED,
                        "variant %s is for target %s, which libuqrt cannot "
                        "launch (gfx950, sm_90a)",
                        object->source.variant,
                        uq_rt_record_target(&object->source));
}
