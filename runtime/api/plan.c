// The decode plan: configuration checks, variant choice, launch policy,
// workspace, and the run path (argument checks, kernarg packing, two
// launches). Nothing on the run path allocates.
#include "runtime/api/internal.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "runtime/api/plan_store.h"
#include "runtime/host_backend/host_decode.h"
#include "uq/policy.h"
#include "uq/reference.h"

// What the resident policy (sm_90a) takes from a decode kernel; zero
// elsewhere.
typedef struct resident_kernel_s {
  // Its dynamic shared memory (its cubin states it), for the occupancy
  // queries and every launch.
  uint32_t dynamic_lds;
  // Its CTAs per SM (the device's occupancy query).
  uint32_t workgroups_per_cu;
  // The tiles in a group of its walk (its cubin states it).
  uint32_t walk_group_tiles;
  // The largest P whose CTAs merge in the decode (P = 1 always; as
  // clusters of P only while the clusters keep every slot of the resident
  // policy: compute_units x workgroups_per_cu CTAs at once).
  uint32_t cluster_merge_max;
} resident_kernel_t;

// A decode kernel of the plan: its record, argument layout and kernarg
// segment (pre-packed with the plan's constants; NULL on the host backend,
// which runs no kernel but takes the record's block size).
typedef struct decode_kernel_s {
  uq_rt_object_t *object;
  uq_rt_arg_layout_t layout;
  uint8_t *args;
  uint32_t rows; // query rows of a block (uq_rt_record_rows)
  resident_kernel_t resident;
} decode_kernel_t;

// The most decode records a plan holds (gfx950 ships rows 8, 16, 32 and
// 64 for D = 256).
#define MAX_DECODE_KERNELS 4

struct uq_plan_s {
  uq_context_t *context;
  uq_decode_config_t config; // defaults resolved
  uint32_t num_query_heads;  // Hq = Hk * QG
  uq_fp8_overflow_t q_overflow;
  char variant[32];
  uint32_t max_partitions;
  // The GPU's SMs, for the resident policy (sm_90a; each kernel's own
  // figures in its resident_kernel_t); 0: the seed's policy (gfx950, sim,
  // host).
  uint32_t compute_units;
  // The resident policy's choice for batch b of decodes at [b - 1]
  // (kernels[0]'s), worked out once at plan creation (the workspace needs
  // every one) so a run only reads it; NULL with the seed's policy, which
  // costs nothing to recompute. A varlen run of another kernel computes its
  // own.
  uq_launch_walk_t *policies;
  // Workspace: segm_out [rows, QG, D] bf16, segm_max/sum [rows, QG] f32,
  // rows = max over batch <= max_batch of batch * Hk * P(batch).
  uint64_t workspace_rows;
  uq_device_ptr_t segm_out, segm_max, segm_sum;
  uint64_t workspace_bytes;
  // Workspace rows of one kv head: query tokens x partitions (a varlen run
  // of T tokens takes at most workspace_tokens / T partitions).
  uint64_t workspace_tokens;
  // Decode kernels, by rows: [0] serves uq_plan_run (the smallest block of
  // QG rows); a plan for varlen runs also holds the larger blocks up to the
  // one serving max_query_len x QG rows (a run takes the smallest that holds
  // its max_query_len tokens, else the largest). Empty on the host backend
  // without records.
  decode_kernel_t kernels[MAX_DECODE_KERNELS];
  uint32_t kernel_count;
  uq_rt_object_t *reduce;
  uq_rt_arg_layout_t reduce_layout;
  uint8_t *reduce_args;
  // Host copies of seq lens, query_start_loc, one block-table row and
  // sinks for the sim/host checks.
  int32_t *seq_lens_host, *qsl_host, *tables_host;
  float *sinks_host;
  int counted;
  uq_kernel_counters_t last_decode, last_reduce;
  uq_rt_store_t store; // uq_plan_store (plan_store.c)
  // Held by the call in flight (run, run_varlen, store): a plan serves one
  // call at a time (uqrt.h, "Threads").
  pthread_mutex_t busy;
  int busy_initialized;
};

#define INVALID(...) UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, __VA_ARGS__)
#define TRY(expr)                                                              \
  do {                                                                         \
    uq_status_t try_status_ = (expr);                                          \
    if (try_status_ != UQ_OK)                                                  \
      return try_status_;                                                      \
  } while (0)
#define UNIMPLEMENTED(...) UQ_MAKE_STATUS(UQ_STATUS_UNIMPLEMENTED, __VA_ARGS__)

// Two (sequence, head) rows of D elements never overlap under these
// strides: heads at least a row apart, sequences past the last head.
static uq_status_t check_strides(const char *what, int64_t stride_seq,
                                 int64_t stride_head, uint32_t heads,
                                 uint32_t max_rows, uint32_t head_dim) {
  // The int32 range first: it also keeps the span below from overflowing.
  if (stride_seq < 0 || stride_seq > INT32_MAX || stride_head > INT32_MAX)
    return INVALID("%s strides (%lld, %lld) do not fit the kernel's int32 "
                   "arguments",
                   what, (long long)stride_seq, (long long)stride_head);
  if (stride_head < head_dim)
    return INVALID("%s_stride_head %lld overlaps rows of %u elements", what,
                   (long long)stride_head, head_dim);
  int64_t span = (int64_t)(heads - 1) * stride_head + head_dim;
  if (max_rows > 1 && stride_seq < span)
    return INVALID("%s_stride_seq %lld overlaps the %u heads of the previous "
                   "sequence (needs >= %lld)",
                   what, (long long)stride_seq, heads, (long long)span);
  return UQ_OK;
}

