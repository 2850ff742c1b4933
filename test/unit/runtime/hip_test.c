// The HIP backend without a GPU: an explicit hip context must fail with
// UNAVAILABLE and keep the HIP runtime's reason, a missing runtime library
// must name the path tried, and auto must fall back to the simulator.
#include <stdlib.h>
#include <string.h>

#include "uq/uqrt.h"
#include "uq_test.h"

// A libuqrt configured with UQ_ENABLE_HIP=OFF has no HIP backend to test.
static int built_without_hip(uq_status_t status) {
  if (!strstr(uq_status_message(status), "without the HIP backend"))
    return 0;
  printf("  %s\n", uq_status_message(status));
  uq_status_free(status);
  return 1;
}

// The test machines have libamdhip64 but no AMD GPU; on a machine with a
// usable device the no-device expectations do not apply.
static int test_explicit_hip_without_device(void) {
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_HIP;
  uq_context_t *context = NULL;
  uq_status_t status = uq_context_create(&options, &context);
  if (built_without_hip(status))
    return UQ_TEST_SKIP;
  if (status == UQ_OK) {
    uq_context_destroy(context);
    printf("  a HIP device is present: nothing to check\n");
    return UQ_TEST_SKIP;
  }
  UQ_EXPECT(context == NULL);
  const char *message = uq_status_message(status);
  printf("  %s\n", message);
  int code = uq_status_code(status);
  int names_reason = strstr(message, "hipError") != NULL ||
                     strstr(message, "cannot load the HIP runtime") != NULL;
  uq_status_free(status);
  UQ_EXPECT_EQ_INT(code, UQ_STATUS_UNAVAILABLE);
  UQ_EXPECT(names_reason);
  return 0;
}

// With the Debian runtime installed and no GPU, the reason is exactly
// hipErrorNoDevice from hipGetDeviceCount.
static int test_no_device_error_name(void) {
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_HIP;
  options.hip_library = "libamdhip64.so";
  uq_context_t *context = NULL;
  uq_status_t status = uq_context_create(&options, &context);
  if (built_without_hip(status))
    return UQ_TEST_SKIP;
  if (status == UQ_OK) {
    uq_context_destroy(context);
    return UQ_TEST_SKIP; // a device exists
  }
  const char *message = uq_status_message(status);
  if (strstr(message, "cannot load")) {
    printf("  no HIP runtime installed: %s\n", message);
    uq_status_free(status);
    return UQ_TEST_SKIP;
  }
  int has_name = strstr(message, "hipGetDeviceCount") &&
                 strstr(message, "hipErrorNoDevice");
  int code = uq_status_code(status);
  uq_status_free(status);
  UQ_EXPECT_EQ_INT(code, UQ_STATUS_UNAVAILABLE);
  UQ_EXPECT(has_name);
  return 0;
}

static int test_missing_library(void) {
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_HIP;
  options.hip_library = "/nonexistent/libamdhip64.so";
  uq_context_t *context = NULL;
  uq_status_t status = uq_context_create(&options, &context);
  if (built_without_hip(status))
    return UQ_TEST_SKIP;
  int code = uq_status_code(status);
  int names_path =
      strstr(uq_status_message(status), "/nonexistent/libamdhip64.so") != NULL;
  uq_status_free(status);
  UQ_EXPECT_EQ_INT(code, UQ_STATUS_UNAVAILABLE);
  UQ_EXPECT(names_path);
  UQ_EXPECT(context == NULL);
  return 0;
}

static int test_auto_falls_back_to_sim(void) {
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.hip_library = "/nonexistent/libamdhip64.so";
  uq_context_t *context = NULL;
  UQ_EXPECT_OK(uq_context_create(&options, &context));
  uq_backend_t backend = UQ_BACKEND_AUTO;
  const char *text = NULL;
  UQ_EXPECT_OK(uq_context_backend(context, &backend));
  UQ_EXPECT_OK(uq_context_describe(context, &text));
  printf("  %s\n", text);
  int says_why = strstr(text, "hip not used") != NULL ||
                 strstr(text, "without the HIP backend") != NULL;
  uq_context_destroy(context);
  UQ_EXPECT_EQ_INT(backend, UQ_BACKEND_SIM);
  UQ_EXPECT(says_why);
  return 0;
}

static const uq_test_case_t tests[] = {
    {"explicit_hip_without_device", test_explicit_hip_without_device},
    {"no_device_error_name", test_no_device_error_name},
    {"missing_library", test_missing_library},
    {"auto_falls_back_to_sim", test_auto_falls_back_to_sim},
    {0, 0}};

int main(int argc, char **argv) { return uq_test_main(argc, argv, tests); }
