// Tests of the fp16 side of the format library (since 0.9): the fp16
// conversions (exhaustive decode, rounding against a nearest-value search
// in float64), and the encoder and query rotation on fp16 input, whose
// results must depend only on the values (fp16 -> float is exact).
#include "uq/format.h"

#include <float.h>
#include <math.h>
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

static const int kHeadDims[3] = {64, 128, 256};

// ---- Conversions ------------------------------------------------------------

// fp16 from its bit fields, in double: sign, 5-bit exponent (bias 15),
// 10-bit mantissa; exponent 0 is subnormal (m * 2^-24).
static double f16_oracle(uint16_t bits) {
  int sign = bits >> 15, exponent = (bits >> 10) & 31, mantissa = bits & 1023;
  double magnitude;
  if (exponent == 31)
    magnitude = mantissa ? NAN : INFINITY;
  else if (exponent == 0)
    magnitude = ldexp((double)mantissa, -24);
  else
    magnitude = ldexp(1024.0 + mantissa, exponent - 25);
  return sign ? -magnitude : magnitude;
}

static int test_f16_all_patterns(void) {
  for (uint32_t b = 0; b < 65536; ++b) {
    double want = f16_oracle((uint16_t)b);
    float got = uq_f16_to_float((uint16_t)b);
    if (isnan(want)) {
      UQ_EXPECT(isnan(got));
      UQ_EXPECT_EQ_INT(!!signbit(got), (int)(b >> 15));
      // NaN stays NaN, quiet, sign kept; the payload's top bits survive.
      uint16_t back = uq_float_to_f16(got);
      UQ_EXPECT_EQ_HEX(back & 0xFE00, (b & 0x8000) | 0x7E00);
      UQ_EXPECT_EQ_HEX(back & 0x1FF, b & 0x1FF);
      continue;
    }
    if ((double)got != want || !!signbit(got) != (int)(b >> 15))
      UQ_TEST_FAIL_("f16 0x%04x -> %a, want %a", b, (double)got, want);
    // Every fp16 value is a float, and converts back to itself.
    if (uq_float_to_f16(got) != b)
      UQ_TEST_FAIL_("f16 0x%04x does not round-trip (0x%04x)", b,
                    uq_float_to_f16(got));
  }
  return 0;
}

// The nearest fp16 to a double, by search: the positive finite patterns
// 0..0x7BFF are increasing in value; 0x7C00 (inf) stands for 2^16, the next
// step past 65504, so that magnitudes from 65520 on round to inf. Ties to
// the even pattern.
static uint16_t f16_nearest_oracle(double x) {
  if (isnan(x))
    return 0x7E00;
  uint16_t sign = signbit(x) ? 0x8000 : 0;
  double a = fabs(x);
  uint32_t lo = 0, hi = 0x7C00; // value(lo) <= a < value(hi) after search
  if (a >= 65536.0)
    return sign | 0x7C00;
  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;
    if (f16_oracle((uint16_t)mid) <= a)
      lo = mid;
    else
      hi = mid;
  }
  double v_lo = f16_oracle((uint16_t)lo);
  double v_hi = hi == 0x7C00 ? 65536.0 : f16_oracle((uint16_t)hi);
  double d_lo = a - v_lo, d_hi = v_hi - a;
  uint32_t pick = d_lo < d_hi ? lo : d_hi < d_lo ? hi : (lo & 1 ? hi : lo);
  return (uint16_t)(sign | pick);
}

static int test_f16_rounding_hand_cases(void) {
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(0.0f), 0x0000);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(-0.0f), 0x8000);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(1.0f), 0x3C00);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(-2.0f), 0xC000);
  // Ties to even: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10.
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(1.0f + 0x1p-11f), 0x3C00);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(1.0f + 3 * 0x1p-11f), 0x3C02);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(nextafterf(1.0f + 0x1p-11f, 2.0f)), 0x3C01);
  // The largest finite value and the overflow threshold (65520 is the tie
  // between 65504 and 2^16; 65504's mantissa is odd, so it goes to inf).
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(65504.0f), 0x7BFF);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(nextafterf(65520.0f, 0.0f)), 0x7BFF);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(65520.0f), 0x7C00);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(-1e6f), 0xFC00);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(FLT_MAX), 0x7C00);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(INFINITY), 0x7C00);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(-INFINITY), 0xFC00);
  // Subnormals: k * 2^-24, exactly; 2^-25 is the tie between 0 and 2^-24
  // (to even: 0); 3 * 2^-25 the tie between 1 and 2 units (to 2).
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(0x1p-24f), 0x0001);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(1023 * 0x1p-24f), 0x03FF);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(0x1p-14f), 0x0400);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(0x1p-25f), 0x0000);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(-0x1p-25f), 0x8000);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(nextafterf(0x1p-25f, 1.0f)), 0x0001);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(3 * 0x1p-25f), 0x0002);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(5 * 0x1p-25f), 0x0002);
  // The largest subnormal rounds up into the smallest normal.
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(0x1p-14f - 0x1p-26f), 0x0400);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(FLT_MIN), 0x0000);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(u2f(1)), 0x0000); // a float subnormal
  // NaN: quiet, sign kept.
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(u2f(0x7F800001u)) & 0xFE00, 0x7E00);
  UQ_EXPECT_EQ_HEX(uq_float_to_f16(u2f(0xFFC00000u)) & 0xFE00, 0xFE00);
  return 0;
}

