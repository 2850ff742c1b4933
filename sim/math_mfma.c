// gfx950 simulator math: v_mfma_f32_16x16x16_bf16 and
// v_mfma_scale_f32_16x16x128_f8f6f4.
//
// Rounding model (the hardware's internal rounding is not documented bit for
// bit; the ISA guide says only "RNE, denormals kept"):
// - bf16 MFMA: every product is exact in double; D = C + sum over k = 0..15
//   of A[i][k] * B[k][j], accumulated in double starting from C in k order,
//   then rounded once to f32 (round to nearest even).
// - scaled MFMA: each 32-wide K block's dot product is computed exactly in
//   integers (every operand is an integer times a fixed power of two of its
//   format), converted to double (exact except for E5M2 x E4M3/E5M2 blocks
//   whose sum needs more than 53 bits: one RNE rounding), multiplied by
//   2^(sa-127) * 2^(sb-127) (exact in double). The four block values are
//   summed in double in block order 0..3, C is added last, and the result is
//   rounded once to f32 (RNE; overflow gives +-inf: the clamp bit is not
//   modelled). A block with an Inf/NaN operand is computed in plain double
//   arithmetic so that IEEE rules give its Inf/NaN; scale byte 0xFF (NaN)
//   makes the block NaN.
// - Output layout (both): lane l holds D[4 * (l >> 4) + r][l & 15] in r.
#include "sim/math.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

static double bf16_value(uint32_t bits16) {
  uint32_t u = (bits16 & 0xFFFFu) << 16;
  float f;
  memcpy(&f, &u, sizeof f);
  return (double)f;
}

void uq_sim_mfma_f32_16x16x16_bf16(const uint32_t a[64][2],
                                   const uint32_t b[64][2],
                                   const float c[64][4], float d[64][4]) {
  // A[i][k] sits in halfword k % 4 of lane i + 16 * (k / 4) (ISA guide,
  // "Input layout": K_L = 4); B[k][j] likewise in lane j + 16 * (k / 4).
  double am[16][16], bm[16][16];
  for (int l = 0; l < 64; ++l) {
    for (int e = 0; e < 4; ++e) {
      int k = 4 * (l >> 4) + e;
      am[l & 15][k] = bf16_value(a[l][e >> 1] >> (16 * (e & 1)));
      bm[k][l & 15] = bf16_value(b[l][e >> 1] >> (16 * (e & 1)));
    }
  }
  float res[64][4];
  for (int l = 0; l < 64; ++l) {
    int j = l & 15;
    for (int r = 0; r < 4; ++r) {
      int i = 4 * (l >> 4) + r;
      double acc = (double)c[l][r];
      for (int k = 0; k < 16; ++k)
        acc += am[i][k] * bm[k][j];
      res[l][r] = (float)acc;
    }
  }
  memcpy(d, res, sizeof res);
}

// One decoded scaled-MFMA operand: 16 rows (A) or columns (B) of 128 K
// values, each an integer times 2^-shift, plus a per-(row, block) flag for
// Inf/NaN and the double values for that slow path.
typedef struct operand_s {
  int64_t q[16][128];
  double v[16][128];
  bool special[16][4];
  int shift;
} operand_t;

typedef struct format_s {
  int bits;  // element width
  int ebits; // exponent bits
  int mbits; // mantissa bits
  int bias;
  int shift; // value = integer * 2^-shift covers every finite code
} format_t;

static const format_t kFormats[5] = {
    {8, 4, 3, 7, 9},   // E4M3: smallest subnormal 2^-9
    {8, 5, 2, 15, 16}, // E5M2: 2^-16
    {6, 2, 3, 1, 3},   // E2M3: 2^-3
    {6, 3, 2, 3, 4},   // E3M2: 2^-4
    {4, 2, 1, 1, 1},   // E2M1: 2^-1
};

// Decodes one element code. Returns false for Inf/NaN (E4M3, E5M2 only).
static bool decode_element(int fmt, uint32_t code, int64_t *out_q,
                           double *out_v) {
  const format_t *f = &kFormats[fmt];
  uint32_t sign = (code >> (f->bits - 1)) & 1u;
  uint32_t e = (code >> f->mbits) & ((1u << f->ebits) - 1u);
  uint32_t m = code & ((1u << f->mbits) - 1u);
  if (fmt == UQ_SIM_F8F6F4_E4M3 && e == 15u && m == 7u) {
    *out_q = 0;
    *out_v = NAN;
    return false;
  }
  if (fmt == UQ_SIM_F8F6F4_E5M2 && e == 31u) {
    *out_q = 0;
    *out_v = m == 0 ? (sign ? -INFINITY : INFINITY) : NAN;
    return false;
  }
  // value = sig * 2^(max(e,1) - bias - mbits); in units of 2^-shift the
  // exponent max(e,1) - bias - mbits + shift is >= 0 for every format.
  uint64_t sig = e == 0 ? m : ((1u << f->mbits) | m);
  int ex = (e == 0 ? 1 : (int)e) - f->bias - f->mbits + f->shift;
  int64_t q = (int64_t)(sig << ex);
  *out_q = sign ? -q : q;
  *out_v = ldexp((double)*out_q, -f->shift);
  return true;
}

