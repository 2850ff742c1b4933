// The HIP runtime loaded with dlopen, its function table, and the one place
// HIP errors become uq statuses.
#ifndef UQ_RUNTIME_HIP_HIP_SYMBOLS_H_
#define UQ_RUNTIME_HIP_HIP_SYMBOLS_H_

#include "runtime/hip/hip_headers.h"
#include "uq/status.h"

typedef struct uq_hip_symbols_s {
  void *library; // dlopen handle; NULL when not loaded
#define UQ_HIP_REQUIRED(name, result, params) result(*name) params;
#define UQ_HIP_OPTIONAL(name, result, params) result(*name) params;
#include "runtime/hip/dynamic_symbol_tables.h"
#undef UQ_HIP_REQUIRED
#undef UQ_HIP_OPTIONAL
} uq_hip_symbols_t;

// The libraries tried, in order, when no library is named.
#define UQ_HIP_DEFAULT_LIBRARY_COUNT 8
extern const char *const uq_hip_default_libraries[UQ_HIP_DEFAULT_LIBRARY_COUNT];

// Loads `library` (NULL: uq_hip_default_libraries, the first that loads)
// and resolves the table. UNAVAILABLE naming every path
// tried (with dlerror) or every missing required symbol.
uq_status_t uq_hip_symbols_initialize(const char *library,
                                      uq_hip_symbols_t *out_symbols);
// Unloads; safe on a zeroed or half-initialized table.
void uq_hip_symbols_deinitialize(uq_hip_symbols_t *symbols);

// Converts a HIP result to a status that keeps the vendor's name and text:
// "hipGetDeviceCount: hipErrorNoDevice (no ROCm-capable device is detected)".
uq_status_t uq_hip_result_to_status(const uq_hip_symbols_t *symbols,
                                    hipError_t result, const char *call,
                                    const char *file, int line);

// Calls `syms->name args` and converts its result.
#define UQ_HIP_CALL(syms, name, args)                                          \
  uq_hip_result_to_status((syms), (syms)->name args, #name, __FILE__, __LINE__)

#endif // UQ_RUNTIME_HIP_HIP_SYMBOLS_H_
