// The sm_90a step helpers of the decode (kernels/decode.mlir's
// @uq_decode_sm90 declares the ones it calls; uq-link copies them in): the
// walk, cp.async tile copies, FP4 to E4M3 /
// bf16 decodes, mma.sync QK (rows as M, and transposed: tokens as M) and
// the steps both layouts share (the MMAs, the accumulators' fragment
// tiles), the lazy maximum, the query's rotation, the partials and the
// cluster's merge.
// Top-level func.func definitions: the kernel library (docs/design.md,
// "Kernel sources" and "sm_90a kernels").

// From kernels/steps.mlir (resolved when the folder is read).
func.func private @window_start(i32, i32) -> i32
func.func private @query_block(!llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32) -> (i32, i32, i32, i32)
func.func private @act_widen(i16, i1) -> f32
func.func private @act_narrow4(vector<4xf32>, i1) -> vector<4xi16>

// Row r's partials row of a block whose first token is %tok0: token
// tok0 + r / QG, head r % QG of the group, [token][kv head][partition]
// [head in the group] (the reduce's layout).
func.func private @uq_sm90_partial_row(%tok0: i32, %r: i32, %qg: i32, %num_kv_heads: i32,
                                       %kvh: i32, %num_partitions: i32, %part: i32) -> i32 {
  %tau = arith.divui %r, %qg : i32
  %tq = arith.muli %tau, %qg : i32
  %h = arith.subi %r, %tq : i32
  %tok = arith.addi %tok0, %tau : i32
  %p0 = arith.muli %tok, %num_kv_heads : i32
  %p1 = arith.addi %p0, %kvh : i32
  %p2 = arith.muli %p1, %num_partitions : i32
  %p3 = arith.addi %p2, %part : i32
  %p4 = arith.muli %p3, %qg : i32
  %row = arith.addi %p4, %h : i32
  return %row : i32
}

// A warp's cp.async stages of 16 slots: 2 for D = 256 with QG <= 8
// (3 and 4 measured slower there, at 2 CTAs per SM as at 4) and for
// D = 512 (whose 2 CTAs an SM 3 would not fit), 3 for the other dims, 4
// for qg_max 16. Inlined before the loops unroll
// (uq.inline), whose bounds and stage indices it sets.
func.func private @uq_sm90_stages() -> i32 attributes {uq.inline} {
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c256 = arith.constant 256 : index
  %i8 = arith.constant 8 : index
  %hd = "uq.param"() {name = "d"} : () -> index
  %qg_max = "uq.param"() {name = "qg_max"} : () -> index
  %is256 = arith.cmpi uge, %hd, %c256 : index
  %small = arith.cmpi ule, %qg_max, %i8 : index
  %n8 = arith.select %is256, %c2, %c3 : i32
  %n = arith.select %small, %n8, %c4 : i32
  return %n : i32
}

// The merge's layout in shared memory after the tile walk, from offset
// 0: (rows, mbase, pbase, pml, end). rows = 8 for qg_max 8, 16 for 16;
// per warp rows x D f32 accumulators (warp w's at float w rows D), then
// per warp 16 maxima and 16 sums from float mbase = 4 rows D; this CTA's
// partials for a cluster's merge from byte pbase = 4 (mbase + 128):
// rows x D bf16, then (max, L) f32 per row from byte pml, to byte end.
// Inlined before the loops unroll (uq.inline), like @uq_sm90_stages.
func.func private @uq_sm90_merge_layout() -> (i32, i32, i32, i32, i32) attributes {uq.inline} {
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %c128 = arith.constant 128 : i32
  %i8 = arith.constant 8 : index
  %hd = "uq.param"() {name = "d"} : () -> index
  %hd_i = arith.index_cast %hd : index to i32
  %qg_max = "uq.param"() {name = "qg_max"} : () -> index
  %small = arith.cmpi ule, %qg_max, %i8 : index
  %rows = arith.select %small, %c8, %c16 : i32
  %acc = arith.muli %rows, %hd_i : i32
  %mbase = arith.muli %acc, %c4 : i32
  %mfloats = arith.addi %mbase, %c128 : i32
  %pbase = arith.muli %mfloats, %c4 : i32
  %pbf = arith.muli %acc, %c2 : i32
  %pml = arith.addi %pbase, %pbf : i32
  %ml = arith.muli %rows, %c8 : i32
  %end = arith.addi %pml, %ml : i32
  return %rows, %mbase, %pbase, %pml, %end : i32, i32, i32, i32, i32
}

// The tiles in a group of the partitions' walk (@uq_sm90_tile_base),
// 2^n for the n returned: 1 (P splits any walk evenly) for D = 128 and
// 256, 16 (256-token tile-groups, the gfx950 walk) for D = 64, where
// single tiles measured 2-3% slower on the H200 at the same P (and at
// D = 128 3-5% slower for partitions of 16 tiles or fewer, 1-6% faster
// for longer ones; at D = 256 0.5-7% faster). Inlined before the loops
// unroll (uq.inline).
func.func private @uq_sm90_walk_log2() -> i32 attributes {uq.inline} {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %i64 = arith.constant 64 : index
  %hd = "uq.param"() {name = "d"} : () -> index
  %d64 = arith.cmpi eq, %hd, %i64 : index
  %n = arith.select %d64, %c4, %c0 : i32
  return %n : i32
}

// The walk's tiles a group, which the runtime reads from the cubin's
// symbol (uq_walk_group_tiles) for the launch policy.
func.func private @uq_sm90_walk_tiles() -> i32 {
  %c1 = arith.constant 1 : i32
  %n = func.call @uq_sm90_walk_log2() : () -> i32
  %g = arith.shli %c1, %n : i32
  return %g : i32
}

// The decode's shared memory, in bytes: during the tile walk the 4
// warps' stages (@uq_sm90_stages x 16 slots of the slot stride), then
// Q as f16, 16 rows of 2 D + 16 bytes; after it, from offset 0, the
// merge (@uq_sm90_merge_layout). The larger of the two.
func.func private @uq_sm90_shared_bytes() -> i32 {
  %c2 = arith.constant 2 : i32
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant 64 : i32
  %hd = "uq.param"() {name = "d"} : () -> index
  %hd_i = arith.index_cast %hd : index to i32
  %geo:3 = func.call @uq_sm90_slot_geometry() : () -> (i32, i32, i32)
  %nstages = func.call @uq_sm90_stages() : () -> i32
  %w0 = arith.muli %geo#2, %nstages : i32
  %w1 = arith.muli %w0, %c64 : i32
  %qrow0 = arith.muli %hd_i, %c2 : i32
  %qrow = arith.addi %qrow0, %c16 : i32
  %qbytes = arith.muli %qrow, %c16 : i32
  %walk = arith.addi %w1, %qbytes : i32
  %ml:5 = func.call @uq_sm90_merge_layout() : () -> (i32, i32, i32, i32, i32)
  %bytes = arith.maxui %walk, %ml#4 : i32
  return %bytes : i32
}

// The slot geometry of the head dim D: K codes + scales [0, kend),
// kend = D/2 + D/32;
// V codes + scales at voff = kend rounded up to 16 (ldmatrix rows) when
// cp.async can move them there (kend a multiple of 4), else at kend
// itself (D = 64: kend 34, V read by 16-bit loads, @uq_sm90_v_frags),
// so %gap = voff - kend; the stride is the smallest odd multiple of 16
// holding both (ldmatrix free of bank conflicts). D = 256: kend 136,
// voff 144, stride 304; D = 128: 68, 80, 176; D = 64: 34, 34, 80.
func.func private @uq_sm90_slot_geometry() -> (i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c15 = arith.constant 15 : i32
  %cm16 = arith.constant -16 : i32
  %hd = "uq.param"() {name = "d"} : () -> index
  %hd_i = arith.index_cast %hd : index to i32
  %k0 = arith.shrui %hd_i, %c1 : i32
  %k1 = arith.shrui %hd_i, %c5 : i32
  %kend = arith.addi %k0, %k1 : i32
  %v0 = arith.addi %kend, %c15 : i32
  %v16 = arith.andi %v0, %cm16 : i32
  %k3 = arith.andi %kend, %c3 : i32
  %movable = arith.cmpi eq, %k3, %c0 : i32
  %voff = arith.select %movable, %v16, %kend : i32
  %vend = arith.addi %voff, %kend : i32
  %s0 = arith.addi %vend, %c15 : i32
  %s1 = arith.shrui %s0, %c4 : i32
  %s2 = arith.ori %s1, %c1 : i32
  %stride = arith.shli %s2, %c4 : i32
  return %kend, %voff, %stride : i32, i32, i32
}

// The token whose slot lane l & 15 copies for the tile at %tb: tb +
// (l & 15) clamped into [win_start, seq_len) (a valid token, so no read
// past the used block-table entries and no garbage slot), and to 0 for
// an empty sequence (its table entry 0 is valid, uqrt.h).
func.func private @uq_sm90_lane_token(%tb: i32, %lane: i32, %win_start: i32, %seq_len: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c15 = arith.constant 15 : i32
  %mine = arith.andi %lane, %c15 : i32
  %t0 = arith.addi %tb, %mine : i32
  %t1 = arith.maxsi %t0, %win_start : i32
  %last = arith.subi %seq_len, %c1 : i32
  %t2 = arith.minsi %t1, %last : i32
  %tok = arith.maxsi %t2, %c0 : i32
  return %tok : i32
}

// The physical block holding the lane's token of tile %tb (the block
// table load, issued a tile ahead of @uq_sm90_issue_tile so its
// latency hides behind a tile's math).
func.func private @uq_sm90_tile_block(%tb: i32, %lane: i32, %win_start: i32, %seq_len: i32,
    %bs_shift: i32, %block_tables: !llvm.ptr<1>, %bt_row: i64) -> i32 {
  %tok = func.call @uq_sm90_lane_token(%tb, %lane, %win_start, %seq_len) : (i32, i32, i32, i32) -> i32
  %blk = arith.shrui %tok, %bs_shift : i32
  %blk64 = arith.extui %blk : i32 to i64
  %bt_ix = arith.addi %bt_row, %blk64 : i64
  %bt_p = llvm.getelementptr %block_tables[%bt_ix] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
  %phys = llvm.load %bt_p invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
  return %phys : i32
}

// Copies the 16 slots of one tile (token base %tb) into a stage buffer
// (shared address %stage, slot s at s x stride). Lane l & 15 finds the
// slot of its token (@uq_sm90_lane_token) in block %phys
// (@uq_sm90_tile_block); @uq_sm90_copy_slots moves them in u-byte
// chunks: 8 when padded_slot and kend are multiples of 8 (kend = 68 for
// D = 128 is not), else 4.
func.func private @uq_sm90_issue_tile(%stage: i32, %tb: i32, %phys: i32, %lane: i32,
    %win_start: i32, %seq_len: i32, %bs_mask: i32, %kv_cache: !llvm.ptr<1>,
    %blk_bytes: i64, %pos_stride: i32, %head_off: i32, %unit8_slot: i1) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %c32_i64 = arith.constant 32 : i64
  %geo:3 = func.call @uq_sm90_slot_geometry() : () -> (i32, i32, i32)
  %k7 = arith.andi %geo#0, %c7 : i32
  %k8 = arith.cmpi eq, %k7, %c0 : i32
  %unit8 = arith.andi %unit8_slot, %k8 : i1
  %tok = func.call @uq_sm90_lane_token(%tb, %lane, %win_start, %seq_len) : (i32, i32, i32, i32) -> i32
  %pos = arith.andi %tok, %bs_mask : i32
  %phys64 = arith.extsi %phys : i32 to i64
  %a0 = arith.muli %phys64, %blk_bytes : i64
  %p0 = arith.muli %pos, %pos_stride : i32
  %p1 = arith.addi %p0, %head_off : i32
  %p64 = arith.extui %p1 : i32 to i64
  %addr = arith.addi %a0, %p64 : i64
  %kv_i = llvm.ptrtoint %kv_cache : !llvm.ptr<1> to i64
  %src = arith.addi %kv_i, %addr : i64
  %lo = arith.trunci %src : i64 to i32
  %hi64 = arith.shrui %src, %c32_i64 : i64
  %hi = arith.trunci %hi64 : i64 to i32
  scf.if %unit8 {
    func.call @uq_sm90_copy_slots(%c8, %stage, %lo, %hi, %lane) : (i32, i32, i32, i32, i32) -> ()
  } else {
    func.call @uq_sm90_copy_slots(%c4, %stage, %lo, %hi, %lane) : (i32, i32, i32, i32, i32) -> ()
  }
  return
}

// The copies of @uq_sm90_issue_tile in u-byte chunks (u = 8 or 4, a
// constant once inlined): L = 32 / u lanes per slot, so each instruction
// moves 32 contiguous bytes (one sector) of each of u slots. Lane l
// copies chunks c = l % L + L i (i < ceil(C / L), c < C = (D + D/16) / u,
// the bytes rounded up to a multiple of 4: D = 32's 34 as 36, inside its
// slot, whose stride is one) of slot s = l / L + u p, pass p < 16 / u; the slot's
// address comes from lane s (%lo, %hi). A lane's chunks differ by constant offsets,
// which ptxas folds into the instructions. Bytes from kend on (V codes
// and scales) land gap further in shared memory. Each copy asks L2 for
// the whole 128-byte line (.L2::128B): the other sectors of the line
// are the next instructions' (0.2-0.5% on the H200's D 256 shapes).
func.func private @uq_sm90_copy_slots(%u: i32, %stage: i32, %lo: i32, %hi: i32, %lane: i32) {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %c32 = arith.constant 32 : i32
  %c32_i64 = arith.constant 32 : i64
  %z = arith.constant 0 : index
  %one = arith.constant 1 : index
  %i16 = arith.constant 16 : index
  %hd = "uq.param"() {name = "d"} : () -> index
  %geo:3 = func.call @uq_sm90_slot_geometry() : () -> (i32, i32, i32)
  %kend = arith.addi %geo#0, %c0 : i32
  %gap = arith.subi %geo#1, %geo#0 : i32
  %stride = arith.addi %geo#2, %c0 : i32
  %z0 = arith.divui %hd, %i16 : index
  %zb_ix = arith.addi %hd, %z0 : index
  %zb0 = arith.index_cast %zb_ix : index to i32
  // (D = 32's 34 content bytes copied as 36: a multiple of 4)
  %c3_z = arith.constant 3 : i32
  %cm4_z = arith.constant -4 : i32
  %zb3 = arith.addi %zb0, %c3_z : i32
  %zb = arith.andi %zb3, %cm4_z : i32
  %nc = arith.divui %zb, %u : i32
  %nl = arith.divui %c32, %u : i32
  %ni0 = arith.ceildivui %nc, %nl : i32
  %ni = arith.index_cast %ni0 : i32 to index
  %np0 = arith.divui %c16, %u : i32
  %np = arith.index_cast %np0 : i32 to index
  %q = arith.remui %lane, %nl : i32
  %qb = arith.muli %q, %u : i32
  %s0 = arith.divui %lane, %nl : i32
  %is8 = arith.cmpi eq, %u, %c8 : i32
  scf.for %p = %z to %np step %one {
    %pi = arith.index_cast %p : index to i32
    %sp = arith.muli %pi, %u : i32
    %s = arith.addi %s0, %sp : i32
    %slo, %v0 = gpu.shuffle idx %lo, %s, %c32 : i32
    %shi, %v1 = gpu.shuffle idx %hi, %s, %c32 : i32
    %slo64 = arith.extui %slo : i32 to i64
    %shi64 = arith.extui %shi : i32 to i64
    %shh = arith.shli %shi64, %c32_i64 : i64
    %base = arith.ori %shh, %slo64 : i64
    %qb64 = arith.extui %qb : i32 to i64
    %bq = arith.addi %base, %qb64 : i64
    %db0 = arith.muli %s, %stride : i32
    %db1 = arith.addi %stage, %db0 : i32
    %dq = arith.addi %db1, %qb : i32
    scf.for %i = %z to %ni step %one {
      %ii = arith.index_cast %i : index to i32
      %cl = arith.muli %ii, %nl : i32
      %c = arith.addi %q, %cl : i32
      %in = arith.cmpi ult, %c, %nc : i32
      scf.if %in {
        // byte q u + 32 i of the slot
        %io = arith.muli %ii, %c32 : i32
        %go = arith.addi %qb, %io : i32
        %isv = arith.cmpi uge, %go, %kend : i32
        %gp = arith.select %isv, %gap, %c0 : i32
        %do = arith.addi %io, %gp : i32
        %io64 = arith.extui %io : i32 to i64
        %sa = arith.addi %bq, %io64 : i64
        %d = arith.addi %dq, %do : i32
        scf.if %is8 {
          llvm.inline_asm has_side_effects asm_dialect = att "cp.async.ca.shared.global.L2::128B [$0], [$1], 8;", "r,l,~{memory}" %d, %sa : (i32, i64) -> ()
        } else {
          llvm.inline_asm has_side_effects asm_dialect = att "cp.async.ca.shared.global.L2::128B [$0], [$1], 4;", "r,l,~{memory}" %d, %sa : (i32, i64) -> ()
        }
      }
    }
  }
  return
}

// 2^x for the softmax weights and the merges: ex2.approx.ftz, whose
// only difference from the ex2.approx.f32 that math.exp2 becomes is a
// result below 2^-126 flushed to 0 (a weight under 2^-126 of the
// running maximum's, far under the bf16 output's resolution); ptxas
// wraps the non-ftz form in a three-instruction subnormal fix-up, 18
// instructions of a D = 256 tile's ~830.
func.func private @uq_sm90_exp2(%x: f32) -> f32 {
  %r = llvm.inline_asm asm_dialect = att "ex2.approx.ftz.f32 $0, $1;", "=f,f" %x : (f32) -> f32
  return %r : f32
}

// 1 / x for the merges' normalizations (x >= 1 there): rcp.approx.ftz,
// within an ulp of f32 and far under the bf16 outputs' resolution,
// where arith.divf's IEEE division costs a check and a slow-path branch
// per division.
func.func private @uq_sm90_rcp(%x: f32) -> f32 {
  %r = llvm.inline_asm asm_dialect = att "rcp.approx.ftz.f32 $0, $1;", "=f,f" %x : (f32) -> f32
  return %r : f32
}

// The score above which a row's running maximum %m moves
// (@uq_sm90_lazy_max; the loops' vote compares with it too): m + 8.
func.func private @uq_sm90_lazy_limit(%m: f32) -> f32 {
  %eight = arith.constant 8.0 : f32
  %lim = arith.addf %m, %eight : f32
  return %lim : f32
}

// A row's running maximum after a tile whose maximum is %tile (base-2
// units): it moves only when the tile exceeds it by more than 8, so the
// weights 2^(x - max) stay <= 2^8 (exact scale in bf16 and f32) and
// the accumulators' rescale (64 or 128 multiplies behind a vote and a
// branch) runs on a handful of tiles instead of whenever a maximum
// creeps up. From -inf any finite tile moves it.
func.func private @uq_sm90_lazy_max(%m: f32, %tile: f32) -> f32 {
  %lim = func.call @uq_sm90_lazy_limit(%m) : (f32) -> f32
  %up = arith.cmpf ogt, %tile, %lim : f32
  %mx = arith.maximumf %m, %tile : f32
  %r = arith.select %up, %mx, %m : f32
  return %r : f32
}

