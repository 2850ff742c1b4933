// libuqrt API tests: version and names, context options, every validation
// rule of plan creation and run (status codes), injected allocator failures,
// runs that allocate nothing, kernel-argument packing checked through the
// simulator with stub kernels, and a thread-safety smoke test.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stub_kernels.h"
#include "tools/uq-run/problem.h"
#include "uq/policy.h"
#include "uq/uqrt.h"
#include "uq_test.h"

static uint64_t seed;

//===--- A counting allocator that can fail on purpose
//---------------------===//

typedef struct counting_s {
  long calls;     // alloc calls so far
  long live;      // allocations not yet freed
  long fail_from; // the alloc call (0-based) from which allocation fails; -1
} counting_t;

static void *counting_alloc(void *self, size_t size) {
  counting_t *c = self;
  long call = c->calls++;
  if (c->fail_from >= 0 && call >= c->fail_from)
    return NULL;
  void *ptr = malloc(size);
  if (ptr)
    ++c->live;
  return ptr;
}

static void counting_free(void *self, void *ptr) {
  counting_t *c = self;
  if (ptr) {
    --c->live;
    free(ptr);
  }
}

//===--- Helpers
//-----------------------------------------------------------===//

static uq_status_t make_context(uq_backend_t backend, counting_t *counter,
                                int stubs, uq_context_t **out) {
  static uq_code_object_source_t sources[4];
  static uq_allocator_t allocator;
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = backend;
  if (counter) {
    allocator = (uq_allocator_t){counter, counting_alloc, counting_free};
    options.allocator = &allocator;
  }
  if (stubs) {
    options.code_object_count = uq_stub_code_objects(NULL, sources);
    options.code_objects = sources;
  }
  return uq_context_create(&options, out);
}

static uq_decode_config_t good_config(void) {
  return (uq_decode_config_t){.num_kv_heads = 2,
                              .query_group = 8,
                              .head_dim = 256,
                              .block_size = 16,
                              .padded_slot = 272,
                              .max_blocks_per_seq = 8,
                              .num_blocks = 64,
                              .max_batch = 4};
}

static uq_problem_shape_t small_shape(void) {
  return (uq_problem_shape_t){.batch = 3,
                              .num_kv_heads = 2,
                              .query_group = 8,
                              .block_size = 16,
                              .padded_slot = 272,
                              .max_seq = 100,
                              .extra_blocks = 2,
                              .spare_blocks = 2,
                              .shuffle = 1,
                              .seed = seed++};
}

//===--- Tests
//-------------------------------------------------------------===//

