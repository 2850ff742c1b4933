// The executor: runs the workgroups of one launch, wave by wave, on the
// decoded instructions. Semantics follow AMD's CDNA4 ISA guide; MFMA,
// conversions and LDS lane maps come from sim/math.h.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/internal.h"
#include "sim/math.h"

#define UQ_SIM_MAX_WAVES 16
#define UQ_SIM_MAX_LDS (160u * 1024u)
// A wave that runs this many instructions is taken to be stuck in a loop
// (the decode kernel needs a few million at the longest contexts).
#define UQ_SIM_WAVE_INST_LIMIT (1ull << 30)

enum { WAVE_RUN = 0, WAVE_BARRIER, WAVE_DONE };

typedef struct uq_sim_wave_s {
  uint32_t v[512][64]; // v0..v255, then a0..a255
  uint32_t s[128];     // hardware SGPR numbering: vcc 106, m0 124, exec 126
  uint64_t pc;
  uint64_t executed;
  uint32_t mode;
  uint8_t scc;
  uint8_t state;
} uq_sim_wave_t;

typedef struct uq_sim_ctx_s {
  uq_sim_t *sim;
  uq_sim_decoder_t *decoder;
  uq_sim_counters_t *cnt;
  uint8_t *lds;
  uint32_t lds_size;
  // The allocation hit last, so that a wave's accesses skip the search.
  uint64_t mem_base, mem_size;
  uint8_t *mem_data;
  // UQ_SIM_TRACE=1: every executed instruction goes to stderr.
  int trace;
  uint64_t inst_limit; // per wave; UQ_SIM_MAX_WAVE_INSTRUCTIONS overrides
  uint32_t trace_wg[3], trace_wave;
} uq_sim_ctx_t;

// The host bytes of [a, a + n) in device memory, or NULL (a fault).
static inline uint8_t *mem_at(uq_sim_ctx_t *c, uint64_t a, uint32_t n) {
  uint64_t off = a - c->mem_base;
  if (off < c->mem_size && n <= c->mem_size - off)
    return c->mem_data + off;
  uint8_t *p = uq_sim_memory_lookup(c->sim, a, n);
  if (p) {
    const uq_sim_alloc_t *al = &c->sim->allocs[c->sim->last_hit];
    c->mem_base = al->base;
    c->mem_size = al->size;
    c->mem_data = al->data;
  }
  return p;
}

// ---------------------------------------------------------------------------
// Small helpers.

static inline float u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static inline uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static inline uint64_t exec_of(const uq_sim_wave_t *w) {
  return (uint64_t)w->s[127] << 32 | w->s[126];
}
static inline void set_exec(uq_sim_wave_t *w, uint64_t e) {
  w->s[126] = (uint32_t)e;
  w->s[127] = (uint32_t)(e >> 32);
}
static inline uint64_t vcc_of(const uq_sim_wave_t *w) {
  return (uint64_t)w->s[107] << 32 | w->s[106];
}

static uq_status_t fail(const uq_sim_inst_t *in, uq_status_code_t code,
                        const char *what) {
  return UQ_MAKE_STATUS(code, "%s: '%s' at 0x%llx", what, in->text,
                        (unsigned long long)in->pc);
}
#define UNIMPL(in)                                                             \
  return fail((in), UQ_STATUS_UNIMPLEMENTED, "unimplemented instruction")

static inline uint32_t sread(const uq_sim_wave_t *w, const uq_sim_opnd_t *o,
                             int half) {
  switch (o->kind) {
  case UQ_OPND_SGPR:
    return w->s[(o->reg + half) & 127];
  case UQ_OPND_CONST:
    return (uint32_t)(o->value >> (32 * half));
  case UQ_OPND_SCC:
    return half ? 0 : w->scc;
  default:
    return 0;
  }
}
static inline uint64_t sread64(const uq_sim_wave_t *w, const uq_sim_opnd_t *o) {
  if (o->kind == UQ_OPND_CONST)
    return o->value;
  return (uint64_t)sread(w, o, 1) << 32 | sread(w, o, 0);
}
static inline void swrite(uq_sim_wave_t *w, const uq_sim_opnd_t *o, int half,
                          uint32_t v) {
  if (o->kind == UQ_OPND_SGPR)
    w->s[(o->reg + half) & 127] = v;
}
static inline void swrite64(uq_sim_wave_t *w, const uq_sim_opnd_t *o,
                            uint64_t v) {
  swrite(w, o, 0, (uint32_t)v);
  swrite(w, o, 1, (uint32_t)(v >> 32));
}

// A whole-wave source: the VGPR row itself, or `tmp` filled with a scalar.
static inline const uint32_t *vsrc(uq_sim_wave_t *w, const uq_sim_opnd_t *o,
                                   int half, uint32_t *tmp) {
  if (o->kind == UQ_OPND_VGPR)
    return w->v[(o->reg + half) & 511];
  uint32_t x = sread(w, o, half);
  if (o->kind == UQ_OPND_CONST && half == 1 && !(o->value >> 32) &&
      o->is_float_const == 0 && (int64_t)o->value < 0)
    x = 0xFFFFFFFFu;
  for (int l = 0; l < 64; ++l)
    tmp[l] = x;
  return tmp;
}

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

