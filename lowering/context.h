// An MLIR context set up for uq: every upstream dialect, pass and LLVM
// translation registered, the uq dialect loaded, and diagnostics printed the
// mlir-opt way (`file:line:col: error: message`).
#ifndef UQ_LOWERING_CONTEXT_H_
#define UQ_LOWERING_CONTEXT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uq_diagnostics_s {
  FILE *stream;  // where diagnostics are printed (stderr by default)
  int errors;    // error diagnostics seen so far
  int line_bias; // added to line numbers (split-input-file chunks)
  bool muted;    // drop diagnostics (used while probing a parse)
} uq_diagnostics_t;

// Creates a context; `diagnostics` (not owned) must outlive it. Returns a
// null context if the uq dialect fails to load (a message was printed).
MlirContext uq_context_create(uq_diagnostics_t *diagnostics);

// The deepest nesting of brackets ({, (, [, <) in MLIR source text, outside
// strings and // comments (the sum over the four kinds).
size_t uq_source_nesting_depth(const char *text, size_t length);
#define UQ_MAX_SOURCE_NESTING 256

// Parses `text` as MLIR with `source_name` in its locations, the mlir-opt
// way: a single top-level builtin.module is returned as is; anything else is
// wrapped in one. Returns a null operation after reporting parse errors,
// and without parsing when the text nests deeper than UQ_MAX_SOURCE_NESTING
// (MLIR's recursive parser would overflow the stack).
MlirOperation uq_parse_source(MlirContext context,
                              uq_diagnostics_t *diagnostics, const char *text,
                              size_t length, const char *source_name);

// Registers upstream passes once per process (MLIR's registry is global and
// registration is idempotent, so this is safe to call from every tool).
void uq_register_upstream_passes(void);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_LOWERING_CONTEXT_H_
