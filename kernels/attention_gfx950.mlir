// The gfx950 attention for blocks of many query rows (prefill chunks, long
// verify steps): a workgroup of `waves` waves holds `rows` query rows of
// one (sequence, KV head), rows / waves a wave (wave w: block rows
// [w rows / waves, +rows / waves)), and shares each 16-token KV tile
// through LDS. The arguments, partials, grid and walk are @uq_decode's
// (kernels/decode.mlir, runtime/kernel_abi.h): a query block of
// floor(rows / QG) tokens on vLLM's grid, partition p's 256-token groups,
// P = 1 writing the output itself.
//
// Per tile (every wave; docs/design.md "gfx950 blocks of many rows"):
// - share: each wave stores its share of the tile, loaded from global
//   memory one tile earlier (@share_roles, @share_loads: one K issue's
//   codes or the K scale words, and one V slice of each lane's chunk; a
//   wave with no role in a part loads zeros without reading memory), into
//   one of two LDS buffers: the K words as the scaled MFMA's A operand
//   image, V converted to bf16 rows (@share_store); so K and V are read
//   from global memory once per workgroup and V converted once for all its
//   rows.
// - one s_barrier; then the next tile's share loads go out.
// - each wave reads the K operands from the image (@share_k) and runs the
//   decode's steps on its own row tiles: scores and the online softmax
//   (@tile_scores), PV from the bf16 V rows (@pv_step).
// Two buffers (tiles alternate) make one barrier per tile enough: a wave
// storing tile n + 2 has passed tile n + 1's barrier, which every wave
// reached after its reads of tile n.
// Before the walk each wave rotates its own row tiles' queries through its
// own 4 KiB of the same LDS (a barrier before the first tile's stores).
// Every wave runs every barrier: the walk is the block's, and a wave
// without live rows still loads and converts its share (@share_walk).
module attributes {gpu.container_module} {
  // Variants: rows (of the workgroup) and waves; rows / waves rows per
  // wave in 16-row MFMA row tiles. uq.kernel_attrs: the workgroup size
  // (known_block_size, the code object's .reqd_workgroup_size, which the
  // runtime launches with) and the register budget per wave (D 128's 4
  // row tiles take 257 registers: one wave a SIMD). min_rows: from the
  // simulator's instruction counts (docs/benchmarks.md). A variant needs
  // at least as many waves as the share has K roles (D/128 + 1) and V
  // slices (8 at D 256, 4 at 128, 2 at 64; @share_roles).
  gpu.module @uq_decode_mw [#rocdl.target<chip = "gfx950", O = 3>] attributes {uq.variants = [{d = 64, rows = 256, waves = 4, min_rows = 256}, {d = 128, rows = 256, waves = 4, min_rows = 256}, {d = 256, rows = 256, waves = 8, min_rows = 192}], uq.kernel_attrs = [{rocdl.waves_per_eu = 2 : i32, known_block_size = array<i32: 256, 1, 1>}, {rocdl.waves_per_eu = 1 : i32, known_block_size = array<i32: 256, 1, 1>}, {rocdl.waves_per_eu = 2 : i32, known_block_size = array<i32: 512, 1, 1>}]} {
    // LDS: before the walk, wave w's query rotation image at 4096 w; in the
    // walk two tile buffers of 12,032 B (the K image's 3,584 B, then V's 16
    // bf16 rows of 2D + 16 B, D = 256).
    llvm.mlir.global internal @uq_decode_mw_lds() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32768 x i8>
    // The Q operands of waves whose registers cannot hold them
    // (@q_operands_in_lds: 64 rows a wave at D = 256): 16 KiB a wave.
    // Referenced only by those variants.
    llvm.mlir.global internal @uq_decode_mw_q_lds() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<65536 x i8>

    // From the kernel library (kernels/gfx950.mlir, kernels/steps.mlir).
    func.func private @wave_index() -> i32
    func.func private @issues(index) -> index
    func.func private @q_operands_in_lds(index, index) -> i1
    func.func private @q_image_operand(!llvm.ptr<3>, index) -> vector<8xi32>
    func.func private @row_sum(f32) -> f32
    func.func private @rotate_query(!llvm.ptr<1>, i32, i32, i32, i32, i32, i32, i32, index, !llvm.ptr<3>, index, i1)
    func.func private @kv_lane_offsets(i32, i32, i32, index) -> (vector<4xi32>, vector<4xi32>, i32, i32)
    func.func private @tile_first(i32, i32, i32, i32) -> i32
    func.func private @share_roles(vector<4xi32>, vector<4xi32>, i32, i32, i32, index) -> (i32, i32, i32, i32, i32, i32, i32, i32)
    func.func private @share_loads(!llvm.ptr<1>, !llvm.ptr<1>, i32, i64, i32, i32, i64, i64, i32, i32, i32, i32, i32) -> (vector<4xi32>, i32, i32, i32)
    func.func private @share_store(vector<4xi32>, i32, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<3>, !llvm.ptr<3>, i32, i32, i32, i32, index)
    func.func private @share_k(!llvm.ptr<3>, index) -> (vector<4x4xi32>, i32)
    func.func private @tile_scores(vector<4xf32>, vector<4xf32>, vector<4x4xi32>, i32, vector<4x4x8xi32>, !llvm.ptr<3>, i32, i32, i32, vector<4xi32>, vector<4xi32>, i32, f32, i1, index, index) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4x4xi16>, vector<4xi1>)
    func.func private @pv_step(vector<4x32x4xf32>, vector<4xf32>, vector<4x4xi16>, vector<4xi1>, !llvm.ptr<3>, index, index) -> vector<4x32x4xf32>
    func.func private @store_partial(!llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, i32, i32, i32, i32, i32, i32, i32, index, index, !llvm.ptr<1>, i32, i32, !llvm.ptr<1>, i1, i32)
    func.func private @row_ranges(i32, i32, i32, i32, index, i32) -> (vector<4xi32>, vector<4xi32>)
    func.func private @query_block(!llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32) -> (i32, i32, i32, i32)
    func.func private @block_queries(!llvm.ptr<1>, !llvm.ptr<1>, i32, index, i32, i32) -> (i32, i32, i32, i32, i32, i32)
    func.func private @cache_geometry(i32, i32, i32, i32, i32) -> (i32, i32, i32, i64, i64)
    func.func private @block_positions(i32, i32, i32) -> (i32, i32, i32, i32, i32, i32)
    func.func private @partition_tiles(i32, i32, i32, i32, i32) -> i32