static int fclass(float f, uint32_t mask) {
  uint32_t b = f2u(f);
  int neg = b >> 31, bit;
  if (isnan(f))
    bit = (b & 0x400000) ? 1 : 0;
  else if (isinf(f))
    bit = neg ? 2 : 9;
  else if (f == 0)
    bit = neg ? 5 : 6;
  else if (fpclassify(f) == FP_SUBNORMAL)
    bit = neg ? 4 : 7;
  else
    bit = neg ? 3 : 8;
  return (mask >> bit) & 1;
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

static inline uint32_t sdwa_sel(uint32_t x, int sel, int sext) {
  switch (sel) {
  case 0:
  case 1:
  case 2:
  case 3: {
    uint32_t b = (x >> (8 * sel)) & 0xFF;
    return sext ? (uint32_t)(int32_t)(int8_t)b : b;
  }
  case 4:
  case 5: {
    uint32_t h = (x >> (16 * (sel - 4))) & 0xFFFF;
    return sext ? (uint32_t)(int32_t)(int16_t)h : h;
  }
  default:
    return x;
  }
}

// ---------------------------------------------------------------------------
// SALU.

static uq_status_t exec_salu(uq_sim_wave_t *w, const uq_sim_inst_t *in) {
  const uq_sim_opnd_t *o = in->o;
  const uq_sim_opnd_t *d = &o[0];
  const uq_sim_opnd_t *s0 = &o[in->nd], *s1 = &o[in->nd + 1];
  uint32_t a = sread(w, s0, 0), b = sread(w, s1, 0);
  uint64_t a64 = 0, b64 = 0;
  if (in->width64) {
    a64 = sread64(w, s0);
    b64 = sread64(w, s1);
  }
  uint32_t r = 0;
  uint64_t r64 = 0;
  int wr = 1, wr64 = 0;
  switch (in->op) {
  case UQ_OP_S_MOV_B32:
    r = a;
    break;
  case UQ_OP_S_MOV_B64:
    r64 = a64;
    wr64 = 1;
    break;
  case UQ_OP_S_CMOV_B32:
    r = a;
    wr = w->scc;
    break;
  case UQ_OP_S_CMOV_B64:
    r64 = a64;
    wr64 = 1;
    wr = w->scc;
    break;
  case UQ_OP_S_NOT_B32:
    r = ~a;
    w->scc = r != 0;
    break;
  case UQ_OP_S_NOT_B64:
    r64 = ~a64;
    wr64 = 1;
    w->scc = r64 != 0;
    break;
  case UQ_OP_S_BREV_B32: {
    for (int i = 0; i < 32; ++i)
      r |= ((a >> i) & 1) << (31 - i);
    break;
  }
  case UQ_OP_S_BCNT1_I32_B32:
    r = (uint32_t)__builtin_popcount(a);
    w->scc = r != 0;
    break;
  case UQ_OP_S_BCNT1_I32_B64:
    r = (uint32_t)__builtin_popcountll(a64);
    w->scc = r != 0;
    break;
  case UQ_OP_S_FF1_I32_B32:
    r = a ? (uint32_t)__builtin_ctz(a) : 0xFFFFFFFFu;
    break;
  case UQ_OP_S_FF1_I32_B64:
    r = a64 ? (uint32_t)__builtin_ctzll(a64) : 0xFFFFFFFFu;
    break;
  case UQ_OP_S_FLBIT_I32_B32:
    r = a ? (uint32_t)__builtin_clz(a) : 0xFFFFFFFFu;
    break;
  case UQ_OP_S_SEXT_I32_I8:
    r = (uint32_t)(int32_t)(int8_t)a;
    break;
  case UQ_OP_S_SEXT_I32_I16:
    r = (uint32_t)(int32_t)(int16_t)a;
    break;
  case UQ_OP_S_ABS_I32:
    r = (int32_t)a < 0 ? -a : a;
    w->scc = r != 0;
    break;
  case UQ_OP_S_AND_SAVEEXEC_B64:
  case UQ_OP_S_OR_SAVEEXEC_B64:
  case UQ_OP_S_XOR_SAVEEXEC_B64:
  case UQ_OP_S_ANDN2_SAVEEXEC_B64:
  case UQ_OP_S_ORN2_SAVEEXEC_B64:
  case UQ_OP_S_NAND_SAVEEXEC_B64:
  case UQ_OP_S_NOR_SAVEEXEC_B64:
  case UQ_OP_S_XNOR_SAVEEXEC_B64:
  case UQ_OP_S_ANDN1_SAVEEXEC_B64:
  case UQ_OP_S_ORN1_SAVEEXEC_B64: {
    uint64_t e = exec_of(w), n;
    switch (in->op) {
    case UQ_OP_S_AND_SAVEEXEC_B64:
      n = a64 & e;
      break;
    case UQ_OP_S_OR_SAVEEXEC_B64:
      n = a64 | e;
      break;
    case UQ_OP_S_XOR_SAVEEXEC_B64:
      n = a64 ^ e;
      break;
    case UQ_OP_S_ANDN2_SAVEEXEC_B64:
      n = a64 & ~e;
      break;
    case UQ_OP_S_ORN2_SAVEEXEC_B64:
      n = a64 | ~e;
      break;
    case UQ_OP_S_NAND_SAVEEXEC_B64:
      n = ~(a64 & e);
      break;
    case UQ_OP_S_NOR_SAVEEXEC_B64:
      n = ~(a64 | e);
      break;
    case UQ_OP_S_XNOR_SAVEEXEC_B64:
      n = ~(a64 ^ e);
      break;
    case UQ_OP_S_ANDN1_SAVEEXEC_B64:
      n = ~a64 & e;
      break;
    default:
      n = ~a64 | e;
      break;
    }
    swrite64(w, d, e);
    set_exec(w, n);
    w->scc = n != 0;
    return UQ_OK;
  }
  case UQ_OP_S_ANDN1_WREXEC_B64:
  case UQ_OP_S_ANDN2_WREXEC_B64: {
    uint64_t e = exec_of(w);
    uint64_t n = in->op == UQ_OP_S_ANDN1_WREXEC_B64 ? ~a64 & e : a64 & ~e;
    set_exec(w, n);
    swrite64(w, d, n);
    w->scc = n != 0;
    return UQ_OK;
  }
  case UQ_OP_S_GETPC_B64:
    r64 = in->pc + in->size;
    wr64 = 1;
    break;
  case UQ_OP_S_SETPC_B64:
    w->pc = sread64(w, &o[0]) - in->size;
    return UQ_OK;
  case UQ_OP_S_SWAPPC_B64: {
    uint64_t target = a64;
    swrite64(w, d, in->pc + in->size);
    w->pc = target - in->size;
    return UQ_OK;
  }
  case UQ_OP_S_ADD_U32: {
    uint64_t t = (uint64_t)a + b;
    r = (uint32_t)t;
    w->scc = t >> 32;
    break;
  }
  case UQ_OP_S_SUB_U32:
    r = a - b;
    w->scc = b > a;
    break;
  case UQ_OP_S_ADD_I32:
    r = a + b;
    w->scc = ((~(a ^ b)) & (a ^ r)) >> 31;
    break;
  case UQ_OP_S_SUB_I32:
    r = a - b;
    w->scc = ((a ^ b) & (a ^ r)) >> 31;
    break;
  case UQ_OP_S_ADDC_U32: {
    uint64_t t = (uint64_t)a + b + w->scc;
    r = (uint32_t)t;
    w->scc = t >> 32;
    break;
  }
  case UQ_OP_S_SUBB_U32: {
    uint64_t t = (uint64_t)a - b - w->scc;
    r = (uint32_t)t;
    w->scc = (t >> 32) != 0;
    break;
  }
  case UQ_OP_S_MIN_I32:
    w->scc = (int32_t)a < (int32_t)b;
    r = w->scc ? a : b;
    break;
  case UQ_OP_S_MIN_U32:
    w->scc = a < b;
    r = w->scc ? a : b;
    break;
  case UQ_OP_S_MAX_I32:
    w->scc = (int32_t)a > (int32_t)b;
    r = w->scc ? a : b;
    break;
  case UQ_OP_S_MAX_U32:
    w->scc = a > b;
    r = w->scc ? a : b;
    break;
  case UQ_OP_S_CSELECT_B32:
    r = w->scc ? a : b;
    break;
  case UQ_OP_S_CSELECT_B64:
    r64 = w->scc ? a64 : b64;
    wr64 = 1;
    break;
#define LOGIC(OP32, OP64, expr)                                                \
  case OP32: {                                                                 \
    uint32_t x = a, y = b;                                                     \
    r = (expr);                                                                \
    w->scc = r != 0;                                                           \
    break;                                                                     \
  }                                                                            \
  case OP64: {                                                                 \
    uint64_t x = a64, y = b64;                                                 \
    r64 = (expr);                                                              \
    wr64 = 1;                                                                  \
    w->scc = r64 != 0;                                                         \
    break;                                                                     \
  }
    LOGIC(UQ_OP_S_AND_B32, UQ_OP_S_AND_B64, x & y)
    LOGIC(UQ_OP_S_OR_B32, UQ_OP_S_OR_B64, x | y)
    LOGIC(UQ_OP_S_XOR_B32, UQ_OP_S_XOR_B64, x ^ y)
    LOGIC(UQ_OP_S_ANDN2_B32, UQ_OP_S_ANDN2_B64, x & ~y)
    LOGIC(UQ_OP_S_ORN2_B32, UQ_OP_S_ORN2_B64, x | ~y)
    LOGIC(UQ_OP_S_NAND_B32, UQ_OP_S_NAND_B64, ~(x & y))
    LOGIC(UQ_OP_S_NOR_B32, UQ_OP_S_NOR_B64, ~(x | y))
    LOGIC(UQ_OP_S_XNOR_B32, UQ_OP_S_XNOR_B64, ~(x ^ y))
#undef LOGIC
  case UQ_OP_S_LSHL_B32:
    r = a << (b & 31);
    w->scc = r != 0;
    break;
  case UQ_OP_S_LSHR_B32:
    r = a >> (b & 31);
    w->scc = r != 0;
    break;
  case UQ_OP_S_ASHR_I32:
    r = (uint32_t)((int32_t)a >> (b & 31));
    w->scc = r != 0;
    break;
  case UQ_OP_S_LSHL_B64:
    r64 = a64 << (b & 63);
    wr64 = 1;
    w->scc = r64 != 0;
    break;
  case UQ_OP_S_LSHR_B64:
    r64 = a64 >> (b & 63);
    wr64 = 1;
    w->scc = r64 != 0;
    break;
  case UQ_OP_S_ASHR_I64:
    r64 = (uint64_t)((int64_t)a64 >> (b & 63));
    wr64 = 1;
    w->scc = r64 != 0;
    break;
  case UQ_OP_S_BFM_B32:
    r = (uint32_t)(((1ull << (a & 31)) - 1) << (b & 31));
    break;
  case UQ_OP_S_BFM_B64:
    r64 = ((a & 63) ? ((1ull << (a & 63)) - 1) : 0) << (b & 63);
    wr64 = 1;
    break;
  case UQ_OP_S_MUL_I32:
    r = a * b;
    break;
  case UQ_OP_S_MUL_HI_U32:
    r = (uint32_t)(((uint64_t)a * b) >> 32);
    break;
  case UQ_OP_S_MUL_HI_I32:
    r = (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32);
    break;
  case UQ_OP_S_BFE_U32: {
    uint32_t off = b & 31, wd = (b >> 16) & 0x7F;
    r = wd == 0 ? 0
                : (uint32_t)((a >> off) &
                             (wd >= 32 ? 0xFFFFFFFFu : ((1u << wd) - 1)));
    w->scc = r != 0;
    break;
  }
  case UQ_OP_S_BFE_I32: {
    uint32_t off = b & 31, wd = (b >> 16) & 0x7F;
    if (wd == 0)
      r = 0;
    else if (wd >= 32)
      r = (uint32_t)((int32_t)a >> off);
    else
      r = (uint32_t)(((int32_t)((uint32_t)((int32_t)a >> off) << (32 - wd))) >>
                     (32 - wd));
    w->scc = r != 0;
    break;
  }
  case UQ_OP_S_BFE_U64: {
    uint32_t off = b & 63, wd = (b >> 16) & 0x7F;
    r64 = wd == 0 ? 0 : (a64 >> off) & (wd >= 64 ? ~0ull : ((1ull << wd) - 1));
    wr64 = 1;
    w->scc = r64 != 0;
    break;
  }
  case UQ_OP_S_BFE_I64: {
    uint32_t off = b & 63, wd = (b >> 16) & 0x7F;
    if (wd == 0)
      r64 = 0;
    else if (wd >= 64)
      r64 = (uint64_t)((int64_t)a64 >> off);
    else
      r64 = (uint64_t)(((int64_t)((a64 >> off) << (64 - wd))) >> (64 - wd));
    wr64 = 1;
    w->scc = r64 != 0;
    break;
  }
  case UQ_OP_S_ABSDIFF_I32: {
    int64_t t = (int64_t)(int32_t)a - (int32_t)b;
    r = (uint32_t)(t < 0 ? -t : t);
    w->scc = r != 0;
    break;
  }
  case UQ_OP_S_LSHL1_ADD_U32:
  case UQ_OP_S_LSHL2_ADD_U32:
  case UQ_OP_S_LSHL3_ADD_U32:
  case UQ_OP_S_LSHL4_ADD_U32: {
    int sh = in->op - UQ_OP_S_LSHL1_ADD_U32 + 1;
    uint64_t t = ((uint64_t)a << sh) + b;
    r = (uint32_t)t;
    w->scc = (t >> 32) != 0;
    break;
  }
  case UQ_OP_S_PACK_LL_B32_B16:
    r = (a & 0xFFFF) | b << 16;
    break;
  case UQ_OP_S_PACK_LH_B32_B16:
    r = (a & 0xFFFF) | (b & 0xFFFF0000u);
    break;
  case UQ_OP_S_PACK_HH_B32_B16:
    r = (a >> 16) | (b & 0xFFFF0000u);
    break;
  case UQ_OP_S_MOVK_I32:
    r = (uint32_t)in->simm;
    break;
  case UQ_OP_S_CMOVK_I32:
    r = (uint32_t)in->simm;
    wr = w->scc;
    break;
  case UQ_OP_S_ADDK_I32: {
    uint32_t x = sread(w, d, 0), y = (uint32_t)in->simm;
    r = x + y;
    w->scc = ((~(x ^ y)) & (x ^ r)) >> 31;
    break;
  }
  case UQ_OP_S_MULK_I32:
    r = sread(w, d, 0) * (uint32_t)in->simm;
    break;
#define CMPK(OP, T, cmp, ext)                                                  \
  case OP: {                                                                   \
    T x = (T)sread(w, &o[0], 0), y = (T)(ext);                                 \
    w->scc = cmp;                                                              \
    return UQ_OK;                                                              \
  }
    CMPK(UQ_OP_S_CMPK_EQ_I32, int32_t, x == y, in->simm)
    CMPK(UQ_OP_S_CMPK_LG_I32, int32_t, x != y, in->simm)
    CMPK(UQ_OP_S_CMPK_GT_I32, int32_t, x > y, in->simm)
    CMPK(UQ_OP_S_CMPK_GE_I32, int32_t, x >= y, in->simm)
    CMPK(UQ_OP_S_CMPK_LT_I32, int32_t, x < y, in->simm)
    CMPK(UQ_OP_S_CMPK_LE_I32, int32_t, x <= y, in->simm)
    CMPK(UQ_OP_S_CMPK_EQ_U32, uint32_t, x == y, (uint16_t)in->simm)
    CMPK(UQ_OP_S_CMPK_LG_U32, uint32_t, x != y, (uint16_t)in->simm)
    CMPK(UQ_OP_S_CMPK_GT_U32, uint32_t, x > y, (uint16_t)in->simm)
    CMPK(UQ_OP_S_CMPK_GE_U32, uint32_t, x >= y, (uint16_t)in->simm)
    CMPK(UQ_OP_S_CMPK_LT_U32, uint32_t, x < y, (uint16_t)in->simm)
    CMPK(UQ_OP_S_CMPK_LE_U32, uint32_t, x <= y, (uint16_t)in->simm)
#undef CMPK
  case UQ_OP_S_CMP_EQ_I32:
  case UQ_OP_S_CMP_EQ_U32:
    w->scc = a == b;
    return UQ_OK;
  case UQ_OP_S_CMP_LG_I32:
  case UQ_OP_S_CMP_LG_U32:
    w->scc = a != b;
    return UQ_OK;
  case UQ_OP_S_CMP_GT_I32:
    w->scc = (int32_t)a > (int32_t)b;
    return UQ_OK;
  case UQ_OP_S_CMP_GE_I32:
    w->scc = (int32_t)a >= (int32_t)b;
    return UQ_OK;
  case UQ_OP_S_CMP_LT_I32:
    w->scc = (int32_t)a < (int32_t)b;
    return UQ_OK;
  case UQ_OP_S_CMP_LE_I32:
    w->scc = (int32_t)a <= (int32_t)b;
    return UQ_OK;
  case UQ_OP_S_CMP_GT_U32:
    w->scc = a > b;
    return UQ_OK;
  case UQ_OP_S_CMP_GE_U32:
    w->scc = a >= b;
    return UQ_OK;
  case UQ_OP_S_CMP_LT_U32:
    w->scc = a < b;
    return UQ_OK;
  case UQ_OP_S_CMP_LE_U32:
    w->scc = a <= b;
    return UQ_OK;
  case UQ_OP_S_CMP_EQ_U64:
    w->scc = a64 == b64;
    return UQ_OK;
  case UQ_OP_S_CMP_LG_U64:
    w->scc = a64 != b64;
    return UQ_OK;
  case UQ_OP_S_BITCMP0_B32:
    w->scc = ((a >> (b & 31)) & 1) == 0;
    return UQ_OK;
  case UQ_OP_S_BITCMP1_B32:
    w->scc = ((a >> (b & 31)) & 1) == 1;
    return UQ_OK;
  case UQ_OP_S_BITCMP0_B64:
    w->scc = ((sread64(w, s0) >> (b & 63)) & 1) == 0;
    return UQ_OK;
  case UQ_OP_S_BITCMP1_B64:
    w->scc = ((sread64(w, s0) >> (b & 63)) & 1) == 1;
    return UQ_OK;
  case UQ_OP_S_BITSET0_B32:
    r = sread(w, d, 0) & ~(1u << (a & 31));
    break;
  case UQ_OP_S_BITSET1_B32:
    r = sread(w, d, 0) | (1u << (a & 31));
    break;
  case UQ_OP_S_GETREG_B32:
  case UQ_OP_S_SETREG_B32:
  case UQ_OP_S_SETREG_IMM32_B32: {
    uint32_t id = (uint32_t)in->simm & 0x3F,
             off = ((uint32_t)in->simm >> 6) & 0x1F;
    uint32_t size = (((uint32_t)in->simm >> 11) & 0x1F) + 1;
    uint32_t mask = (uint32_t)(((1ull << size) - 1) << off);
    if (id != 1) // only MODE is modelled
      UNIMPL(in);
    if (in->op == UQ_OP_S_GETREG_B32) {
      r = (w->mode & mask) >> off;
      break;
    }
    uint32_t val = in->op == UQ_OP_S_SETREG_IMM32_B32 ? (uint32_t)in->offset
                                                      : sread(w, &o[1], 0);
    w->mode = (w->mode & ~mask) | ((val << off) & mask);
    return UQ_OK;
  }
  default:
    UNIMPL(in);
  }
  if (wr) {
    if (wr64)
      swrite64(w, d, r64);
    else
      swrite(w, d, 0, r);
  }
  return UQ_OK;
}

// ---------------------------------------------------------------------------
// SMEM.

static uq_status_t exec_smem(uq_sim_ctx_t *c, uq_sim_wave_t *w,
                             const uq_sim_inst_t *in) {
  const uq_sim_opnd_t *d = &in->o[0];
  uint32_t n = d->count;
  // An immediate offset is signed (21 bits); an SGPR offset is unsigned.
  uint64_t off =
      in->o[2].kind == UQ_OPND_CONST ? in->o[2].value : sread(w, &in->o[2], 0);
  off += (uint64_t)(int64_t)(in->has_offset ? in->offset : 0);
  int is_buffer = in->op >= UQ_OP_S_BUFFER_LOAD_DWORD;
  uint32_t vals[16];
  if (is_buffer) {
    const uq_sim_opnd_t *r = &in->o[1];
    uint64_t base =
        (uint64_t)sread(w, r, 0) | (uint64_t)(sread(w, r, 1) & 0xFFFF) << 32;
    uint32_t stride = sread(w, r, 1) >> 16, num = sread(w, r, 2);
    uint64_t limit = stride == 0 ? num : (uint64_t)num * stride;
    for (uint32_t i = 0; i < n; ++i) {
      uint64_t o4 = (off & ~3ull) + 4ull * i;
      vals[i] = 0;
      if (o4 + 4 <= limit) {
        const uint8_t *p = mem_at(c, base + o4, 4);
        if (!p)
          return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                                "memory fault at 0x%llx: '%s' at 0x%llx",
                                (unsigned long long)(base + o4), in->text,
                                (unsigned long long)in->pc);
        memcpy(&vals[i], p, 4);
      }
    }
  } else {
    uint64_t addr = (sread64(w, &in->o[1]) + off) & ~3ull;
    const uint8_t *p = mem_at(c, addr, 4u * n);
    if (!p)
      return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                            "memory fault: %u bytes at 0x%llx: '%s' at 0x%llx",
                            4 * n, (unsigned long long)addr, in->text,
                            (unsigned long long)in->pc);
    memcpy(vals, p, 4ull * n);
  }
  for (uint32_t i = 0; i < n; ++i)
    swrite(w, d, (int)i, vals[i]);
  c->cnt->scalar_bytes_read += 4ull * n;
  return UQ_OK;
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

