// Tests of the host reference: the launch policy on hand-derived cases,
// every validation rule, the exact mode against a separately written naive
// float64 attention, the faithful mode against the exact one (and its
// partition partials against a per-partition float64 oracle), the reduce,
// and the unquantized attention.
#include "uq/reference.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "test/unit/format/rng.h"
#include "test/unit/uq_test.h"
#include "uq/policy.h"

// ---- Launch policy
// ------------------------------------------------------------

static int test_policy_table(void) {
  // Each row derived by hand from the seed's rules (policy.h):
  //  B  mbps        bs  splits  ->  P    TGPP   (max_seq, required, useful)
  static const struct {
    int32_t b, mbps, bs, splits, parts, tgpp;
  } cases[] = {
      {1, 1, 16, 32, 2, 1},        // 16 tok: req 1, useful 1 -> P floor 2
      {1, 128, 16, 32, 16, 1},     // 2048: floor 32, useful 11 -> 16
      {4, 1024, 16, 32, 64, 1},    // 16384: req 64, useful 86 -> 64
      {8, 512, 256, 32, 512, 1},   // 131072: cap 512, req 512
      {9, 512, 256, 32, 256, 2},   // cap 256: TGPP = 512 / 256
      {1000, 1, 256, 32, 2, 1},    // 256: useful 2
      {9, 3, 128, 32, 2, 1},       // 384: req 2, useful 2
      {1, 64, 64, 0, 16, 1},       // splits 0 acts as 1: floor 1, req 16
      {1, 4, 256, 1, 4, 1},        // 1024: req 4
      {16, 1000, 256, 32, 256, 4}, // 256000: req 1000 -> TGPP 4
      {2, 2048, 16, 1000, 256, 1}, // floor 512, useful 171 -> 256
      {1, 2147483647, 256, 32, 512, 4194304}, // 2^39 tokens: TGPP 2^22
      {9, 2147483647, 16, 32, 256, 524288},   // req 2^27 / 256 = 2^19
      {8, 7, 32, 32, 2, 1},                   // 224: req 1, useful 2
      {3, 13, 64, 4, 4, 1},                   // 832: floor 4, req 4, useful 5
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    uq_launch_plan_t plan = {0, 0};
    // The rules do not depend on the head dim (policy.h): every D gives the
    // same plan.
    for (int32_t d = 64; d <= 256; d *= 2) {
      UQ_EXPECT_OK(uq_launch_policy(cases[i].b, cases[i].mbps, cases[i].bs, d,
                                    cases[i].splits, &plan));
      if (plan.num_partitions != cases[i].parts || plan.tgpp != cases[i].tgpp)
        UQ_TEST_FAIL_("case %zu (B %d, mbps %d, bs %d, splits %d): P %d TGPP "
                      "%d, want %d %d",
                      i, cases[i].b, cases[i].mbps, cases[i].bs,
                      cases[i].splits, plan.num_partitions, plan.tgpp,
                      cases[i].parts, cases[i].tgpp);
    }
  }
  return 0;
}

static int test_policy_properties(void) {
  uq_rng_t rng = uq_rng_for(11);
  static const int32_t sizes[5] = {16, 32, 64, 128, 256};
  for (int i = 0; i < 20000; ++i) {
    int32_t b = 1 + (int32_t)(uq_rng_next(&rng) % 64);
    int32_t mbps = 1 + (int32_t)(uq_rng_next(&rng) % 100000);
    int32_t bs = sizes[uq_rng_next(&rng) % 5];
    int32_t splits = (int32_t)(uq_rng_next(&rng) % 600);
    uq_launch_plan_t plan;
    UQ_EXPECT_OK(uq_launch_policy(b, mbps, bs, 64 << (i % 3), splits, &plan));
    int64_t p = plan.num_partitions, t = plan.tgpp;
    UQ_EXPECT(p >= 2 && p <= (b <= 8 ? 512 : 256) && (p & (p - 1)) == 0);
    UQ_EXPECT(t >= 1 && (t & (t - 1)) == 0);
    UQ_EXPECT(p * t * 256 >= (int64_t)mbps * bs); // every token covered
  }
  return 0;
}

static int test_policy_errors(void) {
  uq_launch_plan_t plan = {-5, -5};
  UQ_EXPECT_CODE(uq_launch_policy(1, 1, 16, 256, 32, NULL),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_launch_policy(0, 1, 16, 256, 32, &plan),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_launch_policy(-1, 1, 16, 256, 32, &plan),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_launch_policy(1, 0, 16, 256, 32, &plan),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_launch_policy(1, 4, 48, 256, 32, &plan),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_launch_policy(1, 4, 0, 256, 32, &plan),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_launch_policy(1, 4, 512, 256, 32, &plan),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_launch_policy(1, 4, 16, 256, -1, &plan),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_launch_policy(1, 4, 16, 0, 32, &plan),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_launch_policy(1, 4, 16, 96, 32, &plan),
                 UQ_STATUS_UNIMPLEMENTED);
  UQ_EXPECT_CODE(uq_launch_policy_window(1, 4, 16, 1024, 32, 0, &plan),
                 UQ_STATUS_UNIMPLEMENTED);
  UQ_EXPECT(plan.num_partitions == -5 && plan.tgpp == -5); // untouched
  return 0;
}

// ---- A random decode problem
// ---------------------------------------------------

typedef struct fixture_s {
  uq_decode_problem_t p;
  uint8_t *cache;
  uint16_t *query, *output;
  int32_t *tables, *lens;
  float max_abs_v; // over every written V value (dequantized)
} fixture_t;

static void fixture_free(fixture_t *f) {
  free(f->cache), free(f->query), free(f->output), free(f->tables),
      free(f->lens);
  memset(f, 0, sizeof *f);
}

// B sequences with the given lengths; blocks handed out in a shuffled order;
// unused block-table entries hold garbage (they must never be read). The
// query is a slice of a fused QKV tensor (sequence stride (Hq + 2 Hk) * D);
// the output has a padded sequence stride. Head dim d, softmax scale
// 1/sqrt(d); padded 0 is the content size d + d/16.
static int fixture_make(fixture_t *f, uq_rng_t *rng, int32_t d, int32_t b,
                        int32_t hk, int32_t qg, int32_t bs, int32_t padded,
                        const int32_t *lens, double q_sigma) {
  memset(f, 0, sizeof *f);
  int32_t mbps = 1;
  int64_t blocks = 0;
  for (int32_t i = 0; i < b; ++i) {
    int32_t used = (lens[i] + bs - 1) / bs;
    mbps = used + 1 > mbps ? used + 1 : mbps;
    blocks += used;
  }
  blocks += 3; // spare blocks nobody references
  int32_t hq = hk * qg;
  f->p.num_seqs = b;
  f->p.query_group = qg;
  f->p.cache = (uq_cache_layout_t){.num_blocks = blocks,
                                   .block_size = bs,
                                   .num_kv_heads = hk,
                                   .padded_slot = padded ? padded : d + d / 16,
                                   .head_dim = d};
  f->p.max_blocks_per_seq = mbps;
  f->p.softmax_scale = (float)(1.0 / sqrt((double)d));
  f->p.q_overflow = UQ_FP8_OVERFLOW_SATURATE;
  f->p.query_stride_seq = (int64_t)(hq + 2 * hk) * d;
  f->p.query_stride_head = d;
  f->p.output_stride_seq = (int64_t)hq * d + 64;
  f->p.output_stride_head = d;
  size_t cache_size = 0;
  if (uq_status_consume_code(uq_cache_layout_size(&f->p.cache, &cache_size)))
    return 1;
  f->cache = malloc(cache_size);
  f->query =
      malloc(sizeof(uint16_t) * (size_t)b * (size_t)f->p.query_stride_seq);
  f->output =
      malloc(sizeof(uint16_t) * (size_t)b * (size_t)f->p.output_stride_seq);
  f->tables = malloc(sizeof(int32_t) * (size_t)b * (size_t)mbps);
  f->lens = malloc(sizeof(int32_t) * (size_t)b);
  int64_t *perm = malloc(sizeof(int64_t) * (size_t)blocks);
  if (!f->cache || !f->query || !f->output || !f->tables || !f->lens || !perm)
    return 1;
  // Unwritten slots hold a pattern whose scale bytes are 0xFF (NaN as E8M0):
  // reading one would poison the output.
  memset(f->cache, 0xFF, cache_size);
  for (int64_t i = 0; i < blocks; ++i)
    perm[i] = i;
  for (int64_t i = blocks - 1; i > 0; --i) {
    int64_t j = (int64_t)(uq_rng_next(rng) % (uint64_t)(i + 1));
    int64_t t = perm[i];
    perm[i] = perm[j], perm[j] = t;
  }
  int64_t next = 0;
  for (int32_t i = 0; i < b; ++i) {
    f->lens[i] = lens[i];
    int32_t used = (lens[i] + bs - 1) / bs;
    for (int32_t j = 0; j < mbps; ++j)
      f->tables[i * mbps + j] =
          j < used ? (int32_t)perm[next++] : (int32_t)(-1000 - j);
  }
  free(perm);
  for (size_t i = 0; i < (size_t)b * (size_t)f->p.query_stride_seq; ++i)
    f->query[i] = uq_float_to_bf16((float)(uq_rng_gauss(rng) * q_sigma));
  // Write every sequence's tokens through the server-style writer.
  for (int32_t i = 0; i < b; ++i) {
    int32_t n = lens[i];
    if (n == 0)
      continue;
    uint16_t *k = malloc(sizeof(uint16_t) * (size_t)n * hk * d);
    uint16_t *v = malloc(sizeof(uint16_t) * (size_t)n * hk * d);
    int64_t *slots = malloc(sizeof(int64_t) * (size_t)n);
    if (!k || !v || !slots)
      return 1;
    for (size_t e = 0; e < (size_t)n * hk * d; ++e) {
      k[e] = uq_float_to_bf16((float)uq_rng_gauss(rng));
      v[e] = uq_float_to_bf16((float)uq_rng_gauss(rng));
    }
    for (int32_t t = 0; t < n; ++t)
      slots[t] = (int64_t)f->tables[i * mbps + t / bs] * bs + t % bs;
    uq_kv_tokens_t tokens = {
        k, (int64_t)hk * d, d, v, (int64_t)hk * d, d, slots, n, UQ_DTYPE_BF16};
    uq_status_code_t code = uq_status_consume_code(
        uq_cache_write(&f->p.cache, f->cache, cache_size, &tokens));
    for (size_t e = 0; e < (size_t)n * hk * d; ++e) {
      // Dequantized |v| <= |v| + 3.07 * 2^e <= about 2 |v|max; track the
      // actual bf16 input max as a scale for tolerances.
      float a = fabsf(uq_bf16_to_float(v[e]));
      f->max_abs_v = a > f->max_abs_v ? a : f->max_abs_v;
    }
    free(k), free(v), free(slots);
    if (code != UQ_STATUS_OK)
      return 1;
  }
  f->p.query = f->query;
  f->p.kv_cache = f->cache;
  f->p.block_tables = f->tables;
  f->p.seq_lens = f->lens;
  f->p.output = f->output;
  return 0;
}

