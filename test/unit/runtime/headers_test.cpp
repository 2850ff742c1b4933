// Every public header of include/uq compiled as C++17: they must be
// self-contained, wrapped in extern "C" and free of C-only constructs.
#include "uq/format.h"
#include "uq/policy.h"
#include "uq/reference.h"
#include "uq/status.h"
#include "uq/uqrt.h"

#include <cstdio>
#include <type_traits>

static_assert(
    std::is_same<decltype(&uq_plan_run),
                 uq_status_t (*)(uq_plan_t *, uint32_t, uq_device_ptr_t,
                                 uq_device_ptr_t, uq_device_ptr_t,
                                 uq_device_ptr_t, uq_device_ptr_t,
                                 uq_stream_t *)>::value,
    "uq_plan_run has C linkage and the documented signature");

extern "C" int uq_headers_cpp_check(void) {
  uint32_t major = 0, minor = 0;
  uq_status_t status = uq_runtime_version(&major, &minor);
  if (status != UQ_OK || major != UQRT_VERSION_MAJOR) {
    std::fprintf(stderr, "version query failed from C++\n");
    uq_status_free(status);
    return 1;
  }
  // A C++ caller handles a failure like a C caller does.
  uq_backend_t backend = UQ_BACKEND_AUTO;
  status = uq_backend_parse("gpu", 3, &backend);
  int ok = uq_status_code(status) == UQ_STATUS_INVALID_ARGUMENT;
  uq_status_free(status);
  return ok ? 0 : 1;
}
