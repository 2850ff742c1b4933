// uq_plan_create and uq_plan_destroy, and the plan's queries (info, the
// walk of a batch, the last run's counters).
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "runtime/plan/plan_internal.h"

void uq_plan_destroy(uq_plan_t *plan) {
  if (!plan)
    return;
  uq_context_t *context = plan->context;
  if (plan->busy_initialized) {
    // Waits for a call in flight on another thread to return.
    pthread_mutex_lock(&plan->busy);
    pthread_mutex_unlock(&plan->busy);
    pthread_mutex_destroy(&plan->busy);
  }
  uq_status_free(uq_context_free(context, plan->segm_out));
  uq_status_free(uq_context_free(context, plan->segm_max));
  uq_status_free(uq_context_free(context, plan->segm_sum));
  uq_rt_free(&context->allocator, plan->policies);
  for (uint32_t k = 0; k < plan->kernel_count; ++k)
    uq_rt_free(&context->allocator, plan->kernels[k].args);
  uq_rt_free(&context->allocator, plan->reduce_args);
  uq_rt_free(&context->allocator, plan->seq_lens_host);
  uq_rt_free(&context->allocator, plan->qsl_host);
  uq_rt_free(&context->allocator, plan->tables_host);
  uq_rt_free(&context->allocator, plan->sinks_host);
  uq_rt_store_deinitialize(context, &plan->store);
  uq_rt_views_release(plan);
  uq_rt_free(&context->allocator, plan);
}

static uq_status_t plan_initialize(uq_plan_t *plan,
                                   const uq_decode_config_t *config) {
  uq_context_t *context = plan->context;
  UQ_RETURN_IF_ERROR(
      uq_rt_plan_check_config(config, &plan->config, &plan->views),
      "decode config");
  const uq_decode_config_t *c = &plan->config;
  plan->num_query_heads = c->num_kv_heads * c->query_group;
  TRY(uq_rt_plan_find_kernels(plan));
  uq_rt_object_t *decode = plan->kernel_count ? plan->kernels[0].object : NULL;
  // A block's query rows sit at 32-bit byte offsets from its first token's
  // first head (the block's base itself is 64-bit): the largest block of
  // the plan's kernels bounds it (a decode's QG heads: check_config).
  uint32_t block_tokens =
      uq_rt_plan_block_tokens(plan, uq_rt_plan_kernel_for(plan, UINT32_MAX));
  if (c->max_query_len == 1)
    block_tokens = 1;
  uint64_t block_bytes =
      ((uint64_t)(block_tokens - 1) * (uint64_t)c->query_stride_seq +
       (uint64_t)(c->query_group - 1) * (uint64_t)c->query_stride_head +
       c->head_dim) *
      2;
  if (block_tokens > 1 && block_bytes > INT32_MAX)
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "query strides (%lld, %lld): the query rows of a "
                          "block of %u tokens x %u heads span %llu bytes, "
                          "past the kernel's 2^31 - 1 byte offsets",
                          (long long)c->query_stride_seq,
                          (long long)c->query_stride_head, block_tokens,
                          c->query_group, (unsigned long long)block_bytes);
  // It decides the split policy: on a GPU that runs any P (sm_90a), the
  // resident policy, sized by the device's occupancy.
  if (decode && context->device->vtable->occupancy)
    for (uint32_t k = 0; k < plan->kernel_count; ++k)
      TRY(uq_rt_plan_prepare_resident(plan, &plan->kernels[k]));

  TRY(uq_rt_plan_size_workspace(plan));
  TRY(uq_rt_views_prepare(plan));

  // The kernel's E4M3 overflow rule (FP16_OVFL, COMPUTE_PGM_RSRC1 bit 26)
  // decides what the host reference does with |q_rot| > 464, so the host
  // backend matches the code object the other backends would run. Without
  // one (host backend only) the project's rule applies: saturate.
  // The sm_90a kernels convert with cvt.rn.satfinite: they saturate.
  plan->q_overflow = UQ_FP8_OVERFLOW_SATURATE;
  if (decode) {
    snprintf(plan->variant, sizeof(plan->variant), "%s",
             decode->source.variant);
    if (strcmp(uq_rt_record_target(&decode->source), "gfx950") == 0 &&
        !uq_kd_fp16_overflow(&decode->kernel->descriptor))
      plan->q_overflow = UQ_FP8_OVERFLOW_NAN;
  } else {
    // A device that launches no kernels (the host reference).
    snprintf(plan->variant, sizeof(plan->variant), "host");
  }

  if (uq_rt_runs_kernels(context->device))
    TRY(uq_rt_plan_prepare_kernels(plan));
  if (uq_rt_checks_on_host(context->device)) {
    plan->seq_lens_host = uq_rt_alloc(&context->allocator,
                                      (size_t)c->max_batch * sizeof(int32_t));
    plan->qsl_host = uq_rt_alloc(&context->allocator,
                                 ((size_t)c->max_batch + 1) * sizeof(int32_t));
    plan->tables_host = uq_rt_alloc(
        &context->allocator, (size_t)c->max_blocks_per_seq * sizeof(int32_t));
    plan->sinks_host = uq_rt_alloc(
        &context->allocator, (size_t)plan->num_query_heads * sizeof(float));
    if (!plan->seq_lens_host || !plan->qsl_host || !plan->tables_host ||
        !plan->sinks_host)
      return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                            "out of memory for the table checks");
  }
  UQ_RETURN_IF_ERROR(uq_rt_store_initialize(context, c, &plan->store),
                     "store config");
  return UQ_OK;
}