// Naive float64 attention for one (sequence, query head), written apart from
// the library's loops: the slot reader, then softmax in the textbook form.
static int naive_head(const fixture_t *f, int32_t b, int32_t q_head,
                      double out[256]) {
  const uq_decode_problem_t *p = &f->p;
  const int D = p->cache.head_dim;
  int32_t kv_head = q_head / p->query_group;
  float q[256], k[256], v[256];
  if (uq_status_consume_code(uq_query_rotate(
          D, p->query + b * p->query_stride_seq + q_head * p->query_stride_head,
          p->q_overflow, q)))
    return 1;
  int32_t n = p->seq_lens[b];
  double *scores = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  if (!scores)
    return 1;
  size_t size = 0;
  uq_status_free(uq_cache_layout_size(&p->cache, &size));
  double top = -INFINITY;
  for (int32_t t = 0; t < n; ++t) {
    int32_t block =
        p->block_tables[b * p->max_blocks_per_seq + t / p->cache.block_size];
    if (uq_status_consume_code(
            uq_cache_read_slot(&p->cache, p->kv_cache, size, block,
                               t % p->cache.block_size, kv_head, k, v)))
      return free(scores), 1;
    double s = 0;
    for (int d = 0; d < D; ++d)
      s += (double)q[d] * k[d];
    scores[t] = s * p->softmax_scale;
    top = fmax(top, scores[t]);
  }
  double denom = 0;
  for (int d = 0; d < D; ++d)
    out[d] = 0;
  for (int32_t t = 0; t < n; ++t) {
    int32_t block =
        p->block_tables[b * p->max_blocks_per_seq + t / p->cache.block_size];
    uq_status_free(uq_cache_read_slot(&p->cache, p->kv_cache, size, block,
                                      t % p->cache.block_size, kv_head, k, v));
    double w = exp(scores[t] - top);
    denom += w;
    for (int d = 0; d < D; ++d)
      out[d] += w * v[d];
  }
  for (int d = 0; d < D && n > 0; ++d)
    out[d] /= denom;
  free(scores);
  return 0;
}

static const uint16_t *out_row(const fixture_t *f, int32_t b, int32_t h) {
  return f->output + b * f->p.output_stride_seq + h * f->p.output_stride_head;
}

typedef struct shape_s {
  int32_t d, b, hk, qg, bs, padded; // padded 0: d + d/16
  int32_t lens[4];
} shape_t;

// Every head dim, query groups 1..16 (the models' 1, 2, 4, 5, 7, 8 and the
// seed's 6, 16), padded and tight slots.
static const shape_t kShapes[] = {
    {256, 3, 2, 8, 16, 272, {1, 257, 600}},
    {256, 2, 1, 6, 64, 288, {0, 300}},
    {256, 2, 1, 16, 256, 272, {256, 15}},
    {256, 4, 2, 6, 32, 276, {16, 17, 255, 513}},
    {256, 1, 3, 8, 128, 288, {700}},
    {256, 2, 2, 2, 16, 0, {33, 290}},
    {128, 3, 2, 4, 16, 0, {1, 257, 600}},
    {128, 2, 1, 7, 64, 144, {0, 300}},
    {128, 2, 2, 8, 32, 140, {513, 16}},
    {128, 1, 1, 16, 256, 0, {700}},
    {64, 3, 2, 8, 16, 0, {1, 257, 600}},
    {64, 2, 3, 1, 32, 72, {300, 17}},
    {64, 2, 1, 5, 128, 0, {0, 511}},
    {64, 1, 2, 16, 16, 80, {700}},
};
#define SHAPE_FIXTURE(f, rng, sh, q_sigma)                                     \
  fixture_make((f), (rng), (sh)->d, (sh)->b, (sh)->hk, (sh)->qg, (sh)->bs,     \
               (sh)->padded, (sh)->lens, (q_sigma))

static int test_exact_vs_naive(void) {
  uq_rng_t rng = uq_rng_for(12);
  for (size_t s = 0; s < sizeof kShapes / sizeof kShapes[0]; ++s) {
    const shape_t *sh = &kShapes[s];
    fixture_t f;
    if (SHAPE_FIXTURE(&f, &rng, sh, 1.0))
      UQ_TEST_FAIL_("fixture");
    UQ_EXPECT_OK(uq_reference_decode_exact(&f.p));
    for (int32_t b = 0; b < sh->b; ++b) {
      for (int32_t h = 0; h < sh->hk * sh->qg; ++h) {
        double want[256];
        if (naive_head(&f, b, h, want))
          UQ_TEST_FAIL_("naive");
        const uint16_t *got = out_row(&f, b, h);
        for (int d = 0; d < sh->d; ++d) {
          // One bf16 rounding (unit roundoff 2^-8 relative) of a float64
          // value whose own summation-order error is ~1e-15.
          double tol = ldexp(fabs(want[d]), -8) * 1.001 + 1e-12;
          float g = uq_bf16_to_float(got[d]);
          if (sh->lens[b] == 0)
            UQ_EXPECT_EQ_HEX(got[d], 0);
          else if (!(fabs(g - want[d]) <= tol))
            UQ_TEST_FAIL_("shape %zu seq %d head %d dim %d: %.9g vs %.9g", s, b,
                          h, d, (double)g, want[d]);
        }
      }
    }
    fixture_free(&f);
  }
  return 0;
}

// Faithful against exact. They differ by: bf16(p) in the PV product (bf16
// unit roundoff 2^-8 relative per weight, so at most 2^-8 max|v| on the
// weighted mean), the bf16 partials (2^-8 max|v|), fp32 softmax and
// accumulation and libm exp2f (~1e-6 relative), and each side's final bf16
// rounding (2^-8 |out| each). Hence |faithful - exact| <= 4 * 2^-8 *
// max|v_deq| = 2^-6 max|v_deq|, with max|v_deq| <= 1.5 max|v| (6 * 2^e and
// 2^e <= sqrt(2) * 0.156 absmax) -> tolerance 1.5 * 2^-6 * max|v|.
static int compare_faithful(const fixture_t *f, const uint16_t *exact,
                            const char *what) {
  double tol = 1.5 * ldexp(f->max_abs_v, -6);
  double worst = 0;
  for (int32_t b = 0; b < f->p.num_seqs; ++b) {
    for (int32_t h = 0; h < f->p.cache.num_kv_heads * f->p.query_group; ++h) {
      const uint16_t *got = out_row(f, b, h);
      const uint16_t *want =
          exact + b * f->p.output_stride_seq + h * f->p.output_stride_head;
      for (int d = 0; d < f->p.cache.head_dim; ++d) {
        double diff =
            fabs(uq_bf16_to_float(got[d]) - uq_bf16_to_float(want[d]));
        worst = diff > worst ? diff : worst;
        if (!(diff <= tol))
          UQ_TEST_FAIL_("%s: seq %d head %d dim %d: %g vs %g (tol %g)", what, b,
                        h, d, (double)uq_bf16_to_float(got[d]),
                        (double)uq_bf16_to_float(want[d]), tol);
      }
    }
  }
  printf("  %s: worst |diff| %.3g, tolerance %.3g\n", what, worst, tol);
  return 0;
}

