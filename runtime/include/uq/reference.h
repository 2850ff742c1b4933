// The host reference for UltraQuant decode attention: the oracle every
// kernel is judged against. Two modes over the same problem description:
//
// - exact: float64 attention on the dequantized cache (K in the rotated
//   basis) with the query rotated by uq_wht and rounded to E4M3;
// - faithful: the decode kernel's own order and roundings (partitions,
//   16-token tiles, base-2 online softmax in fp32, bf16 P for the PV
//   product, bf16 partials with fp32 max and sum, the partition reduce).
//
// No global state; every function is safe to call concurrently on disjoint
// outputs. Pointers are borrowed for the duration of the call only.
#ifndef UQ_RUNTIME_INCLUDE_UQ_REFERENCE_H_
#define UQ_RUNTIME_INCLUDE_UQ_REFERENCE_H_

#include <stddef.h>
#include <stdint.h>

#include "uq/format.h"
#include "uq/policy.h"
#include "uq/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// Tokens per tile and per tile-group of the decode kernel.
#define UQ_TILE_TOKENS 16
#define UQ_TILE_GROUP_TOKENS 256

// One decode step for a batch: query [B, Hq, D] (Hq = Hk * QG; query
// head hq = kv_head * QG + r; D = cache.head_dim: 32 ... 512) against
// the paged cache, output [B, Hq, D], both in `dtype` (bf16 unless set).
// Strides are in elements; the head dim is contiguous.
typedef struct uq_decode_problem_s {
  int32_t num_seqs;           // B >= 1
  int32_t query_group;        // QG: 1..16 (one 16-row MFMA tile)
  uq_cache_layout_t cache;    // num_blocks, block_size (16, 32, 64, 128 or
                              // 256), num_kv_heads, padded_slot, head_dim
  int32_t max_blocks_per_seq; // block-table row length, >= 1
  float softmax_scale;        // finite; 1/sqrt(D) when the model sets none
  // The E4M3 rule for the rotated query: SATURATE (0) is the project's rule
  // and what the oracle uses; the faithful mode takes the rule of the
  // kernel's code object (uq_plan_info_t.e4m3_saturates).
  uq_fp8_overflow_t q_overflow;

  const uint16_t *query;       // bf16 or fp16 bits (dtype)
  int64_t query_stride_seq;    // elements between sequences, >= 0
  int64_t query_stride_head;   // elements between query heads, >= 0
  const uint8_t *kv_cache;     // uq_cache_layout_size(&cache) bytes
  const int32_t *block_tables; // [B, max_blocks_per_seq]
  const int32_t *seq_lens; // [B], each in [0, max_blocks_per_seq*block_size]
  uint16_t *output;        // bf16 or fp16 bits (dtype), written
  int64_t output_stride_seq;
  int64_t output_stride_head;
  // Sliding window W >= 0: a query attends only to the last W tokens
  // (positions >= seq_len - W); 0 = no window.
  int32_t sliding_window;
  // Attention sinks: NULL = none, else [Hq] f32 logits (units of scale*q.k),
  // each finite or -inf (= none for that head). Sink s_h joins the softmax
  // denominator only: out_h = sum_t e^(x_t - M) v_t / (sum_t e^(x_t - M) +
  // e^(s_h - M)), M = max(max_t x_t, s_h); a head with no tokens outputs 0.
  const float *sinks;
  // Since 0.6: varlen attention, several new query tokens per sequence
  // (speculative-decoding verify, chunked prefill, prefix-cache extends).
  // NULL: one query token per sequence, query and output row b (decode).
  // Else num_seqs + 1 offsets, non-decreasing from query_start_loc[0] >= 0:
  // sequence b's q_len_b = query_start_loc[b + 1] - query_start_loc[b]
  // (0 allowed) new tokens are the query and output rows query_start_loc[b]
  // .. query_start_loc[b + 1] - 1 (a row is a token: the "seq" strides
  // step tokens), the last q_len_b of its seq_lens[b] >= q_len_b cached
  // tokens. Its token i attends the key positions t < limit =
  // seq_lens[b] - q_len_b + i + 1 (causal inside the chunk) and, with a
  // sliding window W, t >= limit - W. q_len 1 everywhere is the decode.
  const int32_t *query_start_loc;
  // Since 0.9: the dtype of query and output, BF16 (0) or F16. Query
  // elements convert to float exactly; everything up to the output is the
  // same for both (bf16 partials included); the output is rounded
  // (round-to-nearest-even) to this dtype.
  uq_dtype_t dtype;
} uq_decode_problem_t;

