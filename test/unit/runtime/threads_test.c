// Concurrent callers (uqrt.h, "Threads") on the sim and host backends:
//   own_plans       N threads, each with its own plan and data on one shared
//                   context, many varlen steps each: every output equals
//                   that thread's single-threaded result, bit for bit.
//   shared_plan     N threads calling one plan: each call either succeeds
//                   with the right output or fails with FAILED_PRECONDITION
//                   naming the plan in use; none races.
//   destroy_waits   uq_plan_destroy on one thread while a run is in flight
//                   on another returns after that run, which completes
//                   (ASan and TSan see any use after free).
//   padded_decode   a decode-only step padded to more rows than sequences
//                   (a CUDA graph's fixed token count) on a plan made with
//                   max_query_len 1; an empty step returns and writes nothing.
// UQ_THREADS (default 8) and UQ_THREAD_CALLS (default 500) scale the first
// two; the TSan build (scripts/test.sh) runs this file too.
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "e2e_case.h"

static uint64_t seed;
static uq_context_t *contexts[2]; // sim, host
static const char *context_names[2] = {"sim", "host"};

static uint32_t env_count(const char *name, uint32_t fallback, uint32_t top) {
  const char *text = getenv(name);
  long value = text ? strtol(text, NULL, 10) : 0;
  return value >= 1 && value <= (long)top ? (uint32_t)value : fallback;
}

// One thread's step: a small mixed varlen problem (decodes, a verify chunk,
// a first chunk) at D 64, its buffers on the context and its plan.
typedef struct step_s {
  uq_context_t *context;
  uq_problem_t *problem;
  uq_problem_device_t device;
  uq_plan_t *plan; // its own, or the shared one
  uint16_t *want, *got;
  size_t output_bytes;
  uint32_t calls, ok, busy;
  const char *failure; // the first failure, for the report
} step_t;

static uq_status_t step_create(uq_context_t *context, uint64_t step_seed,
                               step_t *out) {
  static const int32_t lens[3] = {90, 40, 5};
  static const int32_t q_lens[3] = {1, 4, 5};
  memset(out, 0, sizeof(*out));
  out->context = context;
  uq_problem_shape_t shape = {.batch = 3,
                              .num_kv_heads = 2,
                              .query_group = 4,
                              .head_dim = 64,
                              .block_size = 16,
                              .max_seq = 90,
                              .spare_blocks = 2,
                              .shuffle = 1,
                              .seed = step_seed,
                              .seq_lens = lens,
                              .query_lens = q_lens};
  uq_backend_t backend;
  UQ_RETURN_IF_ERROR(uq_problem_create(&shape, &out->problem), "problem");
  UQ_RETURN_IF_ERROR(uq_context_backend(context, &backend), "backend");
  uq_problem_use_backend(out->problem, backend);
  out->problem->config.max_query_len = out->problem->max_query_len;
  UQ_RETURN_IF_ERROR(uq_problem_upload(out->problem, context, &out->device),
                     "upload");
  out->output_bytes = out->problem->output_elems * sizeof(uint16_t);
  out->want = malloc(out->output_bytes);
  out->got = malloc(out->output_bytes);
  if (!out->want || !out->got)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  return UQ_OK;
}

static void step_destroy(step_t *step) {
  if (step->device.cache)
    uq_problem_device_free(step->context, &step->device);
  uq_problem_destroy(step->problem);
  free(step->want);
  free(step->got);
}

// Poisons the output, runs the step on `plan`, reads the output back.
static uq_status_t step_run(step_t *step, uq_plan_t *plan, uint16_t *into) {
  const uq_problem_t *p = step->problem;
  memset(into, 0xFF, step->output_bytes);
  UQ_RETURN_IF_ERROR(uq_context_upload(step->context, step->device.output, into,
                                       step->output_bytes),
                     "poison");
  uq_status_t status = uq_plan_run_varlen(
      plan, p->shape.batch, p->num_tokens, p->max_query_len, step->device.query,
      step->device.cache, step->device.block_tables, step->device.seq_lens,
      step->device.query_start_loc, step->device.sinks, step->device.output,
      NULL);
  if (status)
    return status;
  return uq_context_download(step->context, into, step->device.output,
                             step->output_bytes);
}

static void *step_loop(void *arg) {
  step_t *step = arg;
  for (uint32_t i = 0; i < step->calls; ++i) {
    uq_status_t status = step_run(step, step->plan, step->got);
    if (uq_status_code(status) == UQ_STATUS_FAILED_PRECONDITION &&
        strstr(uq_status_message(status), "in use")) {
      ++step->busy; // the shared plan refused: a clear status, nothing run
      uq_status_free(status);
      continue;
    }
    if (status) {
      step->failure = "a run failed";
      fprintf(stderr, "  run %u: %s\n", i, uq_status_message(status));
      uq_status_free(status);
      return NULL;
    }
    if (memcmp(step->got, step->want, step->output_bytes) != 0) {
      step->failure = "an output differs from the single-threaded run";
      return NULL;
    }
    ++step->ok;
  }
  return NULL;
}

