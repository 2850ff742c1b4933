// Code another compiler wrote: the OpenCL C kernels in this directory,
// compiled by clang for gfx950 (build.sh; the objects are committed), run on
// the simulator with fresh random inputs and outputs poisoned with 0xCD, and
// compared with host computations written here from the kernels' stated
// meaning (each source's header), not from the simulator.
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "codeobj/codeobj.h"
#include "sim/sim.h"
#include "sim/sim_fixture.h"
#include "tools/common/file_util.h"
#include "uq_test.h"

static uq_status_t fixture_open(fixture_t *f, const char *name) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/%s", UQ_FOREIGN_DIR, name);
  return fixture_open_path(f, path);
}

// Device buffers of one launch: inputs copied in, outputs poisoned.
#define MAX_BUFS 6
typedef struct bufs_s {
  int count;
  uint64_t addr[MAX_BUFS];
  size_t size[MAX_BUFS];
} bufs_t;

static uq_status_t buf_add(fixture_t *f, bufs_t *b, const void *data,
                           size_t size) {
  if (b->count == MAX_BUFS)
    return UQ_MAKE_STATUS(UQ_STATUS_INTERNAL, "too many buffers");
  uint64_t a = 0;
  UQ_RETURN_IF_ERROR(uq_sim_alloc(f->sim, size, &a), "alloc");
  b->addr[b->count] = a;
  b->size[b->count++] = size;
  if (data)
    return uq_sim_write(f->sim, a, data, size);
  void *poison = malloc(size);
  if (!poison)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "poison");
  memset(poison, 0xCD, size);
  uq_status_t st = uq_sim_write(f->sim, a, poison, size);
  free(poison);
  return st;
}
static void bufs_free(fixture_t *f, bufs_t *b) {
  for (int i = 0; i < b->count; ++i)
    uq_status_free(uq_sim_free(f->sim, b->addr[i]));
  b->count = 0;
}

// Launches `kernel` with its explicit arguments in metadata order: the
// buffers first (as pointers), then `scalars` (by-value arguments, each
// written at its metadata size). Hidden arguments stay zero.
static uq_status_t launch(fixture_t *f, const char *kernel, const bufs_t *b,
                          const uint32_t *scalars, int nscalars,
                          uint32_t groups, uint32_t block) {
  const uq_kernel_info_t *k = NULL;
  UQ_RETURN_IF_ERROR(uq_code_object_find_kernel(
                         uq_sim_program_code_object(f->prog), kernel, &k),
                     "finding %s", kernel);
  uint8_t args[256] = {0};
  if (k->kernarg_segment_size > sizeof(args))
    return UQ_MAKE_STATUS(UQ_STATUS_INTERNAL, "kernarg block too big");
  int nb = 0, ns = 0;
  for (uint32_t i = 0; i < k->arg_count; ++i) {
    const uq_kernarg_t *a = &k->args[i];
    if (strcmp(a->value_kind, "global_buffer") == 0) {
      if (nb == b->count || a->size != 8)
        return UQ_MAKE_STATUS(UQ_STATUS_INTERNAL, "%s: buffer arg %u", kernel,
                              i);
      memcpy(args + a->offset, &b->addr[nb++], 8);
    } else if (strcmp(a->value_kind, "by_value") == 0) {
      if (ns == nscalars || a->size > 4)
        return UQ_MAKE_STATUS(UQ_STATUS_INTERNAL, "%s: value arg %u", kernel,
                              i);
      memcpy(args + a->offset, &scalars[ns++], a->size);
    }
  }
  if (nb != b->count || ns != nscalars)
    return UQ_MAKE_STATUS(UQ_STATUS_INTERNAL, "%s: %d/%d buffers, %d/%d values",
                          kernel, nb, b->count, ns, nscalars);
  uq_sim_launch_t L = {
      {groups, 1, 1}, {block, 1, 1}, args, k->kernarg_segment_size, 0, 0, 0};
  return uq_sim_launch(f->sim, f->prog, kernel, &L, NULL);
}

// ---------------------------------------------------------------------------
// softmax.cl: y = exp(x - max) / sum(exp(x - max)) per row. The kernel's
// exp is LLVM's f32 expansion (about 1 ulp) and its sum runs in another
// order than the host's double, so the tolerance is relative: 2e-6 * n
// ulps-worth for the sum plus 4 ulps for exp and the division.

// 1 (after saying why) when the launch or its copies failed, else 0.
static int run_failed(const char *what, uq_status_t st) {
  if (!st)
    return 0;
  fprintf(stderr, "%s: %s\n", what, uq_status_message(st));
  uq_status_free(st);
  return 1;
}

