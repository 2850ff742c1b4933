// libuqrt: the public C API a server links to run UltraQuant 4-bit KV-cache
// attention (decode and varlen steps, the cache store; head dims 64, 128,
// 256) on a gfx950 GPU through HIP, on the gfx950 simulator, on an H100/H200
// through the CUDA driver, or on the host reference. docs/runtime.md is the
// guide.
//
// Usage:
//   uq_context_t *ctx; uq_context_create(NULL, &ctx);          // auto backend
//   uq_plan_t *plan;   uq_plan_create(ctx, &config, &plan);    // once
//   uq_plan_run(plan, batch, query, cache, tables, lens, out, stream); // often
//   uq_plan_destroy(plan); uq_context_destroy(ctx);
//
// Every call that can fail returns a uq_status_t (NULL = success; see
// uq/status.h); the caller owns and frees a failure. Outputs are the last
// parameters, named out_x, and are zeroed first. The few functions that
// cannot fail (initializers, names) return their value directly.
//
// Threads: a context is thread-safe (its backend is serialized by a mutex)
// and any number of threads may make and run plans on it. A plan serves one
// call at a time: its workspace and kernel-argument buffers are shared by
// every run of that plan. A run or store that finds another call in flight on
// the same plan fails with FAILED_PRECONDITION ("the plan is in use") and
// touches nothing; uq_plan_destroy waits for a call in flight to return (a
// call made after the destroy is the caller's bug). On a GPU a plan's
// kernels are ordered only by the stream they were launched on, so runs of
// one plan on two streams race on its workspace even when the host calls
// take turns: use a plan per thread and per stream (or synchronize between
// streams).
#ifndef UQ_RUNTIME_INCLUDE_UQ_UQRT_H_
#define UQ_RUNTIME_INCLUDE_UQ_UQRT_H_

#include <stddef.h>
#include <stdint.h>

#include "uq/dtype.h"
#include "uq/policy.h"
#include "uq/status.h"
#include "uq/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

// The API version this header describes. A minor bump adds; a major bump
// breaks source or binary compatibility (before 1.0 a minor bump may break
// the host-side helpers of uq/format.h, uq/reference.h and uq/policy.h, and
// says so here).
//   0.2: uq_decode_config_t.sliding_window, uq_plan_run_with_sinks.
//   0.3: head dims 64 and 128 and query groups 1..16 (uq_decode_config_t);
//        the host helpers take the head dim (uq_cache_layout_t.head_dim,
//        uq_reduce_problem_t.head_dim, a head_dim parameter of uq_wht,
//        uq_query_rotate, uq_slot_encode/decode, uq_launch_policy*,
//        uq_reference_attention*_f64); UQ_HEAD_DIM and the fixed slot
//        offsets became per-D macros (UQ_SLOT_*(D), UQ_MAX_HEAD_DIM).;
//        the cache store: uq_plan_store, uq_plan_last_store_counters and
//        the key/value fields of uq_decode_config_t.
//   0.4: uq_plan_info_t.merge_max_partitions (sm_90a runs of small P are
//        one launch).
//   0.5: uq_plan_launch_walk; uq/policy.h's uq_launch_walk_t, which
//        uq_launch_policy_resident now returns for the group size it is
//        given (it returned a uq_launch_plan_t: a break of that host
//        helper), and uq_reference_decode_faithful_walk.
//   0.6: varlen attention: uq_plan_run_varlen, uq_plan_varlen_shape, the
//        max_query_len and max_num_tokens fields of uq_decode_config_t
//        (the struct grew: a break for binaries built against 0.5),
//        uq_decode_problem_t.query_start_loc (likewise) and
//        uq_reference_varlen_faithful; uq_variant_record_t.rows (records
//        of 0.5 tables read it as 0: qg_max rows).
//   0.7: a plan refuses a second call in flight (FAILED_PRECONDITION) and
//        uq_plan_destroy waits for one; uq_plan_run_varlen with no sequence
//        or no token is an empty step (OK, nothing written); a plan sizes
//        its workspace for max_num_tokens rows whatever its max_query_len;
//        uq_context_variant_count and uq_context_variant list the table.
//   0.8: a gfx950 decode whose run has one partition (P = 1) writes the
//        output itself, with no reduce launch, as sm_90a's did: the decode
//        kernels of both targets take the output, its strides and the sinks
//        (kernel_abi.h), and uq_plan_info_t.merge_max_partitions is at least
//        1 on every backend.
//   0.9: fp16 activations: uq_decode_config_t.query_dtype/output_dtype
//        UQ_DTYPE_F16 (uq_dtype_t moved to uq/dtype.h); the host helpers'
//        uq_f16_to_float, uq_float_to_f16, uq_query_rotate_dtype,
//        uq_slot_encode_dtype and the dtype fields at the end of
//        uq_kv_tokens_t, uq_decode_problem_t and uq_reduce_problem_t (the
//        structs grew: a break for binaries built against 0.8).
//   0.10: query and output views with any element stride:
//        uq_decode_config_t.query_stride_elem/output_stride_elem (the
//        struct grew: a break for binaries built against 0.9) and the view
//        kernels (UQ_VARIANT_KIND_VIEW, records view_d<D>).
//   0.11: head dims 32 and 512 in the format, the host references, the
//        host backend (UQ_MAX_HEAD_DIM 512, UQ_SLOT_MIN_STRIDE) and the
//        gfx950 kernels (decode_d32_rows16, decode_d512_rows16; reduce,
//        store and view d32 and d512); a backend refuses a head dim its
//        table has no kernel for (sm_90a: D 32 and 512 today).
//   0.12: UQ_VARIANT_KEY_MAX (uq/variant.h), which sizes the variant
//        fields of uq_plan_info_t and uq_varlen_shape_t (32 bytes, as
//        before); uq_context_create refuses a record whose key is longer
//        (it would come back cut short). The sm_90a wgmma records are
//        decode_wgmma_d<D>_pwg<P>_rows<R> (were ..._qg_max16_rows128,
//        34 characters, cut to 31; P the warpgroups that copy and decode
//        the tiles, 0 where every thread does; R 128, and 64 since
//        stop 51).
#define UQRT_VERSION_MAJOR 0
#define UQRT_VERSION_MINOR 12

