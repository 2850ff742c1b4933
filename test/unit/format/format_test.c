// Tests of the UltraQuant format library: conversions (exhaustive where the
// domain is small), rotation, qperm, the group encoder and the cache writer.
// Oracles are written independently of the library: bit-field decoders,
// brute-force nearest-value searches in float64, the explicit Hadamard matrix
// and the scaled MFMA's K order (docs/design.md, "Scaled MFMA K order").
#include "uq/format.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/format/internal.h"
#include "test/unit/format/rng.h"
#include "test/unit/uq_test.h"

static uint32_t f2u(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return u;
}

static float u2f(uint32_t u) {
  float x;
  memcpy(&x, &u, 4);
  return x;
}

// ---- FP4 ----------------------------------------------------------------

// E2M1 from its bit fields: sign, 2-bit exponent (bias 1), 1-bit mantissa.
static double fp4_oracle(int code) {
  int sign = (code >> 3) & 1, exponent = (code >> 1) & 3, mantissa = code & 1;
  double magnitude = exponent == 0
                         ? 0.5 * mantissa
                         : (1.0 + 0.5 * mantissa) * ldexp(1.0, exponent - 1);
  return sign ? -magnitude : magnitude;
}

static int test_fp4_all_codes(void) {
  for (int code = 0; code < 16; ++code) {
    float v = uq_fp4_to_float((uint8_t)code);
    UQ_EXPECT_EQ_HEX(f2u(v), f2u((float)fp4_oracle(code)));
    // High bits are ignored.
    UQ_EXPECT_EQ_HEX(f2u(uq_fp4_to_float((uint8_t)(code | 0xA0))), f2u(v));
  }
  UQ_EXPECT(signbit(uq_fp4_to_float(8)));
  return 0;
}

// Nearest FP4 level; on a tie the lower level (toward -inf); zero is +0.
static int snap_oracle(double x) {
  int best = -1;
  double best_value = 0, best_dist = INFINITY;
  for (int code = 0; code < 16; ++code) {
    if (code == 8)
      continue; // -0 duplicates +0
    double value = fp4_oracle(code);
    double dist = fabs(x - value);
    if (dist < best_dist || (dist == best_dist && value < best_value)) {
      best = code, best_value = value, best_dist = dist;
    }
  }
  return best;
}

static int test_fp4_snap_hand_cases(void) {
  // Positive ties go toward zero, negative ties away from zero.
  static const struct {
    float x;
    uint8_t code;
  } cases[] = {{0.75f, 1},    {-0.75f, 10},    {0.25f, 0}, {-0.25f, 9},
               {1.25f, 2},    {-1.25f, 11},    {1.75f, 3}, {-1.75f, 12},
               {2.5f, 4},     {-2.5f, 13},     {3.5f, 5},  {-3.5f, 14},
               {5.0f, 6},     {-5.0f, 15},     {6.0f, 7},  {-6.0f, 15},
               {100.0f, 7},   {-1e30f, 15},    {0.0f, 0},  {-0.0f, 0},
               {-0.1f, 0},    {0.1f, 0},       {0.26f, 1}, {-0.26f, 9},
               {INFINITY, 7}, {-INFINITY, 15}, {NAN, 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    uint8_t got = uq_fp4_snap(cases[i].x);
    if (got != cases[i].code)
      UQ_TEST_FAIL_("snap(%g) = %u, want %u", (double)cases[i].x, got,
                    cases[i].code);
  }
  return 0;
}

static int test_fp4_snap_sweep(void) {
  // Every midpoint, its float neighbours, and a dense sweep of [-7, 7].
  static const double mids[] = {-5,   -3.5, -2.5, -1.75, -1.25, -0.75, -0.25,
                                0.25, 0.75, 1.25, 1.75,  2.5,   3.5,   5};
  for (size_t i = 0; i < sizeof mids / sizeof mids[0]; ++i) {
    float m = (float)mids[i];
    float xs[3] = {nextafterf(m, -INFINITY), m, nextafterf(m, INFINITY)};
    for (int j = 0; j < 3; ++j)
      UQ_EXPECT_EQ_INT(uq_fp4_snap(xs[j]), snap_oracle(xs[j]));
  }
  for (int i = -7000000; i <= 7000000; i += 7) {
    float x = (float)i * 1e-6f;
    uint8_t code = uq_fp4_snap(x);
    UQ_EXPECT(code != 8);
    if (code != snap_oracle(x))
      UQ_TEST_FAIL_("snap(%.9g) = %u, oracle %d", (double)x, code,
                    snap_oracle(x));
  }
  return 0;
}

// ---- E4M3 ---------------------------------------------------------------

static double e4m3_oracle(int byte) {
  int sign = byte >> 7, exponent = (byte >> 3) & 15, mantissa = byte & 7;
  if (exponent == 15 && mantissa == 7)
    return NAN;
  double magnitude = exponent == 0
                         ? mantissa / 8.0 * ldexp(1.0, -6)
                         : (1.0 + mantissa / 8.0) * ldexp(1.0, exponent - 7);
  return sign ? -magnitude : magnitude;
}

static int test_e4m3_decode_all_bytes(void) {
  for (int b = 0; b < 256; ++b) {
    float v = uq_e4m3_to_float((uint8_t)b);
    double want = e4m3_oracle(b);
    if (isnan(want)) {
      UQ_EXPECT(isnan(v));
      UQ_EXPECT_EQ_INT(!!signbit(v), b >> 7);
      continue;
    }
    UQ_EXPECT_EQ_HEX(f2u(v), f2u((float)want));
    // Round trip under both rules, -0 included.
    UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(v, UQ_FP8_OVERFLOW_SATURATE), b);
    UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(v, UQ_FP8_OVERFLOW_NAN), b);
  }
  UQ_EXPECT_EQ_HEX(f2u(uq_e4m3_to_float(0x7E)), f2u(448.0f));
  UQ_EXPECT_EQ_HEX(f2u(uq_e4m3_to_float(0x01)), f2u(0x1p-9f));
  return 0;
}

// Nearest finite E4M3 by brute force in float64; ties to the even code
// (even mantissa); past the 464 midpoint the overflow rule.
static int e4m3_encode_oracle(float x, uq_fp8_overflow_t rule) {
  int sign = signbit(x) ? 0x80 : 0;
  if (isnan(x))
    return sign | 0x7F;
  double a = fabs((double)x);
  if (a > 464.0)
    return sign | (rule == UQ_FP8_OVERFLOW_SATURATE ? 0x7E : 0x7F);
  int best = 0;
  double best_dist = INFINITY;
  for (int b = 0; b <= 0x7E; ++b) {
    double dist = fabs(a - e4m3_oracle(b));
    if (dist < best_dist || (dist == best_dist && (b & 1) == 0)) {
      best = b, best_dist = dist;
    }
  }
  return sign | best;
}

static int test_e4m3_encode_between_neighbours(void) {
  const uq_fp8_overflow_t rules[2] = {UQ_FP8_OVERFLOW_SATURATE,
                                      UQ_FP8_OVERFLOW_NAN};
  for (int r = 0; r < 2; ++r) {
    for (int b = 0; b < 0x7E; ++b) {
      // Both signs; the midpoint (exact in float), its neighbours, quarter
      // points.
      float lo = (float)e4m3_oracle(b), hi = (float)e4m3_oracle(b + 1);
      float mid = (lo + hi) * 0.5f;
      float xs[5] = {nextafterf(mid, 0.0f), mid, nextafterf(mid, INFINITY),
                     lo + (hi - lo) * 0.25f, lo + (hi - lo) * 0.75f};
      for (int i = 0; i < 5; ++i) {
        for (int s = 0; s < 2; ++s) {
          float x = s ? -xs[i] : xs[i];
          int got = uq_float_to_e4m3(x, rules[r]);
          int want = e4m3_encode_oracle(x, rules[r]);
          if (got != want)
            UQ_TEST_FAIL_("e4m3(%.9g, rule %d) = 0x%02x, want 0x%02x",
                          (double)x, r, got, want);
        }
      }
      // Hand check of tie-to-even at the midpoint.
      UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(mid, rules[r]), (b & 1) ? b + 1 : b);
    }
  }
  return 0;
}

