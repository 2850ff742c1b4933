// A decode problem for uq-run, uq-bench-run and the runtime tests: random
// bf16 or fp16 query/K/V, a paged cache filled by the host encoder through
// shuffled block tables, and the oracles (kernel-faithful reference,
// unquantized float64 attention) to judge a run against.
#ifndef UQ_TOOLS_UQ_RUN_PROBLEM_H_
#define UQ_TOOLS_UQ_RUN_PROBLEM_H_

#include <stddef.h>
#include <stdint.h>

#include "uq/format.h"
#include "uq/reference.h"
#include "uq/uqrt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uq_problem_shape_s {
  uint32_t batch;         // B
  uint32_t num_kv_heads;  // Hk
  uint32_t query_group;   // QG
  uint32_t head_dim;      // D: 64, 128 or 256 (0: 256)
  uint32_t block_size;    // tokens per block
  uint32_t padded_slot;   // bytes per slot (0: D + D/16)
  uint32_t max_seq;       // longest sequence; sets max_blocks_per_seq
  uint32_t extra_blocks;  // block-table columns beyond max_seq's need
  uint32_t spare_blocks;  // cache blocks no sequence uses (garbage-filled)
  uint32_t max_kv_splits; // 0: the policy's default
  int fused_qkv;          // query strides of a fused QKV tensor; 2: and
                          // one element more per sequence (odd: no query
                          // row 16-byte aligned, the sm_90a 2-byte loads)
  int padded_output;      // output strides with gaps between heads/seqs:
                          // 1: 64 and 128 elements; 2: 1 and 3 (rows
                          // off 8-byte alignment)
  int shuffle;            // random block order (else sequential)
  float softmax_scale;    // 0: 1/sqrt(D)
  float query_scale;      // stddev of the random query (0: 1)
  uint64_t seed;
  // Explicit seq lens (batch entries) or NULL: random in 1..max_seq with
  // the last sequence at max_seq.
  const int32_t *seq_lens;
  // Sliding window W (0: none). The cache slots of tokens before each
  // sequence's window are overwritten with 0xFF (NaN scales) after
  // encoding: a run that reads them shows it.
  uint32_t sliding_window;
  int sinks; // 1: random attention sinks N(0, 2^2) per query head, every
             // fifth head -inf (none); 0: no sinks
  // Tokens each sequence may still grow by (uq-run --steps): its block
  // table holds distinct blocks of its own for them.
  uint32_t reserve_tokens;
  // Varlen attention (several query tokens a sequence, the last of its
  // seq_len): explicit q_lens (batch entries, each <= its seq len) or NULL
  // with query_len >= 1: every sequence's q_len is min(query_len, seq_len).
  // Both 0/NULL: a decode (one token a sequence, no query_start_loc).
  const int32_t *query_lens;
  uint32_t query_len;
  // The activations' dtype (query, K, V, output; the config's query_dtype
  // and output_dtype): BF16 (0) or F16. Random values are drawn as floats
  // and rounded to it.
  uq_dtype_t dtype;
} uq_problem_shape_t;

typedef struct uq_problem_s {
  uq_problem_shape_t shape;
  uq_decode_config_t config;
  uq_cache_layout_t layout;
  uint16_t *query; // shape.dtype, query_elems with the config's strides
  size_t query_elems;
  // Varlen: [B + 1] offsets of each sequence's query tokens (NULL for a
  // decode) and their count T (B for a decode): the query and output rows.
  int32_t *query_start_loc;
  uint32_t num_tokens;
  uint32_t max_query_len; // the longest q_len (1 for a decode)
  uint16_t *k, *v;        // dtype [total_tokens, Hk, D] (K unrotated)
  int64_t *token_base;    // [B] first token of each sequence in k/v
  uint8_t *cache;
  size_t cache_bytes;
  int32_t *block_tables; // [B, max_blocks_per_seq]
  int32_t *seq_lens;     // [B]
  float *sinks;          // [Hq] or NULL (shape.sinks == 0)
  size_t output_elems;   // 16-bit elements of an output buffer (with the
                         // config's output strides; references written
                         // here are contiguous [T, Hq, D])
  // The row term of the faithful tolerance (uq_problem_compare_bf16):
  // 2^-8 on creation; uq_problem_use_backend sets the backend's.
  double row_tolerance;
} uq_problem_t;

// Builds a problem (host memory). INVALID_ARGUMENT for a bad shape;
// RESOURCE_EXHAUSTED when it would take more than
// UQ_PROBLEM_MAX_HOST_BYTES (cache, K/V, tables) or an allocation fails.
#define UQ_PROBLEM_MAX_HOST_BYTES ((double)(1ull << 34))
uq_status_t uq_problem_create(const uq_problem_shape_t *shape,
                              uq_problem_t **out_problem);
void uq_problem_destroy(uq_problem_t *problem);

// Sets the faithful tolerance's row term for the kernels of `backend`.
// 2^-8 where the kernel rounds P to bf16 exactly where the reference does
// (gfx950 and the host: one running max per 16-token tile, as the reference
// has it). 2^-7 on cuda: the sm_90a kernel splits a partition over 4 warps,
// each with its own running max, so its bf16(p) roundings are independent
// of the reference's and the difference is the sum of two independent
// rounding noises (each up to 2^-9 relative per weight): twice the
// variance, held with margin by one more bf16 ulp at the row's scale
// (measured on the H200: at most 0.5% of the row max).
void uq_problem_use_backend(uq_problem_t *problem, uq_backend_t backend);

