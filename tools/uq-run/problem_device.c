// The device half of problem.h: uploading a problem through a uq_context
// (kept apart so that tools without libuqrt can build problems).
#include "tools/uq-run/problem.h"

#include <string.h>

uq_status_t uq_problem_upload(const uq_problem_t *p, uq_context_t *context,
                              uq_problem_device_t *out) {
  memset(out, 0, sizeof(*out));
  size_t table_bytes =
      (size_t)p->shape.batch * p->config.max_blocks_per_seq * sizeof(int32_t);
  struct {
    uq_device_ptr_t *ptr;
    const void *data;
    size_t size;
  } items[] = {
      {&out->query, p->query, p->query_elems * sizeof(uint16_t)},
      {&out->cache, p->cache, p->cache_bytes},
      {&out->block_tables, p->block_tables, table_bytes},
      {&out->seq_lens, p->seq_lens, p->shape.batch * sizeof(int32_t)},
      {&out->output, NULL, p->output_elems * sizeof(uint16_t)},
      {&out->sinks, p->sinks,
       p->sinks ? p->config.num_kv_heads * p->config.query_group * sizeof(float)
                : 0},
      {&out->query_start_loc, p->query_start_loc,
       p->query_start_loc ? ((size_t)p->shape.batch + 1) * sizeof(int32_t) : 0},
  };
  for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); ++i) {
    if (!items[i].size)
      continue; // no sinks
    uq_status_t status = uq_context_alloc(context, items[i].size, items[i].ptr);
    if (!status && items[i].data)
      status = uq_context_upload(context, *items[i].ptr, items[i].data,
                                 items[i].size);
    if (status) {
      uq_problem_device_free(context, out);
      return status;
    }
  }
  return UQ_OK;
}

void uq_problem_device_free(uq_context_t *context, uq_problem_device_t *d) {
  uq_device_ptr_t *all[] = {&d->query,          &d->cache,  &d->block_tables,
                            &d->seq_lens,       &d->output, &d->sinks,
                            &d->query_start_loc};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) {
    uq_status_free(uq_context_free(context, *all[i]));
    *all[i] = 0;
  }
}