// Floats from 2^-12 to 512 in order (all binades of E4M3 plus the overflow
// band), next to the E4M3 values: the lower neighbour below a midpoint, the
// upper one above it, the even one on it; past 464 the rule. Every float in
// the binades with the subnormal boundary and rounding into the first
// normals ([2^-10, 2^-8)) and in the top binade with the overflow band
// ([256, 512)); every 61st float elsewhere (the midpoints and their float
// neighbours are all checked by e4m3_encode_between_neighbours). Below
// 2^-12 everything is under half the smallest subnormal: zero, sampled.
static int test_e4m3_encode_every_float(void) {
  float values[127];
  for (int b = 0; b < 127; ++b)
    values[b] = (float)e4m3_oracle(b); // 0 .. 448 ascending, 0x7E = 448
  int b = 0;
  const uint32_t dense[2][2] = {{f2u(0x1p-10f), f2u(0x1p-8f)},
                                {f2u(256.0f), f2u(512.0f)}};
  for (uint32_t u = f2u(0x1p-12f); u < f2u(512.0f);
       u += ((u >= dense[0][0] && u < dense[0][1]) ||
             (u >= dense[1][0] && u < dense[1][1]))
                ? 1
                : 61) {
    float x = u2f(u);
    while (b < 126 && values[b + 1] <= x)
      ++b;
    int want;
    if (x > 464.0f)
      want = -1; // overflow
    else if (b == 126)
      want = 0x7E;
    else {
      float mid = (values[b] + values[b + 1]) * 0.5f; // exact
      want = x < mid ? b : x > mid ? b + 1 : ((b & 1) ? b + 1 : b);
    }
    int sat = uq_float_to_e4m3(x, UQ_FP8_OVERFLOW_SATURATE);
    int nan = uq_float_to_e4m3(x, UQ_FP8_OVERFLOW_NAN);
    if (sat != (want < 0 ? 0x7E : want) || nan != (want < 0 ? 0x7F : want))
      UQ_TEST_FAIL_("e4m3(%.9g): saturate 0x%02x, nan 0x%02x, want %d",
                    (double)x, sat, nan, want);
    // Negatives mirror with the sign bit (checked on every 5th float).
    if (u % 5 == 0) {
      int neg = uq_float_to_e4m3(-x, UQ_FP8_OVERFLOW_NAN);
      if (neg != (0x80 | (want < 0 ? 0x7F : want)))
        UQ_TEST_FAIL_("e4m3(%.9g) = 0x%02x", -(double)x, neg);
    }
  }
  for (uint32_t u = 0; u < f2u(0x1p-12f); u += 997)
    UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(u2f(u), UQ_FP8_OVERFLOW_NAN), 0);
  return 0;
}

static int test_e4m3_overflow_rules(void) {
  const uq_fp8_overflow_t sat = UQ_FP8_OVERFLOW_SATURATE,
                          nan = UQ_FP8_OVERFLOW_NAN;
  // 448 < |x| <= 464 rounds to 448 under both rules.
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(448.0f, nan), 0x7E);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(460.0f, nan), 0x7E);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(464.0f, nan), 0x7E);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(-464.0f, nan), 0xFE);
  float above = nextafterf(464.0f, INFINITY);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(above, nan), 0x7F);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(above, sat), 0x7E);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(-above, nan), 0xFF);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(-above, sat), 0xFE);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(1e30f, sat), 0x7E);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(FLT_MAX, nan), 0x7F);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(INFINITY, sat), 0x7E);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(-INFINITY, sat), 0xFE);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(INFINITY, nan), 0x7F);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(-INFINITY, nan), 0xFF);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(NAN, sat), 0x7F);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(-NAN, sat), 0xFF);
  // Below the smallest subnormal 2^-9: half of it ties to 0 (even), just
  // above goes to 2^-9; 3 * 2^-10 ties between codes 1 and 2 -> 2.
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(0x1p-10f, sat), 0x00);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(nextafterf(0x1p-10f, 1.0f), sat), 0x01);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(3 * 0x1p-10f, sat), 0x02);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(-1e-30f, sat), 0x80);
  UQ_EXPECT_EQ_HEX(uq_float_to_e4m3(FLT_TRUE_MIN, nan), 0x00);
  return 0;
}

static int test_e4m3_encode_random(void) {
  uq_rng_t rng = uq_rng_for(1);
  for (int i = 0; i < 200000; ++i) {
    // Log-uniform magnitudes from 2^-12 to 2^10 so every binade, the
    // subnormals and the overflow band are hit.
    float x = (float)(ldexp(1.0 + uq_rng_uniform(&rng),
                            (int)(uq_rng_next(&rng) % 23) - 12));
    if (uq_rng_next(&rng) & 1)
      x = -x;
    for (int r = 0; r < 2; ++r) {
      int got = uq_float_to_e4m3(x, (uq_fp8_overflow_t)r);
      int want = e4m3_encode_oracle(x, (uq_fp8_overflow_t)r);
      if (got != want)
        UQ_TEST_FAIL_("e4m3(%.9g, rule %d) = 0x%02x, want 0x%02x", (double)x, r,
                      got, want);
    }
  }
  return 0;
}

// ---- bf16 ---------------------------------------------------------------

static int test_bf16_all_patterns(void) {
  for (uint32_t bits = 0; bits < 65536; ++bits) {
    float v = uq_bf16_to_float((uint16_t)bits);
    UQ_EXPECT_EQ_HEX(f2u(v), bits << 16);
    uint16_t back = uq_float_to_bf16(v);
    if (isnan(v)) {
      UQ_EXPECT(isnan(uq_bf16_to_float(back)));
      UQ_EXPECT_EQ_HEX(back & 0x8000, bits & 0x8000);
    } else {
      UQ_EXPECT_EQ_HEX(back, bits);
    }
  }
  return 0;
}

// Nearest bf16 in float64 arithmetic; ties to even; 2^128 stands for inf.
static uint16_t bf16_oracle(float x) {
  uint32_t u = f2u(x);
  uint16_t down = (uint16_t)(u >> 16), up = (uint16_t)(down + 1);
  double dx = fabs((double)x);
  double vd = fabs((double)u2f((uint32_t)down << 16));
  uint32_t up_bits = (uint32_t)up << 16;
  double vu = ((up_bits & 0x7F800000) == 0x7F800000)
                  ? ldexp(1.0, 128)
                  : fabs((double)u2f(up_bits));
  double dd = dx - vd, du = vu - dx;
  if (dd < du)
    return down;
  if (du < dd)
    return up;
  return (down & 1) ? up : down;
}

