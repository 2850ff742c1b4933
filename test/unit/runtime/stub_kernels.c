// The stub code-object table for runtime tests and uq-bench-run.
#include "stub_kernels.h"

#include <string.h>

size_t uq_stub_code_objects(const char *bad_decode_kernel,
                            uq_code_object_source_t out[4]) {
  // The records of the real table's D = 256 variants (uq-compile --list).
  static const uq_code_object_source_t records[3] = {
      {.variant = "decode_d256_rows8",
       .kernel = "uq_decode_d256_rows8",
       .kind = UQ_VARIANT_KIND_DECODE,
       .head_dim = 256,
       .qg_max = 8},
      {.variant = "decode_d256_rows16",
       .kernel = "uq_decode_d256_rows16",
       .kind = UQ_VARIANT_KIND_DECODE,
       .head_dim = 256,
       .qg_max = 16},
      {.variant = "reduce_d256",
       .kernel = "uq_reduce_d256",
       .kind = UQ_VARIANT_KIND_REDUCE,
       .head_dim = 256},
  };
  for (int i = 0; i < 3; ++i) {
    out[i] = records[i];
    if (i == 0 && bad_decode_kernel)
      out[i].kernel = bad_decode_kernel;
    out[i].data = uq_stub_kernels;
    out[i].size = uq_stub_kernels_size;
  }
  return 3;
}
