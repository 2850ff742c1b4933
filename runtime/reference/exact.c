// The exact (float64) reference, the partition reduce and an unquantized
// float64 attention for accuracy measurements.
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/format/internal.h"
#include "runtime/reference/reference_internal.h"

uq_status_t uq_reference_decode_exact(const uq_decode_problem_t *p) {
  UQ_RETURN_IF_ERROR(uq_decode_problem_validate(p), "exact reference");
  const int32_t qg = p->query_group;
  const int32_t D = p->cache.head_dim;
  const int32_t longest = uq_ref_longest_seq_(p);
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
    const query_span_t span = uq_ref_query_span_(p, b);
    for (int32_t i = 0; i < span.count; ++i) {
      const int64_t token = span.first + i;
      // Scores are kept for the token's own positions: t0 .. limit - 1.
      int64_t t0, limit;
      uq_ref_token_range_(p->seq_lens[b], span.count, i, p->sliding_window, &t0,
                          &limit);
      const int64_t len = limit - t0;
      for (int32_t h = 0; h < p->cache.num_kv_heads; ++h) {
        for (int32_t r = 0; r < qg; ++r)
          uq_format_query_rotate_(
              D, p->dtype, uq_ref_query_row_(p, token, (int64_t)h * qg + r),
              p->q_overflow, q_rot + (size_t)r * D);
        for (int64_t t = 0; t < len; ++t) {
          uq_format_slot_decode_(D, uq_ref_slot_of_(p, b, h, t0 + t), k, v);
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
          uq_format_slot_decode_(D, uq_ref_slot_of_(p, b, h, t0 + t), k, v);
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
          uint16_t *out = uq_ref_output_row_(p, token, (int64_t)h * qg + r);
          const double *a = acc + (size_t)r * D;
          for (int d = 0; d < D; ++d)
            out[d] =
                len > 0 ? uq_act_from_double_(p->dtype, a[d] / row_sum[r]) : 0;
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
// m and l [P][QG]; row r goes to out_base + r * out_stride_head, in `dtype`.
// `sinks` (NULL: none) holds the QG sinks of this kv head's query heads.
void uq_ref_reduce_one_(int32_t num_parts, int32_t qg, int32_t D,
                        const uint16_t *o, const float *m, const float *l,
                        const float *sinks, uq_dtype_t dtype,
                        uint16_t *out_base, int64_t out_stride_head) {
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
      out[d] = den != 0.0f ? uq_act_from_float_(dtype, num / den) : 0;
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
  UQ_RETURN_IF_ERROR(uq_ref_check_rows_("output", r->num_seqs,
                                        r->output_stride_seq, num_q_heads,
                                        r->output_stride_head, D),
                     "reduce");
  UQ_RETURN_IF_ERROR(uq_ref_check_sinks_(r->sinks, num_q_heads), "reduce");
  UQ_RETURN_IF_ERROR(uq_check_dtype_("dtype", r->dtype), "reduce");
  const size_t per_head = (size_t)r->num_partitions * (size_t)r->query_group;
  for (int32_t b = 0; b < r->num_seqs; ++b) {
    for (int32_t h = 0; h < r->num_kv_heads; ++h) {
      size_t base =
          ((size_t)b * (size_t)r->num_kv_heads + (size_t)h) * per_head;
      uq_ref_reduce_one_(
          r->num_partitions, r->query_group, D, r->segm_out + base * (size_t)D,
          r->segm_max + base, r->segm_sum + base,
          r->sinks ? r->sinks + (int64_t)h * r->query_group : NULL, r->dtype,
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