    func.func private @mw_lds(%offset: i32) -> !llvm.ptr<3> {
      %lds = llvm.mlir.addressof @uq_decode_mw_lds : !llvm.ptr<3>
      %p = llvm.getelementptr %lds[%offset] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      return %p : !llvm.ptr<3>
    }

    // Tile buffer b's K image and V rows.
    func.func private @tile_buffers(%b: i32) -> (!llvm.ptr<3>, !llvm.ptr<3>) {
      %c12032 = arith.constant 12032 : i32
      %c3584 = arith.constant 3584 : i32
      %o = arith.muli %b, %c12032 : i32
      %kb = func.call @mw_lds(%o) : (i32) -> !llvm.ptr<3>
      %vo = arith.addi %o, %c3584 : i32
      %vb = func.call @mw_lds(%vo) : (i32) -> !llvm.ptr<3>
      return %kb, %vb : !llvm.ptr<3>, !llvm.ptr<3>
    }

    // Where wave w's row tile t waits as a Q operand image: its own part of
    // @uq_decode_mw_q_lds (@row_tile_q reads it each tile), else its
    // rotation area (read into registers before the walk).
    func.func private @wave_q_image(%wave: i32, %t: index, %rt: index, %d: index) -> !llvm.ptr<3> {
      %c4096 = arith.constant 4096 : i32
      %c16384 = arith.constant 16384 : i32
      %in_lds = func.call @q_operands_in_lds(%rt, %d) : (index, index) -> i1
      %ti = arith.index_cast %t : index to i32
      %o0 = arith.muli %wave, %c16384 : i32
      %o1 = arith.muli %ti, %c4096 : i32
      %o = arith.addi %o0, %o1 : i32
      %q_lds = llvm.mlir.addressof @uq_decode_mw_q_lds : !llvm.ptr<3>
      %own = llvm.getelementptr %q_lds[%o] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %so = arith.muli %wave, %c4096 : i32
      %stage = func.call @mw_lds(%so) : (i32) -> !llvm.ptr<3>
      %p = arith.select %in_lds, %own, %stage : !llvm.ptr<3>
      return %p : !llvm.ptr<3>
    }