static int test_bf16_rounding_random(void) {
  uq_rng_t rng = uq_rng_for(2);
  for (int i = 0; i < 1000000; ++i) {
    uint32_t u = (uint32_t)uq_rng_next(&rng);
    if (i & 1)
      u = (u & 0xFFFF0000u) | 0x8000u; // an exact tie
    float x = u2f(u);
    if (isnan(x) || isinf(x))
      continue;
    uint16_t got = uq_float_to_bf16(x), want = bf16_oracle(x);
    if (got != want)
      UQ_TEST_FAIL_("bf16(0x%08x) = 0x%04x, want 0x%04x", u, got, want);
  }
  UQ_EXPECT_EQ_HEX(uq_float_to_bf16(FLT_MAX), 0x7F80);
  UQ_EXPECT_EQ_HEX(uq_float_to_bf16(-FLT_MAX), 0xFF80);
  UQ_EXPECT_EQ_HEX(uq_float_to_bf16(INFINITY), 0x7F80);
  UQ_EXPECT(isnan(uq_bf16_to_float(uq_float_to_bf16(u2f(0x7F800001u)))));
  UQ_EXPECT_EQ_HEX(uq_float_to_bf16(u2f(0xFF800001u)) & 0x8000, 0x8000);
  return 0;
}

// The library's double -> bf16 (used for exact-mode outputs) must round
// once. Oracle: the nearest of the bf16 neighbours of (float)x, distances in
// double (exact: the candidates are within a factor 2 of x), ties to even.
static uint16_t bf16_from_double_oracle(double x) {
  uint16_t mid = (uint16_t)(f2u((float)x) >> 16);
  uint16_t best = mid;
  double best_dist = INFINITY;
  for (int delta = -1; delta <= 1; ++delta) {
    uint16_t c = (uint16_t)(mid + delta);
    float v = uq_bf16_to_float(c);
    if (isnan(v) || (!!signbit(v) != !!signbit(x) && v != 0))
      continue;
    double dist = fabs(x - (double)v);
    if (isinf(v))
      dist = fabs(fabs(x) - 0x1p128);
    if (dist < best_dist || (dist == best_dist && (c & 1) == 0))
      best = c, best_dist = dist;
  }
  return best;
}

static int test_double_to_bf16(void) {
  uq_rng_t rng = uq_rng_for(9);
  for (int i = 0; i < 300000; ++i) {
    double x =
        ldexp(1.0 + uq_rng_uniform(&rng), (int)(uq_rng_next(&rng) % 200) - 100);
    if (i % 3 == 1) {
      // Just above a bf16 midpoint by less than half a float ulp: a float
      // rounding first would land on the midpoint and then round to even.
      uint32_t m = (f2u((float)x) & 0xFFFF0000u) | 0x8000u;
      x = (double)u2f(m) * (1.0 + 0x1p-40);
    } else if (i % 3 == 2) {
      uint32_t m = (f2u((float)x) & 0xFFFF0000u) | 0x8000u;
      x = (double)u2f(m); // an exact tie
    }
    if (uq_rng_next(&rng) & 1)
      x = -x;
    uint16_t got = uq_double_to_bf16_(x), want = bf16_from_double_oracle(x);
    if (got != want)
      UQ_TEST_FAIL_("bf16(%.17g) = 0x%04x, want 0x%04x", x, got, want);
  }
  UQ_EXPECT(isnan(uq_bf16_to_float(uq_double_to_bf16_(NAN))));
  UQ_EXPECT_EQ_HEX(uq_double_to_bf16_(1e300), 0x7F80);
  UQ_EXPECT_EQ_HEX(uq_double_to_bf16_(-0.0), 0x8000);
  return 0;
}

// ---- Scales ---------------------------------------------------------------

static int test_ue8m0_e8m0_all_bytes(void) {
  for (int b = 0; b < 256; ++b) {
    double power = ldexp(1.0, b - 127);
    float host = uq_ue8m0_to_float((uint8_t)b);
    float mfma = uq_e8m0_to_float((uint8_t)b);
    if (b == 0) {
      UQ_EXPECT_EQ_HEX(f2u(host), 0);
      UQ_EXPECT_EQ_HEX(f2u(mfma), f2u((float)power)); // 2^-127, a subnormal
      UQ_EXPECT(mfma > 0.0f);
    } else if (b == 255) {
      UQ_EXPECT(isinf(host) && host > 0);
      UQ_EXPECT(isnan(mfma));
    } else {
      UQ_EXPECT_EQ_HEX(f2u(host), f2u((float)power));
      UQ_EXPECT_EQ_HEX(f2u(mfma), f2u((float)power));
    }
  }
  return 0;
}

// ---- Rotation -------------------------------------------------------------

static const int32_t kHeadDims[5] = {32, 64, 128, 256, 512};

static int log2_int(int n) { return __builtin_ctz((unsigned)n); }

static int test_head_dim_check(void) {
  for (int i = 0; i < 5; ++i) {
    UQ_EXPECT_OK(uq_head_dim_check(kHeadDims[i]));
    UQ_EXPECT(uq_head_dim_supported(kHeadDims[i]));
  }
  UQ_EXPECT(!uq_head_dim_supported(96) && !uq_head_dim_supported(1024) &&
            !uq_head_dim_supported(0));
  UQ_EXPECT_CODE(uq_head_dim_check(0), UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_head_dim_check(-64), UQ_STATUS_INVALID_ARGUMENT);
  // Multiples of 32 vLLM allows but the library does not take (no
  // power-of-two Hadamard, or past every model).
  UQ_EXPECT_CODE(uq_head_dim_check(96), UQ_STATUS_UNIMPLEMENTED);
  UQ_EXPECT_CODE(uq_head_dim_check(1024), UQ_STATUS_UNIMPLEMENTED);
  UQ_EXPECT_CODE(uq_head_dim_check(255), UQ_STATUS_UNIMPLEMENTED);
  // The scale is 1/sqrt(D) correctly rounded to fp32: compare with the
  // neighbours in float64.
  for (int i = 0; i < 5; ++i) {
    double want = 1.0 / sqrt((double)kHeadDims[i]);
    float c = uq_wht_scale(kHeadDims[i]);
    UQ_EXPECT(fabs(c - want) <= fabs(nextafterf(c, 1.0f) - want));
    UQ_EXPECT(fabs(c - want) <= fabs(nextafterf(c, 0.0f) - want));
  }
  UQ_EXPECT_EQ_HEX(f2u(uq_wht_scale(128)), 0x3DB504F3u);
  UQ_EXPECT_EQ_HEX(f2u(uq_wht_scale(96)), 0u);
  float x[UQ_MAX_HEAD_DIM] = {1.0f};
  UQ_EXPECT_CODE(uq_wht(96, x), UQ_STATUS_UNIMPLEMENTED);
  UQ_EXPECT_EQ_HEX(f2u(x[0]), f2u(1.0f)); // untouched on failure
  UQ_EXPECT_CODE(uq_wht(64, NULL), UQ_STATUS_INVALID_ARGUMENT);
  return 0;
}