static int test_faithful_vs_exact(void) {
  uq_rng_t rng = uq_rng_for(13);
  for (size_t s = 0; s < sizeof kShapes / sizeof kShapes[0]; ++s) {
    const shape_t *sh = &kShapes[s];
    fixture_t f;
    if (SHAPE_FIXTURE(&f, &rng, sh, 1.0))
      UQ_TEST_FAIL_("fixture");
    size_t out_elems = (size_t)sh->b * (size_t)f.p.output_stride_seq;
    uint16_t *exact = malloc(sizeof(uint16_t) * out_elems);
    if (!exact)
      UQ_TEST_FAIL_("out of memory");
    UQ_EXPECT_OK(uq_reference_decode_exact(&f.p));
    memcpy(exact, f.output, sizeof(uint16_t) * out_elems);
    // The policy's plan, then extremes: one partition walking everything,
    // many partitions of one tile-group, and a middle ground.
    uq_launch_plan_t plan;
    UQ_EXPECT_OK(uq_launch_policy(sh->b, f.p.max_blocks_per_seq, sh->bs, sh->d,
                                  32, &plan));
    int32_t plans[4][2] = {
        {plan.num_partitions, plan.tgpp}, {1, 8}, {4, 1}, {3, 2}};
    for (int i = 0; i < 4; ++i) {
      memset(f.output, 0xEE, sizeof(uint16_t) * out_elems);
      UQ_EXPECT_OK(
          uq_reference_decode_faithful(&f.p, plans[i][0], plans[i][1], NULL));
      if (compare_faithful(&f, exact, "faithful"))
        UQ_TEST_FAIL_("shape %zu, P %d, TGPP %d", s, plans[i][0], plans[i][1]);
    }
    free(exact);
    fixture_free(&f);
  }
  return 0;
}

// The partials of each partition against float64 attention over exactly the
// tokens that partition owns (groups p, p+P, ... of the walk, at most its
// groups per partition).
static int faithful_partials(uq_rng_t *rng, int32_t D,
                             const uq_launch_walk_t *walk) {
  const int32_t lens[3] = {1100, 0, 300};
  fixture_t f;
  if (fixture_make(&f, rng, D, 3, 2, 6, 32, 0, lens, 1.0))
    UQ_TEST_FAIL_("fixture");
  const int32_t parts = walk->num_partitions, tgpp = walk->groups_per_partition,
                qg = 6, hk = 2;
  const int32_t group = 16 * walk->group_tiles;
  size_t rows = (size_t)3 * hk * parts * qg;
  uq_decode_partials_t partials = {malloc(sizeof(uint16_t) * rows * D),
                                   malloc(sizeof(float) * rows),
                                   malloc(sizeof(float) * rows)};
  if (!partials.segm_out || !partials.segm_max || !partials.segm_sum)
    UQ_TEST_FAIL_("out of memory");
  UQ_EXPECT_OK(uq_reference_decode_faithful_walk(&f.p, walk, &partials));
  size_t size = 0;
  UQ_EXPECT_OK(uq_cache_layout_size(&f.p.cache, &size));
  // bf16(p) and the partial's own bf16 rounding: 2 * 2^-8 * max|v_deq|.
  double tol_o = 1.5 * ldexp(f.max_abs_v, -7);
  for (int32_t b = 0; b < 3; ++b) {
    for (int32_t kvh = 0; kvh < hk; ++kvh) {
      for (int32_t r = 0; r < qg; ++r) {
        float q[256], k[256], v[256];
        UQ_EXPECT_OK(uq_query_rotate(D,
                                     f.query + b * f.p.query_stride_seq +
                                         (kvh * qg + r) * f.p.query_stride_head,
                                     f.p.q_overflow, q));
        for (int32_t part = 0; part < parts; ++part) {
          size_t i = (((size_t)b * hk + kvh) * parts + part) * qg + r;
          double m = -INFINITY, l = 0, o[256] = {0};
          for (int pass = 0; pass < 2; ++pass) {
            for (int32_t tg = part, n = 0; n < tgpp; tg += parts, ++n) {
              for (int32_t t = tg * group;
                   t < tg * group + group && t < lens[b]; ++t) {
                int32_t block = f.tables[b * f.p.max_blocks_per_seq + t / 32];
                UQ_EXPECT_OK(uq_cache_read_slot(&f.p.cache, f.cache, size,
                                                block, t % 32, kvh, k, v));
                double s = 0;
                for (int d = 0; d < D; ++d)
                  s += (double)q[d] * k[d];
                s *= f.p.softmax_scale;
                if (pass == 0) {
                  m = fmax(m, s);
                } else {
                  double w = exp(s - m);
                  l += w;
                  for (int d = 0; d < D; ++d)
                    o[d] += w * v[d];
                }
              }
            }
          }
          if (l == 0) { // empty partition
            UQ_EXPECT(isinf(partials.segm_max[i]) && partials.segm_max[i] < 0);
            UQ_EXPECT_EQ_HEX(partials.segm_sum[i], 0);
            for (int d = 0; d < D; ++d)
              UQ_EXPECT_EQ_HEX(partials.segm_out[i * D + d], 0);
            continue;
          }
          // The stored max is the kernels' lazy one: at most the true max
          // and within 8 ln 2 of it (fp32 scores: relative 2^-23 of |m|,
          // plus tiny), and the sum is taken from it: l e^(m - max). The
          // sum of exps in fp32 with libm exp2f: relative 1e-4 is ample.
          double lazy = partials.segm_max[i], slack = 8 * log(2.0);
          double eps = 1e-5 * (1 + fabs(m));
          UQ_EXPECT(lazy <= m + eps && lazy >= m - slack - eps);
          double want_l = l * exp(m - lazy);
          UQ_EXPECT_NEAR(partials.segm_sum[i], want_l, 1e-4 * want_l);
          for (int d = 0; d < D; ++d)
            UQ_EXPECT_NEAR(uq_bf16_to_float(partials.segm_out[i * D + d]),
                           o[d] / l, tol_o);
        }
      }
    }
  }
  // Reducing the exposed partials reproduces the faithful output exactly.
  size_t out_elems = (size_t)3 * (size_t)f.p.output_stride_seq;
  uint16_t *direct = malloc(sizeof(uint16_t) * out_elems);
  if (!direct)
    UQ_TEST_FAIL_("out of memory");
  memcpy(direct, f.output, sizeof(uint16_t) * out_elems);
  memset(f.output, 0xEE, sizeof(uint16_t) * out_elems);
  uq_reduce_problem_t red = {.num_seqs = 3,
                             .num_kv_heads = hk,
                             .query_group = qg,
                             .head_dim = D,
                             .num_partitions = parts,
                             .segm_out = partials.segm_out,
                             .segm_max = partials.segm_max,
                             .segm_sum = partials.segm_sum,
                             .output = f.output,
                             .output_stride_seq = f.p.output_stride_seq,
                             .output_stride_head = f.p.output_stride_head};
  UQ_EXPECT_OK(uq_reference_reduce(&red));
  for (int32_t b = 0; b < 3; ++b)
    for (int32_t h = 0; h < hk * qg; ++h)
      UQ_EXPECT(memcmp(out_row(&f, b, h),
                       direct + b * f.p.output_stride_seq + h * D,
                       2 * (size_t)D) == 0);
  free(direct);
  free(partials.segm_out), free(partials.segm_max), free(partials.segm_sum);
  fixture_free(&f);
  return 0;
}

// Over 256-token tile-groups (the walk of uq_reference_decode_faithful,
// checked to be the same), and over single tiles with a P that divides
// nothing (69 tiles, 5 partitions of at most 14).
static int test_faithful_partials(void) {
  uq_rng_t rng = uq_rng_for(14);
  const uq_launch_walk_t walks[2] = {{4, 2, 16}, {5, 14, 1}};
  for (int w = 0; w < 2; ++w)
    for (int32_t d = 64; d <= 256; d *= 2)
      if (faithful_partials(&rng, d, &walks[w]))
        UQ_TEST_FAIL_("head dim %d, walk %d", d, w);
  return 0;
}

// One token: every softmax weight is exactly 1, so both modes must return
// the dequantized V of that token bit for bit (V values are bf16-exact).
static int test_single_token(void) {
  uq_rng_t rng = uq_rng_for(18);
  for (int32_t D = 64; D <= 256; D *= 2) {
    const int32_t lens[2] = {1, 1};
    fixture_t f;
    if (fixture_make(&f, &rng, D, 2, 2, 16, 32, 0, lens, 1.0))
      UQ_TEST_FAIL_("fixture");
    size_t size = 0;
    UQ_EXPECT_OK(uq_cache_layout_size(&f.p.cache, &size));
    for (int mode = 0; mode < 2; ++mode) {
      if (mode == 0)
        UQ_EXPECT_OK(uq_reference_decode_exact(&f.p));
      else
        UQ_EXPECT_OK(uq_reference_decode_faithful(&f.p, 2, 1, NULL));
      for (int32_t b = 0; b < 2; ++b) {
        for (int32_t h = 0; h < 32; ++h) {
          float k[256], v[256];
          UQ_EXPECT_OK(uq_cache_read_slot(&f.p.cache, f.cache, size,
                                          f.tables[b * f.p.max_blocks_per_seq],
                                          0, h / 16, k, v));
          for (int d = 0; d < D; ++d)
            UQ_EXPECT_EQ_HEX(out_row(&f, b, h)[d], uq_float_to_bf16(v[d]));
        }
      }
    }
    fixture_free(&f);
  }
  return 0;
}

