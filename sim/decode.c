// The decoder: LLVM's disassembler turns each instruction of a loaded image
// into text once; the text (and, for fields the text spells awkwardly, the
// raw encoding) is parsed into a compact uq_sim_inst_t that the executor
// switches on without ever looking at strings again.
#include <ctype.h>
#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/internal.h"

void LLVMInitializeAMDGPUTargetInfo(void);
void LLVMInitializeAMDGPUTargetMC(void);
void LLVMInitializeAMDGPUDisassembler(void);

static uint16_t uq_sim_f32_to_f16_bits(float f) {
  // Exact for the inline constants (0.5, 1, 2, 4, 1/(2pi)).
  if (f == 0.0f)
    return 0;
  uint32_t b;
  memcpy(&b, &f, 4);
  uint16_t sign = (uint16_t)((b >> 16) & 0x8000);
  int exp = (int)((b >> 23) & 0xFF) - 127 + 15;
  uint32_t mant = b & 0x7FFFFF;
  uint16_t m = (uint16_t)(mant >> 13);
  if (mant & 0x1000) // round half up is enough for these constants
    ++m;
  return (uint16_t)(sign | (exp << 10)) + m;
}

// Parses one register or constant operand. Returns 0 on success.
static int uq_sim_parse_operand(const char *tok, int width, uq_sim_opnd_t *o) {
  memset(o, 0, sizeof(*o));
  char buf[96];
  size_t n = strlen(tok);
  if (n == 0 || n >= sizeof(buf))
    return -1;
  memcpy(buf, tok, n + 1);
  char *s = buf;
  // Modifiers: -x, |x|, neg(x), abs(x), sext(x).
  for (;;) {
    if (strncmp(s, "neg(", 4) == 0 && s[strlen(s) - 1] == ')') {
      o->mods ^= UQ_MOD_NEG;
      s += 4;
      s[strlen(s) - 1] = 0;
    } else if (strncmp(s, "abs(", 4) == 0 && s[strlen(s) - 1] == ')') {
      o->mods |= UQ_MOD_ABS;
      s += 4;
      s[strlen(s) - 1] = 0;
    } else if (strncmp(s, "sext(", 5) == 0 && s[strlen(s) - 1] == ')') {
      s += 5; // SDWA sign extension: taken from the encoding
      s[strlen(s) - 1] = 0;
    } else if (s[0] == '|' && strlen(s) > 2 && s[strlen(s) - 1] == '|') {
      o->mods |= UQ_MOD_ABS;
      s += 1;
      s[strlen(s) - 1] = 0;
    } else if (s[0] == '-' &&
               (isalpha((unsigned char)s[1]) || s[1] == '|' || s[1] == '(')) {
      o->mods ^= UQ_MOD_NEG;
      s += 1;
    } else {
      break;
    }
  }
  if (strncmp(s, "lit(", 4) == 0 && s[strlen(s) - 1] == ')') {
    s += 4;
    s[strlen(s) - 1] = 0;
  }
  // Registers.
  char file = s[0];
  if ((file == 's' || file == 'v' || file == 'a') &&
      (isdigit((unsigned char)s[1]) || s[1] == '[')) {
    unsigned lo, hi;
    if (s[1] == '[') {
      if (sscanf(s + 1, "[%u:%u]", &lo, &hi) != 2 || hi < lo)
        return -1;
    } else {
      char *end;
      lo = (unsigned)strtoul(s + 1, &end, 10);
      if (*end)
        return -1;
      hi = lo;
    }
    o->count = (uint8_t)(hi - lo + 1);
    if (file == 's') {
      if (hi > 105)
        return -1;
      o->kind = UQ_OPND_SGPR;
      o->reg = (uint16_t)lo;
    } else {
      if (hi > 255)
        return -1;
      o->kind = UQ_OPND_VGPR;
      o->reg = (uint16_t)(lo + (file == 'a' ? 256 : 0));
    }
    return 0;
  }
  static const struct {
    const char *name;
    uint16_t reg;
    uint8_t count;
  } specials[] = {
      {"vcc", 106, 2},
      {"vcc_lo", 106, 1},
      {"vcc_hi", 107, 1},
      {"exec", 126, 2},
      {"exec_lo", 126, 1},
      {"exec_hi", 127, 1},
      {"m0", 124, 1},
      {"flat_scratch", 102, 2},
      {"flat_scratch_lo", 102, 1},
      {"flat_scratch_hi", 103, 1},
      {"xnack_mask", 104, 2},
      {"xnack_mask_lo", 104, 1},
      {"xnack_mask_hi", 105, 1},
  };
  for (size_t i = 0; i < sizeof(specials) / sizeof(specials[0]); ++i) {
    if (strcmp(s, specials[i].name) == 0) {
      o->kind = UQ_OPND_SGPR;
      o->reg = specials[i].reg;
      o->count = specials[i].count;
      return 0;
    }
  }
  if (strncmp(s, "ttmp", 4) == 0) {
    unsigned lo, hi;
    if (s[4] == '[') {
      if (sscanf(s + 4, "[%u:%u]", &lo, &hi) != 2 || hi < lo)
        return -1;
    } else {
      if (sscanf(s + 4, "%u", &lo) != 1)
        return -1;
      hi = lo;
    }
    if (hi > 15)
      return -1;
    o->kind = UQ_OPND_SGPR;
    o->reg = (uint16_t)(108 + lo);
    o->count = (uint8_t)(hi - lo + 1);
    return 0;
  }
  if (strcmp(s, "off") == 0 || strcmp(s, "null") == 0) {
    o->kind = UQ_OPND_OFF;
    return 0;
  }
  if (strcmp(s, "src_scc") == 0 || strcmp(s, "scc") == 0) {
    o->kind = UQ_OPND_SCC;
    return 0;
  }
  // Constants.
  char *end;
  int is_float = strchr(s, '.') != NULL && strncmp(s, "0x", 2) != 0 &&
                 strncmp(s, "-0x", 3) != 0;
  o->kind = UQ_OPND_CONST;
  o->count = 1;
  if (is_float) {
    double d = strtod(s, &end);
    if (*end)
      return -1;
    o->is_float_const = 1;
    if (o->mods & UQ_MOD_NEG) // "-" before a float constant is its sign
      d = -d;
    o->mods = 0;
    if (width == 64) {
      memcpy(&o->value, &d, 8);
    } else if (width == 16) {
      o->value = uq_sim_f32_to_f16_bits((float)d);
    } else {
      float f = (float)d;
      uint32_t b;
      memcpy(&b, &f, 4);
      o->value = b;
    }
    // 1/(2*pi) prints rounded; use the exact inline-constant encodings.
    if (fabs(d - 0.15915494) < 1e-7) {
      o->value = width == 64   ? 0x3fc45f306dc9c882ull
                 : width == 16 ? 0x3118
                               : 0x3e22f983;
    }
    return 0;
  }
  long long v = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
                    ? (long long)strtoull(s, &end, 16)
                    : strtoll(s, &end, 0);
  if (*end) {
    // Hex literals above INT64_MAX do not occur; 32-bit ones parse above.
    return -1;
  }
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    // A hex literal is the 32-bit pattern (high half zero for 64-bit ops).
    o->value = (uint64_t)v;
  } else {
    o->value = (uint64_t)v; // decimal: sign-extended to 64 bits
  }
  if (o->mods & UQ_MOD_NEG) {
    o->value = (uint64_t)(-(int64_t)o->value);
    o->mods = 0;
  }
  return 0;
}