static int test_wht_matches_matrix(void) {
  uq_rng_t rng = uq_rng_for(3);
  for (int di = 0; di < 5; ++di) {
    const int D = kHeadDims[di], L = log2_int(D);
    const double c = 1.0 / sqrt((double)D);
    for (int trial = 0; trial < 20; ++trial) {
      float x[UQ_MAX_HEAD_DIM], y[UQ_MAX_HEAD_DIM];
      double sum_abs = 0;
      for (int i = 0; i < D; ++i) {
        x[i] = (float)(uq_rng_gauss(&rng) * (trial % 2 ? 1e3 : 1.0));
        sum_abs += fabs(x[i]);
        y[i] = x[i];
      }
      UQ_EXPECT_OK(uq_wht(D, y));
      // Each of the L fp32 butterfly stages adds at most one rounding of
      // relative size 2^-24 to partial sums bounded by sum |x|; the final
      // scale adds one more rounding plus the fp32 constant's own error
      // (both exact for D = 64, 256). Hence |y - Hx| <= (L + 2) * 2^-24 *
      // sum|x| / sqrt(D) (x1.01).
      double tol = 1.01 * (L + 2) * 0x1p-24 * sum_abs * c;
      for (int i = 0; i < D; ++i) {
        double want = 0;
        for (int j = 0; j < D; ++j)
          want += (__builtin_popcount(i & j) & 1 ? -1.0 : 1.0) * x[j];
        UQ_EXPECT_NEAR(y[i], want * c, tol);
      }
      // H H = I: applying it twice gives x back. The first pass's error e
      // (|e_i| <= tol) reaches each element as (H e)_i, at most
      // sqrt(D) * tol; the second pass adds its own (L + 2) * 2^-24 *
      // sum|y| / sqrt(D) with sum|y| <= sqrt(D) ||y||_2 <= sqrt(D) sum|x|.
      UQ_EXPECT_OK(uq_wht(D, y));
      for (int i = 0; i < D; ++i)
        UQ_EXPECT_NEAR(y[i], x[i],
                       sqrt((double)D) * tol +
                           1.01 * (L + 2) * 0x1p-24 * sum_abs);
    }
    // Unit vectors give a column of H exactly (+-scale): the butterfly
    // sums are +-1 exactly.
    const float scale = uq_wht_scale(D);
    for (int j = 0; j < D; j += 37) {
      float e[UQ_MAX_HEAD_DIM] = {0};
      e[j] = 1.0f;
      UQ_EXPECT_OK(uq_wht(D, e));
      for (int i = 0; i < D; ++i)
        UQ_EXPECT_EQ_HEX(f2u(e[i]),
                         f2u(__builtin_popcount(i & j) & 1 ? -scale : scale));
    }
  }
  return 0;
}

// The rotation is orthonormal for every D: the columns of the explicit
// Sylvester matrix scaled by 1/sqrt(D) have unit norm and are pairwise
// orthogonal (float64, exact for these sizes), and the library's rotation
// keeps the L2 norm of random vectors within its rounding.
static int test_wht_orthonormal(void) {
  uq_rng_t rng = uq_rng_for(9);
  for (int di = 0; di < 5; ++di) {
    const int D = kHeadDims[di];
    for (int i = 0; i < D; i += 7) {
      for (int j = 0; j < D; j += 5) {
        double dot = 0;
        for (int k = 0; k < D; ++k)
          dot += (__builtin_popcount(i & k) & 1 ? -1.0 : 1.0) *
                 (__builtin_popcount(j & k) & 1 ? -1.0 : 1.0) / D;
        UQ_EXPECT_NEAR(dot, i == j ? 1.0 : 0.0, 1e-12);
      }
    }
    for (int trial = 0; trial < 50; ++trial) {
      float x[UQ_MAX_HEAD_DIM];
      double before = 0, after = 0;
      for (int i = 0; i < D; ++i) {
        x[i] = (float)uq_rng_gauss(&rng);
        before += (double)x[i] * x[i];
      }
      UQ_EXPECT_OK(uq_wht(D, x));
      for (int i = 0; i < D; ++i)
        after += (double)x[i] * x[i];
      // Relative error per element <= (L + 2) 2^-24 (see above), so the
      // norm moves by no more than that relative amount (x2 squared).
      UQ_EXPECT_NEAR(sqrt(after), sqrt(before),
                     1.01 * (log2_int(D) + 2) * 0x1p-24 * sqrt((double)D) *
                         sqrt(before));
    }
  }
  return 0;
}

// The decode kernel's WHT restated from the seed's lane map: D/32 lanes each
// own 32 consecutive dims; stages 0..4 in-register, then log2(D/32) stages
// as a partner exchange where the lane with the stride bit set computes
// mine * -1 + partner; then the fp32 scale. uq_wht must match it bit for bit
// for every D (the smaller D drop the last cross-lane stages).
static int test_wht_kernel_lane_order(void) {
  uq_rng_t rng = uq_rng_for(8);
  for (int di = 0; di < 5; ++di) {
    const int D = kHeadDims[di], lanes_used = D / 32;
    const float scale = uq_wht_scale(D);
    for (int trial = 0; trial < 200; ++trial) {
      float lanes[16][32], x[UQ_MAX_HEAD_DIM];
      for (int i = 0; i < D; ++i) {
        x[i] = (float)(uq_rng_gauss(&rng) * ldexp(1.0, (int)(i % 13) - 6));
        lanes[i / 32][i % 32] = x[i];
      }
      for (int c = 0; c < lanes_used; ++c) {
        for (int st = 1; st < 32; st <<= 1) {
          float next[32];
          for (int t = 0; t < 32; ++t)
            next[t] = (t & st) ? lanes[c][t - st] - lanes[c][t]
                               : lanes[c][t] + lanes[c][t + st];
          memcpy(lanes[c], next, sizeof next);
        }
      }
      for (int k = 1; k < lanes_used; k <<= 1) {
        float next[16][32];
        for (int c = 0; c < lanes_used; ++c) {
          float sign = (c & k) ? -1.0f : 1.0f;
          for (int t = 0; t < 32; ++t)
            next[c][t] = lanes[c][t] * sign + lanes[c ^ k][t];
        }
        memcpy(lanes, next, sizeof(float) * 32 * (size_t)lanes_used);
      }
      UQ_EXPECT_OK(uq_wht(D, x));
      for (int i = 0; i < D; ++i)
        UQ_EXPECT_EQ_HEX(f2u(x[i]), f2u(lanes[i / 32][i % 32] * scale));
    }
  }
  return 0;
}

static int test_qperm(void) {
  int seen[256] = {0};
  for (unsigned d = 0; d < 256; ++d) {
    unsigned p = uq_qperm_dest(d);
    UQ_EXPECT(p < 256);
    seen[p]++;
    UQ_EXPECT_EQ_INT(uq_qperm_src(p), d);
    UQ_EXPECT_EQ_INT(uq_qperm_dest(uq_qperm_src(d)), d);
    // docs/design.md, "Scaled MFMA K order": within one 128-wide issue,
    // group g's element s sits at 32*(s>>4) + 64*(g%2) + 16*(g/2) + (s&15).
    unsigned issue = d >> 7, g = (d >> 5) & 3, s = d & 31;
    unsigned want =
        issue * 128 + 32 * (s >> 4) + 64 * (g % 2) + 16 * (g / 2) + (s & 15);
    UQ_EXPECT_EQ_INT(p, want);
  }
  for (int p = 0; p < 256; ++p)
    UQ_EXPECT_EQ_INT(seen[p], 1);
  return 0;
}

static int test_query_rotate(void) {
  uq_rng_t rng = uq_rng_for(4);
  for (int di = 0; di < 5; ++di) {
    const int D = kHeadDims[di];
    uint16_t q[UQ_MAX_HEAD_DIM];
    float x[UQ_MAX_HEAD_DIM], got[UQ_MAX_HEAD_DIM];
    for (int i = 0; i < D; ++i) {
      q[i] = uq_float_to_bf16((float)(uq_rng_gauss(&rng) * 1000.0));
      x[i] = uq_bf16_to_float(q[i]);
    }
    UQ_EXPECT_OK(uq_query_rotate(D, q, UQ_FP8_OVERFLOW_NAN, got));
    UQ_EXPECT_OK(uq_wht(D, x));
    int saw_nan = 0;
    for (int i = 0; i < D; ++i) {
      float want = fabsf(x[i]) > 464.0f
                       ? NAN
                       : (float)e4m3_oracle(e4m3_encode_oracle(x[i], 1));
      if (isnan(want)) {
        UQ_EXPECT(isnan(got[i]));
        saw_nan = 1;
      } else {
        UQ_EXPECT_EQ_HEX(f2u(got[i]), f2u(want));
      }
    }
    // The rotation is orthonormal: q_rot has sigma 1000 too, and 64% of its
    // elements pass 464 (P(|z| > 0.464)); none at all is out of reach.
    UQ_EXPECT(saw_nan);
    UQ_EXPECT_OK(uq_query_rotate(D, q, UQ_FP8_OVERFLOW_SATURATE, got));
    for (int i = 0; i < D; ++i) {
      float want = fabsf(x[i]) > 464.0f
                       ? copysignf(448.0f, x[i])
                       : (float)e4m3_oracle(e4m3_encode_oracle(x[i], 1));
      UQ_EXPECT_EQ_HEX(f2u(got[i]), f2u(want));
    }
  }
  float out[UQ_MAX_HEAD_DIM];
  uint16_t q[UQ_MAX_HEAD_DIM] = {0};
  UQ_EXPECT_CODE(uq_query_rotate(100, q, UQ_FP8_OVERFLOW_SATURATE, out),
                 UQ_STATUS_UNIMPLEMENTED);
  UQ_EXPECT_CODE(uq_query_rotate(64, NULL, UQ_FP8_OVERFLOW_SATURATE, out),
                 UQ_STATUS_INVALID_ARGUMENT);
  return 0;
}

