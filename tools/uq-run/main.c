// uq-run: the main job. Builds a realistic decode problem (random bf16 or
// fp16 query/K/V, cache filled by the host encoder through a shuffled block
// table), runs it through libuqrt on the best backend, and reports the
// errors against the kernel-faithful reference and unquantized attention.
// With --query-len, --query-lens or --mixed the step is a varlen one
// (uq_plan_run_varlen: several query tokens per sequence).
#define _POSIX_C_SOURCE 200809L // clock_gettime

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/common/stdout_check.h"
#include "tools/uq-run/problem.h"
#include "tools/uq-run/steps.h"
#include "uq/policy.h"
#include "uq/uqrt.h"

static void usage(FILE *out) {
  fputs("usage: uq-run [flags]\n"
        "One UltraQuant decode step through libuqrt, judged against the host\n"
        "kernel-faithful reference and unquantized float64 attention.\n"
        "  --backend=auto|hip|cuda|sim|host   (default auto: hip on gfx950,\n"
        "                     cuda on compute capability 9.0, else sim)\n"
        "  --batch=N          sequences (default 4)\n"
        "  --dtype=bf16|f16   query, key, value and output dtype (default "
        "bf16)\n"
        "  --kv-heads=N       KV heads Hk (default 2)\n"
        "  --head-dim=D       " UQ_HEAD_DIMS_TEXT " (default 256)\n"
        "  --qg=N             query heads per KV head, 1..16 (default 8)\n"
        "  --block-size=N     16, 32, 64, 128 or 256 (default 16)\n"
        "  --max-seq=N        longest sequence; others random 1..N (default "
        "4096)\n"
        "  --seq-lens=a,b,..  explicit seq lens (sets --batch)\n"
        "  --padded-slot=N    slot stride in bytes, >= D + D/16, %4 == 0 "
        "(default\n"
        "                     D + D/16: 68, 136, 272)\n"
        "  --max-kv-splits=N  policy parallelism floor (default 32)\n"
        "  --scale=X          softmax scale in (0, 1] (default 1/sqrt(D));\n"
        "                     the plan takes at most ln 2 = 0.693\n"
        "  --query-scale=X    stddev of the random query, in (0, 16] "
        "(default 1);\n"
        "                     scale x query-scale <= 16/sqrt(D) (logits at "
        "most 16x\n"
        "                     the default's)\n"
        "  --fused-qkv        query strides of a fused QKV tensor\n"
        "  --padded-output    output strides with gaps between heads\n"
        "  --no-shuffle       sequential block table\n"
        "  --sliding-window=W attend only to the last W tokens (default 0: "
        "all);\n"
        "                     cache slots before the window are poisoned "
        "(0xFF)\n"
        "  --sinks            random attention sinks, one per query head\n"
        "  --query-len=L      varlen: L new query tokens per sequence (at "
        "most its\n"
        "                     seq len), causal (a speculative-decoding "
        "verify, a\n"
        "                     chunk of a prefill)\n"
        "  --query-lens=a,..  varlen: each sequence's query tokens (with "
        "--seq-lens)\n"
        "  --mixed            varlen: a serving step's mix, every sequence a "
        "decode\n"
        "                     but a verify of 4 tokens, a first chunk (all "
        "its\n"
        "                     tokens new) and a long chunk of up to 1024 (B "
        ">= 4)\n"
        "  --steps=N          then N serving steps: each stores one new token "
        "per\n"
        "                     sequence through the store kernel and decodes; "
        "the\n"
        "                     cache and output are checked every step\n"
        "  --seed=N           random seed (default: from the clock)\n"
        "  --help\n",
        out);
}

static int fail(const char *format, const char *arg) {
  fprintf(stderr, "uq-run: error: ");
  fprintf(stderr, format, arg);
  fputc('\n', stderr);
  return 1;
}