// Splits `s` at whitespace outside brackets and parentheses. Operands are
// the tokens up to and including the first one not followed by a comma.
static int uq_sim_tokenize(char *s, char **toks, int *is_operand, int max) {
  int n = 0, depth = 0, operands_open = 1;
  char *p = s;
  while (*p) {
    while (*p == ' ' || *p == '\t')
      ++p;
    if (!*p)
      break;
    if (n == max)
      return -1;
    char *start = p;
    while (*p && (depth > 0 || (*p != ' ' && *p != '\t'))) {
      if (*p == '(' || *p == '[')
        ++depth;
      else if (*p == ')' || *p == ']')
        --depth;
      ++p;
    }
    if (*p)
      *p++ = 0;
    size_t len = strlen(start);
    int comma = len > 0 && start[len - 1] == ',';
    if (comma)
      start[len - 1] = 0;
    toks[n] = start;
    is_operand[n] = n > 0 && operands_open;
    if (!comma && n > 0)
      operands_open = 0;
    ++n;
  }
  return n;
}

static uint32_t uq_sim_word(const uint8_t *b, size_t size, int i) {
  if ((size_t)(i + 1) * 4 > size)
    return 0;
  return (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 |
         (uint32_t)b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24;
}

uq_status_t uq_sim_decode_text(const char *text, uint64_t pc,
                               const uint8_t *bytes, size_t size,
                               uq_sim_inst_t *inst) {
  memset(inst, 0, sizeof(*inst));
  inst->pc = pc;
  inst->size = (uint8_t)size;
  inst->text = text;
  char buf[512];
  size_t len = strlen(text);
  if (len >= sizeof(buf))
    len = sizeof(buf) - 1;
  memcpy(buf, text, len);
  buf[len] = 0;
  char *toks[32];
  int is_opnd[32];
  int n = uq_sim_tokenize(buf, toks, is_opnd, 32);
  if (n <= 0) {
    inst->op = UQ_OP_UNKNOWN;
    return UQ_OK;
  }
  // The mnemonic, with its encoding suffix split off.
  char mn[96];
  snprintf(mn, sizeof(mn), "%s", toks[0]);
  static const struct {
    const char *suffix;
    uint8_t enc;
  } suffixes[] = {{"_e32", UQ_ENC_E32},
                  {"_e64", UQ_ENC_E64},
                  {"_dpp", UQ_ENC_DPP},
                  {"_sdwa", UQ_ENC_SDWA}};
  for (size_t i = 0; i < 4; ++i) {
    size_t ml = strlen(mn), sl = strlen(suffixes[i].suffix);
    if (ml > sl && strcmp(mn + ml - sl, suffixes[i].suffix) == 0) {
      mn[ml - sl] = 0;
      inst->enc = suffixes[i].enc;
      break;
    }
  }
  inst->op = (uint16_t)uq_sim_op_lookup(mn);
  const uq_sim_op_info_t *info = &uq_sim_op_info[inst->op];
  inst->cls = info->cls;
  if (inst->op == UQ_OP_UNKNOWN)
    return UQ_OK;
  inst->width = info->width;
  inst->type = info->type;
  inst->sub = info->sub;
  inst->flags = info->flags;
  // An encoding the row does not accept (VOPC in SDWA form, say) is an
  // instruction the executor does not model.
  static const uint32_t enc_flag[] = {0, UQ_OPF_E32, UQ_OPF_E64, UQ_OPF_DPP,
                                      UQ_OPF_SDWA};
  if (inst->enc != UQ_ENC_NONE && !(inst->flags & enc_flag[inst->enc]))
    goto bad;
  int is_alu = inst->cls == UQ_SIM_CLASS_SALU ||
               inst->cls == UQ_SIM_CLASS_VALU || inst->cls == UQ_SIM_CLASS_MFMA;
  int width =
      is_alu && (info->width == 16 || info->width == 64) ? info->width : 32;
  inst->width64 = width == 64;
  uint32_t w0 = uq_sim_word(bytes, size, 0), w1 = uq_sim_word(bytes, size, 1);

  int has_op_sel = 0;
  int is_branch_like =
      inst->cls == UQ_SIM_CLASS_BRANCH || inst->cls == UQ_SIM_CLASS_OTHER;
  for (int i = 1; i < n; ++i) {
    const char *t = toks[i];
    if (is_opnd[i] && !is_branch_like) {
      if (inst->nopnd == UQ_SIM_MAX_OPNDS)
        goto bad;
      uq_sim_opnd_t *o = &inst->o[inst->nopnd++];
      if (strncmp(t, "hwreg(", 6) == 0) {
        memset(o, 0, sizeof(*o));
        continue;
      }
      if (uq_sim_parse_operand(t, width, o) != 0)
        goto bad;
      continue;
    }
    if (is_branch_like)
      continue;
    if (strcmp(t, "clamp") == 0)
      inst->clamp = 1;
    else if (strcmp(t, "mul:2") == 0)
      inst->omod = 1;
    else if (strcmp(t, "mul:4") == 0)
      inst->omod = 2;
    else if (strcmp(t, "div:2") == 0)
      inst->omod = 3;
    else if (strcmp(t, "offen") == 0)
      inst->offen = 1;
    else if (strcmp(t, "idxen") == 0)
      inst->idxen = 1;
    else if (strncmp(t, "offset:", 7) == 0) {
      if (strncmp(t + 7, "swizzle(", 8) != 0)
        inst->offset = (int32_t)strtol(t + 7, NULL, 0);
      inst->has_offset = 1;
    } else if (strncmp(t, "cbsz:", 5) == 0)
      inst->cbsz = (uint8_t)strtol(t + 5, NULL, 0);
    else if (strncmp(t, "blgp:", 5) == 0)
      inst->blgp = (uint8_t)strtol(t + 5, NULL, 0);
    else if (strncmp(t, "abid:", 5) == 0)
      inst->abid = (uint8_t)strtol(t + 5, NULL, 0);
    else if (strncmp(t, "bitop3:", 7) == 0)
      inst->simm = (int32_t)(strtol(t + 7, NULL, 0) & 0xFF);
    else if (strncmp(t, "op_sel:", 7) == 0)
      has_op_sel = 1;
    else if (strcmp(t, "lds") == 0 || strncmp(t, "neg:", 4) == 0)
      goto bad; // forms the executor does not model
    // The rest (op_sel, neg_lo, dpp controls, sdwa selects, cache bits,
    // offset0/1) is read from the encoding below.
  }
  // Destinations lead the operand list.
  inst->nd = (inst->flags & UQ_OPF_NODST)                   ? 0
             : (inst->flags & (UQ_OPF_DST2 | UQ_OPF_VOP3B)) ? 2
                                                            : 1;
  // Fields from the encoding.
  if (inst->flags & UQ_OPF_SIMM16) {
    inst->simm = (int16_t)(w0 & 0xFFFF);
    if (inst->op == UQ_OP_S_SETREG_IMM32_B32)
      inst->offset = (int32_t)w1; // the literal to write
  }
  if (inst->cls == UQ_SIM_CLASS_LDS) {
    inst->offset = (int32_t)(w0 & 0xFFFF);
    if (inst->flags & UQ_OPF_DS2) {
      inst->offset = (int32_t)(w0 & 0xFF);
      inst->offset1 = (int32_t)((w0 >> 8) & 0xFF);
    }
  }
  int is_vop3 = (w0 >> 26) == 0x34 && size >= 8;
  int is_vop3p = (w0 >> 23) == 0x1A7 && size >= 8;
  if (inst->cls == UQ_SIM_CLASS_VALU || inst->cls == UQ_SIM_CLASS_MFMA) {
    if (inst->cls == UQ_SIM_CLASS_MFMA && size >= 8) {
      // VOP3P-MAI: the scaled form carries a v_mfma_ld_scale_b32 (VOP3P,
      // its op_sel bits select the scale bytes) in front of the MFMA.
      uint32_t m0 = w0, m1 = w1;
      if (size >= 16) {
        m0 = uq_sim_word(bytes, size, 2);
        m1 = uq_sim_word(bytes, size, 3);
      }
      inst->cbsz = (uint8_t)((m0 >> 8) & 7);
      inst->abid = (uint8_t)((m0 >> 11) & 0xF);
      inst->blgp = (uint8_t)(m1 >> 29);
    }
    if (is_vop3p) {
      inst->op_sel = (uint8_t)((w0 >> 11) & 7);
      inst->op_sel_hi = (uint8_t)(((w1 >> 27) & 3) | ((w0 >> 14) & 1) << 2);
      inst->neg_lo = (uint8_t)(w1 >> 29);
      inst->neg_hi = (uint8_t)((w0 >> 8) & 7);
      inst->clamp = (uint8_t)((w0 >> 15) & 1);
    } else if (is_vop3 && !(inst->flags & UQ_OPF_VOP3B)) {
      inst->op_sel = (uint8_t)((w0 >> 11) & 0xF);
    }
    if (inst->enc == UQ_ENC_DPP) {
      inst->dpp_ctrl = (uint16_t)((w1 >> 8) & 0x1FF);
      inst->bound_ctrl = (uint8_t)((w1 >> 19) & 1);
      inst->bank_mask = (uint8_t)((w1 >> 24) & 0xF);
      inst->row_mask = (uint8_t)((w1 >> 28) & 0xF);
    }
    if (inst->enc == UQ_ENC_SDWA) {
      inst->sdwa_dst_sel = (uint8_t)((w1 >> 8) & 7);
      inst->sdwa_dst_unused = (uint8_t)((w1 >> 11) & 3);
      inst->sdwa_src_sel[0] = (uint8_t)((w1 >> 16) & 7);
      inst->sdwa_sext[0] = (uint8_t)((w1 >> 19) & 1);
      inst->sdwa_src_sel[1] = (uint8_t)((w1 >> 24) & 7);
      inst->sdwa_sext[1] = (uint8_t)((w1 >> 27) & 1);
      if ((w1 >> 13) & 1)
        inst->clamp = 1;
      inst->omod = (uint8_t)((w1 >> 14) & 3);
    }
  }
  // v_bitop3's truth table shares encoding bits with op_sel (read from the
  // text above); an op_sel written out is a form not modelled.
  if (inst->op == UQ_OP_V_BITOP3_B32 || inst->op == UQ_OP_V_BITOP3_B16) {
    if (has_op_sel)
      goto bad;
    inst->op_sel = 0;
  }
  return UQ_OK;
bad:
  inst->op = UQ_OP_UNKNOWN;
  inst->cls = UQ_SIM_CLASS_OTHER;
  return UQ_OK;
}

static void uq_sim_llvm_initialize(void) {
  LLVMInitializeAMDGPUTargetInfo();
  LLVMInitializeAMDGPUTargetMC();
  LLVMInitializeAMDGPUDisassembler();
}

uq_status_t uq_sim_decoder_create(const uint8_t *image, size_t image_size,
                                  uq_sim_decoder_t **out_decoder) {
  *out_decoder = NULL;
  // LLVM's target registry is process-wide: initialize it once.
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, uq_sim_llvm_initialize);
  uq_sim_decoder_t *d = calloc(1, sizeof(*d));
  if (!d)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  d->image = calloc(1, image_size + 16);
  if (d->image)
    memcpy(d->image, image, image_size);
  d->image_size = image_size;
  d->mutex_initialized = pthread_mutex_init(&d->mutex, NULL) == 0;
  d->by_word = calloc(image_size / 4 + 1, sizeof(*d->by_word));
  d->disasm =
      LLVMCreateDisasmCPU("amdgcn-amd-amdhsa", "gfx950", NULL, 0, NULL, NULL);
  if (!d->image || !d->by_word || !d->disasm || !d->mutex_initialized) {
    uq_sim_decoder_destroy(d);
    return UQ_MAKE_STATUS(UQ_STATUS_UNAVAILABLE,
                          "cannot create LLVM's gfx950 disassembler");
  }
  *out_decoder = d;
  return UQ_OK;
}