// The version of the library actually loaded (compare with the macros).
UQ_API uq_status_t uq_runtime_version(uint32_t *out_major, uint32_t *out_minor);

//===----------------------------------------------------------------------===//
// Allocator
//===----------------------------------------------------------------------===//

// Host memory for every runtime object (contexts, plans, their tables, and
// the host backend's "device" buffers). `alloc` returns memory aligned for
// any type or NULL on failure; `free` accepts NULL. Both are called with
// `self`. A context copies the struct; `self` must outlive the context.
typedef struct uq_allocator_s {
  void *self;
  void *(*alloc)(void *self, size_t size);
  void (*free)(void *self, void *ptr);
} uq_allocator_t;

//===----------------------------------------------------------------------===//
// Context and device memory
//===----------------------------------------------------------------------===//

typedef enum uq_backend_e {
  UQ_BACKEND_AUTO = 0, // hip when a gfx950 device is usable, cuda on a 9.0
                       // device when the table has cubins, else sim
  UQ_BACKEND_HIP = 1,  // a gfx950 GPU through libamdhip64 (loaded at run time)
  UQ_BACKEND_SIM = 2,  // the embedded code objects on the gfx950 simulator
  UQ_BACKEND_HOST = 3, // the host kernel-faithful reference
  UQ_BACKEND_CUDA = 4, // an sm_90 (compute capability 9.0) GPU through
                       // libcuda.so.1 (loaded at run time), sm_90a cubins
} uq_backend_t;

// "auto", "hip", "sim", "host" ("unknown" otherwise). Static storage.
UQ_API const char *uq_backend_name(uq_backend_t backend);
// Parses a backend name as above; INVALID_ARGUMENT for anything else.
UQ_API uq_status_t uq_backend_parse(const char *name, size_t length,
                                    uq_backend_t *out_backend);

// A code object to use instead of the ones built into the library (tests,
// custom variants): its typed record (uq/variant.h). `kind`, `head_dim` and,
// for decode, `qg_max` are required; the bytes must outlive the context.
typedef uq_variant_record_t uq_code_object_source_t;

enum {
  // sim only: kernel launches are skipped (everything else — validation,
  // policy, argument packing — runs). For measuring host-side cost.
  UQ_CONTEXT_FLAG_NULL_LAUNCH = 1u << 0,
};

