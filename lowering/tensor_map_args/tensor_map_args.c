// uq-tensor-map-args: {uq.tensor_map_args} -> by-value grid-constant
// CUtensorMap arguments.
#include "lowering/tensor_map_args/tensor_map_args.h"

#include <stdlib.h>

#include "lowering/builder.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"

static const char kTensorMapArgs[] = "uq.tensor_map_args";

static bool has_tensor_map_args(MlirOperation op) {
  return uq_op_named(op, "llvm.func") &&
         !mlirAttributeIsNull(mlirOperationGetAttributeByName(
             op, mlirStringRefCreateFromCString(kTensorMapArgs)));
}

// The argument's attributes with the tensor map's three added (an existing
// entry of the same name is replaced).
static MlirAttribute tensor_map_dict(MlirContext context, MlirAttribute old) {
  static const char *const kAdded[] = {"llvm.byval", "llvm.align",
                                       "nvvm.grid_constant"};
  intptr_t old_count =
      mlirAttributeIsNull(old) ? 0 : mlirDictionaryAttrGetNumElements(old);
  MlirNamedAttribute *named = malloc(sizeof(*named) * (size_t)(old_count + 3));
  intptr_t n = 0;
  for (intptr_t i = 0; i < old_count; ++i) {
    MlirNamedAttribute e = mlirDictionaryAttrGetElement(old, i);
    MlirStringRef name = mlirIdentifierStr(e.name);
    bool replaced = false;
    for (int k = 0; k < 3; ++k)
      replaced |=
          mlirStringRefEqual(name, mlirStringRefCreateFromCString(kAdded[k]));
    if (!replaced)
      named[n++] = e;
  }
  named[n++] =
      uq_named_attr(context, kAdded[0],
                    mlirTypeAttrGet(uq_type(context, "!llvm.array<128 x i8>")));
  named[n++] = uq_named_attr(context, kAdded[1], uq_attr(context, "64 : i64"));
  named[n++] = uq_named_attr(context, kAdded[2], mlirUnitAttrGet(context));
  MlirAttribute dict = mlirDictionaryAttrGet(context, n, named);
  free(named);
  return dict;
}

static bool mark_arguments(MlirOperation func, void *user_data) {
  (void)user_data;
  MlirContext context = mlirOperationGetContext(func);
  MlirStringRef key = mlirStringRefCreateFromCString(kTensorMapArgs);
  MlirAttribute list = mlirOperationGetAttributeByName(func, key);
  if (!mlirAttributeIsADenseI32Array(list)) {
    uq_emit_error(func, "%s must be an array<i32: ...> of argument indices",
                  kTensorMapArgs);
    return false;
  }
  if (mlirAttributeIsNull(mlirOperationGetAttributeByName(
          func, mlirStringRefCreateFromCString("nvvm.kernel")))) {
    uq_emit_error(func, "%s on a function that is not an nvvm.kernel",
                  kTensorMapArgs);
    return false;
  }
  MlirRegion body = mlirOperationGetRegion(func, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  intptr_t num_args =
      mlirBlockIsNull(entry) ? 0 : mlirBlockGetNumArguments(entry);
  MlirStringRef arg_attrs_name = mlirStringRefCreateFromCString("arg_attrs");
  MlirAttribute old_attrs =
      mlirOperationGetAttributeByName(func, arg_attrs_name);
  MlirAttribute *dicts =
      malloc(sizeof(*dicts) * (size_t)(num_args ? num_args : 1));
  for (intptr_t i = 0; i < num_args; ++i)
    dicts[i] = mlirAttributeIsNull(old_attrs)
                   ? mlirDictionaryAttrGet(context, 0, NULL)
                   : mlirArrayAttrGetElement(old_attrs, i);
  bool ok = true;
  intptr_t count = mlirDenseArrayGetNumElements(list);
  for (intptr_t k = 0; k < count && ok; ++k) {
    int32_t index = mlirDenseI32ArrayGetElement(list, k);
    if (index < 0 || index >= num_args ||
        !mlirTypeIsALLVMPointerType(
            mlirValueGetType(mlirBlockGetArgument(entry, index)))) {
      uq_emit_error(func,
                    "%s: argument %d is not a !llvm.ptr argument of the "
                    "kernel (it has %ld)",
                    kTensorMapArgs, (int)index, (long)num_args);
      ok = false;
      break;
    }
    dicts[index] = tensor_map_dict(context, dicts[index]);
  }
  if (ok) {
    mlirOperationSetAttributeByName(func, arg_attrs_name,
                                    mlirArrayAttrGet(context, num_args, dicts));
    mlirOperationRemoveAttributeByName(func, key);
  }
  free(dicts);
  return ok;
}

static bool run(MlirOperation root, void *state) {
  (void)state;
  return uq_walk_collect(root, has_tensor_map_args, mark_arguments, NULL);
}

const uq_pass_def_t uq_tensor_map_args_pass = {
    "uq-tensor-map-args",
    "Make the arguments an nvvm.kernel lists in uq.tensor_map_args by-value "
    "grid-constant CUtensorMaps",
    NULL,
    NULL, // no options, no state
    NULL,
    NULL,
    run,
};