void uq_sim_decoder_destroy(uq_sim_decoder_t *d) {
  if (!d)
    return;
  if (d->by_word) {
    for (size_t i = 0; i < d->image_size / 4 + 1; ++i) {
      if (d->by_word[i]) {
        free((char *)d->by_word[i]->text);
        free(d->by_word[i]);
      }
    }
    free(d->by_word);
  }
  if (d->disasm)
    LLVMDisasmDispose(d->disasm);
  if (d->mutex_initialized)
    pthread_mutex_destroy(&d->mutex);
  free(d->image);
  free(d);
}

// LLVM 22's disassembler crashes on SDWA words whose selector fields hold
// reserved values (a selector above DWORD, dst_unused 3); such bytes never
// come from a compiler, so they are rejected before LLVM sees them.
static int uq_sim_bad_sdwa(const uint8_t *b) {
  uint32_t w0 = uq_sim_word(b, 8, 0), w1 = uq_sim_word(b, 8, 1);
  if ((w0 & 0x1FF) != 0xF9)
    return 0;
  int vopc = (w0 >> 25) == 0x3E, vop1 = (w0 >> 25) == 0x3F;
  int vop2 = (w0 >> 31) == 0;
  if (!vopc && !vop1 && !vop2)
    return 0;
  if (((w1 >> 16) & 7) > 6 || ((w1 >> 24) & 7) > 6)
    return 1;
  return !vopc && (((w1 >> 8) & 7) > 6 || ((w1 >> 11) & 3) > 2);
}