// Every fp16 midpoint, the floats either side of it, and random floats over
// fp16's range and past it, against the search.
static int test_f16_rounding_sweep(void) {
  for (uint32_t b = 0; b < 0x7C00; ++b) {
    double next = b == 0x7BFF ? 65536.0 : f16_oracle((uint16_t)(b + 1));
    float mid = (float)((f16_oracle((uint16_t)b) + next) / 2); // exact
    float xs[3] = {nextafterf(mid, 0.0f), mid, nextafterf(mid, INFINITY)};
    for (int i = 0; i < 3; ++i)
      for (int s = 0; s < 2; ++s) {
        float x = s ? -xs[i] : xs[i];
        uint16_t got = uq_float_to_f16(x), want = f16_nearest_oracle(x);
        if (got != want)
          UQ_TEST_FAIL_("f16(%a) = 0x%04x, want 0x%04x", (double)x, got, want);
      }
  }
  uq_rng_t rng = uq_rng_for(39);
  for (int i = 0; i < 1000000; ++i) {
    // Exponents 2^-30 .. 2^18: underflow, subnormals, normals, overflow.
    uint32_t u = (uint32_t)(97 + uq_rng_next(&rng) % 48) << 23 |
                 (uint32_t)(uq_rng_next(&rng) & 0x7FFFFF) |
                 (uint32_t)(uq_rng_next(&rng) & 1) << 31;
    float x = u2f(u);
    uint16_t got = uq_float_to_f16(x), want = f16_nearest_oracle(x);
    if (got != want)
      UQ_TEST_FAIL_("f16(%a) = 0x%04x, want 0x%04x", (double)x, got, want);
  }
#ifdef __FLT16_MAX__
  // Where the compiler has _Float16, its conversion agrees too.
  for (int i = 0; i < 1000000; ++i) {
    float x = u2f((uint32_t)uq_rng_next(&rng));
    if (isnan(x))
      continue;
    _Float16 h = (_Float16)x;
    uint16_t want;
    memcpy(&want, &h, 2);
    if (uq_float_to_f16(x) != want)
      UQ_TEST_FAIL_("f16(%a) = 0x%04x, _Float16 gives 0x%04x", (double)x,
                    uq_float_to_f16(x), want);
  }
#endif
  return 0;
}

// The exact reference's double -> fp16 rounds once.
static int test_double_to_f16(void) {
  uq_rng_t rng = uq_rng_for(40);
  for (int i = 0; i < 300000; ++i) {
    double x =
        ldexp(1.0 + uq_rng_uniform(&rng), (int)(uq_rng_next(&rng) % 46) - 28);
    uint16_t h = uq_float_to_f16((float)x);
    if (i % 3 && (h & 0x7FFF) < 0x7BFF) {
      // An exact fp16 midpoint, or just past one by far less than a float
      // ulp: rounding to float first would land on the tie.
      double mid = (f16_oracle(h) + f16_oracle((uint16_t)(h + 1))) / 2;
      x = i % 3 == 1 ? mid : mid * (1.0 + 0x1p-40);
    }
    if (uq_rng_next(&rng) & 1)
      x = -x;
    uint16_t got = uq_double_to_f16_(x), want = f16_nearest_oracle(x);
    if (got != want)
      UQ_TEST_FAIL_("f16(%.17g) = 0x%04x, want 0x%04x", x, got, want);
  }
  UQ_EXPECT(isnan(uq_f16_to_float(uq_double_to_f16_(NAN))));
  UQ_EXPECT_EQ_HEX(uq_double_to_f16_(1e300), 0x7C00);
  UQ_EXPECT_EQ_HEX(uq_double_to_f16_(-0.0), 0x8000);
  UQ_EXPECT_EQ_HEX(uq_double_to_f16_(0x1p-25 * (1.0 + 0x1p-40)), 0x0001);
  return 0;
}

