// Matrix ops (VOP3P-MAI): the MFMAs the kernels use, computed by
// sim/math_mfma.c straight from the register file.
#include <math.h>
#include <string.h>

#include "sim/exec_internal.h"
#include "sim/math.h"

// ---------------------------------------------------------------------------
// MFMA.

// v_mfma[_scale]_f32_32x32x64_f8f6f4 as four 16x16x128 products, one per
// 16x16 quadrant of D, each with K 0..63 real and K 64..127 zero (code 0 is
// +0 in every format; their scale is 1.0), so the rounding model is the
// 16x16 one's (sim/math_mfma.c). Operand layout (CDNA4 ISA, dense layouts
// of 8-bit and smaller types; two lane groups g = l / 32, row l % 32): an
// FP8 operand holds K [16g, 16g + 16) in registers 0-3 and [32 + 16g, 48 +
// 16g) in registers 4-7, FP6/FP4 hold K [32g, 32g + 32) packed from
// register 0; lane l's scale is that of its row (column) and K block g. D:
// lane l register r is row 8 * (r / 4) + 4 * (l / 32) + r % 4, column l % 32.
static void mfma_32x32x64(int fa, int fb, const uint32_t a[64][8],
                          const uint32_t b[64][8], const float c[64][16],
                          const uint32_t sa[64], int opsel_a,
                          const uint32_t sb[64], int opsel_b, float d[64][16]) {
  static __thread uint32_t A[64][8], B[64][8], SA[64], SB[64];
  static __thread float C[64][4], D[64][4];
  for (int qi = 0; qi < 2; ++qi) {   // D rows 16 qi ..
    for (int qj = 0; qj < 2; ++qj) { // D columns 16 qj ..
      for (int pass = 0; pass < 2; ++pass) {
        int fmt = pass ? fb : fa, half = pass ? qj : qi;
        const uint32_t(*src)[8] = pass ? b : a;
        const uint32_t *ssrc = pass ? sb : sa;
        int opsel = pass ? opsel_b : opsel_a;
        uint32_t(*dst)[8] = pass ? B : A;
        uint32_t *sdst = pass ? SB : SA;
        for (int l = 0; l < 64; ++l) {
          int g = l >> 4, r = l & 15, row = 16 * half + r;
          memset(dst[l], 0, sizeof dst[l]);
          if (fmt <= UQ_SIM_F8F6F4_E5M2) {
            // Virtual group g holds K [16g, 16g + 16) in registers 0-3 (and
            // K >= 64, zero, in 4-7): groups 0/1 from the real groups' low
            // registers, 2/3 from their high ones.
            const uint32_t *s = src[32 * (g & 1) + row];
            memcpy(dst[l], s + (g < 2 ? 0 : 4), 16);
          } else if (g < 2) {
            memcpy(dst[l], src[32 * g + row], sizeof dst[l]);
          }
          // Scale of virtual block g: the real block g for g < 2, else 1.0.
          sdst[l] = g < 2 ? (ssrc[32 * g + row] >> (8 * opsel)) & 0xFF : 127;
        }
      }
      for (int l = 0; l < 64; ++l)
        for (int r = 0; r < 4; ++r) {
          int i = 16 * qi + 4 * (l >> 4) + r, j = 16 * qj + (l & 15);
          int rl = 32 * ((i >> 2) & 1) + j, rr = 4 * (i >> 3) + (i & 3);
          C[l][r] = c[rl][rr];
        }
      uq_sim_mfma_scale_f32_16x16x128_f8f6f4(
          fa, fb, (const uint32_t(*)[8])A, (const uint32_t(*)[8])B,
          (const float(*)[4])C, SA, 0, SB, 0, D);
      for (int l = 0; l < 64; ++l)
        for (int r = 0; r < 4; ++r) {
          int i = 16 * qi + 4 * (l >> 4) + r, j = 16 * qj + (l & 15);
          d[32 * ((i >> 2) & 1) + j][4 * (i >> 3) + (i & 3)] = D[l][r];
        }
    }
  }
}

// The operands of a v_mfma[_scale]_f32_*_f8f6f4: A and B (8 registers,
// zero past the operand's count), C as `c_regs` f32 registers per lane
// (row-major [64][c_regs]; a constant C is the same in every register), and
// the E8M0 scales with their op_sel bytes when the scaled form passes them
// (else 1.0).
static void gather_f8f6f4(uq_sim_wave_t *w, const uq_sim_inst_t *in, int scaled,
                          uint32_t a[64][8], uint32_t b[64][8], float *c,
                          int c_regs, uint32_t sa[64], uint32_t sb[64],
                          int *opsel_a, int *opsel_b) {
  const uq_sim_opnd_t *o = in->o;
  uint32_t tmp[64];
  memset(a, 0, 64 * sizeof a[0]);
  memset(b, 0, 64 * sizeof b[0]);
  for (int i = 0; i < o[1].count && i < 8; ++i) {
    const uint32_t *s = vsrc(w, &o[1], i, tmp);
    for (int l = 0; l < 64; ++l)
      a[l][i] = s[l];
  }
  for (int i = 0; i < o[2].count && i < 8; ++i) {
    const uint32_t *s = vsrc(w, &o[2], i, tmp);
    for (int l = 0; l < 64; ++l)
      b[l][i] = s[l];
  }
  for (int i = 0; i < c_regs; ++i) {
    const uint32_t *s = vsrc(w, &o[3], o[3].kind == UQ_OPND_VGPR ? i : 0, tmp);
    for (int l = 0; l < 64; ++l)
      c[l * c_regs + i] = u2f(s[l]);
  }
  *opsel_a = *opsel_b = 0;
  if (scaled && in->nopnd >= 6 && (in->abid & 1)) {
    memcpy(sa, vsrc(w, &o[4], 0, tmp), 64 * sizeof sa[0]);
    memcpy(sb, vsrc(w, &o[5], 0, tmp), 64 * sizeof sb[0]);
    *opsel_a = (in->op_sel & 1) | ((in->op_sel_hi & 1) << 1);
    *opsel_b = ((in->op_sel >> 1) & 1) | (((in->op_sel_hi >> 1) & 1) << 1);
  } else {
    for (int l = 0; l < 64; ++l)
      sa[l] = sb[l] = 0x7F7F7F7Fu; // E8M0 1.0
  }
}

