// gfx950 simulator math: v_mfma_f32_16x16x16_bf16,
// v_mfma_f32_32x32x16_bf16 and v_mfma_scale_f32_16x16x128_f8f6f4.
//
// Rounding model (the hardware's internal rounding is not documented bit for
// bit; the ISA guide says only "RNE, denormals kept"):
// - bf16 MFMA: every product is exact in double; D = C + sum over k = 0..15
//   of A[i][k] * B[k][j], accumulated in double starting from C in k order,
//   then rounded once to f32 (round to nearest even). The 32x32x16 form is
//   four 16x16x16 products (one per quadrant of D, each over all 16 K), so
//   every element rounds exactly as in the 16x16x16 form.
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
// - Output layout (the 16x16 forms): lane l holds D[4 * (l >> 4) + r][l & 15]
//   in r; 32x32x16: lane l register r holds
//   D[8 * (r >> 2) + 4 * (l >> 5) + (r & 3)][l & 31].
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

static void row_dot_generic(const double *arow, int as, const double (*bk)[16],
                            int n, double acc[16]) {
  v2du *sp = (v2du *)acc;
  v2d s0 = sp[0], s1 = sp[1], s2 = sp[2], s3 = sp[3], s4 = sp[4], s5 = sp[5],
      s6 = sp[6], s7 = sp[7];
  for (int t = 0; t < n; ++t) {
    v2d av = {arow[t * as], arow[t * as]};
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
__attribute__((target("avx2"))) static void
row_dot_avx2(const double *arow, int as, const double (*bk)[16], int n,
             double acc[16]) {
  v4du *sp = (v4du *)acc;
  v4d s0 = sp[0], s1 = sp[1], s2 = sp[2], s3 = sp[3];
  for (int t = 0; t < n; ++t) {
    double x = arow[t * as];
    v4d av = {x, x, x, x};
    const v4du *b = (const v4du *)bk[t];
    s0 += av * b[0];
    s1 += av * b[1];
    s2 += av * b[2];
    s3 += av * b[3];
  }
  sp[0] = s0, sp[1] = s1, sp[2] = s2, sp[3] = s3;
}

// Two rows at once (eight independent sums: the adds' latency overlaps).
__attribute__((target("avx2"))) static void
row_dot2_avx2(const double *a0, const double *a1, int as,
              const double (*bk)[16], int n, double acc0[16], double acc1[16]) {
  v4du *p0 = (v4du *)acc0, *p1 = (v4du *)acc1;
  v4d s0 = p0[0], s1 = p0[1], s2 = p0[2], s3 = p0[3];
  v4d t0 = p1[0], t1 = p1[1], t2 = p1[2], t3 = p1[3];
  for (int t = 0; t < n; ++t) {
    double xs = a0[t * as], ys = a1[t * as];
    v4d x = {xs, xs, xs, xs};
    v4d y = {ys, ys, ys, ys};
    const v4du *b = (const v4du *)bk[t];
    v4d b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3];
    s0 += x * b0;
    s1 += x * b1;
    s2 += x * b2;
    s3 += x * b3;
    t0 += y * b0;
    t1 += y * b1;
    t2 += y * b2;
    t3 += y * b3;
  }
  p0[0] = s0, p0[1] = s1, p0[2] = s2, p0[3] = s3;
  p1[0] = t0, p1[1] = t1, p1[2] = t2, p1[3] = t3;
}
#endif

// Integer block dot products for the scaled MFMA when every block sum fits
// 31 bits: dots[i][blk][j] = sum over t < 32 of qa[i][32 blk + t] *
// bt[32 blk + t][j], exact (no partial sum can overflow), so equal to the
// exact double sums. One body, built portably and for AVX2.
typedef int32_t v8si __attribute__((vector_size(32)));
typedef int32_t v8siu __attribute__((vector_size(32), aligned(4), may_alias));

static inline __attribute__((always_inline)) void
int_dots_body(const int32_t qa[16][128], const int32_t bt[128][16],
              int32_t dots[16][4][16]) {
  for (int i = 0; i < 16; i += 2) {
    for (int blk = 0; blk < 4; ++blk) {
      v8si s0 = {0}, s1 = {0}, t0 = {0}, t1 = {0};
      for (int k = 32 * blk; k < 32 * blk + 32; ++k) {
        const v8siu *b = (const v8siu *)bt[k];
        v8si b0 = b[0], b1 = b[1];
        int32_t x = qa[i][k], y = qa[i + 1][k];
        v8si xv = {x, x, x, x, x, x, x, x}, yv = {y, y, y, y, y, y, y, y};
        s0 += xv * b0;
        s1 += xv * b1;
        t0 += yv * b0;
        t1 += yv * b1;
      }
      v8siu *d0 = (v8siu *)dots[i][blk], *d1 = (v8siu *)dots[i + 1][blk];
      d0[0] = s0, d0[1] = s1, d1[0] = t0, d1[1] = t1;
    }
  }
}

static void int_dots_generic(const int32_t qa[16][128],
                             const int32_t bt[128][16],
                             int32_t dots[16][4][16]) {
  int_dots_body(qa, bt, dots);
}

#ifdef UQ_SIM_MATH_AVX2
__attribute__((target("avx2"))) static void
int_dots_avx2(const int32_t qa[16][128], const int32_t bt[128][16],
              int32_t dots[16][4][16]) {
  int_dots_body(qa, bt, dots);
}
#endif

// A test switch (uq_sim_math_force_generic), not state the simulator keeps:
// atomic so that setting it while other threads simulate is not a data race.
static _Atomic int g_force_generic;

void uq_sim_math_force_generic(int generic) { g_force_generic = generic; }

typedef void (*row_dot_fn)(const double *, int, const double (*)[16], int,
                           double[16]);

static row_dot_fn pick_row_dot(void) {
#ifdef UQ_SIM_MATH_AVX2
  if (!g_force_generic && __builtin_cpu_supports("avx2"))
    return row_dot_avx2;
#endif
  return row_dot_generic;
}

// The bf16 MFMA on VGPR rows (a[r][lane]): A[i][k] = bf16 k % 4 of lane
// i + 16 * (k / 4) (register (k % 4) / 2, high half when k is odd), B[k][j]
// likewise in lane j + 16 * (k / 4), C and D row r of lane l = element
// [4 * (l >> 4) + r][l & 15]. In this layout B's rows of K, C and D are
// runs of 16 lanes, so the widening loops vectorize. One body, built
// portably and for AVX2; d may alias c (C is read first).
static inline __attribute__((always_inline)) void
bf16_rows_load(const uint32_t *const a[2], const uint32_t *const b[2],
               const uint32_t *const c[4], double at[16][16], double bm[16][16],
               double acc[16][16]) {
  for (int k = 0; k < 16; ++k) {
    const uint32_t *sa = a[(k & 3) >> 1] + 16 * (k >> 2);
    const uint32_t *sb = b[(k & 3) >> 1] + 16 * (k >> 2);
    for (int j = 0; j < 16; ++j) {
      uint32_t x = k & 1 ? sa[j] & 0xFFFF0000u : sa[j] << 16;
      uint32_t y = k & 1 ? sb[j] & 0xFFFF0000u : sb[j] << 16;
      float fx, fy;
      memcpy(&fx, &x, 4);
      memcpy(&fy, &y, 4);
      at[k][j] = (double)fx; // A transposed: at[k][i]
      bm[k][j] = (double)fy;
    }
  }
  for (int g = 0; g < 4; ++g)
    for (int r = 0; r < 4; ++r)
      for (int j = 0; j < 16; ++j) {
        float f;
        memcpy(&f, &c[r][16 * g + j], 4);
        acc[4 * g + r][j] = (double)f;
      }
}

static inline __attribute__((always_inline)) void
bf16_rows_store(const double acc[16][16], uint32_t *const d[4]) {
  for (int g = 0; g < 4; ++g)
    for (int r = 0; r < 4; ++r)
      for (int j = 0; j < 16; ++j) {
        float f = (float)acc[4 * g + r][j];
        memcpy(&d[r][16 * g + j], &f, 4);
      }
}

static void bf16_rows_generic(const uint32_t *const a[2],
                              const uint32_t *const b[2],
                              const uint32_t *const c[4],
                              uint32_t *const d[4]) {
  double at[16][16], bm[16][16], acc[16][16];
  bf16_rows_load(a, b, c, at, bm, acc);
  // Each D[i][j] adds its products to C in k order.
  for (int i = 0; i < 16; ++i)
    row_dot_generic(&at[0][i], 16, (const double(*)[16])bm, 16, acc[i]);
  bf16_rows_store((const double(*)[16])acc, d);
}

#ifdef UQ_SIM_MATH_AVX2
__attribute__((target("avx2"))) static void
bf16_rows_avx2(const uint32_t *const a[2], const uint32_t *const b[2],
               const uint32_t *const c[4], uint32_t *const d[4]) {
  double at[16][16], bm[16][16], acc[16][16];
  bf16_rows_load(a, b, c, at, bm, acc);
  for (int i = 0; i < 16; i += 2)
    row_dot2_avx2(&at[0][i], &at[0][i + 1], 16, (const double(*)[16])bm, 16,
                  acc[i], acc[i + 1]);
  bf16_rows_store((const double(*)[16])acc, d);
}
#endif

void uq_sim_mfma_f32_16x16x16_bf16_rows(const uint32_t *const a[2],
                                        const uint32_t *const b[2],
                                        const uint32_t *const c[4],
                                        uint32_t *const d[4]) {
#ifdef UQ_SIM_MATH_AVX2
  if (!g_force_generic && __builtin_cpu_supports("avx2")) {
    bf16_rows_avx2(a, b, c, d);
    return;
  }
#endif
  bf16_rows_generic(a, b, c, d);
}

void uq_sim_mfma_f32_16x16x16_bf16(const uint32_t a[64][2],
                                   const uint32_t b[64][2],
                                   const float c[64][4], float d[64][4]) {
  // Lane-major operands to VGPR rows, and back.
  uint32_t ar[2][64], br[2][64], cr[4][64], dr[4][64];
  for (int l = 0; l < 64; ++l) {
    for (int i = 0; i < 2; ++i) {
      ar[i][l] = a[l][i];
      br[i][l] = b[l][i];
    }
    for (int r = 0; r < 4; ++r)
      memcpy(&cr[r][l], &c[l][r], 4);
  }
  const uint32_t *const ap[2] = {ar[0], ar[1]}, *const bp[2] = {br[0], br[1]};
  const uint32_t *const cp[4] = {cr[0], cr[1], cr[2], cr[3]};
  uint32_t *const dp[4] = {dr[0], dr[1], dr[2], dr[3]};
  uq_sim_mfma_f32_16x16x16_bf16_rows(ap, bp, cp, dp);
  for (int l = 0; l < 64; ++l)
    for (int r = 0; r < 4; ++r)
      memcpy(&d[l][r], &dr[r][l], 4);
}

// v_mfma_f32_32x32x16_bf16 as four 16x16x16 products, one per 16x16
// quadrant of D (rows 16 qi.., columns 16 qj..), each over all 16 K: the
// rounding is then the 16x16x16 one's element for element. The 32x32
// layout (two lane groups g = l >> 5) holds A[l & 31][8 g + e] in bf16 e
// of lane l (register e / 2, high half when e is odd), B[8 g + e][l & 31]
// likewise; the 16x16 layout holds A[i][4 kg + e] in bf16 e of lane
// i + 16 kg. Both keep the bf16 pair (k even, k + 1) in one register, so
// whole registers move: register r (0, 1) of quadrant lane i + 16 kg is
// register 2 (kg & 1) + r of lane 16 qi + i + 32 (kg >> 1). C and D: lane l
// register r is element [8 (r >> 2) + 4 g + (r & 3)][l & 31].
void uq_sim_mfma_f32_32x32x16_bf16_rows(const uint32_t *const a[4],
                                        const uint32_t *const b[4],
                                        const uint32_t *const c[16],
                                        uint32_t *const d[16]) {
  // Every operand is copied out before d is written: d may alias c.
  uint32_t qa[2][2][64], qb[2][2][64]; // [row / column half][register][lane]
  uint32_t qc[2][2][4][64];            // [qi][qj][register][lane]
  for (int h = 0; h < 2; ++h)
    for (int r = 0; r < 2; ++r)
      for (int l = 0; l < 64; ++l) {
        int kg = l >> 4, reg = 2 * (kg & 1) + r;
        int lane = 16 * h + (l & 15) + 32 * (kg >> 1);
        qa[h][r][l] = a[reg][lane];
        qb[h][r][l] = b[reg][lane];
      }
  for (int qi = 0; qi < 2; ++qi)
    for (int qj = 0; qj < 2; ++qj)
      for (int r = 0; r < 4; ++r)
        for (int l = 0; l < 64; ++l) {
          int i = 16 * qi + 4 * (l >> 4) + r, j = 16 * qj + (l & 15);
          qc[qi][qj][r][l] = c[4 * (i >> 3) + (i & 3)][32 * ((i >> 2) & 1) + j];
        }
  for (int qi = 0; qi < 2; ++qi)
    for (int qj = 0; qj < 2; ++qj) {
      uint32_t(*q)[64] = qc[qi][qj];
      const uint32_t *const ap[2] = {qa[qi][0], qa[qi][1]};
      const uint32_t *const bp[2] = {qb[qj][0], qb[qj][1]};
      const uint32_t *const cp[4] = {q[0], q[1], q[2], q[3]};
      uint32_t *const dp[4] = {q[0], q[1], q[2], q[3]}; // D over C, in place
      uq_sim_mfma_f32_16x16x16_bf16_rows(ap, bp, cp, dp);
    }
  for (int qi = 0; qi < 2; ++qi)
    for (int qj = 0; qj < 2; ++qj)
      for (int r = 0; r < 4; ++r)
        for (int l = 0; l < 64; ++l) {
          int i = 16 * qi + 4 * (l >> 4) + r, j = 16 * qj + (l & 15);
          d[4 * (i >> 3) + (i & 3)][32 * ((i >> 2) & 1) + j] = qc[qi][qj][r][l];
        }
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
  int32_t q32[256];  // q when it fits 31 bits (every format but E5M2)
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
    t->q32[code] = 0;
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
    t->q32[code] = (int32_t)t->q[code];
    t->qd[code] = (double)t->q[code];
    t->v[code] = ldexp((double)t->q[code], -f->shift);
  }
}

