// uq-evaluate-globals: a global whose value a helper computes.
#ifndef UQ_LOWERING_EVALUATE_GLOBALS_EVALUATE_GLOBALS_H_
#define UQ_LOWERING_EVALUATE_GLOBALS_EVALUATE_GLOBALS_H_

#include "lowering/pass.h"

#ifdef __cplusplus
extern "C" {
#endif

// An llvm.mlir.global of integer type with `uq.value_of = @f` gets @f's
// value as its initializer, and loses the attribute: @f is a func.func of
// the same symbol table (a gpu.module) without arguments returning that
// type. A copy of @f, its calls inlined (callees from the same table) and
// folded, must return a constant: run after uq-specialize, when uq.param is
// a constant. So a fact a kernel's helpers compute from its parameters (the
// sm_90a decode's dynamic shared memory) reaches the code object as a
// symbol the runtime reads, computed by the same helpers the kernel calls.
// No options.
extern const uq_pass_def_t uq_evaluate_globals_pass;

#ifdef __cplusplus
}
#endif

#endif // UQ_LOWERING_EVALUATE_GLOBALS_EVALUATE_GLOBALS_H_
