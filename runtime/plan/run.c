// The run entry points: a decode (with or without sinks), a varlen step,
// a store. Each takes the plan for its whole length (one call in flight at
// a time), checks its arguments where the device can be read, and runs
// the kernels, or the device's own decode where it launches none.
#include <stdio.h>
#include <string.h>

#include "runtime/plan/plan_internal.h"

// A call takes the plan for its whole length. One that finds another call
// in flight fails at once rather than waiting: two callers on one plan share
// its workspace and kernel arguments, and on a GPU their kernels would race
// even if the host calls took turns, so the caller has a bug to fix (a plan
// per thread and stream), not a lock to wait on.
static uq_status_t plan_enter(uq_plan_t *plan, const char *what) {
  if (pthread_mutex_trylock(&plan->busy) == 0)
    return UQ_OK;
  return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                        "%s: the plan is in use by a call on another thread "
                        "(a plan serves one call at a time: use a plan per "
                        "thread and stream)",
                        what);
}

static uq_status_t plan_leave(uq_plan_t *plan, uq_status_t status) {
  pthread_mutex_unlock(&plan->busy);
  return status;
}

// A device that launches no kernels (the host reference) computes the
// decode itself, with the kernels' walk and blocks.
static uq_status_t
run_on_device(uq_plan_t *plan, const run_launch_t *run, uq_device_ptr_t query,
              uq_device_ptr_t kv_cache, uq_device_ptr_t block_tables,
              uq_device_ptr_t seq_lens, uq_device_ptr_t sinks,
              uq_device_ptr_t output) {
  const uq_decode_config_t *c = &plan->config;
  uq_rt_decode_args_t args = {
      .num_seqs = (int32_t)run->num_seqs,
      .query_group = (int32_t)c->query_group,
      .head_dim = (int32_t)c->head_dim,
      .num_blocks = c->num_blocks,
      .block_size = (int32_t)c->block_size,
      .num_kv_heads = (int32_t)c->num_kv_heads,
      .padded_slot = (int32_t)c->padded_slot,
      .max_blocks_per_seq = (int32_t)c->max_blocks_per_seq,
      .softmax_scale = c->softmax_scale,
      .q_overflow = plan->q_overflow,
      .query = query,
      .query_stride_seq = c->query_stride_seq,
      .query_stride_head = c->query_stride_head,
      .kv_cache = kv_cache,
      .block_tables = block_tables,
      .seq_lens = seq_lens,
      .output = output,
      .output_stride_seq = c->output_stride_seq,
      .output_stride_head = c->output_stride_head,
      .walk = run->policy,
      .segm_out = plan->segm_out,
      .segm_max = plan->segm_max,
      .segm_sum = plan->segm_sum,
      .sliding_window = (int32_t)c->sliding_window,
      .sinks = sinks,
      .query_start_loc = run->query_start_loc,
      .block_tokens = (int32_t)uq_rt_plan_block_tokens(plan, run->kernel),
      .dtype = c->query_dtype,
  };
  uq_rt_device_t *device = plan->context->device;
  return device->vtable->run_decode(device, &args);
}

static uq_status_t run_checked(uq_plan_t *plan, const run_launch_t *run,
                               uint32_t num_tokens, uint32_t max_query_len,
                               uq_device_ptr_t query, uq_device_ptr_t kv_cache,
                               uq_device_ptr_t block_tables,
                               uq_device_ptr_t seq_lens, uq_device_ptr_t sinks,
                               uq_device_ptr_t output, uq_stream_t *stream) {
  uint64_t rows = (uint64_t)run->rows * run->policy.num_partitions;
  if (rows > plan->workspace_tokens)
    return UQ_MAKE_STATUS(UQ_STATUS_INTERNAL,
                          "the run needs %llu workspace rows a kv head, the "
                          "plan has %llu",
                          (unsigned long long)rows,
                          (unsigned long long)plan->workspace_tokens);
  const uq_rt_device_t *device = plan->context->device;
  const char *what =
      run->query_start_loc ? "uq_plan_run_varlen" : "uq_plan_run";
  if (uq_rt_checks_on_host(device)) {
    UQ_RETURN_IF_ERROR(uq_rt_plan_check_buffers(plan, run, query, kv_cache,
                                                block_tables, seq_lens, sinks,
                                                output),
                       "%s", what);
    UQ_RETURN_IF_ERROR(uq_rt_plan_check_tables(
                           plan, run->num_seqs, block_tables, seq_lens, sinks,
                           run->query_start_loc, num_tokens, max_query_len),
                       "%s", what);
  }
  // A view with an element stride goes through dense rows (views.c).
  const uq_device_ptr_t caller_output = output;
  TRY(uq_rt_views_gather(plan, run, &query, &output, stream));
  if (!uq_rt_runs_kernels(device))
    TRY(run_on_device(plan, run, query, kv_cache, block_tables, seq_lens, sinks,
                      output));
  else
    TRY(uq_rt_plan_launch(plan, run, query, kv_cache, block_tables, seq_lens,
                          sinks, output, stream));
  return uq_rt_views_scatter(plan, run, caller_output, stream);
}

uq_status_t uq_plan_run(uq_plan_t *plan, uint32_t batch, uq_device_ptr_t query,
                        uq_device_ptr_t kv_cache, uq_device_ptr_t block_tables,
                        uq_device_ptr_t seq_lens, uq_device_ptr_t output,
                        uq_stream_t *stream) {
  return uq_plan_run_with_sinks(plan, batch, query, kv_cache, block_tables,
                                seq_lens, 0, output, stream);
}