uq_status_t uq_sim_exec_mfma(uq_sim_wave_t *w, const uq_sim_inst_t *in) {
  const uq_sim_opnd_t *o = in->o;
  static __thread uint32_t A[64][8], B[64][8], SA[64], SB[64];
  static __thread float C[64][4], D[64][4];
  if (in->nopnd < 4)
    UNIMPL(in);
  if (in->op == UQ_OP_V_MFMA_F32_16X16X16_BF16) {
    // Straight from and to the register file (D may alias C).
    if (in->cbsz || in->abid || in->blgp || o[0].kind != UQ_OPND_VGPR)
      UNIMPL(in);
    uint32_t ta[2][64], tb[2][64], tc[64];
    const uint32_t *a[2], *b[2], *cr[4];
    uint32_t *d[4];
    for (int i = 0; i < 2; ++i) {
      a[i] = vsrc(w, &o[1], i, ta[i]);
      b[i] = vsrc(w, &o[2], i, tb[i]);
    }
    for (int i = 0; i < 4; ++i) {
      // A constant C (0) is the same in every register.
      cr[i] = o[3].kind == UQ_OPND_VGPR ? w->v[(o[3].reg + i) & 511]
                                        : vsrc(w, &o[3], 0, tc);
      d[i] = w->v[(o[0].reg + i) & 511];
    }
    uq_sim_mfma_f32_16x16x16_bf16_rows(a, b, cr, d);
    return UQ_OK;
  }
  if (in->op == UQ_OP_V_MFMA_F32_32X32X16_BF16) {
    // Likewise (four 16x16x16 products in sim/math_mfma.c). A and B are
    // VGPRs or AGPRs only (the encoding has no constant there; a constant's
    // registers 2 and 3 would not exist).
    if (in->cbsz || in->abid || in->blgp || o[0].kind != UQ_OPND_VGPR ||
        o[1].kind != UQ_OPND_VGPR || o[2].kind != UQ_OPND_VGPR)
      UNIMPL(in);
    uint32_t tc[64];
    const uint32_t *a[4], *b[4], *cr[16];
    uint32_t *d[16];
    for (int i = 0; i < 4; ++i) {
      a[i] = w->v[(o[1].reg + i) & 511];
      b[i] = w->v[(o[2].reg + i) & 511];
    }
    for (int i = 0; i < 16; ++i) {
      // A constant C (0) is the same in every register.
      cr[i] = o[3].kind == UQ_OPND_VGPR ? w->v[(o[3].reg + i) & 511]
                                        : vsrc(w, &o[3], 0, tc);
      d[i] = w->v[(o[0].reg + i) & 511];
    }
    uq_sim_mfma_f32_32x32x16_bf16_rows(a, b, cr, d);
    return UQ_OK;
  }
  if (in->op == UQ_OP_V_MFMA_SCALE_F32_32X32X64_F8F6F4 ||
      in->op == UQ_OP_V_MFMA_F32_32X32X64_F8F6F4) {
    static __thread float C16[64][16], D16[64][16];
    int fa = in->cbsz, fb = in->blgp;
    if (fa > 4 || fb > 4 || o[0].kind != UQ_OPND_VGPR)
      UNIMPL(in);
    int opsel_a, opsel_b;
    gather_f8f6f4(w, in, in->op == UQ_OP_V_MFMA_SCALE_F32_32X32X64_F8F6F4, A, B,
                  &C16[0][0], 16, SA, SB, &opsel_a, &opsel_b);
    mfma_32x32x64(fa, fb, (const uint32_t(*)[8])A, (const uint32_t(*)[8])B,
                  (const float(*)[16])C16, SA, opsel_a, SB, opsel_b, D16);
    for (int i = 0; i < 16; ++i) {
      uint32_t *dst = w->v[(o[0].reg + i) & 511];
      for (int l = 0; l < 64; ++l)
        dst[l] = f2u(D16[l][i]);
    }
    return UQ_OK;
  }
  {
    // The scaled MFMA (the bf16 ones returned above).
    int fa = in->cbsz, fb = in->blgp;
    if (fa > 4 || fb > 4)
      UNIMPL(in);
    int opsel_a, opsel_b;
    gather_f8f6f4(w, in, in->op == UQ_OP_V_MFMA_SCALE_F32_16X16X128_F8F6F4, A,
                  B, &C[0][0], 4, SA, SB, &opsel_a, &opsel_b);
    uq_sim_mfma_scale_f32_16x16x128_f8f6f4(
        fa, fb, (const uint32_t(*)[8])A, (const uint32_t(*)[8])B,
        (const float(*)[4])C, SA, opsel_a, SB, opsel_b, D);
  }
  // MFMAs ignore EXEC.
  if (o[0].kind != UQ_OPND_VGPR)
    UNIMPL(in);
  for (int i = 0; i < 4; ++i) {
    uint32_t *dst = w->v[(o[0].reg + i) & 511];
    for (int l = 0; l < 64; ++l)
      dst[l] = f2u(D[l][i]);
  }
  return UQ_OK;
}
