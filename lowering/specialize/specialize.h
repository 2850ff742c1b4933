// uq-specialize: binds a kernel variant's compile-time parameters.
#ifndef UQ_LOWERING_SPECIALIZE_SPECIALIZE_H_
#define UQ_LOWERING_SPECIALIZE_SPECIALIZE_H_

#include "lowering/pass.h"

#ifdef __cplusplus
extern "C" {
#endif

// Options: NAME=VALUE pairs (integers), e.g. "qg=8". Replaces every
// `uq.param {name = NAME}` with an arith.constant of VALUE; a parameter
// without a value is an error. A gpu.module that declares its variants
// (`uq.variants = [{qg = 6}, ...]`) rejects a binding that is not one of
// them.
extern const uq_pass_def_t uq_specialize_pass;

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_LOWERING_SPECIALIZE_SPECIALIZE_H_
