// Whole-file reads and atomic writes for the tools.
#define _POSIX_C_SOURCE 200809L
#include "tools/common/file_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uq_status_t uq_file_read(const char *path, char **out_data, size_t *out_size) {
  *out_data = NULL;
  *out_size = 0;
  FILE *file = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!file)
    return UQ_MAKE_STATUS(UQ_STATUS_NOT_FOUND, "cannot open '%s': %s", path,
                          strerror(errno));
  size_t capacity = 1 << 16, size = 0;
  char *data = malloc(capacity + 1);
  while (data) {
    size_t n = fread(data + size, 1, capacity - size, file);
    size += n;
    if (size < capacity)
      break;
    capacity *= 2;
    char *grown = realloc(data, capacity + 1);
    if (!grown) {
      free(data);
      data = NULL;
    }
    data = grown;
  }
  int failed = ferror(file);
  if (file != stdin)
    fclose(file);
  if (!data)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "out of memory reading '%s'", path);
  if (failed) {
    free(data);
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "cannot read '%s'", path);
  }
  data[size] = 0;
  *out_data = data;
  *out_size = size;
  return UQ_OK;
}

// Writes `data` to a new temporary file beside `path`; *out_temp is its
// malloc'd name.
static uq_status_t write_temp(const char *path, const void *data, size_t size,
                              char **out_temp) {
  *out_temp = NULL;
  size_t length = strlen(path) + 16;
  char *temp = malloc(length);
  if (!temp)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  snprintf(temp, length, "%s.tmpXXXXXX", path);
  int fd = mkstemp(temp);
  if (fd < 0) {
    uq_status_t status =
        UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION, "cannot write '%s': %s",
                       path, strerror(errno));
    free(temp);
    return status;
  }
  FILE *file = fdopen(fd, "wb");
  int ok = file && fwrite(data, 1, size, file) == size;
  ok = (file ? fclose(file) == 0 : (close(fd), 0)) && ok;
  if (ok)
    ok = chmod(temp, 0644) == 0;
  if (!ok) {
    uq_status_t status =
        UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION, "cannot write '%s': %s",
                       path, strerror(errno));
    unlink(temp);
    free(temp);
    return status;
  }
  *out_temp = temp;
  return UQ_OK;
}

uq_status_t uq_file_write_atomic(const char *path, const void *data,
                                 size_t size) {
  if (strcmp(path, "-") == 0) {
    if (fwrite(data, 1, size, stdout) != size || fflush(stdout) != 0)
      return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS, "cannot write to stdout");
    return UQ_OK;
  }
  char *temp = NULL;
  uq_status_t status = write_temp(path, data, size, &temp);
  if (status)
    return status;
  if (rename(temp, path) != 0) {
    status = UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                            "cannot write '%s': %s", path, strerror(errno));
    unlink(temp);
  }
  free(temp);
  return status;
}

struct uq_file_batch_s {
  char **temps;
  char **paths;
  size_t count;
};

uq_status_t uq_file_batch_create(uq_file_batch_t **out_batch) {
  *out_batch = calloc(1, sizeof(**out_batch));
  return *out_batch
             ? UQ_OK
             : UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
}

uq_status_t uq_file_batch_stage(uq_file_batch_t *batch, const char *path,
                                const void *data, size_t size) {
  char **temps = realloc(batch->temps, sizeof(char *) * (batch->count + 1));
  if (temps)
    batch->temps = temps;
  char **paths = realloc(batch->paths, sizeof(char *) * (batch->count + 1));
  if (paths)
    batch->paths = paths;
  char *path_copy = strdup(path);
  if (!temps || !paths || !path_copy) {
    free(path_copy);
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  char *temp = NULL;
  uq_status_t status = write_temp(path, data, size, &temp);
  if (status) {
    free(path_copy);
    return status;
  }
  batch->temps[batch->count] = temp;
  batch->paths[batch->count] = path_copy;
  ++batch->count;
  return UQ_OK;
}

uq_status_t uq_file_batch_commit(uq_file_batch_t *batch) {
  for (size_t i = 0; i < batch->count; ++i) {
    if (rename(batch->temps[i], batch->paths[i]) != 0)
      return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                            "cannot write '%s': %s", batch->paths[i],
                            strerror(errno));
    free(batch->temps[i]);
    batch->temps[i] = NULL;
  }
  return UQ_OK;
}

void uq_file_batch_destroy(uq_file_batch_t *batch) {
  if (!batch)
    return;
  for (size_t i = 0; i < batch->count; ++i) {
    if (batch->temps[i]) {
      unlink(batch->temps[i]);
      free(batch->temps[i]);
    }
    free(batch->paths[i]);
  }
  free(batch->temps);
  free(batch->paths);
  free(batch);
}

uq_status_t uq_directory_check(const char *path) {
  struct stat info;
  if (stat(path, &info) != 0)
    return UQ_MAKE_STATUS(UQ_STATUS_NOT_FOUND,
                          "output directory '%s' does not exist", path);
  if (!S_ISDIR(info.st_mode))
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "'%s' is not a directory",
                          path);
  if (access(path, W_OK) != 0)
    return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                          "output directory '%s' is not writable", path);
  return UQ_OK;
}
