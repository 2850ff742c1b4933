// Kernel-argument layouts: the code object's AMDHSA metadata checked against
// kernel_abi.h, so the runtime never trusts a second hand-written copy of
// the offsets (docs/design.md, "Kernel arguments from code-object
// metadata").
#include "runtime/api/internal.h"

#include <string.h>

#define GB UQ_KERNARG_GLOBAL_BUFFER
#define BV UQ_KERNARG_BY_VALUE

const uq_rt_arg_spec_t uq_rt_decode_arg_specs[UQ_DECODE_ARG_COUNT] = {
    [UQ_DECODE_ARG_SEGM_OUT] = {"segm_out", GB, 8},
    [UQ_DECODE_ARG_SEGM_MAX] = {"segm_max", GB, 8},
    [UQ_DECODE_ARG_SEGM_SUM] = {"segm_sum", GB, 8},
    [UQ_DECODE_ARG_QUERY] = {"query", GB, 8},
    [UQ_DECODE_ARG_KV_CACHE] = {"kv_cache", GB, 8},
    [UQ_DECODE_ARG_BLOCK_TABLES] = {"block_tables", GB, 8},
    [UQ_DECODE_ARG_SEQ_LENS] = {"seq_lens", GB, 8},
    [UQ_DECODE_ARG_NUM_KV_HEADS] = {"num_kv_heads", BV, 4},
    [UQ_DECODE_ARG_NUM_PARTITIONS] = {"num_partitions", BV, 4},
    [UQ_DECODE_ARG_TGPP] = {"tgpp", BV, 4},
    [UQ_DECODE_ARG_BLOCK_SIZE] = {"block_size", BV, 4},
    [UQ_DECODE_ARG_PADDED_SLOT] = {"padded_slot", BV, 4},
    [UQ_DECODE_ARG_Q_STRIDE_SEQ] = {"q_stride_seq", BV, 4},
    [UQ_DECODE_ARG_Q_STRIDE_HEAD] = {"q_stride_head", BV, 4},
    [UQ_DECODE_ARG_MAX_BLOCKS_PER_SEQ] = {"max_blocks_per_seq", BV, 4},
    [UQ_DECODE_ARG_SOFTMAX_SCALE] = {"softmax_scale", BV, 4},
    [UQ_DECODE_ARG_SLIDING_WINDOW] = {"sliding_window", BV, 4},
    [UQ_DECODE_ARG_QUERY_GROUP] = {"query_group", BV, 4},
    [UQ_DECODE_ARG_QUERY_START_LOC] = {"query_start_loc", GB, 8},
    [UQ_DECODE_ARG_SEARCH_SEQS] = {"search_seqs", BV, 4},
    [UQ_DECODE_ARG_OUTPUT] = {"output", GB, 8},
    [UQ_DECODE_ARG_OUT_STRIDE_SEQ] = {"out_stride_seq", BV, 4},
    [UQ_DECODE_ARG_OUT_STRIDE_HEAD] = {"out_stride_head", BV, 4},
    [UQ_DECODE_ARG_SINKS] = {"sinks", GB, 8},
    [UQ_DECODE_ARG_ACT_F16] = {"act_f16", BV, 4},
};

const uq_rt_arg_spec_t uq_rt_reduce_arg_specs[UQ_REDUCE_ARG_COUNT] = {
    [UQ_REDUCE_ARG_OUTPUT] = {"output", GB, 8},
    [UQ_REDUCE_ARG_SEGM_OUT] = {"segm_out", GB, 8},
    [UQ_REDUCE_ARG_SEGM_MAX] = {"segm_max", GB, 8},
    [UQ_REDUCE_ARG_SEGM_SUM] = {"segm_sum", GB, 8},
    [UQ_REDUCE_ARG_NUM_KV_HEADS] = {"num_kv_heads", BV, 4},
    [UQ_REDUCE_ARG_QUERY_GROUP] = {"query_group", BV, 4},
    [UQ_REDUCE_ARG_NUM_PARTITIONS] = {"num_partitions", BV, 4},
    [UQ_REDUCE_ARG_OUT_STRIDE_SEQ] = {"out_stride_seq", BV, 4},
    [UQ_REDUCE_ARG_OUT_STRIDE_HEAD] = {"out_stride_head", BV, 4},
    [UQ_REDUCE_ARG_SINKS] = {"sinks", GB, 8},
    [UQ_REDUCE_ARG_QUERY_START_LOC] = {"query_start_loc", GB, 8},
    [UQ_REDUCE_ARG_NUM_SEQS] = {"num_seqs", BV, 4},
    [UQ_REDUCE_ARG_ACT_F16] = {"act_f16", BV, 4},
};

