// The decoder: real gfx950 encodings (from llvm-mc -show-encoding) through
// LLVM's disassembler into uq_sim_inst_t, field by field; and random bytes,
// which must decode or fail cleanly, never crash (run it under ASan).
#include <stdlib.h>
#include <time.h>

#include "sim/internal.h"
#include "uq_test.h"

// Encodings, in order; see the expectations in test_fields.
static const uint8_t kImage[] = {
    // v_fma_f32 v1, -|v2|, s3, 0.5 clamp
    0x01,
    0x81,
    0xcb,
    0xd1,
    0x02,
    0x07,
    0xc0,
    0x23,
    // v_add_f16_e64 v1, 1.0, v2
    0x01,
    0x00,
    0x1f,
    0xd1,
    0xf2,
    0x04,
    0x02,
    0x00,
    // v_mov_b64 v[0:1], 1.0
    0xf2,
    0x70,
    0x00,
    0x7e,
    // s_mov_b64 exec, -1
    0xc1,
    0x01,
    0xfe,
    0xbe,
    // v_mov_b32_dpp v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
    0xfa,
    0x02,
    0x02,
    0x7e,
    0x02,
    0x11,
    0x09,
    0xff,
    // ds_read2_b32 v[0:1], v2 offset0:1 offset1:4
    0x01,
    0x04,
    0x6e,
    0xd8,
    0x02,
    0x00,
    0x00,
    0x00,
    // v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:7], v[12:19], v[0:3],
    //   v20, v21 op_sel:[1,1,0] op_sel_hi:[0,1,0] cbsz:4
    0x00,
    0x18,
    0xac,
    0xd3,
    0x14,
    0x2b,
    0x02,
    0x10,
    0x00,
    0x0c,
    0xad,
    0xd3,
    0x04,
    0x19,
    0x02,
    0x04,
    // v_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[6:7] op_sel_hi:[1,0,1]
    //   neg_lo:[1,0,0]
    0x00,
    0x40,
    0xb0,
    0xd3,
    0x02,
    0x09,
    0x1a,
    0x2c,
    // s_cbranch_scc1 -3
    0xfd,
    0xff,
    0x85,
    0xbf,
    // global_load_dwordx2 v[0:1], v[2:3], off offset:-8
    0xf8,
    0x9f,
    0x54,
    0xdc,
    0x02,
    0x00,
    0x7f,
    0x00,
    // v_cvt_pk_fp8_f32 v1, v2, v3 op_sel:[0,0,1]
    0x01,
    0x40,
    0xa2,
    0xd2,
    0x02,
    0x07,
    0x02,
    0x00,
    // v_sin_f32 v1, v2 (not implemented)
    0x02,
    0x53,
    0x02,
    0x7e,
};