typedef struct uq_context_options_s {
  uq_backend_t backend;
  uint32_t flags;           // UQ_CONTEXT_FLAG_*
  int32_t hip_device;       // HIP device ordinal
  const char *hip_library;  // NULL: libamdhip64.so, .so.7/6/5, /opt/rocm/lib
  int32_t cuda_device;      // CUDA device ordinal
  const char *cuda_library; // NULL: libcuda.so.1, then libcuda.so
  const uq_allocator_t *allocator; // NULL: malloc/free
  // NULL: the code objects embedded in libuqrt.
  const uq_code_object_source_t *code_objects;
  size_t code_object_count;
} uq_context_options_t;

// Fills the defaults (auto backend, device 0, malloc, embedded objects).
UQ_API void uq_context_options_initialize(uq_context_options_t *out_options);

typedef struct uq_context_s uq_context_t;

// Creates a context; `options` may be NULL (defaults). Codes: UNAVAILABLE
// when an explicitly requested backend cannot be used (the message carries
// the reason, e.g. the HIP error name "hipErrorNoDevice" or the library
// paths tried); INVALID_ARGUMENT for bad options; DATA_LOSS or
// FAILED_PRECONDITION when an embedded code object is corrupt or its
// kernel arguments disagree with the runtime's kernel ABI;
// RESOURCE_EXHAUSTED. The caller destroys the context, after every plan.
UQ_API uq_status_t uq_context_create(const uq_context_options_t *options,
                                     uq_context_t **out_context);
// Destroys a context; NULL is allowed. Its plans must be destroyed first.
UQ_API void uq_context_destroy(uq_context_t *context);

// The backend actually in use (never AUTO).
UQ_API uq_status_t uq_context_backend(const uq_context_t *context,
                                      uq_backend_t *out_backend);
// One line describing the device and, for auto, why it was chosen.
// Borrowed; valid until the context is destroyed.
UQ_API uq_status_t uq_context_describe(const uq_context_t *context,
                                       const char **out_text);

// Since 0.7: the code objects the context was made with (the embedded table
// or the options' code_objects), for reports such as `python -m uqrt`.
// OUT_OF_RANGE for an index at or past the count. Borrowed; valid until the
// context is destroyed.
UQ_API uq_status_t uq_context_variant_count(const uq_context_t *context,
                                            size_t *out_count);
UQ_API uq_status_t uq_context_variant(const uq_context_t *context, size_t index,
                                      const uq_variant_record_t **out_record);

// A device address: a HIP device pointer, a simulator address, or a host
// pointer on the host backend. Offsets may be added to it. 0 is never a
// valid allocation.
typedef uint64_t uq_device_ptr_t;

// Opaque stream: a hipStream_t on HIP (NULL = the default stream). The sim
// and host backends run synchronously and ignore it.
typedef struct uq_stream_s uq_stream_t;

UQ_API uq_status_t uq_context_alloc(uq_context_t *context, size_t size,
                                    uq_device_ptr_t *out_ptr);
// Frees an allocation from uq_context_alloc; 0 is allowed.
UQ_API uq_status_t uq_context_free(uq_context_t *context, uq_device_ptr_t ptr);
// Copies host -> device and device -> host (synchronous).
UQ_API uq_status_t uq_context_upload(uq_context_t *context,
                                     uq_device_ptr_t device_dst,
                                     const void *host_src, size_t size);
UQ_API uq_status_t uq_context_download(uq_context_t *context, void *host_dst,
                                       uq_device_ptr_t device_src, size_t size);
// Waits for the work submitted to `stream` (NULL: the default stream).
UQ_API uq_status_t uq_context_synchronize(uq_context_t *context,
                                          uq_stream_t *stream);

//===----------------------------------------------------------------------===//
// Decode plan
//===----------------------------------------------------------------------===//

