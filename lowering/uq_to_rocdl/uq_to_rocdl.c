// convert-uq-to-rocdl: the uq ops in terms of upstream gfx950 ops.
#include "lowering/uq_to_rocdl/uq_to_rocdl.h"

#include <string.h>

#include "dialect/uq_dialect.h"
#include "lowering/builder.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "uq/format.h"

// Buffer resource word 3 for gfx9-family chips (gfx950 included): 32-bit
// data format with the XYZW destination selects, as the upstream
// amdgpu.fat_raw_buffer_cast lowering uses for these chips.
enum { kGfx9BufferFlags = 0x27000 };

static bool is_uq_op(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return name.length > 3 && strncmp(name.data, "uq.", 3) == 0;
}

static MlirNamedAttribute i32_attr(MlirContext context, const char *name,
                                   int32_t value) {
  return uq_named_attr(
      context, name,
      mlirIntegerAttrGet(mlirIntegerTypeGet(context, 32), value));
}

static void lower_fp4_to_bf16(MlirOperation op) {
  uq_builder_t b = uq_builder_before(op);
  MlirValue codes = mlirOperationGetOperand(op, 0);
  MlirValue scale = mlirOperationGetOperand(op, 1);
  MlirValue word = uq_build_value(&b, "vector.broadcast", 1, &codes,
                                  uq_type(b.context, "vector<1xi32>"), 0, NULL);
  MlirValue fp4 =
      uq_build_value(&b, "vector.bitcast", 1, &word,
                     uq_type(b.context, "vector<8xf4E2M1FN>"), 0, NULL);
  MlirType pair = uq_type(b.context, "vector<2xbf16>");
  MlirValue pairs[4];
  for (int i = 0; i < 4; ++i) {
    // Pair i is byte i of the word: elements 2i (low nibble) and 2i+1.
    MlirValue operands[] = {fp4, scale};
    MlirNamedAttribute index = i32_attr(b.context, "index", i);
    pairs[i] = uq_build_value(&b, "amdgpu.scaled_ext_packed", 2, operands, pair,
                              1, &index);
  }
  static const int64_t first4[] = {0, 1, 2, 3};
  static const int64_t all8[] = {0, 1, 2, 3, 4, 5, 6, 7};
  MlirType quad = uq_type(b.context, "vector<4xbf16>");
  MlirValue low = uq_build_shuffle(&b, pairs[0], pairs[1], first4, 4, quad);
  MlirValue high = uq_build_shuffle(&b, pairs[2], pairs[3], first4, 4, quad);
  MlirValue result = uq_build_shuffle(&b, low, high, all8, 8,
                                      uq_type(b.context, "vector<8xbf16>"));
  uq_replace_op(op, 1, &result);
}

static MlirValue splat_f32(uq_builder_t *b, MlirValue scalar) {
  return uq_build_value(b, "vector.broadcast", 1, &scalar,
                        uq_type(b->context, "vector<32xf32>"), 0, NULL);
}

// The head dim of a uq.wht: its second operand, a constant once the
// variant is specialized; 0 when it is not a supported constant.
static int64_t wht_head_dim(MlirOperation op) {
  MlirValue d = mlirOperationGetOperand(op, 1);
  if (!mlirValueIsAOpResult(d))
    return 0;
  MlirOperation def = mlirOpResultGetOwner(d);
  if (!uq_op_named(def, "arith.constant"))
    return 0;
  MlirAttribute value = mlirOperationGetAttributeByName(
      def, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(value) || !mlirAttributeIsAInteger(value))
    return 0;
  int64_t head_dim = mlirIntegerAttrGetValueInt(value);
  return uq_head_dim_supported(head_dim) ? head_dim : 0;
}

