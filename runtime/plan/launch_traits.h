// How a target's kernels are launched: threads, shared memory, the
// reduce's split of a head, stream serialization. The plan looks them up
// from a record's target, never from the backend it runs on.
#ifndef UQ_RUNTIME_PLAN_LAUNCH_TRAITS_H_
#define UQ_RUNTIME_PLAN_LAUNCH_TRAITS_H_

#include <stdint.h>

#include "runtime/api/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

// How a target's kernels are launched, looked up from a record's
// target, never from the backend.
typedef struct uq_rt_launch_traits_s {
  const char *target;
  uint32_t decode_threads;
  // The decode is launched with the dynamic shared memory its code object
  // states (resident_kernel_t.dynamic_lds).
  int decode_dynamic_lds;
  // Head-dim elements a reduce workgroup merges, one thread each (0: the
  // whole head dim); grid z covers the rest.
  uint32_t reduce_slice;
  int reduce_waits_for_previous;
  uint32_t store_threads;
  uint32_t view_threads;
} uq_rt_launch_traits_t;

// NULL for a target libuqrt does not launch.
const uq_rt_launch_traits_t *
uq_rt_launch_traits(const uq_variant_record_t *record);
// The traits of `object`'s target, or UNIMPLEMENTED naming it.
uq_status_t uq_rt_launch_traits_of(const uq_rt_object_t *object,
                                   const uq_rt_launch_traits_t **out);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_RUNTIME_PLAN_LAUNCH_TRAITS_H_
