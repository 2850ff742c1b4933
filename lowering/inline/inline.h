// uq-inline: inlines the kernels' func.func helpers into their callers and
// erases them, so each algorithm step is written once in kernels/.
#ifndef UQ_LOWERING_INLINE_INLINE_H_
#define UQ_LOWERING_INLINE_INLINE_H_

#include "lowering/pass.h"

#ifdef __cplusplus
extern "C" {
#endif

// Every func.call whose callee is a single-block func.func in the nearest
// enclosing symbol table (a gpu.module or the top module) is replaced by a
// copy of the callee's body; helpers may call helpers (to a depth of 16,
// which also stops recursion with an error). Afterwards every func.func
// nested in a gpu.module is erased: those are helpers, not kernels. Upstream
// `inline` cannot do this: it refuses bodies holding uq ops (IRDL ops have no
// inliner interface). Option `marked` (uq-inline{marked}): only calls to
// helpers carrying the unit attribute uq.inline, and only those are erased
// (the sm_90a pipeline, whose other helpers LLVM inlines later).
extern const uq_pass_def_t uq_inline_pass;

// The pass's first half: inlines every func.call nested in `root` as above
// (callees from the nearest enclosing symbol table of each call; with
// `marked_only`, only those of helpers with uq.inline), erasing nothing
// else. False, with a diagnostic, on a missing or multi-block callee or
// calls nested deeper than 16.
bool uq_inline_calls(MlirOperation root, bool marked_only);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_LOWERING_INLINE_INLINE_H_
