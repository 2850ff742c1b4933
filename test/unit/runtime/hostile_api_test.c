// The hostile-input table for the library API (issue 13): one row per bad
// input, each asserting the exact status code and a fragment of the
// message. Plan configs, run-time tables and pointers, the host encoder,
// references and policy, and sim device memory. ctest runs it in the
// release and the ASan/UBSan builds; docs/reliability.md lists the rows.
// The CLI rows are test/tools/cli_hostile.py.
#define _POSIX_C_SOURCE 200809L // clock_gettime
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stub_kernels.h"
#include "tools/uq-run/problem.h"
#include "uq/format.h"
#include "uq/policy.h"
#include "uq/reference.h"
#include "uq/uqrt.h"
#include "uq_test.h"

enum { kHeadDim = 256 }; // the fixture's head dim

static uq_context_t *host, *sim;
// A small problem, planned and uploaded on the host backend, for the
// run-time rows; each row restores what it changes.
static uq_problem_t *problem;
static uq_plan_t *plan;
static uq_problem_device_t dev;

//===--- Plan configurations -----------------------------------------===//

static uq_decode_config_t good_config(void) {
  return (uq_decode_config_t){.num_kv_heads = 2,
                              .query_group = 8,
                              .head_dim = kHeadDim,
                              .block_size = 16,
                              .padded_slot = 272,
                              .max_blocks_per_seq = 8,
                              .num_blocks = 64,
                              .max_batch = 4};
}

static uq_status_t create_with(uq_decode_config_t config) {
  uq_plan_t *p = NULL;
  uq_status_t status = uq_plan_create(host, &config, &p);
  uq_plan_destroy(p);
  return status;
}

#define CONFIG_ROW(fn, body)                                                   \
  static uq_status_t fn(void) {                                                \
    uq_decode_config_t c = good_config();                                      \
    body;                                                                      \
    return create_with(c);                                                     \
  }
CONFIG_ROW(block_past_2g, c.num_kv_heads = 1; c.padded_slot = 268435472)
CONFIG_ROW(query_group_past_2g, c.query_stride_head = (int64_t)1 << 28;
           c.query_stride_seq = 1; c.max_batch = 1)
CONFIG_ROW(q_head_int64_min, c.query_stride_head = INT64_MIN)
CONFIG_ROW(o_head_2p60, c.output_stride_head = (int64_t)1 << 60)
CONFIG_ROW(q_seq_2p33, c.query_stride_seq = (int64_t)1 << 33)
CONFIG_ROW(q_seq_negative, c.query_stride_seq = -4096)
CONFIG_ROW(kv_heads_4097, c.num_kv_heads = 4097)
CONFIG_ROW(mbps_past_2p24, c.max_blocks_per_seq = (1u << 24) + 1)
CONFIG_ROW(blocks_2p31, c.num_blocks = 1u << 31)
CONFIG_ROW(batch_65536, c.max_batch = 65536)
CONFIG_ROW(splits_513, c.max_kv_splits = 513)
CONFIG_ROW(scale_nan, c.softmax_scale = NAN)
CONFIG_ROW(scale_minus_inf, c.softmax_scale = -INFINITY)
CONFIG_ROW(scale_flt_max, c.softmax_scale = FLT_MAX)
CONFIG_ROW(scale_minus_flt_max, c.softmax_scale = -FLT_MAX)
CONFIG_ROW(scale_minus_one, c.softmax_scale = -1.0f)
CONFIG_ROW(scale_one, c.softmax_scale = 1.0f)
CONFIG_ROW(scale_ln2, c.softmax_scale = 0.6931f)
CONFIG_ROW(window_2p31, c.sliding_window = 1u << 31)
CONFIG_ROW(block_24, c.block_size = 24)
CONFIG_ROW(slot_274, c.padded_slot = 274)
CONFIG_ROW(query_f16, c.query_dtype = UQ_DTYPE_F16)
CONFIG_ROW(both_f16, c.query_dtype = c.output_dtype = UQ_DTYPE_F16)
CONFIG_ROW(both_f32, c.query_dtype = c.output_dtype = UQ_DTYPE_F32)
CONFIG_ROW(output_f32, c.output_dtype = UQ_DTYPE_F32)
CONFIG_ROW(query_dtype_7, c.query_dtype = (uq_dtype_t)7)

static uq_status_t null_config(void) {
  uq_plan_t *p = NULL;
  return uq_plan_create(host, NULL, &p);
}

//===--- Run-time inputs (host backend) ------------------------------===//

static uq_status_t run(uint32_t batch) {
  return uq_plan_run(plan, batch, dev.query, dev.cache, dev.block_tables,
                     dev.seq_lens, dev.output, NULL);
}

static uq_status_t batch_0(void) { return run(0); }
static uq_status_t batch_past_max(void) {
  return run(problem->config.max_batch + 1);
}
static uq_status_t null_cache(void) {
  return uq_plan_run(plan, problem->shape.batch, dev.query, 0, dev.block_tables,
                     dev.seq_lens, dev.output, NULL);
}

