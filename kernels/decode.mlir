// The decode and varlen attention kernels: @uq_decode (gfx950: one wave
// per block of 8-64 query rows, scaled MFMA on FP4 K) and
// @uq_decode_sm90 (sm_90a: 4 warps, cp.async stages, mma.sync). Each
// writes per-partition partials the reduce merges. The step helpers they
// call live in kernels/steps.mlir (both targets), kernels/gfx950.mlir and
// kernels/sm90a.mlir (declared here, copied in by uq-link); what touches a
// module's own shared memory stays here. Argument order: runtime/kernel_abi.h. Design: docs/design.md.
module attributes {gpu.container_module} {
  gpu.module @uq_decode [#rocdl.target<chip = "gfx950", O = 3>] attributes {uq.variants = [{d = 64, rows = 16}, {d = 128, rows = 16}, {d = 256, rows = 8}, {d = 256, rows = 16}, {d = 64, rows = 64}, {d = 128, rows = 64}, {d = 256, rows = 64}, {d = 256, rows = 32}, {d = 128, rows = 32}, {d = 64, rows = 32}, {d = 512, rows = 16}, {d = 32, rows = 16}, {d = 512, rows = 32}], uq.kernel_attrs = [{rocdl.waves_per_eu = 3 : i32}, {rocdl.waves_per_eu = 3 : i32}, {rocdl.waves_per_eu = 3 : i32}, {rocdl.waves_per_eu = 3 : i32}, {rocdl.waves_per_eu = 2 : i32}, {rocdl.waves_per_eu = 2 : i32}, {rocdl.waves_per_eu = 1 : i32}, {rocdl.waves_per_eu = 2 : i32}, {rocdl.waves_per_eu = 3 : i32}, {rocdl.waves_per_eu = 3 : i32}, {rocdl.waves_per_eu = 1 : i32}, {rocdl.waves_per_eu = 3 : i32}, {rocdl.waves_per_eu = 1 : i32}]} {
    // One LDS region, reused: first a row tile's Q operand image (E4M3 bytes
    // in the QK B operand's lane order, 2,048 B per issue, @rotate_query),
    // then the V tile as bf16 rows of 2D + 16 B (D = 256: 16 x 528 = 8,448
    // B). K never goes to LDS. D = 512 takes the wider one (16 x 1,040 B),
    // referenced only by its variants (@lds_at).
    llvm.mlir.global internal @uq_decode_lds() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<8448 x i8>
    llvm.mlir.global internal @uq_decode_lds_d512() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<16640 x i8>
    // The Q operands of a block whose registers cannot hold them
    // (@q_operands_in_lds): per row tile t and issue h, 64 lanes x 32 B
    // from byte 2048 (2t + h). Referenced only by those variants, so the
    // others' LDS stays 8,448 B.
    llvm.mlir.global internal @uq_decode_q_lds() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<16384 x i8>

    // From the kernel library (kernels/gfx950.mlir), linked by uq-link.
    func.func private @lane() -> i32
    func.func private @issues(index) -> index
    func.func private @v_row_bytes(index) -> i32
    func.func private @q_operands_in_lds(index, index) -> i1
    func.func private @q_image_operand(!llvm.ptr<3>, index) -> vector<8xi32>
    func.func private @q_image_bytes(index) -> index
    func.func private @swap16(i32) -> (i32, i32)
    func.func private @row_sum(f32) -> f32
    func.func private @rotate_query(!llvm.ptr<1>, i32, i32, i32, i32, i32, i32, i32, index, !llvm.ptr<3>, index, i1)
    func.func private @kv_lane_offsets(i32, i32, i32, index) -> (vector<4xi32>, vector<4xi32>, i32, i32)
    func.func private @tile_first(i32, i32, i32, i32) -> i32
    func.func private @tile_loads(!llvm.ptr<1>, !llvm.ptr<1>, i32, i64, i32, i32, i64, i64, i32, vector<4xi32>, vector<4xi32>, i32, i32, index) -> (vector<4x4xi32>, vector<4x4xi32>, i32, i32)
    func.func private @tile_scores(vector<4xf32>, vector<4xf32>, vector<4x4xi32>, i32, vector<4x4x8xi32>, !llvm.ptr<3>, i32, i32, i32, vector<4xi32>, vector<4xi32>, i32, f32, i1, index, index) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4x4xi16>, vector<4xi1>)
    func.func private @v_tile_scales(i32, i32, i32, i32, i32, i32) -> i32
    func.func private @v_words_per_load(index) -> index
    func.func private @v_word_to_lds(i32, i32, i32, i32, !llvm.ptr<3>, index)
    func.func private @pv_step(vector<4x32x4xf32>, vector<4xf32>, vector<4x4xi16>, vector<4xi1>, !llvm.ptr<3>, index, index) -> vector<4x32x4xf32>
    func.func private @store_partial(!llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, i32, i32, i32, i32, i32, i32, i32, index, index, !llvm.ptr<1>, i32, i32, !llvm.ptr<1>, i1, i32)
    func.func private @row_ranges(i32, i32, i32, i32, index, i32) -> (vector<4xi32>, vector<4xi32>)
    // From kernels/steps.mlir, linked by uq-link.
    func.func private @query_block(!llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32) -> (i32, i32, i32, i32)
    func.func private @window_start(i32, i32) -> i32
    func.func private @block_queries(!llvm.ptr<1>, !llvm.ptr<1>, i32, index, i32, i32) -> (i32, i32, i32, i32, i32, i32)
    func.func private @cache_geometry(i32, i32, i32, i32, i32) -> (i32, i32, i32, i64, i64)
    func.func private @block_positions(i32, i32, i32) -> (i32, i32, i32, i32, i32, i32)
    func.func private @partition_tiles(i32, i32, i32, i32, i32) -> i32

    // Where row tile t's Q operand image (@rotate_query) lives: its own 4 KiB
    // of @uq_decode_q_lds when the operands wait in LDS, else the start of
    // the one LDS region (read into registers before the next tile's):
    // @q_image_bytes a tile (4 KiB, D = 512 8 KiB).
    func.func private @q_image(%t: index, %rt: index, %d: index) -> !llvm.ptr<3> {
      %c0_i32 = arith.constant 0 : i32
      %in_lds = func.call @q_operands_in_lds(%rt, %d) : (index, index) -> i1
      %tile_bytes = func.call @q_image_bytes(%d) : (index) -> index
      %o = arith.muli %t, %tile_bytes : index
      %oi = arith.index_cast %o : index to i32
      %q_lds = llvm.mlir.addressof @uq_decode_q_lds : !llvm.ptr<3>
      %own = llvm.getelementptr %q_lds[%oi] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %shared = func.call @lds_at(%c0_i32, %d) : (i32, index) -> !llvm.ptr<3>
      %p = arith.select %in_lds, %own, %shared : !llvm.ptr<3>
      return %p : !llvm.ptr<3>
    }

    func.func private @lds_at(%offset: i32, %d: index) -> !llvm.ptr<3> {
      %c512 = arith.constant 512 : index
      %wide = arith.cmpi eq, %d, %c512 : index
      %narrow_lds = llvm.mlir.addressof @uq_decode_lds : !llvm.ptr<3>
      %wide_lds = llvm.mlir.addressof @uq_decode_lds_d512 : !llvm.ptr<3>
      %lds = arith.select %wide, %wide_lds, %narrow_lds : !llvm.ptr<3>
      %p = llvm.getelementptr %lds[%offset] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      return %p : !llvm.ptr<3>
    }

    // ---- one 16-token tile for the block's row tiles (rt of them; the
    // scores and softmax of those past live_rows skipped): scores and online
    // softmax (@tile_scores), V to bf16 in LDS once for every row tile
    // (@v_word_to_lds), PV for every row tile (@pv_step). State per row
    // tile: running row max m, running row sum l, the PV accumulators.
    func.func private @tile_step(%m: vector<4xf32>, %l: vector<4xf32>, %acc: vector<4x32x4xf32>,
                                 %k: vector<4x4xi32>, %vc: vector<4x4xi32>, %ksw: i32, %vsw: i32,
                                 %q: vector<4x4x8xi32>, %first: i32, %lim_lo: i32, %ws_hi: i32,
                                 %win_start: i32, %win_len: i32, %row_ws: vector<4xi32>,
                                 %row_wl: vector<4xi32>, %live_rows: i32, %softmax_scale: f32,
                                 %rt: index, %d: index)
        -> (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c0_i32 = arith.constant 0 : i32
      %ni = func.call @issues(%d) : (index) -> index
      %q_lds = llvm.mlir.addressof @uq_decode_q_lds : !llvm.ptr<3>
      %vlds = func.call @lds_at(%c0_i32, %d) : (i32, index) -> !llvm.ptr<3>
      %vs = func.call @v_tile_scales(%vsw, %first, %lim_lo, %ws_hi, %win_start, %win_len) : (i32, i32, i32, i32, i32, i32) -> i32
      %every_tile = arith.constant false
      %sm:5 = func.call @tile_scores(%m, %l, %k, %ksw, %q, %q_lds, %first, %lim_lo, %ws_hi, %row_ws, %row_wl, %live_rows, %softmax_scale, %every_tile, %rt, %d) : (vector<4xf32>, vector<4xf32>, vector<4x4xi32>, i32, vector<4x4x8xi32>, !llvm.ptr<3>, i32, i32, i32, vector<4xi32>, vector<4xi32>, i32, f32, i1, index, index) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4x4xi16>, vector<4xi1>)
      // V: every word of the lane's chunk, once for every row tile
      %wpl = func.call @v_words_per_load(%d) : (index) -> index
      scf.for %h = %c0 to %ni step %c1 {
        %hi = arith.index_cast %h : index to i32
        %words = vector.extract %vc[%h] : vector<4xi32> from vector<4x4xi32>
        scf.for %i = %c0 to %wpl step %c1 {
          %ii = arith.index_cast %i : index to i32
          %w = vector.extract %words[%i] : i32 from vector<4xi32>
          func.call @v_word_to_lds(%w, %vs, %hi, %ii, %vlds, %d) : (i32, i32, i32, i32, !llvm.ptr<3>, index) -> ()
        }
      }
      gpu.barrier
      %accn = func.call @pv_step(%acc, %sm#2, %sm#3, %sm#4, %vlds, %rt, %d) : (vector<4x32x4xf32>, vector<4xf32>, vector<4x4xi16>, vector<4xi1>, !llvm.ptr<3>, index, index) -> vector<4x32x4xf32>
      gpu.barrier
      return %sm#0, %sm#1, %accn : vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>
    }

