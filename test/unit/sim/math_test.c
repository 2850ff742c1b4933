// Unit tests of the simulator's math (sim/math.h): MFMA against float64
// matrix products on operands packed by independent helpers, conversions
// against independently written decoders/encoders, the LDS lane maps against
// the ISA guide's documented maps. Random inputs come from a seed printed at
// start (set UQ_TEST_SEED to replay one).
#include "sim/math.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "uq_test.h"

#include "uq/format.h"

// ---- random numbers ---------------------------------------------------------

static uint64_t g_rng;

static uint64_t rng_next(void) {
  // splitmix64
  uint64_t z = (g_rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static uint32_t rng_u32(void) { return (uint32_t)(rng_next() >> 32); }
static uint32_t rng_below(uint32_t n) { return rng_u32() % n; }

static float f32_from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static uint32_t bits_from_f32(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

// ---- independent oracles ----------------------------------------------------

// Small-float value straight from the format definition with pow(): sign,
// exponent field e, mantissa field m; subnormal when e == 0.
static double ref_minifloat(unsigned code, int ebits, int mbits, int bias) {
  unsigned s = (code >> (ebits + mbits)) & 1;
  unsigned e = (code >> mbits) & ((1u << ebits) - 1);
  unsigned m = code & ((1u << mbits) - 1);
  double frac = (double)m / pow(2.0, mbits);
  double v = e == 0 ? pow(2.0, 1 - bias) * frac
                    : pow(2.0, (double)e - bias) * (1.0 + frac);
  return s ? -v : v;
}

// Formats of the scaled MFMA: element bits, exponent bits, mantissa bits,
// bias (ISA guide, "Small Float Data Formats").
static const int kFmtBits[5] = {8, 8, 6, 6, 4};
static const int kFmtE[5] = {4, 5, 2, 3, 2};
static const int kFmtM[5] = {3, 2, 3, 2, 1};
static const int kFmtBias[5] = {7, 15, 1, 3, 1};

static int ref_is_special(int fmt, unsigned code) {
  if (fmt == 0)
    return (code & 0x7F) == 0x7F;
  if (fmt == 1)
    return (code & 0x7C) == 0x7C;
  return 0;
}

static double ref_value(int fmt, unsigned code) {
  if (fmt == 0 && (code & 0x7F) == 0x7F)
    return NAN;
  if (fmt == 1 && (code & 0x7C) == 0x7C) {
    if (code & 3)
      return NAN;
    return (code & 0x80) ? -INFINITY : INFINITY;
  }
  return ref_minifloat(code, kFmtE[fmt], kFmtM[fmt], kFmtBias[fmt]);
}

// FP4 E2M1 levels as docs/design.md, "FP4 E2M1 codes", lists them.
static const double kFp4Levels[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
static double ref_fp4(unsigned code) {
  double v = kFp4Levels[code & 7];
  return (code & 8) ? -v : v;
}

// E4M3 encode by brute force over every finite non-negative code: nearest,
// ties to the even code; the grid is extended by the code 0x7F as if it were
// 480 so that overflow is "rounds past 448". Returns 0xFFFF for overflow.
static unsigned ref_e4m3_mag(double a) {
  if (a >= 480.0)
    return 0xFFFF; // nearer to (or past) the virtual 480 than to 448
  unsigned best = 0;
  double best_err = INFINITY;
  for (unsigned c = 0; c <= 0x7F; ++c) {
    double v = c == 0x7F ? 480.0 : ref_minifloat(c, 4, 3, 7);
    double err = fabs(a - v);
    if (err < best_err || (err == best_err && (c & 1) == 0)) {
      best = c;
      best_err = err;
    }
  }
  return best == 0x7F ? 0xFFFF : best;
}

static unsigned ref_f32_to_e4m3(float x, int fp16_ovfl) {
  unsigned sign = signbit(x) ? 0x80 : 0;
  if (isnan(x))
    return sign | 0x7F;
  unsigned mag = isinf(x) ? 0xFFFF : ref_e4m3_mag(fabs((double)x));
  if (mag == 0xFFFF)
    mag = fp16_ovfl ? 0x7E : 0x7F;
  return sign | mag;
}

// bf16 RNE by comparing the two neighbouring bf16 values in double.
static uint16_t ref_bf16(float x) {
  uint32_t u = bits_from_f32(x);
  if (isnan(x))
    return 0xFFFF; // checked as "is a NaN" by the caller
  uint32_t lo = u & 0xFFFF0000u;
  uint32_t hi = lo + 0x10000u; // next magnitude (may reach inf: still exact)
  double dx = fabs((double)x);
  double dlo = fabs((double)f32_from_bits(lo));
  // Past the largest finite value the upper neighbour is 2^128 (inf).
  double dhi =
      ((hi >> 23) & 0xFF) == 0xFF ? 0x1p128 : fabs((double)f32_from_bits(hi));
  if (isinf(x))
    return (uint16_t)(u >> 16);
  double elo = dx - dlo, ehi = dhi - dx;
  if (elo < ehi || (elo == ehi && ((lo >> 16) & 1) == 0))
    return (uint16_t)(lo >> 16);
  return (uint16_t)(hi >> 16);
}

static int bf16_is_nan(uint16_t b) {
  return (b & 0x7F80) == 0x7F80 && (b & 0x7F);
}

// ---- conversions ------------------------------------------------------------

static int test_fp8_decode_all(void) {
  for (unsigned c = 0; c < 256; ++c) {
    double want = ref_value(0, c);
    float got = uq_sim_fp8_e4m3_to_f32((uint8_t)c);
    if (isnan(want)) {
      UQ_EXPECT(isnan(got));
    } else {
      UQ_EXPECT_EQ_HEX(bits_from_f32(got), bits_from_f32((float)want));
    }
    double want5 = ref_value(1, c);
    float got5 = uq_sim_fp8_e5m2_to_f32((uint8_t)c);
    if (isnan(want5))
      UQ_EXPECT(isnan(got5));
    else
      UQ_EXPECT_EQ_HEX(bits_from_f32(got5), bits_from_f32((float)want5));
    // v_cvt_pk_f32_fp8 on both halves, both word selections.
    uint32_t src = (c << 24) | ((c ^ 0x5Au) << 16) | ((255 - c) << 8) | c;
    for (int w = 0; w < 2; ++w) {
      float out[2];
      uq_sim_cvt_pk_f32_fp8(src, w, out);
      unsigned b0 = (src >> (16 * w)) & 0xFF, b1 = (src >> (16 * w + 8)) & 0xFF;
      double w0 = ref_value(0, b0), w1 = ref_value(0, b1);
      UQ_EXPECT(isnan(w0) ? isnan(out[0]) : out[0] == (float)w0);
      UQ_EXPECT(isnan(w1) ? isnan(out[1]) : out[1] == (float)w1);
      UQ_EXPECT(isnan(w0) || !signbit(out[0]) == !signbit(w0));
    }
  }
  // Named points of the format table: max 448, min normal 2^-6, min
  // subnormal 2^-9, -0.
  UQ_EXPECT(uq_sim_fp8_e4m3_to_f32(0x7E) == 448.0f);
  UQ_EXPECT(uq_sim_fp8_e4m3_to_f32(0x08) == 0x1p-6f);
  UQ_EXPECT(uq_sim_fp8_e4m3_to_f32(0x01) == 0x1p-9f);
  UQ_EXPECT(signbit(uq_sim_fp8_e4m3_to_f32(0x80)));
  UQ_EXPECT(uq_sim_fp8_e5m2_to_f32(0x7B) == 57344.0f);
  for (unsigned c = 0; c < 16; ++c)
    UQ_EXPECT(uq_sim_fp4_e2m1_to_f32((uint8_t)c) == (float)ref_fp4(c));
  return 0;
}

static int check_e4m3_encode(float x) {
  for (int ovfl = 0; ovfl < 2; ++ovfl) {
    unsigned want = ref_f32_to_e4m3(x, ovfl);
    uint32_t got = uq_sim_cvt_pk_fp8_f32(x, 0.0f, 0xA5A5A5A5u, 0, ovfl) & 0xFF;
    if ((want & 0x7F) == 0x7F) {
      // NaN: any NaN code; the sign is not part of the contract.
      if ((got & 0x7F) != 0x7F)
        UQ_TEST_FAIL_("x=%a ovfl=%d: want NaN, got 0x%02x", (double)x, ovfl,
                      got);
    } else if (got != want) {
      UQ_TEST_FAIL_("x=%a (%.9g) ovfl=%d: want 0x%02x, got 0x%02x", (double)x,
                    (double)x, ovfl, want, got);
    }
  }
  return 0;
}

static int test_fp8_encode(void) {
  // Every representable value, every midpoint between neighbours (ties) and
  // the floats just around each, with both signs.
  for (unsigned c = 0; c < 0x7F; ++c) {
    double v = ref_minifloat(c, 4, 3, 7);
    double next = c + 1 == 0x7F ? 480.0 : ref_minifloat(c + 1, 4, 3, 7);
    double mid = (v + next) / 2;
    float pts[] = {(float)v, (float)mid, nextafterf((float)mid, 0.0f),
                   nextafterf((float)mid, INFINITY),
                   nextafterf((float)v, INFINITY)};
    for (size_t p = 0; p < sizeof pts / sizeof pts[0]; ++p) {
      if (check_e4m3_encode(pts[p]) || check_e4m3_encode(-pts[p]))
        return 1;
    }
  }
  float specials[] = {0.0f,      -0.0f,      448.0f,   464.0f,   465.0f,
                      480.0f,    1e6f,       FLT_MAX,  INFINITY, -INFINITY,
                      NAN,       -NAN,       0x1p-10f, 0x1p-11f, 0x1.8p-10f,
                      0x1p-149f, -0x1p-149f, 0x1p-126f};
  for (size_t p = 0; p < sizeof specials / sizeof specials[0]; ++p)
    if (check_e4m3_encode(specials[p]))
      return 1;
  // Named behaviour: 464 is a tie that goes to 448 (even); 465 overflows.
  UQ_EXPECT_EQ_HEX(uq_sim_cvt_pk_fp8_f32(464.0f, -464.0f, 0, 0, 0), 0xFE7Eu);
  UQ_EXPECT_EQ_HEX(uq_sim_cvt_pk_fp8_f32(465.0f, -INFINITY, 0, 0, 1), 0xFE7Eu);
  UQ_EXPECT_EQ_HEX(uq_sim_cvt_pk_fp8_f32(465.0f, 0, 0, 0, 0) & 0x7F, 0x7Fu);
  // Random floats over the whole f32 range and over the E4M3 range.
  for (int n = 0; n < 200000; ++n) {
    float x = (n & 1) ? f32_from_bits(rng_u32())
                      : (float)ldexp((double)rng_u32() / 4294967296.0,
                                     (int)rng_below(24) - 14) *
                            ((n & 2) ? -1.0f : 1.0f);
    if (check_e4m3_encode(x))
      return 1;
  }
  // Packing: lo in the low byte, hi in the next; word_sel picks the half of
  // `old` that is replaced, the other half is kept.
  for (int n = 0; n < 1000; ++n) {
    float lo = (float)((double)(int32_t)rng_u32() / 8388608.0);
    float hi = (float)((double)(int32_t)rng_u32() / 16777216.0);
    uint32_t old = rng_u32();
    int ovfl = n & 1;
    uint32_t pk = ref_f32_to_e4m3(lo, ovfl) | (ref_f32_to_e4m3(hi, ovfl) << 8);
    UQ_EXPECT_EQ_HEX(uq_sim_cvt_pk_fp8_f32(lo, hi, old, 0, ovfl),
                     (old & 0xFFFF0000u) | pk);
    UQ_EXPECT_EQ_HEX(uq_sim_cvt_pk_fp8_f32(lo, hi, old, 1, ovfl),
                     (old & 0xFFFFu) | (pk << 16));
  }
  return 0;
}

static int check_bf16(float x) {
  uint16_t want = ref_bf16(x);
  uint16_t got = uq_sim_f32_to_bf16_rne(x);
  if (isnan(x)) {
    if (!bf16_is_nan(got))
      UQ_TEST_FAIL_("bf16(NaN 0x%08x) = 0x%04x, not a NaN", bits_from_f32(x),
                    got);
    return 0;
  }
  if (got != want)
    UQ_TEST_FAIL_("bf16(%a) = 0x%04x, want 0x%04x", (double)x, got, want);
  return 0;
}

static int test_bf16_rne(void) {
  // Exact ties at every exponent, both parities of the kept lsb, both signs,
  // plus neighbours of the tie.
  for (uint32_t e = 0; e < 255; ++e) {
    for (uint32_t lsb = 0; lsb < 2; ++lsb) {
      uint32_t base = (e << 23) | (rng_u32() & 0x7E0000u) | (lsb << 16);
      uint32_t pts[] = {base | 0x8000u, base | 0x7FFFu, base | 0x8001u, base,
                        base | 0xFFFFu};
      for (size_t p = 0; p < 5; ++p) {
        if (check_bf16(f32_from_bits(pts[p])) ||
            check_bf16(f32_from_bits(pts[p] | 0x80000000u)))
          return 1;
      }
    }
  }
  // Named ties: 1 + 2^-8 is a tie between 1 and 1 + 2^-7 -> 1 (even);
  // 1 + 3*2^-8 -> 1 + 2^-6 (even); max finite rounds up to inf.
  UQ_EXPECT_EQ_HEX(uq_sim_f32_to_bf16_rne(1.0f + 0x1p-8f), 0x3F80u);
  UQ_EXPECT_EQ_HEX(uq_sim_f32_to_bf16_rne(1.0f + 0x3p-8f), 0x3F82u);
  UQ_EXPECT_EQ_HEX(uq_sim_f32_to_bf16_rne(FLT_MAX), 0x7F80u);
  UQ_EXPECT(bf16_is_nan(uq_sim_f32_to_bf16_rne(f32_from_bits(0x7F800001u))));
  for (int n = 0; n < 1000000; ++n)
    if (check_bf16(f32_from_bits(rng_u32())))
      return 1;
  for (int n = 0; n < 1000; ++n) {
    float lo = f32_from_bits(rng_u32()), hi = f32_from_bits(rng_u32());
    uint32_t got = uq_sim_cvt_pk_bf16_f32(lo, hi);
    if (!isnan(lo))
      UQ_EXPECT_EQ_HEX(got & 0xFFFF, ref_bf16(lo));
    if (!isnan(hi))
      UQ_EXPECT_EQ_HEX(got >> 16, ref_bf16(hi));
  }
  for (uint32_t b = 0; b < 0x10000; ++b) {
    float f = uq_sim_bf16_to_f32((uint16_t)b);
    UQ_EXPECT_EQ_HEX(bits_from_f32(f), b << 16);
  }
  return 0;
}

// v_cvt_scalef32_pk_bf16_fp4: every code pair x every scale exponent x every
// byte selection, against fp4 level * 2^(e - 127) (exact in bf16 for every
// finite case: the smallest is 0.5 * 2^-127 = 2^-128, above bf16's 2^-133).
static int test_fp4_bf16_scaled(void) {
  for (uint32_t e = 0; e < 256; ++e) {
    // Only bits 30:23 of the scale count: vary sign and mantissa freely.
    uint32_t sbits = (e << 23) | (rng_u32() & 0x807FFFFFu);
    float scale = f32_from_bits(sbits);
    for (int sel = 0; sel < 4; ++sel) {
      for (uint32_t byte = 0; byte < 256; ++byte) {
        uint32_t src = rng_u32();
        src = (src & ~(0xFFu << (8 * sel))) | (byte << (8 * sel));
        uint32_t got = uq_sim_cvt_scalef32_pk_bf16_fp4(src, scale, sel);
        for (int h = 0; h < 2; ++h) {
          unsigned code = (byte >> (4 * h)) & 0xF;
          uint16_t g = (uint16_t)(got >> (16 * h));
          if (e == 255) {
            UQ_EXPECT(bf16_is_nan(g));
            continue;
          }
          double v = ref_fp4(code) * pow(2.0, (double)e - 127.0);
          uint16_t want;
          if (fabs(v) >= 0x1p128)
            want = v < 0 ? 0xFF80 : 0x7F80;
          else
            want = (uint16_t)(bits_from_f32((float)v) >> 16);
          if (v == 0.0)
            want = (code & 8) ? 0x8000 : 0x0000; // -0 stays -0
          if (g != want)
            UQ_TEST_FAIL_("code %u scale byte %u sel %d: got 0x%04x want "
                          "0x%04x",
                          code, e, sel, g, want);
        }
      }
    }
  }
  // The whole-wave form agrees with the per-lane form lane by lane.
  for (int rep = 0; rep < 200; ++rep) {
    uint32_t src[64], sc[64], out[64];
    int sel = (int)rng_below(4);
    for (int l = 0; l < 64; ++l) {
      src[l] = rng_u32();
      sc[l] = rng_u32();
    }
    uq_sim_cvt_scalef32_pk_bf16_fp4_wave(src, sc, sel, out);
    for (int l = 0; l < 64; ++l)
      UQ_EXPECT_EQ_HEX(out[l], uq_sim_cvt_scalef32_pk_bf16_fp4(
                                   src[l], f32_from_bits(sc[l]), sel));
  }
  // Scale +0.0 reads as E8M0 0x00 = 2^-127, not as zero.
  uint32_t z = uq_sim_cvt_scalef32_pk_bf16_fp4(0x2u, 0.0f, 0); // 1.0, 0
  UQ_EXPECT_EQ_HEX(z & 0xFFFF, bits_from_f32(0x1p-127f) >> 16);
  // Scale 1.0 (0x7F): plain decode.
  UQ_EXPECT_EQ_HEX(uq_sim_cvt_scalef32_pk_bf16_fp4(0xF700u, 1.0f, 1),
                   0xC0C040C0u); // byte 0xF7: lo 7 -> 6.0, hi 15 -> -6.0
  return 0;
}

static double ulp_f32(double x) {
  double a = fabs(x);
  if (a < 0x1p-126)
    return 0x1p-149;
  int e;
  (void)frexp(a, &e);
  return ldexp(1.0, e - 24);
}

static int test_transcendentals(void) {
  // The ISA guide's functional examples.
  UQ_EXPECT_EQ_HEX(bits_from_f32(uq_sim_exp_f32(-INFINITY)), 0x00000000u);
  UQ_EXPECT_EQ_HEX(bits_from_f32(uq_sim_exp_f32(-0.0f)), 0x3F800000u);
  UQ_EXPECT_EQ_HEX(bits_from_f32(uq_sim_exp_f32(INFINITY)), 0x7F800000u);
  UQ_EXPECT(isnan(uq_sim_log_f32(-INFINITY)));
  UQ_EXPECT(isnan(uq_sim_log_f32(-1.0f)));
  UQ_EXPECT_EQ_HEX(bits_from_f32(uq_sim_log_f32(-0.0f)), 0xFF800000u);
  UQ_EXPECT_EQ_HEX(bits_from_f32(uq_sim_log_f32(0.0f)), 0xFF800000u);
  UQ_EXPECT_EQ_HEX(bits_from_f32(uq_sim_log_f32(1.0f)), 0x00000000u);
  UQ_EXPECT_EQ_HEX(bits_from_f32(uq_sim_log_f32(INFINITY)), 0x7F800000u);
  UQ_EXPECT_EQ_HEX(bits_from_f32(uq_sim_rcp_f32(-INFINITY)), 0x80000000u);
  UQ_EXPECT_EQ_HEX(bits_from_f32(uq_sim_rcp_f32(-2.0f)), 0xBF000000u);
  UQ_EXPECT_EQ_HEX(bits_from_f32(uq_sim_rcp_f32(-0.0f)), 0xFF800000u);
  UQ_EXPECT_EQ_HEX(bits_from_f32(uq_sim_rcp_f32(0.0f)), 0x7F800000u);
  UQ_EXPECT_EQ_HEX(bits_from_f32(uq_sim_rcp_f32(INFINITY)), 0x00000000u);
  UQ_EXPECT(isnan(uq_sim_exp_f32(NAN)));
  UQ_EXPECT(isnan(uq_sim_rcp_f32(NAN)));
  UQ_EXPECT(isnan(uq_sim_log_f32(NAN)));
  // Denormals are flushed: inputs read as zero, denormal results are zero.
  UQ_EXPECT(uq_sim_log_f32(0x1p-130f) == -INFINITY);
  UQ_EXPECT(uq_sim_rcp_f32(0x1p-130f) == INFINITY);
  UQ_EXPECT(uq_sim_rcp_f32(-0x1p-140f) == -INFINITY);
  UQ_EXPECT(uq_sim_rcp_f32(0x1p127f) == 0.0f);
  UQ_EXPECT(uq_sim_exp_f32(-130.0f) == 0.0f);
  UQ_EXPECT(uq_sim_exp_f32(-126.0f) == 0x1p-126f);
  UQ_EXPECT(uq_sim_exp_f32(128.0f) == INFINITY);
  // Powers of two are exact.
  for (int k = -126; k < 128; ++k) {
    UQ_EXPECT(uq_sim_exp_f32((float)k) == (float)ldexp(1.0, k));
    UQ_EXPECT(uq_sim_log_f32((float)ldexp(1.0, k)) == (float)k);
  }
  // Within 1 ULP of the double result everywhere else.
  for (int n = 0; n < 200000; ++n) {
    float x = (float)(((double)rng_u32() / 4294967296.0) * 250.0 - 125.0);
    double want = exp2((double)x);
    if (!(fabs(uq_sim_exp_f32(x) - want) <= ulp_f32(want)))
      UQ_TEST_FAIL_("exp2(%a) = %a, want %a", (double)x,
                    (double)uq_sim_exp_f32(x), want);
    float y = f32_from_bits(rng_u32() & 0x7FFFFFFFu);
    if (isnan(y) || isinf(y) || y < 0x1p-126f)
      continue;
    double lw = log2((double)y);
    if (!(fabs(uq_sim_log_f32(y) - lw) <= ulp_f32(lw)))
      UQ_TEST_FAIL_("log2(%a) = %a, want %a", (double)y,
                    (double)uq_sim_log_f32(y), lw);
    if (fabs(y) < 0x1p126f) {
      double rw = 1.0 / (double)y;
      if (!(fabs(uq_sim_rcp_f32(-y) + rw) <= ulp_f32(rw)))
        UQ_TEST_FAIL_("rcp(%a) = %a, want %a", (double)-y,
                      (double)uq_sim_rcp_f32(-y), -rw);
    }
  }
  return 0;
}

// ---- LDS lane maps ----------------------------------------------------------

static int test_swizzle_bitmask_and_quad(void) {
  // Bitmask mode over every offset with bit 15 clear, every lane: the
  // and/or/xor masks act on the lane's index within its 32-lane half.
  for (uint32_t off = 0; off < 0x8000u; ++off) {
    unsigned and_m = off & 31, or_m = (off >> 5) & 31, xor_m = (off >> 10) & 31;
    for (int lane = 0; lane < 64; ++lane) {
      int within = (((lane % 32) & and_m) | or_m) ^ xor_m;
      int want = (lane / 32) * 32 + within;
      int got = uq_sim_ds_swizzle_src_lane(off, lane);
      if (got != want)
        UQ_TEST_FAIL_("offset 0x%04x lane %d: got %d want %d", off, lane, got,
                      want);
    }
  }
  // The guide's named patterns.
  UQ_EXPECT_EQ_INT(uq_sim_ds_swizzle_src_lane(0x401F, 5), 5 ^ 16); // SWAPX16
  UQ_EXPECT_EQ_INT(uq_sim_ds_swizzle_src_lane(0x041F, 37), 36);    // SWAPX1
  UQ_EXPECT_EQ_INT(uq_sim_ds_swizzle_src_lane(0x7C1F, 33), 62);    // REVERSEX32
  UQ_EXPECT_EQ_INT(uq_sim_ds_swizzle_src_lane((7u << 5) | 0x18, 13),
                   15); // BCASTX8
  // Quad-permute mode (bit 15 set, offset < 0xC000): lane 4q + t reads lane
  // 4q + offset[2t+1:2t].
  for (uint32_t off = 0x8000u; off < 0x8100u; ++off) {
    for (int lane = 0; lane < 64; ++lane) {
      int t = lane % 4;
      int want = lane - t + (int)((off >> (2 * t)) & 3);
      UQ_EXPECT_EQ_INT(uq_sim_ds_swizzle_src_lane(off, lane), want);
    }
  }
  // Bits 8..14 do not matter in quad-permute mode.
  UQ_EXPECT_EQ_INT(uq_sim_ds_swizzle_src_lane(0xBF1B, 6), 4 + 1);
  return 0;
}

// The FFT and rotate examples of the CDNA4 ISA guide (DS_SWIZZLE_B32): the
// input {1, 2, ..., 0x20} in lanes 0..31, the listed outputs per lane.
static int check_swizzle_example(uint32_t off, const int *want_vals) {
  for (int half = 0; half < 2; ++half) {
    for (int lane = 0; lane < 32; ++lane) {
      int src = uq_sim_ds_swizzle_src_lane(off, half * 32 + lane);
      if (src != half * 32 + want_vals[lane] - 1)
        UQ_TEST_FAIL_("offset 0x%04x lane %d: source %d, want value 0x%x", off,
                      half * 32 + lane, src, want_vals[lane]);
    }
  }
  return 0;
}

static int test_swizzle_fft_rotate(void) {
  static const int fft00[32] = {0x1, 0x11, 0x9, 0x19, 0x5, 0x15, 0xd,  0x1d,
                                0x3, 0x13, 0xb, 0x1b, 0x7, 0x17, 0xf,  0x1f,
                                0x2, 0x12, 0xa, 0x1a, 0x6, 0x16, 0xe,  0x1e,
                                0x4, 0x14, 0xc, 0x1c, 0x8, 0x18, 0x10, 0x20};
  static const int fft10[32] = {0x1,  0x9,  0x5,  0xd,  0x3,  0xb,  0x7,  0xf,
                                0x2,  0xa,  0x6,  0xe,  0x4,  0xc,  0x8,  0x10,
                                0x11, 0x19, 0x15, 0x1d, 0x13, 0x1b, 0x17, 0x1f,
                                0x12, 0x1a, 0x16, 0x1e, 0x14, 0x1c, 0x18, 0x20};
  int ident[32], rotl1[32], rotr1[32], rotl1m1[32];
  static const int rotr1m1[32] = {
      0x1f, 0x2,  0x1,  0x4,  0x3,  0x6,  0x5,  0x8,  0x7,  0xa,  0x9,
      0xc,  0xb,  0xe,  0xd,  0x10, 0xf,  0x12, 0x11, 0x14, 0x13, 0x16,
      0x15, 0x18, 0x17, 0x1a, 0x19, 0x1c, 0x1b, 0x1e, 0x1d, 0x20};
  static const int rotl1m1_list[32] = {
      0x1,  0x4,  0x3,  0x6,  0x5,  0x8,  0x7,  0xa,  0x9,  0xc,  0xb,
      0xe,  0xd,  0x10, 0xf,  0x12, 0x11, 0x14, 0x13, 0x16, 0x15, 0x18,
      0x17, 0x1a, 0x19, 0x1c, 0x1b, 0x1e, 0x1d, 0x20, 0x1f, 0x2};
  for (int i = 0; i < 32; ++i) {
    ident[i] = i + 1;
    rotl1[i] = (i + 1) % 32 + 1;
    rotr1[i] = (i + 31) % 32 + 1;
    rotl1m1[i] = rotl1m1_list[i];
  }
  if (check_swizzle_example(0xE000u, fft00) ||
      check_swizzle_example(0xE010u, fft10) ||
      check_swizzle_example(0xE01Fu, ident) ||
      check_swizzle_example(0xC000u | (1u << 5), rotl1) ||
      check_swizzle_example(0xC000u | 0x400u | (1u << 5), rotr1) ||
      check_swizzle_example(0xC000u | (1u << 5) | 1u, rotl1m1) ||
      check_swizzle_example(0xC000u | 0x400u | (1u << 5) | 1u, rotr1m1))
    return 1;
  return 0;
}

// ds_read_b64_tr_b16 as the kernel uses it: a 16x16 bf16 tile M (row r,
// column n) in LDS; lane 4i + q of group g reads row 4g + i, columns
// 4q..4q+3 (64 bits); afterwards lane j of group g must hold column j of rows
// 4g..4g+3, element i = M[4g + i][j].
static int test_read_tr_b16(void) {
  for (int rep = 0; rep < 100; ++rep) {
    uint16_t m[16][16];
    for (int r = 0; r < 16; ++r)
      for (int n = 0; n < 16; ++n)
        m[r][n] = (uint16_t)rng_u32();
    uint64_t raw[64], out[64];
    for (int l = 0; l < 64; ++l) {
      int g = l / 16, i = (l % 16) / 4, q = l % 4;
      uint64_t v = 0;
      for (int e = 0; e < 4; ++e)
        v |= (uint64_t)m[4 * g + i][4 * q + e] << (16 * e);
      raw[l] = v;
    }
    uq_sim_ds_read_b64_tr_b16(raw, out);
    for (int l = 0; l < 64; ++l) {
      int g = l / 16, j = l % 16;
      for (int i = 0; i < 4; ++i) {
        uint16_t got = (uint16_t)(out[l] >> (16 * i));
        if (got != m[4 * g + i][j])
          UQ_TEST_FAIL_("lane %d element %d: 0x%04x want 0x%04x", l, i, got,
                        m[4 * g + i][j]);
      }
    }
  }
  return 0;
}

// ---- MFMA -------------------------------------------------------------------

// |got - want| within f32 rounding of want (plus `slack` for the float64
// oracle's own rounding), overflow giving inf of want's sign.
static int close_f32(float got, double want, double slack) {
  if (isnan(want))
    return isnan(got);
  // f32 rounding overflows from FLT_MAX + half an ulp = 2^128 - 2^103 on.
  double limit = 0x1p128 - 0x1p103;
  if (isinf(got))
    return (got > 0) == (want > 0) && fabs(want) >= limit - slack;
  if (fabs(want) > limit + slack)
    return 0;
  return fabs((double)got - want) <= ulp_f32(want) + slack;
}

// Packs A[16][16] and B[16][16] (bf16 bits) as the ISA's general input
// layout says: K_L = 4, A[i][k] is item k % 4 of lane i + 16 * (k / 4),
// B[k][j] is item k % 4 of lane j + 16 * (k / 4); 16-bit items, even items
// in bits 15:0.
static void pack_bf16(const uint16_t mat_a[16][16],
                      const uint16_t mat_b[16][16], uint32_t a[64][2],
                      uint32_t b[64][2]) {
  memset(a, 0, sizeof(uint32_t) * 128);
  memset(b, 0, sizeof(uint32_t) * 128);
  for (int i = 0; i < 16; ++i) {
    for (int k = 0; k < 16; ++k) {
      int lane = i + 16 * (k / 4), item = k % 4;
      a[lane][item / 2] |= (uint32_t)mat_a[i][k] << (16 * (item % 2));
      b[lane][item / 2] |= (uint32_t)mat_b[k][i] << (16 * (item % 2));
    }
  }
}

// Output layout (ISA guide, "Output layout", H = 4, M_I = 4, G = 1): D[i][j]
// is item i % 4 of lane j + 16 * (i / 4).
static void pack_c(const float mat[16][16], float c[64][4]) {
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j)
      c[j + 16 * (i / 4)][i % 4] = mat[i][j];
}

static float random_bf16_value(void) {
  // Finite bf16 values over a moderate exponent range, both signs, some 0.
  if (rng_below(16) == 0)
    return rng_below(2) ? -0.0f : 0.0f;
  uint32_t e = 127 - 20 + rng_below(40);
  uint32_t u = (rng_below(2) << 31) | (e << 23) | ((rng_u32() & 0x7F) << 16);
  return f32_from_bits(u);
}

// C + sum over k < 16 of A[i][k] * B[k][j] in double (row `a` of A, column
// `b` of B with row stride `b_stride`), and the sum of the terms' magnitudes.
static double bf16_dot(float c, const uint16_t *a, const uint16_t *b,
                       int b_stride, double *abs_sum) {
  double sum = c;
  *abs_sum = fabs(sum);
  for (int k = 0; k < 16; ++k) {
    double p = (double)uq_sim_bf16_to_f32(a[k]) *
               (double)uq_sim_bf16_to_f32(b[k * b_stride]);
    sum += p;
    *abs_sum += fabs(p);
  }
  return sum;
}

static int test_mfma_bf16(void) {
  for (int rep = 0; rep < 200; ++rep) {
    uint16_t ma[16][16], mb[16][16];
    float mc[16][16];
    for (int i = 0; i < 16; ++i) {
      for (int k = 0; k < 16; ++k) {
        ma[i][k] = (uint16_t)(bits_from_f32(random_bf16_value()) >> 16);
        mb[i][k] = (uint16_t)(bits_from_f32(random_bf16_value()) >> 16);
        mc[i][k] = (float)((double)(int32_t)rng_u32() / 2147483648.0 * 16.0);
      }
    }
    static uint32_t a[64][2], b[64][2];
    static float c[64][4], d[64][4];
    pack_bf16(ma, mb, a, b);
    pack_c(mc, c);
    uq_sim_mfma_f32_16x16x16_bf16(a, b, c, d);
    for (int i = 0; i < 16; ++i) {
      for (int j = 0; j < 16; ++j) {
        double abs_sum;
        double want = bf16_dot(mc[i][j], ma[i], &mb[0][j], 16, &abs_sum);
        float got = d[j + 16 * (i / 4)][i % 4];
        if (!close_f32(got, want, abs_sum * 0x1p-45))
          UQ_TEST_FAIL_("rep %d D[%d][%d] = %.9g, want %.17g", rep, i, j,
                        (double)got, want);
      }
    }
  }
  // d may alias c (accumulate in place).
  static uint32_t a[64][2], b[64][2];
  static float c[64][4], d[64][4];
  for (int l = 0; l < 64; ++l) {
    a[l][0] = a[l][1] = b[l][0] = b[l][1] = 0x3F803F80u; // all ones
    for (int r = 0; r < 4; ++r)
      c[l][r] = d[l][r] = (float)l;
  }
  uq_sim_mfma_f32_16x16x16_bf16(a, b, c, c);
  for (int l = 0; l < 64; ++l)
    for (int r = 0; r < 4; ++r)
      UQ_EXPECT(c[l][r] == d[l][r] + 16.0f);
  return 0;
}

// v_mfma_f32_32x32x16_bf16 on register rows, packed as the CDNA4 dense
// layout says (two lane groups g = l / 32): A[i][k] is bf16 k % 8 of lane
// i + 32 * (k / 8), B[k][j] likewise in lane j + 32 * (k / 8), even items
// in bits 15:0 of register item / 2; C and D register r of lane l is
// element [8 * (r / 4) + 4 * g + r % 4][l % 32]. Checked against a double
// dot product, and for bit identity against the 16x16x16 form on each
// quadrant (the rounding model says each element rounds as it does there).
static int test_mfma_bf16_32x32(void) {
  static uint32_t a[4][64], b[4][64], c[16][64], d[16][64];
  const uint32_t *const ap[4] = {a[0], a[1], a[2], a[3]};
  const uint32_t *const bp[4] = {b[0], b[1], b[2], b[3]};
  const uint32_t *cp[16];
  uint32_t *dp[16], *cw[16]; // cw: C's rows as a destination (the alias)
  for (int r = 0; r < 16; ++r) {
    cp[r] = c[r];
    dp[r] = d[r];
    cw[r] = c[r];
  }
  for (int rep = 0; rep < 50; ++rep) {
    static uint16_t ma[32][16], mb[16][32];
    static float mc[32][32];
    for (int i = 0; i < 32; ++i) {
      for (int k = 0; k < 16; ++k) {
        ma[i][k] = (uint16_t)(bits_from_f32(random_bf16_value()) >> 16);
        mb[k][i] = (uint16_t)(bits_from_f32(random_bf16_value()) >> 16);
      }
      for (int j = 0; j < 32; ++j)
        mc[i][j] = (float)((double)(int32_t)rng_u32() / 2147483648.0 * 16.0);
    }
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    for (int m = 0; m < 32; ++m) {
      for (int k = 0; k < 16; ++k) {
        int lane = m + 32 * (k / 8), item = k % 8;
        a[item / 2][lane] |= (uint32_t)ma[m][k] << (16 * (item % 2));
        b[item / 2][lane] |= (uint32_t)mb[k][m] << (16 * (item % 2));
      }
    }
    for (int l = 0; l < 64; ++l)
      for (int r = 0; r < 16; ++r)
        c[r][l] = bits_from_f32(mc[8 * (r / 4) + 4 * (l / 32) + r % 4][l % 32]);
    uq_sim_mfma_f32_32x32x16_bf16_rows(ap, bp, cp, dp);
    for (int i = 0; i < 32; ++i) {
      for (int j = 0; j < 32; ++j) {
        double abs_sum;
        double want = bf16_dot(mc[i][j], ma[i], &mb[0][j], 32, &abs_sum);
        float got = f32_from_bits(d[4 * (i / 8) + i % 4][32 * (i / 4 % 2) + j]);
        if (!close_f32(got, want, abs_sum * 0x1p-45))
          UQ_TEST_FAIL_("rep %d D[%d][%d] = %.9g, want %.17g", rep, i, j,
                        (double)got, want);
      }
    }
    // Each quadrant through the 16x16x16 form (operands packed by
    // pack_bf16/pack_c): the same bits.
    for (int qi = 0; qi < 2; ++qi) {
      for (int qj = 0; qj < 2; ++qj) {
        uint16_t qa[16][16], qb[16][16];
        float qc[16][16];
        static uint32_t a16[64][2], b16[64][2];
        static float c16[64][4], d16[64][4];
        for (int i = 0; i < 16; ++i) {
          for (int k = 0; k < 16; ++k) {
            qa[i][k] = ma[16 * qi + i][k];
            qb[k][i] = mb[k][16 * qj + i];
          }
          for (int j = 0; j < 16; ++j)
            qc[i][j] = mc[16 * qi + i][16 * qj + j];
        }
        pack_bf16(qa, qb, a16, b16);
        pack_c(qc, c16);
        uq_sim_mfma_f32_16x16x16_bf16(a16, b16, c16, d16);
        for (int i = 0; i < 16; ++i) {
          for (int j = 0; j < 16; ++j) {
            int gi = 16 * qi + i, gj = 16 * qj + j;
            uint32_t got = d[4 * (gi / 8) + gi % 4][32 * (gi / 4 % 2) + gj];
            uint32_t want = bits_from_f32(d16[j + 16 * (i / 4)][i % 4]);
            if (got != want)
              UQ_TEST_FAIL_("rep %d D[%d][%d] = 0x%08x, 16x16x16 gives 0x%08x",
                            rep, gi, gj, got, want);
          }
        }
      }
    }
  }
  // d may alias c (accumulate in place): all ones give C + 16.
  for (int l = 0; l < 64; ++l) {
    for (int r = 0; r < 4; ++r)
      a[r][l] = b[r][l] = 0x3F803F80u;
    for (int r = 0; r < 16; ++r)
      c[r][l] = bits_from_f32((float)(l + 64 * r));
  }
  uq_sim_mfma_f32_32x32x16_bf16_rows(ap, bp, cp, cw);
  for (int l = 0; l < 64; ++l)
    for (int r = 0; r < 16; ++r)
      UQ_EXPECT(f32_from_bits(c[r][l]) == (float)(l + 64 * r) + 16.0f);
  return 0;
}

// Sets `bits` bits of the 256-bit little-endian register image of one lane,
// starting at bit `pos`, one bit at a time.
static void put_bits(uint32_t regs[8], int pos, int bits, unsigned value) {
  for (int b = 0; b < bits; ++b) {
    int at = pos + b;
    if ((value >> b) & 1)
      regs[at / 32] |= 1u << (at % 32);
  }
}

// Packs a 16 x 128 operand (A rows or B columns) of format `fmt` codes into
// 64 lanes as the hardware-validated map of docs/design.md, "Scaled MFMA K
// order", says: row = lane & 15, lane group g = lane >> 4. FP4 (and FP6, per
// the ISA table): element t of the group is K = 32g + t. FP8: bytes 0-15 are
// K = 16g + t, bytes 16-31 are K = 64 + 16g + (t - 16).
static void pack_f8f6f4(int fmt, const unsigned codes[16][128],
                        uint32_t x[64][8]) {
  memset(x, 0, sizeof(uint32_t) * 64 * 8);
  int bits = kFmtBits[fmt];
  for (int row = 0; row < 16; ++row) {
    for (int k = 0; k < 128; ++k) {
      int g, t;
      if (bits == 8) {
        if (k < 64) {
          g = k / 16;
          t = k % 16;
        } else {
          g = (k - 64) / 16;
          t = 16 + (k - 64) % 16;
        }
      } else {
        g = k / 32;
        t = k % 32;
      }
      put_bits(x[16 * g + row], t * bits, bits, codes[row][k]);
    }
  }
}

// Scale bytes that hit the E8M0 edges often.
static unsigned random_scale_byte(void) {
  switch (rng_below(8)) {
  case 0:
    return 0x00;
  case 1:
    return 0x7F;
  case 2:
    return 0xFE;
  case 3:
    return 0x01;
  case 4:
  case 5:
    return 0x70 + rng_below(32);
  default:
    return rng_below(255); // 0x00..0xFE
  }
}

static unsigned random_code(int fmt, int allow_special) {
  unsigned mask = (1u << kFmtBits[fmt]) - 1;
  for (;;) {
    unsigned code = rng_u32() & mask;
    if (allow_special || !ref_is_special(fmt, code))
      return code;
  }
}

typedef struct scaled_case_s {
  int fmt_a, fmt_b, opsel_a, opsel_b;
  unsigned ca[16][128]; // A[i][k]
  unsigned cb[16][128]; // B[k][j] stored as cb[j][k]
  uint32_t scale_a[64], scale_b[64];
  float mc[16][16];
} scaled_case_t;

static int run_scaled_case(const scaled_case_t *tc, int rep) {
  static uint32_t a[64][8], b[64][8];
  static float c[64][4], d[64][4];
  pack_f8f6f4(tc->fmt_a, tc->ca, a);
  pack_f8f6f4(tc->fmt_b, tc->cb, b);
  pack_c(tc->mc, c);
  uq_sim_mfma_scale_f32_16x16x128_f8f6f4(tc->fmt_a, tc->fmt_b, a, b, c,
                                         tc->scale_a, tc->opsel_a, tc->scale_b,
                                         tc->opsel_b, d);
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) {
      // Float64 product as the ISA defines it: each 32-wide K block's dot
      // product (k order; exact unless an E5M2 operand makes it need more
      // than 53 bits), times 2^(sa-127) * 2^(sb-127) for row i / column j of
      // that block (lane 16 * block + i / + j, byte opsel), then the blocks
      // and C summed with Neumaier compensation so that huge blocks that
      // cancel do not swallow the small ones.
      double terms[5], slack = 0.0, abs_sum = fabs(tc->mc[i][j]);
      terms[4] = tc->mc[i][j];
      for (int blk = 0; blk < 4; ++blk) {
        unsigned sa = (tc->scale_a[16 * blk + i] >> (8 * tc->opsel_a)) & 0xFF;
        unsigned sb = (tc->scale_b[16 * blk + j] >> (8 * tc->opsel_b)) & 0xFF;
        double fa = sa == 0xFF ? NAN : pow(2.0, (double)sa - 127.0);
        double fb = sb == 0xFF ? NAN : pow(2.0, (double)sb - 127.0);
        double dot = 0.0, abs_dot = 0.0;
        for (int k = 32 * blk; k < 32 * blk + 32; ++k) {
          double p = ref_value(tc->fmt_a, tc->ca[i][k]) *
                     ref_value(tc->fmt_b, tc->cb[j][k]);
          dot += p;
          abs_dot += fabs(p);
        }
        terms[blk] = dot * fa * fb;
        abs_sum += fabs(terms[blk]);
        if (isfinite(abs_dot * fa * fb))
          slack += abs_dot * fa * fb * 0x1p-50;
      }
      double want = 0.0, comp = 0.0;
      int finite = 1;
      for (int t = 0; t < 5; ++t)
        finite &= isfinite(terms[t]) != 0;
      for (int t = 0; t < 5; ++t) {
        double sum = want + terms[t];
        if (finite)
          comp += fabs(want) >= fabs(terms[t]) ? (want - sum) + terms[t]
                                               : (terms[t] - sum) + want;
        want = sum;
      }
      want += comp;
      if (isfinite(abs_sum))
        slack += abs_sum * 0x1p-45;
      float got = d[j + 16 * (i / 4)][i % 4];
      if (!close_f32(got, want, slack))
        UQ_TEST_FAIL_("rep %d fmt %d x %d opsel %d/%d: D[%d][%d] = %.9g, "
                      "want %.17g",
                      rep, tc->fmt_a, tc->fmt_b, tc->opsel_a, tc->opsel_b, i, j,
                      (double)got, want);
    }
  }
  return 0;
}

static void random_scaled_case(scaled_case_t *tc, int fmt_a, int fmt_b,
                               int allow_special) {
  tc->fmt_a = fmt_a;
  tc->fmt_b = fmt_b;
  tc->opsel_a = (int)rng_below(4);
  tc->opsel_b = (int)rng_below(4);
  for (int r = 0; r < 16; ++r) {
    for (int k = 0; k < 128; ++k) {
      tc->ca[r][k] = random_code(fmt_a, allow_special && rng_below(64) == 0);
      tc->cb[r][k] = random_code(fmt_b, allow_special && rng_below(64) == 0);
    }
    for (int j = 0; j < 16; ++j)
      tc->mc[r][j] = (float)((double)(int32_t)rng_u32() / 2147483648.0 * 64.0);
  }
  for (int l = 0; l < 64; ++l) {
    // Every byte of the scale VGPR differs, so a wrong byte selection shows.
    tc->scale_a[l] = rng_u32();
    tc->scale_b[l] = rng_u32();
    unsigned sa = random_scale_byte(), sb = random_scale_byte();
    tc->scale_a[l] = (tc->scale_a[l] & ~(0xFFu << (8 * tc->opsel_a))) |
                     (sa << (8 * tc->opsel_a));
    tc->scale_b[l] = (tc->scale_b[l] & ~(0xFFu << (8 * tc->opsel_b))) |
                     (sb << (8 * tc->opsel_b));
    // Keep NaN scales (0xFF) out of the selected byte here; other bytes may
    // hold anything, 0xFF included.
  }
}

static int test_mfma_scaled_formats(void) {
  static scaled_case_t tc;
  int rep = 0;
  // Every format pair, a few random cases each.
  for (int fa = 0; fa < 5; ++fa) {
    for (int fb = 0; fb < 5; ++fb) {
      for (int n = 0; n < 6; ++n, ++rep) {
        random_scaled_case(&tc, fa, fb, 0);
        if (run_scaled_case(&tc, rep))
          return 1;
      }
    }
  }
  return 0;
}

// The kernel's pairs (FP4 x E4M3 and E4M3 x FP4) on many cases, every op_sel
// combination, moderate scales so that nothing overflows and every block
// matters.
static int test_mfma_scaled_kernel_pairs(void) {
  static scaled_case_t tc;
  int rep = 0;
  for (int pair = 0; pair < 2; ++pair) {
    for (int os = 0; os < 16; ++os) {
      for (int n = 0; n < 4; ++n, ++rep) {
        random_scaled_case(&tc, pair ? 0 : 4, pair ? 4 : 0, 0);
        tc.opsel_a = os & 3;
        tc.opsel_b = os >> 2;
        for (int l = 0; l < 64; ++l) {
          tc.scale_a[l] = rng_u32();
          tc.scale_b[l] = rng_u32();
          unsigned sa = 0x78 + rng_below(16), sb = 0x78 + rng_below(16);
          tc.scale_a[l] = (tc.scale_a[l] & ~(0xFFu << (8 * tc.opsel_a))) |
                          (sa << (8 * tc.opsel_a));
          tc.scale_b[l] = (tc.scale_b[l] & ~(0xFFu << (8 * tc.opsel_b))) |
                          (sb << (8 * tc.opsel_b));
        }
        if (run_scaled_case(&tc, rep))
          return 1;
      }
    }
  }
  return 0;
}

// One nonzero element at a time: D must pick exactly A[i][k] * B[k][j] with
// the right scales, which pins the K placement of every byte/nibble.
static int test_mfma_scaled_single_elements(void) {
  static scaled_case_t tc;
  for (int pair = 0; pair < 3; ++pair) {
    int fa = pair == 0 ? 4 : 0, fb = pair == 1 ? 4 : 0;
    for (int k = 0; k < 128; ++k) {
      memset(&tc, 0, sizeof tc);
      tc.fmt_a = fa;
      tc.fmt_b = fb;
      int i = (int)rng_below(16), j = (int)rng_below(16);
      tc.ca[i][k] = fa == 4 ? 2 : 0x38; // 1.0
      for (int kk = 0; kk < 128; ++kk)
        tc.cb[j][kk] = fb == 4 ? 2 : 0x38; // 1.0 in every K of column j
      tc.cb[j][k] = fb == 4 ? 5 : 0x44;    // 3.0 at K = k
      for (int l = 0; l < 64; ++l) {
        tc.scale_a[l] = 0x7F;
        tc.scale_b[l] = 0x7F;
      }
      tc.scale_a[16 * (k / 32) + i] = 0x81; // 4
      if (run_scaled_case(&tc, k))
        return 1;
      static uint32_t a[64][8], b[64][8];
      static float c[64][4], d[64][4];
      pack_f8f6f4(fa, tc.ca, a);
      pack_f8f6f4(fb, tc.cb, b);
      memset(c, 0, sizeof c);
      uq_sim_mfma_scale_f32_16x16x128_f8f6f4(fa, fb, a, b, c, tc.scale_a, 0,
                                             tc.scale_b, 0, d);
      UQ_EXPECT(d[j + 16 * (i / 4)][i % 4] == 12.0f);
    }
  }
  return 0;
}

// Many A operands against one B operand (the decode kernel's pattern, which
// the implementation may exploit), then the same B registers read under
// another A format, then B with a single bit changed.
static int test_mfma_scaled_b_reuse(void) {
  static scaled_case_t tc;
  static unsigned saved_cb[16][128];
  static uint32_t saved_sb[64];
  // B is E5M2 throughout; A's format changes what B must be decoded to
  // (E4M3 and E5M2 A operands need B's sums in 64/128-bit integers).
  static const int kFmtA[] = {4, 3, 0, 1, 2, 4};
  for (size_t p = 0; p < sizeof kFmtA / sizeof kFmtA[0]; ++p) {
    for (int n = 0; n < 6; ++n) {
      random_scaled_case(&tc, kFmtA[p], 1, n == 5);
      if (p > 0 || n > 0) { // keep B (and its scales) from the first case
        memcpy(tc.cb, saved_cb, sizeof saved_cb);
        memcpy(tc.scale_b, saved_sb, sizeof saved_sb);
        tc.opsel_b = 0;
      } else {
        tc.opsel_b = 0;
        for (int l = 0; l < 64; ++l)
          tc.scale_b[l] = 0x70 + rng_below(32);
        memcpy(saved_cb, tc.cb, sizeof saved_cb);
        memcpy(saved_sb, tc.scale_b, sizeof saved_sb);
      }
      if (n == 4) // one changed code, same everything else
        tc.cb[(int)rng_below(16)][(int)rng_below(128)] ^= 1u;
      if (run_scaled_case(&tc, (int)(10 * p) + n))
        return 1;
    }
  }
  return 0;
}

// Scale bytes 0x00 (2^-127, not zero) and 0xFF (NaN), and Inf/NaN codes.
static int test_mfma_scaled_specials(void) {
  static scaled_case_t tc;
  // Random cases with NaN/Inf codes mixed in (E4M3 and E5M2 operands).
  for (int n = 0; n < 40; ++n) {
    random_scaled_case(&tc, (int)rng_below(2), (int)rng_below(5), 1);
    if (run_scaled_case(&tc, n))
      return 1;
  }
  // A NaN scale byte poisons exactly the rows (or columns) it scales.
  random_scaled_case(&tc, 4, 0, 0);
  tc.opsel_a = 2;
  tc.opsel_b = 0;
  for (int l = 0; l < 64; ++l) {
    tc.scale_a[l] = 0x7F7F7F7Fu;
    tc.scale_b[l] = 0xFF7F7F7Fu; // 0xFF in an unselected byte: harmless
  }
  tc.scale_a[16 * 2 + 5] = 0x7FFF7F7Fu; // row 5, block 2
  if (run_scaled_case(&tc, 0))
    return 1;
  {
    static uint32_t a[64][8], b[64][8];
    static float c[64][4], d[64][4];
    pack_f8f6f4(4, tc.ca, a);
    pack_f8f6f4(0, tc.cb, b);
    pack_c(tc.mc, c);
    uq_sim_mfma_scale_f32_16x16x128_f8f6f4(4, 0, a, b, c, tc.scale_a, 2,
                                           tc.scale_b, 0, d);
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j)
        UQ_EXPECT(isnan(d[j + 16 * (i / 4)][i % 4]) == (i == 5));
  }
  // Scale 0x00 for both: 2^-254 * (6 * 448) is tiny but not zero in double;
  // as f32 it flushes to 0 only by rounding (below 2^-149).
  memset(&tc, 0, sizeof tc);
  tc.fmt_a = 4;
  tc.fmt_b = 0;
  tc.ca[0][0] = 7;    // 6.0
  tc.cb[0][0] = 0x7E; // 448
  for (int l = 0; l < 64; ++l) {
    tc.scale_a[l] = 0x00;
    tc.scale_b[l] = 0x7F + 100; // 2^100
  }
  // 6 * 448 * 2^-127 * 2^100 = 2688 * 2^-27
  if (run_scaled_case(&tc, 1))
    return 1;
  return 0;
}

