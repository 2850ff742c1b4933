// A server-side consumer of an installed libuqrt: found through pkg-config
// or find_package(uqrt), it creates a host context and runs one plan check.
#include <stdio.h>

#include <uq/uqrt.h>

int main(void) {
  uint32_t major = 0, minor = 0;
  uq_status_t status = uq_runtime_version(&major, &minor);
  if (status || major != UQRT_VERSION_MAJOR) {
    fprintf(stderr, "version mismatch\n");
    return 1;
  }
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_HOST;
  uq_context_t *context = NULL;
  status = uq_context_create(&options, &context);
  if (status) {
    fprintf(stderr, "%s\n", uq_status_message(status));
    uq_status_free(status);
    return 1;
  }
  uq_decode_config_t config = {
      .num_kv_heads = 1, .query_group = 8, .head_dim = 128};
  uq_plan_t *plan = NULL;
  status = uq_plan_create(context, &config, &plan);
  int ok = uq_status_code(status) == UQ_STATUS_UNIMPLEMENTED;
  uq_status_free(status);
  uq_context_destroy(context);
  printf("uqrt %u.%u consumer: %s\n", major, minor, ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