const uq_rt_arg_spec_t uq_rt_store_arg_specs[UQ_STORE_ARG_COUNT] = {
    [UQ_STORE_ARG_KV_CACHE] = {"kv_cache", GB, 8},
    [UQ_STORE_ARG_KEY] = {"key", GB, 8},
    [UQ_STORE_ARG_VALUE] = {"value", GB, 8},
    [UQ_STORE_ARG_SLOT_MAPPING] = {"slot_mapping", GB, 8},
    [UQ_STORE_ARG_NUM_KV_HEADS] = {"num_kv_heads", BV, 4},
    [UQ_STORE_ARG_PADDED_SLOT] = {"padded_slot", BV, 4},
    [UQ_STORE_ARG_NUM_SLOTS] = {"num_slots", BV, 8},
    [UQ_STORE_ARG_KEY_STRIDE_TOKEN] = {"key_stride_token", BV, 8},
    [UQ_STORE_ARG_KEY_STRIDE_HEAD] = {"key_stride_head", BV, 8},
    [UQ_STORE_ARG_VALUE_STRIDE_TOKEN] = {"value_stride_token", BV, 8},
    [UQ_STORE_ARG_VALUE_STRIDE_HEAD] = {"value_stride_head", BV, 8},
    [UQ_STORE_ARG_ACT_F16] = {"act_f16", BV, 4},
};

const uq_rt_arg_spec_t uq_rt_view_arg_specs[UQ_VIEW_ARG_COUNT] = {
    [UQ_VIEW_ARG_DENSE] = {"dense", GB, 8},
    [UQ_VIEW_ARG_VIEW] = {"view", GB, 8},
    [UQ_VIEW_ARG_ROW_LIMIT] = {"row_limit", GB, 8},
    [UQ_VIEW_ARG_NUM_HEADS] = {"num_heads", BV, 4},
    [UQ_VIEW_ARG_STRIDE_ROW] = {"stride_row", BV, 8},
    [UQ_VIEW_ARG_STRIDE_HEAD] = {"stride_head", BV, 8},
    [UQ_VIEW_ARG_STRIDE_ELEM] = {"stride_elem", BV, 8},
    [UQ_VIEW_ARG_SCATTER] = {"scatter", BV, 4},
};

#undef GB
#undef BV

static const char *kind_name(uq_kernarg_kind_t kind) {
  switch (kind) {
  case UQ_KERNARG_BY_VALUE:
    return "by_value";
  case UQ_KERNARG_GLOBAL_BUFFER:
    return "global_buffer";
  case UQ_KERNARG_HIDDEN:
    return "hidden";
  case UQ_KERNARG_PARAM:
    return "param";
  default:
    return "other";
  }
}

// The hidden arguments the runtime fills (LLVM AMDGPUUsage, code object v5
// "Kernel Argument Metadata" hidden kinds), with their sizes. Every other
// hidden argument (global offsets, heap, hostcall, queue pointers...) stays
// zero: the kernels use none of them.
typedef struct hidden_spec_s {
  const char *value_kind;
  uint32_t size;
  size_t field; // offsetof in uq_rt_arg_layout_t
} hidden_spec_t;

#define H(kind, size, field)                                                   \
  { kind, size, offsetof(uq_rt_arg_layout_t, field) }
static const hidden_spec_t hidden_specs[] = {
    H("hidden_block_count_x", 4, block_count[0]),
    H("hidden_block_count_y", 4, block_count[1]),
    H("hidden_block_count_z", 4, block_count[2]),
    H("hidden_group_size_x", 2, group_size[0]),
    H("hidden_group_size_y", 2, group_size[1]),
    H("hidden_group_size_z", 2, group_size[2]),
    H("hidden_remainder_x", 2, remainder[0]),
    H("hidden_remainder_y", 2, remainder[1]),
    H("hidden_remainder_z", 2, remainder[2]),
    H("hidden_grid_dims", 2, grid_dims),
};
#undef H