// Likewise for the f8f6f4 MFMAs (alone or after v_mfma_ld_scale_b32) with an
// operand format above 4 (CBSZ or BLGP 5..7), an A or B source that is not
// a VGPR or AGPR (a 9-bit source field below 256: an SGPR or a constant,
// which the hardware does not take there either) or the literal code 0xFF
// as C (VOP3P has no literal on gfx950); and for a
// v_mfma_ld_scale_b32 whose scale sources are not VGPRs (the literal code
// 0xFF crashes LLVM; an SGPR or constant it prints as invalid).
static int uq_sim_bad_f8f6f4(const uint8_t *b) {
  uint32_t w0 = uq_sim_word(b, 16, 0);
  if ((w0 >> 16) == 0xD3AC) { // v_mfma_ld_scale_b32: the MFMA follows
    uint32_t scales = uq_sim_word(b, 16, 1);
    if ((scales & 0x1FF) < 256 || ((scales >> 9) & 0x1FF) < 256)
      return 1;
    b += 8;
  }
  w0 = uq_sim_word(b, 8, 0);
  uint32_t w1 = uq_sim_word(b, 8, 1), op = w0 >> 16;
  if (op != 0xD3AD && op != 0xD3AE)
    return 0;
  return ((w0 >> 8) & 7) > 4 || (w1 >> 29) > 4 || (w1 & 0x1FF) < 256 ||
         ((w1 >> 9) & 0x1FF) < 256 || ((w1 >> 18) & 0x1FF) == 0xFF;
}

