// A run's partitions and walk: the seed's policy (gfx950, sim, host) or the
// resident policy (a device that reports occupancy: sm_90a), for a decode
// of B sequences and for a varlen run's blocks, fitted to the workspace.
#include "runtime/plan/plan_internal.h"

// The resident policy (sm_90a) for `blocks` blocks of `kernel`.
static uq_status_t resident_policy(const uq_plan_t *plan,
                                   const decode_kernel_t *kernel,
                                   uint32_t blocks,
                                   uq_launch_walk_t *out_policy) {
  const uq_decode_config_t *c = &plan->config;
  return uq_launch_policy_resident(
      (int32_t)blocks, (int32_t)c->num_kv_heads, (int32_t)c->max_blocks_per_seq,
      (int32_t)c->block_size, (int32_t)c->head_dim, (int32_t)c->sliding_window,
      (int32_t)plan->compute_units, (int32_t)kernel->resident.workgroups_per_cu,
      (int32_t)kernel->resident.walk_group_tiles, out_policy);
}

uq_status_t uq_rt_plan_policy_for(const uq_plan_t *plan, uint32_t batch,
                                  uq_launch_walk_t *out_policy) {
  const uq_decode_config_t *c = &plan->config;
  if (plan->policies) {
    *out_policy = plan->policies[batch - 1];
    return UQ_OK;
  }
  if (plan->compute_units)
    return resident_policy(plan, &plan->kernels[0], batch, out_policy);
  // The seed's policy: a walk of 256-token tile-groups.
  uq_launch_plan_t seed;
  UQ_RETURN_IF_ERROR(
      uq_launch_policy_window((int32_t)batch, (int32_t)c->max_blocks_per_seq,
                              (int32_t)c->block_size, (int32_t)c->head_dim,
                              (int32_t)c->max_kv_splits,
                              (int32_t)c->sliding_window, &seed),
      "seed policy");
  *out_policy = (uq_launch_walk_t){seed.num_partitions, seed.tgpp,
                                   UQ_TILE_GROUP_TOKENS / UQ_TILE_TOKENS};
  return UQ_OK;
}

// The positions a block of `tokens` query tokens walks: its table row, or
// with a window W + tokens + 14 (the first token's window from the start of
// its tile to the last token).
static int64_t walk_span(const uq_decode_config_t *c, uint32_t tokens) {
  int64_t span = (int64_t)c->max_blocks_per_seq * c->block_size;
  if (c->sliding_window > 0 && (int64_t)c->sliding_window + tokens + 14 < span)
    span = (int64_t)c->sliding_window + tokens + 14;
  return span;
}

// A varlen walk of `parts` partitions of groups of `group_tiles` tiles,
// fitted to the plan: at most workspace_tokens / num_tokens partitions (the
// partials are by token), and each partition's groups stretched when they
// no longer cover `span` positions together.
static uq_status_t fit_walk(const uq_plan_t *plan, uint32_t num_tokens,
                            int64_t span, int64_t parts,
                            int64_t groups_per_partition, int32_t group_tiles,
                            uq_launch_walk_t *out) {
  uint64_t cap = plan->workspace_tokens / num_tokens;
  if ((uint64_t)parts > cap)
    parts = (int64_t)(cap ? cap : 1);
  int64_t group = (int64_t)UQ_TILE_TOKENS * group_tiles;
  int64_t groups = (span + group - 1) / group;
  if (parts * groups_per_partition < groups)
    groups_per_partition = (groups + parts - 1) / parts;
  if (groups_per_partition > INT32_MAX)
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "varlen policy: %lld tile-groups a partition",
                          (long long)groups_per_partition);
  *out = (uq_launch_walk_t){(int32_t)parts, (int32_t)groups_per_partition,
                            group_tiles};
  return UQ_OK;
}

