// Host reference decode attention over an UltraQuant cache: problem checks,
// the exact (float64) mode, the kernel-faithful mode, the partition reduce
// and an unquantized float64 attention for accuracy measurements.
#include "uq/reference.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/format/internal.h"

// log2(e) as the kernel's fp32 constant.
#define UQ_LOG2E_F 1.44269504088896340736f
// 8 ln 2 as the kernel's fp32 constant (@lazy_limit in kernels.mlir).
#define UQ_LAZY_MAX_SLACK 5.54517744447956247533f

// One 16-row MFMA tile holds the query rows of a kv head.
static bool supported_qg(int32_t qg) { return qg >= 1 && qg <= 16; }

static bool supported_block_size(int32_t bs) {
  return bs == 16 || bs == 32 || bs == 64 || bs == 128 || bs == 256;
}

// A sink is a logit or -inf (none); NaN and +inf have no meaning.
static uq_status_t check_sinks(const float *sinks, int64_t count) {
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

// Sequence b's query tokens: rows first .. first + count - 1.
typedef struct query_span_s {
  int64_t first;
  int32_t count;
} query_span_t;

static query_span_t query_span(const uq_decode_problem_t *p, int32_t b) {
  if (!p->query_start_loc)
    return (query_span_t){b, 1};
  return (query_span_t){p->query_start_loc[b],
                        p->query_start_loc[b + 1] - p->query_start_loc[b]};
}

// The positions [*start, *limit) that token i of a sequence of `len`
// tokens, the last `count` of them new, attends.
static void token_range(int64_t len, int32_t count, int64_t i, int32_t window,
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

static uq_status_t check_rows(const char *name, int64_t n_seq,
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
  UQ_RETURN_IF_ERROR(check_sinks(p->sinks, num_q_heads), "decode problem");
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
    UQ_RETURN_IF_ERROR(check_rows("query", tokens, p->query_stride_seq,
                                  num_q_heads, p->query_stride_head,
                                  p->cache.head_dim),
                       "decode problem");
    UQ_RETURN_IF_ERROR(check_rows("output", tokens, p->output_stride_seq,
                                  num_q_heads, p->output_stride_head,
                                  p->cache.head_dim),
                       "decode problem");
  }
  for (int32_t b = 0; b < p->num_seqs; ++b) {
    int32_t len = p->seq_lens[b];
    query_span_t span = query_span(p, b);
    if (span.count == 0)
      continue; // nothing of the sequence is read
    int64_t used =
        ((int64_t)len + p->cache.block_size - 1) / p->cache.block_size;
    // Blocks wholly before the first query token's sliding window are never
    // read (their entries may be stale).
    int64_t start0, limit0;
    token_range(len, span.count, 0, p->sliding_window, &start0, &limit0);
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

static const uint8_t *slot_of(const uq_decode_problem_t *p, int32_t b,
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
static const uint16_t *query_row(const uq_decode_problem_t *p, int64_t token,
                                 int64_t q_head) {
  return p->query + token * p->query_stride_seq + q_head * p->query_stride_head;
}

static uint16_t *output_row(const uq_decode_problem_t *p, int64_t token,
                            int64_t q_head) {
  return p->output + token * p->output_stride_seq +
         q_head * p->output_stride_head;
}

static int32_t longest_seq(const uq_decode_problem_t *p) {
  int32_t longest = 0;
  for (int32_t b = 0; b < p->num_seqs; ++b)
    if (p->seq_lens[b] > longest)
      longest = p->seq_lens[b];
  return longest;
}

// ---- Exact mode
// --------------------------------------------------------------

uq_status_t uq_reference_decode_exact(const uq_decode_problem_t *p) {
  UQ_RETURN_IF_ERROR(uq_decode_problem_validate(p), "exact reference");
  const int32_t qg = p->query_group;
  const int32_t D = p->cache.head_dim;
  const int32_t longest = longest_seq(p);
  double *scores =
      malloc(sizeof(double) * (size_t)qg * (size_t)(longest > 0 ? longest : 1));
  double *acc = malloc(sizeof(double) * (size_t)qg * (size_t)D);
  float *q_rot = malloc(sizeof(float) * (size_t)qg * (size_t)D);
  if (!scores || !acc || !q_rot) {
    free(scores), free(acc), free(q_rot);
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "exact reference: out of memory for %d tokens",
                          (int)longest);
  }
  const double scale = (double)p->softmax_scale;
  float k[UQ_MAX_HEAD_DIM], v[UQ_MAX_HEAD_DIM];
  for (int32_t b = 0; b < p->num_seqs; ++b) {
    const query_span_t span = query_span(p, b);
    for (int32_t i = 0; i < span.count; ++i) {
      const int64_t token = span.first + i;
      // Scores are kept for the token's own positions: t0 .. limit - 1.
      int64_t t0, limit;
      token_range(p->seq_lens[b], span.count, i, p->sliding_window, &t0,
                  &limit);
      const int64_t len = limit - t0;
      for (int32_t h = 0; h < p->cache.num_kv_heads; ++h) {
        for (int32_t r = 0; r < qg; ++r)
          uq_format_query_rotate_(D, query_row(p, token, (int64_t)h * qg + r),
                                  p->q_overflow, q_rot + (size_t)r * D);
        for (int64_t t = 0; t < len; ++t) {
          uq_format_slot_decode_(D, slot_of(p, b, h, t0 + t), k, v);
          for (int32_t r = 0; r < qg; ++r) {
            const float *q = q_rot + (size_t)r * D;
            double dot = 0.0;
            for (int d = 0; d < D; ++d)
              dot += (double)q[d] * (double)k[d];
            scores[(size_t)r * (size_t)len + (size_t)t] = dot * scale;
          }
        }
        double row_max[16], row_sum[16];
        for (int32_t r = 0; r < qg; ++r) {
          const double *sc = scores + (size_t)r * (size_t)len;
          double sink =
              p->sinks ? (double)p->sinks[(int64_t)h * qg + r] : -INFINITY;
          double m = sink;
          for (int64_t t = 0; t < len; ++t)
            m = sc[t] > m ? sc[t] : m;
          row_max[r] = m;
          row_sum[r] = sink > -INFINITY ? exp(sink - m) : 0.0;
          memset(acc + (size_t)r * D, 0, sizeof(double) * (size_t)D);
        }
        for (int64_t t = 0; t < len; ++t) {
          uq_format_slot_decode_(D, slot_of(p, b, h, t0 + t), k, v);
          for (int32_t r = 0; r < qg; ++r) {
            double w =
                exp(scores[(size_t)r * (size_t)len + (size_t)t] - row_max[r]);
            row_sum[r] += w;
            double *a = acc + (size_t)r * D;
            for (int d = 0; d < D; ++d)
              a[d] += w * (double)v[d];
          }
        }
        for (int32_t r = 0; r < qg; ++r) {
          uint16_t *out = output_row(p, token, (int64_t)h * qg + r);
          const double *a = acc + (size_t)r * D;
          for (int d = 0; d < D; ++d)
            out[d] = len > 0 ? uq_double_to_bf16_(a[d] / row_sum[r]) : 0;
        }
      }
    }
  }
  free(scores), free(acc), free(q_rot);
  return UQ_OK;
}

// ---- The partition reduce
// ------------------------------------------------------

// Reduces the P partials of one (sequence, kv head): o [P][QG][D] bf16,
// m and l [P][QG]; row r goes to out_base + r * out_stride_head.
// `sinks` (NULL: none) holds the QG sinks of this kv head's query heads.
static void reduce_one(int32_t num_parts, int32_t qg, int32_t D,
                       const uint16_t *o, const float *m, const float *l,
                       const float *sinks, uint16_t *out_base,
                       int64_t out_stride_head) {
  for (int32_t r = 0; r < qg; ++r) {
    float sink = sinks ? sinks[r] : -INFINITY;
    float global_max = sink;
    for (int32_t part = 0; part < num_parts; ++part)
      global_max = fmaxf(global_max, m[(size_t)part * qg + r]);
    // The sink's weight starts the denominator (the kernel's order).
    float sink_w = sink > -INFINITY ? expf(sink - global_max) : 0.0f;
    uint16_t *out = out_base + r * out_stride_head;
    for (int d = 0; d < D; ++d) {
      float num = 0.0f, den = sink_w;
      for (int32_t part = 0; part < num_parts; ++part) {
        size_t i = (size_t)part * qg + r;
        // Only an empty partition (sum exactly 0) is left out: a NaN sum (a
        // non-finite query) makes the row NaN, never a plausible 0.
        if (l[i] == 0.0f)
          continue;
        float w = expf(m[i] - global_max) * l[i];
        num += w * uq_bf16_to_float(o[i * (size_t)D + d]);
        den += w;
      }
      out[d] = den != 0.0f ? uq_float_to_bf16(num / den) : 0;
    }
  }
}

uq_status_t uq_reference_reduce(const uq_reduce_problem_t *r) {
  if (!r)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "reduce problem is NULL");
  if (r->num_seqs < 1 || r->num_kv_heads < 1 || r->query_group < 1 ||
      r->num_partitions < 1)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "reduce sizes must be positive, got B %d, Hk %d, "
                          "QG %d, P %d",
                          (int)r->num_seqs, (int)r->num_kv_heads,
                          (int)r->query_group, (int)r->num_partitions);
  if (!r->segm_out || !r->segm_max || !r->segm_sum || !r->output)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "reduce: NULL buffer pointer");
  UQ_RETURN_IF_ERROR(uq_head_dim_check(r->head_dim), "reduce");
  const int32_t D = r->head_dim;
  int64_t entries;
  if (__builtin_mul_overflow((int64_t)r->num_seqs, (int64_t)r->num_kv_heads,
                             &entries) ||
      __builtin_mul_overflow(entries, (int64_t)r->num_partitions, &entries) ||
      __builtin_mul_overflow(entries, (int64_t)r->query_group, &entries) ||
      __builtin_mul_overflow(entries, (int64_t)D * 2, &entries) ||
      (uint64_t)entries > (uint64_t)SIZE_MAX)
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "reduce: partials too large for memory sizes");
  int64_t num_q_heads = (int64_t)r->num_kv_heads * r->query_group;
  UQ_RETURN_IF_ERROR(check_rows("output", r->num_seqs, r->output_stride_seq,
                                num_q_heads, r->output_stride_head, D),
                     "reduce");
  UQ_RETURN_IF_ERROR(check_sinks(r->sinks, num_q_heads), "reduce");
  const size_t per_head = (size_t)r->num_partitions * (size_t)r->query_group;
  for (int32_t b = 0; b < r->num_seqs; ++b) {
    for (int32_t h = 0; h < r->num_kv_heads; ++h) {
      size_t base =
          ((size_t)b * (size_t)r->num_kv_heads + (size_t)h) * per_head;
      reduce_one(r->num_partitions, r->query_group, D,
                 r->segm_out + base * (size_t)D, r->segm_max + base,
                 r->segm_sum + base,
                 r->sinks ? r->sinks + (int64_t)h * r->query_group : NULL,
                 r->output + (int64_t)b * r->output_stride_seq +
                     (int64_t)h * r->query_group * r->output_stride_head,
                 r->output_stride_head);
    }
  }
  return UQ_OK;
}

