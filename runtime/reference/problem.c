// The host references' problem checks (uq_decode_problem_validate) and the
// row helpers the exact and faithful modes share.
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/format/internal.h"
#include "runtime/reference/reference_internal.h"

// One 16-row MFMA tile holds the query rows of a kv head.
static bool supported_qg(int32_t qg) { return qg >= 1 && qg <= 16; }

static bool supported_block_size(int32_t bs) {
  return bs == 16 || bs == 32 || bs == 64 || bs == 128 || bs == 256;
}

// A sink is a logit or -inf (none); NaN and +inf have no meaning.
uq_status_t uq_ref_check_sinks_(const float *sinks, int64_t count) {
  if (!sinks)
    return UQ_OK;
  for (int64_t i = 0; i < count; ++i)
    if (isnan(sinks[i]) || sinks[i] == INFINITY)
      return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                            "sinks[%lld] = %g must be finite or -inf",
                            (long long)i, (double)sinks[i]);
  return UQ_OK;
}

// The first token a query attends to under a sliding window (0 = none),
// for a query that attends the positions before `len`.
static int64_t window_start(int64_t len, int32_t window) {
  return window > 0 && len > window ? len - window : 0;
}

// The query tokens: T rows of query and output (one per sequence for a
// decode).
static int64_t num_query_tokens(const uq_decode_problem_t *p) {
  return p->query_start_loc ? p->query_start_loc[p->num_seqs] : p->num_seqs;
}

query_span_t uq_ref_query_span_(const uq_decode_problem_t *p, int32_t b) {
  if (!p->query_start_loc)
    return (query_span_t){b, 1};
  return (query_span_t){p->query_start_loc[b],
                        p->query_start_loc[b + 1] - p->query_start_loc[b]};
}

// The positions [*start, *limit) that token i of a sequence of `len`
// tokens, the last `count` of them new, attends.
void uq_ref_token_range_(int64_t len, int32_t count, int64_t i, int32_t window,
                         int64_t *start, int64_t *limit) {
  *limit = len - count + i + 1;
  *start = window_start(*limit, window);
}

// query_start_loc non-decreasing from >= 0, each q_len within its seq_len.
static uq_status_t check_query_start_loc(const uq_decode_problem_t *p) {
  const int32_t *qsl = p->query_start_loc;
  if (!qsl)
    return UQ_OK;
  if (qsl[0] < 0)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "query_start_loc[0] = %d is negative", (int)qsl[0]);
  for (int32_t b = 0; b < p->num_seqs; ++b) {
    if (qsl[b + 1] < qsl[b])
      return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                            "query_start_loc[%d] = %d is below "
                            "query_start_loc[%d] = %d (offsets must not "
                            "decrease)",
                            (int)b + 1, (int)qsl[b + 1], (int)b, (int)qsl[b]);
    if (qsl[b + 1] - qsl[b] > p->seq_lens[b])
      return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                            "query_start_loc: sequence %d has %d query tokens, "
                            "more than its seq_lens[%d] = %d",
                            (int)b, (int)(qsl[b + 1] - qsl[b]), (int)b,
                            (int)p->seq_lens[b]);
  }
  return UQ_OK;
}

uq_status_t uq_ref_check_rows_(const char *name, int64_t n_seq,
                               int64_t stride_seq, int64_t n_head,
                               int64_t stride_head, int32_t head_dim) {
  if (stride_seq < 0 || stride_head < 0)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "%s strides must be non-negative, got seq %lld, "
                          "head %lld",
                          name, (long long)stride_seq, (long long)stride_head);
  if (!uq_span_fits_(n_seq, stride_seq, n_head, stride_head, head_dim, 2))
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "%s strides span more than memory can hold", name);
  if (!uq_rows_disjoint_(n_seq, stride_seq, n_head, stride_head, head_dim))
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "%s strides (seq %lld, head %lld) make rows of %d "
                          "elements overlap",
                          name, (long long)stride_seq, (long long)stride_head,
                          (int)head_dim);
  return UQ_OK;
}

