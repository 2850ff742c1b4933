// The CUDA backend on an NVIDIA Hopper GPU (compute capability 9.0): the
// sm_90a cubins of kernels/ embedded in libuqrt decode, through the
// public API, the end-to-end matrix (every QG 1-16, block sizes, ragged and
// >= 128k-token contexts, large queries (E4M3 saturation),
// padded slots, fused-QKV and padded-output strides, sliding windows with
// 0xFF before the window, sinks, garbage spare blocks, sharp logits), with the
// reduce launch and merged in the decode (small P, cluster launches), over
// walks of tile-groups and of single tiles, against the host kernel-faithful
// reference (tolerance in e2e_case.h); and a run captured into a CUDA graph on
// the caller's stream launches nothing while captured and replays to the same
// bits; head dims without an sm_90a kernel are refused by name. Label `cuda`:
// skips (77) with the reason where no such GPU or no cubins exist.
#include <string.h>

#include "e2e_case.h"
#include "tools/common/cuda_driver.h"
#include "uq/format.h"

static uq_context_t *g_context;
static uint64_t g_seed;

static uq_problem_shape_t base_shape(void) {
  return (uq_problem_shape_t){.batch = 3,
                              .num_kv_heads = 2,
                              .query_group = 8,
                              .block_size = 16,
                              .padded_slot = 272,
                              .max_seq = 3000,
                              .spare_blocks = 3,
                              .shuffle = 1,
                              .seed = g_seed++};
}

// Every QG 1-16 (the two cubins serve 1-8 and 9-16), each with one block
// size of the five in turn, then every block size at the models' QGs.
static int test_query_groups_and_block_sizes(void) {
  int failed = 0;
  for (uint32_t qg = 1; qg <= 16; ++qg) {
    uq_problem_shape_t shape = base_shape();
    shape.query_group = qg;
    shape.block_size = 16u << (qg % 5);
    char label[64];
    snprintf(label, sizeof(label), "QG=%u block=%u", qg, shape.block_size);
    failed |= uq_e2e_run_case(g_context, &shape, label);
  }
  static const uint32_t groups[3] = {6, 8, 16};
  for (int g = 0; g < 3; ++g) {
    for (uint32_t bs = 16; bs <= 256; bs *= 2) {
      uq_problem_shape_t shape = base_shape();
      shape.query_group = groups[g];
      shape.block_size = bs;
      char label[64];
      snprintf(label, sizeof(label), "QG=%u block=%u", groups[g], bs);
      failed |= uq_e2e_run_case(g_context, &shape, label);
    }
  }
  return failed;
}

// The other head dims (the D = 256 cases are the rest of this file): per D,
// every QG 1-16 with the block sizes in turn, 4- and 8-byte slot
// alignment with fused-QKV and padded-output strides, windows with and
// without sinks, and a context past 70k tokens.
static const uint32_t k_other_dims[] = {64, 128};

static uq_problem_shape_t dim_shape(uint32_t d) {
  uq_problem_shape_t shape = base_shape();
  shape.head_dim = d;
  shape.padded_slot = d + d / 16;
  return shape;
}

