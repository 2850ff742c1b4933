// UltraQuant number formats, rotation and the group/slot encoder.
#include "uq/format.h"

#include <math.h>
#include <string.h>

#include "runtime/format/internal.h"

static uint32_t float_bits(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

static float bits_float(uint32_t u) {
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}

// ---- FP4 -----------------------------------------------------------------

static const float kFp4Values[16] = {0.0f,  0.5f,  1.0f,  1.5f,  2.0f,  3.0f,
                                     4.0f,  6.0f,  -0.0f, -0.5f, -1.0f, -1.5f,
                                     -2.0f, -3.0f, -4.0f, -6.0f};

float uq_fp4_to_float(uint8_t code) { return kFp4Values[code & 15]; }

uint8_t uq_fp4_snap(float x) {
  // bucketize(right=False) over the 14 sorted midpoints picks the lower level
  // on a tie. By symmetry, on the magnitude a = |x| with the 7 positive
  // midpoints: a positive x counts the midpoints strictly below a (a tie
  // goes toward zero), a negative x also counts those equal to a (a tie goes
  // away from zero). Branch-free: this is the encoder's hot loop.
  static const float kMidpoints[7] = {0.25f, 0.75f, 1.25f, 1.75f,
                                      2.5f,  3.5f,  5.0f};
  if (isnan(x))
    return 0;
  float a = fabsf(x);
  int negative = x < 0.0f; // false for -0.0: it snaps to +0
  int above = 0, equal = 0;
  for (int i = 0; i < 7; ++i) {
    above += a > kMidpoints[i];
    equal += a == kMidpoints[i];
  }
  int magnitude = above + (negative ? equal : 0);
  return (uint8_t)(magnitude | ((negative && magnitude) ? 8 : 0));
}

// ---- E4M3 ----------------------------------------------------------------

float uq_e4m3_to_float(uint8_t byte) {
  int sign = byte >> 7;
  int exponent = (byte >> 3) & 15;
  int mantissa = byte & 7;
  float magnitude;
  if (exponent == 15 && mantissa == 7)
    return sign ? -NAN : NAN;
  if (exponent == 0)
    magnitude = ldexpf((float)mantissa, -9);
  else
    magnitude = ldexpf((float)(8 + mantissa), exponent - 10);
  return sign ? -magnitude : magnitude;
}

uint8_t uq_float_to_e4m3(float x, uq_fp8_overflow_t rule) {
  uint8_t sign = (float_bits(x) >> 31) ? 0x80 : 0x00;
  if (isnan(x))
    return sign | 0x7F;
  float a = fabsf(x);
  // 464 is the midpoint between 448 and the first value past the format
  // (480); ties-to-even keeps it at 448 (mantissa 110), anything above
  // overflows.
  if (a > 464.0f) {
    if (rule == UQ_FP8_OVERFLOW_SATURATE)
      return sign | 0x7E;
    return sign | 0x7F;
  }
  if (a == 0.0f)
    return sign;
  // e = floor(log2 a), but no lower than the minimum normal exponent -6:
  // below it the quantum stays 2^-9 (subnormals). q counts quanta of
  // 2^(e-3); the code (e + 6) * 8 + q is continuous across the subnormal
  // boundary and across a carry into the next binade (q = 16).
  int e;
  frexpf(a, &e);
  e -= 1;
  if (e < -6)
    e = -6;
  float q = nearbyintf(ldexpf(a, 3 - e)); // exact scaling, RNE rounding
  int code = (e + 6) * 8 + (int)q;
  return sign | (uint8_t)code;
}

// ---- bf16 ----------------------------------------------------------------

float uq_bf16_to_float(uint16_t bits) {
  return bits_float((uint32_t)bits << 16);
}

uint16_t uq_float_to_bf16(float x) {
  uint32_t u = float_bits(x);
  if (isnan(x))
    return (uint16_t)((u >> 16) | 0x0040);
  uint32_t rounding = 0x7FFF + ((u >> 16) & 1);
  return (uint16_t)((u + rounding) >> 16);
}

uint16_t uq_double_to_bf16_(double x) {
  float f = (float)x;
  if (!isnan(x) && !isinf(f) && (double)f != x) {
    // Round to odd: truncate toward zero, then set the sticky last bit.
    if (fabs((double)f) > fabs(x))
      f = nextafterf(f, 0.0f);
    f = bits_float(float_bits(f) | 1u);
  }
  return uq_float_to_bf16(f);
}

// ---- fp16 ------------------------------------------------------------------
// Bit-level, with no dependence on a compiler's _Float16.

float uq_f16_to_float(uint16_t bits) {
  uint32_t sign = (uint32_t)(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1F, mantissa = bits & 0x3FF;
  if (exponent == 0) // zero or subnormal: mantissa * 2^-24, exact in fp32
    return bits_float(float_bits(ldexpf((float)mantissa, -24)) | sign);
  if (exponent == 31) // inf, or NaN with the payload in the top bits
    return bits_float(sign | 0x7F800000u | (mantissa << 13));
  return bits_float(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

uint16_t uq_float_to_f16(float x) {
  uint32_t u = float_bits(x);
  uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
  uint32_t a = u & 0x7FFFFFFFu;
  if (a > 0x7F800000u) // NaN: quiet, payload truncated
    return (uint16_t)(sign | 0x7E00 | ((a >> 13) & 0x3FF));
  if (a >= 0x47800000u) // |x| >= 2^16 (inf included): past 65504 + 1/2 ulp
    return (uint16_t)(sign | 0x7C00);
  if (a >= 0x38800000u) { // |x| >= 2^-14: an fp16 normal (or rounds to inf)
    uint32_t half = ((a >> 23) - 112) << 10 | ((a >> 13) & 0x3FF);
    uint32_t rest = a & 0x1FFF;
    // Ties to even; a carry out of the mantissa steps the exponent, and
    // from 65504 on to 0x7C00 = inf.
    half += rest > 0x1000 || (rest == 0x1000 && (half & 1));
    return (uint16_t)(sign | half);
  }
  // Subnormal fp16 (k * 2^-24, k < 1024) or zero: round the significand
  // shifted to units of 2^-24. Below 2^-25 everything rounds to zero
  // (2^-25 itself is a tie, to the even 0); float subnormals too.
  int shift = 126 - (int)(a >> 23); // >= 14
  if (shift > 24)
    return sign;
  uint32_t significand = (a & 0x7FFFFF) | 0x800000;
  uint32_t q = significand >> shift;
  uint32_t rest = significand & ((1u << shift) - 1), tie = 1u << (shift - 1);
  q += rest > tie || (rest == tie && (q & 1));
  return (uint16_t)(sign | q); // q = 1024 is the smallest normal, exactly
}

uint16_t uq_double_to_f16_(double x) {
  // As uq_double_to_bf16_: round to odd onto float's 24 bits, then RNE to
  // fp16's 11 (fp16 subnormals lie in float's normal range).
  float f = (float)x;
  if (!isnan(x) && !isinf(f) && (double)f != x) {
    if (fabs((double)f) > fabs(x))
      f = nextafterf(f, 0.0f);
    f = bits_float(float_bits(f) | 1u);
  }
  return uq_float_to_f16(f);
}

// ---- Activations (bf16 or fp16) ------------------------------------------

uq_status_t uq_check_dtype_(const char *what, uq_dtype_t dtype) {
  if (dtype == UQ_DTYPE_BF16 || dtype == UQ_DTYPE_F16)
    return UQ_OK;
  return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                        "%s %d (%s): activations must be bf16 or f16", what,
                        (int)dtype, uq_dtype_name_(dtype));
}

const char *uq_dtype_name_(uq_dtype_t dtype) {
  switch (dtype) {
  case UQ_DTYPE_BF16:
    return "bf16";
  case UQ_DTYPE_F16:
    return "f16";
  case UQ_DTYPE_F32:
    return "f32";
  default:
    return "unknown";
  }
}

uint16_t uq_act_from_float_(uq_dtype_t dtype, float x) {
  return dtype == UQ_DTYPE_F16 ? uq_float_to_f16(x) : uq_float_to_bf16(x);
}

uint16_t uq_act_from_double_(uq_dtype_t dtype, double x) {
  return dtype == UQ_DTYPE_F16 ? uq_double_to_f16_(x) : uq_double_to_bf16_(x);
}

float uq_act_to_float_(uq_dtype_t dtype, uint16_t bits) {
  return dtype == UQ_DTYPE_F16 ? uq_f16_to_float(bits) : uq_bf16_to_float(bits);
}

// ---- Scales ----------------------------------------------------------------

float uq_ue8m0_to_float(uint8_t byte) {
  if (byte == 0)
    return 0.0f;
  return ldexpf(1.0f, (int)byte - 127);
}

float uq_e8m0_to_float(uint8_t byte) {
  if (byte == 0xFF)
    return NAN;
  return ldexpf(1.0f, (int)byte - 127);
}

// ---- Head dims ------------------------------------------------------------

int uq_head_dim_supported(int64_t head_dim) {
  return head_dim == 32 || head_dim == 64 || head_dim == 128 ||
         head_dim == 256 || head_dim == 512;
}

uq_status_t uq_head_dim_check(int64_t head_dim) {
  if (uq_head_dim_supported(head_dim))
    return UQ_OK;
  if (head_dim <= 0)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "head_dim must be set (" UQ_HEAD_DIMS_TEXT
                          "), got %lld",
                          (long long)head_dim);
  return UQ_MAKE_STATUS(UQ_STATUS_UNIMPLEMENTED,
                        "head_dim %lld is not supported (" UQ_HEAD_DIMS_TEXT
                        ")",
                        (long long)head_dim);
}

// ---- Rotation --------------------------------------------------------------

float uq_wht_scale(int64_t head_dim) {
  switch (head_dim) {
  case 32:
    return 0x1.6a09e6p-3f; // 1/sqrt(32) correctly rounded (0x3E3504F3)
  case 64:
    return 0.125f;
  case 128:
    return 0x1.6a09e6p-4f; // 1/sqrt(128) correctly rounded (0x3DB504F3)
  case 256:
    return 0.0625f;
  case 512:
    return 0x1.6a09e6p-5f; // 1/sqrt(512) correctly rounded (0x3D3504F3)
  default:
    return 0.0f;
  }
}

void uq_format_wht_(int32_t head_dim, float *x) {
  for (int stride = 1; stride < head_dim; stride <<= 1) {
    for (int base = 0; base < head_dim; base += 2 * stride) {
      for (int i = base; i < base + stride; ++i) {
        float a = x[i], b = x[i + stride];
        x[i] = a + b;
        x[i + stride] = a - b;
      }
    }
  }
  const float scale = uq_wht_scale(head_dim);
  for (int i = 0; i < head_dim; ++i)
    x[i] *= scale;
}

uq_status_t uq_wht(int32_t head_dim, float *x) {
  UQ_RETURN_IF_ERROR(uq_head_dim_check(head_dim), "uq_wht");
  if (!x)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "uq_wht: x is NULL");
  uq_format_wht_(head_dim, x);
  return UQ_OK;
}

unsigned uq_qperm_dest(unsigned d) {
  d &= 0xFF;
  return (d & 0x8F) | ((d >> 2) & 0x10) | ((d << 1) & 0x60);
}

unsigned uq_qperm_src(unsigned position) {
  // dest moves bit 6 -> 4, bit 4 -> 5, bit 5 -> 6; undo it.
  unsigned p = position & 0xFF;
  return (p & 0x8F) | ((p << 2) & 0x40) | ((p >> 1) & 0x30);
}

// Element `i` of caller bf16 or fp16 data, which may sit at an odd address
// (a numpy view may start at any byte, and the runtime's host backend takes
// a caller's pointer as it is): memcpy is the defined way to read it.
static float act_at(uq_dtype_t dtype, const void *data, int i) {
  uint16_t bits;
  memcpy(&bits, (const unsigned char *)data + 2 * (size_t)i, sizeof(bits));
  return uq_act_to_float_(dtype, bits);
}

uq_status_t uq_check_aligned_(const char *what, const void *ptr, size_t align) {
  if ((uintptr_t)ptr % align == 0)
    return UQ_OK;
  return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                        "%s at %p is not %zu-byte aligned", what, ptr, align);
}