// The factor a row's accumulators and sum take when its running maximum
// moves from %m to %mu (@uq_sm90_lazy_max): 2^(m - mu), and 1 while the
// new maximum is still -inf (the row has no score yet; its sums are 0).
func.func private @uq_sm90_lazy_correction(%m: f32, %mu: f32) -> f32 {
  %ninf = arith.constant 0xFF800000 : f32
  %one = arith.constant 1.0 : f32
  %empty = arith.cmpf oeq, %mu, %ninf : f32
  %d = arith.subf %m, %mu : f32
  %e = func.call @uq_sm90_exp2(%d) : (f32) -> f32
  %c = arith.select %empty, %one, %e : f32
  return %c : f32
}

// What a row's weights subtract from the scores: weights 2^(x - b),
// b = m - 64 for the running maximum m (0 - 64 while m = -inf, every
// score so far being -inf too). The 64 makes P times a V scale carry
// 2^64 (@uq_sm90_v_scales) at no cost (one subtract per row and tile,
// into the exponent); the sums carry it too (the merge's 2^-64).
func.func private @uq_sm90_weight_base(%m: f32) -> f32 {
  %zero = arith.constant 0.0 : f32
  %bias = arith.constant 64.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %empty = arith.cmpf oeq, %m, %ninf : f32
  %bm = arith.select %empty, %zero, %m : f32
  %b = arith.subf %bm, %bias : f32
  return %b : f32
}

// First token of tile %k of the partition's walk. The P partitions
// interleave groups of G = 2^%lg tiles (@uq_sm90_walk_log2):
// partition p walks groups p, p + P, p + 2P, ... of the window, tile
// k being tile k mod G of its group k / G. G = 16 (256-token
// tile-groups) is the gfx950 walk; G = 1 lets P split a walk evenly
// however many tiles it has.
func.func private @uq_sm90_tile_base(%k: i32, %part: i32, %np: i32, %lg: i32, %win_base: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %gk = arith.shrui %k, %lg : i32
  %g0 = arith.muli %gk, %np : i32
  %g = arith.addi %part, %g0 : i32
  // the group's first token and the tile's in it, each shifted once
  %lg4 = arith.addi %lg, %c4 : i32
  %b0 = arith.shli %g, %lg4 : i32
  %gt = arith.shli %c1, %lg : i32
  %gm = arith.subi %gt, %c1 : i32
  %tin = arith.andi %k, %gm : i32
  %b1 = arith.shli %tin, %c4 : i32
  %b = arith.addi %b0, %b1 : i32
  %tb = arith.addi %win_base, %b : i32
  return %tb : i32
}

// A partition's tiles of the walk of a block (@uq_decode_sm90): of the
// groups of G = 2^%walk_lg tiles from the window base (the first token's
// window start %win_start, rounded down to a tile; the first token's
// positions end at %end0) to %seq_len, partition %part takes groups part,
// part + P, ..., at most TGPP of them, and of the last one only the tiles
// with a token (for G = 16 the gfx950 walk exactly). Returns (win_start,
// win_base, the partition's tiles). Inlined (uq.inline), as when it was
// written in the kernel.
func.func private @uq_sm90_partition_tiles(%end0: i32, %seq_len: i32, %sliding_window: i32,
                                           %walk_lg: i32, %part: i32, %num_partitions: i32,
                                           %tgpp: i32) -> (i32, i32, i32) attributes {uq.inline} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c15 = arith.constant 15 : i32
  %group_tiles = arith.shli %c1, %walk_lg : i32
  %win1 = func.call @window_start(%end0, %sliding_window) : (i32, i32) -> i32
  %win_start = arith.minsi %win1, %seq_len : i32
  %m16 = arith.constant -16 : i32
  %win_base = arith.andi %win_start, %m16 : i32
  %rel_len = arith.subi %seq_len, %win_base : i32
  %glg = arith.addi %walk_lg, %c4 : i32
  %gtok = arith.shli %group_tiles, %c4 : i32
  %gtok1 = arith.subi %gtok, %c1 : i32
  %walk0 = arith.addi %rel_len, %gtok1 : i32
  %n_groups = arith.shrui %walk0, %glg : i32
  %walk1 = arith.subi %n_groups, %part : i32
  %owns = arith.cmpi sgt, %walk1, %c0 : i32
  %walk2 = arith.maxsi %walk1, %c1 : i32
  %walk3 = arith.subi %num_partitions, %c1 : i32
  %walk4 = arith.addi %walk2, %walk3 : i32
  %walk5 = arith.divui %walk4, %num_partitions : i32
  %walk6 = arith.minsi %walk5, %tgpp : i32
  %walk7 = arith.subi %walk6, %c1 : i32
  %walk8 = arith.maxsi %walk7, %c0 : i32
  %walk9 = arith.muli %walk8, %num_partitions : i32
  %walk10 = arith.addi %part, %walk9 : i32
  %walk11 = arith.shli %walk10, %glg : i32
  %walk12 = arith.subi %rel_len, %walk11 : i32
  %walk13 = arith.addi %walk12, %c15 : i32
  %walk14 = arith.shrsi %walk13, %c4 : i32
  %walk15 = arith.minsi %walk14, %group_tiles : i32
  %walk16 = arith.shli %walk8, %walk_lg : i32
  %walk17 = arith.addi %walk16, %walk15 : i32
  %ntiles = arith.select %owns, %walk17, %c0 : i32
  return %win_start, %win_base, %ntiles : i32, i32, i32
}

// Whether the decodes' shifts by constants run as integer multiplies on
// the FMA pipe (@uq_sm90_fp4_e4m3, @uq_sm90_fp4_bf16x2): for qg_max 8,
// whose loop the integer pipe bounds (H200: 0.5-1.7% faster at D = 128
// and 256). Not for qg_max 16 (only its even bytes' x 4 is a multiply):
// at D = 256 that variant sits at the register limit, and the same
// change made it 9.5% slower there (24% on a later build).
func.func private @uq_sm90_shifts_as_multiplies() -> i1 {
  %i8 = arith.constant 8 : index
  %qg_max = "uq.param"() {name = "qg_max"} : () -> index
  %small = arith.cmpi ule, %qg_max, %i8 : index
  return %small : i1
}

// E4M3 B fragment of 8 codes (one 32-bit word, element 2i in the low
// nibble of byte i): (even elements, odd elements) as E4M3 bytes, value
// times 2^-6: magnitude bits to 2..4, sign to 7. The integer pipe (16
// lanes: masks, shifts) bounds the decode, so what can runs on the FMA
// pipe as integer multiplies: the even bytes are (n + 3 (n & 8)) x 4 =
// 4 (n & 7) + 128 s (at most 156: no carry between bytes), and for
// qg_max 8 the odd ones start from w >> 2 as the high word of w x 2^30.
// Both multiplies by powers of two are opaque to LLVM, which would
// otherwise narrow the x 4 into two 16-bit shifts on the callers'
// halves (the conversions read a word's high half for free) and fold
// the high multiply back into a shift.
func.func private @uq_sm90_fp4_e4m3(%w: i32) -> (i32, i32) {
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %m0f = arith.constant 0x0F0F0F0F : i32
  %m08 = arith.constant 0x08080808 : i32
  %m1c = arith.constant 0x1C1C1C1C : i32
  %m80 = arith.constant 0x80808080 : i32
  %n = arith.andi %w, %m0f : i32
  %ns = arith.andi %w, %m08 : i32
  %ns3 = arith.muli %ns, %c3 : i32
  %e0 = arith.addi %n, %ns3 : i32
  %ev = llvm.inline_asm asm_dialect = att "mul.lo.u32 $0, $1, 4;", "=r,r" %e0 : (i32) -> i32
  %mulpipe = func.call @uq_sm90_shifts_as_multiplies() : () -> i1
  %o0 = scf.if %mulpipe -> (i32) {
    %o0_m = llvm.inline_asm asm_dialect = att "mul.hi.u32 $0, $1, 0x40000000;", "=r,r" %w : (i32) -> i32
    scf.yield %o0_m : i32
  } else {
    %o0_s = arith.shrui %w, %c2 : i32
    scf.yield %o0_s : i32
  }
  %o1 = arith.andi %o0, %m1c : i32
  %o2 = arith.andi %w, %m80 : i32
  %od = arith.ori %o1, %o2 : i32
  return %ev, %od : i32, i32
}

// The entries of fragment tile %tile's four accumulators c0..c3 in a
// warp's accumulators, [tile][c0..c3] (m16n8k16 C fragments: n-tiles
// for QG 16, m-tiles for QG <= 8): 4 tile + 0..3. Inlined (uq.inline).
func.func private @uq_sm90_frag_entries(%tile: index) -> (index, index, index, index) attributes {uq.inline} {
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %i4 = arith.constant 4 : index
  %o = arith.muli %tile, %i4 : index
  %o1 = arith.addi %o, %i1 : index
  %o2 = arith.addi %o, %i2 : index
  %o3 = arith.addi %o2, %i1 : index
  return %o, %o1, %o2, %o3 : index, index, index, index
}

