// The order and meaning of the kernels' arguments: the contract between
// kernels/ and the runtime. Offsets, sizes and alignment are NOT here:
// they come from each code object's AMDHSA metadata at load time, and the
// runtime checks that the metadata agrees with this order (kind and size).
#ifndef UQ_RUNTIME_KERNEL_ABI_H_
#define UQ_RUNTIME_KERNEL_ABI_H_

// Decode: grid (B, num_kv_heads, num_partitions), one 64-lane wave each
// (gfx950's multi-wave blocks: the waves their .reqd_workgroup_size states).
// Which kernel serves a shape is in its typed record (uq/variant.h).
typedef enum uq_decode_arg_e {
  UQ_DECODE_ARG_SEGM_OUT = 0,       // bf16* [B, Hk, P, QG, D]
  UQ_DECODE_ARG_SEGM_MAX,           // f32*  [B, Hk, P, QG]
  UQ_DECODE_ARG_SEGM_SUM,           // f32*  [B, Hk, P, QG]
  UQ_DECODE_ARG_QUERY,              // bf16/fp16* (strided, head dim contiguous)
  UQ_DECODE_ARG_KV_CACHE,           // u8*   [blocks, block_size, Hk, slot]
  UQ_DECODE_ARG_BLOCK_TABLES,       // i32*  [B, max_blocks_per_seq]
  UQ_DECODE_ARG_SEQ_LENS,           // i32*  [B]
  UQ_DECODE_ARG_NUM_KV_HEADS,       // i32
  UQ_DECODE_ARG_NUM_PARTITIONS,     // i32 P
  UQ_DECODE_ARG_TGPP,               // i32 walk groups per partition (*)
  UQ_DECODE_ARG_BLOCK_SIZE,         // i32 16, 32, 64, 128 or 256
  UQ_DECODE_ARG_PADDED_SLOT,        // i32 bytes, >= 272, multiple of 4
  UQ_DECODE_ARG_Q_STRIDE_SEQ,       // i32 elements between sequences
  UQ_DECODE_ARG_Q_STRIDE_HEAD,      // i32 elements between heads
  UQ_DECODE_ARG_MAX_BLOCKS_PER_SEQ, // i32 block-table row length
  UQ_DECODE_ARG_SOFTMAX_SCALE,      // f32
  UQ_DECODE_ARG_SLIDING_WINDOW,     // i32 W: only tokens >= seq_len - W; 0 none
  UQ_DECODE_ARG_QUERY_GROUP,        // i32 QG, 1 .. the record's qg_max
  // Since 0.6 (varlen attention): grid x counts query blocks of
  // floor(rows / QG) tokens of one sequence (the record's rows); partials
  // are [T, Hk, P, QG, D] by query token.
  UQ_DECODE_ARG_QUERY_START_LOC, // i32* [B + 1]; 0: a decode (block x =
                                 // sequence x's one token, query row x)
  UQ_DECODE_ARG_SEARCH_SEQS,     // i32 0: block x = sequence x (its query
                                 // fits one block); n: blocks of the n
                                 // sequences from qsl[s] / bt + s (search)
  // Since 0.8 on gfx950 (sm_90a had them first): the output of a decode that
  // merges its partitions itself, as the reduce's arguments: with P = 1
  // every decode normalizes and writes its rows there (no reduce launch),
  // and sm_90a also when its P CTAs run as one cluster (P <=
  // UQ_SM90_CLUSTER_MAX_PARTITIONS). With P > 1 outside a cluster they are
  // not read.
  UQ_DECODE_ARG_OUTPUT,          // bf16/fp16*
  UQ_DECODE_ARG_OUT_STRIDE_SEQ,  // i32 elements
  UQ_DECODE_ARG_OUT_STRIDE_HEAD, // i32 elements
  UQ_DECODE_ARG_SINKS,           // f32* [Hq]; 0: none
  // Since 0.9: the activations' dtype (query and output; the plan's
  // query_dtype): 0 bf16, 1 fp16. Partials stay bf16.
  UQ_DECODE_ARG_ACT_F16, // i32
  UQ_DECODE_ARG_COUNT,
} uq_decode_arg_t;

// Reduce: grid (B, Hq, 256 / 64), one 64-lane wave each; lane = head dim.
// One reduce kernel per head dim (its record's head_dim).
typedef enum uq_reduce_arg_e {
  UQ_REDUCE_ARG_OUTPUT = 0,      // bf16/fp16* [B, Hq, D], strides below
  UQ_REDUCE_ARG_SEGM_OUT,        // bf16* as written by decode
  UQ_REDUCE_ARG_SEGM_MAX,        // f32*
  UQ_REDUCE_ARG_SEGM_SUM,        // f32*
  UQ_REDUCE_ARG_NUM_KV_HEADS,    // i32
  UQ_REDUCE_ARG_QUERY_GROUP,     // i32 QG
  UQ_REDUCE_ARG_NUM_PARTITIONS,  // i32 P
  UQ_REDUCE_ARG_OUT_STRIDE_SEQ,  // i32 elements
  UQ_REDUCE_ARG_OUT_STRIDE_HEAD, // i32 elements
  UQ_REDUCE_ARG_SINKS,           // f32* [Hq] attention sinks; 0 (null): none
  // Since 0.6: a varlen run's query_start_loc (grid x = its T query tokens;
  // rows outside query_start_loc[0] .. [num_seqs] - 1 are padding, not
  // written); 0: a decode (grid x = the sequences).
  UQ_REDUCE_ARG_QUERY_START_LOC, // i32* [num_seqs + 1]
  UQ_REDUCE_ARG_NUM_SEQS,        // i32
  UQ_REDUCE_ARG_ACT_F16,         // i32 since 0.9: 1 writes fp16, 0 bf16
  UQ_REDUCE_ARG_COUNT,
} uq_reduce_arg_t;

