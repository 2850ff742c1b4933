// uq-inline: func.call -> the callee's body, then the helpers are erased.
#include "lowering/inline/inline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/builder.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Rewrite.h"

enum { kMaxDepth = 16 };

typedef struct inline_state_s {
  bool marked_only; // option "marked": only helpers with uq.inline
} inline_state_t;

static void *create_state(const char *options, char *error, size_t error_size) {
  bool marked = strcmp(options, "marked") == 0;
  if (*options && !marked) {
    snprintf(error, error_size,
             "uq-inline: the only option is 'marked' (got '%s')", options);
    return NULL;
  }
  inline_state_t *state = calloc(1, sizeof(*state));
  if (!state)
    snprintf(error, error_size, "out of memory");
  else
    state->marked_only = marked;
  return state;
}

static void *clone_state(const void *state) {
  inline_state_t *copy = malloc(sizeof(*copy));
  if (copy)
    memcpy(copy, state, sizeof(*copy));
  return copy;
}

static bool is_call(MlirOperation op) { return uq_op_named(op, "func.call"); }

static bool is_symbol_table(MlirOperation op) {
  return uq_op_named(op, "gpu.module") || uq_op_named(op, "builtin.module");
}

static MlirStringRef symbol_of(MlirOperation op, const char *attribute) {
  MlirAttribute name = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString(attribute));
  if (mlirAttributeIsNull(name))
    return mlirStringRefCreate("", 0);
  if (mlirAttributeIsAFlatSymbolRef(name))
    return mlirFlatSymbolRefAttrGetValue(name);
  if (mlirAttributeIsAString(name))
    return mlirStringAttrGetValue(name);
  return mlirStringRefCreate("", 0);
}

// The func.func named by `call`'s callee in the nearest enclosing symbol
// table, or a null operation.
static MlirOperation find_callee(MlirOperation call) {
  MlirStringRef callee = symbol_of(call, "callee");
  MlirOperation table = mlirOperationGetParentOperation(call);
  while (!mlirOperationIsNull(table) && !is_symbol_table(table))
    table = mlirOperationGetParentOperation(table);
  if (mlirOperationIsNull(table))
    return table;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(table, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!uq_op_named(op, "func.func"))
      continue;
    MlirStringRef name = symbol_of(op, "sym_name");
    if (name.length == callee.length &&
        strncmp(name.data, callee.data, name.length) == 0)
      return op;
  }
  return (MlirOperation){NULL};
}

// Whether `callee` (null: missing) is inlined in this run: always, or with
// `marked_only` only when it carries uq.inline.
static bool due(MlirOperation callee, bool marked_only) {
  return !marked_only ||
         (!mlirOperationIsNull(callee) &&
          !mlirAttributeIsNull(mlirOperationGetAttributeByName(
              callee, mlirStringRefCreateFromCString("uq.inline"))));
}

static bool inline_call(MlirOperation call, void *user_data) {
  const inline_state_t *state = user_data;
  MlirOperation callee = find_callee(call);
  MlirStringRef name = symbol_of(call, "callee");
  if (!due(callee, state->marked_only))
    return true;
  if (mlirOperationIsNull(callee)) {
    uq_emit_error(call, "uq-inline: no func.func @%.*s in the enclosing module",
                  (int)name.length, name.data);
    return false;
  }
  MlirRegion region = mlirOperationGetRegion(callee, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(region);
  if (mlirBlockIsNull(entry) ||
      !mlirBlockIsNull(mlirBlockGetNextInRegion(entry))) {
    uq_emit_error(callee,
                  "uq-inline: @%.*s must have one block (use scf, not cf)",
                  (int)name.length, name.data);
    return false;
  }
  MlirOperation copy = mlirOperationClone(callee);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(copy, 0));
  MlirOperation ret = mlirBlockGetTerminator(body);
  intptr_t argc = mlirOperationGetNumOperands(call);
  MlirValue *args = malloc(sizeof(MlirValue) * (size_t)(argc ? argc : 1));
  if (!args) {
    mlirOperationDestroy(copy);
    uq_emit_error(call, "out of memory while inlining");
    return false;
  }
  for (intptr_t i = 0; i < argc; ++i)
    args[i] = mlirOperationGetOperand(call, i);
  MlirRewriterBase rewriter = mlirIRRewriterCreateFromOp(call);
  mlirRewriterBaseInlineBlockBefore(rewriter, body, call, argc, args);
  mlirIRRewriterDestroy(rewriter);
  free(args);
  // The func.return now sits before the call: its operands are the results.
  intptr_t results = mlirOperationGetNumResults(call);
  for (intptr_t i = 0; i < results; ++i)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(call, i),
                                  mlirOperationGetOperand(ret, i));
  mlirOperationDestroy(ret);
  mlirOperationDestroy(call);
  mlirOperationDestroy(copy);
  return true;
}

static bool is_helper(MlirOperation op) {
  return uq_op_named(op, "func.func") &&
         uq_op_named(mlirOperationGetParentOperation(op), "gpu.module");
}

// A helper marked uq.inline: every call to it is inlined in both modes.
static bool is_marked_helper(MlirOperation op) {
  return is_helper(op) && due(op, true);
}

static bool erase_helper(MlirOperation op, void *user_data) {
  (void)user_data;
  mlirOperationDestroy(op);
  return true;
}

typedef struct pending_s {
  bool marked_only;
  MlirOperation first; // the first call due, or null
} pending_t;

static bool first_due(MlirOperation op, void *user_data) {
  pending_t *pending = user_data;
  // the callee's lookup only where it decides (marked helpers only)
  if (mlirOperationIsNull(pending->first) &&
      (!pending->marked_only || due(find_callee(op), true)))
    pending->first = op;
  return true;
}

bool uq_inline_calls(MlirOperation root, bool marked_only) {
  inline_state_t state = {marked_only};
  // Inlining a helper brings in the calls it makes: repeat until none are
  // left (calls inside helpers are inlined too, which changes nothing but
  // the order).
  for (int depth = 0; depth <= kMaxDepth; ++depth) {
    pending_t pending = {marked_only, {NULL}};
    if (!uq_walk_collect(root, is_call, first_due, &pending))
      return false;
    if (mlirOperationIsNull(pending.first))
      return true;
    if (depth == kMaxDepth) {
      uq_emit_error(pending.first,
                    "uq-inline: calls nested deeper than %d (recursion?)",
                    kMaxDepth);
      return false;
    }
    if (!uq_walk_collect(root, is_call, inline_call, &state))
      return false;
  }
  return true;
}

static bool run(MlirOperation root, void *user_data) {
  const inline_state_t *state = user_data;
  if (!uq_inline_calls(root, state->marked_only))
    return false;
  // Every call of a marked helper is gone now; its body, left alone, would
  // keep loops whose bounds were the callers' constants.
  return uq_walk_collect(root,
                         state->marked_only ? is_marked_helper : is_helper,
                         erase_helper, NULL);
}

const uq_pass_def_t uq_inline_pass = {
    "uq-inline",
    "Inline the func.func helpers of gpu.modules and erase them",
    "marked: only helpers with uq.inline, erasing only those",
    create_state,
    clone_state,
    free,
    run,
};