// Runs with one int32 of a device table replaced, then puts it back.
static uq_status_t run_with_int(uq_device_ptr_t table, size_t index,
                                int32_t value) {
  uq_device_ptr_t at = table + index * sizeof(int32_t);
  int32_t saved;
  uq_status_t status = uq_context_download(host, &saved, at, sizeof(saved));
  if (!status)
    status = uq_context_upload(host, at, &value, sizeof(value));
  if (status)
    return status;
  status = run(problem->shape.batch);
  uq_status_free(uq_context_upload(host, at, &saved, sizeof(saved)));
  return status;
}

static uq_status_t seq_len_negative(void) {
  return run_with_int(dev.seq_lens, 1, -1);
}
static uq_status_t seq_len_past_row(void) {
  return run_with_int(dev.seq_lens, 1,
                      (int32_t)(problem->config.max_blocks_per_seq * 16 + 1));
}
// Entry 1 of the last row is used: its sequence is max_seq long.
static size_t last_row_entry(size_t i) {
  return (size_t)(problem->shape.batch - 1) *
             problem->config.max_blocks_per_seq +
         i;
}
static uq_status_t block_id_past_cache(void) {
  return run_with_int(dev.block_tables, last_row_entry(1),
                      (int32_t)problem->config.num_blocks);
}
static uq_status_t block_id_negative(void) {
  return run_with_int(dev.block_tables, last_row_entry(1), -3);
}

static uq_status_t run_with_sink(float bad) {
  uint32_t hq = problem->config.num_kv_heads * problem->config.query_group;
  float sinks[64] = {0};
  sinks[hq - 1] = bad;
  uq_device_ptr_t d = 0;
  uq_status_t status = uq_context_alloc(host, hq * sizeof(float), &d);
  if (!status)
    status = uq_context_upload(host, d, sinks, hq * sizeof(float));
  if (!status)
    status = uq_plan_run_with_sinks(plan, problem->shape.batch, dev.query,
                                    dev.cache, dev.block_tables, dev.seq_lens,
                                    d, dev.output, NULL);
  uq_status_free(uq_context_free(host, d));
  return status;
}
static uq_status_t sink_nan(void) { return run_with_sink(NAN); }
static uq_status_t sink_plus_inf(void) { return run_with_sink(INFINITY); }

//===--- Host encoder, references, policy ----------------------------===//

static const uq_cache_layout_t small_layout = {.num_blocks = 2,
                                               .block_size = 16,
                                               .num_kv_heads = 1,
                                               .padded_slot = 272,
                                               .head_dim = kHeadDim};

static uq_status_t write_tokens(int64_t slot, int64_t key_stride_token,
                                int64_t num_tokens) {
  static uint8_t cache[2 * 16 * 272];
  static uint16_t kv[2 * kHeadDim];
  int64_t slots[2] = {slot, 0};
  uq_kv_tokens_t tokens = {.key = kv,
                           .key_stride_token = key_stride_token,
                           .key_stride_head = kHeadDim,
                           .value = kv,
                           .value_stride_token = kHeadDim,
                           .value_stride_head = kHeadDim,
                           .slot_mapping = slots,
                           .num_tokens = num_tokens};
  return uq_cache_write(&small_layout, cache, sizeof(cache), &tokens);
}
static uq_status_t slot_past_cache(void) { return write_tokens(32, 256, 1); }
static uq_status_t key_stride_int64_max(void) {
  return write_tokens(0, INT64_MAX, 2);
}
static uq_status_t negative_token_count(void) {
  return write_tokens(0, 256, -1);
}
static uq_status_t layout_2p62_blocks(void) {
  uq_cache_layout_t layout = small_layout;
  layout.num_blocks = (int64_t)1 << 62;
  return uq_cache_layout_validate(&layout);
}
static uq_status_t policy_negative_window(void) {
  uq_launch_plan_t out;
  return uq_launch_policy_window(1, 8, 16, kHeadDim, 0, -1, &out);
}
static uq_status_t faithful_zero_partitions(void) {
  uint16_t *out = malloc(problem->output_elems * sizeof(uint16_t));
  if (!out)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  uq_status_t status =
      uq_problem_faithful(problem, UQ_FP8_OVERFLOW_NAN, 0, 1, out, NULL);
  free(out);
  return status;
}

//===--- Sim device memory -------------------------------------------===//

static uq_status_t upload_past_allocation(void) {
  uq_device_ptr_t d = 0;
  char bytes[32] = {0};
  uq_status_t status = uq_context_alloc(sim, 16, &d);
  if (!status)
    status = uq_context_upload(sim, d + 8, bytes, sizeof(bytes));
  uq_status_free(uq_context_free(sim, d));
  return status;
}
static uq_status_t free_twice(void) {
  uq_device_ptr_t d = 0;
  uq_status_t status = uq_context_alloc(sim, 16, &d);
  if (!status)
    status = uq_context_free(sim, d);
  if (!status)
    status = uq_context_free(sim, d);
  return status;
}
static uq_status_t alloc_2p41(void) {
  uq_device_ptr_t d = 0;
  uq_status_t status = uq_context_alloc(sim, (size_t)1 << 41, &d);
  if (!status)
    uq_status_free(uq_context_free(sim, d));
  return status;
}

