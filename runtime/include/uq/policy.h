// The decode kernel's launch policy: how many partitions (P) split each
// sequence and how many 256-token tile-groups each partition walks (TGPP).
// A pure function of the launch shape, the seed launcher's rules exactly:
//
//   cap      = 512 if B <= 8 else 256
//   max_seq  = max_blocks_per_seq * block_size
//   required = ceil(max_seq / 256)
//   floor    = min(cap, max(1, max_kv_splits))
//   actual   = max(floor, min(cap, required))
//   actual   = min(actual, max(1, ceil(max_seq / 192)))
//   P        = max(2, next_pow2(actual))
//   TGPP     = next_pow2(max(1, ceil(required / P)))
//
// P * TGPP * 256 >= max_seq always holds, so every token is covered.
//
// The head dim D (32, 64, 128, 256 or 512) is an input so that a measured per-D
// rule can land without an API change; today the rules above hold for every D:
// a tile is 16 tokens and a tile-group 256 for every D, and both the
// per-token work (loads, MFMAs) and a partition's fixed work (the query
// rotation, the partial store, the reduce) scale with D, so the tokens a
// partition needs to pay for itself (~192, measured by the seed at D = 256)
// do not move with D to first order.
//
// With a sliding window W > 0 the decode kernel walks only the tokens from
// win_base = (max(0, seq_len - W) rounded down to 16) to seq_len: at most
// W + 15 of them. uq_launch_policy_window applies the same rules to the
// effective length max_seq = min(max_blocks_per_seq * block_size, W + 15),
// so a short window gets few partitions (no empty workgroups) and the
// invariant P * TGPP * 256 >= seq_len - win_base still holds for every seq.
#ifndef UQ_RUNTIME_INCLUDE_UQ_POLICY_H_
#define UQ_RUNTIME_INCLUDE_UQ_POLICY_H_

#include <stdint.h>

#include "uq/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// The seed's default for max_kv_splits.
#define UQ_DEFAULT_MAX_KV_SPLITS 32

typedef struct uq_launch_plan_s {
  int32_t num_partitions; // P (a power of two >= 2 but in the resident policy)
  int32_t tgpp;           // tile-groups per partition (likewise)
} uq_launch_plan_t;

// Computes the plan for a batch of `num_seqs` sequences whose block tables
// have `max_blocks_per_seq` entries of `block_size` tokens, head dim
// `head_dim`. The plan depends
// on the block-table width, not on the actual seq lens (as in the seed, so a
// captured graph stays valid). `*out_plan` is written only on success.
// INVALID_ARGUMENT: NULL out_plan, num_seqs or max_blocks_per_seq < 1,
// block_size not in {16, 32, 64, 128, 256}, max_kv_splits < 0 (0 acts as 1,
// as in the seed), head_dim 0; UNIMPLEMENTED: head_dim other than 32, 64,
// 128, 256, 512.
UQ_API uq_status_t uq_launch_policy(int32_t num_seqs,
                                    int32_t max_blocks_per_seq,
                                    int32_t block_size, int32_t head_dim,
                                    int32_t max_kv_splits,
                                    uq_launch_plan_t *out_plan);

// The policy for a sliding window W (0: none, the same as uq_launch_policy).
// Also INVALID_ARGUMENT for a negative W.
UQ_API uq_status_t uq_launch_policy_window(int32_t num_seqs,
                                           int32_t max_blocks_per_seq,
                                           int32_t block_size, int32_t head_dim,
                                           int32_t max_kv_splits,
                                           int32_t sliding_window,
                                           uq_launch_plan_t *out_plan);

// A decode's walk over a (sequence, KV head)'s tokens: its P partitions
// interleave groups of `group_tiles` 16-token tiles (partition p walks
// groups p, p + P, p + 2P, ..., at most `groups_per_partition` of them).
// The policies above are walks of 256-token tile-groups (group_tiles = 16,
// groups_per_partition = TGPP), the gfx950 kernels' only walk; an sm_90a
// kernel states its own (kernels/sm90a.mlir @uq_sm90_walk_tiles).
typedef struct uq_launch_walk_s {
  int32_t num_partitions;       // P >= 1
  int32_t groups_per_partition; // >= 1
  int32_t group_tiles;          // 1, 2, 4, 8 or 16
} uq_launch_walk_t;

// Whether a walk's group size is one the kernels and the reference take:
// 1, 2, 4, 8 or 16 tiles.
static inline int uq_launch_group_tiles_valid(int64_t group_tiles) {
  return group_tiles >= 1 && group_tiles <= 16 &&
         (group_tiles & (group_tiles - 1)) == 0;
}

// A walk's group as printed after its groups per partition (uq-run,
// uq-bench-cuda, the e2e tests: "P=33 x 125t"): "tg" for 256-token
// tile-groups, "t" for single 16-token tiles, "g" for groups of 2-8 tiles.
static inline const char *uq_launch_walk_unit(const uq_launch_walk_t *walk) {
  return walk->group_tiles == 16 ? "tg" : walk->group_tiles == 1 ? "t" : "g";
}

// The split-KV policy for a GPU of `compute_units` SMs that each run up to
// `workgroups_per_cu` decode workgroups at once (at the kernel's registers
// and shared memory): the sm_90a kernels' policy, which takes any P, not
// only powers of two. A workgroup walks its partition's groups of one
// (sequence, KV head). An SM's share, n = ceil(workgroups /
// compute_units), runs in rounds of workgroups_per_cu at once; a round of
// r takes r (groups + 1 tile-group) over the SM's relative speed with r
// resident: 0.55 with one (4 warps cannot hide the kernel's latencies),
// 0.93 with two, 0.97 with three, 1 from four; 1 tile-group is a
// partition's fixed work (query rotation, pipeline fill, merge, partial
// write, its share of the reduce). The estimate is the sum over the rounds
// (so a share one past a round costs a round, not a fraction). Both
// constants were fitted to H200 runs of the issue-9 shapes
// (uq-bench-cuda): a fixed work of 0.3 to 1.0 tile-group and a speed with
// one of 0.55 to 0.7 make the same choices for walks of tile-groups; over
// single tiles 0.7 took B 16 / N 131072 in two rounds of 33 partitions,
// 0.7 us slower than one round of 16. The walk's groups are the kernel's
// (`group_tiles`, which an sm_90a cubin states, kernels/sm90a.mlir
// @uq_sm90_walk_log2; with single tiles P splits any walk evenly: 33
// partitions of 124-125 tiles instead of 32 of 128 on 264 slots over 8
// rows). The policy takes the groups per partition that minimize the estimate
// (the fewest on a tie) with at most as many partitions as the walk has
// 256-token tile-groups, then the fewest partitions that cover the walk
// with them: P = ceil(groups walked / groups per partition), so every
// token walked (the table row, or W + 15 with a window W) lies in a
// partition. Long sequences get long partitions, small batches still fill
// the SMs. Like the others it depends only on the launch shape, never on
// seq lens. INVALID_ARGUMENT as uq_launch_policy_window, for
// num_kv_heads, compute_units or workgroups_per_cu < 1, and for a
// group_tiles other than 1, 2, 4, 8 or 16.
UQ_API uq_status_t uq_launch_policy_resident(
    int32_t num_seqs, int32_t num_kv_heads, int32_t max_blocks_per_seq,
    int32_t block_size, int32_t head_dim, int32_t sliding_window,
    int32_t compute_units, int32_t workgroups_per_cu, int32_t group_tiles,
    uq_launch_walk_t *out_walk);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_RUNTIME_INCLUDE_UQ_POLICY_H_
