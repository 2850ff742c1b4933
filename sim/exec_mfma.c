// Matrix ops (VOP3P-MAI): the MFMAs the kernels use, computed by
// sim/math_mfma.c straight from the register file.
#include <math.h>
#include <string.h>

#include "sim/exec_internal.h"
#include "sim/math.h"

// ---------------------------------------------------------------------------
// MFMA.

uq_status_t uq_sim_exec_mfma(uq_sim_wave_t *w, const uq_sim_inst_t *in) {
  const uq_sim_opnd_t *o = in->o;
  static __thread uint32_t A[64][8], B[64][8], SA[64], SB[64];
  static __thread float C[64][4], D[64][4];
  uint32_t tmp[64];
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
  for (int i = 0; i < 4; ++i) {
    const uint32_t *s = vsrc(w, &o[3], o[3].kind == UQ_OPND_VGPR ? i : 0, tmp);
    for (int l = 0; l < 64; ++l)
      C[l][i] = u2f(s[l]); // a constant C (0) is the same in every register
  }
  {
    // The scaled MFMA (the bf16 one returned above).
    int fa = in->cbsz, fb = in->blgp;
    if (fa > 4 || fb > 4)
      UNIMPL(in);
    for (int i = 0; i < 8; ++i) {
      for (int l = 0; l < 64; ++l)
        A[l][i] = B[l][i] = 0;
    }
    for (int i = 0; i < o[1].count && i < 8; ++i) {
      const uint32_t *s = vsrc(w, &o[1], i, tmp);
      for (int l = 0; l < 64; ++l)
        A[l][i] = s[l];
    }
    for (int i = 0; i < o[2].count && i < 8; ++i) {
      const uint32_t *s = vsrc(w, &o[2], i, tmp);
      for (int l = 0; l < 64; ++l)
        B[l][i] = s[l];
    }
    int opsel_a = 0, opsel_b = 0;
    int scaled = in->op == UQ_OP_V_MFMA_SCALE_F32_16X16X128_F8F6F4;
    if (scaled && in->nopnd >= 6 && (in->abid & 1)) {
      const uint32_t *s = vsrc(w, &o[4], 0, tmp);
      memcpy(SA, s, sizeof(SA));
      s = vsrc(w, &o[5], 0, tmp);
      memcpy(SB, s, sizeof(SB));
      opsel_a = (in->op_sel & 1) | ((in->op_sel_hi & 1) << 1);
      opsel_b = ((in->op_sel >> 1) & 1) | (((in->op_sel_hi >> 1) & 1) << 1);
    } else {
      for (int l = 0; l < 64; ++l)
        SA[l] = SB[l] = 0x7F7F7F7Fu; // E8M0 1.0
    }
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