    // The register budget of each variant is its rocdl.waves_per_eu
    // (uq.kernel_attrs): 3 waves per SIMD (<= 168 VGPRs) for one row tile (4
    // would spill), fewer for the varlen variants' 2 and 4 row tiles, whose
    // accumulators take 64 registers each at D = 256.
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
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %rows = "uq.param"() {name = "rows"} : () -> index
      %d = "uq.param"() {name = "d"} : () -> index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c15 = arith.constant 15 : index
      %c16 = arith.constant 16 : index
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c4_i32 = arith.constant 4 : i32
      %c8_i32 = arith.constant 8 : i32
      %c15_i32 = arith.constant 15 : i32
      %c16_i32 = arith.constant 16 : i32
      %c255_i32 = arith.constant 255 : i32
      %c0_i64 = arith.constant 0 : i64
      %ninf = arith.constant 0xFF800000 : f32
      %zero_f = arith.constant 0.0 : f32
      %ninf4 = arith.constant dense<0xFF800000> : vector<4xf32>
      %zero4 = arith.constant dense<0.0> : vector<4xf32>
      %zero_acc = arith.constant dense<0.0> : vector<4x32x4xf32>
      %f16 = arith.cmpi ne, %act_f16, %c0_i32 : i32
      // row tiles of 16 MFMA rows; a smaller block (rows 8) rotates fewer rows
      %rt0 = arith.addi %rows, %c15 : index
      %rt = arith.divui %rt0, %c16 : index
      %tile_rows = arith.minui %rows, %c16 : index
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
      // ---- the block's positions (@block_positions) and the partition's
      // tiles (@partition_tiles)
      %bp:6 = func.call @block_positions(%blk#3, %ntok, %sliding_window) : (i32, i32, i32) -> (i32, i32, i32, i32, i32, i32)
      %ntiles = func.call @partition_tiles(%bp#5, %part, %num_partitions, %tgpp, %live_rows) : (i32, i32, i32, i32, i32) -> i32
      // ---- cache geometry (@cache_geometry: 64-bit products)
      %bs_shift, %bs_mask, %pos_stride, %blk_bytes, %bt_row = func.call @cache_geometry(%block_size, %num_kv_heads, %padded_slot, %blk#0, %max_blocks_per_seq) : (i32, i32, i32, i32, i32) -> (i32, i32, i32, i64, i64)
      %offs:4 = func.call @kv_lane_offsets(%kvh, %padded_slot, %pos_stride, %d) : (i32, i32, i32, index) -> (vector<4xi32>, vector<4xi32>, i32, i32)
      %rr:2 = func.call @row_ranges(%blk#3, %query_group, %live_rows, %sliding_window, %rt, %c0_i32) : (i32, i32, i32, i32, index, i32) -> (vector<4xi32>, vector<4xi32>)
      %has_tiles = arith.cmpi sgt, %ntiles, %c0_i32 : i32
      %fin:3 = scf.if %has_tiles -> (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>) {
        // the Q operands of every live row tile, through the one LDS Q area
        %zq = arith.constant dense<0> : vector<4x4x8xi32>
        %ni = func.call @issues(%d) : (index) -> index
        %q = scf.for %t = %c0 to %rt step %c1 iter_args(%qa = %zq) -> (vector<4x4x8xi32>) {
          %ti = arith.index_cast %t : index to i32
          %r0 = arith.muli %ti, %c16_i32 : i32
          %live = arith.cmpi slt, %r0, %live_rows : i32
          %qn = scf.if %live -> (vector<4x4x8xi32>) {
            %img = func.call @q_image(%t, %rt, %d) : (index, index, index) -> !llvm.ptr<3>
            // the dtype as a constant of each copy (@store_partial: likewise)
            scf.if %f16 {
              %q_f16 = arith.constant true
              func.call @rotate_query(%query, %q_stride_seq, %q_stride_head, %blk#1, %kvh, %query_group, %live_rows, %r0, %tile_rows, %img, %d, %q_f16) : (!llvm.ptr<1>, i32, i32, i32, i32, i32, i32, i32, index, !llvm.ptr<3>, index, i1) -> ()
            } else {
              %q_bf16 = arith.constant false
              func.call @rotate_query(%query, %q_stride_seq, %q_stride_head, %blk#1, %kvh, %query_group, %live_rows, %r0, %tile_rows, %img, %d, %q_bf16) : (!llvm.ptr<1>, i32, i32, i32, i32, i32, i32, i32, index, !llvm.ptr<3>, index, i1) -> ()
            }
            gpu.barrier
            %q_lds = func.call @q_operands_in_lds(%rt, %d) : (index, index) -> i1
            %qt = scf.if %q_lds -> (vector<4x4x8xi32>) {
              scf.yield %qa : vector<4x4x8xi32>
            } else {
              // into registers before the next row tile's image overwrites it
              %qr = scf.for %h = %c0 to %ni step %c1 iter_args(%acc = %qa) -> (vector<4x4x8xi32>) {
                %qh = func.call @q_image_operand(%img, %h) : (!llvm.ptr<3>, index) -> vector<8xi32>
                %nr = vector.insert %qh, %acc[%t, %h] : vector<8xi32> into vector<4x4x8xi32>
                scf.yield %nr : vector<4x4x8xi32>
              }
              gpu.barrier
              scf.yield %qr : vector<4x4x8xi32>
            }
            scf.yield %qt : vector<4x4x8xi32>
          } else {
            scf.yield %qa : vector<4x4x8xi32>
          }
          scf.yield %qn : vector<4x4x8xi32>
        }
        // software prefetch: tile 0 here; every tile issues the next tile's loads
        // before its own math. Two tiles per iteration so that the two load sets
        // alternate registers (no copies); an odd last tile runs after the loop.
        %f0 = func.call @tile_first(%c0_i32, %part, %num_partitions, %bp#3) : (i32, i32, i32, i32) -> i32
        %ld0:4 = func.call @tile_loads(%kv_cache, %block_tables, %f0, %blk_bytes, %bs_shift, %bs_mask, %bt_row, %blk_bytes, %pos_stride, %offs#0, %offs#1, %offs#2, %offs#3, %d) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i64, i32, i32, i64, i64, i32, vector<4xi32>, vector<4xi32>, i32, i32, index) -> (vector<4x4xi32>, vector<4x4xi32>, i32, i32)
        %npairs = arith.shrui %ntiles, %c1_i32 : i32
        %npairs_ix = arith.index_cast %npairs : i32 to index
        %loop:7 = scf.for %pi = %c0 to %npairs_ix step %c1 iter_args(%m = %ninf4, %l = %zero4, %acc = %zero_acc, %k = %ld0#0, %vc = %ld0#1, %ksw = %ld0#2, %vsw = %ld0#3) -> (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, vector<4x4xi32>, vector<4x4xi32>, i32, i32) {
          %pii = arith.index_cast %pi : index to i32
          %ta = arith.shli %pii, %c1_i32 : i32
          %tb = arith.addi %ta, %c1_i32 : i32
          %fb = func.call @tile_first(%tb, %part, %num_partitions, %bp#3) : (i32, i32, i32, i32) -> i32
          %ldb:4 = func.call @tile_loads(%kv_cache, %block_tables, %fb, %blk_bytes, %bs_shift, %bs_mask, %bt_row, %blk_bytes, %pos_stride, %offs#0, %offs#1, %offs#2, %offs#3, %d) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i64, i32, i32, i64, i64, i32, vector<4xi32>, vector<4xi32>, i32, i32, index) -> (vector<4x4xi32>, vector<4x4xi32>, i32, i32)
          %fa = func.call @tile_first(%ta, %part, %num_partitions, %bp#3) : (i32, i32, i32, i32) -> i32
          %sa:3 = func.call @tile_step(%m, %l, %acc, %k, %vc, %ksw, %vsw, %q, %fa, %bp#0, %bp#2, %bp#1, %bp#4, %rr#0, %rr#1, %live_rows, %softmax_scale, %rt, %d) : (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, vector<4x4xi32>, vector<4x4xi32>, i32, i32, vector<4x4x8xi32>, i32, i32, i32, i32, i32, vector<4xi32>, vector<4xi32>, i32, f32, index, index) -> (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>)
          // the last pair's prefetch targets no tile: it re-reads tile b's block-table
          // entry and gets a descriptor of 0 records (loads return zeros)
          %tc = arith.addi %tb, %c1_i32 : i32
          %tlive = arith.cmpi slt, %tc, %ntiles : i32
          %tn = arith.select %tlive, %tc, %tb : i32
          %rec = arith.select %tlive, %blk_bytes, %c0_i64 : i64
          %fc = func.call @tile_first(%tn, %part, %num_partitions, %bp#3) : (i32, i32, i32, i32) -> i32
          %ldc:4 = func.call @tile_loads(%kv_cache, %block_tables, %fc, %rec, %bs_shift, %bs_mask, %bt_row, %blk_bytes, %pos_stride, %offs#0, %offs#1, %offs#2, %offs#3, %d) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i64, i32, i32, i64, i64, i32, vector<4xi32>, vector<4xi32>, i32, i32, index) -> (vector<4x4xi32>, vector<4x4xi32>, i32, i32)
          %sb:3 = func.call @tile_step(%sa#0, %sa#1, %sa#2, %ldb#0, %ldb#1, %ldb#2, %ldb#3, %q, %fb, %bp#0, %bp#2, %bp#1, %bp#4, %rr#0, %rr#1, %live_rows, %softmax_scale, %rt, %d) : (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, vector<4x4xi32>, vector<4x4xi32>, i32, i32, vector<4x4x8xi32>, i32, i32, i32, i32, i32, vector<4xi32>, vector<4xi32>, i32, f32, index, index) -> (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>)
          scf.yield %sb#0, %sb#1, %sb#2, %ldc#0, %ldc#1, %ldc#2, %ldc#3 : vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, vector<4x4xi32>, vector<4x4xi32>, i32, i32
        }
        %odd = arith.andi %ntiles, %c1_i32 : i32
        %has_odd = arith.cmpi ne, %odd, %c0_i32 : i32
        %tail:3 = scf.if %has_odd -> (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>) {
          %tl = arith.subi %ntiles, %c1_i32 : i32
          %fl = func.call @tile_first(%tl, %part, %num_partitions, %bp#3) : (i32, i32, i32, i32) -> i32
          %st:3 = func.call @tile_step(%loop#0, %loop#1, %loop#2, %loop#3, %loop#4, %loop#5, %loop#6, %q, %fl, %bp#0, %bp#2, %bp#1, %bp#4, %rr#0, %rr#1, %live_rows, %softmax_scale, %rt, %d) : (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, vector<4x4xi32>, vector<4x4xi32>, i32, i32, vector<4x4x8xi32>, i32, i32, i32, i32, i32, vector<4xi32>, vector<4xi32>, i32, f32, index, index) -> (vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>)
          scf.yield %st#0, %st#1, %st#2 : vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>
        } else {
          scf.yield %loop#0, %loop#1, %loop#2 : vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>
        }
        scf.yield %tail#0, %tail#1, %tail#2 : vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>
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
      func.call @store_partial(%segm_out, %segm_max, %segm_sum, %fin#0, %lsum, %fin#2, %blk#1, %kvh, %part, %num_kv_heads, %num_partitions, %query_group, %live_rows, %rt, %d, %output, %out_stride_seq, %out_stride_head, %sinks, %f16, %c0_i32) : (!llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, i32, i32, i32, i32, i32, i32, i32, index, index, !llvm.ptr<1>, i32, i32, !llvm.ptr<1>, i1, i32) -> ()
      gpu.return
    }
  }
  // ==== NVIDIA Hopper (sm_90a) ==========================================
  // The same contract as the gfx950 decode + reduce (argument order:
  // runtime/kernel_abi.h; partials [B, Hk, P, QG, D] with the same
  // partition walk), designed for Hopper rather than ported. The head dim
  // D (64, 128 or 256; 32 and 512 held, 512 for QG <= 8 only:
  // docs/design.md "Held variants") is a uq.param: the helpers that need it read it
  // themselves (this pipeline has no uq-inline: LLVM inlines after the
  // loops are unrolled), and shapes fold to constants once specialized.
  // D = 512 walks each tile as two halves of 256 (below, QG <= 8); D = 32
  // as one group pair of one group (@uq_sm90_pair_groups), its slot copied
  // as 36 bytes, V's codes at the odd byte 17 read by bytes
  // (@uq_sm90_v_frags_bytes).
  //
  // - 4 warps per CTA (grid B x Hk x P), each warp an independent stream of
  //   16-token tiles of the partition (tiles w, w+4, ...) with its own
  //   cp.async pipeline in shared memory (QG <= 8: 2 stages at D = 256, 3
  //   at D = 64 and 128; QG 16: 4), each tile's block-table entries loaded
  //   a tile ahead; the warps' (max, sum, acc) are merged through shared
  //   memory at the end. The KV of a head is read once for all QG query
  //   heads.
  // - QK on tensor cores: mma.sync m16n8k16 f16 -> f32 (Hopper has no
  //   mma.sync for FP8: ptxas emulates it with conversions), two k-steps per
  //   32-element UE8M0 group from a zero accumulator, the group's scale
  //   applied to that f32 result (per token). QG 16: S = Q K^T, Q the A
  //   operand (16 rows), two n-tiles of 8 tokens (@uq_sm90_qk). QG <= 8:
  //   S^T = K Q^T, K the A operand (16 tokens) and Q^T the B operand (8
  //   rows), one MMA per k-step (@uq_sm90_qk_t); the softmax runs per
  //   query column and P^T reaches PV's B operand by movmatrix.trans.
  //   Tiles wholly inside [window start, seq_len) skip the mask's compares.
  //   The online softmax works in base 2 with a lazy running maximum
  //   (@uq_sm90_lazy_max): it moves only where a tile's score passes it by
  //   more than 8, which one warp vote finds; the maxima's shuffles, the
  //   correction and the accumulators' rescale run only on such tiles.
  //   K's FP4 codes become
  //   E4M3 bytes (E2M1 code s.e1e0.m placed as E4M3 bits s.000e1e0m.00 is
  //   exactly the E2M1 value times 2^-6, subnormals included; 2^6 is folded
  //   into the softmax multiplier; @uq_sm90_fp4_e4m3), then
  //   f16 by the hardware's E4M3 -> f16x2 conversion (exact). Q (rotated,
  //   E4M3-rounded, exact in f16) waits in shared memory in the k order
  //   those conversions produce and is read by ldmatrix.
  // - PV on tensor cores: mma.sync m16n8k16 bf16 -> f32. V's codes become
  //   bf16 by a mask, one integer multiply and a mask (code s.e1e0.m as
  //   bf16 bits s.0..0e1e0.m000000 is the E2M1 value times 2^-126, the
  //   +-0.5 codes subnormal; @uq_sm90_fp4_bf16x2); ldmatrix.trans hands
  //   each thread its codes already paired by token (D = 64: 16-bit loads
  //   build the same registers, @uq_sm90_v_frags). V's per-(token, group)
  //   scale times 2^64 is folded into bf16 P, one P per group (exact: a
  //   power of two), and the last 2^62 into the final normalization
  //   (@uq_sm90_v_scales). QG 16: O = P V (M = query rows). QG <= 8:
  //   O^T = V^T P^T (M = head dim) so the accumulators hold only the real
  //   rows (64 f32 accumulators at D = 256) and half the MMAs.
  // - Shared-memory slot layout (@uq_sm90_slot_geometry; stride an odd
  //   multiple of 16: ldmatrix is free of bank conflicts): K codes + K
  //   scales [0, D/2 + D/32), V codes + V scales from the next multiple of
  //   16 (aligned for ldmatrix): D = 256: [0,136), [144,280), stride 304;
  //   D = 128: [0,68), [80,148), 176. Copies are 8 B cp.async (4 B when
  //   padded_slot or D/2 + D/32 is not a multiple of 8), 32 / u lanes per
  //   slot, so a warp instruction moves one 32-byte sector of each of u
  //   slots and a lane's chunks differ by constant offsets
  //   (@uq_sm90_copy_slots). D = 64: K ends at 34, and cp.async (4, 8 or 16
  //   bytes, aligned) cannot place V at 48; the slot is copied as it is
  //   ([0,34), [34,68), stride 80), K still by ldmatrix, V's B fragments by
  //   16-bit shared loads (free of bank conflicts at stride 80) and V's
  //   scales read from byte 64 and shifted (@uq_sm90_scale_words).
  // - Tokens of a tile outside [window start, seq_len) are clamped to a
  //   valid token for the copy (no read past the used block table entries,
  //   no garbage slot ever loaded) and masked to -inf.
  // uq.kernel_attrs: the CTAs per SM each variant is built for
  // (nvvm.minctasm: ptxas keeps registers <= 72 for 7, <= 96 for 5,
  // <= 128 for 4, <= 168 for 3, <= 255 for 2), chosen by measuring on the
  // H200: the decode is bound by issue and dependency latency, so the
  // trade is warps per SM against the registers ptxas gets to overlap a
  // warp's own work. D = 256, QG <= 8: 2 CTAs (189 registers) 3-7% faster
  // than 4 (128) on every issue-9 shape once the split policy counts whole
  // rounds of CTAs (4 had been 7-14% faster than 3). D = 64, QG <= 8: 5
  // (88) 4-9% faster than 7 (72). D = 128 measured slower with 5 and 4
  // for qg_max 8 and 16, squeezed to 96 and 128 registers; after the
  // loop's later changes, 3 CTAs at D = 256, QG <= 8 (168 registers) again
  // 2-6% slower, and 5 and 4 at D = 128 4-9%. Shared memory
  // (@uq_sm90_shared_bytes) allows them.
  gpu.module @uq_decode_sm90 [#nvvm.target<chip = "sm_90a", features = "+ptx84", O = 3>] attributes {uq.variants = [{d = 64, qg_max = 8}, {d = 64, qg_max = 16}, {d = 128, qg_max = 8}, {d = 128, qg_max = 16}, {d = 256, qg_max = 8}, {d = 256, qg_max = 16}, {d = 512, qg_max = 8, held = 1}, {d = 32, qg_max = 8, held = 1}, {d = 32, qg_max = 16, held = 1}], uq.kernel_attrs = [{nvvm.minctasm = 5 : i32}, {nvvm.minctasm = 5 : i32}, {nvvm.minctasm = 4 : i32}, {nvvm.minctasm = 3 : i32}, {nvvm.minctasm = 2 : i32}, {nvvm.minctasm = 2 : i32}, {nvvm.minctasm = 2 : i32}, {nvvm.minctasm = 5 : i32}, {nvvm.minctasm = 5 : i32}]} {
    llvm.mlir.global external @uq_decode_sm90_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>

    // The dynamic shared memory the decode is launched with: @uq_decode's
    // layout, computed by @uq_sm90_shared_bytes once the variant is
    // specialized (uq-evaluate-globals) and read by the runtime from the
    // cubin's symbol (codeobj/cubin.h).
    llvm.mlir.global external constant @uq_dynamic_shared_bytes() {addr_space = 4 : i32, uq.value_of = @uq_sm90_shared_bytes} : i32
    // The walk's group size (@uq_sm90_walk_tiles), for the launch policy.
    llvm.mlir.global external constant @uq_walk_group_tiles() {addr_space = 4 : i32, uq.value_of = @uq_sm90_walk_tiles} : i32
    // A warp's copy stages (@uq_sm90_stages), for uq-compile's table.
    llvm.mlir.global external constant @uq_pipeline_stages() {addr_space = 4 : i32, uq.value_of = @uq_sm90_stages} : i32
    // Launched as a cluster of its P partitions' CTAs, it merges them
    // (below, after the walk).
    llvm.mlir.global external constant @uq_cluster_merge(1 : i32) {addr_space = 4 : i32} : i32

    // From kernels/steps.mlir, linked by uq-link.
    func.func private @query_block(!llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32) -> (i32, i32, i32, i32)
    func.func private @row_limit(i32, i32, i32, i32) -> i32
    func.func private @window_start(i32, i32) -> i32
    // From kernels/sm90a.mlir, linked by uq-link.
    func.func private @uq_sm90_load_query(!llvm.ptr<1>, index, i1, i32, i32, i32, i32, i32, i1, i32, i32, i32) -> (vector<32xi16>, i1, index, i32, index, i32, i32)
    func.func private @uq_sm90_first_block(i32, i32, i32, i32, i32, i32, i32, i64, !llvm.ptr<1>) -> (i32, i32, i64, i32)
    func.func private @uq_sm90_warp_tiles(i32, i32) -> (i32)
    func.func private @uq_sm90_kv_strides(i32, i32, i32, i32) -> (i32, i32, i64, i32, i1)
    func.func private @uq_sm90_q_frags_t(i32, i32, i32) -> (vector<32xi32>)
    func.func private @uq_sm90_lane_addresses(i32, i32, i32, i32, i32, i32, i32) -> (i32, i32, i32, i32)
    func.func private @uq_sm90_start_pipeline(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<1>, i64, i32, !llvm.ptr<1>, i64, i32, i32, i1) -> (i32, i32)
    func.func private @uq_sm90_pipeline_step(i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<3>, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<1>, i64, i32, !llvm.ptr<1>, i64, i32, i32, i1) -> (i32, !llvm.ptr<3>, i32, i32)
    func.func private @uq_sm90_lazy_vote(f32, f32, f32, f32) -> i1
    func.func private @uq_sm90_rows_reduce(f32, f32, i32, index, i1, i1) -> (f32, f32)
    func.func private @uq_sm90_lazy_update(f32, f32, f32, f32) -> (f32, f32, f32, f32)
    func.func private @uq_sm90_softmax(vector<8xf32>, f32, f32, f32, f32, vector<128xf32>, index) -> (f32, f32, f32, f32, vector<128xf32>, vector<8xf32>)
    func.func private @uq_sm90_softmax_t(vector<4xf32>, f32, f32, f32, f32, vector<64xf32>, index) -> (f32, f32, f32, f32, vector<64xf32>, vector<4xf32>, i1, f32, f32)
    func.func private @uq_sm90_rescale_t(vector<64xf32>, f32, f32, index) -> vector<64xf32>
    func.func private @uq_sm90_half_dims() -> index
    func.func private @uq_sm90_pair_groups() -> (index, index)
    func.func private @uq_sm90_v_group(i32, i32, i32, i32, vector<8xi32>, index, index) -> (index, i32, i32, i32, i32)
    func.func private @uq_sm90_stash(vector<128xf32>, f32, f32, f32, f32, !llvm.ptr<3>, i32, i32, i32, i32, i32, i32, index)
    func.func private @uq_sm90_stash_t(vector<64xf32>, f32, f32, f32, f32, !llvm.ptr<3>, i32, i32, i32, i32, i32, i32, i32, index, i32)
    func.func private @uq_sm90_block_tokens(!llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32, i32) -> (i32, i32, i1, i32, i32, i32)
    func.func private @uq_sm90_slot_layout() -> (i32, i32, i32, i32, i32)
    func.func private @uq_sm90_query_image(i32, i32) -> (i32, i32)
    func.func private @uq_sm90_qk_tile_t(!llvm.ptr<3>, i32, vector<32xi32>, i32, i32, i32) -> vector<4xf32>
    func.func private @uq_sm90_rotate_query(vector<32xi16>, i1, index, i32, index, i32, !llvm.ptr<3>, i32, i32, i32, i32, i1)
    func.func private @uq_sm90_partial_row(i32, i32, i32, i32, i32, i32, i32) -> i32
    func.func private @uq_sm90_stages() -> i32
    func.func private @uq_sm90_merge_layout() -> (i32, i32, i32, i32, i32)
    func.func private @uq_sm90_walk_log2() -> i32
    func.func private @uq_sm90_walk_tiles() -> i32
    func.func private @uq_sm90_shared_bytes() -> i32
    func.func private @uq_sm90_slot_geometry() -> (i32, i32, i32)
    func.func private @uq_sm90_lane_token(i32, i32, i32, i32) -> i32
    func.func private @uq_sm90_tile_block(i32, i32, i32, i32, i32, !llvm.ptr<1>, i64) -> i32
    func.func private @uq_sm90_issue_tile(i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<1>, i64, i32, i32, i1)
    func.func private @uq_sm90_exp2(f32) -> f32
    func.func private @uq_sm90_rcp(f32) -> f32
    func.func private @uq_sm90_lazy_limit(f32) -> f32
    func.func private @uq_sm90_lazy_max(f32, f32) -> f32
    func.func private @uq_sm90_weight_base(f32) -> f32
    func.func private @uq_sm90_lazy_correction(f32, f32) -> f32
    func.func private @uq_sm90_tile_base(i32, i32, i32, i32, i32) -> i32
    func.func private @uq_sm90_fp4_bf16x2(i32, i32) -> i32
    func.func private @uq_sm90_frag(vector<128xf32>, index) -> (f32, f32, f32, f32)
    func.func private @uq_sm90_frag_set(vector<128xf32>, index, f32, f32, f32, f32) -> vector<128xf32>
    func.func private @uq_sm90_frag_t(vector<64xf32>, index) -> (f32, f32, f32, f32)
    func.func private @uq_sm90_frag_t_set(vector<64xf32>, index, f32, f32, f32, f32) -> vector<64xf32>
    func.func private @uq_sm90_mma_bf16(i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> (f32, f32, f32, f32)
    func.func private @uq_sm90_elements8(vector<8xf32>) -> (f32, f32, f32, f32, f32, f32, f32, f32)
    func.func private @uq_sm90_scale_words(!llvm.ptr<3>, i32, i32, i32) -> vector<8xi32>
    func.func private @uq_sm90_scale_row(!llvm.ptr<3>, i32, i32, i32) -> (i32, i32)
    func.func private @uq_sm90_qk(i32, i32, vector<8xi32>) -> vector<8xf32>
    func.func private @uq_sm90_mask(vector<8xf32>, i32, i32, i32, i32, i32, f32) -> vector<8xf32>
    func.func private @uq_sm90_mask_t(vector<4xf32>, i32, i32, i32, i32, i32, f32) -> vector<4xf32>
    func.func private @uq_sm90_q_frags(i32) -> vector<32xi32>
    func.func private @uq_sm90_qk_t(i32, vector<32xi32>, vector<4xi32>) -> vector<4xf32>
    func.func private @uq_sm90_v_scales(i32, i32, i32, i32, i32) -> (i32, i32)
    func.func private @uq_sm90_partition_tiles(i32, i32, i32, i32, i32, i32, i32) -> (i32, i32, i32)
    func.func private @uq_sm90_store_partials(!llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<3>, i1, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)
    func.func private @uq_sm90_cluster_merge(!llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i1)

    // V's four registers of one group pair of a tile, as ldmatrix.x4.trans
    // gives them: register m holds 16-bit column g of byte half m >> 1 of
    // the pair (codes 4g .. 4g + 3 of group 2 jp + (m >> 1)) of tokens
    // 8 (m & 1) + 2t (low half) and + 1 (high half). ldmatrix reads the
    // lane's row address %la when V rows are 16-byte aligned; else (D = 64:
    // V at byte 34, which cp.async cannot move; D = 32: at byte 17) shared
    // loads from this thread's own element, shared offset %va (token 2t,
    // byte 2g): 16-bit, or two bytes at D = 32's odd offset.
    func.func private @uq_sm90_v_frags(%la: i32, %va: i32) -> (i32, i32, i32, i32) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c15 = arith.constant 15 : i32
      %c16 = arith.constant 16 : i32
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i4 = arith.constant 4 : index
      %zero4 = arith.constant dense<0> : vector<4xi32>
      %geo:3 = func.call @uq_sm90_slot_geometry() : () -> (i32, i32, i32)
      %stride = arith.addi %geo#2, %c0 : i32
      %v15 = arith.andi %geo#1, %c15 : i32
      %aligned = arith.cmpi eq, %v15, %c0 : i32
      %r:4 = scf.if %aligned -> (i32, i32, i32, i32) {
        %vf = llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0,$1,$2,$3}, [$4];", "=r,=r,=r,=r,r,~{memory}" %la : (i32) -> !llvm.struct<(i32, i32, i32, i32)>
        %vf0 = llvm.extractvalue %vf[0] : !llvm.struct<(i32, i32, i32, i32)>
        %vf1 = llvm.extractvalue %vf[1] : !llvm.struct<(i32, i32, i32, i32)>
        %vf2 = llvm.extractvalue %vf[2] : !llvm.struct<(i32, i32, i32, i32)>
        %vf3 = llvm.extractvalue %vf[3] : !llvm.struct<(i32, i32, i32, i32)>
        scf.yield %vf0, %vf1, %vf2, %vf3 : i32, i32, i32, i32
      } else {
        %v1 = arith.andi %geo#1, %c1 : i32
        %odd = arith.cmpi ne, %v1, %c0 : i32
        %ws:4 = scf.if %odd -> (i32, i32, i32, i32) {
          %b:4 = func.call @uq_sm90_v_frags_bytes(%va, %stride) : (i32, i32) -> (i32, i32, i32, i32)
          scf.yield %b#0, %b#1, %b#2, %b#3 : i32, i32, i32, i32
        } else {
          %v = scf.for %m = %i0 to %i4 step %i1 iter_args(%acc = %zero4) -> (vector<4xi32>) {
            %p0, %p1 = func.call @uq_sm90_v_word_at(%va, %m, %stride) : (i32, index, i32) -> (!llvm.ptr<3>, !llvm.ptr<3>)
            %lo = llvm.load %p0 {alignment = 2 : i64} : !llvm.ptr<3> -> i16
            %hi = llvm.load %p1 {alignment = 2 : i64} : !llvm.ptr<3> -> i16
            %lo32 = arith.extui %lo : i16 to i32
            %hi32 = arith.extui %hi : i16 to i32
            %hs = arith.shli %hi32, %c16 : i32
            %w = arith.ori %lo32, %hs : i32
            %acc1 = vector.insert %w, %acc[%m] : i32 into vector<4xi32>
            scf.yield %acc1 : vector<4xi32>
          }
          %w0 = vector.extract %v[0] : i32 from vector<4xi32>
          %w1 = vector.extract %v[1] : i32 from vector<4xi32>
          %w2 = vector.extract %v[2] : i32 from vector<4xi32>
          %w3 = vector.extract %v[3] : i32 from vector<4xi32>
          scf.yield %w0, %w1, %w2, %w3 : i32, i32, i32, i32
        }
        scf.yield %ws#0, %ws#1, %ws#2, %ws#3 : i32, i32, i32, i32
      }
      return %r#0, %r#1, %r#2, %r#3 : i32, i32, i32, i32
    }

    // Where register m of @uq_sm90_v_frags' shared-load path takes its two
    // 16-bit halves: the thread's own element (shared offset %va: token
    // 2t, byte 2g) 8 (m & 1) rows and 16 (m >> 1) bytes on, and the token
    // after it. Inlined (uq.inline).
    func.func private @uq_sm90_v_word_at(%va: i32, %m: index, %stride: i32) -> (!llvm.ptr<3>, !llvm.ptr<3>) attributes {uq.inline} {
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      %c4 = arith.constant 4 : i32
      %smem = llvm.mlir.addressof @uq_decode_sm90_smem : !llvm.ptr<3>
      %rows8 = arith.shli %stride, %c3 : i32
      %mi = arith.index_cast %m : index to i32
      %mh = arith.andi %mi, %c1 : i32
      %mb = arith.shrui %mi, %c1 : i32
      %ro = arith.muli %mh, %rows8 : i32
      %bo = arith.shli %mb, %c4 : i32
      %o0 = arith.addi %va, %ro : i32
      %o = arith.addi %o0, %bo : i32
      %o1 = arith.addi %o, %stride : i32
      %p0 = llvm.getelementptr %smem[%o] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %p1 = llvm.getelementptr %smem[%o1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      return %p0, %p1 : !llvm.ptr<3>, !llvm.ptr<3>
    }

    // @uq_sm90_v_frags' registers at D = 32, whose V codes sit at the odd
    // byte 17 of the slot: each 16-bit half as two byte loads (a
    // misaligned 16-bit load faults). Inlined (uq.inline).
    func.func private @uq_sm90_v_frags_bytes(%va: i32, %stride: i32) -> (i32, i32, i32, i32) attributes {uq.inline} {
      %c8 = arith.constant 8 : i32
      %c16 = arith.constant 16 : i32
      %c24 = arith.constant 24 : i32
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i4 = arith.constant 4 : index
      %zero4 = arith.constant dense<0> : vector<4xi32>
      %v = scf.for %m = %i0 to %i4 step %i1 iter_args(%acc = %zero4) -> (vector<4xi32>) {
        %p0, %p1 = func.call @uq_sm90_v_word_at(%va, %m, %stride) : (i32, index, i32) -> (!llvm.ptr<3>, !llvm.ptr<3>)
        %p0b = llvm.getelementptr %p0[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
        %p1b = llvm.getelementptr %p1[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
        %b0 = llvm.load %p0 {alignment = 1 : i64} : !llvm.ptr<3> -> i8
        %b1 = llvm.load %p0b {alignment = 1 : i64} : !llvm.ptr<3> -> i8
        %b2 = llvm.load %p1 {alignment = 1 : i64} : !llvm.ptr<3> -> i8
        %b3 = llvm.load %p1b {alignment = 1 : i64} : !llvm.ptr<3> -> i8
        %e0 = arith.extui %b0 : i8 to i32
        %e1 = arith.extui %b1 : i8 to i32
        %e2 = arith.extui %b2 : i8 to i32
        %e3 = arith.extui %b3 : i8 to i32
        %s1 = arith.shli %e1, %c8 : i32
        %s2 = arith.shli %e2, %c16 : i32
        %s3 = arith.shli %e3, %c24 : i32
        %w01 = arith.ori %e0, %s1 : i32
        %w23 = arith.ori %s2, %s3 : i32
        %w = arith.ori %w01, %w23 : i32
        %acc1 = vector.insert %w, %acc[%m] : i32 into vector<4xi32>
        scf.yield %acc1 : vector<4xi32>
      }
      %w0 = vector.extract %v[0] : i32 from vector<4xi32>
      %w1 = vector.extract %v[1] : i32 from vector<4xi32>
      %w2 = vector.extract %v[2] : i32 from vector<4xi32>
      %w3 = vector.extract %v[3] : i32 from vector<4xi32>
      return %w0, %w1, %w2, %w3 : i32, i32, i32, i32
    }

    // O += P V for QG 16 on one tile: the weights %pv (@uq_sm90_softmax's C
    // layout) become P's bf16 A fragments, scaled per group by the group's V
    // scales (@uq_sm90_v_group), times V's codes decoded to bf16
    // (@uq_sm90_v_frags, @uq_sm90_fp4_bf16x2) as the B fragments of 4 n-tiles
    // of m16n8k16 per group, for %njp group pairs (@uq_sm90_pair_groups),
    // into the accumulators %mv4 [n-tile][c0..c3]. The tile is the stage at
    // %sbp, the lane's ldmatrix row address %lbase. Inlined before the loops
    // unroll (uq.inline): %njp is the caller's constant.
    func.func private @uq_sm90_pv(%pv: vector<8xf32>, %mv4: vector<128xf32>, %sbp: !llvm.ptr<3>, %lbase: i32, %t2: i32, %voff: i32, %vso: i32, %stride: i32, %vdelta: i32, %njp: index) -> (vector<128xf32>) attributes {uq.inline} {
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i4 = arith.constant 4 : index
          %p0, %p1, %p2, %p3, %p4, %p5, %p6, %p7v = func.call @uq_sm90_elements8(%pv) : (vector<8xf32>) -> (f32, f32, f32, f32, f32, f32, f32, f32)
          // P as the bf16 A fragments of m16n8k16 (rows g / g + 8, tokens 2t,
          // 2t + 1 then 2t + 8, 2t + 9): the QK C layout reused in registers.
          %pa0 = llvm.inline_asm asm_dialect = att "cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f" %p1, %p0 : (f32, f32) -> i32
          %pa1 = llvm.inline_asm asm_dialect = att "cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f" %p3, %p2 : (f32, f32) -> i32
          %pa2 = llvm.inline_asm asm_dialect = att "cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f" %p5, %p4 : (f32, f32) -> i32
          %pa3 = llvm.inline_asm asm_dialect = att "cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f" %p7v, %p6 : (f32, f32) -> i32
          // V scales of tokens 2t, 2t + 1, 2t + 8, 2t + 9 (8 bytes each)
          %vs = func.call @uq_sm90_scale_words(%sbp, %t2, %vso, %stride) : (!llvm.ptr<3>, i32, i32, i32) -> vector<8xi32>
          // ---- O += P V: per group j, P scaled by the group's V scales, 4
          // n-tiles of m16n8k16 bf16.
          %pairs, %npair = func.call @uq_sm90_pair_groups() : () -> (index, index)
          %accv = scf.for %jp = %i0 to %njp step %i1 iter_args(%av = %mv4) -> (vector<128xf32>) {
            %jpi = arith.index_cast %jp : index to i32
            %jo = arith.muli %jpi, %c32 : i32
            %la0 = arith.addi %lbase, %jo : i32
            %la = arith.addi %la0, %voff : i32
            %va = arith.addi %la, %vdelta : i32
            %vf:4 = func.call @uq_sm90_v_frags(%la, %va) : (i32, i32) -> (i32, i32, i32, i32)
            %av2 = scf.for %jj = %i0 to %npair step %i1 iter_args(%aa = %av) -> (vector<128xf32>) {
              %j, %rlo, %rhi, %sv0, %sv1 = func.call @uq_sm90_v_group(%vf#0, %vf#1, %vf#2, %vf#3, %vs, %jp, %jj) : (i32, i32, i32, i32, vector<8xi32>, index, index) -> (index, i32, i32, i32, i32)
              %s01 = arith.addi %sv0, %c0 : i32
              %s89 = arith.addi %sv1, %c0 : i32
              %pj0 = llvm.inline_asm asm_dialect = att "mul.rn.bf16x2 $0, $1, $2;", "=r,r,r" %pa0, %s01 : (i32, i32) -> i32
              %pj1 = llvm.inline_asm asm_dialect = att "mul.rn.bf16x2 $0, $1, $2;", "=r,r,r" %pa1, %s01 : (i32, i32) -> i32
              %pj2 = llvm.inline_asm asm_dialect = att "mul.rn.bf16x2 $0, $1, $2;", "=r,r,r" %pa2, %s89 : (i32, i32) -> i32
              %pj3 = llvm.inline_asm asm_dialect = att "mul.rn.bf16x2 $0, $1, $2;", "=r,r,r" %pa3, %s89 : (i32, i32) -> i32
              %aout = scf.for %i = %i0 to %i4 step %i1 iter_args(%ai = %aa) -> (vector<128xf32>) {
                %ii = arith.index_cast %i : index to i32
                %b0 = func.call @uq_sm90_fp4_bf16x2(%rlo, %ii) : (i32, i32) -> i32
                %b1 = func.call @uq_sm90_fp4_bf16x2(%rhi, %ii) : (i32, i32) -> i32
                %j4 = arith.muli %j, %i4 : index
                %nt = arith.addi %j4, %i : index
                %c:4 = func.call @uq_sm90_frag(%ai, %nt) : (vector<128xf32>, index) -> (f32, f32, f32, f32)
                %d:4 = func.call @uq_sm90_mma_bf16(%pj0, %pj1, %pj2, %pj3, %b0, %b1, %c#0, %c#1, %c#2, %c#3) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> (f32, f32, f32, f32)
                %u = func.call @uq_sm90_frag_set(%ai, %nt, %d#0, %d#1, %d#2, %d#3) : (vector<128xf32>, index, f32, f32, f32, f32) -> vector<128xf32>
                scf.yield %u : vector<128xf32>
              }
              scf.yield %aout : vector<128xf32>
            }
            scf.yield %av2 : vector<128xf32>
          }
      return %accv : vector<128xf32>
    }

    // O^T += V^T P^T for QG <= 8 on one tile (M = head dim, so the
    // accumulators hold only the 8 real query rows): the weights %p4
    // (@uq_sm90_softmax_t's layout) become P^T's bf16 B fragments by a
    // transpose (movmatrix), scaled per group by the group's V scales
    // (@uq_sm90_v_group: every m-tile lies in one group), times V^T's codes
    // decoded to bf16 (@uq_sm90_v_frags, @uq_sm90_fp4_bf16x2) as the A
    // fragments, 2 m-tiles of m16n8k16 per group, for %njp group pairs
    // (@uq_sm90_pair_groups: D = 32's one of one group), into the
    // accumulators %mv4 [m-tile][c0..c3]. The tile is the
    // stage at %sbp, the lane's ldmatrix row address %lbase. Inlined before
    // the loops unroll (uq.inline): %njp is the caller's constant.
    func.func private @uq_sm90_pv_t(%p4: vector<4xf32>, %mv4: vector<64xf32>, %sbp: !llvm.ptr<3>, %lbase: i32, %t2: i32, %voff: i32, %vso: i32, %stride: i32, %vdelta: i32, %njp: index) -> (vector<64xf32>) attributes {uq.inline} {
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
          %p0 = vector.extract %p4[0] : f32 from vector<4xf32>
          %p1 = vector.extract %p4[1] : f32 from vector<4xf32>
          %p2 = vector.extract %p4[2] : f32 from vector<4xf32>
          %p3 = vector.extract %p4[3] : f32 from vector<4xf32>
          // P^T as the B fragment: (tokens 2t, 2t + 1) and (2t + 8, 2t + 9)
          // of query row g, bf16. This lane holds (token g, query rows 2t,
          // 2t + 1) and (token g + 8, ...): 8x8 b16 matrices [token][query]
          // in the fragment layout, so a transpose gives [query][token].
          %pt0 = llvm.inline_asm asm_dialect = att "cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f" %p1, %p0 : (f32, f32) -> i32
          %pt1 = llvm.inline_asm asm_dialect = att "cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f" %p3, %p2 : (f32, f32) -> i32
          %pb0 = llvm.inline_asm has_side_effects asm_dialect = att "movmatrix.sync.aligned.m8n8.trans.b16 $0, $1;", "=r,r" %pt0 : (i32) -> i32
          %pb1 = llvm.inline_asm has_side_effects asm_dialect = att "movmatrix.sync.aligned.m8n8.trans.b16 $0, $1;", "=r,r" %pt1 : (i32) -> i32
          %vs = func.call @uq_sm90_scale_words(%sbp, %t2, %vso, %stride) : (!llvm.ptr<3>, i32, i32, i32) -> vector<8xi32>
          %pairs, %npair = func.call @uq_sm90_pair_groups() : () -> (index, index)
          %accv = scf.for %jp = %i0 to %njp step %i1 iter_args(%av = %mv4) -> (vector<64xf32>) {
            %jpi = arith.index_cast %jp : index to i32
            %jo = arith.muli %jpi, %c32 : i32
            %la0 = arith.addi %lbase, %jo : i32
            %la = arith.addi %la0, %voff : i32
            %va = arith.addi %la, %vdelta : i32
            %vf:4 = func.call @uq_sm90_v_frags(%la, %va) : (i32, i32) -> (i32, i32, i32, i32)
            %av2 = scf.for %jj = %i0 to %npair step %i1 iter_args(%aa = %av) -> (vector<64xf32>) {
              %j, %rlo, %rhi, %sv0, %sv1 = func.call @uq_sm90_v_group(%vf#0, %vf#1, %vf#2, %vf#3, %vs, %jp, %jj) : (i32, i32, i32, i32, vector<8xi32>, index, index) -> (index, i32, i32, i32, i32)
              // every m-tile of group j lies in group j: its scales go into
              // P^T's token rows (exact: bf16(p) times a power of two)
              %pj0 = llvm.inline_asm asm_dialect = att "mul.rn.bf16x2 $0, $1, $2;", "=r,r,r" %pb0, %sv0 : (i32, i32) -> i32
              %pj1 = llvm.inline_asm asm_dialect = att "mul.rn.bf16x2 $0, $1, $2;", "=r,r,r" %pb1, %sv1 : (i32, i32) -> i32
              %aout = scf.for %ip = %i0 to %i2 step %i1 iter_args(%ai = %aa) -> (vector<64xf32>) {
                %ipi = arith.index_cast %ip : index to i32
                %n0 = arith.shli %ipi, %c1 : i32
                %n1 = arith.addi %n0, %c1 : i32
                %e0 = func.call @uq_sm90_fp4_bf16x2(%rlo, %n0) : (i32, i32) -> i32
                %e1 = func.call @uq_sm90_fp4_bf16x2(%rlo, %n1) : (i32, i32) -> i32
                %e2 = func.call @uq_sm90_fp4_bf16x2(%rhi, %n0) : (i32, i32) -> i32
                %e3 = func.call @uq_sm90_fp4_bf16x2(%rhi, %n1) : (i32, i32) -> i32
                %j2x = arith.muli %j, %i2 : index
                %mt = arith.addi %j2x, %ip : index
                %c:4 = func.call @uq_sm90_frag_t(%ai, %mt) : (vector<64xf32>, index) -> (f32, f32, f32, f32)
                %r:4 = func.call @uq_sm90_mma_bf16(%e0, %e1, %e2, %e3, %pj0, %pj1, %c#0, %c#1, %c#2, %c#3) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> (f32, f32, f32, f32)
                %u = func.call @uq_sm90_frag_t_set(%ai, %mt, %r#0, %r#1, %r#2, %r#3) : (vector<64xf32>, index, f32, f32, f32, f32) -> vector<64xf32>
                scf.yield %u : vector<64xf32>
              }
              scf.yield %aout : vector<64xf32>
            }
            scf.yield %av2 : vector<64xf32>
          }
      return %accv : vector<64xf32>
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
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      // QG is an argument (1 .. qg_max); qg_max picks the code's shape:
      // qg_max 8 (%small) S^T = K Q^T, qg_max 16 S = Q K^T.
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %f16 = arith.cmpi ne, %act_f16, %c0 : i32
      %qg_max = "uq.param"() {name = "qg_max"} : () -> index
      %qg_max_i = arith.index_cast %qg_max : index to i32
      %qgi = arith.addi %query_group, %c0 : i32
      %c8_q = arith.constant 8 : i32
      %small = arith.cmpi ule, %qg_max_i, %c8_q : i32
      %hd = "uq.param"() {name = "d"} : () -> index
      %hd_i = arith.index_cast %hd : index to i32
      // the variant's shared memory: a slot's V codes, stride, K and V
      // scales and a stage's bytes (@uq_sm90_slot_layout); a warp's
      // %nstages stages (@uq_sm90_stages); the query image after the 4
      // warps' stages (@uq_sm90_query_image); the merge's layout after the
      // walk (@uq_sm90_merge_layout: per warp %accw floats of
      // accumulators, maxima and sums from float %mbase, the partials from
      // byte %pbase, their (max, L) from byte %pml)
      %voff, %stride, %kso, %vso, %stage_b = func.call @uq_sm90_slot_layout() : () -> (i32, i32, i32, i32, i32)
      %nstages = func.call @uq_sm90_stages() : () -> i32
      %nstm1 = arith.subi %nstages, %c1 : i32
      %q16_off, %qrow_bytes = func.call @uq_sm90_query_image(%stage_b, %nstages) : (i32, i32) -> (i32, i32)
      %rows_m, %mbase, %pbase, %pml, %mend = func.call @uq_sm90_merge_layout() : () -> (i32, i32, i32, i32, i32)
      %accw = arith.muli %rows_m, %hd_i : i32
      // per warp the group pairs of a tile (of a half at D = 512,
      // @uq_sm90_pair_groups) and D/8 n-tiles of PV accumulators (QG 16;
      // QG <= 8 counts its halves' m-tiles below)
      %i16_g = arith.constant 16 : index
      %i8_g = arith.constant 8 : index
      %njp, %npair = func.call @uq_sm90_pair_groups() : () -> (index, index)
      %nnt = arith.divui %hd, %i8_g : index
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c5 = arith.constant 5 : i32
      %c8 = arith.constant 8 : i32
      %c31 = arith.constant 31 : i32
      %i3 = arith.constant 3 : index
      %ninf = arith.constant 0xFF800000 : f32
      %true = arith.constant true
      %false = arith.constant false
      %zero_f = arith.constant 0.0 : f32
      %log2e = arith.constant 1.44269504088896340736 : f32
      %sixty4 = arith.constant 64.0 : f32
      %zero128 = arith.constant dense<0.0> : vector<128xf32>
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %smem = llvm.mlir.addressof @uq_decode_sm90_smem : !llvm.ptr<3>
      %smem_i = llvm.ptrtoint %smem : !llvm.ptr<3> to i32
      %tid_ix = gpu.thread_id x
      %tid = arith.index_cast %tid_ix : index to i32
      %warp = arith.shrui %tid, %c5 : i32
      %lane = arith.andi %tid, %c31 : i32
      %g = arith.shrui %lane, %c2 : i32
      %t = arith.andi %lane, %c3 : i32
      %g8 = arith.addi %g, %c8 : i32
      %t2 = arith.shli %t, %c1 : i32
      %blk_x_ix = gpu.block_id x
      %blk_x = arith.index_cast %blk_x_ix : index to i32
      %kvh_ix = gpu.block_id y
      %kvh = arith.index_cast %kvh_ix : index to i32
      %part_ix = gpu.block_id z
      %part = arith.index_cast %part_ix : index to i32
      // the walk's groups of G = 2^walk_lg tiles (@uq_sm90_walk_log2)
      %walk_lg = func.call @uq_sm90_walk_log2() : () -> i32
      // the block's tokens (@uq_sm90_block_tokens)
      %seq, %qtok, %has_tokens, %end0, %seq_len, %live_rows = func.call @uq_sm90_block_tokens(%query_start_loc, %seq_lens, %search_seqs, %qg_max_i, %qgi, %blk_x) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32, i32) -> (i32, i32, i1, i32, i32, i32)
      // A block of no token (past its sequence's tokens in a vLLM grid)
      // exits here, before any load, so its slot frees at once (all CTAs
      // of a cluster are one block's partitions: they leave together).
      cf.cond_br %has_tokens, ^walk, ^done
    ^walk:
      // ---- Q's loads, issued first (@uq_sm90_load_query): their latency
      // overlaps the dependent chain of the sequence length, the block
      // table and the first tile's copies below.
      %seq64 = arith.extui %seq : i32 to i64
      %qraw, %q_in, %qe, %qchunk, %lsh_ix, %qrow_r, %qd0 = func.call @uq_sm90_load_query(%query, %hd, %small, %warp, %lane, %kvh, %qgi, %live_rows, %has_tokens, %qtok, %q_stride_seq, %q_stride_head) : (!llvm.ptr<1>, index, i1, i32, i32, i32, i32, i32, i1, i32, i32, i32) -> (vector<32xi16>, i1, index, i32, index, i32, i32)
      // ---- the block table entry of the lane's token of the warp's first
      // tile, loaded now, beside the sequence length (@uq_sm90_first_block)
      %spec_tok, %bs_shift, %bt_row, %spec_phys = func.call @uq_sm90_first_block(%warp, %part, %num_partitions, %walk_lg, %lane, %block_size, %max_blocks_per_seq, %seq64, %block_tables) : (i32, i32, i32, i32, i32, i32, i32, i64, !llvm.ptr<1>) -> (i32, i32, i64, i32)
      // ---- the partition's tiles (@uq_sm90_partition_tiles)
      %win_start, %win_base, %ntiles = func.call @uq_sm90_partition_tiles(%end0, %seq_len, %sliding_window, %walk_lg, %part, %num_partitions, %tgpp) : (i32, i32, i32, i32, i32, i32, i32) -> (i32, i32, i32)
      // ---- the warp's tiles: k = warp + 4 i, i < nw, through its own cp.async
      // pipeline of nstages stages (16 slots each) in shared memory. Its
      // first copies are issued before Q's rotation below, whose loads and
      // math then overlap their latency.
      %nw = func.call @uq_sm90_warp_tiles(%ntiles, %warp) : (i32, i32) -> (i32)
      %bs_mask, %pos_stride, %blk_bytes, %head_off, %unit8 = func.call @uq_sm90_kv_strides(%block_size, %num_kv_heads, %padded_slot, %kvh) : (i32, i32, i32, i32) -> (i32, i32, i64, i32, i1)
      // the scores' multiplier: base 2, and x 64 for K's E4M3 bytes (the
      // values times 2^-6)
      %mult0 = arith.mulf %softmax_scale, %log2e : f32
      %mult = arith.mulf %mult0, %sixty4 : f32
      %nw_ix = arith.index_cast %nw : i32 to index
      %zero64 = arith.constant dense<0.0> : vector<64xf32>
      // lane addresses of the ldmatrix reads (@uq_sm90_lane_addresses)
      %lrow_off, %vdelta, %qaddr0, %qaddr = func.call @uq_sm90_lane_addresses(%lane, %g, %t2, %stride, %smem_i, %q16_off, %qrow_bytes) : (i32, i32, i32, i32, i32, i32, i32) -> (i32, i32, i32, i32)
      // The warp's pipeline (@uq_sm90_start_pipeline): its first nstages - 1
      // tiles issued now, the block of tile nstages - 1 loaded; each step of
      // the walk issues one tile and loads the block of the one after.
      %wbase, %pf0 = func.call @uq_sm90_start_pipeline(%nstages, %stage_b, %warp, %smem_i, %nw, %part, %num_partitions, %walk_lg, %win_base, %lane, %win_start, %seq_len, %spec_tok, %spec_phys, %bs_shift, %block_tables, %bt_row, %bs_mask, %kv_cache, %blk_bytes, %pos_stride, %head_off, %unit8) : (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<1>, i64, i32, !llvm.ptr<1>, i64, i32, i32, i1) -> (i32, i32)
      // ---- Q rotated into shared memory as f16 (@uq_sm90_rotate_query;
      // the activations' dtype a constant of each copy)
      scf.if %f16 {
        %q_f16 = arith.constant true
        func.call @uq_sm90_rotate_query(%qraw, %q_in, %qe, %qchunk, %lsh_ix, %hd_i, %smem, %q16_off, %qrow_bytes, %qrow_r, %qd0, %q_f16) : (vector<32xi16>, i1, index, i32, index, i32, !llvm.ptr<3>, i32, i32, i32, i32, i1) -> ()
      } else {
        %q_bf16 = arith.constant false
        func.call @uq_sm90_rotate_query(%qraw, %q_in, %qe, %qchunk, %lsh_ix, %hd_i, %smem, %q16_off, %qrow_bytes, %qrow_r, %qd0, %q_bf16) : (vector<32xi16>, i1, index, i32, index, i32, !llvm.ptr<3>, i32, i32, i32, i32, i1) -> ()
      }
      gpu.barrier
      scf.if %small {
        // ---- QG <= 8: S^T = K Q^T and PV as O^T = V^T P^T (M = head
        // dim), so the accumulators hold only the 8 real query rows (64 at
        // D = 256) and half the PV MMAs; each m-tile lies in one V group,
        // so the group's V scales go into P^T's token rows. D = 512 walks
        // as two halves of 256 head dims (@uq_sm90_half_dims), each with
        // D = 256's Q^T fragments, group pairs, scale words and
        // accumulators: S^T is the sum of the halves' products, P^T
        // multiplies each half's V, and the second half's accumulators
        // take the same corrections as the first's.
        %hh = func.call @uq_sm90_half_dims() : () -> index
        %two = arith.cmpi ugt, %hd, %hh : index
        %nmt_h = arith.divui %hh, %i16_g : index
        %c128_h = arith.constant 128 : i32
        %c256_h = arith.constant 256 : i32
        %c512_h = arith.constant 512 : i32
        %zero32i_h = arith.constant dense<0> : vector<32xi32>
        // Q^T fragments (@uq_sm90_q_frags_t), kept in registers; the
        // second half's from byte 512 of the query image's rows
        %qf = func.call @uq_sm90_q_frags_t(%lane, %qaddr0, %qrow_bytes) : (i32, i32, i32) -> (vector<32xi32>)
        %qf1 = scf.if %two -> (vector<32xi32>) {
          %qaddr0_1 = arith.addi %qaddr0, %c512_h : i32
          %q1 = func.call @uq_sm90_q_frags_t(%lane, %qaddr0_1, %qrow_bytes) : (i32, i32, i32) -> (vector<32xi32>)
          scf.yield %q1 : vector<32xi32>
        } else {
          scf.yield %zero32i_h : vector<32xi32>
        }
        // the second half's K codes and V codes 128 bytes on, their
        // scales 8 bytes on
        %kso_1 = arith.addi %kso, %c8 : i32
        %vso_1 = arith.addi %vso, %c8 : i32
        %voff_1 = arith.addi %voff, %c128_h : i32
        // the ends of the lane's query rows 2t and 2t + 1 (@uq_sm90_mask_t)
        %t2p = arith.addi %t2, %c1 : i32
        %lim_a = func.call @row_limit(%t2, %qgi, %live_rows, %end0) : (i32, i32, i32, i32) -> i32
        %lim_b = func.call @row_limit(%t2p, %qgi, %live_rows, %end0) : (i32, i32, i32, i32) -> i32
        %fin:7 = scf.for %it = %i0 to %nw_ix step %i1 iter_args(%m_0 = %ninf, %m_1 = %ninf, %l_0 = %zero_f, %l_1 = %zero_f, %acc = %zero64, %pf = %pf0, %acc_1 = %zero64) -> (f32, f32, f32, f32, vector<64xf32>, i32, vector<64xf32>) {
          %iti = arith.index_cast %it : index to i32
          %pf_next, %sbp, %tb, %lbase = func.call @uq_sm90_pipeline_step(%iti, %pf, %nw, %nstages, %nstm1, %stage_b, %wbase, %smem, %smem_i, %lrow_off, %warp, %part, %num_partitions, %walk_lg, %win_base, %lane, %win_start, %seq_len, %bs_shift, %block_tables, %bt_row, %bs_mask, %kv_cache, %blk_bytes, %pos_stride, %head_off, %unit8) : (i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<3>, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<1>, i64, i32, !llvm.ptr<1>, i64, i32, i32, i1) -> (i32, !llvm.ptr<3>, i32, i32)
          // S^T = K Q^T with the K scales of tokens g and g + 8
          // (@uq_sm90_qk_tile_t), masked (@uq_sm90_mask_t), the online
          // softmax with the lazy maximum (@uq_sm90_softmax_t), then
          // O^T += V^T P^T (@uq_sm90_pv_t)
          %S0 = func.call @uq_sm90_qk_tile_t(%sbp, %lbase, %qf, %g, %kso, %stride) : (!llvm.ptr<3>, i32, vector<32xi32>, i32, i32, i32) -> vector<4xf32>
          %S = scf.if %two -> (vector<4xf32>) {
            %lbase_1 = arith.addi %lbase, %c128_h : i32
            %S1 = func.call @uq_sm90_qk_tile_t(%sbp, %lbase_1, %qf1, %g, %kso_1, %stride) : (!llvm.ptr<3>, i32, vector<32xi32>, i32, i32, i32) -> vector<4xf32>
            %Ssum = arith.addf %S0, %S1 : vector<4xf32>
            scf.yield %Ssum : vector<4xf32>
          } else {
            scf.yield %S0 : vector<4xf32>
          }
          %x4 = func.call @uq_sm90_mask_t(%S, %tb, %g, %lim_a, %lim_b, %sliding_window, %mult) : (vector<4xf32>, i32, i32, i32, i32, i32, f32) -> vector<4xf32>
          %mv0, %mv1, %ln0, %ln1, %mv4, %p4, %moved, %cu0, %cu1 = func.call @uq_sm90_softmax_t(%x4, %m_0, %m_1, %l_0, %l_1, %acc, %nmt_h) : (vector<4xf32>, f32, f32, f32, f32, vector<64xf32>, index) -> (f32, f32, f32, f32, vector<64xf32>, vector<4xf32>, i1, f32, f32)
          %accv = func.call @uq_sm90_pv_t(%p4, %mv4, %sbp, %lbase, %t2, %voff, %vso, %stride, %vdelta, %njp) : (vector<4xf32>, vector<64xf32>, !llvm.ptr<3>, i32, i32, i32, i32, i32, i32, index) -> (vector<64xf32>)
          %accv_1 = scf.if %two -> (vector<64xf32>) {
            %a1 = scf.if %moved -> (vector<64xf32>) {
              %r1 = func.call @uq_sm90_rescale_t(%acc_1, %cu0, %cu1, %nmt_h) : (vector<64xf32>, f32, f32, index) -> vector<64xf32>
              scf.yield %r1 : vector<64xf32>
            } else {
              scf.yield %acc_1 : vector<64xf32>
            }
            %pv1 = func.call @uq_sm90_pv_t(%p4, %a1, %sbp, %lbase, %t2, %voff_1, %vso_1, %stride, %vdelta, %njp) : (vector<4xf32>, vector<64xf32>, !llvm.ptr<3>, i32, i32, i32, i32, i32, i32, index) -> (vector<64xf32>)
            scf.yield %pv1 : vector<64xf32>
          } else {
            scf.yield %acc_1 : vector<64xf32>
          }
          llvm.inline_asm has_side_effects asm_dialect = att "bar.warp.sync 0xffffffff;", "~{memory}" : () -> ()
          scf.yield %mv0, %mv1, %ln0, %ln1, %accv, %pf_next, %accv_1 : f32, f32, f32, f32, vector<64xf32>, i32, vector<64xf32>
        }
        llvm.inline_asm has_side_effects asm_dialect = att "cp.async.wait_group 0;", "~{memory}" : () -> ()
        // the columns' sums over their 8 lanes, then the warp's state to
        // shared memory for the merge of the 4 warps (@uq_sm90_stash_t)
        %lr:2 = func.call @uq_sm90_rows_reduce(%fin#2, %fin#3, %c2, %i3, %true, %false) : (f32, f32, i32, index, i1, i1) -> (f32, f32)
        gpu.barrier
        func.call @uq_sm90_stash_t(%fin#4, %fin#0, %fin#1, %lr#0, %lr#1, %smem, %warp, %tid, %accw, %mbase, %g, %t2, %hd_i, %nmt_h, %c0) : (vector<64xf32>, f32, f32, f32, f32, !llvm.ptr<3>, i32, i32, i32, i32, i32, i32, i32, index, i32) -> ()
        scf.if %two {
          func.call @uq_sm90_stash_t(%fin#6, %fin#0, %fin#1, %lr#0, %lr#1, %smem, %warp, %tid, %accw, %mbase, %g, %t2, %hd_i, %nmt_h, %c256_h) : (vector<64xf32>, f32, f32, f32, f32, !llvm.ptr<3>, i32, i32, i32, i32, i32, i32, i32, index, i32) -> ()
        }
      } else {
        // the ends of the lane's query rows g and g + 8 (@uq_sm90_mask)
        %lim_g = func.call @row_limit(%g, %qgi, %live_rows, %end0) : (i32, i32, i32, i32) -> i32
        %lim_h = func.call @row_limit(%g8, %qgi, %live_rows, %end0) : (i32, i32, i32, i32) -> i32
        %fin:6 = scf.for %it = %i0 to %nw_ix step %i1 iter_args(%m_g = %ninf, %m_g8 = %ninf, %l_g = %zero_f, %l_g8 = %zero_f, %acc = %zero128, %pf = %pf0) -> (f32, f32, f32, f32, vector<128xf32>, i32) {
          %iti = arith.index_cast %it : index to i32
          %pf_next, %sbp, %tb, %lbase = func.call @uq_sm90_pipeline_step(%iti, %pf, %nw, %nstages, %nstm1, %stage_b, %wbase, %smem, %smem_i, %lrow_off, %warp, %part, %num_partitions, %walk_lg, %win_base, %lane, %win_start, %seq_len, %bs_shift, %block_tables, %bt_row, %bs_mask, %kv_cache, %blk_bytes, %pos_stride, %head_off, %unit8) : (i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<3>, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<1>, i64, i32, !llvm.ptr<1>, i64, i32, i32, i1) -> (i32, !llvm.ptr<3>, i32, i32)
          // S = Q K^T with the K scales of tokens 2t, 2t + 1, 2t + 8, 2t + 9
          // (@uq_sm90_qk), masked (@uq_sm90_mask), the online softmax with
          // the lazy maximum (@uq_sm90_softmax), then O += P V (@uq_sm90_pv)
          %ks = func.call @uq_sm90_scale_words(%sbp, %t2, %kso, %stride) : (!llvm.ptr<3>, i32, i32, i32) -> vector<8xi32>
          %S = func.call @uq_sm90_qk(%lbase, %qaddr, %ks) : (i32, i32, vector<8xi32>) -> vector<8xf32>
          %x8 = func.call @uq_sm90_mask(%S, %tb, %t2, %lim_g, %lim_h, %sliding_window, %mult) : (vector<8xf32>, i32, i32, i32, i32, i32, f32) -> vector<8xf32>
          %mv0, %mv1, %lg_new, %lh_new, %mv4, %pv = func.call @uq_sm90_softmax(%x8, %m_g, %m_g8, %l_g, %l_g8, %acc, %nnt) : (vector<8xf32>, f32, f32, f32, f32, vector<128xf32>, index) -> (f32, f32, f32, f32, vector<128xf32>, vector<8xf32>)
          %accv = func.call @uq_sm90_pv(%pv, %mv4, %sbp, %lbase, %t2, %voff, %vso, %stride, %vdelta, %njp) : (vector<8xf32>, vector<128xf32>, !llvm.ptr<3>, i32, i32, i32, i32, i32, i32, index) -> (vector<128xf32>)
          llvm.inline_asm has_side_effects asm_dialect = att "bar.warp.sync 0xffffffff;", "~{memory}" : () -> ()
          scf.yield %mv0, %mv1, %lg_new, %lh_new, %accv, %pf_next : f32, f32, f32, f32, vector<128xf32>, i32
        }
        llvm.inline_asm has_side_effects asm_dialect = att "cp.async.wait_group 0;", "~{memory}" : () -> ()
        // the rows' sums over their 4 lanes, then the warp's state to
        // shared memory for the merge of the 4 warps (@uq_sm90_stash)
        %l_g_tot, %l_h_tot = func.call @uq_sm90_rows_reduce(%fin#2, %fin#3, %c0, %i2, %false, %false) : (f32, f32, i32, index, i1, i1) -> (f32, f32)
        gpu.barrier
        func.call @uq_sm90_stash(%fin#4, %fin#0, %fin#1, %l_g_tot, %l_h_tot, %smem, %warp, %accw, %mbase, %g, %t, %hd_i, %nnt) : (vector<128xf32>, f32, f32, f32, f32, !llvm.ptr<3>, i32, i32, i32, i32, i32, i32, index) -> ()
      }
      gpu.barrier
      // Every warp is past its tiles: the reduce (launched with programmatic
      // stream serialization, waiting for this grid in griddepcontrol.wait)
      // may launch now, its CTAs resident by the time the last partials
      // land instead of launched after the last CTA exits. Not earlier:
      // resident from the start, its CTAs took SM resources unevenly (H200:
      // B 16 / 16k 1 us slower). The decode itself is launched as usual; a
      // dependent launched early fills the SMs that free first, which for a
      // grid of fewer CTAs than slots (D 64 and 128) ran up to 27% slower.
      nvvm.griddepcontrol launch_dependents
      // ---- the partition's partials (@uq_sm90_store_partials): to the
      // workspace, or, when the launch makes the P CTAs of this (sequence,
      // kv head) one cluster (P <= 8; P = 1 needs no cluster), to this
      // CTA's shared memory for the cluster's merge below
      // (@uq_sm90_cluster_merge).
      %ncta = llvm.inline_asm asm_dialect = att "mov.u32 $0, %cluster_nctarank;", "=r" : () -> i32
      %merge = arith.cmpi eq, %ncta, %num_partitions : i32
      func.call @uq_sm90_store_partials(%segm_out, %segm_max, %segm_sum, %smem, %merge, %tid, %live_rows, %accw, %mbase, %pbase, %pml, %qtok, %qgi, %num_kv_heads, %kvh, %num_partitions, %part) : (!llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<3>, i1, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) -> ()
      // a block of no token (varlen padding) writes no output: its whole
      // cluster (one block's partitions) skips the merge together
      %merge_out = arith.andi %merge, %has_tokens : i1
      scf.if %merge_out {
        scf.if %f16 {
          %o_f16 = arith.constant true
          func.call @uq_sm90_cluster_merge(%output, %sinks, %out_stride_seq, %out_stride_head, %smem_i, %pbase, %pml, %tid, %live_rows, %qtok, %qgi, %kvh, %num_partitions, %o_f16) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i1) -> ()
        } else {
          %o_bf16 = arith.constant false
          func.call @uq_sm90_cluster_merge(%output, %sinks, %out_stride_seq, %out_stride_head, %smem_i, %pbase, %pml, %tid, %live_rows, %qtok, %qgi, %kvh, %num_partitions, %o_bf16) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i1) -> ()
        }
      }
      gpu.return
    ^done:
      gpu.return
    }
  }
}
