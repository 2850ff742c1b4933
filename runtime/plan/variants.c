// Which decode records serve a plan (the block a decode runs, and the larger
// blocks varlen runs take), and each one's figures for the resident policy
// of a device that reports occupancy (sm_90a).
#include "runtime/plan/plan_internal.h"

// A decode merges the partitions itself, with no reduce launch, for P = 1
// (every target) and, on sm_90a as clusters of P CTAs, up to its
// cluster_merge_max (0: no kernel).
uint32_t uq_rt_plan_merge_max(const decode_kernel_t *kernel) {
  return kernel ? kernel->resident.cluster_merge_max : 0;
}

// The threads of a decode's workgroup: the block size its code object
// requires where it states one (an sm_90a cubin's reqntid), else its
// target's (runtime/kernel_abi.h: four warps for the sm_90a decode, whose
// cubins state only a maximum).
uint32_t uq_rt_plan_decode_threads(const decode_kernel_t *kernel) {
  const uq_kernel_info_t *info = kernel->object->kernel;
  if (info && info->reqd_workgroup_size[0])
    return info->reqd_workgroup_size[0];
  return kernel->traits->decode_threads;
}

// A decode record of the plan, before its figures are known: it merges
// P = 1 itself on every target.
static decode_kernel_t plan_kernel(uq_rt_object_t *object) {
  decode_kernel_t kernel = {.object = object,
                            .rows = uq_rt_record_rows(&object->source),
                            .min_rows = object->source.min_rows,
                            .traits = uq_rt_launch_traits(&object->source)};
  kernel.resident.cluster_merge_max = 1;
  return kernel;
}

// The largest P (1..UQ_SM90_CLUSTER_MAX_PARTITIONS) such that clusters of
// every size up to P lose no slot of the resident policy. Measured on the
// H200: clusters of 2 keep all 264 slots of D 256 and save the reduce
// launch; clusters of 8 do not, and ran 55% slower than decode + reduce.
static uq_status_t find_cluster_merge_max(const uq_plan_t *plan,
                                          decode_kernel_t *kernel) {
  uq_rt_device_t *device = plan->context->device;
  const uq_rt_object_t *decode = kernel->object;
  resident_kernel_t *r = &kernel->resident;
  r->cluster_merge_max = 1;
  if (!device->vtable->cluster_occupancy || !decode->kernel->cluster_merge)
    return UQ_OK;
  uint32_t slots = plan->compute_units * r->workgroups_per_cu;
  for (uint32_t p = 2; p <= UQ_SM90_CLUSTER_MAX_PARTITIONS; ++p) {
    uint32_t clusters = 0;
    UQ_RETURN_IF_ERROR(
        device->vtable->cluster_occupancy(device, decode->function,
                                          uq_rt_plan_decode_threads(kernel),
                                          r->dynamic_lds, p, &clusters),
        "variant %s", decode->source.variant);
    if ((uint64_t)clusters * p < slots)
      break;
    r->cluster_merge_max = p;
  }
  return UQ_OK;
}

// A decode kernel's figures for the resident policy: its own statements
// (shared memory, walk groups, from its cubin), the device's occupancy for
// it and its cluster merge. The SMs are the device's (plan->compute_units).
uq_status_t uq_rt_plan_prepare_resident(uq_plan_t *plan,
                                        decode_kernel_t *kernel) {
  uq_context_t *context = plan->context;
  uq_rt_object_t *decode = kernel->object;
  resident_kernel_t *r = &kernel->resident;
  TRY(uq_rt_launch_traits_of(decode, &kernel->traits));
  TRY(uq_rt_context_load_object(context, decode));
  // The decode's own statement of its shared memory (kernels/sm90a.mlir's
  // layout, read from the cubin's uq_dynamic_shared_bytes).
  r->dynamic_lds = decode->kernel->dynamic_shared_bytes;
  if (r->dynamic_lds == 0)
    return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                          "variant %s states no dynamic shared memory (its "
                          "cubin has no uq_dynamic_shared_bytes)",
                          decode->source.variant);
  r->walk_group_tiles = decode->kernel->walk_group_tiles;
  if (!uq_launch_group_tiles_valid(r->walk_group_tiles))
    return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                          "variant %s states a walk of %u tiles a group "
                          "(its cubin's uq_walk_group_tiles), not 1, 2, 4, "
                          "8 or 16",
                          decode->source.variant, r->walk_group_tiles);
  UQ_RETURN_IF_ERROR(context->device->vtable->occupancy(
                         context->device, decode->function,
                         uq_rt_plan_decode_threads(kernel), r->dynamic_lds,
                         &plan->compute_units, &r->workgroups_per_cu),
                     "variant %s", decode->source.variant);
  return find_cluster_merge_max(plan, kernel);
}

