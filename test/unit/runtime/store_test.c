// uq_plan_store against the host encoder, byte for byte: the store kernel on
// the simulator (and the host backend's path) must leave exactly the cache
// uq_cache_write leaves, starting from the same poisoned bytes, so every
// slot's content matches and every other byte (slot padding, unwritten and
// skipped slots) keeps its poison. Values: Gaussian, heavy-tailed, huge,
// subnormal, zero groups, NaN/inf groups, FP4 midpoint ties and UE8M0
// exponent boundaries; skipped, repeated and past-the-cache slots; fused
// QKV strides; every case for every head dim (32 to 512: store_case.h's
// kHeadDims are the ones both targets store, gfx950 adds 32 and 512).
// Seeded by uq_test_seed.
#include "store_case.h"

static const int32_t kEveryHeadDim[] = {32, 64, 128, 256, 512};

static int run_cases(uq_backend_t backend) {
  rng = uq_test_seed();
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = backend;
  uq_context_t *context = NULL;
  UQ_EXPECT_OK(uq_context_create(&options, &context));
  int failed = 0;
  for (size_t d = 0; d < sizeof(kEveryHeadDim) / sizeof(kEveryHeadDim[0]); ++d)
    for (size_t i = 0; i < sizeof(kCases) / sizeof(kCases[0]); ++i) {
      int rc = uq_store_run_case(context, &kCases[i], kEveryHeadDim[d]);
      printf("  D %-3d %-36s %s\n", kEveryHeadDim[d], kCases[i].label,
             rc ? "FAIL" : "ok");
      failed |= rc;
    }
  uq_context_destroy(context);
  return failed;
}

static int test_sim_store_matches_host_encoder(void) {
  return run_cases(UQ_BACKEND_SIM);
}

static int test_host_store_matches_host_encoder(void) {
  return run_cases(UQ_BACKEND_HOST);
}

// Plan-time and call-time checks that need no data.
static int test_store_rejects(void) {
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_SIM;
  uq_context_t *context = NULL;
  UQ_EXPECT_OK(uq_context_create(&options, &context));
  uq_decode_config_t config = {.num_kv_heads = 2,
                               .query_group = 8,
                               .head_dim = 256,
                               .block_size = 16,
                               .padded_slot = 272,
                               .max_blocks_per_seq = 1,
                               .num_blocks = 2,
                               .max_batch = 4};
  uq_plan_t *plan = NULL;
  config.head_dim = 96; // no store (nor decode) kernel for it
  UQ_EXPECT_CODE(uq_plan_create(context, &config, &plan),
                 UQ_STATUS_UNIMPLEMENTED);
  config.head_dim = 256;
  config.key_stride_head = 100; // heads overlap
  UQ_EXPECT_CODE(uq_plan_create(context, &config, &plan),
                 UQ_STATUS_INVALID_ARGUMENT);
  config.key_stride_head = 0;
  config.value_stride_token = 256; // tokens overlap the two heads
  UQ_EXPECT_CODE(uq_plan_create(context, &config, &plan),
                 UQ_STATUS_INVALID_ARGUMENT);
  config.value_stride_token = 0;
  config.max_store_tokens = 0x80000000u;
  UQ_EXPECT_CODE(uq_plan_create(context, &config, &plan),
                 UQ_STATUS_INVALID_ARGUMENT);
  config.max_store_tokens = 0;
  UQ_EXPECT_OK(uq_plan_create(context, &config, &plan));
  UQ_EXPECT_CODE(uq_plan_last_store_counters(plan, &(uq_kernel_counters_t){0}),
                 UQ_STATUS_FAILED_PRECONDITION);
  UQ_EXPECT_OK(uq_plan_store(plan, 0, 0, 0, 0, 0, NULL)); // nothing to do
  UQ_EXPECT_CODE(uq_plan_store(plan, 1, 0, 0, 0, 0, NULL),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_plan_store(plan, 5, 8, 8, 8, 8, NULL),
                 UQ_STATUS_INVALID_ARGUMENT); // over max_batch (the default)
  UQ_EXPECT_CODE(uq_plan_store(NULL, 1, 8, 8, 8, 8, NULL),
                 UQ_STATUS_INVALID_ARGUMENT);
  uq_plan_destroy(plan);
  uq_context_destroy(context);
  return 0;
}

static const uq_test_case_t tests[] = {
    {"sim_store_matches_host_encoder", test_sim_store_matches_host_encoder},
    {"host_store_matches_host_encoder", test_host_store_matches_host_encoder},
    {"store_rejects", test_store_rejects},
    {0, 0}};

int main(int argc, char **argv) { return uq_test_main(argc, argv, tests); }
