// Opening a shared library from a list of candidates, for what libuqrt
// loads at run time (the HIP runtime, the CUDA driver, the simulator
// module): the first candidate dlopen accepts, or the reason each failed.
#ifndef UQ_RUNTIME_API_DYNAMIC_LIBRARY_H_
#define UQ_RUNTIME_API_DYNAMIC_LIBRARY_H_

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

// Appends `text` to the NUL-terminated `buffer`, truncating quietly.
static inline void uq_rt_text_append(char *buffer, size_t capacity,
                                     const char *text) {
  size_t used = strlen(buffer);
  if (used + 1 < capacity)
    snprintf(buffer + used, capacity - used, "%s", text);
}

// dlopen(paths[i], flags) in order until one opens; NULL when none does,
// with dlerror's reason for each appended to `tried` ("; "-separated).
static inline void *uq_rt_dlopen_first(const char *const *paths, size_t count,
                                       int flags, char *tried,
                                       size_t tried_size) {
  for (size_t i = 0; i < count; ++i) {
    void *handle = dlopen(paths[i], flags);
    if (handle)
      return handle;
    const char *why = dlerror();
    uq_rt_text_append(tried, tried_size, *tried ? "; " : "");
    uq_rt_text_append(tried, tried_size, why ? why : paths[i]);
  }
  return NULL;
}

#endif // UQ_RUNTIME_API_DYNAMIC_LIBRARY_H_
