// Status values: how every uq library reports failure.
//
// A status is a pointer: NULL (UQ_OK) means success; anything else is a
// failure carrying a code, a message and the place it was made. The caller
// owns a failure and releases it with uq_status_free (or hands it up).
#ifndef UQ_RUNTIME_INCLUDE_UQ_STATUS_H_
#define UQ_RUNTIME_INCLUDE_UQ_STATUS_H_

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define UQ_API __attribute__((visibility("default")))
#define UQ_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define UQ_MUST_USE __attribute__((warn_unused_result))
#else
#define UQ_API
#define UQ_PRINTF(fmt, args)
#define UQ_MUST_USE
#endif

// What the caller should do about a failure.
typedef enum uq_status_code_e {
  UQ_STATUS_OK = 0,
  UQ_STATUS_INVALID_ARGUMENT = 1,    // fix the input
  UQ_STATUS_NOT_FOUND = 2,           // the named thing does not exist
  UQ_STATUS_OUT_OF_RANGE = 3,        // an index or size past a limit
  UQ_STATUS_RESOURCE_EXHAUSTED = 4,  // out of memory or another resource
  UQ_STATUS_FAILED_PRECONDITION = 5, // the object is in the wrong state
  UQ_STATUS_UNAVAILABLE = 6,         // a device or runtime is not present
  UQ_STATUS_UNIMPLEMENTED = 7,       // valid but not supported (yet)
  UQ_STATUS_DATA_LOSS = 8,           // corrupt or truncated data
  UQ_STATUS_INTERNAL = 9,            // a bug in uq
} uq_status_code_t;

typedef struct uq_status_s *uq_status_t;

#define UQ_OK ((uq_status_t)0)

// Makes a failure with a printf-style message. Never returns NULL for a
// non-OK code: when memory runs out it returns a shared, immutable
// RESOURCE_EXHAUSTED status (uq_status_free accepts it).
UQ_API uq_status_t uq_status_make(uq_status_code_t code, const char *file,
                                  int line, const char *format, ...)
    UQ_PRINTF(4, 5);
UQ_API uq_status_t uq_status_make_v(uq_status_code_t code, const char *file,
                                    int line, const char *format, va_list args);

// Prefixes context to a failure's message ("while loading x: <message>") and
// returns it. OK passes through unchanged.
UQ_API uq_status_t uq_status_annotate(uq_status_t status, const char *format,
                                      ...) UQ_PRINTF(2, 3);

// The code of a status; UQ_STATUS_OK for UQ_OK.
UQ_API uq_status_code_t uq_status_code(uq_status_t status);
// The message ("" for UQ_OK). Valid until the status is freed.
UQ_API const char *uq_status_message(uq_status_t status);
// Where the status was made ("file:line"); "" for UQ_OK.
UQ_API const char *uq_status_location(uq_status_t status);
// The name of a code ("INVALID_ARGUMENT").
UQ_API const char *uq_status_code_name(uq_status_code_t code);
// Releases a status; NULL is allowed.
UQ_API void uq_status_free(uq_status_t status);
// Returns the code and releases the status: for callers that only branch.
UQ_API uq_status_code_t uq_status_consume_code(uq_status_t status);

#define UQ_MAKE_STATUS(code, ...)                                              \
  uq_status_make((code), __FILE__, __LINE__, __VA_ARGS__)

// Returns the failure of `expr` to the caller, with context prepended.
#define UQ_RETURN_IF_ERROR(expr, ...)                                          \
  do {                                                                         \
    uq_status_t uq_status_ = (expr);                                           \
    if (uq_status_ != UQ_OK)                                                   \
      return uq_status_annotate(uq_status_, __VA_ARGS__);                      \
  } while (0)

#define UQ_ASSIGN_OR_RETURN_STATUS(var, expr)                                  \
  do {                                                                         \
    (var) = (expr);                                                            \
    if ((var) != UQ_OK)                                                        \
      return (var);                                                            \
  } while (0)

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_RUNTIME_INCLUDE_UQ_STATUS_H_
