// The cache store of a plan: K and V of new tokens encoded into their slots
// by the store kernel (sim, HIP, CUDA) or the host encoder (host backend),
// with the slot mapping checked first where the runtime can read it (sim,
// host; on a GPU the kernel skips a slot past the cache).
#include "runtime/plan/store.h"

#include <string.h>

#include "runtime/format/internal.h"
#include "uq/format.h"

#define INVALID(...) UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, __VA_ARGS__)

// Rows of D elements at these strides, `tokens` by `heads`, never overlap
// and their span fits: uq_cache_write's rule, applied once at plan time.
static uq_status_t check_strides(const char *name, int64_t stride_token,
                                 int64_t stride_head, uint32_t tokens,
                                 uint32_t heads, int32_t D) {
  if (stride_token < 0 || stride_head < 0)
    return INVALID("%s strides must be non-negative, got %lld, %lld", name,
                   (long long)stride_token, (long long)stride_head);
  if (!uq_span_fits_(tokens, stride_token, heads, stride_head, D, 2))
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "%s strides (%lld, %lld) span more than memory "
                          "can hold for %u tokens",
                          name, (long long)stride_token, (long long)stride_head,
                          tokens);
  if (!uq_rows_disjoint_(tokens, stride_token, heads, stride_head, D))
    return INVALID("%s strides (%lld, %lld) make rows of %d elements overlap",
                   name, (long long)stride_token, (long long)stride_head, D);
  return UQ_OK;
}

uq_status_t uq_rt_store_initialize(uq_context_t *context,
                                   const uq_decode_config_t *c,
                                   uq_rt_store_t *store) {
  memset(store, 0, sizeof(*store));
  store->max_tokens = c->max_store_tokens ? c->max_store_tokens : c->max_batch;
  if (store->max_tokens > INT32_MAX)
    return INVALID("max_store_tokens %u must be at most 2^31 - 1",
                   store->max_tokens);
  const int32_t D = (int32_t)c->head_dim;
  int64_t row = (int64_t)c->num_kv_heads * D;
  store->key_stride_head = c->key_stride_head ? c->key_stride_head : D;
  store->key_stride_token = c->key_stride_token ? c->key_stride_token : row;
  store->value_stride_head = c->value_stride_head ? c->value_stride_head : D;
  store->value_stride_token =
      c->value_stride_token ? c->value_stride_token : row;
  uq_status_t status =
      check_strides("key", store->key_stride_token, store->key_stride_head,
                    store->max_tokens, c->num_kv_heads, D);
  if (status == UQ_OK)
    status = check_strides("value", store->value_stride_token,
                           store->value_stride_head, store->max_tokens,
                           c->num_kv_heads, D);
  if (status != UQ_OK)
    return status;
  store->num_slots = (uint64_t)c->num_blocks * c->block_size;

  if (uq_rt_checks_on_host(context->device)) {
    store->slots_host = uq_rt_alloc(
        &context->allocator, (size_t)store->max_tokens * sizeof(int64_t));
    if (!store->slots_host)
      return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                            "out of memory for the slot-mapping check");
  }
  if (!uq_rt_runs_kernels(context->device))
    return UQ_OK; // it stores with its own encoder (vtable run_store)
  // A context built from custom code objects may have no store kernel: the
  // plan still decodes, and a store reports why it cannot run.
  uq_rt_object_t *found = NULL;
  status = uq_rt_context_find_variant(context, UQ_VARIANT_KIND_STORE, D, 0, 0,
                                      &found);
  if (status != UQ_OK) {
    store->missing = status;
    return UQ_OK;
  }
  status =
      uq_rt_kernel_prepare(context, found, uq_rt_store_arg_specs,
                           UQ_STORE_ARG_COUNT, &store->layout, &store->args);
  if (status != UQ_OK)
    return status;
  store->object = found;
  const uq_rt_launch_traits_t *traits = NULL;
  status = uq_rt_launch_traits_of(found, &traits);
  if (status != UQ_OK)
    return status;
  store->workgroup_size = traits->store_threads;
  const uint32_t *o = store->layout.offset;
  uint8_t *a = store->args;
  uq_rt_arg_put(a, o[UQ_STORE_ARG_NUM_KV_HEADS], 4, c->num_kv_heads);
  uq_rt_arg_put(a, o[UQ_STORE_ARG_PADDED_SLOT], 4, c->padded_slot);
  uq_rt_arg_put(a, o[UQ_STORE_ARG_NUM_SLOTS], 8, store->num_slots);
  uq_rt_arg_put(a, o[UQ_STORE_ARG_KEY_STRIDE_TOKEN], 8,
                (uint64_t)store->key_stride_token);
  uq_rt_arg_put(a, o[UQ_STORE_ARG_KEY_STRIDE_HEAD], 8,
                (uint64_t)store->key_stride_head);
  uq_rt_arg_put(a, o[UQ_STORE_ARG_VALUE_STRIDE_TOKEN], 8,
                (uint64_t)store->value_stride_token);
  uq_rt_arg_put(a, o[UQ_STORE_ARG_VALUE_STRIDE_HEAD], 8,
                (uint64_t)store->value_stride_head);
  uq_rt_arg_put(a, o[UQ_STORE_ARG_ACT_F16], 4, c->query_dtype == UQ_DTYPE_F16);
  uq_rt_arg_put(a, store->layout.block_count[1], 4, c->num_kv_heads);
  uq_rt_arg_put(a, store->layout.block_count[2], 4, 1);
  return UQ_OK;
}