static bool lower_wht(MlirOperation op) {
  int64_t head_dim = wht_head_dim(op);
  if (!head_dim) {
    uq_emit_error(op, "uq.wht needs a constant head dim of " UQ_HEAD_DIMS_TEXT
                      " (run uq-specialize and canonicalize first)");
    return false;
  }
  uq_builder_t b = uq_builder_before(op);
  MlirType v32 = uq_type(b.context, "vector<32xf32>");
  MlirType v16 = uq_type(b.context, "vector<16xf32>");
  MlirValue v = mlirOperationGetOperand(op, 0);

  // Stages 0..4: butterflies of stride 1..16 inside the lane's 32 values.
  for (int stage = 0; stage < 5; ++stage) {
    int stride = 1 << stage;
    int64_t low_idx[16], high_idx[16], merge[32];
    int k = 0;
    for (int i = 0; i < 32; ++i)
      if ((i & stride) == 0) {
        low_idx[k] = i;
        high_idx[k] = i + stride;
        ++k;
      }
    for (int i = 0; i < 32; ++i) {
      int pair = ((i >> (stage + 1)) << stage) | (i & (stride - 1));
      merge[i] = (i & stride) ? 16 + pair : pair;
    }
    MlirValue low = uq_build_shuffle(&b, v, v, low_idx, 16, v16);
    MlirValue high = uq_build_shuffle(&b, v, v, high_idx, 16, v16);
    MlirValue sum = uq_build_binary(&b, "arith.addf", low, high);
    MlirValue diff = uq_build_binary(&b, "arith.subf", low, high);
    v = uq_build_shuffle(&b, sum, diff, merge, 32, v32);
  }

  // Strides 32 .. D/2 are lane-chunk xor 1 .. D/64 within the row's D/32
  // lanes. The upper partner computes (partner - mine), the lower (mine +
  // partner): one sign per lane, then v * sign + partner.
  MlirType index_type = mlirIndexTypeGet(b.context);
  MlirValue lane_index =
      uq_build_value(&b, "gpu.lane_id", 0, NULL, index_type, 0, NULL);
  MlirType i32 = mlirIntegerTypeGet(b.context, 32);
  MlirValue lane =
      uq_build_value(&b, "arith.index_cast", 1, &lane_index, i32, 0, NULL);
  MlirValue zero = uq_build_const_i32(&b, 0);
  MlirValue plus = uq_build_const_f32(&b, 1.0f);
  MlirValue minus = uq_build_const_f32(&b, -1.0f);
  for (int xor_mask = 1; xor_mask < head_dim / 32; xor_mask <<= 1) {
    MlirNamedAttribute masks[] = {
        i32_attr(b.context, "and_mask", 0x1F),
        i32_attr(b.context, "or_mask", 0),
        i32_attr(b.context, "xor_mask", xor_mask),
    };
    MlirValue partner =
        uq_build_value(&b, "amdgpu.swizzle_bitmode", 1, &v, v32, 3, masks);
    MlirValue bit = uq_build_binary(&b, "arith.andi", lane,
                                    uq_build_const_i32(&b, xor_mask));
    MlirValue cmp_operands[] = {bit, zero};
    // arith.cmpi's predicate is an i64 enum attribute; 1 is "ne".
    MlirNamedAttribute predicate =
        uq_named_attr(b.context, "predicate",
                      mlirIntegerAttrGet(mlirIntegerTypeGet(b.context, 64), 1));
    MlirValue upper =
        uq_build_value(&b, "arith.cmpi", 2, cmp_operands,
                       mlirIntegerTypeGet(b.context, 1), 1, &predicate);
    MlirValue select_operands[] = {upper, minus, plus};
    MlirValue sign = uq_build_value(&b, "arith.select", 3, select_operands,
                                    mlirF32TypeGet(b.context), 0, NULL);
    // One fused multiply-add: v * (+-1) is exact, so fma(v, sign, partner)
    // rounds once, as (mine + partner) or (partner - mine) do.
    MlirValue fma_operands[] = {v, splat_f32(&b, sign), partner};
    v = uq_build_value(&b, "math.fma", 3, fma_operands, v32, 0, NULL);
  }
  // 1/sqrt(D) rounded to f32: the host reference's constant.
  float norm = uq_wht_scale(head_dim);
  MlirValue scale = splat_f32(&b, uq_build_const_f32(&b, norm));
  v = uq_build_binary(&b, "arith.mulf", v, scale);
  uq_replace_op(op, 1, &v);
  return true;
}