// And on VOP2 opcodes 0x24 and 0x25 (v_madmk_f16 and v_madak_f16 in LLVM's
// gfx9 tables) whose literal is 0xFF. The simulator executes neither, so
// LLVM never sees them: they decode as their bare mnemonic, an unknown op
// that stops execution like any other the simulator lacks.
static const char *uq_sim_f16_madmk_madak(const uint8_t *b) {
  uint32_t w0 = uq_sim_word(b, 8, 0);
  if ((w0 >> 31) != 0)
    return NULL;
  return (w0 >> 25) == 0x24   ? "v_madmk_f16"
         : (w0 >> 25) == 0x25 ? "v_madak_f16"
                              : NULL;
}

static uq_status_t decode_locked(uq_sim_decoder_t *d, uint64_t pc,
                                 const uq_sim_inst_t **out_inst);

uq_status_t uq_sim_decoder_get(uq_sim_decoder_t *d, uint64_t pc,
                               const uq_sim_inst_t **out_inst) {
  if ((pc & 3) || pc >= d->image_size)
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "program counter 0x%llx is outside the code",
                          (unsigned long long)pc);
  uq_sim_inst_t *inst = __atomic_load_n(&d->by_word[pc / 4], __ATOMIC_ACQUIRE);
  if (inst) {
    *out_inst = inst;
    return UQ_OK;
  }
  pthread_mutex_lock(&d->mutex);
  uq_status_t st = decode_locked(d, pc, out_inst);
  pthread_mutex_unlock(&d->mutex);
  return st;
}