// ---- Encoder and rotation on fp16 input ------------------------------------

// The slot of float K and V, from the public pieces: K rotated, then groups.
static void encode_floats(int D, const float *k_in, const float *v,
                          uint8_t *slot) {
  float k[UQ_MAX_HEAD_DIM];
  memcpy(k, k_in, sizeof(float) * (size_t)D);
  uq_wht(D, k);
  for (int g = 0; g < D / 32; ++g) {
    uq_group_encode(k + 32 * g, slot + UQ_SLOT_K_CODES_OFFSET(D) + 16 * g,
                    slot + UQ_SLOT_K_SCALES_OFFSET(D) + g);
    uq_group_encode(v + 32 * g, slot + UQ_SLOT_V_CODES_OFFSET(D) + 16 * g,
                    slot + UQ_SLOT_V_SCALES_OFFSET(D) + g);
  }
}

// A value both bf16 and fp16 hold exactly: 8 significant bits, exponent in
// fp16's normal range (or zero).
static float both_representable(uq_rng_t *rng) {
  if (uq_rng_next(rng) % 50 == 0)
    return 0.0f;
  float x = ldexpf((float)(128 + uq_rng_next(rng) % 128),
                   (int)(uq_rng_next(rng) % 20) - 14 - 7); // 2^-14 .. 2^13
  return uq_rng_next(rng) & 1 ? -x : x;
}

static int test_slot_encode_f16(void) {
  uq_rng_t rng = uq_rng_for(41);
  for (int di = 0; di < 3; ++di) {
    const int D = kHeadDims[di];
    for (int rep = 0; rep < 200; ++rep) {
      uint16_t kh[256], vh[256], kb[256], vb[256];
      float kf[256], vf[256];
      const int shared = rep % 2 == 0;
      for (int i = 0; i < D; ++i) {
        if (shared) {
          kf[i] = both_representable(&rng);
          vf[i] = both_representable(&rng);
        } else { // any fp16 value, sigma 2 (most not bf16 values)
          kf[i] = uq_f16_to_float(uq_float_to_f16((float)uq_rng_gauss(&rng)));
          vf[i] =
              uq_f16_to_float(uq_float_to_f16(2 * (float)uq_rng_gauss(&rng)));
        }
        kh[i] = uq_float_to_f16(kf[i]);
        vh[i] = uq_float_to_f16(vf[i]);
        UQ_EXPECT_EQ_HEX(f2u(uq_f16_to_float(kh[i])), f2u(kf[i]));
        kb[i] = uq_float_to_bf16(kf[i]);
        vb[i] = uq_float_to_bf16(vf[i]);
      }
      uint8_t got[UQ_MAX_SLOT_CONTENT_BYTES], want[UQ_MAX_SLOT_CONTENT_BYTES];
      UQ_EXPECT_OK(uq_slot_encode_dtype(D, UQ_DTYPE_F16, kh, vh, got));
      encode_floats(D, kf, vf, want);
      UQ_EXPECT(memcmp(got, want, UQ_SLOT_CONTENT_BYTES(D)) == 0);
      if (shared) { // the same bytes as the same values in bf16
        UQ_EXPECT_OK(uq_slot_encode(D, kb, vb, want));
        UQ_EXPECT(memcmp(got, want, UQ_SLOT_CONTENT_BYTES(D)) == 0);
        UQ_EXPECT_OK(uq_slot_encode_dtype(D, UQ_DTYPE_BF16, kb, vb, want));
        UQ_EXPECT(memcmp(got, want, UQ_SLOT_CONTENT_BYTES(D)) == 0);
      }
    }
  }
  uint16_t z[256] = {0};
  uint8_t slot[UQ_MAX_SLOT_CONTENT_BYTES];
  UQ_EXPECT_CODE(uq_slot_encode_dtype(64, UQ_DTYPE_F32, z, z, slot),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_slot_encode_dtype(64, (uq_dtype_t)5, z, z, slot),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_slot_encode_dtype(64, UQ_DTYPE_F16, NULL, z, slot),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_slot_encode_dtype(96, UQ_DTYPE_F16, z, z, slot),
                 UQ_STATUS_UNIMPLEMENTED);
  return 0;
}