// Fragment tile %tile's four accumulators c0..c3 of a QG 16 warp
// (vector<128xf32>: D / 8 n-tiles, rows g: c0, c1; g + 8: c2, c3).
// Inlined (uq.inline), so the entries are constants once the caller's
// loop unrolls.
func.func private @uq_sm90_frag(%acc: vector<128xf32>, %tile: index) -> (f32, f32, f32, f32) attributes {uq.inline} {
  %o:4 = func.call @uq_sm90_frag_entries(%tile) : (index) -> (index, index, index, index)
  %v0 = vector.extract %acc[%o#0] : f32 from vector<128xf32>
  %v1 = vector.extract %acc[%o#1] : f32 from vector<128xf32>
  %v2 = vector.extract %acc[%o#2] : f32 from vector<128xf32>
  %v3 = vector.extract %acc[%o#3] : f32 from vector<128xf32>
  return %v0, %v1, %v2, %v3 : f32, f32, f32, f32
}

// The accumulators with fragment tile %tile's c0..c3 replaced by %v0..%v3
// (the inverse of @uq_sm90_frag; uq.inline).
func.func private @uq_sm90_frag_set(%acc: vector<128xf32>, %tile: index, %v0: f32, %v1: f32, %v2: f32, %v3: f32) -> vector<128xf32> attributes {uq.inline} {
  %o:4 = func.call @uq_sm90_frag_entries(%tile) : (index) -> (index, index, index, index)
  %u0 = vector.insert %v0, %acc[%o#0] : f32 into vector<128xf32>
  %u1 = vector.insert %v1, %u0[%o#1] : f32 into vector<128xf32>
  %u2 = vector.insert %v2, %u1[%o#2] : f32 into vector<128xf32>
  %u3 = vector.insert %v3, %u2[%o#3] : f32 into vector<128xf32>
  return %u3 : vector<128xf32>
}

// Fragment tile %tile's four accumulators c0..c3 of a QG <= 8 warp
// (vector<64xf32>: D / 16 m-tiles, query rows 2t: c0, c2; 2t + 1: c1, c3).
// Inlined (uq.inline), so the entries are constants once the caller's
// loop unrolls.
func.func private @uq_sm90_frag_t(%acc: vector<64xf32>, %tile: index) -> (f32, f32, f32, f32) attributes {uq.inline} {
  %o:4 = func.call @uq_sm90_frag_entries(%tile) : (index) -> (index, index, index, index)
  %v0 = vector.extract %acc[%o#0] : f32 from vector<64xf32>
  %v1 = vector.extract %acc[%o#1] : f32 from vector<64xf32>
  %v2 = vector.extract %acc[%o#2] : f32 from vector<64xf32>
  %v3 = vector.extract %acc[%o#3] : f32 from vector<64xf32>
  return %v0, %v1, %v2, %v3 : f32, f32, f32, f32
}

// The accumulators with fragment tile %tile's c0..c3 replaced by %v0..%v3
// (the inverse of @uq_sm90_frag_t; uq.inline).
func.func private @uq_sm90_frag_t_set(%acc: vector<64xf32>, %tile: index, %v0: f32, %v1: f32, %v2: f32, %v3: f32) -> vector<64xf32> attributes {uq.inline} {
  %o:4 = func.call @uq_sm90_frag_entries(%tile) : (index) -> (index, index, index, index)
  %u0 = vector.insert %v0, %acc[%o#0] : f32 into vector<64xf32>
  %u1 = vector.insert %v1, %u0[%o#1] : f32 into vector<64xf32>
  %u2 = vector.insert %v2, %u1[%o#2] : f32 into vector<64xf32>
  %u3 = vector.insert %v3, %u2[%o#3] : f32 into vector<64xf32>
  return %u3 : vector<64xf32>
}

// D = A B + C of one mma.sync m16n8k16 in f16 with f32 accumulators
// (the QK of both layouts; @uq_sm90_mma_bf16 is PV's). Inlined
// (uq.inline), as when it was written at each call.
func.func private @uq_sm90_mma_f16(%a0: i32, %a1: i32, %a2: i32, %a3: i32, %b0: i32, %b1: i32, %c0: f32, %c1: f32, %c2: f32, %c3: f32) -> (f32, f32, f32, f32) attributes {uq.inline} {
  %mm = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f" %a0, %a1, %a2, %a3, %b0, %b1, %c0, %c1, %c2, %c3 : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  %d0 = llvm.extractvalue %mm[0] : !llvm.struct<(f32, f32, f32, f32)>
  %d1 = llvm.extractvalue %mm[1] : !llvm.struct<(f32, f32, f32, f32)>
  %d2 = llvm.extractvalue %mm[2] : !llvm.struct<(f32, f32, f32, f32)>
  %d3 = llvm.extractvalue %mm[3] : !llvm.struct<(f32, f32, f32, f32)>
  return %d0, %d1, %d2, %d3 : f32, f32, f32, f32
}

// D = A B + C of one mma.sync m16n8k16 in bf16 with f32 accumulators:
// A's four and B's two bf16x2 registers, C's four values (the PV of both
// layouts). Inlined (uq.inline), as when it was written at each call.
func.func private @uq_sm90_mma_bf16(%a0: i32, %a1: i32, %a2: i32, %a3: i32, %b0: i32, %b1: i32, %c0: f32, %c1: f32, %c2: f32, %c3: f32) -> (f32, f32, f32, f32) attributes {uq.inline} {
  %mm = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f" %a0, %a1, %a2, %a3, %b0, %b1, %c0, %c1, %c2, %c3 : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  %d0 = llvm.extractvalue %mm[0] : !llvm.struct<(f32, f32, f32, f32)>
  %d1 = llvm.extractvalue %mm[1] : !llvm.struct<(f32, f32, f32, f32)>
  %d2 = llvm.extractvalue %mm[2] : !llvm.struct<(f32, f32, f32, f32)>
  %d3 = llvm.extractvalue %mm[3] : !llvm.struct<(f32, f32, f32, f32)>
  return %d0, %d1, %d2, %d3 : f32, f32, f32, f32
}

// bf16 pair of nibble %i of both 16-bit halves of %r: magnitude bits
// to 6..8 and sign to 15, the E2M1 value times 2^-126 exactly (the
// codes of +-0.5 are bf16 subnormals, which the tensor cores take as
// they are); the 2^126 waits in P and the final normalization
// (@uq_sm90_v_scales). The code n (nibble i & 1 of byte i >> 1, its 4
// bits at 4 (i & 1)) goes to both places at once by one multiply, n
// (2^6 + 2^12) >> 4 (i & 1), whose two copies do not overlap, and a
// mask keeps the wanted bits: the integer pipe (shifts and masks) bounds
// the decode, and the multiply runs on the FMA pipe.
func.func private @uq_sm90_fp4_bf16x2(%r: i32, %i: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c0f = arith.constant 0x000F000F : i32
  %mul = arith.constant 0x1040 : i32
  %m81c0 = arith.constant 0x81C081C0 : i32
  %hb0 = arith.shrui %i, %c1 : i32
  %hb = arith.shli %hb0, %c3 : i32
  // r >> 8 for nibbles 2 and 3, one per register (opaque: LLVM would
  // give each nibble its own shift): for qg_max 8 the high word of
  // r x 2^24, on the FMA pipe (see @uq_sm90_fp4_e4m3)
  %c0 = arith.constant 0 : i32
  %low = arith.cmpi eq, %hb, %c0 : i32
  %mulpipe = func.call @uq_sm90_shifts_as_multiplies() : () -> i1
  %x0 = scf.if %low -> (i32) {
    scf.yield %r : i32
  } else {
    %r8 = scf.if %mulpipe -> (i32) {
      %rm = llvm.inline_asm asm_dialect = att "mul.hi.u32 $0, $1, 0x1000000;", "=r,r" %r : (i32) -> i32
      scf.yield %rm : i32
    } else {
      %rs = llvm.inline_asm asm_dialect = att "shr.b32 $0, $1, 8;", "=r,r" %r : (i32) -> i32
      scf.yield %rs : i32
    }
    scf.yield %r8 : i32
  }
  %lo0 = arith.andi %i, %c1 : i32
  %lo = arith.shli %lo0, %c2 : i32
  %msk = arith.shli %c0f, %lo : i32
  %x = arith.andi %x0, %msk : i32
  %k = arith.shrui %mul, %lo : i32
  %y = arith.muli %x, %k : i32
  %b = arith.andi %y, %m81c0 : i32
  return %b : i32
}

// The scale bytes (K at %off = D/2, V at voff + D/2) of the tokens this
// thread's fragments touch: 2t, 2t + 1, 8 + 2t, 9 + 2t (two words each;
// D/32 bytes are scales, the rest of the 8 is whatever follows them in
// the slot's stride, never used). Read 8-byte aligned: from %off rounded
// down to 8, shifted down by the difference (D = 64's V scales at 66:
// bytes 66, 67 become bytes 0, 1; 0 for the other dims).
func.func private @uq_sm90_scale_words(%sbp: !llvm.ptr<3>, %t2: i32, %off: i32, %stride: i32) -> vector<8xi32> {
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %zero8i = arith.constant dense<0> : vector<8xi32>
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %i4 = arith.constant 4 : index
  // ---- K scales of this thread's columns: tokens 2t + e (n-tile 0)
  // and 8 + 2t + e (n-tile 1), e = 0, 1; 8 bytes each.
  %ks = scf.for %c = %i0 to %i4 step %i1 iter_args(%v = %zero8i) -> (vector<8xi32>) {
    %ci = arith.index_cast %c : index to i32
    %ce = arith.andi %ci, %c1 : i32
    %cn = arith.shrui %ci, %c1 : i32
    %cn8 = arith.muli %cn, %c8 : i32
    %tk0 = arith.addi %t2, %ce : i32
    %tk = arith.addi %tk0, %cn8 : i32
    %w:2 = func.call @uq_sm90_scale_row(%sbp, %tk, %off, %stride) : (!llvm.ptr<3>, i32, i32, i32) -> (i32, i32)
    %c2x = arith.muli %c, %i2 : index
    %c2x1 = arith.addi %c2x, %i1 : index
    %v0 = vector.insert %w#0, %v[%c2x] : i32 into vector<8xi32>
    %v1 = vector.insert %w#1, %v0[%c2x1] : i32 into vector<8xi32>
    scf.yield %v1 : vector<8xi32>
  }
  return %ks : vector<8xi32>
}

// The 8 scale bytes (K at %off = D/2, V at voff + D/2) of token %tk of
// the stage as two words (see @uq_sm90_scale_words).
func.func private @uq_sm90_scale_row(%sbp: !llvm.ptr<3>, %tk: i32, %off: i32, %stride: i32) -> (i32, i32) {
  %c3 = arith.constant 3 : i32
  %c7 = arith.constant 7 : i32
  %c0 = arith.constant 0 : i32
  %geo:3 = func.call @uq_sm90_slot_geometry() : () -> (i32, i32, i32)
  %v7 = arith.andi %geo#1, %c7 : i32
  %shifted = arith.cmpi ne, %v7, %c0 : i32
  %mis = arith.andi %off, %c7 : i32
  %offd = arith.subi %off, %mis : i32
  %offa = arith.select %shifted, %offd, %off : i32
  %msh = arith.shli %mis, %c3 : i32
  %o0 = arith.muli %tk, %stride : i32
  %o1 = arith.addi %o0, %offa : i32
  %p = llvm.getelementptr %sbp[%o1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  %w = llvm.load %p {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xi32>
  %wa = vector.extract %w[0] : i32 from vector<2xi32>
  %wb = vector.extract %w[1] : i32 from vector<2xi32>
  %f0 = llvm.intr.fshr(%wb, %wa, %msh) : (i32, i32, i32) -> i32
  %f1 = arith.shrui %wb, %msh : i32
  %w0 = arith.select %shifted, %f0, %wa : i32
  %w1 = arith.select %shifted, %f1, %wb : i32
  return %w0, %w1 : i32, i32
}

// The K code words of group pair %jp of a tile for the QK products
// (@uq_sm90_qk, @uq_sm90_qk_t): one ldmatrix.x4 at the lane's row address
// %lbase, 32 bytes on per pair: (tokens g, g + 8) of the even group, then
// of the odd one.
func.func private @uq_sm90_k_pair(%lbase: i32, %jp: index) -> (i32, i32, i32, i32) {
  %c32 = arith.constant 32 : i32
  %jpi = arith.index_cast %jp : index to i32
  %jo = arith.muli %jpi, %c32 : i32
  %la = arith.addi %lbase, %jo : i32
  %kf = llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0,$1,$2,$3}, [$4];", "=r,=r,=r,=r,r,~{memory}" %la : (i32) -> !llvm.struct<(i32, i32, i32, i32)>
  %kf0 = llvm.extractvalue %kf[0] : !llvm.struct<(i32, i32, i32, i32)>
  %kf1 = llvm.extractvalue %kf[1] : !llvm.struct<(i32, i32, i32, i32)>
  %kf2 = llvm.extractvalue %kf[2] : !llvm.struct<(i32, i32, i32, i32)>
  %kf3 = llvm.extractvalue %kf[3] : !llvm.struct<(i32, i32, i32, i32)>
  return %kf0, %kf1, %kf2, %kf3 : i32, i32, i32, i32
}

// f16 pairs of the E4M3 bytes of two words %x, %y (@uq_sm90_fp4_e4m3's
// halves): x's low and high halves, then y's, by the hardware conversion.
// Shared by both QK layouts; inlined (uq.inline).
func.func private @uq_sm90_e4m3_f16(%x: i32, %y: i32) -> (i32, i32, i32, i32) attributes {uq.inline} {
  %c16 = arith.constant 16 : i32
  %xl = arith.trunci %x : i32 to i16
  %xh0 = arith.shrui %x, %c16 : i32
  %xh = arith.trunci %xh0 : i32 to i16
  %yl = arith.trunci %y : i32 to i16
  %yh0 = arith.shrui %y, %c16 : i32
  %yh = arith.trunci %yh0 : i32 to i16
  %h0 = llvm.inline_asm asm_dialect = att "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %xl : (i16) -> i32
  %h1 = llvm.inline_asm asm_dialect = att "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %xh : (i16) -> i32
  %h2 = llvm.inline_asm asm_dialect = att "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %yl : (i16) -> i32
  %h3 = llvm.inline_asm asm_dialect = att "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %yh : (i16) -> i32
  return %h0, %h1, %h2, %h3 : i32, i32, i32, i32
}

// Group j = 2 jp + jj of group pair %jp (@uq_sm90_k_pair's words
// %kf0..%kf3): j (index and i32) and its code words of tokens g and
// g + 8. Shared by both QK layouts; inlined (uq.inline).
func.func private @uq_sm90_k_group(%kf0: i32, %kf1: i32, %kf2: i32, %kf3: i32, %jp: index, %jj: index) -> (index, i32, i32, i32) attributes {uq.inline} {
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %j2 = arith.muli %jp, %i2 : index
  %j = arith.addi %j2, %jj : index
  %ji = arith.index_cast %j : index to i32
  %isodd = arith.cmpi eq, %jj, %i1 : index
  %w0 = arith.select %isodd, %kf2, %kf0 : i32
  %w1 = arith.select %isodd, %kf3, %kf1 : i32
  return %j, %ji, %w0, %w1 : index, i32, i32, i32
}

// Where group %ji's UE8M0 scale sits in a token's 8-byte scale row: word
// j >> 2 and the shift of byte j & 3 in it (@uq_sm90_k_scales). Shared by
// both QK layouts; inlined (uq.inline).
func.func private @uq_sm90_scale_byte(%ji: i32) -> (i32, i32) attributes {uq.inline} {
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c8 = arith.constant 8 : i32
  %jw = arith.shrui %ji, %c2 : i32
  %jb = arith.andi %ji, %c3 : i32
  %jsh = arith.muli %jb, %c8 : i32
  return %jw, %jsh : i32, i32
}

// Two tokens' UE8M0 scales of one group as f32 (2^(e - 127): e placed in
// the exponent field), from their scale words %kw0, %kw1 and the group's
// byte shift %jsh (@uq_sm90_scale_byte). Shared by both QK layouts;
// inlined (uq.inline).
func.func private @uq_sm90_k_scales(%kw0: i32, %kw1: i32, %jsh: i32) -> (f32, f32) attributes {uq.inline} {
  %c23 = arith.constant 23 : i32
  %c0xff = arith.constant 255 : i32
  %kb0 = arith.shrui %kw0, %jsh : i32
  %kb1 = arith.shrui %kw1, %jsh : i32
  %kc0 = arith.andi %kb0, %c0xff : i32
  %kc1 = arith.andi %kb1, %c0xff : i32
  %ke0 = arith.shli %kc0, %c23 : i32
  %ke1 = arith.shli %kc1, %c23 : i32
  %sc0 = arith.bitcast %ke0 : i32 to f32
  %sc1 = arith.bitcast %ke1 : i32 to f32
  return %sc0, %sc1 : f32, f32
}

// S = Q K^T of one tile (D/32 groups) on mma.sync m16n8k16 f16 (Q's E4M3 values and
// K's E2M1 x 2^-6 are exact in f16): per group j two k-steps from the
// zero accumulator, then times the group's UE8M0 scale (column = token).
// Q fragments come from shared memory (ldmatrix at %qaddr, Q stored in
// the k order below); K's come by ldmatrix from the stage (%lbase).
// k order within a group: step s, position 2t + e (+8 for hi) is element
// 8t + 4hi + 2e + s, which is what F2FP gives from the E4M3 bytes of one
// code word (even elements of word t, then odd ones).
func.func private @uq_sm90_qk(%lbase: i32, %qaddr: i32, %ks: vector<8xi32>) -> vector<8xf32> {
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %zero_f = arith.constant 0.0 : f32
  %zero8 = arith.constant dense<0.0> : vector<8xf32>
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %i4 = arith.constant 4 : index
  // D/64 pairs of 2 groups, D = 32's one of one (QG 16 has no D = 512:
  // its variant, QG <= 8 only, compiles this unused)
  %njp, %npair = func.call @uq_sm90_pair_groups() : () -> (index, index)
  %S = scf.for %jp = %i0 to %njp step %i1 iter_args(%sacc = %zero8) -> (vector<8xf32>) {
    %kf0, %kf1, %kf2, %kf3 = func.call @uq_sm90_k_pair(%lbase, %jp) : (i32, index) -> (i32, i32, i32, i32)
    %sacc2 = scf.for %jj = %i0 to %npair step %i1 iter_args(%sa = %sacc) -> (vector<8xf32>) {
      %j, %ji, %wn0, %wn1 = func.call @uq_sm90_k_group(%kf0, %kf1, %kf2, %kf3, %jp, %jj) : (i32, i32, i32, i32, index, index) -> (index, i32, i32, i32)
      // Q fragments of group j, k-steps 0 and 1
      %qo = arith.muli %ji, %c64 : i32
      %qa0 = arith.addi %qaddr, %qo : i32
      %qa1 = arith.addi %qa0, %c32 : i32
      %q0 = llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0,$1,$2,$3}, [$4];", "=r,=r,=r,=r,r,~{memory}" %qa0 : (i32) -> !llvm.struct<(i32, i32, i32, i32)>
      %q1 = llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0,$1,$2,$3}, [$4];", "=r,=r,=r,=r,r,~{memory}" %qa1 : (i32) -> !llvm.struct<(i32, i32, i32, i32)>
      %q00 = llvm.extractvalue %q0[0] : !llvm.struct<(i32, i32, i32, i32)>
      %q01 = llvm.extractvalue %q0[1] : !llvm.struct<(i32, i32, i32, i32)>
      %q02 = llvm.extractvalue %q0[2] : !llvm.struct<(i32, i32, i32, i32)>
      %q03 = llvm.extractvalue %q0[3] : !llvm.struct<(i32, i32, i32, i32)>
      %q10 = llvm.extractvalue %q1[0] : !llvm.struct<(i32, i32, i32, i32)>
      %q11 = llvm.extractvalue %q1[1] : !llvm.struct<(i32, i32, i32, i32)>
      %q12 = llvm.extractvalue %q1[2] : !llvm.struct<(i32, i32, i32, i32)>
      %q13 = llvm.extractvalue %q1[3] : !llvm.struct<(i32, i32, i32, i32)>
      // group byte j of the 8-byte scale row
      %jw, %jsh = func.call @uq_sm90_scale_byte(%ji) : (i32) -> (i32, i32)
      %sout = scf.for %nt = %i0 to %i2 step %i1 iter_args(%sv = %sa) -> (vector<8xf32>) {
        %isn1 = arith.cmpi eq, %nt, %i1 : index
        %w = arith.select %isn1, %wn1, %wn0 : i32
        %b:2 = func.call @uq_sm90_fp4_e4m3(%w) : (i32) -> (i32, i32)
        %h0, %h1, %h2, %h3 = func.call @uq_sm90_e4m3_f16(%b#0, %b#1) : (i32, i32) -> (i32, i32, i32, i32)
        %mma0 = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$10,$10,$10};", "=f,=f,=f,=f,r,r,r,r,r,r,f" %q00, %q01, %q02, %q03, %h0, %h1, %zero_f : (i32, i32, i32, i32, i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
        %a0 = llvm.extractvalue %mma0[0] : !llvm.struct<(f32, f32, f32, f32)>
        %a1 = llvm.extractvalue %mma0[1] : !llvm.struct<(f32, f32, f32, f32)>
        %a2 = llvm.extractvalue %mma0[2] : !llvm.struct<(f32, f32, f32, f32)>
        %a3 = llvm.extractvalue %mma0[3] : !llvm.struct<(f32, f32, f32, f32)>
        %m0, %m1, %m2, %m3 = func.call @uq_sm90_mma_f16(%q10, %q11, %q12, %q13, %h2, %h3, %a0, %a1, %a2, %a3) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> (f32, f32, f32, f32)
        // scale words: column tokens e = 0, 1 of n-tile nt: ks[(2nt + e) * 2 + jw]
        %ntq4 = arith.muli %nt, %i4 : index
        %jwx = arith.index_cast %jw : i32 to index
        %k0x = arith.addi %ntq4, %jwx : index
        %k1x = arith.addi %k0x, %i2 : index
        %kw0 = vector.extract %ks[%k0x] : i32 from vector<8xi32>
        %kw1 = vector.extract %ks[%k1x] : i32 from vector<8xi32>
        %sc0, %sc1 = func.call @uq_sm90_k_scales(%kw0, %kw1, %jsh) : (i32, i32, i32) -> (f32, f32)
        %mv = vector.from_elements %m0, %m1, %m2, %m3 : vector<4xf32>
        %scv = vector.from_elements %sc0, %sc1, %sc0, %sc1 : vector<4xf32>
        %old = vector.extract_strided_slice %sv {offsets = [0], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
        %oldh = vector.extract_strided_slice %sv {offsets = [4], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
        %cur = arith.select %isn1, %oldh, %old : vector<4xf32>
        %new = math.fma %mv, %scv, %cur : vector<4xf32>
        %lo = arith.select %isn1, %old, %new : vector<4xf32>
        %hi = arith.select %isn1, %new, %oldh : vector<4xf32>
        %r0 = vector.insert_strided_slice %lo, %sv {offsets = [0], strides = [1]} : vector<4xf32> into vector<8xf32>
        %r1 = vector.insert_strided_slice %hi, %r0 {offsets = [4], strides = [1]} : vector<4xf32> into vector<8xf32>
        scf.yield %r1 : vector<8xf32>
      }
      scf.yield %sout : vector<8xf32>
    }
    scf.yield %sacc2 : vector<8xf32>
  }
  return %S : vector<8xf32>
}

// One m16n8k16 C fragment's 4 scores in base-2 units (x mult), -inf
// outside their rows' positions (@uq_sm90_mask_one): element e is token
// tok + tstep (e >> 1) + toff + odd (e & 1), of the row whose positions
// end at lim_b when e & rowbit, else at lim_a. QG 16 (@uq_sm90_mask, one
// n-tile nt): tok = tb + 8 nt, toff = 2t, tstep = 0, odd = 1, rowbit = 2
// (rows g, g + 8); QG <= 8 (@uq_sm90_mask_t): tok = tb + g, toff = 0,
// tstep = 8, odd = 0, rowbit = 1 (query rows 2t, 2t + 1). Inlined before
// the loop unrolls (uq.inline), so the layout's terms fold away.
func.func private @uq_sm90_mask_frag(%S: vector<4xf32>, %tok: i32, %toff: i32, %tstep: i32, %odd: i32, %rowbit: i32, %lim_a: i32, %lim_b: i32, %sliding_window: i32, %mult: f32) -> vector<4xf32> attributes {uq.inline} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i4 = arith.constant 4 : index
  %x4m = scf.for %e = %i0 to %i4 step %i1 iter_args(%xv = %S) -> (vector<4xf32>) {
    %ei = arith.index_cast %e : index to i32
    %eh = arith.shrui %ei, %c1 : i32
    %ehs = arith.muli %eh, %tstep : i32
    %ea = arith.andi %ei, %c1 : i32
    %ec = arith.muli %ea, %odd : i32
    %tk0 = arith.addi %tok, %ehs : i32
    %tk1 = arith.addi %tk0, %toff : i32
    %tk = arith.addi %tk1, %ec : i32
    %er0 = arith.andi %ei, %rowbit : i32
    %er = arith.cmpi ne, %er0, %c0 : i32
    %lim = arith.select %er, %lim_b, %lim_a : i32
    %x = vector.extract %xv[%e] : f32 from vector<4xf32>
    %xm = func.call @uq_sm90_mask_one(%x, %tk, %lim, %sliding_window, %mult) : (f32, i32, i32, i32, f32) -> f32
    %xo = vector.insert %xm, %xv[%e] : f32 into vector<4xf32>
    scf.yield %xo : vector<4xf32>
  }
  return %x4m : vector<4xf32>
}

// Scores in base-2 units (x mult) with the positions a row does not
// attend at -inf: row g's end at %lim_g, row g + 8's at %lim_h (>=
// lim_g: a later token or the same), each from its window's start
// (@window_start).
func.func private @uq_sm90_mask(%S: vector<8xf32>, %tb: i32, %t2: i32, %lim_g: i32, %lim_h: i32, %sliding_window: i32, %mult: f32) -> vector<8xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c8 = arith.constant 8 : i32
  // ---- online softmax in base 2 over this tile (rows g and g + 8).
  // Element 4nt + e: row g (e = 0, 1) or g + 8 (e = 2, 3), token
  // tb + 8nt + 2t + (e & 1).
  %inside = func.call @uq_sm90_tile_inside(%tb, %lim_g, %lim_h, %sliding_window) : (i32, i32, i32, i32) -> i1
  %x8 = scf.if %inside -> (vector<8xf32>) {
    %mv = vector.broadcast %mult : f32 to vector<8xf32>
    %xs = arith.mulf %S, %mv : vector<8xf32>
    scf.yield %xs : vector<8xf32>
  } else {
    // each n-tile nt's fragment (@uq_sm90_mask_frag), its tokens from tb + 8nt
    %s0 = vector.extract_strided_slice %S {offsets = [0], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
    %s1 = vector.extract_strided_slice %S {offsets = [4], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
    %tb8 = arith.addi %tb, %c8 : i32
    %m0 = func.call @uq_sm90_mask_frag(%s0, %tb, %t2, %c0, %c1, %c2, %lim_g, %lim_h, %sliding_window, %mult) : (vector<4xf32>, i32, i32, i32, i32, i32, i32, i32, i32, f32) -> vector<4xf32>
    %m1 = func.call @uq_sm90_mask_frag(%s1, %tb8, %t2, %c0, %c1, %c2, %lim_g, %lim_h, %sliding_window, %mult) : (vector<4xf32>, i32, i32, i32, i32, i32, i32, i32, i32, f32) -> vector<4xf32>
    %r0 = vector.insert_strided_slice %m0, %S {offsets = [0], strides = [1]} : vector<4xf32> into vector<8xf32>
    %r1 = vector.insert_strided_slice %m1, %r0 {offsets = [4], strides = [1]} : vector<4xf32> into vector<8xf32>
    scf.yield %r1 : vector<8xf32>
  }
  return %x8 : vector<8xf32>
}

// Whether both rows of the lane attend every token of the tile at %tb,
// the first ending at %lim_a, the second at %lim_b >= lim_a: then the
// masks are a multiply (uniform across the warp but for a block's
// boundary tiles).
func.func private @uq_sm90_tile_inside(%tb: i32, %lim_a: i32, %lim_b: i32, %sliding_window: i32) -> i1 {
  %c16 = arith.constant 16 : i32
  %ws = func.call @window_start(%lim_b, %sliding_window) : (i32, i32) -> i32
  %te = arith.addi %tb, %c16 : i32
  %lo = arith.cmpi sge, %tb, %ws : i32
  %hi = arith.cmpi sle, %te, %lim_a : i32
  %in = arith.andi %lo, %hi : i1
  return %in : i1
}

// @uq_sm90_mask for @uq_sm90_qk_t's layout: element e is token
// tb + g + 8 (e >> 1) of row 2t + (e & 1), whose positions end at
// %lim_a (row 2t) or %lim_b (2t + 1).
func.func private @uq_sm90_mask_t(%S: vector<4xf32>, %tb: i32, %g: i32, %lim_a: i32, %lim_b: i32, %sliding_window: i32, %mult: f32) -> vector<4xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %tg = arith.addi %tb, %g : i32
  %inside = func.call @uq_sm90_tile_inside(%tb, %lim_a, %lim_b, %sliding_window) : (i32, i32, i32, i32) -> i1
  %x4 = scf.if %inside -> (vector<4xf32>) {
    %mv = vector.broadcast %mult : f32 to vector<4xf32>
    %xs = arith.mulf %S, %mv : vector<4xf32>
    scf.yield %xs : vector<4xf32>
  } else {
    %x4m = func.call @uq_sm90_mask_frag(%S, %tg, %c0, %c8, %c0, %c1, %lim_a, %lim_b, %sliding_window, %mult) : (vector<4xf32>, i32, i32, i32, i32, i32, i32, i32, i32, f32) -> vector<4xf32>
    scf.yield %x4m : vector<4xf32>
  }
  return %x4 : vector<4xf32>
}

// Score %x of token %tk in base-2 units (x mult), -inf outside the
// row's positions, which end at %lim (@window_start).
func.func private @uq_sm90_mask_one(%x: f32, %tk: i32, %lim: i32, %sliding_window: i32, %mult: f32) -> f32 {
  %ninf = arith.constant 0xFF800000 : f32
  %ws = func.call @window_start(%lim, %sliding_window) : (i32, i32) -> i32
  %ok0 = arith.cmpi sge, %tk, %ws : i32
  %ok1 = arith.cmpi slt, %tk, %lim : i32
  %ok = arith.andi %ok0, %ok1 : i1
  %xs = arith.mulf %x, %mult : f32
  %xm = arith.select %ok, %xs, %ninf : f32
  return %xm : f32
}

// Q^T's B fragments for @uq_sm90_qk_t, loaded once before the tile
// loop: per group j of a half (@uq_sm90_half_dims / 32 of them, so at
// most 32 registers) the ldmatrix.x4 at %qaddr + 64 j, both k-steps' b0,
// b1 at 4 j .. 4 j + 3 (the second half of D = 512: %qaddr + 512). Kept
// in registers, they spare each tile D/32 shared-memory reads.
func.func private @uq_sm90_q_frags(%qaddr: i32) -> vector<32xi32> {
  %c64 = arith.constant 64 : i32
  %zero32 = arith.constant dense<0> : vector<32xi32>
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %i4 = arith.constant 4 : index
  %i32 = arith.constant 32 : index
  %hh = func.call @uq_sm90_half_dims() : () -> index
  %ng = arith.divui %hh, %i32 : index
  %qf = scf.for %j = %i0 to %ng step %i1 iter_args(%v = %zero32) -> (vector<32xi32>) {
    %ji = arith.index_cast %j : index to i32
    %qo = arith.muli %ji, %c64 : i32
    %qa = arith.addi %qaddr, %qo : i32
    %q = llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0,$1,$2,$3}, [$4];", "=r,=r,=r,=r,r,~{memory}" %qa : (i32) -> !llvm.struct<(i32, i32, i32, i32)>
    %j4 = arith.muli %j, %i4 : index
    %j41 = arith.addi %j4, %i1 : index
    %j42 = arith.addi %j4, %i2 : index
    %j43 = arith.addi %j42, %i1 : index
    %q0 = llvm.extractvalue %q[0] : !llvm.struct<(i32, i32, i32, i32)>
    %q1 = llvm.extractvalue %q[1] : !llvm.struct<(i32, i32, i32, i32)>
    %q2 = llvm.extractvalue %q[2] : !llvm.struct<(i32, i32, i32, i32)>
    %q3 = llvm.extractvalue %q[3] : !llvm.struct<(i32, i32, i32, i32)>
    %v0 = vector.insert %q0, %v[%j4] : i32 into vector<32xi32>
    %v1 = vector.insert %q1, %v0[%j41] : i32 into vector<32xi32>
    %v2 = vector.insert %q2, %v1[%j42] : i32 into vector<32xi32>
    %v3 = vector.insert %q3, %v2[%j43] : i32 into vector<32xi32>
    scf.yield %v3 : vector<32xi32>
  }
  return %qf : vector<32xi32>
}

// S^T = K Q^T of one tile for QG <= 8 (the groups of one half,
// @uq_sm90_half_dims / 32; the second half of D = 512 from %lbase +
// 128, its scale words 8 bytes on), on mma.sync
// m16n8k16 f16 with K as the A operand (16 tokens) and Q^T as B (the 8
// query rows): one MMA per k-step, where @uq_sm90_qk spends two on 16
// rows of which 8 are real. Same k order and Q layout as @uq_sm90_qk:
// B is rows 0..7 of Q's shared copy, in registers (%qf,
// @uq_sm90_q_frags). Element e: token g + 8 (e >> 1), query row
// 2t + (e & 1). %ks: K scale words of tokens g, g + 8 (2 each).
func.func private @uq_sm90_qk_t(%lbase: i32, %qf: vector<32xi32>, %ks: vector<4xi32>) -> vector<4xf32> {
  %zero4 = arith.constant dense<0.0> : vector<4xf32>
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %i4 = arith.constant 4 : index
  %njp, %npair = func.call @uq_sm90_pair_groups() : () -> (index, index)
  %S = scf.for %jp = %i0 to %njp step %i1 iter_args(%sacc = %zero4) -> (vector<4xf32>) {
    %kf0, %kf1, %kf2, %kf3 = func.call @uq_sm90_k_pair(%lbase, %jp) : (i32, index) -> (i32, i32, i32, i32)
    %sacc2 = scf.for %jj = %i0 to %npair step %i1 iter_args(%sa = %sacc) -> (vector<4xf32>) {
      // code words of tokens g and g + 8 in group j
      %j, %ji, %wg, %wh = func.call @uq_sm90_k_group(%kf0, %kf1, %kf2, %kf3, %jp, %jj) : (i32, i32, i32, i32, index, index) -> (index, i32, i32, i32)
      %eg:2 = func.call @uq_sm90_fp4_e4m3(%wg) : (i32) -> (i32, i32)
      %eh:2 = func.call @uq_sm90_fp4_e4m3(%wh) : (i32) -> (i32, i32)
      %j4 = arith.muli %j, %i4 : index
      %j41 = arith.addi %j4, %i1 : index
      %j42 = arith.addi %j4, %i2 : index
      %j43 = arith.addi %j42, %i1 : index
      %q0 = vector.extract %qf[%j4] : i32 from vector<32xi32>
      %q1 = vector.extract %qf[%j41] : i32 from vector<32xi32>
      %q2 = vector.extract %qf[%j42] : i32 from vector<32xi32>
      %q3 = vector.extract %qf[%j43] : i32 from vector<32xi32>
      // k-step 0 from the even codes, 1 from the odd ones
      %m = scf.for %st = %i0 to %i2 step %i1 iter_args(%mv = %zero4) -> (vector<4xf32>) {
        %odd = arith.cmpi eq, %st, %i1 : index
        %bg = arith.select %odd, %eg#1, %eg#0 : i32
        %bh = arith.select %odd, %eh#1, %eh#0 : i32
        %b0 = arith.select %odd, %q2, %q0 : i32
        %b1 = arith.select %odd, %q3, %q1 : i32
        %a0, %a2, %a1, %a3 = func.call @uq_sm90_e4m3_f16(%bg, %bh) : (i32, i32) -> (i32, i32, i32, i32)
        %c0v = vector.extract %mv[0] : f32 from vector<4xf32>
        %c1v = vector.extract %mv[1] : f32 from vector<4xf32>
        %c2v = vector.extract %mv[2] : f32 from vector<4xf32>
        %c3v = vector.extract %mv[3] : f32 from vector<4xf32>
        %d0, %d1, %d2, %d3 = func.call @uq_sm90_mma_f16(%a0, %a1, %a2, %a3, %b0, %b1, %c0v, %c1v, %c2v, %c3v) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> (f32, f32, f32, f32)
        %r = vector.from_elements %d0, %d1, %d2, %d3 : vector<4xf32>
        scf.yield %r : vector<4xf32>
      }
      // group byte j of each token's scale row
      %jw, %jsh = func.call @uq_sm90_scale_byte(%ji) : (i32) -> (i32, i32)
      %jwx = arith.index_cast %jw : i32 to index
      %jwh = arith.addi %jwx, %i2 : index
      %kw0 = vector.extract %ks[%jwx] : i32 from vector<4xi32>
      %kw1 = vector.extract %ks[%jwh] : i32 from vector<4xi32>
      %sc0, %sc1 = func.call @uq_sm90_k_scales(%kw0, %kw1, %jsh) : (i32, i32, i32) -> (f32, f32)
      %scv = vector.from_elements %sc0, %sc0, %sc1, %sc1 : vector<4xf32>
      %new = math.fma %m, %scv, %sa : vector<4xf32>
      scf.yield %new : vector<4xf32>
    }
    scf.yield %sacc2 : vector<4xf32>
  }
  return %S : vector<4xf32>
}

// bf16x2 V scales of group %ji from the scale words of tokens 2t, 2t + 1,
// 2t + 8, 2t + 9 that hold it: (2t, 2t + 1) and (2t + 8, 2t + 9);
// bf16 2^(e - 127) = e << 7 (e = 0 gives +0: its codes are +0 too).
// They multiply P, which the softmax computes times 2^64: together they
// carry 64 of the 2^126 that @uq_sm90_fp4_bf16x2's codes lack, the f32
// accumulators hold O 2^-62, and the final normalization divides by the
// sum (2^64 too) times 2^-126 (@uq_sm90_weight_base). Exact while 2^-64 <=
// 2^(e - 127) < 2^56: P (<= 2^72, @uq_sm90_lazy_max) times the scale
// stays under bf16's 2^128 and the products over f32's 2^-126. (V
// values of 2^-64 or 2^56 are far outside any model's activations.)
// One byte permute gathers a pair's two scale bytes (byte j & 3 of each
// word) into bytes 0 and 2, then a shift and a mask.
func.func private @uq_sm90_v_scales(%sw0: i32, %sw1: i32, %sw2: i32, %sw3: i32, %ji: i32) -> (i32, i32) {
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %m7f80 = arith.constant 0x7F807F80 : i32
  %jb = arith.andi %ji, %c3 : i32
  %jb4 = arith.addi %jb, %c4 : i32
  %sel1 = arith.shli %jb4, %c8 : i32
  %sel = arith.ori %jb, %sel1 : i32
  %p01 = nvvm.prmt #nvvm.permute_mode<default> %sel, %sw0, %sw1 : i32
  %p89 = nvvm.prmt #nvvm.permute_mode<default> %sel, %sw2, %sw3 : i32
  %q01 = arith.shli %p01, %c7 : i32
  %q89 = arith.shli %p89, %c7 : i32
  %s01 = arith.andi %q01, %m7f80 : i32
  %s89 = arith.andi %q89, %m7f80 : i32
  return %s01, %s89 : i32, i32
}

// A query row's Walsh-Hadamard butterflies over its R = 2^%lsh_ix lanes
// (E = %qe elements a lane, lane %qchunk of the row holding head dims
// E qchunk .. + E - 1): strides 1 .. E / 2 in registers, then E, 2 E, ..
// R E / 2 across the row's lanes (the host reference's order: strides
// ascending, the lower index gets a + b, the upper a - b). Unscaled.
// Inlined before the loops unroll (uq.inline): E and R are the callers'
// constants.
func.func private @uq_sm90_wht_lanes(%qv0: vector<32xf32>, %qe: index, %qchunk: i32,
                                     %lsh_ix: index) -> vector<32xf32> attributes {uq.inline} {
  %c0 = arith.constant 0 : i32
  %i5 = arith.constant 5 : index
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %one_f = arith.constant 1.0 : f32
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  // strides 1, 2, .. E / 2 in registers (E / 2 pairs each)
  %qe2 = arith.divui %qe, %i2 : index
  %qv1 = scf.for %st = %i0 to %i5 step %i1 iter_args(%v = %qv0) -> (vector<32xf32>) {
    %h = arith.shli %i1, %st : index
    %hin = arith.cmpi ult, %h, %qe : index
    %vh = scf.if %hin -> (vector<32xf32>) {
    %vo = scf.for %b = %i0 to %qe2 step %i1 iter_args(%w = %v) -> (vector<32xf32>) {
      // b-th pair: lower index (b / h) * 2h + b % h
      %bq = arith.divui %b, %h : index
      %br = arith.remui %b, %h : index
      %h2 = arith.muli %h, %i2 : index
      %lo0 = arith.muli %bq, %h2 : index
      %lo = arith.addi %lo0, %br : index
      %up = arith.addi %lo, %h : index
      %a = vector.extract %w[%lo] : f32 from vector<32xf32>
      %c = vector.extract %w[%up] : f32 from vector<32xf32>
      %s = arith.addf %a, %c : f32
      %dd = arith.subf %a, %c : f32
      %w1 = vector.insert %s, %w[%lo] : f32 into vector<32xf32>
      %w2 = vector.insert %dd, %w1[%up] : f32 into vector<32xf32>
      scf.yield %w2 : vector<32xf32>
    }
    scf.yield %vo : vector<32xf32>
    } else {
      scf.yield %v : vector<32xf32>
    }
    scf.yield %vh : vector<32xf32>
  }
  // strides E, .. R E / 2: the partner lane L ^ m holds the other element;
  // the lower lane keeps a + b = partner + mine, the upper a - b =
  // partner - mine: one fma by +-1 (the product is exact, so one
  // rounding, as the add or subtract).
  %neg_one = arith.constant -1.0 : f32
  %qv2 = scf.for %st = %i0 to %lsh_ix step %i1 iter_args(%v = %qv1) -> (vector<32xf32>) {
    %sti = arith.index_cast %st : index to i32
    %m = arith.shli %c1, %sti : i32
    %mine_hi0 = arith.andi %qchunk, %m : i32
    %mine_hi = arith.cmpi ne, %mine_hi0, %c0 : i32
    %sgn = arith.select %mine_hi, %neg_one, %one_f : f32
    %vo = scf.for %x = %i0 to %qe step %i1 iter_args(%w = %v) -> (vector<32xf32>) {
      %a = vector.extract %w[%x] : f32 from vector<32xf32>
      %o, %ok = gpu.shuffle xor %a, %m, %c32 : f32
      %r = math.fma %sgn, %a, %o : f32
      %w1 = vector.insert %r, %w[%x] : f32 into vector<32xf32>
      scf.yield %w1 : vector<32xf32>
    }
    scf.yield %vo : vector<32xf32>
  }
  return %qv2 : vector<32xf32>
}

// The query rotation's factor 1/sqrt(D) as sqrt(1/D): uq_wht_scale's
// f32 bit for bit (as in @uq_store), a constant once specialized. Both
// sm_90a kernels' query steps; inlined (uq.inline).
func.func private @uq_sm90_wht_scale(%hd_i: i32) -> f32 attributes {uq.inline} {
  %one_f = arith.constant 1.0 : f32
  %hd_f = arith.uitofp %hd_i : i32 to f32
  %inv_hd = arith.divf %one_f, %hd_f : f32
  %wht_scale = math.sqrt %inv_hd : f32
  return %wht_scale : f32
}

// Two rotated query elements %a, %b times %scale (@uq_sm90_wht_scale),
// rounded to E4M3 (saturating) and back to an f16 pair (a low, b high),
// the values the QK multiplies. x + (x - x): +-inf -> NaN, so an infinite
// query element gives a non-finite head (satfinite would clamp it to
// +-448), as on gfx950. Both sm_90a kernels' query steps; inlined
// (uq.inline).
func.func private @uq_sm90_query_e4m3(%a: f32, %b: f32, %scale: f32) -> i32 attributes {uq.inline} {
  %s0f = arith.mulf %a, %scale : f32
  %s1f = arith.mulf %b, %scale : f32
  %z0 = arith.subf %s0f, %s0f : f32
  %z1 = arith.subf %s1f, %s1f : f32
  %s0 = arith.addf %s0f, %z0 : f32
  %s1 = arith.addf %s1f, %z1 : f32
  %pk = llvm.inline_asm asm_dialect = att "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,f,f" %s1, %s0 : (f32, f32) -> i16
  %hv = llvm.inline_asm asm_dialect = att "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %pk : (i16) -> i32
  return %hv : i32
}

// ---- Q: lane L of warp w rotates the row it loaded (zero past QG),
// head dims E (L % R) .. + E - 1 in registers, E = D / R:
// Walsh-Hadamard butterflies of strides 1 .. E / 2 in registers, E,
// 2 E, .. R E / 2 across the row's R lanes (the host reference's order:
// strides ascending, the lower index gets a + b, the upper a - b),
// x 1/sqrt(D), E4M3 with saturation, then f16 into shared memory at
// the k order of the QK fragments (see uq_sm90_qk). Its elements are
// the bf16 loaded at the start, as f32, zero past QG.
// %qraw: the lane's E = %qe elements (bf16 bits), %q_in: its row is live,
// %qchunk = L % R, %lsh_ix = log2 R; the image goes to shared memory from
// %q16_off (rows of %qrow_bytes; the lane's row %qrow_r, its first element
// %qd0). Inlined before the loops unroll (uq.inline): E and R are the
// caller's constants.
func.func private @uq_sm90_rotate_query(%qraw: vector<32xi16>, %q_in: i1, %qe: index,
                                        %qchunk: i32, %lsh_ix: index, %hd_i: i32,
                                        %smem: !llvm.ptr<3>, %q16_off: i32, %qrow_bytes: i32,
                                        %qrow_r: i32, %qd0: i32, %f16: i1) attributes {uq.inline} {
  %c0 = arith.constant 0 : i32
  %i5 = arith.constant 5 : index
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c16 = arith.constant 16 : i32
  %c32 = arith.constant 32 : i32
  %zero_f = arith.constant 0.0 : f32
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %zero32f = arith.constant dense<0.0> : vector<32xf32>
  %qv0 = scf.for %x = %i0 to %qe step %i1 iter_args(%v = %zero32f) -> (vector<32xf32>) {
    %qb = vector.extract %qraw[%x] : i16 from vector<32xi16>
    %qf = func.call @act_widen(%qb, %f16) : (i16, i1) -> f32
    %qz = arith.select %q_in, %qf, %zero_f : f32
    %v1 = vector.insert %qz, %v[%x] : f32 into vector<32xf32>
    scf.yield %v1 : vector<32xf32>
  }
  %qv2 = func.call @uq_sm90_wht_lanes(%qv0, %qe, %qchunk, %lsh_ix) : (vector<32xf32>, index, i32, index) -> vector<32xf32>
  %qe2 = arith.divui %qe, %i2 : index
  // x 1/sqrt(D), E4M3 (saturating) and back to f16, at the permuted
  // position (d & ~31) | (d & 1) << 4 | ((d >> 2) & 1) << 3 |
  // ((d >> 3) & 3) << 1 | ((d >> 1) & 1), d = E chunk + x: a permutation
  // of bits, so the lane's base E chunk (a multiple of E, a power of
  // two: its bits and x's do not meet) and x permute apart; rows of
  // 2 D + 16 B after the stages. 1/sqrt(D) as sqrt(1/D):
  // uq_wht_scale's f32 bit for bit (as in @uq_store), folded to a
  // constant once specialized.
  %wht_scale = func.call @uq_sm90_wht_scale(%hd_i) : (i32) -> f32
  %qrow_b = arith.muli %qrow_r, %qrow_bytes : i32
  %qrow_b2 = arith.addi %qrow_b, %q16_off : i32
  %c31_q = arith.constant 31 : i32
  %cm32_q = arith.constant -32 : i32
  %qd_lo = arith.andi %qd0, %c31_q : i32
  %qd_hi = arith.andi %qd0, %cm32_q : i32
  %qd_p0 = arith.shrui %qd_lo, %c2 : i32
  %qd_p1 = arith.andi %qd_p0, %c1 : i32
  %qd_p2 = arith.shli %qd_p1, %c3 : i32
  %qd_p3 = arith.shrui %qd_lo, %c3 : i32
  %qd_p4 = arith.andi %qd_p3, %c3 : i32
  %qd_p5 = arith.shli %qd_p4, %c1 : i32
  %qd_p6 = arith.ori %qd_p2, %qd_p5 : i32
  // (bit 1 is the lane's own only where E = 2: D = 32 at QG <= 8)
  %qd_p7 = arith.shrui %qd_lo, %c1 : i32
  %qd_p8 = arith.andi %qd_p7, %c1 : i32
  %qd_p9 = arith.ori %qd_p6, %qd_p8 : i32
  %qd_pos = arith.ori %qd_hi, %qd_p9 : i32
  %qd0b = arith.muli %qd_pos, %c2 : i32
  %qrow_b3 = arith.addi %qrow_b2, %qd0b : i32
  scf.for %x2 = %i0 to %qe2 step %i1 {
    %x = arith.muli %x2, %i2 : index
    %x1 = arith.addi %x, %i1 : index
    %a = vector.extract %qv2[%x] : f32 from vector<32xf32>
    %b = vector.extract %qv2[%x1] : f32 from vector<32xf32>
    %hv = func.call @uq_sm90_query_e4m3(%a, %b, %wht_scale) : (f32, f32, f32) -> i32
    %hlo = arith.trunci %hv : i32 to i16
    %hhi0 = arith.shrui %hv, %c16 : i32
    %hhi = arith.trunci %hhi0 : i32 to i16
    // x even: position within the 32-group = ((x >> 2) & 1) << 3 |
    // ((x >> 3) & 3) << 1 | ((x >> 1) & 1); x + 1 is 16 further
    %xi = arith.index_cast %x : index to i32
    %p0 = arith.shrui %xi, %c2 : i32
    %p1 = arith.andi %p0, %c1 : i32
    %p2 = arith.shli %p1, %c3 : i32
    %p3 = arith.shrui %xi, %c3 : i32
    %p4 = arith.andi %p3, %c3 : i32
    %p5 = arith.shli %p4, %c1 : i32
    %p6 = arith.shrui %xi, %c1 : i32
    %p7 = arith.andi %p6, %c1 : i32
    %p8 = arith.ori %p2, %p5 : i32
    %pos = arith.ori %p8, %p7 : i32
    %pb = arith.muli %pos, %c2 : i32
    %a0x = arith.addi %qrow_b3, %pb : i32
    %a1x = arith.addi %a0x, %c32 : i32
    %pq0 = llvm.getelementptr %smem[%a0x] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    %pq1 = llvm.getelementptr %smem[%a1x] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    llvm.store %hlo, %pq0 {alignment = 2 : i64} : i16, !llvm.ptr<3>
    llvm.store %hhi, %pq1 {alignment = 2 : i64} : i16, !llvm.ptr<3>
  }
  return
}

// ---- The partials of the decode's block (after the tile walk and the
// warps' merge, @uq_decode_sm90): each row's bf16(O / L), its maximum in
// natural units and L, from the 4 warps' accumulators, maxima and sums in
// shared memory (@uq_sm90_merge_layout: warp w's rows x D floats from
// float w %accw, maxima and sums from float %mbase). Into the workspace
// ([token][kv head][partition][head in the group], @uq_sm90_partial_row),
// or, when the launch made the P partitions one cluster (%merge), into this
// CTA's shared memory from byte %pbase (rows x D bf16, then (max, L) per
// row from %pml) for @uq_sm90_cluster_merge. Inlined before the loops
// unroll (uq.inline), as when it was written in the kernel.
func.func private @uq_sm90_store_partials(%segm_out: !llvm.ptr<1>, %segm_max: !llvm.ptr<1>, %segm_sum: !llvm.ptr<1>,
                                          %smem: !llvm.ptr<3>, %merge: i1, %tid: i32, %live_rows: i32,
                                          %accw: i32, %mbase: i32, %pbase: i32, %pml: i32,
                                          %qtok: i32, %qgi: i32, %num_kv_heads: i32, %kvh: i32,
                                          %num_partitions: i32, %part: i32) attributes {uq.inline} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant 64 : i32
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i4 = arith.constant 4 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero_f = arith.constant 0.0 : f32
  %one_f = arith.constant 1.0 : f32
  %ln2 = arith.constant 0.693147180559945309 : f32
  %hd = "uq.param"() {name = "d"} : () -> index
  %hd_i = arith.index_cast %hd : index to i32
  // 16 rows x D elements, 4 consecutive ones per thread, 512 per pass;
  // a row's merge weights are worked out once per pass, not per element.
  %i32_o = arith.constant 32 : index
  %c512 = arith.constant 512 : i32
  %nout = arith.divui %hd, %i32_o : index
  %hd_m = arith.subi %hd_i, %c1 : i32
  %tid4 = arith.muli %tid, %c4 : i32
  %hd64 = arith.extui %hd_i : i32 to i64
  scf.for %ii = %i0 to %nout step %i1 {
    %iii = arith.index_cast %ii : index to i32
    %x0 = arith.muli %iii, %c512 : i32
    %e = arith.addi %tid4, %x0 : i32
    %r = arith.divui %e, %hd_i : i32
    %d = arith.andi %e, %hd_m : i32
    %in = arith.cmpi ult, %r, %live_rows : i32
    scf.if %in {
      %ma = arith.addi %r, %mbase : i32
      %M = scf.for %w = %i0 to %i4 step %i1 iter_args(%mm = %ninf) -> (f32) {
        %wi = arith.index_cast %w : index to i32
        %wo = arith.muli %wi, %c16 : i32
        %a = arith.addi %wo, %ma : i32
        %pm = llvm.getelementptr %smem[%a] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        %mv = llvm.load %pm {alignment = 4 : i64} : !llvm.ptr<3> -> f32
        %mx = arith.maximumf %mm, %mv : f32
        scf.yield %mx : f32
      }
      %empty = arith.cmpf oeq, %M, %ninf : f32
      %Mb = arith.select %empty, %zero_f, %M : f32
      %ra = arith.muli %r, %hd_i : i32
      %rd = arith.addi %ra, %d : i32
      %zero4f = arith.constant dense<0.0> : vector<4xf32>
      %sums:2 = scf.for %w = %i0 to %i4 step %i1 iter_args(%num = %zero4f, %den = %zero_f) -> (vector<4xf32>, f32) {
        %wi = arith.index_cast %w : index to i32
        %wo = arith.muli %wi, %c16 : i32
        %a = arith.addi %wo, %ma : i32
        %al = arith.addi %a, %c64 : i32
        %pm = llvm.getelementptr %smem[%a] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        %pl = llvm.getelementptr %smem[%al] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        %mv = llvm.load %pm {alignment = 4 : i64} : !llvm.ptr<3> -> f32
        %lv = llvm.load %pl {alignment = 4 : i64} : !llvm.ptr<3> -> f32
        %wa = arith.muli %wi, %accw : i32
        %oa = arith.addi %wa, %rd : i32
        %po = llvm.getelementptr %smem[%oa] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        %ov = llvm.load %po {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
        %dm = arith.subf %mv, %Mb : f32
        %wt = func.call @uq_sm90_exp2(%dm) : (f32) -> f32
        %wtv = vector.broadcast %wt : f32 to vector<4xf32>
        %nacc1 = math.fma %wtv, %ov, %num : vector<4xf32>
        %d1 = math.fma %wt, %lv, %den : f32
        scf.yield %nacc1, %d1 : vector<4xf32>, f32
      }
      %pos = arith.cmpf ogt, %sums#1, %zero_f : f32
      %den1 = arith.select %pos, %sums#1, %one_f : f32
      // the accumulators hold O 2^-62 and the sums L 2^64
      // (@uq_sm90_v_scales, @uq_sm90_weight_base): O / L = acc / sum x
      // 2^126; L itself leaves as sum x 2^-64
      %two126 = arith.constant 0x7E800000 : f32
      %rden = func.call @uq_sm90_rcp(%den1) : (f32) -> f32
      %inv = arith.mulf %two126, %rden : f32
      %unbias = arith.constant 0x1F800000 : f32
      %lsum = arith.mulf %sums#1, %unbias : f32
      %invv = vector.broadcast %inv : f32 to vector<4xf32>
      %o = arith.mulf %sums#0, %invv : vector<4xf32>
      %ob = arith.truncf %o : vector<4xf32> to vector<4xbf16>
      %orow = func.call @uq_sm90_partial_row(%qtok, %r, %qgi, %num_kv_heads, %kvh, %num_partitions, %part) : (i32, i32, i32, i32, i32, i32, i32) -> i32
      %orow64 = arith.extui %orow : i32 to i64
      %oe0 = arith.muli %orow64, %hd64 : i64
      %d64 = arith.extui %d : i32 to i64
      %oe = arith.addi %oe0, %d64 : i64
      %d0 = arith.cmpi eq, %d, %c0 : i32
      %mnat = arith.mulf %M, %ln2 : f32
      scf.if %merge {
        %so0 = arith.muli %rd, %c2 : i32
        %so = arith.addi %pbase, %so0 : i32
        %sp = llvm.getelementptr %smem[%so] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        llvm.store %ob, %sp {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<3>
        scf.if %d0 {
          %r8 = arith.muli %r, %c8 : i32
          %mo = arith.addi %pml, %r8 : i32
          %mp = llvm.getelementptr %smem[%mo] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %ml = vector.from_elements %mnat, %lsum : vector<2xf32>
          llvm.store %ml, %mp {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
        }
      } else {
        %op = llvm.getelementptr %segm_out[%oe] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
        llvm.store %ob, %op {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
        scf.if %d0 {
          %pmx = llvm.getelementptr %segm_max[%orow64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
          %psm = llvm.getelementptr %segm_sum[%orow64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
          llvm.store %mnat, %pmx {alignment = 4 : i64} : f32, !llvm.ptr<1>
          llvm.store %lsum, %psm {alignment = 4 : i64} : f32, !llvm.ptr<1>
        }
      }
    }
  }
  return
}

// ---- The cluster's merge of the decode (@uq_decode_sm90), when its P
// CTAs ran as one cluster: @uq_reduce's arithmetic, the reference's order
// (M = max(sink, max_p m_p), w_p = e^(m_p - M) l_p over the partitions
// with l_p != 0, the sink's weight first in the denominator). After a
// cluster barrier (release / acquire: every CTA's partials are written,
// @uq_sm90_store_partials) the cluster's 128 P threads take 4 head dims of
// a row each in turn, read the P partials from the CTAs' shared memory
// (mapa + ld.shared::cluster, from byte %pbase and %pml of each) and write
// the output, branching over the partition slots past P (8 - P of them do
// no loads and no arithmetic); a second barrier keeps every CTA's shared
// memory alive until all have read it. Inlined (uq.inline), as when it
// was written in the kernel.
func.func private @uq_sm90_cluster_merge(%output: !llvm.ptr<1>, %sinks: !llvm.ptr<1>,
                                         %out_stride_seq: i32, %out_stride_head: i32,
                                         %smem_i: i32, %pbase: i32, %pml: i32, %tid: i32,
                                         %live_rows: i32, %qtok: i32, %qgi: i32, %kvh: i32,
                                         %num_partitions: i32, %f16: i1) attributes {uq.inline} {
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %c128 = arith.constant 128 : i32
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i4 = arith.constant 4 : index
  %i8 = arith.constant 8 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero_f = arith.constant 0.0 : f32
  %one_f = arith.constant 1.0 : f32
  %log2e = arith.constant 1.44269504088896340736 : f32
  %hd = "uq.param"() {name = "d"} : () -> index
  %hd_i = arith.index_cast %hd : index to i32
    llvm.inline_asm has_side_effects asm_dialect = att "barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;", "~{memory}" : () -> ()
    %rank = llvm.inline_asm asm_dialect = att "mov.u32 $0, %cluster_ctarank;", "=r" : () -> i32
    %gi0 = arith.muli %rank, %c128 : i32
    %gi = arith.addi %gi0, %tid : i32
    %quads_row = arith.shrui %hd_i, %c2 : i32
    %nq = arith.muli %live_rows, %quads_row : i32
    %qstep = arith.muli %num_partitions, %c128 : i32
    %gi_ix = arith.index_cast %gi : i32 to index
    %nq_ix = arith.index_cast %nq : i32 to index
    %qstep_ix = arith.index_cast %qstep : i32 to index
    %null_s = llvm.mlir.zero : !llvm.ptr<1>
    %has_sink = llvm.icmp "ne" %sinks, %null_s : !llvm.ptr<1>
    %oss64 = arith.extui %out_stride_seq : i32 to i64
    %osh64 = arith.extui %out_stride_head : i32 to i64
    %out_i = llvm.ptrtoint %output : !llvm.ptr<1> to i64
    %c3_64 = arith.constant 3 : i64
    %c7_64 = arith.constant 7 : i64
    %zero_64 = arith.constant 0 : i64
    %al0 = arith.ori %oss64, %osh64 : i64
    %al1 = arith.andi %al0, %c3_64 : i64
    %al2 = arith.andi %out_i, %c7_64 : i64
    %al3 = arith.ori %al1, %al2 : i64
    %wide = arith.cmpi eq, %al3, %zero_64 : i64
    %hq_r0 = arith.muli %kvh, %qgi : i32
    %zero4m = arith.constant dense<0.0> : vector<4xf32>
    %ninf8 = arith.constant dense<0xFF800000> : vector<8xf32>
    %zero8 = arith.constant dense<0.0> : vector<8xf32>
    %zero84 = arith.constant dense<0.0> : vector<8x4xf32>
    scf.for %q = %gi_ix to %nq_ix step %qstep_ix {
      %qi = arith.index_cast %q : index to i32
      %r = arith.divui %qi, %quads_row : i32
      %dq = arith.remui %qi, %quads_row : i32
      %d = arith.muli %dq, %c4 : i32
      %rd0 = arith.muli %r, %hd_i : i32
      %rd1 = arith.addi %rd0, %d : i32
      %rd2 = arith.muli %rd1, %c2 : i32
      %oa_l = arith.addi %pbase, %rd2 : i32
      %r8 = arith.muli %r, %c8 : i32
      %ma_l = arith.addi %pml, %r8 : i32
      %oa_s = arith.addi %smem_i, %oa_l : i32
      %ma_s = arith.addi %smem_i, %ma_l : i32
      // the P partitions' (max, L, O), all loads issued first
      %ld:3 = scf.for %p = %i0 to %i8 step %i1 iter_args(%ms = %ninf8, %ls = %zero8, %os = %zero84) -> (vector<8xf32>, vector<8xf32>, vector<8x4xf32>) {
        %pi = arith.index_cast %p : index to i32
        %in_p = arith.cmpi slt, %pi, %num_partitions : i32
        // a slot past P branches over its loads (uniform: every lane
        // has the same P), keeping (-inf, 0, 0)
        %slot:3 = scf.if %in_p -> (f32, f32, vector<4xf32>) {
          %mra = llvm.inline_asm has_side_effects asm_dialect = att "mapa.shared::cluster.u32 $0, $1, $2;", "=r,r,r" %ma_s, %pi : (i32, i32) -> i32
          %ora = llvm.inline_asm has_side_effects asm_dialect = att "mapa.shared::cluster.u32 $0, $1, $2;", "=r,r,r" %oa_s, %pi : (i32, i32) -> i32
          %mlv = llvm.inline_asm has_side_effects asm_dialect = att "ld.shared::cluster.v2.f32 {$0, $1}, [$2];", "=f,=f,r" %mra : (i32) -> !llvm.struct<(f32, f32)>
          %ovv = llvm.inline_asm has_side_effects asm_dialect = att "ld.shared::cluster.v2.b32 {$0, $1}, [$2];", "=r,=r,r" %ora : (i32) -> !llvm.struct<(i32, i32)>
          %mv = llvm.extractvalue %mlv[0] : !llvm.struct<(f32, f32)>
          %lv = llvm.extractvalue %mlv[1] : !llvm.struct<(f32, f32)>
          %o01 = llvm.extractvalue %ovv[0] : !llvm.struct<(i32, i32)>
          %o23 = llvm.extractvalue %ovv[1] : !llvm.struct<(i32, i32)>
          %ow = vector.from_elements %o01, %o23 : vector<2xi32>
          %ob4 = vector.bitcast %ow : vector<2xi32> to vector<4xbf16>
          %of = arith.extf %ob4 : vector<4xbf16> to vector<4xf32>
          scf.yield %mv, %lv, %of : f32, f32, vector<4xf32>
        } else {
          scf.yield %ninf, %zero_f, %zero4m : f32, f32, vector<4xf32>
        }
        %ms1 = vector.insert %slot#0, %ms[%p] : f32 into vector<8xf32>
        %ls1 = vector.insert %slot#1, %ls[%p] : f32 into vector<8xf32>
        %os1 = vector.insert %slot#2, %os[%p] : vector<4xf32> into vector<8x4xf32>
        scf.yield %ms1, %ls1, %os1 : vector<8xf32>, vector<8xf32>, vector<8x4xf32>
      }
      // row r: token qtok + r / QG, head r % QG of the group
      %rtau = arith.divui %r, %qgi : i32
      %rtq = arith.muli %rtau, %qgi : i32
      %rh = arith.subi %r, %rtq : i32
      %hq = arith.addi %hq_r0, %rh : i32
      %rtok = arith.addi %qtok, %rtau : i32
      %rtok64 = arith.extui %rtok : i32 to i64
      %oseq = arith.muli %rtok64, %oss64 : i64
      %sink = scf.if %has_sink -> (f32) {
        %sp = llvm.getelementptr %sinks[%hq] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
        %sv = llvm.load %sp {alignment = 4 : i64} : !llvm.ptr<1> -> f32
        scf.yield %sv : f32
      } else {
        scf.yield %ninf : f32
      }
      %mx = vector.reduction <maximumf>, %ld#0 : vector<8xf32> into f32
      %M0 = arith.maximumf %mx, %sink : f32
      %empty = arith.cmpf oeq, %M0, %ninf : f32
      %M = arith.select %empty, %zero_f, %M0 : f32
      %ds = arith.subf %sink, %M : f32
      %ds2 = arith.mulf %ds, %log2e : f32
      %es = func.call @uq_sm90_exp2(%ds2) : (f32) -> f32
      %ws = arith.select %has_sink, %es, %zero_f : f32
      %acc:2 = scf.for %p = %i0 to %i8 step %i1 iter_args(%dn = %ws, %nm = %zero4m) -> (f32, vector<4xf32>) {
        %pi = arith.index_cast %p : index to i32
        %in_p = arith.cmpi slt, %pi, %num_partitions : i32
        %step:2 = scf.if %in_p -> (f32, vector<4xf32>) {
          %mu = vector.extract %ld#0[%p] : f32 from vector<8xf32>
          %lu = vector.extract %ld#1[%p] : f32 from vector<8xf32>
          %live = arith.cmpf une, %lu, %zero_f : f32
          %du = arith.subf %mu, %M : f32
          %du2 = arith.mulf %du, %log2e : f32
          %eu = func.call @uq_sm90_exp2(%du2) : (f32) -> f32
          %w0 = arith.mulf %eu, %lu : f32
          %w = arith.select %live, %w0, %zero_f : f32
          %dn1 = arith.addf %dn, %w : f32
          %ou = vector.extract %ld#2[%p] : vector<4xf32> from vector<8x4xf32>
          %wv = vector.broadcast %w : f32 to vector<4xf32>
          %tv = arith.mulf %wv, %ou : vector<4xf32>
          %wz = arith.cmpf une, %w, %zero_f : f32
          %tz = arith.select %wz, %tv, %zero4m : vector<4xf32>
          %nm1 = arith.addf %nm, %tz : vector<4xf32>
          scf.yield %dn1, %nm1 : f32, vector<4xf32>
        } else {
          scf.yield %dn, %nm : f32, vector<4xf32>
        }
        scf.yield %step#0, %step#1 : f32, vector<4xf32>
      }
      %pos = arith.cmpf une, %acc#0, %zero_f : f32
      %den1 = arith.select %pos, %acc#0, %one_f : f32
      %rden = func.call @uq_sm90_rcp(%den1) : (f32) -> f32
      %dv = vector.broadcast %rden : f32 to vector<4xf32>
      %qo = arith.mulf %acc#1, %dv : vector<4xf32>
      %posv = vector.broadcast %pos : i1 to vector<4xi1>
      %o = arith.select %posv, %qo, %zero4m : vector<4xi1>, vector<4xf32>
      %ob = func.call @act_narrow4(%o, %f16) : (vector<4xf32>, i1) -> vector<4xi16>
      %hq64 = arith.extui %hq : i32 to i64
      %oh = arith.muli %hq64, %osh64 : i64
      %d64 = arith.extui %d : i32 to i64
      %oa0 = arith.addi %oseq, %oh : i64
      %oa = arith.addi %oa0, %d64 : i64
      %outp = llvm.getelementptr %output[%oa] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
      // 8-byte stores when the output and its strides allow, else 2-byte
      scf.if %wide {
        llvm.store %ob, %outp {alignment = 8 : i64} : vector<4xi16>, !llvm.ptr<1>
      } else {
        scf.for %j = %i0 to %i4 step %i1 {
          %ji = arith.index_cast %j : index to i64
          %bj = vector.extract %ob[%j] : i16 from vector<4xi16>
          %pj = llvm.getelementptr %outp[%ji] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
          llvm.store %bj, %pj {alignment = 2 : i64} : i16, !llvm.ptr<1>
        }
      }
    }
    // every CTA's reads of the others' shared memory have returned (their
    // values are in the stores above): nothing to release, only the
    // memory to keep alive, so a relaxed arrive (no MEMBAR.GPU)
    llvm.inline_asm has_side_effects asm_dialect = att "barrier.cluster.arrive.relaxed.aligned; barrier.cluster.wait.aligned;", "~{memory}" : () -> ()
  return
}

// Q's loads, issued first: their latency overlaps the dependent chain of
// the sequence length, the block table and the first tile's copies (the
// rotation after them, @uq_sm90_rotate_query, needs only registers). A
// query row takes R lanes, R = 16 for qg_max <= 8 (%small: 2 rows per
// warp, the 8 rows the QK reads) and 8 for qg_max 16 (4 rows per warp):
// lane L of warp w loads row (32 / R) w + L / R (row 0 past QG, zeroed by
// the rotation), head dims E (L % R) .. + E - 1, E = D / R (a multiple of
// 4): 8-byte loads when the query's base and strides keep them aligned,
// else 2-byte ones. Returns the lane's E elements (bf16 or f16 bits),
// whether its row is live, E, L % R, log2 R, the row and its first
// element: @uq_sm90_rotate_query's operands. Inlined before the loops
// unroll (uq.inline): E is the caller's constant.
func.func private @uq_sm90_load_query(%query: !llvm.ptr<1>, %hd: index, %small: i1,
                                      %warp: i32, %lane: i32, %kvh: i32, %qgi: i32,
                                      %live_rows: i32, %has_tokens: i1, %qtok: i32,
                                      %q_stride_seq: i32, %q_stride_head: i32)
    -> (vector<32xi16>, i1, index, i32, index, i32, i32) attributes {uq.inline} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i4 = arith.constant 4 : index
  %c3_r = arith.constant 3 : i32
  %c4_r = arith.constant 4 : i32
  %lsh = arith.select %small, %c4_r, %c3_r : i32
  %lsh_ix = arith.index_cast %lsh : i32 to index
  %qe = arith.shrui %hd, %lsh_ix : index
  %qe_i = arith.index_cast %qe : index to i32
  %qss64 = arith.extui %q_stride_seq : i32 to i64
  %qsh64 = arith.extui %q_stride_head : i32 to i64
  %hq0 = arith.muli %kvh, %qgi : i32
  %rsh = arith.subi %c5, %lsh : i32
  %qr0 = arith.shli %warp, %rsh : i32
  %qr1 = arith.shrui %lane, %lsh : i32
  %qrow_r = arith.addi %qr0, %qr1 : i32
  %rlanes = arith.shli %c1, %lsh : i32
  %rmask = arith.subi %rlanes, %c1 : i32
  %qchunk = arith.andi %lane, %rmask : i32
  %q_in = arith.cmpi ult, %qrow_r, %live_rows : i32
  %qrr = arith.select %q_in, %qrow_r, %c0 : i32
  %qtau = arith.divui %qrr, %qgi : i32
  %qtau_g = arith.muli %qtau, %qgi : i32
  %qhead = arith.subi %qrr, %qtau_g : i32
  // (a block of no token reads row 0 of the query, which exists, and
  // stores nothing)
  %qtok_l = arith.select %has_tokens, %qtok, %c0 : i32
  %qtok_r = arith.addi %qtok_l, %qtau : i32
  %qtok_r64 = arith.extui %qtok_r : i32 to i64
  %qrow_seq = arith.muli %qtok_r64, %qss64 : i64
  %qhq = arith.addi %hq0, %qhead : i32
  %qhq64 = arith.extui %qhq : i32 to i64
  %qo0 = arith.muli %qhq64, %qsh64 : i64
  %qo1 = arith.addi %qrow_seq, %qo0 : i64
  %qd0 = arith.muli %qchunk, %qe_i : i32
  %qd064 = arith.extui %qd0 : i32 to i64
  %qo2 = arith.addi %qo1, %qd064 : i64
  %c3_q64 = arith.constant 3 : i64
  %c7_q64 = arith.constant 7 : i64
  %c0_q64 = arith.constant 0 : i64
  %q_int = llvm.ptrtoint %query : !llvm.ptr<1> to i64
  %qal0 = arith.ori %qss64, %qsh64 : i64
  %qal1 = arith.andi %qal0, %c3_q64 : i64
  %qal2 = arith.andi %q_int, %c7_q64 : i64
  %qal3 = arith.ori %qal1, %qal2 : i64
  %qaligned = arith.cmpi eq, %qal3, %c0_q64 : i64
  // (D = 32 at QG <= 8: 2 elements a lane, loaded one at a time)
  %qe_ge4 = arith.cmpi uge, %qe, %i4 : index
  %qvec = arith.andi %qaligned, %qe_ge4 : i1
  %zero32i = arith.constant dense<0> : vector<32xi16>
  %qe4 = arith.divui %qe, %i4 : index
  %qraw = scf.if %qvec -> (vector<32xi16>) {
    %r = scf.for %y = %i0 to %qe4 step %i1 iter_args(%v = %zero32i) -> (vector<32xi16>) {
      %y4 = arith.muli %y, %i4 : index
      %yi = arith.index_cast %y4 : index to i64
      %o = arith.addi %qo2, %yi : i64
      %qp = llvm.getelementptr %query[%o] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
      %qb = llvm.load %qp {alignment = 8 : i64} : !llvm.ptr<1> -> vector<4xi16>
      %vy = scf.for %e = %i0 to %i4 step %i1 iter_args(%vv = %v) -> (vector<32xi16>) {
        %be = vector.extract %qb[%e] : i16 from vector<4xi16>
        %ye = arith.addi %y4, %e : index
        %v1 = vector.insert %be, %vv[%ye] : i16 into vector<32xi16>
        scf.yield %v1 : vector<32xi16>
      }
      scf.yield %vy : vector<32xi16>
    }
    scf.yield %r : vector<32xi16>
  } else {
    %r = scf.for %x = %i0 to %qe step %i1 iter_args(%v = %zero32i) -> (vector<32xi16>) {
      %xi = arith.index_cast %x : index to i64
      %o = arith.addi %qo2, %xi : i64
      %qp = llvm.getelementptr %query[%o] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
      %qb = llvm.load %qp {alignment = 2 : i64} : !llvm.ptr<1> -> i16
      %v1 = vector.insert %qb, %v[%x] : i16 into vector<32xi16>
      scf.yield %v1 : vector<32xi16>
    }
    scf.yield %r : vector<32xi16>
  }
  return %qraw, %q_in, %qe, %qchunk, %lsh_ix, %qrow_r, %qd0 : vector<32xi16>, i1, index, i32, index, i32, i32
}

// The block table entry of the lane's token of warp %warp's first tile,
// loaded at the start, beside the sequence length instead of after it:
// without a window the tile's first token (@uq_sm90_tile_base with window
// base 0) does not depend on the length, only the clamp of tokens past it
// does (@uq_sm90_lane_token), and those lanes (and every lane under a
// window) load again once it is known (@uq_sm90_start_pipeline). The
// block index is clamped into the table row, so the read stays in bounds.
// Returns the token it read for, log2 of the block size, the sequence's
// table row (i64: issue 13) and the entry. Inlined (uq.inline), as it was
// written in the kernel.
func.func private @uq_sm90_first_block(%warp: i32, %part: i32, %num_partitions: i32, %walk_lg: i32, %lane: i32, %block_size: i32, %max_blocks_per_seq: i32, %seq64: i64, %block_tables: !llvm.ptr<1>) -> (i32, i32, i64, i32) attributes {uq.inline} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c15 = arith.constant 15 : i32
  %spec_tb = func.call @uq_sm90_tile_base(%warp, %part, %num_partitions, %walk_lg, %c0) : (i32, i32, i32, i32, i32) -> i32
  %spec_l = arith.andi %lane, %c15 : i32
  %spec_tok = arith.addi %spec_tb, %spec_l : i32
  %bs_shift = "llvm.intr.cttz"(%block_size) <{is_zero_poison = false}> : (i32) -> i32
  %spec_b0 = arith.shrui %spec_tok, %bs_shift : i32
  %spec_last = arith.subi %max_blocks_per_seq, %c1 : i32
  %spec_blk = arith.minui %spec_b0, %spec_last : i32
  %spec_blk64 = arith.extui %spec_blk : i32 to i64
  // 64-BIT ADDRESSING (issue 13, as in @uq_decode; keep it): seq *
  // max_blocks_per_seq reaches 65535 * 2^24, so the table row offset is i64.
  %mbps64 = arith.extui %max_blocks_per_seq : i32 to i64
  %bt_row = arith.muli %seq64, %mbps64 : i64
  %spec_ix = arith.addi %bt_row, %spec_blk64 : i64
  %spec_p = llvm.getelementptr %block_tables[%spec_ix] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
  // (an asm load: as a plain load LLVM merges it with the reload
  // below into one load of a selected address, after the length)
  %spec_phys = llvm.inline_asm has_side_effects asm_dialect = att "ld.global.nc.b32 $0, [$1];", "=r,l" %spec_p : (!llvm.ptr<1>) -> i32
  return %spec_tok, %bs_shift, %bt_row, %spec_phys : i32, i32, i64, i32
}

// The number of the partition's %ntiles tiles warp %warp walks: tiles
// k = warp + 4 i, i < nw (the 4 warps interleaved). Inlined (uq.inline).
func.func private @uq_sm90_warp_tiles(%ntiles: i32, %warp: i32) -> (i32) attributes {uq.inline} {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %nw0 = arith.subi %ntiles, %warp : i32
  %nw1 = arith.addi %nw0, %c3 : i32
  %nw2 = arith.shrsi %nw1, %c2 : i32
  %nw3 = arith.cmpi sgt, %ntiles, %warp : i32
  %nw = arith.select %nw3, %nw2, %c0 : i32
  return %nw : i32
}

// Where KV head %kvh's slots lie in the cache, for the tile copies
// (@uq_sm90_issue_tile): the in-block position mask, the bytes between
// positions and of a block (i64, as the copies' addresses take it), the
// head's offset in a position, and whether slots are whole 8-byte units
// (which copy width @uq_sm90_issue_tile may use). Inlined (uq.inline).
func.func private @uq_sm90_kv_strides(%block_size: i32, %num_kv_heads: i32, %padded_slot: i32, %kvh: i32) -> (i32, i32, i64, i32, i1) attributes {uq.inline} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 7 : i32
  %bs_mask = arith.subi %block_size, %c1 : i32
  %pos_stride = arith.muli %num_kv_heads, %padded_slot : i32
  %bb = arith.muli %block_size, %pos_stride : i32
  %blk_bytes = arith.extui %bb : i32 to i64
  %head_off = arith.muli %kvh, %padded_slot : i32
  %slot7 = arith.andi %padded_slot, %c7 : i32
  %unit8 = arith.cmpi eq, %slot7, %c0 : i32
  return %bs_mask, %pos_stride, %blk_bytes, %head_off, %unit8 : i32, i32, i64, i32, i1
}

// The Q^T fragments of S^T = K Q^T (QG <= 8) for lane %lane, from the
// query image at shared address %qaddr0 (rows of %qrow_bytes): ldmatrix
// row l & 7, 16-byte column l >> 3 (@uq_sm90_q_frags). Inlined
// (uq.inline).
func.func private @uq_sm90_q_frags_t(%lane: i32, %qaddr0: i32, %qrow_bytes: i32) -> (vector<32xi32>) attributes {uq.inline} {
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c7 = arith.constant 7 : i32
  %lr0 = arith.andi %lane, %c7 : i32
  %lr1 = arith.shrui %lane, %c3 : i32
  %qt0 = arith.muli %lr0, %qrow_bytes : i32
  %qt1 = arith.addi %qaddr0, %qt0 : i32
  %qt2 = arith.shli %lr1, %c4 : i32
  %qaddr_t = arith.addi %qt1, %qt2 : i32
  %qf = func.call @uq_sm90_q_frags(%qaddr_t) : (i32) -> vector<32xi32>
  return %qf : vector<32xi32>
}

// Lane %lane's shared addresses (offsets for the slot rows, 32-bit
// shared addresses for Q) for the ldmatrix.x4 reads: matrix l >> 3 =
// (token half, group parity), row l & 7 of a stage (rows of %stride
// bytes) and of the query image (rows of %qrow_bytes from byte %q16_off),
// and @uq_sm90_v_frags' own element of the thread (token 2t, byte 2g) as
// an offset from the lane's row address. Returns the row offset, that
// offset, the query image's address and the lane's row in it. Inlined
// (uq.inline).
func.func private @uq_sm90_lane_addresses(%lane: i32, %g: i32, %t2: i32, %stride: i32, %smem_i: i32, %q16_off: i32, %qrow_bytes: i32) -> (i32, i32, i32, i32) attributes {uq.inline} {
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c7 = arith.constant 7 : i32
  // Lane row addresses for ldmatrix.x4: matrix l >> 3 = (token half,
  // group parity), row l & 7.
  %lr0 = arith.andi %lane, %c7 : i32
  %lr1 = arith.shrui %lane, %c3 : i32
  %lr2 = arith.andi %lr1, %c1 : i32
  %lr3 = arith.shli %lr2, %c3 : i32
  %lrow = arith.addi %lr0, %lr3 : i32
  %lg0 = arith.shrui %lane, %c4 : i32
  %lgo = arith.shli %lg0, %c4 : i32
  %lrb = arith.muli %lrow, %stride : i32
  %lrow_off = arith.addi %lrb, %lgo : i32
  // @uq_sm90_v_frags' own element of the thread (token 2t, byte 2g),
  // as an offset from the lane's row address to the shared offset
  %vt0 = arith.muli %t2, %stride : i32
  %vt1 = arith.shli %g, %c1 : i32
  %vt2 = arith.addi %vt0, %vt1 : i32
  %vt3 = arith.subi %vt2, %lrow_off : i32
  %vdelta = arith.subi %vt3, %smem_i : i32
  %qrow = arith.muli %lrow, %qrow_bytes : i32
  %qaddr0 = arith.addi %smem_i, %q16_off : i32
  %qaddr1 = arith.addi %qaddr0, %qrow : i32
  %qaddr = arith.addi %qaddr1, %lgo : i32
  return %lrow_off, %vdelta, %qaddr0, %qaddr : i32, i32, i32, i32
}

// The start of warp %warp's cp.async pipeline of %nstages stages of
// %stage_b bytes (16 slots each; @uq_sm90_stages) from shared address
// %wbase (returned): its first nstages - 1 tiles issued (one commit group
// each, empty or not; the first tile's block-table entry is
// @uq_sm90_first_block's where it holds), then the block of tile
// nstages - 1 loaded (returned), which the walk's first step issues
// (@uq_sm90_pipeline_step). Inlined before the loops unroll (uq.inline):
// nstages is the caller's constant.
func.func private @uq_sm90_start_pipeline(%nstages: i32, %stage_b: i32, %warp: i32, %smem_i: i32, %nw: i32, %part: i32, %num_partitions: i32, %walk_lg: i32, %win_base: i32, %lane: i32, %win_start: i32, %seq_len: i32, %spec_tok: i32, %spec_phys: i32, %bs_shift: i32, %block_tables: !llvm.ptr<1>, %bt_row: i64, %bs_mask: i32, %kv_cache: !llvm.ptr<1>, %blk_bytes: i64, %pos_stride: i32, %head_off: i32, %unit8: i1) -> (i32, i32) attributes {uq.inline} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %npro = arith.subi %nstages, %c1 : i32
  %npro_ix = arith.index_cast %npro : i32 to index
  %wst = arith.muli %stage_b, %nstages : i32
  %wstage0 = arith.muli %warp, %wst : i32
  %wbase = arith.addi %smem_i, %wstage0 : i32
  scf.for %s = %i0 to %npro_ix step %i1 {
    %si = arith.index_cast %s : index to i32
    %have = arith.cmpi slt, %si, %nw : i32
    scf.if %have {
      %k4 = arith.muli %si, %c4 : i32
      %k = arith.addi %warp, %k4 : i32
      %tb = func.call @uq_sm90_tile_base(%k, %part, %num_partitions, %walk_lg, %win_base) : (i32, i32, i32, i32, i32) -> i32
      %so = arith.muli %si, %stage_b : i32
      %stage = arith.addi %wbase, %so : i32
      // the first tile's entry as loaded above where it holds
      %first = arith.cmpi eq, %si, %c0 : i32
      %nowin = arith.cmpi eq, %win_base, %c0 : i32
      %tok = func.call @uq_sm90_lane_token(%tb, %lane, %win_start, %seq_len) : (i32, i32, i32, i32) -> i32
      %same = arith.cmpi eq, %tok, %spec_tok : i32
      %sp0 = arith.andi %first, %nowin : i1
      %spec_ok = arith.andi %sp0, %same : i1
      %phys = scf.if %spec_ok -> (i32) {
        scf.yield %spec_phys : i32
      } else {
        %ph = func.call @uq_sm90_tile_block(%tb, %lane, %win_start, %seq_len, %bs_shift, %block_tables, %bt_row) : (i32, i32, i32, i32, i32, !llvm.ptr<1>, i64) -> i32
        scf.yield %ph : i32
      }
      func.call @uq_sm90_issue_tile(%stage, %tb, %phys, %lane, %win_start, %seq_len, %bs_mask, %kv_cache, %blk_bytes, %pos_stride, %head_off, %unit8) : (i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<1>, i64, i32, i32, i1) -> ()
    }
    llvm.inline_asm has_side_effects asm_dialect = att "cp.async.commit_group;", "~{memory}" : () -> ()
  }
  %pf_k0 = arith.muli %npro, %c4 : i32
  %pf_k = arith.addi %warp, %pf_k0 : i32
  %pf_tb = func.call @uq_sm90_tile_base(%pf_k, %part, %num_partitions, %walk_lg, %win_base) : (i32, i32, i32, i32, i32) -> i32
  %pf0 = func.call @uq_sm90_tile_block(%pf_tb, %lane, %win_start, %seq_len, %bs_shift, %block_tables, %bt_row) : (i32, i32, i32, i32, i32, !llvm.ptr<1>, i64) -> i32
  return %wbase, %pf0 : i32, i32
}

// One step of warp %warp's cp.async pipeline at its tile %iti (tile
// k = warp + 4 iti of the partition), before the tile's math: tile
// iti + nstages - 1 issued into its stage (its block-table entry %pf, loaded
// a step ago; one commit group, empty or not), the entry of tile
// iti + nstages loaded (returned: the next step's %pf), then the wait for
// tile iti's copies (nstages - 1 groups may stay in flight). Returns that
// entry, tile iti's stage in shared memory (a pointer), its first token
// and the lane's ldmatrix row address in the stage. Shared by both QK
// layouts; inlined before the loops unroll (uq.inline).
func.func private @uq_sm90_pipeline_step(%iti: i32, %pf: i32, %nw: i32, %nstages: i32, %nstm1: i32, %stage_b: i32, %wbase: i32, %smem: !llvm.ptr<3>, %smem_i: i32, %lrow_off: i32, %warp: i32, %part: i32, %num_partitions: i32, %walk_lg: i32, %win_base: i32, %lane: i32, %win_start: i32, %seq_len: i32, %bs_shift: i32, %block_tables: !llvm.ptr<1>, %bt_row: i64, %bs_mask: i32, %kv_cache: !llvm.ptr<1>, %blk_bytes: i64, %pos_stride: i32, %head_off: i32, %unit8: i1) -> (i32, !llvm.ptr<3>, i32, i32) attributes {uq.inline} {
  %c4 = arith.constant 4 : i32
  %ni = arith.addi %iti, %nstm1 : i32
  %have = arith.cmpi slt, %ni, %nw : i32
  scf.if %have {
    %k4 = arith.muli %ni, %c4 : i32
    %k = arith.addi %warp, %k4 : i32
    %tb = func.call @uq_sm90_tile_base(%k, %part, %num_partitions, %walk_lg, %win_base) : (i32, i32, i32, i32, i32) -> i32
    %ns = arith.remui %ni, %nstages : i32
    %so = arith.muli %ns, %stage_b : i32
    %stage = arith.addi %wbase, %so : i32
    func.call @uq_sm90_issue_tile(%stage, %tb, %pf, %lane, %win_start, %seq_len, %bs_mask, %kv_cache, %blk_bytes, %pos_stride, %head_off, %unit8) : (i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<1>, i64, i32, i32, i1) -> ()
  }
  llvm.inline_asm has_side_effects asm_dialect = att "cp.async.commit_group;", "~{memory}" : () -> ()
  %n4 = arith.addi %iti, %nstages : i32
  %nk4 = arith.muli %n4, %c4 : i32
  %nk = arith.addi %warp, %nk4 : i32
  %ntb = func.call @uq_sm90_tile_base(%nk, %part, %num_partitions, %walk_lg, %win_base) : (i32, i32, i32, i32, i32) -> i32
  %pf_next = func.call @uq_sm90_tile_block(%ntb, %lane, %win_start, %seq_len, %bs_shift, %block_tables, %bt_row) : (i32, i32, i32, i32, i32, !llvm.ptr<1>, i64) -> i32
  llvm.inline_asm has_side_effects asm_dialect = att "cp.async.wait_group $0;", "n,~{memory}" %nstm1 : (i32) -> ()
  llvm.inline_asm has_side_effects asm_dialect = att "bar.warp.sync 0xffffffff;", "~{memory}" : () -> ()
  %cs = arith.remui %iti, %nstages : i32
  %cso = arith.muli %cs, %stage_b : i32
  %sb = arith.addi %wbase, %cso : i32
  %sbp_off = arith.subi %sb, %smem_i : i32
  %sbp = llvm.getelementptr %smem[%sbp_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  %k4c = arith.muli %iti, %c4 : i32
  %kc = arith.addi %warp, %k4c : i32
  %tb = func.call @uq_sm90_tile_base(%kc, %part, %num_partitions, %walk_lg, %win_base) : (i32, i32, i32, i32, i32) -> i32
  %lbase = arith.addi %sb, %lrow_off : i32
  return %pf_next, %sbp, %tb, %lbase : i32, !llvm.ptr<3>, i32, i32
}

// Whether the lazy maximum of either of a lane's two rows moves on this
// tile: some score of the warp past its row's m + 8
// (@uq_sm90_lazy_limit), found by one vote over the warp. Only then (the
// first tiles, and rarely after) do the rows' maxima over their lanes,
// the correction and the accumulators' rescale run; the common tile takes
// its weights straight from m, without the shuffles' latency. %ma, %mb:
// the lane's maxima of its two rows' scores; %m0, %m1: the rows' running
// maxima. Shared by both QK layouts; inlined (uq.inline).
func.func private @uq_sm90_lazy_vote(%ma: f32, %mb: f32, %m0: f32, %m1: f32) -> i1 attributes {uq.inline} {
  %c0 = arith.constant 0 : i32
  %lim0 = func.call @uq_sm90_lazy_limit(%m0) : (f32) -> f32
  %lim1 = func.call @uq_sm90_lazy_limit(%m1) : (f32) -> f32
  %up0 = arith.cmpf ogt, %ma, %lim0 : f32
  %up1 = arith.cmpf ogt, %mb, %lim1 : f32
  %up = arith.ori %up0, %up1 : i1
  %upi = arith.extui %up : i1 to i32
  %any = llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.u32 p, $1, 0; vote.sync.any.pred p, p, 0xffffffff; selp.u32 $0, 1, 0, p; }", "=r,r" %upi : (i32) -> i32
  %anyb = arith.cmpi ne, %any, %c0 : i32
  return %anyb : i1
}

// The maxima (%max true) or sums of a lane's two rows over the lanes that
// hold them: %n butterfly steps of xor 1 << %lo, 1 << (%lo + 1), ..
// (QG <= 8: a query column's 8 lanes g, %lo 2, %n 3; QG 16: a row's 4
// lanes t, %lo 0, %n 2). %paired interleaves the two rows' shuffles (QG <=
// 8); else row a's steps come before row b's (QG 16): each layout keeps
// the order its code was measured with, as ptxas schedules the two
// orders differently. Inlined before the loops unroll (uq.inline): %n,
// %paired and %max are the caller's constants.
func.func private @uq_sm90_rows_reduce(%a0: f32, %b0: f32, %lo: i32, %n: index, %paired: i1, %max: i1) -> (f32, f32) attributes {uq.inline} {
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %r:2 = scf.if %paired -> (f32, f32) {
    %ab:2 = scf.for %st = %i0 to %n step %i1 iter_args(%a = %a0, %b = %b0) -> (f32, f32) {
      %sti = arith.index_cast %st : index to i32
      %sh = arith.addi %sti, %lo : i32
      %msk = arith.shli %c1, %sh : i32
      %oa, %va = gpu.shuffle xor %a, %msk, %c32 : f32
      %ob, %vb = gpu.shuffle xor %b, %msk, %c32 : f32
      %na = func.call @uq_sm90_combine(%a, %oa, %max) : (f32, f32, i1) -> f32
      %nb = func.call @uq_sm90_combine(%b, %ob, %max) : (f32, f32, i1) -> f32
      scf.yield %na, %nb : f32, f32
    }
    scf.yield %ab#0, %ab#1 : f32, f32
  } else {
    %a = scf.for %st = %i0 to %n step %i1 iter_args(%x = %a0) -> (f32) {
      %sti = arith.index_cast %st : index to i32
      %sh = arith.addi %sti, %lo : i32
      %msk = arith.shli %c1, %sh : i32
      %o, %v = gpu.shuffle xor %x, %msk, %c32 : f32
      %nx = func.call @uq_sm90_combine(%x, %o, %max) : (f32, f32, i1) -> f32
      scf.yield %nx : f32
    }
    %b = scf.for %st = %i0 to %n step %i1 iter_args(%x = %b0) -> (f32) {
      %sti = arith.index_cast %st : index to i32
      %sh = arith.addi %sti, %lo : i32
      %msk = arith.shli %c1, %sh : i32
      %o, %v = gpu.shuffle xor %x, %msk, %c32 : f32
      %nx = func.call @uq_sm90_combine(%x, %o, %max) : (f32, f32, i1) -> f32
      scf.yield %nx : f32
    }
    scf.yield %a, %b : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}

// max(%x, %y) (%max true) or %x + %y: @uq_sm90_rows_reduce's step.
// Inlined (uq.inline): %max is the caller's constant.
func.func private @uq_sm90_combine(%x: f32, %y: f32, %max: i1) -> f32 attributes {uq.inline} {
  %r = scf.if %max -> (f32) {
    %m = arith.maximumf %x, %y : f32
    scf.yield %m : f32
  } else {
    %s = arith.addf %x, %y : f32
    scf.yield %s : f32
  }
  return %r : f32
}

// The lazy maxima of a lane's two rows after a tile whose row maxima
// (over the row's lanes) are %mx0, %mx1, and the corrections of the
// rows' sums and accumulators (@uq_sm90_lazy_max,
// @uq_sm90_lazy_correction; x 1, exact, for a row whose maximum stayed).
// Shared by both QK layouts; inlined (uq.inline).
func.func private @uq_sm90_lazy_update(%m0: f32, %m1: f32, %mx0: f32, %mx1: f32) -> (f32, f32, f32, f32) attributes {uq.inline} {
  %mu0 = func.call @uq_sm90_lazy_max(%m0, %mx0) : (f32, f32) -> f32
  %mu1 = func.call @uq_sm90_lazy_max(%m1, %mx1) : (f32, f32) -> f32
  %cu0 = func.call @uq_sm90_lazy_correction(%m0, %mu0) : (f32, f32) -> f32
  %cu1 = func.call @uq_sm90_lazy_correction(%m1, %mu1) : (f32, f32) -> f32
  return %mu0, %mu1, %cu0, %cu1 : f32, f32, f32, f32
}

// The 8 elements of a QG 16 lane's tile vector (scores or weights in
// the m16n8k16 C layout of two n-tiles) as scalars. Inlined (uq.inline).
func.func private @uq_sm90_elements8(%v: vector<8xf32>) -> (f32, f32, f32, f32, f32, f32, f32, f32) attributes {uq.inline} {
  %e0 = vector.extract %v[0] : f32 from vector<8xf32>
  %e1 = vector.extract %v[1] : f32 from vector<8xf32>
  %e2 = vector.extract %v[2] : f32 from vector<8xf32>
  %e3 = vector.extract %v[3] : f32 from vector<8xf32>
  %e4 = vector.extract %v[4] : f32 from vector<8xf32>
  %e5 = vector.extract %v[5] : f32 from vector<8xf32>
  %e6 = vector.extract %v[6] : f32 from vector<8xf32>
  %e7 = vector.extract %v[7] : f32 from vector<8xf32>
  return %e0, %e1, %e2, %e3, %e4, %e5, %e6, %e7 : f32, f32, f32, f32, f32, f32, f32, f32
}

// One tile's online softmax for QG 16 (S = Q K^T): the lane's scores %x8
// of rows g (x0, x1, x4, x5) and g + 8 (x2, x3, x6, x7) in the
// m16n8k16 C layout of D / 8 n-tiles (%nnt), the rows' running (lazy)
// maxima and sums and the accumulators [n-tile][c0..c3] (rows g: c0, c1;
// g + 8: c2, c3). The lazy maximum moves only when the warp's vote says so
// (@uq_sm90_lazy_vote; then the row maxima over a row's 4 lanes, the
// corrections and the accumulators' rescale run); the weights
// exp2(x - base) (@uq_sm90_weight_base) and this lane's share of the row
// sums (reduced over the lanes after the walk). Returns the maxima, sums,
// accumulators and the weights. Inlined before the loops unroll
// (uq.inline): %nnt is the caller's constant.
func.func private @uq_sm90_softmax(%x8: vector<8xf32>, %m_g: f32, %m_g8: f32, %l_g: f32, %l_g8: f32, %acc: vector<128xf32>, %nnt: index) -> (f32, f32, f32, f32, vector<128xf32>, vector<8xf32>) attributes {uq.inline} {
  %c0 = arith.constant 0 : i32
  %false = arith.constant false
  %true = arith.constant true
  %one_f = arith.constant 1.0 : f32
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %i8 = arith.constant 8 : index
      %x0, %x1, %x2, %x3, %x4, %x5, %x6, %x7 = func.call @uq_sm90_elements8(%x8) : (vector<8xf32>) -> (f32, f32, f32, f32, f32, f32, f32, f32)
      // rows g (x0, x1, x4, x5) and g + 8 (x2, x3, x6, x7): the lazy
      // maximum's move found by one vote, as for QG <= 8 above
      %mg0 = arith.maximumf %x0, %x1 : f32
      %mg1 = arith.maximumf %x4, %x5 : f32
      %mg2 = arith.maximumf %mg0, %mg1 : f32
      %mh0 = arith.maximumf %x2, %x3 : f32
      %mh1 = arith.maximumf %x6, %x7 : f32
      %mh2 = arith.maximumf %mh0, %mh1 : f32
      %anyb = func.call @uq_sm90_lazy_vote(%mg2, %mh2, %m_g, %m_g8) : (f32, f32, f32, f32) -> i1
      %mv:5 = scf.if %anyb -> (f32, f32, f32, f32, vector<128xf32>) {
        %mg4, %mh4 = func.call @uq_sm90_rows_reduce(%mg2, %mh2, %c0, %i2, %false, %true) : (f32, f32, i32, index, i1, i1) -> (f32, f32)
        %mug, %muh, %corr_g, %corr_h = func.call @uq_sm90_lazy_update(%m_g, %m_g8, %mg4, %mh4) : (f32, f32, f32, f32) -> (f32, f32, f32, f32)
        %sc = scf.for %nt = %i0 to %nnt step %i1 iter_args(%ai = %acc) -> (vector<128xf32>) {
          %v:4 = func.call @uq_sm90_frag(%ai, %nt) : (vector<128xf32>, index) -> (f32, f32, f32, f32)
          %w0 = arith.mulf %v#0, %corr_g : f32
          %w1 = arith.mulf %v#1, %corr_g : f32
          %w2 = arith.mulf %v#2, %corr_h : f32
          %w3 = arith.mulf %v#3, %corr_h : f32
          %u = func.call @uq_sm90_frag_set(%ai, %nt, %w0, %w1, %w2, %w3) : (vector<128xf32>, index, f32, f32, f32, f32) -> vector<128xf32>
          scf.yield %u : vector<128xf32>
        }
        scf.yield %mug, %muh, %corr_g, %corr_h, %sc : f32, f32, f32, f32, vector<128xf32>
      } else {
        scf.yield %m_g, %m_g8, %one_f, %one_f, %acc : f32, f32, f32, f32, vector<128xf32>
      }
      %bg = func.call @uq_sm90_weight_base(%mv#0) : (f32) -> f32
      %bh = func.call @uq_sm90_weight_base(%mv#1) : (f32) -> f32
      %bv = vector.from_elements %bg, %bg, %bh, %bh, %bg, %bg, %bh, %bh : vector<8xf32>
      %pv = scf.for %e = %i0 to %i8 step %i1 iter_args(%pp = %x8) -> (vector<8xf32>) {
        %xe = vector.extract %pp[%e] : f32 from vector<8xf32>
        %be = vector.extract %bv[%e] : f32 from vector<8xf32>
        %de = arith.subf %xe, %be : f32
        %pe = func.call @uq_sm90_exp2(%de) : (f32) -> f32
        %po = vector.insert %pe, %pp[%e] : f32 into vector<8xf32>
        scf.yield %po : vector<8xf32>
      }
      %p0, %p1, %p2, %p3, %p4, %p5, %p6, %p7v = func.call @uq_sm90_elements8(%pv) : (vector<8xf32>) -> (f32, f32, f32, f32, f32, f32, f32, f32)
      %sg_0 = arith.addf %p0, %p1 : f32
      %sg_1 = arith.addf %p4, %p5 : f32
      %sg_2 = arith.addf %sg_0, %sg_1 : f32
      %sh_0 = arith.addf %p2, %p3 : f32
      %sh_1 = arith.addf %p6, %p7v : f32
      %sh_2 = arith.addf %sh_0, %sh_1 : f32
      %lg_new = math.fma %l_g, %mv#2, %sg_2 : f32
      %lh_new = math.fma %l_g8, %mv#3, %sh_2 : f32
  return %mv#0, %mv#1, %lg_new, %lh_new, %mv#4, %pv : f32, f32, f32, f32, vector<128xf32>, vector<8xf32>
}

// One tile's online softmax for QG <= 8 (S^T = K Q^T): the lane's scores
// %x4 of query columns 2t (x0, x2: tokens g, g + 8) and 2t + 1 (x1, x3),
// the columns' running (lazy) maxima and sums, and the accumulators
// [m-tile][c0..c3] of D / 16 m-tiles (%nmt; columns 2t: c0, c2; 2t + 1:
// c1, c3). The lazy maximum moves only when the warp's vote says so
// (@uq_sm90_lazy_vote; then the column maxima over a column's 8 lanes,
// the corrections and the accumulators' rescale run, @uq_sm90_rescale_t);
// the weights exp2(x - base) (@uq_sm90_weight_base) and this lane's share
// of the column sums (reduced over the lanes after the walk). Returns the
// maxima, sums, accumulators and the weights, then the vote and the two
// corrections (1 without it), for D = 512's second half. Inlined before
// the loops unroll (uq.inline): %nmt is the caller's constant.
func.func private @uq_sm90_softmax_t(%x4: vector<4xf32>, %m_0: f32, %m_1: f32, %l_0: f32, %l_1: f32, %acc: vector<64xf32>, %nmt: index) -> (f32, f32, f32, f32, vector<64xf32>, vector<4xf32>, i1, f32, f32) attributes {uq.inline} {
  %c2 = arith.constant 2 : i32
  %true = arith.constant true
  %one_f = arith.constant 1.0 : f32
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i3 = arith.constant 3 : index
      %x0 = vector.extract %x4[0] : f32 from vector<4xf32>
      %x1 = vector.extract %x4[1] : f32 from vector<4xf32>
      %x2 = vector.extract %x4[2] : f32 from vector<4xf32>
      %x3 = vector.extract %x4[3] : f32 from vector<4xf32>
      %ma0 = arith.maximumf %x0, %x2 : f32
      %mb0 = arith.maximumf %x1, %x3 : f32
      %anyb = func.call @uq_sm90_lazy_vote(%ma0, %mb0, %m_0, %m_1) : (f32, f32, f32, f32) -> i1
      %mv:5 = scf.if %anyb -> (f32, f32, f32, f32, vector<64xf32>) {
        %mx:2 = func.call @uq_sm90_rows_reduce(%ma0, %mb0, %c2, %i3, %true, %true) : (f32, f32, i32, index, i1, i1) -> (f32, f32)
        %mu0, %mu1, %cu0, %cu1 = func.call @uq_sm90_lazy_update(%m_0, %m_1, %mx#0, %mx#1) : (f32, f32, f32, f32) -> (f32, f32, f32, f32)
        %sc = func.call @uq_sm90_rescale_t(%acc, %cu0, %cu1, %nmt) : (vector<64xf32>, f32, f32, index) -> vector<64xf32>
        scf.yield %mu0, %mu1, %cu0, %cu1, %sc : f32, f32, f32, f32, vector<64xf32>
      } else {
        scf.yield %m_0, %m_1, %one_f, %one_f, %acc : f32, f32, f32, f32, vector<64xf32>
      }
      %bq0 = func.call @uq_sm90_weight_base(%mv#0) : (f32) -> f32
      %bq1 = func.call @uq_sm90_weight_base(%mv#1) : (f32) -> f32
      %d0 = arith.subf %x0, %bq0 : f32
      %d1 = arith.subf %x1, %bq1 : f32
      %d2 = arith.subf %x2, %bq0 : f32
      %d3 = arith.subf %x3, %bq1 : f32
      %p0 = func.call @uq_sm90_exp2(%d0) : (f32) -> f32
      %p1 = func.call @uq_sm90_exp2(%d1) : (f32) -> f32
      %p2 = func.call @uq_sm90_exp2(%d2) : (f32) -> f32
      %p3 = func.call @uq_sm90_exp2(%d3) : (f32) -> f32
      // this lane's share of the column sums (reduced after the loop)
      %s0 = arith.addf %p0, %p2 : f32
      %s1 = arith.addf %p1, %p3 : f32
      %ln0 = math.fma %l_0, %mv#2, %s0 : f32
      %ln1 = math.fma %l_1, %mv#3, %s1 : f32
  %p4 = vector.from_elements %p0, %p1, %p2, %p3 : vector<4xf32>
  return %mv#0, %mv#1, %ln0, %ln1, %mv#4, %p4, %anyb, %mv#2, %mv#3 : f32, f32, f32, f32, vector<64xf32>, vector<4xf32>, i1, f32, f32
}

// The QG <= 8 accumulators %acc (%nmt m-tiles) times the corrections of
// their columns, query rows 2t (%cu0) and 2t + 1 (%cu1), this lane's own
// (a column whose maximum stayed gets x 1, exact): @uq_sm90_softmax_t's
// step, and D = 512's second half. Inlined (uq.inline).
func.func private @uq_sm90_rescale_t(%acc: vector<64xf32>, %cu0: f32, %cu1: f32, %nmt: index) -> vector<64xf32> attributes {uq.inline} {
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %sc = scf.for %mt = %i0 to %nmt step %i1 iter_args(%ai = %acc) -> (vector<64xf32>) {
    %v:4 = func.call @uq_sm90_frag_t(%ai, %mt) : (vector<64xf32>, index) -> (f32, f32, f32, f32)
    %w0 = arith.mulf %v#0, %cu0 : f32
    %w1 = arith.mulf %v#1, %cu1 : f32
    %w2 = arith.mulf %v#2, %cu0 : f32
    %w3 = arith.mulf %v#3, %cu1 : f32
    %u = func.call @uq_sm90_frag_t_set(%ai, %mt, %w0, %w1, %w2, %w3) : (vector<64xf32>, index, f32, f32, f32, f32) -> vector<64xf32>
    scf.yield %u : vector<64xf32>
  }
  return %sc : vector<64xf32>
}

// V group j = 2 %jp + %jj of a tile for PV: its index, its two code
// registers of @uq_sm90_v_frags' four (%v0 .. %v3: the pair's low then
// high byte half, tokens 2t.. and 2t + 8..) and the (token, group) V
// scales of the lane's tokens (@uq_sm90_v_scales, from the tile's scale
// words %vs). Shared by both PV layouts; inlined before the loops unroll
// (uq.inline): %jp and %jj are the caller's loop indices.
func.func private @uq_sm90_v_group(%v0: i32, %v1: i32, %v2: i32, %v3: i32, %vs: vector<8xi32>,
                                   %jp: index, %jj: index) -> (index, i32, i32, i32, i32) attributes {uq.inline} {
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %i4 = arith.constant 4 : index
  %j2 = arith.muli %jp, %i2 : index
  %j = arith.addi %j2, %jj : index
  %ji = arith.index_cast %j : index to i32
  %isodd = arith.cmpi eq, %jj, %i1 : index
  %rlo = arith.select %isodd, %v2, %v0 : i32
  %rhi = arith.select %isodd, %v3, %v1 : i32
  %vjw = arith.divui %j, %i4 : index
  %vjw2 = arith.addi %vjw, %i2 : index
  %vjw4 = arith.addi %vjw, %i4 : index
  %vjw6 = arith.addi %vjw4, %i2 : index
  %vw0 = vector.extract %vs[%vjw] : i32 from vector<8xi32>
  %vw1 = vector.extract %vs[%vjw2] : i32 from vector<8xi32>
  %vw2 = vector.extract %vs[%vjw4] : i32 from vector<8xi32>
  %vw3 = vector.extract %vs[%vjw6] : i32 from vector<8xi32>
  %sv:2 = func.call @uq_sm90_v_scales(%vw0, %vw1, %vw2, %vw3, %ji) : (i32, i32, i32, i32, i32) -> (i32, i32)
  return %j, %rlo, %rhi, %sv#0, %sv#1 : index, i32, i32, i32, i32
}

// Fragment tile %tile of a group of 2^%lg tiles of one 32-element
// group: (the group j, the tile i in it) = (tile >> lg, tile & (2^lg - 1))
// (@uq_sm90_stash: 4 n-tiles a group; @uq_sm90_stash_t: 2 m-tiles).
// Inlined (uq.inline).
func.func private @uq_sm90_tile_split(%tile: index, %lg: i32) -> (i32, i32) attributes {uq.inline} {
  %c1 = arith.constant 1 : i32
  %ti = arith.index_cast %tile : index to i32
  %n = arith.shli %c1, %lg : i32
  %mask = arith.subi %n, %c1 : i32
  %j = arith.shrui %ti, %lg : i32
  %i = arith.andi %ti, %mask : i32
  return %j, %i : i32, i32
}

// Warp %warp's state after its tiles into shared memory for the merge
// of the 4 warps (@uq_sm90_merge_layout), QG 16: the accumulators
// %acc_w [n-tile][c0..c3] (rows g, g + 8; head dims 32 j + 8 t + i and
// + 4 for n-tile 4 j + i) as [16][D] f32 from float warp x %accw, and the
// rows' maxima and lane-reduced sums as [16] f32 from float %mbase +
// 16 warp (sums 64 further), written by the lanes t = 0. Inlined before
// the loops unroll (uq.inline): %nnt is the caller's constant.
func.func private @uq_sm90_stash(%acc_w: vector<128xf32>, %m_w0: f32, %m_w1: f32, %l_g_tot: f32, %l_h_tot: f32, %smem: !llvm.ptr<3>, %warp: i32, %accw: i32, %mbase: i32, %g: i32, %t: i32, %hd_i: i32, %nnt: index) attributes {uq.inline} {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %c32 = arith.constant 32 : i32
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %g8 = arith.addi %g, %c8 : i32
  %wacc = arith.muli %warp, %accw : i32
  scf.for %nt = %i0 to %nnt step %i1 {
    %j, %i = func.call @uq_sm90_tile_split(%nt, %c2) : (index, i32) -> (i32, i32)
    %d0a = arith.muli %j, %c32 : i32
    %d0b = arith.muli %t, %c8 : i32
    %d0c = arith.addi %d0a, %d0b : i32
    %d0 = arith.addi %d0c, %i : i32
    %d1 = arith.addi %d0, %c4 : i32
    %rg = arith.muli %g, %hd_i : i32
    %rh = arith.muli %g8, %hd_i : i32
    %e0a = arith.addi %rg, %d0 : i32
    %e1a = arith.addi %rg, %d1 : i32
    %e2a = arith.addi %rh, %d0 : i32
    %e3a = arith.addi %rh, %d1 : i32
    %e0 = arith.addi %wacc, %e0a : i32
    %e1 = arith.addi %wacc, %e1a : i32
    %e2 = arith.addi %wacc, %e2a : i32
    %e3 = arith.addi %wacc, %e3a : i32
    %v0, %v1, %v2, %v3 = func.call @uq_sm90_frag(%acc_w, %nt) : (vector<128xf32>, index) -> (f32, f32, f32, f32)
    %q0 = llvm.getelementptr %smem[%e0] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
    %q1 = llvm.getelementptr %smem[%e1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
    %q2 = llvm.getelementptr %smem[%e2] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
    %q3 = llvm.getelementptr %smem[%e3] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
    llvm.store %v0, %q0 {alignment = 4 : i64} : f32, !llvm.ptr<3>
    llvm.store %v1, %q1 {alignment = 4 : i64} : f32, !llvm.ptr<3>
    llvm.store %v2, %q2 {alignment = 4 : i64} : f32, !llvm.ptr<3>
    llvm.store %v3, %q3 {alignment = 4 : i64} : f32, !llvm.ptr<3>
  }
  %t0 = arith.cmpi eq, %t, %c0 : i32
  scf.if %t0 {
    %wm = arith.muli %warp, %c16 : i32
    %mga = arith.addi %wm, %g : i32
    %mha = arith.addi %wm, %g8 : i32
    %mgi = arith.addi %mga, %mbase : i32
    %mhi = arith.addi %mha, %mbase : i32
    func.call @uq_sm90_stash_rows(%smem, %mgi, %mhi, %m_w0, %m_w1, %l_g_tot, %l_h_tot) : (!llvm.ptr<3>, i32, i32, f32, f32, f32, f32) -> ()
  }
  return
}

// Warp %warp's state after its tiles into shared memory for the merge
// of the 4 warps (@uq_sm90_merge_layout), QG <= 8: the accumulators
// %acc_w [m-tile][c0..c3] (m-tile mt = 2 j + ip: head dims 32 j + 4 g +
// 2 ip, + 1 for c2, c3; query rows 2t: c0, c2 and 2t + 1: c1, c3) as
// [8][D] f32 from float warp x %accw, from head dim %d0 (256 for D =
// 512's second half), and, with %d0 = 0, the rows' maxima and
// lane-reduced sums %l0, %l1 as [16] f32 from float %mbase + 16 warp
// (sums 64 further), written by the lanes g = 0. Inlined before the loops
// unroll (uq.inline): %nmt is the caller's constant.
func.func private @uq_sm90_stash_t(%acc_w: vector<64xf32>, %m_w0: f32, %m_w1: f32, %l0: f32, %l1: f32, %smem: !llvm.ptr<3>, %warp: i32, %tid: i32, %accw: i32, %mbase: i32, %g: i32, %t2: i32, %hd_i: i32, %nmt: index, %d0: i32) attributes {uq.inline} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c32 = arith.constant 32 : i32
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  // acc of m-tile mt = 2j + ip: head dims 32j + 4g + 2ip (+1 for c2,
  // c3), query rows 2t (c0, c2) and 2t + 1 (c1, c3); [8][D] per warp.
  %wacc = arith.muli %warp, %accw : i32
  %q0r0 = arith.muli %t2, %hd_i : i32
  %q0r = arith.addi %q0r0, %d0 : i32
  %q1r = arith.addi %q0r, %hd_i : i32
  %g4 = arith.muli %g, %c4 : i32
  scf.for %mt = %i0 to %nmt step %i1 {
    %j, %ip = func.call @uq_sm90_tile_split(%mt, %c1) : (index, i32) -> (i32, i32)
    %dj = arith.muli %j, %c32 : i32
    %dip = arith.shli %ip, %c1 : i32
    %dd0 = arith.addi %dj, %g4 : i32
    %dd = arith.addi %dd0, %dip : i32
    %e0a = arith.addi %q0r, %dd : i32
    %e1a = arith.addi %q1r, %dd : i32
    %e0 = arith.addi %wacc, %e0a : i32
    %e1 = arith.addi %wacc, %e1a : i32
    %v0, %v1, %v2, %v3 = func.call @uq_sm90_frag_t(%acc_w, %mt) : (vector<64xf32>, index) -> (f32, f32, f32, f32)
    // (c0, c2) and (c1, c3) are adjacent head dims of one row
    %q0 = llvm.getelementptr %smem[%e0] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
    %q1 = llvm.getelementptr %smem[%e1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
    %w02 = vector.from_elements %v0, %v2 : vector<2xf32>
    %w13 = vector.from_elements %v1, %v3 : vector<2xf32>
    llvm.store %w02, %q0 {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
    llvm.store %w13, %q1 {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
  }
  %g00 = arith.cmpi eq, %g, %c0 : i32
  %first_half = arith.cmpi eq, %d0, %c0 : i32
  %g0 = arith.andi %g00, %first_half : i1
  scf.if %g0 {
    // warp x 16 from tid: from warp, ptxas computed it before the
    // tile loop and spilled it there (built for 128 registers)
    %cm16_m = arith.constant -16 : i32
    %wm0 = arith.shrui %tid, %c1 : i32
    %wm = arith.andi %wm0, %cm16_m : i32
    %mqa = arith.addi %wm, %t2 : i32
    %mqi = arith.addi %mqa, %mbase : i32
    %mqi1 = arith.addi %mqi, %c1 : i32
    func.call @uq_sm90_stash_rows(%smem, %mqi, %mqi1, %m_w0, %m_w1, %l0, %l1) : (!llvm.ptr<3>, i32, i32, f32, f32, f32, f32) -> ()
  }
  return
}

// Block %blk_x's tokens (blocks of bt = qg_max / QG query tokens for
// varlen on vLLM's grid, @query_block): the sequence whose cache it
// reads, the query (and output and partials) row of its first token,
// whether it has any, the positions they attend (the first token's end
// at end0, the last's at seq_len, the end of the block's walk: 0 for a
// block of no token) and its live rows, ntok x QG. Row r of the block is
// token r / QG, head r % QG of the group. Inlined (uq.inline).
func.func private @uq_sm90_block_tokens(%query_start_loc: !llvm.ptr<1>, %seq_lens: !llvm.ptr<1>, %search_seqs: i32, %qg_max_i: i32, %qgi: i32, %blk_x: i32) -> (i32, i32, i1, i32, i32, i32) attributes {uq.inline} {
  %c0 = arith.constant 0 : i32
  %c1_g = arith.constant 1 : i32
  %bt0 = arith.divui %qg_max_i, %qgi : i32
  %bt = arith.maxui %bt0, %c1_g : i32
  %qt:4 = func.call @query_block(%query_start_loc, %seq_lens, %search_seqs, %bt, %blk_x) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32) -> (i32, i32, i32, i32)
  %seq = arith.addi %qt#0, %c0 : i32
  %qtok = arith.addi %qt#1, %c0 : i32
  %ntok = arith.addi %qt#2, %c0 : i32
  %has_tokens = arith.cmpi sgt, %ntok, %c0 : i32
  %end0 = arith.addi %qt#3, %c1_g : i32
  %lim_last = arith.addi %qt#3, %ntok : i32
  %seq_len = arith.select %has_tokens, %lim_last, %c0 : i32
  %ntok0 = arith.maxsi %ntok, %c0 : i32
  %live_rows = arith.muli %ntok0, %qgi : i32
  return %seq, %qtok, %has_tokens, %end0, %seq_len, %live_rows : i32, i32, i1, i32, i32, i32
}

// The head dims of a half of the QG <= 8 layout's walk: D up to 256,
// and D = 512 as two halves of 256 (@uq_decode_sm90): each half's Q^T
// fragments, QK group pairs, 8 scale bytes a token and 64 accumulators a
// thread are D = 256's, so the helpers that take them keep their types.
// Inlined (uq.inline).
func.func private @uq_sm90_half_dims() -> index attributes {uq.inline} {
  %i256 = arith.constant 256 : index
  %hd = "uq.param"() {name = "d"} : () -> index
  %hh = arith.minui %hd, %i256 : index
  return %hh : index
}

// The group pairs of a half of the QG <= 8 layout's walk (the K and V
// registers an ldmatrix.x4 gives: @uq_sm90_k_pair, @uq_sm90_v_frags) and
// the groups of a pair that hold the head dim: D/64 pairs of 2 groups,
// and D = 32's one pair of one group (its pair's second half is the bytes
// after the group, loaded and never used). Inlined (uq.inline).
func.func private @uq_sm90_pair_groups() -> (index, index) attributes {uq.inline} {
  %i2 = arith.constant 2 : index
  %i32 = arith.constant 32 : index
  %i64 = arith.constant 64 : index
  %hh = func.call @uq_sm90_half_dims() : () -> index
  %njp = arith.ceildivui %hh, %i64 : index
  %ng = arith.divui %hh, %i32 : index
  %npair = arith.minui %ng, %i2 : index
  return %njp, %npair : index, index
}

// A slot in shared memory (@uq_sm90_slot_geometry): its V codes at byte
// voff, its stride, K scales at D/2 and V scales at voff + D/2; a stage
// of 16 slots. Returns (voff, stride, K scales, V scales, stage bytes).
// Inlined (uq.inline).
func.func private @uq_sm90_slot_layout() -> (i32, i32, i32, i32, i32) attributes {uq.inline} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %hd = "uq.param"() {name = "d"} : () -> index
  %hd_i = arith.index_cast %hd : index to i32
  %geo:3 = func.call @uq_sm90_slot_geometry() : () -> (i32, i32, i32)
  %voff = arith.addi %geo#1, %c0 : i32
  %stride = arith.addi %geo#2, %c0 : i32
  %kso = arith.shrui %hd_i, %c1 : i32
  %vso = arith.addi %voff, %kso : i32
  %stage_b = arith.shli %stride, %c4 : i32
  return %voff, %stride, %kso, %vso, %stage_b : i32, i32, i32, i32, i32
}

// The query image in shared memory: Q in f16 (the E4M3 values), 16 rows
// of 2 D + 16 bytes (an odd multiple of 16: ldmatrix without bank
// conflicts), after the 4 warps' %nstages stages of %stage_b bytes
// (@uq_sm90_shared_bytes). Returns (its byte offset, its row bytes).
// Inlined (uq.inline).
func.func private @uq_sm90_query_image(%stage_b: i32, %nstages: i32) -> (i32, i32) attributes {uq.inline} {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c16 = arith.constant 16 : i32
  %hd = "uq.param"() {name = "d"} : () -> index
  %hd_i = arith.index_cast %hd : index to i32
  %wst_all = arith.muli %stage_b, %nstages : i32
  %q16_off = arith.shli %wst_all, %c2 : i32
  %qrow_b0 = arith.shli %hd_i, %c1 : i32
  %qrow_bytes = arith.addi %qrow_b0, %c16 : i32
  return %q16_off, %qrow_bytes : i32, i32
}

// S^T = K Q^T of one tile for QG <= 8 (@uq_sm90_qk_t): the K scales of
// the lane's tokens g and g + 8 (@uq_sm90_scale_row) from the stage at
// %sbp, K's codes through ldmatrix from the lane's row address %lbase,
// and the Q^T fragments %qf. Inlined (uq.inline).
func.func private @uq_sm90_qk_tile_t(%sbp: !llvm.ptr<3>, %lbase: i32, %qf: vector<32xi32>, %g: i32,
                                     %kso: i32, %stride: i32) -> vector<4xf32> attributes {uq.inline} {
  %c8 = arith.constant 8 : i32
  %ks:2 = func.call @uq_sm90_scale_row(%sbp, %g, %kso, %stride) : (!llvm.ptr<3>, i32, i32, i32) -> (i32, i32)
  %g8s = arith.addi %g, %c8 : i32
  %kh:2 = func.call @uq_sm90_scale_row(%sbp, %g8s, %kso, %stride) : (!llvm.ptr<3>, i32, i32, i32) -> (i32, i32)
  %ks4 = vector.from_elements %ks#0, %ks#1, %kh#0, %kh#1 : vector<4xi32>
  %S = func.call @uq_sm90_qk_t(%lbase, %qf, %ks4) : (i32, vector<32xi32>, vector<4xi32>) -> vector<4xf32>
  return %S : vector<4xf32>
}

// Two rows' maxima %ma, %mb and sums %la, %lb to the merge's floats %ia,
// %ib (maxima) and 64 further (sums; @uq_sm90_merge_layout). Shared by
// @uq_sm90_stash_t and @uq_sm90_stash; inlined (uq.inline).
func.func private @uq_sm90_stash_rows(%smem: !llvm.ptr<3>, %ia: i32, %ib: i32, %ma: f32, %mb: f32,
                                      %la: f32, %lb: f32) attributes {uq.inline} {
  %c64 = arith.constant 64 : i32
  %lia = arith.addi %ia, %c64 : i32
  %lib = arith.addi %ib, %c64 : i32
  %pma = llvm.getelementptr %smem[%ia] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
  %pmb = llvm.getelementptr %smem[%ib] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
  %pla = llvm.getelementptr %smem[%lia] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
  %plb = llvm.getelementptr %smem[%lib] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
  llvm.store %ma, %pma {alignment = 4 : i64} : f32, !llvm.ptr<3>
  llvm.store %mb, %pmb {alignment = 4 : i64} : f32, !llvm.ptr<3>
  llvm.store %la, %pla {alignment = 4 : i64} : f32, !llvm.ptr<3>
  llvm.store %lb, %plb {alignment = 4 : i64} : f32, !llvm.ptr<3>
  return
}
