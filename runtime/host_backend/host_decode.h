// The host backend's decode: the kernel-faithful reference on host memory,
// with the same P/TGPP and partials layout the kernels use.
#ifndef UQ_RUNTIME_HOST_BACKEND_HOST_DECODE_H_
#define UQ_RUNTIME_HOST_BACKEND_HOST_DECODE_H_

#include <stdint.h>

#include "uq/format.h"
#include "uq/uqrt.h"

#ifdef __cplusplus
extern "C" {
#endif

// Device addresses here are host pointers (the host backend's memory).
typedef struct uq_host_decode_args_s {
  int32_t num_seqs, query_group, head_dim;
  int64_t num_blocks;
  int32_t block_size, num_kv_heads, padded_slot, max_blocks_per_seq;
  float softmax_scale;
  uq_fp8_overflow_t q_overflow;
  uq_device_ptr_t query;
  int64_t query_stride_seq, query_stride_head;
  uq_device_ptr_t kv_cache, block_tables, seq_lens, output;
  int64_t output_stride_seq, output_stride_head;
  uq_launch_walk_t walk; // the plan's split of each sequence
  uq_device_ptr_t segm_out, segm_max, segm_sum; // the plan's workspace
  int32_t sliding_window;                       // 0: none
  uq_device_ptr_t sinks;                        // f32 [Hq] or 0: none
  uq_device_ptr_t query_start_loc; // i32 [num_seqs + 1] or 0: a decode
  int32_t block_tokens;            // the varlen kernel's tokens a block
} uq_host_decode_args_t;

uq_status_t uq_host_decode(const uq_host_decode_args_t *args);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_RUNTIME_HOST_BACKEND_HOST_DECODE_H_
