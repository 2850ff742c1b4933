// uq-evaluate-globals: llvm.mlir.global {uq.value_of = @f} -> @f's value.
#include "lowering/evaluate_globals/evaluate_globals.h"

#include "lowering/builder.h"
#include "lowering/inline/inline.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Rewrite.h"

static MlirStringRef kValueOf = {"uq.value_of", 11};

static bool has_value_of(MlirOperation op) {
  return uq_op_named(op, "llvm.mlir.global") &&
         !mlirAttributeIsNull(mlirOperationGetAttributeByName(op, kValueOf));
}

// The integer @f (a func.func in `table`'s body, copied with every other
// func.func of it into a scratch module) returns once its calls are inlined
// and it is folded; false with a diagnostic at `global` when it does not
// fold to one constant.
static bool evaluate(MlirOperation global, MlirOperation table, MlirStringRef f,
                     int64_t *out_value) {
  MlirContext context = mlirOperationGetContext(global);
  MlirModule scratch = mlirModuleCreateEmpty(mlirOperationGetLocation(global));
  MlirBlock body = mlirModuleGetBody(scratch);
  MlirBlock source = mlirRegionGetFirstBlock(mlirOperationGetRegion(table, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(source);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (uq_op_named(op, "func.func"))
      mlirBlockAppendOwnedOperation(body, mlirOperationClone(op));
  MlirSymbolTable symbols =
      mlirSymbolTableCreate(mlirModuleGetOperation(scratch));
  MlirOperation copy = mlirSymbolTableLookup(symbols, f);
  mlirSymbolTableDestroy(symbols);
  bool ok = false;
  if (mlirOperationIsNull(copy)) {
    uq_emit_error(global, "uq-evaluate-globals: no func.func @%.*s beside it",
                  (int)f.length, f.data);
  } else if (uq_inline_calls(copy, false)) {
    MlirRewritePatternSet none = mlirRewritePatternSetCreate(context);
    MlirFrozenRewritePatternSet frozen = mlirFreezeRewritePattern(none);
    // Freezing moves the patterns out but not the set object itself,
    // whatever Rewrite.h says of ownership (MLIR 22's Rewrite.cpp: `new
    // FrozenRewritePatternSet(std::move(*unwrap(set)))`): the emptied set
    // is still ours to destroy.
    mlirRewritePatternSetDestroy(none);
    MlirGreedyRewriteDriverConfig config =
        mlirGreedyRewriteDriverConfigCreate();
    (void)mlirApplyPatternsAndFoldGreedilyWithOp(copy, frozen, config);
    mlirGreedyRewriteDriverConfigDestroy(config);
    mlirFrozenRewritePatternSetDestroy(frozen);
    MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(copy, 0));
    MlirOperation ret = mlirBlockIsNull(entry) ? (MlirOperation){NULL}
                                               : mlirBlockGetTerminator(entry);
    MlirOperation def = {NULL};
    if (!mlirOperationIsNull(ret) && mlirOperationGetNumOperands(ret) == 1) {
      MlirValue result = mlirOperationGetOperand(ret, 0);
      if (mlirValueIsAOpResult(result))
        def = mlirOpResultGetOwner(result);
    }
    MlirAttribute value =
        mlirOperationIsNull(def) || !uq_op_named(def, "arith.constant")
            ? (MlirAttribute){NULL}
            : mlirOperationGetAttributeByName(
                  def, mlirStringRefCreateFromCString("value"));
    if (!mlirAttributeIsNull(value) && mlirAttributeIsAInteger(value)) {
      *out_value = mlirIntegerAttrGetValueInt(value);
      ok = true;
    } else {
      uq_emit_error(global,
                    "uq-evaluate-globals: @%.*s does not fold to one integer "
                    "constant (it must depend only on uq.param values)",
                    (int)f.length, f.data);
    }
  }
  mlirModuleDestroy(scratch);
  return ok;
}

static bool materialize(MlirOperation global, void *user_data) {
  (void)user_data;
  MlirAttribute ref = mlirOperationGetAttributeByName(global, kValueOf);
  MlirAttribute type_attr = mlirOperationGetAttributeByName(
      global, mlirStringRefCreateFromCString("global_type"));
  MlirOperation table = mlirOperationGetParentOperation(global);
  if (!mlirAttributeIsAFlatSymbolRef(ref)) {
    uq_emit_error(global, "uq-evaluate-globals: uq.value_of must name a "
                          "function (@name)");
    return false;
  }
  MlirType type = mlirAttributeIsNull(type_attr)
                      ? (MlirType){NULL}
                      : mlirTypeAttrGetValue(type_attr);
  if (mlirTypeIsNull(type) || !mlirTypeIsAInteger(type)) {
    uq_emit_error(global, "uq-evaluate-globals: a global with uq.value_of "
                          "must have an integer type");
    return false;
  }
  if (mlirOperationIsNull(table) || mlirOperationGetNumRegions(table) != 1) {
    uq_emit_error(global, "uq-evaluate-globals: the global must sit in a "
                          "module");
    return false;
  }
  int64_t value = 0;
  if (!evaluate(global, table, mlirFlatSymbolRefAttrGetValue(ref), &value))
    return false;
  mlirOperationSetAttributeByName(global,
                                  mlirStringRefCreateFromCString("value"),
                                  mlirIntegerAttrGet(type, value));
  mlirOperationRemoveAttributeByName(global, kValueOf);
  return true;
}

static bool run(MlirOperation root, void *state) {
  (void)state;
  return uq_walk_collect(root, has_value_of, materialize, NULL);
}

const uq_pass_def_t uq_evaluate_globals_pass = {
    "uq-evaluate-globals",
    "Give globals with uq.value_of = @f the constant @f folds to",
    NULL,
    NULL, // no options, no state
    NULL,
    NULL,
    run,
};