static int test_softmax(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f, "softmax.hsaco"));
  static const uint32_t widths[] = {1, 5, 63, 64, 65, 200, 1000};
  int failures = 0;
  for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]) && !failures; ++w) {
    uint32_t n = widths[w], rows = 3;
    size_t count = (size_t)n * rows;
    float *x = malloc(count * 4), *y = malloc(count * 4);
    for (size_t i = 0; i < count; ++i)
      x[i] = rndf(-30.0f, 30.0f);
    if (n >= 64)
      x[7] = -INFINITY; // exp(-inf) is 0, the row still sums to 1
    bufs_t b = {0};
    uq_status_t st = buf_add(&f, &b, x, count * 4);
    if (!st)
      st = buf_add(&f, &b, NULL, count * 4);
    if (!st)
      st = launch(&f, "softmax_rows", &b, &n, 1, rows, 64);
    if (!st)
      st = uq_sim_read(f.sim, b.addr[1], y, count * 4);
    bufs_free(&f, &b);
    char what[32];
    snprintf(what, sizeof(what), "softmax n=%u", n);
    failures += run_failed(what, st);
    for (uint32_t r = 0; r < rows && !failures; ++r) {
      const float *xr = x + (size_t)r * n;
      double m = -INFINITY, s = 0;
      for (uint32_t i = 0; i < n; ++i)
        m = fmax(m, xr[i]);
      for (uint32_t i = 0; i < n; ++i)
        s += exp((double)(float)(xr[i] - (float)m));
      for (uint32_t i = 0; i < n && !failures; ++i) {
        double ref = exp((double)(float)(xr[i] - (float)m)) / s;
        double got = y[(size_t)r * n + i];
        double tol = ref * (4.0 + 2.0 * n) * 0x1p-23 + 1e-38;
        if (!(fabs(got - ref) <= tol)) {
          fprintf(stderr, "softmax n=%u row %u [%u]: got %.9g want %.9g\n", n,
                  r, i, got, ref);
          ++failures;
        }
      }
    }
    free(x);
    free(y);
  }
  fixture_close(&f);
  return failures ? 1 : 0;
}

// ---------------------------------------------------------------------------
// dequant_fp4.cl.

static double fp4_value(unsigned c) {
  static const double v[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  return (c & 8) ? -v[c & 7] : v[c & 7];
}
static uint16_t bf16_bits_exact(double v) {
  float fv = (float)v; // exact: the caller passes bf16-representable values
  uint32_t u;
  memcpy(&u, &fv, 4);
  return (uint16_t)(u >> 16);
}
static uint16_t f16_bits(double v) {
  _Float16 h = (_Float16)v; // one rounding, to nearest even
  uint16_t b;
  memcpy(&b, &h, 2);
  return b;
}
static double f16_value(uint16_t b) {
  _Float16 h;
  memcpy(&h, &b, 2);
  return (double)h;
}

static int test_dequant_fp4(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f, "dequant_fp4.hsaco"));
  const uint32_t n = 1024, pairs = n / 2;
  uint8_t *codes = malloc(pairs), *scales = malloc(n / 32);
  uint16_t *bias = malloc(n * 2), *bf = malloc(n * 2), *hf = malloc(n * 2);
  for (uint32_t i = 0; i < pairs; ++i)
    codes[i] = (uint8_t)rnd();
  codes[0] = 0x80; // +0, -0
  codes[1] = 0x19; // -0.5, 1.0
  for (uint32_t i = 0; i < n / 32; ++i)
    scales[i] = (uint8_t)(100 + rnd() % 55);
  scales[0] = 127;
  for (uint32_t i = 0; i < n; ++i)
    bias[i] = f16_bits(rndf(-4.0f, 4.0f));
  bufs_t b = {0};
  uq_status_t st = buf_add(&f, &b, codes, pairs);
  if (!st)
    st = buf_add(&f, &b, scales, n / 32);
  if (!st)
    st = buf_add(&f, &b, NULL, n * 2);
  if (!st)
    st = buf_add(&f, &b, bias, n * 2);
  if (!st)
    st = buf_add(&f, &b, NULL, n * 2);
  if (!st)
    st = launch(&f, "dequant_fp4", &b, &n, 1, pairs / 64, 64);
  if (!st)
    st = uq_sim_read(f.sim, b.addr[2], bf, n * 2);
  if (!st)
    st = uq_sim_read(f.sim, b.addr[4], hf, n * 2);
  bufs_free(&f, &b);
  int failures = run_failed("dequant_fp4", st);
  for (uint32_t p = 0; p < pairs && !failures; ++p) {
    unsigned s = scales[p / 16];
    double sc = ldexp(1.0, (int)s - 127);
    for (int h = 0; h < 2 && !failures; ++h) {
      unsigned c = h ? codes[p] >> 4 : codes[p] & 15;
      uint16_t want = bf16_bits_exact(fp4_value(c) * sc);
      uint16_t got = bf[2 * p + h];
      if (got != want) {
        fprintf(stderr, "bf16 [%u] code %u scale %u: got 0x%04x want 0x%04x\n",
                2 * p + h, c, s, got, want);
        ++failures;
      }
      if (s < 117 || s > 137)
        continue;
      // The product is exact in f16; the sum rounds once.
      uint32_t mirror = p - p % 64 + 63 - p % 64;
      uint16_t want_h =
          f16_bits(fp4_value(c) * sc + f16_value(bias[h * pairs + p]));
      uint16_t got_h = hf[h * pairs + mirror];
      if (got_h != want_h) {
        fprintf(stderr,
                "f16 pair %u half %d code %u scale %u: got 0x%04x "
                "want 0x%04x\n",
                p, h, c, s, got_h, want_h);
        ++failures;
      }
    }
  }
  free(codes);
  free(scales);
  free(bias);
  free(bf);
  free(hf);
  fixture_close(&f);
  return failures ? 1 : 0;
}

