// The partials' workspace: the policy of every batch the plan allows (the
// resident policy's, kept for runs to read) and rows for the largest batch
// x P, the verify steps' and max_num_tokens, allocated on the context.
#include "runtime/plan/plan_internal.h"

uq_status_t uq_rt_plan_size_workspace(uq_plan_t *plan) {
  uq_context_t *context = plan->context;
  const uq_decode_config_t *c = &plan->config;
  // A run computes P for its own batch and the workspace holds the largest
  // batch * P. The seed policy's cap depends on the batch (512 partitions up
  // to 8 sequences, 256 above) and nothing else does: P is the same for
  // every batch on one side of 8, so the largest batch of each side is all
  // that needs evaluating. The resident policy is evaluated for every batch.
  // A varlen run's tokens share the same rows (at least one partition a
  // token: max_num_tokens rows).
  uint64_t rows = 0;
  const uint32_t candidates[2] = {c->max_batch < 8 ? c->max_batch : 8,
                                  c->max_batch};
  uint32_t count = plan->compute_units ? c->max_batch : 2;
  uq_launch_walk_t *policies = NULL;
  if (plan->compute_units) {
    policies = uq_rt_alloc(&context->allocator,
                           (size_t)c->max_batch * sizeof(*policies));
    if (!policies)
      return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                            "policy table of %u batches", c->max_batch);
  }
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t batch = plan->compute_units ? i + 1 : candidates[i];
    uq_launch_walk_t policy;
    uq_status_t status = uq_rt_plan_policy_for(plan, batch, &policy);
    if (status != UQ_OK) {
      uq_rt_free(&context->allocator, policies);
      return uq_status_annotate(status, "launch policy");
    }
    if (policies)
      policies[i] = policy;
    uint64_t batch_rows = (uint64_t)batch * policy.num_partitions;
    if (batch_rows > rows)
      rows = batch_rows;
    if ((uint32_t)policy.num_partitions > plan->max_partitions)
      plan->max_partitions = (uint32_t)policy.num_partitions;
  }
  plan->policies = policies;
  // Varlen runs: a verify step of up to 4 tokens a sequence splits like the
  // decode of its batch (4 x the decode's rows); longer queries take fewer
  // partitions (their tokens fill the device), one at least (max_num_tokens
  // rows).
  if (c->max_query_len > 1)
    rows *= c->max_query_len < 4 ? c->max_query_len : 4;
  // A step of decodes may be padded to more rows than sequences (a CUDA
  // graph's fixed token count): max_num_tokens bounds the rows whatever
  // max_query_len is.
  if (c->max_num_tokens > rows)
    rows = c->max_num_tokens;
  plan->workspace_tokens = rows;
  plan->workspace_rows = rows * c->num_kv_heads;
  uint64_t entries = plan->workspace_rows * c->query_group;
  uint64_t out_bytes = entries * c->head_dim * 2, stat_bytes = entries * 4;
  plan->workspace_bytes = out_bytes + 2 * stat_bytes;
  if (plan->workspace_bytes > ((uint64_t)1 << 40))
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "workspace of %llu bytes is too large",
                          (unsigned long long)plan->workspace_bytes);
  UQ_RETURN_IF_ERROR(
      uq_context_alloc(context, (size_t)out_bytes, &plan->segm_out),
      "workspace segm_out");
  UQ_RETURN_IF_ERROR(
      uq_context_alloc(context, (size_t)stat_bytes, &plan->segm_max),
      "workspace segm_max");
  UQ_RETURN_IF_ERROR(
      uq_context_alloc(context, (size_t)stat_bytes, &plan->segm_sum),
      "workspace segm_sum");

  return UQ_OK;
}