// The problem's buffers on a context's device.
typedef struct uq_problem_device_s {
  uq_device_ptr_t query, cache, block_tables, seq_lens, output;
  uq_device_ptr_t sinks;           // 0 without sinks
  uq_device_ptr_t query_start_loc; // 0 for a decode
} uq_problem_device_t;

uq_status_t uq_problem_upload(const uq_problem_t *problem,
                              uq_context_t *context,
                              uq_problem_device_t *out_device);
void uq_problem_device_free(uq_context_t *context, uq_problem_device_t *device);

// The softmax scale a run uses: the config's, or the default 1/sqrt(D).
float uq_problem_softmax_scale(const uq_problem_t *problem);

// The references' description of the problem (uq/reference.h): its query,
// cache, tables, lengths, window, sinks, query_start_loc and dtype, the
// query's E4M3 `rule`, into `out` as contiguous [T, Hq, D] in the dtype.
uq_decode_problem_t uq_problem_reference_args(const uq_problem_t *problem,
                                              uq_fp8_overflow_t rule,
                                              uint16_t *out);
// The kernel-faithful reference with P/TGPP, into `out` (output_elems).
// `rule` is the E4M3 rule of the query: SATURATE is the oracle's (the
// project's rule); a code object's own rule (uq_plan_info_t) shows what
// that code object computes.
// With `out_scale` (NULL: not wanted; [B, Hq, D] doubles), also the
// magnitude each output element gathers from the partials, sum_p w_p |o_p|
// / den (the reference's reduce of the partials' magnitudes, bf16): |out|
// where the partials agree, more where they cancel (the tolerance's scale,
// uq_problem_compare_bf16).
uq_status_t uq_problem_faithful(const uq_problem_t *problem,
                                uq_fp8_overflow_t rule, int32_t partitions,
                                int32_t tgpp, uint16_t *out, double *out_scale);
// The same over any walk (uq_plan_launch_walk's); uq_problem_faithful is the
// walk of tile-groups.
uq_status_t uq_problem_faithful_walk(const uq_problem_t *problem,
                                     uq_fp8_overflow_t rule,
                                     const uq_launch_walk_t *walk,
                                     uint16_t *out, double *out_scale);
// The same for varlen kernels' query blocks of `block_tokens` tokens
// (uq_reference_varlen_faithful; uq_plan_varlen_shape gives them).
uq_status_t uq_problem_faithful_varlen(const uq_problem_t *problem,
                                       uq_fp8_overflow_t rule,
                                       const uq_launch_walk_t *walk,
                                       int32_t block_tokens, uint16_t *out,
                                       double *out_scale);
// The exact (float64 on the dequantized cache) reference, into `out`
// (contiguous [T, Hq, D] in the problem's dtype).
uq_status_t uq_problem_exact(const uq_problem_t *problem,
                             uq_fp8_overflow_t rule, uint16_t *out);
// Unquantized float64 attention, [T, Hq, D] contiguous doubles (each query
// token over its own causal positions, its window and its head's sink).
uq_status_t uq_problem_unquantized(const uq_problem_t *problem, double *out);

// The value of one 16-bit element of the problem's dtype, and the dtype's
// rounding of a float.
float uq_problem_to_float(const uq_problem_t *problem, uint16_t bits);
uint16_t uq_problem_from_float(const uq_problem_t *problem, float x);

// Error statistics of `got` (the problem's dtype, output strides) against a
// reference.
typedef struct uq_problem_error_s {
  double max_abs;     // largest |got - ref|
  double rel_rms;     // ||got - ref||_2 / ||ref||_2
  double ref_max_abs; // largest |ref|
  uint64_t nonfinite; // non-finite entries of got
  uint64_t over_tol;  // entries outside the bf16 tolerance below
} uq_problem_error_t;

// Output against a reference, both in the problem's dtype (bf16 or fp16:
// the name is from before fp16); tolerance per element:
// |got - ref| <= 4 * 2^-8 * a + row_tolerance * max_row a, a = max(|ref|,
// scale) (a few bf16 ulps at the element plus one or two at the row's
// scale). The same bound holds for fp16 outputs: everything before the
// final rounding is the bf16 pipeline (bf16 P and partials), and fp16's
// own rounding (2^-11) is finer than bf16's, so the bf16 figures are loose
// enough. `scale` (NULL: |ref| alone) is uq_problem_faithful's: where the
// partials cancel, their bf16 roundings (a kernel's may differ from the
// reference's by an ulp) are at their magnitude, not the output's.
void uq_problem_compare_bf16(const uq_problem_t *problem, const uint16_t *got,
                             const uint16_t *ref, const double *scale,
                             uq_problem_error_t *out);
void uq_problem_compare_f64(const uq_problem_t *problem, const uint16_t *got,
                            const double *ref, uq_problem_error_t *out);

// uq-run's verdict on a run: NULL (ok) when every element is within the
// faithful reference's tolerance and the output as a whole is within
// UQ_PROBLEM_UNQUANTIZED_REL_RMS of unquantized attention with no
// non-finite entry (unquantized attention is finite for finite inputs);
// else a one-line reason starting "FAIL: ". The bound is quantization
// error, measured 0.17-0.30 at the default logits and up to 0.79 at 16x
// the default (uq-run's limit: 180 random shapes of D 64-256, QG 1-8 and
// sequences of 50-2300 tokens, where the softmax is nearly one-hot and an
// FP4 code flips which token wins); an all-zero output is 1. Closeness is
// the faithful reference's job; this only catches outputs of no use.
#define UQ_PROBLEM_UNQUANTIZED_REL_RMS 0.9
const char *uq_problem_verdict(const uq_problem_error_t *vs_faithful,
                               const uq_problem_error_t *vs_unquantized);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_TOOLS_UQ_RUN_PROBLEM_H_
