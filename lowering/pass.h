// Turns a pass description in C into an MLIR external pass: option parsing,
// per-instance state, cloning, failure reporting.
#ifndef UQ_LOWERING_PASS_H_
#define UQ_LOWERING_PASS_H_

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/Pass.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uq_pass_def_s {
  const char *argument;     // the flag name, e.g. "uq-specialize"
  const char *description;  // one line for --help
  const char *options_help; // e.g. "NAME=VALUE ...", or NULL for none
  // Parses `options` (the text inside `{...}`, may be empty) into state.
  // Returns NULL and writes a message to `error` on bad options.
  void *(*create_state)(const char *options, char *error, size_t error_size);
  void *(*clone_state)(const void *state);
  void (*destroy_state)(void *state);
  // Runs on `op` (any operation; passes walk what is nested in it). Reports
  // failure with a diagnostic at the culprit and returns false.
  bool (*run)(MlirOperation op, void *state);
} uq_pass_def_t;

// Creates the pass, or returns a null pass and fills `error`.
MlirPass uq_pass_create(const uq_pass_def_t *def, const char *options,
                        char *error, size_t error_size);

// Walk helper: calls `visit` for every operation nested in `root` (not root
// itself), in post-order, collecting first so `visit` may erase the op.
typedef bool (*uq_op_visitor_t)(MlirOperation op, void *user_data);
bool uq_walk_collect(MlirOperation root, bool (*filter)(MlirOperation),
                     uq_op_visitor_t visit, void *user_data);

// Emits an error diagnostic at `op`'s location.
void uq_emit_error(MlirOperation op, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_LOWERING_PASS_H_