//===--- Host device memory and run buffers (issue 29) --------------===//

static uq_status_t host_free_unknown(void) {
  static uint64_t never_allocated[4];
  return uq_context_free(host, (uq_device_ptr_t)(uintptr_t)never_allocated);
}
static uq_status_t host_free_twice(void) {
  uq_device_ptr_t d = 0;
  uq_status_t status = uq_context_alloc(host, 64, &d);
  if (!status)
    status = uq_context_free(host, d);
  if (!status)
    status = uq_context_free(host, d);
  return status;
}
static uq_status_t host_free_interior(void) {
  uq_device_ptr_t d = 0;
  uq_status_t status = uq_context_alloc(host, 64, &d);
  if (!status)
    status = uq_context_free(host, d + 8);
  uq_status_free(uq_context_free(host, d));
  return status;
}
static uq_status_t host_upload_past_allocation(void) {
  uq_device_ptr_t d = 0;
  char bytes[32] = {0};
  uq_status_t status = uq_context_alloc(host, 16, &d);
  if (!status)
    status = uq_context_upload(host, d + 8, bytes, sizeof(bytes));
  uq_status_free(uq_context_free(host, d));
  return status;
}

// Runs the fixture with one buffer replaced by `bytes` bytes of a fresh
// allocation holding a copy of the original's first bytes, starting
// `offset` bytes in (freed first when `freed`), or by `foreign` when it is
// not 0.
typedef enum { kQuery, kCache, kOutput } run_buffer_t;
static uq_status_t run_with_buffer(run_buffer_t which, size_t bytes,
                                   size_t offset, int freed,
                                   uq_device_ptr_t foreign) {
  uq_device_ptr_t given[] = {dev.query, dev.cache, dev.output};
  size_t full[] = {problem->query_elems * 2, problem->cache_bytes,
                   problem->output_elems * 2};
  uq_device_ptr_t d = 0;
  uq_status_t status = UQ_OK;
  if (!foreign) {
    status = uq_context_alloc(host, bytes + offset, &d);
    uint8_t *copy = malloc(full[which]);
    if (!status && !copy)
      status = UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    if (!status)
      status = uq_context_download(host, copy, given[which], full[which]);
    if (!status)
      status = uq_context_upload(host, d + offset, copy,
                                 bytes < full[which] ? bytes : full[which]);
    free(copy);
    if (!status && freed)
      status = uq_context_free(host, d);
    if (status)
      return status;
  }
  uq_device_ptr_t b[] = {dev.query, dev.cache, dev.output};
  b[which] = foreign ? foreign : d + offset;
  status = uq_plan_run(plan, problem->shape.batch, b[kQuery], b[kCache],
                       dev.block_tables, dev.seq_lens, b[kOutput], NULL);
  if (!foreign && !freed)
    uq_status_free(uq_context_free(host, d));
  return status;
}
static uq_status_t run_small_output(void) {
  return run_with_buffer(kOutput, problem->output_elems * 2 - 2, 0, 0, 0);
}
static uq_status_t run_small_cache(void) {
  return run_with_buffer(kCache, problem->cache_bytes - 272, 0, 0, 0);
}
static uq_status_t run_freed_query(void) {
  return run_with_buffer(kQuery, problem->query_elems * 2, 0, 1, 0);
}
static uq_status_t run_foreign_cache(void) {
  static uint8_t not_the_contexts[64];
  return run_with_buffer(kCache, 0, 0, 0,
                         (uq_device_ptr_t)(uintptr_t)not_the_contexts);
}
// bf16 is read with memcpy: a query at an odd address decodes (UBSan
// watches), an output there is refused (the reference writes it in place).
static uq_status_t run_odd_query(void) {
  return run_with_buffer(kQuery, problem->query_elems * 2, 1, 0, 0);
}
static uq_status_t run_odd_output(void) {
  return run_with_buffer(kOutput, problem->output_elems * 2, 1, 0, 0);
}