static int test_fields(void) {
  uq_sim_decoder_t *d;
  UQ_EXPECT_OK(uq_sim_decoder_create(kImage, sizeof(kImage), &d));
  const uq_sim_inst_t *in;
  uint64_t pc = 0;
#define NEXT(sz)                                                               \
  do {                                                                         \
    UQ_EXPECT_OK(uq_sim_decoder_get(d, pc, &in));                              \
    UQ_EXPECT_EQ_INT(in->size, (sz));                                          \
    UQ_EXPECT_EQ_HEX(in->pc, pc);                                              \
    pc += (sz);                                                                \
  } while (0)
  NEXT(8);
  UQ_EXPECT_EQ_INT(in->op, UQ_OP_V_FMA_F32);
  UQ_EXPECT_EQ_INT(in->nopnd, 4);
  UQ_EXPECT_EQ_INT(in->o[1].kind, UQ_OPND_VGPR);
  UQ_EXPECT_EQ_INT(in->o[1].mods, UQ_MOD_NEG | UQ_MOD_ABS);
  UQ_EXPECT_EQ_INT(in->o[2].kind, UQ_OPND_SGPR);
  UQ_EXPECT_EQ_INT(in->o[2].reg, 3);
  UQ_EXPECT_EQ_HEX(in->o[3].value, 0x3f000000);
  UQ_EXPECT_EQ_INT(in->clamp, 1);
  NEXT(8);
  UQ_EXPECT_EQ_INT(in->op, UQ_OP_V_ADD_F16);
  UQ_EXPECT_EQ_INT(in->enc, UQ_ENC_E64);
  UQ_EXPECT_EQ_HEX(in->o[1].value, 0x3c00); // f16 1.0
  NEXT(4);
  UQ_EXPECT_EQ_INT(in->op, UQ_OP_V_MOV_B64);
  UQ_EXPECT_EQ_INT(in->o[0].count, 2);
  UQ_EXPECT_EQ_HEX(in->o[1].value, 0x3ff0000000000000ull); // f64 1.0
  NEXT(4);
  UQ_EXPECT_EQ_INT(in->op, UQ_OP_S_MOV_B64);
  UQ_EXPECT_EQ_INT(in->o[0].reg, 126);
  UQ_EXPECT_EQ_INT(in->o[0].count, 2);
  UQ_EXPECT_EQ_HEX(in->o[1].value, ~0ull);
  NEXT(8);
  UQ_EXPECT_EQ_INT(in->op, UQ_OP_V_MOV_B32);
  UQ_EXPECT_EQ_INT(in->enc, UQ_ENC_DPP);
  UQ_EXPECT_EQ_HEX(in->dpp_ctrl, 0x111);
  UQ_EXPECT_EQ_INT(in->bound_ctrl, 1);
  UQ_EXPECT_EQ_HEX(in->row_mask, 0xf);
  UQ_EXPECT_EQ_HEX(in->bank_mask, 0xf);
  NEXT(8);
  UQ_EXPECT_EQ_INT(in->op, UQ_OP_DS_READ2_B32);
  UQ_EXPECT_EQ_INT(in->offset, 1);
  UQ_EXPECT_EQ_INT(in->offset1, 4);
  NEXT(16);
  UQ_EXPECT_EQ_INT(in->op, UQ_OP_V_MFMA_SCALE_F32_16X16X128_F8F6F4);
  UQ_EXPECT_EQ_INT(in->nopnd, 6);
  UQ_EXPECT_EQ_INT(in->o[1].count, 4);
  UQ_EXPECT_EQ_INT(in->o[2].count, 8);
  UQ_EXPECT_EQ_INT(in->o[4].reg, 20);
  UQ_EXPECT_EQ_INT(in->o[5].reg, 21);
  UQ_EXPECT_EQ_INT(in->op_sel & 3, 3);
  UQ_EXPECT_EQ_INT(in->op_sel_hi & 3, 2);
  UQ_EXPECT_EQ_INT(in->cbsz, 4);
  UQ_EXPECT_EQ_INT(in->blgp, 0);
  UQ_EXPECT_EQ_INT(in->abid & 1, 1);
  NEXT(8);
  UQ_EXPECT_EQ_INT(in->op, UQ_OP_V_PK_FMA_F32);
  UQ_EXPECT_EQ_INT(in->op_sel, 0);
  UQ_EXPECT_EQ_INT(in->op_sel_hi, 5);
  UQ_EXPECT_EQ_INT(in->neg_lo, 1);
  UQ_EXPECT_EQ_INT(in->neg_hi, 0);
  NEXT(4);
  UQ_EXPECT_EQ_INT(in->op, UQ_OP_S_CBRANCH_SCC1);
  UQ_EXPECT_EQ_INT(in->simm, -3);
  NEXT(8);
  UQ_EXPECT_EQ_INT(in->op, UQ_OP_GLOBAL_LOAD_DWORDX2);
  UQ_EXPECT_EQ_INT(in->offset, -8);
  UQ_EXPECT_EQ_INT(in->o[2].kind, UQ_OPND_OFF);
  NEXT(8);
  UQ_EXPECT_EQ_INT(in->op, UQ_OP_V_CVT_PK_FP8_F32);
  UQ_EXPECT_EQ_HEX(in->op_sel, 8); // bit 3: the destination's high word
  NEXT(4);
  UQ_EXPECT_EQ_INT(in->op, UQ_OP_UNKNOWN);
  UQ_EXPECT(strstr(in->text, "v_sin_f32") != NULL);
#undef NEXT
  // Past the end, unaligned: errors.
  UQ_EXPECT_CODE(uq_sim_decoder_get(d, sizeof(kImage), &in),
                 UQ_STATUS_OUT_OF_RANGE);
  UQ_EXPECT_CODE(uq_sim_decoder_get(d, 2, &in), UQ_STATUS_OUT_OF_RANGE);
  // Decoded once: the same pointer comes back.
  const uq_sim_inst_t *again;
  UQ_EXPECT_OK(uq_sim_decoder_get(d, 0, &in));
  UQ_EXPECT_OK(uq_sim_decoder_get(d, 0, &again));
  UQ_EXPECT(in == again);
  uq_sim_decoder_destroy(d);
  return 0;
}

