// Loads the IRDL-defined uq dialect and builds/matches its ops.
#include "dialect/uq_dialect.h"

#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/IRDL.h"

extern const unsigned char uq_irdl_text[];
extern const size_t uq_irdl_text_size;

MlirLogicalResult uq_dialect_load(MlirContext context) {
  MlirStringRef name = mlirStringRefCreateFromCString("uq");
  // Already loaded (IRDL dialects register as dynamic dialects).
  if (!mlirDialectIsNull(mlirContextGetOrLoadDialect(context, name)))
    return mlirLogicalResultSuccess();
  MlirModule definition = mlirModuleCreateParse(
      context,
      mlirStringRefCreate((const char *)uq_irdl_text, uq_irdl_text_size));
  if (mlirModuleIsNull(definition))
    return mlirLogicalResultFailure();
  MlirLogicalResult result = mlirLoadIRDLDialects(definition);
  mlirModuleDestroy(definition);
  return result;
}

bool uq_op_is(MlirOperation op, const char *short_name) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  size_t length = strlen(short_name);
  return name.length == length + 3 && strncmp(name.data, "uq.", 3) == 0 &&
         strncmp(name.data + 3, short_name, length) == 0;
}

static MlirOperation build(MlirLocation location, const char *name,
                           intptr_t operand_count, const MlirValue *operands,
                           const char *result_type) {
  MlirContext context = mlirLocationGetContext(location);
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString(name), location);
  mlirOperationStateAddOperands(&state, operand_count, operands);
  MlirType type =
      mlirTypeParseGet(context, mlirStringRefCreateFromCString(result_type));
  mlirOperationStateAddResults(&state, 1, &type);
  return mlirOperationCreate(&state);
}

MlirOperation uq_param_build(MlirLocation location, const char *name,
                             MlirType type) {
  MlirContext context = mlirLocationGetContext(location);
  MlirOperationState state = mlirOperationStateGet(
      mlirStringRefCreateFromCString("uq.param"), location);
  MlirNamedAttribute attribute = mlirNamedAttributeGet(
      mlirIdentifierGet(context, mlirStringRefCreateFromCString("name")),
      mlirStringAttrGet(context, mlirStringRefCreateFromCString(name)));
  mlirOperationStateAddAttributes(&state, 1, &attribute);
  mlirOperationStateAddResults(&state, 1, &type);
  return mlirOperationCreate(&state);
}

bool uq_param_match(MlirOperation op, MlirStringRef *out_name) {
  if (!uq_op_is(op, "param"))
    return false;
  MlirAttribute name = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("name"));
  if (mlirAttributeIsNull(name) || !mlirAttributeIsAString(name))
    return false;
  if (out_name)
    *out_name = mlirStringAttrGetValue(name);
  return true;
}

MlirOperation uq_fp4_to_bf16_build(MlirLocation location, MlirValue codes,
                                   MlirValue scale) {
  MlirValue operands[] = {codes, scale};
  return build(location, "uq.fp4_to_bf16", 2, operands, "vector<8xbf16>");
}

MlirOperation uq_wht_build(MlirLocation location, MlirValue input,
                           MlirValue head_dim) {
  MlirValue operands[] = {input, head_dim};
  return build(location, "uq.wht", 2, operands, "vector<32xf32>");
}

MlirOperation uq_e4m3_pack_build(MlirLocation location, MlirValue input) {
  return build(location, "uq.e4m3_pack", 1, &input, "vector<8xi32>");
}

MlirOperation uq_buffer_rsrc_build(MlirLocation location, MlirValue base,
                                   MlirValue offset, MlirValue num_records) {
  MlirValue operands[] = {base, offset, num_records};
  return build(location, "uq.buffer_rsrc", 3, operands, "!llvm.ptr<8>");
}
