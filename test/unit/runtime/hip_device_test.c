// A decode on a real gfx950 GPU through the HIP backend, against the host
// kernel-faithful reference. Label `hip`: skips (77) when no device can run
// our code objects, so "no GPU" is a skip, not a pass.
#include <time.h>

#include "e2e_case.h"

static int test_decode_on_gpu(void) {
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_HIP;
  uq_context_t *context = NULL;
  uq_status_t status = uq_context_create(&options, &context);
  if (status) {
    printf("  no usable HIP device: %s\n", uq_status_message(status));
    uq_status_free(status);
    return UQ_TEST_SKIP;
  }
  uint64_t seed = uq_test_seed();
  uq_problem_shape_t shape = {.batch = 4,
                              .num_kv_heads = 2,
                              .query_group = 8,
                              .block_size = 16,
                              .padded_slot = 272,
                              .max_seq = 4096,
                              .shuffle = 1,
                              .seed = seed};
  int rc = uq_e2e_run_case(context, &shape, "hip B=4 Hk=2 QG=8 bs=16");
  uq_context_destroy(context);
  return rc;
}

static const uq_test_case_t tests[] = {{"decode_on_gpu", test_decode_on_gpu},
                                       {0, 0}};

int main(int argc, char **argv) { return uq_test_main(argc, argv, tests); }
