// The sim and host checks of a run before anything is read or written:
// every buffer inside one allocation with room for what the run touches,
// the seq lens, block tables, query_start_loc and sinks read back and
// checked as the kernels will use them.
#include <math.h>

#include "runtime/plan/plan_internal.h"

// Sim and host: every buffer of the run lies in one allocation with room
// for all the run reads or writes there, checked before anything is read
// or written (the host reference would otherwise follow any pointer). A
// decode's query and output rows are its sequences, a varlen run's its
// query tokens (run->rows).
uq_status_t
uq_rt_plan_check_buffers(uq_plan_t *plan, const run_launch_t *run,
                         uq_device_ptr_t query, uq_device_ptr_t kv_cache,
                         uq_device_ptr_t block_tables, uq_device_ptr_t seq_lens,
                         uq_device_ptr_t sinks, uq_device_ptr_t output) {
  const uq_decode_config_t *c = &plan->config;
  uint32_t hq = plan->num_query_heads;
  const struct {
    const char *name;
    uq_device_ptr_t address;
    uint64_t bytes;
  } buffers[] = {
      {"query", query,
       uq_rt_view_bytes(&plan->views.query, run->rows, hq, c->head_dim)},
      {"kv_cache", kv_cache,
       (uint64_t)c->num_blocks * c->block_size * c->num_kv_heads *
           c->padded_slot},
      {"block_tables", block_tables,
       (uint64_t)run->num_seqs * c->max_blocks_per_seq * sizeof(int32_t)},
      {"seq_lens", seq_lens, (uint64_t)run->num_seqs * sizeof(int32_t)},
      {"query_start_loc", run->query_start_loc,
       run->query_start_loc ? ((uint64_t)run->num_seqs + 1) * sizeof(int32_t)
                            : 0},
      {"sinks", sinks, sinks ? (uint64_t)hq * sizeof(float) : 0},
      {"output", output,
       uq_rt_view_bytes(&plan->views.output, run->rows, hq, c->head_dim)},
  };
  uq_status_t status = UQ_OK;
  for (size_t i = 0; !status && i < sizeof(buffers) / sizeof(buffers[0]); ++i)
    if (buffers[i].bytes)
      status = uq_rt_context_check_buffer(plan->context, buffers[i].name,
                                          buffers[i].address, buffers[i].bytes);
  return status;
}

// Sim and host: read back the small int tables and check them the way the
// kernel will use them. A decode's kernel reads block-table entry 0 for
// tiles past seq_len, so entry 0 must be a valid block even for an empty
// sequence. Only the entries a sequence uses are read back, row by row: a
// table may span gigabytes (max_batch x 2^24 entries) of which a run
// touches little. A varlen run (query_start_loc given) also has its
// offsets checked: non-decreasing within [0, num_tokens], each q_len
// within its seq_len and max_query_len.
uq_status_t
uq_rt_plan_check_tables(uq_plan_t *plan, uint32_t batch,
                        uq_device_ptr_t block_tables, uq_device_ptr_t seq_lens,
                        uq_device_ptr_t sinks, uq_device_ptr_t query_start_loc,
                        uint32_t num_tokens, uint32_t max_query_len) {
  const uq_decode_config_t *c = &plan->config;
  uq_context_t *context = plan->context;
  if (sinks) {
    UQ_RETURN_IF_ERROR(
        uq_context_download(context, plan->sinks_host, sinks,
                            plan->num_query_heads * sizeof(float)),
        "reading sinks");
    for (uint32_t h = 0; h < plan->num_query_heads; ++h)
      if (isnan(plan->sinks_host[h]) || plan->sinks_host[h] == INFINITY)
        return INVALID("sinks[%u] = %g must be finite or -inf", h,
                       (double)plan->sinks_host[h]);
  }
  UQ_RETURN_IF_ERROR(uq_context_download(context, plan->seq_lens_host, seq_lens,
                                         batch * sizeof(int32_t)),
                     "reading seq_lens");
  const int32_t *qsl = NULL;
  if (query_start_loc) {
    UQ_RETURN_IF_ERROR(uq_context_download(context, plan->qsl_host,
                                           query_start_loc,
                                           (batch + 1) * sizeof(int32_t)),
                       "reading query_start_loc");
    qsl = plan->qsl_host;
    if (qsl[0] < 0)
      return INVALID("query_start_loc[0] = %d is negative", qsl[0]);
    if ((uint32_t)qsl[batch] > num_tokens)
      return INVALID("query_start_loc[%u] = %d is past the run's %u query "
                     "tokens",
                     batch, qsl[batch], num_tokens);
    for (uint32_t b = 0; b < batch; ++b)
      if (qsl[b + 1] < qsl[b])
        return INVALID("query_start_loc[%u] = %d is below "
                       "query_start_loc[%u] = %d (offsets must not decrease)",
                       b + 1, qsl[b + 1], b, qsl[b]);
  }
  int64_t max_len = (int64_t)c->max_blocks_per_seq * c->block_size;
  for (uint32_t b = 0; b < batch; ++b) {
    int32_t len = plan->seq_lens_host[b];
    if (len < 0 || len > max_len)
      return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                            "seq_lens[%u] = %d is outside 0..%lld (the "
                            "block-table row holds %u blocks of %u)",
                            b, len, (long long)max_len, c->max_blocks_per_seq,
                            c->block_size);
    int32_t q_len = qsl ? qsl[b + 1] - qsl[b] : 1;
    if (qsl && q_len > len)
      return INVALID("query_start_loc: sequence %u has %d query tokens, more "
                     "than its seq_lens[%u] = %d",
                     b, q_len, b, len);
    if (qsl && (uint32_t)q_len > max_query_len)
      return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                            "query_start_loc: sequence %u has %d query "
                            "tokens, more than the run's max_query_len %u",
                            b, q_len, max_query_len);
    if (q_len == 0)
      continue; // none of its blocks is read
    uint32_t used = (uint32_t)((len + c->block_size - 1) / c->block_size);
    if (used == 0)
      used = 1;
    // Blocks wholly before the first query token's sliding window are
    // never read.
    uint32_t first = 0;
    int64_t limit0 = (int64_t)len - q_len + 1;
    if (c->sliding_window > 0 && limit0 > c->sliding_window)
      first = (uint32_t)((limit0 - c->sliding_window) / c->block_size);
    uint64_t row_start = (uint64_t)b * c->max_blocks_per_seq + first;
    UQ_RETURN_IF_ERROR(
        uq_context_download(context, plan->tables_host,
                            block_tables + row_start * sizeof(int32_t),
                            (size_t)(used - first) * sizeof(int32_t)),
        "reading block_tables row %u", b);
    for (uint32_t i = first; i < used; ++i) {
      int32_t block = plan->tables_host[i - first];
      if (block < 0 || (uint32_t)block >= c->num_blocks)
        return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                              "block_tables[%u][%u] = %d is outside the "
                              "cache's %u blocks",
                              b, i, block, c->num_blocks);
    }
  }
  return UQ_OK;
}