// The reduce on hand-made partials: P = 3, partition 1 empty.
static int test_reduce_hand(void) {
  enum { P = 3, QG = 1 };
  uint16_t o[P * 256];
  float m[P] = {1.5f, -INFINITY, -0.25f}, l[P] = {3.0f, 0.0f, 7.0f};
  uq_rng_t rng = uq_rng_for(15);
  for (int i = 0; i < P * 256; ++i)
    o[i] = uq_float_to_bf16((float)uq_rng_gauss(&rng));
  for (int d = 0; d < 256; ++d)
    o[256 + d] = 0; // the empty partition's zeros
  uint16_t out[256];
  uq_reduce_problem_t r = {.num_seqs = 1,
                           .num_kv_heads = 1,
                           .query_group = QG,
                           .head_dim = 256,
                           .num_partitions = P,
                           .segm_out = o,
                           .segm_max = m,
                           .segm_sum = l,
                           .output = out,
                           .output_stride_seq = 256,
                           .output_stride_head = 256};
  UQ_EXPECT_OK(uq_reference_reduce(&r));
  double w0 = exp(1.5 - 1.5) * 3.0, w2 = exp(-0.25 - 1.5) * 7.0;
  for (int d = 0; d < 256; ++d) {
    double want =
        (w0 * uq_bf16_to_float(o[d]) + w2 * uq_bf16_to_float(o[512 + d])) /
        (w0 + w2);
    // fp32 arithmetic then one bf16 rounding.
    UQ_EXPECT_NEAR(uq_bf16_to_float(out[d]), want,
                   ldexp(fabs(want), -8) + 1e-6);
  }
  // Every partition empty -> zeros, not NaN.
  float m_empty[P] = {-INFINITY, -INFINITY, -INFINITY}, l_empty[P] = {0, 0, 0};
  r.segm_max = m_empty, r.segm_sum = l_empty;
  memset(out, 0xEE, sizeof out);
  UQ_EXPECT_OK(uq_reference_reduce(&r));
  for (int d = 0; d < 256; ++d)
    UQ_EXPECT_EQ_HEX(out[d], 0);
  // ... and with a sink too: the sink alone is 0 / e^0 = 0.
  float sink = 2.0f;
  r.sinks = &sink;
  memset(out, 0xEE, sizeof out);
  UQ_EXPECT_OK(uq_reference_reduce(&r));
  for (int d = 0; d < 256; ++d)
    UQ_EXPECT_EQ_HEX(out[d], 0);
  // A sink above every partition max: M = sink, the denominator gains
  // e^(sink - M) = 1, the partition weights shrink by e^(m_p - sink).
  r.segm_max = m, r.segm_sum = l;
  UQ_EXPECT_OK(uq_reference_reduce(&r));
  {
    double v0 = exp(1.5 - 2.0) * 3.0, v2 = exp(-0.25 - 2.0) * 7.0;
    for (int d = 0; d < 256; ++d) {
      double want =
          (v0 * uq_bf16_to_float(o[d]) + v2 * uq_bf16_to_float(o[512 + d])) /
          (1.0 + v0 + v2);
      UQ_EXPECT_NEAR(uq_bf16_to_float(out[d]), want,
                     ldexp(fabs(want), -8) + 1e-6);
    }
  }
  // A -inf sink is no sink: the result of the first case, bit for bit.
  uint16_t no_sink[256];
  r.sinks = NULL;
  UQ_EXPECT_OK(uq_reference_reduce(&r));
  memcpy(no_sink, out, sizeof out);
  sink = -INFINITY;
  r.sinks = &sink;
  UQ_EXPECT_OK(uq_reference_reduce(&r));
  UQ_EXPECT(memcmp(no_sink, out, sizeof out) == 0);
  // A sink must be finite or -inf.
  uq_reduce_problem_t bad = r;
  sink = NAN;
  UQ_EXPECT_CODE(uq_reference_reduce(&bad), UQ_STATUS_INVALID_ARGUMENT);
  sink = INFINITY;
  UQ_EXPECT_CODE(uq_reference_reduce(&bad), UQ_STATUS_INVALID_ARGUMENT);
  r.sinks = NULL;
  // Errors.
  UQ_EXPECT_CODE(uq_reference_reduce(NULL), UQ_STATUS_INVALID_ARGUMENT);
  bad = r;
  bad.num_partitions = 0;
  UQ_EXPECT_CODE(uq_reference_reduce(&bad), UQ_STATUS_INVALID_ARGUMENT);
  bad = r, bad.num_seqs = -1;
  UQ_EXPECT_CODE(uq_reference_reduce(&bad), UQ_STATUS_INVALID_ARGUMENT);
  bad = r, bad.segm_sum = NULL;
  UQ_EXPECT_CODE(uq_reference_reduce(&bad), UQ_STATUS_INVALID_ARGUMENT);
  bad = r, bad.output = NULL;
  UQ_EXPECT_CODE(uq_reference_reduce(&bad), UQ_STATUS_INVALID_ARGUMENT);
  bad = r, bad.num_seqs = 2, bad.output_stride_seq = 100;
  UQ_EXPECT_CODE(uq_reference_reduce(&bad), UQ_STATUS_INVALID_ARGUMENT);
  bad = r, bad.output_stride_head = -256;
  UQ_EXPECT_CODE(uq_reference_reduce(&bad), UQ_STATUS_INVALID_ARGUMENT);
  bad = r, bad.num_seqs = 2147483647, bad.num_kv_heads = 2147483647;
  UQ_EXPECT_CODE(uq_reference_reduce(&bad), UQ_STATUS_OUT_OF_RANGE);
  bad = r, bad.head_dim = 0;
  UQ_EXPECT_CODE(uq_reference_reduce(&bad), UQ_STATUS_INVALID_ARGUMENT);
  bad = r, bad.head_dim = 192;
  UQ_EXPECT_CODE(uq_reference_reduce(&bad), UQ_STATUS_UNIMPLEMENTED);
  // Head dim 64 reads rows of 64: the same partials as [P][64] give the
  // first 64 columns of [P][64]-strided rows (o viewed with row length 64).
  uint16_t out64[64];
  r.head_dim = 64, r.output = out64, r.output_stride_seq = 64,
  r.output_stride_head = 64;
  UQ_EXPECT_OK(uq_reference_reduce(&r));
  for (int d = 0; d < 64; ++d) {
    double want =
        (w0 * uq_bf16_to_float(o[d]) + w2 * uq_bf16_to_float(o[128 + d])) /
        (w0 + w2);
    UQ_EXPECT_NEAR(uq_bf16_to_float(out64[d]), want,
                   ldexp(fabs(want), -8) + 1e-6);
  }
  return 0;
}

// The E4M3 rule matters once |q_rot| > 464: NaN under NAN, a finite
// (saturated) output under SATURATE, the oracle's rule. Under SATURATE the
// faithful mode stays within faithful_vs_exact's tolerance of the exact
// one, and the exact one equals the naive oracle with q_rot clamped to
// +-448 -- so a kernel that saturates is judged against finite outputs.
static int test_overflow_rule(void) {
  uq_rng_t rng = uq_rng_for(16);
  const int32_t lens[2] = {40, 300};
  for (int32_t D = 64; D <= 256; D *= 2) {
    fixture_t f;
    // sigma 1000 -> q_rot elements with sigma 1000 (the WHT is
    // orthonormal): most exceed 464.
    if (fixture_make(&f, &rng, D, 2, 1, 8, 16, 0, lens, 1000.0))
      UQ_TEST_FAIL_("fixture");
    size_t out_elems = (size_t)2 * (size_t)f.p.output_stride_seq;
    uint16_t *exact = malloc(sizeof(uint16_t) * out_elems);
    if (!exact)
      UQ_TEST_FAIL_("out of memory");
    f.p.q_overflow = UQ_FP8_OVERFLOW_SATURATE;
    UQ_EXPECT_OK(uq_reference_decode_exact(&f.p));
    for (int32_t b = 0; b < 2; ++b) {
      for (int h = 0; h < 8; ++h) {
        double want[256];
        if (naive_head(&f, b, h, want))
          UQ_TEST_FAIL_("naive");
        for (int d = 0; d < D; ++d) {
          float g = uq_bf16_to_float(out_row(&f, b, h)[d]);
          UQ_EXPECT(isfinite(g));
          UQ_EXPECT_NEAR(g, want[d], ldexp(fabs(want[d]), -8) * 1.001 + 1e-12);
        }
      }
    }
    memcpy(exact, f.output, sizeof(uint16_t) * out_elems);
    UQ_EXPECT_OK(uq_reference_decode_faithful(&f.p, 2, 1, NULL));
    if (compare_faithful(&f, exact, "saturated query"))
      UQ_TEST_FAIL_("head dim %d", D);
    f.p.q_overflow = UQ_FP8_OVERFLOW_NAN;
    UQ_EXPECT_OK(uq_reference_decode_exact(&f.p));
    UQ_EXPECT(isnan(uq_bf16_to_float(out_row(&f, 0, 0)[0])));
    free(exact);
    fixture_free(&f);
  }
  return 0;
}

// ---- Validation: one test per rule -----------------------------------------

static int check_invalid(fixture_t *f, size_t out_elems,
                         uq_status_code_t code) {
  // Every entry point reports the same code, and none writes the output.
  memset(f->output, 0xEE, sizeof(uint16_t) * out_elems);
  UQ_EXPECT_CODE(uq_decode_problem_validate(&f->p), code);
  UQ_EXPECT_CODE(uq_reference_decode_exact(&f->p), code);
  UQ_EXPECT_CODE(uq_reference_decode_faithful(&f->p, 4, 4, NULL), code);
  for (size_t i = 0; i < out_elems; ++i)
    UQ_EXPECT_EQ_HEX(f->output[i], 0xEEEE);
  return 0;
}

