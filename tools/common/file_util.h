// File helpers for the tools: read a whole file (or stdin) and write a file
// atomically, so a failed run never leaves a half-written output.
#ifndef UQ_TOOLS_COMMON_FILE_UTIL_H_
#define UQ_TOOLS_COMMON_FILE_UTIL_H_

#include <stddef.h>

#include "uq/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// Reads `path` ("-" = stdin) into a NUL-terminated malloc'd buffer.
uq_status_t uq_file_read(const char *path, char **out_data, size_t *out_size);

// Writes `data` to `path` ("-" = stdout) through a temporary file in the same
// directory that is renamed over `path` only once fully written. Only a
// regular file or a missing path is replaced: a symbolic link is kept and
// the file it resolves to is written by these rules; a character device or
// FIFO is written through (so /dev/null stays a device and /dev/full
// fails); a directory, block device, socket or dangling link is refused.
uq_status_t uq_file_write_atomic(const char *path, const void *data,
                                 size_t size);

// A set of files written together: each is staged to a temporary file next
// to its destination, and only when every one is staged are they all
// renamed into place. On any failure the temporaries are removed, so a
// failed run leaves none of its outputs behind.
typedef struct uq_file_batch_s uq_file_batch_t;
uq_status_t uq_file_batch_create(uq_file_batch_t **out_batch);
// Copies `data` into a temporary file beside `path` (for a device or FIFO,
// into memory, written through at commit; the rules of
// uq_file_write_atomic).
uq_status_t uq_file_batch_stage(uq_file_batch_t *batch, const char *path,
                                const void *data, size_t size);
// Renames every staged file into place (writes the devices and FIFOs).
uq_status_t uq_file_batch_commit(uq_file_batch_t *batch);
// Removes any temporaries still staged and frees the batch.
void uq_file_batch_destroy(uq_file_batch_t *batch);

// NOT_FOUND unless `path` is an existing directory.
uq_status_t uq_directory_check(const char *path);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_TOOLS_COMMON_FILE_UTIL_H_