// ---- Group encoder ----------------------------------------------------------

static int nibble(const uint8_t codes[16], int i) {
  return (i & 1) ? codes[i / 2] >> 4 : codes[i / 2] & 15;
}

static int test_group_encode_hand_cases(void) {
  uint8_t codes[16], scale;
  float x[32];
  // Zero group, +0 and -0: byte 0, all codes +0.
  for (int i = 0; i < 32; ++i)
    x[i] = (i & 1) ? -0.0f : 0.0f;
  uq_group_encode(x, codes, &scale);
  UQ_EXPECT_EQ_INT(scale, 0);
  for (int i = 0; i < 16; ++i)
    UQ_EXPECT_EQ_HEX(codes[i], 0);

  // absmax 6: s = 0.936, log2 = -0.095, +0.5 floor -> exp 0, byte 127;
  // the values land on midpoints directly.
  static const float vals[32] = {
      6,     -6,    0.75f, -0.75f, 0.25f, -0.25f, 5,    -5,
      2.5f,  -2.5f, 1.75f, -1.75f, 1.25f, -1.25f, 3.5f, -3.5f,
      -0.0f, 0.1f,  -0.1f, 4,      0.5f,  -0.5f,  3,    -3,
      1,     -1,    1.5f,  2,      -2,    -1.5f,  0.3f, -0.3f};
  static const int want[32] = {7,  15, 1,  10, 0,  9, 6,  15, 4, 13, 3,
                               12, 2,  11, 5,  14, 0, 0,  0,  6, 1,  9,
                               5,  13, 2,  10, 3,  4, 12, 11, 1, 9};
  uq_group_encode(vals, codes, &scale);
  UQ_EXPECT_EQ_INT(scale, 127);
  for (int i = 0; i < 32; ++i)
    if (nibble(codes, i) != want[i])
      UQ_TEST_FAIL_("element %d (%g): code %d, want %d", i, (double)vals[i],
                    nibble(codes, i), want[i]);

  // absmax 1: s = 0.156, log2 = -2.68, +0.5 -> floor -3, byte 124; 1 / 2^-3
  // = 8 clips to 6 (code 7); 0.3 * 8 = 2.4 -> 2 (code 4); -0.0625*8 = -0.5.
  for (int i = 0; i < 32; ++i)
    x[i] = 0.0f;
  x[0] = 1.0f, x[1] = 0.3f, x[2] = -0.0625f, x[3] = -1.0f;
  uq_group_encode(x, codes, &scale);
  UQ_EXPECT_EQ_INT(scale, 124);
  UQ_EXPECT_EQ_INT(nibble(codes, 0), 7);
  UQ_EXPECT_EQ_INT(nibble(codes, 1), 4);
  UQ_EXPECT_EQ_INT(nibble(codes, 2), 9);
  UQ_EXPECT_EQ_INT(nibble(codes, 3), 15);
  UQ_EXPECT_EQ_INT(nibble(codes, 4), 0);

  // Tiny (subnormal) absmax 1e-40: s = 1.56e-41, log2 = -135.9 -> clamped to
  // -126, byte 1; 1e-40 * 2^126 = 0.0085 snaps to 0.
  for (int i = 0; i < 32; ++i)
    x[i] = (i & 1) ? -1e-40f : 1e-40f;
  uq_group_encode(x, codes, &scale);
  UQ_EXPECT_EQ_INT(scale, 1);
  for (int i = 0; i < 16; ++i)
    UQ_EXPECT_EQ_HEX(codes[i], 0);

  // Smallest subnormal: s = 0.156 * 2^-149 underflows to 0 -> zero group.
  for (int i = 0; i < 32; ++i)
    x[i] = 0.0f;
  x[5] = FLT_TRUE_MIN;
  uq_group_encode(x, codes, &scale);
  UQ_EXPECT_EQ_INT(scale, 0);
  UQ_EXPECT_EQ_INT(nibble(codes, 5), 0);

  // Huge: absmax 3e38, s = 4.68e37, log2 = 125.14 -> exp 125, byte 252;
  // 3e38 / 2^125 = 7.05 -> 6 (code 7); -1e38 / 2^125 = -2.35 -> -2 (12).
  x[0] = 3e38f, x[1] = -1e38f;
  uq_group_encode(x, codes, &scale);
  UQ_EXPECT_EQ_INT(scale, 252);
  UQ_EXPECT_EQ_INT(nibble(codes, 0), 7);
  UQ_EXPECT_EQ_INT(nibble(codes, 1), 12);

  // Non-finite input: the whole group is stored as a zero group.
  const float bad[3] = {NAN, INFINITY, -INFINITY};
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < 32; ++i)
      x[i] = (float)(i + 1);
    x[17] = bad[k];
    memset(codes, 0xEE, sizeof codes);
    scale = 0xEE;
    uq_group_encode(x, codes, &scale);
    UQ_EXPECT_EQ_INT(scale, 0);
    for (int i = 0; i < 16; ++i)
      UQ_EXPECT_EQ_HEX(codes[i], 0);
  }
  return 0;
}

// The encoder's rules restated with a different method: the exponent is the
// k with 2^(k-1/2) <= s < 2^(k+1/2) (exact comparison in float64, not
// log2f), the snap the brute-force nearest level. The encoder's exponent is
// exact, so the two agree everywhere, half-integer boundaries included.
static int test_group_encode_random(void) {
  uq_rng_t rng = uq_rng_for(5);
  for (int trial = 0; trial < 20000; ++trial) {
    float x[32];
    double spread = ldexp(1.0, (int)(uq_rng_next(&rng) % 60) - 30);
    for (int i = 0; i < 32; ++i)
      x[i] = (float)(uq_rng_gauss(&rng) * spread);
    if (trial % 7 == 0)
      x[trial % 32] *= 50.0f; // a heavy tail
    uint8_t codes[16], scale;
    uq_group_encode(x, codes, &scale);
    float absmax = 0;
    for (int i = 0; i < 32; ++i)
      absmax = fabsf(x[i]) > absmax ? fabsf(x[i]) : absmax;
    float s = 0.156f * absmax;
    int k = (int)floor(log2((double)s));
    while ((double)s >= ldexp(1.4142135623730951, k))
      ++k;
    while ((double)s < ldexp(1.4142135623730951, k - 1))
      --k;
    UQ_EXPECT_EQ_INT(scale, k + 127);
    for (int i = 0; i < 32; ++i) {
      int want = snap_oracle((double)x[i] / ldexp(1.0, k));
      if (nibble(codes, i) != want)
        UQ_TEST_FAIL_("trial %d element %d: code %d, want %d", trial, i,
                      nibble(codes, i), want);
    }
    // Decode gives level * 2^k exactly.
    float back[32];
    uq_group_decode(codes, scale, back);
    for (int i = 0; i < 32; ++i)
      UQ_EXPECT_EQ_HEX(f2u(back[i]), f2u((float)(fp4_oracle(nibble(codes, i)) *
                                                 ldexp(1.0, k))));
  }
  return 0;
}

