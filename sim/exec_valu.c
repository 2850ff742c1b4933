// Vector ALU: VOP1/VOP2/VOP3/VOP3P per-lane ops with their DPP, SDWA,
// op_sel and output-modifier forms, and the cross-lane moves.
#include <math.h>
#include <string.h>

#include "sim/exec_internal.h"
#include "sim/math.h"

// ---------------------------------------------------------------------------
// Float helpers.

static inline uint16_t f32_to_f16(float f, int rtz) {
  uint32_t b = f2u(f);
  uint32_t sign = (b >> 16) & 0x8000;
  int32_t exp = (int32_t)((b >> 23) & 0xFF);
  uint32_t mant = b & 0x7FFFFF;
  if (exp == 0xFF)
    return (uint16_t)(sign | 0x7C00 | (mant ? 0x200 | (mant >> 13) : 0));
  int32_t e = exp - 127 + 15;
  if (e >= 31)
    return (uint16_t)(rtz ? sign | 0x7BFF : sign | 0x7C00);
  uint32_t m;
  int shift;
  if (e <= 0) {
    if (e < -10)
      return (uint16_t)sign;
    mant |= 0x800000;
    shift = 14 - e;
    e = 0;
  } else {
    shift = 13;
  }
  m = mant >> shift;
  uint32_t rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
  uint32_t r = ((uint32_t)e << 10) + m;
  if (!rtz && (rem > half || (rem == half && (m & 1))))
    ++r;
  return (uint16_t)(sign | r);
}
static inline float f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16;
  uint32_t e = (h >> 10) & 0x1F, m = h & 0x3FF;
  if (e == 0) {
    float v = ldexpf((float)m, -24);
    return sign ? -v : v;
  }
  if (e == 31)
    return u2f(sign | 0x7F800000 | (m << 13));
  return u2f(sign | ((e - 15 + 127) << 23) | (m << 13));
}

static inline float fmed3(float a, float b, float c) {
  return fmaxf(fminf(a, b), fminf(fmaxf(a, b), c));
}

static inline uint32_t cvt_u32(float f) {
  if (isnan(f) || f <= 0)
    return 0;
  if (f >= 4294967296.0f)
    return 0xFFFFFFFFu;
  return (uint32_t)f;
}
static inline int32_t cvt_i32(float f) {
  if (isnan(f))
    return 0;
  if (f >= 2147483648.0f)
    return INT32_MAX;
  if (f <= -2147483648.0f)
    return INT32_MIN;
  return (int32_t)f;
}

static float div_fixup(float q, float den, float num) {
  int sign = (f2u(den) ^ f2u(num)) >> 31;
  if (isnan(den))
    return den;
  if (isnan(num))
    return num;
  if ((den == 0 && num == 0) || (isinf(den) && isinf(num)))
    return NAN;
  if (den == 0 || isinf(num))
    return sign ? -INFINITY : INFINITY;
  if (isinf(den) || num == 0)
    return sign ? -0.0f : 0.0f;
  return q;
}

static inline uint32_t perm_byte(uint64_t x, uint32_t sel) {
  sel &= 0xFF;
  if (sel < 8)
    return (uint32_t)(x >> (8 * sel)) & 0xFF;
  if (sel < 12) {
    int bit = (int)(16 * (sel - 8) + 15);
    return (x >> bit) & 1 ? 0xFF : 0;
  }
  return sel == 12 ? 0 : 0xFF;
}

// DPP: the lane whose src0 lane `l` reads, or -1 when out of range.
// A 16-bit integer result: wrapped (the D16 writeback keeps 16 bits), or
// with the clamp bit saturated to the type's range.
static inline uint32_t sat_u16(int64_t v, int clamp) {
  if (clamp)
    v = v < 0 ? 0 : v > 0xFFFF ? 0xFFFF : v;
  return (uint32_t)v;
}
static inline uint32_t sat_i16(int64_t v, int clamp) {
  if (clamp)
    v = v < -32768 ? -32768 : v > 32767 ? 32767 : v;
  return (uint32_t)v;
}
// An f16 result clamped to [0, 1]: negative values (and -0) and NaN give +0
// (DX10 clamp), values above 1 (and +inf) give 1.
static inline uint16_t clamp01_f16(uint16_t h) {
  int nan = (h & 0x7C00) == 0x7C00 && (h & 0x3FF);
  if (nan || (h & 0x8000))
    return 0;
  return h > 0x3C00 ? 0x3C00 : h;
}

// One half of a packed 16-bit integer op (VOP3P) on sources x[0..2]: shifts
// take the low four bits of x[0] and shift x[1]; clamp saturates add, sub and
// mad to the type's range (min, max, mul_lo and shifts cannot overflow or
// ignore it).
static uint16_t pk_int16(uq_sim_op_t op, const uint16_t x[3], int clamp) {
  int32_t sa = (int16_t)x[0], sb = (int16_t)x[1], sc = (int16_t)x[2];
  switch (op) {
  case UQ_OP_V_PK_ADD_U16:
    return (uint16_t)sat_u16((int64_t)x[0] + x[1], clamp);
  case UQ_OP_V_PK_SUB_U16:
    return (uint16_t)sat_u16((int64_t)x[0] - x[1], clamp);
  case UQ_OP_V_PK_ADD_I16:
    return (uint16_t)sat_i16((int64_t)sa + sb, clamp);
  case UQ_OP_V_PK_SUB_I16:
    return (uint16_t)sat_i16((int64_t)sa - sb, clamp);
  case UQ_OP_V_PK_MUL_LO_U16:
    return (uint16_t)((uint32_t)x[0] * x[1]);
  case UQ_OP_V_PK_MAD_U16:
    return (uint16_t)sat_u16((int64_t)x[0] * x[1] + x[2], clamp);
  case UQ_OP_V_PK_MAD_I16:
    return (uint16_t)sat_i16((int64_t)sa * sb + sc, clamp);
  case UQ_OP_V_PK_LSHLREV_B16:
    return (uint16_t)(x[1] << (x[0] & 15));
  case UQ_OP_V_PK_LSHRREV_B16:
    return (uint16_t)(x[1] >> (x[0] & 15));
  case UQ_OP_V_PK_ASHRREV_I16:
    return (uint16_t)(sb >> (x[0] & 15));
  case UQ_OP_V_PK_MAX_U16:
    return x[0] > x[1] ? x[0] : x[1];
  case UQ_OP_V_PK_MIN_U16:
    return x[0] < x[1] ? x[0] : x[1];
  case UQ_OP_V_PK_MAX_I16:
    return (uint16_t)(sa > sb ? sa : sb);
  default: // UQ_OP_V_PK_MIN_I16
    return (uint16_t)(sa < sb ? sa : sb);
  }
}

