// The public headers compile as C++ and link against the C libraries
// (extern "C"): a few calls from a C++ translation unit, checked.
#include "uq/format.h"
#include "uq/policy.h"
#include "uq/reference.h"

#include <cmath>
#include <cstdio>

int main() {
  int failed = 0;
  if (uq_fp4_to_float(7) != 6.0f) {
    std::printf("FAIL uq_fp4_to_float(7) from C++\n");
    failed = 1;
  }
  if (uq_float_to_e4m3(1000.0f, UQ_FP8_OVERFLOW_SATURATE) != 0x7E) {
    std::printf("FAIL uq_float_to_e4m3 from C++\n");
    failed = 1;
  }
  uq_launch_plan_t plan = {0, 0};
  uq_status_t status =
      uq_launch_policy(1, 1, 16, 128, UQ_DEFAULT_MAX_KV_SPLITS, &plan);
  if (status != UQ_OK || plan.num_partitions != 2 || plan.tgpp != 1) {
    std::printf("FAIL uq_launch_policy from C++\n");
    failed = 1;
  }
  uq_status_free(status);
  // An invalid problem reports INVALID_ARGUMENT through the C status API.
  uq_decode_problem_t problem = {};
  if (uq_status_consume_code(uq_decode_problem_validate(&problem)) !=
      UQ_STATUS_INVALID_ARGUMENT) {
    std::printf("FAIL uq_decode_problem_validate from C++\n");
    failed = 1;
  }
  std::printf("%d passed, %d failed, 0 skipped\n", failed ? 0 : 1, failed);
  return failed;
}
