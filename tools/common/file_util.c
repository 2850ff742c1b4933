// Whole-file reads and atomic writes for the tools.
#define _XOPEN_SOURCE 700 // realpath, lstat
#include "tools/common/file_util.h"

#include <errno.h>
#include <fcntl.h>
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

// Where a write to `path` lands. A missing path or a regular file is
// replaced: a temporary file beside it is renamed over it, so a failed run
// never leaves half an output. A symbolic link is never replaced: the
// write goes to the file it resolves to (*out_target, malloc'd), by the
// same rules. A character device or a FIFO (/dev/null, /dev/stdout, a
// pipe) is written through (*out_through = 1): renaming a file over it
// would destroy the node. Anything else (a directory, a block device, a
// socket, a link to nothing) is refused.
static uq_status_t resolve_output(const char *path, char **out_target,
                                  int *out_through) {
  *out_target = NULL;
  *out_through = 0;
  struct stat info;
  char *target = NULL;
  if (lstat(path, &info) != 0) {
    if (errno != ENOENT)
      return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                            "cannot write '%s': %s", path, strerror(errno));
    target = strdup(path);
  } else if (S_ISLNK(info.st_mode)) {
    target = realpath(path, NULL);
    if (!target && errno == ENOENT)
      return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                            "cannot write '%s': a symbolic link to a missing "
                            "file",
                            path);
    if (!target || stat(target, &info) != 0) {
      uq_status_t status =
          UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION, "cannot write '%s': %s",
                         path, strerror(errno));
      free(target);
      return status;
    }
  } else {
    target = strdup(path);
  }
  if (!target)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  int exists = access(target, F_OK) == 0;
  if (exists && (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode))) {
    *out_through = 1;
  } else if (exists && !S_ISREG(info.st_mode)) {
    uq_status_t status = UQ_MAKE_STATUS(
        UQ_STATUS_FAILED_PRECONDITION, "cannot write '%s': %s", path,
        S_ISDIR(info.st_mode) ? "it is a directory"
                              : "not a regular file, character device or FIFO");
    free(target);
    return status;
  }
  *out_target = target;
  return UQ_OK;
}

// Writes `data` into the existing node `path` (a device or a FIFO),
// reporting every short write and the close: /dev/full fails here.
static uq_status_t write_through(const char *path, const void *data,
                                 size_t size) {
  int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                          "cannot write '%s': %s", path, strerror(errno));
  const char *p = data;
  int error = 0;
  while (size && !error) {
    ssize_t n = write(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      error = n < 0 ? errno : ENOSPC;
      break;
    }
    p += n;
    size -= (size_t)n;
  }
  if (close(fd) != 0 && !error)
    error = errno;
  if (error)
    return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                          "cannot write '%s': %s", path, strerror(error));
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
    if (fwrite(data, 1, size, stdout) == size && fflush(stdout) == 0)
      return UQ_OK;
    uq_status_t status =
        UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                       "cannot write to stdout: %s", strerror(errno));
    // Reported here: the exit-time check of stdout need not say it again.
    clearerr(stdout);
    return status;
  }
  char *target = NULL, *temp = NULL;
  int through = 0;
  uq_status_t status = resolve_output(path, &target, &through);
  if (!status && through)
    status = write_through(target, data, size);
  else if (!status)
    status = write_temp(target, data, size, &temp);
  if (temp && rename(temp, target) != 0) {
    status = UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                            "cannot write '%s': %s", path, strerror(errno));
    unlink(temp);
  }
  free(temp);
  free(target);
  return status;
}

// One staged output: a temporary renamed over `path` at commit, or, for a
// device or FIFO, a copy of the bytes written through at commit.
typedef struct staged_s {
  char *path;
  char *temp;
  void *through_data;
  size_t through_size;
} staged_t;

struct uq_file_batch_s {
  staged_t *files;
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
  staged_t *files = realloc(batch->files, sizeof(*files) * (batch->count + 1));
  if (!files)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  batch->files = files;
  staged_t staged = {0};
  int through = 0;
  uq_status_t status = resolve_output(path, &staged.path, &through);
  if (!status && through) {
    staged.through_data = malloc(size ? size : 1);
    staged.through_size = size;
    if (staged.through_data)
      memcpy(staged.through_data, data, size);
    else
      status = UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  } else if (!status) {
    status = write_temp(staged.path, data, size, &staged.temp);
  }
  if (status) {
    free(staged.through_data);
    free(staged.path);
    return status;
  }
  batch->files[batch->count++] = staged;
  return UQ_OK;
}

uq_status_t uq_file_batch_commit(uq_file_batch_t *batch) {
  for (size_t i = 0; i < batch->count; ++i) {
    staged_t *f = &batch->files[i];
    if (f->through_data) {
      uq_status_t status =
          write_through(f->path, f->through_data, f->through_size);
      if (status)
        return status;
      free(f->through_data);
      f->through_data = NULL;
      continue;
    }
    if (f->temp && rename(f->temp, f->path) != 0)
      return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                            "cannot write '%s': %s", f->path, strerror(errno));
    free(f->temp);
    f->temp = NULL;
  }
  return UQ_OK;
}

void uq_file_batch_destroy(uq_file_batch_t *batch) {
  if (!batch)
    return;
  for (size_t i = 0; i < batch->count; ++i) {
    if (batch->files[i].temp) {
      unlink(batch->files[i].temp);
      free(batch->files[i].temp);
    }
    free(batch->files[i].through_data);
    free(batch->files[i].path);
  }
  free(batch->files);
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