// Checks every input of a problem; returns the first problem found.
// INVALID_ARGUMENT: NULL problem or pointer; a dtype other than BF16 or
//   F16; B, Hk, num_blocks,
//   max_blocks_per_seq not positive; head_dim 0; padded_slot < D + D/16 or
//   not a multiple of 4; QG not in 1..16; block_size not in {16, 32, 64,
//   128, 256};
//   softmax_scale not finite; q_overflow not a known rule; a negative
//   stride, or query/output strides under which two (token, head) rows of
//   D elements overlap; a negative sliding_window; a sink that is NaN or
//   +inf; query_start_loc[0] negative or an offset below the one before it;
//   a q_len over its sequence's seq_len.
// UNIMPLEMENTED: a head dim other than 32, 64, 128, 256, 512.
// OUT_OF_RANGE: a negative seq_len or one past max_blocks_per_seq *
//   block_size; a block id in the used part of a block-table row (entries
//   first .. ceil(seq_len / block_size) - 1, first = 0 or, with a window,
//   the block of the first query token's first attended position) outside
//   [0, num_blocks); sizes whose byte counts overflow.
UQ_API uq_status_t uq_decode_problem_validate(const uq_decode_problem_t *p);

// Exact mode. For each query token and head: q_rot = uq_query_rotate(D, q,
// rule); scores s_t = scale * sum_d q_rot[d] * k_rot_t[d] in float64 over
// the positions t < limit (seq_len for a decode; K and V dequantized with
// the host UE8M0 rule), only t >= limit - W with a sliding window W;
// softmax (with the head's sink in
// the denominator) and sum_t p_t v_t in float64; output rounded once to the
// problem's dtype (bf16 or fp16).
// No tokens (seq_len 0) gives zeros. A query row with a NaN or +-inf element
// (or, under the NAN rule, one whose rotation passes 464) has NaN scores and
// a NaN output row, as the kernel and faithful mode give.
// Validates first (codes as above); writes the output only on success.
UQ_API uq_status_t uq_reference_decode_exact(const uq_decode_problem_t *p);

// Partition partials as the decode kernel writes them (kernel_abi.h):
// segm_out [T, Hk, P, QG, D] bf16, segm_max and segm_sum [T, Hk, P, QG]
// fp32, contiguous, T = the query tokens (B for a decode). Every entry of
// a query token is written, including empty partitions (out 0, max -inf,
// sum 0).
typedef struct uq_decode_partials_s {
  uint16_t *segm_out;
  float *segm_max;
  float *segm_sum;
} uq_decode_partials_t;

// Faithful mode with P = num_partitions and TGPP = tgpp (from uq_launch_policy
// or chosen by a test). Partition p walks tile-groups p, p+P, ..., at most
// tgpp of them. With a sliding window W the walk is shifted: win_start =
// max(0, seq_len - W), win_base = win_start rounded down to 16, and
// tile-group g covers tokens [win_base + 256 g, +256) (no window: base 0);
// tokens before win_start are masked like tokens >= seq_len. Per 16-token
// tile, in fp32:
//   qk[t] = scale * sum over the MFMA issues of sum over their groups g
//           of 2^(kbyte_g-127) * sum_{32 elements} fp4 * e4m3(q_rot)
//           (E8M0 scale rule; each issue's sum rounded once to fp32). An
//           issue contracts 128 elements (4 groups): D = 256 is two issues
//           chained through C, D = 128 one; D = 64 one issue of its 2
//           groups (a 32x32x64 scaled MFMA, or a 16x16x128 one whose other
//           half is zero, round the same: the zero half adds exact zeros);
//   tokens t >= seq_len or t < win_start -> -inf;
//   m' = max(m, max_t qk) (fmaxf: NaN scores leave m' at -inf);
//   c = exp2f((m - m') * log2e); p_t = exp2f((qk_t - m') * log2e), both
//   unguarded as in the kernel: a processed tile holds an in-context token,
//   so m' = -inf only for NaN scores, and the row turns NaN; l = l*c + tile sum
//   (four lanes' sequential sums of 4, added pairwise as the kernel's
//   shuffles do); acc = acc*c + sum_t bf16(p_t) * v_t with v_t the bf16 V
//   of v_cvt_scalef32_pk_bf16_fp4 (E8M0 scale), one fp32 rounding per
//   16-token product. Masked tokens contribute nothing (not 0 * V).
// A partition's partial is bf16(acc * (1/l)) (1/1 when l = 0), max m, sum l.
// The reduce (uq_reference_reduce, with the problem's sinks and dtype) then
// gives the output. libm's exp2f
// stands in for the kernel's fast exp2, so the kernel is not bit-exact
// against this oracle (a few bf16 ulps).
// `out_partials` may be NULL; when given, all three arrays must be non-NULL
// and hold B*Hk*P*QG(*D) entries.
// Extra codes: INVALID_ARGUMENT for num_partitions or tgpp < 1 or a partials
// struct with a NULL member; OUT_OF_RANGE when some seq_len exceeds the
// coverage num_partitions * tgpp * 256 (the kernel would drop tokens); with
// a window the walked span seq_len - win_base (<= W + 15) must fit instead.
UQ_API uq_status_t uq_reference_decode_faithful(
    const uq_decode_problem_t *p, int32_t num_partitions, int32_t tgpp,
    const uq_decode_partials_t *out_partials);

