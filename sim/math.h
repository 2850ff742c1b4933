// gfx950 simulator math: MFMA, conversion and LDS lane-map semantics.
//
// Pure functions over whole-wave operands, with no simulator state. The
// executor (sim core) gathers the operands of one instruction, calls one of
// these and merges the results under EXEC itself: every function here
// computes all 64 lanes. `uint32_t x[64][N]` is lane-major: lane l's
// register r is x[l][r]. Ground truth is AMD's CDNA4 ISA guide; where it is
// silent, each definition says which model it follows.
#ifndef UQ_SIM_MATH_H_
#define UQ_SIM_MATH_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Operand formats of the scaled MFMA (CBSZ for A, BLGP for B).
enum {
  UQ_SIM_F8F6F4_E4M3 = 0,
  UQ_SIM_F8F6F4_E5M2 = 1,
  UQ_SIM_F8F6F4_E2M3 = 2,
  UQ_SIM_F8F6F4_E3M2 = 3,
  UQ_SIM_F8F6F4_E2M1 = 4,
};

// v_mfma_f32_16x16x16_bf16 (a, b: 2 VGPRs = 4 bf16 per lane; c, d: 4 f32).
// A[i][k]: i = lane & 15, k = 4 * (lane >> 4) + e for the lane's bf16 e
// (low half of register 0 first). B[k][j]: j = lane & 15, same k. Output
// lane l holds D[4 * (l >> 4) + r][l & 15] in d[l][r]. d may alias c.
void uq_sim_mfma_f32_16x16x16_bf16(const uint32_t a[64][2],
                                   const uint32_t b[64][2],
                                   const float c[64][4], float d[64][4]);
// The same on VGPR rows as the executor stores them: a[r][lane] is
// register r of the operand (likewise b, c and d, c and d as f32 bits);
// no copies in or out. d may alias c.
void uq_sim_mfma_f32_16x16x16_bf16_rows(const uint32_t *const a[2],
                                        const uint32_t *const b[2],
                                        const uint32_t *const c[4],
                                        uint32_t *const d[4]);
// v_mfma_f32_32x32x16_bf16 on VGPR rows like the above (a, b: 4 registers =
// 8 bf16 per lane; c, d: 16 f32). Two lane groups g = lane >> 5: A[i][k]:
// i = lane & 31, k = 8 * g + e for the lane's bf16 e (low half of register
// 0 first); B[k][j]: j = lane & 31, same k. Register r of lane l in c and
// d is element [8 * (r >> 2) + 4 * g + (r & 3)][l & 31]. Each element
// rounds as the 16x16x16 form's would. d may alias c.
void uq_sim_mfma_f32_32x32x16_bf16_rows(const uint32_t *const a[4],
                                        const uint32_t *const b[4],
                                        const uint32_t *const c[16],
                                        uint32_t *const d[16]);

// v_mfma_scale_f32_16x16x128_f8f6f4: fmt_a = CBSZ, fmt_b = BLGP (0 E4M3,
// 1 E5M2, 2 E2M3, 3 E3M2, 4 E2M1); a/b: 8 VGPRs per lane (only the first
// 4 are read for FP4, 6 for FP6); scale_a/scale_b: the scale VGPR of every
// lane; opsel_a/opsel_b: the 2-bit byte selector {op_sel_hi, op_sel}.
// Formats outside 0..4 read as zero operands (the executor rejects them
// before calling). d may alias c.
void uq_sim_mfma_scale_f32_16x16x128_f8f6f4(
    int fmt_a, int fmt_b, const uint32_t a[64][8], const uint32_t b[64][8],
    const float c[64][4], const uint32_t scale_a[64], int opsel_a,
    const uint32_t scale_b[64], int opsel_b, float d[64][4]);

// Per-lane conversions (one lane's operands).

// v_cvt_pk_fp8_f32: lo, hi -> two E4M3 bytes (lo in the low byte) written
// into the 16-bit half `word_sel` (op_sel bit 3) of `old`; the other half of
// `old` is kept. fp16_ovfl is MODE.FP16_OVFL.
uint32_t uq_sim_cvt_pk_fp8_f32(float lo, float hi, uint32_t old, int word_sel,
                               int fp16_ovfl);
// v_cvt_pk_f32_fp8: the two E4M3 bytes of 16-bit half `word_sel` of src.
void uq_sim_cvt_pk_f32_fp8(uint32_t src, int word_sel, float out[2]);
// v_cvt_scalef32_pk_bf16_fp4: byte `byte_sel` of src (low nibble -> low
// bf16) times the E8M0 scale in bits 30:23 of `scale`; 2 bf16 packed.
uint32_t uq_sim_cvt_scalef32_pk_bf16_fp4(uint32_t src, float scale,
                                         int byte_sel);
// The same for a whole wave (all 64 lanes; the caller merges under EXEC):
// scale_bits[l] is lane l's scale register as raw f32 bits. out may alias
// src.
void uq_sim_cvt_scalef32_pk_bf16_fp4_wave(const uint32_t src[64],
                                          const uint32_t scale_bits[64],
                                          int byte_sel, uint32_t out[64]);
// v_cvt_pk_bf16_f32: RNE, lo in bits 15:0.
uint32_t uq_sim_cvt_pk_bf16_f32(float lo, float hi);
// The same for all 64 lanes: lo/hi as f32 bits, one loop in this file so
// that the rounding inlines and vectorizes.
void uq_sim_cvt_pk_bf16_f32_wave(const uint32_t lo[64], const uint32_t hi[64],
                                 uint32_t out[64]);
float uq_sim_exp_f32(float x); // v_exp_f32 = 2^x, within the ISA's stated ulp
float uq_sim_rcp_f32(float x); // v_rcp_f32
float uq_sim_log_f32(float x); // v_log_f32 = log2(x)

// Testing hook: nonzero forces the portable code paths even where a faster
// CPU-specific one exists (x86-64 AVX2), so tests can cover both. Results
// are identical either way. Not thread-safe: set it before running waves.
void uq_sim_math_force_generic(int generic);

// Scalar format helpers the other conversions are built from (also useful
// to the executor for other v_cvt forms).
float uq_sim_fp8_e4m3_to_f32(uint8_t code);
float uq_sim_fp8_e5m2_to_f32(uint8_t code);
float uq_sim_fp4_e2m1_to_f32(uint8_t code); // low nibble
float uq_sim_bf16_to_f32(uint16_t bits);
uint16_t uq_sim_f32_to_bf16_rne(float x);

// LDS cross-lane helpers on whole waves.

// ds_swizzle_b32: returns the source lane for `lane` given the 16-bit offset
// (all four modes of the ISA guide: FFT for offset >= 0xE000, rotate for
// >= 0xC000, quad permute when bit 15 is set, bitmask otherwise), or -1 when
// `lane` is outside 0..63. A source lane whose EXEC bit is clear yields 0:
// that test is the caller's.
int uq_sim_ds_swizzle_src_lane(uint32_t offset16, int lane);
// ds_read_b64_tr_b16: `raw[l]` is the 8 bytes lane l read from its address;
// writes what lane l ends up holding (docs/design.md, "ds_read_b64_tr_b16").
// out must not alias raw.
void uq_sim_ds_read_b64_tr_b16(const uint64_t raw[64], uint64_t out[64]);

#ifdef __cplusplus
}
#endif

#endif // UQ_SIM_MATH_H_