static inline int is_float_op(uint16_t op) {
  switch (op) {
  case UQ_OP_V_ADD_F32:
  case UQ_OP_V_SUB_F32:
  case UQ_OP_V_SUBREV_F32:
  case UQ_OP_V_MUL_F32:
  case UQ_OP_V_MUL_LEGACY_F32:
  case UQ_OP_V_MIN_F32:
  case UQ_OP_V_MAX_F32:
  case UQ_OP_V_FMAC_F32:
  case UQ_OP_V_FMAMK_F32:
  case UQ_OP_V_FMAAK_F32:
  case UQ_OP_V_FMA_F32:
  case UQ_OP_V_MIN3_F32:
  case UQ_OP_V_MAX3_F32:
  case UQ_OP_V_MED3_F32:
  case UQ_OP_V_FRACT_F32:
  case UQ_OP_V_TRUNC_F32:
  case UQ_OP_V_CEIL_F32:
  case UQ_OP_V_RNDNE_F32:
  case UQ_OP_V_FLOOR_F32:
  case UQ_OP_V_EXP_F32:
  case UQ_OP_V_LOG_F32:
  case UQ_OP_V_RCP_F32:
  case UQ_OP_V_RCP_IFLAG_F32:
  case UQ_OP_V_RSQ_F32:
  case UQ_OP_V_SQRT_F32:
  case UQ_OP_V_LDEXP_F32:
  case UQ_OP_V_FREXP_MANT_F32:
  case UQ_OP_V_DIV_FMAS_F32:
  case UQ_OP_V_DIV_FIXUP_F32:
  case UQ_OP_V_DIV_SCALE_F32:
    return 1;
  default:
    return 0;
  }
}

