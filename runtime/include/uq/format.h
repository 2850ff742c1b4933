// The UltraQuant cache format on the host: number conversions, the rotation,
// the group encoder/decoder and the paged-cache writer, byte-compatible with
// vLLM's `ultraquant` KV cache (head dims 32, 64, 128, 256 and 512, FP4 E2M1
// codes, UE8M0 group scales).
//
// Every function here is pure or writes only through its arguments: no global
// state, safe to call from any number of threads on disjoint outputs. The
// pure conversions cannot fail; functions taking a head dim, user buffers or
// sizes return a uq_status_t (UQ_OK = NULL) and write nothing when they fail
// (a head dim outside 32, 64, 128, 256, 512 fails as uq_head_dim_check
// says).
#ifndef UQ_RUNTIME_INCLUDE_UQ_FORMAT_H_
#define UQ_RUNTIME_INCLUDE_UQ_FORMAT_H_

#include <stddef.h>
#include <stdint.h>

#include "uq/dtype.h"
#include "uq/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---- Geometry of one slot (one token, one kv head) -------------------------

// The head dims D the format, the host reference and the public API take:
// 32, 64, 128, 256 and 512 (vLLM defines the cache for any multiple of 32;
// its rotation needs a power of two, and these are the ones models use).
// Groups of 32 elements share one scale byte, so a slot holds D/32 groups
// per tensor.
#define UQ_MAX_HEAD_DIM 512
#define UQ_GROUP_SIZE 32
#define UQ_GROUP_CODE_BYTES 16
#define UQ_MAX_NUM_GROUPS 16 // UQ_MAX_HEAD_DIM / UQ_GROUP_SIZE
// Byte offsets inside a slot of head dim D, as vLLM lays it out: K codes
// (D/2 bytes), K scales (D/32), V codes (D/2), V scales (D/32). D = 256:
// 0, 128, 136, 264; D = 128: 0, 64, 68, 132; D = 64: 0, 32, 34, 66;
// D = 32: 0, 16, 17, 33; D = 512: 0, 256, 272, 528.
#define UQ_SLOT_NUM_GROUPS(D) ((D) / 32)
#define UQ_SLOT_K_CODES_OFFSET(D) 0
#define UQ_SLOT_K_SCALES_OFFSET(D) ((D) / 2)
#define UQ_SLOT_V_CODES_OFFSET(D) ((D) / 2 + (D) / 32)
#define UQ_SLOT_V_SCALES_OFFSET(D) ((D) + (D) / 32)
// Bytes of content per slot, D + D/16: 34, 68, 136, 272, 544. The slot
// stride (padded_slot) is at least this and a multiple of 4 (D = 32: 36);
// bytes past the content are never read or written.
#define UQ_SLOT_CONTENT_BYTES(D) ((D) + (D) / 16)
// The smallest slot stride: the content rounded up to 4 bytes (only D = 32's
// 34 is not a multiple of 4).
#define UQ_SLOT_MIN_STRIDE(D) ((UQ_SLOT_CONTENT_BYTES(D) + 3) / 4 * 4)
#define UQ_MAX_SLOT_CONTENT_BYTES 544

// Whether the library takes head dim D: 32, 64, 128, 256 or 512. The one
// list of them: uq_head_dim_check, the variant records a context accepts
// (uq/variant.h) and uq-compile's uq.wht lowering all ask it, and their
// messages name it as UQ_HEAD_DIMS_TEXT.
UQ_API int uq_head_dim_supported(int64_t head_dim);
#define UQ_HEAD_DIMS_TEXT "32, 64, 128, 256 or 512"

// OK for a supported head dim (UQ_HEAD_DIMS_TEXT); INVALID_ARGUMENT for
// zero or a negative value (a field left unset); UNIMPLEMENTED for any
// other value, with a message naming the supported ones.
UQ_API uq_status_t uq_head_dim_check(int64_t head_dim);

// The encoder's scale constant, an fp32 constant as in vLLM's reference.
#define UQ_ENCODE_SCALE_C 0.156f
// Largest finite E4M3 (OCP e4m3fn) magnitude.
#define UQ_E4M3_MAX 448.0f

// ---- FP4 E2M1 ---------------------------------------------------------------

// The value of an FP4 E2M1 code (low 4 bits of `code`; higher bits ignored):
// 0..7 -> 0, 0.5, 1, 1.5, 2, 3, 4, 6; 8..15 -> the negatives (8 is -0.0).
UQ_API float uq_fp4_to_float(uint8_t code);