// Everything fixed for the life of a plan. Zero means "default" for the
// fields marked so. Strides are in elements.
typedef struct uq_decode_config_s {
  uint32_t num_kv_heads;       // Hk >= 1
  uint32_t query_group;        // QG = Hq / Hk: 1..16
  uint32_t head_dim;           // D: 32, 64, 128, 256 or 512
  uint32_t block_size;         // tokens per cache block: 16..256, power of 2
  uint32_t padded_slot;        // bytes per (token, kv head): >= D + D/16
                               // (68, 136, 272), % 4 == 0
  uint32_t max_blocks_per_seq; // block-table row length
  uint32_t num_blocks;         // blocks in the cache (bounds checks)
  uint32_t max_batch;          // largest batch any run may pass
  uint32_t max_kv_splits;      // parallelism floor of the policy; 0: 32
  float softmax_scale;         // 0: 1/sqrt(D) (1/16 for D = 256); else in
                               // (0, ln 2]: scale x log2(e) <= 1
  int64_t query_stride_seq;    // 0: Hq * D (fused QKV: (Hq + 2 Hk) * D)
  int64_t query_stride_head;   // 0: D
  int64_t output_stride_seq;   // 0: Hq * D
  int64_t output_stride_head;  // 0: D
  // The activations' dtype (uq/dtype.h): of the query, and of the key
  // and value tensors uq_plan_store reads. BF16 (0) or, since 0.9, F16;
  // output_dtype must equal it (the output is written in the query's
  // dtype). F32 or any other value: INVALID_ARGUMENT. Inputs are converted
  // to fp32 exactly; only the output's final rounding depends on the dtype.
  uq_dtype_t query_dtype;
  uq_dtype_t output_dtype;
  // Since 0.2. A query attends only to the last W tokens of its sequence
  // (positions >= seq_len - W); 0: no window. At most 2^31 - 1. The launch
  // policy sizes P and TGPP for min(max_blocks_per_seq * block_size,
  // W + 15) tokens (see uq/policy.h). Block-table entries wholly before
  // the window are never read (and not checked).
  uint32_t sliding_window;
  // Since 0.3, for uq_plan_store: the largest token count a store may pass
  // (0: max_batch; at most 2^31 - 1) and the strides in elements of the
  // key and value tensors [tokens, Hk, 256] in query_dtype (0: contiguous,
  // Hk * 256 and 256; a fused QKV tensor's views: (Hq + 2 Hk) * 256 and 256).
  // Rows of 256 elements must not overlap, as for uq_cache_write.
  uint32_t max_store_tokens;
  int64_t key_stride_token;
  int64_t key_stride_head;
  int64_t value_stride_token;
  int64_t value_stride_head;
  // Since 0.6, for uq_plan_run_varlen: the longest query (new tokens of one
  // sequence) a run may pass (0: 1, decodes only; at most 65536) and the
  // most query tokens of a run (0: max_batch * max_query_len; at most
  // 2^24). The workspace holds at least one partition's partials per token.
  uint32_t max_query_len;
  uint32_t max_num_tokens;
  // Since 0.10: elements between consecutive head-dim elements of the
  // query and of the output (0 or 1: contiguous, the fast path). With
  // another stride (a view such as storage[..., ::2], or a transposed
  // [tokens, D, heads] tensor) the plan gathers the query into dense rows
  // of its workspace on the device before the attention and scatters the
  // output rows into the view after it (one small launch each, no host
  // copy, nothing allocated in a run); the head stride then defaults to
  // D x stride_elem. Strides of such a view are non-negative, may exceed
  // the kernels' int32 range, and the output's rows must not overlap
  // (INVALID_ARGUMENT naming the field). Needs the view kernels
  // (view_d<D>) on kernel backends: NOT_FOUND from uq_plan_create
  // otherwise.
  int64_t query_stride_elem;
  int64_t output_stride_elem;
} uq_decode_config_t;

typedef struct uq_plan_s uq_plan_t;

// Validates `config`, picks the decode record matching its head dim and
// query group (the smallest qg_max >= QG) and the reduce record of its head
// dim, loads their code objects, checks their kernel arguments against the
// runtime's ABI, applies the launch policy and allocates the workspace
// (segm_out/max/sum) for the largest partition count any batch <= max_batch
// can get. The host backend needs no record: it decodes every supported D
// and QG. Codes: INVALID_ARGUMENT (bad config; the message names the field),
// OUT_OF_RANGE (a product of sizes past the kernel's 32-bit offsets: a cache
// block of more than 2^31 - 1 bytes, or a kv head's query rows spanning
// more; the message names the field), UNIMPLEMENTED (a shape the API does
// not cover: head dim other than 32, 64, 128, 256, 512 (the message names
// them), QG over 16, block size, dtype; also, on hip, cuda and sim, a shape
// no record of the table serves, such as a head dim without kernels for the
// target (D 32 and 512 on sm_90a today): the message sums up the
// target's kernels of that kind, "D 64 QG 1-16, D 128 QG 1-16, ..."),
// NOT_FOUND (the table holds no decode or no reduce kernel at all),
// FAILED_PRECONDITION (a code object's arguments disagree with the ABI),
// RESOURCE_EXHAUSTED. The caller destroys the plan before the context.
UQ_API uq_status_t uq_plan_create(uq_context_t *context,
                                  const uq_decode_config_t *config,
                                  uq_plan_t **out_plan);
