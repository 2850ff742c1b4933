// uq-unroll-loops: fully unrolls scf.for loops whose trip count is a
// compile-time constant, so that no register array is indexed dynamically.
#ifndef UQ_LOWERING_UNROLL_UNROLL_H_
#define UQ_LOWERING_UNROLL_UNROLL_H_

#include "lowering/pass.h"

#ifdef __cplusplus
extern "C" {
#endif

// Options: "max-trip=N" (default 256): loops with more iterations are left
// alone. Loops whose bounds are not constants (after the canonicalization
// that follows uq-specialize) are left alone: they are the kernel's runtime
// loops.
extern const uq_pass_def_t uq_unroll_pass;

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_LOWERING_UNROLL_UNROLL_H_
