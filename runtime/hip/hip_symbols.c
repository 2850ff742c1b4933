// Loads the HIP runtime with dlopen and converts its errors.
#include "runtime/hip/hip_symbols.h"

#include <stdio.h>
#include <string.h>

#include "runtime/api/dynamic_library.h"

// The unversioned name first (a development install, or whatever the
// loader's path prefers), then the sonames of ROCm 7, 6 and 5 (newest
// first: MI355X machines run ROCm 7), then the same under /opt/rocm/lib for
// installs that are not on the loader's path.
const char *const uq_hip_default_libraries[UQ_HIP_DEFAULT_LIBRARY_COUNT] = {
    "libamdhip64.so",
    "libamdhip64.so.7",
    "libamdhip64.so.6",
    "libamdhip64.so.5",
    "/opt/rocm/lib/libamdhip64.so",
    "/opt/rocm/lib/libamdhip64.so.7",
    "/opt/rocm/lib/libamdhip64.so.6",
    "/opt/rocm/lib/libamdhip64.so.5",
};

uq_status_t uq_hip_symbols_initialize(const char *library,
                                      uq_hip_symbols_t *out_symbols) {
  memset(out_symbols, 0, sizeof(*out_symbols));
  const char *const *paths = library ? &library : uq_hip_default_libraries;
  size_t path_count = library ? 1 : UQ_HIP_DEFAULT_LIBRARY_COUNT;
  char tried[1024] = "";
  out_symbols->library = uq_rt_dlopen_first(
      paths, path_count, RTLD_NOW | RTLD_LOCAL, tried, sizeof(tried));
  if (!out_symbols->library)
    return UQ_MAKE_STATUS(UQ_STATUS_UNAVAILABLE,
                          "cannot load the HIP runtime (tried: %s)", tried);

  char missing[512] = "";
  // A data pointer from dlsym converted to a function pointer: POSIX
  // guarantees this works; memcpy keeps -Wpedantic quiet.
#define UQ_HIP_RESOLVE_(name, required)                                        \
  do {                                                                         \
    void *symbol = dlsym(out_symbols->library, #name);                         \
    memcpy(&out_symbols->name, &symbol, sizeof(symbol));                       \
    if (!symbol && (required)) {                                               \
      uq_rt_text_append(missing, sizeof(missing), *missing ? ", " : "");       \
      uq_rt_text_append(missing, sizeof(missing), #name);                      \
    }                                                                          \
  } while (0);
#define UQ_HIP_REQUIRED(name, result, params) UQ_HIP_RESOLVE_(name, 1)
#define UQ_HIP_OPTIONAL(name, result, params) UQ_HIP_RESOLVE_(name, 0)
#include "runtime/hip/dynamic_symbol_tables.h"
#undef UQ_HIP_REQUIRED
#undef UQ_HIP_OPTIONAL
#undef UQ_HIP_RESOLVE_
  if (*missing) {
    uq_hip_symbols_deinitialize(out_symbols);
    return UQ_MAKE_STATUS(UQ_STATUS_UNAVAILABLE,
                          "the HIP runtime lacks required symbols: %s",
                          missing);
  }
  return UQ_OK;
}

void uq_hip_symbols_deinitialize(uq_hip_symbols_t *symbols) {
  if (symbols->library)
    dlclose(symbols->library);
  memset(symbols, 0, sizeof(*symbols));
}

static uq_status_code_t code_for(hipError_t result) {
  switch (result) {
  case hipErrorNoDevice:
  case hipErrorInvalidDevice:
  case hipErrorNotInitialized:
  case hipErrorInsufficientDriver:
  case hipErrorDeinitialized:
    return UQ_STATUS_UNAVAILABLE;
  case hipErrorOutOfMemory:
    return UQ_STATUS_RESOURCE_EXHAUSTED;
  case hipErrorInvalidValue:
  case hipErrorInvalidDevicePointer:
  case hipErrorInvalidHandle:
    return UQ_STATUS_INVALID_ARGUMENT;
  case hipErrorNotFound:
    return UQ_STATUS_NOT_FOUND;
  case hipErrorInvalidImage:
  case hipErrorNoBinaryForGpu:
  case hipErrorInvalidKernelFile:
    return UQ_STATUS_FAILED_PRECONDITION;
  default:
    return UQ_STATUS_INTERNAL;
  }
}

uq_status_t uq_hip_result_to_status(const uq_hip_symbols_t *symbols,
                                    hipError_t result, const char *call,
                                    const char *file, int line) {
  if (result == hipSuccess)
    return UQ_OK;
  const char *name =
      symbols->hipGetErrorName ? symbols->hipGetErrorName(result) : NULL;
  const char *text =
      symbols->hipGetErrorString ? symbols->hipGetErrorString(result) : NULL;
  return uq_status_make(code_for(result), file, line, "%s: %s (%s)", call,
                        name ? name : "hipError?", text ? text : "");
}