// A comma-separated list of up to `cap` integers in 0..max into out.
static int parse_list(const char *text, uint64_t max, int32_t *out, int cap,
                      int *out_count);

// Decimal digits only: strtoull alone takes " 4", "+4" and (base 0)
// "0x10" or "010" as octal.
static int parse_u64(const char *text, uint64_t max, uint64_t *out) {
  if (!*text || text[strspn(text, "0123456789")])
    return 0;
  char *end;
  errno = 0;
  unsigned long long value = strtoull(text, &end, 10);
  if (errno || *end || value > max)
    return 0;
  *out = value;
  return 1;
}

static int parse_list(const char *text, uint64_t max, int32_t *out, int cap,
                      int *out_count) {
  const char *p = text;
  int count = 0;
  while (*p) {
    char item[32];
    size_t len = strcspn(p, ",");
    uint64_t n;
    if (len == 0 || len >= sizeof(item) || count == cap)
      return 0;
    memcpy(item, p, len);
    item[len] = 0;
    if (!parse_u64(item, max, &n))
      return 0;
    out[count++] = (int32_t)n;
    p += len + (p[len] == ',');
  }
  *out_count = count;
  return count > 0;
}

// A finite number in (0, max] written in decimal ("0.0625", "1e-2"); NaN,
// infinities, overflow, 0, hex floats and leading blanks or signs fail.
static int parse_positive(const char *text, float max, float *out) {
  if (!strchr("0123456789.", *text) || strpbrk(text, "xX"))
    return 0;
  char *end;
  errno = 0;
  float value = strtof(text, &end);
  if (errno || !*text || *end || !isfinite(value) || !(value > 0) ||
      value > max)
    return 0;
  *out = value;
  return 1;
}

static int report_status(const char *what, uq_status_t status) {
  fprintf(stderr, "uq-run: error: %s: %s: %s\n", what,
          uq_status_code_name(uq_status_code(status)),
          uq_status_message(status));
  uq_status_free(status);
  return 1;
}

// One decode on one backend: context, plan, upload, run, download.
typedef struct run_s {
  const char *stage; // what failed, for the error line
  uq_backend_t backend;
  uq_context_t *context;
  uq_plan_t *plan;
  const char *description; // borrowed from the context
  uq_plan_info_t info;
  uq_launch_walk_t walk;    // uq_plan_launch_walk: printed, and the reference's
  uq_varlen_shape_t varlen; // a varlen run's launch (uq_plan_varlen_shape)
  double milliseconds;
  uq_kernel_counters_t decode_counters, reduce_counters;
  uq_status_t counted;        // UQ_OK when the counters are valid
  uq_problem_device_t device; // the problem's buffers (kept for --steps)
} run_t;

static void run_release(run_t *run) {
  if (run->context)
    uq_problem_device_free(run->context, &run->device);
  uq_plan_destroy(run->plan);
  uq_context_destroy(run->context);
  uq_status_free(run->counted);
  memset(run, 0, sizeof(*run));
}