void uq_format_query_rotate_(int32_t head_dim, uq_dtype_t dtype, const void *q,
                             uq_fp8_overflow_t rule, float *out_q_rot) {
  float x[UQ_MAX_HEAD_DIM];
  for (int d = 0; d < head_dim; ++d)
    x[d] = act_at(dtype, q, d);
  uq_format_wht_(head_dim, x);
  // As the kernels do: an infinite rotated element becomes NaN before the
  // E4M3 conversion (which would saturate it), so an infinite query gives a
  // non-finite head under every rule.
  for (int d = 0; d < head_dim; ++d)
    out_q_rot[d] =
        isinf(x[d]) ? NAN : uq_e4m3_to_float(uq_float_to_e4m3(x[d], rule));
}

uq_status_t uq_query_rotate_dtype(int32_t head_dim, uq_dtype_t dtype,
                                  const void *q, uq_fp8_overflow_t rule,
                                  float *out_q_rot) {
  UQ_RETURN_IF_ERROR(uq_head_dim_check(head_dim), "uq_query_rotate");
  UQ_RETURN_IF_ERROR(uq_check_dtype_("dtype", dtype), "uq_query_rotate");
  if (!q || !out_q_rot)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_query_rotate: NULL pointer");
  uq_format_query_rotate_(head_dim, dtype, q, rule, out_q_rot);
  return UQ_OK;
}

