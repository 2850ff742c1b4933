// gfx950 simulator math: small-float formats, conversions and the
// transcendental VALU ops (v_exp_f32, v_log_f32, v_rcp_f32).
//
// Formats follow the CDNA4 ISA guide, table "Small Float Data Formats":
// E4M3 is OCP e4m3fn (bias 7, no infinities, S.1111.111 is NaN, max 448);
// E5M2 is IEEE-like (bias 15, S.11111.00 infinity, S.11111.{01,10,11} NaN);
// E2M3 (bias 1), E3M2 (bias 3) and E2M1 (bias 1) have no Inf/NaN.
#include "sim/math.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

static uint32_t f32_bits(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

static float bits_f32(uint32_t u) {
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}

// Value of a sign/exponent/mantissa code without Inf/NaN encodings (the
// caller handles those). Subnormals when the exponent field is 0.
static double minifloat_value(uint32_t code, int ebits, int mbits, int bias) {
  uint32_t sign = (code >> (ebits + mbits)) & 1u;
  uint32_t e = (code >> mbits) & ((1u << ebits) - 1u);
  uint32_t m = code & ((1u << mbits) - 1u);
  double v;
  if (e == 0)
    v = ldexp((double)m, 1 - bias - mbits);
  else
    v = ldexp((double)((1u << mbits) | m), (int)e - bias - mbits);
  return sign ? -v : v;
}

float uq_sim_fp8_e4m3_to_f32(uint8_t code) {
  if ((code & 0x7Fu) == 0x7Fu)
    return (code & 0x80u) ? -NAN : NAN;
  return (float)minifloat_value(code, 4, 3, 7);
}

float uq_sim_fp8_e5m2_to_f32(uint8_t code) {
  if ((code & 0x7Cu) == 0x7Cu) {
    if ((code & 0x03u) == 0)
      return (code & 0x80u) ? -INFINITY : INFINITY;
    return (code & 0x80u) ? -NAN : NAN;
  }
  return (float)minifloat_value(code, 5, 2, 15);
}

float uq_sim_fp4_e2m1_to_f32(uint8_t code) {
  return (float)minifloat_value(code & 0xFu, 2, 1, 1);
}

float uq_sim_bf16_to_f32(uint16_t bits) {
  return bits_f32((uint32_t)bits << 16);
}

// Static so that the wave loops inline it (the public symbol may be
// interposed under -fPIC).
static inline uint16_t f32_to_bf16_rne(float x) {
  uint32_t u = f32_bits(x);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u)
    return (uint16_t)((u >> 16) | 0x0040u); // NaN stays NaN, made quiet
  // Round to nearest even on the 16 dropped bits; a carry into the exponent
  // is the correct rounding up (to the next binade or to infinity).
  uint32_t lsb = (u >> 16) & 1u;
  u += 0x7FFFu + lsb;
  return (uint16_t)(u >> 16);
}

uint16_t uq_sim_f32_to_bf16_rne(float x) { return f32_to_bf16_rne(x); }

// |x| (the f32 bits of a finite non-negative value) rounded to E4M3
// magnitude bits with round to nearest even. Returns 0x7F (one past the
// largest finite, 448) when the rounded value overflows: the overflow test
// is made after rounding, as for IEEE formats, so 464 (the midpoint of 448
// and the missing 480) still rounds to 448 and anything above overflows.
static uint32_t e4m3_round_magnitude(uint32_t a) {
  if (a >= 0x43E80000u) // 464.0f
    return a == 0x43E80000u ? 0x7Eu : 0x7Fu;
  if (a >= 0x3C800000u) { // 2^-6, the smallest E4M3 normal
    // Keep 3 of the 23 mantissa bits, RNE; a carry moves into the exponent
    // field as it should. Then rebias the exponent from 127 to 7.
    uint32_t r = (a + 0x7FFFFu + ((a >> 20) & 1u)) >> 20;
    return r - (120u << 3);
  }
  if (a < 0x00800000u)
    return 0; // f32 denormals are far below E4M3's 2^-10 rounding point
  // E4M3 subnormal: q = value * 2^9 = sig * 2^(E - 14), E <= -7.
  int e = (int)(a >> 23) - 127;
  uint32_t sig = (a & 0x7FFFFFu) | 0x800000u;
  int shift = 14 - e; // >= 21
  if (shift > 25)
    return 0; // value < 2^-11: below half of the smallest subnormal
  uint32_t q = sig >> shift;
  uint32_t rem = sig & ((1u << shift) - 1u), half = 1u << (shift - 1);
  if (rem > half || (rem == half && (q & 1u)))
    ++q; // may reach 8 = the encoding of 2^-6, still correct
  return q;
}

static uint8_t f32_to_e4m3(float x, int fp16_ovfl) {
  uint32_t sign = (f32_bits(x) >> 24) & 0x80u;
  if (isnan(x))
    return (uint8_t)(sign | 0x7Fu);
  if (isinf(x))
    return (uint8_t)(sign | (fp16_ovfl ? 0x7Eu : 0x7Fu));
  uint32_t mag = e4m3_round_magnitude(f32_bits(x) & 0x7FFFFFFFu);
  if (mag == 0x7Fu && fp16_ovfl)
    mag = 0x7Eu;
  return (uint8_t)(sign | mag);
}