uq_status_t uq_rt_arg_layout_build(const uq_kernel_info_t *kernel,
                                   const uq_rt_arg_spec_t *specs,
                                   uint32_t count,
                                   uq_rt_arg_layout_t *out_layout) {
  memset(out_layout, 0, sizeof(*out_layout));
  for (size_t i = 0; i < sizeof(hidden_specs) / sizeof(hidden_specs[0]); ++i)
    *(int32_t *)((char *)out_layout + hidden_specs[i].field) = -1;
  out_layout->count = count;
  out_layout->kernarg_size = kernel->kernarg_segment_size;

  uint32_t explicit_count = 0;
  for (uint32_t i = 0; i < kernel->arg_count; ++i) {
    const uq_kernarg_t *arg = &kernel->args[i];
    if ((uint64_t)arg->offset + arg->size > kernel->kernarg_segment_size)
      return UQ_MAKE_STATUS(
          UQ_STATUS_FAILED_PRECONDITION,
          "kernel %s: argument %u (%s) at offset %u size %u lies outside "
          "the %u-byte kernarg segment",
          kernel->name, i, arg->value_kind, arg->offset, arg->size,
          kernel->kernarg_segment_size);
    if (arg->kind == UQ_KERNARG_HIDDEN) {
      for (size_t h = 0; h < sizeof(hidden_specs) / sizeof(hidden_specs[0]);
           ++h) {
        if (strcmp(arg->value_kind, hidden_specs[h].value_kind) != 0)
          continue;
        if (arg->size != hidden_specs[h].size)
          return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                                "kernel %s: %s has size %u, expected %u",
                                kernel->name, arg->value_kind, arg->size,
                                hidden_specs[h].size);
        *(int32_t *)((char *)out_layout + hidden_specs[h].field) =
            (int32_t)arg->offset;
      }
      continue;
    }
    if (explicit_count >= count)
      return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                            "kernel %s has more than the %u explicit "
                            "arguments of kernel_abi.h",
                            kernel->name, count);
    const uq_rt_arg_spec_t *spec = &specs[explicit_count];
    // A cubin records offsets and sizes, not kinds (UQ_KERNARG_PARAM).
    if ((arg->kind != spec->kind && arg->kind != UQ_KERNARG_PARAM) ||
        arg->size != spec->size)
      return UQ_MAKE_STATUS(
          UQ_STATUS_FAILED_PRECONDITION,
          "kernel %s: argument %u (%s) is %s of %u bytes in the metadata, "
          "kernel_abi.h expects %s of %u bytes",
          kernel->name, explicit_count, spec->name, kind_name(arg->kind),
          arg->size, kind_name(spec->kind), spec->size);
    out_layout->offset[explicit_count++] = arg->offset;
  }
  if (explicit_count != count)
    return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                          "kernel %s has %u explicit arguments, kernel_abi.h "
                          "expects %u",
                          kernel->name, explicit_count, count);
  return UQ_OK;
}

// Checks a found kernel's arguments and workgroup shape, loads it and
// pre-packs the constant part of its kernarg segment.
uq_status_t uq_rt_kernel_prepare(uq_context_t *context, uq_rt_object_t *object,
                                 const uq_rt_arg_spec_t *specs, uint32_t count,
                                 uq_rt_arg_layout_t *out_layout,
                                 uint8_t **out_args) {
  UQ_RETURN_IF_ERROR(
      uq_rt_arg_layout_build(object->kernel, specs, count, out_layout),
      "variant %s", object->source.variant);
  // A gfx950 kernel runs 64-lane waves: one per workgroup, or the 1-16
  // its code object requires (a multi-wave block states its
  // .reqd_workgroup_size); the sm_90a ones take kernel_abi.h's block sizes
  // (and have no hidden arguments).
  const uq_kernel_info_t *kernel = object->kernel;
  const uint32_t *reqd = kernel->reqd_workgroup_size;
  uint32_t threads = reqd[0] ? reqd[0] : 64;
  if (strcmp(uq_rt_record_target(&object->source), "sm_90a") == 0) {
    if (kernel->wavefront_size != 32)
      return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                            "variant %s is recorded as sm_90a but kernel %s "
                            "is not a cubin's",
                            object->source.variant, kernel->name);
  } else if ((kernel->wavefront_size && kernel->wavefront_size != 64) ||
             (kernel->max_flat_workgroup_size &&
              kernel->max_flat_workgroup_size < 64) ||
             (reqd[0] && (reqd[0] % 64 != 0 || reqd[0] > 16 * 64 ||
                          reqd[1] > 1 || reqd[2] > 1)) ||
             (kernel->max_flat_workgroup_size &&
              kernel->max_flat_workgroup_size < threads))
    return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                          "kernel %s cannot run 1-16 64-lane waves per "
                          "workgroup (wavefront %u, max workgroup %u, "
                          "required %ux%ux%u)",
                          kernel->name, kernel->wavefront_size,
                          kernel->max_flat_workgroup_size, reqd[0], reqd[1],
                          reqd[2]);
  uq_status_t status = uq_rt_context_load_object(context, object);
  if (status != UQ_OK)
    return status;
  *out_args = uq_rt_calloc(&context->allocator, out_layout->kernarg_size);
  if (!*out_args)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "out of memory for kernel arguments");
  uint8_t *args = *out_args;
  const uq_rt_arg_layout_t *l = out_layout;
  uq_rt_arg_put(args, l->group_size[0], 2, threads);
  uq_rt_arg_put(args, l->group_size[1], 2, 1);
  uq_rt_arg_put(args, l->group_size[2], 2, 1);
  uq_rt_arg_put(args, l->grid_dims, 2, 3);
  return UQ_OK;
}