// A store of 2 tokens whose key buffer holds only one token's rows, on
// `context` through `p`; the cache must be unchanged afterwards.
static uq_status_t store_short_key(uq_context_t *context, uq_plan_t *p) {
  size_t row = (size_t)problem->config.num_kv_heads * kHeadDim * 2;
  size_t cache_bytes = problem->cache_bytes;
  uq_device_ptr_t key = 0, value = 0, slots = 0, cache = 0;
  uint8_t *before = malloc(cache_bytes), *after = malloc(cache_bytes);
  uint16_t *kv = calloc(2 * row / 2, sizeof(uint16_t));
  int64_t mapping[2] = {0, 1};
  uq_status_t status =
      before && after && kv
          ? UQ_OK
          : UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  for (size_t i = 0; kv && i < row; ++i)
    kv[i] = 0x3F80; // 1.0
  if (!status)
    status = uq_context_alloc(context, row, &key);
  if (!status)
    status = uq_context_alloc(context, 2 * row, &value);
  if (!status)
    status = uq_context_alloc(context, sizeof(mapping), &slots);
  if (!status)
    status = uq_context_alloc(context, cache_bytes, &cache);
  if (!status)
    status = uq_context_upload(context, key, kv, row);
  if (!status)
    status = uq_context_upload(context, value, kv, 2 * row);
  if (!status)
    status = uq_context_upload(context, slots, mapping, sizeof(mapping));
  if (!status)
    status = uq_context_upload(context, cache, problem->cache, cache_bytes);
  if (!status)
    status = uq_context_download(context, before, cache, cache_bytes);
  if (!status) {
    status = uq_plan_store(p, 2, key, value, slots, cache, NULL);
    uq_status_t read = uq_context_download(context, after, cache, cache_bytes);
    if (!read && memcmp(before, after, cache_bytes) != 0) {
      uq_status_free(status);
      status = UQ_MAKE_STATUS(UQ_STATUS_INTERNAL,
                              "the store wrote the cache before failing");
    }
    uq_status_free(read);
  }
  uq_device_ptr_t all[] = {key, value, slots, cache};
  for (int i = 0; i < 4; ++i)
    if (all[i])
      uq_status_free(uq_context_free(context, all[i]));
  free(before), free(after), free(kv);
  return status;
}
static uq_status_t host_store_short_key(void) {
  return store_short_key(host, plan);
}
static uq_status_t sim_store_short_key(void) {
  uq_plan_t *p = NULL;
  uq_status_t status = uq_plan_create(sim, &problem->config, &p);
  if (!status)
    status = store_short_key(sim, p);
  uq_plan_destroy(p);
  return status;
}

//===--- Code objects ------------------------------------------------===//

// test/unit/codeobj/corpus/crash_cubin_nobits_info_offset, embedded.
extern const unsigned char uq_hostile_cubin[];
extern const size_t uq_hostile_cubin_size;

// A caller's record whose cubin has a NOBITS .nv.info.<kernel> section
// placed past the end of the file (the loader once read wild memory).
static uq_status_t cubin_nobits_past_file(void) {
  uq_code_object_source_t record = {.variant = "decode_sm90_d256_qg_max8",
                                    .kernel = "uq_probe",
                                    .data = uq_hostile_cubin,
                                    .size = uq_hostile_cubin_size,
                                    .kind = UQ_VARIANT_KIND_DECODE,
                                    .target = "sm_90a",
                                    .head_dim = 256,
                                    .qg_max = 8};
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_HOST;
  options.code_objects = &record;
  options.code_object_count = 1;
  uq_context_t *context = NULL;
  uq_status_t status = uq_context_create(&options, &context);
  uq_context_destroy(context);
  return status;
}

// A sim context over the stub table with its first record changed by
// `mutate`: the status of uq_context_create.
static uq_status_t stub_table_with(void (*mutate)(uq_code_object_source_t *)) {
  uq_code_object_source_t records[4];
  size_t count = uq_stub_code_objects(NULL, records);
  mutate(&records[0]);
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_SIM;
  options.code_objects = records;
  options.code_object_count = count;
  uq_context_t *context = NULL;
  uq_status_t status = uq_context_create(&options, &context);
  uq_context_destroy(context);
  return status;
}

// A caller's decode record for query groups up to 17: no plan asks for
// 17, and QG 9..16 would take a kernel built for 17 rows.
static void qg_max_17(uq_code_object_source_t *r) { r->qg_max = 17; }
static uq_status_t record_qg_max_17(void) { return stub_table_with(qg_max_17); }

// A caller's record whose key would not fit uq_plan_info_t.variant (its
// name would come back cut short).
static void key_34(uq_code_object_source_t *r) {
  r->variant = "decode_wgmma_d256_qg_max16_rows128";
}
static uq_status_t record_key_too_long(void) { return stub_table_with(key_34); }

//===--- Runaway kernels on the sim (issue 29) ----------------------===//

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static uint8_t *read_kernel(const char *name, size_t *out_size) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/%s", UQ_KERNELS_DIR, name);
  FILE *f = fopen(path, "rb");
  uint8_t *data = NULL;
  long size = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (size > 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)size)))
    if (fread(data, 1, (size_t)size, f) != (size_t)size) {
      free(data);
      data = NULL;
    }
  if (f)
    fclose(f);
  *out_size = data ? (size_t)size : 0;
  return data;
}