UQ_API void uq_plan_destroy(uq_plan_t *plan);

typedef struct uq_plan_info_s {
  // The decode record's key, "decode_d256_rows8"; "host" on the host
  // backend when no record serves the shape.
  char variant[UQ_VARIANT_KEY_MAX + 1];
  uint32_t max_partitions; // largest P over every batch <= max_batch
  // Since 0.4 (in what was padding: the struct's size and the other
  // offsets are 0.3's). Decode runs (uq_plan_run) whose P
  // (uq_plan_launch_shape) is at most this are one launch: the decode
  // merges the partitions itself (sm_90a: P CTAs as one thread block
  // cluster). 1: runs of P = 1 only (every gfx950 decode, since 0.8; 0
  // before: every decode run launched the reduce after the decode).
  // A varlen run whose blocks take a larger kernel (uq_plan_run_varlen)
  // follows that kernel's own figure, which this does not report.
  uint32_t merge_max_partitions;
  uint64_t workspace_bytes; // device bytes the plan owns
  // The decode code object's E4M3 rule for the rotated query: 1: |q| past
  // 464 -> +-448 (FP16_OVFL set; the project's rule); 0: NaN (that head's
  // output turns NaN). On the host backend: the rule of the record that
  // serves the shape if there is one, else 1.
  uint32_t e4m3_saturates;
  uint32_t decode_lds_bytes; // static LDS of the decode kernel (0 on host)
} uq_plan_info_t;

UQ_API uq_status_t uq_plan_query_info(const uq_plan_t *plan,
                                      uq_plan_info_t *out_info);

// The launch shape a run with `batch` sequences uses: partitions P and
// the 256-token tile-groups' worth of tokens a partition walks at most
// (TGPP: exactly its tile-groups on a walk of tile-groups; see
// uq_plan_launch_walk). The policy depends on the batch, so P is computed
// per run; the workspace was sized for the largest P * batch over every
// batch.
UQ_API uq_status_t uq_plan_launch_shape(const uq_plan_t *plan, uint32_t batch,
                                        uint32_t *out_num_partitions,
                                        uint32_t *out_tgpp);

// Since 0.5: the walk a run with `batch` sequences uses (uq/policy.h):
// its partitions, the groups of 16-token tiles they interleave and how
// many each walks at most, which uq_reference_decode_faithful_walk
// reproduces. A walk of tile-groups (group_tiles 16) everywhere but on
// sm_90a, whose cubins state their own groups (single tiles or
// tile-groups, uq_launch_policy_resident).
UQ_API uq_status_t uq_plan_launch_walk(const uq_plan_t *plan, uint32_t batch,
                                       uq_launch_walk_t *out_walk);

// Runs decode then the partition reduce (on sm_90a one launch when P is at
// most uq_plan_info_t.merge_max_partitions) for `batch` (1..max_batch)
// sequences:
//   query        query_dtype, [batch, Hq, D] with the plan's query strides
//   kv_cache     u8 [num_blocks, block_size, Hk, padded_slot]
//   block_tables i32 [batch, max_blocks_per_seq]: the entries covering
//                each sequence's tokens, and entry 0 even when its seq len
//                is 0 (the kernels may read it); other entries are not read
//   seq_lens     i32 [batch]
//   output       query_dtype, [batch, Hq, D] with the plan's output strides
// Never allocates device memory or calls the context's allocator: safe
// inside a HIP graph capture (HIP copies the kernel arguments at launch).
// (The host backend's reference uses libc scratch memory of its own.) On the
// sim and host backends the seq lens and block tables are read back and checked
// (OUT_OF_RANGE: a seq len past the block table row; a block id outside the
// cache). Codes: INVALID_ARGUMENT (null pointer, batch 0 or over max_batch),
// OUT_OF_RANGE, UNAVAILABLE/INTERNAL from the device.
UQ_API uq_status_t uq_plan_run(uq_plan_t *plan, uint32_t batch,
                               uq_device_ptr_t query, uq_device_ptr_t kv_cache,
                               uq_device_ptr_t block_tables,
                               uq_device_ptr_t seq_lens, uq_device_ptr_t output,
                               uq_stream_t *stream);

