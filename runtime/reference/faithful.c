// The kernel-faithful reference: the kernels' tiles, walk, fp32 online
// softmax with the lazy maximum, bf16 P and partials, decode and varlen.
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/format/internal.h"
#include "runtime/reference/reference_internal.h"

// log2(e) as the kernel's fp32 constant.
#define UQ_LOG2E_F 1.44269504088896340736f
// 8 ln 2 as the kernel's fp32 constant (@lazy_limit in kernels/gfx950.mlir).
#define UQ_LAZY_MAX_SLACK 5.54517744447956247533f

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
    const uint8_t *slot = uq_ref_slot_of_(p, b, h, start + t);
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
  uq_ref_token_range_(p->seq_lens[b], span.count, i0, p->sliding_window,
                      &blk.start, &limit);
  int64_t last_start;
  uq_ref_token_range_(p->seq_lens[b], span.count, i0 + blk.n - 1,
                      p->sliding_window, &last_start, &blk.end);
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
    query_span_t span = uq_ref_query_span_(p, b);
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
    const query_span_t span = uq_ref_query_span_(p, b);
    for (int64_t i0 = 0; i0 < span.count; i0 += block_tokens) {
      const query_block_t blk = query_block(p, b, span, i0, block_tokens);
      const int64_t total_groups =
          (blk.end - blk.win_base + group_tokens - 1) / group_tokens;
      for (int32_t h = 0; h < hk; ++h) {
        for (int32_t tk = 0; tk < blk.n; ++tk)
          for (int32_t r = 0; r < qg; ++r)
            uq_format_query_rotate_(
                D, p->dtype,
                uq_ref_query_row_(p, span.first + i0 + tk, (int64_t)h * qg + r),
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
                uq_ref_token_range_(len, span.count, i0 + tk, p->sliding_window,
                                    &ts, &te);
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
          uq_ref_reduce_one_(
              num_partitions, qg, D, o + at * (size_t)D, m + at, l + at,
              p->sinks ? p->sinks + (int64_t)h * qg : NULL, p->dtype,
              uq_ref_output_row_(p, token, (int64_t)h * qg),
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