static int test_other_head_dims(void) {
  int failed = 0;
  for (size_t i = 0; i < sizeof(k_other_dims) / sizeof(k_other_dims[0]); ++i) {
    const uint32_t d = k_other_dims[i];
    char label[96];
    for (uint32_t qg = 1; qg <= 16; ++qg) {
      uq_problem_shape_t shape = dim_shape(d);
      shape.query_group = qg;
      shape.block_size = 16u << (qg % 5);
      snprintf(label, sizeof(label), "D=%u QG=%u block=%u", d, qg,
               shape.block_size);
      failed |= uq_e2e_run_case(g_context, &shape, label);
    }
    for (int v = 0; v < 4; ++v) {
      uq_problem_shape_t shape = dim_shape(d);
      // the slot's own size is a multiple of 4; +4 makes it one of 8 or not
      shape.padded_slot = d + d / 16 + (v & 1 ? 4 : 8);
      shape.query_group = v & 2 ? 16 : 6;
      // QG 6: plain, odd query rows (fused 2: the 2-byte Q loads); QG 16:
      // fused QKV, odd rows
      shape.fused_qkv = v == 0 ? 0 : v == 2 ? 1 : 2;
      shape.padded_output = v & 1;
      shape.extra_blocks = 2;
      snprintf(label, sizeof(label),
               "D=%u slot=%u QG=%u fused=%d padded_out=%d", d,
               shape.padded_slot, shape.query_group, shape.fused_qkv,
               shape.padded_output);
      failed |= uq_e2e_run_case(g_context, &shape, label);
    }
    static const uint32_t windows[] = {1, 100, 5000};
    for (size_t w = 0; w < sizeof(windows) / sizeof(windows[0]); ++w) {
      uq_problem_shape_t shape = dim_shape(d);
      shape.sliding_window = windows[w];
      shape.sinks = (int)(w & 1);
      shape.query_group = w == 2 ? 16 : 4;
      snprintf(label, sizeof(label), "D=%u window=%u sinks=%d QG=%u", d,
               windows[w], shape.sinks, shape.query_group);
      failed |= uq_e2e_run_case(g_context, &shape, label);
    }
    uq_problem_shape_t shape = dim_shape(d);
    shape.sinks = 1;
    shape.query_group = 16;
    snprintf(label, sizeof(label), "D=%u sinks QG=16", d);
    failed |= uq_e2e_run_case(g_context, &shape, label);
    shape = dim_shape(d);
    shape.query_scale = 3000.0f;
    snprintf(label, sizeof(label), "D=%u query x3000", d);
    failed |= uq_e2e_run_case(g_context, &shape, label);
    // sharp logits (softmax scale 0.5, several times the default): the lazy
    // running maximum's vote moves often; a negative scale is refused at
    // plan creation (softmax_scale must be in (0, ln 2])
    for (uint32_t qg = 8; qg <= 16; qg += 8) {
      shape = dim_shape(d);
      shape.query_group = qg;
      shape.softmax_scale = 0.5f;
      snprintf(label, sizeof(label), "D=%u QG=%u softmax scale 0.5", d, qg);
      failed |= uq_e2e_run_case(g_context, &shape, label);
    }
    static const int32_t lens[2] = {70001, 4097};
    for (uint32_t qg = 8; qg <= 16; qg += 8) {
      shape = dim_shape(d);
      shape.batch = 2;
      shape.num_kv_heads = 1;
      shape.query_group = qg;
      shape.seq_lens = lens;
      shape.max_seq = 70001;
      shape.spare_blocks = 5;
      snprintf(label, sizeof(label), "D=%u QG=%u lens 70001,4097", d, qg);
      failed |= uq_e2e_run_case(g_context, &shape, label);
    }
  }
  return failed;
}

// Whether the context's table has a decode record of head dim `d`.
static int has_decode_dim(uint32_t d) {
  size_t count = 0;
  if (uq_context_variant_count(g_context, &count) != UQ_OK)
    return 0;
  for (size_t i = 0; i < count; ++i) {
    const uq_variant_record_t *r = NULL;
    if (uq_context_variant(g_context, i, &r) == UQ_OK &&
        r->kind == UQ_VARIANT_KIND_DECODE && r->head_dim == d)
      return 1;
  }
  return 0;
}