static uq_status_t check_config(const uq_decode_config_t *in,
                                uq_decode_config_t *out) {
  *out = *in;
  TRY(uq_head_dim_check(in->head_dim));
  const uint32_t D = in->head_dim;
  if (in->query_group == 0)
    return INVALID("query_group must be >= 1");
  if (in->query_group > 16) // one 16-row MFMA tile holds a kv head's rows
    return UNIMPLEMENTED("query_group %u is not supported (1..16)",
                         in->query_group);
  if (in->block_size == 0 || (in->block_size & (in->block_size - 1)))
    return INVALID("block_size %u is not a power of two", in->block_size);
  if (in->block_size < 16 || in->block_size > 256)
    return UNIMPLEMENTED("block_size %u is not supported (16..256)",
                         in->block_size);
  if (in->padded_slot < UQ_SLOT_CONTENT_BYTES(D) || in->padded_slot % 4)
    return INVALID("padded_slot %u must be >= %u (head dim %u) and a "
                   "multiple of 4",
                   in->padded_slot, UQ_SLOT_CONTENT_BYTES(D), D);
  if (in->num_kv_heads == 0 || in->num_kv_heads > 4096)
    return INVALID("num_kv_heads %u must be in 1..4096", in->num_kv_heads);
  if (in->max_blocks_per_seq == 0 || in->max_blocks_per_seq > (1u << 24))
    return INVALID("max_blocks_per_seq %u must be in 1..2^24",
                   in->max_blocks_per_seq);
  if (in->num_blocks == 0 || in->num_blocks > INT32_MAX)
    return INVALID("num_blocks %u must be in 1..2^31-1", in->num_blocks);
  if (in->max_batch == 0 || in->max_batch > 65535)
    return INVALID("max_batch %u must be in 1..65535", in->max_batch);
  if (in->max_query_len > 65536)
    return INVALID("max_query_len %u must be at most 65536", in->max_query_len);
  if (in->max_num_tokens > (1u << 24))
    return INVALID("max_num_tokens %u must be at most 2^24",
                   in->max_num_tokens);
  if (in->max_kv_splits > 512)
    return INVALID("max_kv_splits %u must be at most 512", in->max_kv_splits);
  // The bound on the scale (issue 29; FLT_MAX was accepted and the sim's
  // output was all NaN where the exact reference is finite). Scores are
  // fp32: s = scale * q.k, with |q_i| <= 448 (E4M3) and |k_i| <= 6 * 2^127
  // (E2M1 times UE8M0 byte 254; 255 is NaN), D <= 256, so |q.k| <= 256 *
  // 448 * 6 * 2^127 = 688128 * 2^127 ~ 2^146.4, past FLT_MAX (< 2^128).
  // Keeping that finite would take scale <= FLT_MAX / (688128 * 2^127) =
  // (2 - 2^-23) / 688128 ~ 2.9e-6, below 1/sqrt(D) for every head dim, and
  // would not help: the MFMA's fp32 sums overflow before the scale (one
  // 32-element block reaches 32 * 448 * 6 * 2^127 ~ 2^143.4). What a bound
  // can guarantee is that the scale never turns a finite score infinite:
  // the gfx950 kernel forms s * scale, the sm_90a kernel s * (scale *
  // log2 e), then base-2 exponentials of differences to the row maximum
  // (<= 0, so their overflow is -inf, weight 0). |s| <= FLT_MAX stays
  // finite under both when scale * log2 e <= 1, i.e. scale <= ln 2 ~ 0.693,
  // checked as the sm_90a kernel rounds the product (fp32). Models use
  // 1/sqrt(D) <= 1/8 or similar; 0 asks for 1/sqrt(D).
  if (!isfinite(in->softmax_scale) || in->softmax_scale < 0.0f)
    return INVALID("softmax_scale %g must be finite and > 0 (0: 1/sqrt(D))",
                   (double)in->softmax_scale);
  if (in->softmax_scale * 1.44269504088896340736f > 1.0f)
    return INVALID("softmax_scale %g is above ln 2 = 0.6931: scale x log2(e) "
                   "> 1 can turn a finite score infinite",
                   (double)in->softmax_scale);
  if (in->sliding_window > INT32_MAX)
    return INVALID("sliding_window %u does not fit the kernel's int32 "
                   "argument",
                   in->sliding_window);
  if (in->query_dtype != UQ_DTYPE_BF16 || in->output_dtype != UQ_DTYPE_BF16)
    return UNIMPLEMENTED("query and output must be bf16 (got dtypes %d, %d)",
                         (int)in->query_dtype, (int)in->output_dtype);
  // The kernel addresses one cache block through a buffer whose record count
  // and in-block offsets are 32-bit (products past 2^31 elsewhere are done
  // in 64 bits; see kernels.mlir, "64-BIT ADDRESSING").
  uint64_t block_bytes =
      (uint64_t)in->block_size * in->num_kv_heads * in->padded_slot;
  if (block_bytes > INT32_MAX)
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "padded_slot %u: a block of %u tokens x %u kv heads "
                          "x %u bytes = %llu bytes passes the kernel's 2^31 - "
                          "1 byte block limit",
                          in->padded_slot, in->block_size, in->num_kv_heads,
                          in->padded_slot, (unsigned long long)block_bytes);
  uint32_t hq = in->num_kv_heads * in->query_group;
  if (out->max_query_len == 0)
    out->max_query_len = 1;
  if (out->max_num_tokens == 0) {
    uint64_t tokens = (uint64_t)in->max_batch * out->max_query_len;
    out->max_num_tokens = (uint32_t)(tokens < (1u << 24) ? tokens : (1u << 24));
  }
  // Query and output rows: the sequences of a decode, the tokens of a
  // varlen run.
  uint32_t max_rows =
      in->max_batch > out->max_num_tokens ? in->max_batch : out->max_num_tokens;
  if (out->softmax_scale == 0.0f)
    out->softmax_scale = (float)(1.0 / sqrt((double)D));
  if (out->max_kv_splits == 0)
    out->max_kv_splits = UQ_DEFAULT_MAX_KV_SPLITS;
  if (out->query_stride_head == 0)
    out->query_stride_head = D;
  if (out->output_stride_head == 0)
    out->output_stride_head = D;
  // The default sequence stride is a product: only for a head stride in the
  // kernel's range (else check_strides rejects the head stride; INT64_MIN
  // times Hq overflowed here before).
  if (out->query_stride_seq == 0 && out->query_stride_head > 0 &&
      out->query_stride_head <= INT32_MAX)
    out->query_stride_seq = (int64_t)hq * out->query_stride_head;
  if (out->output_stride_seq == 0 && out->output_stride_head > 0 &&
      out->output_stride_head <= INT32_MAX)
    out->output_stride_seq = (int64_t)hq * out->output_stride_head;
  TRY(check_strides("query", out->query_stride_seq, out->query_stride_head, hq,
                    max_rows, D));
  TRY(check_strides("output", out->output_stride_seq, out->output_stride_head,
                    hq, max_rows, D));
  // The kernel reads a kv head's QG query rows at 32-bit byte offsets from
  // the group's first row (the group's base itself is 64-bit).
  uint64_t group_bytes =
      ((uint64_t)(in->query_group - 1) * (uint64_t)out->query_stride_head + D) *
      2;
  if (group_bytes > INT32_MAX)
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "query_stride_head %lld: the %u query rows of a kv "
                          "head span %llu bytes, past the kernel's 2^31 - 1 "
                          "byte offsets",
                          (long long)out->query_stride_head, in->query_group,
                          (unsigned long long)group_bytes);
  return UQ_OK;
}

