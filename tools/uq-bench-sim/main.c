// uq-bench-sim: simulated wave-instructions per second on one core.
//
//   uq-bench-sim [--synth FILE] [--workgroups N] [--iters N]
//   uq-bench-sim --decode FILE.hsaco [--qg 6|8|16] [--batch B]
//                [--kv-heads H] [--seq L] [--block-size S] [--repeat R]
//
// Without --decode it runs the synthetic decode-like loop assembled at build
// time. With --decode it launches the real decode kernel of FILE on a
// random UltraQuant cache of the given shape, with P and TGPP from the
// seed's launch policy, and arguments in the order of runtime/kernel_abi.h
// (sizes checked against the metadata).
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codeobj/codeobj.h"
#include "sim/sim.h"
#include "tools/common/file_util.h"
#include "tools/common/stdout_check.h"

// CPU time of this process: the rate per core even when other jobs share
// the machine (wall time is printed alongside).
static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int fail_status(uq_status_t st) {
  fprintf(stderr, "uq-bench-sim: error: %s\n", uq_status_message(st));
  uq_status_free(st);
  return 1;
}

static uint32_t rng = 0x12345678u;
static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

static uint32_t next_pow2(uint32_t x) {
  uint32_t p = 1;
  while (p < x)
    p <<= 1;
  return p;
}

static uq_status_t buffer(uq_sim_t *sim, size_t size, uint64_t *out) {
  UQ_RETURN_IF_ERROR(uq_sim_alloc(sim, size, out), "allocating");
  uint8_t *z = calloc(1, size);
  if (!z)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  uq_status_t st = uq_sim_write(sim, *out, z, size);
  free(z);
  return st;
}

typedef struct opts_s {
  const char *synth;
  const char *decode;
  uint32_t workgroups, iters, qg, batch, kv_heads, seq, block_size, repeat;
} opts_t;

static uq_status_t pack_args(const uq_kernel_info_t *k, const uint64_t *vals,
                             const uint32_t *sizes, uint32_t n, uint8_t *ka) {
  uint32_t e = 0;
  for (uint32_t i = 0; i < k->arg_count; ++i) {
    const uq_kernarg_t *a = &k->args[i];
    if (a->kind == UQ_KERNARG_HIDDEN)
      continue;
    if (e >= n || a->size != sizes[e])
      return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                            "kernel '%s' argument %u does not match the "
                            "expected layout",
                            k->name, e);
    memcpy(ka + a->offset, &vals[e], a->size);
    ++e;
  }
  if (e != n)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "kernel '%s' takes %u arguments, expected %u",
                          k->name, e, n);
  return UQ_OK;
}

static void report(const char *what, const uq_sim_counters_t *c, double secs,
                   double cpu) {
  printf("%s: %" PRIu64 " workgroups, %" PRIu64
         " wave-instructions in %.3f s (%.3f s CPU)\n",
         what, c->workgroups, c->wave_instructions, secs, cpu);
  printf("  by class: salu %" PRIu64 " valu %" PRIu64 " smem %" PRIu64
         " vmem %" PRIu64 " lds %" PRIu64 " mfma %" PRIu64 " branch %" PRIu64
         " other %" PRIu64 "\n",
         c->by_class[0], c->by_class[1], c->by_class[2], c->by_class[3],
         c->by_class[4], c->by_class[5], c->by_class[6], c->by_class[7]);
  printf("  %.2f M wave-instructions/s per CPU second (one core); %.2f M "
         "per wall second\n",
         (double)c->wave_instructions / cpu / 1e6,
         (double)c->wave_instructions / secs / 1e6);
}

static int run_synth(const opts_t *o) {
  char *data;
  size_t size;
  uq_status_t st = uq_file_read(o->synth, &data, &size);
  if (st)
    return fail_status(st);
  uq_sim_t *sim = NULL;
  uq_sim_program_t *prog = NULL;
  uint64_t in = 0, out = 0;
  st = uq_sim_create(&sim);
  if (!st)
    st = uq_sim_program_load(sim, data, size, &prog);
  free(data);
  if (!st)
    st = buffer(sim, 0x10000 + 1024, &in);
  if (!st)
    st = buffer(sim, 256, &out);
  int rc = 0;
  if (!st) {
    uint8_t ka[24] = {0};
    memcpy(ka, &in, 8);
    memcpy(ka + 8, &out, 8);
    memcpy(ka + 16, &o->iters, 4);
    uq_sim_launch_t L = {{o->workgroups, 1, 1}, {64, 1, 1}, ka, 24, 0, 0, 0};
    uq_sim_counters_t c;
    double t0 = now(), c0 = cpu_now();
    st = uq_sim_launch(sim, prog, "uq_bench_synth", &L, &c);
    double t1 = now(), c1 = cpu_now();
    if (!st)
      report("synthetic loop", &c, t1 - t0, c1 - c0);
  }
  if (st)
    rc = fail_status(st);
  uq_sim_program_destroy(prog);
  uq_sim_destroy(sim);
  return rc;
}