static uq_status_t exec_vcmp(uq_sim_wave_t *w, const uq_sim_inst_t *in,
                             const uint32_t *a, const uint32_t *b,
                             const uint32_t *ah, const uint32_t *bh,
                             uint64_t exec) {
  uint64_t res = 0;
  int op = in->op;
  int is_x = 0;
  if (op >= UQ_OP_V_CMPX_F_F32 && op <= UQ_OP_V_CMPX_T_U16) {
    is_x = 1;
    op = op - UQ_OP_V_CMPX_F_F32 + UQ_OP_V_CMP_F_F32;
  }
  if (op == UQ_OP_V_CMPX_CLASS_F32) {
    is_x = 1;
    op = UQ_OP_V_CMP_CLASS_F32;
  }
  for (int l = 0; l < 64; ++l) {
    if (!((exec >> l) & 1))
      continue;
    int t = 0;
    if (op >= UQ_OP_V_CMP_F_F32 && op <= UQ_OP_V_CMP_TRU_F32) {
      float x = u2f(a[l]), y = u2f(b[l]);
      int un = isnan(x) || isnan(y);
      switch (op - UQ_OP_V_CMP_F_F32) {
      case 0:
        t = 0;
        break;
      case 1:
        t = x < y;
        break;
      case 2:
        t = x == y;
        break;
      case 3:
        t = x <= y;
        break;
      case 4:
        t = x > y;
        break;
      case 5:
        t = x < y || x > y;
        break;
      case 6:
        t = x >= y;
        break;
      case 7:
        t = !un;
        break;
      case 8:
        t = un;
        break;
      case 9:
        t = !(x >= y);
        break;
      case 10:
        t = !(x < y || x > y);
        break;
      case 11:
        t = !(x > y);
        break;
      case 12:
        t = !(x <= y);
        break;
      case 13:
        t = !(x == y);
        break;
      case 14:
        t = !(x < y);
        break;
      default:
        t = 1;
        break;
      }
    } else if (op == UQ_OP_V_CMP_CLASS_F32) {
      t = fclass(u2f(a[l]), b[l]);
    } else {
      int base, kind; // kind 0 i32, 1 u32, 2 i64, 3 u64, 4 i16, 5 u16
      if (op >= UQ_OP_V_CMP_F_I32 && op <= UQ_OP_V_CMP_T_I32) {
        base = UQ_OP_V_CMP_F_I32;
        kind = 0;
      } else if (op >= UQ_OP_V_CMP_F_U32 && op <= UQ_OP_V_CMP_T_U32) {
        base = UQ_OP_V_CMP_F_U32;
        kind = 1;
      } else if (op >= UQ_OP_V_CMP_F_I64 && op <= UQ_OP_V_CMP_T_I64) {
        base = UQ_OP_V_CMP_F_I64;
        kind = 2;
      } else if (op >= UQ_OP_V_CMP_F_U64 && op <= UQ_OP_V_CMP_T_U64) {
        base = UQ_OP_V_CMP_F_U64;
        kind = 3;
      } else if (op >= UQ_OP_V_CMP_F_I16 && op <= UQ_OP_V_CMP_T_I16) {
        base = UQ_OP_V_CMP_F_I16;
        kind = 4;
      } else if (op >= UQ_OP_V_CMP_F_U16 && op <= UQ_OP_V_CMP_T_U16) {
        base = UQ_OP_V_CMP_F_U16;
        kind = 5;
      } else
        UNIMPL(in);
      int lt, eq;
      switch (kind) {
      case 0:
        lt = (int32_t)a[l] < (int32_t)b[l];
        eq = a[l] == b[l];
        break;
      case 1:
        lt = a[l] < b[l];
        eq = a[l] == b[l];
        break;
      case 2: {
        int64_t x = (int64_t)((uint64_t)ah[l] << 32 | a[l]),
                y = (int64_t)((uint64_t)bh[l] << 32 | b[l]);
        lt = x < y;
        eq = x == y;
        break;
      }
      case 3: {
        uint64_t x = (uint64_t)ah[l] << 32 | a[l],
                 y = (uint64_t)bh[l] << 32 | b[l];
        lt = x < y;
        eq = x == y;
        break;
      }
      case 4:
        lt = (int16_t)a[l] < (int16_t)b[l];
        eq = (uint16_t)a[l] == (uint16_t)b[l];
        break;
      default:
        lt = (uint16_t)a[l] < (uint16_t)b[l];
        eq = (uint16_t)a[l] == (uint16_t)b[l];
        break;
      }
      switch (op - base) {
      case 0:
        t = 0;
        break;
      case 1:
        t = lt;
        break;
      case 2:
        t = eq;
        break;
      case 3:
        t = lt || eq;
        break;
      case 4:
        t = !lt && !eq;
        break;
      case 5:
        t = !eq;
        break;
      case 6:
        t = !lt;
        break;
      default:
        t = 1;
        break;
      }
    }
    res |= (uint64_t)t << l;
  }
  swrite64(w, &in->o[0], res);
  if (is_x)
    set_exec(w, res);
  return UQ_OK;
}

static uq_status_t exec_valu(uq_sim_ctx_t *c, uq_sim_wave_t *w,
                             const uq_sim_inst_t *in) {
  (void)c;
  uint64_t exec = exec_of(w), mask = exec;
  const uq_sim_opnd_t *o = in->o;
  int nd = in->nd, ns = in->nopnd - nd;
  uint32_t t[6][64], r[64], rh[64];
  const uint32_t *src[3] = {0, 0, 0}, *srch[3] = {0, 0, 0};
  int fl = is_float_op(in->op);
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

  // VOPC.
  if (op >= UQ_OP_V_CMP_CLASS_F32 && op <= UQ_OP_V_CMPX_T_U16 &&
      (op == UQ_OP_V_CMP_CLASS_F32 || op == UQ_OP_V_CMPX_CLASS_F32 ||
       op >= UQ_OP_V_CMP_F_F32)) {
    if (in->enc == UQ_ENC_DPP || in->enc == UQ_ENC_SDWA)
      UNIMPL(in);
    for (int i = 0; i < 2; ++i) {
      src[i] = vsrc(w, &o[1 + i], 0, t[i]);
      if (in->width64)
        srch[i] = vsrc(w, &o[1 + i], 1, t[2 + i]);
      if (o[1 + i].mods && !in->width64) {
        uint32_t *tt = t[4 + i];
        for (int l = 0; l < 64; ++l) {
          uint32_t v = src[i][l];
          if (o[1 + i].mods & UQ_MOD_ABS)
            v &= 0x7FFFFFFFu;
          if (o[1 + i].mods & UQ_MOD_NEG)
            v ^= 0x80000000u;
          tt[l] = v;
        }
        src[i] = tt;
      }
    }
    return exec_vcmp(w, in, src[0], src[1], srch[0], srch[1], exec);
  }

  // VOP3P packed math.
  if (op >= UQ_OP_V_PK_ADD_F32 && op <= UQ_OP_V_PK_MIN_F16) {
    int is32 = op <= UQ_OP_V_PK_MOV_B32;
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
          if (op != UQ_OP_V_PK_ADD_U16) {
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
          rl = (uint16_t)(lo[0] + lo[1]);
          rhh = (uint16_t)(hi[0] + hi[1]);
          break;
        }
        d0[l] = (uint32_t)rl | (uint32_t)rhh << 16;
      }
    }
    vwrite(w, in, &o[0], mask, r, is32 ? rh : NULL);
    return UQ_OK;
  }

  // Generic per-lane ops: gather up to three sources.
  int s64[3] = {0, 0, 0};
  switch (op) {
  case UQ_OP_V_MOV_B64:
    s64[0] = 1;
    break;
  case UQ_OP_V_LSHLREV_B64:
  case UQ_OP_V_LSHRREV_B64:
  case UQ_OP_V_ASHRREV_I64:
    s64[1] = 1;
    break;
  case UQ_OP_V_MAD_U64_U32:
  case UQ_OP_V_MAD_I64_I32:
    s64[2] = 1;
    break;
  case UQ_OP_V_LSHL_ADD_U64:
    s64[0] = s64[2] = 1;
    break;
  default:
    break;
  }
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
    if (so->mods && !s64[i]) {
      uint32_t *tt = t[3 + i];
      int is16 = op >= UQ_OP_V_ADD_F16 && op <= UQ_OP_V_FMA_F16;
      uint32_t sb = is16 ? 0x8000u : 0x80000000u;
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
  // The 16-bit ops read the low halves: their op_sel (which half) and clamp
  // are not modelled, so such forms stop rather than compute something else.
  if (op >= UQ_OP_V_ADD_F16 && op <= UQ_OP_V_FMA_F16 &&
      (in->op_sel || in->clamp))
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
    int sh = 8 * (op - UQ_OP_V_CVT_F32_UBYTE0);
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
    LANES r[l] = f2u(1.0f / sqrtf(F(a[l])));
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
    LANES r[l] =
        (uint32_t)(((int32_t)(a[l] << 8) >> 8) * ((int32_t)(b[l] << 8) >> 8));
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
    LANES r[l] =
        (uint32_t)(((int32_t)(a[l] << 8) >> 8) * ((int32_t)(b[l] << 8) >> 8)) +
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
  default:
    UNIMPL(in);
  }