static int test_text_operands(void) {
  // Texts the parser must reject (UNKNOWN, so execution stops) or read.
  uint8_t zero[8] = {0};
  uq_sim_inst_t in;
  UQ_EXPECT_OK(uq_sim_decode_text("v_mov_b32 v1, weird", 0, zero, 4, &in));
  UQ_EXPECT_EQ_INT(in.op, UQ_OP_UNKNOWN);
  UQ_EXPECT_OK(uq_sim_decode_text("v_mov_b32 v1, v[3:1]", 0, zero, 4, &in));
  UQ_EXPECT_EQ_INT(in.op, UQ_OP_UNKNOWN);
  UQ_EXPECT_OK(uq_sim_decode_text("v_mov_b32 v1, v256", 0, zero, 4, &in));
  UQ_EXPECT_EQ_INT(in.op, UQ_OP_UNKNOWN);
  UQ_EXPECT_OK(uq_sim_decode_text("", 0, zero, 4, &in));
  UQ_EXPECT_EQ_INT(in.op, UQ_OP_UNKNOWN);
  UQ_EXPECT_OK(
      uq_sim_decode_text("v_add_u32_e32 v1, 0x12345, v1", 0, zero, 8, &in));
  UQ_EXPECT_EQ_INT(in.op, UQ_OP_V_ADD_U32);
  UQ_EXPECT_EQ_HEX(in.o[1].value, 0x12345);
  UQ_EXPECT_OK(uq_sim_decode_text("s_mov_b32 s0, -16", 0, zero, 4, &in));
  UQ_EXPECT_EQ_HEX((uint32_t)in.o[1].value, 0xFFFFFFF0u);
  UQ_EXPECT_OK(
      uq_sim_decode_text("v_mul_f32_e32 v1, -4.0, v2", 0, zero, 4, &in));
  UQ_EXPECT_EQ_HEX(in.o[1].value, 0xc0800000);
  UQ_EXPECT_OK(
      uq_sim_decode_text("v_mul_f32_e32 v1, 0.15915494, v2", 0, zero, 4, &in));
  UQ_EXPECT_EQ_HEX(in.o[1].value, 0x3e22f983); // exactly 1/(2*pi)
  UQ_EXPECT_OK(uq_sim_decode_text("v_cndmask_b32_e64 v1, v2, v3, s[4:5]", 0,
                                  zero, 8, &in));
  UQ_EXPECT_EQ_INT(in.o[3].kind, UQ_OPND_SGPR);
  UQ_EXPECT_EQ_INT(in.o[3].count, 2);
  UQ_EXPECT_OK(
      uq_sim_decode_text("v_readlane_b32 s1, v2, m0", 0, zero, 8, &in));
  UQ_EXPECT_EQ_INT(in.o[2].reg, 124);
  return 0;
}