// The exponent at the half-integer boundary itself: s = 0.156f * absmax with
// significand 0x3504F3 (just below sqrt 2: exponent k) and 0x3504F4 (just
// above: k + 1), at binades where fp32 log2f(s) + 0.5f would round onto the
// integer and give k + 1 for both. absmax is searched so the fp32 product
// lands on the wanted s exactly.
static int test_group_encode_exponent_boundary(void) {
  const int binades[] = {-120, -40, -20, -3, 0, 5, 20, 60, 120};
  for (size_t b = 0; b < sizeof(binades) / sizeof(binades[0]); ++b) {
    for (uint32_t mant = 0x3504F2; mant <= 0x3504F5; ++mant) {
      int k = binades[b];
      float want_s = u2f(((uint32_t)(k + 127) << 23) | mant);
      float absmax = want_s / 0.156f;
      for (int step = 0; step < 8 && 0.156f * absmax != want_s; ++step)
        absmax = nextafterf(absmax, 0.156f * absmax < want_s ? INFINITY : 0);
      if (0.156f * absmax != want_s)
        continue; // no fp32 absmax gives this s exactly
      float x[32] = {0};
      x[7] = -absmax;
      uint8_t codes[16], scale;
      uq_group_encode(x, codes, &scale);
      int want = k + (mant >= 0x3504F4);
      if ((int)scale - 127 != want)
        UQ_TEST_FAIL_("s = %a: exponent %d, want %d", (double)want_s,
                      (int)scale - 127, want);
    }
  }
  return 0;
}

static int test_group_decode_zero_byte(void) {
  uint8_t codes[16];
  for (int i = 0; i < 16; ++i)
    codes[i] = 0x77; // garbage codes: byte 0 still means a zero group
  float out[32];
  uq_group_decode(codes, 0, out);
  for (int i = 0; i < 32; ++i)
    UQ_EXPECT_EQ_HEX(f2u(out[i]), 0);
  return 0;
}

// ---- Slots and the cache
// -----------------------------------------------------

// vLLM's slot for head dim D: K codes [0, D/2), K scales [D/2, D/2 + D/32),
// V codes next (D/2 bytes), V scales last (D/32 bytes): D + D/16 bytes.
static int test_slot_geometry(void) {
  static const int want[5][5] = {
      // D, K scales, V codes, V scales, content
      {32, 16, 17, 33, 34},      {64, 32, 34, 66, 68},
      {128, 64, 68, 132, 136},   {256, 128, 136, 264, 272},
      {512, 256, 272, 528, 544},
  };
  for (int i = 0; i < 5; ++i) {
    const int D = want[i][0];
    UQ_EXPECT_EQ_INT(UQ_SLOT_K_CODES_OFFSET(D), 0);
    UQ_EXPECT_EQ_INT(UQ_SLOT_K_SCALES_OFFSET(D), want[i][1]);
    UQ_EXPECT_EQ_INT(UQ_SLOT_V_CODES_OFFSET(D), want[i][2]);
    UQ_EXPECT_EQ_INT(UQ_SLOT_V_SCALES_OFFSET(D), want[i][3]);
    UQ_EXPECT_EQ_INT(UQ_SLOT_CONTENT_BYTES(D), want[i][4]);
    UQ_EXPECT_EQ_INT(UQ_SLOT_NUM_GROUPS(D), D / 32);
  }
  UQ_EXPECT_EQ_INT(UQ_MAX_SLOT_CONTENT_BYTES, UQ_SLOT_CONTENT_BYTES(512));
  UQ_EXPECT_EQ_INT(UQ_SLOT_MIN_STRIDE(32), 36);
  UQ_EXPECT_EQ_INT(UQ_SLOT_MIN_STRIDE(512), 544);
  UQ_EXPECT_EQ_INT(UQ_MAX_NUM_GROUPS, UQ_SLOT_NUM_GROUPS(UQ_MAX_HEAD_DIM));
  return 0;
}

// Hand-computed slots: K = V = the unit spike e_0 (bf16 1.0). The rotated K
// is c = 1/sqrt(D) in every element; s = 0.156 c, exp = floor(log2 s + .5):
// D = 64: c = .125, log2(.0195) = -5.68 -> -6 (byte 121), c * 2^6 = 8 -> 6;
// D = 128: c = .0884, log2(.01379) = -6.18 -> -6 (121), c * 2^6 = 5.66 -> 6;
// D = 256: c = .0625, log2(.00975) = -6.68 -> -7 (120), c * 2^7 = 8 -> 6;
// D = 32: c = .177, log2(.0276) = -5.18 -> -5 (122), c * 2^5 = 5.66 -> 6;
// D = 512: c = .0442, log2(.00689) = -7.18 -> -7 (120), c * 2^7 = 5.66 -> 6.
// So every K code is 7 (bytes 0x77). V group 0: absmax 1, log2(.156) =
// -2.68 -> -3 (byte 124), 1 * 8 -> 6: code 7 in the low nibble of byte 0;
// the other V groups are zero groups (byte 0, codes 0).
static int test_slot_encode_hand_case(void) {
  static const uint8_t k_byte[5] = {122, 121, 121, 120, 120};
  for (int di = 0; di < 5; ++di) {
    const int D = kHeadDims[di];
    uint16_t k[UQ_MAX_HEAD_DIM] = {0}, v[UQ_MAX_HEAD_DIM] = {0};
    k[0] = v[0] = uq_float_to_bf16(1.0f);
    uint8_t slot[UQ_MAX_SLOT_CONTENT_BYTES + 4];
    memset(slot, 0xA5, sizeof slot);
    UQ_EXPECT_OK(uq_slot_encode(D, k, v, slot));
    uint8_t want[UQ_MAX_SLOT_CONTENT_BYTES + 4];
    memset(want, 0xA5, sizeof want);
    memset(want, 0x77, (size_t)D / 2);
    memset(want + D / 2, k_byte[di], (size_t)D / 32);
    memset(want + D / 2 + D / 32, 0, (size_t)D / 2 + D / 32);
    want[D / 2 + D / 32] = 0x07;
    want[D + D / 32] = 124;
    UQ_EXPECT(memcmp(slot, want, sizeof slot) == 0);
  }
  return 0;
}

