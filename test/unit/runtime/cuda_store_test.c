// The cache store on an NVIDIA Hopper GPU (compute capability 9.0): the
// sm_90a store cubins (store_sm90_d64/128/256, the same kernels/store.mlir
// source as gfx950's) through uq_plan_store on the CUDA backend, byte for byte
// against the host encoder (uq_cache_write) from a poisoned cache: Gaussian,
// heavy-tailed and adversarial values (huge, subnormal, zero groups, NaN/inf
// groups, FP4 midpoint ties, UE8M0 exponent boundaries), skipped (negative),
// repeated and past-the-cache slots (skipped on a GPU, the rest stored),
// fused QKV strides, padded slots; every byte outside the written slots
// keeps its poison (store_case.h, shared with store_test.c).
//
// A plan needs a decode kernel for its head dim, and the sm_90a decode is
// D = 256 only: for D = 64 and 128 the context is given the store cubin of
// that D plus the D = 256 decode and reduce records relabeled to it (this
// test's own copy of the embedded table; those two are loaded, never run),
// so the store of every D goes through the runtime's CUDA path.
//
// Label `cuda`: skips (77) with the reason where no usable CUDA device or no
// sm_90a cubins exist. `--sim` runs the same cases with the gfx950 records
// on the simulator (a check of this test without a GPU).
#include <string.h>

#include "runtime/embedded.h"
#include "store_case.h"

static uq_backend_t g_backend = UQ_BACKEND_CUDA;
static const char *g_target = "sm_90a";

// The embedded record of `kind` (and head dim) for g_target, or NULL.
static const uq_variant_record_t *
find_record(uq_variant_kind_t kind, uint32_t head_dim, uint32_t qg_max) {
  for (size_t i = 0; i < uq_embedded_variant_count; ++i) {
    const uq_variant_record_t *r = &uq_embedded_variants[i];
    const char *target = r->target ? r->target : "gfx950";
    if (r->kind == kind && r->head_dim == head_dim &&
        (!qg_max || r->qg_max == qg_max) && strcmp(target, g_target) == 0)
      return r;
  }
  return NULL;
}

// A context on g_backend whose table serves a plan of head dim D: the
// embedded table for D = 256, else the store of D and the D = 256 decode
// (qg_max 16) and reduce relabeled to D. `records` (3 entries) must outlive
// the context. UQ_TEST_SKIP when the table lacks the cubins.
static int context_for(int32_t D, uq_variant_record_t *records,
                       uq_context_t **out_context) {
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = g_backend;
  if (D != 256) {
    const uq_variant_record_t *store =
        find_record(UQ_VARIANT_KIND_STORE, (uint32_t)D, 0);
    const uq_variant_record_t *decode =
        find_record(UQ_VARIANT_KIND_DECODE, 256, 16);
    const uq_variant_record_t *reduce =
        find_record(UQ_VARIANT_KIND_REDUCE, 256, 0);
    if (!store || !decode || !reduce) {
      printf("SKIP: no %s store_d%d, decode D 256 or reduce D 256 record in "
             "this build\n",
             g_target, D);
      return UQ_TEST_SKIP;
    }
    records[0] = *store;
    records[1] = *decode;
    records[1].head_dim = (uint32_t)D;
    records[2] = *reduce;
    records[2].head_dim = (uint32_t)D;
    options.code_objects = records;
    options.code_object_count = 3;
  }
  UQ_EXPECT_OK(uq_context_create(&options, out_context));
  return 0;
}

static int run_head_dim(int32_t D) {
  uq_variant_record_t records[3];
  uq_context_t *context = NULL;
  int rc = context_for(D, records, &context);
  if (rc)
    return rc;
  int failed = 0;
  for (size_t i = 0; i < sizeof(kCases) / sizeof(kCases[0]); ++i) {
    int case_rc = uq_store_run_case(context, &kCases[i], D);
    printf("  D %-3d %-36s %s\n", D, kCases[i].label, case_rc ? "FAIL" : "ok");
    failed |= case_rc;
  }
  uq_context_destroy(context);
  return failed;
}

static int test_store_d64_matches_host_encoder(void) {
  return run_head_dim(64);
}
static int test_store_d128_matches_host_encoder(void) {
  return run_head_dim(128);
}
static int test_store_d256_matches_host_encoder(void) {
  return run_head_dim(256);
}
// D = 32 (V's codes at the odd byte 17: byte stores) and 512 (four
// pieces a lane): their sm_90a records are held with the decodes of those
// dims (docs/design.md, "Held variants"); without them these skip.
static int test_store_d32_matches_host_encoder(void) {
  return run_head_dim(32);
}
static int test_store_d512_matches_host_encoder(void) {
  return run_head_dim(512);
}

// Many tokens and heads in one launch (grid 4096 x 8), half the slots
// skipped: the GPU's scheduling order must not matter.
static int test_store_many_tokens(void) {
  uq_variant_record_t records[3];
  uq_context_t *context = NULL;
  int rc = context_for(256, records, &context);
  if (rc)
    return rc;
  static const store_case_t big = {"4096 tokens x 8 heads, skipped slots",
                                   VALUES_HEAVY_TAILED,
                                   4096,
                                   8,
                                   512,
                                   8,
                                   1,
                                   2,
                                   0,
                                   0,
                                   0,
                                   UQ_STATUS_OK};
  rc = uq_store_run_case(context, &big, 256);
  uq_context_destroy(context);
  return rc;
}

static const uq_test_case_t tests[] = {
    {"store_d64_matches_host_encoder", test_store_d64_matches_host_encoder},
    {"store_d128_matches_host_encoder", test_store_d128_matches_host_encoder},
    {"store_d256_matches_host_encoder", test_store_d256_matches_host_encoder},
    {"store_d32_matches_host_encoder", test_store_d32_matches_host_encoder},
    {"store_d512_matches_host_encoder", test_store_d512_matches_host_encoder},
    {"store_many_tokens", test_store_many_tokens},
    {0, 0}};

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--sim") == 0) {
    g_backend = UQ_BACKEND_SIM;
    g_target = "gfx950";
    --argc;
    ++argv;
  }
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = g_backend;
  uq_context_t *context = NULL;
  uq_status_t status = uq_context_create(&options, &context);
  if (status) {
    printf("SKIP: no usable %s device: %s\n", uq_backend_name(g_backend),
           uq_status_message(status));
    uq_status_free(status);
    return UQ_TEST_SKIP;
  }
  const char *text = NULL;
  if (uq_context_describe(context, &text) == UQ_OK)
    printf("%s\n", text);
  uq_context_destroy(context);
  // A library built without a CUDA toolkit embeds no cubins.
  if (!find_record(UQ_VARIANT_KIND_STORE, 256, 0)) {
    printf("SKIP: this build embeds no %s store kernel (no CUDA toolkit at "
           "configure time)\n",
           g_target);
    return UQ_TEST_SKIP;
  }
  rng = uq_test_seed();
  return uq_test_main(argc, argv, tests);
}