// Runs the fixture on a sim context whose decode is decode_d256_rows8
// changed by `mutate`; *out_seconds is how long the run took.
static uq_status_t run_mutated_decode(void (*mutate)(uint8_t *, size_t),
                                      double *out_seconds) {
  size_t decode_size = 0, reduce_size = 0;
  uint8_t *decode = read_kernel("decode_d256_rows8.hsaco", &decode_size);
  uint8_t *reduce = read_kernel("reduce_d256.hsaco", &reduce_size);
  uq_status_t status = decode && reduce
                           ? UQ_OK
                           : UQ_MAKE_STATUS(UQ_STATUS_NOT_FOUND,
                                            "no kernels in %s", UQ_KERNELS_DIR);
  uq_context_t *context = NULL;
  uq_plan_t *p = NULL;
  uq_problem_device_t d = {0};
  if (!status) {
    mutate(decode, decode_size);
    uq_code_object_source_t records[2] = {{.variant = "decode_d256_rows8",
                                           .kernel = "uq_decode_d256_rows8",
                                           .data = decode,
                                           .size = decode_size,
                                           .kind = UQ_VARIANT_KIND_DECODE,
                                           .head_dim = 256,
                                           .qg_max = 8},
                                          {.variant = "reduce_d256",
                                           .kernel = "uq_reduce_d256",
                                           .data = reduce,
                                           .size = reduce_size,
                                           .kind = UQ_VARIANT_KIND_REDUCE,
                                           .head_dim = 256}};
    uq_context_options_t options;
    uq_context_options_initialize(&options);
    options.backend = UQ_BACKEND_SIM;
    options.code_objects = records;
    options.code_object_count = 2;
    status = uq_context_create(&options, &context);
  }
  if (!status)
    status = uq_plan_create(context, &problem->config, &p);
  if (!status)
    status = uq_problem_upload(problem, context, &d);
  double start = now_seconds();
  if (!status)
    status = uq_plan_run(p, problem->shape.batch, d.query, d.cache,
                         d.block_tables, d.seq_lens, d.output, NULL);
  *out_seconds = now_seconds() - start;
  if (context)
    uq_problem_device_free(context, &d);
  uq_plan_destroy(p);
  uq_context_destroy(context);
  free(decode);
  free(reduce);
  return status;
}

// Every s_endpgm becomes s_branch -1: the kernel does all its work, then
// spins (whatever later builds of the kernel look like).
static void endpgm_spins(uint8_t *data, size_t size) {
  for (size_t i = 0; i + 4 <= size; i += 4) {
    uint32_t word;
    memcpy(&word, data + i, 4);
    if (word == 0xBF810000u) {
      word = 0xBF82FFFFu;
      memcpy(data + i, &word, 4);
    }
  }
}
// Bytes the probe of issue 29 found to make an endless loop in
// decode_d256_qg_max8 (now decode_d256_rows8, whose bytes differ: any end
// will do).
static void flip_8328(uint8_t *data, size_t size) {
  if (size > 8328)
    data[8328] ^= 0xFF;
}
static void flip_8597(uint8_t *data, size_t size) {
  if (size > 8597)
    data[8597] ^= 0xFF;
}

// The run ends within `seconds`: its own status (or, when `any` is set,
// OK whatever it ended with: the log shows how), else INTERNAL saying how
// long it took.
static uq_status_t ends_within(void (*mutate)(uint8_t *, size_t),
                               double seconds, int any) {
  double took = 0;
  uq_status_t status = run_mutated_decode(mutate, &took);
  printf("       (%.2f s: %s)\n", took,
         status ? uq_status_message(status) : "ok");
  if (took > seconds) {
    uq_status_free(status);
    return UQ_MAKE_STATUS(UQ_STATUS_INTERNAL, "the run took %.1f s", took);
  }
  if (any) {
    uq_status_free(status);
    return UQ_OK;
  }
  return status;
}
static uq_status_t runaway_after_work(void) {
  return ends_within(endpgm_spins, 5.0, 0);
}
static uq_status_t runaway_8328(void) {
  return ends_within(flip_8328, 10.0, 1);
}
static uq_status_t runaway_8597(void) {
  return ends_within(flip_8597, 10.0, 1);
}

//===--- The table ---------------------------------------------------===//

typedef struct hostile_row_s {
  const char *name;
  uq_status_t (*probe)(void);
  uq_status_code_t code;
  const char *fragment;
} hostile_row_t;

