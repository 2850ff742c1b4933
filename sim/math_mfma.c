// gfx950 simulator math: v_mfma_f32_16x16x16_bf16 and
// v_mfma_scale_f32_16x16x128_f8f6f4.
//
// Rounding model (the hardware's internal rounding is not documented bit for
// bit; the ISA guide says only "RNE, denormals kept"):
// - bf16 MFMA: every product is exact in double; D = C + sum over k = 0..15
//   of A[i][k] * B[k][j], accumulated in double starting from C in k order,
//   then rounded once to f32 (round to nearest even).
// - scaled MFMA: each 32-wide K block's dot product is computed exactly
//   (every operand is an integer times a fixed power of two of its format;
//   the integer sums fit 53 bits, so double arithmetic is exact, except for
//   E5M2 x E4M3/E5M2 blocks, summed in 64/128-bit integers and converted
//   with one RNE rounding), multiplied by
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

// The inner product both MFMAs share: acc[j] += sum over t < n of
// arow[t] * bk[t][j] for the 16 columns j, each column's products added in
// t order (so the rounding is that of a plain loop). Two builds of it: a
// portable one (GCC/Clang vector extension, two doubles per vector: SSE2 on
// x86-64) and, on x86-64, an AVX2 one (four doubles per vector) picked at
// run time when the CPU has AVX2.
typedef double v2d __attribute__((vector_size(16)));
// Unaligned, aliasing views of double arrays as vectors (plain loads and
// stores; going through memcpy made GCC split them and stall).
typedef double v2du __attribute__((vector_size(16), aligned(8), may_alias));

