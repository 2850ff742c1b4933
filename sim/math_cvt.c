// gfx950 simulator math: small-float formats, conversions and the
// transcendental VALU ops (v_exp_f32, v_log_f32, v_rcp_f32).
//
// Formats follow the CDNA4 ISA guide, table "Small Float Data Formats":
// E4M3 is OCP e4m3fn (bias 7, no infinities, S.1111.111 is NaN, max 448);
// E5M2 is IEEE-like (bias 15, S.11111.00 infinity, S.11111.{01,10,11} NaN);
// E2M3 (bias 1), E3M2 (bias 3) and E2M1 (bias 1) have no Inf/NaN.
#include "sim/math.h"

#include <math.h>
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

uint16_t uq_sim_f32_to_bf16_rne(float x) {
  uint32_t u = f32_bits(x);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u)
    return (uint16_t)((u >> 16) | 0x0040u); // NaN stays NaN, made quiet
  // Round to nearest even on the 16 dropped bits; a carry into the exponent
  // is the correct rounding up (to the next binade or to infinity).
  uint32_t lsb = (u >> 16) & 1u;
  u += 0x7FFFu + lsb;
  return (uint16_t)(u >> 16);
}

// |x| (finite, non-negative) rounded to E4M3 magnitude bits with round to
// nearest even. Returns 0x7F (one past the largest finite, 448) when the
// rounded value overflows: the overflow test is made after rounding, as for
// IEEE formats, so 464 (the midpoint of 448 and the missing 480) still
// rounds to 448 and anything above it overflows.
static uint32_t e4m3_round_magnitude(double a) {
  if (a >= 464.0)
    return a == 464.0 ? 0x7Eu : 0x7Fu;
  // Grid spacing of the binade that holds a: subnormals (and the lowest
  // binade) step by 2^-9; binade [2^e, 2^(e+1)) steps by 2^(e-3).
  int e;
  if (a < 0x1p-6) {
    e = -6;
  } else {
    (void)frexp(a, &e);
    e -= 1; // a in [2^e, 2^(e+1))
  }
  double q = ldexp(a, 3 - e); // a in units of the grid step
  double r = nearbyint(q);    // RNE under the default rounding mode
  double v = ldexp(r, e - 3);
  if (v == 0.0)
    return 0;
  // Re-encode the rounded value (it may have moved up one binade).
  if (v < 0x1p-6)
    return (uint32_t)ldexp(v, 9); // subnormal: m * 2^-9
  int ve;
  double frac = frexp(v, &ve); // v = frac * 2^ve, frac in [0.5, 1)
  uint32_t m = (uint32_t)ldexp(frac, 4) - 8u;
  uint32_t be = (uint32_t)(ve - 1 + 7);
  return (be << 3) | m;
}

static uint8_t f32_to_e4m3(float x, int fp16_ovfl) {
  uint32_t sign = (f32_bits(x) >> 24) & 0x80u;
  if (isnan(x))
    return (uint8_t)(sign | 0x7Fu);
  if (isinf(x))
    return (uint8_t)(sign | (fp16_ovfl ? 0x7Eu : 0x7Fu));
  uint32_t mag = e4m3_round_magnitude(fabs((double)x));
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

uint32_t uq_sim_cvt_scalef32_pk_bf16_fp4(uint32_t src, float scale,
                                         int byte_sel) {
  // Only the exponent field of the scale is read, as an E8M0 byte: 0x00 is
  // 2^-127 (so +0.0 scales by 2^-127, not by zero) and 0xFF is NaN.
  uint32_t s = (f32_bits(scale) >> 23) & 0xFFu;
  uint32_t byte = (src >> (8 * (byte_sel & 3))) & 0xFFu;
  uint32_t out = 0;
  for (int h = 0; h < 2; ++h) {
    uint32_t code = (byte >> (4 * h)) & 0xFu;
    double v = minifloat_value(code, 2, 1, 1);
    uint16_t bf;
    if (s == 0xFFu)
      bf = (uint16_t)((code & 8u ? 0x8000u : 0) | 0x7FC0u);
    else
      bf = double_to_bf16_rne(ldexp(v, (int)s - 127));
    out |= (uint32_t)bf << (16 * h);
  }
  return out;
}

uint32_t uq_sim_cvt_pk_bf16_f32(float lo, float hi) {
  return (uint32_t)uq_sim_f32_to_bf16_rne(lo) |
         ((uint32_t)uq_sim_f32_to_bf16_rne(hi) << 16);
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
  return flush_denorm((float)exp2((double)x));
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