// The same MFMA tests on the portable code path (where a CPU-specific one,
// AVX2, is the default).
static int test_mfma_generic_path(void) {
  uq_sim_math_force_generic(1);
  int failed = test_mfma_bf16() || test_mfma_bf16_32x32() ||
               test_mfma_scaled_formats() || test_mfma_scaled_kernel_pairs() ||
               test_mfma_scaled_single_elements() ||
               test_mfma_scaled_specials();
  uq_sim_math_force_generic(0);
  return failed;
}

// ---- consistency with the host format library ------------------------------

// The host reference (runtime/include/uq/format.h) and the simulator must
// agree on every conversion the kernel and the reference share.
static int test_format_consistency(void) {
  for (unsigned c = 0; c < 256; ++c) {
    float h = uq_e4m3_to_float((uint8_t)c);
    float g = uq_sim_fp8_e4m3_to_f32((uint8_t)c);
    UQ_EXPECT(isnan(h) ? isnan(g) : bits_from_f32(h) == bits_from_f32(g));
    if (c < 16)
      UQ_EXPECT_EQ_HEX(bits_from_f32(uq_fp4_to_float((uint8_t)c)),
                       bits_from_f32(uq_sim_fp4_e2m1_to_f32((uint8_t)c)));
    // E8M0 as the MFMA/cvt read it: 1.0 scaled by byte c.
    float e = uq_e8m0_to_float((uint8_t)c);
    uint32_t bf = uq_sim_cvt_scalef32_pk_bf16_fp4(0x2u, f32_from_bits(c << 23),
                                                  0); // code 2 = 1.0
    float se = uq_sim_bf16_to_f32((uint16_t)bf);
    UQ_EXPECT(isnan(e) ? isnan(se) : bits_from_f32(e) == bits_from_f32(se));
  }
  for (int n = 0; n < 300000; ++n) {
    float x = (n & 1) ? f32_from_bits(rng_u32())
                      : (float)((double)(int32_t)rng_u32() / 4294967296.0 *
                                ldexp(1.0, (int)rng_below(24)));
    if (n < 4)
      x = (float[]){464.0f, 464.00003f, INFINITY, -448.5f}[n];
    for (int ovfl = 0; ovfl < 2; ++ovfl) {
      unsigned h = uq_float_to_e4m3(x, ovfl ? UQ_FP8_OVERFLOW_SATURATE
                                            : UQ_FP8_OVERFLOW_NAN);
      unsigned g = uq_sim_cvt_pk_fp8_f32(x, 0.0f, 0, 0, ovfl) & 0xFF;
      if ((h & 0x7F) == 0x7F ? (g & 0x7F) != 0x7F : g != h)
        UQ_TEST_FAIL_("e4m3(%a) ovfl %d: host 0x%02x sim 0x%02x", (double)x,
                      ovfl, h, g);
    }
    uint16_t hb = uq_float_to_bf16(x), gb = uq_sim_f32_to_bf16_rne(x);
    if (isnan(x))
      UQ_EXPECT(bf16_is_nan(hb) && bf16_is_nan(gb));
    else
      UQ_EXPECT_EQ_HEX(hb, gb);
  }
  return 0;
}

