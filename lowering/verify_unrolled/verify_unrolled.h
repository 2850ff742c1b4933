// uq-verify-unrolled: fails on a register array indexed at run time.
#ifndef UQ_LOWERING_VERIFY_UNROLLED_VERIFY_UNROLLED_H_
#define UQ_LOWERING_VERIFY_UNROLLED_VERIFY_UNROLLED_H_

#include "lowering/pass.h"

#ifdef __cplusplus
extern "C" {
#endif

// Every vector.insert and vector.extract must have constant positions once
// uq-unroll-loops and canonicalize have run (kernels/'s rule: loops over
// register arrays have constant bounds). A run-time position means a loop
// that did not unroll: the LLVM lowering would put the array in local
// memory, or (vector.insert into a vector of rank >= 2, MLIR 22) crash. The
// pass names the op instead. No options.
extern const uq_pass_def_t uq_verify_unrolled_pass;

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_LOWERING_VERIFY_UNROLLED_VERIFY_UNROLLED_H_
