// VOPC: per-lane compares into a lane mask (VCC or an SGPR pair), and the
// v_cmpx forms that also write EXEC. The row's type and width say what is
// compared, its sub column which condition (ops.def).
#include <math.h>
#include <string.h>

#include "sim/exec_internal.h"

static int fclass(float f, uint32_t mask) {
  uint32_t b = f2u(f);
  int neg = b >> 31, bit;
  if (isnan(f))
    bit = (b & 0x400000) ? 1 : 0;
  else if (isinf(f))
    bit = neg ? 2 : 9;
  else if (f == 0)
    bit = neg ? 5 : 6;
  else if (fpclassify(f) == FP_SUBNORMAL)
    bit = neg ? 4 : 7;
  else
    bit = neg ? 3 : 8;
  return (mask >> bit) & 1;
}

// Float conditions, in the order of ops.def's sub column: f lt eq le gt lg
// ge o u nge nlg ngt nle neq nlt tru (the n* forms are true on NaN).
static int fcmp(int cond, float x, float y) {
  int un = isnan(x) || isnan(y);
  switch (cond) {
  case 0:
    return 0;
  case 1:
    return x < y;
  case 2:
    return x == y;
  case 3:
    return x <= y;
  case 4:
    return x > y;
  case 5:
    return x < y || x > y;
  case 6:
    return x >= y;
  case 7:
    return !un;
  case 8:
    return un;
  case 9:
    return !(x >= y);
  case 10:
    return !(x < y || x > y);
  case 11:
    return !(x > y);
  case 12:
    return !(x <= y);
  case 13:
    return !(x == y);
  case 14:
    return !(x < y);
  default:
    return 1;
  }
}

// Integer conditions: f lt eq le gt ne ge t.
static int icmp(int cond, int lt, int eq) {
  switch (cond) {
  case 0:
    return 0;
  case 1:
    return lt;
  case 2:
    return eq;
  case 3:
    return lt || eq;
  case 4:
    return !lt && !eq;
  case 5:
    return !eq;
  case 6:
    return !lt;
  default:
    return 1;
  }
}

uq_status_t uq_sim_exec_vcmp(uq_sim_wave_t *w, const uq_sim_inst_t *in) {
  const uq_sim_opnd_t *o = in->o;
  uint64_t exec = exec_of(w);
  if (in->enc == UQ_ENC_DPP)
    UNIMPL(in);
  uint32_t t[6][64];
  const uint32_t *src[2], *srch[2] = {NULL, NULL};
  int is64 = in->width == 64;
  for (int i = 0; i < 2; ++i) {
    src[i] = vsrc(w, &o[1 + i], 0, t[i]);
    if (is64)
      srch[i] = vsrc(w, &o[1 + i], 1, t[2 + i]);
    // SDWA (VCC or an SGPR pair as the destination): the selected byte or
    // word, extended, is what is compared; abs and neg then act on it.
    if (in->enc == UQ_ENC_SDWA &&
        !(in->sdwa_src_sel[i] == 6 && !in->sdwa_sext[i])) {
      uint32_t *tt = t[2 + i];
      for (int l = 0; l < 64; ++l)
        tt[l] = sdwa_sel(src[i][l], in->sdwa_src_sel[i], in->sdwa_sext[i]);
      src[i] = tt;
    }
    if (o[1 + i].mods && !is64) {
      uint32_t *tt = t[4 + i];
      for (int l = 0; l < 64; ++l) {
        uint32_t v = src[i][l];
        if (o[1 + i].mods & UQ_MOD_ABS)
          v &= 0x7FFFFFFFu;
        if (o[1 + i].mods & UQ_MOD_NEG)
          v ^= 0x80000000u;
        tt[l] = v;
      }
      src[i] = tt;
    }
  }
  const uint32_t *a = src[0], *b = src[1], *ah = srch[0], *bh = srch[1];
  int cond = in->sub, is_class = in->op == UQ_OP_V_CMP_CLASS_F32 ||
                                 in->op == UQ_OP_V_CMPX_CLASS_F32;
  int sgn = in->type == UQ_OPT_I;
  uint64_t res = 0;
  for (int l = 0; l < 64; ++l) {
    if (!((exec >> l) & 1))
      continue;
    int r;
    if (is_class) {
      r = fclass(u2f(a[l]), b[l]);
    } else if (in->type == UQ_OPT_F) {
      r = fcmp(cond, u2f(a[l]), u2f(b[l]));
    } else {
      int lt, eq;
      if (in->width == 64) {
        uint64_t x = (uint64_t)ah[l] << 32 | a[l],
                 y = (uint64_t)bh[l] << 32 | b[l];
        lt = sgn ? (int64_t)x < (int64_t)y : x < y;
        eq = x == y;
      } else if (in->width == 16) {
        lt = sgn ? (int16_t)a[l] < (int16_t)b[l]
                 : (uint16_t)a[l] < (uint16_t)b[l];
        eq = (uint16_t)a[l] == (uint16_t)b[l];
      } else {
        lt = sgn ? (int32_t)a[l] < (int32_t)b[l] : a[l] < b[l];
        eq = a[l] == b[l];
      }
      r = icmp(cond, lt, eq);
    }
    res |= (uint64_t)r << l;
  }
  swrite64(w, &o[0], res);
  if (in->flags & UQ_OPF_EXEC)
    set_exec(w, res);
  return UQ_OK;
}