// One decoded scaled-MFMA operand: 16 rows (A) or columns (B) of 128 K
// values as codes and as integers q (value = q * 2^-shift), the latter as
// doubles (exact: |q| < 2^32), int32 or int64 (whichever the product
// needs), plus a per-(row, block) Inf/NaN flag.
typedef struct operand_s {
  uint8_t code[16][128];
  double qd[16][128];
  int32_t q32[16][128];
  int64_t q64[16][128];
  bool special[16][4];
} operand_t;

// How block dot products are computed: in int32 when every block sum fits
// 31 bits, in double when it fits 53, else in int64/int128.
enum { DOT_INT32, DOT_DOUBLE, DOT_WIDE };

// The K index of element t (0..31) of lane group g (lane >> 4). FP4 and FP6
// operands hold K in [32g, 32g + 32) contiguously; FP8 operands hold
// K in [16g, 16g + 16) in bytes 0-15 and K in [64 + 16g, 80 + 16g) in bytes
// 16-31 (ISA guide, "Dense Matrix Layouts: 8-bit and Smaller";
// docs/design.md, "Scaled MFMA K order").
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

// `need_codes` false: the caller will not read op->code unless this
// format has Inf/NaN codes (it is then left stale when nothing else needs
// it).
static void decode_operand(int fmt, const uint32_t x[64][8],
                           const decode_table_t *tbl, int dot, bool need_codes,
                           operand_t *op) {
  int bits = kFormats[fmt].bits;
  // Only E4M3 and E5M2 have Inf/NaN codes.
  bool has_special = fmt == UQ_SIM_F8F6F4_E4M3 || fmt == UQ_SIM_F8F6F4_E5M2;
  // FP8 and FP4 codes sit in whole bytes and nibbles: their int32 values
  // are looked up on the way (the other cases in a second pass).
  bool q32_done = dot == DOT_INT32 && (bits == 8 || bits == 4);
  bool store_codes = need_codes || has_special || !q32_done;
  for (int l = 0; l < 64; ++l) {
    int row = l & 15, g = l >> 4;
    uint8_t *codes = op->code[row];
    int32_t *q = op->q32[row];
    if (bits == 8) {
      for (int r = 0; r < 8; ++r) {
        uint32_t v = x[l][r];
        int k0 = (r < 4 ? 16 * g : 64 + 16 * g) + 4 * (r & 3);
        for (int e = 0; e < 4; ++e) {
          uint8_t code = (uint8_t)(v >> (8 * e));
          if (store_codes)
            codes[k0 + e] = code;
          if (q32_done)
            q[k0 + e] = tbl->q32[code];
        }
      }
    } else if (bits == 4) {
      for (int r = 0; r < 4; ++r) {
        uint32_t v = x[l][r];
        int k0 = 32 * g + 8 * r;
        for (int e = 0; e < 8; ++e) {
          uint8_t code = (uint8_t)((v >> (4 * e)) & 0xFu);
          if (store_codes)
            codes[k0 + e] = code;
          if (q32_done)
            q[k0 + e] = tbl->q32[code];
        }
      }
    } else {
      for (int t = 0; t < 32; ++t)
        codes[element_k(bits, g, t)] = (uint8_t)element_code(x[l], bits, t);
    }
  }
  for (int row = 0; row < 16; ++row) {
    for (int blk = 0; blk < 4; ++blk) {
      bool special = false;
      if (has_special)
        for (int k = 32 * blk; k < 32 * blk + 32; ++k)
          special |= tbl->special[op->code[row][k]];
      op->special[row][blk] = special;
    }
    if (dot == DOT_INT32) {
      if (!q32_done)
        for (int k = 0; k < 128; ++k)
          op->q32[row][k] = tbl->q32[op->code[row][k]];
    } else {
      for (int k = 0; k < 128; ++k)
        op->qd[row][k] = tbl->qd[op->code[row][k]];
    }
    if (dot == DOT_WIDE)
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

// One cached B operand: its registers, the formats it was decoded for,
// the decoded operand and its columns as rows of K (int32 or double).
#define UQ_SIM_B_CACHE 4
typedef struct b_entry_s {
  uint32_t regs[64][8];
  int fmt_a, fmt_b;
  bool valid;
  bool any_special; // some column has an Inf/NaN block
  operand_t op;
  double bt[128][16];
  int32_t bt32[128][16];
} b_entry_t;

void uq_sim_mfma_scale_f32_16x16x128_f8f6f4(
    int fmt_a, int fmt_b, const uint32_t a[64][8], const uint32_t b[64][8],
    const float c[64][4], const uint32_t scale_a[64], int opsel_a,
    const uint32_t scale_b[64], int opsel_b, float d[64][4]) {
  // The decoded operands are ~60 KiB together: thread-local storage keeps
  // them off the stack.
  static _Thread_local operand_t opa;
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
  int dot = width <= 31 ? DOT_INT32 : width <= 53 ? DOT_DOUBLE : DOT_WIDE;
  // A kernel often multiplies many A operands by a few Bs (the decode
  // kernel's query, in two register sets it alternates): keep the last
  // decoded Bs, keyed by their registers and the pair of formats (which
  // decides what was decoded), replaced round-robin.
  static _Thread_local b_entry_t bcache[UQ_SIM_B_CACHE];
  static _Thread_local int bnext;
  static _Thread_local double dots[16][4][16];
  static _Thread_local int32_t idots[16][4][16];
  b_entry_t *e = NULL;
  for (int n = 0; n < UQ_SIM_B_CACHE && !e; ++n)
    if (bcache[n].valid && bcache[n].fmt_a == fmt_a &&
        bcache[n].fmt_b == fmt_b &&
        memcmp(bcache[n].regs, b, sizeof bcache[n].regs) == 0)
      e = &bcache[n];
  const operand_t *opbp;
  if (e) {
    opbp = &e->op;
  } else {
    e = &bcache[bnext];
    bnext = (bnext + 1) % UQ_SIM_B_CACHE;
    e->valid = false;
    operand_t *opb = &e->op;
    double(*bt)[16] = e->bt;
    int32_t(*bt32)[16] = e->bt32;
    decode_operand(fmt_b, b, tb, dot, true, opb);
    e->any_special = false;
    for (int j = 0; j < 16; ++j)
      for (int blk = 0; blk < 4; ++blk)
        e->any_special |= opb->special[j][blk];
    // B's columns as rows of K, for the inner product below.
    if (dot == DOT_INT32) {
      for (int j = 0; j < 16; ++j)
        for (int k = 0; k < 128; ++k)
          bt32[k][j] = opb->q32[j][k];
    } else {
      for (int j = 0; j < 16; ++j)
        for (int k = 0; k < 128; ++k)
          bt[k][j] = opb->qd[j][k];
    }
    memcpy(e->regs, b, sizeof e->regs);
    e->fmt_a = fmt_a;
    e->fmt_b = fmt_b;
    e->valid = true;
    opbp = opb;
  }
  const operand_t *const opb = opbp; // read-only from here
  // A's codes are read only by the Inf/NaN path (and its own flags).
  decode_operand(fmt_a, a, ta, dot, e->any_special, &opa);
  const double(*bt)[16] = (const double(*)[16])e->bt;
  const int32_t(*bt32)[16] = (const int32_t(*)[16])e->bt32;

  // dots[i][blk][j]: block blk's dot product of row i and column j, in
  // units of 2^-shift.
  if (dot == DOT_INT32) {
    // Exact integers below 2^31: the same values the double sums give.
#ifdef UQ_SIM_MATH_AVX2
    if (!g_force_generic && __builtin_cpu_supports("avx2"))
      int_dots_avx2((const int32_t(*)[128])opa.q32, bt32, idots);
    else
#endif
      int_dots_generic((const int32_t(*)[128])opa.q32, bt32, idots);
    for (int i = 0; i < 16; ++i)
      for (int blk = 0; blk < 4; ++blk)
        for (int j = 0; j < 16; ++j)
          dots[i][blk][j] = (double)idots[i][blk][j];
  } else if (dot == DOT_DOUBLE) {
    // Every partial sum is an integer below 2^53: double arithmetic is
    // exact in any order; the 16 columns run side by side.
    row_dot_fn row_dot = pick_row_dot();
    for (int i = 0; i < 16; ++i) {
      for (int blk = 0; blk < 4; ++blk) {
        memset(dots[i][blk], 0, sizeof dots[i][blk]);
        row_dot(&opa.qd[i][32 * blk], 1, bt + 32 * blk, 32, dots[i][blk]);
      }
    }
  } else {
    for (int i = 0; i < 16; ++i)
      for (int blk = 0; blk < 4; ++blk)
        for (int j = 0; j < 16; ++j)
          dots[i][blk][j] = block_dot_wide(&opa, i, opb, j, blk, width);
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

  bool plain = true; // no Inf/NaN operand, no NaN scale
  for (int r = 0; r < 16; ++r)
    for (int blk = 0; blk < 4; ++blk)
      plain &= !opa.special[r][blk] && !opb->special[r][blk] &&
               sa[r][blk] != 0xFF && sb[r][blk] != 0xFF;
  if (plain) {
    // The same products as below with the power of two split in two
    // factors, 2^(sa - 127 - shift) and then 2^(sb - 127): each product
    // stays a normal double (|dot| >= 1 or 0, exponents >= -286), so both
    // are exact and the result is identical. The columns vectorize.
    double fa[16][4], fb[4][16];
    for (int r = 0; r < 16; ++r) {
      for (int blk = 0; blk < 4; ++blk) {
        fa[r][blk] = pow2(sa[r][blk] - 127 - shift);
        fb[blk][r] = pow2(sb[r][blk] - 127);
      }
    }
    for (int i = 0; i < 16; ++i) {
      for (int j = 0; j < 16; ++j) {
        double acc = 0.0;
        for (int blk = 0; blk < 4; ++blk)
          acc += dots[i][blk][j] * fa[i][blk] * fb[blk][j];
        int l = 16 * (i >> 2) + j;
        acc += (double)c[l][i & 3];
        res[l][i & 3] = (float)acc;
      }
    }
    memcpy(d, res, sizeof res);
    return;
  }
  for (int l = 0; l < 64; ++l) {
    int j = l & 15;
    for (int r = 0; r < 4; ++r) {
      int i = 4 * (l >> 4) + r;
      double acc = 0.0;
      for (int blk = 0; blk < 4; ++blk) {
        double dot = dots[i][blk][j];
        if (opa.special[i][blk] || opb->special[j][blk])
          dot = block_dot_special(&opa, ta, i, opb, tb, j, blk, pow2(shift));
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