static void lower_e4m3_pack(MlirOperation op) {
  uq_builder_t b = uq_builder_before(op);
  MlirValue input = mlirOperationGetOperand(op, 0);
  // x * 0 + x in one fma: finite x unchanged (x * 0 is a zero of x's sign),
  // +-inf and NaN -> NaN. The conversion saturates (FP16_OVFL), which is
  // the rule for large finite queries, but an infinite query element must
  // give a non-finite head, never a plausible output.
  MlirType v32 = uq_type(b.context, "vector<32xf32>");
  MlirValue fma_operands[] = {
      input, splat_f32(&b, uq_build_const_f32(&b, 0.0f)), input};
  input = uq_build_value(&b, "math.fma", 3, fma_operands, v32, 0, NULL);
  MlirType i32 = mlirIntegerTypeGet(b.context, 32);
  MlirNamedAttribute word_sel[] = {
      uq_named_attr(b.context, "wordSel", mlirBoolAttrGet(b.context, 0)),
      uq_named_attr(b.context, "wordSel", mlirBoolAttrGet(b.context, 1)),
  };
  MlirNamedAttribute zeros = uq_named_attr(
      b.context, "value", uq_attr(b.context, "dense<0> : vector<8xi32>"));
  MlirValue words =
      uq_build_value(&b, "arith.constant", 0, NULL,
                     uq_type(b.context, "vector<8xi32>"), 1, &zeros);
  MlirValue zero = uq_build_const_i32(&b, 0);
  for (int w = 0; w < 8; ++w) {
    // Elements 4w, 4w + 1 into bytes 0, 1; 4w + 2, 4w + 3 into bytes 2, 3.
    MlirValue word = zero;
    for (int half = 0; half < 2; ++half) {
      MlirValue operands[] = {uq_build_extract(&b, input, 4 * w + 2 * half),
                              uq_build_extract(&b, input, 4 * w + 2 * half + 1),
                              word};
      word = uq_build_value(&b, "rocdl.cvt.pk.fp8.f32", 3, operands, i32, 1,
                            &word_sel[half]);
    }
    words = uq_build_insert(&b, word, words, w);
  }
  uq_replace_op(op, 1, &words);
}

static void lower_buffer_rsrc(MlirOperation op) {
  uq_builder_t b = uq_builder_before(op);
  MlirValue base = mlirOperationGetOperand(op, 0);
  MlirValue offset = mlirOperationGetOperand(op, 1);
  MlirValue records = mlirOperationGetOperand(op, 2);
  // The 64-bit offset goes into the descriptor's base, so the 32-bit
  // offsets of the accesses never wrap however large the buffer is.
  int32_t dynamic_index = INT32_MIN;
  MlirNamedAttribute gep_attrs[] = {
      uq_named_attr(b.context, "elem_type",
                    mlirTypeAttrGet(mlirIntegerTypeGet(b.context, 8))),
      uq_named_attr(b.context, "rawConstantIndices",
                    mlirDenseI32ArrayGet(b.context, 1, &dynamic_index)),
  };
  MlirValue gep_operands[] = {base, offset};
  MlirValue address = uq_build_value(&b, "llvm.getelementptr", 2, gep_operands,
                                     mlirValueGetType(base), 2, gep_attrs);
  MlirNamedAttribute zero16 =
      uq_named_attr(b.context, "value",
                    mlirIntegerAttrGet(mlirIntegerTypeGet(b.context, 16), 0));
  MlirValue stride =
      uq_build_value(&b, "arith.constant", 0, NULL,
                     mlirIntegerTypeGet(b.context, 16), 1, &zero16);
  MlirValue flags = uq_build_const_i32(&b, kGfx9BufferFlags);
  MlirValue operands[] = {address, stride, records, flags};
  MlirValue rsrc = uq_build_value(&b, "rocdl.make.buffer.rsrc", 4, operands,
                                  uq_type(b.context, "!llvm.ptr<8>"), 0, NULL);
  uq_replace_op(op, 1, &rsrc);
}

static bool lower_op(MlirOperation op, void *user_data) {
  (void)user_data;
  if (uq_op_is(op, "fp4_to_bf16"))
    lower_fp4_to_bf16(op);
  else if (uq_op_is(op, "wht"))
    return lower_wht(op);
  else if (uq_op_is(op, "e4m3_pack"))
    lower_e4m3_pack(op);
  else if (uq_op_is(op, "buffer_rsrc"))
    lower_buffer_rsrc(op);
  else if (uq_op_is(op, "param")) {
    uq_emit_error(op, "uq.param left unspecialized: run uq-specialize first");
    return false;
  } else {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    uq_emit_error(op, "no lowering for '%.*s'", (int)name.length, name.data);
    return false;
  }
  return true;
}

static bool run(MlirOperation root, void *state) {
  return uq_walk_collect(root, is_uq_op, lower_op, state);
}

const uq_pass_def_t uq_to_rocdl_pass = {
    "convert-uq-to-rocdl",
    "Lower uq ops to amdgpu/rocdl/vector/arith ops for gfx950",
    NULL,
    NULL,
    NULL,
    NULL,
    run,
};