// Words LLVM 22's disassembler crashes on, found by sim_mutation_test: the
// decoder must answer them without handing them to LLVM.
static int test_disassembler_hazards(void) {
  static const uint32_t kWords[] = {
      // v_madak_f16 v128, s1, v0 with the literal 0xFF (v_madmk_f16 alike)
      0x4B000001, 0x000000FF, 0x49000001, 0x000000FF,
      // v_mfma_f32_32x32x64_f8f6f4 v[0:15] with s113 as its A operand
      0xD3AE8300, 0x00000071,
      // v_mfma_ld_scale_b32 with a literal (0xFF) scale source, then
      // v_mfma_scale_f32_16x16x128_f8f6f4 v[120:123], v[130:133], v[90:97]
      0xD3AC0000, 0x00F9FE7E, 0xD3AD0C78, 0x0202B582,
      // the same pair with VGPR scales and the literal code 0xFF as C
      0xD3AC5710, 0xE3AEB17D, 0xD3AE8BCF, 0x4BFE2978,
      // s_nop 0, s_endpgm
      0xBF800000, 0xBF810000};
  uint8_t image[sizeof(kWords)];
  memcpy(image, kWords, sizeof(image));
  uq_sim_decoder_t *d;
  UQ_EXPECT_OK(uq_sim_decoder_create(image, sizeof(image), &d));
  const uq_sim_inst_t *in;
  UQ_EXPECT_OK(uq_sim_decoder_get(d, 0, &in));
  UQ_EXPECT_EQ_INT(in->op, UQ_OP_UNKNOWN);
  UQ_EXPECT_EQ_INT(in->size, 8);
  UQ_EXPECT(strcmp(in->text, "v_madak_f16") == 0);
  UQ_EXPECT_OK(uq_sim_decoder_get(d, 8, &in));
  UQ_EXPECT_EQ_INT(in->op, UQ_OP_UNKNOWN);
  UQ_EXPECT(strcmp(in->text, "v_madmk_f16") == 0);
  UQ_EXPECT_CODE(uq_sim_decoder_get(d, 16, &in), UQ_STATUS_DATA_LOSS);
  UQ_EXPECT_CODE(uq_sim_decoder_get(d, 24, &in), UQ_STATUS_DATA_LOSS);
  UQ_EXPECT_CODE(uq_sim_decoder_get(d, 40, &in), UQ_STATUS_DATA_LOSS);
  UQ_EXPECT_OK(uq_sim_decoder_get(d, 56, &in));
  UQ_EXPECT_EQ_INT(in->op, UQ_OP_S_NOP);
  uq_sim_decoder_destroy(d);
  return 0;
}

static int test_random_images(void) {
  srand((unsigned)uq_test_seed());
  enum { SIZE = 256 };
  static uint8_t image[SIZE];
  int decoded = 0;
  for (int rep = 0; rep < 300; ++rep) {
    for (int i = 0; i < SIZE; ++i)
      image[i] = (uint8_t)rand();
    uq_sim_decoder_t *d;
    UQ_EXPECT_OK(uq_sim_decoder_create(image, SIZE, &d));
    for (uint64_t pc = 0; pc < SIZE; pc += 4) {
      const uq_sim_inst_t *in;
      uq_status_t st = uq_sim_decoder_get(d, pc, &in);
      if (st) {
        UQ_EXPECT(uq_status_consume_code(st) == UQ_STATUS_DATA_LOSS);
        continue;
      }
      ++decoded;
      UQ_EXPECT(in->size == 4 || in->size == 8 || in->size == 12 ||
                in->size == 16);
      UQ_EXPECT(in->op < UQ_OP_COUNT);
      UQ_EXPECT(in->nopnd <= UQ_SIM_MAX_OPNDS);
      for (int i = 0; i < in->nopnd; ++i) {
        if (in->o[i].kind == UQ_OPND_VGPR)
          UQ_EXPECT(in->o[i].reg + in->o[i].count <= 512);
        if (in->o[i].kind == UQ_OPND_SGPR)
          UQ_EXPECT(in->o[i].reg + in->o[i].count <= 128);
      }
    }
    uq_sim_decoder_destroy(d);
  }
  UQ_EXPECT(decoded > 1000);
  return 0;
}

static const uq_test_case_t tests[] = {
    {"fields", test_fields},
    {"text_operands", test_text_operands},
    {"disassembler_hazards", test_disassembler_hazards},
    {"random_images", test_random_images},
    {0, 0},
};

int main(int argc, char **argv) { return uq_test_main(argc, argv, tests); }