uq_status_t uq_plan_create(uq_context_t *context,
                           const uq_decode_config_t *config,
                           uq_plan_t **out_plan) {
  if (out_plan)
    *out_plan = NULL;
  if (!context || !config || !out_plan)
    return INVALID("uq_plan_create: NULL argument");
  uq_plan_t *plan = uq_rt_calloc(&context->allocator, sizeof(*plan));
  if (!plan)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "out of memory for a plan");
  plan->context = context;
  if (pthread_mutex_init(&plan->busy, NULL) != 0) {
    uq_rt_free(&context->allocator, plan);
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "cannot create the plan's mutex");
  }
  plan->busy_initialized = 1;
  uq_status_t status = plan_initialize(plan, config);
  if (status != UQ_OK) {
    uq_plan_destroy(plan);
    return status;
  }
  *out_plan = plan;
  return UQ_OK;
}

// 0.4 put merge_max_partitions in 0.3's padding: binaries built against
// 0.3 pass a struct of the same size, with the same offsets.
_Static_assert(sizeof(uq_plan_info_t) == 56 &&
                   offsetof(uq_plan_info_t, workspace_bytes) == 40 &&
                   offsetof(uq_plan_info_t, decode_lds_bytes) == 52,
               "uq_plan_info_t keeps the 0.3 layout");

uq_status_t uq_plan_query_info(const uq_plan_t *plan,
                               uq_plan_info_t *out_info) {
  if (!plan || !out_info)
    return INVALID("uq_plan_query_info: NULL argument");
  memset(out_info, 0, sizeof(*out_info));
  snprintf(out_info->variant, sizeof(out_info->variant), "%s", plan->variant);
  out_info->max_partitions = plan->max_partitions;
  out_info->workspace_bytes = plan->workspace_bytes;
  out_info->e4m3_saturates = plan->q_overflow == UQ_FP8_OVERFLOW_SATURATE;
  out_info->merge_max_partitions =
      uq_rt_plan_merge_max(plan->kernel_count ? &plan->kernels[0] : NULL);
  out_info->decode_lds_bytes =
      plan->kernel_count
          ? plan->kernels[0].object->kernel->group_segment_fixed_size
          : 0;
  return UQ_OK;
}

uq_status_t uq_plan_launch_walk(const uq_plan_t *plan, uint32_t batch,
                                uq_launch_walk_t *out_walk) {
  if (!plan || !out_walk)
    return INVALID("uq_plan_launch_walk: NULL argument");
  if (batch == 0 || batch > plan->config.max_batch)
    return INVALID("batch %u is outside 1..%u (the plan's max_batch)", batch,
                   plan->config.max_batch);
  UQ_RETURN_IF_ERROR(uq_rt_plan_policy_for(plan, batch, out_walk),
                     "launch policy");
  return UQ_OK;
}

uq_status_t uq_plan_launch_shape(const uq_plan_t *plan, uint32_t batch,
                                 uint32_t *out_num_partitions,
                                 uint32_t *out_tgpp) {
  if (!plan || !out_num_partitions || !out_tgpp)
    return INVALID("uq_plan_launch_shape: NULL argument");
  *out_num_partitions = *out_tgpp = 0;
  uq_launch_walk_t walk;
  TRY(uq_plan_launch_walk(plan, batch, &walk));
  *out_num_partitions = (uint32_t)walk.num_partitions;
  // The tile-groups' worth of tokens a partition walks at most.
  const int32_t group_tiles = UQ_TILE_GROUP_TOKENS / UQ_TILE_TOKENS;
  *out_tgpp = (uint32_t)((walk.groups_per_partition * walk.group_tiles +
                          group_tiles - 1) /
                         group_tiles);
  return UQ_OK;
}

uq_status_t uq_rt_plan_check_counters(const uq_plan_t *plan) {
  const uq_context_t *context = plan->context;
  if (!context->device->vtable->counts_instructions ||
      (context->flags & UQ_CONTEXT_FLAG_NULL_LAUNCH))
    return UNIMPLEMENTED("the %s backend has no counters",
                         uq_backend_name(context->backend));
  return UQ_OK;
}

uq_status_t uq_plan_last_counters(const uq_plan_t *plan,
                                  uq_kernel_counters_t *out_decode,
                                  uq_kernel_counters_t *out_reduce) {
  if (!plan || !out_decode || !out_reduce)
    return INVALID("uq_plan_last_counters: NULL argument");
  memset(out_decode, 0, sizeof(*out_decode));
  memset(out_reduce, 0, sizeof(*out_reduce));
  TRY(uq_rt_plan_check_counters(plan));
  if (!plan->counted)
    return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                          "the plan has not run yet");
  *out_decode = plan->last_decode;
  *out_reduce = plan->last_reduce;
  return UQ_OK;
}