void uq_rt_store_deinitialize(uq_context_t *context, uq_rt_store_t *store) {
  uq_rt_free(&context->allocator, store->args);
  uq_rt_free(&context->allocator, store->slots_host);
  uq_status_free(store->missing);
  memset(store, 0, sizeof(*store));
}

// Sim and host: every buffer of the store lies in one allocation with room
// for all the store reads or writes there, checked before the first token
// is written ("nothing written" is the rule: the sim's kernel would stop at
// the first token whose key is past its buffer, after writing the ones
// before it).
static uq_status_t
check_buffers(uq_context_t *context, const uq_decode_config_t *c,
              const uq_rt_store_t *store, uint32_t num_tokens,
              uq_device_ptr_t key, uq_device_ptr_t value,
              uq_device_ptr_t slot_mapping, uq_device_ptr_t kv_cache) {
  uint64_t heads = c->num_kv_heads, D = c->head_dim, last = num_tokens - 1;
  const struct {
    const char *name;
    uq_device_ptr_t address;
    uint64_t bytes;
  } buffers[] = {
      {"key", key,
       (last * (uint64_t)store->key_stride_token +
        (heads - 1) * (uint64_t)store->key_stride_head + D) *
           sizeof(uint16_t)},
      {"value", value,
       (last * (uint64_t)store->value_stride_token +
        (heads - 1) * (uint64_t)store->value_stride_head + D) *
           sizeof(uint16_t)},
      {"slot_mapping", slot_mapping, (uint64_t)num_tokens * sizeof(int64_t)},
      {"kv_cache", kv_cache, store->num_slots * heads * c->padded_slot},
  };
  uq_status_t status = UQ_OK;
  for (size_t i = 0; !status && i < sizeof(buffers) / sizeof(buffers[0]); ++i)
    status = uq_rt_context_check_buffer(context, buffers[i].name,
                                        buffers[i].address, buffers[i].bytes);
  return status;
}

// Sim and host: every slot must lie inside the cache (negative = skip).
static uq_status_t check_slots(uq_context_t *context, uq_rt_store_t *store,
                               uint32_t num_tokens,
                               uq_device_ptr_t slot_mapping) {
  UQ_RETURN_IF_ERROR(uq_context_download(context, store->slots_host,
                                         slot_mapping,
                                         num_tokens * sizeof(int64_t)),
                     "reading slot_mapping");
  for (uint32_t t = 0; t < num_tokens; ++t) {
    int64_t slot = store->slots_host[t];
    if (slot >= 0 && (uint64_t)slot >= store->num_slots)
      return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                            "slot_mapping[%u] = %lld is past the cache's "
                            "%llu slots",
                            t, (long long)slot,
                            (unsigned long long)store->num_slots);
  }
  return UQ_OK;
}

