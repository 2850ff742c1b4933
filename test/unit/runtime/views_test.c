// Query and output views with an element stride (since 0.10) on the host
// and sim backends (built as runtime_cuda_views_test, UQ_VIEWS_TEST_CUDA:
// on the CUDA backend, skipping without an sm_90a GPU). A strided run must
// give, bit for bit, what the same plan gives on contiguous rows (the gather
// and the scatter copy bits; the contiguous path is held against the references
// by e2e_sim_test and varlen_test), touch no element outside the output view
// (they hold a poison pattern), leave a varlen step's padding rows alone, and
// refuse views it cannot serve with a message naming the field.
#include <stdlib.h>
#include <string.h>

#include "e2e_case.h"

static uint64_t seed;
// The backends under test and their names.
static uq_context_t *contexts[2];
static const char *names[2];

// A [rows, heads, D] view: its strides and the elements its buffer holds.
typedef struct layout_s {
  const char *name;
  int64_t row, head, elem;
} layout_t;

static size_t layout_elems(const layout_t *l, size_t rows, size_t heads,
                           size_t D) {
  return (rows - 1) * (size_t)l->row + (heads - 1) * (size_t)l->head +
         (D - 1) * (size_t)l->elem + 1;
}

static size_t at(const layout_t *l, size_t r, size_t h, size_t d) {
  return r * (size_t)l->row + h * (size_t)l->head + d * (size_t)l->elem;
}

// The rows of a run: a varlen step is padded with 3 rows past its last
// query token (a step padded to a CUDA graph's size), which no run may
// write.
static size_t run_rows(const uq_problem_t *p) {
  return p->num_tokens + (p->query_start_loc ? 3 : 0);
}

// Runs the problem's step on `context` with the query and output in the
// given layouts (`q` copied from the problem's dense query rows; elements
// outside the view and padding rows hold NaN), the output downloaded into
// `out` (layout_elems of `o`, poisoned with 0x7B7B before the run).
static int run_views(uq_context_t *context, const uq_problem_t *p,
                     const layout_t *q, const layout_t *o, uint16_t *out) {
  const uq_decode_config_t *pc = &p->config;
  const size_t T = p->num_tokens, Hq = pc->num_kv_heads * pc->query_group,
               D = pc->head_dim, R = run_rows(p);
  uq_decode_config_t config = *pc;
  config.max_num_tokens = (uint32_t)R;
  config.query_stride_seq = q->row, config.query_stride_head = q->head;
  config.query_stride_elem = q->elem;
  config.output_stride_seq = o->row, config.output_stride_head = o->head;
  config.output_stride_elem = o->elem;
  uq_plan_t *plan = NULL;
  UQ_EXPECT_OK(uq_plan_create(context, &config, &plan));
  uq_problem_device_t dev = {0};
  UQ_EXPECT_OK(uq_problem_upload(p, context, &dev));
  const size_t q_elems = layout_elems(q, R, Hq, D);
  const size_t o_elems = layout_elems(o, R, Hq, D);
  uint16_t *qv = malloc(q_elems * 2);
  UQ_EXPECT(qv != NULL);
  memset(qv, 0xFF, q_elems * 2); // NaN: a read outside the view shows
  for (size_t t = 0; t < T; ++t)
    for (size_t h = 0; h < Hq; ++h)
      for (size_t d = 0; d < D; ++d)
        qv[at(q, t, h, d)] = p->query[t * (size_t)pc->query_stride_seq +
                                      h * (size_t)pc->query_stride_head + d];
  uq_device_ptr_t d_q, d_o;
  UQ_EXPECT_OK(uq_context_alloc(context, q_elems * 2, &d_q));
  UQ_EXPECT_OK(uq_context_alloc(context, o_elems * 2, &d_o));
  UQ_EXPECT_OK(uq_context_upload(context, d_q, qv, q_elems * 2));
  memset(out, 0x7B, o_elems * 2);
  UQ_EXPECT_OK(uq_context_upload(context, d_o, out, o_elems * 2));
  if (p->query_start_loc)
    UQ_EXPECT_OK(uq_plan_run_varlen(plan, p->shape.batch, R, p->max_query_len,
                                    d_q, dev.cache, dev.block_tables,
                                    dev.seq_lens, dev.query_start_loc,
                                    dev.sinks, d_o, NULL));
  else
    UQ_EXPECT_OK(uq_plan_run_with_sinks(plan, p->shape.batch, d_q, dev.cache,
                                        dev.block_tables, dev.seq_lens,
                                        dev.sinks, d_o, NULL));
  UQ_EXPECT_OK(uq_context_download(context, out, d_o, o_elems * 2));
  uq_context_free(context, d_q);
  uq_context_free(context, d_o);
  uq_problem_device_free(context, &dev);
  uq_plan_destroy(plan);
  free(qv);
  return 0;
}

