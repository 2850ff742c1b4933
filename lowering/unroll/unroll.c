// uq-unroll-loops: full unrolling of constant-trip scf.for loops.
//
// Each iteration clones the loop, inlines the clone's body in front of the
// original with the induction variable bound to a constant and the
// iteration arguments bound to the previous iteration's yielded values.
#include "lowering/unroll/unroll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/builder.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Rewrite.h"

typedef struct unroll_state_s {
  int64_t max_trip;
  int unrolled;
} unroll_state_t;

static void *create_state(const char *options, char *error, size_t error_size) {
  unroll_state_t *state = calloc(1, sizeof(*state));
  if (!state) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  state->max_trip = 256;
  if (*options) {
    char *end = NULL;
    if (strncmp(options, "max-trip=", 9) != 0 ||
        (state->max_trip = strtoll(options + 9, &end, 10)) <= 0 || *end) {
      snprintf(error, error_size,
               "uq-unroll-loops: unknown option '%s' (expected max-trip=N)",
               options);
      free(state);
      return NULL;
    }
  }
  return state;
}

static void *clone_state(const void *state) {
  unroll_state_t *copy = malloc(sizeof(*copy));
  if (copy)
    memcpy(copy, state, sizeof(*copy));
  return copy;
}

static bool is_scf_for(MlirOperation op) { return uq_op_named(op, "scf.for"); }

static bool constant_int(MlirValue value, int64_t *out) {
  if (!mlirValueIsAOpResult(value))
    return false;
  MlirOperation def = mlirOpResultGetOwner(value);
  if (!uq_op_named(def, "arith.constant"))
    return false;
  MlirAttribute attr = mlirOperationGetAttributeByName(
      def, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(attr) || !mlirAttributeIsAInteger(attr))
    return false;
  *out = mlirIntegerAttrGetValueInt(attr);
  return true;
}

static bool unroll_one(MlirOperation loop, void *user_data) {
  unroll_state_t *state = user_data;
  int64_t lower, upper, step;
  if (!constant_int(mlirOperationGetOperand(loop, 0), &lower) ||
      !constant_int(mlirOperationGetOperand(loop, 1), &upper) ||
      !constant_int(mlirOperationGetOperand(loop, 2), &step) || step <= 0)
    return true; // a runtime loop: not ours to unroll
  int64_t trip = upper > lower ? (upper - lower + step - 1) / step : 0;
  if (trip > state->max_trip)
    return true;

  intptr_t iter_count = mlirOperationGetNumOperands(loop) - 3;
  MlirValue *values = malloc(sizeof(MlirValue) * (size_t)(iter_count + 1));
  if (!values) {
    uq_emit_error(loop, "out of memory while unrolling");
    return false;
  }
  for (intptr_t i = 0; i < iter_count; ++i)
    values[i + 1] = mlirOperationGetOperand(loop, 3 + i);

  MlirType iv_type = mlirValueGetType(mlirOperationGetOperand(loop, 0));
  MlirRewriterBase rewriter = mlirIRRewriterCreateFromOp(loop);
  uq_builder_t b = uq_builder_before(loop);
  for (int64_t t = 0; t < trip; ++t) {
    MlirNamedAttribute iv_value = uq_named_attr(
        b.context, "value", mlirIntegerAttrGet(iv_type, lower + t * step));
    values[0] =
        uq_build_value(&b, "arith.constant", 0, NULL, iv_type, 1, &iv_value);
    MlirOperation copy = mlirOperationClone(loop);
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(copy, 0));
    MlirOperation yield = mlirBlockGetTerminator(body);
    mlirRewriterBaseInlineBlockBefore(rewriter, body, loop, iter_count + 1,
                                      values);
    // The yield now sits before the loop; its operands are this iteration's
    // results.
    for (intptr_t i = 0; i < iter_count; ++i)
      values[i + 1] = mlirOperationGetOperand(yield, i);
    mlirOperationDestroy(yield);
    mlirOperationDestroy(copy);
  }
  for (intptr_t i = 0; i < iter_count; ++i)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(loop, i),
                                  values[i + 1]);
  mlirIRRewriterDestroy(rewriter);
  mlirOperationDestroy(loop);
  free(values);
  ++state->unrolled;
  return true;
}

static bool run(MlirOperation root, void *user_data) {
  unroll_state_t *state = user_data;
  // Post-order visits inner loops first; a loop whose bounds only become
  // constant once an enclosing loop is unrolled is handled next round.
  for (int round = 0; round < 8; ++round) {
    state->unrolled = 0;
    if (!uq_walk_collect(root, is_scf_for, unroll_one, state))
      return false;
    if (state->unrolled == 0)
      break;
  }
  return true;
}

const uq_pass_def_t uq_unroll_pass = {
    "uq-unroll-loops",
    "Fully unroll scf.for loops with constant trip counts",
    "max-trip=N",
    create_state,
    clone_state,
    free,
    run,
};