// The 16-bit ops whose clamp bit is modelled: integer add/sub/mad saturate,
// float ops clamp to [0, 1].
static int clamp16_ok(uq_sim_op_t op) {
  switch (op) {
  case UQ_OP_V_ADD_U16:
  case UQ_OP_V_ADD_I16:
  case UQ_OP_V_SUB_U16:
  case UQ_OP_V_SUB_I16:
  case UQ_OP_V_SUBREV_U16:
  case UQ_OP_V_MAD_U16:
  case UQ_OP_V_MAD_I16:
    return 1;
  default:
    return uq_sim_op_info[op].type == UQ_OPT_F;
  }
}

static inline int dpp_lane(uint32_t ctrl, int l) {
  int row = l & ~15, r = l & 15;
  if (ctrl <= 0xFF)
    return (l & ~3) | (int)((ctrl >> (2 * (l & 3))) & 3);
  if (ctrl >= 0x101 && ctrl <= 0x10F) {
    int s = r + (int)(ctrl & 15);
    return s < 16 ? row + s : -1;
  }
  if (ctrl >= 0x111 && ctrl <= 0x11F) {
    int s = r - (int)(ctrl & 15);
    return s >= 0 ? row + s : -1;
  }
  if (ctrl >= 0x121 && ctrl <= 0x12F)
    return row + ((r - (int)(ctrl & 15)) & 15);
  switch (ctrl) {
  case 0x130: // wave_shl:1
    return l + 1 < 64 ? l + 1 : -1;
  case 0x134: // wave_rol:1
    return (l + 1) & 63;
  case 0x138: // wave_shr:1
    return l - 1;
  case 0x13C: // wave_ror:1
    return (l - 1) & 63;
  case 0x140:
    return row + 15 - r;
  case 0x141:
    return (l & ~7) + 7 - (l & 7);
  case 0x142: // row_bcast:15
    return row > 0 ? row - 1 : -1;
  case 0x143: // row_bcast:31
    return l >= 32 ? 31 : -1;
  default:
    break;
  }
  if (ctrl >= 0x150 && ctrl <= 0x15F) // row_newbcast: lane n of each row
    return row + (int)(ctrl & 15);
  return -2;
}

// ---------------------------------------------------------------------------
// VALU.

// Writes r[] (and rh[] for 64-bit results) into VGPR `d` for lanes in mask,
// applying SDWA dst_sel.
static void vwrite(uq_sim_wave_t *w, const uq_sim_inst_t *in,
                   const uq_sim_opnd_t *d, uint64_t mask, const uint32_t *r,
                   const uint32_t *rh) {
  if (d->kind == UQ_OPND_SGPR || d->kind != UQ_OPND_VGPR)
    return;
  uint32_t *dst = w->v[d->reg & 511];
  if (in->enc == UQ_ENC_SDWA && in->sdwa_dst_sel != 6) {
    int sel = in->sdwa_dst_sel, unused = in->sdwa_dst_unused;
    int lo = sel < 4 ? 8 * sel : 16 * (sel - 4), bits = sel < 4 ? 8 : 16;
    uint32_t fm = (uint32_t)(((1ull << bits) - 1) << lo);
    for (int l = 0; l < 64; ++l) {
      if (!((mask >> l) & 1))
        continue;
      uint32_t v = (r[l] << lo) & fm;
      uint32_t old = dst[l];
      if (unused == 2)
        v |= old & ~fm;
      else if (unused == 1 && ((v >> (lo + bits - 1)) & 1))
        v |= ~fm & ~(uint32_t)((1ull << lo) - 1);
      dst[l] = v;
    }
    return;
  }
  if (mask == ~0ull) {
    memcpy(dst, r, 256);
    if (rh)
      memcpy(w->v[(d->reg + 1) & 511], rh, 256);
    return;
  }
  for (int l = 0; l < 64; ++l)
    if ((mask >> l) & 1)
      dst[l] = r[l];
  if (rh) {
    uint32_t *dh = w->v[(d->reg + 1) & 511];
    for (int l = 0; l < 64; ++l)
      if ((mask >> l) & 1)
        dh[l] = rh[l];
  }
}