// The resident policy (sm_90a) for `blocks` blocks of `kernel`.
static uq_status_t resident_policy(const uq_plan_t *plan,
                                   const decode_kernel_t *kernel,
                                   uint32_t blocks,
                                   uq_launch_walk_t *out_policy) {
  const uq_decode_config_t *c = &plan->config;
  return uq_launch_policy_resident(
      (int32_t)blocks, (int32_t)c->num_kv_heads, (int32_t)c->max_blocks_per_seq,
      (int32_t)c->block_size, (int32_t)c->head_dim, (int32_t)c->sliding_window,
      (int32_t)plan->compute_units, (int32_t)kernel->resident.workgroups_per_cu,
      (int32_t)kernel->resident.walk_group_tiles, out_policy);
}

static uq_status_t policy_for(const uq_plan_t *plan, uint32_t batch,
                              uq_launch_walk_t *out_policy) {
  const uq_decode_config_t *c = &plan->config;
  if (plan->policies) {
    *out_policy = plan->policies[batch - 1];
    return UQ_OK;
  }
  if (plan->compute_units)
    return resident_policy(plan, &plan->kernels[0], batch, out_policy);
  // The seed's policy: a walk of 256-token tile-groups.
  uq_launch_plan_t seed;
  UQ_RETURN_IF_ERROR(
      uq_launch_policy_window((int32_t)batch, (int32_t)c->max_blocks_per_seq,
                              (int32_t)c->block_size, (int32_t)c->head_dim,
                              (int32_t)c->max_kv_splits,
                              (int32_t)c->sliding_window, &seed),
      "seed policy");
  *out_policy = (uq_launch_walk_t){seed.num_partitions, seed.tgpp,
                                   UQ_TILE_GROUP_TOKENS / UQ_TILE_TOKENS};
  return UQ_OK;
}

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
  uq_rt_free(&context->allocator, plan);
}

// An sm_90a decode merges the partitions itself, with no reduce launch, for
// P = 1 and, as clusters of P CTAs, up to its cluster_merge_max (0: a
// kernel that does not, or none).
static uint32_t merge_max_partitions(const decode_kernel_t *kernel) {
  return kernel && kernel->layout.count == UQ_DECODE_SM90_ARG_COUNT
             ? kernel->resident.cluster_merge_max
             : 0;
}

// The largest P (1..UQ_SM90_CLUSTER_MAX_PARTITIONS) such that clusters of
// every size up to P lose no slot of the resident policy. Measured on the
// H200: clusters of 2 keep all 264 slots of D 256 and save the reduce
// launch; clusters of 8 do not, and ran 55% slower than decode + reduce.
static uq_status_t find_cluster_merge_max(const uq_plan_t *plan,
                                          decode_kernel_t *kernel) {
  uq_rt_device_t *device = plan->context->device;
  const uq_rt_object_t *decode = kernel->object;
  resident_kernel_t *r = &kernel->resident;
  r->cluster_merge_max = 1;
  if (!device->vtable->cluster_occupancy)
    return UQ_OK;
  uint32_t slots = plan->compute_units * r->workgroups_per_cu;
  for (uint32_t p = 2; p <= UQ_SM90_CLUSTER_MAX_PARTITIONS; ++p) {
    uint32_t clusters = 0;
    UQ_RETURN_IF_ERROR(device->vtable->cluster_occupancy(
                           device, decode->function, UQ_SM90_DECODE_THREADS,
                           r->dynamic_lds, p, &clusters),
                       "variant %s", decode->source.variant);
    if ((uint64_t)clusters * p < slots)
      break;
    r->cluster_merge_max = p;
  }
  return UQ_OK;
}

// A decode kernel's figures for the resident policy: its own statements
// (shared memory, walk groups, from its cubin), the device's occupancy for
// it and its cluster merge. The SMs are the device's (plan->compute_units).
static uq_status_t prepare_resident(uq_plan_t *plan, decode_kernel_t *kernel) {
  uq_context_t *context = plan->context;
  uq_rt_object_t *decode = kernel->object;
  resident_kernel_t *r = &kernel->resident;
  TRY(uq_rt_context_load_object(context, decode));
  // The decode's own statement of its shared memory (kernels.mlir's
  // layout, read from the cubin's uq_dynamic_shared_bytes).
  r->dynamic_lds = decode->kernel->dynamic_shared_bytes;
  if (r->dynamic_lds == 0)
    return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                          "variant %s states no dynamic shared memory (its "
                          "cubin has no uq_dynamic_shared_bytes)",
                          decode->source.variant);
  r->walk_group_tiles = decode->kernel->walk_group_tiles;
  if (!uq_launch_group_tiles_valid(r->walk_group_tiles))
    return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                          "variant %s states a walk of %u tiles a group "
                          "(its cubin's uq_walk_group_tiles), not 1, 2, 4, "
                          "8 or 16",
                          decode->source.variant, r->walk_group_tiles);
  UQ_RETURN_IF_ERROR(context->device->vtable->occupancy(
                         context->device, decode->function,
                         UQ_SM90_DECODE_THREADS, r->dynamic_lds,
                         &plan->compute_units, &r->workgroups_per_cu),
                     "variant %s", decode->source.variant);
  return find_cluster_merge_max(plan, kernel);
}

