// The decode plan's internals, shared by the files of runtime/plan/, one job
// each:
//   config.c         the configuration's checks and defaults
//   variants.c       which decode records serve the plan, and their figures
//                    for the resident policy (sm_90a)
//   launch_policy.c  a run's partitions and walk (the seed's policy or the
//                    resident one), decode and varlen
//   workspace.c      the partials' workspace, sized for every run the plan
//                    allows
//   kernel_args.c    kernel-argument layouts from code-object metadata
//   launch.c         argument packing and the launches, with each target's
//                    launch traits
//   checks.c         the sim/host checks of a run's buffers and tables
//   create.c         uq_plan_create / destroy and the plan's queries
//   run.c            the run entry points (one call in flight at a time)
//   store.c          the cache store
//   views.c          query and output views with an element stride,
//                    gathered into and scattered from dense rows
// Nothing on a run's path allocates. Not installed.
#ifndef UQ_RUNTIME_PLAN_PLAN_INTERNAL_H_
#define UQ_RUNTIME_PLAN_PLAN_INTERNAL_H_

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "runtime/api/internal.h"
#include "runtime/plan/launch_traits.h"
#include "runtime/plan/store.h"
#include "uq/policy.h"
#include "uq/reference.h"

#ifdef __cplusplus
extern "C" {
#endif

// What the resident policy (sm_90a) takes from a decode kernel; zero
// elsewhere.
typedef struct resident_kernel_s {
  // Its dynamic shared memory (its cubin states it), for the occupancy
  // queries and every launch.
  uint32_t dynamic_lds;
  // Its CTAs per SM (the device's occupancy query).
  uint32_t workgroups_per_cu;
  // The tiles in a group of its walk (its cubin states it).
  uint32_t walk_group_tiles;
  // The largest P whose CTAs merge in the decode (P = 1 always; as
  // clusters of P only while the clusters keep every slot of the resident
  // policy: compute_units x workgroups_per_cu CTAs at once).
  uint32_t cluster_merge_max;
} resident_kernel_t;

// A decode kernel of the plan: its record, argument layout and kernarg
// segment (pre-packed with the plan's constants; NULL on the host backend,
// which runs no kernel but takes the record's block size).
typedef struct decode_kernel_s {
  uq_rt_object_t *object;
  uq_rt_arg_layout_t layout;
  uint8_t *args;
  uint32_t rows;     // query rows of a block (uq_rt_record_rows)
  uint32_t min_rows; // the fewest rows of a run it serves (its record's)
  resident_kernel_t resident;
  const uq_rt_launch_traits_t *traits; // NULL until prepared
} decode_kernel_t;

// A query or output view as the caller configured it. `gathered`: its
// element stride is not 1, so a run copies it through `dense` (rows x Hq x
// D 16-bit elements of the plan's workspace) and the attention kernels see
// the dense rows (the plan's config holds their strides).
typedef struct uq_rt_view_s {
  bool gathered;
  int64_t stride_row, stride_head, stride_elem;
  uq_device_ptr_t dense;
} uq_rt_view_t;

typedef struct uq_rt_views_s {
  uq_rt_view_t query, output;
  // The view kernel (kernel backends, when a view is gathered).
  uq_rt_object_t *object;
  uq_rt_arg_layout_t layout;
  uint8_t *args;
  uint32_t threads;
} uq_rt_views_t;

// The most decode records a plan holds (gfx950 ships rows 8, 16, 32, 64
// and the multi-wave block's 256 for D = 256).
#define MAX_DECODE_KERNELS 6

struct uq_plan_s {
  uq_context_t *context;
  uq_decode_config_t config; // defaults resolved
  uint32_t num_query_heads;  // Hq = Hk * QG
  uq_fp8_overflow_t q_overflow;
  char variant[UQ_VARIANT_KEY_MAX + 1];
  uint32_t max_partitions;
  // The GPU's SMs, for the resident policy (sm_90a; each kernel's own
  // figures in its resident_kernel_t); 0: the seed's policy (gfx950, sim,
  // host).
  uint32_t compute_units;
  // The resident policy's choice for batch b of decodes at [b - 1]
  // (kernels[0]'s), worked out once at plan creation (the workspace needs
  // every one) so a run only reads it; NULL with the seed's policy, which
  // costs nothing to recompute. A varlen run of another kernel computes its
  // own.
  uq_launch_walk_t *policies;
  // Workspace: segm_out [rows, QG, D] bf16, segm_max/sum [rows, QG] f32,
  // rows = max over batch <= max_batch of batch * Hk * P(batch).
  uint64_t workspace_rows;
  uq_device_ptr_t segm_out, segm_max, segm_sum;
  uint64_t workspace_bytes;
  // Workspace rows of one kv head: query tokens x partitions (a varlen run
  // of T tokens takes at most workspace_tokens / T partitions).
  uint64_t workspace_tokens;
  // Decode kernels, by rows: [0] serves uq_plan_run (the smallest block of
  // QG rows); a plan for varlen runs also holds the larger blocks up to the
  // one serving max_query_len x QG rows (a run takes the smallest that holds
  // its max_query_len tokens, else the largest). Empty on the host backend
  // without records.
  decode_kernel_t kernels[MAX_DECODE_KERNELS];
  uint32_t kernel_count;
  uq_rt_object_t *reduce;
  uq_rt_arg_layout_t reduce_layout;
  uint8_t *reduce_args;
  const uq_rt_launch_traits_t *reduce_traits;
  // Host copies of seq lens, query_start_loc, one block-table row and
  // sinks for the sim/host checks.
  int32_t *seq_lens_host, *qsl_host, *tables_host;
  float *sinks_host;
  int counted;
  uq_kernel_counters_t last_decode, last_reduce;
  uq_rt_store_t store; // uq_plan_store (store.c)
  uq_rt_views_t views; // views.c
  // Held by the call in flight (run, run_varlen, store): a plan serves one
  // call at a time (uqrt.h, "Threads").
  pthread_mutex_t busy;
  int busy_initialized;
};

// One run's launches: the decode kernel over `blocks` query blocks (a
// decode: the sequences), its partials reduced over `rows` output rows (a
// decode: the sequences; varlen: the query tokens).
typedef struct run_launch_s {
  const decode_kernel_t *kernel;
  uint32_t blocks, rows, num_seqs;
  uq_launch_walk_t policy;
  uq_device_ptr_t query_start_loc; // 0: a decode
  uint32_t search_seqs;            // 0: block x = sequence x
} run_launch_t;

#define INVALID(...) UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, __VA_ARGS__)
#define TRY(expr)                                                              \
  do {                                                                         \
    uq_status_t try_status_ = (expr);                                          \
    if (try_status_ != UQ_OK)                                                  \
      return try_status_;                                                      \
  } while (0)
#define UNIMPLEMENTED(...) UQ_MAKE_STATUS(UQ_STATUS_UNIMPLEMENTED, __VA_ARGS__)

// create.c: UNIMPLEMENTED naming the backend unless its launches count
// instructions (the simulator, launching).
uq_status_t uq_rt_plan_check_counters(const uq_plan_t *plan);

// config.c: `in` checked, with its defaults resolved, into `out`; a query
// or output view with an element stride into `views`, `out` then holding
// the strides of its dense rows.
uq_status_t uq_rt_plan_check_config(const uq_decode_config_t *in,
                                    uq_decode_config_t *out,
                                    uq_rt_views_t *views);

// variants.c
// The decode records of the plan (plan->kernels): the one a decode runs,
// then every larger block up to the one holding max_query_len x QG rows.
uq_status_t uq_rt_plan_find_kernels(uq_plan_t *plan);
// A decode kernel's resident-policy figures (shared memory, walk groups,
// occupancy, cluster merge) on a device that reports occupancy.
uq_status_t uq_rt_plan_prepare_resident(uq_plan_t *plan,
                                        decode_kernel_t *kernel);
// The largest P a kernel merges itself (0: a kernel that does not, or none).
uint32_t uq_rt_plan_merge_max(const decode_kernel_t *kernel);
// The threads a decode kernel is launched with (its cubin may require some).
uint32_t uq_rt_plan_decode_threads(const decode_kernel_t *kernel);
// The kernel of a varlen run whose longest query has `tokens` tokens (NULL
// on a backend that runs no kernels).
const decode_kernel_t *uq_rt_plan_kernel_for(const uq_plan_t *plan,
                                             uint32_t tokens);
// The query tokens a block of `kernel` holds (1 without one).
uint32_t uq_rt_plan_block_tokens(const uq_plan_t *plan,
                                 const decode_kernel_t *kernel);

// launch_policy.c
// The walk of a decode of `batch` sequences.
uq_status_t uq_rt_plan_policy_for(const uq_plan_t *plan, uint32_t batch,
                                  uq_launch_walk_t *out_policy);
// A varlen run's kernel, blocks and walk (INVALID_ARGUMENT naming a count
// outside the plan's limits).
uq_status_t uq_rt_plan_varlen_launch(const uq_plan_t *plan, uint32_t num_seqs,
                                     uint32_t num_tokens,
                                     uint32_t max_query_len, run_launch_t *out);

// workspace.c: the policies of every batch and the workspace they need,
// allocated on the plan's context.
uq_status_t uq_rt_plan_size_workspace(uq_plan_t *plan);

// launch.c
// Checks, loads and pre-packs the plan's decode kernels and its reduce.
uq_status_t uq_rt_plan_prepare_kernels(uq_plan_t *plan);
// Packs a run's arguments and launches the decode (and the reduce unless
// the decode merged its partitions).
uq_status_t uq_rt_plan_launch(uq_plan_t *plan, const run_launch_t *run,
                              uq_device_ptr_t query, uq_device_ptr_t kv_cache,
                              uq_device_ptr_t block_tables,
                              uq_device_ptr_t seq_lens, uq_device_ptr_t sinks,
                              uq_device_ptr_t output, uq_stream_t *stream);

// checks.c (devices that see their memory: sim and host)
uq_status_t
uq_rt_plan_check_buffers(uq_plan_t *plan, const run_launch_t *run,
                         uq_device_ptr_t query, uq_device_ptr_t kv_cache,
                         uq_device_ptr_t block_tables, uq_device_ptr_t seq_lens,
                         uq_device_ptr_t sinks, uq_device_ptr_t output);
uq_status_t
uq_rt_plan_check_tables(uq_plan_t *plan, uint32_t batch,
                        uq_device_ptr_t block_tables, uq_device_ptr_t seq_lens,
                        uq_device_ptr_t sinks, uq_device_ptr_t query_start_loc,
                        uint32_t num_tokens, uint32_t max_query_len);

// views.c
// `view` from the caller's strides (0 defaults as uqrt.h says); `what` is
// "query" or "output". A stride_elem of 0 or 1 leaves it not gathered (its
// strides are then the config's, check_config fills them in).
uq_status_t uq_rt_view_resolve(const char *what, int64_t stride_row,
                               int64_t stride_head, int64_t stride_elem,
                               uint32_t heads, uint32_t max_rows, uint32_t D,
                               uq_rt_view_t *view);
// The bytes `rows` rows of a view span.
uint64_t uq_rt_view_bytes(const uq_rt_view_t *view, uint32_t rows,
                          uint32_t heads, uint32_t D);
// The dense rows and the view kernel of a plan whose views are gathered.
uq_status_t uq_rt_views_prepare(uq_plan_t *plan);
void uq_rt_views_release(uq_plan_t *plan);
// Before a run's attention: the query view copied into its dense rows;
// `*query` and `*output` then the rows the attention reads and writes
// (unchanged for a contiguous view).
uq_status_t uq_rt_views_gather(uq_plan_t *plan, const run_launch_t *run,
                               uq_device_ptr_t *query, uq_device_ptr_t *output,
                               uq_stream_t *stream);
// After it: the dense output rows copied into the caller's view.
uq_status_t uq_rt_views_scatter(uq_plan_t *plan, const run_launch_t *run,
                                uq_device_ptr_t output, uq_stream_t *stream);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_RUNTIME_PLAN_PLAN_INTERNAL_H_
