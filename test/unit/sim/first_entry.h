// The lowest kernel entry address of a loaded code object: where the
// simulator tests that mutate code find the kernels' instructions.
#ifndef UQ_TEST_UNIT_SIM_FIRST_ENTRY_H_
#define UQ_TEST_UNIT_SIM_FIRST_ENTRY_H_

#include <stdint.h>

#include "codeobj/codeobj.h"

// UINT64_MAX for an object without kernels.
static inline uint64_t uq_test_first_entry(const uq_code_object_t *co) {
  uint64_t lo = UINT64_MAX;
  for (size_t k = 0; k < uq_code_object_kernel_count(co); ++k) {
    uint64_t e = uq_code_object_kernel_at(co, k)->entry_vaddr;
    lo = e < lo ? e : lo;
  }
  return lo;
}

#endif // UQ_TEST_UNIT_SIM_FIRST_ENTRY_H_
