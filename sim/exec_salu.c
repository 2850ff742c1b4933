// Scalar ALU: SOP1/SOP2/SOPK/SOPC, SCC and EXEC updates (CDNA4 ISA guide,
// "Scalar ALU Operations").
#include <math.h>
#include <string.h>

#include "sim/exec_internal.h"

// ---------------------------------------------------------------------------
// SALU.

uq_status_t uq_sim_exec_salu(uq_sim_wave_t *w, const uq_sim_inst_t *in) {
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
    int sh = in->sub;
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