// NVIDIA sm_90a (the uq_decode_sm90 / uq_reduce_sm90 gpu.modules of
// kernels/decode.mlir; same argument order and meaning as above; records
// decode_sm90_d<D>_qg_max{8,16} and reduce_sm90_d<D>, D = 64, 128, 256):
// decode grid (B, Hk, P) of 128-thread CTAs (4 warps), as clusters of
// (1, 1, P) when it merges its P partitions itself (P = 1 needs none),
// with the dynamic shared memory its cubin states (uq_dynamic_shared_bytes,
// computed in kernels/sm90a.mlir by @uq_sm90_shared_bytes from the variant's
// layout: the warps' cp.async stages and Q, or after the walk the merge of
// the warps' partials and the partials a cluster's merge reads; the
// launcher raises CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES to it).
// Clusters of up to 8 CTAs are portable on every sm_90 part.
// (*) TGPP counts groups of 16 tiles (256-token tile-groups) on gfx950 and
// of the tiles an sm_90a cubin states (uq_walk_group_tiles, kernels/sm90a.mlir
// @uq_sm90_walk_log2; uq/policy.h's uq_launch_walk_t).
// Reduce grid (B, Hq, 1) of UQ_SM90_REDUCE_THREADS(D) threads (4 head
// dims x 4 partition lanes each), 4128 B of static shared memory.
#define UQ_SM90_DECODE_THREADS 128
#define UQ_SM90_CLUSTER_MAX_PARTITIONS 8
#define UQ_SM90_REDUCE_THREADS(d) (d)
// Store grid (num_tokens, Hk) of one 32-lane warp each: the same kernel
// source as gfx950's (kernels/store.mlir @uq_store, uq.target_params lanes =
// 32), records store_sm90_d{64,128,256}, kernels uq_store_sm90_d<D>.
#define UQ_SM90_STORE_THREADS 32

// Store: grid (num_tokens, Hk), one 64-lane wave each on gfx950 (one warp,
// UQ_SM90_STORE_THREADS, on sm_90a). Kernel name "uq_store_d<D>" (variant
// store_d<D>, D = 64, 128, 256; "uq_store_sm90_d<D>" on sm_90a).
typedef enum uq_store_arg_e {
  UQ_STORE_ARG_KV_CACHE = 0,       // u8*  [blocks, block_size, Hk, slot]
  UQ_STORE_ARG_KEY,                // bf16/fp16* [T, Hk, D], strides below
  UQ_STORE_ARG_VALUE,              // bf16/fp16*
  UQ_STORE_ARG_SLOT_MAPPING,       // i64* [T]; < 0 or >= num_slots: skip
  UQ_STORE_ARG_NUM_KV_HEADS,       // i32
  UQ_STORE_ARG_PADDED_SLOT,        // i32 bytes
  UQ_STORE_ARG_NUM_SLOTS,          // i64 num_blocks * block_size
  UQ_STORE_ARG_KEY_STRIDE_TOKEN,   // i64 elements
  UQ_STORE_ARG_KEY_STRIDE_HEAD,    // i64 elements
  UQ_STORE_ARG_VALUE_STRIDE_TOKEN, // i64 elements
  UQ_STORE_ARG_VALUE_STRIDE_HEAD,  // i64 elements
  UQ_STORE_ARG_ACT_F16,            // i32 since 0.9: key, value fp16 (1), bf16
  UQ_STORE_ARG_COUNT,
} uq_store_arg_t;

// View (since 0.10, kernels/view.mlir): grid (rows, heads), one 64-lane
// wave each on gfx950 (one warp, UQ_SM90_VIEW_THREADS, on sm_90a). Copies
// rows of D 16-bit elements between dense [rows, heads, D] and a strided
// view. Kernel name "uq_view_d<D>" (variant view_d<D>; "uq_view_sm90_d<D>"
// on sm_90a).
#define UQ_SM90_VIEW_THREADS 32
typedef enum uq_view_arg_e {
  UQ_VIEW_ARG_DENSE = 0,   // u16* [rows, heads, D]
  UQ_VIEW_ARG_VIEW,        // u16* the caller's view, strides below
  UQ_VIEW_ARG_ROW_LIMIT,   // i32* or null: rows >= *row_limit untouched
  UQ_VIEW_ARG_NUM_HEADS,   // i32
  UQ_VIEW_ARG_STRIDE_ROW,  // i64 elements
  UQ_VIEW_ARG_STRIDE_HEAD, // i64 elements
  UQ_VIEW_ARG_STRIDE_ELEM, // i64 elements
  UQ_VIEW_ARG_SCATTER,     // i32: 0 view -> dense, 1 dense -> view
  UQ_VIEW_ARG_COUNT,
} uq_view_arg_t;

#endif // UQ_RUNTIME_KERNEL_ABI_H_