// The encoder's snap of an already-scaled value to an FP4 code, with
// torch.bucketize semantics over the 14 midpoints between the 15 distinct
// levels: a value equal to a midpoint takes the level below it (toward -inf),
// so 0.75 -> 0.5 but -0.75 -> -1, and 5 -> 4 but -5 -> -6. Values past +-6
// take +-6. Zero, -0.0 and anything that snaps to zero give code 0 (+0): this
// function never returns 8. NaN gives code 0 (the group encoder never passes
// NaN here; see uq_group_encode).
UQ_API uint8_t uq_fp4_snap(float x);

// ---- FP8 E4M3 (OCP e4m3fn: bias 7, no infinities, 0x7F/0xFF = NaN) -------

// What a float -> E4M3 conversion does with a value whose rounded magnitude
// would exceed 448 (|x| > 464; 464 itself rounds to 448 by ties-to-even) and
// with +-inf. gfx950's v_cvt_pk_fp8_f32 saturates when the wave's
// MODE.FP16_OVFL bit is set and produces NaN when it is clear; the initial
// bit comes from COMPUTE_PGM_RSRC1 bit 26 of the code object, so the host
// reference takes the rule as a parameter. PyTorch's cast behaves as NAN.
// SATURATE is the project's rule (the zero value, so a zero-initialized
// problem gets it): a query element past +-464 after the rotation counts as
// +-448 instead of turning its head's output into NaN. NAN models a code
// object that leaves FP16_OVFL clear (and vLLM's PyTorch reference).
typedef enum uq_fp8_overflow_e {
  UQ_FP8_OVERFLOW_SATURATE = 0, // +-448 (0x7E / 0xFE), also for +-inf
  UQ_FP8_OVERFLOW_NAN = 1,      // NaN (0x7F / 0xFF, sign kept), also for +-inf
} uq_fp8_overflow_t;

// The value of an E4M3 byte: exact (every E4M3 value is a float); 0x7F and
// 0xFF are NaN; 0x80 is -0.0; subnormals are k * 2^-9.
UQ_API float uq_e4m3_to_float(uint8_t byte);

// Rounds a float to E4M3 with round-to-nearest-even (subnormals included);
// overflow and infinities follow `rule`. NaN gives 0x7F with the input's sign
// bit (0xFF for a negative NaN). An out-of-range `rule` is treated as NAN.
UQ_API uint8_t uq_float_to_e4m3(float x, uq_fp8_overflow_t rule);

// ---- bfloat16
// ----------------------------------------------------------------

// The value of a bf16 bit pattern (exact).
UQ_API float uq_bf16_to_float(uint16_t bits);
// Rounds a float to bf16, round-to-nearest-even; overflow gives +-inf; a NaN
// stays NaN (sign kept, quiet bit set, payload truncated).
UQ_API uint16_t uq_float_to_bf16(float x);

// ---- fp16 (IEEE binary16) ---------------------------------------------------

// Since 0.9. The value of an fp16 bit pattern (exact, subnormals included;
// infinities and NaN kept, a NaN's payload in the float's top bits).
UQ_API float uq_f16_to_float(uint16_t bits);
// Since 0.9. Rounds a float to fp16, round-to-nearest-even, subnormals
// (k * 2^-24) rounded exactly; a magnitude that rounds past 65504 gives
// +-inf; a NaN stays NaN (sign kept, quiet bit set, payload truncated).
UQ_API uint16_t uq_float_to_f16(float x);

// ---- Group scales -----------------------------------------------------------

// UE8M0 as the host dequantizes it: byte 0 marks a zero group and gives 0.0;
// byte e in 1..254 gives 2^(e-127); byte 255 gives 2^128 = +inf (the encoder
// never writes 255).
UQ_API float uq_ue8m0_to_float(uint8_t byte);
// E8M0 as the scaled MFMA and v_cvt_scalef32_pk_bf16_fp4 read it: byte e gives
// 2^(e-127) for e in 0..254 (so 0x00 is 2^-127, not zero), 0xFF is NaN.
UQ_API float uq_e8m0_to_float(uint8_t byte);

// ---- Rotation
// ----------------------------------------------------------------

// The fp32 normalization factor of the rotation of size D: 1/sqrt(D)
// rounded to fp32 (correctly rounded): 0x1.6a09e6p-3 (D = 32), 0.125
// (D = 64), 0x1.6a09e6p-4 = 0.0883883461 (bits 0x3DB504F3, D = 128), 0.0625
// (D = 256), 0x1.6a09e6p-5 (D = 512). 0 for an unsupported head dim.
UQ_API float uq_wht_scale(int64_t head_dim);