static uint32_t f32_bits(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  return bits;
}

// Checks, loads and pre-packs the plan's decode kernels and its reduce.
static uq_status_t prepare_kernels(uq_plan_t *plan) {
  const uq_decode_config_t *c = &plan->config;
  for (uint32_t k = 0; k < plan->kernel_count; ++k) {
    decode_kernel_t *kernel = &plan->kernels[k];
    TRY(uq_rt_kernel_prepare(plan->context, kernel->object,
                             uq_rt_decode_arg_specs,
                             uq_rt_decode_arg_count(&kernel->object->source),
                             &kernel->layout, &kernel->args));
    const uint32_t *d = kernel->layout.offset;
    uint8_t *a = kernel->args;
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_SEGM_OUT], 8, plan->segm_out);
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_SEGM_MAX], 8, plan->segm_max);
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_SEGM_SUM], 8, plan->segm_sum);
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_NUM_KV_HEADS], 4, c->num_kv_heads);
    uq_rt_arg_put(a, d[UQ_DECODE_ARG_QUERY_GROUP], 4, c->query_group);
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
    if (merge_max_partitions(kernel)) {
      uq_rt_arg_put(a, d[UQ_DECODE_SM90_ARG_OUT_STRIDE_SEQ], 4,
                    (uint64_t)c->output_stride_seq);
      uq_rt_arg_put(a, d[UQ_DECODE_SM90_ARG_OUT_STRIDE_HEAD], 4,
                    (uint64_t)c->output_stride_head);
    }
  }
  TRY(uq_rt_context_find_variant(plan->context, UQ_VARIANT_KIND_REDUCE,
                                 c->head_dim, 0, 0, &plan->reduce));
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
  uq_rt_arg_put(a, r[UQ_REDUCE_ARG_OUT_STRIDE_SEQ], 4,
                (uint64_t)c->output_stride_seq);
  uq_rt_arg_put(a, r[UQ_REDUCE_ARG_OUT_STRIDE_HEAD], 4,
                (uint64_t)c->output_stride_head);
  uq_rt_arg_put(a, plan->reduce_layout.block_count[1], 4,
                plan->num_query_heads);
  uq_rt_arg_put(a, plan->reduce_layout.block_count[2], 4, c->head_dim / 64);
  return UQ_OK;
}

// The plan's decode records: the one a decode runs first, then, for
// varlen runs, every larger block of the table (same target, D, a qg_max
// >= QG) up to the one that holds max_query_len x QG rows.
static uq_status_t find_kernels(uq_plan_t *plan) {
  uq_context_t *context = plan->context;
  const uq_decode_config_t *c = &plan->config;
  uq_rt_object_t *decode = NULL, *largest = NULL;
  uq_status_t found =
      uq_rt_context_find_variant(context, UQ_VARIANT_KIND_DECODE, c->head_dim,
                                 c->query_group, c->query_group, &decode);
  // The host backend runs without a record, even from a table that lacks
  // the shape.
  if (found != UQ_OK && context->backend != UQ_BACKEND_HOST)
    return found;
  uq_status_free(found);
  if (!decode)
    return UQ_OK;
  plan->kernels[0] = (decode_kernel_t){
      decode, {0}, NULL, uq_rt_record_rows(&decode->source), {0}};
  plan->kernel_count = 1;
  uint64_t want = (uint64_t)c->max_query_len * c->query_group;
  TRY(uq_rt_context_find_variant(
      context, UQ_VARIANT_KIND_DECODE, c->head_dim, c->query_group,
      (uint32_t)(want < UINT32_MAX ? want : UINT32_MAX), &largest));
  uint32_t top = uq_rt_record_rows(&largest->source);
  // Ascending rows: each step takes the smallest block above the last (the
  // table's own choice for one row more), up to the largest needed.
  while (plan->kernel_count < MAX_DECODE_KERNELS) {
    uint32_t below = plan->kernels[plan->kernel_count - 1].rows;
    if (below >= top)
      break;
    uq_rt_object_t *next = NULL;
    TRY(uq_rt_context_find_variant(context, UQ_VARIANT_KIND_DECODE, c->head_dim,
                                   c->query_group, below + 1, &next));
    uint32_t rows = uq_rt_record_rows(&next->source);
    if (rows <= below)
      break;
    plan->kernels[plan->kernel_count++] =
        (decode_kernel_t){next, {0}, NULL, rows, {0}};
  }
  return UQ_OK;
}

// The plan's kernel for a varlen run whose longest query has `tokens`
// tokens: the smallest block that holds them, else the largest (NULL
// without records: the host backend's faithful reference then takes
// blocks of one token).
static const decode_kernel_t *kernel_for(const uq_plan_t *plan,
                                         uint32_t tokens) {
  if (plan->kernel_count == 0)
    return NULL;
  uint64_t want = (uint64_t)tokens * plan->config.query_group;
  for (uint32_t k = 0; k < plan->kernel_count; ++k)
    if (plan->kernels[k].rows >= want)
      return &plan->kernels[k];
  return &plan->kernels[plan->kernel_count - 1];
}

// The query tokens of a block of `kernel` (1 without one): floor(rows /
// QG), as the kernels' @query_block and @uq_sm90_query_block.
static uint32_t block_tokens_of(const uq_plan_t *plan,
                                const decode_kernel_t *kernel) {
  if (!kernel)
    return 1;
  return kernel->rows / plan->config.query_group;
}