uint32_t uq_sim_cvt_pk_fp8_f32(float lo, float hi, uint32_t old, int word_sel,
                               int fp16_ovfl) {
  uint32_t pk = (uint32_t)f32_to_e4m3(lo, fp16_ovfl) |
                ((uint32_t)f32_to_e4m3(hi, fp16_ovfl) << 8);
  if (word_sel)
    return (old & 0x0000FFFFu) | (pk << 16);
  return (old & 0xFFFF0000u) | pk;
}

void uq_sim_cvt_pk_f32_fp8(uint32_t src, int word_sel, float out[2]) {
  uint32_t w = word_sel ? src >> 16 : src & 0xFFFFu;
  out[0] = uq_sim_fp8_e4m3_to_f32((uint8_t)(w & 0xFFu));
  out[1] = uq_sim_fp8_e4m3_to_f32((uint8_t)(w >> 8));
}

// An exact double (a small-float value times a power of two) rounded to
// bf16 with round to nearest even, keeping bf16 subnormals and overflowing
// to infinity.
static uint16_t double_to_bf16_rne(double v) {
  uint16_t sign = signbit(v) ? 0x8000u : 0;
  double a = fabs(v);
  if (isnan(v))
    return (uint16_t)(sign | 0x7FC0u);
  if (a == 0.0)
    return sign;
  int e;
  (void)frexp(a, &e);
  e -= 1; // a in [2^e, 2^(e+1))
  if (e < -126)
    e = -126; // subnormal grid: steps of 2^-133
  double r = nearbyint(ldexp(a, 7 - e));
  double rv = ldexp(r, e - 7);
  if (rv >= 0x1p128)
    return (uint16_t)(sign | 0x7F80u);
  // rv is exactly representable in bf16 (and in f32): take its top bits.
  return (uint16_t)(sign | (f32_bits((float)rv) >> 16));
}

// The bf16 bits of the 16 FP4 E2M1 codes: 0, 0.5, 1, 1.5, 2, 3, 4, 6 and
// their negatives (the levels of docs/design.md, "FP4 E2M1 codes"; the unit
// test checks every code at every scale against an independent decoder).
static const uint16_t kFp4Bf16[16] = {
    0x0000, 0x3F00, 0x3F80, 0x3FC0, 0x4000, 0x4040, 0x4080, 0x40C0,
    0x8000, 0xBF00, 0xBF80, 0xBFC0, 0xC000, 0xC040, 0xC080, 0xC0C0};

// One FP4 code times 2^(s - 127), s in 0..254, for the rare scales whose
// results leave the bf16 normal range: exact value, RNE, inf on overflow.
static uint32_t fp4_bf16_scaled_slow(uint32_t code, uint32_t s)
    __attribute__((noinline));
static uint32_t fp4_bf16_scaled_slow(uint32_t code, uint32_t s) {
  if ((code & 7u) == 0)
    return kFp4Bf16[code];
  return double_to_bf16_rne(
      ldexp(minifloat_value(code, 2, 1, 1), (int)s - 127));
}

static inline uint32_t cvt_fp4_bf16(uint32_t src, uint32_t scale_bits,
                                    int byte_sel) {
  // Only the exponent field of the scale is read, as an E8M0 byte: 0x00 is
  // 2^-127 (so +0.0 scales by 2^-127, not by zero) and 0xFF is NaN.
  uint32_t s = (scale_bits >> 23) & 0xFFu;
  uint32_t byte = (src >> (8 * (byte_sel & 3))) & 0xFFu;
  uint32_t lo = byte & 0xFu, hi = byte >> 4;
  if (s - 2u <= 250u) {
    // Fast path: every nonzero level has a bf16 exponent field in 126..129,
    // so for s in 2..252 adding s - 127 keeps it inside 1..254: add the
    // scale's exponent to the field directly (zeros stay zeros).
    uint32_t d = (s - 127u) << 7; // modulo 2^32: may be "negative"
    uint32_t blo = kFp4Bf16[lo], bhi = kFp4Bf16[hi];
    if (lo & 7u)
      blo = (blo + d) & 0xFFFFu;
    if (hi & 7u)
      bhi = (bhi + d) & 0xFFFFu;
    return blo | (bhi << 16);
  }
  if (s == 0xFFu) // NaN scale: quiet NaNs carrying the codes' signs
    return (0x7FC0u | (lo & 8u ? 0x8000u : 0)) |
           ((0x7FC0u | (hi & 8u ? 0x8000u : 0)) << 16);
  return fp4_bf16_scaled_slow(lo, s) | (fp4_bf16_scaled_slow(hi, s) << 16);
}

uint32_t uq_sim_cvt_scalef32_pk_bf16_fp4(uint32_t src, float scale,
                                         int byte_sel) {
  return cvt_fp4_bf16(src, f32_bits(scale), byte_sel);
}

