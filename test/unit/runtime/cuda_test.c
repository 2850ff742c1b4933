// The CUDA backend without a usable GPU (CI): an explicit cuda context fails
// with UNAVAILABLE and the driver's reason, a missing driver names the path
// tried, "cuda" parses, and auto with cubins in the table falls back to the
// simulator saying why cuda was not used. Where a compute capability 9.0
// device exists, the no-device expectations do not apply (skip).
#include <string.h>

#include "uq/uqrt.h"
#include "uq_test.h"

static int test_explicit_cuda_reason(void) {
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_CUDA;
  uq_context_t *context = NULL;
  uq_status_t status = uq_context_create(&options, &context);
  if (status == UQ_OK) {
    uq_context_destroy(context);
    printf("  a CUDA device is present: nothing to check\n");
    return UQ_TEST_SKIP;
  }
  const char *message = uq_status_message(status);
  printf("  %s\n", message);
  int names_reason = strstr(message, "CUDA_ERROR") != NULL ||
                     strstr(message, "cannot load the CUDA driver") != NULL ||
                     strstr(message, "compute capability") != NULL ||
                     strstr(message, "without the CUDA backend") != NULL;
  int code = uq_status_code(status);
  uq_status_free(status);
  UQ_EXPECT(context == NULL);
  UQ_EXPECT_EQ_INT(code, UQ_STATUS_UNAVAILABLE);
  UQ_EXPECT(names_reason);
  return 0;
}

static int test_missing_driver(void) {
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_CUDA;
  options.cuda_library = "/nonexistent/libcuda.so.1";
  uq_context_t *context = NULL;
  uq_status_t status = uq_context_create(&options, &context);
  const char *message = uq_status_message(status);
  printf("  %s\n", message);
  int built_without = strstr(message, "without the CUDA backend") != NULL;
  int names_path = strstr(message, "/nonexistent/libcuda.so.1") != NULL;
  int code = uq_status_code(status);
  uq_status_free(status);
  if (built_without)
    return UQ_TEST_SKIP;
  UQ_EXPECT_EQ_INT(code, UQ_STATUS_UNAVAILABLE);
  UQ_EXPECT(names_path);
  return 0;
}

static int test_parse_name(void) {
  uq_backend_t backend = UQ_BACKEND_AUTO;
  UQ_EXPECT_OK(uq_backend_parse("cuda", 4, &backend));
  UQ_EXPECT_EQ_INT(backend, UQ_BACKEND_CUDA);
  UQ_EXPECT_STREQ(uq_backend_name(UQ_BACKEND_CUDA), "cuda");
  UQ_EXPECT_CODE(uq_backend_parse("cud", 3, &backend),
                 UQ_STATUS_INVALID_ARGUMENT);
  return 0;
}

// Auto on a machine without HIP or CUDA devices: the simulator, with the
// reasons for both (the embedded table has no cubins, or the driver is
// missing).
static int test_auto_says_why_not_cuda(void) {
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.hip_library = "/nonexistent/libamdhip64.so";
  options.cuda_library = "/nonexistent/libcuda.so.1";
  uq_context_t *context = NULL;
  uq_status_t status = uq_context_create(&options, &context);
  if (status) {
    printf("  %s\n", uq_status_message(status));
    int code = uq_status_consume_code(status);
    UQ_EXPECT_EQ_INT(code, UQ_STATUS_UNAVAILABLE); // no sim module either
    return UQ_TEST_SKIP;
  }
  const char *text = NULL;
  UQ_EXPECT_OK(uq_context_describe(context, &text));
  printf("  %s\n", text);
  uq_backend_t backend = UQ_BACKEND_AUTO;
  UQ_EXPECT_OK(uq_context_backend(context, &backend));
  int says_why = strstr(text, "cuda not used") != NULL;
  uq_context_destroy(context);
  UQ_EXPECT_EQ_INT(backend, UQ_BACKEND_SIM);
  UQ_EXPECT(says_why);
  return 0;
}

static const uq_test_case_t tests[] = {
    {"explicit_cuda_reason", test_explicit_cuda_reason},
    {"missing_driver", test_missing_driver},
    {"parse_name", test_parse_name},
    {"auto_says_why_not_cuda", test_auto_says_why_not_cuda},
    {0, 0}};

int main(int argc, char **argv) { return uq_test_main(argc, argv, tests); }