static uq_status_t plan_initialize(uq_plan_t *plan,
                                   const uq_decode_config_t *config) {
  uq_context_t *context = plan->context;
  UQ_RETURN_IF_ERROR(check_config(config, &plan->config), "decode config");
  const uq_decode_config_t *c = &plan->config;
  plan->num_query_heads = c->num_kv_heads * c->query_group;
  TRY(find_kernels(plan));
  uq_rt_object_t *decode = plan->kernel_count ? plan->kernels[0].object : NULL;
  // A block's query rows sit at 32-bit byte offsets from its first token's
  // first head (the block's base itself is 64-bit): the largest block of
  // the plan's kernels bounds it (a decode's QG heads: check_config).
  uint32_t block_tokens = block_tokens_of(plan, kernel_for(plan, UINT32_MAX));
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
      TRY(prepare_resident(plan, &plan->kernels[k]));

  // A run computes P for its own batch and the workspace holds the largest
  // batch * P. The seed policy's cap depends on the batch (512 partitions up
  // to 8 sequences, 256 above) and nothing else does: P is the same for
  // every batch on one side of 8, so the largest batch of each side is all
  // that needs evaluating. The resident policy is evaluated for every batch.
  // A varlen run's tokens share the same rows (at least one partition a
  // token: max_num_tokens rows).
  uint64_t rows = 0;
  const uint32_t candidates[2] = {c->max_batch < 8 ? c->max_batch : 8,
                                  c->max_batch};
  uint32_t count = plan->compute_units ? c->max_batch : 2;
  uq_launch_walk_t *policies = NULL;
  if (plan->compute_units) {
    policies = uq_rt_alloc(&context->allocator,
                           (size_t)c->max_batch * sizeof(*policies));
    if (!policies)
      return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                            "policy table of %u batches", c->max_batch);
  }
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t batch = plan->compute_units ? i + 1 : candidates[i];
    uq_launch_walk_t policy;
    uq_status_t status = policy_for(plan, batch, &policy);
    if (status != UQ_OK) {
      uq_rt_free(&context->allocator, policies);
      return uq_status_annotate(status, "launch policy");
    }
    if (policies)
      policies[i] = policy;
    uint64_t batch_rows = (uint64_t)batch * policy.num_partitions;
    if (batch_rows > rows)
      rows = batch_rows;
    if ((uint32_t)policy.num_partitions > plan->max_partitions)
      plan->max_partitions = (uint32_t)policy.num_partitions;
  }
  plan->policies = policies;
  // Varlen runs: a verify step of up to 4 tokens a sequence splits like the
  // decode of its batch (4 x the decode's rows); longer queries take fewer
  // partitions (their tokens fill the device), one at least (max_num_tokens
  // rows).
  if (c->max_query_len > 1)
    rows *= c->max_query_len < 4 ? c->max_query_len : 4;
  // A step of decodes may be padded to more rows than sequences (a CUDA
  // graph's fixed token count): max_num_tokens bounds the rows whatever
  // max_query_len is.
  if (c->max_num_tokens > rows)
    rows = c->max_num_tokens;
  plan->workspace_tokens = rows;
  plan->workspace_rows = rows * c->num_kv_heads;
  uint64_t entries = plan->workspace_rows * c->query_group;
  uint64_t out_bytes = entries * c->head_dim * 2, stat_bytes = entries * 4;
  plan->workspace_bytes = out_bytes + 2 * stat_bytes;
  if (plan->workspace_bytes > ((uint64_t)1 << 40))
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "workspace of %llu bytes is too large",
                          (unsigned long long)plan->workspace_bytes);
  UQ_RETURN_IF_ERROR(
      uq_context_alloc(context, (size_t)out_bytes, &plan->segm_out),
      "workspace segm_out");
  UQ_RETURN_IF_ERROR(
      uq_context_alloc(context, (size_t)stat_bytes, &plan->segm_max),
      "workspace segm_max");
  UQ_RETURN_IF_ERROR(
      uq_context_alloc(context, (size_t)stat_bytes, &plan->segm_sum),
      "workspace segm_sum");

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
    // Host backend only (the others fail below): no kernel runs.
    snprintf(plan->variant, sizeof(plan->variant), "host");
  }

  if (context->backend != UQ_BACKEND_HOST)
    TRY(prepare_kernels(plan));
  if (!uq_rt_backend_is_gpu(context->backend)) {
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
      merge_max_partitions(plan->kernel_count ? &plan->kernels[0] : NULL);
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
  UQ_RETURN_IF_ERROR(policy_for(plan, batch, out_walk), "launch policy");
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

uq_status_t uq_plan_last_counters(const uq_plan_t *plan,
                                  uq_kernel_counters_t *out_decode,
                                  uq_kernel_counters_t *out_reduce) {
  if (!plan || !out_decode || !out_reduce)
    return INVALID("uq_plan_last_counters: NULL argument");
  memset(out_decode, 0, sizeof(*out_decode));
  memset(out_reduce, 0, sizeof(*out_reduce));
  if (plan->context->backend != UQ_BACKEND_SIM ||
      (plan->context->flags & UQ_CONTEXT_FLAG_NULL_LAUNCH))
    return UNIMPLEMENTED("the %s backend has no counters",
                         uq_backend_name(plan->context->backend));
  if (!plan->counted)
    return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                          "the plan has not run yet");
  *out_decode = plan->last_decode;
  *out_reduce = plan->last_reduce;
  return UQ_OK;
}

