// Every public header of include/uq compiled as C17 (the .cpp file of this
// test compiles them as C++); main() lives here and calls the C++ side.
#include "uq/format.h"
#include "uq/policy.h"
#include "uq/reference.h"
#include "uq/status.h"
#include "uq/uqrt.h"

#include "uq_test.h"

int uq_headers_cpp_check(void);

static int test_c_view(void) {
  uint32_t major = 99, minor = 99;
  UQ_EXPECT_OK(uq_runtime_version(&major, &minor));
  UQ_EXPECT_EQ_INT(major, UQRT_VERSION_MAJOR);
  UQ_EXPECT_EQ_INT(minor, UQRT_VERSION_MINOR);
  uq_decode_config_t config = {0};
  UQ_EXPECT_EQ_INT(config.query_dtype, UQ_DTYPE_BF16);
  return 0;
}

static int test_cpp_view(void) { return uq_headers_cpp_check(); }

static const uq_test_case_t tests[] = {
    {"c_view", test_c_view}, {"cpp_view", test_cpp_view}, {0, 0}};

int main(int argc, char **argv) { return uq_test_main(argc, argv, tests); }