// ---- Faithful mode
// -------------------------------------------------------------

// One 16-token tile's inputs, decoded once and shared by the QG rows.
typedef struct tile_s {
  int head_dim; // D
  int first;    // tokens before it: before the window
  int valid;    // tokens of the tile below seq_len
  float k[UQ_TILE_TOKENS][UQ_MAX_HEAD_DIM];          // FP4 values, unscaled
  double k_scale[UQ_TILE_TOKENS][UQ_MAX_NUM_GROUPS]; // E8M0 group scales
  float v[UQ_TILE_TOKENS][UQ_MAX_HEAD_DIM]; // bf16 values, as the V convert
} tile_t;

// Loads the tile's tokens in [win_start, len) (tile positions first ..
// valid - 1); the others are never read, as the kernel masks them.
static void load_tile(const uq_decode_problem_t *p, int32_t b, int32_t h,
                      int64_t start, int64_t win_start, int64_t len,
                      tile_t *tile) {
  const int D = p->cache.head_dim;
  tile->head_dim = D;
  tile->valid =
      (int)(len - start < UQ_TILE_TOKENS ? len - start : UQ_TILE_TOKENS);
  tile->first = win_start > start ? (int)(win_start - start) : 0;
  for (int t = tile->first; t < tile->valid; ++t) {
    const uint8_t *slot = slot_of(p, b, h, start + t);
    for (int e = 0; e < D; ++e) {
      uint8_t byte = slot[UQ_SLOT_K_CODES_OFFSET(D) + e / 2];
      tile->k[t][e] = uq_fp4_to_float((e & 1) ? byte >> 4 : byte & 15);
    }
    for (int g = 0; g < UQ_SLOT_NUM_GROUPS(D); ++g)
      tile->k_scale[t][g] =
          (double)uq_e8m0_to_float(slot[UQ_SLOT_K_SCALES_OFFSET(D) + g]);
    for (int g = 0; g < UQ_SLOT_NUM_GROUPS(D); ++g) {
      // v_cvt_scalef32_pk_bf16_fp4: FP4 value times the E8M0 scale, RNE
      // to bf16 (exact unless it overflows).
      float s = uq_e8m0_to_float(slot[UQ_SLOT_V_SCALES_OFFSET(D) + g]);
      for (int e = 0; e < UQ_GROUP_SIZE; ++e) {
        uint8_t byte = slot[UQ_SLOT_V_CODES_OFFSET(D) + g * 16 + e / 2];
        uint8_t code = (e & 1) ? byte >> 4 : byte & 15;
        tile->v[t][g * UQ_GROUP_SIZE + e] =
            uq_bf16_to_float(uq_float_to_bf16(uq_fp4_to_float(code) * s));
      }
    }
  }
}