#undef LANES
#undef F
  if (fl && (in->omod || in->clamp)) {
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
  if (op >= UQ_OP_V_ADD_F16 && op <= UQ_OP_V_FMA_F16) {
    // 16-bit results: the high half is kept unless op_sel[3] moves it.
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

// ---------------------------------------------------------------------------
// MFMA.

static uq_status_t exec_mfma(uq_sim_wave_t *w, const uq_sim_inst_t *in) {
  const uq_sim_opnd_t *o = in->o;
  static __thread uint32_t A[64][8], B[64][8], SA[64], SB[64];
  static __thread float C[64][4], D[64][4];
  uint32_t tmp[64];
  if (in->nopnd < 4)
    UNIMPL(in);
  if (in->op == UQ_OP_V_MFMA_F32_16X16X16_BF16) {
    // Straight from and to the register file (D may alias C).
    if (in->cbsz || in->abid || in->blgp || o[0].kind != UQ_OPND_VGPR)
      UNIMPL(in);
    uint32_t ta[2][64], tb[2][64], tc[64];
    const uint32_t *a[2], *b[2], *cr[4];
    uint32_t *d[4];
    for (int i = 0; i < 2; ++i) {
      a[i] = vsrc(w, &o[1], i, ta[i]);
      b[i] = vsrc(w, &o[2], i, tb[i]);
    }
    for (int i = 0; i < 4; ++i) {
      // A constant C (0) is the same in every register.
      cr[i] = o[3].kind == UQ_OPND_VGPR ? w->v[(o[3].reg + i) & 511]
                                        : vsrc(w, &o[3], 0, tc);
      d[i] = w->v[(o[0].reg + i) & 511];
    }
    uq_sim_mfma_f32_16x16x16_bf16_rows(a, b, cr, d);
    return UQ_OK;
  }
  for (int i = 0; i < 4; ++i) {
    const uint32_t *s = vsrc(w, &o[3], o[3].kind == UQ_OPND_VGPR ? i : 0, tmp);
    for (int l = 0; l < 64; ++l)
      C[l][i] = u2f(s[l]); // a constant C (0) is the same in every register
  }
  {
    // The scaled MFMA (the bf16 one returned above).
    int fa = in->cbsz, fb = in->blgp;
    if (fa > 4 || fb > 4)
      UNIMPL(in);
    for (int i = 0; i < 8; ++i) {
      for (int l = 0; l < 64; ++l)
        A[l][i] = B[l][i] = 0;
    }
    for (int i = 0; i < o[1].count && i < 8; ++i) {
      const uint32_t *s = vsrc(w, &o[1], i, tmp);
      for (int l = 0; l < 64; ++l)
        A[l][i] = s[l];
    }
    for (int i = 0; i < o[2].count && i < 8; ++i) {
      const uint32_t *s = vsrc(w, &o[2], i, tmp);
      for (int l = 0; l < 64; ++l)
        B[l][i] = s[l];
    }
    int opsel_a = 0, opsel_b = 0;
    int scaled = in->op == UQ_OP_V_MFMA_SCALE_F32_16X16X128_F8F6F4;
    if (scaled && in->nopnd >= 6 && (in->abid & 1)) {
      const uint32_t *s = vsrc(w, &o[4], 0, tmp);
      memcpy(SA, s, sizeof(SA));
      s = vsrc(w, &o[5], 0, tmp);
      memcpy(SB, s, sizeof(SB));
      opsel_a = (in->op_sel & 1) | ((in->op_sel_hi & 1) << 1);
      opsel_b = ((in->op_sel >> 1) & 1) | (((in->op_sel_hi >> 1) & 1) << 1);
    } else {
      for (int l = 0; l < 64; ++l)
        SA[l] = SB[l] = 0x7F7F7F7Fu; // E8M0 1.0
    }
    uq_sim_mfma_scale_f32_16x16x128_f8f6f4(
        fa, fb, (const uint32_t(*)[8])A, (const uint32_t(*)[8])B,
        (const float(*)[4])C, SA, opsel_a, SB, opsel_b, D);
  }
  // MFMAs ignore EXEC.
  if (o[0].kind != UQ_OPND_VGPR)
    UNIMPL(in);
  for (int i = 0; i < 4; ++i) {
    uint32_t *dst = w->v[(o[0].reg + i) & 511];
    for (int l = 0; l < 64; ++l)
      dst[l] = f2u(D[l][i]);
  }
  return UQ_OK;
}

// ---------------------------------------------------------------------------
// LDS.

static uq_status_t lds_fault(const uq_sim_inst_t *in, uint64_t addr,
                             uint32_t size, uint32_t lds_size) {
  return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                        "LDS access of %u bytes at 0x%llx outside the %u-byte "
                        "allocation: '%s' at 0x%llx",
                        size, (unsigned long long)addr, lds_size, in->text,
                        (unsigned long long)in->pc);
}

static uq_status_t exec_lds(uq_sim_ctx_t *c, uq_sim_wave_t *w,
                            const uq_sim_inst_t *in) {
  const uq_sim_opnd_t *o = in->o;
  uint64_t exec = exec_of(w);
  uq_sim_counters_t *cnt = c->cnt;
  int op = in->op;
  uint32_t tmp[64];
#define CHECK(addr, n)                                                         \
  do {                                                                         \
    if ((uint64_t)(addr) + (n) > c->lds_size)                                  \
      return lds_fault(in, (addr), (n), c->lds_size);                          \
    if ((uint32_t)((addr) + (n)) > cnt->lds_high_water)                        \
      cnt->lds_high_water = (uint32_t)((addr) + (n));                          \
  } while (0)
  switch (op) {
  case UQ_OP_DS_READ_B32:
  case UQ_OP_DS_READ_B64:
  case UQ_OP_DS_READ_B96:
  case UQ_OP_DS_READ_B128:
  case UQ_OP_DS_READ_U8:
  case UQ_OP_DS_READ_I8:
  case UQ_OP_DS_READ_U16:
  case UQ_OP_DS_READ_I16: {
    const uint32_t *ad = vsrc(w, &o[1], 0, tmp);
    uint32_t n = op == UQ_OP_DS_READ_B32                              ? 4
                 : op == UQ_OP_DS_READ_B64                            ? 8
                 : op == UQ_OP_DS_READ_B96                            ? 12
                 : op == UQ_OP_DS_READ_B128                           ? 16
                 : (op == UQ_OP_DS_READ_U8 || op == UQ_OP_DS_READ_I8) ? 1
                                                                      : 2;
    for (int l = 0; l < 64; ++l) {
      if (!((exec >> l) & 1))
        continue;
      uint32_t addr = ad[l] + (uint32_t)in->offset;
      CHECK(addr, n);
      const uint8_t *p = c->lds + addr;
      if (n >= 4) {
        for (uint32_t i = 0; i < n / 4; ++i)
          memcpy(&w->v[(o[0].reg + i) & 511][l], p + 4 * i, 4);
      } else {
        uint32_t v = n == 1 ? p[0] : (uint32_t)p[0] | (uint32_t)p[1] << 8;
        if (op == UQ_OP_DS_READ_I8)
          v = (uint32_t)(int32_t)(int8_t)v;
        if (op == UQ_OP_DS_READ_I16)
          v = (uint32_t)(int32_t)(int16_t)v;
        w->v[o[0].reg & 511][l] = v;
      }
      cnt->lds_bytes_read += n;
    }
    return UQ_OK;
  }
  case UQ_OP_DS_WRITE_B8:
  case UQ_OP_DS_WRITE_B16:
  case UQ_OP_DS_WRITE_B32:
  case UQ_OP_DS_WRITE_B64:
  case UQ_OP_DS_WRITE_B96:
  case UQ_OP_DS_WRITE_B128: {
    const uint32_t *ad = vsrc(w, &o[0], 0, tmp);
    uint32_t n = op == UQ_OP_DS_WRITE_B8    ? 1
                 : op == UQ_OP_DS_WRITE_B16 ? 2
                 : op == UQ_OP_DS_WRITE_B32 ? 4
                 : op == UQ_OP_DS_WRITE_B64 ? 8
                 : op == UQ_OP_DS_WRITE_B96 ? 12
                                            : 16;
    // The counters live in locals through the loop (the LDS stores could
    // alias them otherwise) and are stored back before any fault.
    const uint32_t *rows[4];
    for (uint32_t i = 0; i < 4; ++i)
      rows[i] = w->v[(o[1].reg + i) & 511];
    uint32_t hw = cnt->lds_high_water;
    uint64_t bytes = 0;
    for (int l = 0; l < 64; ++l) {
      if (!((exec >> l) & 1))
        continue;
      uint32_t addr = ad[l] + (uint32_t)in->offset;
      if ((uint64_t)addr + n > c->lds_size) {
        cnt->lds_high_water = hw;
        cnt->lds_bytes_written += bytes;
        return lds_fault(in, addr, n, c->lds_size);
      }
      if (addr + n > hw)
        hw = addr + n;
      uint8_t *p = c->lds + addr;
      if (n >= 4) {
        uint32_t v[4];
        for (uint32_t i = 0; i < n / 4; ++i)
          v[i] = rows[i][l];
        memcpy(p, v, n);
      } else {
        uint32_t v = rows[0][l];
        memcpy(p, &v, n);
      }
      bytes += n;
    }
    cnt->lds_high_water = hw;
    cnt->lds_bytes_written += bytes;
    return UQ_OK;
  }
  case UQ_OP_DS_READ2_B32:
  case UQ_OP_DS_READ2_B64:
  case UQ_OP_DS_READ2ST64_B32:
  case UQ_OP_DS_READ2ST64_B64:
  case UQ_OP_DS_WRITE2_B32:
  case UQ_OP_DS_WRITE2_B64:
  case UQ_OP_DS_WRITE2ST64_B32:
  case UQ_OP_DS_WRITE2ST64_B64: {
    int is64 = op == UQ_OP_DS_READ2_B64 || op == UQ_OP_DS_READ2ST64_B64 ||
               op == UQ_OP_DS_WRITE2_B64 || op == UQ_OP_DS_WRITE2ST64_B64;
    int st64 = op == UQ_OP_DS_READ2ST64_B32 || op == UQ_OP_DS_READ2ST64_B64 ||
               op == UQ_OP_DS_WRITE2ST64_B32 || op == UQ_OP_DS_WRITE2ST64_B64;
    int is_read = op <= UQ_OP_DS_READ2ST64_B64 && op >= UQ_OP_DS_READ2_B32;
    uint32_t n = is64 ? 8 : 4, unit = n * (st64 ? 64 : 1);
    const uint32_t *ad = vsrc(w, &o[is_read ? 1 : 0], 0, tmp);
    for (int l = 0; l < 64; ++l) {
      if (!((exec >> l) & 1))
        continue;
      for (int k = 0; k < 2; ++k) {
        uint32_t addr = ad[l] + unit * (uint32_t)(k ? in->offset1 : in->offset);
        CHECK(addr, n);
        uint8_t *p = c->lds + addr;
        for (uint32_t i = 0; i < n / 4; ++i) {
          if (is_read)
            memcpy(&w->v[(o[0].reg + k * (n / 4) + i) & 511][l], p + 4 * i, 4);
          else
            memcpy(p + 4 * i, &w->v[(o[1 + k].reg + i) & 511][l], 4);
        }
        if (is_read)
          cnt->lds_bytes_read += n;
        else
          cnt->lds_bytes_written += n;
      }
    }
    return UQ_OK;
  }
  case UQ_OP_DS_ADD_U32:
  case UQ_OP_DS_ADD_F32:
  case UQ_OP_DS_MAX_F32:
  case UQ_OP_DS_MIN_F32: {
    const uint32_t *ad = vsrc(w, &o[0], 0, tmp);
    for (int l = 0; l < 64; ++l) {
      if (!((exec >> l) & 1))
        continue;
      uint32_t addr = ad[l] + (uint32_t)in->offset, v,
               x = w->v[o[1].reg & 511][l];
      CHECK(addr, 4);
      memcpy(&v, c->lds + addr, 4);
      if (op == UQ_OP_DS_ADD_U32)
        v += x;
      else if (op == UQ_OP_DS_ADD_F32)
        v = f2u(u2f(v) + u2f(x));
      else if (op == UQ_OP_DS_MAX_F32)
        v = f2u(fmaxf(u2f(v), u2f(x)));
      else
        v = f2u(fminf(u2f(v), u2f(x)));
      memcpy(c->lds + addr, &v, 4);
      cnt->lds_bytes_read += 4;
      cnt->lds_bytes_written += 4;
    }
    return UQ_OK;
  }
  case UQ_OP_DS_SWIZZLE_B32: {
    const uint32_t *s = w->v[o[1].reg & 511];
    uint32_t r[64];
    for (int l = 0; l < 64; ++l) {
      int sl = uq_sim_ds_swizzle_src_lane((uint32_t)in->offset & 0xFFFF, l);
      r[l] = sl >= 0 && sl < 64 && ((exec >> sl) & 1) ? s[sl] : 0;
    }
    uint32_t *d = w->v[o[0].reg & 511];
    for (int l = 0; l < 64; ++l)
      if ((exec >> l) & 1)
        d[l] = r[l];
    return UQ_OK;
  }
  case UQ_OP_DS_BPERMUTE_B32:
  case UQ_OP_DS_PERMUTE_B32: {
    const uint32_t *ad = w->v[o[1].reg & 511], *s = w->v[o[2].reg & 511];
    uint32_t r[64];
    memset(r, 0, sizeof(r));
    for (int l = 0; l < 64; ++l) {
      if (!((exec >> l) & 1))
        continue;
      int t = (int)(((ad[l] + (uint32_t)in->offset) >> 2) & 63);
      if (op == UQ_OP_DS_BPERMUTE_B32)
        r[l] = ((exec >> t) & 1) ? s[t] : 0;
      else
        r[t] = s[l];
    }
    uint32_t *d = w->v[o[0].reg & 511];
    for (int l = 0; l < 64; ++l)
      if ((exec >> l) & 1)
        d[l] = r[l];
    return UQ_OK;
  }
  case UQ_OP_DS_READ_B64_TR_B16: {
    if (exec != ~0ull)
      return fail(in, UQ_STATUS_FAILED_PRECONDITION,
                  "ds_read_b64_tr_b16 needs EXEC all ones");
    uint64_t raw[64], out[64];
    const uint32_t *ad = w->v[o[1].reg & 511];
    for (int l = 0; l < 64; ++l) {
      uint32_t addr = ad[l] + (uint32_t)in->offset;
      CHECK(addr, 8);
      memcpy(&raw[l], c->lds + addr, 8);
    }
    uq_sim_ds_read_b64_tr_b16(raw, out);
    for (int l = 0; l < 64; ++l) {
      w->v[o[0].reg & 511][l] = (uint32_t)out[l];
      w->v[(o[0].reg + 1) & 511][l] = (uint32_t)(out[l] >> 32);
    }
    cnt->lds_bytes_read += 64 * 8;
    return UQ_OK;
  }
  default:
    UNIMPL(in);
  }
#undef CHECK
}

// ---------------------------------------------------------------------------
// Vector memory: buffer, global, flat.

static uq_status_t mem_fault(const uq_sim_inst_t *in, uint64_t addr,
                             uint32_t n) {
  return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                        "memory fault: %u bytes at 0x%llx outside every "
                        "allocation: '%s' at 0x%llx",
                        n, (unsigned long long)addr, in->text,
                        (unsigned long long)in->pc);
}

