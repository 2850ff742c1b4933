// Writes the C source that embeds compiled code objects into libuqrt: one
// typed record per variant (the definitions declared by runtime/embedded.h).
#ifndef UQ_TOOLS_UQ_COMPILE_EMBED_H_
#define UQ_TOOLS_UQ_COMPILE_EMBED_H_

#include <stddef.h>
#include <stdint.h>

#include "tools/common/file_util.h"
#include "uq/status.h"
#include "uq/variant.h"

// Stages the source for `path` in `batch`. Each record's `data`/`size` are
// written as a byte array, its `args` as an array; every string must be a
// plain identifier-like text (no quotes or backslashes).
uq_status_t uq_embed_write_c(uq_file_batch_t *batch, const char *path,
                             const uq_variant_record_t *records, size_t count);

#endif // UQ_TOOLS_UQ_COMPILE_EMBED_H_