// Runs `threads` steps; `shared` gives every thread the first one's plan.
static int run_threads(uq_context_t *context, const char *name, int shared) {
  uint32_t threads = env_count("UQ_THREADS", 8, 64);
  uint32_t calls = env_count("UQ_THREAD_CALLS", 500, 100000);
  step_t *steps = calloc(threads, sizeof(*steps));
  pthread_t *ids = calloc(threads, sizeof(*ids));
  UQ_EXPECT(steps && ids);
  for (uint32_t t = 0; t < threads; ++t) {
    UQ_EXPECT_OK(step_create(context, seed + t, &steps[t]));
    if (!shared || t == 0)
      UQ_EXPECT_OK(
          uq_plan_create(context, &steps[t].problem->config, &steps[t].plan));
    else
      steps[t].plan = steps[0].plan;
    // Alone first: the result every concurrent call must reproduce.
    UQ_EXPECT_OK(step_run(&steps[t], steps[t].plan, steps[t].want));
    steps[t].calls = calls;
  }
  for (uint32_t t = 0; t < threads; ++t)
    UQ_EXPECT(pthread_create(&ids[t], NULL, step_loop, &steps[t]) == 0);
  for (uint32_t t = 0; t < threads; ++t)
    pthread_join(ids[t], NULL);
  int failed = 0;
  uint32_t ok = 0, busy = 0;
  for (uint32_t t = 0; t < threads; ++t) {
    if (steps[t].failure) {
      fprintf(stderr, "  %s thread %u: %s\n", name, t, steps[t].failure);
      failed = 1;
    }
    if (steps[t].ok + steps[t].busy != calls)
      failed = 1;
    ok += steps[t].ok;
    busy += steps[t].busy;
  }
  printf("  %s, %u threads x %u calls on %s: %u right, %u refused as in "
         "use\n",
         name, threads, calls, shared ? "one plan" : "their own plans", ok,
         busy);
  if (!shared && busy)
    failed = 1; // a plan of one thread is never busy
  if (shared && ok == 0)
    failed = 1; // the plan served someone
  for (uint32_t t = 0; t < threads; ++t) {
    if (!shared || t == 0)
      uq_plan_destroy(steps[t].plan);
    step_destroy(&steps[t]);
  }
  free(steps);
  free(ids);
  return failed;
}

static int test_own_plans(void) {
  int failed = 0;
  for (int c = 0; c < 2; ++c)
    failed |= run_threads(contexts[c], context_names[c], 0);
  return failed;
}

static int test_shared_plan(void) {
  int failed = 0;
  for (int c = 0; c < 2; ++c)
    failed |= run_threads(contexts[c], context_names[c], 1);
  return failed;
}

typedef struct destroy_case_s {
  step_t step;
  atomic_int started;
  uq_status_t status;
} destroy_case_t;

static void *run_once(void *arg) {
  destroy_case_t *c = arg;
  atomic_store(&c->started, 1);
  c->status = step_run(&c->step, c->step.plan, c->step.got);
  return NULL;
}

static int test_destroy_waits(void) {
  for (int ci = 0; ci < 2; ++ci) {
    destroy_case_t c = {0};
    UQ_EXPECT_OK(step_create(contexts[ci], seed + 100, &c.step));
    UQ_EXPECT_OK(
        uq_plan_create(contexts[ci], &c.step.problem->config, &c.step.plan));
    UQ_EXPECT_OK(step_run(&c.step, c.step.plan, c.step.want));
    pthread_t id;
    UQ_EXPECT(pthread_create(&id, NULL, run_once, &c) == 0);
    while (!atomic_load(&c.started))
      ;
    // Past the upload, inside the run (a sim run takes milliseconds).
    nanosleep(&(struct timespec){0, 2000000}, NULL);
    uq_plan_destroy(c.step.plan);
    pthread_join(id, NULL);
    uq_status_t status = c.status;
    if (uq_status_code(status) == UQ_STATUS_OK) {
      UQ_EXPECT(memcmp(c.step.got, c.step.want, c.step.output_bytes) == 0);
    } else {
      // Only if the destroy came before the run entered the plan: the run
      // must not have started, and the test cannot tell; report it.
      fprintf(stderr, "  %s: run returned %s\n", context_names[ci],
              uq_status_message(status));
      uq_status_free(status);
      return 1;
    }
    step_destroy(&c.step);
  }
  return 0;
}

