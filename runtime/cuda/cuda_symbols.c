// Loads the CUDA driver with dlopen and converts its errors.
#include "runtime/cuda/cuda_symbols.h"

#include <stdio.h>
#include <string.h>

#include "runtime/api/dynamic_library.h"

uq_status_t uq_cuda_symbols_initialize(const char *library,
                                       uq_cuda_symbols_t *out_symbols) {
  memset(out_symbols, 0, sizeof(*out_symbols));
  // libcuda.so.1 is the driver's soname on every Linux install; the
  // unversioned name is a development link (or a stub) tried last.
  static const char *const defaults[] = {"libcuda.so.1", "libcuda.so"};
  const char *const *paths = library ? &library : defaults;
  size_t path_count = library ? 1 : sizeof(defaults) / sizeof(defaults[0]);
  char tried[1024] = "";
  out_symbols->library = uq_rt_dlopen_first(
      paths, path_count, RTLD_NOW | RTLD_LOCAL, tried, sizeof(tried));
  if (!out_symbols->library)
    return UQ_MAKE_STATUS(UQ_STATUS_UNAVAILABLE,
                          "cannot load the CUDA driver (tried: %s)", tried);
  char missing[512] = "";
  // POSIX: a function pointer round-trips through dlsym's void *.
#define UQ_CUDA_SYMBOL(name, symbol, params)                                   \
  do {                                                                         \
    void *address = dlsym(out_symbols->library, symbol);                       \
    memcpy(&out_symbols->name, &address, sizeof(address));                     \
    if (!address) {                                                            \
      uq_rt_text_append(missing, sizeof(missing), *missing ? ", " : "");       \
      uq_rt_text_append(missing, sizeof(missing), symbol);                     \
    }                                                                          \
  } while (0);
#include "runtime/cuda/cuda_symbol_table.h"
#undef UQ_CUDA_SYMBOL
  if (*missing) {
    uq_cuda_symbols_deinitialize(out_symbols);
    return UQ_MAKE_STATUS(UQ_STATUS_UNAVAILABLE,
                          "the CUDA driver lacks required symbols: %s",
                          missing);
  }
  return UQ_OK;
}

void uq_cuda_symbols_deinitialize(uq_cuda_symbols_t *symbols) {
  if (symbols->library)
    dlclose(symbols->library);
  memset(symbols, 0, sizeof(*symbols));
}

static uq_status_code_t code_for(CUresult result) {
  switch (result) {
  case UQ_CUDA_ERROR_NO_DEVICE:
  case UQ_CUDA_ERROR_INVALID_DEVICE:
  case UQ_CUDA_ERROR_NOT_INITIALIZED:
  case UQ_CUDA_ERROR_DEINITIALIZED:
  case UQ_CUDA_ERROR_INSUFFICIENT_DRIVER:
    return UQ_STATUS_UNAVAILABLE;
  case UQ_CUDA_ERROR_OUT_OF_MEMORY:
    return UQ_STATUS_RESOURCE_EXHAUSTED;
  case UQ_CUDA_ERROR_INVALID_VALUE:
  case UQ_CUDA_ERROR_INVALID_HANDLE:
    return UQ_STATUS_INVALID_ARGUMENT;
  case UQ_CUDA_ERROR_NOT_FOUND:
    return UQ_STATUS_NOT_FOUND;
  case UQ_CUDA_ERROR_INVALID_IMAGE:
  case UQ_CUDA_ERROR_NO_BINARY_FOR_GPU:
    return UQ_STATUS_FAILED_PRECONDITION;
  default:
    return UQ_STATUS_INTERNAL;
  }
}

uq_status_t uq_cuda_result_to_status(const uq_cuda_symbols_t *symbols,
                                     CUresult result, const char *call,
                                     const char *file, int line) {
  if (result == UQ_CUDA_SUCCESS)
    return UQ_OK;
  const char *name = NULL, *text = NULL;
  if (symbols->cuGetErrorName)
    symbols->cuGetErrorName(result, &name);
  if (symbols->cuGetErrorString)
    symbols->cuGetErrorString(result, &text);
  if (name)
    return uq_status_make(code_for(result), file, line, "%s: %s (%s)", call,
                          name, text ? text : "");
  return uq_status_make(code_for(result), file, line, "%s: CUDA error %d", call,
                        result);
}
