// The code objects built into libuqrt, one typed record each (uq/variant.h).
// `uq-compile --embed-c=FILE` writes the definitions of these two symbols;
// the runtime still parses each blob with the code-object reader at context
// creation and checks the record against it.
#ifndef UQ_RUNTIME_EMBEDDED_H_
#define UQ_RUNTIME_EMBEDDED_H_

#include <stddef.h>

#include "uq/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const uq_variant_record_t uq_embedded_variants[];
extern const size_t uq_embedded_variant_count;

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_RUNTIME_EMBEDDED_H_