// The QK dot product of one token for one query row, as the chained scaled
// MFMAs compute it (E8M0 K scales, identity Q scale): one issue per 128
// elements (4 groups), D = 64 one issue of 2 groups.
static float qk_score(const tile_t *tile, int t, const float *q) {
  const int groups = UQ_SLOT_NUM_GROUPS(tile->head_dim);
  float c = 0.0f;
  for (int first = 0; first < groups; first += 4) {
    // Each 32-element block's dot product of FP4 x E4M3 values is exact in
    // float64; the MFMA adds the scaled blocks to C with one rounding.
    double sum = (double)c;
    for (int g = first; g < first + 4 && g < groups; ++g) {
      const float *k = tile->k[t] + g * UQ_GROUP_SIZE;
      const float *qg = q + g * UQ_GROUP_SIZE;
      double dot = 0.0;
      for (int e = 0; e < UQ_GROUP_SIZE; ++e)
        dot += (double)k[e] * (double)qg[e];
      sum += tile->k_scale[t][g] * dot;
    }
    c = (float)sum;
  }
  return c;
}

// A query row's running state. The running sum stays split as the kernel
// keeps it: lane group j's own tokens 4j..4j+3 of every tile (lp[j]); the
// groups are added once, for the partial's sum (row_sum).
typedef struct row_state_s {
  float m, lp[4];
  float acc[UQ_MAX_HEAD_DIM];
} row_state_t;

