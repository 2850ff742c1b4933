// uq-verify-unrolled: vector.insert / vector.extract positions must be
// constants by the time the vector dialect is lowered to LLVM.
#include "lowering/verify_unrolled/verify_unrolled.h"

#include "lowering/builder.h"

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
  (void)state;
  return uq_walk_collect(root, is_vector_access, check_positions, NULL);
}

const uq_pass_def_t uq_verify_unrolled_pass = {
    "uq-verify-unrolled",
    "Fail on vector.insert/extract at run-time positions (loops that did "
    "not unroll)",
    NULL,
    NULL, // no options, no state
    NULL,
    NULL,
    run,
};