// In place: x[0..D) <- H x with H the normalized DxD Sylvester Hadamard
// (H[i][j] = (-1)^popcount(i & j) / sqrt(D); H = H^T, H H = I), computed as
// an fp32 butterfly in the decode kernel's order, so that results match it
// bit for bit: log2(D) stages with strides 1, 2, 4, ..., D/2 in that order
// (for D = 256 stages 0..4 are in-register in the kernel, 5..7 cross-lane;
// a smaller D keeps the ascending order and drops the last stages); at each
// stage, for every pair (i, i + stride) with bit `stride` of i clear,
// (a, b) <- (a + b, a - b) in fp32; then every element is multiplied by
// uq_wht_scale(D) once, in fp32 (exact for D = 64 and 256 unless it
// underflows; one rounding for D = 32, 128 and 512; D = 512 adds the stage
// of stride 256). Fails (x untouched) for an
// unsupported D.
UQ_API uq_status_t uq_wht(int32_t head_dim, float *x);

// The 16x16x128 scaled MFMA's K-order permutation within each 128-wide slice
// of the query's head dim: element d of the rotated query is stored at
// position uq_qperm_dest(d) (d in 0..255; bit 7, the slice, passes through;
// higher bits ignored; D = 128 uses the first slice). dest(d) = (d & 0x8F) |
// ((d >> 2) & 0x10) |
// ((d << 1) & 0x60). uq_qperm_src is its inverse: uq_qperm_src(dest(d)) == d.
UQ_API unsigned uq_qperm_dest(unsigned d);
UQ_API unsigned uq_qperm_src(unsigned position);

// The query as the kernel's QK operand sees it, in the rotated (unpermuted)
// basis: q (D bf16) -> float -> uq_wht -> E4M3 under `rule` -> float, except
// that an infinite rotated element becomes NaN (as the kernels make it before
// their conversion), so a non-finite query never yields a finite head.
UQ_API uq_status_t uq_query_rotate(int32_t head_dim, const uint16_t *q_bf16,
                                   uq_fp8_overflow_t rule, float *out_q_rot);
// Since 0.9: the same for a query of D elements in `dtype` (BF16 or F16;
// the elements are converted to float exactly, the rest is the same).
// uq_query_rotate is this with UQ_DTYPE_BF16. INVALID_ARGUMENT for another
// dtype or a NULL pointer.
UQ_API uq_status_t uq_query_rotate_dtype(int32_t head_dim, uq_dtype_t dtype,
                                         const void *q, uq_fp8_overflow_t rule,
                                         float *out_q_rot);

// ---- Groups and slots
// ---------------------------------------------------------

// Encodes one group of 32 floats into 16 code bytes (element 2i in the low
// nibble of byte i, 2i+1 in the high nibble) and one UE8M0 scale byte, in
// fp32 as vLLM's tensor reference does:
//   absmax = max |x|; s = 0.156f * absmax;
//   exp = floor(log2(s) + 1/2) clamped to [-126, 127]; byte = exp + 127;
//   code = uq_fp4_snap(x / 2^exp) for each element.
// The exponent is exact (the k with 2^(k-1/2) <= s < 2^(k+1/2), from s's
// bits), not fp32 log2f(s) + 0.5f, which can round across the half-integer
// when s lies within a few ulps of 2^(k+1/2); there vLLM's bytes may
// differ by one exponent step, and the store kernel matches this rule.
// A group whose s is zero (all elements +-0) stores byte 0 and all codes +0.
// Defined behaviour for non-finite input (vLLM makes no promise here): a
// group holding any NaN or +-inf is stored as a zero group (byte 0, all codes
// +0), so it decodes to zeros and can never poison an MFMA with NaN.
UQ_API void uq_group_encode(const float x[UQ_GROUP_SIZE],
                            uint8_t out_codes[UQ_GROUP_CODE_BYTES],
                            uint8_t *out_scale);
// Decodes one group with the host's UE8M0 rule: code value * 2^(byte-127), or
// zeros when byte is 0. Computed in fp32 (exact: a power-of-two scaling of an
// FP4 value, unless it overflows to inf for byte 255).
UQ_API void uq_group_decode(const uint8_t codes[UQ_GROUP_CODE_BYTES],
                            uint8_t scale, float out_x[UQ_GROUP_SIZE]);

// Encodes one token's K and V (D bf16 each) for one kv head into the first
// UQ_SLOT_CONTENT_BYTES(D) bytes of `out_slot`: K is rotated (bf16 -> float
// -> uq_wht) before encoding, V is not. Bytes past the content are not
// touched.
UQ_API uq_status_t uq_slot_encode(int32_t head_dim, const uint16_t *k_bf16,
                                  const uint16_t *v_bf16, uint8_t *out_slot);