static int test_validation(void) {
  uq_rng_t rng = uq_rng_for(17);
  const int32_t lens[2] = {20, 33};
  fixture_t f;
  if (fixture_make(&f, &rng, 256, 2, 2, 8, 16, 272, lens, 1.0))
    UQ_TEST_FAIL_("fixture");
  const uq_decode_problem_t good = f.p;
  const size_t out_elems = (size_t)2 * (size_t)good.output_stride_seq;
  UQ_EXPECT_OK(uq_decode_problem_validate(&good));
  UQ_EXPECT_CODE(uq_decode_problem_validate(NULL), UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_reference_decode_exact(NULL), UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_reference_decode_faithful(NULL, 2, 1, NULL),
                 UQ_STATUS_INVALID_ARGUMENT);
#define BAD(field_change, code)                                                \
  do {                                                                         \
    f.p = good;                                                                \
    field_change;                                                              \
    if (check_invalid(&f, out_elems, code))                                    \
      UQ_TEST_FAIL_("rule: %s", #field_change);                                \
  } while (0)
  const uq_status_code_t inv = UQ_STATUS_INVALID_ARGUMENT,
                         oor = UQ_STATUS_OUT_OF_RANGE,
                         unimpl = UQ_STATUS_UNIMPLEMENTED;
  BAD(f.p.num_seqs = 0, inv);
  BAD(f.p.num_seqs = -2, inv);
  BAD(f.p.query_group = 17, inv); // one 16-row tile
  BAD(f.p.query_group = 0, inv);
  BAD(f.p.query_group = -4, inv);
  BAD(f.p.cache.head_dim = 0, inv);
  BAD(f.p.cache.head_dim = 96, unimpl);
  BAD(f.p.cache.head_dim = 1024, unimpl);
  // A smaller head dim fits the same slot: valid (the cache is then read as
  // D = 128 slots); padded_slot must hold D + D/16.
  f.p = good, f.p.cache.head_dim = 128;
  UQ_EXPECT_OK(uq_decode_problem_validate(&f.p));
  BAD(f.p.cache.num_kv_heads = 0, inv);
  BAD(f.p.cache.num_blocks = 0, inv);
  BAD(f.p.cache.num_blocks = -1, inv);
  BAD(f.p.cache.padded_slot = 268, inv);
  BAD(f.p.cache.padded_slot = 274, inv);
  BAD(f.p.cache.block_size = 48, inv);
  BAD(f.p.cache.block_size = 0, inv);
  BAD(f.p.cache.block_size = 8, inv);
  BAD(f.p.max_blocks_per_seq = 0, inv);
  BAD(f.p.max_blocks_per_seq = -3, inv);
  BAD(f.p.softmax_scale = NAN, inv);
  BAD(f.p.softmax_scale = INFINITY, inv);
  BAD(f.p.q_overflow = (uq_fp8_overflow_t)7, inv);
  BAD(f.p.query = NULL, inv);
  BAD(f.p.kv_cache = NULL, inv);
  BAD(f.p.block_tables = NULL, inv);
  BAD(f.p.seq_lens = NULL, inv);
  BAD(f.p.output = NULL, inv);
  BAD(f.p.query_stride_seq = -1, inv);
  BAD(f.p.query_stride_head = -256, inv);
  BAD(f.p.query_stride_head = 128, inv);  // heads overlap
  BAD(f.p.output_stride_head = 255, inv); // heads overlap
  BAD(f.p.output_stride_seq = 1024, inv); // sequences overlap heads
  BAD(f.p.output_stride_seq = -4096, inv);
  BAD(f.p.query_stride_seq = INT64_MAX / 2, oor); // span overflows
  BAD(f.p.sliding_window = -1, inv);
  float bad_sinks[16];
  for (int i = 0; i < 16; ++i)
    bad_sinks[i] = i == 5 ? -INFINITY : 0.5f * (float)i;
  f.p = good, f.p.sinks = bad_sinks; // finite and -inf are fine
  UQ_EXPECT_OK(uq_decode_problem_validate(&f.p));
  bad_sinks[15] = NAN;
  BAD(f.p.sinks = bad_sinks, inv);
  bad_sinks[15] = INFINITY;
  BAD(f.p.sinks = bad_sinks, inv);
  // seq_lens and block ids.
  BAD(f.lens[1] = -1, oor);
  f.lens[1] = 33;
  BAD(f.lens[0] = f.p.max_blocks_per_seq * 16 + 1, oor);
  f.lens[0] = 20;
  int32_t saved = f.tables[1];
  BAD(f.tables[1] = -1, oor); // entry 1 of sequence 0 is used (20 tokens)
  BAD(f.tables[1] = (int32_t)f.p.cache.num_blocks, oor);
  f.tables[1] = saved;
  // An unused entry may hold anything.
  f.p = good;
  f.tables[2] = -77;
  UQ_EXPECT_OK(uq_decode_problem_validate(&f.p));
  // The exact seq_len limit is fine.
  f.lens[0] = f.p.max_blocks_per_seq * 16;
  f.tables[2] = 0, f.tables[3] = 1;
  UQ_EXPECT_OK(uq_decode_problem_validate(&f.p));
  f.lens[0] = 20;
#undef BAD
  // Faithful-only rules.
  f.p = good;
  UQ_EXPECT_CODE(uq_reference_decode_faithful(&f.p, 0, 1, NULL), inv);
  UQ_EXPECT_CODE(uq_reference_decode_faithful(&f.p, 2, 0, NULL), inv);
  UQ_EXPECT_CODE(uq_reference_decode_faithful(&f.p, -2, 1, NULL), inv);
  uq_decode_partials_t half = {NULL, NULL, NULL};
  UQ_EXPECT_CODE(uq_reference_decode_faithful(&f.p, 2, 1, &half), inv);
  UQ_EXPECT_CODE(uq_reference_decode_faithful_walk(&f.p, NULL, NULL), inv);
  const int32_t bad_groups[3] = {0, 3, 32};
  for (int i = 0; i < 3; ++i) {
    uq_launch_walk_t walk = {2, 1, bad_groups[i]};
    UQ_EXPECT_CODE(uq_reference_decode_faithful_walk(&f.p, &walk, NULL), inv);
  }
  fixture_free(&f);
  // Coverage: 300 tokens need P * TGPP * 256 >= 300.
  const int32_t long_len[1] = {300};
  if (fixture_make(&f, &rng, 256, 1, 1, 16, 16, 272, long_len, 1.0))
    UQ_TEST_FAIL_("fixture");
  UQ_EXPECT_CODE(uq_reference_decode_faithful(&f.p, 1, 1, NULL), oor);
  UQ_EXPECT_OK(uq_reference_decode_faithful(&f.p, 2, 1, NULL));
  UQ_EXPECT_OK(uq_reference_decode_faithful(&f.p, 1, 2, NULL));
  // ... and a walk of single tiles P * groups * 16 >= 300: 19 tiles.
  const uq_launch_walk_t short_walk = {6, 3, 1}, tile_walk = {5, 4, 1};
  UQ_EXPECT_CODE(uq_reference_decode_faithful_walk(&f.p, &short_walk, NULL),
                 oor);
  UQ_EXPECT_OK(uq_reference_decode_faithful_walk(&f.p, &tile_walk, NULL));
  // With a window the walked span counts: 300 - (200 rounded down to 16 =
  // 192) = 108 tokens fit one tile-group; a 290-token window walks
  // 300 - 0 = 300 tokens and does not.
  f.p.sliding_window = 100;
  UQ_EXPECT_OK(uq_reference_decode_faithful(&f.p, 1, 1, NULL));
  f.p.sliding_window = 290;
  UQ_EXPECT_CODE(uq_reference_decode_faithful(&f.p, 1, 1, NULL), oor);
  // Block-table entries wholly before the window are never read: any value.
  f.p.sliding_window = 100; // window starts at token 200: block 12 of 16
  for (int i = 0; i < 12; ++i)
    f.tables[i] = -5;
  UQ_EXPECT_OK(uq_decode_problem_validate(&f.p));
  f.tables[12] = -5; // holds token 200
  UQ_EXPECT_CODE(uq_decode_problem_validate(&f.p), oor);
  fixture_free(&f);
  return 0;
}

// ---- Sliding window and attention sinks -------------------------------------

// Naive float64 attention with a window and a sink, written apart from the
// library: token t takes part when it is among the last W (n - t <= W), the
// sink is one more softmax term whose value row is zero.
static int naive_head_window_sink(const fixture_t *f, int32_t b, int32_t q_head,
                                  int32_t window, double sink,
                                  double out[256]) {
  const uq_decode_problem_t *p = &f->p;
  const int D = p->cache.head_dim;
  int32_t kv_head = q_head / p->query_group;
  float q[256], k[256], v[256];
  if (uq_status_consume_code(uq_query_rotate(
          D, p->query + b * p->query_stride_seq + q_head * p->query_stride_head,
          p->q_overflow, q)))
    return 1;
  int32_t n = p->seq_lens[b];
  size_t size = 0;
  uq_status_free(uq_cache_layout_size(&p->cache, &size));
  // Terms: (score, value row); the sink's value row is zero.
  double *scores = malloc(sizeof(double) * (size_t)(n + 1));
  double *values = malloc(sizeof(double) * 256 * (size_t)(n + 1));
  if (!scores || !values)
    return free(scores), free(values), 1;
  int32_t terms = 0;
  for (int32_t t = 0; t < n; ++t) {
    if (window > 0 && n - t > window)
      continue;
    int32_t block =
        p->block_tables[b * p->max_blocks_per_seq + t / p->cache.block_size];
    if (uq_status_consume_code(
            uq_cache_read_slot(&p->cache, p->kv_cache, size, block,
                               t % p->cache.block_size, kv_head, k, v)))
      return free(scores), free(values), 1;
    double s = 0;
    for (int d = 0; d < D; ++d)
      s += (double)q[d] * k[d];
    scores[terms] = s * p->softmax_scale;
    for (int d = 0; d < D; ++d)
      values[(size_t)terms * 256 + d] = v[d];
    ++terms;
  }
  int32_t tokens = terms;
  if (sink > -INFINITY) {
    scores[terms] = sink;
    for (int d = 0; d < 256; ++d)
      values[(size_t)terms * 256 + d] = 0;
    ++terms;
  }
  double top = -INFINITY, denom = 0;
  for (int32_t i = 0; i < terms; ++i)
    top = fmax(top, scores[i]);
  for (int d = 0; d < D; ++d)
    out[d] = 0;
  for (int32_t i = 0; i < terms; ++i) {
    double w = exp(scores[i] - top);
    denom += w;
    for (int d = 0; d < D; ++d)
      out[d] += w * values[(size_t)i * 256 + d];
  }
  for (int d = 0; d < D && tokens > 0; ++d)
    out[d] /= denom;
  if (tokens == 0)
    for (int d = 0; d < D; ++d)
      out[d] = 0;
  free(scores), free(values);
  return 0;
}

// Overwrites the slots of tokens before each sequence's window with 0xFF
// (NaN scales): a reference that reads them gives NaN.
static void poison_before_window(fixture_t *f, int32_t window) {
  const uq_decode_problem_t *p = &f->p;
  for (int32_t b = 0; b < p->num_seqs; ++b)
    for (int32_t t = 0; t < p->seq_lens[b] - window; ++t)
      for (int32_t h = 0; h < p->cache.num_kv_heads; ++h) {
        int64_t block =
            f->tables[b * p->max_blocks_per_seq + t / p->cache.block_size];
        size_t slot =
            ((size_t)(block * p->cache.block_size + t % p->cache.block_size) *
                 (size_t)p->cache.num_kv_heads +
             (size_t)h) *
            (size_t)p->cache.padded_slot;
        memset(f->cache + slot, 0xFF,
               (size_t)UQ_SLOT_CONTENT_BYTES(p->cache.head_dim));
      }
}

static const int32_t kWindows[] = {1, 15, 16, 17, 256, 257, 100000};

// Sinks per query head: N(0, 3^2) logits, every fourth -inf, and one huge
// (+30) so the sink dominates a head.
static void make_sinks(uq_rng_t *rng, int32_t hq, float *sinks) {
  for (int32_t h = 0; h < hq; ++h)
    sinks[h] = h % 4 == 3   ? -INFINITY
               : h % 7 == 5 ? 30.0f
                            : (float)(3.0 * uq_rng_gauss(rng));
}

static int test_exact_window_sinks_vs_naive(void) {
  uq_rng_t rng = uq_rng_for(19);
  for (size_t s = 0; s < sizeof kShapes / sizeof kShapes[0]; ++s) {
    const shape_t *sh = &kShapes[s];
    for (size_t wi = 0; wi < sizeof kWindows / sizeof kWindows[0]; ++wi) {
      int32_t window = kWindows[(wi + s) % 7];
      int with_sinks = (int)(wi % 3); // 0: none, 1: sinks, 2: sinks (window)
      fixture_t f;
      if (SHAPE_FIXTURE(&f, &rng, sh, 1.0))
        UQ_TEST_FAIL_("fixture");
      float sinks[48];
      make_sinks(&rng, sh->hk * sh->qg, sinks);
      f.p.sinks = with_sinks ? sinks : NULL;
      f.p.sliding_window = with_sinks == 1 ? 0 : window;
      poison_before_window(&f,
                           f.p.sliding_window ? f.p.sliding_window : INT32_MAX);
      UQ_EXPECT_OK(uq_reference_decode_exact(&f.p));
      for (int32_t b = 0; b < sh->b; ++b) {
        for (int32_t h = 0; h < sh->hk * sh->qg; ++h) {
          double want[256];
          if (naive_head_window_sink(&f, b, h, f.p.sliding_window,
                                     f.p.sinks ? sinks[h] : -INFINITY, want))
            UQ_TEST_FAIL_("naive");
          const uint16_t *got = out_row(&f, b, h);
          for (int d = 0; d < sh->d; ++d) {
            // One bf16 rounding of a float64 value (as exact_vs_naive).
            double tol = ldexp(fabs(want[d]), -8) * 1.001 + 1e-12;
            float g = uq_bf16_to_float(got[d]);
            if (!(fabs(g - want[d]) <= tol))
              UQ_TEST_FAIL_("shape %zu window %d sinks %d seq %d head %d dim "
                            "%d: %.9g vs %.9g",
                            s, f.p.sliding_window, with_sinks, b, h, d,
                            (double)g, want[d]);
          }
        }
      }
      fixture_free(&f);
    }
  }
  return 0;
}

// Faithful (under the windowed policy's P/TGPP and under P = 2, TGPP = 1,
// which covers every window up to 497 tokens) against exact, with the same
// tolerance argument as faithful_vs_exact: the sink only rescales weights.
static int test_faithful_window_sinks_vs_exact(void) {
  uq_rng_t rng = uq_rng_for(20);
  for (size_t s = 0; s < sizeof kShapes / sizeof kShapes[0]; ++s) {
    const shape_t *sh = &kShapes[s];
    for (size_t wi = 0; wi < sizeof kWindows / sizeof kWindows[0]; ++wi) {
      fixture_t f;
      if (SHAPE_FIXTURE(&f, &rng, sh, 1.0))
        UQ_TEST_FAIL_("fixture");
      float sinks[48];
      make_sinks(&rng, sh->hk * sh->qg, sinks);
      f.p.sinks = wi % 2 ? sinks : NULL;
      f.p.sliding_window = kWindows[wi];
      poison_before_window(&f, f.p.sliding_window);
      size_t out_elems = (size_t)sh->b * (size_t)f.p.output_stride_seq;
      uint16_t *exact = malloc(sizeof(uint16_t) * out_elems);
      if (!exact)
        UQ_TEST_FAIL_("out of memory");
      UQ_EXPECT_OK(uq_reference_decode_exact(&f.p));
      memcpy(exact, f.output, sizeof(uint16_t) * out_elems);
      uq_launch_plan_t plan;
      UQ_EXPECT_OK(uq_launch_policy_window(sh->b, f.p.max_blocks_per_seq,
                                           sh->bs, sh->d, 32, kWindows[wi],
                                           &plan));
      char what[96];
      snprintf(what, sizeof what, "shape %zu window %d sinks %d P %d TGPP %d",
               s, kWindows[wi], (int)(wi % 2), plan.num_partitions, plan.tgpp);
      UQ_EXPECT_OK(uq_reference_decode_faithful(&f.p, plan.num_partitions,
                                                plan.tgpp, NULL));
      int rc = compare_faithful(&f, exact, what);
      if (!rc && kWindows[wi] <= 497) {
        UQ_EXPECT_OK(uq_reference_decode_faithful(&f.p, 2, 1, NULL));
        snprintf(what, sizeof what, "shape %zu window %d sinks %d P 2 TGPP 1",
                 s, kWindows[wi], (int)(wi % 2));
        rc = compare_faithful(&f, exact, what);
      }
      free(exact);
      fixture_free(&f);
      if (rc)
        return rc;
    }
  }
  return 0;
}

// The windowed policy: W = 0 is the plain policy; otherwise it is the
// policy of min(max_seq, W + 15) tokens, covers that many tokens, and
// rejects a negative W.
static int test_policy_window(void) {
  uq_rng_t rng = uq_rng_for(21);
  static const int32_t sizes[5] = {16, 32, 64, 128, 256};
  for (int i = 0; i < 5000; ++i) {
    int32_t b = 1 + (int32_t)(uq_rng_next(&rng) % 64);
    int32_t mbps = 1 + (int32_t)(uq_rng_next(&rng) % 100000);
    int32_t bs = sizes[uq_rng_next(&rng) % 5];
    int32_t w = i % 5 == 0 ? 0 : (int32_t)(uq_rng_next(&rng) % 200000);
    uq_launch_plan_t plain, windowed;
    UQ_EXPECT_OK(uq_launch_policy(b, mbps, bs, 256, 32, &plain));
    UQ_EXPECT_OK(uq_launch_policy_window(b, mbps, bs, 128, 32, w, &windowed));
    int64_t max_seq = (int64_t)mbps * bs;
    int64_t walked = w > 0 && (int64_t)w + 15 < max_seq ? w + 15 : max_seq;
    UQ_EXPECT((int64_t)windowed.num_partitions * windowed.tgpp * 256 >= walked);
    if (walked == max_seq)
      UQ_EXPECT(windowed.num_partitions == plain.num_partitions &&
                windowed.tgpp == plain.tgpp);
  }
  // A 300-token window on a 98,304-token table: 2 partitions, not 512.
  uq_launch_plan_t plan;
  UQ_EXPECT_OK(uq_launch_policy_window(1, 6144, 16, 64, 32, 300, &plan));
  UQ_EXPECT_EQ_INT(plan.num_partitions, 2);
  UQ_EXPECT_EQ_INT(plan.tgpp, 1);
  UQ_EXPECT_CODE(uq_launch_policy_window(1, 4, 16, 256, 32, -1, &plan),
                 UQ_STATUS_INVALID_ARGUMENT);
  return 0;
}

// The resident (sm_90a) policy: its walk of the kernel's groups covers
// every token walked with the fewest partitions for its groups per
// partition, never more partitions than tile-groups; it depends on the
// shape only, and on the H200's 132 SMs it makes the choices measured there
// (uq-bench-cuda's shapes, policy.h): fewer, longer partitions while every
// SM keeps two CTAs, one per SM only when the batch is too small, and with
// single tiles 33 partitions where 32 of tile-groups would leave 8 of 264
// slots empty.
static int test_policy_resident(void) {
  uq_rng_t rng = uq_rng_for(22);
  static const int32_t sizes[5] = {16, 32, 64, 128, 256};
  for (int i = 0; i < 2000; ++i) {
    int32_t b = 1 + (int32_t)(uq_rng_next(&rng) % 64);
    int32_t hk = 1 + (int32_t)(uq_rng_next(&rng) % 8);
    int32_t mbps = 1 + (int32_t)(uq_rng_next(&rng) % 20000);
    int32_t bs = sizes[uq_rng_next(&rng) % 5];
    int32_t w = i % 3 == 0 ? 0 : (int32_t)(uq_rng_next(&rng) % 200000);
    int32_t cus = 1 + (int32_t)(uq_rng_next(&rng) % 160);
    int32_t per_cu = 1 + (int32_t)(uq_rng_next(&rng) % 8);
    int32_t group = 1 << (uq_rng_next(&rng) % 5);
    uq_launch_walk_t walk;
    UQ_EXPECT_OK(uq_launch_policy_resident(b, hk, mbps, bs, 256, w, cus, per_cu,
                                           group, &walk));
    int64_t max_seq = (int64_t)mbps * bs;
    int64_t walked = w > 0 && (int64_t)w + 15 < max_seq ? w + 15 : max_seq;
    int64_t tiles = (walked + 15) / 16, tile_groups = (walked + 255) / 256;
    UQ_EXPECT_EQ_INT(walk.group_tiles, group);
    int64_t groups = (tiles + group - 1) / group;
    UQ_EXPECT(walk.groups_per_partition >= 1 &&
              walk.groups_per_partition <= groups);
    UQ_EXPECT_EQ_INT(walk.num_partitions,
                     (int32_t)((groups + walk.groups_per_partition - 1) /
                               walk.groups_per_partition));
    UQ_EXPECT(walk.num_partitions <= tile_groups);
  }
  static const struct {
    int32_t b, hk, tokens, group, p, gpp;
  } h200[] = {
      // single tiles (D = 128, 256)
      {1, 2, 16384, 1, 64, 16},
      {4, 2, 16384, 1, 32, 32},
      {16, 2, 16384, 1, 8, 128},
      {4, 2, 65536, 1, 33, 125},
      {16, 1, 65536, 1, 16, 256},
      {64, 2, 4096, 1, 2, 128},
      {16, 1, 131072, 1, 16, 512},
      {4, 1, 75000, 1, 66, 72},
      // tile-groups (D = 64)
      {1, 2, 16384, 16, 64, 1},
      {4, 2, 65536, 16, 32, 8},
      {16, 1, 131072, 16, 16, 32},
      {4, 1, 75000, 16, 59, 5},
  };
  for (size_t i = 0; i < sizeof(h200) / sizeof(h200[0]); ++i) {
    uq_launch_walk_t walk;
    UQ_EXPECT_OK(uq_launch_policy_resident(h200[i].b, h200[i].hk,
                                           (h200[i].tokens + 15) / 16, 16, 256,
                                           0, 132, 2, h200[i].group, &walk));
    UQ_EXPECT_EQ_INT(walk.num_partitions, h200[i].p);
    UQ_EXPECT_EQ_INT(walk.groups_per_partition, h200[i].gpp);
    UQ_EXPECT_EQ_INT(walk.group_tiles, h200[i].group);
  }
  uq_launch_walk_t walk;
  UQ_EXPECT_CODE(
      uq_launch_policy_resident(1, 0, 4, 16, 256, 0, 132, 4, 1, &walk),
      UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_launch_policy_resident(1, 1, 4, 16, 256, 0, 0, 4, 1, &walk),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(
      uq_launch_policy_resident(1, 1, 4, 16, 256, 0, 132, 0, 1, &walk),
      UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(
      uq_launch_policy_resident(1, 1, 4, 16, 256, 0, 132, 4, 1, NULL),
      UQ_STATUS_INVALID_ARGUMENT);
  const int32_t bad_groups[3] = {0, 3, 32};
  for (int i = 0; i < 3; ++i)
    UQ_EXPECT_CODE(uq_launch_policy_resident(1, 1, 4, 16, 256, 0, 132, 4,
                                             bad_groups[i], &walk),
                   UQ_STATUS_INVALID_ARGUMENT);
  return 0;
}

static int test_attention_window_sink_f64(void) {
  // Three tokens, q = e0, k_t = t e0, scale 1: scores 0, 1, 2; v_t = t + 1.
  float q[256] = {0}, k[768] = {0}, v[768];
  q[0] = 1;
  for (int t = 0; t < 3; ++t) {
    k[t * 256] = (float)t;
    for (int d = 0; d < 256; ++d)
      v[t * 256 + d] = (float)(t + 1);
  }
  double out[256];
  // Window 1: only the last token.
  UQ_EXPECT_OK(uq_reference_attention_window_sink_f64(256, q, k, v, 3, 1.0, 1,
                                                      -INFINITY, out));
  UQ_EXPECT_NEAR(out[7], 3.0, 1e-12);
  // Window 2 and a sink of 2: terms e^1 (v 2), e^2 (v 3), e^2 (sink).
  UQ_EXPECT_OK(uq_reference_attention_window_sink_f64(256, q, k, v, 3, 1.0, 2,
                                                      2.0, out));
  double e1 = exp(1.0), e2 = exp(2.0);
  UQ_EXPECT_NEAR(out[0], (2 * e1 + 3 * e2) / (e1 + 2 * e2), 1e-12);
  // A window past the length is no window; a -inf sink is no sink.
  double plain[256];
  UQ_EXPECT_OK(uq_reference_attention_f64(256, q, k, v, 3, 1.0, plain));
  UQ_EXPECT_OK(uq_reference_attention_window_sink_f64(256, q, k, v, 3, 1.0, 9,
                                                      -INFINITY, out));
  UQ_EXPECT(memcmp(out, plain, sizeof out) == 0);
  // No tokens but a sink: zeros.
  UQ_EXPECT_OK(uq_reference_attention_window_sink_f64(256, q, NULL, NULL, 0,
                                                      1.0, 0, 5.0, out));
  for (int d = 0; d < 256; ++d)
    UQ_EXPECT(out[d] == 0.0);
  UQ_EXPECT_CODE(uq_reference_attention_window_sink_f64(256, q, k, v, 3, 1.0,
                                                        -1, 0.0, out),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(
      uq_reference_attention_window_sink_f64(256, q, k, v, 3, 1.0, 0, NAN, out),
      UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_reference_attention_window_sink_f64(256, q, k, v, 3, 1.0, 0,
                                                        INFINITY, out),
                 UQ_STATUS_INVALID_ARGUMENT);
  return 0;
}

// ---- Unquantized attention
// ---------------------------------------------------

static int test_attention_f64(void) {
  // Two tokens with known scores: q = e0, k0 = 2 e0, k1 = 0, scale 0.5 ->
  // scores 1 and 0, weights e/(e+1) and 1/(e+1).
  float q[256] = {0}, k[512] = {0}, v[512];
  q[0] = 1, k[0] = 2;
  for (int d = 0; d < 256; ++d)
    v[d] = (float)d, v[256 + d] = -1.0f;
  double out[256];
  UQ_EXPECT_OK(uq_reference_attention_f64(256, q, k, v, 2, 0.5, out));
  double e = exp(1.0);
  for (int d = 0; d < 256; ++d)
    UQ_EXPECT_NEAR(out[d], (e * d - 1.0) / (e + 1.0), 1e-12);
  UQ_EXPECT_OK(uq_reference_attention_f64(256, q, NULL, NULL, 0, 0.5, out));
  for (int d = 0; d < 256; ++d)
    UQ_EXPECT_EQ_INT(out[d] == 0.0, 1);
  UQ_EXPECT_CODE(uq_reference_attention_f64(256, NULL, k, v, 2, 0.5, out),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_reference_attention_f64(256, q, NULL, v, 2, 0.5, out),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_reference_attention_f64(256, q, k, v, 2, 0.5, NULL),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_reference_attention_f64(256, q, k, v, -1, 0.5, out),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_reference_attention_f64(256, q, k, v, 2, NAN, out),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_reference_attention_f64(0, q, k, v, 2, 0.5, out),
                 UQ_STATUS_INVALID_ARGUMENT);
  // Head dim 64 over the same arrays read as rows of 64: token 0 is
  // (2, 0, ...) -> score 1, token 1 (row 64 of k) is 0 -> score 0; values
  // are v[0..64) and v[64..128).
  UQ_EXPECT_OK(uq_reference_attention_f64(64, q, k, v, 2, 0.5, out));
  for (int d = 0; d < 64; ++d)
    UQ_EXPECT_NEAR(out[d], (e * d + (64.0 + d)) / (e + 1.0), 1e-12);
  return 0;
}

// ---- fp16 problems (since 0.9)
// ----------------------------------------------------

// |h - b| within the two final roundings of one value: half a bf16 ulp
// (at most 2^-8 of |b|: 7 stored bits) plus half an fp16 ulp (at most
// 2^-11 of |h|: 10 stored bits, and 2^-25 absolute below fp16's normals).
static bool within_two_roundings(double h, double b) {
  return fabs(h - b) <= ldexp(fabs(b), -8) + ldexp(fabs(h), -11) + 0x1p-25;
}

// An fp16 problem is the bf16 problem up to the output's rounding. With a
// query both dtypes hold exactly: the faithful partials are the same bit for
// bit; the fp16 output is those partials' reduce rounded to fp16 (the
// reduce with dtype F16, bit for bit); the exact output is the float64
// attention rounded once to fp16 (the naive oracle, fp16's 2^-11).
static int test_f16_problem(void) {
  uq_rng_t rng = uq_rng_for(39);
  for (size_t s = 0; s < sizeof kShapes / sizeof kShapes[0]; ++s) {
    const shape_t *sh = &kShapes[s];
    fixture_t f;
    if (SHAPE_FIXTURE(&f, &rng, sh, 1.0))
      UQ_TEST_FAIL_("fixture");
    const size_t q_elems = (size_t)sh->b * (size_t)f.p.query_stride_seq;
    const size_t out_elems = (size_t)sh->b * (size_t)f.p.output_stride_seq;
    uq_launch_plan_t plan;
    UQ_EXPECT_OK(uq_launch_policy(sh->b, f.p.max_blocks_per_seq, sh->bs, sh->d,
                                  32, &plan));
    const int32_t P = plan.num_partitions;
    const size_t rows = (size_t)sh->b * sh->hk * (size_t)P * sh->qg;
    uint16_t *qh = malloc(sizeof(uint16_t) * q_elems);
    uint16_t *out_b = malloc(sizeof(uint16_t) * out_elems);
    uint16_t *out_h = malloc(sizeof(uint16_t) * out_elems);
    uint16_t *out_r = malloc(sizeof(uint16_t) * out_elems);
    uq_decode_partials_t pb = {malloc(sizeof(uint16_t) * rows * sh->d),
                               malloc(sizeof(float) * rows),
                               malloc(sizeof(float) * rows)};
    uq_decode_partials_t ph = {malloc(sizeof(uint16_t) * rows * sh->d),
                               malloc(sizeof(float) * rows),
                               malloc(sizeof(float) * rows)};
    if (!qh || !out_b || !out_h || !out_r || !pb.segm_out || !pb.segm_max ||
        !pb.segm_sum || !ph.segm_out || !ph.segm_max || !ph.segm_sum)
      UQ_TEST_FAIL_("out of memory");
    for (size_t i = 0; i < q_elems; ++i) {
      // bf16 of an fp16 value: both dtypes hold it.
      float x = uq_f16_to_float(uq_float_to_f16(uq_bf16_to_float(f.query[i])));
      f.query[i] = uq_float_to_bf16(x);
      x = uq_bf16_to_float(f.query[i]);
      qh[i] = uq_float_to_f16(x);
      UQ_EXPECT(uq_f16_to_float(qh[i]) == x);
    }
    uq_decode_problem_t h = f.p;
    h.query = qh;
    h.output = out_h;
    h.dtype = UQ_DTYPE_F16;
    // Faithful.
    memset(f.output, 0xEE, sizeof(uint16_t) * out_elems);
    memset(out_h, 0xEE, sizeof(uint16_t) * out_elems);
    memset(out_r, 0xEE, sizeof(uint16_t) * out_elems);
    UQ_EXPECT_OK(uq_reference_decode_faithful(&f.p, P, plan.tgpp, &pb));
    UQ_EXPECT_OK(uq_reference_decode_faithful(&h, P, plan.tgpp, &ph));
    UQ_EXPECT(memcmp(pb.segm_out, ph.segm_out, 2 * rows * sh->d) == 0);
    UQ_EXPECT(memcmp(pb.segm_max, ph.segm_max, 4 * rows) == 0);
    UQ_EXPECT(memcmp(pb.segm_sum, ph.segm_sum, 4 * rows) == 0);
    uq_reduce_problem_t red = {.num_seqs = sh->b,
                               .num_kv_heads = sh->hk,
                               .query_group = sh->qg,
                               .head_dim = sh->d,
                               .num_partitions = P,
                               .segm_out = pb.segm_out,
                               .segm_max = pb.segm_max,
                               .segm_sum = pb.segm_sum,
                               .output = out_r,
                               .output_stride_seq = f.p.output_stride_seq,
                               .output_stride_head = f.p.output_stride_head,
                               .dtype = UQ_DTYPE_F16};
    UQ_EXPECT_OK(uq_reference_reduce(&red));
    UQ_EXPECT(memcmp(out_h, out_r, sizeof(uint16_t) * out_elems) == 0);
    memcpy(out_b, f.output, sizeof(uint16_t) * out_elems);
    for (int32_t b = 0; b < sh->b; ++b)
      for (int32_t q = 0; q < sh->hk * sh->qg; ++q)
        for (int d = 0; d < sh->d; ++d) {
          size_t i = (size_t)(b * f.p.output_stride_seq +
                              q * f.p.output_stride_head + d);
          double hv = uq_f16_to_float(out_h[i]),
                 bv = uq_bf16_to_float(out_b[i]);
          if (!within_two_roundings(hv, bv))
            UQ_TEST_FAIL_("faithful shape %zu seq %d head %d dim %d: f16 %.9g "
                          "vs bf16 %.9g",
                          s, b, q, d, hv, bv);
        }
    // Exact, against the naive float64 oracle.
    UQ_EXPECT_OK(uq_reference_decode_exact(&h));
    for (int32_t b = 0; b < sh->b; ++b)
      for (int32_t q = 0; q < sh->hk * sh->qg; ++q) {
        double want[256];
        if (naive_head(&f, b, q, want))
          UQ_TEST_FAIL_("naive");
        const uint16_t *got =
            out_h + b * f.p.output_stride_seq + q * f.p.output_stride_head;
        for (int d = 0; d < sh->d; ++d) {
          double tol = ldexp(fabs(want[d]), -11) * 1.001 + 0x1p-25;
          double g = uq_f16_to_float(got[d]);
          if (sh->lens[b] == 0)
            UQ_EXPECT_EQ_HEX(got[d], 0);
          else if (!(fabs(g - want[d]) <= tol))
            UQ_TEST_FAIL_("exact shape %zu seq %d head %d dim %d: %.9g vs "
                          "%.9g",
                          s, b, q, d, g, want[d]);
        }
      }
    // Only bf16 and fp16 are activation dtypes.
    h.dtype = UQ_DTYPE_F32;
    UQ_EXPECT_CODE(uq_decode_problem_validate(&h), UQ_STATUS_INVALID_ARGUMENT);
    UQ_EXPECT_CODE(uq_reference_decode_exact(&h), UQ_STATUS_INVALID_ARGUMENT);
    red.dtype = (uq_dtype_t)3;
    UQ_EXPECT_CODE(uq_reference_reduce(&red), UQ_STATUS_INVALID_ARGUMENT);
    free(qh), free(out_b), free(out_h), free(out_r);
    free(pb.segm_out), free(pb.segm_max), free(pb.segm_sum);
    free(ph.segm_out), free(ph.segm_max), free(ph.segm_sum);
    fixture_free(&f);
  }
  return 0;
}

static const uq_test_case_t tests[] = {
    {"policy_table", test_policy_table},
    {"policy_properties", test_policy_properties},
    {"policy_errors", test_policy_errors},
    {"exact_vs_naive", test_exact_vs_naive},
    {"faithful_vs_exact", test_faithful_vs_exact},
    {"faithful_partials", test_faithful_partials},
    {"single_token", test_single_token},
    {"reduce_hand", test_reduce_hand},
    {"overflow_rule", test_overflow_rule},
    {"validation", test_validation},
    {"attention_f64", test_attention_f64},
    {"exact_window_sinks_vs_naive", test_exact_window_sinks_vs_naive},
    {"faithful_window_sinks_vs_exact", test_faithful_window_sinks_vs_exact},
    {"policy_window", test_policy_window},
    {"policy_resident", test_policy_resident},
    {"attention_window_sink_f64", test_attention_window_sink_f64},
    {"f16_problem", test_f16_problem},
    {0, 0},
};

int main(int argc, char **argv) {
  uq_test_seed();
  return uq_test_main(argc, argv, tests);
}
