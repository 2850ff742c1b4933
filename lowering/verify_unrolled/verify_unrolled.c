// uq-verify-unrolled: vector.insert / vector.extract positions must be
// constants by the time the vector dialect is lowered to LLVM.
#include "lowering/verify_unrolled/verify_unrolled.h"

#include <stdio.h>
#include <stdlib.h>

#include "lowering/builder.h"

static void *create_state(const char *options, char *error, size_t error_size) {
  if (*options) {
    snprintf(error, error_size,
             "uq-verify-unrolled: takes no options (got '%s')", options);
    return NULL;
  }
  // No state; a non-null pointer says the options parsed.
  static const char kNoState = 0;
  return (void *)&kNoState;
}

static void *clone_state(const void *state) { return (void *)state; }

static void destroy_state(void *state) { (void)state; }

static bool is_vector_access(MlirOperation op) {
  return uq_op_named(op, "vector.insert") || uq_op_named(op, "vector.extract");
}

// The operands before the dynamic positions: (value, dest) for insert,
// (source) for extract; a position held in an SSA value is an operand.
static bool check_positions(MlirOperation op, void *user_data) {
  (void)user_data;
  int insert = uq_op_named(op, "vector.insert");
  intptr_t fixed = insert ? 2 : 1;
  if (mlirOperationGetNumOperands(op) <= fixed)
    return true;
  uq_emit_error(op,
                "%s at a run-time position: a loop over a register array "
                "did not unroll (its bounds must be constants once the "
                "variant is specialized)",
                insert ? "vector.insert" : "vector.extract");
  return false;
}

static bool run(MlirOperation root, void *state) {
  return uq_walk_collect(root, is_vector_access, check_positions, state);
}

const uq_pass_def_t uq_verify_unrolled_pass = {
    "uq-verify-unrolled",
    "Fail on vector.insert/extract at run-time positions (loops that did "
    "not unroll)",
    NULL,
    create_state,
    clone_state,
    destroy_state,
    run,
};