// Since 0.2: uq_plan_run with attention sinks (gpt-oss style). `sinks` is
// device memory holding Hq f32 logits (units of softmax_scale * q.k), one
// per query head, each finite or -inf (= no sink for that head); 0 = no
// sinks (exactly uq_plan_run). A sink joins the softmax denominator only:
// out_h = sum_t e^(x_t - M) v_t / (sum_t e^(x_t - M) + e^(sink_h - M)),
// M = max(max_t x_t, sink_h); a head with no tokens outputs 0. The reduce
// kernel reads the sinks; the sim and host backends read them back first
// and check them (INVALID_ARGUMENT for a NaN or +inf sink). Otherwise as
// uq_plan_run (graph-capture safe; the pointer must stay valid until the
// run completes).
UQ_API uq_status_t
uq_plan_run_with_sinks(uq_plan_t *plan, uint32_t batch, uq_device_ptr_t query,
                       uq_device_ptr_t kv_cache, uq_device_ptr_t block_tables,
                       uq_device_ptr_t seq_lens, uq_device_ptr_t sinks,
                       uq_device_ptr_t output, uq_stream_t *stream);

// Since 0.3: stores `num_tokens` (0..max_store_tokens) new tokens into the
// cache, as a server does before each decode step:
//   key, value    query_dtype [num_tokens, Hk, D] with the plan's key/value
//                 strides (head dim contiguous)
//   slot_mapping  i64 [num_tokens]: block * block_size + offset, or
//                 negative to skip the token (vLLM's padding convention)
//   kv_cache      u8 [num_blocks, block_size, Hk, padded_slot], written
// Each stored (token, kv head) gets the D + D/16 content bytes
// uq_cache_write would write (K rotated; byte for byte the same); no other
// cache byte is touched. Two tokens mapped to one slot is the caller's mistake
// (the order is unspecified on a GPU). A slot at or past num_blocks *
// block_size: on the sim and host backends the slot mapping is read back and
// checked first, OUT_OF_RANGE and nothing written; on a GPU the kernel skips
// such a token (never writes out of bounds) and reports nothing. Like run:
// never allocates, safe inside a HIP or CUDA graph capture. Codes:
// INVALID_ARGUMENT (a null pointer with num_tokens > 0, num_tokens over
// max_store_tokens), NOT_FOUND (the context has no store code object: custom
// code objects without "store_d<D>"), OUT_OF_RANGE, UNAVAILABLE/INTERNAL from
// the device. Every head dim with a decode kernel (64, 128, 256; 32 and 512
// on gfx950) has a store kernel, on every backend (sm_90a included:
// "store_sm90_d<D>").
UQ_API uq_status_t uq_plan_store(uq_plan_t *plan, uint32_t num_tokens,
                                 uq_device_ptr_t key, uq_device_ptr_t value,
                                 uq_device_ptr_t slot_mapping,
                                 uq_device_ptr_t kv_cache, uq_stream_t *stream);