// sm_90a's varlen walk: the resident policy's for the blocks that hold
// the run's tokens (num_tokens / bt rounded up, at least one a sequence:
// exact when every q_len is a multiple of bt; the further blocks of a vLLM
// grid have no token), fitted to the workspace and to `span` positions.
static uq_status_t varlen_walk_resident(const uq_plan_t *plan,
                                        const run_launch_t *run,
                                        uint32_t num_tokens, uint32_t bt,
                                        int64_t span, uq_launch_walk_t *out) {
  uint32_t blocks = (num_tokens + bt - 1) / bt;
  if (blocks < run->num_seqs)
    blocks = run->num_seqs;
  if (blocks > run->blocks)
    blocks = run->blocks;
  uq_launch_walk_t walk;
  if (run->kernel == &plan->kernels[0] && blocks <= plan->config.max_batch)
    walk = plan->policies[blocks - 1];
  else
    UQ_RETURN_IF_ERROR(resident_policy(plan, run->kernel, blocks, &walk),
                       "varlen policy");
  return fit_walk(plan, num_tokens, span, walk.num_partitions,
                  walk.groups_per_partition, walk.group_tiles, out);
}

// A varlen run's launch: the kernel whose block holds max_query_len tokens
// (else the largest), one block a sequence when it does (else vLLM's grid
// of num_tokens / bt + num_seqs blocks, each finding its sequence), and the
// decode's policy for that many blocks, fitted to the block's rows and the
// workspace.
uq_status_t uq_rt_plan_varlen_launch(const uq_plan_t *plan, uint32_t num_seqs,
                                     uint32_t num_tokens,
                                     uint32_t max_query_len,
                                     run_launch_t *out) {
  const uq_decode_config_t *c = &plan->config;
  if (num_seqs == 0 || num_seqs > c->max_batch)
    return INVALID("num_seqs %u is outside 1..%u (the plan's max_batch)",
                   num_seqs, c->max_batch);
  if (num_tokens == 0 || num_tokens > c->max_num_tokens)
    return INVALID("num_tokens %u is outside 1..%u (the plan's "
                   "max_num_tokens)",
                   num_tokens, c->max_num_tokens);
  if (max_query_len == 0 || max_query_len > c->max_query_len)
    return INVALID("max_query_len %u is outside 1..%u (the plan's "
                   "max_query_len)",
                   max_query_len, c->max_query_len);
  memset(out, 0, sizeof(*out));
  out->kernel = uq_rt_plan_kernel_for(plan, max_query_len);
  uint32_t bt = uq_rt_plan_block_tokens(plan, out->kernel);
  int search = max_query_len > bt;
  // (blocks of one token tile the tokens: no block a sequence more)
  out->blocks = !search  ? num_seqs
                : bt > 1 ? num_tokens / bt + num_seqs
                         : num_tokens;
  out->rows = num_tokens;
  out->num_seqs = num_seqs;
  out->search_seqs = search ? num_seqs : 0;
  int64_t span = walk_span(c, bt < max_query_len ? bt : max_query_len);
  if (plan->compute_units) // the resident policy (sm_90a)
    return varlen_walk_resident(plan, out, num_tokens, bt, span, &out->policy);
  // The seed policy for the blocks (the decode's, for blocks of one token).
  uq_launch_plan_t seed;
  UQ_RETURN_IF_ERROR(uq_launch_policy_window(
                         (int32_t)out->blocks, (int32_t)c->max_blocks_per_seq,
                         (int32_t)c->block_size, (int32_t)c->head_dim,
                         (int32_t)c->max_kv_splits, (int32_t)c->sliding_window,
                         &seed),
                     "varlen policy");
  int64_t parts = seed.num_partitions;
  // A partition's fixed work (the query rotation, the partial store, its
  // share of the reduce) grows with the block's row tiles while a tile's
  // grows less (K and V are loaded and converted once for all of them):
  // the seed's ~192 tokens a partition pays for itself become 192 per row
  // tile (one row tile: the seed's own rule, so a decode's blocks split as
  // the decode).
  const int64_t row_tiles = out->kernel ? (out->kernel->rows + 15) / 16 : 1;
  if (row_tiles > 1) {
    int64_t useful = (span + 192 * row_tiles - 1) / (192 * row_tiles);
    if (parts > useful)
      parts = useful > 1 ? useful : 1;
  }
  return fit_walk(plan, num_tokens, span, parts, seed.tgpp,
                  UQ_TILE_GROUP_TOKENS / UQ_TILE_TOKENS, &out->policy);
}
