// Kernel arguments packed and the kernels launched: the plan's constants
// once at creation, a run's pointers and walk per run. How a kernel is
// launched (threads, grids, shared memory, stream serialization) comes
// from its record's target (launch traits), not from the backend.
#include <string.h>

#include "runtime/plan/plan_internal.h"

// Head-dim elements a reduce workgroup of the plan merges, and the
// workgroups (grid z) that cover the head dim (D = 32 fills half of
// gfx950's one slice of 64).
static uint32_t reduce_slice(const uq_plan_t *plan) {
  uint32_t slice = plan->reduce_traits->reduce_slice;
  return slice ? slice : plan->config.head_dim;
}
static uint32_t reduce_slices(const uq_plan_t *plan) {
  return (plan->config.head_dim + reduce_slice(plan) - 1) / reduce_slice(plan);
}

static uint32_t f32_bits(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  return bits;
}

// Checks, loads and pre-packs the plan's decode kernels and its reduce.
uq_status_t uq_rt_plan_prepare_kernels(uq_plan_t *plan) {
  const uq_decode_config_t *c = &plan->config;
  for (uint32_t k = 0; k < plan->kernel_count; ++k) {
    decode_kernel_t *kernel = &plan->kernels[k];
    TRY(uq_rt_launch_traits_of(kernel->object, &kernel->traits));
    TRY(uq_rt_kernel_prepare(plan->context, kernel->object,
                             uq_rt_decode_arg_specs, UQ_DECODE_ARG_COUNT,
                             &kernel->layout, &kernel->args));
    const uint32_t *d = kernel->layout.offset;
    uint8_t *a = kernel->args;
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_SEGM_OUT], 8, plan->segm_out);
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_SEGM_MAX], 8, plan->segm_max);
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_SEGM_SUM], 8, plan->segm_sum);
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_NUM_KV_HEADS], 4, c->num_kv_heads);
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_QUERY_GROUP], 4, c->query_group);
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_ACT_F16], 4,
                  c->query_dtype == UQ_DTYPE_F16);
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_BLOCK_SIZE], 4, c->block_size);
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_PADDED_SLOT], 4, c->padded_slot);
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_Q_STRIDE_SEQ], 4,
                  (uint64_t)c->query_stride_seq);
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_Q_STRIDE_HEAD], 4,
                  (uint64_t)c->query_stride_head);
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_MAX_BLOCKS_PER_SEQ], 4,
                  c->max_blocks_per_seq);
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_SOFTMAX_SCALE], 4,
                  f32_bits(c->softmax_scale));
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_SLIDING_WINDOW], 4, c->sliding_window);
    uq_rt_arg_put(a, kernel->layout.block_count[1], 4, c->num_kv_heads);
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_OUT_STRIDE_SEQ], 4,
                  (uint64_t)c->output_stride_seq);
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_OUT_STRIDE_HEAD], 4,
                  (uint64_t)c->output_stride_head);
  }
  TRY(uq_rt_context_find_variant(plan->context, UQ_VARIANT_KIND_REDUCE,
                                 c->head_dim, 0, 0, &plan->reduce));
  TRY(uq_rt_launch_traits_of(plan->reduce, &plan->reduce_traits));
  TRY(uq_rt_kernel_prepare(plan->context, plan->reduce, uq_rt_reduce_arg_specs,
                           UQ_REDUCE_ARG_COUNT, &plan->reduce_layout,
                           &plan->reduce_args));
  const uint32_t *r = plan->reduce_layout.offset;
  uint8_t *a = plan->reduce_args;
  uq_rt_arg_put(a, r[UQ_REDUCE_ARG_SEGM_OUT], 8, plan->segm_out);
  uq_rt_arg_put(a, r[UQ_REDUCE_ARG_SEGM_MAX], 8, plan->segm_max);
  uq_rt_arg_put(a, r[UQ_REDUCE_ARG_SEGM_SUM], 8, plan->segm_sum);
  uq_rt_arg_put(a, r[UQ_REDUCE_ARG_NUM_KV_HEADS], 4, c->num_kv_heads);
  uq_rt_arg_put(a, r[UQ_REDUCE_ARG_QUERY_GROUP], 4, c->query_group);
  uq_rt_arg_put(a, r[UQ_REDUCE_ARG_ACT_F16], 4, c->query_dtype == UQ_DTYPE_F16);
  uq_rt_arg_put(a, r[UQ_REDUCE_ARG_OUT_STRIDE_SEQ], 4,
                (uint64_t)c->output_stride_seq);
  uq_rt_arg_put(a, r[UQ_REDUCE_ARG_OUT_STRIDE_HEAD], 4,
                (uint64_t)c->output_stride_head);
  uq_rt_arg_put(a, plan->reduce_layout.block_count[1], 4,
                plan->num_query_heads);
  uq_rt_arg_put(a, plan->reduce_layout.block_count[2], 4, reduce_slices(plan));
  return UQ_OK;
}

