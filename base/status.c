// Status values: allocation, annotation and the out-of-memory fallback.
#include "uq/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct uq_status_s {
  uq_status_code_t code;
  char location[96];
  char *message; // heap, owned
  // Set only on oom_status: never annotated or freed. A flag rather than an
  // address test, because libuqrt's separately loaded simulator module has
  // its own copy of this file and hands its statuses to libuqrt's free.
  int is_static;
};

// Returned when a status itself cannot be allocated. It is never written
// after initialization, so sharing it across threads is safe.
static struct uq_status_s oom_status = {UQ_STATUS_RESOURCE_EXHAUSTED, "",
                                        (char *)"out of memory", 1};

static char *format_message(const char *format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  int length = vsnprintf(NULL, 0, format, copy);
  va_end(copy);
  if (length < 0)
    length = 0;
  char *text = malloc((size_t)length + 1);
  if (!text)
    return NULL;
  vsnprintf(text, (size_t)length + 1, format, args);
  return text;
}

uq_status_t uq_status_make_v(uq_status_code_t code, const char *file, int line,
                             const char *format, va_list args) {
  if (code == UQ_STATUS_OK)
    return UQ_OK;
  struct uq_status_s *status = calloc(1, sizeof(*status));
  if (!status)
    return &oom_status;
  status->code = code;
  if (file) {
    const char *base = strrchr(file, '/');
    snprintf(status->location, sizeof(status->location), "%s:%d",
             base ? base + 1 : file, line);
  }
  status->message = format_message(format ? format : "", args);
  if (!status->message) {
    free(status);
    return &oom_status;
  }
  return status;
}

uq_status_t uq_status_make(uq_status_code_t code, const char *file, int line,
                           const char *format, ...) {
  va_list args;
  va_start(args, format);
  uq_status_t status = uq_status_make_v(code, file, line, format, args);
  va_end(args);
  return status;
}

uq_status_t uq_status_annotate(uq_status_t status, const char *format, ...) {
  if (status == UQ_OK || status->is_static || !format || !*format)
    return status;
  va_list args;
  va_start(args, format);
  char *prefix = format_message(format, args);
  va_end(args);
  if (!prefix)
    return status;
  size_t length = strlen(prefix) + 2 + strlen(status->message) + 1;
  char *joined = malloc(length);
  if (joined) {
    snprintf(joined, length, "%s: %s", prefix, status->message);
    free(status->message);
    status->message = joined;
  }
  free(prefix);
  return status;
}

uq_status_code_t uq_status_code(uq_status_t status) {
  return status ? status->code : UQ_STATUS_OK;
}

const char *uq_status_message(uq_status_t status) {
  return status ? status->message : "";
}

const char *uq_status_location(uq_status_t status) {
  return status ? status->location : "";
}

const char *uq_status_code_name(uq_status_code_t code) {
  switch (code) {
  case UQ_STATUS_OK:
    return "OK";
  case UQ_STATUS_INVALID_ARGUMENT:
    return "INVALID_ARGUMENT";
  case UQ_STATUS_NOT_FOUND:
    return "NOT_FOUND";
  case UQ_STATUS_OUT_OF_RANGE:
    return "OUT_OF_RANGE";
  case UQ_STATUS_RESOURCE_EXHAUSTED:
    return "RESOURCE_EXHAUSTED";
  case UQ_STATUS_FAILED_PRECONDITION:
    return "FAILED_PRECONDITION";
  case UQ_STATUS_UNAVAILABLE:
    return "UNAVAILABLE";
  case UQ_STATUS_UNIMPLEMENTED:
    return "UNIMPLEMENTED";
  case UQ_STATUS_DATA_LOSS:
    return "DATA_LOSS";
  case UQ_STATUS_INTERNAL:
    return "INTERNAL";
  }
  return "UNKNOWN";
}

void uq_status_free(uq_status_t status) {
  if (!status || status->is_static)
    return;
  free(status->message);
  free(status);
}

uq_status_code_t uq_status_consume_code(uq_status_t status) {
  uq_status_code_t code = uq_status_code(status);
  uq_status_free(status);
  return code;
}