// Every layout against the contiguous one on `context`: the same bits in
// every written row, the poison everywhere else (rows past the step's
// last query token included).
static int check_layouts(uq_context_t *context, const uq_problem_t *p,
                         const char *label) {
  const uq_decode_config_t *c = &p->config;
  const size_t T = run_rows(p), Hq = c->num_kv_heads * c->query_group,
               D = c->head_dim;
  const int64_t Di = (int64_t)D, Hi = (int64_t)Hq;
  const layout_t dense = {"contiguous", Hi * Di, Di, 1};
  const layout_t layouts[] = {
      {"[..., ::2]", Hi * Di * 2, Di * 2, 2},
      {"[tokens, D, heads] transposed", Hi * Di, 1, Hi},
      {"[heads, D, tokens] transposed", 1, Di * (int64_t)T, (int64_t)T},
  };
  const size_t written = p->num_tokens;
  uint16_t *want = malloc(layout_elems(&dense, T, Hq, D) * 2);
  UQ_EXPECT(want != NULL);
  UQ_EXPECT(run_views(context, p, &dense, &dense, want) == 0);
  const size_t n = sizeof(layouts) / sizeof(layouts[0]);
  for (size_t qi = 0; qi < n; ++qi) {
    // The query in each layout, the output in the next one (and once both
    // strided the same way).
    for (size_t k = 0; k < 2; ++k) {
      const layout_t *q = &layouts[qi];
      const layout_t *o = k ? &layouts[(qi + 1) % n] : &dense;
      const size_t o_elems = layout_elems(o, T, Hq, D);
      uint16_t *got = malloc(o_elems * 2);
      char *in_view = calloc(o_elems, 1);
      UQ_EXPECT(got && in_view);
      UQ_EXPECT(run_views(context, p, q, o, got) == 0);
      for (size_t t = 0; t < T; ++t)
        for (size_t h = 0; h < Hq; ++h)
          for (size_t d = 0; d < D; ++d) {
            size_t i = at(o, t, h, d);
            in_view[i] = 1;
            uint16_t expect =
                t < written ? want[at(&dense, t, h, d)] : (uint16_t)0x7B7B;
            if (got[i] != expect) {
              const uint16_t seen = got[i];
              free(got), free(in_view), free(want);
              UQ_TEST_FAIL_("%s: query %s, output %s: token %zu head %zu "
                            "dim %zu is 0x%04x, want 0x%04x",
                            label, q->name, o->name, t, h, d, seen, expect);
            }
          }
      for (size_t i = 0; i < o_elems; ++i)
        if (!in_view[i] && got[i] != 0x7B7B) {
          free(got), free(in_view), free(want);
          UQ_TEST_FAIL_("%s: query %s, output %s: element %zu outside the "
                        "output view was written",
                        label, q->name, o->name, i);
        }
      free(got);
      free(in_view);
    }
  }
  printf("  %-40s every layout matches the contiguous run\n", label);
  free(want);
  return 0;
}

static uq_problem_shape_t views_shape(uint32_t d) {
  return (uq_problem_shape_t){.batch = 3,
                              .num_kv_heads = 2,
                              .query_group = 4,
                              .head_dim = d,
                              .block_size = 16,
                              .max_seq = 200,
                              .spare_blocks = 2,
                              .shuffle = 1,
                              .seed = seed++};
}

static int check_shape(const uq_problem_shape_t *shape, const char *label) {
  uq_problem_t *p = NULL;
  UQ_EXPECT_OK(uq_problem_create(shape, &p));
  int rc = 0;
  for (int i = 0; i < 2 && !rc && contexts[i]; ++i) {
    char name[96];
    snprintf(name, sizeof name, "%s %s", names[i], label);
    rc = check_layouts(contexts[i], p, name);
  }
  uq_problem_destroy(p);
  return rc;
}

