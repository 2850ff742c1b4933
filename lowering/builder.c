// Helpers for creating operations from C passes.
#include "lowering/builder.h"

#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

uq_builder_t uq_builder_before(MlirOperation anchor) {
  uq_builder_t b;
  b.context = mlirOperationGetContext(anchor);
  b.location = mlirOperationGetLocation(anchor);
  b.anchor = anchor;
  return b;
}

MlirType uq_type(MlirContext context, const char *text) {
  return mlirTypeParseGet(context, mlirStringRefCreateFromCString(text));
}

MlirAttribute uq_attr(MlirContext context, const char *text) {
  return mlirAttributeParseGet(context, mlirStringRefCreateFromCString(text));
}

MlirNamedAttribute uq_named_attr(MlirContext context, const char *name,
                                 MlirAttribute value) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(context, mlirStringRefCreateFromCString(name)), value);
}

MlirOperation uq_build_op(uq_builder_t *b, const char *name,
                          intptr_t operand_count, const MlirValue *operands,
                          intptr_t result_count, const MlirType *results,
                          intptr_t attribute_count,
                          const MlirNamedAttribute *attributes) {
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString(name), b->location);
  if (operand_count)
    mlirOperationStateAddOperands(&state, operand_count, operands);
  if (result_count)
    mlirOperationStateAddResults(&state, result_count, results);
  if (attribute_count)
    mlirOperationStateAddAttributes(&state, attribute_count, attributes);
  MlirOperation op = mlirOperationCreate(&state);
  MlirBlock block = mlirOperationGetBlock(b->anchor);
  mlirBlockInsertOwnedOperationBefore(block, b->anchor, op);
  return op;
}

MlirValue uq_build_value(uq_builder_t *b, const char *name,
                         intptr_t operand_count, const MlirValue *operands,
                         MlirType result, intptr_t attribute_count,
                         const MlirNamedAttribute *attributes) {
  MlirOperation op = uq_build_op(b, name, operand_count, operands, 1, &result,
                                 attribute_count, attributes);
  return mlirOperationGetResult(op, 0);
}

static MlirValue build_constant(uq_builder_t *b, MlirAttribute value) {
  MlirNamedAttribute attribute = uq_named_attr(b->context, "value", value);
  return uq_build_value(b, "arith.constant", 0, NULL,
                        mlirAttributeGetType(value), 1, &attribute);
}

MlirValue uq_build_const_i32(uq_builder_t *b, int32_t value) {
  return build_constant(
      b, mlirIntegerAttrGet(mlirIntegerTypeGet(b->context, 32), value));
}

MlirValue uq_build_const_f32(uq_builder_t *b, float value) {
  return build_constant(
      b, mlirFloatAttrDoubleGet(b->context, mlirF32TypeGet(b->context), value));
}

MlirValue uq_build_const_index(uq_builder_t *b, int64_t value) {
  return build_constant(
      b, mlirIntegerAttrGet(mlirIndexTypeGet(b->context), value));
}

MlirValue uq_build_binary(uq_builder_t *b, const char *name, MlirValue lhs,
                          MlirValue rhs) {
  MlirValue operands[] = {lhs, rhs};
  return uq_build_value(b, name, 2, operands, mlirValueGetType(lhs), 0, NULL);
}

MlirValue uq_build_shuffle(uq_builder_t *b, MlirValue v1, MlirValue v2,
                           const int64_t *mask, intptr_t count,
                           MlirType result) {
  MlirValue operands[] = {v1, v2};
  MlirNamedAttribute attribute = uq_named_attr(
      b->context, "mask", mlirDenseI64ArrayGet(b->context, count, mask));
  return uq_build_value(b, "vector.shuffle", 2, operands, result, 1,
                        &attribute);
}

MlirValue uq_build_extract(uq_builder_t *b, MlirValue vector,
                           int64_t position) {
  MlirNamedAttribute attribute =
      uq_named_attr(b->context, "static_position",
                    mlirDenseI64ArrayGet(b->context, 1, &position));
  MlirType element = mlirShapedTypeGetElementType(mlirValueGetType(vector));
  return uq_build_value(b, "vector.extract", 1, &vector, element, 1,
                        &attribute);
}

MlirValue uq_build_insert(uq_builder_t *b, MlirValue scalar, MlirValue vector,
                          int64_t position) {
  MlirValue operands[] = {scalar, vector};
  MlirNamedAttribute attribute =
      uq_named_attr(b->context, "static_position",
                    mlirDenseI64ArrayGet(b->context, 1, &position));
  return uq_build_value(b, "vector.insert", 2, operands,
                        mlirValueGetType(vector), 1, &attribute);
}

bool uq_op_named(MlirOperation op, const char *name) {
  MlirStringRef actual = mlirIdentifierStr(mlirOperationGetName(op));
  return actual.length == strlen(name) &&
         strncmp(actual.data, name, actual.length) == 0;
}

MlirStringRef uq_symbol_name(MlirOperation op) {
  MlirAttribute name = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("sym_name"));
  if (mlirAttributeIsNull(name) || !mlirAttributeIsAString(name))
    return mlirStringRefCreate("", 0);
  return mlirStringAttrGetValue(name);
}

void uq_replace_op(MlirOperation op, intptr_t count, const MlirValue *values) {
  for (intptr_t i = 0; i < count; ++i)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, i), values[i]);
  mlirOperationDestroy(op);
}