uq_status_t uq_rt_store_run(uq_context_t *context, const uq_decode_config_t *c,
                            uq_rt_store_t *store, uint32_t num_tokens,
                            uq_device_ptr_t key, uq_device_ptr_t value,
                            uq_device_ptr_t slot_mapping,
                            uq_device_ptr_t kv_cache, uq_stream_t *stream) {
  if (num_tokens > store->max_tokens)
    return INVALID("uq_plan_store: %u tokens, the plan allows %u "
                   "(max_store_tokens)",
                   num_tokens, store->max_tokens);
  if (num_tokens == 0)
    return UQ_OK;
  if (!key || !value || !slot_mapping || !kv_cache)
    return INVALID("uq_plan_store: %s is null", !key            ? "key"
                                                : !value        ? "value"
                                                : !slot_mapping ? "slot_mapping"
                                                                : "kv_cache");
  if (uq_rt_runs_kernels(context->device) && !store->object)
    return UQ_MAKE_STATUS(uq_status_code(store->missing), "uq_plan_store: %s",
                          uq_status_message(store->missing));
  if (uq_rt_checks_on_host(context->device)) {
    UQ_RETURN_IF_ERROR(check_buffers(context, c, store, num_tokens, key, value,
                                     slot_mapping, kv_cache),
                       "uq_plan_store");
    UQ_RETURN_IF_ERROR(check_slots(context, store, num_tokens, slot_mapping),
                       "uq_plan_store");
  }
  if (!uq_rt_runs_kernels(context->device)) {
    uq_rt_store_args_t args = {
        .layout = {.num_blocks = c->num_blocks,
                   .block_size = (int32_t)c->block_size,
                   .num_kv_heads = (int32_t)c->num_kv_heads,
                   .padded_slot = (int32_t)c->padded_slot,
                   .head_dim = (int32_t)c->head_dim},
        .kv_cache = kv_cache,
        .cache_bytes =
            (size_t)store->num_slots * c->num_kv_heads * c->padded_slot,
        .key = key,
        .value = value,
        .slot_mapping = slot_mapping,
        .key_stride_token = store->key_stride_token,
        .key_stride_head = store->key_stride_head,
        .value_stride_token = store->value_stride_token,
        .value_stride_head = store->value_stride_head,
        .num_tokens = num_tokens,
        .dtype = c->query_dtype};
    return context->device->vtable->run_store(context->device, &args);
  }
  const uint32_t *o = store->layout.offset;
  uint8_t *a = store->args;
  uq_rt_arg_put(a, o[UQ_STORE_ARG_KV_CACHE], 8, kv_cache);
  uq_rt_arg_put(a, o[UQ_STORE_ARG_KEY], 8, key);
  uq_rt_arg_put(a, o[UQ_STORE_ARG_VALUE], 8, value);
  uq_rt_arg_put(a, o[UQ_STORE_ARG_SLOT_MAPPING], 8, slot_mapping);
  uq_rt_arg_put(a, store->layout.block_count[0], 4, num_tokens);
  uq_rt_launch_t launch = {
      .function = store->object->function,
      .grid = {num_tokens, c->num_kv_heads, 1},
      .workgroup = {store->workgroup_size, 1, 1},
      .kernargs = store->args,
      .kernarg_size = store->layout.kernarg_size,
      .loop_trips = 1, // one token's slot: straight-line code
  };
  int counted = 0;
  uq_status_t status =
      uq_rt_context_launch(context, &launch, stream, &store->last, &counted);
  store->counted = counted && status == UQ_OK;
  return status;
}
