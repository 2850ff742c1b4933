// The stub code-object table for runtime tests and uq-bench-run.
#include "stub_kernels.h"

size_t uq_stub_code_objects(const char *bad_decode_kernel,
                            uq_code_object_source_t out[4]) {
  static const char *const variants[4] = {"decode_qg6", "decode_qg8",
                                          "decode_qg16", "reduce"};
  static const char *const kernels[4] = {"uq_decode_qg6", "uq_decode_qg8",
                                         "uq_decode_qg16", "uq_reduce"};
  for (int i = 0; i < 4; ++i) {
    out[i].variant = variants[i];
    out[i].kernel =
        i == 1 && bad_decode_kernel ? bad_decode_kernel : kernels[i];
    out[i].data = uq_stub_kernels;
    out[i].size = uq_stub_kernels_size;
  }
  return 4;
}