// Faithful mode over any walk (uq/policy.h): partition p walks groups p,
// p+P, ... of walk->group_tiles tiles (group g covers tokens [win_base +
// 16 group_tiles g, + 16 group_tiles)), at most walk->groups_per_partition
// of them; uq_reference_decode_faithful is the walk of 256-token
// tile-groups. Codes as uq_reference_decode_faithful; INVALID_ARGUMENT
// also for a NULL walk or a group_tiles other than 1, 2, 4, 8 or 16, and
// the coverage is P * groups_per_partition * 16 group_tiles tokens.
UQ_API uq_status_t uq_reference_decode_faithful_walk(
    const uq_decode_problem_t *p, const uq_launch_walk_t *walk,
    const uq_decode_partials_t *out_partials);

// Since 0.6: faithful mode for the varlen kernels, which serve a
// sequence's query tokens in blocks of `block_tokens` (from its first
// token; the last block may hold fewer): a block's KV is walked once for
// all its tokens, over the positions [win_base, end) its tokens attend
// (end: its last token's limit; win_base: its first token's window start
// rounded down to 16, 0 without a window), split by `walk` as a decode's
// walk splits [win_base, seq_len); each query row keeps its own online
// softmax, its tokens outside its own range masked to -inf, and a tile
// holding none of a row's tokens leaves that row unchanged (the kernels'
// maximum guard: a row whose maximum is still -inf weighs the tile from 0,
// not from -inf). block_tokens 1 is uq_reference_decode_faithful_walk.
// Partials [T, Hk, P, QG, D] by query token. Codes as
// uq_reference_decode_faithful_walk (the coverage applies to each block's
// walk, end - win_base), and INVALID_ARGUMENT for block_tokens < 1.
UQ_API uq_status_t uq_reference_varlen_faithful(
    const uq_decode_problem_t *p, const uq_launch_walk_t *walk,
    int32_t block_tokens, const uq_decode_partials_t *out_partials);

// The partition reduce on its own, for checking a reduce kernel against
// partials a decode kernel wrote. In fp32 per (sequence, query head, dim):
// M = max(max_p m_p, sink); w_p = expf(m_p - M) * l_p over partitions with
// l_p != 0 (an empty partition has l_p = 0; a NaN l_p is kept, so NaN
// propagates); w_s = expf(sink - M) (0 without a sink: NULL or -inf);
// out = bf16(sum_p w_p * o_p / (w_s + sum_p w_p)) (fp16 for dtype F16), or
// 0 when the denominator
// is exactly 0 (and when every partition is empty: w_s alone gives 0 / w_s).
// Output strides in elements (rows of D must not overlap).
typedef struct uq_reduce_problem_s {
  int32_t num_seqs;       // B >= 1
  int32_t num_kv_heads;   // Hk >= 1
  int32_t query_group;    // QG >= 1 (any; the kernel set is checked elsewhere)
  int32_t head_dim;       // D: 32, 64, 128, 256 or 512
  int32_t num_partitions; // P >= 1
  const uint16_t *segm_out; // [B, Hk, P, QG, D] bf16
  const float *segm_max;    // [B, Hk, P, QG]
  const float *segm_sum;    // [B, Hk, P, QG]
  uint16_t *output;         // [B, Hk*QG, D] in dtype, the strides below
  int64_t output_stride_seq;
  int64_t output_stride_head;
  const float *sinks; // NULL or [Hk*QG] f32, query head hq = kv_head*QG + r
  // Since 0.9: the output's dtype, BF16 (0) or F16 (the partials stay
  // bf16 either way, as the kernels write them).
  uq_dtype_t dtype;
} uq_reduce_problem_t;

// INVALID_ARGUMENT for NULL pointers, non-positive sizes, negative or
// overlapping output strides, a NaN or +inf sink, a dtype other than BF16
// or F16; UNIMPLEMENTED for a head
// dim other than 32, 64, 128, 256, 512; OUT_OF_RANGE when sizes overflow.
UQ_API uq_status_t uq_reference_reduce(const uq_reduce_problem_t *r);

// Unquantized attention for accuracy measurements: one query row q [D]
// against K and V [num_tokens, D] (floats, row-major, no rotation, no
// quantization), all arithmetic in float64: out = softmax(scale * K q)^T V.
// Any head_dim >= 1 (nothing here depends on the format). num_tokens 0 gives
// zeros. INVALID_ARGUMENT for NULL pointers (k and v may be NULL when
// num_tokens is 0), head_dim < 1, a negative num_tokens or a non-finite
// scale.
UQ_API uq_status_t uq_reference_attention_f64(int32_t head_dim, const float *q,
                                              const float *k, const float *v,
                                              int64_t num_tokens, double scale,
                                              double *out);

// The same with a sliding window and a sink: only tokens t >= num_tokens -
// sliding_window take part (sliding_window 0: all), and the sink (-inf:
// none) joins the softmax denominator as exp(sink - M) with M = max(max
// score, sink). No tokens gives zeros. INVALID_ARGUMENT as above, and for a
// negative sliding_window or a NaN / +inf sink.
UQ_API uq_status_t uq_reference_attention_window_sink_f64(
    int32_t head_dim, const float *q, const float *k, const float *v,
    int64_t num_tokens, double scale, int64_t sliding_window, double sink,
    double *out);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_RUNTIME_INCLUDE_UQ_REFERENCE_H_