#define INVALID UQ_STATUS_INVALID_ARGUMENT
#define RANGE UQ_STATUS_OUT_OF_RANGE
static const hostile_row_t rows[] = {
    // uq_plan_create
    {"block of 2^32 + 256 bytes", block_past_2g, RANGE,
     "padded_slot 268435472: a block of 16 tokens x 1 kv heads"},
    {"query group spanning 3.8 GB", query_group_past_2g, RANGE,
     "query_stride_head 268435456"},
    {"query_stride_head INT64_MIN", q_head_int64_min, INVALID,
     "query_stride_head -9223372036854775808 overlaps rows"},
    {"output_stride_head 2^60", o_head_2p60, INVALID, "output strides"},
    {"query_stride_seq 2^33", q_seq_2p33, INVALID,
     "do not fit the kernel's int32"},
    {"query_stride_seq -4096", q_seq_negative, INVALID, "query strides"},
    {"num_kv_heads 4097", kv_heads_4097, INVALID, "num_kv_heads 4097"},
    {"max_blocks_per_seq 2^24 + 1", mbps_past_2p24, INVALID,
     "max_blocks_per_seq 16777217"},
    {"num_blocks 2^31", blocks_2p31, INVALID, "num_blocks 2147483648"},
    {"max_batch 65536", batch_65536, INVALID, "max_batch 65536"},
    {"max_kv_splits 513", splits_513, INVALID, "max_kv_splits 513"},
    {"softmax_scale NaN", scale_nan, INVALID,
     "softmax_scale nan must be finite and > 0"},
    {"softmax_scale -inf", scale_minus_inf, INVALID,
     "softmax_scale -inf must be finite and > 0"},
    {"softmax_scale FLT_MAX", scale_flt_max, INVALID,
     "softmax_scale 3.40282e+38 is above ln 2 = 0.6931"},
    {"softmax_scale -FLT_MAX", scale_minus_flt_max, INVALID,
     "softmax_scale -3.40282e+38 must be finite and > 0"},
    {"softmax_scale -1", scale_minus_one, INVALID,
     "softmax_scale -1 must be finite and > 0"},
    {"softmax_scale 1", scale_one, INVALID,
     "softmax_scale 1 is above ln 2 = 0.6931: scale x log2(e) > 1 can turn a "
     "finite score infinite"},
    {"softmax_scale 0.6931 (below ln 2)", scale_ln2, UQ_STATUS_OK, ""},
    {"sliding_window 2^31", window_2p31, INVALID, "sliding_window 2147483648"},
    {"block_size 24", block_24, INVALID, "block_size 24 is not a power of two"},
    {"padded_slot 274", slot_274, INVALID, "padded_slot 274"},
    // Since 0.9 the activations are bf16 or f16, one dtype for all.
    {"query dtype f16, output bf16", query_f16, INVALID,
     "query_dtype f16 and output_dtype bf16 differ: the output is written in "
     "the query's dtype"},
    {"query and output f16", both_f16, UQ_STATUS_OK, ""},
    {"query and output f32", both_f32, INVALID,
     "query_dtype 2 (f32): activations must be bf16 or f16"},
    {"output dtype f32", output_f32, INVALID,
     "output_dtype 2 (f32): activations must be bf16 or f16"},
    {"query dtype 7", query_dtype_7, INVALID,
     "query_dtype 7 (unknown): activations must be bf16 or f16"},
    {"NULL config", null_config, INVALID, "NULL argument"},
    // uq_plan_run
    {"batch 0", batch_0, INVALID, "batch 0 is outside 1..3"},
    {"batch past max_batch", batch_past_max, INVALID,
     "batch 4 is outside 1..3"},
    {"NULL kv_cache", null_cache, INVALID, "NULL kv_cache"},
    {"seq_lens[1] = -1", seq_len_negative, RANGE, "seq_lens[1] = -1"},
    {"seq_lens[1] past the table row", seq_len_past_row, RANGE,
     "seq_lens[1] = 129 is outside 0..128"},
    {"block id = num_blocks", block_id_past_cache, RANGE,
     "block_tables[2][1] = 16 is outside the cache's 16 blocks"},
    {"block id -3", block_id_negative, RANGE, "block_tables[2][1] = -3"},
    {"sink NaN", sink_nan, INVALID, "sinks[15] = nan must be finite or -inf"},
    {"sink +inf", sink_plus_inf, INVALID,
     "sinks[15] = inf must be finite or -inf"},
    // host encoder, references, policy
    {"slot past the cache", slot_past_cache, RANGE,
     "slot_mapping[0] = 32 is past the cache's 32 slots"},
    {"key stride INT64_MAX", key_stride_int64_max, RANGE,
     "key strides span more than memory can hold"},
    {"num_tokens -1", negative_token_count, INVALID,
     "num_tokens must be >= 0, got -1"},
    {"cache of 2^62 blocks", layout_2p62_blocks, RANGE,
     "does not fit in memory sizes"},
    {"policy window -1", policy_negative_window, INVALID,
     "sliding_window must be >= 0, got -1"},
    {"faithful reference P = 0", faithful_zero_partitions, INVALID,
     "num_partitions and tgpp must be >= 1"},
    // sim device memory
    {"upload past an allocation", upload_past_allocation, RANGE,
     "is outside every allocation"},
    {"free twice", free_twice, INVALID, "is not the start of an allocation"},
    {"alloc 2^41 bytes", alloc_2p41, UQ_STATUS_RESOURCE_EXHAUSTED,
     "is too large"},
    // host device memory and run buffers (issue 29)
    {"host: free of memory never allocated", host_free_unknown, INVALID,
     "is not the start of an allocation (never allocated, freed already, or "
     "inside one)"},
    {"host: free twice", host_free_twice, INVALID,
     "is not the start of an allocation"},
    {"host: free of an interior pointer", host_free_interior, INVALID,
     "is not the start of an allocation"},
    {"host: upload past an allocation", host_upload_past_allocation, RANGE,
     "write of 32 bytes at"},
    {"host run: output 2 bytes short", run_small_output, INVALID,
     "uq_plan_run: output: the 24576 bytes the call needs"},
    {"host run: cache one slot short", run_small_cache, INVALID,
     "uq_plan_run: kv_cache: the 139264 bytes the call needs"},
    {"host run: freed query", run_freed_query, INVALID,
     "uq_plan_run: query: the 24576 bytes"},
    {"host run: cache never allocated", run_foreign_cache, INVALID,
     "not inside one allocation of this context"},
    {"host run: query at an odd address", run_odd_query, UQ_STATUS_OK, ""},
    {"host run: output at an odd address", run_odd_output, INVALID,
     "is not 2-byte aligned"},
    {"host store: key one token short", host_store_short_key, INVALID,
     "uq_plan_store: key: the 2048 bytes the call needs"},
    {"sim store: key one token short", sim_store_short_key, INVALID,
     "uq_plan_store: key: the 2048 bytes the call needs"},
    // runaway kernels on the sim: each wave's budget follows its work
    {"sim: decode spinning after its work", runaway_after_work,
     UQ_STATUS_RESOURCE_EXHAUSTED, "ran past its cap of"},
    {"sim: decode byte 8328 ^ 0xFF ends in 10 s", runaway_8328, UQ_STATUS_OK,
     ""},
    {"sim: decode byte 8597 ^ 0xFF ends in 10 s", runaway_8597, UQ_STATUS_OK,
     ""},
    // code objects
    {"record with qg_max 17", record_qg_max_17, INVALID,
     "qg_max 17 is outside 1..16, the query groups a plan can ask for"},
    {"record key of 34 characters", record_key_too_long, INVALID,
     "longer than UQ_VARIANT_KEY_MAX (31)"},
    {"cubin: NOBITS .nv.info past the file", cubin_nobits_past_file,
     UQ_STATUS_DATA_LOSS,
     "section 10 (0 bytes at 140737488289792) lies "
     "outside the 5984-byte file"},
};