int main(int argc, char **argv) {
  g_rng = uq_test_seed();
  static const uq_test_case_t tests[] = {
      {"fp8_decode_all", test_fp8_decode_all},
      {"fp8_encode", test_fp8_encode},
      {"bf16_rne", test_bf16_rne},
      {"fp4_bf16_scaled", test_fp4_bf16_scaled},
      {"transcendentals", test_transcendentals},
      {"swizzle_bitmask_and_quad", test_swizzle_bitmask_and_quad},
      {"swizzle_fft_rotate", test_swizzle_fft_rotate},
      {"read_tr_b16", test_read_tr_b16},
      {"mfma_bf16", test_mfma_bf16},
      {"mfma_bf16_32x32", test_mfma_bf16_32x32},
      {"mfma_scaled_formats", test_mfma_scaled_formats},
      {"mfma_scaled_kernel_pairs", test_mfma_scaled_kernel_pairs},
      {"mfma_scaled_single_elements", test_mfma_scaled_single_elements},
      {"mfma_scaled_specials", test_mfma_scaled_specials},
      {"mfma_scaled_b_reuse", test_mfma_scaled_b_reuse},
      {"mfma_generic_path", test_mfma_generic_path},
      {"format_consistency", test_format_consistency},
      {0, 0},
  };
  return uq_test_main(argc, argv, tests);
}