// Decodes the instruction at `pc` (checked aligned and inside the image)
// and publishes it; the caller holds d->mutex.
static uq_status_t decode_locked(uq_sim_decoder_t *d, uint64_t pc,
                                 const uq_sim_inst_t **out_inst) {
  uq_sim_inst_t *inst = d->by_word[pc / 4];
  if (inst) { // another thread decoded it meanwhile
    *out_inst = inst;
    return UQ_OK;
  }
  char text[512];
  if (uq_sim_bad_sdwa(d->image + pc) || uq_sim_bad_f8f6f4(d->image + pc))
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "reserved field values in the instruction at 0x%llx",
                          (unsigned long long)pc);
  const char *unexecuted = uq_sim_f16_madmk_madak(d->image + pc);
  size_t size;
  if (unexecuted) {
    snprintf(text, sizeof(text), "%s", unexecuted);
    size = 8; // the f16 forms carry a literal
  } else {
    size =
        LLVMDisasmInstruction(d->disasm, d->image + pc, d->image_size + 16 - pc,
                              pc, text, sizeof(text));
  }
  if (size == 0 || pc + size > d->image_size)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "cannot decode the instruction at 0x%llx",
                          (unsigned long long)pc);
  // Drop the leading tab and any trailing comment.
  char *t = text;
  while (*t == ' ' || *t == '\t')
    ++t;
  // LLVM marks operands it cannot print properly (a misaligned register
  // tuple: "/*Invalid register, ...*/") with a block comment; such bytes
  // never come from a compiler, and the comment would be parsed as operands.
  if (strstr(t, "/*") || strstr(t, "<unknown>"))
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "invalid operands in the instruction at 0x%llx: %s",
                          (unsigned long long)pc, t);
  char *c = strstr(t, "//");
  if (c)
    *c = 0;
  size_t len = strlen(t);
  while (len && (t[len - 1] == ' ' || t[len - 1] == '\t'))
    t[--len] = 0;
  inst = malloc(sizeof(*inst));
  char *owned = malloc(len + 1);
  if (!inst || !owned) {
    free(inst);
    free(owned);
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  memcpy(owned, t, len + 1);
  uq_status_t st = uq_sim_decode_text(owned, pc, d->image + pc, size, inst);
  if (st) {
    free(inst);
    free(owned);
    return st;
  }
  __atomic_store_n(&d->by_word[pc / 4], inst, __ATOMIC_RELEASE);
  *out_inst = inst;
  return UQ_OK;
}