// The two xor shuffles add the lane groups pairwise: (l0 + l1) + (l2 + l3).
static float row_sum(const row_state_t *st) {
  return (st->lp[0] + st->lp[1]) + (st->lp[2] + st->lp[3]);
}

// One tile for one query row whose own tokens are tile positions first ..
// valid - 1 (a subrange of what load_tile loaded; at least one).
static void tile_step(const tile_t *tile, int first, int valid, const float *q,
                      float scale, row_state_t *st) {
  // Raw dot products; the kernel scales the maximum after its reductions
  // (the same bits as the maximum of scaled scores: scale > 0 keeps the
  // order) and the weights in one fma with scale * log2 e rounded once.
  float qk[UQ_TILE_TOKENS];
  for (int t = 0; t < UQ_TILE_TOKENS; ++t)
    qk[t] = t >= first && t < valid ? qk_score(tile, t, q) : -INFINITY;
  float raw_max = -INFINITY;
  for (int t = 0; t < UQ_TILE_TOKENS; ++t)
    raw_max = fmaxf(raw_max, qk[t]);
  float tile_max = raw_max * scale;
  // The kernels' lazy maximum: it moves only when the tile passes it by
  // more than UQ_LAZY_MAX_SLACK (8 ln 2: weights stay <= 2^8, exact scale
  // in bf16 and fp32), so the accumulators' rescale runs on a few tiles,
  // not whenever a maximum creeps up; from -inf any finite tile moves it.
  float new_max =
      tile_max > st->m + UQ_LAZY_MAX_SLACK ? fmaxf(st->m, tile_max) : st->m;
  // The kernels' guard: weights are taken from 0 while the maximum is -inf.
  // With a valid token that happens only for NaN scores (a non-finite
  // query), whose row turns NaN either way (its p are NaN).
  float base = new_max == -INFINITY ? 0.0f : new_max;
  float c = exp2f((st->m - base) * UQ_LOG2E_F);
  for (int j = 0; j < 4; ++j)
    st->lp[j] *= c;
  for (int d = 0; d < tile->head_dim; ++d)
    st->acc[d] *= c;
  st->m = new_max;
  const float scale_log2e = scale * UQ_LOG2E_F;
  const float base_log2e = base * UQ_LOG2E_F;
  float prob[UQ_TILE_TOKENS];
  for (int t = 0; t < UQ_TILE_TOKENS; ++t)
    prob[t] = exp2f(fmaf(qk[t], scale_log2e, -base_log2e));
  // Lane group j sums its tokens 4j..4j+3 in order into its own running sum.
  for (int j = 0; j < 4; ++j) {
    float sum = 0.0f;
    for (int i = 0; i < 4; ++i)
      sum += prob[4 * j + i];
    st->lp[j] += sum;
  }
  // PV MFMA: bf16 P times bf16 V, one rounding onto the fp32 accumulator.
  // Masked tokens are left out (the seed's p = 0 times a garbage V could be
  // NaN; ours must not be).
  float pb[UQ_TILE_TOKENS];
  for (int t = first; t < valid; ++t)
    pb[t] = uq_bf16_to_float(uq_float_to_bf16(prob[t]));
  for (int d = 0; d < tile->head_dim; ++d) {
    double sum = (double)st->acc[d];
    for (int t = first; t < valid; ++t)
      sum += (double)pb[t] * (double)tile->v[t][d];
    st->acc[d] = (float)sum;
  }
}

