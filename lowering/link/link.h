// uq-link: gives each gpu.module the step helpers it declares, from the
// kernel library (the func.func definitions at the top level of the kernel
// source), as a device program declares __nv_expf and links libdevice.
#ifndef UQ_LOWERING_LINK_LINK_H_
#define UQ_LOWERING_LINK_LINK_H_

#include "lowering/pass.h"

#ifdef __cplusplus
extern "C" {
#endif

// Runs on a builtin.module. Every func.func declaration (no body) nested
// directly in one of its gpu.modules is replaced by a private copy of the
// top-level func.func definition of the same name, whose function type must
// match; a copied helper brings every library helper it calls (transitively)
// that the gpu.module does not define itself. Afterwards the top-level
// definitions are erased: only gpu.modules remain to compile. Fails with a
// diagnostic at the declaration on a name the library does not define or a
// type that differs from the definition's.
extern const uq_pass_def_t uq_link_pass;

// Whether a func.func is a declaration (no body).
bool uq_link_is_declaration(MlirOperation function);

// The func.func definition named `name` directly in `block`, or a null
// operation (declarations of the name are skipped).
MlirOperation uq_link_find_definition(MlirBlock block, MlirStringRef name);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_LOWERING_LINK_LINK_H_