static int test_slot_layout(void) {
  uq_rng_t rng = uq_rng_for(6);
  for (int di = 0; di < 5; ++di) {
    const int D = kHeadDims[di], G = D / 32;
    const int ks = UQ_SLOT_K_SCALES_OFFSET(D), vc = UQ_SLOT_V_CODES_OFFSET(D),
              vs = UQ_SLOT_V_SCALES_OFFSET(D),
              content = UQ_SLOT_CONTENT_BYTES(D);
    uint16_t k[UQ_MAX_HEAD_DIM], v[UQ_MAX_HEAD_DIM];
    float kf[UQ_MAX_HEAD_DIM], vf[UQ_MAX_HEAD_DIM];
    for (int i = 0; i < D; ++i) {
      k[i] = uq_float_to_bf16((float)uq_rng_gauss(&rng));
      v[i] = uq_float_to_bf16((float)uq_rng_gauss(&rng));
      kf[i] = uq_bf16_to_float(k[i]);
      vf[i] = uq_bf16_to_float(v[i]);
    }
    uint8_t slot[UQ_MAX_SLOT_CONTENT_BYTES + 16];
    memset(slot, 0xA5, sizeof slot);
    UQ_EXPECT_OK(uq_slot_encode(D, k, v, slot));
    for (int i = content; i < (int)sizeof slot; ++i)
      UQ_EXPECT_EQ_HEX(slot[i], 0xA5);
    UQ_EXPECT_OK(uq_wht(D, kf));
    for (int g = 0; g < G; ++g) {
      uint8_t codes[16], scale;
      uq_group_encode(kf + 32 * g, codes, &scale);
      UQ_EXPECT(memcmp(codes, slot + 16 * g, 16) == 0);
      UQ_EXPECT_EQ_HEX(slot[ks + g], scale);
      uq_group_encode(vf + 32 * g, codes, &scale);
      UQ_EXPECT(memcmp(codes, slot + vc + 16 * g, 16) == 0);
      UQ_EXPECT_EQ_HEX(slot[vs + g], scale);
    }
    // Decoding gives K in the rotated basis. Per element, |x - q(x)| is at
    // most half the largest level gap (1 * 2^e) or, past the top level, the
    // clipping: 2^e >= s / sqrt(2) with s = 0.156 absmax, so
    // |x| / 2^e <= sqrt(2) / 0.156 = 9.07 and the error <= 3.07 * 2^e.
    float kr[UQ_MAX_HEAD_DIM], vd[UQ_MAX_HEAD_DIM];
    UQ_EXPECT_OK(uq_slot_decode(D, slot, kr, vd));
    double err_rot = 0;
    for (int i = 0; i < D; ++i) {
      double bound = 3.07 * ldexp(1.0, slot[ks + i / 32] - 127);
      UQ_EXPECT(fabs((double)kr[i] - kf[i]) <= bound);
      err_rot += ((double)kr[i] - kf[i]) * ((double)kr[i] - kf[i]);
      double vbound = 3.07 * ldexp(1.0, slot[vs + i / 32] - 127);
      UQ_EXPECT(fabs((double)vd[i] - vf[i]) <= vbound);
    }
    // Rotating back is orthonormal: the error's L2 norm carries over (up to
    // the fp32 rounding of the butterflies).
    UQ_EXPECT_OK(uq_wht(D, kr));
    double err = 0, norm = 0;
    for (int i = 0; i < D; ++i) {
      double ki = uq_bf16_to_float(k[i]);
      err += (kr[i] - ki) * (kr[i] - ki);
      norm += ki * ki;
    }
    UQ_EXPECT(sqrt(err) <= sqrt(err_rot) * 1.0001 + 1e-5 * sqrt(norm));
  }
  uint16_t k[UQ_MAX_HEAD_DIM] = {0};
  uint8_t slot[UQ_MAX_SLOT_CONTENT_BYTES];
  float out[UQ_MAX_HEAD_DIM];
  UQ_EXPECT_CODE(uq_slot_encode(192, k, k, slot), UQ_STATUS_UNIMPLEMENTED);
  UQ_EXPECT_CODE(uq_slot_encode(64, k, NULL, slot), UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_slot_decode(0, slot, out, out), UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_slot_decode(128, slot, NULL, out),
                 UQ_STATUS_INVALID_ARGUMENT);
  return 0;
}

static int test_layout_validation(void) {
  for (int di = 0; di < 5; ++di) {
    const int D = kHeadDims[di], content = UQ_SLOT_MIN_STRIDE(D);
    uq_cache_layout_t ok = {.num_blocks = 4,
                            .block_size = 16,
                            .num_kv_heads = 2,
                            .padded_slot = content,
                            .head_dim = D};
    size_t bytes = 0;
    UQ_EXPECT_OK(uq_cache_layout_validate(&ok));
    UQ_EXPECT_OK(uq_cache_layout_size(&ok, &bytes));
    UQ_EXPECT_EQ_INT(bytes, 4 * 16 * 2 * content);
    UQ_EXPECT_CODE(uq_cache_layout_validate(NULL), UQ_STATUS_INVALID_ARGUMENT);
    UQ_EXPECT_CODE(uq_cache_layout_size(&ok, NULL), UQ_STATUS_INVALID_ARGUMENT);
    uq_cache_layout_t bad;
    bad = ok, bad.num_blocks = 0;
    UQ_EXPECT_CODE(uq_cache_layout_validate(&bad), UQ_STATUS_INVALID_ARGUMENT);
    bad = ok, bad.num_blocks = -3;
    UQ_EXPECT_CODE(uq_cache_layout_validate(&bad), UQ_STATUS_INVALID_ARGUMENT);
    bad = ok, bad.block_size = 0;
    UQ_EXPECT_CODE(uq_cache_layout_validate(&bad), UQ_STATUS_INVALID_ARGUMENT);
    bad = ok, bad.num_kv_heads = -1;
    UQ_EXPECT_CODE(uq_cache_layout_validate(&bad), UQ_STATUS_INVALID_ARGUMENT);
    bad = ok, bad.padded_slot = content - 4;
    UQ_EXPECT_CODE(uq_cache_layout_validate(&bad), UQ_STATUS_INVALID_ARGUMENT);
    bad = ok, bad.padded_slot = content + 2;
    UQ_EXPECT_CODE(uq_cache_layout_validate(&bad), UQ_STATUS_INVALID_ARGUMENT);
    bad = ok, bad.num_blocks = INT64_MAX / 2;
    UQ_EXPECT_CODE(uq_cache_layout_validate(&bad), UQ_STATUS_OUT_OF_RANGE);
    bad = ok, bad.padded_slot = content + 16;
    UQ_EXPECT_OK(uq_cache_layout_validate(&bad));
    bad = ok, bad.head_dim = 0; // left unset
    UQ_EXPECT_CODE(uq_cache_layout_validate(&bad), UQ_STATUS_INVALID_ARGUMENT);
    bad = ok, bad.head_dim = 96, bad.padded_slot = 288;
    UQ_EXPECT_CODE(uq_cache_layout_validate(&bad), UQ_STATUS_UNIMPLEMENTED);
  }
  return 0;
}