    // ---- one tile of the walk (starting at `first`, the wave's share of it
    // in %kc, %ksw, %vw, %vsw) in tile buffer b: the wave's share into LDS,
    // the barrier, the next tile's share loads (at `next`; past the last a
    // descriptor of 0 records, whose loads return zeros), then the wave's
    // row tiles' scores, softmax and PV. %roles: @share_roles.
    func.func private @walk_tile(%m: vector<4xf32>, %l: vector<4xf32>, %acc: vector<4x32x4xf32>,
                                 %kc: vector<4xi32>, %ksw: i32, %vw: i32, %vsw: i32, %b: i32,
                                 %first: i32, %next: i32, %next_records: i64,
                                 %kv_cache: !llvm.ptr<1>, %block_tables: !llvm.ptr<1>,
                                 %bs_shift: i32, %bs_mask: i32, %bt_row: i64, %blk_bytes: i64,
                                 %pos_stride: i32, %roles: vector<8xi32>, %q: vector<4x4x8xi32>,
                                 %q_lds: !llvm.ptr<3>, %lim_lo: i32, %ws_hi: i32, %win_start: i32,
                                 %win_len: i32, %row_ws: vector<4xi32>, %row_wl: vector<4xi32>,
                                 %live_rows: i32, %softmax_scale: f32, %rt: index, %d: index)
        -> (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, vector<4xi32>, i32, i32, i32) {
      %k_load = vector.extract %roles[0] : i32 from vector<8xi32>
      %ks_load = vector.extract %roles[1] : i32 from vector<8xi32>
      %v_load = vector.extract %roles[2] : i32 from vector<8xi32>
      %vs_load = vector.extract %roles[3] : i32 from vector<8xi32>
      %k_dst = vector.extract %roles[4] : i32 from vector<8xi32>
      %ks_dst = vector.extract %roles[5] : i32 from vector<8xi32>
      %v_dst = vector.extract %roles[6] : i32 from vector<8xi32>
      %vh = vector.extract %roles[7] : i32 from vector<8xi32>
      %buf:2 = func.call @tile_buffers(%b) : (i32) -> (!llvm.ptr<3>, !llvm.ptr<3>)
      func.call @share_store(%kc, %ksw, %vw, %vsw, %first, %lim_lo, %ws_hi, %win_start, %win_len, %buf#0, %buf#1, %k_dst, %ks_dst, %v_dst, %vh, %d) : (vector<4xi32>, i32, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<3>, !llvm.ptr<3>, i32, i32, i32, i32, index) -> ()
      gpu.barrier
      %ld:4 = func.call @share_loads(%kv_cache, %block_tables, %next, %next_records, %bs_shift, %bs_mask, %bt_row, %blk_bytes, %pos_stride, %k_load, %ks_load, %v_load, %vs_load) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i64, i32, i32, i64, i64, i32, i32, i32, i32, i32) -> (vector<4xi32>, i32, i32, i32)
      %k:2 = func.call @share_k(%buf#0, %d) : (!llvm.ptr<3>, index) -> (vector<4x4xi32>, i32)
      %every_tile = arith.constant true
      %sm:5 = func.call @tile_scores(%m, %l, %k#0, %k#1, %q, %q_lds, %first, %lim_lo, %ws_hi, %row_ws, %row_wl, %live_rows, %softmax_scale, %every_tile, %rt, %d) : (vector<4xf32>, vector<4xf32>, vector<4x4xi32>, i32, vector<4x4x8xi32>, !llvm.ptr<3>, i32, i32, i32, vector<4xi32>, vector<4xi32>, i32, f32, i1, index, index) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4x4xi16>, vector<4xi1>)
      %accn = func.call @pv_step(%acc, %sm#2, %sm#3, %sm#4, %buf#1, %rt, %d) : (vector<4x32x4xf32>, vector<4xf32>, vector<4x4xi16>, vector<4xi1>, !llvm.ptr<3>, index, index) -> vector<4x32x4xf32>
      return %sm#0, %sm#1, %accn, %ld#0, %ld#1, %ld#2, %ld#3 : vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, vector<4xi32>, i32, i32, i32
    }

    // ---- the walk of a wave without live rows: every tile's share into
    // its buffer (tile n: buffer n & 1, as @walk_tile's) and the barrier,
    // the next tile's share loaded after it; no scores, no PV.
    func.func private @share_walk(%kc0: vector<4xi32>, %ksw0: i32, %vw0: i32, %vsw0: i32,
                                  %ntiles: i32, %part: i32, %num_partitions: i32,
                                  %kv_cache: !llvm.ptr<1>, %block_tables: !llvm.ptr<1>,
                                  %bs_shift: i32, %bs_mask: i32, %bt_row: i64, %blk_bytes: i64,
                                  %pos_stride: i32, %roles: vector<8xi32>, %lim_lo: i32,
                                  %ws_hi: i32, %win_start: i32, %win_base: i32, %win_len: i32,
                                  %d: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c1_i32 = arith.constant 1 : i32
      %c0_i64 = arith.constant 0 : i64
      %k_load = vector.extract %roles[0] : i32 from vector<8xi32>
      %ks_load = vector.extract %roles[1] : i32 from vector<8xi32>
      %v_load = vector.extract %roles[2] : i32 from vector<8xi32>
      %vs_load = vector.extract %roles[3] : i32 from vector<8xi32>
      %k_dst = vector.extract %roles[4] : i32 from vector<8xi32>
      %ks_dst = vector.extract %roles[5] : i32 from vector<8xi32>
      %v_dst = vector.extract %roles[6] : i32 from vector<8xi32>
      %vh = vector.extract %roles[7] : i32 from vector<8xi32>
      %n_ix = arith.index_cast %ntiles : i32 to index
      %r:4 = scf.for %t = %c0 to %n_ix step %c1 iter_args(%kc = %kc0, %ksw = %ksw0, %vw = %vw0, %vsw = %vsw0) -> (vector<4xi32>, i32, i32, i32) {
        %ti = arith.index_cast %t : index to i32
        %b = arith.andi %ti, %c1_i32 : i32
        %first = func.call @tile_first(%ti, %part, %num_partitions, %win_base) : (i32, i32, i32, i32) -> i32
        %buf:2 = func.call @tile_buffers(%b) : (i32) -> (!llvm.ptr<3>, !llvm.ptr<3>)
        func.call @share_store(%kc, %ksw, %vw, %vsw, %first, %lim_lo, %ws_hi, %win_start, %win_len, %buf#0, %buf#1, %k_dst, %ks_dst, %v_dst, %vh, %d) : (vector<4xi32>, i32, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<3>, !llvm.ptr<3>, i32, i32, i32, i32, index) -> ()
        gpu.barrier
        %tn = arith.addi %ti, %c1_i32 : i32
        %more = arith.cmpi slt, %tn, %ntiles : i32
        %tl = arith.select %more, %tn, %ti : i32
        %rec = arith.select %more, %blk_bytes, %c0_i64 : i64
        %next = func.call @tile_first(%tl, %part, %num_partitions, %win_base) : (i32, i32, i32, i32) -> i32
        %ld:4 = func.call @share_loads(%kv_cache, %block_tables, %next, %rec, %bs_shift, %bs_mask, %bt_row, %blk_bytes, %pos_stride, %k_load, %ks_load, %v_load, %vs_load) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i64, i32, i32, i64, i64, i32, i32, i32, i32, i32) -> (vector<4xi32>, i32, i32, i32)
        scf.yield %ld#0, %ld#1, %ld#2, %ld#3 : vector<4xi32>, i32, i32, i32
      }
      return
    }

    gpu.func @uq_decode_mw(
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
        %sinks: !llvm.ptr<1> {llvm.noalias, llvm.readonly}, %act_f16: i32) kernel {
      %rows = "uq.param"() {name = "rows"} : () -> index
      %waves = "uq.param"() {name = "waves"} : () -> index
      %d = "uq.param"() {name = "d"} : () -> index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c16_i32 = arith.constant 16 : i32
      %c0_i64 = arith.constant 0 : i64
      %ninf4 = arith.constant dense<0xFF800000> : vector<4xf32>
      %zero4 = arith.constant dense<0.0> : vector<4xf32>
      %zero_acc = arith.constant dense<0.0> : vector<4x32x4xf32>
      %f16 = arith.cmpi ne, %act_f16, %c0_i32 : i32
      // the wave's rows: rt row tiles from block row rb
      %wave_rows = arith.divui %rows, %waves : index
      %rt = arith.divui %wave_rows, %c16 : index
      %wave = func.call @wave_index() : () -> i32
      %wr = arith.index_cast %wave_rows : index to i32
      %rb = arith.muli %wave, %wr : i32
      %kvh_ix = gpu.block_id y
      %kvh = arith.index_cast %kvh_ix : index to i32
      %part_ix = gpu.block_id z
      %part = arith.index_cast %part_ix : index to i32
      // the block's queries (@block_queries)
      %blk_x_ix = gpu.block_id x
      %blk_x = arith.index_cast %blk_x_ix : index to i32
      %blk:6 = func.call @block_queries(%query_start_loc, %seq_lens, %search_seqs, %rows, %query_group, %blk_x) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, index, i32, i32) -> (i32, i32, i32, i32, i32, i32)
      %ntok = arith.addi %blk#4, %c0_i32 : i32
      %live_rows = arith.addi %blk#5, %c0_i32 : i32
      %wave_live = arith.subi %live_rows, %rb : i32
      // the block's positions and the partition's tiles (the whole
      // workgroup's: every wave walks them)
      %bp:6 = func.call @block_positions(%blk#3, %ntok, %sliding_window) : (i32, i32, i32) -> (i32, i32, i32, i32, i32, i32)
      %ntiles = func.call @partition_tiles(%bp#5, %part, %num_partitions, %tgpp, %live_rows) : (i32, i32, i32, i32, i32) -> i32
      // ---- cache geometry (@cache_geometry: 64-bit products)
      %bs_shift, %bs_mask, %pos_stride, %blk_bytes, %bt_row = func.call @cache_geometry(%block_size, %num_kv_heads, %padded_slot, %blk#0, %max_blocks_per_seq) : (i32, i32, i32, i32, i32) -> (i32, i32, i32, i64, i64)
      %offs:4 = func.call @kv_lane_offsets(%kvh, %padded_slot, %pos_stride, %d) : (i32, i32, i32, index) -> (vector<4xi32>, vector<4xi32>, i32, i32)
      %rr:2 = func.call @row_ranges(%blk#3, %query_group, %live_rows, %sliding_window, %rt, %rb) : (i32, i32, i32, i32, index, i32) -> (vector<4xi32>, vector<4xi32>)
      %q_lds = func.call @wave_q_image(%wave, %c0, %rt, %d) : (i32, index, index, index) -> !llvm.ptr<3>
      %rl:8 = func.call @share_roles(%offs#0, %offs#1, %offs#2, %offs#3, %wave, %d) : (vector<4xi32>, vector<4xi32>, i32, i32, i32, index) -> (i32, i32, i32, i32, i32, i32, i32, i32)
      %roles = vector.from_elements %rl#0, %rl#1, %rl#2, %rl#3, %rl#4, %rl#5, %rl#6, %rl#7 : vector<8xi32>
      %has_tiles = arith.cmpi sgt, %ntiles, %c0_i32 : i32
      %fin:3 = scf.if %has_tiles -> (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>) {
        // the Q operands of the wave's live row tiles (barriers outside the
        // wave's own branches: every wave runs each)
        %in_lds = func.call @q_operands_in_lds(%rt, %d) : (index, index) -> i1
        %zq = arith.constant dense<0> : vector<4x4x8xi32>
        %ni = func.call @issues(%d) : (index) -> index
        %tile_rows = arith.constant 16 : index
        %q = scf.for %t = %c0 to %rt step %c1 iter_args(%qa = %zq) -> (vector<4x4x8xi32>) {
          %ti = arith.index_cast %t : index to i32
          %r00 = arith.muli %ti, %c16_i32 : i32
          %r0 = arith.addi %r00, %rb : i32
          %live = arith.cmpi slt, %r00, %wave_live : i32
          %img = func.call @wave_q_image(%wave, %t, %rt, %d) : (i32, index, index, index) -> !llvm.ptr<3>
          scf.if %live {
            // the dtype as a constant of each copy
            scf.if %f16 {
              %q_f16 = arith.constant true
              func.call @rotate_query(%query, %q_stride_seq, %q_stride_head, %blk#1, %kvh, %query_group, %live_rows, %r0, %tile_rows, %img, %d, %q_f16) : (!llvm.ptr<1>, i32, i32, i32, i32, i32, i32, i32, index, !llvm.ptr<3>, index, i1) -> ()
            } else {
              %q_bf16 = arith.constant false
              func.call @rotate_query(%query, %q_stride_seq, %q_stride_head, %blk#1, %kvh, %query_group, %live_rows, %r0, %tile_rows, %img, %d, %q_bf16) : (!llvm.ptr<1>, i32, i32, i32, i32, i32, i32, i32, index, !llvm.ptr<3>, index, i1) -> ()
            }
          }
          gpu.barrier
          %true = arith.constant true
          %in_regs = arith.xori %in_lds, %true : i1
          %read = arith.andi %live, %in_regs : i1
          %qt = scf.if %read -> (vector<4x4x8xi32>) {
            %qr = scf.for %h = %c0 to %ni step %c1 iter_args(%acc = %qa) -> (vector<4x4x8xi32>) {
              %qh = func.call @q_image_operand(%img, %h) : (!llvm.ptr<3>, index) -> vector<8xi32>
              %nr = vector.insert %qh, %acc[%t, %h] : vector<8xi32> into vector<4x4x8xi32>
              scf.yield %nr : vector<4x4x8xi32>
            }
            scf.yield %qr : vector<4x4x8xi32>
          } else {
            scf.yield %qa : vector<4x4x8xi32>
          }
          // the next row tile's rotation (or the first tile's stores)
          // overwrites the image
          gpu.barrier
          scf.yield %qt : vector<4x4x8xi32>
        }
        // the walk: tile 0's share here; each tile loads the next one's
        // share. Two tiles per iteration, in buffers 0 and 1 (their share
        // registers alternate); an odd last tile after the loop (buffer 0).
        %f0 = func.call @tile_first(%c0_i32, %part, %num_partitions, %bp#3) : (i32, i32, i32, i32) -> i32
        %ld0:4 = func.call @share_loads(%kv_cache, %block_tables, %f0, %blk_bytes, %bs_shift, %bs_mask, %bt_row, %blk_bytes, %pos_stride, %rl#0, %rl#1, %rl#2, %rl#3) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i64, i32, i32, i64, i64, i32, i32, i32, i32, i32) -> (vector<4xi32>, i32, i32, i32)
        // a wave without live rows (a short sequence's block: a decode beside
        // a long chunk) only shares the tiles, with the same barriers
        %has_rows = arith.cmpi sgt, %wave_live, %c0_i32 : i32
        %walk:3 = scf.if %has_rows -> (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>) {
          %npairs = arith.shrui %ntiles, %c1_i32 : i32
          %npairs_ix = arith.index_cast %npairs : i32 to index
          %loop:7 = scf.for %pi = %c0 to %npairs_ix step %c1 iter_args(%m = %ninf4, %l = %zero4, %acc = %zero_acc, %kc = %ld0#0, %ksw = %ld0#1, %vw = %ld0#2, %vsw = %ld0#3) -> (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, vector<4xi32>, i32, i32, i32) {
            %pii = arith.index_cast %pi : index to i32
            %ta = arith.shli %pii, %c1_i32 : i32
            %tb = arith.addi %ta, %c1_i32 : i32
            %fa = func.call @tile_first(%ta, %part, %num_partitions, %bp#3) : (i32, i32, i32, i32) -> i32
            %fb = func.call @tile_first(%tb, %part, %num_partitions, %bp#3) : (i32, i32, i32, i32) -> i32
            %sa:7 = func.call @walk_tile(%m, %l, %acc, %kc, %ksw, %vw, %vsw, %c0_i32, %fa, %fb, %blk_bytes, %kv_cache, %block_tables, %bs_shift, %bs_mask, %bt_row, %blk_bytes, %pos_stride, %roles, %q, %q_lds, %bp#0, %bp#2, %bp#1, %bp#4, %rr#0, %rr#1, %wave_live, %softmax_scale, %rt, %d) : (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, vector<4xi32>, i32, i32, i32, i32, i32, i32, i64, !llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i64, i64, i32, vector<8xi32>, vector<4x4x8xi32>, !llvm.ptr<3>, i32, i32, i32, i32, vector<4xi32>, vector<4xi32>, i32, f32, index, index) -> (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, vector<4xi32>, i32, i32, i32)
            // past the last tile the next share is a descriptor of 0 records
            %tc = arith.addi %tb, %c1_i32 : i32
            %tlive = arith.cmpi slt, %tc, %ntiles : i32
            %tn = arith.select %tlive, %tc, %tb : i32
            %rec = arith.select %tlive, %blk_bytes, %c0_i64 : i64
            %fc = func.call @tile_first(%tn, %part, %num_partitions, %bp#3) : (i32, i32, i32, i32) -> i32
            %sb:7 = func.call @walk_tile(%sa#0, %sa#1, %sa#2, %sa#3, %sa#4, %sa#5, %sa#6, %c1_i32, %fb, %fc, %rec, %kv_cache, %block_tables, %bs_shift, %bs_mask, %bt_row, %blk_bytes, %pos_stride, %roles, %q, %q_lds, %bp#0, %bp#2, %bp#1, %bp#4, %rr#0, %rr#1, %wave_live, %softmax_scale, %rt, %d) : (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, vector<4xi32>, i32, i32, i32, i32, i32, i32, i64, !llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i64, i64, i32, vector<8xi32>, vector<4x4x8xi32>, !llvm.ptr<3>, i32, i32, i32, i32, vector<4xi32>, vector<4xi32>, i32, f32, index, index) -> (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, vector<4xi32>, i32, i32, i32)
            scf.yield %sb#0, %sb#1, %sb#2, %sb#3, %sb#4, %sb#5, %sb#6 : vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, vector<4xi32>, i32, i32, i32
          }
          %odd = arith.andi %ntiles, %c1_i32 : i32
          %has_odd = arith.cmpi ne, %odd, %c0_i32 : i32
          %tail:3 = scf.if %has_odd -> (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>) {
            %tl = arith.subi %ntiles, %c1_i32 : i32
            %fl = func.call @tile_first(%tl, %part, %num_partitions, %bp#3) : (i32, i32, i32, i32) -> i32
            %st:7 = func.call @walk_tile(%loop#0, %loop#1, %loop#2, %loop#3, %loop#4, %loop#5, %loop#6, %c0_i32, %fl, %fl, %c0_i64, %kv_cache, %block_tables, %bs_shift, %bs_mask, %bt_row, %blk_bytes, %pos_stride, %roles, %q, %q_lds, %bp#0, %bp#2, %bp#1, %bp#4, %rr#0, %rr#1, %wave_live, %softmax_scale, %rt, %d) : (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, vector<4xi32>, i32, i32, i32, i32, i32, i32, i64, !llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i64, i64, i32, vector<8xi32>, vector<4x4x8xi32>, !llvm.ptr<3>, i32, i32, i32, i32, vector<4xi32>, vector<4xi32>, i32, f32, index, index) -> (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, vector<4xi32>, i32, i32, i32)
            scf.yield %st#0, %st#1, %st#2 : vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>
          } else {
            scf.yield %loop#0, %loop#1, %loop#2 : vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>
          }
          scf.yield %tail#0, %tail#1, %tail#2 : vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>
        } else {
          func.call @share_walk(%ld0#0, %ld0#1, %ld0#2, %ld0#3, %ntiles, %part, %num_partitions, %kv_cache, %block_tables, %bs_shift, %bs_mask, %bt_row, %blk_bytes, %pos_stride, %roles, %bp#0, %bp#2, %bp#1, %bp#3, %bp#4, %d) : (vector<4xi32>, i32, i32, i32, i32, i32, i32, !llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i64, i64, i32, vector<8xi32>, i32, i32, i32, i32, i32, index) -> ()
          scf.yield %ninf4, %zero4, %zero_acc : vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>
        }
        scf.yield %walk#0, %walk#1, %walk#2 : vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>
      } else {
        scf.yield %ninf4, %zero4, %zero_acc : vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>
      }
      // the rows' sums: the lanes' running sums added
      %lsum = scf.for %t = %c0 to %rt step %c1 iter_args(%ls = %fin#1) -> (vector<4xf32>) {
        %lt = vector.extract %ls[%t] : f32 from vector<4xf32>
        %st = func.call @row_sum(%lt) : (f32) -> f32
        %ln = vector.insert %st, %ls[%t] : f32 into vector<4xf32>
        scf.yield %ln : vector<4xf32>
      }
      func.call @store_partial(%segm_out, %segm_max, %segm_sum, %fin#0, %lsum, %fin#2, %blk#1, %kvh, %part, %num_kv_heads, %num_partitions, %query_group, %live_rows, %rt, %d, %output, %out_stride_seq, %out_stride_head, %sinks, %f16, %rb) : (!llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, i32, i32, i32, i32, i32, i32, i32, index, index, !llvm.ptr<1>, i32, i32, !llvm.ptr<1>, i1, i32) -> ()
      gpu.return
    }
  }
}
