// Writes the C source that embeds compiled code objects into libuqrt (the
// definitions declared by runtime/embedded.h).
#ifndef UQ_TOOLS_UQ_COMPILE_EMBED_H_
#define UQ_TOOLS_UQ_COMPILE_EMBED_H_

#include <stddef.h>
#include <stdint.h>

#include "tools/common/file_util.h"
#include "uq/status.h"

typedef struct uq_embed_entry_s {
  const char *variant;
  const char *kernel;
  const uint8_t *data;
  size_t size;
} uq_embed_entry_t;

// Stages the source for `path` in `batch`.
uq_status_t uq_embed_write_c(uq_file_batch_t *batch, const char *path,
                             const uq_embed_entry_t *entries, size_t count);

#endif // UQ_TOOLS_UQ_COMPILE_EMBED_H_