// Head dims 32 and 512 (@uq_decode_sm90: D 512 as two halves of 256, QG
// <= 8 only; D 32 as one group with V's codes at an odd byte, QG 1-16):
// every QG with the block sizes, sinks and fp16, fused-QKV and padded
// strides with windows, sharp logits, a long context, verify steps and
// chunks. Their records are held until this passes on a GPU
// (docs/design.md, "Held variants"): a head dim without them skips.
static int test_held_head_dims(void) {
  static const uint32_t dims[2] = {32, 512};
  int failed = 0, ran = 0;
  char label[96];
  for (int i = 0; i < 2; ++i) {
    const uint32_t d = dims[i];
    if (!has_decode_dim(d)) {
      printf("SKIP: this library has no sm_90a D %u decode record\n", d);
      continue;
    }
    ran = 1;
    // D 32 has QG 16's layout too (its accumulators fit; D 512's do not)
    const uint32_t qg_top = d == 32 ? 16 : 8;
    for (uint32_t qg = 1; qg <= qg_top; ++qg) {
      uq_problem_shape_t shape = dim_shape(d);
      shape.padded_slot = 0;
      shape.query_group = qg;
      shape.block_size = 16u << (qg % 5);
      shape.sinks = (int)(qg & 1);
      shape.dtype = qg == 5 ? UQ_DTYPE_F16 : UQ_DTYPE_BF16;
      snprintf(label, sizeof(label), "D=%u QG=%u block=%u sinks=%d%s", d, qg,
               shape.block_size, shape.sinks, qg == 5 ? " f16" : "");
      failed |= uq_e2e_run_case(g_context, &shape, label);
    }
    for (int v = 0; v < 2; ++v) {
      uq_problem_shape_t shape = dim_shape(d);
      shape.padded_slot = UQ_SLOT_MIN_STRIDE(d) + (v ? 4 : 8);
      shape.query_group = 6;
      shape.fused_qkv = v ? 2 : 1;
      shape.padded_output = v ? 2 : 1;
      shape.sliding_window = v ? 1 : 700;
      snprintf(label, sizeof(label), "D=%u slot=%u fused=%d window=%u", d,
               shape.padded_slot, shape.fused_qkv, shape.sliding_window);
      failed |= uq_e2e_run_case(g_context, &shape, label);
    }
    uq_problem_shape_t shape = dim_shape(d);
    shape.padded_slot = 0;
    shape.query_group = 8;
    shape.softmax_scale = 0.5f;
    snprintf(label, sizeof(label), "D=%u QG=8 softmax scale 0.5", d);
    failed |= uq_e2e_run_case(g_context, &shape, label);
    static const int32_t lens[2] = {70001, 4097};
    shape = dim_shape(d);
    shape.padded_slot = 0;
    shape.batch = 2;
    shape.num_kv_heads = 1;
    shape.query_group = 8;
    shape.seq_lens = lens;
    shape.max_seq = 70001;
    snprintf(label, sizeof(label), "D=%u QG=8 lens 70001,4097", d);
    failed |= uq_e2e_run_case(g_context, &shape, label);
    static const struct {
      uint32_t query_group, query_len, window;
      int sinks;
    } runs[] = {{8, 4, 0, 1},     {2, 4, 300, 0},  {1, 40, 0, 1},
                {4, 100, 500, 0}, {16, 4, 300, 1}, {12, 3, 0, 0}};
    for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); ++r) {
      if (runs[r].query_group > qg_top)
        continue;
      shape = base_shape();
      shape.head_dim = d;
      shape.padded_slot = 0;
      shape.query_group = runs[r].query_group;
      shape.query_len = runs[r].query_len;
      shape.sliding_window = runs[r].window;
      shape.sinks = runs[r].sinks;
      snprintf(label, sizeof(label),
               "varlen q_len %u, D %u, QG %u, window %u%s", runs[r].query_len,
               d, runs[r].query_group, runs[r].window,
               runs[r].sinks ? ", sinks" : "");
      failed |= uq_e2e_run_varlen_case(g_context, &shape, 0, label);
    }
  }
  return failed ? 1 : ran ? 0 : UQ_TEST_SKIP;
}

// The sm_90a set covers every head dim of the format (64, 128, 256); any
// other is UNIMPLEMENTED by plan validation, before a kernel is looked up.
static int test_unsupported_head_dim_refused(void) {
  uq_problem_shape_t shape = dim_shape(128);
  uq_problem_t *problem = NULL;
  UQ_EXPECT_OK(uq_problem_create(&shape, &problem));
  uq_decode_config_t config = problem->config;
  config.head_dim = 96;
  config.padded_slot = 96 + 96 / 16;
  uq_plan_t *plan = NULL;
  uq_status_t status = uq_plan_create(g_context, &config, &plan);
  printf("  D=96: %s\n", uq_status_message(status));
  int names = strstr(uq_status_message(status), "head_dim 96") != NULL;
  int code = uq_status_consume_code(status);
  uq_problem_destroy(problem);
  UQ_EXPECT(plan == NULL);
  UQ_EXPECT_EQ_INT(code, UQ_STATUS_UNIMPLEMENTED);
  UQ_EXPECT(names);
  return 0;
}

static int test_layouts(void) {
  int failed = 0;
  for (int v = 0; v < 4; ++v) {
    uq_problem_shape_t shape = base_shape();
    shape.padded_slot = v & 1 ? 304 : 276;     // 4- and 8-byte slot alignment
    shape.fused_qkv = v & 2 ? 1 + (v & 1) : 0; // 2: odd query rows
    shape.padded_output = v & 1;
    shape.extra_blocks = 2;
    char label[64];
    snprintf(label, sizeof(label), "slot=%u fused=%d padded_out=%d",
             shape.padded_slot, shape.fused_qkv, shape.padded_output);
    failed |= uq_e2e_run_case(g_context, &shape, label);
  }
  return failed;
}

