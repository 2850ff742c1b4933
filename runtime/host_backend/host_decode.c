// The host backend's decode through uq/reference.h's faithful mode.
#include "runtime/host_backend/host_decode.h"

#include "uq/reference.h"

#define HOST_PTR(type, address) ((type)(uintptr_t)(address))

uq_status_t uq_host_decode(const uq_rt_decode_args_t *a) {
  uq_decode_problem_t problem = {
      .num_seqs = a->num_seqs,
      .query_group = a->query_group,
      .cache = {.num_blocks = a->num_blocks,
                .block_size = a->block_size,
                .num_kv_heads = a->num_kv_heads,
                .padded_slot = a->padded_slot,
                .head_dim = a->head_dim},
      .max_blocks_per_seq = a->max_blocks_per_seq,
      .softmax_scale = a->softmax_scale,
      .q_overflow = a->q_overflow,
      .query = HOST_PTR(const uint16_t *, a->query),
      .query_stride_seq = a->query_stride_seq,
      .query_stride_head = a->query_stride_head,
      .kv_cache = HOST_PTR(const uint8_t *, a->kv_cache),
      .block_tables = HOST_PTR(const int32_t *, a->block_tables),
      .seq_lens = HOST_PTR(const int32_t *, a->seq_lens),
      .output = HOST_PTR(uint16_t *, a->output),
      .output_stride_seq = a->output_stride_seq,
      .output_stride_head = a->output_stride_head,
      .sliding_window = a->sliding_window,
      .sinks = HOST_PTR(const float *, a->sinks),
      .query_start_loc = HOST_PTR(const int32_t *, a->query_start_loc),
      .dtype = a->dtype,
  };
  uq_decode_partials_t partials = {
      .segm_out = HOST_PTR(uint16_t *, a->segm_out),
      .segm_max = HOST_PTR(float *, a->segm_max),
      .segm_sum = HOST_PTR(float *, a->segm_sum),
  };
  return uq_status_annotate(uq_reference_varlen_faithful(
                                &problem, &a->walk, a->block_tokens, &partials),
                            "host reference decode");
}
