// The decode kernel's launch policy (P and TGPP), as the seed launcher has it.
#include "uq/policy.h"

#include "uq/format.h"

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

static int64_t next_pow2(int64_t x) {
  int64_t p = 1;
  while (p < x)
    p <<= 1;
  return p;
}

// The checks both policies share.
static uq_status_t check_shape(int32_t num_seqs, int32_t max_blocks_per_seq,
                               int32_t block_size, int32_t head_dim,
                               int32_t sliding_window, const void *out_plan) {
  if (!out_plan)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "out_plan is NULL");
  if (num_seqs < 1)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "num_seqs must be >= 1, got %d", (int)num_seqs);
  if (max_blocks_per_seq < 1)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "max_blocks_per_seq must be >= 1, got %d",
                          (int)max_blocks_per_seq);
  if (block_size != 16 && block_size != 32 && block_size != 64 &&
      block_size != 128 && block_size != 256)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "block_size must be 16, 32, 64, 128 or 256, got %d",
                          (int)block_size);
  UQ_RETURN_IF_ERROR(uq_head_dim_check(head_dim), "head_dim");
  if (sliding_window < 0)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "sliding_window must be >= 0, got %d",
                          (int)sliding_window);
  return UQ_OK;
}

// The tokens a partition walks at most: the table row, or W + 15 with a
// sliding window (the walk starts at win_start rounded down to a tile).
static int64_t walked_tokens(int32_t max_blocks_per_seq, int32_t block_size,
                             int32_t sliding_window) {
  // int64: max_seq reaches 2^31 * 256.
  int64_t max_seq = (int64_t)max_blocks_per_seq * block_size;
  if (sliding_window > 0 && (int64_t)sliding_window + 15 < max_seq)
    max_seq = (int64_t)sliding_window + 15;
  return max_seq;
}

uq_status_t uq_launch_policy(int32_t num_seqs, int32_t max_blocks_per_seq,
                             int32_t block_size, int32_t head_dim,
                             int32_t max_kv_splits,
                             uq_launch_plan_t *out_plan) {
  return uq_launch_policy_window(num_seqs, max_blocks_per_seq, block_size,
                                 head_dim, max_kv_splits, 0, out_plan);
}

uq_status_t uq_launch_policy_window(int32_t num_seqs,
                                    int32_t max_blocks_per_seq,
                                    int32_t block_size, int32_t head_dim,
                                    int32_t max_kv_splits,
                                    int32_t sliding_window,
                                    uq_launch_plan_t *out_plan) {
  UQ_RETURN_IF_ERROR(check_shape(num_seqs, max_blocks_per_seq, block_size,
                                 head_dim, sliding_window, out_plan),
                     "launch policy");
  if (max_kv_splits < 0)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "max_kv_splits must be >= 0, got %d",
                          (int)max_kv_splits);
  int64_t cap = num_seqs <= 8 ? 512 : 256;
  int64_t max_seq =
      walked_tokens(max_blocks_per_seq, block_size, sliding_window);
  int64_t required = ceil_div(max_seq, 256);
  int64_t splits = max_kv_splits < 1 ? 1 : max_kv_splits;
  int64_t floor_parts = splits < cap ? splits : cap;
  int64_t wanted = required < cap ? required : cap;
  int64_t actual = floor_parts > wanted ? floor_parts : wanted;
  // A partition should hold a useful number of tokens (~192, seed-measured).
  int64_t useful = ceil_div(max_seq, 192);
  if (useful < 1)
    useful = 1;
  if (actual > useful)
    actual = useful;
  int64_t parts = next_pow2(actual);
  if (parts < 2)
    parts = 2;
  int64_t per_part = ceil_div(required, parts);
  if (per_part < 1)
    per_part = 1;
  out_plan->num_partitions = (int32_t)parts;
  out_plan->tgpp = (int32_t)next_pow2(per_part);
  return UQ_OK;
}