// Decodes (P > 1: the reduce writes the output view's dense rows) of every
// head dim the target's kernels serve (sm_90a: 64 to 256, gfx950: 32 to
// 512), fp16 and bf16.
#ifdef UQ_VIEWS_TEST_CUDA
enum { kMinHeadDim = 64, kMaxHeadDim = 256 };
#else
enum { kMinHeadDim = 32, kMaxHeadDim = 512 };
#endif
static int test_decode_views(void) {
  for (uint32_t d = kMinHeadDim; d <= kMaxHeadDim; d *= 2) {
    uq_problem_shape_t shape = views_shape(d);
    shape.sinks = d == 128;
    shape.dtype = d == 64 ? UQ_DTYPE_F16 : UQ_DTYPE_BF16;
    char label[64];
    snprintf(label, sizeof label, "decode D %u%s", d, d == 64 ? " f16" : "");
    if (check_shape(&shape, label))
      return 1;
  }
  return 0;
}

// A varlen step padded past its last query token (P = 1: the decode
// writes the dense rows), with a window.
static int test_varlen_views(void) {
  static const int32_t lens[3] = {37, 200, 9};
  static const int32_t q_lens[3] = {1, 21, 9};
  uq_problem_shape_t shape = views_shape(128);
  shape.seq_lens = lens;
  shape.query_lens = q_lens;
  shape.sliding_window = 50;
  return check_shape(&shape, "varlen D 128, window 50");
}

static int refused(uq_context_t *context, const uq_decode_config_t *config,
                   uq_status_code_t code, const char *needle) {
  uq_plan_t *plan = NULL;
  uq_status_t status = uq_plan_create(context, config, &plan);
  UQ_EXPECT(status != UQ_OK && plan == NULL);
  UQ_EXPECT_EQ_INT(uq_status_code(status), code);
  const char *message = uq_status_message(status);
  if (!strstr(message, needle)) {
    uq_status_free(status);
    UQ_TEST_FAIL_("message '%s' does not name '%s'", message, needle);
  }
  uq_status_free(status);
  return 0;
}

static int test_bad_views(void) {
  uq_problem_shape_t shape = views_shape(64);
  uq_problem_t *p = NULL;
  UQ_EXPECT_OK(uq_problem_create(&shape, &p));
  uq_decode_config_t c = p->config;
  uq_problem_destroy(p);
  c.query_stride_seq = c.query_stride_head = 0;
  c.output_stride_seq = c.output_stride_head = 0;
  for (int i = 0; i < 2 && contexts[i]; ++i) {
    uq_context_t *context = contexts[i];
    uq_decode_config_t bad = c;
    bad.query_stride_elem = -2;
    UQ_EXPECT(refused(context, &bad, UQ_STATUS_INVALID_ARGUMENT,
                      "query_stride_elem") == 0);
    bad = c; // elements of neighbouring heads interleave onto each other
    bad.output_stride_elem = 2, bad.output_stride_head = 64;
    UQ_EXPECT(refused(context, &bad, UQ_STATUS_INVALID_ARGUMENT,
                      "output strides") == 0);
    bad = c;
    bad.query_stride_elem = 3, bad.query_stride_head = -1;
    UQ_EXPECT(refused(context, &bad, UQ_STATUS_INVALID_ARGUMENT,
                      "query strides") == 0);
    bad = c;
    bad.output_stride_elem = INT64_MAX / 4;
    UQ_EXPECT(
        refused(context, &bad, UQ_STATUS_OUT_OF_RANGE, "output strides") == 0);
  }
  return 0;
}

static const uq_test_case_t tests[] = {{"decode_views", test_decode_views},
                                       {"varlen_views", test_varlen_views},
                                       {"bad_views", test_bad_views},
                                       {0, 0}};

static uq_status_t open_context(uq_backend_t backend, int slot) {
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = backend;
  names[slot] = uq_backend_name(backend);
  return uq_context_create(&options, &contexts[slot]);
}

int main(int argc, char **argv) {
  seed = uq_test_seed();
#ifdef UQ_VIEWS_TEST_CUDA
  uq_status_t status = open_context(UQ_BACKEND_CUDA, 0);
  if (status) {
    printf("SKIP: no usable CUDA device: %s\n", uq_status_message(status));
    uq_status_free(status);
    return UQ_TEST_SKIP;
  }
#else
  uq_status_t status = open_context(UQ_BACKEND_HOST, 0);
  if (!status)
    status = open_context(UQ_BACKEND_SIM, 1);
  if (status) {
    fprintf(stderr, "cannot create a context: %s\n", uq_status_message(status));
    uq_status_free(status);
  }
#endif
  int rc = status ? 1 : uq_test_main(argc, argv, tests);
  for (int i = 0; i < 2; ++i)
    if (contexts[i])
      uq_context_destroy(contexts[i]);
  return rc;
}