// uq_cache_write with fp16 tokens writes uq_slot_encode_dtype's bytes; a
// dtype other than bf16/f16 is refused before any byte is written.
static int test_cache_write_f16(void) {
  enum { D = 128, H = 2, T = 5 };
  uq_cache_layout_t layout = {.num_blocks = 2,
                              .block_size = 16,
                              .num_kv_heads = H,
                              .padded_slot = 136,
                              .head_dim = D};
  size_t size = 0;
  UQ_EXPECT_OK(uq_cache_layout_size(&layout, &size));
  static uint8_t cache[2 * 16 * H * 136];
  UQ_EXPECT_EQ_INT(size, sizeof cache);
  memset(cache, 0xAB, sizeof cache);
  uint16_t k[T][H][D], v[T][H][D];
  uq_rng_t rng = uq_rng_for(42);
  for (int t = 0; t < T; ++t)
    for (int h = 0; h < H; ++h)
      for (int d = 0; d < D; ++d) {
        k[t][h][d] = uq_float_to_f16(3 * (float)uq_rng_gauss(&rng));
        v[t][h][d] = uq_float_to_f16((float)uq_rng_gauss(&rng) / 7);
      }
  int64_t slots[T] = {3, -1, 31, 0, 17};
  uq_kv_tokens_t tokens = {.key = &k[0][0][0],
                           .key_stride_token = H * D,
                           .key_stride_head = D,
                           .value = &v[0][0][0],
                           .value_stride_token = H * D,
                           .value_stride_head = D,
                           .slot_mapping = slots,
                           .num_tokens = T,
                           .dtype = UQ_DTYPE_F32};
  UQ_EXPECT_CODE(uq_cache_write(&layout, cache, size, &tokens),
                 UQ_STATUS_INVALID_ARGUMENT);
  for (size_t i = 0; i < sizeof cache; ++i)
    UQ_EXPECT_EQ_HEX(cache[i], 0xAB);
  tokens.dtype = UQ_DTYPE_F16;
  UQ_EXPECT_OK(uq_cache_write(&layout, cache, size, &tokens));
  for (int t = 0; t < T; ++t) {
    if (slots[t] < 0)
      continue;
    for (int h = 0; h < H; ++h) {
      uint8_t want[UQ_MAX_SLOT_CONTENT_BYTES];
      UQ_EXPECT_OK(
          uq_slot_encode_dtype(D, UQ_DTYPE_F16, k[t][h], v[t][h], want));
      UQ_EXPECT(memcmp(cache + ((size_t)slots[t] * H + (size_t)h) * 136, want,
                       UQ_SLOT_CONTENT_BYTES(D)) == 0);
    }
  }
  return 0;
}

static int test_query_rotate_f16(void) {
  uq_rng_t rng = uq_rng_for(43);
  for (int di = 0; di < 3; ++di) {
    const int D = kHeadDims[di];
    uint16_t q[256];
    float x[256], got[256];
    for (int i = 0; i < D; ++i) {
      // sigma 300: some rotated elements pass 464 and saturate.
      q[i] = uq_float_to_f16(300 * (float)uq_rng_gauss(&rng));
      x[i] = uq_f16_to_float(q[i]);
    }
    UQ_EXPECT_OK(uq_query_rotate_dtype(D, UQ_DTYPE_F16, q,
                                       UQ_FP8_OVERFLOW_SATURATE, got));
    UQ_EXPECT_OK(uq_wht(D, x));
    for (int i = 0; i < D; ++i) {
      float want =
          uq_e4m3_to_float(uq_float_to_e4m3(x[i], UQ_FP8_OVERFLOW_SATURATE));
      UQ_EXPECT_EQ_HEX(f2u(got[i]), f2u(want));
    }
  }
  // An infinite fp16 element gives NaN (as for bf16).
  uint16_t q[64] = {0};
  float out[64];
  q[5] = 0x7C00;
  UQ_EXPECT_OK(uq_query_rotate_dtype(64, UQ_DTYPE_F16, q,
                                     UQ_FP8_OVERFLOW_SATURATE, out));
  UQ_EXPECT(isnan(out[0]));
  UQ_EXPECT_CODE(
      uq_query_rotate_dtype(64, UQ_DTYPE_F32, q, UQ_FP8_OVERFLOW_SATURATE, out),
      UQ_STATUS_INVALID_ARGUMENT);
  return 0;
}

static const uq_test_case_t tests[] = {
    {"f16_all_patterns", test_f16_all_patterns},
    {"f16_rounding_hand_cases", test_f16_rounding_hand_cases},
    {"f16_rounding_sweep", test_f16_rounding_sweep},
    {"double_to_f16", test_double_to_f16},
    {"slot_encode_f16", test_slot_encode_f16},
    {"cache_write_f16", test_cache_write_f16},
    {"query_rotate_f16", test_query_rotate_f16},
    {0, 0},
};

int main(int argc, char **argv) {
  uq_test_seed();
  return uq_test_main(argc, argv, tests);
}