// Sim and host: read back the small int tables and check them the way the
// kernel will use them. A decode's kernel reads block-table entry 0 for
// tiles past seq_len, so entry 0 must be a valid block even for an empty
// sequence. Only the entries a sequence uses are read back, row by row: a
// table may span gigabytes (max_batch x 2^24 entries) of which a run
// touches little. A varlen run (query_start_loc given) also has its
// offsets checked: non-decreasing within [0, num_tokens], each q_len
// within its seq_len and max_query_len.
static uq_status_t check_tables(uq_plan_t *plan, uint32_t batch,
                                uq_device_ptr_t block_tables,
                                uq_device_ptr_t seq_lens, uq_device_ptr_t sinks,
                                uq_device_ptr_t query_start_loc,
                                uint32_t num_tokens, uint32_t max_query_len) {
  const uq_decode_config_t *c = &plan->config;
  uq_context_t *context = plan->context;
  if (sinks) {
    UQ_RETURN_IF_ERROR(
        uq_context_download(context, plan->sinks_host, sinks,
                            plan->num_query_heads * sizeof(float)),
        "reading sinks");
    for (uint32_t h = 0; h < plan->num_query_heads; ++h)
      if (isnan(plan->sinks_host[h]) || plan->sinks_host[h] == INFINITY)
        return INVALID("sinks[%u] = %g must be finite or -inf", h,
                       (double)plan->sinks_host[h]);
  }
  UQ_RETURN_IF_ERROR(uq_context_download(context, plan->seq_lens_host, seq_lens,
                                         batch * sizeof(int32_t)),
                     "reading seq_lens");
  const int32_t *qsl = NULL;
  if (query_start_loc) {
    UQ_RETURN_IF_ERROR(uq_context_download(context, plan->qsl_host,
                                           query_start_loc,
                                           (batch + 1) * sizeof(int32_t)),
                       "reading query_start_loc");
    qsl = plan->qsl_host;
    if (qsl[0] < 0)
      return INVALID("query_start_loc[0] = %d is negative", qsl[0]);
    if ((uint32_t)qsl[batch] > num_tokens)
      return INVALID("query_start_loc[%u] = %d is past the run's %u query "
                     "tokens",
                     batch, qsl[batch], num_tokens);
    for (uint32_t b = 0; b < batch; ++b)
      if (qsl[b + 1] < qsl[b])
        return INVALID("query_start_loc[%u] = %d is below "
                       "query_start_loc[%u] = %d (offsets must not decrease)",
                       b + 1, qsl[b + 1], b, qsl[b]);
  }
  int64_t max_len = (int64_t)c->max_blocks_per_seq * c->block_size;
  for (uint32_t b = 0; b < batch; ++b) {
    int32_t len = plan->seq_lens_host[b];
    if (len < 0 || len > max_len)
      return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                            "seq_lens[%u] = %d is outside 0..%lld (the "
                            "block-table row holds %u blocks of %u)",
                            b, len, (long long)max_len, c->max_blocks_per_seq,
                            c->block_size);
    int32_t q_len = qsl ? qsl[b + 1] - qsl[b] : 1;
    if (qsl && q_len > len)
      return INVALID("query_start_loc: sequence %u has %d query tokens, more "
                     "than its seq_lens[%u] = %d",
                     b, q_len, b, len);
    if (qsl && (uint32_t)q_len > max_query_len)
      return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                            "query_start_loc: sequence %u has %d query "
                            "tokens, more than the run's max_query_len %u",
                            b, q_len, max_query_len);
    if (q_len == 0)
      continue; // none of its blocks is read
    uint32_t used = (uint32_t)((len + c->block_size - 1) / c->block_size);
    if (used == 0)
      used = 1;
    // Blocks wholly before the first query token's sliding window are
    // never read.
    uint32_t first = 0;
    int64_t limit0 = (int64_t)len - q_len + 1;
    if (c->sliding_window > 0 && limit0 > c->sliding_window)
      first = (uint32_t)((limit0 - c->sliding_window) / c->block_size);
    uint64_t row_start = (uint64_t)b * c->max_blocks_per_seq + first;
    UQ_RETURN_IF_ERROR(
        uq_context_download(context, plan->tables_host,
                            block_tables + row_start * sizeof(int32_t),
                            (size_t)(used - first) * sizeof(int32_t)),
        "reading block_tables row %u", b);
    for (uint32_t i = first; i < used; ++i) {
      int32_t block = plan->tables_host[i - first];
      if (block < 0 || (uint32_t)block >= c->num_blocks)
        return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                              "block_tables[%u][%u] = %d is outside the "
                              "cache's %u blocks",
                              b, i, block, c->num_blocks);
    }
  }
  return UQ_OK;
}

// One run's launches: the decode kernel over `blocks` query blocks (a
// decode: the sequences), its partials reduced over `rows` output rows (a
// decode: the sequences; varlen: the query tokens).
typedef struct run_launch_s {
  const decode_kernel_t *kernel;
  uint32_t blocks, rows, num_seqs;
  uq_launch_walk_t policy;
  uq_device_ptr_t query_start_loc; // 0: a decode
  uint32_t search_seqs;            // 0: block x = sequence x
} run_launch_t;

// Rows of D bf16 elements, `seqs` by `heads` at these strides: the bytes
// from the first to the end of the last (strides >= 0, checked at plan
// time to keep this in range).
static uint64_t rows_bytes(uint32_t seqs, int64_t stride_seq, uint32_t heads,
                           int64_t stride_head, uint32_t D) {
  return ((uint64_t)(seqs - 1) * (uint64_t)stride_seq +
          (uint64_t)(heads - 1) * (uint64_t)stride_head + D) *
         sizeof(uint16_t);
}

// Sim and host: every buffer of the run lies in one allocation with room
// for all the run reads or writes there, checked before anything is read
// or written (the host reference would otherwise follow any pointer). A
// decode's query and output rows are its sequences, a varlen run's its
// query tokens (run->rows).
static uq_status_t
check_buffers(uq_plan_t *plan, const run_launch_t *run, uq_device_ptr_t query,
              uq_device_ptr_t kv_cache, uq_device_ptr_t block_tables,
              uq_device_ptr_t seq_lens, uq_device_ptr_t sinks,
              uq_device_ptr_t output) {
  const uq_decode_config_t *c = &plan->config;
  uint32_t hq = plan->num_query_heads;
  const struct {
    const char *name;
    uq_device_ptr_t address;
    uint64_t bytes;
  } buffers[] = {
      {"query", query,
       rows_bytes(run->rows, c->query_stride_seq, hq, c->query_stride_head,
                  c->head_dim)},
      {"kv_cache", kv_cache,
       (uint64_t)c->num_blocks * c->block_size * c->num_kv_heads *
           c->padded_slot},
      {"block_tables", block_tables,
       (uint64_t)run->num_seqs * c->max_blocks_per_seq * sizeof(int32_t)},
      {"seq_lens", seq_lens, (uint64_t)run->num_seqs * sizeof(int32_t)},
      {"query_start_loc", run->query_start_loc,
       run->query_start_loc ? ((uint64_t)run->num_seqs + 1) * sizeof(int32_t)
                            : 0},
      {"sinks", sinks, sinks ? (uint64_t)hq * sizeof(float) : 0},
      {"output", output,
       rows_bytes(run->rows, c->output_stride_seq, hq, c->output_stride_head,
                  c->head_dim)},
  };
  uq_status_t status = UQ_OK;
  for (size_t i = 0; !status && i < sizeof(buffers) / sizeof(buffers[0]); ++i)
    if (buffers[i].bytes)
      status = uq_rt_context_check_buffer(plan->context, buffers[i].name,
                                          buffers[i].address, buffers[i].bytes);
  return status;
}

