// A plan's configuration: every field checked against what the kernels and
// their 32-bit offsets can serve, and the defaults resolved (scale, splits,
// strides, max_query_len, max_num_tokens).
#include <math.h>

#include "runtime/format/internal.h"
#include "runtime/plan/plan_internal.h"

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

uq_status_t uq_rt_plan_check_config(const uq_decode_config_t *in,
                                    uq_decode_config_t *out,
                                    uq_rt_views_t *views) {
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
  // The activations (query, key, value, output) are bf16 or fp16, one
  // dtype for all: the kernels write the output in the query's dtype.
  TRY(uq_check_dtype_("query_dtype", in->query_dtype));
  TRY(uq_check_dtype_("output_dtype", in->output_dtype));
  if (in->output_dtype != in->query_dtype)
    return INVALID("query_dtype %s and output_dtype %s differ: the output is "
                   "written in the query's dtype",
                   uq_dtype_name_(in->query_dtype),
                   uq_dtype_name_(in->output_dtype));
  // The kernel addresses one cache block through a buffer whose record count
  // and in-block offsets are 32-bit (products past 2^31 elsewhere are done
  // in 64 bits; see kernels/decode.mlir, "64-BIT ADDRESSING").
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
  // A view with an element stride is copied through dense rows, which the
  // attention kernels then read and write (the default strides below).
  TRY(uq_rt_view_resolve("query", in->query_stride_seq, in->query_stride_head,
                         in->query_stride_elem, hq, max_rows, D,
                         &views->query));
  TRY(uq_rt_view_resolve("output", in->output_stride_seq,
                         in->output_stride_head, in->output_stride_elem, hq,
                         max_rows, D, &views->output));
  if (views->query.gathered)
    out->query_stride_seq = out->query_stride_head = 0;
  if (views->output.gathered)
    out->output_stride_seq = out->output_stride_head = 0;
  out->query_stride_elem = out->output_stride_elem = 1;
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
  // The caller's view as the run checks it: a contiguous one is the rows
  // the kernels read and write in place.
  if (!views->query.gathered)
    views->query = (uq_rt_view_t){.stride_row = out->query_stride_seq,
                                  .stride_head = out->query_stride_head,
                                  .stride_elem = 1};
  if (!views->output.gathered)
    views->output = (uq_rt_view_t){.stride_row = out->output_stride_seq,
                                   .stride_head = out->output_stride_head,
                                   .stride_elem = 1};
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