uq_status_t
uq_reference_decode_faithful(const uq_decode_problem_t *p,
                             int32_t num_partitions, int32_t tgpp,
                             const uq_decode_partials_t *out_partials) {
  uq_launch_walk_t walk = {num_partitions, tgpp,
                           UQ_TILE_GROUP_TOKENS / UQ_TILE_TOKENS};
  return uq_reference_decode_faithful_walk(p, &walk, out_partials);
}

uq_status_t
uq_reference_decode_faithful_walk(const uq_decode_problem_t *p,
                                  const uq_launch_walk_t *walk,
                                  const uq_decode_partials_t *out_partials) {
  return uq_reference_varlen_faithful(p, walk, 1, out_partials);
}

// A block of a sequence's query tokens, walked once: tokens i0 .. i0 + n - 1
// of the sequence (rows first + i0 ..), attending positions in [start,
// end), walked from win_base.
typedef struct query_block_s {
  int64_t i0;
  int32_t n;
  int64_t start, end, win_base;
} query_block_t;

static query_block_t query_block(const uq_decode_problem_t *p, int32_t b,
                                 query_span_t span, int64_t i0,
                                 int32_t block_tokens) {
  query_block_t blk;
  blk.i0 = i0;
  blk.n = (int32_t)(span.count - i0 < block_tokens ? span.count - i0
                                                   : block_tokens);
  int64_t limit;
  token_range(p->seq_lens[b], span.count, i0, p->sliding_window, &blk.start,
              &limit);
  int64_t last_start;
  token_range(p->seq_lens[b], span.count, i0 + blk.n - 1, p->sliding_window,
              &last_start, &blk.end);
  blk.win_base = blk.start & ~(int64_t)(UQ_TILE_TOKENS - 1);
  return blk;
}