static uq_status_t run_kernels(uq_plan_t *plan, const run_launch_t *run,
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
      .workgroup = {64, 1, 1},
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
      .grid = {run->rows, plan->num_query_heads, plan->config.head_dim / 64},
      .workgroup = {64, 1, 1},
      .kernargs = plan->reduce_args,
      .kernarg_size = plan->reduce_layout.kernarg_size,
      // The partitions its two loops merge (a varlen row's span check is
      // straight-line code).
      .loop_trips = (uint64_t)policy->num_partitions,
  };
  // sm_90a: P = 1, and P CTAs launched as one cluster, merge in the decode.
  uint32_t partitions = (uint32_t)policy->num_partitions;
  uint32_t merge_max = merge_max_partitions(kernel);
  int merged = partitions <= merge_max;
  if (merge_max) {
    uq_rt_arg_put(a = kernel->args, d[UQ_DECODE_SM90_ARG_OUTPUT], 8, output);
    uq_rt_arg_put(a, d[UQ_DECODE_SM90_ARG_SINKS], 8, sinks);
    decode.cluster_z = merged ? partitions : 1;
  }
  if (context->backend == UQ_BACKEND_CUDA) { // kernel_abi.h, sm_90a
    // The reduce starts with griddepcontrol.wait; the decode lets it launch
    // once its tiles are done (kernels.mlir), so its CTAs are resident when
    // the decode ends.
    reduce.waits_for_previous = 1;
    decode.workgroup[0] = UQ_SM90_DECODE_THREADS;
    decode.dynamic_lds = kernel->resident.dynamic_lds;
    reduce.grid[2] = 1;
    reduce.workgroup[0] = UQ_SM90_REDUCE_THREADS(plan->config.head_dim);
  }

  int counted_decode = 0, counted_reduce = 0;
  uq_status_t status = uq_rt_context_launch(
      context, &decode, stream, &plan->last_decode, &counted_decode);
  if (status == UQ_OK && !merged)
    status = uq_rt_context_launch(context, &reduce, stream, &plan->last_reduce,
                                  &counted_reduce);
  plan->counted = counted_decode && (merged || counted_reduce);
  return status;
}

// The host backend: the faithful reference with the kernels' walk and
// blocks, on host memory.
static uq_status_t run_host(uq_plan_t *plan, const run_launch_t *run,
                            uq_device_ptr_t query, uq_device_ptr_t kv_cache,
                            uq_device_ptr_t block_tables,
                            uq_device_ptr_t seq_lens, uq_device_ptr_t sinks,
                            uq_device_ptr_t output) {
  const uq_decode_config_t *c = &plan->config;
  uq_host_decode_args_t args = {
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
      .block_tokens = (int32_t)block_tokens_of(plan, run->kernel),
  };
  return uq_host_decode(&args);
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
  uq_backend_t backend = plan->context->backend;
  const char *what =
      run->query_start_loc ? "uq_plan_run_varlen" : "uq_plan_run";
  if (!uq_rt_backend_is_gpu(backend)) {
    UQ_RETURN_IF_ERROR(check_buffers(plan, run, query, kv_cache, block_tables,
                                     seq_lens, sinks, output),
                       "%s", what);
    UQ_RETURN_IF_ERROR(check_tables(plan, run->num_seqs, block_tables, seq_lens,
                                    sinks, run->query_start_loc, num_tokens,
                                    max_query_len),
                       "%s", what);
  }
  if (backend == UQ_BACKEND_HOST)
    return run_host(plan, run, query, kv_cache, block_tables, seq_lens, sinks,
                    output);
  return run_kernels(plan, run, query, kv_cache, block_tables, seq_lens, sinks,
                     output, stream);
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
  UQ_RETURN_IF_ERROR(policy_for(plan, batch, &run.policy), "launch policy");
  TRY(plan_enter(plan, "uq_plan_run"));
  return plan_leave(plan,
                    run_checked(plan, &run, batch, 1, query, kv_cache,
                                block_tables, seq_lens, sinks, output, stream));
}

// The positions a block of `tokens` query tokens walks: its table row, or
// with a window W + tokens + 14 (the first token's window from the start of
// its tile to the last token).
static int64_t walk_span(const uq_decode_config_t *c, uint32_t tokens) {
  int64_t span = (int64_t)c->max_blocks_per_seq * c->block_size;
  if (c->sliding_window > 0 && (int64_t)c->sliding_window + tokens + 14 < span)
    span = (int64_t)c->sliding_window + tokens + 14;
  return span;
}

// A varlen walk of `parts` partitions of groups of `group_tiles` tiles,
// fitted to the plan: at most workspace_tokens / num_tokens partitions (the
// partials are by token), and each partition's groups stretched when they
// no longer cover `span` positions together.
static uq_status_t fit_walk(const uq_plan_t *plan, uint32_t num_tokens,
                            int64_t span, int64_t parts,
                            int64_t groups_per_partition, int32_t group_tiles,
                            uq_launch_walk_t *out) {
  uint64_t cap = plan->workspace_tokens / num_tokens;
  if ((uint64_t)parts > cap)
    parts = (int64_t)(cap ? cap : 1);
  int64_t group = (int64_t)UQ_TILE_TOKENS * group_tiles;
  int64_t groups = (span + group - 1) / group;
  if (parts * groups_per_partition < groups)
    groups_per_partition = (groups + parts - 1) / parts;
  if (groups_per_partition > INT32_MAX)
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "varlen policy: %lld tile-groups a partition",
                          (long long)groups_per_partition);
  *out = (uq_launch_walk_t){(int32_t)parts, (int32_t)groups_per_partition,
                            group_tiles};
  return UQ_OK;
}