// 3 decodes in 9 rows: a vLLM step padded for its captured graph. The plan
// is made for decodes (max_query_len 1) with max_num_tokens 9; rows 3..8
// are not written. Then the empty steps.
static int test_padded_decode(void) {
  for (int ci = 0; ci < 2; ++ci) {
    uq_context_t *context = contexts[ci];
    static const int32_t lens[3] = {70, 1, 33};
    uq_problem_shape_t shape = {.batch = 3,
                                .num_kv_heads = 2,
                                .query_group = 8,
                                .head_dim = 128,
                                .block_size = 16,
                                .max_seq = 70,
                                .shuffle = 1,
                                .seed = seed + 200,
                                .seq_lens = lens,
                                .query_len = 1};
    uq_problem_t *p = NULL;
    uq_backend_t backend;
    UQ_EXPECT_OK(uq_problem_create(&shape, &p));
    UQ_EXPECT_OK(uq_context_backend(context, &backend));
    uq_problem_use_backend(p, backend);
    uq_decode_config_t config = p->config;
    config.max_query_len = 1;
    config.max_num_tokens = 9;
    uq_plan_t *plan = NULL;
    UQ_EXPECT_OK(uq_plan_create(context, &config, &plan));
    uq_problem_device_t d;
    UQ_EXPECT_OK(uq_problem_upload(p, context, &d));
    const size_t row = (size_t)config.query_stride_seq,
                 orow = (size_t)config.output_stride_seq;
    uq_device_ptr_t q9, o9;
    UQ_EXPECT_OK(uq_context_alloc(context, 9 * row * 2, &q9));
    UQ_EXPECT_OK(uq_context_alloc(context, 9 * orow * 2, &o9));
    uint16_t *buf = malloc(9 * (row > orow ? row : orow) * 2);
    uint16_t *want = malloc(3 * orow * 2);
    UQ_EXPECT(buf && want);
    memset(buf, 0x3C, 9 * row * 2);
    memcpy(buf, p->query, 3 * row * 2);
    UQ_EXPECT_OK(uq_context_upload(context, q9, buf, 9 * row * 2));
    memset(buf, 0xFF, 9 * orow * 2);
    UQ_EXPECT_OK(uq_context_upload(context, o9, buf, 9 * orow * 2));
    UQ_EXPECT_OK(uq_plan_run_varlen(plan, 3, 9, 1, q9, d.cache, d.block_tables,
                                    d.seq_lens, d.query_start_loc, 0, o9,
                                    NULL));
    UQ_EXPECT_OK(uq_context_download(context, buf, o9, 9 * orow * 2));
    for (size_t e = 3 * orow; e < 9 * orow; ++e)
      UQ_EXPECT_EQ_HEX(buf[e], 0xFFFF);
    // The same three rows as the unpadded step.
    memcpy(want, buf, 3 * orow * 2);
    UQ_EXPECT_OK(uq_plan_run_varlen(plan, 3, 3, 1, q9, d.cache, d.block_tables,
                                    d.seq_lens, d.query_start_loc, 0, o9,
                                    NULL));
    UQ_EXPECT_OK(uq_context_download(context, buf, o9, 3 * orow * 2));
    UQ_EXPECT(memcmp(buf, want, 3 * orow * 2) == 0);
    // Empty steps return and write nothing; past the plan's limits they
    // still name the field.
    memset(buf, 0xFF, 9 * orow * 2);
    UQ_EXPECT_OK(uq_context_upload(context, o9, buf, 9 * orow * 2));
    UQ_EXPECT_OK(uq_plan_run_varlen(plan, 0, 0, 0, q9, d.cache, d.block_tables,
                                    d.seq_lens, d.query_start_loc, 0, o9,
                                    NULL));
    UQ_EXPECT_OK(uq_plan_run_varlen(plan, 3, 0, 1, q9, d.cache, d.block_tables,
                                    d.seq_lens, d.query_start_loc, 0, o9,
                                    NULL));
    UQ_EXPECT_OK(uq_context_download(context, buf, o9, 9 * orow * 2));
    for (size_t e = 0; e < 9 * orow; ++e)
      UQ_EXPECT_EQ_HEX(buf[e], 0xFFFF);
    UQ_EXPECT_CODE(uq_plan_run_varlen(plan, 0, 10, 1, q9, d.cache,
                                      d.block_tables, d.seq_lens,
                                      d.query_start_loc, 0, o9, NULL),
                   UQ_STATUS_INVALID_ARGUMENT);
    UQ_EXPECT_OK(uq_context_free(context, q9));
    UQ_EXPECT_OK(uq_context_free(context, o9));
    free(buf);
    free(want);
    uq_problem_device_free(context, &d);
    uq_plan_destroy(plan);
    uq_problem_destroy(p);
  }
  return 0;
}

static const uq_test_case_t tests[] = {{"own_plans", test_own_plans},
                                       {"shared_plan", test_shared_plan},
                                       {"destroy_waits", test_destroy_waits},
                                       {"padded_decode", test_padded_decode},
                                       {0, 0}};

int main(int argc, char **argv) {
  seed = uq_test_seed();
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  const uq_backend_t backends[2] = {UQ_BACKEND_SIM, UQ_BACKEND_HOST};
  for (int c = 0; c < 2; ++c) {
    options.backend = backends[c];
    uq_status_t status = uq_context_create(&options, &contexts[c]);
    if (status) {
      fprintf(stderr, "cannot create the %s context: %s\n", context_names[c],
              uq_status_message(status));
      uq_status_free(status);
      return 1;
    }
  }
  int rc = uq_test_main(argc, argv, tests);
  for (int c = 0; c < 2; ++c)
    uq_context_destroy(contexts[c]);
  return rc;
}