static void row_dot_generic(const double *arow, const double (*bk)[16], int n,
                            double acc[16]) {
  v2du *sp = (v2du *)acc;
  v2d s0 = sp[0], s1 = sp[1], s2 = sp[2], s3 = sp[3], s4 = sp[4], s5 = sp[5],
      s6 = sp[6], s7 = sp[7];
  for (int t = 0; t < n; ++t) {
    v2d av = {arow[t], arow[t]};
    const v2du *b = (const v2du *)bk[t];
    s0 += av * b[0];
    s1 += av * b[1];
    s2 += av * b[2];
    s3 += av * b[3];
    s4 += av * b[4];
    s5 += av * b[5];
    s6 += av * b[6];
    s7 += av * b[7];
  }
  sp[0] = s0, sp[1] = s1, sp[2] = s2, sp[3] = s3;
  sp[4] = s4, sp[5] = s5, sp[6] = s6, sp[7] = s7;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define UQ_SIM_MATH_AVX2 1
typedef double v4d __attribute__((vector_size(32)));
typedef double v4du __attribute__((vector_size(32), aligned(8), may_alias));

// No FMA contraction is needed or wanted: a product of two operands here is
// exact in double anyway, so mul + add rounds exactly like a fused op.
__attribute__((target("avx2"))) static void row_dot_avx2(const double *arow,
                                                         const double (*bk)[16],
                                                         int n,
                                                         double acc[16]) {
  v4du *sp = (v4du *)acc;
  v4d s0 = sp[0], s1 = sp[1], s2 = sp[2], s3 = sp[3];
  for (int t = 0; t < n; ++t) {
    v4d av = {arow[t], arow[t], arow[t], arow[t]};
    const v4du *b = (const v4du *)bk[t];
    s0 += av * b[0];
    s1 += av * b[1];
    s2 += av * b[2];
    s3 += av * b[3];
  }
  sp[0] = s0, sp[1] = s1, sp[2] = s2, sp[3] = s3;
}
#endif

static int g_force_generic;

void uq_sim_math_force_generic(int generic) { g_force_generic = generic; }

typedef void (*row_dot_fn)(const double *, const double (*)[16], int,
                           double[16]);

static row_dot_fn pick_row_dot(void) {
#ifdef UQ_SIM_MATH_AVX2
  if (!g_force_generic && __builtin_cpu_supports("avx2"))
    return row_dot_avx2;
#endif
  return row_dot_generic;
}

void uq_sim_mfma_f32_16x16x16_bf16(const uint32_t a[64][2],
                                   const uint32_t b[64][2],
                                   const float c[64][4], float d[64][4]) {
  // A[i][k] sits in halfword k % 4 of lane i + 16 * (k / 4) (ISA guide,
  // "Input layout": K_L = 4); B[k][j] likewise in lane j + 16 * (k / 4).
  // Gather the f32 bit patterns (bf16 << 16) into row-major A and B, then
  // widen whole arrays (exact) in loops the compiler can vectorize.
  uint32_t abits[16][16], bbits[16][16];
  for (int l = 0; l < 64; ++l) {
    int row = l & 15, k0 = 4 * (l >> 4);
    uint32_t a0 = a[l][0], a1 = a[l][1], b0 = b[l][0], b1 = b[l][1];
    abits[row][k0 + 0] = a0 << 16;
    abits[row][k0 + 1] = a0 & 0xFFFF0000u;
    abits[row][k0 + 2] = a1 << 16;
    abits[row][k0 + 3] = a1 & 0xFFFF0000u;
    bbits[k0 + 0][row] = b0 << 16;
    bbits[k0 + 1][row] = b0 & 0xFFFF0000u;
    bbits[k0 + 2][row] = b1 << 16;
    bbits[k0 + 3][row] = b1 & 0xFFFF0000u;
  }
  float af[256], bf[256];
  memcpy(af, abits, sizeof af);
  memcpy(bf, bbits, sizeof bf);
  double am[16][16], bm[16][16], acc[16][16];
  for (int t = 0; t < 256; ++t) {
    (&am[0][0])[t] = (double)af[t];
    (&bm[0][0])[t] = (double)bf[t];
  }
  for (int l = 0; l < 64; ++l)
    for (int r = 0; r < 4; ++r)
      acc[4 * (l >> 4) + r][l & 15] = (double)c[l][r];
  // Each D[i][j] adds its products to C in k order.
  row_dot_fn row_dot = pick_row_dot();
  for (int i = 0; i < 16; ++i)
    row_dot(am[i], (const double(*)[16])bm, 16, acc[i]);
  for (int l = 0; l < 64; ++l)
    for (int r = 0; r < 4; ++r)
      d[l][r] = (float)acc[4 * (l >> 4) + r][l & 15];
}

typedef struct format_s {
  int bits;  // element width
  int ebits; // exponent bits
  int mbits; // mantissa bits
  int bias;
  int shift; // value = integer q * 2^-shift covers every finite code
  int qbits; // |q| < 2^qbits
} format_t;

static const format_t kFormats[5] = {
    {8, 4, 3, 7, 9, 18},   // E4M3: smallest subnormal 2^-9, 448 = 229376 q
    {8, 5, 2, 15, 16, 32}, // E5M2: 2^-16, 57344 = 1.75 * 2^31 q
    {6, 2, 3, 1, 3, 6},    // E2M3: 2^-3, 7.5 = 60 q
    {6, 3, 2, 3, 4, 9},    // E3M2: 2^-4, 28 = 448 q
    {4, 2, 1, 1, 1, 4},    // E2M1: 2^-1, 6 = 12 q
};

// Per-code decode table of one format.
typedef struct decode_table_s {
  int64_t q[256];
  double qd[256];    // q as a double (exact)
  double v[256];     // the value (Inf/NaN included), for the slow path
  bool special[256]; // Inf or NaN (E4M3 and E5M2 only)
} decode_table_t;

static void build_table(int fmt, decode_table_t *t) {
  const format_t *f = &kFormats[fmt];
  for (uint32_t code = 0; code < (1u << f->bits); ++code) {
    uint32_t sign = (code >> (f->bits - 1)) & 1u;
    uint32_t e = (code >> f->mbits) & ((1u << f->ebits) - 1u);
    uint32_t m = code & ((1u << f->mbits) - 1u);
    t->special[code] = false;
    t->q[code] = 0;
    t->qd[code] = 0.0;
    if (fmt == UQ_SIM_F8F6F4_E4M3 && e == 15u && m == 7u) {
      t->special[code] = true;
      t->v[code] = NAN;
      continue;
    }
    if (fmt == UQ_SIM_F8F6F4_E5M2 && e == 31u) {
      t->special[code] = true;
      t->v[code] = m == 0 ? (sign ? -INFINITY : INFINITY) : NAN;
      continue;
    }
    // value = sig * 2^(max(e,1) - bias - mbits); in units of 2^-shift the
    // exponent max(e,1) - bias - mbits + shift is >= 0 for every format.
    uint64_t sig = e == 0 ? m : ((1u << f->mbits) | m);
    int ex = (e == 0 ? 1 : (int)e) - f->bias - f->mbits + f->shift;
    int64_t q = (int64_t)(sig << ex);
    t->q[code] = sign ? -q : q;
    t->qd[code] = (double)t->q[code];
    t->v[code] = ldexp((double)t->q[code], -f->shift);
  }
}

// One decoded scaled-MFMA operand: 16 rows (A) or columns (B) of 128 K
// values as codes and as integers q (value = q * 2^-shift), the latter both
// as doubles (exact: |q| < 2^32) and as int64, plus a per-(row, block)
// Inf/NaN flag.
typedef struct operand_s {
  uint8_t code[16][128];
  double qd[16][128];
  int64_t q64[16][128];
  bool special[16][4];
} operand_t;

// The K index of element t (0..31) of lane group g (lane >> 4). FP4 and FP6
// operands hold K in [32g, 32g + 32) contiguously; FP8 operands hold
// K in [16g, 16g + 16) in bytes 0-15 and K in [64 + 16g, 80 + 16g) in bytes
// 16-31 (ISA guide, "Dense Matrix Layouts: 8-bit and Smaller"; DESIGN.md).
static int element_k(int bits, int g, int t) {
  if (bits == 8)
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

static void decode_operand(int fmt, const uint32_t x[64][8],
                           const decode_table_t *tbl, bool want_q64,
                           operand_t *op) {
  int bits = kFormats[fmt].bits;
  for (int l = 0; l < 64; ++l) {
    int row = l & 15, g = l >> 4;
    uint8_t *codes = op->code[row];
    if (bits == 8) {
      for (int t = 0; t < 16; ++t) {
        codes[16 * g + t] = (uint8_t)(x[l][t >> 2] >> (8 * (t & 3)));
        codes[64 + 16 * g + t] = (uint8_t)(x[l][4 + (t >> 2)] >> (8 * (t & 3)));
      }
    } else if (bits == 4) {
      for (int t = 0; t < 32; ++t)
        codes[32 * g + t] = (uint8_t)((x[l][t >> 3] >> (4 * (t & 7))) & 0xFu);
    } else {
      for (int t = 0; t < 32; ++t)
        codes[element_k(bits, g, t)] = (uint8_t)element_code(x[l], bits, t);
    }
  }
  for (int row = 0; row < 16; ++row) {
    for (int blk = 0; blk < 4; ++blk) {
      bool special = false;
      for (int k = 32 * blk; k < 32 * blk + 32; ++k) {
        uint8_t code = op->code[row][k];
        op->qd[row][k] = tbl->qd[code];
        special |= tbl->special[code];
      }
      op->special[row][blk] = special;
    }
    if (want_q64)
      for (int k = 0; k < 128; ++k)
        op->q64[row][k] = tbl->q[op->code[row][k]];
  }
}

// 2^n as a double, for n inside the normal range (exact, no libm call).
static double pow2(int n) {
  uint64_t u = (uint64_t)(n + 1023) << 52;
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

// Exact integer dot product of one 32-wide block for the pairs whose sums
// may need more than 53 bits (an E5M2 operand with E4M3 or E5M2), converted
// to double with one RNE rounding. `width` bounds the bits of the sum.
static double block_dot_wide(const operand_t *a, int i, const operand_t *b,
                             int j, int blk, int width) {
  const int64_t *qa = &a->q64[i][32 * blk];
  const int64_t *qb = &b->q64[j][32 * blk];
  if (width <= 63) {
    int64_t s = 0;
    for (int k = 0; k < 32; ++k)
      s += qa[k] * qb[k];
    return (double)s;
  }
  __int128 s = 0; // E5M2 x E5M2: products up to 2^64
  for (int k = 0; k < 32; ++k)
    s += (__int128)qa[k] * qb[k];
  return (double)s;
}

// A block with an Inf/NaN operand, in plain double arithmetic (IEEE rules
// give the Inf or NaN), in units of 2^-(shift_a + shift_b) like block_dot.
static double block_dot_special(const operand_t *a, const decode_table_t *ta,
                                int i, const operand_t *b,
                                const decode_table_t *tb, int j, int blk,
                                double unscale) {
  double s = 0.0;
  for (int k = 32 * blk; k < 32 * blk + 32; ++k)
    s += ta->v[a->code[i][k]] * tb->v[b->code[j][k]];
  return s * unscale;
}

void uq_sim_mfma_scale_f32_16x16x128_f8f6f4(
    int fmt_a, int fmt_b, const uint32_t a[64][8], const uint32_t b[64][8],
    const float c[64][4], const uint32_t scale_a[64], int opsel_a,
    const uint32_t scale_b[64], int opsel_b, float d[64][4]) {
  // The decoded operands are ~60 KiB together: thread-local storage keeps
  // them off the stack.
  static _Thread_local operand_t opa, opb;
  // Decode tables, built once per thread and format.
  static _Thread_local decode_table_t tables[5];
  static _Thread_local bool built[5];
  float res[64][4];
  if (fmt_a < 0 || fmt_a > 4 || fmt_b < 0 || fmt_b > 4) {
    // Not a format: the executor rejects these; zero operands, D = C.
    memcpy(d, c, sizeof res);
    return;
  }
  for (int f = 0; f < 2; ++f) {
    int fmt = f ? fmt_b : fmt_a;
    if (!built[fmt]) {
      build_table(fmt, &tables[fmt]);
      built[fmt] = true;
    }
  }
  const decode_table_t *ta = &tables[fmt_a], *tb = &tables[fmt_b];
  int shift = kFormats[fmt_a].shift + kFormats[fmt_b].shift;
  // Bits of a block sum in integer units: |q_a| < 2^qbits_a, |q_b| <
  // 2^qbits_b, 32 terms.
  int width = kFormats[fmt_a].qbits + kFormats[fmt_b].qbits + 5;
  decode_operand(fmt_a, a, ta, width > 53, &opa);
  // A kernel often multiplies many A operands by one B (the decode kernel's
  // query): keep the last decoded B, keyed by its registers and the pair of
  // formats (which decides what was decoded).
  static _Thread_local uint32_t last_b[64][8];
  static _Thread_local int last_fa = -1, last_fb = -1;
  static _Thread_local double dots[16][4][16], bt[128][16];
  bool b_cached = last_fa == fmt_a && last_fb == fmt_b &&
                  memcmp(last_b, b, sizeof last_b) == 0;
  if (!b_cached) {
    decode_operand(fmt_b, b, tb, width > 53, &opb);
    // B's columns as rows of K, for the inner product below.
    for (int j = 0; j < 16; ++j)
      for (int k = 0; k < 128; ++k)
        bt[k][j] = opb.qd[j][k];
    memcpy(last_b, b, sizeof last_b);
    last_fa = fmt_a;
    last_fb = fmt_b;
  }

  // dots[i][blk][j]: block blk's dot product of row i and column j, in
  // units of 2^-shift.
  if (width <= 53) {
    // Every partial sum is an integer below 2^53: double arithmetic is
    // exact in any order; the 16 columns run side by side.
    row_dot_fn row_dot = pick_row_dot();
    for (int i = 0; i < 16; ++i) {
      for (int blk = 0; blk < 4; ++blk) {
        memset(dots[i][blk], 0, sizeof dots[i][blk]);
        row_dot(&opa.qd[i][32 * blk], (const double(*)[16])bt[32 * blk], 32,
                dots[i][blk]);
      }
    }
  } else {
    for (int i = 0; i < 16; ++i)
      for (int blk = 0; blk < 4; ++blk)
        for (int j = 0; j < 16; ++j)
          dots[i][blk][j] = block_dot_wide(&opa, i, &opb, j, blk, width);
  }

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

  for (int l = 0; l < 64; ++l) {
    int j = l & 15;
    for (int r = 0; r < 4; ++r) {
      int i = 4 * (l >> 4) + r;
      double acc = 0.0;
      for (int blk = 0; blk < 4; ++blk) {
        double dot = dots[i][blk][j];
        if (opa.special[i][blk] || opb.special[j][blk])
          dot = block_dot_special(&opa, ta, i, &opb, tb, j, blk, pow2(shift));
        // Scale and undo the integer units in one exact power of two:
        // the exponent stays within [-286, 254], normal for a double.
        if (sa[i][blk] == 0xFF || sb[j][blk] == 0xFF)
          dot = NAN;
        else
          dot *= pow2(sa[i][blk] + sb[j][blk] - 254 - shift);
        acc += dot;
      }
      acc += (double)c[l][r];
      res[l][r] = (float)acc;
    }
  }
  memcpy(d, res, sizeof res);
}
