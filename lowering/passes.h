// The table of uq passes and textual pipelines that mix them with upstream
// passes. MLIR 22 has no registry for C external passes, so the tools look
// names up here and hand every other pipeline element to MLIR's parser.
#ifndef UQ_LOWERING_PASSES_H_
#define UQ_LOWERING_PASSES_H_

#include <stddef.h>

#include "lowering/pass.h"
#include "mlir-c/Pass.h"

#ifdef __cplusplus
extern "C" {
#endif

// Every uq pass, NULL-terminated.
extern const uq_pass_def_t *const uq_passes[];

// The uq pass called `name` (length `length`), or NULL.
const uq_pass_def_t *uq_pass_lookup(const char *name, size_t length);

// Adds the pipeline `text` to `pm` (anchored on builtin.module). `text` is
// either a comma-separated list of elements or `builtin.module(...)` around
// one; an element is `pass`, `pass{options}` or `op-name(elements)` (nested).
// uq passes may appear at any nesting level. On failure returns false and
// writes a one-line reason to `error`.
bool uq_pipeline_parse(MlirOpPassManager pm, const char *text, char *error,
                       size_t error_size);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_LOWERING_PASSES_H_