static int cache_write_and_read(int D) {
  uq_rng_t rng = uq_rng_for(7 + (uint64_t)D);
  const int32_t P = UQ_SLOT_MIN_STRIDE(D) + 16; // padded slot
  const uq_cache_layout_t layout = {.num_blocks = 5,
                                    .block_size = 16,
                                    .num_kv_heads = 3,
                                    .padded_slot = P,
                                    .head_dim = D};
  size_t size = 0;
  UQ_EXPECT_OK(uq_cache_layout_size(&layout, &size));
  uint8_t *cache = malloc(size), *before = malloc(size);
  // Key and value as slices of a fused [T, 2 * Hk + 1, D] tensor.
  enum { T = 7, H = 3, W = 2 * H + 1 };
  uint16_t *fused = malloc(sizeof(uint16_t) * T * W * (size_t)D);
  if (!cache || !before || !fused)
    UQ_TEST_FAIL_("out of memory");
  memset(cache, 0xA5, size);
  for (int i = 0; i < T * W * D; ++i)
    fused[i] = uq_float_to_bf16((float)uq_rng_gauss(&rng));
  int64_t slots[T] = {0, 17, -1, 79, 40, 33, 5};
  uq_kv_tokens_t tokens = {fused + D, W * D, D, fused + 4 * D, W * D,
                           D,         slots, T, UQ_DTYPE_BF16};
  UQ_EXPECT_OK(uq_cache_write(&layout, cache, size, &tokens));
  // Every written slot holds uq_slot_encode of its token; every other byte
  // (skipped token, untouched slots, padding) is still 0xA5.
  uint8_t *expect = malloc(size);
  if (!expect)
    UQ_TEST_FAIL_("out of memory");
  memset(expect, 0xA5, size);
  for (int t = 0; t < T; ++t) {
    if (slots[t] < 0)
      continue;
    for (int h = 0; h < H; ++h)
      UQ_EXPECT_OK(uq_slot_encode(D, fused + (t * W + 1 + h) * D,
                                  fused + (t * W + 1 + H + h) * D,
                                  expect + ((size_t)slots[t] * H + h) * P));
  }
  UQ_EXPECT(memcmp(cache, expect, size) == 0);
  // The reader decodes the same slot.
  float k[UQ_MAX_HEAD_DIM], v[UQ_MAX_HEAD_DIM], kw[UQ_MAX_HEAD_DIM],
      vw[UQ_MAX_HEAD_DIM];
  UQ_EXPECT_OK(uq_cache_read_slot(&layout, cache, size, 4, 15, 2, k, v));
  UQ_EXPECT_OK(uq_slot_decode(D, expect + ((size_t)79 * H + 2) * P, kw, vw));
  UQ_EXPECT(memcmp(k, kw, sizeof(float) * (size_t)D) == 0 &&
            memcmp(v, vw, sizeof(float) * (size_t)D) == 0);

  // Errors leave the cache unchanged.
  memcpy(before, cache, size);
  slots[6] = 80; // == num_blocks * block_size
  UQ_EXPECT_CODE(uq_cache_write(&layout, cache, size, &tokens),
                 UQ_STATUS_OUT_OF_RANGE);
  slots[6] = 5;
  UQ_EXPECT_CODE(uq_cache_write(&layout, cache, size - 1, &tokens),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_cache_write(&layout, NULL, size, &tokens),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_cache_write(NULL, cache, size, &tokens),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_cache_write(&layout, cache, size, NULL),
                 UQ_STATUS_INVALID_ARGUMENT);
  uq_kv_tokens_t bad = tokens;
  bad.key = NULL;
  UQ_EXPECT_CODE(uq_cache_write(&layout, cache, size, &bad),
                 UQ_STATUS_INVALID_ARGUMENT);
  bad = tokens, bad.value = NULL;
  UQ_EXPECT_CODE(uq_cache_write(&layout, cache, size, &bad),
                 UQ_STATUS_INVALID_ARGUMENT);
  bad = tokens, bad.slot_mapping = NULL;
  UQ_EXPECT_CODE(uq_cache_write(&layout, cache, size, &bad),
                 UQ_STATUS_INVALID_ARGUMENT);
  bad = tokens, bad.num_tokens = -1;
  UQ_EXPECT_CODE(uq_cache_write(&layout, cache, size, &bad),
                 UQ_STATUS_INVALID_ARGUMENT);
  bad = tokens, bad.key_stride_head = D / 2; // heads overlap
  UQ_EXPECT_CODE(uq_cache_write(&layout, cache, size, &bad),
                 UQ_STATUS_INVALID_ARGUMENT);
  bad = tokens, bad.value_stride_token = D; // tokens overlap heads
  UQ_EXPECT_CODE(uq_cache_write(&layout, cache, size, &bad),
                 UQ_STATUS_INVALID_ARGUMENT);
  bad = tokens, bad.key_stride_token = -D;
  UQ_EXPECT_CODE(uq_cache_write(&layout, cache, size, &bad),
                 UQ_STATUS_INVALID_ARGUMENT);
  bad = tokens, bad.key_stride_token = INT64_MAX / 4;
  UQ_EXPECT_CODE(uq_cache_write(&layout, cache, size, &bad),
                 UQ_STATUS_OUT_OF_RANGE);
  uq_cache_layout_t bad_layout = layout;
  bad_layout.padded_slot = P - 18; // below the content
  UQ_EXPECT_CODE(uq_cache_write(&bad_layout, cache, size, &tokens),
                 UQ_STATUS_INVALID_ARGUMENT);
  bad_layout = layout, bad_layout.head_dim = 80;
  UQ_EXPECT_CODE(uq_cache_write(&bad_layout, cache, size, &tokens),
                 UQ_STATUS_UNIMPLEMENTED);
  UQ_EXPECT(memcmp(cache, before, size) == 0);
  // Zero tokens: nothing to do, NULL arrays allowed.
  uq_kv_tokens_t none = {0};
  UQ_EXPECT_OK(uq_cache_write(&layout, cache, size, &none));

  // Reader errors.
  UQ_EXPECT_CODE(uq_cache_read_slot(&layout, cache, size, 5, 0, 0, k, v),
                 UQ_STATUS_OUT_OF_RANGE);
  UQ_EXPECT_CODE(uq_cache_read_slot(&layout, cache, size, -1, 0, 0, k, v),
                 UQ_STATUS_OUT_OF_RANGE);
  UQ_EXPECT_CODE(uq_cache_read_slot(&layout, cache, size, 0, 16, 0, k, v),
                 UQ_STATUS_OUT_OF_RANGE);
  UQ_EXPECT_CODE(uq_cache_read_slot(&layout, cache, size, 0, 0, 3, k, v),
                 UQ_STATUS_OUT_OF_RANGE);
  UQ_EXPECT_CODE(uq_cache_read_slot(&layout, cache, size, 0, 0, 0, NULL, v),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_cache_read_slot(&layout, cache, 100, 0, 0, 0, k, v),
                 UQ_STATUS_INVALID_ARGUMENT);
  free(cache), free(before), free(fused), free(expect);
  return 0;
}

static int test_cache_write_and_read(void) {
  for (int di = 0; di < 5; ++di)
    if (cache_write_and_read(kHeadDims[di]))
      return 1;
  return 0;
}

static const uq_test_case_t tests[] = {
    {"fp4_all_codes", test_fp4_all_codes},
    {"fp4_snap_hand_cases", test_fp4_snap_hand_cases},
    {"fp4_snap_sweep", test_fp4_snap_sweep},
    {"e4m3_decode_all_bytes", test_e4m3_decode_all_bytes},
    {"e4m3_encode_between_neighbours", test_e4m3_encode_between_neighbours},
    {"e4m3_encode_every_float", test_e4m3_encode_every_float},
    {"e4m3_overflow_rules", test_e4m3_overflow_rules},
    {"e4m3_encode_random", test_e4m3_encode_random},
    {"bf16_all_patterns", test_bf16_all_patterns},
    {"bf16_rounding_random", test_bf16_rounding_random},
    {"double_to_bf16", test_double_to_bf16},
    {"ue8m0_e8m0_all_bytes", test_ue8m0_e8m0_all_bytes},
    {"head_dim_check", test_head_dim_check},
    {"wht_matches_matrix", test_wht_matches_matrix},
    {"wht_orthonormal", test_wht_orthonormal},
    {"wht_kernel_lane_order", test_wht_kernel_lane_order},
    {"qperm", test_qperm},
    {"query_rotate", test_query_rotate},
    {"group_encode_hand_cases", test_group_encode_hand_cases},
    {"group_encode_random", test_group_encode_random},
    {"group_encode_exponent_boundary", test_group_encode_exponent_boundary},
    {"group_decode_zero_byte", test_group_decode_zero_byte},
    {"slot_geometry", test_slot_geometry},
    {"slot_encode_hand_case", test_slot_encode_hand_case},
    {"slot_layout", test_slot_layout},
    {"layout_validation", test_layout_validation},
    {"cache_write_and_read", test_cache_write_and_read},
    {0, 0},
};

int main(int argc, char **argv) {
  uq_test_seed();
  return uq_test_main(argc, argv, tests);
}