// The plan's decode records: the one a decode runs first, then, for
// varlen runs, every larger block of the table (same target, D, a qg_max
// >= QG) up to the one that holds max_query_len x QG rows.
uq_status_t uq_rt_plan_find_kernels(uq_plan_t *plan) {
  uq_context_t *context = plan->context;
  const uq_decode_config_t *c = &plan->config;
  uq_rt_object_t *decode = NULL, *largest = NULL;
  uq_status_t found =
      uq_rt_context_find_variant(context, UQ_VARIANT_KIND_DECODE, c->head_dim,
                                 c->query_group, c->query_group, &decode);
  // A device that launches no kernels (the host reference) runs without a
  // record, even from a table that lacks the shape; with one it follows the
  // record's blocks.
  if (found != UQ_OK && uq_rt_runs_kernels(context->device))
    return found;
  uq_status_free(found);
  if (!decode)
    return UQ_OK;
  plan->kernels[0] = plan_kernel(decode);
  plan->kernel_count = 1;
  uint64_t want = (uint64_t)c->max_query_len * c->query_group;
  TRY(uq_rt_context_find_variant(
      context, UQ_VARIANT_KIND_DECODE, c->head_dim, c->query_group,
      (uint32_t)(want < UINT32_MAX ? want : UINT32_MAX), &largest));
  uint32_t top = uq_rt_record_rows(&largest->source);
  // Ascending rows: each step takes the smallest block above the last (the
  // table's own choice for one row more), up to the largest needed.
  while (plan->kernel_count < MAX_DECODE_KERNELS) {
    uint32_t below = plan->kernels[plan->kernel_count - 1].rows;
    if (below >= top)
      break;
    uq_rt_object_t *next = NULL;
    TRY(uq_rt_context_find_variant(context, UQ_VARIANT_KIND_DECODE, c->head_dim,
                                   c->query_group, below + 1, &next));
    uint32_t rows = uq_rt_record_rows(&next->source);
    if (rows <= below)
      break;
    plan->kernels[plan->kernel_count++] = plan_kernel(next);
  }
  return UQ_OK;
}

// The plan's kernel for a varlen run whose longest query has `tokens`
// tokens: among the kernels whose record serves that many rows (min_rows;
// [0], the decode's, serves any), the smallest block that holds them, else
// the largest (NULL without records: the host backend's faithful reference
// then takes blocks of one token).
const decode_kernel_t *uq_rt_plan_kernel_for(const uq_plan_t *plan,
                                             uint32_t tokens) {
  if (plan->kernel_count == 0)
    return NULL;
  uint64_t want = (uint64_t)tokens * plan->config.query_group;
  const decode_kernel_t *best = &plan->kernels[0];
  for (uint32_t k = 0; k < plan->kernel_count; ++k) {
    if (plan->kernels[k].min_rows > want)
      continue;
    best = &plan->kernels[k];
    if (best->rows >= want)
      break;
  }
  return best;
}

// The query tokens of a block of `kernel` (1 without one): floor(rows /
// QG), the %bt both targets' decodes give @query_block (kernels/steps.mlir).
uint32_t uq_rt_plan_block_tokens(const uq_plan_t *plan,
                                 const decode_kernel_t *kernel) {
  if (!kernel)
    return 1;
  return kernel->rows / plan->config.query_group;
}
