// Test-only code objects with the runtime's kernel ABI (stub_kernels.s):
// every decode kernel copies its kernarg segment to `query`, the reduce
// kernel to `output`. Also two decode kernels whose metadata disagrees with
// kernel_abi.h: "uq_decode_bad_kind" and "uq_decode_bad_count", and
// "uq_decode_small_workgroup" (max workgroup 32).
#ifndef UQ_TEST_UNIT_RUNTIME_STUB_KERNELS_H_
#define UQ_TEST_UNIT_RUNTIME_STUB_KERNELS_H_

#include <stddef.h>

#include "uq/uqrt.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const unsigned char uq_stub_kernels[];
extern const size_t uq_stub_kernels_size;

// Fills `out` with typed records (decode_d256_rows8 and _qg_max16,
// reduce_d256; the kernel named by `bad_decode_kernel`, when not NULL,
// serves decode_d256_rows8) and returns the count (3).
size_t uq_stub_code_objects(const char *bad_decode_kernel,
                            uq_code_object_source_t out[4]);

#ifdef __cplusplus
}
#endif

#endif // UQ_TEST_UNIT_RUNTIME_STUB_KERNELS_H_