uq_status_t uq_sim_exec_valu(uq_sim_ctx_t *c, uq_sim_wave_t *w,
                             const uq_sim_inst_t *in) {
  (void)c;
  uint64_t exec = exec_of(w), mask = exec;
  const uq_sim_opnd_t *o = in->o;
  int nd = in->nd, ns = in->nopnd - nd;
  uint32_t t[6][64], r[64], rh[64];
  // Sources the text did not supply read as zero, never as NULL.
  static const uint32_t zero_row[64];
  const uint32_t *src[3] = {zero_row, zero_row, zero_row},
                 *srch[3] = {zero_row, zero_row, zero_row};
  int op = in->op;

  // Whole-register moves and cross-lane ops first: they do not fit the
  // per-lane mold below.
  switch (op) {
  case UQ_OP_V_NOP:
    return UQ_OK;
  case UQ_OP_V_READFIRSTLANE_B32: {
    int lane = exec ? __builtin_ctzll(exec) : 0;
    const uint32_t *s = vsrc(w, &o[1], 0, t[0]);
    swrite(w, &o[0], 0, s[lane]);
    return UQ_OK;
  }
  case UQ_OP_V_READLANE_B32: {
    const uint32_t *s = vsrc(w, &o[1], 0, t[0]);
    swrite(w, &o[0], 0, s[sread(w, &o[2], 0) & 63]);
    return UQ_OK;
  }
  case UQ_OP_V_WRITELANE_B32:
    if (o[0].kind == UQ_OPND_VGPR)
      w->v[o[0].reg & 511][sread(w, &o[2], 0) & 63] = sread(w, &o[1], 0);
    return UQ_OK;
  case UQ_OP_V_PERMLANE16_SWAP_B32:
  case UQ_OP_V_PERMLANE32_SWAP_B32: {
    if (o[0].kind != UQ_OPND_VGPR || o[1].kind != UQ_OPND_VGPR)
      UNIMPL(in);
    uint32_t *x = w->v[o[0].reg & 511], *y = w->v[o[1].reg & 511];
    for (int l = 0; l < 32; ++l) {
      int xi, yi;
      if (op == UQ_OP_V_PERMLANE32_SWAP_B32) {
        xi = 32 + l;
        yi = l;
      } else {
        xi = (l & 16 ? 32 : 0) + 16 + (l & 15);
        yi = (l & 16 ? 32 : 0) + (l & 15);
      }
      // The ISA's pseudocode swaps regardless of EXEC.
      uint32_t tmp = x[xi];
      x[xi] = y[yi];
      y[yi] = tmp;
    }
    return UQ_OK;
  }
  default:
    break;
  }

  // VOP3P packed math.
  if (in->flags & UQ_OPF_PACKED) {
    int is32 = in->width == 32;
    for (int i = 0; i < ns && i < 3; ++i) {
      src[i] = vsrc(w, &o[nd + i], 0, t[i]);
      if (is32) {
        srch[i] = vsrc(w, &o[nd + i], 1, t[3 + i]);
        if (o[nd + i].kind == UQ_OPND_CONST)
          srch[i] = src[i]; // a constant feeds both halves
      }
    }
    uint32_t *d0 = r, *d1 = rh;
    if (is32 && op != UQ_OP_V_PK_MOV_B32 && !in->clamp) {
      // The decode's hottest VALU ops: pick each operand's dword and sign
      // once, then run a plain loop over the lanes.
      const uint32_t *lo_p[3], *hi_p[3];
      uint32_t lo_x[3], hi_x[3];
      for (int i = 0; i < 3; ++i) {
        int k = i < ns ? i : 0;
        lo_p[i] = ((in->op_sel >> k) & 1) ? srch[k] : src[k];
        hi_p[i] = ((in->op_sel_hi >> k) & 1) ? srch[k] : src[k];
        lo_x[i] = ((in->neg_lo >> k) & 1) ? 0x80000000u : 0;
        hi_x[i] = ((in->neg_hi >> k) & 1) ? 0x80000000u : 0;
      }
      for (int l = 0; l < 64; ++l) {
        float a0 = u2f(lo_p[0][l] ^ lo_x[0]), a1 = u2f(lo_p[1][l] ^ lo_x[1]);
        float b0 = u2f(hi_p[0][l] ^ hi_x[0]), b1 = u2f(hi_p[1][l] ^ hi_x[1]);
        if (op == UQ_OP_V_PK_ADD_F32) {
          d0[l] = f2u(a0 + a1);
          d1[l] = f2u(b0 + b1);
        } else if (op == UQ_OP_V_PK_MUL_F32) {
          d0[l] = f2u(a0 * a1);
          d1[l] = f2u(b0 * b1);
        } else {
          d0[l] = f2u(fmaf(a0, a1, u2f(lo_p[2][l] ^ lo_x[2])));
          d1[l] = f2u(fmaf(b0, b1, u2f(hi_p[2][l] ^ hi_x[2])));
        }
      }
      vwrite(w, in, &o[0], mask, r, rh);
      return UQ_OK;
    }
    for (int l = 0; l < 64; ++l) {
      if (!((mask >> l) & 1))
        continue;
      if (is32) {
        float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        uint32_t lob[3] = {0, 0, 0}, hib[3] = {0, 0, 0};
        for (int i = 0; i < ns && i < 3; ++i) {
          lob[i] = ((in->op_sel >> i) & 1) ? srch[i][l] : src[i][l];
          hib[i] = ((in->op_sel_hi >> i) & 1) ? srch[i][l] : src[i][l];
          if ((in->neg_lo >> i) & 1)
            lob[i] ^= 0x80000000u;
          if ((in->neg_hi >> i) & 1)
            hib[i] ^= 0x80000000u;
          lo[i] = u2f(lob[i]);
          hi[i] = u2f(hib[i]);
        }
        switch (op) {
        case UQ_OP_V_PK_ADD_F32:
          d0[l] = f2u(lo[0] + lo[1]);
          d1[l] = f2u(hi[0] + hi[1]);
          break;
        case UQ_OP_V_PK_MUL_F32:
          d0[l] = f2u(lo[0] * lo[1]);
          d1[l] = f2u(hi[0] * hi[1]);
          break;
        case UQ_OP_V_PK_FMA_F32:
          d0[l] = f2u(fmaf(lo[0], lo[1], lo[2]));
          d1[l] = f2u(fmaf(hi[0], hi[1], hi[2]));
          break;
        default: { // v_pk_mov_b32: op_sel picks src0's and src1's dword
          d0[l] = (in->op_sel & 1) ? srch[0][l] : src[0][l];
          d1[l] = (in->op_sel & 2) ? srch[1][l] : src[1][l];
          break;
        }
        }
        if (in->clamp && op != UQ_OP_V_PK_MOV_B32) {
          d0[l] = f2u(fminf(fmaxf(u2f(d0[l]), 0.0f), 1.0f));
          d1[l] = f2u(fminf(fmaxf(u2f(d1[l]), 0.0f), 1.0f));
        }
      } else {
        uint16_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        for (int i = 0; i < ns && i < 3; ++i) {
          uint32_t v = src[i][l];
          lo[i] = (uint16_t)(((in->op_sel >> i) & 1) ? v >> 16 : v);
          hi[i] = (uint16_t)(((in->op_sel_hi >> i) & 1) ? v >> 16 : v);
          if (in->type == UQ_OPT_F) { // neg_lo/neg_hi: float ops only
            if ((in->neg_lo >> i) & 1)
              lo[i] ^= 0x8000;
            if ((in->neg_hi >> i) & 1)
              hi[i] ^= 0x8000;
          }
        }
        uint16_t rl, rhh;
        float a0 = f16_to_f32(lo[0]), a1 = f16_to_f32(lo[1]),
              a2 = f16_to_f32(lo[2]);
        float b0 = f16_to_f32(hi[0]), b1 = f16_to_f32(hi[1]),
              b2 = f16_to_f32(hi[2]);
        switch (op) {
        case UQ_OP_V_PK_ADD_F16:
          rl = f32_to_f16(a0 + a1, 0);
          rhh = f32_to_f16(b0 + b1, 0);
          break;
        case UQ_OP_V_PK_MUL_F16:
          rl = f32_to_f16(a0 * a1, 0);
          rhh = f32_to_f16(b0 * b1, 0);
          break;
        case UQ_OP_V_PK_FMA_F16:
          rl = f32_to_f16((float)fma((double)a0, a1, a2), 0);
          rhh = f32_to_f16((float)fma((double)b0, b1, b2), 0);
          break;
        case UQ_OP_V_PK_MAX_F16:
          rl = f32_to_f16(fmaxf(a0, a1), 0);
          rhh = f32_to_f16(fmaxf(b0, b1), 0);
          break;
        case UQ_OP_V_PK_MIN_F16:
          rl = f32_to_f16(fminf(a0, a1), 0);
          rhh = f32_to_f16(fminf(b0, b1), 0);
          break;
        default:
          rl = pk_int16(op, lo, in->clamp);
          rhh = pk_int16(op, hi, in->clamp);
          break;
        }
        if (in->clamp && in->type == UQ_OPT_F) {
          rl = clamp01_f16(rl);
          rhh = clamp01_f16(rhh);
        }
        d0[l] = (uint32_t)rl | (uint32_t)rhh << 16;
      }
    }
    vwrite(w, in, &o[0], mask, r, is32 ? rh : NULL);
    return UQ_OK;
  }

  // Generic per-lane ops: gather up to three sources.
  int s64[3] = {(in->flags & UQ_OPF_S0_64) != 0,
                (in->flags & UQ_OPF_S1_64) != 0,
                (in->flags & UQ_OPF_S2_64) != 0};
  int first = nd;
  for (int i = 0; i < ns && i < 3; ++i) {
    const uq_sim_opnd_t *so = &o[first + i];
    src[i] = vsrc(w, so, 0, t[i]);
    if (s64[i])
      srch[i] = vsrc(w, so, 1, t[3 + i]);
    // SDWA selects the byte or word first; abs and neg then act on it.
    if (in->enc == UQ_ENC_SDWA && i < 2 &&
        !(in->sdwa_src_sel[i] == 6 && !in->sdwa_sext[i])) {
      uint32_t *tt = t[3 + i];
      for (int l = 0; l < 64; ++l)
        tt[l] = sdwa_sel(src[i][l], in->sdwa_src_sel[i], in->sdwa_sext[i]);
      src[i] = tt;
    }
    // VOP3 op_sel on a 16-bit op: bit i picks source i's high half.
    if ((in->flags & UQ_OPF_D16) && ((in->op_sel >> i) & 1)) {
      uint32_t *tt = t[3 + i];
      for (int l = 0; l < 64; ++l)
        tt[l] = src[i][l] >> 16;
      src[i] = tt;
    }
    if (so->mods && !s64[i]) {
      uint32_t *tt = t[3 + i];
      // The sign bit of the source's width: bit 15 of a 16-bit source (of
      // the half op_sel picks, when the op selects it itself, as
      // v_cvt_f32_f16 does), bit 31 of a 32-bit one.
      int is16 = in->width == 16;
      uint32_t sb = !is16 ? 0x80000000u
                    : (!(in->flags & UQ_OPF_D16) && ((in->op_sel >> i) & 1))
                        ? 0x80000000u
                        : 0x8000u;
      for (int l = 0; l < 64; ++l) {
        uint32_t v = src[i][l];
        if (so->mods & UQ_MOD_ABS)
          v &= ~sb;
        if (so->mods & UQ_MOD_NEG)
          v ^= sb;
        tt[l] = v;
      }
      src[i] = tt;
    }
  }
  if (in->enc == UQ_ENC_DPP) {
    uint32_t ctrl = in->dpp_ctrl;
    if (dpp_lane(ctrl, 0) == -2 || o[first].kind != UQ_OPND_VGPR)
      UNIMPL(in);
    uint32_t *tt = t[5];
    uint64_t valid = 0;
    for (int l = 0; l < 64; ++l) {
      int sl = dpp_lane(ctrl, l);
      if (sl >= 0 && ((exec >> sl) & 1)) {
        tt[l] = src[0][sl];
        valid |= 1ull << l;
      } else {
        tt[l] = 0;
      }
    }
    src[0] = tt;
    uint64_t rb = 0;
    for (int l = 0; l < 64; ++l)
      if (((in->row_mask >> (l >> 4)) & 1) &&
          ((in->bank_mask >> ((l >> 2) & 3)) & 1))
        rb |= 1ull << l;
    mask &= rb;
    if (!in->bound_ctrl)
      mask &= valid;
  }
  const uint32_t *a = src[0], *b = src[1], *cc = src[2];
  uint32_t *dh = NULL;
  uint64_t sdst_bits = 0;
  int write_sdst = 0;
  // Every lane is computed (into r, rh and sdst_bits) and vwrite and the
  // carry-out write below keep only the lanes in `mask`: the loops have no
  // per-lane test, so the compiler vectorizes them.
  // Clamp on a 16-bit op: integer add/sub/mad saturate to the type's range,
  // float results clamp to [0, 1] (below); other ops with clamp stop.
  if ((in->flags & UQ_OPF_D16) && in->clamp && !clamp16_ok(op))
    UNIMPL(in);
#define LANES for (int l = 0; l < 64; ++l)
#define F(x) u2f(x)
  switch (op) {
  case UQ_OP_V_MOV_B32:
  case UQ_OP_V_ACCVGPR_READ_B32:
  case UQ_OP_V_ACCVGPR_WRITE_B32:
  case UQ_OP_V_ACCVGPR_MOV_B32:
    LANES r[l] = a[l];
    break;
  case UQ_OP_V_MOV_B64:
    LANES {
      r[l] = a[l];
      rh[l] = srch[0][l];
    }
    dh = rh;
    break;
  case UQ_OP_V_CVT_F32_I32:
    LANES r[l] = f2u((float)(int32_t)a[l]);
    break;
  case UQ_OP_V_CVT_F32_U32:
    LANES r[l] = f2u((float)a[l]);
    break;
  case UQ_OP_V_CVT_U32_F32:
    LANES r[l] = cvt_u32(F(a[l]));
    break;
  case UQ_OP_V_CVT_I32_F32:
    LANES r[l] = (uint32_t)cvt_i32(F(a[l]));
    break;
  case UQ_OP_V_CVT_RPI_I32_F32:
    LANES r[l] = (uint32_t)cvt_i32(floorf(F(a[l]) + 0.5f));
    break;
  case UQ_OP_V_CVT_FLR_I32_F32:
    LANES r[l] = (uint32_t)cvt_i32(floorf(F(a[l])));
    break;
  case UQ_OP_V_CVT_F16_F32:
    LANES r[l] = f32_to_f16(F(a[l]), 0);
    break;
  case UQ_OP_V_CVT_F32_F16:
    LANES r[l] =
        f2u(f16_to_f32((uint16_t)(in->op_sel & 1 ? a[l] >> 16 : a[l])));
    break;
  case UQ_OP_V_CVT_F32_BF16:
    LANES r[l] = (in->op_sel & 1 ? a[l] >> 16 : a[l]) << 16;
    break;
  case UQ_OP_V_CVT_F32_UBYTE0:
  case UQ_OP_V_CVT_F32_UBYTE1:
  case UQ_OP_V_CVT_F32_UBYTE2:
  case UQ_OP_V_CVT_F32_UBYTE3: {
    int sh = 8 * in->sub;
    LANES r[l] = f2u((float)((a[l] >> sh) & 0xFF));
    break;
  }
  case UQ_OP_V_CVT_PK_BF16_F32:
    uq_sim_cvt_pk_bf16_f32_wave(a, b, r);
    break;
  case UQ_OP_V_CVT_PKRTZ_F16_F32:
    LANES r[l] = f32_to_f16(F(a[l]), 1) | (uint32_t)f32_to_f16(F(b[l]), 1)
                                              << 16;
    break;
  case UQ_OP_V_CVT_PK_F16_F32: // gfx950: round to nearest even
    LANES r[l] = f32_to_f16(F(a[l]), 0) | (uint32_t)f32_to_f16(F(b[l]), 0)
                                              << 16;
    break;
  case UQ_OP_V_CVT_PK_FP8_F32: {
    const uint32_t *old = w->v[o[0].reg & 511];
    int fp16_ovfl = (w->mode >> 23) & 1;
    uint32_t ta[64], tb[64];
    for (int l = 0; l < 64; ++l) {
      ta[l] = a[l];
      tb[l] = b[l];
    }
    LANES r[l] = uq_sim_cvt_pk_fp8_f32(F(ta[l]), F(tb[l]), old[l],
                                       (in->op_sel >> 3) & 1, fp16_ovfl);
    break;
  }
  case UQ_OP_V_CVT_PK_F32_FP8: {
    LANES {
      float out[2];
      uq_sim_cvt_pk_f32_fp8(a[l], in->op_sel & 1, out);
      r[l] = f2u(out[0]);
      rh[l] = f2u(out[1]);
    }
    dh = rh;
    break;
  }
  case UQ_OP_V_CVT_SCALEF32_PK_BF16_FP4:
    // All 64 lanes at once; vwrite keeps the inactive ones.
    uq_sim_cvt_scalef32_pk_bf16_fp4_wave(a, b, in->op_sel & 3, r);
    break;
  case UQ_OP_V_FRACT_F32:
    LANES {
      float x = F(a[l]);
      r[l] = f2u(isinf(x) ? NAN : fminf(x - floorf(x), 0x1.fffffep-1f));
    }
    break;
  case UQ_OP_V_TRUNC_F32:
    LANES r[l] = f2u(truncf(F(a[l])));
    break;
  case UQ_OP_V_CEIL_F32:
    LANES r[l] = f2u(ceilf(F(a[l])));
    break;
  case UQ_OP_V_RNDNE_F32:
    LANES r[l] = f2u(rintf(F(a[l])));
    break;
  case UQ_OP_V_FLOOR_F32:
    LANES r[l] = f2u(floorf(F(a[l])));
    break;
  case UQ_OP_V_EXP_F32:
    LANES r[l] = f2u(uq_sim_exp_f32(F(a[l])));
    break;
  case UQ_OP_V_LOG_F32:
    LANES r[l] = f2u(uq_sim_log_f32(F(a[l])));
    break;
  case UQ_OP_V_RCP_F32:
  case UQ_OP_V_RCP_IFLAG_F32:
    LANES r[l] = f2u(uq_sim_rcp_f32(F(a[l])));
    break;
  case UQ_OP_V_RSQ_F32:
    // In double, rounded once: 1.0f / sqrtf() rounds twice and can be 1.1
    // ULP off, past the ISA's 1 ULP.
    LANES r[l] = f2u((float)(1.0 / sqrt((double)F(a[l]))));
    break;
  case UQ_OP_V_SQRT_F32:
    LANES r[l] = f2u(sqrtf(F(a[l])));
    break;
  case UQ_OP_V_NOT_B32:
    LANES r[l] = ~a[l];
    break;
  case UQ_OP_V_BFREV_B32:
    LANES {
      uint32_t x = a[l], y = 0;
      for (int i = 0; i < 32; ++i)
        y |= ((x >> i) & 1) << (31 - i);
      r[l] = y;
    }
    break;
  case UQ_OP_V_FFBH_U32:
    LANES r[l] = a[l] ? (uint32_t)__builtin_clz(a[l]) : 0xFFFFFFFFu;
    break;
  case UQ_OP_V_FFBL_B32:
    LANES r[l] = a[l] ? (uint32_t)__builtin_ctz(a[l]) : 0xFFFFFFFFu;
    break;
  case UQ_OP_V_FFBH_I32:
    LANES {
      uint32_t x = (int32_t)a[l] < 0 ? ~a[l] : a[l];
      r[l] = x ? (uint32_t)__builtin_clz(x) : 0xFFFFFFFFu;
    }
    break;
  case UQ_OP_V_LDEXP_F32:
    LANES r[l] = f2u(ldexpf(F(a[l]), (int32_t)b[l]));
    break;
  case UQ_OP_V_FREXP_MANT_F32:
    LANES {
      int e;
      float x = F(a[l]);
      r[l] = f2u(isinf(x) || isnan(x) ? x : frexpf(x, &e));
    }
    break;
  case UQ_OP_V_FREXP_EXP_I32_F32:
    LANES {
      int e = 0;
      float x = F(a[l]);
      if (!isinf(x) && !isnan(x))
        frexpf(x, &e);
      r[l] = (uint32_t)e;
    }
    break;
  case UQ_OP_V_CNDMASK_B32: {
    uint64_t sel = sread64(w, &o[3]);
    LANES r[l] = ((sel >> l) & 1) ? b[l] : a[l];
    break;
  }
  case UQ_OP_V_ADD_F32:
    LANES r[l] = f2u(F(a[l]) + F(b[l]));
    break;
  case UQ_OP_V_SUB_F32:
    LANES r[l] = f2u(F(a[l]) - F(b[l]));
    break;
  case UQ_OP_V_SUBREV_F32:
    LANES r[l] = f2u(F(b[l]) - F(a[l]));
    break;
  case UQ_OP_V_MUL_F32:
    LANES r[l] = f2u(F(a[l]) * F(b[l]));
    break;
  case UQ_OP_V_MUL_LEGACY_F32:
    LANES r[l] = (F(a[l]) == 0 || F(b[l]) == 0) ? 0 : f2u(F(a[l]) * F(b[l]));
    break;
  case UQ_OP_V_MIN_F32:
    LANES r[l] = f2u(fminf(F(a[l]), F(b[l])));
    break;
  case UQ_OP_V_MAX_F32:
    LANES r[l] = f2u(fmaxf(F(a[l]), F(b[l])));
    break;
  case UQ_OP_V_MIN_I32:
    LANES r[l] = (int32_t)a[l] < (int32_t)b[l] ? a[l] : b[l];
    break;
  case UQ_OP_V_MAX_I32:
    LANES r[l] = (int32_t)a[l] > (int32_t)b[l] ? a[l] : b[l];
    break;
  case UQ_OP_V_MIN_U32:
    LANES r[l] = a[l] < b[l] ? a[l] : b[l];
    break;
  case UQ_OP_V_MAX_U32:
    LANES r[l] = a[l] > b[l] ? a[l] : b[l];
    break;
  case UQ_OP_V_LSHRREV_B32:
    LANES r[l] = b[l] >> (a[l] & 31);
    break;
  case UQ_OP_V_ASHRREV_I32:
    LANES r[l] = (uint32_t)((int32_t)b[l] >> (a[l] & 31));
    break;
  case UQ_OP_V_LSHLREV_B32:
    LANES r[l] = b[l] << (a[l] & 31);
    break;
  case UQ_OP_V_AND_B32:
    LANES r[l] = a[l] & b[l];
    break;
  case UQ_OP_V_OR_B32:
    LANES r[l] = a[l] | b[l];
    break;
  case UQ_OP_V_XOR_B32:
    LANES r[l] = a[l] ^ b[l];
    break;
  case UQ_OP_V_MUL_I32_I24:
    // The 48-bit product in 64 bits (an int product overflows), low half.
    LANES r[l] = (uint32_t)((int64_t)((int32_t)(a[l] << 8) >> 8) *
                            ((int32_t)(b[l] << 8) >> 8));
    break;
  case UQ_OP_V_MUL_U32_U24:
    LANES r[l] = (a[l] & 0xFFFFFF) * (b[l] & 0xFFFFFF);
    break;
  case UQ_OP_V_MUL_HI_I32_I24:
    LANES r[l] = (uint32_t)(((int64_t)((int32_t)(a[l] << 8) >> 8) *
                             ((int32_t)(b[l] << 8) >> 8)) >>
                            32);
    break;
  case UQ_OP_V_MUL_HI_U32_U24:
    LANES r[l] =
        (uint32_t)(((uint64_t)(a[l] & 0xFFFFFF) * (b[l] & 0xFFFFFF)) >> 32);
    break;
  // gfx950 has only the fused forms (v_mad_f32, v_mac_f32, v_madmk_f32 and
  // v_madak_f32, unfused on older chips, do not exist on it). FMAMK is vdst,
  // src0, K, src1 and FMAAK vdst, src0, src1, K: the decoder already ordered
  // both as a * b + c.
  case UQ_OP_V_FMAC_F32: {
    const uint32_t *dd = w->v[o[0].reg & 511];
    LANES r[l] = f2u(fmaf(F(a[l]), F(b[l]), F(dd[l])));
    break;
  }
  case UQ_OP_V_FMAMK_F32:
  case UQ_OP_V_FMAAK_F32:
  case UQ_OP_V_FMA_F32:
    LANES r[l] = f2u(fmaf(F(a[l]), F(b[l]), F(cc[l])));
    break;
  case UQ_OP_V_ADD_CO_U32:
  case UQ_OP_V_SUB_CO_U32:
  case UQ_OP_V_SUBREV_CO_U32:
  case UQ_OP_V_ADDC_CO_U32:
  case UQ_OP_V_SUBB_CO_U32:
  case UQ_OP_V_SUBBREV_CO_U32: {
    uint64_t cin = 0;
    if (op == UQ_OP_V_ADDC_CO_U32 || op == UQ_OP_V_SUBB_CO_U32 ||
        op == UQ_OP_V_SUBBREV_CO_U32)
      cin = sread64(w, &o[4]);
    write_sdst = 1;
    LANES {
      uint64_t x = a[l], y = b[l], ci = (cin >> l) & 1, res;
      if (op == UQ_OP_V_SUBREV_CO_U32 || op == UQ_OP_V_SUBBREV_CO_U32) {
        uint64_t tmp = x;
        x = y;
        y = tmp;
      }
      int carry;
      if (op == UQ_OP_V_ADD_CO_U32 || op == UQ_OP_V_ADDC_CO_U32) {
        res = x + y + ci;
        carry = (res >> 32) != 0;
      } else {
        res = x - y - ci;
        carry = y + ci > x;
      }
      r[l] = (uint32_t)res;
      sdst_bits |= (uint64_t)carry << l;
    }
    break;
  }
  case UQ_OP_V_ADD_U32:
    LANES r[l] = a[l] + b[l];
    break;
  case UQ_OP_V_SUB_U32:
    LANES r[l] = a[l] - b[l];
    break;
  case UQ_OP_V_SUBREV_U32:
    LANES r[l] = b[l] - a[l];
    break;
  case UQ_OP_V_LSHLREV_B64:
    LANES {
      uint64_t x = ((uint64_t)srch[1][l] << 32 | b[l]) << (a[l] & 63);
      r[l] = (uint32_t)x;
      rh[l] = (uint32_t)(x >> 32);
    }
    dh = rh;
    break;
  case UQ_OP_V_LSHRREV_B64:
    LANES {
      uint64_t x = ((uint64_t)srch[1][l] << 32 | b[l]) >> (a[l] & 63);
      r[l] = (uint32_t)x;
      rh[l] = (uint32_t)(x >> 32);
    }
    dh = rh;
    break;
  case UQ_OP_V_ASHRREV_I64:
    LANES {
      uint64_t x = (uint64_t)((int64_t)((uint64_t)srch[1][l] << 32 | b[l]) >>
                              (a[l] & 63));
      r[l] = (uint32_t)x;
      rh[l] = (uint32_t)(x >> 32);
    }
    dh = rh;
    break;
  case UQ_OP_V_MAD_U32_U24:
    LANES r[l] = (a[l] & 0xFFFFFF) * (b[l] & 0xFFFFFF) + cc[l];
    break;
  case UQ_OP_V_MAD_I32_I24:
    LANES r[l] = (uint32_t)((int64_t)((int32_t)(a[l] << 8) >> 8) *
                            ((int32_t)(b[l] << 8) >> 8)) +
                 cc[l];
    break;
  case UQ_OP_V_BFE_U32:
    LANES {
      uint32_t off = b[l] & 31, wd = cc[l] & 31;
      r[l] = wd ? (a[l] >> off) & ((1u << wd) - 1) : 0;
    }
    break;
  case UQ_OP_V_BFE_I32:
    LANES {
      uint32_t off = b[l] & 31, wd = cc[l] & 31;
      r[l] = wd ? (uint32_t)(((int32_t)((uint32_t)((int32_t)a[l] >> off)
                                        << (32 - wd))) >>
                             (32 - wd))
                : 0;
    }
    break;
  case UQ_OP_V_BFI_B32:
    LANES r[l] = (a[l] & b[l]) | (~a[l] & cc[l]);
    break;
  case UQ_OP_V_ALIGNBIT_B32:
    LANES r[l] = (uint32_t)((((uint64_t)a[l] << 32) | b[l]) >> (cc[l] & 31));
    break;
  case UQ_OP_V_ALIGNBYTE_B32:
    LANES r[l] =
        (uint32_t)((((uint64_t)a[l] << 32) | b[l]) >> (8 * (cc[l] & 3)));
    break;
  case UQ_OP_V_MIN3_F32:
    LANES r[l] = f2u(fminf(fminf(F(a[l]), F(b[l])), F(cc[l])));
    break;
  case UQ_OP_V_MAX3_F32:
    LANES r[l] = f2u(fmaxf(fmaxf(F(a[l]), F(b[l])), F(cc[l])));
    break;
  case UQ_OP_V_MED3_F32:
    LANES r[l] = f2u(fmed3(F(a[l]), F(b[l]), F(cc[l])));
    break;
  case UQ_OP_V_MIN3_I32:
    LANES {
      int32_t x = (int32_t)a[l], y = (int32_t)b[l], z = (int32_t)cc[l];
      int32_t m = x < y ? x : y;
      r[l] = (uint32_t)(m < z ? m : z);
    }
    break;
  case UQ_OP_V_MAX3_I32:
    LANES {
      int32_t x = (int32_t)a[l], y = (int32_t)b[l], z = (int32_t)cc[l];
      int32_t m = x > y ? x : y;
      r[l] = (uint32_t)(m > z ? m : z);
    }
    break;
  case UQ_OP_V_MED3_I32:
    LANES {
      int32_t x = (int32_t)a[l], y = (int32_t)b[l], z = (int32_t)cc[l];
      int32_t lo = x < y ? x : y, hi = x < y ? y : x;
      int32_t m = hi < z ? hi : z;
      r[l] = (uint32_t)(lo > m ? lo : m);
    }
    break;
  case UQ_OP_V_MIN3_U32:
    LANES {
      uint32_t m = a[l] < b[l] ? a[l] : b[l];
      r[l] = m < cc[l] ? m : cc[l];
    }
    break;
  case UQ_OP_V_MAX3_U32:
    LANES {
      uint32_t m = a[l] > b[l] ? a[l] : b[l];
      r[l] = m > cc[l] ? m : cc[l];
    }
    break;
  case UQ_OP_V_MED3_U32:
    LANES {
      uint32_t x = a[l], y = b[l], z = cc[l];
      uint32_t lo = x < y ? x : y, hi = x < y ? y : x;
      uint32_t m = hi < z ? hi : z;
      r[l] = lo > m ? lo : m;
    }
    break;
  case UQ_OP_V_MAD_U64_U32:
  case UQ_OP_V_MAD_I64_I32: {
    write_sdst = 1;
    LANES {
      uint64_t add = (uint64_t)srch[2][l] << 32 | cc[l], res;
      int carry;
      if (op == UQ_OP_V_MAD_U64_U32) {
        unsigned __int128 p = (unsigned __int128)((uint64_t)a[l] * b[l]) + add;
        res = (uint64_t)p;
        carry = (int)(p >> 64);
      } else {
        __int128 p =
            (__int128)((int64_t)(int32_t)a[l] * (int32_t)b[l]) + (int64_t)add;
        res = (uint64_t)p;
        carry = p > INT64_MAX || p < INT64_MIN;
      }
      r[l] = (uint32_t)res;
      rh[l] = (uint32_t)(res >> 32);
      sdst_bits |= (uint64_t)carry << l;
    }
    dh = rh;
    break;
  }
  case UQ_OP_V_LSHL_ADD_U64:
    LANES {
      // Shift counts above 4 are unsupported; the design shifts by zero.
      uint32_t sh = b[l] & 7;
      uint64_t x = ((uint64_t)srch[0][l] << 32 | a[l]) << (sh > 4 ? 0 : sh);
      x += (uint64_t)srch[2][l] << 32 | cc[l];
      r[l] = (uint32_t)x;
      rh[l] = (uint32_t)(x >> 32);
    }
    dh = rh;
    break;
  case UQ_OP_V_MUL_LO_U32:
    LANES r[l] = a[l] * b[l];
    break;
  case UQ_OP_V_MUL_HI_U32:
    LANES r[l] = (uint32_t)(((uint64_t)a[l] * b[l]) >> 32);
    break;
  case UQ_OP_V_MUL_HI_I32:
    LANES r[l] = (uint32_t)(((int64_t)(int32_t)a[l] * (int32_t)b[l]) >> 32);
    break;
  case UQ_OP_V_PERM_B32:
    LANES {
      uint64_t x = (uint64_t)a[l] << 32 | b[l];
      uint32_t s = cc[l];
      r[l] = perm_byte(x, s) | perm_byte(x, s >> 8) << 8 |
             perm_byte(x, s >> 16) << 16 | perm_byte(x, s >> 24) << 24;
    }
    break;
  case UQ_OP_V_LSHL_ADD_U32:
    LANES r[l] = (a[l] << (b[l] & 31)) + cc[l];
    break;
  case UQ_OP_V_ADD_LSHL_U32:
    LANES r[l] = (a[l] + b[l]) << (cc[l] & 31);
    break;
  case UQ_OP_V_ADD3_U32:
    LANES r[l] = a[l] + b[l] + cc[l];
    break;
  case UQ_OP_V_LSHL_OR_B32:
    LANES r[l] = (a[l] << (b[l] & 31)) | cc[l];
    break;
  case UQ_OP_V_AND_OR_B32:
    LANES r[l] = (a[l] & b[l]) | cc[l];
    break;
  case UQ_OP_V_OR3_B32:
    LANES r[l] = a[l] | b[l] | cc[l];
    break;
  case UQ_OP_V_XAD_U32:
    LANES r[l] = (a[l] ^ b[l]) + cc[l];
    break;
  case UQ_OP_V_MBCNT_LO_U32_B32:
    LANES r[l] = (uint32_t)__builtin_popcount(
                     a[l] & (l >= 32 ? 0xFFFFFFFFu : ((1u << l) - 1))) +
                 b[l];
    break;
  case UQ_OP_V_MBCNT_HI_U32_B32:
    LANES r[l] = (uint32_t)__builtin_popcount(
                     a[l] & (l < 32 ? 0u : ((1u << (l - 32)) - 1))) +
                 b[l];
    break;
  case UQ_OP_V_BCNT_U32_B32:
    LANES r[l] = (uint32_t)__builtin_popcount(a[l]) + b[l];
    break;
  case UQ_OP_V_BFM_B32:
    LANES r[l] = (uint32_t)(((1ull << (a[l] & 31)) - 1) << (b[l] & 31));
    break;
  case UQ_OP_V_PACK_B32_F16:
    LANES {
      uint32_t lo = (in->op_sel & 1) ? a[l] >> 16 : a[l] & 0xFFFF;
      uint32_t hi = (in->op_sel & 2) ? b[l] >> 16 : b[l] & 0xFFFF;
      r[l] = (lo & 0xFFFF) | hi << 16;
    }
    break;
  case UQ_OP_V_CVT_PK_U16_U32:
    LANES r[l] =
        (a[l] > 0xFFFF ? 0xFFFF : a[l]) | (b[l] > 0xFFFF ? 0xFFFF : b[l]) << 16;
    break;
  case UQ_OP_V_CVT_PK_I16_I32:
    LANES {
      int32_t x = (int32_t)a[l], y = (int32_t)b[l];
      x = x > 32767 ? 32767 : x < -32768 ? -32768 : x;
      y = y > 32767 ? 32767 : y < -32768 ? -32768 : y;
      r[l] = ((uint32_t)x & 0xFFFF) | ((uint32_t)y & 0xFFFF) << 16;
    }
    break;
  case UQ_OP_V_DIV_SCALE_F32:
    // Operands in the normal range need no scaling: VCC = 0, D = S0.
    write_sdst = 1;
    LANES r[l] = a[l];
    break;
  case UQ_OP_V_DIV_FMAS_F32: {
    uint64_t v = vcc_of(w);
    LANES {
      float x = fmaf(F(a[l]), F(b[l]), F(cc[l]));
      if ((v >> l) & 1)
        x = ldexpf(x, 32);
      r[l] = f2u(x);
    }
    break;
  }
  case UQ_OP_V_DIV_FIXUP_F32:
    LANES r[l] = f2u(div_fixup(F(a[l]), F(b[l]), F(cc[l])));
    break;
  case UQ_OP_V_ADD_F16:
    LANES r[l] =
        f32_to_f16(f16_to_f32((uint16_t)a[l]) + f16_to_f32((uint16_t)b[l]), 0);
    break;
  case UQ_OP_V_SUB_F16:
    LANES r[l] =
        f32_to_f16(f16_to_f32((uint16_t)a[l]) - f16_to_f32((uint16_t)b[l]), 0);
    break;
  case UQ_OP_V_MUL_F16:
    LANES r[l] =
        f32_to_f16(f16_to_f32((uint16_t)a[l]) * f16_to_f32((uint16_t)b[l]), 0);
    break;
  case UQ_OP_V_MAX_F16:
    LANES r[l] = f32_to_f16(
        fmaxf(f16_to_f32((uint16_t)a[l]), f16_to_f32((uint16_t)b[l])), 0);
    break;
  case UQ_OP_V_MIN_F16:
    LANES r[l] = f32_to_f16(
        fminf(f16_to_f32((uint16_t)a[l]), f16_to_f32((uint16_t)b[l])), 0);
    break;
  case UQ_OP_V_FMA_F16:
    LANES r[l] = f32_to_f16((float)fma((double)f16_to_f32((uint16_t)a[l]),
                                       f16_to_f32((uint16_t)b[l]),
                                       f16_to_f32((uint16_t)cc[l])),
                            0);
    break;
  // 16-bit integer ops: the low 16 bits of each (selected) source; the D16
  // writeback below keeps 16 bits of the result. Shifts use S0[3:0].
  case UQ_OP_V_ADD_U16:
    LANES r[l] = sat_u16((int64_t)(a[l] & 0xFFFF) + (b[l] & 0xFFFF), in->clamp);
    break;
  case UQ_OP_V_ADD_I16:
    LANES r[l] = sat_i16((int64_t)(int16_t)a[l] + (int16_t)b[l], in->clamp);
    break;
  case UQ_OP_V_SUB_U16:
    LANES r[l] = sat_u16((int64_t)(a[l] & 0xFFFF) - (b[l] & 0xFFFF), in->clamp);
    break;
  case UQ_OP_V_SUB_I16:
    LANES r[l] = sat_i16((int64_t)(int16_t)a[l] - (int16_t)b[l], in->clamp);
    break;
  case UQ_OP_V_SUBREV_U16:
    LANES r[l] = sat_u16((int64_t)(b[l] & 0xFFFF) - (a[l] & 0xFFFF), in->clamp);
    break;
  case UQ_OP_V_MUL_LO_U16:
    LANES r[l] = (a[l] & 0xFFFF) * (b[l] & 0xFFFF);
    break;
  case UQ_OP_V_MAD_U16:
    LANES r[l] =
        sat_u16((int64_t)(a[l] & 0xFFFF) * (b[l] & 0xFFFF) + (cc[l] & 0xFFFF),
                in->clamp);
    break;
  case UQ_OP_V_MAD_I16:
    LANES r[l] = sat_i16(
        (int64_t)(int16_t)a[l] * (int16_t)b[l] + (int16_t)cc[l], in->clamp);
    break;
  case UQ_OP_V_MAD_U32_U16:
    LANES r[l] = (a[l] & 0xFFFF) * (b[l] & 0xFFFF) + cc[l];
    break;
  case UQ_OP_V_MAD_I32_I16:
    LANES r[l] = (uint32_t)((int32_t)(int16_t)a[l] * (int16_t)b[l]) + cc[l];
    break;
  case UQ_OP_V_LSHLREV_B16:
    LANES r[l] = (b[l] & 0xFFFF) << (a[l] & 15);
    break;
  case UQ_OP_V_LSHRREV_B16:
    LANES r[l] = (b[l] & 0xFFFF) >> (a[l] & 15);
    break;
  case UQ_OP_V_ASHRREV_I16:
    LANES r[l] = (uint32_t)((int32_t)(int16_t)b[l] >> (a[l] & 15));
    break;
  case UQ_OP_V_MAX_U16:
    LANES r[l] = (uint16_t)a[l] > (uint16_t)b[l] ? a[l] : b[l];
    break;
  case UQ_OP_V_MAX_I16:
    LANES r[l] = (int16_t)a[l] > (int16_t)b[l] ? a[l] : b[l];
    break;
  case UQ_OP_V_MIN_U16:
    LANES r[l] = (uint16_t)a[l] < (uint16_t)b[l] ? a[l] : b[l];
    break;
  case UQ_OP_V_MIN_I16:
    LANES r[l] = (int16_t)a[l] < (int16_t)b[l] ? a[l] : b[l];
    break;
  // v_bitop3: each result bit is bit (S0 << 2 | S1 << 1 | S2) of the 8-bit
  // truth table (the decoder puts it in simm).
  case UQ_OP_V_BITOP3_B32:
  case UQ_OP_V_BITOP3_B16: {
    uint32_t tt = (uint32_t)in->simm & 0xFF;
    LANES {
      uint32_t x = 0;
      for (int k = 0; k < 8; ++k) {
        if (!((tt >> k) & 1))
          continue;
        uint32_t m0 = k & 4 ? a[l] : ~a[l], m1 = k & 2 ? b[l] : ~b[l],
                 m2 = k & 1 ? cc[l] : ~cc[l];
        x |= m0 & m1 & m2;
      }
      r[l] = x;
    }
    break;
  }
  default:
    UNIMPL(in);
  }
#undef LANES
#undef F
  if ((in->flags & UQ_OPF_OMOD) && (in->omod || in->clamp)) {
    for (int l = 0; l < 64; ++l) {
      float x = u2f(r[l]);
      if (in->omod == 1)
        x *= 2.0f;
      else if (in->omod == 2)
        x *= 4.0f;
      else if (in->omod == 3)
        x *= 0.5f;
      if (in->clamp)
        x = fminf(fmaxf(x, 0.0f), 1.0f);
      r[l] = f2u(x);
    }
  }
  if ((in->flags & UQ_OPF_D16) && in->clamp && in->type == UQ_OPT_F) {
    // Clamp to [0, 1]; NaN gives 0 (DX10 clamp).
    for (int l = 0; l < 64; ++l)
      r[l] = clamp01_f16((uint16_t)r[l]);
  }
  if (in->flags & UQ_OPF_D16) {
    // 16-bit results: the high half of the VGPR is zeroed (gfx9), or with
    // op_sel[3] the result goes to the high half and the low half is kept.
    const uint32_t *old = w->v[o[0].reg & 511];
    for (int l = 0; l < 64; ++l)
      r[l] = (in->op_sel & 8)
                 ? (old[l] & 0xFFFF) | (r[l] << 16)
                 : (in->enc == UQ_ENC_E64 ? r[l] & 0xFFFF : (r[l] & 0xFFFF));
  }
  vwrite(w, in, &o[0], mask, r, dh);
  if (write_sdst) {
    // Lanes outside EXEC read as 0 in a carry-out mask.
    swrite64(w, &o[1], sdst_bits & mask);
  }
  return UQ_OK;
}
