// The simulator treats every code object as untrusted: mutated copies of
// real code objects (every byte XOR a mask, and random multi-byte changes)
// are loaded and launched, and each must load, run or fail with a status:
// never crash (ASan/UBSan catch what a release build would not) and never
// hang (each launch has an instruction budget).
//
//   sim_mutation_test [--seconds S] [--full] OBJECT.hsaco...
//
// Without --full, offsets are sampled (from uq_test_seed, printed, and each
// object's file name) until S seconds (default 10) are spent, split evenly
// between the objects; --full sweeps every offset with every mask
// (scripts/fuzz-sim.sh). A crash in a release build shows as a signal: the
// last "OBJECT: sweeping" line and the seed replay it.
#define _POSIX_C_SOURCE 200809L // clock_gettime
#include <stdlib.h>
#include <time.h>

#include "codeobj/codeobj.h"
#include "first_entry.h"
#include "sim/sim.h"
#include "tools/common/file_util.h"
#include "uq_test.h"

// A launch's budget: the unmutated kernels below finish well within it.
#define BUDGET 2000000ull
#define ARG_BUFFER (512u << 10)

static const uint8_t kMasks[] = {0xFF, 0x01, 0x80, 0x10};

typedef struct stats_s {
  uint64_t runs, load_errors, launch_errors, budget_stops, completed;
} stats_t;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Loads `bytes` and launches each kernel once with zeroed buffers for its
// pointer arguments and 16 for its by-value ones (powers of two that pass
// typical shape checks), one workgroup of its required (or 64) work-items.
static void run_one(const uint8_t *bytes, size_t size, stats_t *s) {
  ++s->runs;
  uq_sim_t *sim = NULL;
  uq_sim_program_t *prog = NULL;
  uq_status_t st = uq_sim_create(&sim);
  if (!st)
    st = uq_sim_program_load(sim, bytes, size, &prog);
  if (st) {
    ++s->load_errors;
    uq_status_free(st);
    uq_sim_destroy(sim);
    return;
  }
  const uq_code_object_t *co = uq_sim_program_code_object(prog);
  for (size_t k = 0; k < uq_code_object_kernel_count(co); ++k) {
    const uq_kernel_info_t *ki = uq_code_object_kernel_at(co, k);
    size_t ka_size = ki->kernarg_segment_size;
    uint8_t *ka = calloc(1, ka_size ? ka_size : 1);
    uint64_t bufs[64];
    uint32_t nbufs = 0;
    for (uint32_t a = 0; ka && a < ki->arg_count; ++a) {
      const uq_kernarg_t *arg = &ki->args[a];
      if ((uint64_t)arg->offset + arg->size > ka_size)
        continue;
      uint64_t v = 16;
      if (arg->size == 8 && nbufs < 64) {
        uint64_t p = 0;
        uq_status_t as = uq_sim_alloc(sim, ARG_BUFFER, &p);
        if (as) {
          uq_status_free(as);
          continue;
        }
        uint8_t *zero = calloc(1, ARG_BUFFER);
        if (zero)
          uq_status_free(uq_sim_write(sim, p, zero, ARG_BUFFER));
        free(zero);
        bufs[nbufs++] = p;
        v = p;
      }
      memcpy(ka + arg->offset, &v, arg->size < 8 ? arg->size : 8);
    }
    uint32_t wg[3] = {64, 1, 1};
    if (ki->reqd_workgroup_size[0])
      for (int i = 0; i < 3; ++i)
        wg[i] = ki->reqd_workgroup_size[i] ? ki->reqd_workgroup_size[i] : 1;
    uq_sim_launch_t L = {
        {1, 1, 1}, {wg[0], wg[1], wg[2]}, ka, ka_size, 0, BUDGET, 0};
    st = ka ? uq_sim_launch(sim, prog, ki->name, &L, NULL) : UQ_OK;
    if (!st)
      ++s->completed;
    else if (uq_status_code(st) == UQ_STATUS_RESOURCE_EXHAUSTED)
      ++s->budget_stops;
    else
      ++s->launch_errors;
    uq_status_free(st);
    for (uint32_t i = 0; i < nbufs; ++i)
      uq_status_free(uq_sim_free(sim, bufs[i]));
    free(ka);
  }
  uq_sim_program_destroy(prog);
  uq_sim_destroy(sim);
}

