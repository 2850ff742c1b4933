// uq-bench-run: the host-side cost of one uq_plan_run — argument checks,
// the launch policy, kernel-argument packing and the two launch
// submissions — on a sim context whose launches do nothing
// (UQ_CONTEXT_FLAG_NULL_LAUNCH) and whose code objects are the test stubs
// with the real kernel ABI. The sim/host table read-back is part of the
// figure (a HIP run skips it). Target: <= 2 us per call.
#define _POSIX_C_SOURCE 200809L // clock_gettime

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stub_kernels.h"
#include "tools/common/stdout_check.h"
#include "uq/uqrt.h"

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int check(uq_status_t status, const char *what) {
  if (!status)
    return 0;
  fprintf(stderr, "uq-bench-run: error: %s: %s\n", what,
          uq_status_message(status));
  uq_status_free(status);
  return 1;
}

int main(int argc, char **argv) {
  uq_tool_check_stdout_at_exit("uq-bench-run");
  long iterations = 200000;
  uint32_t batch = 4;
  int embedded = 0;
  for (int i = 1; i < argc; ++i) {
    if (strncmp(argv[i], "--iterations=", 13) == 0) {
      iterations = strtol(argv[i] + 13, NULL, 10);
    } else if (strcmp(argv[i], "--embedded") == 0) {
      embedded = 1; // the kernels built into libuqrt instead of the stubs
    } else if (strncmp(argv[i], "--batch=", 8) == 0) {
      batch = (uint32_t)strtoul(argv[i] + 8, NULL, 10);
    } else {
      fprintf(stderr,
              "uq-bench-run: error: unknown flag '%s' (--iterations=N, "
              "--batch=N, --embedded)\n",
              argv[i]);
      return 1;
    }
  }
  if (iterations < 1 || batch < 1 || batch > 256) {
    fprintf(stderr, "uq-bench-run: error: iterations >= 1, batch 1..256\n");
    return 1;
  }
  uq_code_object_source_t sources[4];
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_SIM;
  options.flags = UQ_CONTEXT_FLAG_NULL_LAUNCH;
  if (!embedded) {
    options.code_object_count = uq_stub_code_objects(NULL, sources);
    options.code_objects = sources;
  }
  uq_context_t *context = NULL;
  if (check(uq_context_create(&options, &context), "context"))
    return 1;
  // The default uq-run shape: Hk = 2, QG = 8, block 16, 4096-token tables.
  uq_decode_config_t config = {.num_kv_heads = 2,
                               .query_group = 8,
                               .head_dim = 256,
                               .block_size = 16,
                               .padded_slot = 272,
                               .max_blocks_per_seq = 256,
                               .num_blocks = 256 * 256,
                               .max_batch = batch};
  uq_plan_t *plan = NULL;
  int rc = check(uq_plan_create(context, &config, &plan), "plan");
  uq_device_ptr_t query = 0, cache = 0, tables = 0, lens = 0, output = 0;
  size_t table_bytes = (size_t)batch * 256 * 4;
  int32_t *host_tables = calloc(table_bytes, 1);
  int32_t *host_lens = calloc(batch, 4);
  for (uint32_t b = 0; host_lens && b < batch; ++b)
    host_lens[b] = 4096;
  if (!rc)
    rc = check(uq_context_alloc(context, (size_t)batch * 16 * 512, &query),
               "alloc") ||
         check(uq_context_alloc(context, 4096, &cache), "alloc") ||
         check(uq_context_alloc(context, table_bytes, &tables), "alloc") ||
         check(uq_context_alloc(context, (size_t)batch * 4, &lens), "alloc") ||
         check(uq_context_alloc(context, (size_t)batch * 16 * 512, &output),
               "alloc") ||
         check(uq_context_upload(context, tables, host_tables, table_bytes),
               "upload") ||
         check(uq_context_upload(context, lens, host_lens, (size_t)batch * 4),
               "upload");
  if (!rc) {
    double best = 1e30;
    for (int round = 0; round < 5 && !rc; ++round) {
      double t0 = now_ns();
      for (long i = 0; i < iterations; ++i) {
        uq_status_t status =
            uq_plan_run(plan, batch, query, cache, tables, lens, output, NULL);
        if (status) {
          rc = check(status, "run");
          break;
        }
      }
      double per_call = (now_ns() - t0) / (double)iterations;
      if (per_call < best)
        best = per_call;
    }
    if (!rc)
      printf("uq-bench-run: %.3f us per uq_plan_run (best of 5 x %ld calls; "
             "batch %u, Hk 2, QG 8, 256-entry tables; %s code objects; null "
             "launches; target <= 2 us)\n",
             best / 1e3, iterations, batch, embedded ? "embedded" : "stub");
  }
  uq_status_free(uq_context_free(context, query));
  uq_status_free(uq_context_free(context, cache));
  uq_status_free(uq_context_free(context, tables));
  uq_status_free(uq_context_free(context, lens));
  uq_status_free(uq_context_free(context, output));
  free(host_tables);
  free(host_lens);
  uq_plan_destroy(plan);
  uq_context_destroy(context);
  return rc;
}