// ---------------------------------------------------------------------------
// mfma_scale.cl: D = (A * 2^(sa-127)) (B * 2^(sb-127))^T per 32-element K
// block, products and sums exact in double here. The hardware accumulates
// in f32 (the order inside one instruction is its own), so the tolerance is
// 2^-20 of the sum of the terms' magnitudes.

static double e4m3_value(unsigned b) {
  int s = (b >> 7) & 1, e = (b >> 3) & 15, m = b & 7;
  double v = e == 0 ? ldexp(m / 8.0, -6) : ldexp(1 + m / 8.0, e - 7);
  return s ? -v : v;
}

static int run_mfma(const char *kernel, int tile, int K) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f, "mfma_scale.hsaco"));
  int kb = K / 32;
  uint8_t *a = malloc((size_t)tile * K), *bq = malloc((size_t)tile * K / 2);
  uint8_t *sa = malloc((size_t)tile * kb), *sb = malloc((size_t)tile * kb);
  float *d = malloc((size_t)tile * tile * 4);
  for (int i = 0; i < tile * K; ++i) {
    unsigned v;
    do
      v = rnd() & 0xFF;
    while ((v & 0x7F) == 0x7F); // no NaN codes
    a[i] = (uint8_t)v;
  }
  for (int i = 0; i < tile * K / 2; ++i)
    bq[i] = (uint8_t)rnd();
  for (int i = 0; i < tile * kb; ++i) {
    sa[i] = (uint8_t)(120 + rnd() % 15);
    sb[i] = (uint8_t)(120 + rnd() % 15);
  }
  bufs_t b = {0};
  uq_status_t st = buf_add(&f, &b, a, (size_t)tile * K);
  if (!st)
    st = buf_add(&f, &b, bq, (size_t)tile * K / 2);
  if (!st)
    st = buf_add(&f, &b, sa, (size_t)tile * kb);
  if (!st)
    st = buf_add(&f, &b, sb, (size_t)tile * kb);
  if (!st)
    st = buf_add(&f, &b, NULL, (size_t)tile * tile * 4);
  if (!st)
    st = launch(&f, kernel, &b, NULL, 0, 1, 64);
  if (!st)
    st = uq_sim_read(f.sim, b.addr[4], d, (size_t)tile * tile * 4);
  bufs_free(&f, &b);
  int failures = run_failed(kernel, st);
  for (int m = 0; m < tile && !failures; ++m)
    for (int n = 0; n < tile && !failures; ++n) {
      double sum = 0, mag = 0;
      for (int k = 0; k < K; ++k) {
        unsigned c = bq[n * K / 2 + k / 2];
        c = k & 1 ? c >> 4 : c & 15;
        double t = e4m3_value(a[m * K + k]) *
                   ldexp(1.0, sa[m * kb + k / 32] - 127) * fp4_value(c) *
                   ldexp(1.0, sb[n * kb + k / 32] - 127);
        sum += t;
        mag += fabs(t);
      }
      double got = d[m * tile + n];
      if (!(fabs(got - sum) <= mag * 0x1p-20)) {
        fprintf(stderr, "%s D[%d][%d]: got %.9g want %.9g (sum |t| %.3g)\n",
                kernel, m, n, got, sum, mag);
        ++failures;
      }
    }
  free(a);
  free(bq);
  free(sa);
  free(sb);
  free(d);
  fixture_close(&f);
  return failures ? 1 : 0;
}
static int test_mfma_scale_16x16(void) {
  return run_mfma("mfma_scale_16x16", 16, 256);
}
static int test_mfma_scale_32x32(void) {
  return run_mfma("mfma_scale_32x32", 32, 128);
}

