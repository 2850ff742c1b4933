// A tiny unit-test harness shared by the C tests: assertion macros that never
// compile out and print both sides, and a runner over a table of tests.
//
//   static int test_foo(void) { UQ_EXPECT_EQ_INT(1, 1); return 0; }
//   static const uq_test_case_t tests[] = {{"foo", test_foo}, {0, 0}};
//   int main(int argc, char **argv) { return uq_test_main(argc, argv, tests); }
//
// A test returns 0 on success, 1 on failure, UQ_TEST_SKIP (77) to skip.
#ifndef UQ_TEST_UNIT_UQ_TEST_H_
#define UQ_TEST_UNIT_UQ_TEST_H_

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "uq/status.h"

#define UQ_TEST_SKIP 77

typedef struct uq_test_case_s {
  const char *name;
  int (*run)(void);
} uq_test_case_t;

#define UQ_TEST_FAIL_(...)                                                     \
  do {                                                                         \
    fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                            \
    fprintf(stderr, __VA_ARGS__);                                              \
    fprintf(stderr, "\n");                                                     \
    return 1;                                                                  \
  } while (0)

#define UQ_EXPECT(cond)                                                        \
  do {                                                                         \
    if (!(cond))                                                               \
      UQ_TEST_FAIL_("expected %s", #cond);                                     \
  } while (0)

#define UQ_EXPECT_EQ_INT(a, b)                                                 \
  do {                                                                         \
    long long uq_a_ = (long long)(a), uq_b_ = (long long)(b);                  \
    if (uq_a_ != uq_b_)                                                        \
      UQ_TEST_FAIL_("expected %s == %s, got %lld and %lld", #a, #b, uq_a_,     \
                    uq_b_);                                                    \
  } while (0)

#define UQ_EXPECT_EQ_HEX(a, b)                                                 \
  do {                                                                         \
    unsigned long long uq_a_ = (unsigned long long)(a),                        \
                       uq_b_ = (unsigned long long)(b);                        \
    if (uq_a_ != uq_b_)                                                        \
      UQ_TEST_FAIL_("expected %s == %s, got 0x%llx and 0x%llx", #a, #b, uq_a_, \
                    uq_b_);                                                    \
  } while (0)

// |a - b| <= tol; NaN on either side fails unless both are NaN.
#define UQ_EXPECT_NEAR(a, b, tol)                                              \
  do {                                                                         \
    double uq_a_ = (double)(a), uq_b_ = (double)(b);                           \
    if (!(isnan(uq_a_) && isnan(uq_b_)) && !(fabs(uq_a_ - uq_b_) <= (tol)))    \
      UQ_TEST_FAIL_("expected %s ~= %s (tol %g), got %.9g and %.9g", #a, #b,   \
                    (double)(tol), uq_a_, uq_b_);                              \
  } while (0)

#define UQ_EXPECT_STREQ(a, b)                                                  \
  do {                                                                         \
    const char *uq_a_ = (a), *uq_b_ = (b);                                     \
    if (strcmp(uq_a_, uq_b_) != 0)                                             \
      UQ_TEST_FAIL_("expected %s == %s, got \"%s\" and \"%s\"", #a, #b, uq_a_, \
                    uq_b_);                                                    \
  } while (0)

// Succeeds when `expr` returns UQ_OK; prints the message otherwise.
#define UQ_EXPECT_OK(expr)                                                     \
  do {                                                                         \
    uq_status_t uq_s_ = (expr);                                                \
    if (uq_s_ != UQ_OK) {                                                      \
      fprintf(stderr, "%s:%d: %s failed: %s: %s\n", __FILE__, __LINE__, #expr, \
              uq_status_code_name(uq_status_code(uq_s_)),                      \
              uq_status_message(uq_s_));                                       \
      uq_status_free(uq_s_);                                                   \
      return 1;                                                                \
    }                                                                          \
  } while (0)

// Succeeds when `expr` fails with `code`; the status is freed.
#define UQ_EXPECT_CODE(expr, code)                                             \
  do {                                                                         \
    uq_status_t uq_s_ = (expr);                                                \
    uq_status_code_t uq_c_ = uq_status_code(uq_s_);                            \
    if (uq_c_ != (code)) {                                                     \
      fprintf(stderr, "%s:%d: %s: expected %s, got %s (%s)\n", __FILE__,       \
              __LINE__, #expr, uq_status_code_name(code),                      \
              uq_status_code_name(uq_c_), uq_status_message(uq_s_));           \
      uq_status_free(uq_s_);                                                   \
      return 1;                                                                \
    }                                                                          \
    uq_status_free(uq_s_);                                                     \
  } while (0)

// The run's random seed: UQ_TEST_SEED when set, else the clock. Printed once
// as "seed: UQ_TEST_SEED=N", so any failure of a randomized test replays.
static inline uint64_t uq_test_seed(void) {
  static uint64_t seed; // per-process test state, not library state
  static int chosen;
  if (!chosen) {
    const char *env = getenv("UQ_TEST_SEED");
    seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
    chosen = 1;
    printf("seed: UQ_TEST_SEED=%llu\n", (unsigned long long)seed);
    fflush(stdout); // a crash must not lose the line that replays it
  }
  return seed;
}

// With `--list` as the only argument: prints the names of `tests`, one a
// line, and returns 1 (the caller exits 0 and runs nothing; a test whose
// main sets up a device calls it first, so the list needs none). Else 0.
// scripts/cuda-test.sh runs a test's cases as processes side by side.
static inline int uq_test_list(int argc, char **argv,
                               const uq_test_case_t *tests) {
  if (argc != 2 || strcmp(argv[1], "--list") != 0)
    return 0;
  for (const uq_test_case_t *t = tests; t->name; ++t)
    printf("%s\n", t->name);
  return 1;
}

// Runs every test in `tests` (terminated by a {0, 0} entry), or only those
// whose names are given on the command line. Prints one line per test and a
// closing "N passed, N failed, N skipped" line (`--list`: uq_test_list).
static inline int uq_test_main(int argc, char **argv,
                               const uq_test_case_t *tests) {
  if (uq_test_list(argc, argv, tests))
    return 0;
  int passed = 0, failed = 0, skipped = 0;
  for (const uq_test_case_t *t = tests; t->name; ++t) {
    if (argc > 1) {
      int wanted = 0;
      for (int i = 1; i < argc; ++i)
        wanted |= strcmp(argv[i], t->name) == 0;
      if (!wanted)
        continue;
    }
    int result = t->run();
    const char *verdict = result == 0              ? "ok"
                          : result == UQ_TEST_SKIP ? "skip"
                                                   : "FAIL";
    printf("[%4s] %s\n", verdict, t->name);
    fflush(stdout);
    if (result == 0)
      ++passed;
    else if (result == UQ_TEST_SKIP)
      ++skipped;
    else
      ++failed;
  }
  printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  if (failed)
    return 1;
  return passed == 0 && skipped > 0 ? UQ_TEST_SKIP : 0;
}

#endif // UQ_TEST_UNIT_UQ_TEST_H_