static int test_windows_and_sinks(void) {
  static const uint32_t windows[] = {1, 100, 1024, 5000};
  int failed = 0;
  for (size_t w = 0; w < sizeof(windows) / sizeof(windows[0]); ++w) {
    uq_problem_shape_t shape = base_shape();
    shape.sliding_window = windows[w];
    shape.sinks = (int)(w & 1);
    char label[64];
    snprintf(label, sizeof(label), "window=%u sinks=%d", windows[w],
             shape.sinks);
    failed |= uq_e2e_run_case(g_context, &shape, label);
  }
  uq_problem_shape_t shape = base_shape();
  shape.sinks = 1;
  shape.query_group = 16;
  failed |= uq_e2e_run_case(g_context, &shape, "sinks QG=16");
  // Rotated query elements far past E4M3's 448: the kernels saturate
  // (cvt.rn.satfinite), as the plan tells the reference.
  shape = base_shape();
  shape.query_scale = 3000.0f;
  failed |= uq_e2e_run_case(g_context, &shape, "query x3000 (E4M3 saturation)");
  // sharp logits (see test_other_head_dims) at D = 256
  for (uint32_t qg = 8; qg <= 16; qg += 8) {
    char label[64];
    shape = base_shape();
    shape.query_group = qg;
    shape.softmax_scale = 0.5f; // 8 x 1/sqrt(256)
    snprintf(label, sizeof(label), "QG=%u softmax scale 0.5", qg);
    failed |= uq_e2e_run_case(g_context, &shape, label);
  }
  return failed;
}

static int test_long_contexts(void) {
  static const int32_t lens[2] = {131072, 70001};
  int failed = 0;
  static const uint32_t groups[2] = {8, 16};
  for (int g = 0; g < 2; ++g) {
    uq_problem_shape_t shape = base_shape();
    shape.batch = 2;
    shape.num_kv_heads = 1;
    shape.query_group = groups[g];
    shape.seq_lens = lens;
    shape.max_seq = 131072;
    shape.spare_blocks = 5;
    char label[64];
    snprintf(label, sizeof(label), "QG=%u lens 131072,70001", groups[g]);
    failed |= uq_e2e_run_case(g_context, &shape, label);
  }
  return failed;
}

// Walks of single tiles (uq_launch_policy_resident at D 128 and 256 for
// long partitions): P that divides nothing (33 partitions of 125 tiles
// at B 4 / 65536 / Hk 2), ragged lengths far below the table (a 17-token
// sequence has only partitions 0 and 1), a window of 40000, sinks, QG 16.
// Each case checks that its plan walks tiles, then pins its P.
static int tile_walk_case(const uq_problem_shape_t *shape, const char *label) {
  uq_problem_t *problem = NULL;
  uq_plan_t *plan = NULL;
  uq_launch_walk_t walk = {0, 0, 0};
  UQ_EXPECT_OK(uq_problem_create(shape, &problem));
  UQ_EXPECT_OK(uq_plan_create(g_context, &problem->config, &plan));
  UQ_EXPECT_OK(uq_plan_launch_walk(plan, shape->batch, &walk));
  uq_plan_destroy(plan);
  uq_problem_destroy(problem);
  if (walk.group_tiles != 1) {
    fprintf(stderr, "  %s: P=%d walks groups of %d tiles, not single tiles\n",
            label, walk.num_partitions, walk.group_tiles);
    return 1;
  }
  return uq_e2e_run_case_shaped(g_context, shape, label,
                                (uint32_t)walk.num_partitions, 0);
}

static int test_tile_walks(void) {
  static const int32_t lens4[4] = {65536, 1000, 40000, 17};
  static const int32_t lens3[3] = {50000, 333, 49999};
  int failed = 0;
  uq_problem_shape_t shape = base_shape();
  shape.batch = 4;
  shape.seq_lens = lens4;
  shape.max_seq = 65536;
  failed |= tile_walk_case(&shape, "tiles D=256 B=4 lens 65536,1000,40000,17");
  shape = dim_shape(128);
  shape.batch = 4;
  shape.seq_lens = lens4;
  shape.max_seq = 65536;
  shape.sliding_window = 40000;
  shape.sinks = 1;
  failed |= tile_walk_case(&shape, "tiles D=128 window=40000 sinks");
  shape = dim_shape(128);
  shape.batch = 3;
  shape.num_kv_heads = 1;
  shape.query_group = 16;
  shape.seq_lens = lens3;
  shape.max_seq = 50000;
  failed |= tile_walk_case(&shape, "tiles D=128 QG=16 lens 50000,333,49999");
  return failed;
}