uq_status_t uq_query_rotate(int32_t head_dim, const uint16_t *q_bf16,
                            uq_fp8_overflow_t rule, float *out_q_rot) {
  return uq_query_rotate_dtype(head_dim, UQ_DTYPE_BF16, q_bf16, rule,
                               out_q_rot);
}

// ---- Groups and slots ------------------------------------------------------

void uq_group_encode(const float x[UQ_GROUP_SIZE],
                     uint8_t out_codes[UQ_GROUP_CODE_BYTES],
                     uint8_t *out_scale) {
  memset(out_codes, 0, UQ_GROUP_CODE_BYTES);
  *out_scale = 0;
  float absmax = 0.0f;
  for (int i = 0; i < UQ_GROUP_SIZE; ++i) {
    if (!isfinite(x[i]))
      return; // defined behaviour: a non-finite group is a zero group
    float a = fabsf(x[i]);
    if (a > absmax)
      absmax = a;
  }
  float s = UQ_ENCODE_SCALE_C * absmax;
  if (!(s > 0.0f) || !isfinite(s))
    return;
  // exp = floor(log2(s) + 1/2) exactly, with no libm log2f rounding: s's
  // binary exponent, plus one when its significand is at least sqrt(2)
  // (which lies strictly between the fp32 significands 0x3504F3 and
  // 0x3504F4); a subnormal s (< 2^-126) clamps to -126. The store kernel
  // computes the same bits, so device and host bytes agree everywhere.
  uint32_t s_bits = float_bits(s);
  int s_exponent = (int)(s_bits >> 23);
  int exponent = s_exponent == 0
                     ? -126
                     : s_exponent - 127 + ((s_bits & 0x7FFFFF) >= 0x3504F4u);
  if (exponent < -126)
    exponent = -126;
  if (exponent > 127)
    exponent = 127;
  // x / 2^exp == x * 2^-exp bit for bit: both are the correctly rounded
  // value of the same real number, and 2^-exp (2^-127 .. 2^126) is exact.
  float inv_scale = ldexpf(1.0f, -exponent);
  for (int i = 0; i < UQ_GROUP_SIZE; i += 2) {
    uint8_t lo = uq_fp4_snap(x[i] * inv_scale);
    uint8_t hi = uq_fp4_snap(x[i + 1] * inv_scale);
    out_codes[i / 2] = (uint8_t)(lo | (hi << 4));
  }
  *out_scale = (uint8_t)(exponent + 127);
}