// sm_90a's varlen walk: the resident policy's for the blocks that hold
// the run's tokens (num_tokens / bt rounded up, at least one a sequence:
// exact when every q_len is a multiple of bt; the further blocks of a vLLM
// grid have no token), fitted to the workspace and to `span` positions.
static uq_status_t varlen_walk_resident(const uq_plan_t *plan,
                                        const run_launch_t *run,
                                        uint32_t num_tokens, uint32_t bt,
                                        int64_t span, uq_launch_walk_t *out) {
  uint32_t blocks = (num_tokens + bt - 1) / bt;
  if (blocks < run->num_seqs)
    blocks = run->num_seqs;
  if (blocks > run->blocks)
    blocks = run->blocks;
  uq_launch_walk_t walk;
  if (run->kernel == &plan->kernels[0] && blocks <= plan->config.max_batch)
    walk = plan->policies[blocks - 1];
  else
    UQ_RETURN_IF_ERROR(resident_policy(plan, run->kernel, blocks, &walk),
                       "varlen policy");
  return fit_walk(plan, num_tokens, span, walk.num_partitions,
                  walk.groups_per_partition, walk.group_tiles, out);
}

// A varlen run's launch: the kernel whose block holds max_query_len tokens
// (else the largest), one block a sequence when it does (else vLLM's grid
// of num_tokens / bt + num_seqs blocks, each finding its sequence), and the
// decode's policy for that many blocks, fitted to the block's rows and the
// workspace.
static uq_status_t varlen_launch(const uq_plan_t *plan, uint32_t num_seqs,
                                 uint32_t num_tokens, uint32_t max_query_len,
                                 run_launch_t *out) {
  const uq_decode_config_t *c = &plan->config;
  if (num_seqs == 0 || num_seqs > c->max_batch)
    return INVALID("num_seqs %u is outside 1..%u (the plan's max_batch)",
                   num_seqs, c->max_batch);
  if (num_tokens == 0 || num_tokens > c->max_num_tokens)
    return INVALID("num_tokens %u is outside 1..%u (the plan's "
                   "max_num_tokens)",
                   num_tokens, c->max_num_tokens);
  if (max_query_len == 0 || max_query_len > c->max_query_len)
    return INVALID("max_query_len %u is outside 1..%u (the plan's "
                   "max_query_len)",
                   max_query_len, c->max_query_len);
  memset(out, 0, sizeof(*out));
  out->kernel = kernel_for(plan, max_query_len);
  uint32_t bt = block_tokens_of(plan, out->kernel);
  int search = max_query_len > bt;
  // (blocks of one token tile the tokens: no block a sequence more)
  out->blocks = !search  ? num_seqs
                : bt > 1 ? num_tokens / bt + num_seqs
                         : num_tokens;
  out->rows = num_tokens;
  out->num_seqs = num_seqs;
  out->search_seqs = search ? num_seqs : 0;
  int64_t span = walk_span(c, bt < max_query_len ? bt : max_query_len);
  if (plan->compute_units) // the resident policy (sm_90a)
    return varlen_walk_resident(plan, out, num_tokens, bt, span, &out->policy);
  // The seed policy for the blocks (the decode's, for blocks of one token).
  uq_launch_plan_t seed;
  UQ_RETURN_IF_ERROR(uq_launch_policy_window(
                         (int32_t)out->blocks, (int32_t)c->max_blocks_per_seq,
                         (int32_t)c->block_size, (int32_t)c->head_dim,
                         (int32_t)c->max_kv_splits, (int32_t)c->sliding_window,
                         &seed),
                     "varlen policy");
  int64_t parts = seed.num_partitions;
  // A partition's fixed work (the query rotation, the partial store, its
  // share of the reduce) grows with the block's row tiles while a tile's
  // grows less (K and V are loaded and converted once for all of them):
  // the seed's ~192 tokens a partition pays for itself become 192 per row
  // tile (one row tile: the seed's own rule, so a decode's blocks split as
  // the decode).
  const int64_t row_tiles = out->kernel ? (out->kernel->rows + 15) / 16 : 1;
  if (row_tiles > 1) {
    int64_t useful = (span + 192 * row_tiles - 1) / (192 * row_tiles);
    if (parts > useful)
      parts = useful > 1 ? useful : 1;
  }
  return fit_walk(plan, num_tokens, span, parts, seed.tgpp,
                  UQ_TILE_GROUP_TOKENS / UQ_TILE_TOKENS, &out->policy);
}

uq_status_t uq_plan_varlen_shape(const uq_plan_t *plan, uint32_t num_seqs,
                                 uint32_t num_tokens, uint32_t max_query_len,
                                 uq_varlen_shape_t *out_shape) {
  if (out_shape)
    memset(out_shape, 0, sizeof(*out_shape));
  if (!plan || !out_shape)
    return INVALID("uq_plan_varlen_shape: NULL argument");
  run_launch_t run;
  TRY(varlen_launch(plan, num_seqs, num_tokens, max_query_len, &run));
  snprintf(out_shape->variant, sizeof(out_shape->variant), "%s",
           run.kernel ? run.kernel->object->source.variant : "host");
  out_shape->block_tokens = block_tokens_of(plan, run.kernel);
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
  TRY(varlen_launch(plan, num_seqs, num_tokens, max_query_len, &run));
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
  if (plan->context->backend != UQ_BACKEND_SIM ||
      (plan->context->flags & UQ_CONTEXT_FLAG_NULL_LAUNCH))
    return UNIMPLEMENTED("the %s backend has no counters",
                         uq_backend_name(plan->context->backend));
  if (!plan->store.counted)
    return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                          "no store has launched on this plan yet");
  *out_store = plan->store.last;
  return UQ_OK;
}