// The K index of element t (0..31) of lane group g (lane >> 4). FP4 and FP6
// operands hold K in [32g, 32g + 32) contiguously; FP8 operands hold
// K in [16g, 16g + 16) in bytes 0-15 and K in [64 + 16g, 80 + 16g) in bytes
// 16-31 (ISA guide, "Dense Matrix Layouts: 8-bit and Smaller"; DESIGN.md).
static int element_k(int fmt, int g, int t) {
  if (kFormats[fmt].bits == 8)
    return t < 16 ? 16 * g + t : 64 + 16 * g + (t - 16);
  return 32 * g + t;
}

// Element t of a lane's operand registers: elements are densely packed
// little-endian across the registers (an FP6 element may straddle two).
static uint32_t element_code(const uint32_t regs[8], int bits, int t) {
  int bit = t * bits;
  uint64_t pair = regs[bit >> 5];
  if ((bit >> 5) + 1 < 8)
    pair |= (uint64_t)regs[(bit >> 5) + 1] << 32;
  return (uint32_t)(pair >> (bit & 31)) & ((1u << bits) - 1u);
}

static void decode_operand(int fmt, const uint32_t x[64][8], operand_t *op) {
  memset(op->special, 0, sizeof op->special);
  op->shift = kFormats[fmt].shift;
  for (int l = 0; l < 64; ++l) {
    int row = l & 15, g = l >> 4;
    for (int t = 0; t < 32; ++t) {
      int k = element_k(fmt, g, t);
      uint32_t code = element_code(x[l], kFormats[fmt].bits, t);
      if (!decode_element(fmt, code, &op->q[row][k], &op->v[row][k]))
        op->special[row][k >> 5] = true;
    }
  }
}

static void zero_operand(operand_t *op) { memset(op, 0, sizeof *op); }

// Exact dot product of one 32-wide block, scaled to double.
static double block_dot(const operand_t *a, int i, const operand_t *b, int j,
                        int blk) {
  const int64_t *qa = &a->q[i][32 * blk];
  const int64_t *qb = &b->q[j][32 * blk];
  int shift = a->shift + b->shift;
  if (shift <= 25) {
    // |q| < 2^18 for E4M3 (448 * 2^9) and < 2^31.8 for E5M2 (57344 * 2^16):
    // a product fits 50 bits unless both are E5M2 (shift 32), and 32 of them
    // fit 55 bits, so int64 is exact here.
    int64_t s = 0;
    for (int k = 0; k < 32; ++k)
      s += qa[k] * qb[k];
    return ldexp((double)s, -shift);
  }
  __int128 s = 0;
  for (int k = 0; k < 32; ++k)
    s += (__int128)qa[k] * qb[k];
  return ldexp((double)s, -shift);
}

static double block_dot_special(const operand_t *a, int i, const operand_t *b,
                                int j, int blk) {
  double s = 0.0;
  for (int k = 32 * blk; k < 32 * blk + 32; ++k)
    s += a->v[i][k] * b->v[j][k];
  return s;
}

void uq_sim_mfma_scale_f32_16x16x128_f8f6f4(
    int fmt_a, int fmt_b, const uint32_t a[64][8], const uint32_t b[64][8],
    const float c[64][4], const uint32_t scale_a[64], int opsel_a,
    const uint32_t scale_b[64], int opsel_b, float d[64][4]) {
  // Two decoded operands are ~100 KiB together: static storage keeps them
  // off the stack (the simulator runs one wave at a time per thread).
  static _Thread_local operand_t opa, opb;
  if (fmt_a >= 0 && fmt_a <= 4)
    decode_operand(fmt_a, a, &opa);
  else
    zero_operand(&opa);
  if (fmt_b >= 0 && fmt_b <= 4)
    decode_operand(fmt_b, b, &opb);
  else
    zero_operand(&opb);

  // Scale for row i (column j) and block blk: the selected byte of lane
  // 16 * blk + i (16 * blk + j) of the scale VGPR, as E8M0.
  int sa[16][4], sb[16][4];
  for (int blk = 0; blk < 4; ++blk) {
    for (int r = 0; r < 16; ++r) {
      sa[r][blk] =
          (int)((scale_a[16 * blk + r] >> (8 * (opsel_a & 3))) & 0xFFu);
      sb[r][blk] =
          (int)((scale_b[16 * blk + r] >> (8 * (opsel_b & 3))) & 0xFFu);
    }
  }

  float res[64][4];
  for (int l = 0; l < 64; ++l) {
    int j = l & 15;
    for (int r = 0; r < 4; ++r) {
      int i = 4 * (l >> 4) + r;
      double acc = 0.0;
      for (int blk = 0; blk < 4; ++blk) {
        double dot;
        if (opa.special[i][blk] || opb.special[j][blk])
          dot = block_dot_special(&opa, i, &opb, j, blk);
        else
          dot = block_dot(&opa, i, &opb, j, blk);
        if (sa[i][blk] == 0xFF || sb[j][blk] == 0xFF)
          dot = NAN;
        else
          dot = ldexp(dot, sa[i][blk] + sb[j][blk] - 254);
        acc += dot;
      }
      acc += (double)c[l][r];
      res[l][r] = (float)acc;
    }
  }
  memcpy(d, res, sizeof res);
}
