// uq-bench-format: figures for the UltraQuant format on the host.
//
//   (1) accuracy: relative error of the exact-mode and kernel-faithful
//       reference outputs against unquantized float64 attention, on random
//       Gaussian Q/K/V (bf16 inputs), several seeds, seq lens 256 .. 32k;
//   (2) speed of the host encoder on one core (slots per second, one slot =
//       one token of one kv head, K rotated and both K and V encoded).
//
// Usage: uq-bench-format [--head-dim D] [--seed N] [--seeds N] [--max-len N]
// (D: 64, 128 or 256, default 256; the softmax scale is 1/sqrt(D)).
// A benchmark, not a test: it prints figures and exits 0 unless a library
// call fails.
#define _POSIX_C_SOURCE 200809L // clock_gettime, sysconf

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tools/common/stdout_check.h"
#include "uq/format.h"
#include "uq/policy.h"
#include "uq/reference.h"

enum { QG = 8, HK = 1, HQ = HK * QG, BS = 16 };

static uint64_t rng_next(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double rng_gauss(uint64_t *s) {
  double u = ((rng_next(s) >> 11) + 1) * 0x1.0p-53;
  double v = (rng_next(s) >> 11) * 0x1.0p-53;
  return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

static double clock_s(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int fail(uq_status_t status, const char *what) {
  fprintf(stderr, "uq-bench-format: error: %s: %s\n", what,
          uq_status_message(status));
  uq_status_free(status);
  return 1;
}

static void print_machine(void) {
  char model[256] = "unknown";
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (f) {
    char line[512];
    while (fgets(line, sizeof line, f)) {
      if (strncmp(line, "model name", 10) == 0) {
        char *colon = strchr(line, ':');
        if (colon) {
          snprintf(model, sizeof model, "%s", colon + 2);
          model[strcspn(model, "\n")] = 0;
        }
        break;
      }
    }
    fclose(f);
  }
  printf("machine: %ld online cpus, %s\n", sysconf(_SC_NPROCESSORS_ONLN),
         model);
}

typedef struct errors_s {
  double max_abs_rel, frob_rel;
} errors_t;

// Relative errors of a bf16 output [HQ][D] against float64 references.
static errors_t compare(int D, const uint16_t *out, const double *ref) {
  double max_diff = 0, max_ref = 0, diff2 = 0, ref2 = 0;
  for (int i = 0; i < HQ * D; ++i) {
    double d = (double)uq_bf16_to_float(out[i]) - ref[i];
    max_diff = fmax(max_diff, fabs(d));
    max_ref = fmax(max_ref, fabs(ref[i]));
    diff2 += d * d;
    ref2 += ref[i] * ref[i];
  }
  errors_t e = {max_diff / max_ref, sqrt(diff2 / ref2)};
  return e;
}

// One (seed, seq len) accuracy run: B = 1, Hk = 1, QG = 8, block size 16.
static int accuracy_run(int D, uint64_t seed, int32_t len, double q_sigma,
                        errors_t *out_exact, errors_t *out_faithful) {
  uint64_t s = seed;
  const int32_t blocks = (len + BS - 1) / BS;
  const float scale = (float)(1.0 / sqrt((double)D));
  uq_cache_layout_t layout = {.num_blocks = blocks,
                              .block_size = BS,
                              .num_kv_heads = HK,
                              .padded_slot = UQ_SLOT_MIN_STRIDE(D),
                              .head_dim = D};
  size_t cache_size = 0;
  uq_status_t st = uq_cache_layout_size(&layout, &cache_size);
  if (st)
    return fail(st, "layout");
  uint8_t *cache = calloc(cache_size, 1);
  uint16_t *k16 = malloc(sizeof(uint16_t) * (size_t)len * D);
  uint16_t *v16 = malloc(sizeof(uint16_t) * (size_t)len * D);
  float *kf = malloc(sizeof(float) * (size_t)len * D);
  float *vf = malloc(sizeof(float) * (size_t)len * D);
  int64_t *slots = malloc(sizeof(int64_t) * (size_t)len);
  int32_t *table = malloc(sizeof(int32_t) * (size_t)blocks);
  uint16_t q16[HQ * UQ_MAX_HEAD_DIM], out[HQ * UQ_MAX_HEAD_DIM];
  double ref[HQ * UQ_MAX_HEAD_DIM];
  if (!cache || !k16 || !v16 || !kf || !vf || !slots || !table) {
    fprintf(stderr, "uq-bench-format: error: out of memory\n");
    return 1;
  }
  for (size_t i = 0; i < (size_t)len * D; ++i) {
    k16[i] = uq_float_to_bf16((float)rng_gauss(&s));
    v16[i] = uq_float_to_bf16((float)rng_gauss(&s));
    kf[i] = uq_bf16_to_float(k16[i]);
    vf[i] = uq_bf16_to_float(v16[i]);
  }
  for (int i = 0; i < HQ * D; ++i)
    q16[i] = uq_float_to_bf16((float)(q_sigma * rng_gauss(&s)));
  for (int32_t b = 0; b < blocks; ++b)
    table[b] = blocks - 1 - b; // a reversed block table
  for (int32_t t = 0; t < len; ++t)
    slots[t] = (int64_t)table[t / BS] * BS + t % BS;
  uq_kv_tokens_t tokens = {k16, D, D, v16, D, D, slots, len, UQ_DTYPE_BF16};
  if ((st = uq_cache_write(&layout, cache, cache_size, &tokens)))
    return fail(st, "cache write");
  // Unquantized float64 attention on the same bf16 inputs.
  for (int h = 0; h < HQ; ++h) {
    float q[UQ_MAX_HEAD_DIM];
    for (int d = 0; d < D; ++d)
      q[d] = uq_bf16_to_float(q16[h * D + d]);
    if ((st =
             uq_reference_attention_f64(D, q, kf, vf, len, scale, ref + h * D)))
      return fail(st, "float64 attention");
  }
  int32_t seq_len = len;
  uq_decode_problem_t p = {
      .num_seqs = 1,
      .query_group = QG,
      .cache = layout,
      .max_blocks_per_seq = blocks,
      .softmax_scale = scale,
      .q_overflow = UQ_FP8_OVERFLOW_SATURATE,
      .query = q16,
      .query_stride_seq = HQ * D,
      .query_stride_head = D,
      .kv_cache = cache,
      .block_tables = table,
      .seq_lens = &seq_len,
      .output = out,
      .output_stride_seq = HQ * D,
      .output_stride_head = D,
  };
  if ((st = uq_reference_decode_exact(&p)))
    return fail(st, "exact decode");
  *out_exact = compare(D, out, ref);
  uq_launch_plan_t plan;
  if ((st =
           uq_launch_policy(1, blocks, BS, D, UQ_DEFAULT_MAX_KV_SPLITS, &plan)))
    return fail(st, "launch policy");
  if ((st = uq_reference_decode_faithful(&p, plan.num_partitions, plan.tgpp,
                                         NULL)))
    return fail(st, "faithful decode");
  *out_faithful = compare(D, out, ref);
  free(cache), free(k16), free(v16), free(kf), free(vf), free(slots),
      free(table);
  return 0;
}

// Per-element error of the format on N(0,1) bf16 data: K (after rotation)
// and V, as RMS error relative to RMS value and mean error (bias) relative
// to sigma. The encoder's tie rule (a value on a midpoint takes the level
// below) biases ties toward -inf, and bf16 inputs land on midpoints often.
static void element_errors(int D, uint64_t seed) {
  enum { N = 20000 };
  uint64_t s = seed ^ 0x5EEDull;
  double err2[2] = {0, 0}, val2[2] = {0, 0}, bias[2] = {0, 0};
  long ties = 0;
  for (int n = 0; n < N; ++n) {
    uint16_t k[UQ_MAX_HEAD_DIM], v[UQ_MAX_HEAD_DIM];
    float kf[UQ_MAX_HEAD_DIM], vf[UQ_MAX_HEAD_DIM], kd[UQ_MAX_HEAD_DIM],
        vd[UQ_MAX_HEAD_DIM];
    uint8_t slot[UQ_MAX_SLOT_CONTENT_BYTES];
    for (int d = 0; d < D; ++d) {
      k[d] = uq_float_to_bf16((float)rng_gauss(&s));
      v[d] = uq_float_to_bf16((float)rng_gauss(&s));
      kf[d] = uq_bf16_to_float(k[d]);
      vf[d] = uq_bf16_to_float(v[d]);
    }
    // D was checked in main: these cannot fail.
    uq_status_free(uq_slot_encode(D, k, v, slot));
    uq_status_free(uq_slot_decode(D, slot, kd, vd));
    uq_status_free(uq_wht(D, kf));
    for (int d = 0; d < D; ++d) {
      err2[0] += (double)(kd[d] - kf[d]) * (kd[d] - kf[d]);
      err2[1] += (double)(vd[d] - vf[d]) * (vd[d] - vf[d]);
      val2[0] += (double)kf[d] * kf[d];
      val2[1] += (double)vf[d] * vf[d];
      bias[0] += kd[d] - kf[d];
      bias[1] += vd[d] - vf[d];
      // A tie: x / 2^e exactly on a midpoint between two levels.
      float x =
          vf[d] / uq_ue8m0_to_float(slot[UQ_SLOT_V_SCALES_OFFSET(D) + d / 32]);
      float a = fabsf(x);
      ties += a == 0.25f || a == 0.75f || a == 1.25f || a == 1.75f ||
              a == 2.5f || a == 3.5f || a == 5.0f;
    }
  }
  double count = (double)N * D;
  printf("format error per element (%d slots of N(0,1) bf16, D %d):\n", N, D);
  printf("  K (rotated): rms err / rms value %.4f, mean err %+.2e sigma\n",
         sqrt(err2[0] / val2[0]), bias[0] / count);
  printf("  V:           rms err / rms value %.4f, mean err %+.2e sigma "
         "(%.2f%% of V elements sit exactly on a midpoint)\n",
         sqrt(err2[1] / val2[1]), bias[1] / count, 100.0 * ties / count);
}

static int encoder_speed(int D, uint64_t seed) {
  enum { N = 4096 };
  uint64_t s = seed;
  const size_t slot_bytes = UQ_SLOT_CONTENT_BYTES(D);
  uint16_t *k = malloc(sizeof(uint16_t) * N * D);
  uint16_t *v = malloc(sizeof(uint16_t) * N * D);
  uint8_t *slots = malloc((size_t)N * slot_bytes);
  if (!k || !v || !slots)
    return 1;
  for (int i = 0; i < N * D; ++i) {
    k[i] = uq_float_to_bf16((float)rng_gauss(&s));
    v[i] = uq_float_to_bf16((float)rng_gauss(&s));
  }
  // Warm up, then time whole passes until at least 1 s has gone by.
  for (int i = 0; i < N; ++i)
    uq_status_free(uq_slot_encode(D, k + i * D, v + i * D,
                                  slots + (size_t)i * slot_bytes));
  // Thread CPU time is the figure (the machine may be shared: wall time
  // counts other processes' turns); wall time is printed next to it.
  long done = 0;
  double start = clock_s(CLOCK_THREAD_CPUTIME_ID), elapsed = 0;
  double wall_start = clock_s(CLOCK_MONOTONIC);
  while (elapsed < 1.0) {
    for (int i = 0; i < N; ++i)
      uq_status_free(uq_slot_encode(D, k + i * D, v + i * D,
                                    slots + (size_t)i * slot_bytes));
    done += N;
    elapsed = clock_s(CLOCK_THREAD_CPUTIME_ID) - start;
  }
  double wall = clock_s(CLOCK_MONOTONIC) - wall_start;
  unsigned check = 0;
  for (size_t i = 0; i < (size_t)N * slot_bytes; ++i)
    check += slots[i];
  printf("encoder (uq_slot_encode, D %d, one core): %.0f slots/s of CPU time "
         "(%.2f us/slot; %ld slots in %.2f s CPU, %.2f s wall; checksum "
         "%u)\n",
         D, done / elapsed, 1e6 * elapsed / done, done, elapsed, wall, check);
  free(k), free(v), free(slots);
  return 0;
}

int main(int argc, char **argv) {
  uq_tool_check_stdout_at_exit("uq-bench-format");
  uint64_t seed = 1;
  int seeds = 3;
  int32_t max_len = 32768;
  int head_dim = 256;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--head-dim") && i + 1 < argc)
      head_dim = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "--seeds") && i + 1 < argc)
      seeds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--max-len") && i + 1 < argc)
      max_len = atoi(argv[++i]);
    else {
      fprintf(stderr,
              "uq-bench-format: error: unknown argument '%s'\n"
              "usage: uq-bench-format [--head-dim 64|128|256] [--seed N] "
              "[--seeds N] [--max-len N]\n",
              argv[i]);
      return 1;
    }
  }
  if (seeds < 1 || max_len < 1) {
    fprintf(stderr, "uq-bench-format: error: --seeds and --max-len must be "
                    "positive\n");
    return 1;
  }
  uq_status_t head_dim_status = uq_head_dim_check(head_dim);
  if (head_dim_status)
    return fail(head_dim_status, "--head-dim");
  print_machine();
  element_errors(head_dim, seed);
  static const double q_sigmas[2] = {1.0, 4.0};
  for (int qs = 0; qs < 2; ++qs) {
    double q_sigma = q_sigmas[qs];
    printf("\naccuracy vs unquantized float64 attention: B 1, Hk 1, QG 8, D "
           "%d, scale 1/sqrt(D), bf16 Q ~ N(0, %g^2) (%s softmax), K, V ~ "
           "N(0,1), seeds %llu..%llu\n",
           head_dim, q_sigma, qs == 0 ? "flat" : "peaked",
           (unsigned long long)seed,
           (unsigned long long)(seed + (uint64_t)seeds - 1));
    printf("%8s  %-30s  %-30s\n", "seq_len", "exact: max-abs / frob",
           "faithful: max-abs / frob");
    for (int32_t len = 256; len <= max_len; len *= 2) {
      errors_t worst_e = {0, 0}, worst_f = {0, 0}, mean_e = {0, 0},
               mean_f = {0, 0};
      for (int k = 0; k < seeds; ++k) {
        errors_t e, f;
        if (accuracy_run(head_dim,
                         seed + (uint64_t)k + 1000003ull * (uint64_t)len, len,
                         q_sigma, &e, &f))
          return 1;
        worst_e.max_abs_rel = fmax(worst_e.max_abs_rel, e.max_abs_rel);
        worst_e.frob_rel = fmax(worst_e.frob_rel, e.frob_rel);
        worst_f.max_abs_rel = fmax(worst_f.max_abs_rel, f.max_abs_rel);
        worst_f.frob_rel = fmax(worst_f.frob_rel, f.frob_rel);
        mean_e.frob_rel += e.frob_rel / seeds;
        mean_f.frob_rel += f.frob_rel / seeds;
      }
      printf("%8d  %.4f / %.4f (mean %.4f)    %.4f / %.4f (mean %.4f)\n", len,
             worst_e.max_abs_rel, worst_e.frob_rel, mean_e.frob_rel,
             worst_f.max_abs_rel, worst_f.frob_rel, mean_f.frob_rel);
    }
  }
  printf("(worst over seeds; max-abs = max|o - ref| / max|ref|, frob = "
         "||o - ref||_F / ||ref||_F over the 8 heads)\n\n");
  return encoder_speed(head_dim, seed);
}