static uq_status_t exec_vmem(uq_sim_ctx_t *c, uq_sim_wave_t *w,
                             const uq_sim_inst_t *in) {
  const uq_sim_opnd_t *o = in->o;
  uint64_t exec = exec_of(w);
  int op = in->op;
  // Size and kind from the op's position in its family.
  int is_buffer =
      op >= UQ_OP_BUFFER_LOAD_DWORD && op <= UQ_OP_BUFFER_STORE_SHORT;
  int is_global =
      op >= UQ_OP_GLOBAL_LOAD_DWORD && op <= UQ_OP_GLOBAL_STORE_SHORT;
  int base_op = is_buffer   ? UQ_OP_BUFFER_LOAD_DWORD
                : is_global ? UQ_OP_GLOBAL_LOAD_DWORD
                            : UQ_OP_FLAT_LOAD_DWORD;
  int k = op - base_op; // 0..7 loads, 8..13 stores
  static const uint8_t sizes[14] = {4, 8, 12, 16, 1,  1, 2,
                                    2, 4, 8,  12, 16, 1, 2};
  uint32_t n = sizes[k];
  int is_store = k >= 8;
  const uq_sim_opnd_t *data = is_store ? (is_buffer ? &o[0] : &o[1]) : &o[0];
  const uq_sim_opnd_t *vaddr = is_buffer ? &o[1] : (is_store ? &o[0] : &o[1]);
  uq_sim_counters_t *cnt = c->cnt;
  uint32_t tmp[64];

  uint64_t base = 0, num = 0, soff = 0;
  uint32_t stride = 0;
  int structured = 0;
  if (is_buffer) {
    const uq_sim_opnd_t *rs = &o[2];
    uint32_t w0 = sread(w, rs, 0), w1 = sread(w, rs, 1);
    base = (uint64_t)w0 | (uint64_t)(w1 & 0xFFFF) << 32;
    stride = (w1 >> 16) & 0x3FFF;
    num = sread(w, rs, 2);
    soff = sread(w, &o[3], 0);
    structured = in->idxen && stride != 0;
  }
  const uq_sim_opnd_t *saddr = (!is_buffer && is_global) ? &o[2] : NULL;
  uint64_t bytes_read = 0, bytes_written = 0;
  for (int l = 0; l < 64; ++l) {
    if (!((exec >> l) & 1))
      continue;
    uint64_t addr;
    uint64_t range_off = 0;
    int oob_all = 0;
    if (is_buffer) {
      uint32_t idx = 0, voff = 0;
      if (in->idxen)
        idx = w->v[vaddr->reg & 511][l];
      if (in->offen)
        voff = w->v[(vaddr->reg + (in->idxen ? 1 : 0)) & 511][l];
      range_off = (uint64_t)(uint32_t)in->offset + voff;
      addr = base + soff + range_off + (uint64_t)idx * stride;
      if (structured)
        oob_all = idx >= num;
    } else {
      if (saddr && saddr->kind != UQ_OPND_OFF)
        addr = sread64(w, saddr) + vsrc(w, vaddr, 0, tmp)[l];
      else
        addr = (uint64_t)w->v[(vaddr->reg + 1) & 511][l] << 32 |
               w->v[vaddr->reg & 511][l];
      addr += (uint64_t)(int64_t)in->offset;
    }
    uint32_t comps = n >= 4 ? n / 4 : 1, csize = n >= 4 ? 4 : n;
    if (csize == 4 &&
        (!is_buffer || (!oob_all && (structured || range_off + n <= num)))) {
      // Every dword in range and, usually, in one allocation: one lookup
      // for the lane (else the per-dword path below finds the fault).
      uint8_t *p = mem_at(c, addr, n);
      if (p) {
        for (uint32_t i = 0; i < comps; ++i) {
          uint32_t *reg = &w->v[(data->reg + i) & 511][l];
          if (is_store)
            memcpy(p + 4 * i, reg, 4);
          else
            memcpy(reg, p + 4 * i, 4);
        }
        if (is_store)
          bytes_written += n;
        else
          bytes_read += n;
        continue;
      }
    }
    for (uint32_t i = 0; i < comps; ++i) {
      uint64_t a = addr + (uint64_t)csize * i;
      int oob =
          is_buffer &&
          (oob_all || (!structured && range_off + (uint64_t)csize * i >= num));
      if (is_store) {
        if (oob)
          continue;
        uint8_t *p = mem_at(c, a, csize);
        if (!p)
          return mem_fault(in, a, csize);
        uint32_t v = w->v[(data->reg + i) & 511][l];
        if (csize == 4)
          memcpy(p, &v, 4);
        else if (csize == 2)
          memcpy(p, &v, 2);
        else
          *p = (uint8_t)v;
        bytes_written += csize;
      } else {
        uint32_t v = 0;
        if (!oob) {
          const uint8_t *p = mem_at(c, a, csize);
          if (!p)
            return mem_fault(in, a, csize);
          if (csize == 4)
            memcpy(&v, p, 4);
          else if (csize == 2)
            v = (uint32_t)p[0] | (uint32_t)p[1] << 8;
          else
            v = *p;
          bytes_read += csize;
        }
        if (k == 5)
          v = (uint32_t)(int32_t)(int8_t)v;
        if (k == 7)
          v = (uint32_t)(int32_t)(int16_t)v;
        w->v[(data->reg + i) & 511][l] = v;
      }
    }
  }
  cnt->global_bytes_read += bytes_read;
  cnt->global_bytes_written += bytes_written;
  return UQ_OK;
}