uq_status_t uq_rt_plan_launch(uq_plan_t *plan, const run_launch_t *run,
                              uq_device_ptr_t query, uq_device_ptr_t kv_cache,
                              uq_device_ptr_t block_tables,
                              uq_device_ptr_t seq_lens, uq_device_ptr_t sinks,
                              uq_device_ptr_t output, uq_stream_t *stream) {
  uq_context_t *context = plan->context;
  const decode_kernel_t *kernel = run->kernel;
  const uq_launch_walk_t *policy = &run->policy;
  const uint32_t *d = kernel->layout.offset;
  uint8_t *a = kernel->args;
  uq_rt_arg_put(a, d[UQ_DECODE_ARG_QUERY], 8, query);
  uq_rt_arg_put(a, d[UQ_DECODE_ARG_KV_CACHE], 8, kv_cache);
  uq_rt_arg_put(a, d[UQ_DECODE_ARG_BLOCK_TABLES], 8, block_tables);
  uq_rt_arg_put(a, d[UQ_DECODE_ARG_SEQ_LENS], 8, seq_lens);
  uq_rt_arg_put(a, d[UQ_DECODE_ARG_NUM_PARTITIONS], 4,
                (uint32_t)policy->num_partitions);
  uq_rt_arg_put(a, d[UQ_DECODE_ARG_TGPP], 4,
                (uint32_t)policy->groups_per_partition);
  uq_rt_arg_put(a, d[UQ_DECODE_ARG_QUERY_START_LOC], 8, run->query_start_loc);
  uq_rt_arg_put(a, d[UQ_DECODE_ARG_SEARCH_SEQS], 4, run->search_seqs);
  uq_rt_arg_put(a, kernel->layout.block_count[0], 4, run->blocks);
  uq_rt_arg_put(a, kernel->layout.block_count[2], 4,
                (uint32_t)policy->num_partitions);
  uq_rt_launch_t decode = {
      .function = kernel->object->function,
      .grid = {run->blocks, plan->config.num_kv_heads,
               (uint32_t)policy->num_partitions},
      .workgroup = {uq_rt_plan_decode_threads(kernel), 1, 1},
      .dynamic_lds =
          kernel->traits->decode_dynamic_lds ? kernel->resident.dynamic_lds : 0,
      .kernargs = kernel->args,
      .kernarg_size = kernel->layout.kernarg_size,
      // A partition walks at most this many tiles for each of the block's
      // row tiles, after at most 32 steps of a search for its sequence
      // (the sim's budget, uq_rt_launch_t.loop_trips).
      .loop_trips = (uint64_t)policy->groups_per_partition *
                        (uint64_t)policy->group_tiles *
                        (kernel->rows > 16 ? (kernel->rows + 15) / 16 : 1) +
                    32,
  };

  const uint32_t *r = plan->reduce_layout.offset;
  a = plan->reduce_args;
  uq_rt_arg_put(a, r[UQ_REDUCE_ARG_OUTPUT], 8, output);
  uq_rt_arg_put(a, r[UQ_REDUCE_ARG_SINKS], 8, sinks);
  uq_rt_arg_put(a, r[UQ_REDUCE_ARG_NUM_PARTITIONS], 4,
                (uint32_t)policy->num_partitions);
  uq_rt_arg_put(a, r[UQ_REDUCE_ARG_QUERY_START_LOC], 8, run->query_start_loc);
  uq_rt_arg_put(a, r[UQ_REDUCE_ARG_NUM_SEQS], 4, run->num_seqs);
  uq_rt_arg_put(a, plan->reduce_layout.block_count[0], 4, run->rows);
  uq_rt_launch_t reduce = {
      .function = plan->reduce->function,
      .grid = {run->rows, plan->num_query_heads, reduce_slices(plan)},
      .workgroup = {reduce_slice(plan), 1, 1},
      .kernargs = plan->reduce_args,
      .kernarg_size = plan->reduce_layout.kernarg_size,
      // The reduce waits for the decode's partials itself, so it may launch
      // as the decode's tiles finish (kernels/decode.mlir).
      .waits_for_previous = plan->reduce_traits->reduce_waits_for_previous,
      // The partitions its two loops merge (a varlen row's span check is
      // straight-line code).
      .loop_trips = (uint64_t)policy->num_partitions,
  };
  // P = 1 (and on sm_90a P CTAs launched as one cluster) merges in the
  // decode: no reduce launch.
  uint32_t partitions = (uint32_t)policy->num_partitions;
  int merged = partitions <= uq_rt_plan_merge_max(kernel);
  uq_rt_arg_put(a = kernel->args, d[UQ_DECODE_ARG_OUTPUT], 8, output);
  uq_rt_arg_put(a, d[UQ_DECODE_ARG_SINKS], 8, sinks);
  decode.cluster_z = merged ? partitions : 1;

  int counted_decode = 0, counted_reduce = 0;
  uq_status_t status = uq_rt_context_launch(
      context, &decode, stream, &plan->last_decode, &counted_decode);
  if (status == UQ_OK && !merged)
    status = uq_rt_context_launch(context, &reduce, stream, &plan->last_reduce,
                                  &counted_reduce);
  plan->counted = counted_decode && (merged || counted_reduce);
  return status;
}