// Small P is one launch: the P CTAs of each (sequence, kv head) run as one
// thread block cluster and merge their partials through distributed shared
// memory (uq_plan_info_t.merge_max_partitions). Cases pinned inside that
// range, P > 1 (a cluster) and P = 1 (none), at every head dim: QG 1-16 with
// the block sizes, a window with sinks, fused-QKV with output rows 8-byte
// aligned or not (the merge's two store widths).
static int merged_case(const uq_problem_shape_t *shape, const char *label,
                       int solo) {
  uq_problem_t *problem = NULL;
  uq_plan_t *plan = NULL;
  uq_plan_info_t info;
  uint32_t partitions = 0, tgpp = 0;
  UQ_EXPECT_OK(uq_problem_create(shape, &problem));
  UQ_EXPECT_OK(uq_plan_create(g_context, &problem->config, &plan));
  UQ_EXPECT_OK(uq_plan_query_info(plan, &info));
  UQ_EXPECT_OK(uq_plan_launch_shape(plan, shape->batch, &partitions, &tgpp));
  uq_plan_destroy(plan);
  uq_problem_destroy(problem);
  // A GPU whose clusters of 2 would lose CTA slots merges only P = 1: the
  // cases still run, through the reduce.
  if (!solo && info.merge_max_partitions < 2)
    printf("  %s: clusters are not used on this GPU\n", label);
  else if (partitions > info.merge_max_partitions ||
           (partitions == 1) != solo) {
    fprintf(stderr, "  %s: P=%u, the case needs %s (merged up to %u)\n", label,
            partitions, solo ? "P = 1" : "1 < P", info.merge_max_partitions);
    return 1;
  }
  return uq_e2e_run_case_shaped(g_context, shape, label, partitions, tgpp);
}

static int test_merge_in_decode(void) {
  static const uint32_t dims[] = {64, 128, 256};
  static const uint32_t groups[] = {1, 6, 8, 9, 16};
  int failed = 0;
  for (size_t i = 0; i < sizeof(dims) / sizeof(dims[0]); ++i) {
    char label[96];
    for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); ++g) {
      uq_problem_shape_t shape = dim_shape(dims[i]);
      shape.batch = 64;
      shape.max_seq = 1000;
      shape.query_group = groups[g];
      shape.block_size = 16u << (g % 5);
      snprintf(label, sizeof(label), "merged D=%u QG=%u block=%u", dims[i],
               groups[g], shape.block_size);
      failed |= merged_case(&shape, label, 0);
    }
    for (int v = 0; v < 3; ++v) {
      uq_problem_shape_t shape = dim_shape(dims[i]);
      shape.batch = v == 2 ? 128 : 64;
      shape.max_seq = v == 2 ? 300 : 1000;
      shape.query_group = v == 1 ? 16 : 8;
      shape.sliding_window = v == 0 ? 300 : 0;
      shape.sinks = 1;
      shape.fused_qkv = v != 0;
      shape.padded_output = v;
      snprintf(label, sizeof(label),
               "merged D=%u B=%u window=%u sinks QG=%u out_pad=%d", dims[i],
               shape.batch, shape.sliding_window, shape.query_group,
               shape.padded_output);
      failed |= merged_case(&shape, label, v == 2);
    }
  }
  return failed;
}

