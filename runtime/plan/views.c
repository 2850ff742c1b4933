// Query and output views with a non-unit element stride: checked at plan
// time, gathered into dense rows of the plan's workspace before a run's
// attention and scattered back after it, by the view kernel
// (kernels/view.mlir) on kernel backends and by a loop on the host backend.
// A contiguous view takes none of this: the attention kernels read and
// write it in place.
#include <string.h>

#include "runtime/plan/plan_internal.h"

typedef struct view_dim_s {
  int64_t count, stride;
} view_dim_t;

// No two elements of a [rows, heads, D] view at these strides share an
// address: ordered by stride, each dimension steps past the whole extent
// of the ones inside it (the rule for every layout a tensor library makes
// by slicing and permuting a dense tensor). The caller checked the span.
static bool view_disjoint(uint64_t rows, uint32_t heads, uint32_t D,
                          const uq_rt_view_t *view) {
  view_dim_t dims[3] = {{(int64_t)rows, view->stride_row},
                        {heads, view->stride_head},
                        {D, view->stride_elem}};
  for (int i = 1; i < 3; ++i) // insertion sort by stride
    for (int j = i; j > 0 && dims[j].stride < dims[j - 1].stride; --j) {
      view_dim_t t = dims[j];
      dims[j] = dims[j - 1];
      dims[j - 1] = t;
    }
  int64_t extent = 1; // elements the inner dimensions span
  for (int i = 0; i < 3; ++i) {
    if (dims[i].count <= 1)
      continue;
    if (dims[i].stride < extent)
      return false;
    extent = (dims[i].count - 1) * dims[i].stride + extent;
  }
  return true;
}

// The elements from a view's first to one past its last, or -1 past
// INT64_MAX.
static int64_t view_span(uint64_t rows, uint32_t heads, uint32_t D,
                         const uq_rt_view_t *view) {
  int64_t a, b, c, total;
  if (__builtin_mul_overflow((int64_t)rows - 1, view->stride_row, &a) ||
      __builtin_mul_overflow((int64_t)heads - 1, view->stride_head, &b) ||
      __builtin_mul_overflow((int64_t)D - 1, view->stride_elem, &c) ||
      __builtin_add_overflow(a, b, &total) ||
      __builtin_add_overflow(total, c, &total) ||
      __builtin_add_overflow(total, 1, &total) ||
      total > INT64_MAX / (int64_t)sizeof(uint16_t))
    return -1;
  return total;
}

uq_status_t uq_rt_view_resolve(const char *what, int64_t stride_row,
                               int64_t stride_head, int64_t stride_elem,
                               uint32_t heads, uint32_t max_rows, uint32_t D,
                               uq_rt_view_t *view) {
  memset(view, 0, sizeof(*view));
  if (stride_elem < 0)
    return INVALID("%s_stride_elem %lld must be >= 0 (0: contiguous)", what,
                   (long long)stride_elem);
  if (stride_elem <= 1)
    return UQ_OK; // contiguous: the attention kernels read it in place
  if (stride_row < 0 || stride_head < 0)
    return INVALID("%s strides (%lld, %lld) must be non-negative", what,
                   (long long)stride_row, (long long)stride_head);
  view->gathered = true;
  view->stride_elem = stride_elem;
  view->stride_head = stride_head;
  view->stride_row = stride_row;
  // The defaults are products: -1 (refused below) where one overflows.
  if (!stride_head &&
      __builtin_mul_overflow((int64_t)D, stride_elem, &view->stride_head))
    view->stride_head = -1;
  if (!stride_row && view->stride_head >= 0 &&
      __builtin_mul_overflow((int64_t)heads, view->stride_head,
                             &view->stride_row))
    view->stride_row = -1;
  if (view->stride_head < 0 || view->stride_row < 0 ||
      view_span(max_rows, heads, D, view) < 0)
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "%s strides (%lld, %lld, %lld) span more than "
                          "memory can hold for %u rows",
                          what, (long long)stride_row,
                          (long long)view->stride_head, (long long)stride_elem,
                          max_rows);
  if (!view_disjoint(max_rows, heads, D, view))
    return INVALID("%s strides (%lld, %lld, %lld) make elements of "
                   "different (row, head, d) overlap",
                   what, (long long)view->stride_row,
                   (long long)view->stride_head, (long long)stride_elem);
  return UQ_OK;
}

uint64_t uq_rt_view_bytes(const uq_rt_view_t *view, uint32_t rows,
                          uint32_t heads, uint32_t D) {
  return (uint64_t)view_span(rows, heads, D, view) * sizeof(uint16_t);
}

uq_status_t uq_rt_views_prepare(uq_plan_t *plan) {
  uq_rt_views_t *v = &plan->views;
  if (!v->query.gathered && !v->output.gathered)
    return UQ_OK;
  uq_context_t *context = plan->context;
  const uq_decode_config_t *c = &plan->config;
  uint64_t rows =
      c->max_batch > c->max_num_tokens ? c->max_batch : c->max_num_tokens;
  uint64_t bytes =
      rows * plan->num_query_heads * c->head_dim * sizeof(uint16_t);
  if (bytes > ((uint64_t)1 << 40))
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "the dense rows of a strided view need %llu bytes "
                          "(max_num_tokens x heads x D x 2): lower "
                          "max_num_tokens",
                          (unsigned long long)bytes);
  uq_rt_view_t *views[2] = {&v->query, &v->output};
  for (int i = 0; i < 2; ++i)
    if (views[i]->gathered) {
      TRY(uq_context_alloc(context, bytes, &views[i]->dense));
      plan->workspace_bytes += bytes;
    }
  if (!uq_rt_runs_kernels(context->device))
    return UQ_OK; // the host backend copies with a loop
  uq_rt_object_t *found = NULL;
  UQ_RETURN_IF_ERROR(uq_rt_context_find_variant(context, UQ_VARIANT_KIND_VIEW,
                                                c->head_dim, 0, 0, &found),
                     "a query or output view with an element stride");
  TRY(uq_rt_kernel_prepare(context, found, uq_rt_view_arg_specs,
                           UQ_VIEW_ARG_COUNT, &v->layout, &v->args));
  const uq_rt_launch_traits_t *traits = NULL;
  TRY(uq_rt_launch_traits_of(found, &traits));
  v->object = found;
  v->threads = traits->view_threads;
  uq_rt_arg_put(v->args, v->layout.offset[UQ_VIEW_ARG_NUM_HEADS], 4,
                plan->num_query_heads);
  uq_rt_arg_put(v->args, v->layout.block_count[1], 4, plan->num_query_heads);
  uq_rt_arg_put(v->args, v->layout.block_count[2], 4, 1);
  return UQ_OK;
}