static uq_status_t check_run_pointers(const char *what, uq_device_ptr_t query,
                                      uq_device_ptr_t kv_cache,
                                      uq_device_ptr_t block_tables,
                                      uq_device_ptr_t seq_lens,
                                      uq_device_ptr_t output) {
  if (!query || !kv_cache || !block_tables || !seq_lens || !output)
    return INVALID("%s: NULL %s", what,
                   !query          ? "query"
                   : !kv_cache     ? "kv_cache"
                   : !block_tables ? "block_tables"
                   : !seq_lens     ? "seq_lens"
                                   : "output");
  return UQ_OK;
}

uq_status_t
uq_plan_run_with_sinks(uq_plan_t *plan, uint32_t batch, uq_device_ptr_t query,
                       uq_device_ptr_t kv_cache, uq_device_ptr_t block_tables,
                       uq_device_ptr_t seq_lens, uq_device_ptr_t sinks,
                       uq_device_ptr_t output, uq_stream_t *stream) {
  if (!plan)
    return INVALID("uq_plan_run: NULL plan");
  if (batch == 0 || batch > plan->config.max_batch)
    return INVALID("batch %u is outside 1..%u (the plan's max_batch)", batch,
                   plan->config.max_batch);
  TRY(check_run_pointers("uq_plan_run", query, kv_cache, block_tables, seq_lens,
                         output));
  run_launch_t run = {
      .kernel = plan->kernel_count ? &plan->kernels[0] : NULL,
      .blocks = batch,
      .rows = batch,
      .num_seqs = batch,
  };
  UQ_RETURN_IF_ERROR(uq_rt_plan_policy_for(plan, batch, &run.policy),
                     "launch policy");
  TRY(plan_enter(plan, "uq_plan_run"));
  return plan_leave(plan,
                    run_checked(plan, &run, batch, 1, query, kv_cache,
                                block_tables, seq_lens, sinks, output, stream));
}

uq_status_t uq_plan_varlen_shape(const uq_plan_t *plan, uint32_t num_seqs,
                                 uint32_t num_tokens, uint32_t max_query_len,
                                 uq_varlen_shape_t *out_shape) {
  if (out_shape)
    memset(out_shape, 0, sizeof(*out_shape));
  if (!plan || !out_shape)
    return INVALID("uq_plan_varlen_shape: NULL argument");
  run_launch_t run;
  TRY(uq_rt_plan_varlen_launch(plan, num_seqs, num_tokens, max_query_len,
                               &run));
  snprintf(out_shape->variant, sizeof(out_shape->variant), "%s",
           run.kernel ? run.kernel->object->source.variant : "host");
  out_shape->block_tokens = uq_rt_plan_block_tokens(plan, run.kernel);
  out_shape->num_blocks = run.blocks;
  out_shape->walk = run.policy;
  return UQ_OK;
}

uq_status_t uq_plan_run_varlen(uq_plan_t *plan, uint32_t num_seqs,
                               uint32_t num_tokens, uint32_t max_query_len,
                               uq_device_ptr_t query, uq_device_ptr_t kv_cache,
                               uq_device_ptr_t block_tables,
                               uq_device_ptr_t seq_lens,
                               uq_device_ptr_t query_start_loc,
                               uq_device_ptr_t sinks, uq_device_ptr_t output,
                               uq_stream_t *stream) {
  if (!plan)
    return INVALID("uq_plan_run_varlen: NULL plan");
  TRY(check_run_pointers("uq_plan_run_varlen", query, kv_cache, block_tables,
                         seq_lens, output));
  if (!query_start_loc)
    return INVALID("uq_plan_run_varlen: NULL query_start_loc");
  // An empty step (no sequence, or no query token) within the plan's
  // limits has no row to attend or write.
  if ((num_seqs == 0 || num_tokens == 0) &&
      num_seqs <= plan->config.max_batch &&
      num_tokens <= plan->config.max_num_tokens)
    return UQ_OK;
  run_launch_t run;
  TRY(uq_rt_plan_varlen_launch(plan, num_seqs, num_tokens, max_query_len,
                               &run));
  run.query_start_loc = query_start_loc;
  TRY(plan_enter(plan, "uq_plan_run_varlen"));
  return plan_leave(plan, run_checked(plan, &run, num_tokens, max_query_len,
                                      query, kv_cache, block_tables, seq_lens,
                                      sinks, output, stream));
}

uq_status_t uq_plan_store(uq_plan_t *plan, uint32_t num_tokens,
                          uq_device_ptr_t key, uq_device_ptr_t value,
                          uq_device_ptr_t slot_mapping,
                          uq_device_ptr_t kv_cache, uq_stream_t *stream) {
  if (!plan)
    return INVALID("uq_plan_store: plan is null");
  TRY(plan_enter(plan, "uq_plan_store"));
  return plan_leave(plan, uq_rt_store_run(plan->context, &plan->config,
                                          &plan->store, num_tokens, key, value,
                                          slot_mapping, kv_cache, stream));
}

uq_status_t uq_plan_last_store_counters(const uq_plan_t *plan,
                                        uq_kernel_counters_t *out_store) {
  if (out_store)
    memset(out_store, 0, sizeof(*out_store));
  if (!plan || !out_store)
    return INVALID("uq_plan_last_store_counters: NULL argument");
  TRY(uq_rt_plan_check_counters(plan));
  if (!plan->store.counted)
    return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                          "no store has launched on this plan yet");
  *out_store = plan->store.last;
  return UQ_OK;
}