uq_status_t uq_decode_problem_validate(const uq_decode_problem_t *p) {
  if (!p)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "problem is NULL");
  if (p->num_seqs < 1)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "num_seqs must be >= 1, got %d", (int)p->num_seqs);
  if (!supported_qg(p->query_group))
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "query group size must be in 1..16, got %d",
                          (int)p->query_group);
  UQ_RETURN_IF_ERROR(uq_cache_layout_validate(&p->cache), "decode problem");
  if (!supported_block_size(p->cache.block_size))
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "block_size must be 16, 32, 64, 128 or 256, got %d",
                          (int)p->cache.block_size);
  if (p->max_blocks_per_seq < 1)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "max_blocks_per_seq must be >= 1, got %d",
                          (int)p->max_blocks_per_seq);
  if (!isfinite(p->softmax_scale))
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "softmax_scale must be finite, got %g",
                          (double)p->softmax_scale);
  if (p->q_overflow != UQ_FP8_OVERFLOW_SATURATE &&
      p->q_overflow != UQ_FP8_OVERFLOW_NAN)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "unknown E4M3 overflow rule %d", (int)p->q_overflow);
  UQ_RETURN_IF_ERROR(uq_check_dtype_("dtype", p->dtype), "decode problem");
  if (!p->query || !p->kv_cache || !p->block_tables || !p->seq_lens ||
      !p->output)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "NULL %s pointer",
                          !p->query          ? "query"
                          : !p->kv_cache     ? "kv_cache"
                          : !p->block_tables ? "block_tables"
                          : !p->seq_lens     ? "seq_lens"
                                             : "output");
  if (p->sliding_window < 0)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "sliding_window must be >= 0, got %d",
                          (int)p->sliding_window);
  // The query is read with memcpy (format.c); these are used in place.
  UQ_RETURN_IF_ERROR(uq_check_aligned_("output", p->output, 2),
                     "decode problem");
  UQ_RETURN_IF_ERROR(uq_check_aligned_("block_tables", p->block_tables, 4),
                     "decode problem");
  UQ_RETURN_IF_ERROR(uq_check_aligned_("seq_lens", p->seq_lens, 4),
                     "decode problem");
  if (p->sinks)
    UQ_RETURN_IF_ERROR(uq_check_aligned_("sinks", p->sinks, 4),
                       "decode problem");
  int64_t num_q_heads = (int64_t)p->cache.num_kv_heads * p->query_group;
  UQ_RETURN_IF_ERROR(uq_ref_check_sinks_(p->sinks, num_q_heads),
                     "decode problem");
  int64_t max_len = (int64_t)p->max_blocks_per_seq * p->cache.block_size;
  for (int32_t b = 0; b < p->num_seqs; ++b)
    if (p->seq_lens[b] < 0 || p->seq_lens[b] > max_len)
      return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                            "seq_lens[%d] = %d is outside [0, %lld] "
                            "(max_blocks_per_seq * block_size)",
                            (int)b, (int)p->seq_lens[b], (long long)max_len);
  UQ_RETURN_IF_ERROR(check_query_start_loc(p), "decode problem");
  const int64_t tokens = num_query_tokens(p);
  if (tokens > 0) {
    UQ_RETURN_IF_ERROR(uq_ref_check_rows_("query", tokens, p->query_stride_seq,
                                          num_q_heads, p->query_stride_head,
                                          p->cache.head_dim),
                       "decode problem");
    UQ_RETURN_IF_ERROR(
        uq_ref_check_rows_("output", tokens, p->output_stride_seq, num_q_heads,
                           p->output_stride_head, p->cache.head_dim),
        "decode problem");
  }
  for (int32_t b = 0; b < p->num_seqs; ++b) {
    int32_t len = p->seq_lens[b];
    query_span_t span = uq_ref_query_span_(p, b);
    if (span.count == 0)
      continue; // nothing of the sequence is read
    int64_t used =
        ((int64_t)len + p->cache.block_size - 1) / p->cache.block_size;
    // Blocks wholly before the first query token's sliding window are never
    // read (their entries may be stale).
    int64_t start0, limit0;
    uq_ref_token_range_(len, span.count, 0, p->sliding_window, &start0,
                        &limit0);
    int64_t first = start0 / p->cache.block_size;
    const int32_t *row = p->block_tables + (int64_t)b * p->max_blocks_per_seq;
    for (int64_t i = first; i < used; ++i) {
      if (row[i] < 0 || row[i] >= p->cache.num_blocks)
        return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                              "block_tables[%d][%lld] = %d is outside the "
                              "cache's %lld blocks",
                              (int)b, (long long)i, (int)row[i],
                              (long long)p->cache.num_blocks);
    }
  }
  return UQ_OK;
}

const uint8_t *uq_ref_slot_of_(const uq_decode_problem_t *p, int32_t b,
                               int32_t kv_head, int64_t token) {
  int32_t bs = p->cache.block_size;
  int64_t block =
      p->block_tables[(int64_t)b * p->max_blocks_per_seq + token / bs];
  size_t index = ((size_t)block * (size_t)bs + (size_t)(token % bs)) *
                     (size_t)p->cache.num_kv_heads +
                 (size_t)kv_head;
  return p->kv_cache + index * (size_t)p->cache.padded_slot;
}

// The query and output rows of query token `token` (a row of the query
// tensor: the sequence itself for a decode) and query head `q_head`.
const uint16_t *uq_ref_query_row_(const uq_decode_problem_t *p, int64_t token,
                                  int64_t q_head) {
  return p->query + token * p->query_stride_seq + q_head * p->query_stride_head;
}

uint16_t *uq_ref_output_row_(const uq_decode_problem_t *p, int64_t token,
                             int64_t q_head) {
  return p->output + token * p->output_stride_seq +
         q_head * p->output_stride_head;
}

int32_t uq_ref_longest_seq_(const uq_decode_problem_t *p) {
  int32_t longest = 0;
  for (int32_t b = 0; b < p->num_seqs; ++b)
    if (p->seq_lens[b] > longest)
      longest = p->seq_lens[b];
  return longest;
}

// ---- Exact mode
// --------------------------------------------------------------