static int test_version_and_names(void) {
  uint32_t major = 7, minor = 7;
  UQ_EXPECT_OK(uq_runtime_version(&major, &minor));
  UQ_EXPECT_EQ_INT(major, UQRT_VERSION_MAJOR);
  UQ_EXPECT_EQ_INT(minor, UQRT_VERSION_MINOR);
  UQ_EXPECT_CODE(uq_runtime_version(NULL, &minor), UQ_STATUS_INVALID_ARGUMENT);
  static const uq_backend_t all[] = {UQ_BACKEND_AUTO, UQ_BACKEND_HIP,
                                     UQ_BACKEND_SIM, UQ_BACKEND_HOST};
  for (int i = 0; i < 4; ++i) {
    const char *name = uq_backend_name(all[i]);
    uq_backend_t parsed = (uq_backend_t)99;
    UQ_EXPECT_OK(uq_backend_parse(name, strlen(name), &parsed));
    UQ_EXPECT_EQ_INT(parsed, all[i]);
  }
  uq_backend_t parsed;
  UQ_EXPECT_CODE(uq_backend_parse("simx", 4, &parsed),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_backend_parse("sim", 2, &parsed),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_STREQ(uq_backend_name((uq_backend_t)42), "unknown");
  return 0;
}

static int test_context_options(void) {
  uq_context_t *context = (uq_context_t *)1;
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = (uq_backend_t)9;
  UQ_EXPECT_CODE(uq_context_create(&options, &context),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT(context == NULL);
  uq_context_options_initialize(&options);
  options.flags = 0x80;
  UQ_EXPECT_CODE(uq_context_create(&options, &context),
                 UQ_STATUS_INVALID_ARGUMENT);
  uq_context_options_initialize(&options);
  uq_allocator_t half = {NULL, counting_alloc, NULL};
  options.allocator = &half;
  UQ_EXPECT_CODE(uq_context_create(&options, &context),
                 UQ_STATUS_INVALID_ARGUMENT);
  uq_context_options_initialize(&options);
  options.code_object_count = 2;
  UQ_EXPECT_CODE(uq_context_create(&options, &context),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_context_create(NULL, NULL), UQ_STATUS_INVALID_ARGUMENT);
  // A corrupt code object fails at context creation, not at a launch.
  static const unsigned char junk[64] = {0x7f, 'E', 'L', 'F'};
  uq_code_object_source_t bad = {.variant = "decode_d256_rows8",
                                 .kernel = "uq_decode_d256_rows8",
                                 .data = junk,
                                 .size = sizeof(junk),
                                 .kind = UQ_VARIANT_KIND_DECODE,
                                 .head_dim = 256,
                                 .qg_max = 8};
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_HOST;
  options.code_objects = &bad;
  options.code_object_count = 1;
  uq_status_t status = uq_context_create(&options, &context);
  UQ_EXPECT(status != UQ_OK);
  uq_status_free(status);
  return 0;
}

// Code objects whose metadata disagrees with kernel_abi.h are refused when
// the context is created, with FAILED_PRECONDITION.
static int test_abi_mismatch(void) {
  static const char *const bad[] = {"uq_decode_bad_kind",
                                    "uq_decode_bad_count"};
  for (int i = 0; i < 2; ++i) {
    uq_code_object_source_t sources[4];
    uq_context_options_t options;
    uq_context_options_initialize(&options);
    options.backend = UQ_BACKEND_SIM;
    options.code_object_count = uq_stub_code_objects(bad[i], sources);
    options.code_objects = sources;
    uq_context_t *context = NULL;
    uq_status_t status = uq_context_create(&options, &context);
    printf("  %s: %s\n", bad[i], uq_status_message(status));
    UQ_EXPECT_CODE(status, UQ_STATUS_FAILED_PRECONDITION);
    UQ_EXPECT(context == NULL);
  }
  return 0;
}

// A decode kernel with the right arguments whose metadata caps workgroups
// below one 64-lane wave is refused when a plan needs it.
static int test_workgroup_mismatch(void) {
  uq_code_object_source_t sources[4];
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_SIM;
  options.code_object_count =
      uq_stub_code_objects("uq_decode_small_workgroup", sources);
  options.code_objects = sources;
  uq_context_t *context = NULL;
  UQ_EXPECT_OK(uq_context_create(&options, &context));
  uq_decode_config_t config = good_config();
  uq_plan_t *plan = NULL;
  uq_status_t status = uq_plan_create(context, &config, &plan);
  printf("  %s\n", uq_status_message(status));
  uq_context_destroy(context);
  UQ_EXPECT_CODE(status, UQ_STATUS_FAILED_PRECONDITION);
  UQ_EXPECT(plan == NULL);
  return 0;
}

static int test_no_code_object(void) {
  uq_code_object_source_t none[1];
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_SIM;
  options.code_objects = none;
  options.code_object_count = 0;
  uq_context_t *context = NULL;
  UQ_EXPECT_OK(uq_context_create(&options, &context));
  uq_decode_config_t config = good_config();
  uq_plan_t *plan = NULL;
  uq_status_t status = uq_plan_create(context, &config, &plan);
  int mentions = strstr(uq_status_message(status),
                        "no gfx950 decode kernel for head_dim 256, "
                        "query_group 8 (the table has no gfx950 decode "
                        "kernel)") != NULL;
  UQ_EXPECT_CODE(status, UQ_STATUS_NOT_FOUND);
  uq_context_destroy(context);
  UQ_EXPECT(mentions);
  UQ_EXPECT(plan == NULL);
  return 0;
}

// Variants are picked by their typed records: the smallest qg_max that
// serves the query group; a shape no record serves is UNIMPLEMENTED with the
// table in the message; a record that misstates its code object or has no
// kind is refused at context creation.
static int create_with(uq_code_object_source_t *sources, size_t count,
                       uq_context_t **out_context) {
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_SIM;
  options.code_objects = sources;
  options.code_object_count = count;
  return uq_context_create(&options, out_context) == UQ_OK ? 0 : 1;
}

static int test_variant_records(void) {
  uq_code_object_source_t sources[4];
  size_t count = uq_stub_code_objects(NULL, sources);
  uq_context_t *context = NULL;
  UQ_EXPECT(create_with(sources, count, &context) == 0);
  const uint32_t groups[] = {1, 8, 9, 16};
  const char *const expect[] = {"decode_d256_rows8", "decode_d256_rows8",
                                "decode_d256_rows16", "decode_d256_rows16"};
  // The table as the context lists it (uq_context_variant): the records it
  // was given, in order, and nothing past them.
  size_t listed = 0;
  UQ_EXPECT_OK(uq_context_variant_count(context, &listed));
  UQ_EXPECT_EQ_INT(listed, count);
  for (size_t i = 0; i < count; ++i) {
    const uq_variant_record_t *record = NULL;
    UQ_EXPECT_OK(uq_context_variant(context, i, &record));
    UQ_EXPECT_STREQ(record->variant, sources[i].variant);
    UQ_EXPECT_EQ_INT(record->kind, sources[i].kind);
  }
  const uq_variant_record_t *past = NULL;
  UQ_EXPECT_CODE(uq_context_variant(context, count, &past),
                 UQ_STATUS_OUT_OF_RANGE);
  UQ_EXPECT(past == NULL);
  UQ_EXPECT_CODE(uq_context_variant(NULL, 0, &past),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_context_variant_count(context, NULL),
                 UQ_STATUS_INVALID_ARGUMENT);
  for (int i = 0; i < 4; ++i) {
    uq_decode_config_t config = good_config();
    config.query_group = groups[i];
    uq_plan_t *plan = NULL;
    UQ_EXPECT_OK(uq_plan_create(context, &config, &plan));
    uq_plan_info_t info;
    UQ_EXPECT_OK(uq_plan_query_info(plan, &info));
    UQ_EXPECT_STREQ(info.variant, expect[i]);
    uq_plan_destroy(plan);
  }
  uq_context_destroy(context);

  // Without the qg_max 16 record, QG 12 has no kernel: the message sums
  // up what the table holds for the target (one entry a head dim).
  sources[1] = sources[2];
  UQ_EXPECT(create_with(sources, 2, &context) == 0);
  uq_decode_config_t config = good_config();
  config.query_group = 12;
  uq_plan_t *plan = NULL;
  uq_status_t status = uq_plan_create(context, &config, &plan);
  printf("  %s\n", uq_status_message(status));
  int lists = status && strstr(uq_status_message(status),
                               "(the table's gfx950 decode kernels: D 256 "
                               "QG 1-8)");
  size_t length = status ? strlen(uq_status_message(status)) : 0;
  UQ_EXPECT_CODE(status, UQ_STATUS_UNIMPLEMENTED);
  UQ_EXPECT(lists);
  UQ_EXPECT(length < 160);
  UQ_EXPECT(plan == NULL);
  uq_context_destroy(context);

  // A record whose stated LDS is not the code object's (a stale table), and
  // one without a kind.
  count = uq_stub_code_objects(NULL, sources);
  sources[0].lds_bytes = 8448;
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_SIM;
  options.code_objects = sources;
  options.code_object_count = count;
  context = NULL;
  UQ_EXPECT_CODE(uq_context_create(&options, &context),
                 UQ_STATUS_FAILED_PRECONDITION);
  UQ_EXPECT(context == NULL);
  sources[0].lds_bytes = 0;
  sources[0].kind = UQ_VARIANT_KIND_NONE;
  UQ_EXPECT_CODE(uq_context_create(&options, &context),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT(context == NULL);
  return 0;
}

typedef struct config_case_s {
  const char *what;
  void (*mutate)(uq_decode_config_t *);
  uq_status_code_t code;
} config_case_t;

#define MUTATOR(name, body)                                                    \
  static void name(uq_decode_config_t *c) { body; }
MUTATOR(head_dim_96, c->head_dim = 96)
MUTATOR(head_dim_1024, c->head_dim = 1024)
MUTATOR(head_dim_0, c->head_dim = 0)
MUTATOR(qg_17, c->query_group = 17)
MUTATOR(qg_0, c->query_group = 0)
MUTATOR(slot_128_132, (c->head_dim = 128, c->padded_slot = 132))
MUTATOR(block_8, c->block_size = 8)
MUTATOR(block_512, c->block_size = 512)
MUTATOR(block_24, c->block_size = 24)
MUTATOR(block_0, c->block_size = 0)
MUTATOR(slot_268, c->padded_slot = 268)
MUTATOR(slot_274, c->padded_slot = 274)
MUTATOR(kv_heads_0, c->num_kv_heads = 0)
MUTATOR(mbps_0, c->max_blocks_per_seq = 0)
MUTATOR(blocks_0, c->num_blocks = 0)
MUTATOR(batch_0, c->max_batch = 0)
MUTATOR(splits_big, c->max_kv_splits = 100000)
MUTATOR(scale_nan, c->softmax_scale = NAN)
MUTATOR(scale_inf, c->softmax_scale = INFINITY)
MUTATOR(query_f16, c->query_dtype = UQ_DTYPE_F16)
MUTATOR(output_f16, c->output_dtype = UQ_DTYPE_F16)
MUTATOR(output_f32, c->output_dtype = UQ_DTYPE_F32)
MUTATOR(both_f32, c->query_dtype = c->output_dtype = UQ_DTYPE_F32)
MUTATOR(query_dtype_9, c->query_dtype = (uq_dtype_t)9)
MUTATOR(q_head_overlap, c->query_stride_head = 128)
MUTATOR(q_seq_overlap, c->query_stride_seq = 15 * 256)
MUTATOR(q_seq_negative, c->query_stride_seq = -4096)
MUTATOR(o_head_overlap, c->output_stride_head = 255)
MUTATOR(o_seq_overlap, c->output_stride_seq = 256)
MUTATOR(q_stride_too_big, c->query_stride_seq = (int64_t)1 << 33)
MUTATOR(window_too_big, c->sliding_window = 0x80000000u)

static const config_case_t config_cases[] = {
    {"head_dim 96", head_dim_96, UQ_STATUS_UNIMPLEMENTED},
    {"head_dim 1024", head_dim_1024, UQ_STATUS_UNIMPLEMENTED},
    {"head_dim 0", head_dim_0, UQ_STATUS_INVALID_ARGUMENT},
    {"query_group 17", qg_17, UQ_STATUS_UNIMPLEMENTED},
    {"query_group 0", qg_0, UQ_STATUS_INVALID_ARGUMENT},
    {"padded_slot 132 for head dim 128", slot_128_132,
     UQ_STATUS_INVALID_ARGUMENT},
    {"block_size 8", block_8, UQ_STATUS_UNIMPLEMENTED},
    {"block_size 512", block_512, UQ_STATUS_UNIMPLEMENTED},
    {"block_size 24", block_24, UQ_STATUS_INVALID_ARGUMENT},
    {"block_size 0", block_0, UQ_STATUS_INVALID_ARGUMENT},
    {"padded_slot 268", slot_268, UQ_STATUS_INVALID_ARGUMENT},
    {"padded_slot 274", slot_274, UQ_STATUS_INVALID_ARGUMENT},
    {"num_kv_heads 0", kv_heads_0, UQ_STATUS_INVALID_ARGUMENT},
    {"max_blocks_per_seq 0", mbps_0, UQ_STATUS_INVALID_ARGUMENT},
    {"num_blocks 0", blocks_0, UQ_STATUS_INVALID_ARGUMENT},
    {"max_batch 0", batch_0, UQ_STATUS_INVALID_ARGUMENT},
    {"max_kv_splits 100000", splits_big, UQ_STATUS_INVALID_ARGUMENT},
    {"softmax_scale NaN", scale_nan, UQ_STATUS_INVALID_ARGUMENT},
    {"softmax_scale inf", scale_inf, UQ_STATUS_INVALID_ARGUMENT},
    // Activations are bf16 or f16 (since 0.9), the output in the query's.
    {"query f16, output bf16", query_f16, UQ_STATUS_INVALID_ARGUMENT},
    {"query bf16, output f16", output_f16, UQ_STATUS_INVALID_ARGUMENT},
    {"output dtype f32", output_f32, UQ_STATUS_INVALID_ARGUMENT},
    {"query and output f32", both_f32, UQ_STATUS_INVALID_ARGUMENT},
    {"query dtype 9", query_dtype_9, UQ_STATUS_INVALID_ARGUMENT},
    {"query heads overlap", q_head_overlap, UQ_STATUS_INVALID_ARGUMENT},
    {"query sequences overlap", q_seq_overlap, UQ_STATUS_INVALID_ARGUMENT},
    {"query stride negative", q_seq_negative, UQ_STATUS_INVALID_ARGUMENT},
    {"output heads overlap", o_head_overlap, UQ_STATUS_INVALID_ARGUMENT},
    {"output sequences overlap", o_seq_overlap, UQ_STATUS_INVALID_ARGUMENT},
    {"query stride past int32", q_stride_too_big, UQ_STATUS_INVALID_ARGUMENT},
    {"sliding_window past int32", window_too_big, UQ_STATUS_INVALID_ARGUMENT},
};

// Every rule on every backend that exists here (host, and sim with stubs):
// validation is backend-independent.
static int test_config_validation(void) {
  uq_backend_t backends[2] = {UQ_BACKEND_HOST, UQ_BACKEND_SIM};
  for (int b = 0; b < 2; ++b) {
    uq_context_t *context = NULL;
    UQ_EXPECT_OK(make_context(backends[b], NULL, 1, &context));
    uq_decode_config_t config = good_config();
    uq_plan_t *plan = NULL;
    UQ_EXPECT_OK(uq_plan_create(context, &config, &plan));
    uq_plan_destroy(plan);
    config.query_dtype = config.output_dtype = UQ_DTYPE_F16;
    plan = NULL;
    UQ_EXPECT_OK(uq_plan_create(context, &config, &plan));
    uq_plan_destroy(plan);
    for (size_t i = 0; i < sizeof(config_cases) / sizeof(config_cases[0]);
         ++i) {
      config = good_config();
      config_cases[i].mutate(&config);
      plan = (uq_plan_t *)1;
      uq_status_t status = uq_plan_create(context, &config, &plan);
      if (uq_status_code(status) != config_cases[i].code || plan != NULL) {
        fprintf(stderr, "  %s on %s: expected %s, got %s (%s)\n",
                config_cases[i].what, uq_backend_name(backends[b]),
                uq_status_code_name(config_cases[i].code),
                uq_status_code_name(uq_status_code(status)),
                uq_status_message(status));
        uq_status_free(status);
        uq_context_destroy(context);
        return 1;
      }
      uq_status_free(status);
    }
    UQ_EXPECT_CODE(uq_plan_create(context, NULL, &plan),
                   UQ_STATUS_INVALID_ARGUMENT);
    UQ_EXPECT_CODE(uq_plan_create(NULL, &config, &plan),
                   UQ_STATUS_INVALID_ARGUMENT);
    uq_context_destroy(context);
  }
  return 0;
}

// The run-time rules, on host and on sim (stub kernels): batch, NULL
// pointers, seq lens past the table, block ids outside the cache.
static int check_run_rules(uq_backend_t backend) {
  uq_context_t *context = NULL;
  UQ_EXPECT_OK(make_context(backend, NULL, 1, &context));
  uq_problem_shape_t shape = small_shape();
  uq_problem_t *problem = NULL;
  UQ_EXPECT_OK(uq_problem_create(&shape, &problem));
  uq_plan_t *plan = NULL;
  UQ_EXPECT_OK(uq_plan_create(context, &problem->config, &plan));
  uq_problem_device_t d;
  UQ_EXPECT_OK(uq_problem_upload(problem, context, &d));
  uint32_t B = shape.batch;
  int rc = 1;
#define RUN(batch, q, c, t, l, o)                                              \
  uq_plan_run(plan, (batch), (q), (c), (t), (l), (o), NULL)
#define CHECK(expr, code)                                                      \
  do {                                                                         \
    uq_status_t s_ = (expr);                                                   \
    if (uq_status_code(s_) != (code)) {                                        \
      fprintf(stderr, "  %s:%d %s: expected %s, got %s (%s)\n", __FILE__,      \
              __LINE__, #expr, uq_status_code_name(code),                      \
              uq_status_code_name(uq_status_code(s_)), uq_status_message(s_)); \
      uq_status_free(s_);                                                      \
      goto done;                                                               \
    }                                                                          \
    uq_status_free(s_);                                                        \
  } while (0)
  CHECK(RUN(B, d.query, d.cache, d.block_tables, d.seq_lens, d.output),
        UQ_STATUS_OK);
  CHECK(RUN(0, d.query, d.cache, d.block_tables, d.seq_lens, d.output),
        UQ_STATUS_INVALID_ARGUMENT);
  CHECK(RUN(B + 1, d.query, d.cache, d.block_tables, d.seq_lens, d.output),
        UQ_STATUS_INVALID_ARGUMENT);
  CHECK(RUN(B, 0, d.cache, d.block_tables, d.seq_lens, d.output),
        UQ_STATUS_INVALID_ARGUMENT);
  CHECK(RUN(B, d.query, 0, d.block_tables, d.seq_lens, d.output),
        UQ_STATUS_INVALID_ARGUMENT);
  CHECK(RUN(B, d.query, d.cache, 0, d.seq_lens, d.output),
        UQ_STATUS_INVALID_ARGUMENT);
  CHECK(RUN(B, d.query, d.cache, d.block_tables, 0, d.output),
        UQ_STATUS_INVALID_ARGUMENT);
  CHECK(RUN(B, d.query, d.cache, d.block_tables, d.seq_lens, 0),
        UQ_STATUS_INVALID_ARGUMENT);
  CHECK(uq_plan_run(NULL, B, d.query, d.cache, d.block_tables, d.seq_lens,
                    d.output, NULL),
        UQ_STATUS_INVALID_ARGUMENT);

  uint32_t mbps = problem->config.max_blocks_per_seq;
  int32_t bad_len[3] = {5, (int32_t)(mbps * 16 + 1), 7};
  CHECK(uq_context_upload(context, d.seq_lens, bad_len, sizeof(bad_len)),
        UQ_STATUS_OK);
  CHECK(RUN(B, d.query, d.cache, d.block_tables, d.seq_lens, d.output),
        UQ_STATUS_OUT_OF_RANGE);
  bad_len[1] = -1;
  CHECK(uq_context_upload(context, d.seq_lens, bad_len, sizeof(bad_len)),
        UQ_STATUS_OK);
  CHECK(RUN(B, d.query, d.cache, d.block_tables, d.seq_lens, d.output),
        UQ_STATUS_OUT_OF_RANGE);
  CHECK(uq_context_upload(context, d.seq_lens, problem->seq_lens,
                          B * sizeof(int32_t)),
        UQ_STATUS_OK);
  // A block id past the cache in the used part of the last row (its
  // sequence is max_seq long, so entry 1 is used), then a negative one.
  size_t last_row = (size_t)(B - 1) * mbps;
  int32_t saved = problem->block_tables[last_row + 1];
  int32_t bad_id = (int32_t)problem->config.num_blocks;
  CHECK(uq_context_upload(context,
                          d.block_tables + (last_row + 1) * sizeof(int32_t),
                          &bad_id, sizeof(bad_id)),
        UQ_STATUS_OK);
  CHECK(RUN(B, d.query, d.cache, d.block_tables, d.seq_lens, d.output),
        UQ_STATUS_OUT_OF_RANGE);
  bad_id = -3;
  CHECK(uq_context_upload(context,
                          d.block_tables + (last_row + 1) * sizeof(int32_t),
                          &bad_id, sizeof(bad_id)),
        UQ_STATUS_OK);
  CHECK(RUN(B, d.query, d.cache, d.block_tables, d.seq_lens, d.output),
        UQ_STATUS_OUT_OF_RANGE);
  // An unused entry past the sequence may hold anything.
  CHECK(uq_context_upload(context,
                          d.block_tables + (last_row + 1) * sizeof(int32_t),
                          &saved, sizeof(saved)),
        UQ_STATUS_OK);
  bad_id = 1 << 30;
  CHECK(uq_context_upload(
            context, d.block_tables + (last_row + mbps - 1) * sizeof(int32_t),
            &bad_id, sizeof(bad_id)),
        UQ_STATUS_OK);
  CHECK(RUN(B, d.query, d.cache, d.block_tables, d.seq_lens, d.output),
        UQ_STATUS_OK);
  // Sinks are read back and checked: finite or -inf, never NaN or +inf.
  uint32_t hq = problem->config.num_kv_heads * problem->config.query_group;
  float sink_values[64];
  for (uint32_t h = 0; h < hq && h < 64; ++h)
    sink_values[h] = h == 1 ? -INFINITY : (float)h;
  uq_device_ptr_t sinks = 0;
  CHECK(uq_context_alloc(context, hq * sizeof(float), &sinks), UQ_STATUS_OK);
  CHECK(uq_context_upload(context, sinks, sink_values, hq * sizeof(float)),
        UQ_STATUS_OK);
  CHECK(uq_plan_run_with_sinks(plan, B, d.query, d.cache, d.block_tables,
                               d.seq_lens, sinks, d.output, NULL),
        UQ_STATUS_OK);
  for (int bad = 0; bad < 2; ++bad) {
    float value = bad ? INFINITY : NAN;
    CHECK(uq_context_upload(context, sinks + (hq - 1) * sizeof(float), &value,
                            sizeof(value)),
          UQ_STATUS_OK);
    uq_status_t s =
        uq_plan_run_with_sinks(plan, B, d.query, d.cache, d.block_tables,
                               d.seq_lens, sinks, d.output, NULL);
    uq_status_code_t code = uq_status_code(s);
    uq_status_free(s);
    if (code != UQ_STATUS_INVALID_ARGUMENT) {
      fprintf(stderr, "  sink %g: expected INVALID_ARGUMENT, got %s\n",
              (double)value, uq_status_code_name(code));
      uq_status_free(uq_context_free(context, sinks));
      goto done;
    }
  }
  CHECK(uq_plan_run_with_sinks(NULL, B, d.query, d.cache, d.block_tables,
                               d.seq_lens, sinks, d.output, NULL),
        UQ_STATUS_INVALID_ARGUMENT);
  CHECK(uq_context_free(context, sinks), UQ_STATUS_OK);
  rc = 0;
done:
#undef CHECK
#undef RUN
  uq_problem_device_free(context, &d);
  uq_plan_destroy(plan);
  uq_context_destroy(context);
  uq_problem_destroy(problem);
  return rc;
}

static int test_run_validation_host(void) {
  return check_run_rules(UQ_BACKEND_HOST);
}
static int test_run_validation_sim(void) {
  return check_run_rules(UQ_BACKEND_SIM);
}

// Every allocation the context and the plan make goes through the injected
// allocator; failing each one in turn gives RESOURCE_EXHAUSTED and leaks
// nothing (the counter's live count returns to zero).
static int check_failing_allocations(uq_backend_t backend) {
  uq_decode_config_t config = good_config();
  counting_t probe = {0, 0, -1};
  uq_context_t *context = NULL;
  uq_plan_t *plan = NULL;
  UQ_EXPECT_OK(make_context(backend, &probe, 1, &context));
  UQ_EXPECT_OK(uq_plan_create(context, &config, &plan));
  uq_plan_destroy(plan);
  uq_context_destroy(context);
  UQ_EXPECT_EQ_INT(probe.live, 0);
  long total = probe.calls;
  UQ_EXPECT(total > 3);
  for (long fail = 0; fail < total; ++fail) {
    counting_t counter = {0, 0, fail};
    context = NULL;
    plan = NULL;
    uq_status_t status = make_context(backend, &counter, 1, &context);
    if (status == UQ_OK)
      status = uq_plan_create(context, &config, &plan);
    uq_status_code_t code = uq_status_code(status);
    uq_status_free(status);
    uq_plan_destroy(plan);
    uq_context_destroy(context);
    if (code != UQ_STATUS_RESOURCE_EXHAUSTED || counter.live != 0) {
      fprintf(stderr, "  failing allocation %ld of %ld: %s, %ld live\n", fail,
              total, uq_status_code_name(code), counter.live);
      return 1;
    }
  }
  printf("  %s: %ld allocations, each failure reported\n",
         uq_backend_name(backend), total);
  return 0;
}

static int test_failing_allocator_host(void) {
  return check_failing_allocations(UQ_BACKEND_HOST);
}
static int test_failing_allocator_sim(void) {
  return check_failing_allocations(UQ_BACKEND_SIM);
}

// After the plan exists, runs make no allocation through the context's
// allocator (the property that makes a run graph-capture safe on HIP).
static int check_run_allocates_nothing(uq_backend_t backend) {
  counting_t counter = {0, 0, -1};
  uq_context_t *context = NULL;
  UQ_EXPECT_OK(make_context(backend, &counter, 1, &context));
  uq_problem_shape_t shape = small_shape();
  shape.batch = 12; // P differs between batch <= 8 and above
  uq_problem_t *problem = NULL;
  UQ_EXPECT_OK(uq_problem_create(&shape, &problem));
  uq_plan_t *plan = NULL;
  UQ_EXPECT_OK(uq_plan_create(context, &problem->config, &plan));
  uq_problem_device_t d;
  UQ_EXPECT_OK(uq_problem_upload(problem, context, &d));
  long before = counter.calls;
  int rc = 0;
  uint32_t batches[] = {12, 1, 8, 9, 3};
  for (int i = 0; i < 5 && !rc; ++i) {
    uq_status_t status =
        uq_plan_run(plan, batches[i], d.query, d.cache, d.block_tables,
                    d.seq_lens, d.output, NULL);
    if (status) {
      fprintf(stderr, "  run: %s\n", uq_status_message(status));
      rc = 1;
    }
    uq_status_free(status);
  }
  long during = counter.calls - before;
  uq_problem_device_free(context, &d);
  uq_plan_destroy(plan);
  uq_context_destroy(context);
  uq_problem_destroy(problem);
  UQ_EXPECT_EQ_INT(rc, 0);
  UQ_EXPECT_EQ_INT(during, 0);
  UQ_EXPECT_EQ_INT(counter.live, 0);
  return 0;
}

static int test_run_allocates_nothing_host(void) {
  return check_run_allocates_nothing(UQ_BACKEND_HOST);
}
static int test_run_allocates_nothing_sim(void) {
  return check_run_allocates_nothing(UQ_BACKEND_SIM);
}

// The workspace holds the largest batch * P over every allowed batch,
// computed here from the policy itself.
static int test_workspace_sizing(void) {
  uq_context_t *context = NULL;
  UQ_EXPECT_OK(make_context(UQ_BACKEND_HOST, NULL, 0, &context));
  uint32_t max_batches[] = {1, 8, 9, 16, 40};
  for (int i = 0; i < 5; ++i) {
    uq_decode_config_t config = good_config();
    config.max_blocks_per_seq = 4096; // 64K tokens: P hits the caps
    config.max_batch = max_batches[i];
    uq_plan_t *plan = NULL;
    UQ_EXPECT_OK(uq_plan_create(context, &config, &plan));
    uint64_t rows = 0;
    uint32_t max_p = 0;
    for (uint32_t b = 1; b <= config.max_batch; ++b) {
      uq_launch_plan_t policy;
      UQ_EXPECT_OK(uq_launch_policy((int32_t)b, 4096, 16, 256, 0, &policy));
      uint32_t p = 0, tgpp = 0;
      UQ_EXPECT_OK(uq_plan_launch_shape(plan, b, &p, &tgpp));
      UQ_EXPECT_EQ_INT(p, policy.num_partitions);
      UQ_EXPECT_EQ_INT(tgpp, policy.tgpp);
      // the seed's walk: tile-groups
      uq_launch_walk_t walk;
      UQ_EXPECT_OK(uq_plan_launch_walk(plan, b, &walk));
      UQ_EXPECT_EQ_INT(walk.num_partitions, p);
      UQ_EXPECT_EQ_INT(walk.groups_per_partition, tgpp);
      UQ_EXPECT_EQ_INT(walk.group_tiles, 16);
      if ((uint64_t)b * p > rows)
        rows = (uint64_t)b * p;
      if (p > max_p)
        max_p = p;
    }
    uq_plan_info_t info;
    UQ_EXPECT_OK(uq_plan_query_info(plan, &info));
    uint64_t expect = rows * 2 * 8 * (256 * 2 + 4 + 4);
    UQ_EXPECT_EQ_INT(info.workspace_bytes, expect);
    UQ_EXPECT_EQ_INT(info.max_partitions, max_p);
    UQ_EXPECT_STREQ(info.variant, "decode_d256_rows8");
    uint32_t p, tgpp;
    UQ_EXPECT_CODE(uq_plan_launch_shape(plan, config.max_batch + 1, &p, &tgpp),
                   UQ_STATUS_INVALID_ARGUMENT);
    uq_launch_walk_t walk;
    UQ_EXPECT_CODE(uq_plan_launch_walk(plan, 0, &walk),
                   UQ_STATUS_INVALID_ARGUMENT);
    UQ_EXPECT_CODE(uq_plan_launch_walk(plan, 1, NULL),
                   UQ_STATUS_INVALID_ARGUMENT);
    uq_plan_destroy(plan);
  }
  uq_context_destroy(context);
  return 0;
}

// The host backend runs the faithful reference with the plan's P/TGPP and
// strides: its output equals a direct reference call bit for bit.
static int test_host_matches_reference(void) {
  uq_context_t *context = NULL;
  UQ_EXPECT_OK(make_context(UQ_BACKEND_HOST, NULL, 0, &context));
  uq_problem_shape_t shape = small_shape();
  shape.fused_qkv = 1;
  shape.max_seq = 700;
  uq_problem_t *problem = NULL;
  UQ_EXPECT_OK(uq_problem_create(&shape, &problem));
  uq_plan_t *plan = NULL;
  UQ_EXPECT_OK(uq_plan_create(context, &problem->config, &plan));
  uq_problem_device_t d;
  UQ_EXPECT_OK(uq_problem_upload(problem, context, &d));
  UQ_EXPECT_OK(uq_plan_run(plan, shape.batch, d.query, d.cache, d.block_tables,
                           d.seq_lens, d.output, NULL));
  size_t n = problem->output_elems;
  uint16_t *got = malloc(n * 2), *ref = malloc(n * 2);
  UQ_EXPECT(got && ref);
  UQ_EXPECT_OK(uq_context_download(context, got, d.output, n * 2));
  uint32_t p, tgpp;
  UQ_EXPECT_OK(uq_plan_launch_shape(plan, shape.batch, &p, &tgpp));
  // The host backend follows the E4M3 rule of the embedded code object.
  uq_plan_info_t info;
  UQ_EXPECT_OK(uq_plan_query_info(plan, &info));
  UQ_EXPECT_OK(uq_problem_faithful(
      problem,
      info.e4m3_saturates ? UQ_FP8_OVERFLOW_SATURATE : UQ_FP8_OVERFLOW_NAN,
      (int32_t)p, (int32_t)tgpp, ref, NULL));
  int same = memcmp(got, ref, n * 2) == 0;
  uq_kernel_counters_t dc, rc;
  UQ_EXPECT_CODE(uq_plan_last_counters(plan, &dc, &rc),
                 UQ_STATUS_UNIMPLEMENTED);
  free(got);
  free(ref);
  uq_problem_device_free(context, &d);
  uq_plan_destroy(plan);
  uq_context_destroy(context);
  uq_problem_destroy(problem);
  UQ_EXPECT(same);
  return 0;
}

static uint64_t load(const uint8_t *bytes, uint32_t offset, uint32_t size) {
  uint64_t value = 0;
  for (uint32_t i = 0; i < size; ++i)
    value |= (uint64_t)bytes[offset + i] << (8 * i);
  return value;
}

// The stub kernels copy their kernarg segments out (decode to `query`,
// reduce to `output`): every explicit and hidden argument the runtime packed
// is checked against what the plan was given. Offsets follow
// gen_stub_kernels.py's natural-alignment layout.
static int test_kernarg_packing_on_sim(void) {
  uq_context_t *context = NULL;
  UQ_EXPECT_OK(make_context(UQ_BACKEND_SIM, NULL, 1, &context));
  uq_problem_shape_t shape = small_shape();
  shape.batch = 10;
  shape.fused_qkv = 1;
  shape.softmax_scale = 0.0625f * 1.5f;
  uq_problem_t *problem = NULL;
  UQ_EXPECT_OK(uq_problem_create(&shape, &problem));
  problem->config.sliding_window = 300;
  uq_plan_t *plan = NULL;
  UQ_EXPECT_OK(uq_plan_create(context, &problem->config, &plan));
  uq_problem_device_t d;
  UQ_EXPECT_OK(uq_problem_upload(problem, context, &d));
  uint32_t B = 9;
  uint32_t num_sinks =
      problem->config.num_kv_heads * problem->config.query_group;
  uq_device_ptr_t sinks = 0;
  UQ_EXPECT_OK(uq_context_alloc(context, num_sinks * sizeof(float), &sinks));
  float *host_sinks = calloc(num_sinks, sizeof(float));
  UQ_EXPECT(host_sinks != NULL);
  UQ_EXPECT_OK(
      uq_context_upload(context, sinks, host_sinks, num_sinks * sizeof(float)));
  free(host_sinks);
  UQ_EXPECT_OK(uq_plan_run_with_sinks(plan, B, d.query, d.cache, d.block_tables,
                                      d.seq_lens, sinks, d.output, NULL));
  uint8_t dk[352], rk[312];
  UQ_EXPECT_OK(uq_context_download(context, dk, d.query, sizeof(dk)));
  UQ_EXPECT_OK(uq_context_download(context, rk, d.output, sizeof(rk)));
  uq_kernel_counters_t dc, rc;
  UQ_EXPECT_OK(uq_plan_last_counters(plan, &dc, &rc));
  uint32_t p = 0, tgpp = 0;
  UQ_EXPECT_OK(uq_plan_launch_shape(plan, B, &p, &tgpp));
  const uq_decode_config_t config = problem->config; // kept past destroy
  const uq_decode_config_t *c = &config;
  uint32_t Hk = c->num_kv_heads, Hq = Hk * c->query_group;
  uint32_t scale_bits;
  memcpy(&scale_bits, &shape.softmax_scale, 4);
  const uq_problem_device_t given = d; // the free below zeroes d
  uq_problem_device_free(context, &d);
  UQ_EXPECT_OK(uq_context_free(context, sinks));
  uq_plan_destroy(plan);
  uq_context_destroy(context);
  uq_problem_destroy(problem);

  // Decode: 7 pointers, 11 dwords, the query_start_loc pointer at 104 and
  // search_seqs, the output at 120, its strides and the sinks at 136,
  // act_f16 at 144 (a bf16 plan); hidden from 152.
  uint64_t segm_out = load(dk, 0, 8), segm_max = load(dk, 8, 8);
  uint64_t segm_sum = load(dk, 16, 8);
  UQ_EXPECT(segm_out && segm_max && segm_sum);
  UQ_EXPECT(segm_out != segm_max && segm_max != segm_sum);
  UQ_EXPECT_EQ_HEX(load(dk, 24, 8), given.query);
  UQ_EXPECT_EQ_HEX(load(dk, 32, 8), given.cache);
  UQ_EXPECT_EQ_HEX(load(dk, 40, 8), given.block_tables);
  UQ_EXPECT_EQ_HEX(load(dk, 48, 8), given.seq_lens);
  UQ_EXPECT_EQ_INT(load(dk, 56, 4), Hk);
  UQ_EXPECT_EQ_INT(load(dk, 60, 4), p);
  UQ_EXPECT_EQ_INT(load(dk, 64, 4), tgpp);
  UQ_EXPECT_EQ_INT(load(dk, 68, 4), c->block_size);
  UQ_EXPECT_EQ_INT(load(dk, 72, 4), c->padded_slot);
  UQ_EXPECT_EQ_INT(load(dk, 76, 4), (Hq + 2 * Hk) * 256);
  UQ_EXPECT_EQ_INT(load(dk, 80, 4), 256);
  UQ_EXPECT_EQ_INT(load(dk, 84, 4), c->max_blocks_per_seq);
  UQ_EXPECT_EQ_HEX(load(dk, 88, 4), scale_bits);
  UQ_EXPECT_EQ_INT(load(dk, 92, 4), 300); // sliding window
  UQ_EXPECT_EQ_INT(load(dk, 96, 4), c->query_group);
  UQ_EXPECT_EQ_HEX(load(dk, 104, 8), 0); // query_start_loc: a decode
  UQ_EXPECT_EQ_INT(load(dk, 112, 4), 0); // search_seqs
  UQ_EXPECT_EQ_HEX(load(dk, 120, 8), given.output);
  UQ_EXPECT_EQ_INT(load(dk, 128, 4), Hq * 256);
  UQ_EXPECT_EQ_INT(load(dk, 132, 4), 256);
  UQ_EXPECT_EQ_HEX(load(dk, 136, 8), sinks);
  UQ_EXPECT_EQ_INT(load(dk, 144, 4), 0); // act_f16
  UQ_EXPECT_EQ_INT(load(dk, 152, 4), B);
  UQ_EXPECT_EQ_INT(load(dk, 156, 4), Hk);
  UQ_EXPECT_EQ_INT(load(dk, 160, 4), p);
  UQ_EXPECT_EQ_INT(load(dk, 164, 2), 64);
  UQ_EXPECT_EQ_INT(load(dk, 166, 2), 1);
  UQ_EXPECT_EQ_INT(load(dk, 168, 2), 1);
  UQ_EXPECT_EQ_INT(load(dk, 170, 6), 0);      // remainders
  UQ_EXPECT_EQ_INT(load(dk, 192, 8), 0);      // global offset x
  UQ_EXPECT_EQ_INT(load(dk, 152 + 64, 2), 3); // grid dims
  // Reduce: 4 pointers, 5 dwords, the sinks pointer at 56, query_start_loc
  // at 64 (a decode: 0), num_seqs and act_f16; hidden from 80.
  UQ_EXPECT_EQ_HEX(load(rk, 0, 8), given.output);
  UQ_EXPECT_EQ_HEX(load(rk, 8, 8), segm_out);
  UQ_EXPECT_EQ_HEX(load(rk, 16, 8), segm_max);
  UQ_EXPECT_EQ_HEX(load(rk, 24, 8), segm_sum);
  UQ_EXPECT_EQ_INT(load(rk, 32, 4), Hk);
  UQ_EXPECT_EQ_INT(load(rk, 36, 4), c->query_group);
  UQ_EXPECT_EQ_INT(load(rk, 40, 4), p);
  UQ_EXPECT_EQ_INT(load(rk, 44, 4), Hq * 256);
  UQ_EXPECT_EQ_INT(load(rk, 48, 4), 256);
  UQ_EXPECT_EQ_HEX(load(rk, 56, 8), sinks);
  UQ_EXPECT_EQ_HEX(load(rk, 64, 8), 0);
  UQ_EXPECT_EQ_INT(load(rk, 72, 4), B);
  UQ_EXPECT_EQ_INT(load(rk, 76, 4), 0); // act_f16
  UQ_EXPECT_EQ_INT(load(rk, 80, 4), B);
  UQ_EXPECT_EQ_INT(load(rk, 84, 4), Hq);
  UQ_EXPECT_EQ_INT(load(rk, 88, 4), 4);
  UQ_EXPECT_EQ_INT(load(rk, 92, 2), 64);
  UQ_EXPECT_EQ_INT(load(rk, 80 + 64, 2), 3);
  // The simulator ran every workgroup of both grids.
  UQ_EXPECT_EQ_INT(dc.workgroups, (uint64_t)B * Hk * p);
  UQ_EXPECT_EQ_INT(rc.workgroups, (uint64_t)B * Hq * 4);
  return 0;
}

// Two threads hammer one sim context's memory API; the context mutex keeps
// the (not thread-safe) simulator consistent.
typedef struct worker_s {
  uq_context_t *context;
  int id;
  int failed;
} worker_t;

static void *worker_main(void *arg) {
  worker_t *w = arg;
  for (int i = 0; i < 200 && !w->failed; ++i) {
    uint8_t out[512], in[512];
    memset(in, w->id * 31 + i, sizeof(in));
    uq_device_ptr_t ptr = 0;
    uq_status_t status = uq_context_alloc(w->context, sizeof(in), &ptr);
    if (!status)
      status = uq_context_upload(w->context, ptr, in, sizeof(in));
    if (!status)
      status = uq_context_download(w->context, out, ptr, sizeof(out));
    if (!status)
      status = uq_context_free(w->context, ptr);
    if (status || memcmp(in, out, sizeof(in)) != 0)
      w->failed = 1;
    uq_status_free(status);
  }
  return NULL;
}

static int test_context_threads(void) {
  uq_context_t *context = NULL;
  UQ_EXPECT_OK(make_context(UQ_BACKEND_SIM, NULL, 0, &context));
  worker_t workers[2] = {{context, 1, 0}, {context, 2, 0}};
  pthread_t threads[2];
  for (int i = 0; i < 2; ++i)
    pthread_create(&threads[i], NULL, worker_main, &workers[i]);
  for (int i = 0; i < 2; ++i)
    pthread_join(threads[i], NULL);
  uq_context_destroy(context);
  UQ_EXPECT_EQ_INT(workers[0].failed, 0);
  UQ_EXPECT_EQ_INT(workers[1].failed, 0);
  return 0;
}

static int test_memory_api_misuse(void) {
  uq_context_t *context = NULL;
  UQ_EXPECT_OK(make_context(UQ_BACKEND_HOST, NULL, 0, &context));
  uq_device_ptr_t ptr = 0;
  UQ_EXPECT_CODE(uq_context_alloc(context, 0, &ptr),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_context_alloc(NULL, 16, &ptr), UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_context_upload(context, 0, "x", 1),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_context_download(context, NULL, 8, 1),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_OK(uq_context_free(context, 0));
  uq_backend_t backend;
  UQ_EXPECT_OK(uq_context_backend(context, &backend));
  UQ_EXPECT_EQ_INT(backend, UQ_BACKEND_HOST);
  uq_context_destroy(context);
  uq_context_destroy(NULL);
  uq_plan_destroy(NULL);
  return 0;
}

static const uq_test_case_t tests[] = {
    {"version_and_names", test_version_and_names},
    {"context_options", test_context_options},
    {"abi_mismatch", test_abi_mismatch},
    {"workgroup_mismatch", test_workgroup_mismatch},
    {"no_code_object", test_no_code_object},
    {"variant_records", test_variant_records},
    {"config_validation", test_config_validation},
    {"run_validation_host", test_run_validation_host},
    {"run_validation_sim", test_run_validation_sim},
    {"failing_allocator_host", test_failing_allocator_host},
    {"failing_allocator_sim", test_failing_allocator_sim},
    {"run_allocates_nothing_host", test_run_allocates_nothing_host},
    {"run_allocates_nothing_sim", test_run_allocates_nothing_sim},
    {"workspace_sizing", test_workspace_sizing},
    {"host_matches_reference", test_host_matches_reference},
    {"kernarg_packing_on_sim", test_kernarg_packing_on_sim},
    {"context_threads", test_context_threads},
    {"memory_api_misuse", test_memory_api_misuse},
    {0, 0}};

int main(int argc, char **argv) {
  seed = uq_test_seed();
  return uq_test_main(argc, argv, tests);
}
