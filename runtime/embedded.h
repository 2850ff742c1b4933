// The code objects built into libuqrt. `uq-compile --embed-c=FILE` writes
// the definitions of these two symbols; the runtime parses each blob with
// the code-object reader at context creation (kernarg layouts, LDS, register
// counts all come from the blob's own metadata).
#ifndef UQ_RUNTIME_EMBEDDED_H_
#define UQ_RUNTIME_EMBEDDED_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uq_embedded_code_object_s {
  const char *variant; // "decode_qg8", "reduce", ...
  const char *kernel;  // kernel name in the blob: "uq_decode_qg8", ...
  const uint8_t *data; // the HSACO bytes
  size_t size;
} uq_embedded_code_object_t;

extern const uq_embedded_code_object_t uq_embedded_code_objects[];
extern const size_t uq_embedded_code_object_count;

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_RUNTIME_EMBEDDED_H_