void uq_group_decode(const uint8_t codes[UQ_GROUP_CODE_BYTES], uint8_t scale,
                     float out_x[UQ_GROUP_SIZE]) {
  float s = uq_ue8m0_to_float(scale);
  for (int i = 0; i < UQ_GROUP_SIZE; i += 2) {
    out_x[i] = scale ? uq_fp4_to_float(codes[i / 2] & 15) * s : 0.0f;
    out_x[i + 1] = scale ? uq_fp4_to_float(codes[i / 2] >> 4) * s : 0.0f;
  }
}

static void encode_vector(int32_t head_dim, const float *x, uint8_t *codes,
                          uint8_t *scales) {
  for (int g = 0; g < UQ_SLOT_NUM_GROUPS(head_dim); ++g)
    uq_group_encode(x + g * UQ_GROUP_SIZE, codes + g * UQ_GROUP_CODE_BYTES,
                    scales + g);
}

void uq_format_slot_encode_(int32_t head_dim, uq_dtype_t dtype,
                            const void *k_in, const void *v_in,
                            uint8_t *out_slot) {
  float k[UQ_MAX_HEAD_DIM], v[UQ_MAX_HEAD_DIM];
  for (int d = 0; d < head_dim; ++d) {
    k[d] = act_at(dtype, k_in, d);
    v[d] = act_at(dtype, v_in, d);
  }
  uq_format_wht_(head_dim, k);
  encode_vector(head_dim, k, out_slot + UQ_SLOT_K_CODES_OFFSET(head_dim),
                out_slot + UQ_SLOT_K_SCALES_OFFSET(head_dim));
  encode_vector(head_dim, v, out_slot + UQ_SLOT_V_CODES_OFFSET(head_dim),
                out_slot + UQ_SLOT_V_SCALES_OFFSET(head_dim));
}