// Since 0.9: the same for K and V of D elements each in `dtype` (BF16 or
// F16). Each element is converted to float exactly and then encoded as
// above, so the bytes depend only on the values: an fp16 K/V gives the
// bytes of the same values given as bf16 wherever both hold them.
// uq_slot_encode is this with UQ_DTYPE_BF16. INVALID_ARGUMENT for another
// dtype or a NULL pointer.
UQ_API uq_status_t uq_slot_encode_dtype(int32_t head_dim, uq_dtype_t dtype,
                                        const void *k, const void *v,
                                        uint8_t *out_slot);
// Decodes a slot of head dim D with the host UE8M0 rule into D floats each:
// K in the rotated basis, V as is.
UQ_API uq_status_t uq_slot_decode(int32_t head_dim, const uint8_t *slot,
                                  float *out_k_rot, float *out_v);

// ---- The paged cache
// ------------------------------------------------------------

// The cache tensor [num_blocks, block_size, num_kv_heads, padded_slot] of
// uint8, contiguous. Slot (block b, offset o, head h) starts at byte
// ((b * block_size + o) * num_kv_heads + h) * padded_slot.
typedef struct uq_cache_layout_s {
  int64_t num_blocks;   // > 0
  int32_t block_size;   // > 0 tokens per block (the kernel needs 16..256)
  int32_t num_kv_heads; // > 0
  int32_t padded_slot;  // bytes per slot, >= D + D/16 and a multiple of 4
  int32_t head_dim;     // D: 32, 64, 128, 256 or 512 (required; 0: error)
} uq_cache_layout_t;

// Checks a layout. INVALID_ARGUMENT for a NULL layout, a non-positive field,
// or a bad padded_slot; UNIMPLEMENTED for a head dim other than 64, 128,
// 256; OUT_OF_RANGE when the total size does not fit in
// size_t or int64_t.
UQ_API uq_status_t uq_cache_layout_validate(const uq_cache_layout_t *layout);
// The cache size in bytes, after uq_cache_layout_validate's checks.
UQ_API uq_status_t uq_cache_layout_size(const uq_cache_layout_t *layout,
                                        size_t *out_bytes);

// New tokens to store, as a server writes them: key and value are
// [num_tokens, num_kv_heads, D] (D = the layout's head_dim) of 16-bit
// elements in `dtype` (bf16 unless set) with the given strides in elements
// (the head dim is contiguous); slot_mapping[t] = block * block_size +
// offset, or negative to skip the token (vLLM's padding convention).
typedef struct uq_kv_tokens_s {
  const uint16_t *key;
  int64_t key_stride_token; // elements between tokens
  int64_t key_stride_head;  // elements between kv heads
  const uint16_t *value;
  int64_t value_stride_token;
  int64_t value_stride_head;
  const int64_t *slot_mapping; // [num_tokens]
  int64_t num_tokens;          // >= 0; 0 writes nothing
  // Since 0.9: the dtype of key and value, BF16 (0) or F16 (the pointers
  // above then hold fp16 bit patterns).
  uq_dtype_t dtype;
} uq_kv_tokens_t;

// Encodes every non-skipped token's K and V for every kv head into its slot.
// All inputs are checked before any byte is written, so on failure the cache
// is unchanged. Codes: INVALID_ARGUMENT (NULL pointers where num_tokens > 0,
// a dtype other than BF16 or F16, bad layout, cache_size smaller than the
// layout, negative num_tokens, negative strides or strides under which rows of
// D elements overlap); OUT_OF_RANGE (a slot at or past num_blocks * block_size,
// a layout too large for size_t, or key/value strides whose span overflows).
// Two tokens mapped to the same slot: the later one wins (as on a GPU store
// with one writer per slot this is the caller's mistake, not checked).
UQ_API uq_status_t uq_cache_write(const uq_cache_layout_t *layout,
                                  uint8_t *cache, size_t cache_size,
                                  const uq_kv_tokens_t *tokens);

// Decodes the slot of (block, offset, kv head) with the host UE8M0 rule into
// D floats each (D = the layout's head_dim). INVALID_ARGUMENT for NULL
// pointers, a bad layout or a short cache; OUT_OF_RANGE for an index outside
// the layout.
UQ_API uq_status_t uq_cache_read_slot(const uq_cache_layout_t *layout,
                                      const uint8_t *cache, size_t cache_size,
                                      int64_t block, int32_t offset,
                                      int32_t kv_head, float *out_k_rot,
                                      float *out_v);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_RUNTIME_INCLUDE_UQ_FORMAT_H_