// An SM's time for `share` workgroups of `length` tile-groups each when
// `slots` run at once: full rounds of `slots`, then the rest, each round at
// the SM's speed with that many resident (speed[n - 1], n >= 4 at 1).
static double share_time(int64_t share, int64_t slots, double length,
                         const double speed[4]) {
  int64_t full = (share - 1) / slots;
  int64_t last = share - full * slots;
  double round_time = (double)slots * length / speed[slots < 4 ? slots - 1 : 3];
  return (double)full * round_time +
         (double)last * length / speed[last < 4 ? last - 1 : 3];
}

// The resident policy's search in walk groups of `group_tiles` tiles: the
// partition count p <= max_parts with the lowest estimate (the most
// partitions on a tie), as {P, groups per partition, group_tiles}.
static uq_launch_walk_t best_walk(int64_t rows, int64_t tiles,
                                  int64_t group_tiles, int64_t max_parts,
                                  int32_t compute_units,
                                  int32_t workgroups_per_cu) {
  // See policy.h: a partition's fixed work (1 tile-group), and an SM's
  // speed with 1, 2, 3 and 4 or more workgroups resident; in groups.
  const double overhead = 1.0 * 16 / (double)group_tiles;
  static const double speed[4] = {0.55, 0.93, 0.97, 1.0};
  int64_t required = ceil_div(tiles, group_tiles);
  // Walks the partition counts p upward (groups per partition shrink).
  // Every later p has at least this p's share and the walk's groups spread
  // over the SMs, so once that bound exceeds the best estimate no later p
  // can match it: a few steps past the best, whatever the table's length.
  const double work = (double)rows * (double)required / compute_units;
  int64_t best_gpp = required;
  double best = 0;
  if (max_parts > required)
    max_parts = required;
  for (int64_t p = 1; p <= max_parts; ++p) {
    int64_t gpp = ceil_div(required, p);
    int64_t parts = ceil_div(required, gpp);
    int64_t share = ceil_div(rows * parts, compute_units);
    double cost =
        share_time(share, workgroups_per_cu, (double)gpp + overhead, speed);
    if (p == 1 || cost <= best) {
      best = cost;
      best_gpp = gpp;
    }
    if (work + overhead * (double)share > best)
      break;
  }
  uq_launch_walk_t walk = {
      .num_partitions = (int32_t)ceil_div(required, best_gpp),
      .groups_per_partition = (int32_t)best_gpp,
      .group_tiles = (int32_t)group_tiles,
  };
  return walk;
}

uq_status_t
uq_launch_policy_resident(int32_t num_seqs, int32_t num_kv_heads,
                          int32_t max_blocks_per_seq, int32_t block_size,
                          int32_t head_dim, int32_t sliding_window,
                          int32_t compute_units, int32_t workgroups_per_cu,
                          int32_t group_tiles, uq_launch_walk_t *out_walk) {
  UQ_RETURN_IF_ERROR(check_shape(num_seqs, max_blocks_per_seq, block_size,
                                 head_dim, sliding_window, out_walk),
                     "launch policy");
  if (num_kv_heads < 1 || compute_units < 1 || workgroups_per_cu < 1)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "num_kv_heads, compute_units and workgroups_per_cu "
                          "must be >= 1, got %d, %d and %d",
                          (int)num_kv_heads, (int)compute_units,
                          (int)workgroups_per_cu);
  if (!uq_launch_group_tiles_valid(group_tiles))
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "group_tiles must be 1, 2, 4, 8 or 16, got %d",
                          (int)group_tiles);
  int64_t tiles = ceil_div(
      walked_tokens(max_blocks_per_seq, block_size, sliding_window), 16);
  int64_t rows = (int64_t)num_seqs * num_kv_heads;
  // No more partitions than tile-groups, whatever the group: more measured
  // slower on the H200 (the partials and the reduce cost more than the
  // shorter walks give back).
  *out_walk = best_walk(rows, tiles, group_tiles, ceil_div(tiles, 16),
                        compute_units, workgroups_per_cu);
  return UQ_OK;
}