static int test_hostile_rows(void) {
  int failed = 0;
  for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i) {
    uq_status_t status = rows[i].probe();
    uq_status_code_t code = uq_status_code(status);
    const char *message = status ? uq_status_message(status) : "(ok)";
    int ok = code == rows[i].code && strstr(message, rows[i].fragment);
    printf("  %-4s %-32s %s: %s\n", ok ? "ok" : "FAIL", rows[i].name,
           uq_status_code_name(code), message);
    if (!ok) {
      fprintf(stderr, "  %s: expected %s with \"%s\"\n", rows[i].name,
              uq_status_code_name(rows[i].code), rows[i].fragment);
      ++failed;
    }
    uq_status_free(status);
  }
  // The fixture is intact: a clean run still passes after every row.
  UQ_EXPECT_OK(run(problem->shape.batch));
  UQ_EXPECT_EQ_INT(failed, 0);
  return 0;
}

// uq-run's verdict (item 5): the faithful output passes; an all-zero
// output (what a dropped head gave) and one NaN element fail, each with its
// reason, although the all-zero output is "close" to nothing else.
static int test_verdict_rows(void) {
  size_t n = problem->output_elems;
  uint16_t *faithful = malloc(n * 2), *bad = malloc(n * 2);
  double *unquantized = malloc(n * sizeof(double));
  UQ_EXPECT(faithful && bad && unquantized);
  uq_plan_info_t info;
  uint32_t p, tgpp;
  UQ_EXPECT_OK(uq_plan_query_info(plan, &info));
  UQ_EXPECT_OK(uq_plan_launch_shape(plan, problem->shape.batch, &p, &tgpp));
  UQ_EXPECT_OK(uq_problem_faithful(problem, UQ_FP8_OVERFLOW_NAN, (int32_t)p,
                                   (int32_t)tgpp, faithful, NULL));
  UQ_EXPECT_OK(uq_problem_unquantized(problem, unquantized));
  // The reference is contiguous; the problem's output strides are too
  // (small problem: no padded output), so it compares as a run output.
  UQ_EXPECT_EQ_INT(problem->config.output_stride_head, kHeadDim);
  const struct {
    const char *name;
    int transform; // 0 as is, 1 all zero, 2 one NaN
    const char *fragment;
  } cases[] = {{"faithful output", 0, NULL},
               {"all-zero output", 1, "rel rms against unquantized"},
               {"one NaN element", 2, "non-finite output"}};
  int failed = 0;
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    memcpy(bad, faithful, n * 2);
    if (cases[i].transform == 1)
      memset(bad, 0, n * 2);
    if (cases[i].transform == 2)
      bad[n / 2] = 0x7FC0;
    uq_problem_error_t vs_unquantized, vs_self;
    uq_problem_compare_f64(problem, bad, unquantized, &vs_unquantized);
    uq_problem_compare_bf16(problem, bad, bad, NULL, &vs_self);
    const char *verdict = uq_problem_verdict(&vs_self, &vs_unquantized);
    int ok = cases[i].fragment ? verdict && strstr(verdict, cases[i].fragment)
                               : verdict == NULL;
    printf("  %-4s %-18s rel rms %.3f: %s\n", ok ? "ok" : "FAIL", cases[i].name,
           vs_unquantized.rel_rms, verdict ? verdict : "ok");
    failed += !ok;
  }
  free(faithful), free(bad), free(unquantized);
  UQ_EXPECT_EQ_INT(failed, 0);
  return 0;
}

