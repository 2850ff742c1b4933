// The sm_90a attention for blocks of many query rows (prefill chunks,
// verify steps): a CTA holds a block of query rows (the record's `rows`,
// 64 or 128) of one (sequence, KV head) and decodes each 64-token KV tile
// once, into bf16 in shared memory, for all of them; a warpgroup multiplies
// each 64 rows with warpgroup MMAs (wgmma.mma_async) reading Q, K and V
// from shared memory. The arguments, partials and grid are the decode's
// (runtime/kernel_abi.h, docs/design.md "sm_90a kernels"): a query block of
// floor(rows / QG) tokens, rows token-major, on vLLM's grid.
//
// Two walks (the variant's `pwg`, producer warpgroups): with pwg of them
// (128 rows at D 64 and 128: one; 64 rows: one, or two at D 256) the
// warpgroups past the consumers copy and decode each tile into the
// buffers the consumers multiply, handed over through mbarriers
// (@wg_barriers_init), and the consumers overlap the softmax of tile k
// with P V of tile k - 1; without (128 rows at D 256, 256 threads) every
// thread copies, decodes, then multiplies. The block's rows and pwg are
// parameters: rows / 64 consumer warpgroups, and the barrier counts, the
// query staging and the register split follow them
// (@wg_move_registers). On the prefill chunk (L 2048 over
// 34,816 tokens, QG 8; H100, docs/benchmarks.md) the producer warpgroup
// took 0.80x (D 64) and 0.94x (D 128) the time of the all-threads walk;
// at D 256 it took 1.05x (H200, docs/experiments.md). Per tile:
// - copy: the 64 slots of the tile, as they are in the cache, into one of
//   two raw stages with cp.async (the next tile's copy is in flight while
//   this one is decoded and multiplied); tokens outside the block's
//   positions are clamped to one it has, and masked.
// - decode: K and V into bf16, code x 2^(scale - 127) exactly (a UE8M0
//   scale is a power of two; two bf16 multiplies, x 2^126 then x
//   2^(s - 127), keep every product exact where one would leave bf16's
//   range), into [token][head dim] rows of 128-byte swizzled atoms (8
//   rows x 64 head dims, 16-byte chunk c of row r at c ^ (r % 8)): K is
//   the K-major B operand of S = Q K^T, V the MN-major (transposed) B
//   operand of O = P V. Within each 8 head dims the decode's natural pair
//   order is kept: position 2i holds element i and 2i + 1 element i + 4
//   (@uq_sm90_fp4_bf16x2's pairs); Q is stored in the same order, which a
//   dot product does not see, and the output undoes it.
// V has two buffers: a tile's O += P V is left in flight while the next
// tile is copied and decoded (K's buffer is free once its S is done), and
// the next S's wgmma.wait_group drains it.
// Per warpgroup: S = Q K^T (D / 16 wgmma m64n64k16, Q and K from shared
// memory), the online softmax in base 2 with the lazy maximum
// (@uq_sm90_lazy_max) on the accumulators (thread: rows g and g + 8 of
// its warp's 16), P rounded to bf16 in registers as the A operand of
// O += P V (4 k-steps per 64 head dims of O, D / 64 accumulators of 32).
// With one partition the CTA writes its rows of the output itself (the
// reduce's arithmetic with the sinks); with more it writes the partials the
// reduce merges.
// min_rows (a run's longest query x QG): the plan gives a block only runs
// that fill it. On an H100 (scripts/sm90-ab.sh, docs/benchmarks.md) the
// 128-row block takes a 2,048-token prefill chunk at QG 8 in 0.54x the
// time of the decode kernel's blocks but a 4-token verify step (32 or 64
// of its rows) in 1.1-2.1x; the 64-row block takes that step at QG 16 in
// 0.79-0.94x (docs/experiments.md, stop 51).
module attributes {gpu.container_module} {
  gpu.module @uq_decode_wgmma [#nvvm.target<chip = "sm_90a", features = "+ptx84", O = 3>] attributes {uq.variants = [{d = 64, qg_max = 16, rows = 128, min_rows = 128, pwg = 1}, {d = 128, qg_max = 16, rows = 128, min_rows = 128, pwg = 1}, {d = 256, qg_max = 16, rows = 128, min_rows = 128, pwg = 0}, {d = 64, qg_max = 16, rows = 64, min_rows = 64, pwg = 1}, {d = 128, qg_max = 16, rows = 64, min_rows = 64, pwg = 1}, {d = 256, qg_max = 16, rows = 64, min_rows = 64, pwg = 2}], uq.kernel_attrs = [{nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 384, 1, 1>}, {nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 384, 1, 1>}, {nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 256, 1, 1>}, {nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 256, 1, 1>}, {nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 256, 1, 1>}, {nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 384, 1, 1>}]} {
    llvm.mlir.global external @uq_decode_wgmma_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
    llvm.mlir.global external constant @uq_dynamic_shared_bytes() {addr_space = 4 : i32, uq.value_of = @wg_shared_bytes} : i32
    // A partition walks groups of 4 16-token tiles: one 64-token tile here.
    llvm.mlir.global external constant @uq_walk_group_tiles() {addr_space = 4 : i32, uq.value_of = @wg_walk_tiles} : i32
    // Its copy stages (@wg_raw_stages), for uq-compile's table.
    llvm.mlir.global external constant @uq_pipeline_stages() {addr_space = 4 : i32, uq.value_of = @wg_raw_stages} : i32

    // From kernels/steps.mlir, linked by uq-link.
    func.func private @query_block(!llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32) -> (i32, i32, i32, i32)
    func.func private @row_limit(i32, i32, i32, i32) -> i32
    func.func private @window_start(i32, i32) -> i32
    func.func private @act_widen(i16, i1) -> f32
    func.func private @act_narrow(f32, i1) -> i16
    // From kernels/sm90a.mlir, linked by uq-link.
    func.func private @uq_sm90_wht_lanes(vector<32xf32>, index, i32, index) -> vector<32xf32>
    func.func private @uq_sm90_wht_scale(i32) -> f32
    func.func private @uq_sm90_query_e4m3(f32, f32, f32) -> i32
    func.func private @uq_sm90_partial_row(i32, i32, i32, i32, i32, i32, i32) -> i32
    func.func private @uq_sm90_exp2(f32) -> f32
    func.func private @uq_sm90_rcp(f32) -> f32
    func.func private @uq_sm90_lazy_max(f32, f32) -> f32
    func.func private @uq_sm90_lazy_correction(f32, f32) -> f32
    func.func private @uq_sm90_fp4_bf16x2(i32, i32) -> i32

    // Raw stages: tile k's slots are copied into stage k % 2 while tile
    // k - 1 is decoded from the other (the walk indexes them by parity).
    func.func private @wg_raw_stages() -> i32 {
      %c2 = arith.constant 2 : i32
      return %c2 : i32
    }

    // K buffers of the walk with producer warpgroups: tile k's K goes to
    // buffer k % n. With one, the producers decode tile k + 1's K only
    // once the consumers' S(k) has read tile k's; with two they decode it
    // during S(k). Two are built (every wgmma cubin compiles without
    // spills; shared memory grows by one [64][D] bf16 tile: 200,768 B at
    // D 256 / 64 rows) and not yet timed (docs/experiments.md, stop 51).
    func.func private @wg_k_buffers() -> i32 {
      %c1 = arith.constant 1 : i32
      return %c1 : i32
    }

    func.func private @wg_walk_tiles() -> i32 {
      %c4 = arith.constant 4 : i32
      return %c4 : i32
    }

    // Shared memory, from the first 1024-aligned byte (the swizzle is a
    // function of the address): Q [rows][D] bf16 (each consumer
    // warpgroup's 64 rows, 128 D bytes), K [64][D] bf16 (@wg_k_buffers of
    // them with producer warpgroups, one without), two V [64][D] bf16,
    // then two raw stages of 64 slots of %rs bytes (the slot's D + D/16
    // content rounded up to 16), then, with producer warpgroups, their
    // mbarriers (64 bytes). Returns (rs, K, V, raw, barriers, total bytes
    // with the 1024 of alignment slack).
    func.func private @wg_layout() -> (i32, i32, i32, i32, i32, i32) attributes {uq.inline} {
      %c1 = arith.constant 1 : i32
      %c4 = arith.constant 4 : i32
      %c15 = arith.constant 15 : i32
      %cm16 = arith.constant -16 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %c1024 = arith.constant 1024 : i32
      %hd = "uq.param"() {name = "d"} : () -> index
      %rows = "uq.param"() {name = "rows"} : () -> index
      %d = arith.index_cast %hd : index to i32
      %r = arith.index_cast %rows : index to i32
      %d16 = arith.shrui %d, %c4 : i32
      %content = arith.addi %d, %d16 : i32
      %rs0 = arith.addi %content, %c15 : i32
      %rs = arith.andi %rs0, %cm16 : i32
      %tile = arith.muli %d, %c128 : i32
      %pwg = "uq.param"() {name = "pwg"} : () -> index
      %no_pwg = arith.constant 0 : index
      %has_pwg = arith.cmpi ne, %pwg, %no_pwg : index
      %kbufs = func.call @wg_k_buffers() : () -> i32
      %ktiles = arith.select %has_pwg, %kbufs, %c1 : i32
      %kbytes = arith.muli %ktiles, %tile : i32
      %q0 = arith.muli %r, %d : i32
      %k = arith.shli %q0, %c1 : i32
      %v = arith.addi %k, %kbytes : i32
      %v2 = arith.addi %v, %tile : i32
      %raw = arith.addi %v2, %tile : i32
      %stage = arith.muli %rs, %c64 : i32
      %nstages = func.call @wg_raw_stages() : () -> i32
      %stages = arith.muli %stage, %nstages : i32
      // the mbarriers (@wg_barriers_init), with producer warpgroups only
      %c0b = arith.constant 0 : i32
      %bar_bytes = arith.select %has_pwg, %c64, %c0b : i32
      %bars = arith.addi %raw, %stages : i32
      %end = arith.addi %bars, %bar_bytes : i32
      %total = arith.addi %end, %c1024 : i32
      return %rs, %k, %v, %raw, %bars, %total : i32, i32, i32, i32, i32, i32
    }

    func.func private @wg_shared_bytes() -> i32 {
      %l:6 = func.call @wg_layout() : () -> (i32, i32, i32, i32, i32, i32)
      return %l#5 : i32
    }

    // The CTA's threads by role: 2 x rows consumers (a warpgroup per 64
    // rows; every thread of the walk without producers) and 128 x pwg
    // producers, threads 2 x rows on.
    func.func private @wg_threads() -> (i32, i32) attributes {uq.inline} {
      %c1 = arith.constant 1 : i32
      %c7 = arith.constant 7 : i32
      %rows = "uq.param"() {name = "rows"} : () -> index
      %pwg = "uq.param"() {name = "pwg"} : () -> index
      %r = arith.index_cast %rows : index to i32
      %p = arith.index_cast %pwg : index to i32
      %consumers = arith.shli %r, %c1 : i32
      %producers = arith.shli %p, %c7 : i32
      return %consumers, %producers : i32, i32
    }

    // A wgmma shared-memory matrix descriptor: start address and leading
    // byte offset in 16-byte units, stride byte offset 1024 (the next 8
    // rows of 128-byte swizzled atoms), 128-byte swizzle (bits 62-63 = 1).
    func.func private @wg_desc(%addr: i32, %lbo: i32) -> i64 {
      %c4 = arith.constant 4 : i32
      %m14 = arith.constant 0x3FFF : i32
      %c16 = arith.constant 16 : i64
      %fixed = arith.constant 0x4000004000000000 : i64
      %a0 = arith.shrui %addr, %c4 : i32
      %a = arith.andi %a0, %m14 : i32
      %b0 = arith.shrui %lbo, %c4 : i32
      %b = arith.andi %b0, %m14 : i32
      %a64 = arith.extui %a : i32 to i64
      %b64 = arith.extui %b : i32 to i64
      %bs = arith.shli %b64, %c16 : i64
      %x = arith.ori %a64, %bs : i64
      %d = arith.ori %x, %fixed : i64
      return %d : i64
    }

    // Byte offset of 16-byte chunk %j (head dims 8 j .. 8 j + 7) of row
    // %t in a [64 rows][D] bf16 region of 128-byte swizzled atoms: the
    // 64-head-dim slice j / 8 is 8192 bytes on, row t 128 bytes a row,
    // chunk j % 8 at (j % 8) ^ (t % 8).
    func.func private @wg_chunk(%t: i32, %j: i32) -> i32 {
      %c3 = arith.constant 3 : i32
      %c4 = arith.constant 4 : i32
      %c7 = arith.constant 7 : i32
      %c7s = arith.constant 7 : i32
      %c13 = arith.constant 13 : i32
      %js = arith.shrui %j, %c3 : i32
      %o0 = arith.shli %js, %c13 : i32
      %o1 = arith.shli %t, %c7s : i32
      %jl = arith.andi %j, %c7 : i32
      %tl = arith.andi %t, %c7 : i32
      %x = arith.xori %jl, %tl : i32
      %o2 = arith.shli %x, %c4 : i32
      %a = arith.addi %o0, %o1 : i32
      %b = arith.addi %a, %o2 : i32
      return %b : i32
    }

    // One 64-token tile's cache slots into the raw stage at shared address
    // %stage (slot t at t * rs), as they are: 17 pieces of D/16 bytes a
    // slot when the cache's base and slot stride allow that alignment
    // (%wide), else 4-byte pieces. Position tok0 + t is clamped to
    // [lo, hi], a position of the block (no read past its block-table
    // entries, no unwritten slot); the scores of clamped tokens are masked.
    func.func private @wg_copy_tile(%stage: i32, %tok0: i32, %lo: i32, %hi: i32, %seq: i32,
                                    %kv_cache: !llvm.ptr<1>, %block_tables: !llvm.ptr<1>,
                                    %max_blocks_per_seq: i32, %block_size: i32,
                                    %num_kv_heads: i32, %kvh: i32, %padded_slot: i32,
                                    %wide: i1, %tid: i32, %nthreads: index) attributes {uq.inline} {
      %c4 = arith.constant 4 : i32
      %c64 = arith.constant 64 : i32
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %hd = "uq.param"() {name = "d"} : () -> index
      %d = arith.index_cast %hd : index to i32
      %u0 = arith.shrui %d, %c4 : i32
      %content = arith.addi %d, %u0 : i32
      %row = arith.muli %seq, %max_blocks_per_seq : i32
      %row64 = arith.extui %row : i32 to i64
      %tix = arith.index_cast %tid : i32 to index
      scf.if %wide {
        // 17 pieces a slot: a constant trip count (at most 16 a thread:
        // %nthreads >= 69), unrolled, every piece's block-table read issued
        // before the first cp.async, so that they wait for memory once,
        // not once a piece (on an H100 the prefill chunk at D 64, 128 and
        // 256 took 0.94x, 0.88x and 0.98x the time of the loop that read
        // and copied a piece at a time); a thread past the last piece
        // copies the last one again (the same bytes)
        %n = arith.divui %content, %u0 : i32
        %total = arith.muli %n, %c64 : i32
        %c1c = arith.constant 1 : i32
        %last = arith.subi %total, %c1c : i32
        %totx = arith.index_cast %total : i32 to index
        %nm = arith.subi %nthreads, %i1 : index
        %totr = arith.addi %totx, %nm : index
        %iters = arith.divui %totr, %nthreads : index
        %zb = arith.constant dense<0> : vector<16xi32>
        %blks = scf.for %it = %i0 to %iters step %i1 iter_args(%bv = %zb) -> (vector<16xi32>) {
          %io = arith.muli %it, %nthreads : index
          %ix = arith.addi %tix, %io : index
          %i0w = arith.index_cast %ix : index to i32
          %i = arith.minui %i0w, %last : i32
          %blk = func.call @wg_piece_block(%i, %n, %tok0, %lo, %hi, %row64, %block_tables, %block_size) : (i32, i32, i32, i32, i32, i64, !llvm.ptr<1>, i32) -> i32
          %bv1 = vector.insert %blk, %bv[%it] : i32 into vector<16xi32>
          scf.yield %bv1 : vector<16xi32>
        }
        scf.for %it = %i0 to %iters step %i1 {
          %io = arith.muli %it, %nthreads : index
          %ix = arith.addi %tix, %io : index
          %i0w = arith.index_cast %ix : index to i32
          %i = arith.minui %i0w, %last : i32
          %blk = vector.extract %blks[%it] : i32 from vector<16xi32>
          %pd:2 = func.call @wg_copy_piece(%i, %n, %u0, %blk, %stage, %tok0, %lo, %hi, %kv_cache, %block_size, %num_kv_heads, %kvh, %padded_slot) : (i32, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<1>, i32, i32, i32, i32) -> (i64, i32)
          func.call @wg_copy_async(%pd#0, %pd#1, %u0) : (i64, i32, i32) -> ()
        }
      } else {
        %n = arith.divui %content, %c4 : i32
        %total = arith.muli %n, %c64 : i32
        %totx = arith.index_cast %total : i32 to index
        scf.for %ix = %tix to %totx step %nthreads {
          %i = arith.index_cast %ix : index to i32
          %blk = func.call @wg_piece_block(%i, %n, %tok0, %lo, %hi, %row64, %block_tables, %block_size) : (i32, i32, i32, i32, i32, i64, !llvm.ptr<1>, i32) -> i32
          %pd:2 = func.call @wg_copy_piece(%i, %n, %c4, %blk, %stage, %tok0, %lo, %hi, %kv_cache, %block_size, %num_kv_heads, %kvh, %padded_slot) : (i32, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<1>, i32, i32, i32, i32) -> (i64, i32)
          func.call @wg_copy_async(%pd#0, %pd#1, %c4) : (i64, i32, i32) -> ()
        }
      }
      return
    }

    // The cache position of piece %i (of %n a slot) of a tile: slot i / n
    // at position tok0 + i / n clamped to [lo, hi], and its block-table
    // entry's index (block, offset in the block).
    func.func private @wg_piece_pos(%i: i32, %n: i32, %tok0: i32, %lo: i32, %hi: i32, %block_size: i32) -> (i32, i32, i32) attributes {uq.inline} {
      %t = arith.divui %i, %n : i32
      %p0 = arith.addi %tok0, %t : i32
      %p1 = arith.maxsi %p0, %lo : i32
      %pos = arith.minsi %p1, %hi : i32
      %bi = arith.divui %pos, %block_size : i32
      %bo = arith.remui %pos, %block_size : i32
      return %t, %bi, %bo : i32, i32, i32
    }

    // The block-table entry of piece %i's slot.
    func.func private @wg_piece_block(%i: i32, %n: i32, %tok0: i32, %lo: i32, %hi: i32, %row64: i64,
                                      %block_tables: !llvm.ptr<1>, %block_size: i32) -> i32 attributes {uq.inline} {
      %p:3 = func.call @wg_piece_pos(%i, %n, %tok0, %lo, %hi, %block_size) : (i32, i32, i32, i32, i32, i32) -> (i32, i32, i32)
      %bi64 = arith.extui %p#1 : i32 to i64
      %e = arith.addi %row64, %bi64 : i64
      %bp = llvm.getelementptr %block_tables[%e] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
      %blk = llvm.load %bp {alignment = 4 : i64} : !llvm.ptr<1> -> i32
      return %blk : i32
    }

    // Piece %i (of %n a slot, %u bytes each) of a tile's copy, its slot in
    // cache block %blk: the global source and the shared destination (slot
    // i / n of the stage, piece i % n).
    func.func private @wg_copy_piece(%i: i32, %n: i32, %u: i32, %blk: i32, %stage: i32, %tok0: i32, %lo: i32, %hi: i32,
                                     %kv_cache: !llvm.ptr<1>, %block_size: i32,
                                     %num_kv_heads: i32, %kvh: i32, %padded_slot: i32) -> (i64, i32) attributes {uq.inline} {
      %l:6 = func.call @wg_layout() : () -> (i32, i32, i32, i32, i32, i32)
      %hk64 = arith.extui %num_kv_heads : i32 to i64
      %kvh64 = arith.extui %kvh : i32 to i64
      %ps64 = arith.extui %padded_slot : i32 to i64
      %bs64 = arith.extui %block_size : i32 to i64
      %p:3 = func.call @wg_piece_pos(%i, %n, %tok0, %lo, %hi, %block_size) : (i32, i32, i32, i32, i32, i32) -> (i32, i32, i32)
      %tn0 = arith.muli %p#0, %n : i32
      %pc = arith.subi %i, %tn0 : i32
      %blk64 = arith.extui %blk : i32 to i64
      %bo64 = arith.extui %p#2 : i32 to i64
      %s0 = arith.muli %blk64, %bs64 : i64
      %s1 = arith.addi %s0, %bo64 : i64
      %s2 = arith.muli %s1, %hk64 : i64
      %s3 = arith.addi %s2, %kvh64 : i64
      %s4 = arith.muli %s3, %ps64 : i64
      %pb = arith.muli %pc, %u : i32
      %pb64 = arith.extui %pb : i32 to i64
      %s5 = arith.addi %s4, %pb64 : i64
      %src = llvm.getelementptr %kv_cache[%s5] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
      %src_i = llvm.ptrtoint %src : !llvm.ptr<1> to i64
      %dt = arith.muli %p#0, %l#0 : i32
      %d0 = arith.addi %stage, %dt : i32
      %dst = arith.addi %d0, %pb : i32
      return %src_i, %dst : i64, i32
    }

    // cp.async of one %u-byte piece (16, 8 or 4: a constant once inlined).
    func.func private @wg_copy_async(%src_i: i64, %dst: i32, %u: i32) attributes {uq.inline} {
      %c8u = arith.constant 8 : i32
      %c16u = arith.constant 16 : i32
      %is16 = arith.cmpi eq, %u, %c16u : i32
      %is8 = arith.cmpi eq, %u, %c8u : i32
      scf.if %is16 {
        llvm.inline_asm has_side_effects asm_dialect = att "cp.async.cg.shared.global [$0], [$1], 16;", "r,l,~{memory}" %dst, %src_i : (i32, i64) -> ()
      } else {
        scf.if %is8 {
          llvm.inline_asm has_side_effects asm_dialect = att "cp.async.ca.shared.global [$0], [$1], 8;", "r,l,~{memory}" %dst, %src_i : (i32, i64) -> ()
        } else {
          llvm.inline_asm has_side_effects asm_dialect = att "cp.async.ca.shared.global [$0], [$1], 4;", "r,l,~{memory}" %dst, %src_i : (i32, i64) -> ()
        }
      }
      return
    }

    // The 16 code bytes at shared address %a (a group of 32 codes) as 4
    // words, read 16, 8, 4 or 2 bytes at a time as %a's alignment allows
    // (%align: 16, 8, 4 or 2, a constant once inlined).
    func.func private @wg_load_group(%a: i32, %align: i32) -> vector<4xi32> attributes {uq.inline} {
      %c2 = arith.constant 2 : i32
      %c4 = arith.constant 4 : i32
      %c8 = arith.constant 8 : i32
      %c16 = arith.constant 16 : i32
      %smem = llvm.mlir.addressof @uq_decode_wgmma_smem : !llvm.ptr<3>
      %smem_i = llvm.ptrtoint %smem : !llvm.ptr<3> to i32
      %o = arith.subi %a, %smem_i : i32
      %p = llvm.getelementptr %smem[%o] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %a16 = arith.cmpi eq, %align, %c16 : i32
      %a8 = arith.cmpi eq, %align, %c8 : i32
      %a4 = arith.cmpi eq, %align, %c4 : i32
      %w = scf.if %a16 -> (vector<4xi32>) {
        %v = llvm.load %p {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
        scf.yield %v : vector<4xi32>
      } else {
        %w8 = scf.if %a8 -> (vector<4xi32>) {
          %p8 = llvm.getelementptr %p[8] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
          %lo = llvm.load %p {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xi32>
          %hi = llvm.load %p8 {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xi32>
          %v = vector.shuffle %lo, %hi [0, 1, 2, 3] : vector<2xi32>, vector<2xi32>
          scf.yield %v : vector<4xi32>
        } else {
          %w4 = scf.if %a4 -> (vector<4xi32>) {
            %v = llvm.load %p {alignment = 4 : i64} : !llvm.ptr<3> -> vector<4xi32>
            scf.yield %v : vector<4xi32>
          } else {
            %v = llvm.load %p {alignment = 2 : i64} : !llvm.ptr<3> -> vector<4xi32>
            scf.yield %v : vector<4xi32>
          }
          scf.yield %w4 : vector<4xi32>
        }
        scf.yield %w8 : vector<4xi32>
      }
      return %w : vector<4xi32>
    }

    // Code word %word's 8 codes (@uq_sm90_fp4_bf16x2's pairs: element i
    // with i + 4), scale %sc (the scale byte in both bf16 exponents, x
    // 0x00800080), into bf16 chunk %j of row %t of the [64][D] region at
    // %dst (@wg_chunk): each pair is the code's value x 2^-126, times 2^126
    // and then 2^(s - 127) (both exact in bf16 for every scale the encoder
    // writes; a scale byte 0 leaves 0 for the zero codes of its group).
    func.func private @wg_decode_word(%word: i32, %sc: i32, %t: i32, %j: i32, %dst: i32) attributes {uq.inline} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %two126 = arith.constant 0x7E807E80 : i32
      %smem = llvm.mlir.addressof @uq_decode_wgmma_smem : !llvm.ptr<3>
      %smem_i = llvm.ptrtoint %smem : !llvm.ptr<3> to i32
      %w0 = func.call @uq_sm90_fp4_bf16x2(%word, %c0) : (i32, i32) -> i32
      %w1 = func.call @uq_sm90_fp4_bf16x2(%word, %c1) : (i32, i32) -> i32
      %w2 = func.call @uq_sm90_fp4_bf16x2(%word, %c2) : (i32, i32) -> i32
      %w3 = func.call @uq_sm90_fp4_bf16x2(%word, %c3) : (i32, i32) -> i32
      %y = llvm.inline_asm asm_dialect = att "{ .reg .b32 t0, t1, t2, t3; mul.rn.bf16x2 t0, $4, $8; mul.rn.bf16x2 t1, $5, $8; mul.rn.bf16x2 t2, $6, $8; mul.rn.bf16x2 t3, $7, $8; mul.rn.bf16x2 $0, t0, $9; mul.rn.bf16x2 $1, t1, $9; mul.rn.bf16x2 $2, t2, $9; mul.rn.bf16x2 $3, t3, $9; }", "=r,=r,=r,=r,r,r,r,r,r,r" %w0, %w1, %w2, %w3, %two126, %sc : (i32, i32, i32, i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
      %y0 = llvm.extractvalue %y[0] : !llvm.struct<(i32, i32, i32, i32)>
      %y1 = llvm.extractvalue %y[1] : !llvm.struct<(i32, i32, i32, i32)>
      %y2 = llvm.extractvalue %y[2] : !llvm.struct<(i32, i32, i32, i32)>
      %y3 = llvm.extractvalue %y[3] : !llvm.struct<(i32, i32, i32, i32)>
      %ch = func.call @wg_chunk(%t, %j) : (i32, i32) -> i32
      %da = arith.addi %dst, %ch : i32
      %dso = arith.subi %da, %smem_i : i32
      %dp = llvm.getelementptr %smem[%dso] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %v = vector.from_elements %y0, %y1, %y2, %y3 : vector<4xi32>
      llvm.store %v, %dp {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
      return
    }

    // Scale byte %g of the raw slot row at shared address %row (scales
    // from byte %scales), in both bf16 exponents of a word (x 0x00800080):
    // @wg_decode_word's %sc.
    func.func private @wg_group_scale(%row: i32, %scales: i32, %g: i32) -> i32 attributes {uq.inline} {
      %spread = arith.constant 0x00800080 : i32
      %smem = llvm.mlir.addressof @uq_decode_wgmma_smem : !llvm.ptr<3>
      %smem_i = llvm.ptrtoint %smem : !llvm.ptr<3> to i32
      %sa0 = arith.addi %row, %scales : i32
      %sa = arith.addi %sa0, %g : i32
      %so = arith.subi %sa, %smem_i : i32
      %sp = llvm.getelementptr %smem[%so] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %sb = llvm.load %sp {alignment = 1 : i64} : !llvm.ptr<3> -> i8
      %s = arith.extui %sb : i8 to i32
      %sc = arith.muli %s, %spread : i32
      return %sc : i32
    }

    // One 64-token tile of K or V (codes from byte %codes of each raw slot,
    // scales from %scales) into bf16 at shared address %dst ([64][D], the
    // swizzled atoms of @wg_chunk), by all 2 x rows threads of the walk
    // without a producer: a thread a 32-bit word of 8 codes at a time
    // (@wg_decode_word). D = 64's V codes start at byte 34 of the slot: two
    // 16-bit loads. (At D 256 this measured 7% faster than
    // @wg_decode_groups over the same 256 threads, H200.)
    func.func private @wg_decode_tile(%src: i32, %codes: i32, %scales: i32, %dst: i32, %tid: i32) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c16 = arith.constant 16 : i32
      %c64 = arith.constant 64 : i32
      %hd = "uq.param"() {name = "d"} : () -> index
      %d = arith.index_cast %hd : index to i32
      %th:2 = func.call @wg_threads() : () -> (i32, i32)
      %nthreads = arith.index_cast %th#0 : i32 to index
      %l:6 = func.call @wg_layout() : () -> (i32, i32, i32, i32, i32, i32)
      %wpt = arith.shrui %d, %c3 : i32
      %total = arith.muli %wpt, %c64 : i32
      %wm = arith.subi %wpt, %c1 : i32
      %c3w = arith.constant 3 : i32
      %ca = arith.andi %codes, %c3w : i32
      %aligned = arith.cmpi eq, %ca, %c0 : i32
      %smem = llvm.mlir.addressof @uq_decode_wgmma_smem : !llvm.ptr<3>
      %smem_i = llvm.ptrtoint %smem : !llvm.ptr<3> to i32
      %tix = arith.index_cast %tid : i32 to index
      %totx = arith.index_cast %total : i32 to index
      scf.for %ix = %tix to %totx step %nthreads {
        %i = arith.index_cast %ix : index to i32
        %t = arith.divui %i, %wpt : i32
        %j = arith.andi %i, %wm : i32
        %tr = arith.muli %t, %l#0 : i32
        %row = arith.addi %src, %tr : i32
        %j4 = arith.shli %j, %c2 : i32
        %wa0 = arith.addi %row, %codes : i32
        %wa = arith.addi %wa0, %j4 : i32
        %wo = arith.subi %wa, %smem_i : i32
        %word = scf.if %aligned -> (i32) {
          %p = llvm.getelementptr %smem[%wo] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %w = llvm.load %p {alignment = 4 : i64} : !llvm.ptr<3> -> i32
          scf.yield %w : i32
        } else {
          %wo2 = arith.addi %wo, %c2 : i32
          %p = llvm.getelementptr %smem[%wo] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %p2 = llvm.getelementptr %smem[%wo2] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %lo = llvm.load %p {alignment = 2 : i64} : !llvm.ptr<3> -> i16
          %hi = llvm.load %p2 {alignment = 2 : i64} : !llvm.ptr<3> -> i16
          %lo32 = arith.extui %lo : i16 to i32
          %hi32 = arith.extui %hi : i16 to i32
          %hs = arith.shli %hi32, %c16 : i32
          %w = arith.ori %lo32, %hs : i32
          scf.yield %w : i32
        }
        %jg = arith.shrui %j, %c2 : i32
        %sc = func.call @wg_group_scale(%row, %scales, %jg) : (i32, i32, i32) -> i32
        func.call @wg_decode_word(%word, %sc, %t, %j, %dst) : (i32, i32, i32, i32, i32) -> ()
      }
      return
    }

    // The same tile decode by the producer warpgroup's %nthreads threads:
    // a thread a group of 32 codes (16 bytes, one scale byte) a step, four
    // words (@wg_decode_word), a constant trip count, unrolled: every
    // group's loads in flight together.
    func.func private @wg_decode_groups(%src: i32, %codes: i32, %scales: i32, %dst: i32, %tid: i32, %nthreads: index) attributes {uq.inline} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c4 = arith.constant 4 : i32
      %c5 = arith.constant 5 : i32
      %c16 = arith.constant 16 : i32
      %c64 = arith.constant 64 : i32
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i4 = arith.constant 4 : index
      %hd = "uq.param"() {name = "d"} : () -> index
      %d = arith.index_cast %hd : index to i32
      %l:6 = func.call @wg_layout() : () -> (i32, i32, i32, i32, i32, i32)
      // groups per token, per tile
      %gpt = arith.shrui %d, %c5 : i32
      %total = arith.muli %gpt, %c64 : i32
      %gm = arith.subi %gpt, %c1 : i32
      // the codes' alignment in the slot (the stage is 16-byte aligned,
      // rs a multiple of 16): the largest of 16, 8, 4, 2 dividing %codes
      %c15 = arith.constant 15 : i32
      %cl = arith.andi %codes, %c15 : i32
      %cz = arith.cmpi eq, %cl, %c0 : i32
      %neg = arith.subi %c0, %cl : i32
      %low = arith.andi %cl, %neg : i32
      %align = arith.select %cz, %c16, %low : i32
      %smem = llvm.mlir.addressof @uq_decode_wgmma_smem : !llvm.ptr<3>
      %smem_i = llvm.ptrtoint %smem : !llvm.ptr<3> to i32
      %tix = arith.index_cast %tid : i32 to index
      %totx = arith.index_cast %total : i32 to index
      // a thread past the last group decodes the last one again (the same
      // bytes to the same place)
      %nm = arith.subi %nthreads, %i1 : index
      %totr = arith.addi %totx, %nm : index
      %iters = arith.divui %totr, %nthreads : index
      %last = arith.subi %total, %c1 : i32
      %rem = arith.remui %totx, %nthreads : index
      %exact = arith.cmpi eq, %rem, %i0 : index
      scf.for %it = %i0 to %iters step %i1 {
        %io = arith.muli %it, %nthreads : index
        %ix = arith.addi %tix, %io : index
        %iw = arith.index_cast %ix : index to i32
        %im = arith.minui %iw, %last : i32
        %i = arith.select %exact, %iw, %im : i32
        %t = arith.divui %i, %gpt : i32
        %g = arith.andi %i, %gm : i32
        %tr = arith.muli %t, %l#0 : i32
        %row = arith.addi %src, %tr : i32
        %g16 = arith.shli %g, %c4 : i32
        %ca0 = arith.addi %row, %codes : i32
        %ca = arith.addi %ca0, %g16 : i32
        %words = func.call @wg_load_group(%ca, %align) : (i32, i32) -> vector<4xi32>
        %sc = func.call @wg_group_scale(%row, %scales, %g) : (i32, i32, i32) -> i32
        %g4 = arith.shli %g, %c2 : i32
        scf.for %w = %i0 to %i4 step %i1 {
          %word = vector.extract %words[%w] : i32 from vector<4xi32>
          %wi = arith.index_cast %w : index to i32
          %j = arith.addi %g4, %wi : i32
          func.call @wg_decode_word(%word, %sc, %t, %j, %dst) : (i32, i32, i32, i32, i32) -> ()
        }
      }
      return
    }

    // The largest and the sum of a value over the 4 threads of a quad (the
    // threads holding one accumulator row).
    func.func private @wg_quad_max(%x: f32) -> f32 {
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c32 = arith.constant 32 : i32
      %a, %va = gpu.shuffle xor %x, %c1, %c32 : f32
      %y = arith.maximumf %x, %a : f32
      %b, %vb = gpu.shuffle xor %y, %c2, %c32 : f32
      %z = arith.maximumf %y, %b : f32
      return %z : f32
    }

    func.func private @wg_quad_sum(%x: f32) -> f32 {
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c32 = arith.constant 32 : i32
      %a, %va = gpu.shuffle xor %x, %c1, %c32 : f32
      %y = arith.addf %x, %a : f32
      %b, %vb = gpu.shuffle xor %y, %c2, %c32 : f32
      %z = arith.addf %y, %b : f32
      return %z : f32
    }
    // The 32 accumulators an asm statement returns, as a vector.
    func.func private @wg_acc_vector(%r: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) -> vector<32xf32> {
      %b0 = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b1 = llvm.extractvalue %r[1] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b2 = llvm.extractvalue %r[2] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b3 = llvm.extractvalue %r[3] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b4 = llvm.extractvalue %r[4] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b5 = llvm.extractvalue %r[5] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b6 = llvm.extractvalue %r[6] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b7 = llvm.extractvalue %r[7] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b8 = llvm.extractvalue %r[8] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b9 = llvm.extractvalue %r[9] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b10 = llvm.extractvalue %r[10] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b11 = llvm.extractvalue %r[11] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b12 = llvm.extractvalue %r[12] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b13 = llvm.extractvalue %r[13] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b14 = llvm.extractvalue %r[14] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b15 = llvm.extractvalue %r[15] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b16 = llvm.extractvalue %r[16] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b17 = llvm.extractvalue %r[17] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b18 = llvm.extractvalue %r[18] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b19 = llvm.extractvalue %r[19] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b20 = llvm.extractvalue %r[20] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b21 = llvm.extractvalue %r[21] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b22 = llvm.extractvalue %r[22] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b23 = llvm.extractvalue %r[23] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b24 = llvm.extractvalue %r[24] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b25 = llvm.extractvalue %r[25] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b26 = llvm.extractvalue %r[26] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b27 = llvm.extractvalue %r[27] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b28 = llvm.extractvalue %r[28] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b29 = llvm.extractvalue %r[29] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b30 = llvm.extractvalue %r[30] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %b31 = llvm.extractvalue %r[31] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %out = vector.from_elements %b0, %b1, %b2, %b3, %b4, %b5, %b6, %b7, %b8, %b9, %b10, %b11, %b12, %b13, %b14, %b15, %b16, %b17, %b18, %b19, %b20, %b21, %b22, %b23, %b24, %b25, %b26, %b27, %b28, %b29, %b30, %b31 : vector<32xf32>
      return %out : vector<32xf32>
    }

    // The 32 accumulators as the scalars an asm statement takes (the
    // inverse of @wg_acc_vector). Inlined (uq.inline), so its callers'
    // code is what it was when they extracted them themselves.
    func.func private @wg_acc_scalars(%acc: vector<32xf32>) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) attributes {uq.inline} {
      %a0 = vector.extract %acc[0] : f32 from vector<32xf32>
      %a1 = vector.extract %acc[1] : f32 from vector<32xf32>
      %a2 = vector.extract %acc[2] : f32 from vector<32xf32>
      %a3 = vector.extract %acc[3] : f32 from vector<32xf32>
      %a4 = vector.extract %acc[4] : f32 from vector<32xf32>
      %a5 = vector.extract %acc[5] : f32 from vector<32xf32>
      %a6 = vector.extract %acc[6] : f32 from vector<32xf32>
      %a7 = vector.extract %acc[7] : f32 from vector<32xf32>
      %a8 = vector.extract %acc[8] : f32 from vector<32xf32>
      %a9 = vector.extract %acc[9] : f32 from vector<32xf32>
      %a10 = vector.extract %acc[10] : f32 from vector<32xf32>
      %a11 = vector.extract %acc[11] : f32 from vector<32xf32>
      %a12 = vector.extract %acc[12] : f32 from vector<32xf32>
      %a13 = vector.extract %acc[13] : f32 from vector<32xf32>
      %a14 = vector.extract %acc[14] : f32 from vector<32xf32>
      %a15 = vector.extract %acc[15] : f32 from vector<32xf32>
      %a16 = vector.extract %acc[16] : f32 from vector<32xf32>
      %a17 = vector.extract %acc[17] : f32 from vector<32xf32>
      %a18 = vector.extract %acc[18] : f32 from vector<32xf32>
      %a19 = vector.extract %acc[19] : f32 from vector<32xf32>
      %a20 = vector.extract %acc[20] : f32 from vector<32xf32>
      %a21 = vector.extract %acc[21] : f32 from vector<32xf32>
      %a22 = vector.extract %acc[22] : f32 from vector<32xf32>
      %a23 = vector.extract %acc[23] : f32 from vector<32xf32>
      %a24 = vector.extract %acc[24] : f32 from vector<32xf32>
      %a25 = vector.extract %acc[25] : f32 from vector<32xf32>
      %a26 = vector.extract %acc[26] : f32 from vector<32xf32>
      %a27 = vector.extract %acc[27] : f32 from vector<32xf32>
      %a28 = vector.extract %acc[28] : f32 from vector<32xf32>
      %a29 = vector.extract %acc[29] : f32 from vector<32xf32>
      %a30 = vector.extract %acc[30] : f32 from vector<32xf32>
      %a31 = vector.extract %acc[31] : f32 from vector<32xf32>
      return %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15, %a16, %a17, %a18, %a19, %a20, %a21, %a22, %a23, %a24, %a25, %a26, %a27, %a28, %a29, %a30, %a31 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
    }

    // S (64 x 64, f32) += A B over k = 16 (bf16): A (64 rows) and B (64
    // rows) K-major in shared memory (descriptors %da, %db). The
    // accumulators are in the wgmma fragment: entry i of a thread (lane l
    // of warp w) is row 16 w + l / 4 + 8 ((i >> 1) & 1), column
    // 8 (i >> 2) + 2 (l % 4) + (i & 1).
    func.func private @wg_mma_ss(%acc: vector<32xf32>, %da: i64, %db: i64) -> vector<32xf32> {
      %a:32 = func.call @wg_acc_scalars(%acc) : (vector<32xf32>) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
      %r = llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, $64, $65, p, 1, 1, 0, 0; }", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,l,l" %a#0, %a#1, %a#2, %a#3, %a#4, %a#5, %a#6, %a#7, %a#8, %a#9, %a#10, %a#11, %a#12, %a#13, %a#14, %a#15, %a#16, %a#17, %a#18, %a#19, %a#20, %a#21, %a#22, %a#23, %a#24, %a#25, %a#26, %a#27, %a#28, %a#29, %a#30, %a#31, %da, %db : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, i64, i64) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %out = func.call @wg_acc_vector(%r) : (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) -> vector<32xf32>
      return %out : vector<32xf32>
    }

    // O (64 x 64, f32) += P V over k = 16 tokens: P's bf16 A fragment in
    // registers (%p: a warp's 16 rows in the m16n8k16 A layout), V (16
    // tokens x 64 head dims) MN-major in shared memory (%db, transposed).
    func.func private @wg_mma_rs(%acc: vector<32xf32>, %p: vector<4xi32>, %db: i64) -> vector<32xf32> {
      %a:32 = func.call @wg_acc_scalars(%acc) : (vector<32xf32>) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
      %p0 = vector.extract %p[0] : i32 from vector<4xi32>
      %p1 = vector.extract %p[1] : i32 from vector<4xi32>
      %p2 = vector.extract %p[2] : i32 from vector<4xi32>
      %p3 = vector.extract %p[3] : i32 from vector<4xi32>
      %r = llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31}, {$64, $65, $66, $67}, $68, p, 1, 1, 1; }", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,r,r,r,r,l" %a#0, %a#1, %a#2, %a#3, %a#4, %a#5, %a#6, %a#7, %a#8, %a#9, %a#10, %a#11, %a#12, %a#13, %a#14, %a#15, %a#16, %a#17, %a#18, %a#19, %a#20, %a#21, %a#22, %a#23, %a#24, %a#25, %a#26, %a#27, %a#28, %a#29, %a#30, %a#31, %p0, %p1, %p2, %p3, %db : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, i32, i32, i32, i32, i64) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %out = func.call @wg_acc_vector(%r) : (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) -> vector<32xf32>
      return %out : vector<32xf32>
    }

    // The accumulators after wgmma.wait_group: an empty asm that reads and
    // writes each, so that no use of them is scheduled before the wait
    // (nothing else ties the asm results to it).
    func.func private @wg_hold(%acc: vector<32xf32>) -> vector<32xf32> {
      %a:32 = func.call @wg_acc_scalars(%acc) : (vector<32xf32>) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
      %r = llvm.inline_asm has_side_effects asm_dialect = att "", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31" %a#0, %a#1, %a#2, %a#3, %a#4, %a#5, %a#6, %a#7, %a#8, %a#9, %a#10, %a#11, %a#12, %a#13, %a#14, %a#15, %a#16, %a#17, %a#18, %a#19, %a#20, %a#21, %a#22, %a#23, %a#24, %a#25, %a#26, %a#27, %a#28, %a#29, %a#30, %a#31 : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %out = func.call @wg_acc_vector(%r) : (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) -> vector<32xf32>
      return %out : vector<32xf32>
    }


    // @wg_hold on each of the D / 64 accumulators of O.
    func.func private @wg_hold_all(%acc: vector<4x32xf32>, %nc: index) -> vector<4x32xf32> attributes {uq.inline} {
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %held = scf.for %n = %i0 to %nc step %i1 iter_args(%o = %acc) -> (vector<4x32xf32>) {
        %on = vector.extract %o[%n] : vector<32xf32> from vector<4x32xf32>
        %h = func.call @wg_hold(%on) : (vector<32xf32>) -> vector<32xf32>
        %o1 = vector.insert %h, %o[%n] : vector<32xf32> into vector<4x32xf32>
        scf.yield %o1 : vector<4x32xf32>
      }
      return %held : vector<4x32xf32>
    }

    // Q: rows of R = D / 32 lanes (32 head dims a lane), 256 / R
    // rows a pass, D / 64 passes; loaded (bf16 or fp16, 2-byte loads:
    // any strides), rotated (@uq_sm90_wht_lanes, x 1/sqrt(D)), rounded to
    // E4M3 (saturating; an infinite element becomes NaN first) and
    // stored as bf16 in the K operand's pair order, zero past the
    // block's rows.
    func.func private @wg_stage_query(%query: !llvm.ptr<1>, %q_stride_seq: i32, %q_stride_head: i32, %qtok: i32, %hq0: i32, %qgi: i32, %live_rows: i32, %tid: i32, %base: i32, %hd: index, %f16: i1) attributes {uq.inline} {
      %smem = llvm.mlir.addressof @uq_decode_wgmma_smem : !llvm.ptr<3>
      %smem_i = llvm.ptrtoint %smem : !llvm.ptr<3> to i32
      %hd_i = arith.index_cast %hd : index to i32
      %c1 = arith.constant 1 : i32
      %i64 = arith.constant 64 : index
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      %i32 = arith.constant 32 : index
      %zero32 = arith.constant dense<0.0> : vector<32xf32>
      %zero_f = arith.constant 0.0 : f32
      %c6 = arith.constant 6 : i32
      %c63 = arith.constant 63 : i32
      %c128 = arith.constant 128 : i32
      %i4 = arith.constant 4 : index
      %zero4i = arith.constant dense<0> : vector<4xi32>
      %i8 = arith.constant 8 : index
      %c4 = arith.constant 4 : i32
      %rl_ix = scf.index_switch %hd -> index
      case 64 { %r = arith.constant 1 : index
        scf.yield %r : index }
      case 128 { %r = arith.constant 2 : index
        scf.yield %r : index }
      default { %r = arith.constant 3 : index
        scf.yield %r : index }
      %rl = arith.index_cast %rl_ix : index to i32
      %rlanes = arith.shli %c1, %rl : i32
      %rmask = arith.subi %rlanes, %c1 : i32
      %qchunk = arith.andi %tid, %rmask : i32
      %qprow = arith.shrui %tid, %rl : i32
      // the consumers stage it
      %th:2 = func.call @wg_threads() : () -> (i32, i32)
      %per_pass = arith.shrui %th#0, %rl : i32
      %npass = arith.divui %hd, %i64 : index
      %qss64 = arith.extui %q_stride_seq : i32 to i64
      %qsh64 = arith.extui %q_stride_head : i32 to i64
      %wht_scale = func.call @uq_sm90_wht_scale(%hd_i) : (i32) -> f32
      scf.for %pass = %i0 to %npass step %i1 {
        %pi = arith.index_cast %pass : index to i32
        %pr0 = arith.muli %pi, %per_pass : i32
        %r = arith.addi %pr0, %qprow : i32
        %q_in = arith.cmpi ult, %r, %live_rows : i32
        %rr = arith.select %q_in, %r, %c0 : i32
        %tau = arith.divui %rr, %qgi : i32
        %tq = arith.muli %tau, %qgi : i32
        %hh = arith.subi %rr, %tq : i32
        %tok = arith.addi %qtok, %tau : i32
        %hq = arith.addi %hq0, %hh : i32
        %tok64 = arith.extui %tok : i32 to i64
        %hq64 = arith.extui %hq : i32 to i64
        %o0 = arith.muli %tok64, %qss64 : i64
        %o1 = arith.muli %hq64, %qsh64 : i64
        %o2 = arith.addi %o0, %o1 : i64
        %dbase = arith.muli %qchunk, %c32 : i32
        %dbase64 = arith.extui %dbase : i32 to i64
        %o3 = arith.addi %o2, %dbase64 : i64
        %qv = scf.for %x = %i0 to %i32 step %i1 iter_args(%v = %zero32) -> (vector<32xf32>) {
          %xi = arith.index_cast %x : index to i64
          %o = arith.addi %o3, %xi : i64
          %qp = llvm.getelementptr %query[%o] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
          %qb = llvm.load %qp {alignment = 2 : i64} : !llvm.ptr<1> -> i16
          %qf = func.call @act_widen(%qb, %f16) : (i16, i1) -> f32
          %qz = arith.select %q_in, %qf, %zero_f : f32
          %v1 = vector.insert %qz, %v[%x] : f32 into vector<32xf32>
          scf.yield %v1 : vector<32xf32>
        }
        %qh = func.call @uq_sm90_wht_lanes(%qv, %i32, %qchunk, %rl_ix) : (vector<32xf32>, index, i32, index) -> vector<32xf32>
        // row r's place: warpgroup r / 64, row r % 64 of its Q
        %qwg = arith.shrui %r, %c6 : i32
        %qrr = arith.andi %r, %c63 : i32
        %qwb = arith.muli %qwg, %hd_i : i32
        %qwb2 = arith.muli %qwb, %c128 : i32
        %qrow = arith.addi %base, %qwb2 : i32
        scf.for %k = %i0 to %i4 step %i1 {
          %ki = arith.index_cast %k : index to i32
          %words = scf.for %w = %i0 to %i4 step %i1 iter_args(%acc = %zero4i) -> (vector<4xi32>) {
            %k8 = arith.muli %k, %i8 : index
            %e0 = arith.addi %k8, %w : index
            %e1 = arith.addi %e0, %i4 : index
            %a = vector.extract %qh[%e0] : f32 from vector<32xf32>
            %b = vector.extract %qh[%e1] : f32 from vector<32xf32>
            %hv = func.call @uq_sm90_query_e4m3(%a, %b, %wht_scale) : (f32, f32, f32) -> i32
            %hv_v = vector.broadcast %hv : i32 to vector<1xi32>
            %hv2 = vector.bitcast %hv_v : vector<1xi32> to vector<2xf16>
            %f = arith.extf %hv2 : vector<2xf16> to vector<2xf32>
            %bf = arith.truncf %f : vector<2xf32> to vector<2xbf16>
            %bw = vector.bitcast %bf : vector<2xbf16> to vector<1xi32>
            %bw0 = vector.extract %bw[0] : i32 from vector<1xi32>
            %acc1 = vector.insert %bw0, %acc[%w] : i32 into vector<4xi32>
            scf.yield %acc1 : vector<4xi32>
          }
          %j0 = arith.muli %qchunk, %c4 : i32
          %j = arith.addi %j0, %ki : i32
          %ch = func.call @wg_chunk(%qrr, %j) : (i32, i32) -> i32
          %qa = arith.addi %qrow, %ch : i32
          %qo = arith.subi %qa, %smem_i : i32
          %qp = llvm.getelementptr %smem[%qo] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %words, %qp {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
        }
      }
      return
    }

    // The rows' results: each row's sum over its quad; with one partition
    // the output (the reduce's arithmetic: M = max(m, sink), O 2^(m - M) /
    // (L 2^(m - M) + 2^(sink - M)), 0 where nothing counts), else bf16(O /
    // L) with (max in natural units, L) as the partials. Entry (n, i) of
    // the accumulators is head dim 64 n + 8 (i >> 2) + t + 4 (i & 1) (the
    // pair order of the K and V rows); this thread's rows are row0 and row1.
    func.func private @wg_store_rows(%m_r0: f32, %m_r1: f32, %l_r0: f32, %l_r1: f32, %acc_fin: vector<4x32xf32>, %row0: i32, %row1: i32, %t: i32, %live_rows: i32, %qgi: i32, %qtok: i32, %hq0: i32, %kvh: i32, %num_kv_heads: i32, %part: i32, %num_partitions: i32, %nc: index, %f16: i1, %sinks: !llvm.ptr<1>, %output: !llvm.ptr<1>, %out_stride_seq: i32, %out_stride_head: i32, %segm_out: !llvm.ptr<1>, %segm_max: !llvm.ptr<1>, %segm_sum: !llvm.ptr<1>) attributes {uq.inline} {
      // D = 64 x the accumulators (of 64 head dims each)
      %nc_i = arith.index_cast %nc : index to i32
      %c64_d = arith.constant 64 : i32
      %hd_i = arith.muli %nc_i, %c64_d : i32
      %c1 = arith.constant 1 : i32
      %c0 = arith.constant 0 : i32
      %i0 = arith.constant 0 : index
      %i2 = arith.constant 2 : index
      %i1 = arith.constant 1 : index
      %zero_f = arith.constant 0.0 : f32
      %log2e = arith.constant 1.44269504088896340736 : f32
      %ninf = arith.constant 0xFF800000 : f32
      %one_f = arith.constant 1.0 : f32
      %c64 = arith.constant 64 : i32
      %i16 = arith.constant 16 : index
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %true = arith.constant true
      %ln2 = arith.constant 0.693147180559945309 : f32
      %lq0 = func.call @wg_quad_sum(%l_r0) : (f32) -> f32
      %lq1 = func.call @wg_quad_sum(%l_r1) : (f32) -> f32
      %direct = arith.cmpi eq, %num_partitions, %c1 : i32
      // the output in the activations' dtype; partials stay bf16
      %out_f16 = arith.andi %direct, %f16 : i1
      %null = llvm.mlir.zero : !llvm.ptr<1>
      %has_sink = llvm.icmp "ne" %sinks, %null : !llvm.ptr<1>
      %oss64 = arith.extui %out_stride_seq : i32 to i64
      %osh64 = arith.extui %out_stride_head : i32 to i64
      %hd64 = arith.extui %hd_i : i32 to i64
      %t0 = arith.cmpi eq, %t, %c0 : i32
      scf.for %h = %i0 to %i2 step %i1 {
        %hi1 = arith.cmpi ne, %h, %i0 : index
        %r = arith.select %hi1, %row1, %row0 : i32
        %m = arith.select %hi1, %m_r1, %m_r0 : f32
        %l = arith.select %hi1, %lq1, %lq0 : f32
        %valid = arith.cmpi ult, %r, %live_rows : i32
        scf.if %valid {
          %tau = arith.divui %r, %qgi : i32
          %tq = arith.muli %tau, %qgi : i32
          %hh = arith.subi %r, %tq : i32
          %tok = arith.addi %qtok, %tau : i32
          %hq = arith.addi %hq0, %hh : i32
          %pos_l = arith.cmpf ogt, %l, %zero_f : f32
          %f = scf.if %direct -> (f32) {
            %sink = scf.if %has_sink -> (f32) {
              %sp = llvm.getelementptr %sinks[%hq] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
              %sv = llvm.load %sp {alignment = 4 : i64} : !llvm.ptr<1> -> f32
              %s2 = arith.mulf %sv, %log2e : f32
              scf.yield %s2 : f32
            } else {
              scf.yield %ninf : f32
            }
            %M0 = arith.maximumf %m, %sink : f32
            %empty = arith.cmpf oeq, %M0, %ninf : f32
            %M = arith.select %empty, %zero_f, %M0 : f32
            %dmx = arith.subf %m, %M : f32
            %a = func.call @uq_sm90_exp2(%dmx) : (f32) -> f32
            %dsk = arith.subf %sink, %M : f32
            %es = func.call @uq_sm90_exp2(%dsk) : (f32) -> f32
            %ws = arith.select %has_sink, %es, %zero_f : f32
            %w0 = arith.mulf %l, %a : f32
            %w = arith.select %pos_l, %w0, %zero_f : f32
            %den = arith.addf %w, %ws : f32
            %pos = arith.cmpf ogt, %den, %zero_f : f32
            %den1 = arith.select %pos, %den, %one_f : f32
            %rd = func.call @uq_sm90_rcp(%den1) : (f32) -> f32
            %fa = arith.mulf %a, %rd : f32
            %fz = arith.select %pos_l, %fa, %zero_f : f32
            scf.yield %fz : f32
          } else {
            %l1 = arith.select %pos_l, %l, %one_f : f32
            %rinv = func.call @uq_sm90_rcp(%l1) : (f32) -> f32
            scf.yield %rinv : f32
          }
          %prow = func.call @uq_sm90_partial_row(%qtok, %r, %qgi, %num_kv_heads, %kvh, %num_partitions, %part) : (i32, i32, i32, i32, i32, i32, i32) -> i32
          %prow64 = arith.extui %prow : i32 to i64
          %pbase = arith.muli %prow64, %hd64 : i64
          %tok64 = arith.extui %tok : i32 to i64
          %hq64 = arith.extui %hq : i32 to i64
          %ob0 = arith.muli %tok64, %oss64 : i64
          %ob1 = arith.muli %hq64, %osh64 : i64
          %obase = arith.addi %ob0, %ob1 : i64
          %rowbase = arith.select %direct, %obase, %pbase : i64
          %dst = arith.select %direct, %output, %segm_out : !llvm.ptr<1>
          scf.for %n = %i0 to %nc step %i1 {
            %on = vector.extract %acc_fin[%n] : vector<32xf32> from vector<4x32xf32>
            %ni = arith.index_cast %n : index to i32
            %n64 = arith.muli %ni, %c64 : i32
            %dn = arith.addi %n64, %t : i32
            scf.for %q = %i0 to %i16 step %i1 {
              // entry i = 4 (q >> 1) + 2 h + (q & 1)
              %qi = arith.index_cast %q : index to i32
              %qh = arith.shrui %qi, %c1 : i32
              %qo = arith.andi %qi, %c1 : i32
              %hi0 = arith.index_cast %h : index to i32
              %e0 = arith.shli %qh, %c2 : i32
              %h2 = arith.shli %hi0, %c1 : i32
              %e1 = arith.addi %e0, %h2 : i32
              %e = arith.addi %e1, %qo : i32
              %eix = arith.index_cast %e : i32 to index
              %y = vector.extract %on[%eix] : f32 from vector<32xf32>
              %yv = arith.mulf %y, %f : f32
              %yb = func.call @act_narrow(%yv, %out_f16) : (f32, i1) -> i16
              %d8 = arith.shli %qh, %c3 : i32
              %d4 = arith.shli %qo, %c2 : i32
              %d0 = arith.addi %dn, %d8 : i32
              %d = arith.addi %d0, %d4 : i32
              %d64 = arith.extui %d : i32 to i64
              %ea = arith.addi %rowbase, %d64 : i64
              %ep = llvm.getelementptr %dst[%ea] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
              llvm.store %yb, %ep {alignment = 2 : i64} : i16, !llvm.ptr<1>
            }
          }
          %partial = arith.xori %direct, %true : i1
          %stats = arith.andi %partial, %t0 : i1
          scf.if %stats {
            %mnat = arith.mulf %m, %ln2 : f32
            %pm = llvm.getelementptr %segm_max[%prow64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            %ps = llvm.getelementptr %segm_sum[%prow64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %mnat, %pm {alignment = 4 : i64} : f32, !llvm.ptr<1>
            llvm.store %l, %ps {alignment = 4 : i64} : f32, !llvm.ptr<1>
          }
        }
      }
      return
    }

    // One tile's online softmax for this thread's rows g and g + 8 (entry
    // i of S is row g + 8 ((i >> 1) & 1), column 8 (i >> 2) + 2 t + (i & 1)
    // of the tile): scores scaled to base 2 and masked (causal limit,
    // window; a tile wholly inside every row's range skips the masks), the
    // lazy running maximum (@uq_sm90_lazy_max, its correction), weights
    // 2^(x - m) and their sums, O rescaled where the maximum moved, and P
    // as bf16 pairs in the A fragment of O += P V (k-step kt's registers
    // are entries 8 kt .. 8 kt + 7 in pairs). Returns (m0, m1, l0, l1, O, P).
    func.func private @wg_online_softmax(%S: vector<32xf32>, %m0: f32, %m1: f32, %l0: f32, %l1: f32, %ki: i32, %gstride: i32, %tok_first: i32, %lim0: i32, %ws_last: i32, %t: i32, %cs: f32, %lim_r0: i32, %lim_r1: i32, %ws_r0: i32, %ws_r1: i32) -> (f32, f32, f32, f32, f32, f32, i1, vector<32xf32>) attributes {uq.inline} {
      %ninf = arith.constant 0xFF800000 : f32
      %zero_f = arith.constant 0.0 : f32
      %zero32 = arith.constant dense<0.0> : vector<32xf32>
      %c64 = arith.constant 64 : i32
      %c1 = arith.constant 1 : i32
      %i0 = arith.constant 0 : index
      %i32 = arith.constant 32 : index
      %i1 = arith.constant 1 : index
      %c0 = arith.constant 0 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %i4 = arith.constant 4 : index
      %i16 = arith.constant 16 : index
      %zero16i = arith.constant dense<0> : vector<16xi32>
      %i2 = arith.constant 2 : index
      %gk = arith.muli %ki, %gstride : i32
      %tok0 = arith.addi %tok_first, %gk : i32
      %tend = arith.addi %tok0, %c64 : i32
      %in_a = arith.cmpi sle, %tend, %lim0 : i32
      %in_b = arith.cmpi sge, %tok0, %ws_last : i32
      %in = arith.andi %in_a, %in_b : i1
      %t2 = arith.shli %t, %c1 : i32
      %xs = scf.for %i = %i0 to %i32 step %i1 iter_args(%v = %S) -> (vector<32xf32>) {
        %ii = arith.index_cast %i : index to i32
        %x0 = vector.extract %v[%i] : f32 from vector<32xf32>
        %x = arith.mulf %x0, %cs : f32
        %hsel0 = arith.shrui %ii, %c1 : i32
        %hsel = arith.andi %hsel0, %c1 : i32
        %hi1 = arith.cmpi ne, %hsel, %c0 : i32
        %cq = arith.shrui %ii, %c2 : i32
        %c8q = arith.shli %cq, %c3 : i32
        %codd = arith.andi %ii, %c1 : i32
        %col0 = arith.addi %c8q, %t2 : i32
        %col = arith.addi %col0, %codd : i32
        %pos = arith.addi %tok0, %col : i32
        %lim = arith.select %hi1, %lim_r1, %lim_r0 : i32
        %wst = arith.select %hi1, %ws_r1, %ws_r0 : i32
        %ok_a = arith.cmpi slt, %pos, %lim : i32
        %ok_b = arith.cmpi sge, %pos, %wst : i32
        %ok0 = arith.andi %ok_a, %ok_b : i1
        %ok = arith.ori %ok0, %in : i1
        %xm = arith.select %ok, %x, %ninf : f32
        %v1 = vector.insert %xm, %v[%i] : f32 into vector<32xf32>
        scf.yield %v1 : vector<32xf32>
      }
      %mx:2 = scf.for %i = %i0 to %i32 step %i1 iter_args(%a0 = %ninf, %a1 = %ninf) -> (f32, f32) {
        %ii = arith.index_cast %i : index to i32
        %x = vector.extract %xs[%i] : f32 from vector<32xf32>
        %hsel0 = arith.shrui %ii, %c1 : i32
        %hsel = arith.andi %hsel0, %c1 : i32
        %hi1 = arith.cmpi ne, %hsel, %c0 : i32
        %b0 = arith.maximumf %a0, %x : f32
        %b1 = arith.maximumf %a1, %x : f32
        %n0 = arith.select %hi1, %a0, %b0 : f32
        %n1 = arith.select %hi1, %b1, %a1 : f32
        scf.yield %n0, %n1 : f32, f32
      }
      %mq0 = func.call @wg_quad_max(%mx#0) : (f32) -> f32
      %mq1 = func.call @wg_quad_max(%mx#1) : (f32) -> f32
      %mn0 = func.call @uq_sm90_lazy_max(%m0, %mq0) : (f32, f32) -> f32
      %mn1 = func.call @uq_sm90_lazy_max(%m1, %mq1) : (f32, f32) -> f32
      %e0 = arith.cmpf oeq, %mn0, %ninf : f32
      %e1 = arith.cmpf oeq, %mn1, %ninf : f32
      %base_r0 = arith.select %e0, %zero_f, %mn0 : f32
      %base_r1 = arith.select %e1, %zero_f, %mn1 : f32
      %same0 = arith.cmpf oeq, %mn0, %m0 : f32
      %same1 = arith.cmpf oeq, %mn1, %m1 : f32
      %al_0 = func.call @uq_sm90_lazy_correction(%m0, %mn0) : (f32, f32) -> f32
      %al_1 = func.call @uq_sm90_lazy_correction(%m1, %mn1) : (f32, f32) -> f32
      // weights 2^(x - base), their row sums, and P as bf16 pairs in the
      // A fragment of O += P V: k-step kt's registers are entries
      // 8 kt .. 8 kt + 7 in pairs
      %pw:3 = scf.for %i = %i0 to %i32 step %i1 iter_args(%pv = %zero32, %s0 = %zero_f, %s1 = %zero_f) -> (vector<32xf32>, f32, f32) {
        %ii = arith.index_cast %i : index to i32
        %x = vector.extract %xs[%i] : f32 from vector<32xf32>
        %hsel0 = arith.shrui %ii, %c1 : i32
        %hsel = arith.andi %hsel0, %c1 : i32
        %hi1 = arith.cmpi ne, %hsel, %c0 : i32
        %b = arith.select %hi1, %base_r1, %base_r0 : f32
        %xd = arith.subf %x, %b : f32
        %p = func.call @uq_sm90_exp2(%xd) : (f32) -> f32
        %pv1 = vector.insert %p, %pv[%i] : f32 into vector<32xf32>
        %t0 = arith.addf %s0, %p : f32
        %t1 = arith.addf %s1, %p : f32
        %n0 = arith.select %hi1, %s0, %t0 : f32
        %n1 = arith.select %hi1, %t1, %s1 : f32
        scf.yield %pv1, %n0, %n1 : vector<32xf32>, f32, f32
      }
      %lm0 = arith.mulf %l0, %al_0 : f32
      %lm1 = arith.mulf %l1, %al_1 : f32
      %ln0 = arith.addf %lm0, %pw#1 : f32
      %ln1 = arith.addf %lm1, %pw#2 : f32
      %same = arith.andi %same0, %same1 : i1
      return %mn0, %mn1, %ln0, %ln1, %al_0, %al_1, %same, %pw#0 : f32, f32, f32, f32, f32, f32, i1, vector<32xf32>
    }

    // The weights P (@wg_online_softmax) as bf16 pairs in the A fragment
    // of O += P V: k-step kt's registers are entries 8 kt .. 8 kt + 7 in
    // pairs.
    func.func private @wg_pack_p(%p: vector<32xf32>) -> vector<16xi32> attributes {uq.inline} {
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i16 = arith.constant 16 : index
      %zero16i = arith.constant dense<0> : vector<16xi32>
      %pf = scf.for %q = %i0 to %i16 step %i1 iter_args(%f = %zero16i) -> (vector<16xi32>) {
        %q2 = arith.muli %q, %i2 : index
        %q21 = arith.addi %q2, %i1 : index
        %lo = vector.extract %p[%q2] : f32 from vector<32xf32>
        %hi2 = vector.extract %p[%q21] : f32 from vector<32xf32>
        %pk = llvm.inline_asm asm_dialect = att "cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f" %hi2, %lo : (f32, f32) -> i32
        %f1 = vector.insert %pk, %f[%q] : i32 into vector<16xi32>
        scf.yield %f1 : vector<16xi32>
      }
      return %pf : vector<16xi32>
    }

    // O's rows g and g + 8 times their corrections (%al0, %al1) where a
    // row's maximum moved (%same: neither did), over the D / 64
    // accumulators.
    func.func private @wg_rescale(%acc: vector<4x32xf32>, %al0: f32, %al1: f32, %same: i1, %nc: index) -> vector<4x32xf32> attributes {uq.inline} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i32 = arith.constant 32 : index
      %r = scf.if %same -> (vector<4x32xf32>) {
        scf.yield %acc : vector<4x32xf32>
      } else {
        %o2 = scf.for %n = %i0 to %nc step %i1 iter_args(%o = %acc) -> (vector<4x32xf32>) {
          %on = vector.extract %o[%n] : vector<32xf32> from vector<4x32xf32>
          %sc = scf.for %i = %i0 to %i32 step %i1 iter_args(%w = %on) -> (vector<32xf32>) {
            %ii = arith.index_cast %i : index to i32
            %hsel0 = arith.shrui %ii, %c1 : i32
            %hsel = arith.andi %hsel0, %c1 : i32
            %hi1 = arith.cmpi ne, %hsel, %c0 : i32
            %al = arith.select %hi1, %al1, %al0 : f32
            %y = vector.extract %w[%i] : f32 from vector<32xf32>
            %y1 = arith.mulf %y, %al : f32
            %w1 = vector.insert %y1, %w[%i] : f32 into vector<32xf32>
            scf.yield %w1 : vector<32xf32>
          }
          %o1 = vector.insert %sc, %o[%n] : vector<32xf32> into vector<4x32xf32>
          scf.yield %o1 : vector<4x32xf32>
        }
        scf.yield %o2 : vector<4x32xf32>
      }
      return %r : vector<4x32xf32>
    }

    // S = Q K^T of the warpgroup's 64 rows and the tile's 64 tokens: D / 16
    // wgmma k-steps of Q and K from shared memory, committed as one group,
    // not waited for (@wg_hold after the wait).
    func.func private @wg_scores(%qbase: i32, %kbase: i32, %nk: index) -> (vector<32xf32>) attributes {uq.inline} {
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %zero32 = arith.constant dense<0.0> : vector<32xf32>
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c8192 = arith.constant 8192 : i32
      %c32 = arith.constant 32 : i32
      %c16b = arith.constant 16 : i32
      nvvm.wgmma.fence.aligned
      %sacc = scf.for %kk = %i0 to %nk step %i1 iter_args(%sa = %zero32) -> (vector<32xf32>) {
        %kki = arith.index_cast %kk : index to i32
        %kh = arith.shrui %kki, %c2 : i32
        %kl = arith.andi %kki, %c3 : i32
        %oh = arith.muli %kh, %c8192 : i32
        %ol = arith.muli %kl, %c32 : i32
        %ko = arith.addi %oh, %ol : i32
        %qa = arith.addi %qbase, %ko : i32
        %ka = arith.addi %kbase, %ko : i32
        %da = func.call @wg_desc(%qa, %c16b) : (i32, i32) -> i64
        %db = func.call @wg_desc(%ka, %c16b) : (i32, i32) -> i64
        %sn = func.call @wg_mma_ss(%sa, %da, %db) : (vector<32xf32>, i64, i64) -> vector<32xf32>
        scf.yield %sn : vector<32xf32>
      }
      nvvm.wgmma.commit.group.sync.aligned
      return %sacc : vector<32xf32>
    }

    // O += P V: D / 64 accumulators of 64 head dims, 4 k-steps each of P
    // from registers and V from shared memory (buffer vbase + vsel);
    // committed, not waited for.
    func.func private @wg_pv(%acc_s: vector<4x32xf32>, %pf: vector<16xi32>, %vbase: i32, %vsel: i32, %nc: index) -> (vector<4x32xf32>) attributes {uq.inline} {
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %c8192 = arith.constant 8192 : i32
      %i4 = arith.constant 4 : index
      %c2048 = arith.constant 2048 : i32
      %i2 = arith.constant 2 : index
      nvvm.wgmma.fence.aligned
      %ov = scf.for %n = %i0 to %nc step %i1 iter_args(%o = %acc_s) -> (vector<4x32xf32>) {
        %ni = arith.index_cast %n : index to i32
        %on = vector.extract %o[%n] : vector<32xf32> from vector<4x32xf32>
        %vn = arith.muli %ni, %c8192 : i32
        %vb0 = arith.addi %vbase, %vsel : i32
        %vb = arith.addi %vb0, %vn : i32
        %r = scf.for %kt = %i0 to %i4 step %i1 iter_args(%w = %on) -> (vector<32xf32>) {
          %kti = arith.index_cast %kt : index to i32
          %kto = arith.muli %kti, %c2048 : i32
          %va = arith.addi %vb, %kto : i32
          %c8192b = arith.constant 8192 : i32
          %db = func.call @wg_desc(%va, %c8192b) : (i32, i32) -> i64
          %k4 = arith.muli %kt, %i4 : index
          %k41 = arith.addi %k4, %i1 : index
          %k42 = arith.addi %k4, %i2 : index
          %k43 = arith.addi %k42, %i1 : index
          %pa0 = vector.extract %pf[%k4] : i32 from vector<16xi32>
          %pa1 = vector.extract %pf[%k41] : i32 from vector<16xi32>
          %pa2 = vector.extract %pf[%k42] : i32 from vector<16xi32>
          %pa3 = vector.extract %pf[%k43] : i32 from vector<16xi32>
          %pa = vector.from_elements %pa0, %pa1, %pa2, %pa3 : vector<4xi32>
          %w1 = func.call @wg_mma_rs(%w, %pa, %db) : (vector<32xf32>, vector<4xi32>, i64) -> vector<32xf32>
          scf.yield %w1 : vector<32xf32>
        }
        %o1 = vector.insert %r, %o[%n] : vector<32xf32> into vector<4x32xf32>
        scf.yield %o1 : vector<4x32xf32>
      }
      nvvm.wgmma.commit.group.sync.aligned
      return %ov : vector<4x32xf32>
    }

    // The pipeline between the producer and the consumer warpgroups:
    // mbarriers in shared memory at %bars (@wg_layout), 8 bytes each, a
    // full and an empty one per buffer: K buffer b (+32 b, +8 + 32 b), V
    // buffer b (+16 + 16 n b, +24 + 16 n b) for n = @wg_k_buffers: 6
    // barriers, or 8. A full barrier's phase takes every producer thread's
    // arrival (128 x pwg), an empty one's every consumer's (2 x rows). Use
    // n of a barrier completes its phase n; a waiter for use n waits on
    // parity n % 2, and a producer's first wait on an empty barrier (parity
    // 1 of a fresh barrier) passes at once.
    func.func private @wg_barriers_init(%bars: i32) {
      %c8 = arith.constant 8 : i32
      // full: every producer thread arrives; empty: every consumer thread
      %th:2 = func.call @wg_threads() : () -> (i32, i32)
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %c4 = arith.constant 4 : i32
      %kbufs = func.call @wg_k_buffers() : () -> i32
      %kb2 = arith.addi %kbufs, %kbufs : i32
      %nbars = arith.addi %kb2, %c4 : i32
      %nbars_ix = arith.index_cast %nbars : i32 to index
      scf.for %b = %i0 to %nbars_ix step %i1 {
        %bi = arith.index_cast %b : index to i32
        %off = arith.muli %bi, %c8 : i32
        %addr = arith.addi %bars, %off : i32
        %c1 = arith.constant 1 : i32
        %odd = arith.andi %bi, %c1 : i32
        %empty = arith.cmpi eq, %odd, %c1 : i32
        %count = arith.select %empty, %th#0, %th#1 : i32
        llvm.inline_asm has_side_effects asm_dialect = att "mbarrier.init.shared::cta.b64 [$0], $1;", "r,r,~{memory}" %addr, %count : (i32, i32) -> ()
      }
      llvm.inline_asm has_side_effects asm_dialect = att "fence.mbarrier_init.release.cluster;", "~{memory}" : () -> ()
      return
    }

    // Tile k's K buffer, k % n (n = @wg_k_buffers, %kmask = n - 1): its
    // address (buffers of %tile bytes from %kbase), its full and empty
    // barriers (@wg_barriers_init) and the parity of its use k / n (a
    // consumer waits on the full one with it, a producer on the empty one
    // with the other). The producers' and the consumers' walks both take
    // it. Inlined (uq.inline).
    func.func private @wg_k_slot(%k: i32, %kmask: i32, %kbufs: i32, %kbase: i32, %tile: i32, %b_kfull: i32, %b_kempty: i32) -> (i32, i32, i32, i32) attributes {uq.inline} {
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %kb = arith.andi %k, %kmask : i32
      %kuse = arith.divui %k, %kbufs : i32
      %kpar = arith.andi %kuse, %c1 : i32
      %kb32 = arith.muli %kb, %c32 : i32
      %b_ke = arith.addi %b_kempty, %kb32 : i32
      %b_kf = arith.addi %b_kfull, %kb32 : i32
      %ksel = arith.muli %kb, %tile : i32
      %kbuf = arith.addi %kbase, %ksel : i32
      return %kbuf, %b_kf, %b_ke, %kpar : i32, i32, i32, i32
    }

    // Waits until the phase of parity %parity of the barrier at %bar is
    // complete (acquire: the writes before its arrivals are visible).
    func.func private @wg_bar_wait(%bar: i32, %parity: i32) {
      llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; UQ_WAIT: mbarrier.try_wait.parity.shared::cta.b64 p, [$0], $1; @!p bra UQ_WAIT; }", "r,r,~{memory}" %bar, %parity : (i32, i32) -> ()
      return
    }

    // A producer thread's arrival once its decoded chunks are stored:
    // fenced first, since wgmma reads them through the async proxy.
    func.func private @wg_bar_publish(%bar: i32) {
      llvm.inline_asm has_side_effects asm_dialect = att "fence.proxy.async.shared::cta;", "~{memory}" : () -> ()
      llvm.inline_asm has_side_effects asm_dialect = att "mbarrier.arrive.shared::cta.b64 _, [$0];", "r,~{memory}" %bar : (i32) -> ()
      return
    }

    // A consumer thread's arrival once the wgmma reading a buffer is done.
    func.func private @wg_bar_release(%bar: i32) {
      llvm.inline_asm has_side_effects asm_dialect = att "mbarrier.arrive.shared::cta.b64 _, [$0];", "r,~{memory}" %bar : (i32) -> ()
      return
    }

    // The producer warpgroups' own barrier: named barrier 2 for their
    // 128 x pwg threads (0 is the whole CTA's, gpu.barrier; the consumers
    // wait on mbarriers only).
    func.func private @wg_sync_producers() {
      %th:2 = func.call @wg_threads() : () -> (i32, i32)
      llvm.inline_asm has_side_effects asm_dialect = att "bar.sync 2, $0;", "r,~{memory}" %th#1 : (i32) -> ()
      return
    }

    // Registers moved from the producers to the consumers where the CTA
    // has three warpgroups (ptxas gives each thread 168): setmaxnreg draws
    // on the CTA's own pool, so consumers x c + producers x p <= 3 x 168
    // = 504 (docs/experiments.md). Two consumers take 208 and the
    // producer 88; one consumer (D 256's accumulators) takes 240 and two
    // producers 128. A CTA of two warpgroups has 256 a thread already.
    // setmaxnreg takes an immediate: one case per split.
    func.func private @wg_move_registers(%producer: i1) attributes {uq.inline} {
      %i3 = arith.constant 3 : index
      %i64 = arith.constant 64 : index
      %pwg = "uq.param"() {name = "pwg"} : () -> index
      %rows = "uq.param"() {name = "rows"} : () -> index
      %cwg = arith.divui %rows, %i64 : index
      %wgs = arith.addi %cwg, %pwg : index
      %three = arith.cmpi eq, %wgs, %i3 : index
      scf.if %three {
        scf.index_switch %pwg
        case 1 {
          scf.if %producer {
            llvm.inline_asm has_side_effects asm_dialect = att "setmaxnreg.dec.sync.aligned.u32 88;", "~{memory}" : () -> ()
          } else {
            llvm.inline_asm has_side_effects asm_dialect = att "setmaxnreg.inc.sync.aligned.u32 208;", "~{memory}" : () -> ()
          }
          scf.yield
        }
        case 2 {
          scf.if %producer {
            llvm.inline_asm has_side_effects asm_dialect = att "setmaxnreg.dec.sync.aligned.u32 128;", "~{memory}" : () -> ()
          } else {
            llvm.inline_asm has_side_effects asm_dialect = att "setmaxnreg.inc.sync.aligned.u32 240;", "~{memory}" : () -> ()
          }
          scf.yield
        }
        default {
        }
      }
      return
    }

    gpu.func @uq_decode(
        %segm_out: !llvm.ptr<1> {llvm.noalias, llvm.writeonly},
        %segm_max: !llvm.ptr<1> {llvm.noalias, llvm.writeonly},
        %segm_sum: !llvm.ptr<1> {llvm.noalias, llvm.writeonly},
        %query: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %kv_cache: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %block_tables: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %seq_lens: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %num_kv_heads: i32, %num_partitions: i32, %tgpp: i32, %block_size: i32,
        %padded_slot: i32, %q_stride_seq: i32, %q_stride_head: i32,
        %max_blocks_per_seq: i32, %softmax_scale: f32, %sliding_window: i32,
        %query_group: i32,
        %query_start_loc: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %search_seqs: i32,
        %output: !llvm.ptr<1> {llvm.noalias, llvm.writeonly},
        %out_stride_seq: i32, %out_stride_head: i32,
        %sinks: !llvm.ptr<1> {llvm.noalias, llvm.readonly}, %act_f16: i32) kernel
        {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c4 = arith.constant 4 : i32
      %c5 = arith.constant 5 : i32
      %c6 = arith.constant 6 : i32
      %c7 = arith.constant 7 : i32
      %c8 = arith.constant 8 : i32
      %c31 = arith.constant 31 : i32
      %c63 = arith.constant 63 : i32
      %c64 = arith.constant 64 : i32
      %c127 = arith.constant 127 : i32
      %c128 = arith.constant 128 : i32
      %c1023 = arith.constant 1023 : i32
      %cm16 = arith.constant -16 : i32
      %cm1024 = arith.constant -1024 : i32
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i16 = arith.constant 16 : index
      %i64 = arith.constant 64 : index
      %ninf = arith.constant 0xFF800000 : f32
      %zero_f = arith.constant 0.0 : f32
      %log2e = arith.constant 1.44269504088896340736 : f32
      %zero4x32 = arith.constant dense<0.0> : vector<4x32xf32>
      %zero16i = arith.constant dense<0> : vector<16xi32>
      %hd = "uq.param"() {name = "d"} : () -> index
      %rows_ix = "uq.param"() {name = "rows"} : () -> index
      %hd_i = arith.index_cast %hd : index to i32
      %rows = arith.index_cast %rows_ix : index to i32
      %qgi = arith.addi %query_group, %c0 : i32
      %f16 = arith.cmpi ne, %act_f16, %c0 : i32
      %lay:6 = func.call @wg_layout() : () -> (i32, i32, i32, i32, i32, i32)
      %rs = arith.addi %lay#0, %c0 : i32
      %smem = llvm.mlir.addressof @uq_decode_wgmma_smem : !llvm.ptr<3>
      %smem_i = llvm.ptrtoint %smem : !llvm.ptr<3> to i32
      %base0 = arith.addi %smem_i, %c1023 : i32
      %base = arith.andi %base0, %cm1024 : i32
      %kbase = arith.addi %base, %lay#1 : i32
      %vbase = arith.addi %base, %lay#2 : i32
      %rawbase = arith.addi %base, %lay#3 : i32
      %rawstage = arith.muli %rs, %c64 : i32
      // slot offsets: K codes 0, K scales D/2, V codes D/2 + D/32, V
      // scales D + D/32
      %kso = arith.shrui %hd_i, %c1 : i32
      %d32 = arith.shrui %hd_i, %c5 : i32
      %vco = arith.addi %kso, %d32 : i32
      %vso = arith.addi %hd_i, %d32 : i32
      %tid_ix = gpu.thread_id x
      %tid = arith.index_cast %tid_ix : index to i32
      %wg = arith.shrui %tid, %c7 : i32
      %wt = arith.andi %tid, %c127 : i32
      %warp = arith.shrui %wt, %c5 : i32
      %lane = arith.andi %tid, %c31 : i32
      %g = arith.shrui %lane, %c2 : i32
      %t = arith.andi %lane, %c3 : i32
      %blk_x_ix = gpu.block_id x
      %blk_x = arith.index_cast %blk_x_ix : index to i32
      %kvh_ix = gpu.block_id y
      %kvh = arith.index_cast %kvh_ix : index to i32
      %part_ix = gpu.block_id z
      %part = arith.index_cast %part_ix : index to i32
      // the block: floor(rows / QG) tokens of one sequence (@query_block)
      %bt = arith.divui %rows, %qgi : i32
      %qt:4 = func.call @query_block(%query_start_loc, %seq_lens, %search_seqs, %bt, %blk_x) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32) -> (i32, i32, i32, i32)
      %seq = arith.addi %qt#0, %c0 : i32
      %qtok = arith.addi %qt#1, %c0 : i32
      %ntok = arith.addi %qt#2, %c0 : i32
      %has_tokens = arith.cmpi sgt, %ntok, %c0 : i32
      cf.cond_br %has_tokens, ^walk, ^done
    ^walk:
      %lim0 = arith.addi %qt#3, %c1 : i32
      %lim_last = arith.addi %qt#3, %ntok : i32
      %live_rows = arith.muli %ntok, %qgi : i32
      %hq0 = arith.muli %kvh, %qgi : i32
      // pwg = 1: warpgroup 2 copies and decodes, 0 and 1 multiply
      // (384 threads); 0: all 256 threads copy, decode, then multiply
      %producer_ix = "uq.param"() {name = "pwg"} : () -> index
      %split = arith.cmpi ne, %producer_ix, %i0 : index
      // the query rows into shared memory, by the threads that multiply
      // (the CTA barrier after the mbarriers' set-up, or the all-threads
      // walk's first, orders them before the first S)
      %true = arith.constant true
      %th:2 = func.call @wg_threads() : () -> (i32, i32)
      %consumers_ix = arith.index_cast %th#0 : i32 to index
      %multiplies = arith.cmpi ult, %tid, %th#0 : i32
      %no_split = arith.xori %split, %true : i1
      %stages_q = arith.ori %no_split, %multiplies : i1
      scf.if %stages_q {
        func.call @wg_stage_query(%query, %q_stride_seq, %q_stride_head, %qtok, %hq0, %qgi, %live_rows, %tid, %base, %hd, %f16) : (!llvm.ptr<1>, i32, i32, i32, i32, i32, i32, i32, i32, index, i1) -> ()
        // written by the generic proxy, read by wgmma's async proxy
        llvm.inline_asm has_side_effects asm_dialect = att "fence.proxy.async.shared::cta;", "~{memory}" : () -> ()
      }
      // ---- the walk: this partition's 64-token tiles of the block's
      // positions [first row's window start, last row's end), partition p
      // taking tiles p, p + P, .. (groups of 4 16-token tiles), at most
      // tgpp of them; positions clamped to [lo, hi] for the copies.
      %ws_first = func.call @window_start(%lim0, %sliding_window) : (i32, i32) -> i32
      %ws_last = func.call @window_start(%lim_last, %sliding_window) : (i32, i32) -> i32
      %win_base = arith.andi %ws_first, %cm16 : i32
      %span0 = arith.subi %lim_last, %win_base : i32
      %span = arith.addi %span0, %c63 : i32
      %ngroups = arith.shrui %span, %c6 : i32
      %left0 = arith.subi %ngroups, %part : i32
      %left1 = arith.addi %left0, %num_partitions : i32
      %left2 = arith.subi %left1, %c1 : i32
      %mine0 = arith.divsi %left2, %num_partitions : i32
      %has_mine = arith.cmpi sgt, %left0, %c0 : i32
      %mine1 = arith.select %has_mine, %mine0, %c0 : i32
      %kcount = arith.minsi %mine1, %tgpp : i32
      %hi = arith.subi %lim_last, %c1 : i32
      %unit = arith.shrui %hd_i, %c4 : i32
      %unit_m = arith.subi %unit, %c1 : i32
      %cache_i = llvm.ptrtoint %kv_cache : !llvm.ptr<1> to i64
      %cache_lo = arith.trunci %cache_i : i64 to i32
      %al0 = arith.ori %cache_lo, %padded_slot : i32
      %al1 = arith.andi %al0, %unit_m : i32
      %wide = arith.cmpi eq, %al1, %c0 : i32
      %gstride = arith.muli %num_partitions, %c64 : i32
      %part64 = arith.muli %part, %c64 : i32
      %tok_first = arith.addi %win_base, %part64 : i32
      // this thread's rows: g and g + 8 of its warp's 16 in its
      // warpgroup's 64; their positions [window start, limit)
      %wr0 = arith.shli %wg, %c6 : i32
      %wr1 = arith.shli %warp, %c4 : i32
      %wr2 = arith.addi %wr0, %wr1 : i32
      %row0 = arith.addi %wr2, %g : i32
      %row1 = arith.addi %row0, %c8 : i32
      %qwbytes = arith.muli %hd_i, %c128 : i32
      %kcount_ix = arith.index_cast %kcount : i32 to index
      // the pipeline's barriers (@wg_barriers_init): K full/empty and V
      // full/empty of buffer 0, the next buffer's 32 (K) and 16 n (V)
      // bytes on; tile k's K in buffer k % n (its use k / n), V in k % 2
      %bars = arith.addi %base, %lay#4 : i32
      %b_kfull = arith.addi %bars, %c0 : i32
      %b_kempty = arith.addi %bars, %c8 : i32
      %c16b = arith.constant 16 : i32
      %c24b = arith.constant 24 : i32
      %b_vfull = arith.addi %bars, %c16b : i32
      %b_vempty = arith.addi %bars, %c24b : i32
      %kbufs = func.call @wg_k_buffers() : () -> i32
      %kmask = arith.subi %kbufs, %c1 : i32
      %vbstride = arith.muli %kbufs, %c16b : i32
      cf.cond_br %split, ^split, ^rows
    ^split:
      %is_first = arith.cmpi eq, %tid, %c0 : i32
      scf.if %is_first {
        func.call @wg_barriers_init(%bars) : (i32) -> ()
      }
      gpu.barrier
      %producer = arith.cmpi uge, %tid, %th#0 : i32
      cf.cond_br %producer, ^produce, ^consume
    ^produce:
      // ---- the producer warpgroups: copy each tile's slots (two raw
      // stages) and decode K and V into the consumers' buffers
      func.call @wg_move_registers(%true) : (i1) -> ()
      %ptid = arith.subi %tid, %th#0 : i32
      %pthreads_i = arith.index_cast %th#1 : i32 to index
      scf.for %s = %i0 to %i2 step %i1 {
        %si = arith.index_cast %s : index to i32
        %live = arith.cmpi slt, %si, %kcount : i32
        scf.if %live {
          %so = arith.muli %si, %gstride : i32
          %tok0 = arith.addi %tok_first, %so : i32
          %sb = arith.muli %si, %rawstage : i32
          %stage = arith.addi %rawbase, %sb : i32
          func.call @wg_copy_tile(%stage, %tok0, %ws_first, %hi, %seq, %kv_cache, %block_tables, %max_blocks_per_seq, %block_size, %num_kv_heads, %kvh, %padded_slot, %wide, %ptid, %pthreads_i) : (i32, i32, i32, i32, i32, !llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32, i32, i32, i1, i32, index) -> ()
        }
        llvm.inline_asm has_side_effects asm_dialect = att "cp.async.commit_group;", "~{memory}" : () -> ()
      }
      scf.for %k = %i0 to %kcount_ix step %i1 {
        %ki = arith.index_cast %k : index to i32
        llvm.inline_asm has_side_effects asm_dialect = att "cp.async.wait_group 1;", "~{memory}" : () -> ()
        func.call @wg_sync_producers() : () -> ()
        %stg0 = arith.andi %ki, %c1 : i32
        %stg1 = arith.muli %stg0, %rawstage : i32
        %src = arith.addi %rawbase, %stg1 : i32
        // K: buffer k % n, free once the consumers' S of tile k - n is
        // done (use k / n waits for the release of the use before)
        %ks:4 = func.call @wg_k_slot(%ki, %kmask, %kbufs, %kbase, %qwbytes, %b_kfull, %b_kempty) : (i32, i32, i32, i32, i32, i32, i32) -> (i32, i32, i32, i32)
        %kpar = arith.xori %ks#3, %c1 : i32
        func.call @wg_bar_wait(%ks#2, %kpar) : (i32, i32) -> ()
        func.call @wg_decode_groups(%src, %c0, %kso, %ks#0, %ptid, %pthreads_i) : (i32, i32, i32, i32, i32, index) -> ()
        func.call @wg_bar_publish(%ks#1) : (i32) -> ()
        // V: two buffers, tile k in buffer k % 2 (its use k / 2)
        %vsel = arith.muli %stg0, %qwbytes : i32
        %vbuf = arith.addi %vbase, %vsel : i32
        %vb16 = arith.muli %stg0, %vbstride : i32
        %b_ve = arith.addi %b_vempty, %vb16 : i32
        %b_vf = arith.addi %b_vfull, %vb16 : i32
        %vuse = arith.shrui %ki, %c1 : i32
        %vpar0 = arith.andi %vuse, %c1 : i32
        %vpar = arith.xori %vpar0, %c1 : i32
        func.call @wg_bar_wait(%b_ve, %vpar) : (i32, i32) -> ()
        func.call @wg_decode_groups(%src, %vco, %vso, %vbuf, %ptid, %pthreads_i) : (i32, i32, i32, i32, i32, index) -> ()
        func.call @wg_bar_publish(%b_vf) : (i32) -> ()
        // every producer thread is done with the raw stage: the tile two
        // ahead goes there
        func.call @wg_sync_producers() : () -> ()
        %k2 = arith.addi %ki, %c2 : i32
        %more = arith.cmpi slt, %k2, %kcount : i32
        scf.if %more {
          %so = arith.muli %k2, %gstride : i32
          %tok2 = arith.addi %tok_first, %so : i32
          func.call @wg_copy_tile(%src, %tok2, %ws_first, %hi, %seq, %kv_cache, %block_tables, %max_blocks_per_seq, %block_size, %num_kv_heads, %kvh, %padded_slot, %wide, %ptid, %pthreads_i) : (i32, i32, i32, i32, i32, !llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32, i32, i32, i1, i32, index) -> ()
        }
        llvm.inline_asm has_side_effects asm_dialect = att "cp.async.commit_group;", "~{memory}" : () -> ()
      }
      llvm.inline_asm has_side_effects asm_dialect = att "cp.async.wait_all;", "~{memory}" : () -> ()
      gpu.return
    ^consume:
      // ---- the consumer warpgroups: 64 query rows each
      %false = arith.constant false
      func.call @wg_move_registers(%false) : (i1) -> ()
      cf.br ^rows
    ^rows:
      %lim_r0 = func.call @row_limit(%row0, %qgi, %live_rows, %lim0) : (i32, i32, i32, i32) -> i32
      %lim_r1 = func.call @row_limit(%row1, %qgi, %live_rows, %lim0) : (i32, i32, i32, i32) -> i32
      %ws_r0 = func.call @window_start(%lim_r0, %sliding_window) : (i32, i32) -> i32
      %ws_r1 = func.call @window_start(%lim_r1, %sliding_window) : (i32, i32) -> i32
      %cs = arith.mulf %softmax_scale, %log2e : f32
      %qwoff = arith.muli %wg, %qwbytes : i32
      %qbase = arith.addi %base, %qwoff : i32
      %nk = arith.divui %hd, %i16 : index
      %nc = arith.divui %hd, %i64 : index
      cf.cond_br %split, ^consume_walk, ^together_walk
    ^consume_walk:
      // Per tile k: S(k) = Q K(k)^T is issued, then O += P(k-1) V(k-1)
      // behind it; the softmax of S(k) runs while that P V is on the tensor
      // cores, and O is rescaled once it is done.
      %fin:6 = scf.for %k = %i0 to %kcount_ix step %i1 iter_args(%m0 = %ninf, %m1 = %ninf, %l0 = %zero_f, %l1 = %zero_f, %acc = %zero4x32, %pprev = %zero16i) -> (f32, f32, f32, f32, vector<4x32xf32>, vector<16xi32>) {
        %ki = arith.index_cast %k : index to i32
        %ks:4 = func.call @wg_k_slot(%ki, %kmask, %kbufs, %kbase, %qwbytes, %b_kfull, %b_kempty) : (i32, i32, i32, i32, i32, i32, i32) -> (i32, i32, i32, i32)
        func.call @wg_bar_wait(%ks#1, %ks#3) : (i32, i32) -> ()
        %Sa = func.call @wg_scores(%qbase, %ks#0, %nk) : (i32, i32, index) -> (vector<32xf32>)
        %not_first = arith.cmpi ne, %ki, %c0 : i32
        %stg0 = arith.andi %ki, %c1 : i32
        %pstg = arith.xori %stg0, %c1 : i32
        %pb16 = arith.muli %pstg, %vbstride : i32
        %b_pve = arith.addi %b_vempty, %pb16 : i32
        %b_pvf = arith.addi %b_vfull, %pb16 : i32
        %acc1 = scf.if %not_first -> (vector<4x32xf32>) {
          %kp = arith.subi %ki, %c1 : i32
          %puse = arith.shrui %kp, %c1 : i32
          %ppar = arith.andi %puse, %c1 : i32
          func.call @wg_bar_wait(%b_pvf, %ppar) : (i32, i32) -> ()
          %pvsel = arith.muli %pstg, %qwbytes : i32
          %ov = func.call @wg_pv(%acc, %pprev, %vbase, %pvsel, %nc) : (vector<4x32xf32>, vector<16xi32>, i32, i32, index) -> (vector<4x32xf32>)
          nvvm.wgmma.wait.group.sync.aligned 1
          scf.yield %ov : vector<4x32xf32>
        } else {
          nvvm.wgmma.wait.group.sync.aligned 0
          scf.yield %acc : vector<4x32xf32>
        }
        %S = func.call @wg_hold(%Sa) : (vector<32xf32>) -> vector<32xf32>
        func.call @wg_bar_release(%ks#2) : (i32) -> ()
        // ---- the online softmax of S(k): (m, l) of rows g and g + 8, the
        // corrections of O, P(k) packed as bf16
        %sm:8 = func.call @wg_online_softmax(%S, %m0, %m1, %l0, %l1, %ki, %gstride, %tok_first, %lim0, %ws_last, %t, %cs, %lim_r0, %lim_r1, %ws_r0, %ws_r1) : (vector<32xf32>, f32, f32, f32, f32, i32, i32, i32, i32, i32, i32, f32, i32, i32, i32, i32) -> (f32, f32, f32, f32, f32, f32, i1, vector<32xf32>)
        %pk = func.call @wg_pack_p(%sm#7) : (vector<32xf32>) -> vector<16xi32>
        // ---- P(k-1) V(k-1) done: its V buffer is free, O is rescaled
        nvvm.wgmma.wait.group.sync.aligned 0
        %acc2 = func.call @wg_hold_all(%acc1, %nc) : (vector<4x32xf32>, index) -> vector<4x32xf32>
        scf.if %not_first {
          func.call @wg_bar_release(%b_pve) : (i32) -> ()
        }
        %acc3 = func.call @wg_rescale(%acc2, %sm#4, %sm#5, %sm#6, %nc) : (vector<4x32xf32>, f32, f32, i1, index) -> vector<4x32xf32>
        scf.yield %sm#0, %sm#1, %sm#2, %sm#3, %acc3, %pk : f32, f32, f32, f32, vector<4x32xf32>, vector<16xi32>
      }
      // the last tile's O += P V
      %any = arith.cmpi sgt, %kcount, %c0 : i32
      %ofin = scf.if %any -> (vector<4x32xf32>) {
        %kl = arith.subi %kcount, %c1 : i32
        %lstg = arith.andi %kl, %c1 : i32
        %lb16 = arith.muli %lstg, %vbstride : i32
        %b_lvf = arith.addi %b_vfull, %lb16 : i32
        %luse = arith.shrui %kl, %c1 : i32
        %lpar = arith.andi %luse, %c1 : i32
        func.call @wg_bar_wait(%b_lvf, %lpar) : (i32, i32) -> ()
        %lvsel = arith.muli %lstg, %qwbytes : i32
        %ov = func.call @wg_pv(%fin#4, %fin#5, %vbase, %lvsel, %nc) : (vector<4x32xf32>, vector<16xi32>, i32, i32, index) -> (vector<4x32xf32>)
        nvvm.wgmma.wait.group.sync.aligned 0
        %oh = func.call @wg_hold_all(%ov, %nc) : (vector<4x32xf32>, index) -> vector<4x32xf32>
        scf.yield %oh : vector<4x32xf32>
      } else {
        scf.yield %fin#4 : vector<4x32xf32>
      }
      cf.br ^store(%fin#0, %fin#1, %fin#2, %fin#3, %ofin : f32, f32, f32, f32, vector<4x32xf32>)
    ^together_walk:
      // ---- all 256 threads, per tile: the copy two tiles ahead, K and V
      // decoded, then S = Q K^T, the softmax and O += P V (left in flight
      // while the next tile is decoded)
      scf.for %s = %i0 to %i2 step %i1 {
        %si = arith.index_cast %s : index to i32
        %live = arith.cmpi slt, %si, %kcount : i32
        scf.if %live {
          %so = arith.muli %si, %gstride : i32
          %tok0 = arith.addi %tok_first, %so : i32
          %sb = arith.muli %si, %rawstage : i32
          %stage = arith.addi %rawbase, %sb : i32
          func.call @wg_copy_tile(%stage, %tok0, %ws_first, %hi, %seq, %kv_cache, %block_tables, %max_blocks_per_seq, %block_size, %num_kv_heads, %kvh, %padded_slot, %wide, %tid, %consumers_ix) : (i32, i32, i32, i32, i32, !llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32, i32, i32, i1, i32, index) -> ()
        }
        llvm.inline_asm has_side_effects asm_dialect = att "cp.async.commit_group;", "~{memory}" : () -> ()
      }
      %tfin:5 = scf.for %k = %i0 to %kcount_ix step %i1 iter_args(%m0 = %ninf, %m1 = %ninf, %l0 = %zero_f, %l1 = %zero_f, %acc = %zero4x32) -> (f32, f32, f32, f32, vector<4x32xf32>) {
        %ki = arith.index_cast %k : index to i32
        llvm.inline_asm has_side_effects asm_dialect = att "cp.async.wait_group 1;", "~{memory}" : () -> ()
        gpu.barrier
        %stg0 = arith.andi %ki, %c1 : i32
        %stg1 = arith.muli %stg0, %rawstage : i32
        %src = arith.addi %rawbase, %stg1 : i32
        func.call @wg_decode_tile(%src, %c0, %kso, %kbase, %tid) : (i32, i32, i32, i32, i32) -> ()
        %vsel = arith.muli %stg0, %qwbytes : i32
        %vbuf = arith.addi %vbase, %vsel : i32
        func.call @wg_decode_tile(%src, %vco, %vso, %vbuf, %tid) : (i32, i32, i32, i32, i32) -> ()
        llvm.inline_asm has_side_effects asm_dialect = att "fence.proxy.async.shared::cta;", "~{memory}" : () -> ()
        gpu.barrier
        // the raw stage is free again: the tile two ahead goes there
        %k2 = arith.addi %ki, %c2 : i32
        %more = arith.cmpi slt, %k2, %kcount : i32
        scf.if %more {
          %so = arith.muli %k2, %gstride : i32
          %tok2 = arith.addi %tok_first, %so : i32
          func.call @wg_copy_tile(%src, %tok2, %ws_first, %hi, %seq, %kv_cache, %block_tables, %max_blocks_per_seq, %block_size, %num_kv_heads, %kvh, %padded_slot, %wide, %tid, %consumers_ix) : (i32, i32, i32, i32, i32, !llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32, i32, i32, i1, i32, index) -> ()
        }
        llvm.inline_asm has_side_effects asm_dialect = att "cp.async.commit_group;", "~{memory}" : () -> ()
        // S = Q K^T, waited for with the last tile's O += P V
        %Sa = func.call @wg_scores(%qbase, %kbase, %nk) : (i32, i32, index) -> (vector<32xf32>)
        nvvm.wgmma.wait.group.sync.aligned 0
        %S = func.call @wg_hold(%Sa) : (vector<32xf32>) -> vector<32xf32>
        %acc_h = func.call @wg_hold_all(%acc, %nc) : (vector<4x32xf32>, index) -> vector<4x32xf32>
        %sm:8 = func.call @wg_online_softmax(%S, %m0, %m1, %l0, %l1, %ki, %gstride, %tok_first, %lim0, %ws_last, %t, %cs, %lim_r0, %lim_r1, %ws_r0, %ws_r1) : (vector<32xf32>, f32, f32, f32, f32, i32, i32, i32, i32, i32, i32, f32, i32, i32, i32, i32) -> (f32, f32, f32, f32, f32, f32, i1, vector<32xf32>)
        %acc_s = func.call @wg_rescale(%acc_h, %sm#4, %sm#5, %sm#6, %nc) : (vector<4x32xf32>, f32, f32, i1, index) -> vector<4x32xf32>
        %pk = func.call @wg_pack_p(%sm#7) : (vector<32xf32>) -> vector<16xi32>
        %ov = func.call @wg_pv(%acc_s, %pk, %vbase, %vsel, %nc) : (vector<4x32xf32>, vector<16xi32>, i32, i32, index) -> (vector<4x32xf32>)
        scf.yield %sm#0, %sm#1, %sm#2, %sm#3, %ov : f32, f32, f32, f32, vector<4x32xf32>
      }
      nvvm.wgmma.wait.group.sync.aligned 0
      %tofin = func.call @wg_hold_all(%tfin#4, %nc) : (vector<4x32xf32>, index) -> vector<4x32xf32>
      llvm.inline_asm has_side_effects asm_dialect = att "cp.async.wait_all;", "~{memory}" : () -> ()
      cf.br ^store(%tfin#0, %tfin#1, %tfin#2, %tfin#3, %tofin : f32, f32, f32, f32, vector<4x32xf32>)
    ^store(%fm0: f32, %fm1: f32, %fl0: f32, %fl1: f32, %fo: vector<4x32xf32>):
      // ---- the rows' output (one partition) or partials
      func.call @wg_store_rows(%fm0, %fm1, %fl0, %fl1, %fo, %row0, %row1, %t, %live_rows, %qgi, %qtok, %hq0, %kvh, %num_kv_heads, %part, %num_partitions, %nc, %f16, %sinks, %output, %out_stride_seq, %out_stride_head, %segm_out, %segm_max, %segm_sum) : (f32, f32, f32, f32, vector<4x32xf32>, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, index, i1, !llvm.ptr<1>, !llvm.ptr<1>, i32, i32, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>) -> ()
      gpu.return
    ^done:
      gpu.return
    }
  }
}