// ---------------------------------------------------------------------------
// short_math.cl: OpenCL C's 16-bit rules, vector (shift amount modulo 16)
// and scalar (promotion to int: the whole amount shifts a 32-bit value).

static void short_ref(uint16_t x, uint16_t y, unsigned s, int vector,
                      uint16_t r[8]) {
  int16_t sx = (int16_t)x, sy = (int16_t)y;
  unsigned sh = vector ? s & 15 : s;
  r[0] = (uint16_t)((uint32_t)x * y);
  r[1] = (uint16_t)((uint32_t)x << sh);
  r[2] = (uint16_t)((uint32_t)x >> sh);
  r[3] = (uint16_t)((int32_t)sx >> sh); // arithmetic: sign bits come in
  r[4] = (uint16_t)((uint32_t)x + y > 0xFFFF ? 0xFFFF : x + y);
  r[5] = (uint16_t)(x > y ? x - y : 0);
  int hi = sx > sy ? sx : sy, lo = sx > sy ? sy : sx;
  r[6] = (uint16_t)(hi - lo);
  r[7] = (uint16_t)((x & y) | (~x & (y ^ 0x5A5A)));
}

static int run_short(const char *kernel, int vector) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f, "short_math.hsaco"));
  const uint32_t n = 512;
  uint16_t *x = malloc(n * 2), *y = malloc(n * 2), *out = malloc(8 * n * 2);
  uint8_t *s = malloc(n);
  static const uint16_t edge[] = {0, 1, 0x7FFF, 0x8000, 0xFFFF, 0xFF00, 0x00FF};
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = (uint16_t)(i < 49 ? edge[i % 7] : rnd());
    y[i] = (uint16_t)(i < 49 ? edge[i / 7] : rnd());
    s[i] = (uint8_t)(i < 32 ? i : rnd() % 32); // every amount, >= 16 too
  }
  bufs_t b = {0};
  uq_status_t st = buf_add(&f, &b, x, n * 2);
  if (!st)
    st = buf_add(&f, &b, y, n * 2);
  if (!st)
    st = buf_add(&f, &b, s, n);
  if (!st)
    st = buf_add(&f, &b, NULL, 8 * n * 2);
  uint32_t items = vector ? n / 2 : n;
  if (!st)
    st = launch(&f, kernel, &b, &n, 1, (items + 63) / 64, 64);
  if (!st)
    st = uq_sim_read(f.sim, b.addr[3], out, 8 * n * 2);
  bufs_free(&f, &b);
  int failures = run_failed(kernel, st);
  for (uint32_t i = 0; i < n && !failures; ++i) {
    uint16_t r[8];
    short_ref(x[i], y[i], s[i], vector, r);
    for (int j = 0; j < 8; ++j)
      if (out[j * n + i] != r[j]) {
        fprintf(stderr,
                "%s r%d x=0x%04x y=0x%04x s=%u: got 0x%04x want "
                "0x%04x\n",
                kernel, j, x[i], y[i], s[i], out[j * n + i], r[j]);
        ++failures;
      }
  }
  free(x);
  free(y);
  free(s);
  free(out);
  fixture_close(&f);
  return failures ? 1 : 0;
}
static int test_short_math(void) { return run_short("short_math", 1); }
static int test_short_math_scalar(void) {
  return run_short("short_math_scalar", 0);
}

// ---------------------------------------------------------------------------
// One simulator, two threads: thread A launches spin_until_flag, which runs
// until the flag in device memory is set; the main thread meanwhile
// allocates, launches another kernel (short_math_scalar) and checks it, and
// only then sets the flag. Deterministic: if a launch held a lock the others
// need, the main thread would wait for A and A would spin until its
// instruction budget ran out (RESOURCE_EXHAUSTED), failing the test instead
// of hanging it.

typedef struct spin_job_s {
  uq_sim_t *sim;
  uq_sim_program_t *prog;
  uint64_t flag, out;
  uq_status_t status;
} spin_job_t;