// The file range holding the kernels' code: from the first kernel entry's
// bytes (found in the file) to the end of the file's matching bytes.
static void find_code(const uint8_t *file, size_t size, size_t *out_off,
                      size_t *out_len) {
  uq_code_object_t *co = NULL;
  uq_status_t st = uq_code_object_load(file, size, &co);
  if (st) {
    uq_status_free(st);
    return;
  }
  size_t image_size = 0;
  const uint8_t *image = uq_code_object_image(co, &image_size);
  uint64_t lo = uq_test_first_entry(co);
  if (lo < image_size && lo + 32 <= image_size) {
    for (size_t off = 0; off + 32 <= size; off += 4) {
      if (memcmp(file + off, image + lo, 32) == 0) {
        size_t len = 0;
        while (off + len < size && lo + len < image_size &&
               file[off + len] == image[lo + len])
          ++len;
        *out_off = off;
        *out_len = len;
        break;
      }
    }
  }
  uq_code_object_destroy(co);
}

int main(int argc, char **argv) {
  double seconds = 10;
  int full = 0, first = 1;
  for (; first < argc && argv[first][0] == '-'; ++first) {
    if (strcmp(argv[first], "--full") == 0)
      full = 1;
    else if (strcmp(argv[first], "--seconds") == 0 && first + 1 < argc)
      seconds = atof(argv[++first]);
    else {
      fprintf(stderr, "usage: %s [--seconds S] [--full] OBJECT...\n", argv[0]);
      return 2;
    }
  }
  if (first == argc) {
    fprintf(stderr, "%s: no code objects given\n", argv[0]);
    return 2;
  }
  uint64_t seed = uq_test_seed(); // printed: replayable
  int objects = argc - first;
  double per_object = seconds / objects;
  for (int i = first; i < argc; ++i) {
    size_t size = 0;
    char *text = NULL;
    uq_status_t read = uq_file_read(argv[i], &text, &size);
    if (read) {
      fprintf(stderr, "%s: %s\n", argv[0], uq_status_message(read));
      uq_status_free(read);
      return 1;
    }
    uint8_t *orig = (uint8_t *)text;
    uint8_t *buf = malloc(size);
    stats_t s = {0};
    // The unmutated object must run cleanly: otherwise the sweep explores
    // nothing past the first failure.
    run_one(orig, size, &s);
    if (s.completed == 0 || s.load_errors) {
      fprintf(stderr, "%s: the unmutated object does not run\n", argv[i]);
      return 1;
    }
    // Where the code lies in the file: most samples go there, where a
    // mutation reaches the decoder and executor rather than the ELF reader.
    size_t code_off = 0, code_len = size;
    find_code(orig, size, &code_off, &code_len);
    memset(&s, 0, sizeof(s));
    // Each object's variants follow from the seed and the object's file
    // name alone, not from how many variants the objects before it ran in
    // their time: UQ_TEST_SEED=N and this object replay a crash, given the
    // time.
    const char *base = strrchr(argv[i], '/');
    uint32_t rng = (uint32_t)seed;
    for (const char *c = base ? base + 1 : argv[i]; *c; ++c)
      rng = (rng ^ (uint8_t)*c) * 16777619u; // FNV-1a
    printf("%s: sweeping\n", argv[i]);
    fflush(stdout); // a crash keeps the name of the object it was in
    double start = now_s();
    uint64_t steps = full ? (uint64_t)size * sizeof(kMasks) : UINT64_MAX;
    for (uint64_t step = 0; step < steps; ++step) {
      if (!full && now_s() - start > per_object)
        break;
      memcpy(buf, orig, size);
      if (full) {
        buf[step / sizeof(kMasks)] ^= kMasks[step % sizeof(kMasks)];
      } else if (step % 4 != 3) {
        // One byte, one mask.
        rng = rng * 1664525u + 1013904223u;
        size_t at = step % 4 == 0 ? (rng >> 8) % size
                                  : code_off + (rng >> 8) % code_len;
        buf[at] ^= kMasks[rng % sizeof(kMasks)];
      } else {
        // Two to eight bytes set to random values.
        rng = rng * 1664525u + 1013904223u;
        int n = 2 + (int)(rng % 7);
        for (int b = 0; b < n; ++b) {
          rng = rng * 1664525u + 1013904223u;
          buf[(rng >> 8) % size] = (uint8_t)(rng >> 24);
        }
      }
      run_one(buf, size, &s);
    }
    printf("%s: %llu variants in %.1f s: %llu rejected at load, %llu "
           "launches completed, %llu failed with a status, %llu stopped by "
           "the budget; no crash\n",
           argv[i], (unsigned long long)s.runs, now_s() - start,
           (unsigned long long)s.load_errors, (unsigned long long)s.completed,
           (unsigned long long)s.launch_errors,
           (unsigned long long)s.budget_stops);
    free(buf);
    free(orig);
  }
  return 0;
}