// ---------------------------------------------------------------------------
// One wave until it ends or reaches a barrier.

static uq_status_t run_wave(uq_sim_ctx_t *c, uq_sim_wave_t *w) {
  uq_sim_counters_t *cnt = c->cnt;
  for (;;) {
    const uq_sim_inst_t *in = uq_sim_decoder_cached(c->decoder, w->pc);
    if (!in)
      UQ_RETURN_IF_ERROR(uq_sim_decoder_get(c->decoder, w->pc, &in),
                         "while fetching");
    ++cnt->by_class[in->cls];
    if (c->trace)
      fprintf(stderr,
              "uq-sim: wg (%u,%u,%u) wave %u exec 0x%016llx 0x%llx: %s\n",
              c->trace_wg[0], c->trace_wg[1], c->trace_wg[2], c->trace_wave,
              (unsigned long long)((uint64_t)w->s[127] << 32 | w->s[126]),
              (unsigned long long)w->pc, in->text);
    if (++w->executed > c->inst_limit)
      return fail(in, UQ_STATUS_RESOURCE_EXHAUSTED,
                  "wave instruction limit reached (endless loop?)");
    uq_status_t st = UQ_OK;
    uint64_t next = w->pc + in->size;
    switch (in->cls) {
    case UQ_SIM_CLASS_SALU:
      st = exec_salu(w, in);
      next = w->pc + in->size; // s_setpc/s_swappc adjust pc
      break;
    case UQ_SIM_CLASS_VALU:
      st = exec_valu(c, w, in);
      break;
    case UQ_SIM_CLASS_MFMA:
      st = exec_mfma(w, in);
      break;
    case UQ_SIM_CLASS_SMEM:
      st = exec_smem(c, w, in);
      break;
    case UQ_SIM_CLASS_VMEM:
      st = exec_vmem(c, w, in);
      break;
    case UQ_SIM_CLASS_LDS:
      st = exec_lds(c, w, in);
      break;
    case UQ_SIM_CLASS_BRANCH: {
      int take;
      switch (in->op) {
      case UQ_OP_S_BRANCH:
        take = 1;
        break;
      case UQ_OP_S_CBRANCH_SCC0:
        take = !w->scc;
        break;
      case UQ_OP_S_CBRANCH_SCC1:
        take = w->scc;
        break;
      case UQ_OP_S_CBRANCH_VCCZ:
        take = vcc_of(w) == 0;
        break;
      case UQ_OP_S_CBRANCH_VCCNZ:
        take = vcc_of(w) != 0;
        break;
      case UQ_OP_S_CBRANCH_EXECZ:
        take = exec_of(w) == 0;
        break;
      default:
        take = exec_of(w) != 0;
        break;
      }
      if (take)
        next = w->pc + 4 + (uint64_t)((int64_t)in->simm * 4);
      break;
    }
    case UQ_SIM_CLASS_OTHER:
      switch (in->op) {
      case UQ_OP_S_ENDPGM:
        w->state = WAVE_DONE;
        ++cnt->wave_instructions;
        return UQ_OK;
      case UQ_OP_S_BARRIER:
        w->state = WAVE_BARRIER;
        w->pc = next;
        ++cnt->wave_instructions;
        return UQ_OK;
      case UQ_OP_UNKNOWN:
        return fail(in, UQ_STATUS_UNIMPLEMENTED, "unimplemented instruction");
      default:
        break; // waitcnt, nop, setprio, cache controls
      }
      break;
    default:
      break;
    }
    if (st)
      return st;
    ++cnt->wave_instructions;
    w->pc = next;
  }
}