#define CU_OK(expr)                                                            \
  do {                                                                         \
    CUresult cu_result_ = (expr);                                              \
    if (cu_result_ != 0)                                                       \
      UQ_TEST_FAIL_("%s: %s", #expr, uq_cuda_error_name(&cu, cu_result_));     \
  } while (0)

// One run captured into a graph: while captured nothing executes (the
// poisoned output stays poisoned), and each replay writes the same bits as
// a direct run on the same stream. Once with the reduce launch (P = 12)
// and once merged in the decode (P = 2, a cluster launch).
// One run of the problem on stream `s`: its decode, or a varlen run when
// the problem has query_start_loc.
static uq_status_t run_problem(uq_plan_t *plan, const uq_problem_t *problem,
                               const uq_problem_device_t *d, uq_stream_t *s) {
  if (problem->query_start_loc)
    return uq_plan_run_varlen(plan, problem->shape.batch, problem->num_tokens,
                              problem->max_query_len, d->query, d->cache,
                              d->block_tables, d->seq_lens, d->query_start_loc,
                              d->sinks, d->output, s);
  return uq_plan_run_with_sinks(plan, problem->shape.batch, d->query, d->cache,
                                d->block_tables, d->seq_lens, d->sinks,
                                d->output, s);
}

static int graph_capture_case(uq_problem_shape_t shape) {
  uq_cuda_t cu;
  char why[160];
  if (uq_cuda_load(&cu, why, sizeof(why)))
    UQ_TEST_FAIL_("%s", why);
  shape.sinks = 1;
  uq_problem_t *problem = NULL;
  UQ_EXPECT_OK(uq_problem_create(&shape, &problem));
  uq_plan_t *plan = NULL;
  UQ_EXPECT_OK(uq_plan_create(g_context, &problem->config, &plan));
  uq_problem_device_t device = {0};
  UQ_EXPECT_OK(uq_problem_upload(problem, g_context, &device));
  size_t bytes = problem->output_elems * sizeof(uint16_t);
  uint16_t *direct = malloc(bytes), *replayed = malloc(bytes),
           *poison = malloc(bytes);
  UQ_EXPECT(direct && replayed && poison);
  memset(poison, 0xFF, bytes);
  CUstream stream = NULL;
  CUgraph graph = NULL;
  CUgraphExec exec = NULL;
  CU_OK(cu.StreamCreate(&stream, UQ_CU_STREAM_NON_BLOCKING));
  uq_stream_t *s = (uq_stream_t *)stream;
  UQ_EXPECT_OK(run_problem(plan, problem, &device, s));
  UQ_EXPECT_OK(uq_context_synchronize(g_context, s));
  UQ_EXPECT_OK(uq_context_download(g_context, direct, device.output, bytes));
  UQ_EXPECT_OK(uq_context_upload(g_context, device.output, poison, bytes));
  CU_OK(cu.StreamBeginCapture(
      stream, UQ_CU_STREAM_CAPTURE_MODE_GLOBAL /* no allocation or sync */));
  uq_status_t status = run_problem(plan, problem, &device, s);
  CU_OK(cu.StreamEndCapture(stream, &graph));
  UQ_EXPECT_OK(status);
  UQ_EXPECT_OK(uq_context_download(g_context, replayed, device.output, bytes));
  UQ_EXPECT(memcmp(replayed, poison, bytes) == 0); // nothing ran yet
  CU_OK(cu.GraphInstantiateWithFlags(&exec, graph, 0));
  for (int i = 0; i < 3; ++i)
    CU_OK(cu.GraphLaunch(exec, stream));
  CU_OK(cu.StreamSynchronize(stream));
  UQ_EXPECT_OK(uq_context_download(g_context, replayed, device.output, bytes));
  int same = memcmp(direct, replayed, bytes) == 0;
  printf("  captured %s run, batch %u: %s the direct run after 3 replays\n",
         problem->query_start_loc ? "varlen" : "decode", shape.batch,
         same ? "bitwise equal to" : "DIFFERS from");
  cu.GraphExecDestroy(exec);
  cu.GraphDestroy(graph);
  cu.StreamDestroy(stream);
  free(direct);
  free(replayed);
  free(poison);
  uq_problem_device_free(g_context, &device);
  uq_plan_destroy(plan);
  uq_problem_destroy(problem);
  UQ_EXPECT(same);
  return 0;
}

static int test_graph_capture(void) {
  uq_problem_shape_t merged = base_shape();
  merged.batch = 64;
  merged.max_seq = 1000;
  uq_problem_shape_t varlen = base_shape();
  varlen.query_len = 4;
  return graph_capture_case(base_shape()) | graph_capture_case(merged) |
         graph_capture_case(varlen);
}

// Varlen runs (a CTA a block of qg_max / QG query tokens, each row over
// its own token's causal positions) against the faithful reference with the
// plan's blocks: verify chunks at every head dim and QG 8 and 16, windows and
// sinks, blocks of several tokens in both variants (QG 1: each lane's two
// rows are different tokens; QG 3: 5 tokens in 15 of 16 rows, blocks that
// straddle a sequence's chunk; QG 4: one block a sequence), a long context,
// and a serving step's mix of decodes, a verify, a first chunk and a long
// chunk (with the reduce and merged in the decode, as their P falls).
static int test_varlen(void) {
  int failed = 0;
  static const uint32_t dims[3] = {64, 128, 256};
  for (int i = 0; i < 3; ++i) {
    for (uint32_t qg = 8; qg <= 16; qg += 8) {
      uq_problem_shape_t shape = base_shape();
      shape.head_dim = dims[i];
      shape.padded_slot = 0;
      shape.query_group = qg;
      shape.query_len = 4;
      shape.sliding_window = qg == 16 ? 300 : 0;
      shape.sinks = qg == 16;
      char label[64];
      snprintf(label, sizeof(label), "verify q_len 4, D %u, QG %u%s", dims[i],
               qg, qg == 16 ? ", window 300, sinks" : "");
      failed |= uq_e2e_run_varlen_case(g_context, &shape, 0, label);
    }
  }
  static const struct {
    uint32_t head_dim, query_group, query_len, window;
    int sinks;
  } blocks[] = {
      {256, 1, 5, 200, 0},
      {64, 1, 12, 0, 1},
      {128, 3, 7, 0, 1},
      {256, 3, 7, 500, 0},
      {256, 4, 4, 300, 0},
      {64, 2, 3, 0, 0},
      // the warpgroup-MMA kernel's 128-row blocks (decode_wgmma_*_rows128):
      // blocks of 128, 25, 8 and 16 tokens whose first rows sit anywhere
      // in a 64-token tile, with sinks and windows
      {256, 1, 200, 0, 1},
      {128, 5, 60, 700, 0},
      {64, 16, 20, 0, 1},
      {256, 8, 300, 1000, 1},
      // its 64-row blocks (runs of 64 to 127 rows): a verify step of 4
      // tokens at QG 16 (one block), 7 at QG 16 (a full block and one of
      // 3 tokens), 100 tokens at QG 1 and 20 at QG 5 (blocks of 64 and
      // 12 tokens, the second's first row inside a token's heads), 12 at
      // QG 8 under a window
      {256, 16, 4, 0, 1},
      {128, 16, 7, 0, 0},
      {64, 1, 100, 0, 1},
      {128, 5, 20, 300, 1},
      {256, 8, 12, 700, 0},
  };
  for (size_t i = 0; i < sizeof(blocks) / sizeof(blocks[0]); ++i) {
    uq_problem_shape_t shape = base_shape();
    shape.head_dim = blocks[i].head_dim;
    shape.padded_slot = 0;
    shape.query_group = blocks[i].query_group;
    shape.query_len = blocks[i].query_len;
    shape.sliding_window = blocks[i].window;
    shape.sinks = blocks[i].sinks;
    char label[96];
    snprintf(label, sizeof(label), "q_len %u, D %u, QG %u, window %u%s",
             blocks[i].query_len, blocks[i].head_dim, blocks[i].query_group,
             blocks[i].window, blocks[i].sinks ? ", sinks" : "");
    failed |= uq_e2e_run_varlen_case(g_context, &shape, 0, label);
  }
  uq_problem_shape_t shape = base_shape();
  shape.batch = 2;
  shape.num_kv_heads = 1;
  shape.max_seq = 131072;
  shape.query_len = 3;
  failed |= uq_e2e_run_varlen_case(g_context, &shape, 0,
                                   "q_len 3 over a 131072-token context");
  static const int32_t lens[6] = {900, 3000, 70, 2500, 128, 4000};
  static const int32_t q_lens[6] = {1, 1, 4, 1, 128, 700};
  shape = base_shape();
  shape.batch = 6;
  shape.max_seq = 4000;
  shape.seq_lens = lens;
  shape.query_lens = q_lens;
  shape.sinks = 1;
  failed |= uq_e2e_run_varlen_case(g_context, &shape, 0,
                                   "mixed step: decodes, verify, chunks");
  return failed;
}

// Two problems' runs back to back on one stream, with no synchronization
// between them, while the reduce launches before its decode ends (CUDA:
// programmatic stream serialization, griddepcontrol): the reduce must still
// read only its own run's partials, and the second run's decode, which
// overwrites them, must not start before the first run's reduce has read
// them. Each output must equal its problem's run alone, bit for bit, over a
// few rounds.
static int test_back_to_back_runs(void) {
  uq_cuda_t cu;
  char why[160];
  if (uq_cuda_load(&cu, why, sizeof(why)))
    UQ_TEST_FAIL_("%s", why);
  CUstream stream = NULL;
  CU_OK(cu.StreamCreate(&stream, UQ_CU_STREAM_NON_BLOCKING));
  uq_stream_t *s = (uq_stream_t *)stream;
  uq_problem_shape_t shape = base_shape();
  uq_problem_t *problems[2] = {NULL, NULL};
  uq_problem_device_t device[2] = {{0}, {0}};
  uint16_t *alone[2] = {NULL, NULL}, *paired[2] = {NULL, NULL};
  uq_plan_t *plan = NULL;
  for (int i = 0; i < 2; ++i) {
    shape.seed = g_seed++;
    UQ_EXPECT_OK(uq_problem_create(&shape, &problems[i]));
    UQ_EXPECT_OK(uq_problem_upload(problems[i], g_context, &device[i]));
  }
  UQ_EXPECT_OK(uq_plan_create(g_context, &problems[0]->config, &plan));
  uint32_t partitions = 0, tgpp = 0;
  UQ_EXPECT_OK(uq_plan_launch_shape(plan, shape.batch, &partitions, &tgpp));
  UQ_EXPECT(partitions > 2); // a reduce launch follows each decode
  size_t bytes = problems[0]->output_elems * sizeof(uint16_t);
  for (int i = 0; i < 2; ++i) {
    alone[i] = malloc(bytes);
    paired[i] = malloc(bytes);
    UQ_EXPECT(alone[i] && paired[i]);
    UQ_EXPECT_OK(uq_plan_run(plan, shape.batch, device[i].query,
                             device[i].cache, device[i].block_tables,
                             device[i].seq_lens, device[i].output, s));
    UQ_EXPECT_OK(uq_context_synchronize(g_context, s));
    UQ_EXPECT_OK(
        uq_context_download(g_context, alone[i], device[i].output, bytes));
  }
  UQ_EXPECT(memcmp(alone[0], alone[1], bytes) != 0);
  int same = 1;
  for (int round = 0; round < 4; ++round) {
    memset(paired[0], 0xFF, bytes);
    for (int i = 0; i < 2; ++i)
      UQ_EXPECT_OK(
          uq_context_upload(g_context, device[i].output, paired[0], bytes));
    for (int i = 0; i < 2; ++i)
      UQ_EXPECT_OK(uq_plan_run(plan, shape.batch, device[i].query,
                               device[i].cache, device[i].block_tables,
                               device[i].seq_lens, device[i].output, s));
    UQ_EXPECT_OK(uq_context_synchronize(g_context, s));
    for (int i = 0; i < 2; ++i) {
      UQ_EXPECT_OK(
          uq_context_download(g_context, paired[i], device[i].output, bytes));
      same &= memcmp(alone[i], paired[i], bytes) == 0;
    }
  }
  printf("  two problems' runs back to back, P = %u, 4 rounds: %s their "
         "runs alone\n",
         partitions, same ? "bitwise equal to" : "DIFFER from");
  for (int i = 0; i < 2; ++i) {
    free(alone[i]);
    free(paired[i]);
    uq_problem_device_free(g_context, &device[i]);
    uq_problem_destroy(problems[i]);
  }
  uq_plan_destroy(plan);
  cu.StreamDestroy(stream);
  UQ_EXPECT(same);
  return 0;
}

static const uq_test_case_t tests[] = {
    {"query_groups_and_block_sizes", test_query_groups_and_block_sizes},
    {"other_head_dims", test_other_head_dims},
    {"unsupported_head_dim_refused", test_unsupported_head_dim_refused},
    {"held_head_dims", test_held_head_dims},
    {"layouts", test_layouts},
    {"windows_and_sinks", test_windows_and_sinks},
    {"long_contexts", test_long_contexts},
    {"tile_walks", test_tile_walks},
    {"merge_in_decode", test_merge_in_decode},
    {"graph_capture", test_graph_capture},
    {"back_to_back_runs", test_back_to_back_runs},
    {"varlen", test_varlen},
    {0, 0}};

int main(int argc, char **argv) {
  if (uq_test_list(argc, argv, tests))
    return 0;
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_CUDA;
  uq_status_t status = uq_context_create(&options, &g_context);
  if (status) {
    printf("SKIP: no usable CUDA device: %s\n", uq_status_message(status));
    uq_status_free(status);
    return UQ_TEST_SKIP;
  }
  const char *text = NULL;
  if (uq_context_describe(g_context, &text) == UQ_OK)
    printf("%s\n", text);
  // A library built without a CUDA toolkit embeds no cubins.
  uq_problem_shape_t shape = base_shape();
  uq_problem_t *problem = NULL;
  uq_plan_t *plan = NULL;
  status = uq_problem_create(&shape, &problem);
  if (status == UQ_OK)
    status = uq_plan_create(g_context, &problem->config, &plan);
  uq_plan_destroy(plan);
  uq_problem_destroy(problem);
  int rc = UQ_TEST_SKIP;
  if (status) {
    printf("SKIP: %s\n", uq_status_message(status));
    uq_status_free(status);
  } else {
    g_seed = uq_test_seed();
    rc = uq_test_main(argc, argv, tests);
  }
  uq_context_destroy(g_context);
  return rc;
}