// The reduce rule behind non-finite queries (issue 13 item 2), on partials
// written by hand: QG 1, P 2, partition 0 = (o 0.5, m 1, l 2). Partition 1
// empty (o 0, m -inf, l 0) leaves 0.5; partition 1 as a NaN row leaves it
// (o NaN, m -inf, l NaN: maxnum kept m at -inf) must give NaN, not 0.5 and
// not 0 (the old rule skipped every partition with m = -inf or l NaN).
static int test_reduce_keeps_nan_partitions(void) {
  static const struct {
    const char *name;
    float m1, l1;
    uint16_t o1;
    int want_nan;
  } cases[] = {{"empty partition", -INFINITY, 0.0f, 0, 0},
               {"NaN sum, max -inf", -INFINITY, NAN, 0x7FC0, 1},
               {"NaN max and sum", NAN, NAN, 0x7FC0, 1},
               {"NaN sum, finite max", 3.0f, NAN, 0x7FC0, 1}};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    uint16_t segm_out[2 * kHeadDim], out[kHeadDim];
    for (int d = 0; d < kHeadDim; ++d) {
      segm_out[d] = uq_float_to_bf16(0.5f);
      segm_out[kHeadDim + d] = cases[i].o1;
    }
    float m[2] = {1.0f, cases[i].m1}, l[2] = {2.0f, cases[i].l1};
    uq_reduce_problem_t r = {.num_seqs = 1,
                             .num_kv_heads = 1,
                             .query_group = 1,
                             .head_dim = kHeadDim,
                             .num_partitions = 2,
                             .segm_out = segm_out,
                             .segm_max = m,
                             .segm_sum = l,
                             .output = out,
                             .output_stride_seq = kHeadDim,
                             .output_stride_head = kHeadDim};
    UQ_EXPECT_OK(uq_reference_reduce(&r));
    int nan = 0, half = 0;
    for (int d = 0; d < kHeadDim; ++d) {
      nan += isnan(uq_bf16_to_float(out[d]));
      half += uq_bf16_to_float(out[d]) == 0.5f;
    }
    printf("  %-22s %d NaN, %d at 0.5\n", cases[i].name, nan, half);
    UQ_EXPECT_EQ_INT(nan, cases[i].want_nan ? kHeadDim : 0);
    UQ_EXPECT_EQ_INT(half, cases[i].want_nan ? 0 : kHeadDim);
  }
  return 0;
}

static const uq_test_case_t tests[] = {
    {"hostile_rows", test_hostile_rows},
    {"verdict_rows", test_verdict_rows},
    {"reduce_keeps_nan_partitions", test_reduce_keeps_nan_partitions},
    {0, 0}};

static uq_status_t setup(void) {
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_HOST;
  UQ_RETURN_IF_ERROR(uq_context_create(&options, &host), "host context");
  options.backend = UQ_BACKEND_SIM;
  UQ_RETURN_IF_ERROR(uq_context_create(&options, &sim), "sim context");
  // Explicit lengths: 1 + 5 + 8 used blocks + 2 spare = 16 blocks.
  static const int32_t lens[3] = {5, 77, 128};
  uq_problem_shape_t shape = {.batch = 3,
                              .num_kv_heads = 2,
                              .query_group = 8,
                              .block_size = 16,
                              .padded_slot = 272,
                              .max_seq = 128,
                              .spare_blocks = 2,
                              .shuffle = 1,
                              .seed = uq_test_seed(),
                              .seq_lens = lens};
  UQ_RETURN_IF_ERROR(uq_problem_create(&shape, &problem), "problem");
  UQ_RETURN_IF_ERROR(uq_plan_create(host, &problem->config, &plan), "plan");
  return uq_problem_upload(problem, host, &dev);
}

int main(int argc, char **argv) {
  uq_status_t status = setup();
  int rc = 1;
  if (status) {
    fprintf(stderr, "setup: %s\n", uq_status_message(status));
    uq_status_free(status);
  } else {
    rc = uq_test_main(argc, argv, tests);
  }
  if (host)
    uq_problem_device_free(host, &dev);
  uq_plan_destroy(plan);
  uq_problem_destroy(problem);
  uq_context_destroy(host);
  uq_context_destroy(sim);
  return rc;
}
