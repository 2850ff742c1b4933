// The sim backend of an installed libuqrt: `sim-absent` expects UNAVAILABLE
// naming the missing module libuqrt_sim.so (component uqrt not followed by
// uqrt_sim), `sim-present` a working sim context once the module is there.
#include <stdio.h>
#include <string.h>

#include <uq/uqrt.h>

int main(int argc, char **argv) {
  if (argc != 2 || (strcmp(argv[1], "sim-absent") != 0 &&
                    strcmp(argv[1], "sim-present") != 0)) {
    fprintf(stderr, "usage: sim_check sim-absent|sim-present\n");
    return 2;
  }
  int expect_present = strcmp(argv[1], "sim-present") == 0;
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_SIM;
  uq_context_t *context = NULL;
  uq_status_t status = uq_context_create(&options, &context);
  int ok = expect_present
               ? status == UQ_OK
               : uq_status_code(status) == UQ_STATUS_UNAVAILABLE &&
                     strstr(uq_status_message(status), "libuqrt_sim.so");
  printf("sim backend (%s): %s%s%s\n",
         expect_present ? "module installed" : "module absent",
         ok ? "ok" : "FAIL", status ? ": " : "", uq_status_message(status));
  uq_status_free(status);
  uq_context_destroy(context);
  return ok ? 0 : 1;
}
