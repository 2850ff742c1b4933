// The store half of a plan (uq_plan_store): the key/value strides resolved
// and checked at plan time, the store kernel prepared, and the run path.
// Not installed.
#ifndef UQ_RUNTIME_API_PLAN_STORE_H_
#define UQ_RUNTIME_API_PLAN_STORE_H_

#include <stdint.h>

#include "runtime/api/internal.h"
#include "runtime/plan/launch_traits.h"
#include "uq/uqrt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uq_rt_store_s {
  uint32_t max_tokens;
  int64_t key_stride_token, key_stride_head;
  int64_t value_stride_token, value_stride_head;
  uint64_t num_slots; // num_blocks * block_size
  // Kernel backends: NULL when the context has no store code object (then
  // `missing` says why and a store returns it).
  uq_rt_object_t *object;
  uint32_t workgroup_size; // its target's store_threads
  uq_rt_arg_layout_t layout;
  uint8_t *args;
  uq_status_t missing;
  // Sim and host: the slot mapping read back for the bounds check.
  int64_t *slots_host;
  int counted;
  uq_kernel_counters_t last;
} uq_rt_store_t;

// Resolves and checks the store fields of a (defaults-resolved) decode
// config, prepares the store kernel on kernel backends and allocates the
// slot read-back buffer on sim/host (a GPU backend reads nothing back).
// INVALID_ARGUMENT names the field.
uq_status_t uq_rt_store_initialize(uq_context_t *context,
                                   const uq_decode_config_t *config,
                                   uq_rt_store_t *store);
// Frees what uq_rt_store_initialize made (safe on a partial one).
void uq_rt_store_deinitialize(uq_context_t *context, uq_rt_store_t *store);

// uq_plan_store's body (uq/uqrt.h has the contract).
uq_status_t uq_rt_store_run(uq_context_t *context,
                            const uq_decode_config_t *config,
                            uq_rt_store_t *store, uint32_t num_tokens,
                            uq_device_ptr_t key, uq_device_ptr_t value,
                            uq_device_ptr_t slot_mapping,
                            uq_device_ptr_t kv_cache, uq_stream_t *stream);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_RUNTIME_API_PLAN_STORE_H_