// kFp4Bf16[code] with the fast path's exponent add, in arithmetic rather
// than a table lookup so that a loop of it vectorizes: for E2M1 code
// (sign, e, m) the bf16 is 0.5 * m at e = 0, else exponent field 126 + e
// with mantissa m.
static inline uint32_t fp4_bf16_fast(uint32_t code, uint32_t s) {
  uint32_t e = (code >> 1) & 3u, m = code & 1u;
  uint32_t mag = e ? ((126u + e) << 7) | (m << 6) : m * (126u << 7);
  uint32_t bits = (code & 8u) << 12 | mag;
  return code & 7u ? (bits + ((s - 127u) << 7)) & 0xFFFFu : bits;
}

// The wave loop's fast path, built portably and (x86-64) for AVX2, picked
// at run time like the MFMA kernels.
static inline __attribute__((always_inline)) void
fp4_bf16_wave_fast(const uint32_t src[64], const uint32_t scale_bits[64],
                   uint32_t sh, uint32_t out[64]) {
  for (int l = 0; l < 64; ++l) {
    uint32_t s = (scale_bits[l] >> 23) & 0xFFu;
    uint32_t byte = (src[l] >> sh) & 0xFFu;
    out[l] = fp4_bf16_fast(byte & 0xFu, s) | fp4_bf16_fast(byte >> 4, s) << 16;
  }
}

static void fp4_bf16_wave_generic(const uint32_t src[64],
                                  const uint32_t scale_bits[64], uint32_t sh,
                                  uint32_t out[64]) {
  fp4_bf16_wave_fast(src, scale_bits, sh, out);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) static void
fp4_bf16_wave_avx2(const uint32_t src[64], const uint32_t scale_bits[64],
                   uint32_t sh, uint32_t out[64]) {
  fp4_bf16_wave_fast(src, scale_bits, sh, out);
}
#endif

void uq_sim_cvt_scalef32_pk_bf16_fp4_wave(const uint32_t src[64],
                                          const uint32_t scale_bits[64],
                                          int byte_sel, uint32_t out[64]) {
  // Every lane on cvt_fp4_bf16's fast path (the usual case): one
  // branch-free loop.
  uint32_t slow = 0;
  for (int l = 0; l < 64; ++l)
    slow |= ((scale_bits[l] >> 23) & 0xFFu) - 2u > 250u;
  if (!slow) {
    uint32_t sh = 8u * (uint32_t)(byte_sel & 3);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (__builtin_cpu_supports("avx2")) {
      fp4_bf16_wave_avx2(src, scale_bits, sh, out);
      return;
    }
#endif
    fp4_bf16_wave_generic(src, scale_bits, sh, out);
    return;
  }
  for (int l = 0; l < 64; ++l)
    out[l] = cvt_fp4_bf16(src[l], scale_bits[l], byte_sel);
}

uint32_t uq_sim_cvt_pk_bf16_f32(float lo, float hi) {
  return (uint32_t)uq_sim_f32_to_bf16_rne(lo) |
         ((uint32_t)uq_sim_f32_to_bf16_rne(hi) << 16);
}

void uq_sim_cvt_pk_bf16_f32_wave(const uint32_t lo[64], const uint32_t hi[64],
                                 uint32_t out[64]) {
  for (int l = 0; l < 64; ++l) {
    float a, b;
    memcpy(&a, &lo[l], 4);
    memcpy(&b, &hi[l], 4);
    out[l] = (uint32_t)f32_to_bf16_rne(a) | (uint32_t)f32_to_bf16_rne(b) << 16;
  }
}

// The transcendental ops. The ISA guide states 1 ULP accuracy and "denormals
// are flushed" for v_exp_f32, v_log_f32 and v_rcp_f32, whatever MODE says
// (LLVM's default MODE keeps f32 denormals, which is why its accurate
// lowerings of exp2/log2/fdiv scale around these instructions). The model:
// a denormal input reads as a zero of the same sign, the result is the
// correctly rounded value (computed in double, rounded once to f32: within
// 0.5 ULP + 2^-29 ULP, so inside the stated 1 ULP), and a result in the
// denormal range is flushed to a zero of the same sign.
static float flush_denorm(float x) {
  if (x != 0.0f && fabsf(x) < 0x1p-126f)
    return copysignf(0.0f, x);
  return x;
}

float uq_sim_exp_f32(float x) {
  x = flush_denorm(x);
  // glibc's exp2f is within 1 ULP (correctly rounded in most cases), as is
  // v_exp_f32; it is several times faster than the double exp2.
  return flush_denorm(exp2f(x));
}

float uq_sim_log_f32(float x) {
  x = flush_denorm(x);
  if (x == 0.0f)
    return -INFINITY; // log(+-0) = -inf, as the ISA's examples show
  if (x < 0.0f)
    return NAN;
  return (float)log2((double)x);
}

float uq_sim_rcp_f32(float x) {
  x = flush_denorm(x);
  return flush_denorm((float)(1.0 / (double)x));
}