// Since 0.6: varlen attention, one call for a serving step's attention
// over `num_seqs` (1..max_batch) sequences with q_len_b >= 0 new query
// tokens each (decodes, speculative-decoding verify chunks, chunked-prefill
// and prefix-cache extends, first chunks, in any mix; vLLM's unified
// attention contract):
//   query           query_dtype [num_tokens, Hq, D] with the plan's query
//   strides
//                   (its "seq" strides step tokens; fused QKV views work)
//   query_start_loc i32 [num_seqs + 1], non-decreasing: sequence b's query
//                   tokens are rows qsl[b] .. qsl[b + 1] - 1, qsl[num_seqs]
//                   <= num_tokens (rows past it are padding: not written)
//   seq_lens        i32 [num_seqs]: each sequence's length counting its new
//                   tokens (already stored with uq_plan_store), >= q_len_b
//   kv_cache, block_tables, sinks as uq_plan_run_with_sinks (sinks 0: none)
//   output          query_dtype [num_tokens, Hq, D] with the plan's output
//   strides
// Query token i of sequence b attends the key positions t < limit =
// seq_len_b - q_len_b + i + 1 (causal inside its chunk) and, with the
// plan's sliding window W, t >= limit - W. A run whose every q_len is 1
// computes exactly uq_plan_run's decode (bit for bit on the same backend).
// `num_tokens` (1..max_num_tokens) and `max_query_len` (1..the plan's
// max_query_len; every q_len must be at most it) are the host's view of
// the step (vLLM's attention metadata has both): they pick the kernels and
// the grids, so a graph captured for a (num_seqs, num_tokens,
// max_query_len) replays for any query_start_loc and seq_lens within
// them. An empty step (num_seqs or num_tokens 0, both within the plan's
// limits) returns OK and writes nothing. Rows past query_start_loc[num_seqs]
// (a step padded to a graph's token count) are not written. Nothing is
// allocated, nothing read back on a GPU backend: safe
// inside a HIP or CUDA graph capture. On the sim and host backends the
// tables are read back and checked first: query_start_loc decreasing,
// qsl[0] < 0, qsl[num_seqs] past num_tokens or a q_len over seq_len
// (INVALID_ARGUMENT naming the field), a q_len over max_query_len or a
// seq len or block id as uq_plan_run checks them (OUT_OF_RANGE); a GPU
// kernel skips a sequence whose q_len passes its seq_len. Codes as
// uq_plan_run; INVALID_ARGUMENT also for num_tokens or max_query_len out
// of the plan's range; UNIMPLEMENTED on a backend whose kernels serve one
// token per sequence only (the message says which).
UQ_API uq_status_t uq_plan_run_varlen(
    uq_plan_t *plan, uint32_t num_seqs, uint32_t num_tokens,
    uint32_t max_query_len, uq_device_ptr_t query, uq_device_ptr_t kv_cache,
    uq_device_ptr_t block_tables, uq_device_ptr_t seq_lens,
    uq_device_ptr_t query_start_loc, uq_device_ptr_t sinks,
    uq_device_ptr_t output, uq_stream_t *stream);

// Since 0.6: how a varlen run of that host shape is launched: the decode
// record serving it, the query tokens of a block (uq_reference_varlen_
// faithful's block_tokens), the blocks launched (grid x) and the walk of
// each block's positions.
typedef struct uq_varlen_shape_s {
  char variant[UQ_VARIANT_KEY_MAX + 1];
  uint32_t block_tokens;
  uint32_t num_blocks;
  uq_launch_walk_t walk;
} uq_varlen_shape_t;

UQ_API uq_status_t uq_plan_varlen_shape(const uq_plan_t *plan,
                                        uint32_t num_seqs, uint32_t num_tokens,
                                        uint32_t max_query_len,
                                        uq_varlen_shape_t *out_shape);

// What the simulator counted for one kernel launch.
typedef struct uq_kernel_counters_s {
  uint64_t wave_instructions;
  uint64_t mfma_instructions;
  uint64_t global_bytes_read;
  uint64_t global_bytes_written;
  uint64_t lds_bytes_read;
  uint64_t lds_bytes_written;
  uint64_t workgroups;
  // Distinct 128-byte lines the launch's loads read: its memory traffic if
  // each line were fetched once (global_bytes_read counts every access).
  uint64_t global_lines_read;
  // Since 0.6: the most bytes one wave had in flight in vector memory loads
  // (issued, not yet waited for: its prefetch depth in bytes).
  uint64_t vmem_inflight_peak;
} uq_kernel_counters_t;

// The counters of the plan's last run (decode and reduce). UNIMPLEMENTED on
// backends that do not count (hip, host); FAILED_PRECONDITION before the
// first run.
UQ_API uq_status_t uq_plan_last_counters(const uq_plan_t *plan,
                                         uq_kernel_counters_t *out_decode,
                                         uq_kernel_counters_t *out_reduce);

// Since 0.3: the counters of the plan's last store launch. UNIMPLEMENTED
// on backends that do not count; FAILED_PRECONDITION before the first store
// that launched (a store of 0 tokens launches nothing).
UQ_API uq_status_t uq_plan_last_store_counters(const uq_plan_t *plan,
                                               uq_kernel_counters_t *out_store);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_RUNTIME_INCLUDE_UQ_UQRT_H_