static int run_decode(const opts_t *o) {
  char *data;
  size_t size;
  uq_status_t st = uq_file_read(o->decode, &data, &size);
  if (st)
    return fail_status(st);
  uq_sim_t *sim = NULL;
  uq_sim_program_t *prog = NULL;
  st = uq_sim_create(&sim);
  if (!st)
    st = uq_sim_program_load(sim, data, size, &prog);
  free(data);
  if (st) {
    uq_sim_destroy(sim);
    return fail_status(st);
  }
  // The code object's (only) kernel: uq-compile writes one per variant.
  const uq_code_object_t *co = uq_sim_program_code_object(prog);
  const uq_kernel_info_t *k = uq_code_object_kernel_count(co) == 1
                                  ? uq_code_object_kernel_at(co, 0)
                                  : NULL;
  if (!k)
    st = UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                        "'%s' must hold exactly one kernel", o->decode);
  const char *name = k ? k->name : "";
  const uint32_t B = o->batch, Hk = o->kv_heads, QG = o->qg, D = 256;
  const uint32_t bs = o->block_size, slot = 272;
  const uint32_t Hq = Hk * QG;
  const uint32_t mbps = (o->seq + bs - 1) / bs, blocks = B * mbps;
  // The seed's launch policy.
  uint32_t max_seq = mbps * bs, cap = B <= 8 ? 512 : 256;
  uint32_t required = (max_seq + 255) / 256;
  uint32_t floor_p = cap < 32 ? cap : 32;
  uint32_t actual = required < cap ? required : cap;
  if (actual < floor_p)
    actual = floor_p;
  uint32_t lim = (max_seq + 191) / 192;
  if (actual > lim)
    actual = lim;
  uint32_t P = next_pow2(actual);
  if (P < 2)
    P = 2;
  uint32_t tgpp =
      next_pow2((required + P - 1) / P ? (required + P - 1) / P : 1);
  uint64_t a_out = 0, a_max = 0, a_sum = 0, a_q = 0, a_cache = 0, a_bt = 0,
           a_sl = 0;
  size_t cache_bytes = (size_t)blocks * bs * Hk * slot;
  if (!st)
    st = buffer(sim, (size_t)B * Hk * P * QG * D * 2, &a_out);
  if (!st)
    st = buffer(sim, (size_t)B * Hk * P * QG * 4, &a_max);
  if (!st)
    st = buffer(sim, (size_t)B * Hk * P * QG * 4, &a_sum);
  if (!st)
    st = buffer(sim, (size_t)B * Hq * D * 2, &a_q);
  if (!st)
    st = buffer(sim, cache_bytes, &a_cache);
  if (!st)
    st = buffer(sim, (size_t)B * mbps * 4, &a_bt);
  if (!st)
    st = buffer(sim, (size_t)B * 4, &a_sl);
  if (!st) {
    // Random FP4 codes with sane UE8M0 scales; a shuffled block table.
    uint8_t *cache = malloc(cache_bytes);
    uint16_t *q = malloc((size_t)B * Hq * D * 2);
    int32_t *bt = malloc((size_t)B * mbps * 4), *sl = malloc((size_t)B * 4);
    if (!cache || !q || !bt || !sl) {
      st = UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    } else {
      for (size_t i = 0; i < cache_bytes; ++i) {
        size_t off = i % slot;
        int is_scale = (off >= 128 && off < 136) || off >= 264;
        cache[i] = is_scale ? (uint8_t)(120 + rnd() % 8) : (uint8_t)rnd();
      }
      for (size_t i = 0; i < (size_t)B * Hq * D; ++i) {
        float f = ((float)(rnd() % 2001) - 1000.0f) / 500.0f;
        uint32_t u;
        memcpy(&u, &f, 4);
        q[i] = (uint16_t)(u >> 16);
      }
      for (uint32_t i = 0; i < blocks; ++i)
        bt[i] = (int32_t)i;
      for (uint32_t i = blocks; i > 1; --i) {
        uint32_t j = rnd() % i;
        int32_t t = bt[i - 1];
        bt[i - 1] = bt[j];
        bt[j] = t;
      }
      for (uint32_t b = 0; b < B; ++b)
        sl[b] = (int32_t)o->seq;
      st = uq_sim_write(sim, a_cache, cache, cache_bytes);
      if (!st)
        st = uq_sim_write(sim, a_q, q, (size_t)B * Hq * D * 2);
      if (!st)
        st = uq_sim_write(sim, a_bt, bt, (size_t)B * mbps * 4);
      if (!st)
        st = uq_sim_write(sim, a_sl, sl, (size_t)B * 4);
    }
    free(cache);
    free(q);
    free(bt);
    free(sl);
  }
  int rc = 0;
  if (!st) {
    float scale = 1.0f / 16.0f;
    uint32_t scale_bits;
    memcpy(&scale_bits, &scale, 4);
    // The arguments of runtime/kernel_abi.h: the 16 of the first ABI, the
    // sliding window (0: none), the query group; an older kernel takes a
    // prefix of them.
    uint64_t vals[18] = {a_out,  a_max, a_sum, a_q,        a_cache, a_bt,
                         a_sl,   Hk,    P,     tgpp,       bs,      slot,
                         Hq * D, D,     mbps,  scale_bits, 0,       QG};
    uint32_t sizes[18] = {8, 8, 8, 8, 8, 8, 8, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
    uint32_t nargs = 0;
    for (uint32_t i = 0; i < k->arg_count; ++i)
      nargs += k->args[i].kind != UQ_KERNARG_HIDDEN;
    if (nargs < 16)
      nargs = 16;
    if (nargs > 18)
      nargs = 18;
    uint8_t *ka = calloc(1, k->kernarg_segment_size + 8);
    st = ka ? pack_args(k, vals, sizes, nargs, ka)
            : UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    uq_sim_counters_t c, total;
    memset(&total, 0, sizeof(total));
    double secs = 0, cpu = 0;
    for (uint32_t r = 0; !st && r < o->repeat; ++r) {
      uq_sim_launch_t L = {{B, Hk, P}, {64, 1, 1}, ka, k->kernarg_segment_size,
                           0,          0,          0};
      double t0 = now(), c0 = cpu_now();
      st = uq_sim_launch(sim, prog, name, &L, &c);
      secs += now() - t0;
      cpu += cpu_now() - c0;
      total.workgroups += c.workgroups;
      total.wave_instructions += c.wave_instructions;
      for (int i = 0; i < UQ_SIM_CLASS_COUNT; ++i)
        total.by_class[i] += c.by_class[i];
    }
    free(ka);
    if (!st) {
      printf("decode %s: B=%u Hk=%u QG=%u seq=%u block_size=%u P=%u "
             "TGPP=%u\n",
             name, B, Hk, QG, o->seq, bs, P, tgpp);
      report("decode", &total, secs, cpu);
    }
  }
  if (st)
    rc = fail_status(st);
  uq_sim_program_destroy(prog);
  uq_sim_destroy(sim);
  return rc;
}