void uq_rt_views_release(uq_plan_t *plan) {
  uq_rt_views_t *v = &plan->views;
  uq_status_free(uq_context_free(plan->context, v->query.dense));
  uq_status_free(uq_context_free(plan->context, v->output.dense));
  uq_rt_free(&plan->context->allocator, v->args);
  memset(v, 0, sizeof(*v));
}

// The host backend: device addresses are host pointers, the tables were
// checked and read back.
static void copy_on_host(const uq_plan_t *plan, const uq_rt_view_t *view,
                         uq_device_ptr_t caller, uint32_t rows, bool scatter) {
  uint16_t *dense = (uint16_t *)(uintptr_t)view->dense;
  uint16_t *strided = (uint16_t *)(uintptr_t)caller;
  const uint32_t heads = plan->num_query_heads, D = plan->config.head_dim;
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t h = 0; h < heads; ++h)
      for (uint64_t i = 0; i < D; ++i) {
        uint16_t *d = dense + (r * heads + h) * D + i;
        uint16_t *s = strided + r * (uint64_t)view->stride_row +
                      h * (uint64_t)view->stride_head +
                      i * (uint64_t)view->stride_elem;
        if (scatter)
          *s = *d;
        else
          *d = *s;
      }
}

static uq_status_t copy_rows(uq_plan_t *plan, const run_launch_t *run,
                             const uq_rt_view_t *view, uq_device_ptr_t caller,
                             bool scatter, uq_stream_t *stream) {
  uq_rt_views_t *v = &plan->views;
  // A varlen run leaves the rows past query_start_loc[num_seqs] alone.
  uq_device_ptr_t limit =
      run->query_start_loc
          ? run->query_start_loc + (uint64_t)run->num_seqs * sizeof(int32_t)
          : 0;
  if (!v->object) {
    uint32_t rows = run->rows;
    if (limit)
      rows = (uint32_t)plan->qsl_host[run->num_seqs]; // checked, read back
    copy_on_host(plan, view, caller, rows, scatter);
    return UQ_OK;
  }
  const uint32_t *o = v->layout.offset;
  uint8_t *a = v->args;
  uq_rt_arg_put(a, o[UQ_VIEW_ARG_DENSE], 8, view->dense);
  uq_rt_arg_put(a, o[UQ_VIEW_ARG_VIEW], 8, caller);
  uq_rt_arg_put(a, o[UQ_VIEW_ARG_ROW_LIMIT], 8, limit);
  uq_rt_arg_put(a, o[UQ_VIEW_ARG_STRIDE_ROW], 8, (uint64_t)view->stride_row);
  uq_rt_arg_put(a, o[UQ_VIEW_ARG_STRIDE_HEAD], 8, (uint64_t)view->stride_head);
  uq_rt_arg_put(a, o[UQ_VIEW_ARG_STRIDE_ELEM], 8, (uint64_t)view->stride_elem);
  uq_rt_arg_put(a, o[UQ_VIEW_ARG_SCATTER], 4, scatter);
  uq_rt_arg_put(a, v->layout.block_count[0], 4, run->rows);
  uq_rt_launch_t launch = {
      .function = v->object->function,
      .grid = {run->rows, plan->num_query_heads, 1},
      .workgroup = {v->threads, 1, 1},
      .kernargs = v->args,
      .kernarg_size = v->layout.kernarg_size,
      .loop_trips = plan->config.head_dim, // at most D elements a lane
  };
  uq_kernel_counters_t counters;
  int counted = 0;
  return uq_rt_context_launch(plan->context, &launch, stream, &counters,
                              &counted);
}

uq_status_t uq_rt_views_gather(uq_plan_t *plan, const run_launch_t *run,
                               uq_device_ptr_t *query, uq_device_ptr_t *output,
                               uq_stream_t *stream) {
  const uq_rt_views_t *v = &plan->views;
  if (v->output.gathered)
    *output = v->output.dense;
  if (!v->query.gathered)
    return UQ_OK;
  UQ_RETURN_IF_ERROR(copy_rows(plan, run, &v->query, *query, false, stream),
                     "gathering the query view");
  *query = v->query.dense;
  return UQ_OK;
}

uq_status_t uq_rt_views_scatter(uq_plan_t *plan, const run_launch_t *run,
                                uq_device_ptr_t output, uq_stream_t *stream) {
  const uq_rt_view_t *view = &plan->views.output;
  if (!view->gathered)
    return UQ_OK;
  UQ_RETURN_IF_ERROR(copy_rows(plan, run, view, output, true, stream),
                     "scattering the output view");
  return UQ_OK;
}
