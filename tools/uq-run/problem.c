// Builds random decode problems and judges outputs against the oracles.
#include "tools/uq-run/problem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "uq/reference.h"

static uint64_t next_random(uint64_t *state) { // splitmix64
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double uniform(uint64_t *state) {
  return (double)(next_random(state) >> 11) * (1.0 / 9007199254740992.0);
}

static float gaussian(uint64_t *state) {
  double u1 = uniform(state), u2 = uniform(state);
  if (u1 < 1e-300)
    u1 = 1e-300;
  return (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}

void uq_problem_use_backend(uq_problem_t *p, uq_backend_t backend) {
  p->row_tolerance = backend == UQ_BACKEND_CUDA ? 1.0 / 128 : 1.0 / 256;
}

void uq_problem_destroy(uq_problem_t *p) {
  if (!p)
    return;
  free(p->query);
  free(p->query_start_loc);
  free(p->k);
  free(p->v);
  free(p->token_base);
  free(p->cache);
  free(p->block_tables);
  free(p->seq_lens);
  free(p->sinks);
  free(p);
}

#define INVALID(...) UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, __VA_ARGS__)

static uq_status_t build(uq_problem_t *p) {
  const uq_problem_shape_t *s = &p->shape;
  uint64_t rng = s->seed;
  uint32_t B = s->batch, Hk = s->num_kv_heads, QG = s->query_group;
  uint32_t Hq = Hk * QG, bs = s->block_size;
  if (!B || !Hk || !QG || !bs || !s->max_seq)
    return INVALID("batch, kv heads, qg, block size and max seq must be > 0");
  // The shape keeps what was asked; the defaults resolve here.
  const uint32_t D = s->head_dim ? s->head_dim : 256;
  UQ_RETURN_IF_ERROR(uq_head_dim_check(D), "problem shape");
  const uint32_t padded_slot =
      s->padded_slot ? s->padded_slot : UQ_SLOT_MIN_STRIDE(D);
  const uint32_t head_gap = s->padded_output == 2 ? 1
                            : s->padded_output    ? 64
                                                  : 0;
  const uint32_t seq_gap = s->padded_output == 2 ? 3
                           : s->padded_output    ? 128
                                                 : 0;
  if (B > 4096 || Hk > 64 || s->max_seq > (1u << 20))
    return INVALID("problem too large for a host run (batch <= 4096, kv "
                   "heads <= 64, max seq <= 2^20)");

  p->seq_lens = calloc(B, sizeof(int32_t));
  p->token_base = calloc(B, sizeof(int64_t));
  if (!p->seq_lens || !p->token_base)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  int64_t total_tokens = 0;
  for (uint32_t b = 0; b < B; ++b) {
    int32_t len;
    if (s->seq_lens) {
      len = s->seq_lens[b];
      if (len < 0 || (uint32_t)len > s->max_seq)
        return INVALID("seq len %d outside 0..%u", len, s->max_seq);
    } else {
      len = b + 1 == B ? (int32_t)s->max_seq
                       : 1 + (int32_t)(next_random(&rng) % s->max_seq);
    }
    p->seq_lens[b] = len;
    p->token_base[b] = total_tokens;
    total_tokens += len;
  }
  // Varlen: each sequence's query tokens, the last of its seq_len.
  p->num_tokens = B;
  p->max_query_len = 1;
  if (s->query_lens || s->query_len) {
    p->query_start_loc = calloc((size_t)B + 1, sizeof(int32_t));
    if (!p->query_start_loc)
      return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    int64_t t = 0;
    p->max_query_len = 0;
    for (uint32_t b = 0; b < B; ++b) {
      int64_t q = s->query_lens ? s->query_lens[b] : (int64_t)s->query_len;
      if (!s->query_lens && q > p->seq_lens[b])
        q = p->seq_lens[b];
      if (q < 0 || q > p->seq_lens[b])
        return INVALID("query len %lld of sequence %u outside 0..%d (its "
                       "seq len)",
                       (long long)q, b, p->seq_lens[b]);
      p->query_start_loc[b] = (int32_t)t;
      t += q;
      if ((uint32_t)q > p->max_query_len)
        p->max_query_len = (uint32_t)q;
    }
    p->query_start_loc[B] = (int32_t)t;
    p->num_tokens = (uint32_t)t;
    if (p->max_query_len == 0)
      p->max_query_len = 1;
  }
  const uint32_t T = p->num_tokens;
  if (s->reserve_tokens > (1u << 20))
    return INVALID("reserve_tokens %u is over 2^20", s->reserve_tokens);
  uint32_t grow = s->reserve_tokens;
  uint32_t mbps = (s->max_seq + grow + bs - 1) / bs + s->extra_blocks;
  uint64_t used_blocks = 0;
  for (uint32_t b = 0; b < B; ++b)
    used_blocks += ((uint32_t)p->seq_lens[b] + grow + bs - 1) / bs;
  uint64_t num_blocks = used_blocks + s->spare_blocks;
  if (num_blocks == 0)
    num_blocks = 1;

  if (s->dtype != UQ_DTYPE_BF16 && s->dtype != UQ_DTYPE_F16)
    return INVALID("dtype %d: the activations are bf16 (0) or f16 (1)",
                   (int)s->dtype);
  p->config = (uq_decode_config_t){
      .query_dtype = s->dtype,
      .output_dtype = s->dtype,
      .num_kv_heads = Hk,
      .query_group = QG,
      .head_dim = D,
      .block_size = bs,
      .padded_slot = padded_slot,
      .max_blocks_per_seq = mbps,
      .num_blocks = (uint32_t)num_blocks,
      .max_batch = B,
      .max_query_len = p->max_query_len,
      .max_num_tokens = T > B ? T : B,
      .max_kv_splits = s->max_kv_splits,
      .softmax_scale = s->softmax_scale,
      .sliding_window = s->sliding_window,
      .query_stride_head = D,
      .query_stride_seq =
          (int64_t)(s->fused_qkv ? Hq + 2 * Hk : Hq) * D + (s->fused_qkv == 2),
      .output_stride_head = D + head_gap,
      .output_stride_seq = (int64_t)Hq * (D + head_gap) + seq_gap,
  };
  p->layout = (uq_cache_layout_t){.num_blocks = (int64_t)num_blocks,
                                  .block_size = (int32_t)bs,
                                  .num_kv_heads = (int32_t)Hk,
                                  .padded_slot = (int32_t)padded_slot,
                                  .head_dim = (int32_t)D};
  uq_status_t status = uq_cache_layout_size(&p->layout, &p->cache_bytes);
  if (status)
    return status;
  // Host memory, checked before any allocation: a failing allocation of
  // terabytes is an abort, not NULL, under AddressSanitizer.
  // cache + bf16 K and V + slot numbers + block tables
  double n_tokens = (double)(total_tokens ? total_tokens : 1);
  double need = (double)p->cache_bytes + n_tokens * Hk * D * 4 +
                n_tokens * sizeof(int64_t) + (double)B * mbps * sizeof(int32_t);
  if (need > UQ_PROBLEM_MAX_HOST_BYTES)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "the problem needs %.0f GiB of host memory, more "
                          "than the %.0f GiB a problem may take",
                          need / (1u << 30),
                          (double)UQ_PROBLEM_MAX_HOST_BYTES / (1u << 30));

  // Query: Gaussian in the dtype; in a fused QKV tensor the K/V columns hold
  // junk the kernel must not read.
  float qscale = s->query_scale > 0 ? s->query_scale : 1.0f;
  const size_t rows = T ? T : 1;
  p->query_elems = rows * (size_t)p->config.query_stride_seq;
  p->query = malloc(p->query_elems * sizeof(uint16_t));
  p->output_elems = rows * (size_t)p->config.output_stride_seq;
  size_t kv_elems = (size_t)(total_tokens ? total_tokens : 1) * Hk * D;
  p->k = malloc(kv_elems * sizeof(uint16_t));
  p->v = malloc(kv_elems * sizeof(uint16_t));
  p->cache = malloc(p->cache_bytes);
  p->block_tables = malloc((size_t)B * mbps * sizeof(int32_t));
  uint32_t *order = malloc(num_blocks * sizeof(uint32_t));
  int64_t *slots =
      malloc((size_t)(total_tokens ? total_tokens : 1) * sizeof(int64_t));
  if (!p->query || !p->k || !p->v || !p->cache || !p->block_tables || !order ||
      !slots) {
    free(order);
    free(slots);
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  for (size_t i = 0; i < p->query_elems; ++i)
    p->query[i] = uq_problem_from_float(p, qscale * gaussian(&rng));
  for (size_t i = 0; i < kv_elems; ++i) {
    p->k[i] = uq_problem_from_float(p, gaussian(&rng));
    p->v[i] = uq_problem_from_float(p, gaussian(&rng));
  }
  // Unwritten slots hold 0xFF: scale bytes that decode to NaN, so a kernel
  // that lets masked or unused slots into the sums shows it.
  memset(p->cache, 0xFF, p->cache_bytes);

  for (uint64_t i = 0; i < num_blocks; ++i)
    order[i] = (uint32_t)i;
  if (s->shuffle) {
    for (uint64_t i = num_blocks - 1; i > 0; --i) {
      uint64_t j = next_random(&rng) % (i + 1);
      uint32_t t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  }
  uint64_t next_block = 0;
  for (uint32_t b = 0; b < B; ++b) {
    int32_t *row = p->block_tables + (size_t)b * mbps;
    uint32_t used = ((uint32_t)p->seq_lens[b] + grow + bs - 1) / bs;
    for (uint32_t i = 0; i < used; ++i)
      row[i] = (int32_t)order[next_block++];
    // Unused entries: valid but unrelated blocks (the kernel reads entry 0
    // past seq_len, and a server leaves whatever was there).
    for (uint32_t i = used; i < mbps; ++i)
      row[i] = (int32_t)(next_random(&rng) % num_blocks);
    for (int32_t t = 0; t < p->seq_lens[b]; ++t)
      slots[p->token_base[b] + t] =
          (int64_t)row[t / (int32_t)bs] * bs + t % (int32_t)bs;
  }
  free(order);
  uq_kv_tokens_t tokens = {
      .key = p->k,
      .key_stride_token = (int64_t)Hk * D,
      .key_stride_head = D,
      .value = p->v,
      .value_stride_token = (int64_t)Hk * D,
      .value_stride_head = D,
      .slot_mapping = slots,
      .num_tokens = total_tokens,
      .dtype = s->dtype,
  };
  status = uq_cache_write(&p->layout, p->cache, p->cache_bytes, &tokens);
  if (status) {
    free(slots);
    return status;
  }
  // Tokens before a window are never to be read: make them poison (before
  // the first query token's window: the later tokens' start later).
  for (uint32_t b = 0; b < B && s->sliding_window; ++b) {
    int64_t q_len = p->query_start_loc
                        ? p->query_start_loc[b + 1] - p->query_start_loc[b]
                        : 1;
    int64_t start = p->seq_lens[b] - q_len + 1 - (int64_t)s->sliding_window;
    for (int64_t t = 0; t < start; ++t)
      for (uint32_t h = 0; h < Hk; ++h)
        memset(p->cache +
                   ((size_t)slots[p->token_base[b] + t] * Hk + h) * padded_slot,
               0xFF, UQ_SLOT_CONTENT_BYTES(D));
  }
  free(slots);
  if (s->sinks) {
    p->sinks = malloc(Hq * sizeof(float));
    if (!p->sinks)
      return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    for (uint32_t h = 0; h < Hq; ++h)
      p->sinks[h] = h % 5 == 4 ? -INFINITY : 2.0f * gaussian(&rng);
  }
  return UQ_OK;
}

uq_status_t uq_problem_create(const uq_problem_shape_t *shape,
                              uq_problem_t **out_problem) {
  *out_problem = NULL;
  uq_problem_t *p = calloc(1, sizeof(*p));
  if (!p)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  p->shape = *shape;
  p->shape.seq_lens = NULL; // not kept: copied into p->seq_lens
  p->row_tolerance = 1.0 / 256;
  uq_problem_shape_t with_lens = *shape;
  p->shape = with_lens;
  uq_status_t status = build(p);
  p->shape.seq_lens = NULL;
  if (status) {
    uq_problem_destroy(p);
    return status;
  }
  *out_problem = p;
  return UQ_OK;
}

float uq_problem_softmax_scale(const uq_problem_t *p) {
  const uq_decode_config_t *c = &p->config;
  return c->softmax_scale != 0 ? c->softmax_scale
                               : (float)(1.0 / sqrt((double)c->head_dim));
}

uq_decode_problem_t uq_problem_reference_args(const uq_problem_t *p,
                                              uq_fp8_overflow_t rule,
                                              uint16_t *out) {
  const uq_decode_config_t *c = &p->config;
  return (uq_decode_problem_t){
      .num_seqs = (int32_t)p->shape.batch,
      .query_group = (int32_t)c->query_group,
      .cache = p->layout,
      .max_blocks_per_seq = (int32_t)c->max_blocks_per_seq,
      .softmax_scale = uq_problem_softmax_scale(p),
      .q_overflow = rule,
      .query = p->query,
      .query_stride_seq = c->query_stride_seq,
      .query_stride_head = c->query_stride_head,
      .kv_cache = p->cache,
      .block_tables = p->block_tables,
      .seq_lens = p->seq_lens,
      .output = out, // contiguous, whatever the run's output strides
      .output_stride_seq =
          (int64_t)c->num_kv_heads * c->query_group * c->head_dim,
      .output_stride_head = c->head_dim,
      .sliding_window = (int32_t)c->sliding_window,
      .sinks = p->sinks,
      .query_start_loc = p->query_start_loc,
      .dtype = c->query_dtype,
  };
}

float uq_problem_to_float(const uq_problem_t *p, uint16_t bits) {
  return p->shape.dtype == UQ_DTYPE_F16 ? uq_f16_to_float(bits)
                                        : uq_bf16_to_float(bits);
}

uint16_t uq_problem_from_float(const uq_problem_t *p, float x) {
  return p->shape.dtype == UQ_DTYPE_F16 ? uq_float_to_f16(x)
                                        : uq_float_to_bf16(x);
}

// Sum_p w_p |o_p[d]| / den per output element: the reference's own reduce
// (uq_reference_reduce) of the partials' magnitudes, in bf16.
static uq_status_t partial_scale(const uq_problem_t *p, int32_t partitions,
                                 const uq_decode_partials_t *parts, size_t rows,
                                 double *out) {
  const uq_decode_config_t *c = &p->config;
  const size_t D = c->head_dim;
  for (size_t i = 0; i < rows * D; ++i)
    parts->segm_out[i] &= 0x7FFF;
  size_t n = (size_t)p->num_tokens * c->num_kv_heads * c->query_group * D;
  uint16_t *magnitude = malloc(n * sizeof(uint16_t));
  if (!magnitude)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "out of memory for the partials' scale");
  uq_reduce_problem_t reduce = {
      .num_seqs = (int32_t)p->num_tokens,
      .num_kv_heads = (int32_t)c->num_kv_heads,
      .query_group = (int32_t)c->query_group,
      .head_dim = (int32_t)D,
      .num_partitions = partitions,
      .segm_out = parts->segm_out,
      .segm_max = parts->segm_max,
      .segm_sum = parts->segm_sum,
      .output = magnitude,
      .output_stride_seq = (int64_t)c->num_kv_heads * c->query_group * D,
      .output_stride_head = (int64_t)D,
      .sinks = p->sinks,
  };
  uq_status_t status = uq_reference_reduce(&reduce);
  for (size_t i = 0; status == UQ_OK && i < n; ++i)
    out[i] = uq_bf16_to_float(magnitude[i]);
  free(magnitude);
  return status;
}

uq_status_t uq_problem_faithful(const uq_problem_t *p, uq_fp8_overflow_t rule,
                                int32_t partitions, int32_t tgpp, uint16_t *out,
                                double *out_scale) {
  uq_launch_walk_t walk = {partitions, tgpp,
                           UQ_TILE_GROUP_TOKENS / UQ_TILE_TOKENS};
  return uq_problem_faithful_walk(p, rule, &walk, out, out_scale);
}

uq_status_t uq_problem_faithful_walk(const uq_problem_t *p,
                                     uq_fp8_overflow_t rule,
                                     const uq_launch_walk_t *walk,
                                     uint16_t *out, double *out_scale) {
  return uq_problem_faithful_varlen(p, rule, walk, 1, out, out_scale);
}

uq_status_t uq_problem_faithful_varlen(const uq_problem_t *p,
                                       uq_fp8_overflow_t rule,
                                       const uq_launch_walk_t *walk,
                                       int32_t block_tokens, uint16_t *out,
                                       double *out_scale) {
  uq_decode_problem_t problem = uq_problem_reference_args(p, rule, out);
  int32_t partitions = walk ? walk->num_partitions : 0;
  if (!out_scale || partitions < 1 || p->num_tokens == 0)
    return uq_reference_varlen_faithful(&problem, walk, block_tokens, NULL);
  size_t rows = (size_t)p->num_tokens * p->config.num_kv_heads *
                (size_t)partitions * p->config.query_group;
  uq_decode_partials_t parts = {
      .segm_out = malloc(rows * p->config.head_dim * sizeof(uint16_t)),
      .segm_max = malloc(rows * sizeof(float)),
      .segm_sum = malloc(rows * sizeof(float)),
  };
  uq_status_t status =
      parts.segm_out && parts.segm_max && parts.segm_sum
          ? uq_reference_varlen_faithful(&problem, walk, block_tokens, &parts)
          : UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                           "out of memory for %zu partial rows", rows);
  if (status == UQ_OK)
    status = partial_scale(p, partitions, &parts, rows, out_scale);
  free(parts.segm_out);
  free(parts.segm_max);
  free(parts.segm_sum);
  return status;
}

uq_status_t uq_problem_exact(const uq_problem_t *p, uq_fp8_overflow_t rule,
                             uint16_t *out) {
  uq_decode_problem_t problem = uq_problem_reference_args(p, rule, out);
  return uq_reference_decode_exact(&problem);
}

uq_status_t uq_problem_unquantized(const uq_problem_t *p, double *out) {
  const uq_decode_config_t *c = &p->config;
  uint32_t Hk = c->num_kv_heads, QG = c->query_group;
  const int32_t D = (int32_t)c->head_dim;
  double scale = uq_problem_softmax_scale(p);
  int32_t longest = 0;
  for (uint32_t b = 0; b < p->shape.batch; ++b)
    if (p->seq_lens[b] > longest)
      longest = p->seq_lens[b];
  size_t n = (size_t)(longest ? longest : 1) * (size_t)D;
  float *k = malloc(n * sizeof(float)), *v = malloc(n * sizeof(float));
  if (!k || !v) {
    free(k);
    free(v);
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  uq_status_t status = UQ_OK;
  for (uint32_t b = 0; b < p->shape.batch && !status; ++b) {
    int32_t len = p->seq_lens[b];
    int32_t first = p->query_start_loc ? p->query_start_loc[b] : (int32_t)b;
    int32_t q_len = p->query_start_loc ? p->query_start_loc[b + 1] - first : 1;
    for (uint32_t h = 0; h < Hk && !status; ++h) {
      for (int32_t t = 0; t < len; ++t) {
        size_t src = ((size_t)(p->token_base[b] + t) * Hk + h) * (size_t)D;
        for (int d = 0; d < D; ++d) {
          k[(size_t)t * D + d] = uq_problem_to_float(p, p->k[src + d]);
          v[(size_t)t * D + d] = uq_problem_to_float(p, p->v[src + d]);
        }
      }
      // Query token i attends the positions before len - q_len + i + 1.
      for (int32_t i = 0; i < q_len && !status; ++i) {
        int64_t token = first + i;
        for (uint32_t r = 0; r < QG && !status; ++r) {
          uint32_t hq = h * QG + r;
          float q[UQ_MAX_HEAD_DIM];
          const uint16_t *qrow = p->query + token * c->query_stride_seq +
                                 hq * c->query_stride_head;
          for (int d = 0; d < D; ++d)
            q[d] = uq_problem_to_float(p, qrow[d]);
          status = uq_reference_attention_window_sink_f64(
              D, q, k, v, len - q_len + i + 1, scale, c->sliding_window,
              p->sinks ? p->sinks[hq] : -INFINITY,
              out + ((size_t)token * Hk * QG + hq) * (size_t)D);
        }
      }
    }
  }
  free(k);
  free(v);
  return status;
}

// The magnitude an element's error scales with: |ref|, or where the
// partials cancel, their weighted magnitude (`scale`, NULL: none): a bf16
// ulp of a partial then outweighs one of the output.
static double element_scale(const uq_problem_t *p, const uint16_t *ref16,
                            const double *ref64, const double *scale,
                            size_t i) {
  double r = ref16 ? uq_problem_to_float(p, ref16[i]) : ref64[i];
  return fmax(fabs(r), scale ? scale[i] : 0.0);
}

static void compare(const uq_problem_t *p, const uint16_t *got,
                    const uint16_t *ref16, const double *ref64,
                    const double *scale, uq_problem_error_t *out) {
  memset(out, 0, sizeof(*out));
  const uq_decode_config_t *c = &p->config;
  uint32_t Hq = c->num_kv_heads * c->query_group;
  const int D = (int)c->head_dim;
  double err2 = 0, ref2 = 0;
  for (uint32_t b = 0; b < p->num_tokens; ++b) {
    for (uint32_t h = 0; h < Hq; ++h) {
      size_t row = ((size_t)b * Hq + h) * (size_t)D;
      const uint16_t *g =
          got + b * c->output_stride_seq + h * c->output_stride_head;
      double row_max = 0;
      for (int d = 0; d < D; ++d)
        row_max = fmax(row_max, element_scale(p, ref16, ref64, scale, row + d));
      for (int d = 0; d < D; ++d) {
        double r =
            ref16 ? uq_problem_to_float(p, ref16[row + d]) : ref64[row + d];
        double x = uq_problem_to_float(p, g[d]);
        if (!isfinite(x) || !isfinite(r)) {
          // Non-finite entries match only their like (NaN with NaN, inf
          // with the same inf): the E4M3 overflow rule can make whole rows
          // NaN on both sides.
          ++out->nonfinite;
          int same = (isnan(x) && isnan(r)) || x == r;
          if (!same)
            ++out->over_tol;
          continue;
        }
        double e = fabs(x - r);
        if (e > out->max_abs)
          out->max_abs = e;
        if (fabs(r) > out->ref_max_abs)
          out->ref_max_abs = fabs(r);
        if (e > 4.0 / 256 * element_scale(p, ref16, ref64, scale, row + d) +
                    row_max * p->row_tolerance)
          ++out->over_tol;
        err2 += e * e;
        ref2 += r * r;
      }
    }
  }
  out->rel_rms = ref2 > 0 ? sqrt(err2 / ref2) : sqrt(err2);
}

void uq_problem_compare_bf16(const uq_problem_t *p, const uint16_t *got,
                             const uint16_t *ref, const double *scale,
                             uq_problem_error_t *out) {
  compare(p, got, ref, NULL, scale, out);
}

void uq_problem_compare_f64(const uq_problem_t *p, const uint16_t *got,
                            const double *ref, uq_problem_error_t *out) {
  compare(p, got, NULL, ref, NULL, out);
}

const char *uq_problem_verdict(const uq_problem_error_t *vs_faithful,
                               const uq_problem_error_t *vs_unquantized) {
  if (vs_faithful->over_tol)
    return "FAIL: outside the tolerance of the kernel-faithful reference";
  if (vs_unquantized->nonfinite)
    return "FAIL: non-finite output where unquantized attention is finite";
  if (!(vs_unquantized->rel_rms <= UQ_PROBLEM_UNQUANTIZED_REL_RMS))
    return "FAIL: rel rms against unquantized attention above 0.9";
  return NULL;
}
