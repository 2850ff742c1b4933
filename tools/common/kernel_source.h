// The kernel source as the tools read it: one MLIR file, or a folder of them
// (kernels/: the step library and the kernel families) merged into one
// module.
#ifndef UQ_TOOLS_COMMON_KERNEL_SOURCE_H_
#define UQ_TOOLS_COMMON_KERNEL_SOURCE_H_

#include <stdbool.h>

#include "lowering/context.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

// Whether `path` names a directory.
bool uq_kernel_source_is_folder(const char *path);

// Parses the kernel source at `path` ("-": standard input): a file as
// uq_parse_source does, or a folder whose .mlir files (every level below
// it, in byte order of their paths) are each parsed on their own and then
// merged, in that order, into one builtin.module (gpu.container_module if
// any of them is); a top-level declaration in one file of a function another
// file defines is resolved there (the types must match; nothing may stay
// undefined). Returns a null operation after printing what failed
// (a file that does not read or parse, a folder without .mlir files),
// "TOOL: error: ..." where the parser does not say it.
MlirOperation uq_kernel_source_parse(MlirContext context,
                                     uq_diagnostics_t *diagnostics,
                                     const char *path, const char *tool);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_TOOLS_COMMON_KERNEL_SOURCE_H_