uq_status_t
uq_reference_varlen_faithful(const uq_decode_problem_t *p,
                             const uq_launch_walk_t *walk, int32_t block_tokens,
                             const uq_decode_partials_t *out_partials) {
  UQ_RETURN_IF_ERROR(uq_decode_problem_validate(p), "faithful reference");
  if (!walk)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "walk is NULL");
  const int32_t num_partitions = walk->num_partitions;
  const int32_t tgpp = walk->groups_per_partition;
  const int32_t group_tiles = walk->group_tiles;
  if (num_partitions < 1 || tgpp < 1)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "num_partitions and tgpp must be >= 1, got %d, %d "
                          "(tgpp: the walk's groups per partition)",
                          (int)num_partitions, (int)tgpp);
  if (!uq_launch_group_tiles_valid(group_tiles))
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "group_tiles must be 1, 2, 4, 8 or 16, got %d",
                          (int)group_tiles);
  if (block_tokens < 1)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "block_tokens must be >= 1, got %d",
                          (int)block_tokens);
  const int64_t group_tokens = (int64_t)group_tiles * UQ_TILE_TOKENS;
  if (out_partials && (!out_partials->segm_out || !out_partials->segm_max ||
                       !out_partials->segm_sum))
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "partials given with a NULL array");
  // P * groups * group tokens can pass int64 for absurd inputs; saturate.
  int64_t coverage;
  if (__builtin_mul_overflow((int64_t)num_partitions, (int64_t)tgpp,
                             &coverage) ||
      __builtin_mul_overflow(coverage, group_tokens, &coverage))
    coverage = INT64_MAX;
  // A block's walk covers end - win_base positions (a decode's: seq_len -
  // win_base, all of them without a window); every one must fall in some
  // partition's groups.
  int32_t largest_block = 1;
  for (int32_t b = 0; b < p->num_seqs; ++b) {
    query_span_t span = query_span(p, b);
    for (int64_t i0 = 0; i0 < span.count; i0 += block_tokens) {
      query_block_t blk = query_block(p, b, span, i0, block_tokens);
      if (blk.n > largest_block)
        largest_block = blk.n;
      if (blk.end - blk.win_base > coverage)
        return UQ_MAKE_STATUS(
            UQ_STATUS_OUT_OF_RANGE,
            "seq_lens[%d] = %d (window %d, query tokens %lld..%lld: %lld "
            "positions walked) exceeds the walk's coverage P * groups * "
            "%lld = %lld",
            (int)b, (int)p->seq_lens[b], (int)p->sliding_window, (long long)i0,
            (long long)(i0 + blk.n - 1), (long long)(blk.end - blk.win_base),
            (long long)group_tokens, (long long)coverage);
    }
  }
  const int32_t qg = p->query_group;
  const int32_t D = p->cache.head_dim;
  const int32_t hk = p->cache.num_kv_heads;
  // A block's rows: token-major (token, head in the group), as the kernels.
  const size_t rows = (size_t)largest_block * (size_t)qg;
  const size_t token_rows = (size_t)num_partitions * (size_t)qg;
  uint16_t *o = malloc(sizeof(uint16_t) * rows * num_partitions * (size_t)D);
  float *m = malloc(sizeof(float) * rows * num_partitions);
  float *l = malloc(sizeof(float) * rows * num_partitions);
  float *q_rot = malloc(sizeof(float) * rows * (size_t)D);
  row_state_t *state = malloc(sizeof(row_state_t) * rows);
  tile_t *tile = malloc(sizeof(tile_t));
  if (!o || !m || !l || !q_rot || !state || !tile) {
    free(o), free(m), free(l), free(q_rot), free(state), free(tile);
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "faithful reference: out of memory for P = %d and "
                          "blocks of %d tokens",
                          (int)num_partitions, (int)largest_block);
  }
  const float scale = p->softmax_scale;
  for (int32_t b = 0; b < p->num_seqs; ++b) {
    const int64_t len = p->seq_lens[b];
    const query_span_t span = query_span(p, b);
    for (int64_t i0 = 0; i0 < span.count; i0 += block_tokens) {
      const query_block_t blk = query_block(p, b, span, i0, block_tokens);
      const int64_t total_groups =
          (blk.end - blk.win_base + group_tokens - 1) / group_tokens;
      for (int32_t h = 0; h < hk; ++h) {
        for (int32_t tk = 0; tk < blk.n; ++tk)
          for (int32_t r = 0; r < qg; ++r)
            uq_format_query_rotate_(
                D, query_row(p, span.first + i0 + tk, (int64_t)h * qg + r),
                p->q_overflow, q_rot + ((size_t)tk * qg + (size_t)r) * D);
        for (int32_t part = 0; part < num_partitions; ++part) {
          for (size_t r = 0; r < (size_t)blk.n * qg; ++r) {
            state[r].m = -INFINITY;
            memset(state[r].lp, 0, sizeof state[r].lp);
            memset(state[r].acc, 0, sizeof state[r].acc);
          }
          int64_t avail = total_groups - part;
          int64_t trips =
              avail > 0 ? (avail + num_partitions - 1) / num_partitions : 0;
          if (trips > tgpp)
            trips = tgpp;
          for (int64_t g = 0; g < trips; ++g) {
            int64_t start =
                blk.win_base + (part + g * num_partitions) * group_tokens;
            for (int n = 0; n < group_tiles; ++n) {
              int64_t tile_start = start + (int64_t)n * UQ_TILE_TOKENS;
              // A tile wholly past the block's positions changes nothing:
              // its max is -inf, its rescale factor exactly 1 and its
              // probabilities 0.
              if (tile_start >= blk.end)
                break;
              load_tile(p, b, h, tile_start, blk.start, blk.end, tile);
              for (int32_t tk = 0; tk < blk.n; ++tk) {
                int64_t ts, te;
                token_range(len, span.count, i0 + tk, p->sliding_window, &ts,
                            &te);
                int64_t first = ts > tile_start ? ts - tile_start : 0;
                int64_t valid = te - tile_start < UQ_TILE_TOKENS
                                    ? te - tile_start
                                    : UQ_TILE_TOKENS;
                // None of the token's positions: every row of it unchanged.
                if (valid <= first)
                  continue;
                for (int32_t r = 0; r < qg; ++r) {
                  size_t row = (size_t)tk * qg + (size_t)r;
                  tile_step(tile, (int)first, (int)valid,
                            q_rot + row * (size_t)D, scale, &state[row]);
                }
              }
            }
          }
          // Partials by token: [token][part][r].
          for (int32_t tk = 0; tk < blk.n; ++tk)
            for (int32_t r = 0; r < qg; ++r) {
              const row_state_t *st = &state[(size_t)tk * qg + (size_t)r];
              size_t i =
                  (size_t)tk * token_rows + (size_t)part * qg + (size_t)r;
              float sum = row_sum(st);
              float rcp = 1.0f / (sum > 0.0f ? sum : 1.0f);
              for (int d = 0; d < D; ++d)
                o[i * (size_t)D + d] = uq_float_to_bf16(st->acc[d] * rcp);
              m[i] = st->m;
              l[i] = sum;
            }
        }
        for (int32_t tk = 0; tk < blk.n; ++tk) {
          const int64_t token = span.first + i0 + tk;
          const size_t at = (size_t)tk * token_rows;
          if (out_partials) {
            size_t base = ((size_t)token * (size_t)hk + (size_t)h) * token_rows;
            memcpy(out_partials->segm_out + base * (size_t)D,
                   o + at * (size_t)D, sizeof(uint16_t) * token_rows * D);
            memcpy(out_partials->segm_max + base, m + at,
                   sizeof(float) * token_rows);
            memcpy(out_partials->segm_sum + base, l + at,
                   sizeof(float) * token_rows);
          }
          reduce_one(num_partitions, qg, D, o + at * (size_t)D, m + at, l + at,
                     p->sinks ? p->sinks + (int64_t)h * qg : NULL,
                     output_row(p, token, (int64_t)h * qg),
                     p->output_stride_head);
        }
      }
    }
  }
  free(o), free(m), free(l), free(q_rot), free(state), free(tile);
  return UQ_OK;
}