static int parse_u32(const char *s, uint32_t *out) {
  char *end;
  unsigned long v = strtoul(s, &end, 0);
  if (!*s || *end || s[0] == '-' || v == 0 || v > 0xFFFFFFFFul)
    return -1;
  *out = (uint32_t)v;
  return 0;
}

int main(int argc, char **argv) {
  uq_tool_check_stdout_at_exit("uq-bench-sim");
  opts_t o = {UQ_BENCH_SYNTH_HSACO, NULL, 512, 64, 8, 4, 8, 4096, 16, 1};
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    uint32_t *u = NULL;
    if (strcmp(a, "--synth") == 0 && v) {
      o.synth = v;
    } else if (strcmp(a, "--decode") == 0 && v) {
      o.decode = v;
    } else if (strcmp(a, "--workgroups") == 0) {
      u = &o.workgroups;
    } else if (strcmp(a, "--iters") == 0) {
      u = &o.iters;
    } else if (strcmp(a, "--qg") == 0) {
      u = &o.qg;
    } else if (strcmp(a, "--batch") == 0) {
      u = &o.batch;
    } else if (strcmp(a, "--kv-heads") == 0) {
      u = &o.kv_heads;
    } else if (strcmp(a, "--seq") == 0) {
      u = &o.seq;
    } else if (strcmp(a, "--block-size") == 0) {
      u = &o.block_size;
    } else if (strcmp(a, "--repeat") == 0) {
      u = &o.repeat;
    } else {
      fprintf(stderr, "uq-bench-sim: error: unknown or incomplete flag '%s'\n",
              a);
      return 1;
    }
    if (u && (!v || parse_u32(v, u))) {
      fprintf(stderr, "uq-bench-sim: error: %s needs a positive integer\n", a);
      return 1;
    }
    ++i;
  }
  return o.decode ? run_decode(&o) : run_synth(&o);
}