static uq_status_t run_backend(uq_backend_t backend,
                               const uq_problem_t *problem, uint16_t *got,
                               run_t *run) {
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = backend;
  run->stage = "creating the context";
  run->backend = backend;
  uq_status_t status = uq_context_create(&options, &run->context);
  if (status)
    return status;
  uq_status_free(uq_context_backend(run->context, &run->backend));
  uq_status_free(uq_context_describe(run->context, &run->description));
  run->stage = "creating the decode plan";
  status = uq_plan_create(run->context, &problem->config, &run->plan);
  if (status)
    return status;
  uq_status_free(uq_plan_query_info(run->plan, &run->info));
  if (problem->query_start_loc) {
    status = uq_plan_varlen_shape(run->plan, problem->shape.batch,
                                  problem->num_tokens, problem->max_query_len,
                                  &run->varlen);
    run->walk = run->varlen.walk;
  } else {
    status = uq_plan_launch_walk(run->plan, problem->shape.batch, &run->walk);
  }
  if (status)
    return status;
  run->stage = "uploading the problem";
  uq_problem_device_t device;
  status = uq_problem_upload(problem, run->context, &run->device);
  device = run->device;
  if (status)
    return status;
  run->stage = "running the decode";
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (problem->query_start_loc)
    status = uq_plan_run_varlen(run->plan, problem->shape.batch,
                                problem->num_tokens, problem->max_query_len,
                                device.query, device.cache, device.block_tables,
                                device.seq_lens, device.query_start_loc,
                                device.sinks, device.output, NULL);
  else
    status = uq_plan_run_with_sinks(run->plan, problem->shape.batch,
                                    device.query, device.cache,
                                    device.block_tables, device.seq_lens,
                                    device.sinks, device.output, NULL);
  if (!status)
    status = uq_context_synchronize(run->context, NULL);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  run->milliseconds = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
                      (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
  if (!status)
    status = uq_context_download(run->context, got, device.output,
                                 problem->output_elems * sizeof(uint16_t));
  if (!status)
    run->counted = uq_plan_last_counters(run->plan, &run->decode_counters,
                                         &run->reduce_counters);
  return status;
}

int main(int argc, char **argv) {
  uq_tool_check_stdout_at_exit("uq-run");
  uq_problem_shape_t shape = {
      .batch = 4,
      .num_kv_heads = 2,
      .query_group = 8,
      .head_dim = 256,
      .block_size = 16,
      .padded_slot = 0, // D + D/16
      .max_seq = 4096,
      .shuffle = 1,
      .seed = (uint64_t)time(NULL),
  };
  uq_backend_t backend = UQ_BACKEND_AUTO;
  uint32_t steps = 0;
  int32_t lens[4096], q_lens[4096];
  int have_lens = 0, have_q_lens = 0, mixed = 0;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    const char *eq = strchr(arg, '=');
    size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
    const char *value = eq ? eq + 1 : NULL;
#define IS(flag) (strlen(flag) == name_len && strncmp(arg, flag, name_len) == 0)
    uint64_t n = 0;
    if (IS("--help") || IS("-h")) {
      usage(stdout);
      return 0;
    } else if (IS("--fused-qkv") && !value) {
      shape.fused_qkv = 1;
    } else if (IS("--padded-output") && !value) {
      shape.padded_output = 1;
    } else if (IS("--no-shuffle") && !value) {
      shape.shuffle = 0;
    } else if (IS("--sinks") && !value) {
      shape.sinks = 1;
    } else if (IS("--mixed") && !value) {
      mixed = 1;
    } else if (!value) {
      return fail("unknown flag or missing value: '%s' (see --help)", arg);
    } else if (IS("--backend")) {
      uq_status_t status = uq_backend_parse(value, strlen(value), &backend);
      if (status) {
        uq_status_free(status);
        return fail("--backend must be auto, hip, cuda, sim or host, got '%s'",
                    value);
      }
    } else if (IS("--dtype")) {
      if (strcmp(value, "bf16") == 0)
        shape.dtype = UQ_DTYPE_BF16;
      else if (strcmp(value, "f16") == 0)
        shape.dtype = UQ_DTYPE_F16;
      else
        return fail("--dtype must be bf16 or f16, got '%s'", value);
    } else if (IS("--batch")) {
      if (!parse_u64(value, 4096, &n) || !n)
        return fail("--batch must be in 1..4096, got '%s'", value);
      shape.batch = (uint32_t)n;
    } else if (IS("--kv-heads")) {
      if (!parse_u64(value, 64, &n) || !n)
        return fail("--kv-heads must be in 1..64, got '%s'", value);
      shape.num_kv_heads = (uint32_t)n;
    } else if (IS("--qg")) {
      if (!parse_u64(value, 16, &n) || !n)
        return fail("--qg must be in 1..16, got '%s'", value);
      shape.query_group = (uint32_t)n;
    } else if (IS("--head-dim")) {
      // Any other value reaches the library, which names the supported ones.
      if (!parse_u64(value, 1u << 16, &n))
        return fail("--head-dim must be " UQ_HEAD_DIMS_TEXT ", got '%s'",
                    value);
      shape.head_dim = (uint32_t)n;
    } else if (IS("--block-size")) {
      if (!parse_u64(value, 1024, &n) || !n)
        return fail("--block-size must be 16, 32, 64, 128 or 256, got '%s'",
                    value);
      shape.block_size = (uint32_t)n;
    } else if (IS("--max-seq")) {
      if (!parse_u64(value, 1u << 20, &n) || !n)
        return fail("--max-seq must be in 1..1048576, got '%s'", value);
      shape.max_seq = (uint32_t)n;
    } else if (IS("--padded-slot")) {
      if (!parse_u64(value, 1u << 16, &n))
        return fail("--padded-slot must be a byte count, got '%s'", value);
      shape.padded_slot = (uint32_t)n;
    } else if (IS("--max-kv-splits")) {
      if (!parse_u64(value, 512, &n))
        return fail("--max-kv-splits must be in 0..512, got '%s'", value);
      shape.max_kv_splits = (uint32_t)n;
    } else if (IS("--sliding-window")) {
      if (!parse_u64(value, INT32_MAX, &n))
        return fail("--sliding-window must be in 0..2147483647, got '%s'",
                    value);
      shape.sliding_window = (uint32_t)n;
    } else if (IS("--steps")) {
      if (!parse_u64(value, 4096, &n))
        return fail("--steps must be in 0..4096, got '%s'", value);
      steps = (uint32_t)n;
    } else if (IS("--seed")) {
      if (!parse_u64(value, UINT64_MAX, &n))
        return fail("--seed must be a non-negative integer, got '%s'", value);
      shape.seed = n;
    } else if (IS("--scale")) {
      if (!parse_positive(value, 1.0f, &shape.softmax_scale))
        return fail("--scale must be a number in (0, 1], got '%s'", value);
    } else if (IS("--query-scale")) {
      if (!parse_positive(value, 16.0f, &shape.query_scale))
        return fail("--query-scale must be a number in (0, 16], got '%s'",
                    value);
    } else if (IS("--query-len")) {
      if (!parse_u64(value, 65536, &n) || !n)
        return fail("--query-len must be in 1..65536, got '%s'", value);
      shape.query_len = (uint32_t)n;
    } else if (IS("--seq-lens")) {
      if (!parse_list(value, 1u << 20, lens, 4096, &have_lens))
        return fail("--seq-lens must be a comma-separated list of up to "
                    "4096 lengths in 0..1048576, got '%s'",
                    value);
    } else if (IS("--query-lens")) {
      if (!parse_list(value, 65536, q_lens, 4096, &have_q_lens))
        return fail("--query-lens must be a comma-separated list of up to "
                    "4096 query lengths in 0..65536, got '%s'",
                    value);
    } else {
      return fail("unknown flag '%s' (see --help)", arg);
    }
#undef IS
  }
  // Sharper logits than 16x the default make softmax a near argmax that the
  // 4-bit K flips; the verdict's tolerance against unquantized attention
  // (below) is measured up to there. The default scale is 1/sqrt(D), as the
  // plan's, so the bound is 16/sqrt(D) (1 for D = 256, 2 for D = 64).
  const double default_scale = 1.0 / sqrt((double)shape.head_dim);
  float scale =
      shape.softmax_scale > 0 ? shape.softmax_scale : (float)default_scale;
  float query_scale = shape.query_scale > 0 ? shape.query_scale : 1.0f;
  const double limit = 16 * default_scale;
  if ((double)scale * query_scale > limit) {
    fprintf(stderr,
            "uq-run: error: --scale x --query-scale = %g is above %g (16x the "
            "default logits for head dim %u)\n",
            (double)scale * query_scale, limit, shape.head_dim);
    return 1;
  }
  if (have_lens) {
    shape.batch = (uint32_t)have_lens;
    shape.seq_lens = lens;
    shape.max_seq = 1;
    for (int i = 0; i < have_lens; ++i)
      if ((uint32_t)lens[i] > shape.max_seq)
        shape.max_seq = (uint32_t)lens[i];
  }
  if (steps && (have_q_lens || shape.query_len || mixed))
    return fail("%s", "--steps runs decodes: it excludes --query-len, "
                      "--query-lens and --mixed");
  if ((have_q_lens != 0) + (shape.query_len != 0) + mixed > 1)
    return fail("%s", "--query-len, --query-lens and --mixed exclude each "
                      "other");
  if (have_q_lens) {
    if (!have_lens || have_q_lens != have_lens)
      return fail("%s", "--query-lens needs --seq-lens of as many sequences");
    for (int i = 0; i < have_lens; ++i)
      if (q_lens[i] > lens[i]) {
        char which[96];
        snprintf(which, sizeof which, "sequence %d: %d query tokens, length %d",
                 i, q_lens[i], lens[i]);
        return fail("--query-lens: a query longer than its sequence (%s)",
                    which);
      }
    shape.query_lens = q_lens;
  }
  if (mixed) {
    if (shape.batch < 4 || shape.batch > 4096)
      return fail("%s", "--mixed needs --batch (or --seq-lens) of at least 4");
    if (!have_lens) {
      // The step's lengths: the problem's random ones, fixed here so the
      // queries below fit them (the last sequence at max_seq).
      uint64_t rng = shape.seed ^ 0x6D69786564ull;
      for (uint32_t b = 0; b < shape.batch; ++b) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        lens[b] = b + 1 == shape.batch
                      ? (int32_t)shape.max_seq
                      : 1 + (int32_t)((rng >> 33) % shape.max_seq);
      }
      shape.seq_lens = lens;
    }
    // decodes, then a verify of 4, a first chunk, a long chunk
    for (uint32_t b = 0; b < shape.batch; ++b)
      q_lens[b] = lens[b] < 1 ? 0 : 1;
    uint32_t B = shape.batch;
    q_lens[B - 3] = lens[B - 3] < 4 ? lens[B - 3] : 4;
    q_lens[B - 2] = lens[B - 2];
    q_lens[B - 1] = lens[B - 1] < 1024 ? lens[B - 1] : 1024;
    if (q_lens[B - 2] > 65536)
      q_lens[B - 2] = 65536;
    shape.query_lens = q_lens;
  }

  shape.reserve_tokens = steps;
  uq_problem_t *problem = NULL;
  uq_status_t status = uq_problem_create(&shape, &problem);
  if (status)
    return report_status("building the problem", status);

  // The best backend: auto gives hip, else cuda, else sim.
  uint16_t *got = malloc(problem->output_elems * sizeof(uint16_t));
  uint16_t *faithful = malloc(problem->output_elems * sizeof(uint16_t));
  double *unquantized = malloc(problem->output_elems * sizeof(double));
  double *partial_scale = malloc(problem->output_elems * sizeof(double));
  run_t run = {0};
  int rc = 1;
  if (!got || !faithful || !unquantized || !partial_scale) {
    fprintf(stderr, "uq-run: error: out of memory\n");
    goto done;
  }
  status = run_backend(backend, problem, got, &run);
  if (status) {
    rc = report_status(run.stage, status);
    goto done;
  }
  uq_plan_info_t info = run.info;
  uq_launch_walk_t walk = run.walk;
  const char *description = run.description;
  uq_kernel_counters_t decode_counters = run.decode_counters;
  uq_kernel_counters_t reduce_counters = run.reduce_counters;
  uq_status_t counted = run.counted;
  run.counted = UQ_OK;
  // The oracle's E4M3 rule is the project's (saturate), whatever the code
  // object does: a kernel that turns an overflowing query into NaN (and so
  // that head's output into 0) fails here instead of matching itself.
  status = uq_problem_faithful_varlen(
      problem, UQ_FP8_OVERFLOW_SATURATE, &walk,
      problem->query_start_loc ? (int32_t)run.varlen.block_tokens : 1, faithful,
      partial_scale);
  if (!status)
    status = uq_problem_unquantized(problem, unquantized);
  if (status) {
    rc = report_status("computing the references", status);
    uq_status_free(counted);
    goto done;
  }
  uq_problem_error_t vs_faithful, vs_unquantized;
  uq_problem_use_backend(problem, run.backend);
  uq_problem_compare_bf16(problem, got, faithful, partial_scale, &vs_faithful);
  uq_problem_compare_f64(problem, got, unquantized, &vs_unquantized);

  uint64_t tokens = 0;
  uint32_t hq = shape.num_kv_heads * shape.query_group;
  const uint32_t D = problem->config.head_dim;
  printf("uq-run: seed %" PRIu64 "\n", shape.seed);
  printf("backend     %s\n", description);
  printf("shape       B=%u Hk=%u QG=%u Hq=%u D=%u block=%u padded_slot=%u "
         "max_blocks_per_seq=%u num_blocks=%u dtype=%s%s\n",
         shape.batch, shape.num_kv_heads, shape.query_group, hq, D,
         shape.block_size, problem->config.padded_slot,
         problem->config.max_blocks_per_seq, problem->config.num_blocks,
         shape.dtype == UQ_DTYPE_F16 ? "f16" : "bf16",
         shape.fused_qkv ? " fused-qkv" : "");
  if (shape.sliding_window) {
    // The policy's length: the block table's, cut to the window's span.
    uint64_t table = (uint64_t)problem->config.max_blocks_per_seq *
                     problem->config.block_size;
    uint64_t span = (uint64_t)shape.sliding_window + 15;
    printf("window      sliding_window=%u (policy sized for %llu tokens)\n",
           shape.sliding_window,
           (unsigned long long)(span < table ? span : table));
  } else
    printf("window      none\n");
  printf("sinks       %s\n",
         shape.sinks ? "random per query head (N(0, 2^2), every fifth -inf)"
                     : "none");
  printf("seq_lens    ");
  // Positions inside the queries' windows: those a run reads (from the
  // first query token's window start).
  uint64_t attended = 0;
  const int32_t *qsl = problem->query_start_loc;
  for (uint32_t b = 0; b < shape.batch; ++b) {
    int64_t len = problem->seq_lens[b];
    int64_t q_len = qsl ? qsl[b + 1] - qsl[b] : 1;
    int64_t first = len - q_len + 1 - (int64_t)shape.sliding_window;
    tokens += (uint64_t)len;
    if (q_len > 0 || !qsl)
      attended +=
          (uint64_t)(len - (shape.sliding_window && first > 0 ? first : 0));
    if (b < 16)
      printf("%s%d", b ? "," : "", problem->seq_lens[b]);
  }
  printf("%s (%" PRIu64 " tokens)\n", shape.batch > 16 ? ",..." : "", tokens);
  if (qsl) {
    printf("queries     ");
    for (uint32_t b = 0; b < shape.batch && b < 16; ++b)
      printf("%s%d", b ? "," : "", qsl[b + 1] - qsl[b]);
    printf("%s (T=%u query tokens, longest %u; causal)\n",
           shape.batch > 16 ? ",..." : "", problem->num_tokens,
           problem->max_query_len);
    printf("variant     %s  %u blocks of %u tokens  P=%d x %d%s  workspace "
           "%.1f KiB  E4M3 overflow: %s\n",
           run.varlen.variant, run.varlen.num_blocks, run.varlen.block_tokens,
           walk.num_partitions, walk.groups_per_partition,
           uq_launch_walk_unit(&walk), (double)info.workspace_bytes / 1024,
           info.e4m3_saturates ? "saturate" : "NaN");
  } else {
    printf("variant     %s  P=%d x %d%s (max P %u)  workspace %.1f KiB  "
           "E4M3 overflow: %s\n",
           info.variant, walk.num_partitions, walk.groups_per_partition,
           uq_launch_walk_unit(&walk), info.max_partitions,
           (double)info.workspace_bytes / 1024,
           info.e4m3_saturates ? "saturate" : "NaN");
  }
  printf("run         %.3f ms (host wall clock of run + synchronize)\n",
         run.milliseconds);
  printf("vs faithful max|err| %.3g  rel rms %.3g  over tolerance %" PRIu64
         "/%zu  non-finite %" PRIu64 "\n",
         vs_faithful.max_abs, vs_faithful.rel_rms, vs_faithful.over_tol,
         (size_t)problem->num_tokens * hq * D, vs_faithful.nonfinite);
  printf("vs unquant  max|err| %.3g  rel rms %.3g  (float64 attention on the "
         "%s inputs, no quantization; |ref| <= %.3g)\n",
         vs_unquantized.max_abs, vs_unquantized.rel_rms,
         shape.dtype == UQ_DTYPE_F16 ? "f16" : "bf16",
         vs_unquantized.ref_max_abs);
  if (!counted) {
    double per_token = attended ? (double)decode_counters.global_bytes_read /
                                      ((double)attended * shape.num_kv_heads)
                                : 0;
    printf("sim decode  %" PRIu64 " wave-instr (%" PRIu64 " MFMA), %" PRIu64
           " workgroups, %" PRIu64 " B read, %" PRIu64 " B written\n",
           decode_counters.wave_instructions, decode_counters.mfma_instructions,
           decode_counters.workgroups, decode_counters.global_bytes_read,
           decode_counters.global_bytes_written);
    printf("sim reduce  %" PRIu64 " wave-instr, %" PRIu64 " B read, %" PRIu64
           " B written\n",
           reduce_counters.wave_instructions, reduce_counters.global_bytes_read,
           reduce_counters.global_bytes_written);
    printf("KV bytes    %.1f read per attended token per KV head (minimum "
           "%u; all decode reads included)\n",
           per_token, UQ_SLOT_CONTENT_BYTES(D));
    printf("KV lines    %.1f distinct bytes (128-byte lines) read per attended "
           "token per KV head\n",
           attended ? (double)decode_counters.global_lines_read * 128 /
                          ((double)attended * shape.num_kv_heads)
                    : 0);
    printf("in flight   %" PRIu64 " B of vector loads at most per wave "
           "(issued, not yet waited for)\n",
           decode_counters.vmem_inflight_peak);
  } else {
    printf("counters    none (%s)\n", uq_status_message(counted));
    uq_status_free(counted);
  }
  const char *verdict = uq_problem_verdict(&vs_faithful, &vs_unquantized);
  rc = verdict != NULL;
  if (steps) {
    int failed = 0;
    status = uq_run_steps(run.context, run.plan, problem, &run.device, steps,
                          info.e4m3_saturates ? UQ_FP8_OVERFLOW_SATURATE
                                              : UQ_FP8_OVERFLOW_NAN,
                          &walk, &failed);
    if (status) {
      rc = report_status("running the serving steps", status);
      goto done;
    }
    if (failed && !verdict)
      verdict = "FAIL: a serving step outside the tolerance of the "
                "kernel-faithful reference, or a store unlike the host encoder";
    rc |= failed;
  }
  printf("result      %s\n", verdict ? verdict : "ok");
done:
  run_release(&run);
  free(got);
  free(faithful);
  free(unquantized);
  free(partial_scale);
  uq_problem_destroy(problem);
  return rc;
}