// ---- Unquantized attention
// ---------------------------------------------------

uq_status_t uq_reference_attention_f64(int32_t head_dim, const float *q,
                                       const float *k, const float *v,
                                       int64_t num_tokens, double scale,
                                       double *out) {
  return uq_reference_attention_window_sink_f64(head_dim, q, k, v, num_tokens,
                                                scale, 0, -INFINITY, out);
}

uq_status_t uq_reference_attention_window_sink_f64(
    int32_t head_dim, const float *q, const float *k, const float *v,
    int64_t num_tokens, double scale, int64_t sliding_window, double sink,
    double *out) {
  if (!q || !out || (num_tokens > 0 && (!k || !v)))
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "attention: NULL pointer");
  if (head_dim < 1)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "attention: head_dim must be >= 1, got %d",
                          (int)head_dim);
  if (num_tokens < 0)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "attention: num_tokens must be >= 0, got %lld",
                          (long long)num_tokens);
  if (!isfinite(scale))
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "attention: scale must be finite");
  if (sliding_window < 0)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "attention: sliding_window must be >= 0, got %lld",
                          (long long)sliding_window);
  if (isnan(sink) || sink == INFINITY)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "attention: sink must be finite or -inf, got %g",
                          sink);
  const int64_t D = head_dim;
  for (int64_t d = 0; d < D; ++d)
    out[d] = 0.0;
  if (num_tokens == 0)
    return UQ_OK;
  int64_t t0 = sliding_window > 0 && num_tokens > sliding_window
                   ? num_tokens - sliding_window
                   : 0;
  double m = sink;
  for (int64_t t = t0; t < num_tokens; ++t) {
    double dot = 0.0;
    for (int64_t d = 0; d < D; ++d)
      dot += (double)q[d] * (double)k[t * D + d];
    dot *= scale;
    m = dot > m ? dot : m;
  }
  double sum = sink > -INFINITY ? exp(sink - m) : 0.0;
  for (int64_t t = t0; t < num_tokens; ++t) {
    double dot = 0.0;
    for (int64_t d = 0; d < D; ++d)
      dot += (double)q[d] * (double)k[t * D + d];
    double w = exp(dot * scale - m);
    sum += w;
    for (int64_t d = 0; d < D; ++d)
      out[d] += w * (double)v[t * D + d];
  }
  for (int64_t d = 0; d < D; ++d)
    out[d] /= sum;
  return UQ_OK;
}