// The wave state right after dispatch (LLVM AMDGPUUsage, "Initial Kernel
// Execution State").
static uq_status_t init_wave(uq_sim_wave_t *w, const uq_sim_kernel_setup_t *k,
                             const uq_sim_launch_t *L, uint32_t wave_index,
                             const uint32_t wg_id[3], uint64_t kernarg_addr,
                             uint64_t dispatch_addr, uint64_t queue_addr,
                             uint32_t wg_items) {
  memset(w->s, 0, sizeof(w->s));
  w->scc = 0;
  w->state = WAVE_RUN;
  w->executed = 0;
  // With kernel arguments preloaded into SGPRs, firmware that supports it
  // starts 256 bytes into the code, past the compatibility prologue.
  w->pc = k->entry + ((k->kernarg_preload & 0x7F) ? 256 : 0);
  uint32_t sg = 0;
  uint16_t props = k->code_properties;
  if (props & 1) { // private segment buffer: no scratch is modelled
    sg += 4;
  }
  if (props & 2) {
    w->s[sg++] = (uint32_t)dispatch_addr;
    w->s[sg++] = (uint32_t)(dispatch_addr >> 32);
  }
  if (props & 4) {
    w->s[sg++] = (uint32_t)queue_addr;
    w->s[sg++] = (uint32_t)(queue_addr >> 32);
  }
  if (props & 8) {
    w->s[sg++] = (uint32_t)kernarg_addr;
    w->s[sg++] = (uint32_t)(kernarg_addr >> 32);
  }
  if (props & 16) { // dispatch id
    sg += 2;
  }
  if (props & 32) // flat scratch init
    sg += 2;
  if (props & 64) // private segment size
    sg += 1;
  // Kernel arguments preloaded into SGPRs (gfx950).
  uint32_t preload_len = k->kernarg_preload & 0x7F;
  uint32_t preload_off = (k->kernarg_preload >> 7) & 0x1FF;
  if (preload_len) {
    const uint8_t *ka = L->kernargs;
    for (uint32_t i = 0; i < preload_len && sg < 104; ++i) {
      uint32_t v = 0;
      size_t at = 4 * ((size_t)preload_off + i);
      if (at + 4 <= L->kernarg_size)
        memcpy(&v, ka + at, 4);
      w->s[sg++] = v;
    }
  }
  uint32_t user = (k->rsrc2 >> 1) & 0x1F;
  if (user > sg)
    sg = user;
  if (k->rsrc2 & (1u << 7))
    w->s[sg++] = wg_id[0];
  if (k->rsrc2 & (1u << 8))
    w->s[sg++] = wg_id[1];
  if (k->rsrc2 & (1u << 9))
    w->s[sg++] = wg_id[2];
  if (k->rsrc2 & (1u << 10))
    w->s[sg++] = 0; // workgroup info
  if (k->rsrc2 & 1)
    w->s[sg++] = 0; // private segment wave byte offset
  // EXEC: the work-items that exist in this wave.
  uint32_t first = wave_index * 64;
  uint32_t count = wg_items - first < 64 ? wg_items - first : 64;
  set_exec(w, count == 64 ? ~0ull : ((1ull << count) - 1));
  w->s[124] = 0xFFFFFFFFu; // m0
  // Work-item ids packed into v0.
  for (uint32_t l = 0; l < 64; ++l) {
    uint32_t t = first + l;
    uint32_t x = t % L->workgroup[0],
             y = (t / L->workgroup[0]) % L->workgroup[1],
             z = t / (L->workgroup[0] * L->workgroup[1]);
    w->v[0][l] = l < count ? (x | y << 10 | z << 20) : 0;
  }
  // MODE from COMPUTE_PGM_RSRC1: round [15:12], denorm [19:16],
  // dx10_clamp 21, ieee 23, fp16_ovfl 26.
  uint32_t r1 = k->rsrc1;
  w->mode = ((r1 >> 12) & 0xF) | ((r1 >> 16) & 0xF) << 4 |
            ((r1 >> 21) & 1) << 8 | ((r1 >> 23) & 1) << 9 |
            ((r1 >> 26) & 1) << 23;
  return UQ_OK;
}

uq_status_t uq_sim_execute(uq_sim_t *sim, uq_sim_decoder_t *decoder,
                           const uq_sim_kernel_setup_t *k,
                           const uq_sim_launch_t *L,
                           uq_sim_counters_t *counters) {
  memset(counters, 0, sizeof(*counters));
  uint64_t items =
      (uint64_t)L->workgroup[0] * L->workgroup[1] * L->workgroup[2];
  if (items == 0 || items > 1024 || L->grid[0] == 0 || L->grid[1] == 0 ||
      L->grid[2] == 0)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "bad launch shape: grid %ux%ux%u, workgroup %ux%ux%u",
                          L->grid[0], L->grid[1], L->grid[2], L->workgroup[0],
                          L->workgroup[1], L->workgroup[2]);
  uint32_t nwaves = (uint32_t)((items + 63) / 64);
  if (nwaves > UQ_SIM_MAX_WAVES)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "%u waves per workgroup (at most %d)", nwaves,
                          UQ_SIM_MAX_WAVES);
  uint64_t lds_size = (uint64_t)k->group_segment_size + L->dynamic_lds;
  if (lds_size > UQ_SIM_MAX_LDS)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "LDS of %llu bytes exceeds %u",
                          (unsigned long long)lds_size, UQ_SIM_MAX_LDS);
  if (k->private_segment_size)
    return UQ_MAKE_STATUS(UQ_STATUS_UNIMPLEMENTED,
                          "the kernel uses %u bytes of scratch per work-item; "
                          "the simulator models none",
                          k->private_segment_size);
  uq_status_t st = UQ_OK;
  uint64_t kernarg_addr = 0, dispatch_addr = 0, queue_addr = 0;
  uq_sim_wave_t *waves = NULL;
  uint8_t *lds = NULL;
  st = uq_sim_alloc(sim, L->kernarg_size ? L->kernarg_size : 4, &kernarg_addr);
  if (st)
    goto done;
  if (L->kernarg_size) {
    st = uq_sim_write(sim, kernarg_addr, L->kernargs, L->kernarg_size);
    if (st)
      goto done;
  }
  st = uq_sim_alloc(sim, 64, &dispatch_addr);
  if (st)
    goto done;
  {
    // hsa_kernel_dispatch_packet_t.
    uint8_t pk[64];
    memset(pk, 0, sizeof(pk));
    uint16_t setup = L->grid[2] > 1 || L->workgroup[2] > 1   ? 3
                     : L->grid[1] > 1 || L->workgroup[1] > 1 ? 2
                                                             : 1;
    uint16_t wg16[3] = {(uint16_t)L->workgroup[0], (uint16_t)L->workgroup[1],
                        (uint16_t)L->workgroup[2]};
    uint32_t gs[3];
    for (int i = 0; i < 3; ++i)
      gs[i] = L->grid[i] * L->workgroup[i];
    uint32_t grp = (uint32_t)lds_size, priv = 0;
    memcpy(pk + 2, &setup, 2);
    memcpy(pk + 4, wg16, 6);
    memcpy(pk + 12, gs, 12);
    memcpy(pk + 24, &priv, 4);
    memcpy(pk + 28, &grp, 4);
    memcpy(pk + 40, &kernarg_addr, 8);
    st = uq_sim_write(sim, dispatch_addr, pk, 64);
    if (st)
      goto done;
  }
  st = uq_sim_alloc(sim, 256, &queue_addr);
  if (st)
    goto done;
  {
    uint8_t zero[256] = {0};
    st = uq_sim_write(sim, queue_addr, zero, 256);
    if (st)
      goto done;
  }
  waves = malloc(sizeof(uq_sim_wave_t) * nwaves);
  lds = calloc(1, lds_size ? lds_size : 1);
  if (!waves || !lds) {
    st = UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  memset(waves, 0, sizeof(uq_sim_wave_t) * nwaves);
  uq_sim_ctx_t ctx;
  memset(&ctx, 0, sizeof(ctx));
  ctx.sim = sim;
  ctx.decoder = decoder;
  ctx.cnt = counters;
  ctx.lds = lds;
  ctx.lds_size = (uint32_t)lds_size;
  const char *trace = getenv("UQ_SIM_TRACE");
  ctx.trace = trace && trace[0] && strcmp(trace, "0") != 0;
  const char *limit = getenv("UQ_SIM_MAX_WAVE_INSTRUCTIONS");
  ctx.inst_limit = UQ_SIM_WAVE_INST_LIMIT;
  if (limit && strtoull(limit, NULL, 0) > 0)
    ctx.inst_limit = strtoull(limit, NULL, 0);
  for (uint32_t gz = 0; gz < L->grid[2]; ++gz) {
    for (uint32_t gy = 0; gy < L->grid[1]; ++gy) {
      for (uint32_t gx = 0; gx < L->grid[0]; ++gx) {
        uint32_t id[3] = {gx, gy, gz};
        memset(lds, 0, lds_size ? lds_size : 1);
        for (uint32_t i = 0; i < nwaves; ++i)
          init_wave(&waves[i], k, L, i, id, kernarg_addr, dispatch_addr,
                    queue_addr, (uint32_t)items);
        ++counters->workgroups;
        counters->waves += nwaves;
        for (;;) {
          int running = 0, waiting = 0;
          for (uint32_t i = 0; i < nwaves; ++i) {
            if (waves[i].state != WAVE_RUN)
              continue;
            ctx.trace_wg[0] = gx;
            ctx.trace_wg[1] = gy;
            ctx.trace_wg[2] = gz;
            ctx.trace_wave = i;
            st = run_wave(&ctx, &waves[i]);
            if (st) {
              st = uq_status_annotate(st, "workgroup (%u,%u,%u) wave %u", gx,
                                      gy, gz, i);
              goto done;
            }
          }
          for (uint32_t i = 0; i < nwaves; ++i) {
            running += waves[i].state == WAVE_RUN;
            waiting += waves[i].state == WAVE_BARRIER;
          }
          if (running == 0 && waiting == 0)
            break;
          // Every live wave reached the barrier: release them.
          for (uint32_t i = 0; i < nwaves; ++i)
            if (waves[i].state == WAVE_BARRIER)
              waves[i].state = WAVE_RUN;
        }
      }
    }
  }
done:
  free(waves);
  free(lds);
  if (kernarg_addr)
    uq_status_free(uq_sim_free(sim, kernarg_addr));
  if (dispatch_addr)
    uq_status_free(uq_sim_free(sim, dispatch_addr));
  if (queue_addr)
    uq_status_free(uq_sim_free(sim, queue_addr));
  return st;
}