uq_status_t uq_slot_encode_dtype(int32_t head_dim, uq_dtype_t dtype,
                                 const void *k, const void *v,
                                 uint8_t *out_slot) {
  UQ_RETURN_IF_ERROR(uq_head_dim_check(head_dim), "uq_slot_encode");
  UQ_RETURN_IF_ERROR(uq_check_dtype_("dtype", dtype), "uq_slot_encode");
  if (!k || !v || !out_slot)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_slot_encode: NULL pointer");
  uq_format_slot_encode_(head_dim, dtype, k, v, out_slot);
  return UQ_OK;
}

uq_status_t uq_slot_encode(int32_t head_dim, const uint16_t *k_bf16,
                           const uint16_t *v_bf16, uint8_t *out_slot) {
  return uq_slot_encode_dtype(head_dim, UQ_DTYPE_BF16, k_bf16, v_bf16,
                              out_slot);
}

void uq_format_slot_decode_(int32_t head_dim, const uint8_t *slot,
                            float *out_k_rot, float *out_v) {
  for (int g = 0; g < UQ_SLOT_NUM_GROUPS(head_dim); ++g) {
    uq_group_decode(slot + UQ_SLOT_K_CODES_OFFSET(head_dim) +
                        g * UQ_GROUP_CODE_BYTES,
                    slot[UQ_SLOT_K_SCALES_OFFSET(head_dim) + g],
                    out_k_rot + g * UQ_GROUP_SIZE);
    uq_group_decode(
        slot + UQ_SLOT_V_CODES_OFFSET(head_dim) + g * UQ_GROUP_CODE_BYTES,
        slot[UQ_SLOT_V_SCALES_OFFSET(head_dim) + g], out_v + g * UQ_GROUP_SIZE);
  }
}

uq_status_t uq_slot_decode(int32_t head_dim, const uint8_t *slot,
                           float *out_k_rot, float *out_v) {
  UQ_RETURN_IF_ERROR(uq_head_dim_check(head_dim), "uq_slot_decode");
  if (!slot || !out_k_rot || !out_v)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_slot_decode: NULL pointer");
  uq_format_slot_decode_(head_dim, slot, out_k_rot, out_v);
  return UQ_OK;
}