static void *spin_thread(void *arg) {
  spin_job_t *job = arg;
  const uq_kernel_info_t *k = NULL;
  job->status = uq_code_object_find_kernel(
      uq_sim_program_code_object(job->prog), "spin_until_flag", &k);
  if (job->status)
    return NULL;
  uint8_t args[16];
  memcpy(args, &job->flag, 8);
  memcpy(args + 8, &job->out, 8);
  uq_sim_launch_t L = {
      {1, 1, 1}, {64, 1, 1},         args, k->kernarg_segment_size,
      0,         200u * 1000 * 1000, 0};
  job->status = uq_sim_launch(job->sim, job->prog, "spin_until_flag", &L, NULL);
  return NULL;
}

static int test_concurrent_launches(void) {
  fixture_t spin, other;
  UQ_EXPECT_OK(fixture_open(&spin, "spin.hsaco"));
  // The second program shares the first one's simulator.
  memset(&other, 0, sizeof(other));
  other.sim = spin.sim;
  FILE *fp = fopen(UQ_FOREIGN_DIR "/short_math.hsaco", "rb");
  UQ_EXPECT(fp != NULL);
  uint8_t buf[1 << 16];
  size_t got = fread(buf, 1, sizeof(buf), fp);
  fclose(fp);
  UQ_EXPECT_OK(uq_sim_program_load(spin.sim, buf, got, &other.prog));
  spin_job_t job = {spin.sim, spin.prog, 0, 0, UQ_OK};
  uint32_t zero = 0;
  UQ_EXPECT_OK(uq_sim_alloc(spin.sim, 4, &job.flag));
  UQ_EXPECT_OK(uq_sim_write(spin.sim, job.flag, &zero, 4));
  UQ_EXPECT_OK(uq_sim_alloc(spin.sim, 4, &job.out));
  pthread_t thread;
  UQ_EXPECT(pthread_create(&thread, NULL, spin_thread, &job) == 0);
  // While A spins: a whole launch on the same simulator, checked.
  int failures = 0;
  const uint32_t n = 64;
  uint16_t x[64], y[64], out[8 * 64];
  uint8_t sh[64];
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = (uint16_t)rnd();
    y[i] = (uint16_t)rnd();
    sh[i] = (uint8_t)(rnd() % 32);
  }
  bufs_t b = {0};
  uq_status_t st = buf_add(&other, &b, x, sizeof(x));
  if (!st)
    st = buf_add(&other, &b, y, sizeof(y));
  if (!st)
    st = buf_add(&other, &b, sh, sizeof(sh));
  if (!st)
    st = buf_add(&other, &b, NULL, sizeof(out));
  if (!st)
    st = launch(&other, "short_math_scalar", &b, &n, 1, 1, 64);
  if (!st)
    st = uq_sim_read(other.sim, b.addr[3], out, sizeof(out));
  bufs_free(&other, &b);
  failures += run_failed("second launch", st);
  for (uint32_t i = 0; i < n && !failures; ++i) {
    uint16_t r[8];
    short_ref(x[i], y[i], sh[i], 0, r);
    for (int j = 0; j < 8; ++j)
      failures += out[j * n + i] != r[j];
  }
  // Release A, then check it finished by seeing the flag.
  uint32_t one = 1, spins = 0;
  UQ_EXPECT_OK(uq_sim_write(spin.sim, job.flag, &one, 4));
  pthread_join(thread, NULL);
  if (job.status) {
    fprintf(stderr, "spinning launch: %s\n", uq_status_message(job.status));
    uq_status_free(job.status);
    ++failures;
  } else {
    UQ_EXPECT_OK(uq_sim_read(spin.sim, job.out, &spins, 4));
  }
  uq_sim_program_destroy(other.prog);
  fixture_close(&spin);
  return failures ? 1 : 0;
}

static const uq_test_case_t tests[] = {
    {"concurrent_launches", test_concurrent_launches},
    {"softmax", test_softmax},
    {"dequant_fp4", test_dequant_fp4},
    {"mfma_scale_16x16", test_mfma_scale_16x16},
    {"mfma_scale_32x32", test_mfma_scale_32x32},
    {"short_math", test_short_math},
    {"short_math_scalar", test_short_math_scalar},
    {NULL, NULL},
};

int main(int argc, char **argv) {
  unsigned seed = (unsigned)uq_test_seed();
  rng_state = seed ? seed : 1;
  return uq_test_main(argc, argv, tests);
}
