// UltraQuant decode (FP4 K/V with UE8M0 group scales), the partition reduce
// and the cache store (@uq_store: new tokens' K and V encoded into their
// slots, byte for byte as the host encoder), for gfx950. See docs/design.md,
// "gfx950 kernels" and "gfx950 hardware facts".
//
// This file is the source: each algorithm step is one func.func helper inside
// its gpu.module (inlined and erased by uq-inline), and every loop over
// registers is an scf.for with constant bounds over vector values, unrolled
// by uq-unroll-loops once uq-specialize has made the parameters constants.
// The variant set is uq.variants on each gpu.module; its entries are the
// uq.params uq-compile specializes, and the runtime picks a variant by them
// (its typed record: d = head dim, qg_max = the largest query group served).
// The query group QG itself is a kernel argument (1 .. qg_max): it only
// masks rows, while qg_max sets how many WHT passes the code holds (a pass
// rotates 64 / (D / 32) rows), so for D = 256 QG 1..8 and 9..16 are two
// variants with the same registers. The head dim D is a parameter: D / 128
// K = 128 scaled-MFMA issues per tile (D = 64: one issue, zero-padded: the
// 32x32x64 form would change the output lane map and the softmax reductions
// and make the tile 32 tokens, for one MFMA per tile either way), D / 16 PV
// accumulators of 16 head dims. Register arrays are declared for D = 256
// and used up to D; what a smaller D leaves unused folds away. The runtime
// loops left are the tile loop and the reduce's partition loops.
//
// Build: uq-compile kernels.mlir -o DIR (uq-compile --print-pipeline shows
// the pass pipeline). The algorithm steps upstream has no op for are uq ops,
// lowered by convert-uq-to-rocdl: uq.wht (the D/32-lane Walsh-Hadamard of
// a query row), uq.e4m3_pack (E4M3 bytes through the hardware conversion),
// uq.fp4_to_bf16 (one scaled FP4 word to eight bf16) and uq.buffer_rsrc (a
// buffer view with a 64-bit base offset). The gpu.modules
// carry their targets, O = 3 included.
//
// Features past the seed: a sliding window (decode argument sliding_window:
// the tile walk starts at the window's first tile, tokens before it are
// masked like the tail; see @tile_walk) and attention sinks (reduce argument
// sinks: one f32 logit per query head joins the softmax denominator; null =
// none). Argument order: runtime/kernel_abi.h.
//
// Lane maps (64 lanes, l = lane, j = l >> 4):
//   K loads     token l & 15, group 4h + j of issue h (16 B) = the scaled MFMA's
//               FP4 A operand directly (no LDS round trip); D = 256: scale word
//               j & 1, v_permlane16_swap hands each lane both words; D = 64:
//               lane groups 2, 3 hold zeros (the padding).
//   V loads     token l >> 2, chunk c = l & 3: head dims [c D/4, (c + 1) D/4),
//               D / 32 words, and the scale word holding their groups.
//   MFMA out    lane l holds C[4j + i][l & 15], i = 0..3 (token or head dim, query row);
//               the PV of a pair of row tiles (blocks of 32 and 64 rows, @pv_pairs):
//               lane l register r holds C[8 (r / 4) + 4 (l >> 5) + r % 4][l & 31].
//   WHT         D / 32 lanes per query row, 32 head dims per lane.
//
// Register arrays: K codes vector<2x4xi32> (issue h), V codes vector<2x4xi32>
// (16-byte load h of the lane's chunk), the Q operand vector<2x8xi32> (issue
// h), the PV accumulators vector<4x16x4xf32> (row tile t, head dims 16i ..
// 16i + 15; with @pv_pairs the slots of a pair's 32x32 outputs, @acc_block).
module attributes {gpu.container_module} {
  gpu.module @uq_decode [#rocdl.target<chip = "gfx950", O = 3>] attributes {uq.variants = [{d = 64, rows = 16}, {d = 128, rows = 16}, {d = 256, rows = 8}, {d = 256, rows = 16}, {d = 64, rows = 64}, {d = 128, rows = 64}, {d = 256, rows = 64}, {d = 256, rows = 32}, {d = 128, rows = 32}, {d = 64, rows = 32}], uq.kernel_attrs = [{rocdl.waves_per_eu = 3 : i32}, {rocdl.waves_per_eu = 3 : i32}, {rocdl.waves_per_eu = 3 : i32}, {rocdl.waves_per_eu = 3 : i32}, {rocdl.waves_per_eu = 2 : i32}, {rocdl.waves_per_eu = 2 : i32}, {rocdl.waves_per_eu = 1 : i32}, {rocdl.waves_per_eu = 2 : i32}, {rocdl.waves_per_eu = 3 : i32}, {rocdl.waves_per_eu = 3 : i32}]} {
    // One LDS region, reused: first a row tile's Q operand image (E4M3 bytes
    // in the QK B operand's lane order, 2,048 B per issue, @rotate_query),
    // then the V tile as bf16 rows of 2D + 16 B (D = 256: 16 x 528 = 8,448
    // B). K never goes to LDS.
    llvm.mlir.global internal @uq_decode_lds() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<8448 x i8>
    // The Q operands of a block whose registers cannot hold them
    // (@q_operands_in_lds): per row tile t and issue h, 64 lanes x 32 B
    // from byte 2048 (2t + h). Referenced only by those variants, so the
    // others' LDS stays 8,448 B.
    llvm.mlir.global internal @uq_decode_q_lds() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<16384 x i8>

    func.func private @lane() -> i32 {
      %l = gpu.thread_id x
      %r = arith.index_cast %l : index to i32
      return %r : i32
    }

    // Shape constants of head dim D (all fold once D is a constant): the
    // K = 128 issues per tile, the bytes of a V row in LDS.
    func.func private @issues(%d: index) -> index {
      %c1 = arith.constant 1 : index
      %c128 = arith.constant 128 : index
      %n = arith.divui %d, %c128 : index
      %r = arith.maxui %n, %c1 : index
      return %r : index
    }
    func.func private @v_row_bytes(%d: index) -> i32 {
      %di = arith.index_cast %d : index to i32
      %c1 = arith.constant 1 : i32
      %c16 = arith.constant 16 : i32
      %b = arith.shli %di, %c1 : i32
      %r = arith.addi %b, %c16 : i32
      return %r : i32
    }

    // Whether the block's Q operands (rt x issues x 8 registers) wait in
    // LDS, read again each tile (@q_image), instead of in registers:
    // past 32 of them, i.e. rows 64 at D = 256, whose 256 PV accumulators
    // already fill the VGPRs (there the 64 Q registers pushed the loop into
    // AGPR copies, 29% of its instructions). That loop still sits at the
    // register file's edge: how LLVM splits its accumulators between VGPRs
    // and AGPRs swings with changes outside it (the E4M3 Q image, tried
    // before the loop's own savings, made it 28% longer then; after them it
    // cost nothing), so run scripts/bench-varlen-sim.sh after any change.
    func.func private @q_operands_in_lds(%rt: index, %d: index) -> i1 {
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %ni = func.call @issues(%d) : (index) -> index
      %n0 = arith.muli %rt, %ni : index
      %n = arith.muli %n0, %c8 : index
      %lds = arith.cmpi ugt, %n, %c32 : index
      return %lds : i1
    }

    // Where row tile t's Q operand image (@rotate_query) lives: its own 4 KiB
    // of @uq_decode_q_lds when the operands wait in LDS, else the start of
    // the one LDS region (read into registers before the next tile's).
    func.func private @q_image(%t: index, %rt: index, %d: index) -> !llvm.ptr<3> {
      %c4096 = arith.constant 4096 : index
      %c0_i32 = arith.constant 0 : i32
      %in_lds = func.call @q_operands_in_lds(%rt, %d) : (index, index) -> i1
      %o = arith.muli %t, %c4096 : index
      %oi = arith.index_cast %o : index to i32
      %q_lds = llvm.mlir.addressof @uq_decode_q_lds : !llvm.ptr<3>
      %own = llvm.getelementptr %q_lds[%oi] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %shared = func.call @lds_at(%c0_i32) : (i32) -> !llvm.ptr<3>
      %p = arith.select %in_lds, %own, %shared : !llvm.ptr<3>
      return %p : !llvm.ptr<3>
    }

    // The QK B operand of issue h from a Q operand image: lane l's 32 E4M3
    // bytes (query row l & 15 of the row tile, permuted elements [128h +
    // 32 (l >> 4), +32)).
    func.func private @q_image_operand(%img: !llvm.ptr<3>, %h: index) -> vector<8xi32> {
      %c5_i32 = arith.constant 5 : i32
      %c11_i32 = arith.constant 11 : i32
      %lane = func.call @lane() : () -> i32
      %hi = arith.index_cast %h : index to i32
      %b0 = arith.shli %hi, %c11_i32 : i32
      %b1 = arith.shli %lane, %c5_i32 : i32
      %o = arith.addi %b0, %b1 : i32
      %p = llvm.getelementptr %img[%o] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %w = llvm.load %p {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xi32>
      return %w : vector<8xi32>
    }

    // Row tile t's Q operands, both issues: from the block's registers %q,
    // or from LDS where they wait there (@q_operands_in_lds).
    func.func private @row_tile_q(%q: vector<4x2x8xi32>, %t: index, %rt: index, %d: index) -> vector<2x8xi32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %ni = func.call @issues(%d) : (index) -> index
      %in_lds = func.call @q_operands_in_lds(%rt, %d) : (index, index) -> i1
      %qt = scf.if %in_lds -> (vector<2x8xi32>) {
        %img = func.call @q_image(%t, %rt, %d) : (index, index, index) -> !llvm.ptr<3>
        %zq = arith.constant dense<0> : vector<2x8xi32>
        %ql = scf.for %h = %c0 to %ni step %c1 iter_args(%qa = %zq) -> (vector<2x8xi32>) {
          %qh = func.call @q_image_operand(%img, %h) : (!llvm.ptr<3>, index) -> vector<8xi32>
          %qn = vector.insert %qh, %qa[%h] : vector<8xi32> into vector<2x8xi32>
          scf.yield %qn : vector<2x8xi32>
        }
        scf.yield %ql : vector<2x8xi32>
      } else {
        %qr = vector.extract %q[%t] : vector<2x8xi32> from vector<4x2x8xi32>
        scf.yield %qr : vector<2x8xi32>
      }
      return %qt : vector<2x8xi32>
    }

    func.func private @lds_at(%offset: i32) -> !llvm.ptr<3> {
      %lds = llvm.mlir.addressof @uq_decode_lds : !llvm.ptr<3>
      %p = llvm.getelementptr %lds[%offset] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      return %p : !llvm.ptr<3>
    }

    // The two 32-lane halves' values for each lane, via v_permlane{16,32}_swap of
    // two copies: (value of lane l with bit 4 (or 5) clear, value with it set).
    func.func private @swap16(%x: i32) -> (i32, i32) {
      %s = rocdl.permlane16.swap %x, %x, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
      %a = llvm.extractvalue %s[0] : !llvm.struct<(i32, i32)>
      %b = llvm.extractvalue %s[1] : !llvm.struct<(i32, i32)>
      return %a, %b : i32, i32
    }
    func.func private @swap32(%x: i32) -> (i32, i32) {
      %s = rocdl.permlane32.swap %x, %x, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
      %a = llvm.extractvalue %s[0] : !llvm.struct<(i32, i32)>
      %b = llvm.extractvalue %s[1] : !llvm.struct<(i32, i32)>
      return %a, %b : i32, i32
    }

    // Reductions over the 16 tokens of a query row: the lane's four MFMA outputs,
    // then lanes l, l ^ 16, l ^ 32, l ^ 48. The row sum's lanes add only once
    // (@row_sum of the lanes' running sums, for the partial): every tile
    // adds a lane's own four weights to its own sum (@softmax_step).
    func.func private @row_max(%x: vector<4xf32>) -> f32 {
      %r = vector.reduction <maxnumf>, %x fastmath<nnan> : vector<4xf32> into f32
      %ri = arith.bitcast %r : f32 to i32
      %a:2 = func.call @swap16(%ri) : (i32) -> (i32, i32)
      %a0 = arith.bitcast %a#0 : i32 to f32
      %a1 = arith.bitcast %a#1 : i32 to f32
      %am = arith.maxnumf %a0, %a1 fastmath<nnan> : f32
      %ami = arith.bitcast %am : f32 to i32
      %b:2 = func.call @swap32(%ami) : (i32) -> (i32, i32)
      %b0 = arith.bitcast %b#0 : i32 to f32
      %b1 = arith.bitcast %b#1 : i32 to f32
      %bm = arith.maxnumf %b0, %b1 fastmath<nnan> : f32
      return %bm : f32
    }
    func.func private @row_sum(%x: f32) -> f32 {
      %ri = arith.bitcast %x : f32 to i32
      %a:2 = func.call @swap16(%ri) : (i32) -> (i32, i32)
      %a0 = arith.bitcast %a#0 : i32 to f32
      %a1 = arith.bitcast %a#1 : i32 to f32
      %as = arith.addf %a0, %a1 : f32
      %asi = arith.bitcast %as : f32 to i32
      %b:2 = func.call @swap32(%asi) : (i32) -> (i32, i32)
      %b0 = arith.bitcast %b#0 : i32 to f32
      %b1 = arith.bitcast %b#1 : i32 to f32
      %bs = arith.addf %b0, %b1 : f32
      return %bs : f32
    }

    // ---- Q: rotate rows row0 .. row0 + 15 of the query block (one MFMA row
    // tile) into its Q operand image at %img in LDS: E4M3 bytes at the scaled
    // MFMA's permuted K positions, in the QK B operand's lane order
    // (@q_image_operand): permuted position p of tile row r at byte 2048 (p
    // >> 7) + 32 (16 ((p >> 5) & 3) + r) + (p & 31), i.e. issue p >> 7, lane
    // 16 ((p >> 5) & 3) + r, byte p & 31. The image is the whole operand:
    // rows past live_rows are zeros (their lanes re-read the last live row,
    // then store zeros), and so is the D = 64 padding (K >= 64: bytes 16..31
    // of every lane). Row r of a block is its query token r / QG (from token
    // tok0 of the query tensor) and head kvh * QG + r % QG, so a decode's
    // rows are its QG heads. D / 32 lanes hold a row, 32
    // head dims each; a pass rotates 64 / (D / 32) rows, and `tile_rows`
    // (16, or the rows of a smaller block) sets the passes. Butterfly order
    // (the host reference matches it): strides 1, 2, 4, 8, 16 in registers,
    // then 32, 64, 128 across lanes (ds_swizzle xor 1, 2, 4); pair (a, b) ->
    // (a + b, a - b); then x 1/sqrt(D).
    func.func private @rotate_query(%query: !llvm.ptr<1>, %q_stride_seq: i32, %q_stride_head: i32,
                                    %tok0: i32, %kvh: i32, %qgi: i32, %live_rows: i32, %row0: i32,
                                    %tile_rows: index, %img: !llvm.ptr<3>, %d: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c1_i64 = arith.constant 1 : i64
      %c2_i32 = arith.constant 2 : i32
      %c3_i32 = arith.constant 3 : i32
      %c4_i32 = arith.constant 4 : i32
      %c5_i32 = arith.constant 5 : i32
      %c6_i32 = arith.constant 6 : i32
      %c8_i32 = arith.constant 8 : i32
      %c7_i32 = arith.constant 7 : i32
      %c9_i32 = arith.constant 9 : i32
      %c11_i32 = arith.constant 11 : i32
      %c16_i32 = arith.constant 16 : i32
      %c31_i32 = arith.constant 31 : i32
      %c32_i32 = arith.constant 32 : i32
      %max_records = arith.constant 2147483647 : i64
      %lane = func.call @lane() : () -> i32
      %padded = arith.cmpi eq, %d, %c64 : index
      // lanes per row (a power of two) and rows per pass
      %lpr_ix = arith.divui %d, %c32 : index
      %rpp_ix = arith.divui %c64, %lpr_ix : index
      %lpr = arith.index_cast %lpr_ix : index to i32
      %rpp = arith.index_cast %rpp_ix : index to i32
      %lpr_mask = arith.subi %lpr, %c1_i32 : i32
      %chunk = arith.andi %lane, %lpr_mask : i32
      %lrow = arith.divui %lane, %lpr : i32
      // this lane's first element at its permuted position:
      // dest(d) = (d & 0x8F) | ((d >> 2) & 0x10) | ((d << 1) & 0x60), d = 32 * chunk
      %p0 = arith.andi %chunk, %c2_i32 : i32
      %p1 = arith.shli %p0, %c3_i32 : i32
      %p2 = arith.andi %chunk, %c1_i32 : i32
      %p3 = arith.shli %p2, %c6_i32 : i32
      %p4 = arith.andi %chunk, %c4_i32 : i32
      %p5 = arith.shli %p4, %c5_i32 : i32
      %p6 = arith.ori %p1, %p3 : i32
      %dest0 = arith.ori %p6, %p5 : i32
      // the block's query rows of this kv head: one descriptor at (token tok0,
      // head kvh * QG), 32-bit lane offsets (the plan bounds a block's span)
      %head0 = arith.muli %kvh, %qgi : i32
      %s64 = arith.extui %tok0 : i32 to i64
      %qss = arith.extui %q_stride_seq : i32 to i64
      %o0 = arith.muli %s64, %qss : i64
      %h64 = arith.extui %head0 : i32 to i64
      %qsh = arith.extui %q_stride_head : i32 to i64
      %o1 = arith.muli %h64, %qsh : i64
      %o2 = arith.addi %o0, %o1 : i64
      %base = arith.shli %o2, %c1_i64 : i64
      %rsrc = "uq.buffer_rsrc"(%query, %base, %max_records) : (!llvm.ptr<1>, i64, i64) -> !llvm.ptr<8>
      %last_row = arith.subi %live_rows, %c1_i32 : i32
      %rows_up = arith.addi %tile_rows, %rpp_ix : index
      %rows_up1 = arith.subi %rows_up, %c1 : index
      %npass = arith.divui %rows_up1, %rpp_ix : index
      %zero = arith.constant dense<0.0> : vector<4x8xf32>
      scf.for %pass = %c0 to %npass step %c1 {
        %pi = arith.index_cast %pass : index to i32
        %pr = arith.muli %pi, %rpp : i32
        %trow = arith.addi %lrow, %pr : i32
        %row = arith.addi %row0, %trow : i32
        %src_row = arith.minui %row, %last_row : i32
        %tok = arith.divui %src_row, %qgi : i32
        %tq = arith.muli %tok, %qgi : i32
        %head = arith.subi %src_row, %tq : i32
        %e0a = arith.muli %tok, %q_stride_seq : i32
        %e0b = arith.muli %head, %q_stride_head : i32
        %e0 = arith.addi %e0a, %e0b : i32
        %e1 = arith.muli %chunk, %c32_i32 : i32
        %e2 = arith.addi %e0, %e1 : i32
        %src = arith.shli %e2, %c1_i32 : i32
        %x2 = scf.for %c = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (vector<4x8xf32>) {
          %ci = arith.index_cast %c : index to i32
          %co = arith.muli %ci, %c16_i32 : i32
          %off = arith.addi %src, %co : i32
          %w = rocdl.raw.ptr.buffer.load %rsrc, %off, %c0_i32, %c0_i32 : vector<4xi32>
          %b = vector.bitcast %w : vector<4xi32> to vector<8xbf16>
          %f = arith.extf %b : vector<8xbf16> to vector<8xf32>
          %n = vector.insert %f, %acc[%c] : vector<8xf32> into vector<4x8xf32>
          scf.yield %n : vector<4x8xf32>
        }
        %x = vector.shape_cast %x2 : vector<4x8xf32> to vector<32xf32>
        %r = "uq.wht"(%x, %d) : (vector<32xf32>, index) -> vector<32xf32>
        // E4M3 through v_cvt_pk_fp8_f32 (the code object's overflow rule)
        %e8 = "uq.e4m3_pack"(%r) : (vector<32xf32>) -> vector<8xi32>
        %row_live = arith.cmpi ult, %row, %live_rows : i32
        %zero8 = arith.constant dense<0> : vector<8xi32>
        %e8l = arith.select %row_live, %e8, %zero8 : vector<8xi32>
        %e4 = vector.shape_cast %e8l : vector<8xi32> to vector<4x2xi32>
        // the MFMA tile has 16 rows (D = 64 rotates 32 rows a pass)
        %in_tile = arith.cmpi ult, %trow, %c16_i32 : i32
        scf.if %in_tile {
          %dst_row = arith.muli %trow, %c32_i32 : i32
          // eight consecutive elements stay consecutive under dest(): chunk c of
          // the lane's 32 goes to p = dest0 + (c & 1) * 8 + (c >> 1) * 32
          scf.for %c = %c0 to %c4 step %c1 {
            %ci = arith.index_cast %c : index to i32
            %lo = arith.andi %ci, %c1_i32 : i32
            %lo8 = arith.muli %lo, %c8_i32 : i32
            %hi = arith.shrui %ci, %c1_i32 : i32
            %hi32 = arith.muli %hi, %c32_i32 : i32
            %d0 = arith.addi %dest0, %lo8 : i32
            %pp = arith.addi %d0, %hi32 : i32
            %ph = arith.shrui %pp, %c7_i32 : i32
            %b0 = arith.shli %ph, %c11_i32 : i32
            %pj0 = arith.shrui %pp, %c5_i32 : i32
            %pj = arith.andi %pj0, %c3_i32 : i32
            %b1 = arith.shli %pj, %c9_i32 : i32
            %pe = arith.andi %pp, %c31_i32 : i32
            %b2 = arith.addi %b0, %b1 : i32
            %b3 = arith.addi %b2, %pe : i32
            %off = arith.addi %b3, %dst_row : i32
            %ptr = llvm.getelementptr %img[%off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %v = vector.extract %e4[%c] : vector<2xi32> from vector<4x2xi32>
            llvm.store %v, %ptr {alignment = 8 : i64} : vector<2xi32>, !llvm.ptr<3>
            // D = 64: the run at byte 0 of a lane's 32 also zeroes its bytes 16..31
            %even = arith.cmpi eq, %lo, %c0_i32 : i32
            %pad = arith.andi %padded, %even : i1
            scf.if %pad {
              %c16o = arith.addi %off, %c16_i32 : i32
              %zp = llvm.getelementptr %img[%c16o] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
              %z4 = arith.constant dense<0> : vector<4xi32>
              llvm.store %z4, %zp {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
            }
          }
        }
        // keep the passes apart once unrolled (QG 16): two interleaved passes spill
        rocdl.sched.barrier 0
      }
      return
    }

    // ---- per-lane byte offsets of the KV loads inside a token's slot row
    // (add the token's row offset): K codes of issue h, V codes of 16-byte load
    // h, the K and V scale words. Slot: K codes [0, D/2), K scales
    // [D/2, D/2 + D/32), V codes [.., D + D/32), V scales [.., D + D/16).
    func.func private @kv_lane_offsets(%kvh: i32, %padded_slot: i32, %pos_stride: i32, %d: index)
        -> (vector<2xi32>, vector<2xi32>, i32, i32) {
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c3_i32 = arith.constant 3 : i32
      %c4_i32 = arith.constant 4 : i32
      %c5_i32 = arith.constant 5 : i32
      %c7_i32 = arith.constant 7 : i32
      %c15_i32 = arith.constant 15 : i32
      %c16_i32 = arith.constant 16 : i32
      %not3 = arith.constant -4 : i32
      %issue_bytes = arith.constant dense<[0, 64]> : vector<2xi32>
      %load_bytes = arith.constant dense<[0, 16]> : vector<2xi32>
      %di = arith.index_cast %d : index to i32
      %ni_ix = func.call @issues(%d) : (index) -> index
      %ni = arith.index_cast %ni_ix : index to i32
      %k_scales = arith.shrui %di, %c1_i32 : i32
      %d32 = arith.shrui %di, %c5_i32 : i32
      %v_codes = arith.addi %k_scales, %d32 : i32
      %v_scales = arith.addi %di, %d32 : i32
      %lane = func.call @lane() : () -> i32
      %head = arith.muli %kvh, %padded_slot : i32
      // K: token l & 15, lane group j reads group 4h + j of issue h
      %ktok = arith.andi %lane, %c15_i32 : i32
      %j = arith.shrui %lane, %c4_i32 : i32
      %k0 = arith.muli %ktok, %pos_stride : i32
      %krow = arith.addi %k0, %head : i32
      %k1 = arith.muli %j, %c16_i32 : i32
      %k2 = arith.addi %krow, %k1 : i32
      %k3 = vector.broadcast %k2 : i32 to vector<2xi32>
      %k_offs = arith.addi %k3, %issue_bytes : vector<2xi32>
      // scale word j & (issues - 1): D = 256 rows alternate words 0 and 1
      %nim = arith.subi %ni, %c1_i32 : i32
      %k4 = arith.andi %j, %nim : i32
      %k5 = arith.muli %k4, %c4_i32 : i32
      %k6 = arith.addi %k_scales, %k5 : i32
      %ks_off = arith.addi %krow, %k6 : i32
      // V: token l >> 2, chunk c = l & 3 = head dims [c D/4, (c + 1) D/4): D/8
      // bytes (D = 64: one 8-byte load, see @tile_loads)
      %vtok = arith.shrui %lane, %c2_i32 : i32
      %chunk = arith.andi %lane, %c3_i32 : i32
      %v0 = arith.muli %vtok, %pos_stride : i32
      %vrow = arith.addi %v0, %head : i32
      %d8 = arith.shrui %di, %c3_i32 : i32
      %v1 = arith.muli %chunk, %d8 : i32
      %v2 = arith.addi %v_codes, %v1 : i32
      %v3 = arith.addi %vrow, %v2 : i32
      %v4 = vector.broadcast %v3 : i32 to vector<2xi32>
      %v_offs = arith.addi %v4, %load_bytes : vector<2xi32>
      // the 4-byte word holding the chunk's scale bytes (first group c D / 128,
      // rounded down: D = 64 chunks 0, 1 are group 0)
      %cd = arith.muli %chunk, %di : i32
      %g0 = arith.shrui %cd, %c7_i32 : i32
      %v5 = arith.addi %v_scales, %g0 : i32
      %v6 = arith.andi %v5, %not3 : i32
      %vs_off = arith.addi %vrow, %v6 : i32
      return %k_offs, %v_offs, %ks_off, %vs_off : vector<2xi32>, vector<2xi32>, i32, i32
    }

    // ---- the first token of tile t: partition p walks the 256-token groups that
    // start at win_base + (p + k*P) * 256; tile t is group t >> 4, tile t & 15.
    func.func private @tile_first(%t: i32, %part: i32, %num_partitions: i32, %win_base: i32) -> i32 {
      %c4_i32 = arith.constant 4 : i32
      %c8_i32 = arith.constant 8 : i32
      %c15_i32 = arith.constant 15 : i32
      %g = arith.shrui %t, %c4_i32 : i32
      %i = arith.andi %t, %c15_i32 : i32
      %g1 = arith.muli %g, %num_partitions : i32
      %g2 = arith.addi %part, %g1 : i32
      %g3 = arith.shli %g2, %c8_i32 : i32
      %g4 = arith.addi %g3, %win_base : i32
      %i1 = arith.shli %i, %c4_i32 : i32
      %first = arith.addi %g4, %i1 : i32
      return %first : i32
    }

    // ---- the KV loads of the tile starting at token `first`: the block's 64-bit
    // byte offset goes into the descriptor base (caches over 4 GiB do not wrap),
    // the token's row offset into soffset. `records` = 0 makes every load read
    // zeros without touching memory (the prefetch past the last tile).
    func.func private @tile_loads(%kv_cache: !llvm.ptr<1>, %block_tables: !llvm.ptr<1>, %first: i32,
                                  %records: i64, %bs_shift: i32, %bs_mask: i32, %bt_row: i64,
                                  %blk_bytes: i64, %pos_stride: i32, %k_offs: vector<2xi32>,
                                  %v_offs: vector<2xi32>, %ks_off: i32, %vs_off: i32, %d: index)
        -> (vector<2x4xi32>, vector<2x4xi32>, i32, i32) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c0_i32 = arith.constant 0 : i32
      %blk = arith.shrui %first, %bs_shift : i32
      %in_blk = arith.andi %first, %bs_mask : i32
      %blk64 = arith.extui %blk : i32 to i64
      %entry = arith.addi %bt_row, %blk64 : i64
      %bt = llvm.getelementptr %block_tables[%entry] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
      %phys = llvm.load %bt invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
      %phys64 = arith.extui %phys : i32 to i64
      %blk_off = arith.muli %phys64, %blk_bytes : i64
      %rsrc = "uq.buffer_rsrc"(%kv_cache, %blk_off, %records) : (!llvm.ptr<1>, i64, i64) -> !llvm.ptr<8>
      %row = arith.muli %in_blk, %pos_stride : i32
      %zero = arith.constant dense<0> : vector<2x4xi32>
      %ni = func.call @issues(%d) : (index) -> index
      // D = 64 fills half an issue: lane groups 2 and 3 (K 64..127) hold zeros
      %lane = func.call @lane() : () -> i32
      %c4_i32 = arith.constant 4 : i32
      %c5_i32 = arith.constant 5 : i32
      %j = arith.shrui %lane, %c4_i32 : i32
      %di = arith.index_cast %d : index to i32
      %groups = arith.shrui %di, %c5_i32 : i32
      %k_live = arith.cmpi ult, %j, %groups : i32
      %zero4 = arith.constant dense<0> : vector<4xi32>
      // issued in the order of first use (K scales and codes for the scores,
      // then V), so that waiting for the first leaves the rest in flight
      %ksw = rocdl.raw.ptr.buffer.load %rsrc, %ks_off, %row, %c0_i32 : i32
      %kc = scf.for %h = %c0 to %ni step %c1 iter_args(%k = %zero) -> (vector<2x4xi32>) {
        %ko = vector.extract %k_offs[%h] : i32 from vector<2xi32>
        %kr = rocdl.raw.ptr.buffer.load %rsrc, %ko, %row, %c0_i32 : vector<4xi32>
        %kl = arith.select %k_live, %kr, %zero4 : vector<4xi32>
        %kn = vector.insert %kl, %k[%h] : vector<4xi32> into vector<2x4xi32>
        scf.yield %kn : vector<2x4xi32>
      }
      %vsw = rocdl.raw.ptr.buffer.load %rsrc, %vs_off, %row, %c0_i32 : i32
      %vc = scf.for %h = %c0 to %ni step %c1 iter_args(%v = %zero) -> (vector<2x4xi32>) {
        %vo = vector.extract %v_offs[%h] : i32 from vector<2xi32>
        // D = 64: a lane's chunk is 8 bytes; a 16-byte load would read past
        // the last slot of the cache (the condition folds per variant)
        %wide = arith.cmpi uge, %groups, %c4_i32 : i32
        %vl = scf.if %wide -> (vector<4xi32>) {
          %v16 = rocdl.raw.ptr.buffer.load %rsrc, %vo, %row, %c0_i32 : vector<4xi32>
          scf.yield %v16 : vector<4xi32>
        } else {
          %v8 = rocdl.raw.ptr.buffer.load %rsrc, %vo, %row, %c0_i32 : vector<2xi32>
          %v8x = vector.shuffle %v8, %v8 [0, 1, 2, 3] : vector<2xi32>, vector<2xi32>
          scf.yield %v8x : vector<4xi32>
        }
        %vn = vector.insert %vl, %v[%h] : vector<4xi32> into vector<2x4xi32>
        scf.yield %vn : vector<2x4xi32>
      }
      return %kc, %vc, %ksw, %vsw : vector<2x4xi32>, vector<2x4xi32>, i32, i32
    }

    // ---- the QK scores of one row tile: C[token][query row] over the K = 128
    // issues; A = K FP4 with its UE8M0 scale, B = Q E4M3 (scale 0x7F = 1);
    // the raw dot products (@softmax_step applies the softmax scale).
    func.func private @qk_scores(%k: vector<2x4xi32>, %kscales: vector<2xi32>, %q: vector<2x8xi32>,
                                 %d: index) -> vector<4xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c0_i32 = arith.constant 0 : i32
      %c127_i32 = arith.constant 127 : i32
      %fp4 = arith.constant 4 : i32
      %e4m3 = arith.constant 0 : i32
      %zero4 = arith.constant dense<0.0> : vector<4xf32>
      %ni = func.call @issues(%d) : (index) -> index
      %s0 = scf.for %h = %c0 to %ni step %c1 iter_args(%c = %zero4) -> (vector<4xf32>) {
        %a = vector.extract %k[%h] : vector<4xi32> from vector<2x4xi32>
        %b = vector.extract %q[%h] : vector<8xi32> from vector<2x8xi32>
        %sa = vector.extract %kscales[%h] : i32 from vector<2xi32>
        %mf = rocdl.mfma.scale.f32.16x16x128.f8f6f4 %a, %b, %c, %fp4, %e4m3, %c0_i32, %sa, %c0_i32, %c127_i32 : (vector<4xi32>, vector<8xi32>, vector<4xf32>, i32, i32, i32, i32, i32, i32) -> vector<4xf32>
        scf.yield %mf : vector<4xf32>
      }
      return %s0 : vector<4xf32>
    }

    // ---- the lane's scores (tokens first + 4j + i, its query row) outside the
    // row's own positions [ws, ws + wl) become -inf (select: garbage K never
    // survives).
    func.func private @mask_scores(%s: vector<4xf32>, %first: i32, %ws: i32, %wl: i32) -> vector<4xf32> {
      %c2_i32 = arith.constant 2 : i32
      %c4_i32 = arith.constant 4 : i32
      %ninf = arith.constant 0xFF800000 : f32
      %lane_tok_base = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
      %lane = func.call @lane() : () -> i32
      %j = arith.shrui %lane, %c4_i32 : i32
      %t0 = arith.shli %j, %c2_i32 : i32
      %t1 = arith.addi %first, %t0 : i32
      %t2 = vector.broadcast %t1 : i32 to vector<4xi32>
      %tok = arith.addi %t2, %lane_tok_base : vector<4xi32>
      %ws4 = vector.broadcast %ws : i32 to vector<4xi32>
      %rel = arith.subi %tok, %ws4 : vector<4xi32>
      %wl4 = vector.broadcast %wl : i32 to vector<4xi32>
      %in = arith.cmpi ult, %rel, %wl4 : vector<4xi32>
      %ninf4 = vector.broadcast %ninf : f32 to vector<4xf32>
      %sm = arith.select %in, %s, %ninf4 : vector<4xi1>, vector<4xf32>
      return %sm : vector<4xf32>
    }

    // The score a tile must pass to move the running max %m (@lazy_max):
    // m + 8 ln 2.
    func.func private @lazy_limit(%m: f32) -> f32 {
      %slack = arith.constant 5.54517744447956247533 : f32
      %lim = arith.addf %m, %slack : f32
      return %lim : f32
    }

    // ---- a row's running max after a tile whose max is %tile: it moves only
    // when the tile passes it by more than 8 ln 2, so the weights e^(x - m)
    // stay <= 2^8 (exact scale in bf16 and fp32) and the accumulators'
    // rescale (a vote, then D / 8 multiplies a row tile) runs on the few
    // tiles that jump, not whenever a maximum creeps up. From -inf any
    // finite tile moves it; NaN scores (maxnum ignores them) never do.
    func.func private @lazy_max(%m: f32, %tile: f32) -> f32 {
      %lim = func.call @lazy_limit(%m) : (f32) -> f32
      %up = arith.cmpf ogt, %tile, %lim : f32
      %mx = arith.maxnumf %m, %tile fastmath<nnan> : f32
      %r = arith.select %up, %mx, %m : f32
      return %r : f32
    }

    // ---- one row tile's online softmax step in base 2: the new running max
    // and sum, the rescale factor of the old state and bf16 P for the PV
    // MFMA (the running sum keeps fp32). A row whose max is still -inf (the
    // tile holds none of its tokens yet, in a varlen block) weighs from 0:
    // alpha = 0 on l = 0, p = 0; a decode's processed tile always holds a
    // token of every row, so there the guard never fires (NaN scores, a
    // non-finite query, still make the row NaN). %s are the raw scores: the
    // maxima are scaled after the reductions (scale > 0 keeps the order:
    // the same bits as maxima of scaled scores), the weights take the scale
    // and log2 e in one fma, p = 2^(s * scale_log2e - base * log2 e),
    // scale_log2e = scale * log2 e rounded once for the kernel.
    func.func private @softmax_step(%m: f32, %l: f32, %s: vector<4xf32>, %scale: f32,
                                    %scale_log2e: f32) -> (f32, f32, f32, vector<4xi16>, i1) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %ninf = arith.constant 0xFF800000 : f32
      %zero_f = arith.constant 0.0 : f32
      %log2e = arith.constant 1.44269504088896340736 : f32
      %zero4 = arith.constant dense<0.0> : vector<4xf32>
      // The maximum moves only where some lane's own scores pass the
      // lazy limit (@lazy_max), which one ballot finds: only then do the
      // row's cross-lane reductions run (the same maximum, bit for bit:
      // where no lane passes, no row's tile maximum does).
      %own_raw = vector.reduction <maxnumf>, %s fastmath<nnan> : vector<4xf32> into f32
      %own = arith.mulf %own_raw, %scale : f32
      %lim = func.call @lazy_limit(%m) : (f32) -> f32
      %up = arith.cmpf ogt, %own, %lim : f32
      %ballot = rocdl.ballot %up : i64
      %c0_i64 = arith.constant 0 : i64
      %any = arith.cmpi ne, %ballot, %c0_i64 : i64
      // the old state's rescale factor 2^((m - base) log2 e) is exactly 1
      // where the maximum stays: computed only where it may move (a row
      // still at -inf keeps 1, not 0: its state is 0 or NaN either way)
      %mv:3 = scf.if %any -> (f32, f32, f32) {
        %tmax_raw = func.call @row_max(%s) : (vector<4xf32>) -> f32
        %tmax = arith.mulf %tmax_raw, %scale : f32
        %mm = func.call @lazy_max(%m, %tmax) : (f32, f32) -> f32
        %mempty = arith.cmpf oeq, %mm, %ninf : f32
        %mbase = arith.select %mempty, %zero_f, %mm : f32
        %da = arith.subf %m, %mbase : f32
        %dal = arith.mulf %da, %log2e : f32
        %a = rocdl.exp2 %dal f32 -> f32
        %la = arith.mulf %l, %a : f32
        scf.yield %mm, %a, %la : f32, f32, f32
      } else {
        %one = arith.constant 1.0 : f32
        scf.yield %m, %one, %l : f32, f32, f32
      }
      %empty = arith.cmpf oeq, %mv#0, %ninf : f32
      %base = arith.select %empty, %zero_f, %mv#0 : f32
      %bl = arith.mulf %base, %log2e : f32
      %nbl = arith.negf %bl : f32
      %nbl4 = vector.broadcast %nbl : f32 to vector<4xf32>
      %sl4 = vector.broadcast %scale_log2e : f32 to vector<4xf32>
      %ps = math.fma %s, %sl4, %nbl4 : vector<4xf32>
      %p = scf.for %i = %c0 to %c4 step %c1 iter_args(%pv = %zero4) -> (vector<4xf32>) {
        %x = vector.extract %ps[%i] : f32 from vector<4xf32>
        %e = rocdl.exp2 %x f32 -> f32
        %n = vector.insert %e, %pv[%i] : f32 into vector<4xf32>
        scf.yield %n : vector<4xf32>
      }
      // the lane's running sum of its own tokens (@row_sum adds the lanes)
      %psum = vector.reduction <add>, %p : vector<4xf32> into f32
      %nl = arith.addf %mv#2, %psum : f32
      %pb = arith.truncf %p : vector<4xf32> to vector<4xbf16>
      %pi = vector.bitcast %pb : vector<4xbf16> to vector<4xi16>
      return %mv#0, %nl, %mv#1, %pi, %any : f32, f32, f32, vector<4xi16>, i1
    }

    // Whether the block's PV runs on pairs of row tiles, as the 32 columns of
    // v_mfma_f32_32x32x16_bf16 (a block of 2 or 4 row tiles), instead of
    // single row tiles as the 16 columns of v_mfma_f32_16x16x16_bf16: a
    // quarter of the MFMAs for the same sums (each output still adds one
    // tile's 16 products to its accumulator, the host reference's order).
    // Accumulator slots of pair p and 32 head dims u (@acc_block): row tile
    // 2p + (u & 1), head-dim slots 4 (u >> 1) .. + 3, register r of the
    // 32x32 output = slot 4 (u >> 1) + r / 4, element r % 4: head dim 32u +
    // 8 (r / 4) + 4 (l >> 5) + r % 4 of query row 32p + (l & 31).
    func.func private @pv_pairs(%rt: index) -> i1 {
      %c2 = arith.constant 2 : index
      %w = arith.cmpi uge, %rt, %c2 : index
      return %w : i1
    }

    // The row tile whose accumulators hold pair p's head dims u (@pv_pairs),
    // and the first of their four head-dim slots.
    func.func private @pair_slots(%p: index, %u: index) -> (index, index) {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %p2 = arith.muli %p, %c2 : index
      %uo = arith.andi %u, %c1 : index
      %t = arith.addi %p2, %uo : index
      %uh = arith.shrui %u, %c1 : index
      %i0 = arith.muli %uh, %c4 : index
      return %t, %i0 : index, index
    }

    // The accumulators of pair p, head dims u, as the 32x32 MFMA's C, and back.
    func.func private @acc_block(%acc: vector<4x16x4xf32>, %p: index, %u: index) -> vector<16xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %s:2 = func.call @pair_slots(%p, %u) : (index, index) -> (index, index)
      %z = arith.constant dense<0.0> : vector<4x4xf32>
      %b = scf.for %k = %c0 to %c4 step %c1 iter_args(%bk = %z) -> (vector<4x4xf32>) {
        %i = arith.addi %s#1, %k : index
        %x = vector.extract %acc[%s#0, %i] : vector<4xf32> from vector<4x16x4xf32>
        %n = vector.insert %x, %bk[%k] : vector<4xf32> into vector<4x4xf32>
        scf.yield %n : vector<4x4xf32>
      }
      %f = vector.shape_cast %b : vector<4x4xf32> to vector<16xf32>
      return %f : vector<16xf32>
    }
    func.func private @acc_set_block(%acc: vector<4x16x4xf32>, %blk: vector<16xf32>, %p: index,
                                     %u: index) -> vector<4x16x4xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %s:2 = func.call @pair_slots(%p, %u) : (index, index) -> (index, index)
      %b = vector.shape_cast %blk : vector<16xf32> to vector<4x4xf32>
      %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %acc) -> (vector<4x16x4xf32>) {
        %i = arith.addi %s#1, %k : index
        %x = vector.extract %b[%k] : vector<4xf32> from vector<4x4xf32>
        %n = vector.insert %x, %a[%s#0, %i] : vector<4xf32> into vector<4x16x4xf32>
        scf.yield %n : vector<4x16x4xf32>
      }
      return %r : vector<4x16x4xf32>
    }

    // The two row tiles of the pair that holds row tile t (@pv_pairs).
    func.func private @pair_tiles(%t: index) -> (index, index) {
      %c1 = arith.constant 1 : index
      %te = arith.andi %t, %c1 : index
      %t0 = arith.subi %t, %te : index
      %t1 = arith.addi %t0, %c1 : index
      return %t0, %t1 : index, index
    }

    // The lane's value of a per-row-tile quantity (m, l, alpha: every lane
    // holds row l & 15 of each row tile) for the accumulators of row tile t:
    // t's own, or with @pv_pairs the pair's tile of the lane's column (row
    // tile 2 (t / 2) + ((l >> 4) & 1)).
    func.func private @acc_row_value(%x: vector<4xf32>, %t: index, %rt: index) -> f32 {
      %c4_i32 = arith.constant 4 : i32
      %c1_i32 = arith.constant 1 : i32
      %c0_i32 = arith.constant 0 : i32
      %wide = func.call @pv_pairs(%rt) : (index) -> i1
      %xt = vector.extract %x[%t] : f32 from vector<4xf32>
      %lane = func.call @lane() : () -> i32
      %h0 = arith.shrui %lane, %c4_i32 : i32
      %h = arith.andi %h0, %c1_i32 : i32
      %upper = arith.cmpi ne, %h, %c0_i32 : i32
      %tp:2 = func.call @pair_tiles(%t) : (index) -> (index, index)
      %x0 = vector.extract %x[%tp#0] : f32 from vector<4xf32>
      %x1 = vector.extract %x[%tp#1] : f32 from vector<4xf32>
      %xp = arith.select %upper, %x1, %x0 : f32
      %r = arith.select %wide, %xp, %xt : f32
      return %r : f32
    }

    // ---- PV of one tile for its n row tiles: per 16 head dims one
    // transposed read of V for the MFMAs of every row tile (@pv_pairs: per 32
    // head dims two reads for every pair), so one read's registers are live
    // at a time, not D/16 of them beside the accumulators. A row tile past
    // live_rows has P = 0 (V is finite: out-of-range tokens' scales are 0,
    // @tile_step): its MFMAs add zeros, cheaper than a branch per MFMA.
    // LDS transpose reads (16-lane groups, ds_read_b64_tr_b16): lane 4i + s
    // of a group reads token row R + i, head dims C + 4s .. + 3, and lane j
    // receives head dim C + j of tokens R .. R + 3. 16x16: group G reads
    // tokens 4G.. (K of the 16x16x16 A operand), dims 16i..; 32x32: group G
    // reads tokens 8 (G >> 1) .. (+ 4 for the second read), dims 32u + 16 (G
    // & 1) .. (A[m = l & 31][k = 8 (l >> 5) + e]).
    func.func private @pv_tiles(%acc: vector<4x16x4xf32>, %p: vector<4x4xi16>, %n: index,
                                %d: index) -> vector<4x16x4xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c3_i32 = arith.constant 3 : i32
      %c4_i32 = arith.constant 4 : i32
      %c5_i32 = arith.constant 5 : i32
      %c8_i32 = arith.constant 8 : i32
      %c32_i32 = arith.constant 32 : i32
      %c64_i32 = arith.constant 64 : i32
      %vrb = func.call @v_row_bytes(%d) : (index) -> i32
      %lane = func.call @lane() : () -> i32
      %q0 = arith.shrui %lane, %c2_i32 : i32
      %chunk = arith.andi %lane, %c3_i32 : i32
      %c8 = arith.muli %chunk, %c8_i32 : i32
      %wide = func.call @pv_pairs(%n) : (index) -> i1
      %r = scf.if %wide -> (vector<4x16x4xf32>) {
        // B of pair pp: one v_permlane16_swap per register of its two row
        // tiles' P (X, Y; 16-lane rows 0..3) gives (X0 Y0 X2 Y2) = tokens 8g
        // .. 8g + 3 and (X1 Y1 X3 Y3) = 8g + 4 .. of column l & 31.
        %np = arith.divui %n, %c2 : index
        %zb = arith.constant dense<0> : vector<2x4xi32>
        %bs = scf.for %pp = %c0 to %np step %c1 iter_args(%ba = %zb) -> (vector<2x4xi32>) {
          %t0 = arith.muli %pp, %c2 : index
          %t1 = arith.addi %t0, %c1 : index
          %x16 = vector.extract %p[%t0] : vector<4xi16> from vector<4x4xi16>
          %y16 = vector.extract %p[%t1] : vector<4xi16> from vector<4x4xi16>
          %x = vector.bitcast %x16 : vector<4xi16> to vector<2xi32>
          %y = vector.bitcast %y16 : vector<4xi16> to vector<2xi32>
          %x0 = vector.extract %x[0] : i32 from vector<2xi32>
          %x1 = vector.extract %x[1] : i32 from vector<2xi32>
          %y0 = vector.extract %y[0] : i32 from vector<2xi32>
          %y1 = vector.extract %y[1] : i32 from vector<2xi32>
          %s0 = rocdl.permlane16.swap %x0, %y0, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
          %s1 = rocdl.permlane16.swap %x1, %y1, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
          %lo0 = llvm.extractvalue %s0[0] : !llvm.struct<(i32, i32)>
          %hi0 = llvm.extractvalue %s0[1] : !llvm.struct<(i32, i32)>
          %lo1 = llvm.extractvalue %s1[0] : !llvm.struct<(i32, i32)>
          %hi1 = llvm.extractvalue %s1[1] : !llvm.struct<(i32, i32)>
          %b = vector.from_elements %lo0, %lo1, %hi0, %hi1 : vector<4xi32>
          %bn = vector.insert %b, %ba[%pp] : vector<4xi32> into vector<2x4xi32>
          scf.yield %bn : vector<2x4xi32>
        }
        %g = arith.shrui %lane, %c5_i32 : i32
        %g8 = arith.muli %g, %c8_i32 : i32
        %qr = arith.andi %q0, %c3_i32 : i32
        %tok = arith.addi %g8, %qr : i32
        %h0 = arith.shrui %lane, %c4_i32 : i32
        %h = arith.andi %h0, %c1_i32 : i32
        %h32 = arith.muli %h, %c32_i32 : i32
        %t0b = arith.muli %tok, %vrb : i32
        %t1b = arith.addi %t0b, %h32 : i32
        %base = arith.addi %t1b, %c8 : i32
        %second = arith.muli %vrb, %c4_i32 : i32
        %nu = arith.divui %d, %c32 : index
        %ra = scf.for %u = %c0 to %nu step %c1 iter_args(%a = %acc) -> (vector<4x16x4xf32>) {
          %ui = arith.index_cast %u : index to i32
          %uo = arith.muli %ui, %c64_i32 : i32
          %off0 = arith.addi %base, %uo : i32
          %off1 = arith.addi %off0, %second : i32
          %p0 = func.call @lds_at(%off0) : (i32) -> !llvm.ptr<3>
          %p1 = func.call @lds_at(%off1) : (i32) -> !llvm.ptr<3>
          %v0 = rocdl.ds.read.tr16.b64 %p0 : !llvm.ptr<3> -> vector<4xi16>
          %v1 = rocdl.ds.read.tr16.b64 %p1 : !llvm.ptr<3> -> vector<4xi16>
          %v = vector.shuffle %v0, %v1 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xi16>, vector<4xi16>
          %va = vector.bitcast %v : vector<8xi16> to vector<8xbf16>
          %au = scf.for %pp = %c0 to %np step %c1 iter_args(%at = %a) -> (vector<4x16x4xf32>) {
            %bw = vector.extract %bs[%pp] : vector<4xi32> from vector<2x4xi32>
            %bb = vector.bitcast %bw : vector<4xi32> to vector<8xbf16>
            %c = func.call @acc_block(%at, %pp, %u) : (vector<4x16x4xf32>, index, index) -> vector<16xf32>
            %m = rocdl.mfma.f32.32x32x16.bf16 %va, %bb, %c, %c0_i32, %c0_i32, %c0_i32 : (vector<8xbf16>, vector<8xbf16>, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
            %atn = func.call @acc_set_block(%at, %m, %pp, %u) : (vector<4x16x4xf32>, vector<16xf32>, index, index) -> vector<4x16x4xf32>
            scf.yield %atn : vector<4x16x4xf32>
          }
          scf.yield %au : vector<4x16x4xf32>
        }
        scf.yield %ra : vector<4x16x4xf32>
      } else {
        %t0 = arith.muli %q0, %vrb : i32
        %tbase = arith.addi %t0, %c8 : i32
        %na = arith.divui %d, %c16 : index
        %rn = scf.for %i = %c0 to %na step %c1 iter_args(%a = %acc) -> (vector<4x16x4xf32>) {
          %ii = arith.index_cast %i : index to i32
          %io = arith.muli %ii, %c32_i32 : i32
          %off = arith.addi %tbase, %io : i32
          %ptr = func.call @lds_at(%off) : (i32) -> !llvm.ptr<3>
          %v = rocdl.ds.read.tr16.b64 %ptr : !llvm.ptr<3> -> vector<4xi16>
          %ai = scf.for %t = %c0 to %n step %c1 iter_args(%at = %a) -> (vector<4x16x4xf32>) {
            %pt = vector.extract %p[%t] : vector<4xi16> from vector<4x4xi16>
            %c = vector.extract %at[%t, %i] : vector<4xf32> from vector<4x16x4xf32>
            %m = rocdl.mfma.f32.16x16x16bf16.1k %v, %pt, %c, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
            %atn = vector.insert %m, %at[%t, %i] : vector<4xf32> into vector<4x16x4xf32>
            scf.yield %atn : vector<4x16x4xf32>
          }
          scf.yield %ai : vector<4x16x4xf32>
        }
        scf.yield %rn : vector<4x16x4xf32>
      }
      return %r : vector<4x16x4xf32>
    }

    // ---- one 16-token tile for the block's row tiles (rt of them; the
    // scores and softmax of those past live_rows skipped): scores, online
    // softmax, V to LDS once, PV for every row tile (@pv_tiles). State per
    // row tile: running row max m, running row sum l, the PV accumulators.
    // Lane l's row in row tile t is 16 t + (l & 15); its own positions are
    // [row_ws[t], row_ws[t] + row_wl[t]).
    func.func private @tile_step(%m: vector<4xf32>, %l: vector<4xf32>, %acc: vector<4x16x4xf32>,
                                 %k: vector<2x4xi32>, %vc: vector<2x4xi32>, %ksw: i32, %vsw: i32,
                                 %q: vector<4x2x8xi32>, %first: i32, %lim_lo: i32, %ws_hi: i32,
                                 %win_start: i32, %win_len: i32, %row_ws: vector<4xi32>,
                                 %row_wl: vector<4xi32>, %live_rows: i32, %softmax_scale: f32,
                                 %rt: index, %d: index)
        -> (vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c3_i32 = arith.constant 3 : i32
      %c4_i32 = arith.constant 4 : i32
      %c5_i32 = arith.constant 5 : i32
      %c16_i32 = arith.constant 16 : i32
      %c23_i32 = arith.constant 23 : i32
      %c64_i32 = arith.constant 64 : i32
      %c127_i32 = arith.constant 127 : i32
      %c255_i32 = arith.constant 255 : i32
      %v_row_bytes = func.call @v_row_bytes(%d) : (index) -> i32
      %ni = func.call @issues(%d) : (index) -> index
      %di = arith.index_cast %d : index to i32
      %one_f = arith.constant 1.0 : f32
      %log2e = arith.constant 1.44269504088896340736 : f32
      %scale_log2e = arith.mulf %softmax_scale, %log2e : f32
      %lane = func.call @lane() : () -> i32
      %j = arith.shrui %lane, %c4_i32 : i32
      %vtok = arith.shrui %lane, %c2_i32 : i32
      %chunk = arith.andi %lane, %c3_i32 : i32
      // K scales: lane l needs the byte of (token l & 15, group 4h + j). D = 256:
      // row j of 16 lanes loaded scale word j & 1; the swap gives every lane
      // word 0 (from row j & ~1) and word 1 (row j | 1). D <= 128: every row
      // loaded word 0. D = 64: lane groups 2, 3 (zero codes, the padding) get
      // scale 0x7F, not the V code bytes after the two scales.
      %ks:2 = func.call @swap16(%ksw) : (i32) -> (i32, i32)
      %ksh = arith.shli %j, %c3_i32 : i32
      %ks0 = arith.shrui %ks#0, %ksh : i32
      %ks1 = arith.shrui %ks#1, %ksh : i32
      %groups = arith.shrui %di, %c5_i32 : i32
      %k_live = arith.cmpi ult, %j, %groups : i32
      %ks0l = arith.select %k_live, %ks0, %c127_i32 : i32
      %kscales = vector.from_elements %ks0l, %ks1 : vector<2xi32>
      // Only a tile that reaches past the block's first row's last position
      // (lim_lo - 1) or starts before its last row's window (ws_hi) needs
      // masking (wave-uniform branch; a decode: past seq_len or before the
      // window): scores outside each row's own positions become -inf, and
      // the V scale word of tokens outside every row's, [win_start, win_start
      // + win_len), becomes 0 (E8M0 2^-127 times an FP4 value is finite), so
      // 0xFF garbage never meets p = 0 in the PV MFMA.
      %end = arith.addi %first, %c16_i32 : i32
      %past = arith.cmpi sgt, %end, %lim_lo : i32
      %before = arith.cmpi slt, %first, %ws_hi : i32
      %partial = arith.ori %past, %before : i1
      %vs = scf.if %partial -> (i32) {
        %vt = arith.addi %first, %vtok : i32
        %vrel = arith.subi %vt, %win_start : i32
        %vin = arith.cmpi ult, %vrel, %win_len : i32
        %vsm = arith.select %vin, %vsw, %c0_i32 : i32
        scf.yield %vsm : i32
      } else {
        scf.yield %vsw : i32
      }
      // QK and the softmax per row tile. Every processed tile holds a
      // position of the block; rows it holds none of keep their state.
      %ones4 = arith.constant dense<1.0> : vector<4xf32>
      %zp = arith.constant dense<0> : vector<4x4xi16>
      %zp1 = arith.constant dense<0> : vector<4xi16>
      %still = arith.constant dense<false> : vector<4xi1>
      %sm:5 = scf.for %t = %c0 to %rt step %c1 iter_args(%mv = %m, %lv = %l, %av = %ones4, %pv = %zp, %yv = %still) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4x4xi16>, vector<4xi1>) {
        %ti = arith.index_cast %t : index to i32
        %r0 = arith.muli %ti, %c16_i32 : i32
        %live = arith.cmpi slt, %r0, %live_rows : i32
        %mt = vector.extract %mv[%t] : f32 from vector<4xf32>
        %lt = vector.extract %lv[%t] : f32 from vector<4xf32>
        %res:5 = scf.if %live -> (f32, f32, f32, vector<4xi16>, i1) {
          %qt = func.call @row_tile_q(%q, %t, %rt, %d) : (vector<4x2x8xi32>, index, index, index) -> vector<2x8xi32>
          %s = func.call @qk_scores(%k, %kscales, %qt, %d) : (vector<2x4xi32>, vector<2xi32>, vector<2x8xi32>, index) -> vector<4xf32>
          %sk = scf.if %partial -> (vector<4xf32>) {
            %wst = vector.extract %row_ws[%t] : i32 from vector<4xi32>
            %wlt = vector.extract %row_wl[%t] : i32 from vector<4xi32>
            %mk = func.call @mask_scores(%s, %first, %wst, %wlt) : (vector<4xf32>, i32, i32, i32) -> vector<4xf32>
            scf.yield %mk : vector<4xf32>
          } else {
            scf.yield %s : vector<4xf32>
          }
          %st:5 = func.call @softmax_step(%mt, %lt, %sk, %softmax_scale, %scale_log2e) : (f32, f32, vector<4xf32>, f32, f32) -> (f32, f32, f32, vector<4xi16>, i1)
          scf.yield %st#0, %st#1, %st#2, %st#3, %st#4 : f32, f32, f32, vector<4xi16>, i1
        } else {
          %no = arith.constant false
          scf.yield %mt, %lt, %one_f, %zp1, %no : f32, f32, f32, vector<4xi16>, i1
        }
        %mn = vector.insert %res#0, %mv[%t] : f32 into vector<4xf32>
        %ln = vector.insert %res#1, %lv[%t] : f32 into vector<4xf32>
        %an = vector.insert %res#2, %av[%t] : f32 into vector<4xf32>
        %pn = vector.insert %res#3, %pv[%t] : vector<4xi16> into vector<4x4xi16>
        %yn = vector.insert %res#4, %yv[%t] : i1 into vector<4xi1>
        scf.yield %mn, %ln, %an, %pn, %yn : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4x4xi16>, vector<4xi1>
      }
      // V: FP4 -> bf16 with the UE8M0 scale fused, as bf16 rows of 2D + 16 B in
      // LDS, once for every row tile. Load h of chunk c is group g = floor(c D
      // / 128) + h (min(4, D/32) words of it): byte (D + D/32 + g) & 3 of the
      // scale word.
      %vr0 = arith.muli %vtok, %v_row_bytes : i32
      %d2 = arith.shrui %di, %c1_i32 : i32
      %vr1 = arith.muli %chunk, %d2 : i32
      %vrow = arith.addi %vr0, %vr1 : i32
      %c7_i32 = arith.constant 7 : i32
      %cd = arith.muli %chunk, %di : i32
      %g0 = arith.shrui %cd, %c7_i32 : i32
      %dg = arith.shrui %di, %c5_i32 : i32
      %v_scales = arith.addi %di, %dg : i32
      %vsg = arith.addi %v_scales, %g0 : i32
      %c32 = arith.constant 32 : index
      %d32 = arith.divui %d, %c32 : index
      %wpl = arith.minui %d32, %c4 : index
      scf.for %h = %c0 to %ni step %c1 {
        %hi = arith.index_cast %h : index to i32
        %g = arith.addi %vsg, %hi : i32
        %gb = arith.andi %g, %c3_i32 : i32
        %sh = arith.shli %gb, %c3_i32 : i32
        %sb = arith.shrui %vs, %sh : i32
        %sbyte = arith.andi %sb, %c255_i32 : i32
        %sbits = arith.shli %sbyte, %c23_i32 : i32
        %scale = arith.bitcast %sbits : i32 to f32
        %words = vector.extract %vc[%h] : vector<4xi32> from vector<2x4xi32>
        %hb = arith.muli %hi, %c64_i32 : i32
        %hrow = arith.addi %vrow, %hb : i32
        scf.for %i = %c0 to %wpl step %c1 {
          %ii = arith.index_cast %i : index to i32
          %w = vector.extract %words[%i] : i32 from vector<4xi32>
          %bf = "uq.fp4_to_bf16"(%w, %scale) : (i32, f32) -> vector<8xbf16>
          %ib = arith.muli %ii, %c16_i32 : i32
          %off = arith.addi %hrow, %ib : i32
          %ptr = func.call @lds_at(%off) : (i32) -> !llvm.ptr<3>
          llvm.store %bf, %ptr {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
        }
      }
      gpu.barrier
      // PV: C[head dim][query] += V^T P, A read through the LDS transpose once
      // for every row tile. First the accumulators of a row tile's slots are
      // rescaled, only when the softmax found a row max that may move (its
      // wave-uniform flag: skipping a multiply by exactly 1 changes nothing;
      // a row tile past live_rows keeps alpha 1), with @pv_pairs its pair's.
      %c16i = arith.constant 16 : index
      %na = arith.divui %d, %c16i : index
      %accr = scf.for %t = %c0 to %rt step %c1 iter_args(%a = %acc) -> (vector<4x16x4xf32>) {
        %alpha = func.call @acc_row_value(%sm#2, %t, %rt) : (vector<4xf32>, index, index) -> f32
        %wide = func.call @pv_pairs(%rt) : (index) -> i1
        %tp:2 = func.call @pair_tiles(%t) : (index) -> (index, index)
        %y0 = vector.extract %sm#4[%tp#0] : i1 from vector<4xi1>
        %y1 = vector.extract %sm#4[%tp#1] : i1 from vector<4xi1>
        %yp = arith.ori %y0, %y1 : i1
        %yt = vector.extract %sm#4[%t] : i1 from vector<4xi1>
        %any = arith.select %wide, %yp, %yt : i1
        %an = scf.if %any -> (vector<4x16x4xf32>) {
          %at = vector.extract %a[%t] : vector<16x4xf32> from vector<4x16x4xf32>
          %a4 = vector.broadcast %alpha : f32 to vector<4xf32>
          %r = scf.for %i = %c0 to %na step %c1 iter_args(%ar = %at) -> (vector<16x4xf32>) {
            %ai = vector.extract %ar[%i] : vector<4xf32> from vector<16x4xf32>
            %m4 = arith.mulf %ai, %a4 : vector<4xf32>
            %arn = vector.insert %m4, %ar[%i] : vector<4xf32> into vector<16x4xf32>
            scf.yield %arn : vector<16x4xf32>
          }
          %anew = vector.insert %r, %a[%t] : vector<16x4xf32> into vector<4x16x4xf32>
          scf.yield %anew : vector<4x16x4xf32>
        } else {
          scf.yield %a : vector<4x16x4xf32>
        }
        scf.yield %an : vector<4x16x4xf32>
      }
      %accn = func.call @pv_tiles(%accr, %sm#3, %rt, %d) : (vector<4x16x4xf32>, vector<4x4xi16>, index, index) -> vector<4x16x4xf32>
      gpu.barrier
      return %sm#0, %sm#1, %accn : vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>
    }

    // Four consecutive head dims of a workspace row: bf16 of a x inv at
    // element e (the row's first element plus the dims' offset).
    func.func private @store_out4(%segm_out: !llvm.ptr<1>, %e: i64, %a: vector<4xf32>, %inv: f32) {
      %inv4 = vector.broadcast %inv : f32 to vector<4xf32>
      %n = arith.mulf %a, %inv4 : vector<4xf32>
      %b = arith.truncf %n : vector<4xf32> to vector<4xbf16>
      %ptr = llvm.getelementptr %segm_out[%e] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
      llvm.store %b, %ptr {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
      return
    }

    // ---- outputs of a partition, per live row: bf16 partial normalized by its
    // own sum, fp32 max and sum (an empty partition writes 0, -inf, 0), at
    // workspace row ((token * Hk + kvh) * P + part) * QG + head (partials
    // [T, Hk, P, QG, D] by query token: a decode's [B, Hk, P, QG, D]). Each
    // lane addresses its own row in 64 bits (the rows of a block's tokens
    // lie Hk * P * QG rows apart). Rows by the PV's column groups: a row
    // tile's 16 (lane l: row l & 15, head dims 16i + 4 (l >> 4) ..), or with
    // @pv_pairs a pair's 32 (row l & 31, head dims 32u + 8k + 4 (l >> 5) ..).
    func.func private @store_partial(%segm_out: !llvm.ptr<1>, %segm_max: !llvm.ptr<1>,
                                     %segm_sum: !llvm.ptr<1>, %m: vector<4xf32>, %l: vector<4xf32>,
                                     %acc: vector<4x16x4xf32>, %tok0: i32, %kvh: i32, %part: i32,
                                     %num_kv_heads: i32, %num_partitions: i32, %qg: i32,
                                     %live_rows: i32, %rt: index, %d: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c16 = arith.constant 16 : index
      %na = arith.divui %d, %c16 : index
      %c4_i32 = arith.constant 4 : i32
      %c5_i32 = arith.constant 5 : i32
      %c8_i32 = arith.constant 8 : i32
      %c16_i32 = arith.constant 16 : i32
      %c32_i32 = arith.constant 32 : i32
      %zero_f = arith.constant 0.0 : f32
      %one_f = arith.constant 1.0 : f32
      %di = arith.index_cast %d : index to i32
      %d64 = arith.extui %di : i32 to i64
      %lane = func.call @lane() : () -> i32
      %wide = func.call @pv_pairs(%rt) : (index) -> i1
      %rt2 = arith.divui %rt, %c2 : index
      %groups = arith.select %wide, %rt2, %rt : index
      %span = arith.select %wide, %c32_i32, %c16_i32 : i32
      %c1_i32 = arith.constant 1 : i32
      %rmask = arith.subi %span, %c1_i32 : i32
      %row = arith.andi %lane, %rmask : i32
      %writer = arith.cmpi ult, %lane, %span : i32
      // the lane's first head dim of each 4: 4 (l >> 4) or 4 (l >> 5)
      %sh = arith.select %wide, %c5_i32, %c4_i32 : i32
      %lg = arith.shrui %lane, %sh : i32
      %lg4 = arith.muli %lg, %c4_i32 : i32
      %hk64 = arith.extui %num_kv_heads : i32 to i64
      %kvh64 = arith.extui %kvh : i32 to i64
      %np64 = arith.extui %num_partitions : i32 to i64
      %part64 = arith.extui %part : i32 to i64
      %qg64 = arith.extui %qg : i32 to i64
      scf.for %grp = %c0 to %groups step %c1 {
        %gi = arith.index_cast %grp : index to i32
        %r0 = arith.muli %gi, %span : i32
        %rho = arith.addi %r0, %row : i32
        %valid = arith.cmpi slt, %rho, %live_rows : i32
        scf.if %valid {
          %tau = arith.divui %rho, %qg : i32
          %tq = arith.muli %tau, %qg : i32
          %head = arith.subi %rho, %tq : i32
          %tok = arith.addi %tok0, %tau : i32
          %s64 = arith.extui %tok : i32 to i64
          %i0 = arith.muli %s64, %hk64 : i64
          %i1 = arith.addi %i0, %kvh64 : i64
          %i2 = arith.muli %i1, %np64 : i64
          %i3 = arith.addi %i2, %part64 : i64
          %i4 = arith.muli %i3, %qg64 : i64
          %h64 = arith.extui %head : i32 to i64
          %ridx = arith.addi %i4, %h64 : i64
          %g2 = arith.muli %grp, %c2 : index
          %t_first = arith.select %wide, %g2, %grp : index
          %mt = func.call @acc_row_value(%m, %t_first, %rt) : (vector<4xf32>, index, index) -> f32
          %lt = func.call @acc_row_value(%l, %t_first, %rt) : (vector<4xf32>, index, index) -> f32
          %pos = arith.cmpf ogt, %lt, %zero_f : f32
          %den = arith.select %pos, %lt, %one_f : f32
          %inv = arith.divf %one_f, %den : f32
          %e0 = arith.muli %ridx, %d64 : i64
          %lg64 = arith.extui %lg4 : i32 to i64
          %e1 = arith.addi %e0, %lg64 : i64
          scf.if %wide {
            // slots 4 (u >> 1) + k of row tile 2p + (u & 1): dims 32u + 8k
            %c8 = arith.constant 8 : index
            %ns = arith.divui %d, %c8 : index
            scf.for %sidx = %c0 to %ns step %c1 {
              %u = arith.shrui %sidx, %c2 : index
              %k = arith.andi %sidx, %c3 : index
              %sl:2 = func.call @pair_slots(%grp, %u) : (index, index) -> (index, index)
              %i = arith.addi %sl#1, %k : index
              %a = vector.extract %acc[%sl#0, %i] : vector<4xf32> from vector<4x16x4xf32>
              %si = arith.index_cast %sidx : index to i32
              %dim = arith.muli %si, %c8_i32 : i32
              %dim64 = arith.extui %dim : i32 to i64
              %e2 = arith.addi %e1, %dim64 : i64
              func.call @store_out4(%segm_out, %e2, %a, %inv) : (!llvm.ptr<1>, i64, vector<4xf32>, f32) -> ()
            }
          } else {
            scf.for %i = %c0 to %na step %c1 {
              %a = vector.extract %acc[%grp, %i] : vector<4xf32> from vector<4x16x4xf32>
              %ii = arith.index_cast %i : index to i32
              %dim = arith.muli %ii, %c16_i32 : i32
              %dim64 = arith.extui %dim : i32 to i64
              %e2 = arith.addi %e1, %dim64 : i64
              func.call @store_out4(%segm_out, %e2, %a, %inv) : (!llvm.ptr<1>, i64, vector<4xf32>, f32) -> ()
            }
          }
          scf.if %writer {
            %mp = llvm.getelementptr %segm_max[%ridx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %mt, %mp {alignment = 4 : i64} : f32, !llvm.ptr<1>
            %sp = llvm.getelementptr %segm_sum[%ridx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %lt, %sp {alignment = 4 : i64} : f32, !llvm.ptr<1>
          }
        }
      }
      return
    }

    // ---- the query block of this workgroup (grid x): its sequence, its first
    // token in the query tensor (tok0), its tokens (ntok, <= 0: none) and
    // the position of its first token in the sequence (pos0; it attends
    // positions < pos0 + 1). Without query_start_loc (a decode) block x is
    // sequence x's one token, row x of the query. Else sequence s's q_len =
    // qsl[s + 1] - qsl[s] tokens are the last of its seq_len, in blocks of bt
    // = floor(rows / QG) tokens: with search_seqs = 0 block x is sequence x's
    // first block (the launcher's max query length fits one); else (vLLM's
    // unified-attention grid) sequence s's blocks start at x = qsl[s] / bt
    // + s (qsl[s] for bt = 1, whose blocks tile the tokens exactly), found
    // by a binary search over the search_seqs sequences, and blocks past a
    // sequence's tokens have none.
    func.func private @query_block(%query_start_loc: !llvm.ptr<1>, %seq_lens: !llvm.ptr<1>,
                                   %search_seqs: i32, %qg: i32, %rows: index)
        -> (i32, i32, i32, i32, i32) {
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %x_ix = gpu.block_id x
      %x = arith.index_cast %x_ix : index to i32
      %rows_i = arith.index_cast %rows : index to i32
      %bt0 = arith.divui %rows_i, %qg : i32
      %bt = arith.maxui %bt0, %c1_i32 : i32
      %several = arith.cmpi ugt, %bt, %c1_i32 : i32
      %null = llvm.mlir.zero : !llvm.ptr<1>
      %decode = llvm.icmp "eq" %query_start_loc, %null : !llvm.ptr<1>
      %true = arith.constant true
      %blk:4 = scf.if %decode -> (i32, i32, i32, i32) {
        // seq, tok0, q_len, i0
        scf.yield %x, %x, %c1_i32, %c0_i32 : i32, i32, i32, i32
      } else {
        %search = arith.cmpi ne, %search_seqs, %c0_i32 : i32
        %sl:2 = scf.if %search -> (i32, i32) {
          // the largest s with qsl[s] / bt + s <= x (+ 0 for bt = 1)
          %w:2 = scf.while (%lo = %c0_i32, %hi = %search_seqs) : (i32, i32) -> (i32, i32) {
            %span = arith.subi %hi, %lo : i32
            %more = arith.cmpi sgt, %span, %c1_i32 : i32
            scf.condition(%more) %lo, %hi : i32, i32
          } do {
          ^bb0(%lo: i32, %hi: i32):
            %sum = arith.addi %lo, %hi : i32
            %mid = arith.shrui %sum, %c1_i32 : i32
            %qp = llvm.getelementptr %query_start_loc[%mid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
            %qm = llvm.load %qp invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
            %fq = arith.divui %qm, %bt : i32
            %fs = arith.select %several, %mid, %c0_i32 : i32
            %f = arith.addi %fq, %fs : i32
            %le = arith.cmpi sle, %f, %x : i32
            %nlo = arith.select %le, %mid, %lo : i32
            %nhi = arith.select %le, %hi, %mid : i32
            scf.yield %nlo, %nhi : i32, i32
          }
          %qp = llvm.getelementptr %query_start_loc[%w#0] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
          %q0 = llvm.load %qp invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
          %fq = arith.divui %q0, %bt : i32
          %fs = arith.select %several, %w#0, %c0_i32 : i32
          %f = arith.addi %fq, %fs : i32
          %local = arith.subi %x, %f : i32
          %i0 = arith.muli %local, %bt : i32
          scf.yield %w#0, %i0 : i32, i32
        } else {
          scf.yield %x, %c0_i32 : i32, i32
        }
        %qp0 = llvm.getelementptr %query_start_loc[%sl#0] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
        %q0 = llvm.load %qp0 invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
        %qp1 = llvm.getelementptr %qp0[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
        %q1 = llvm.load %qp1 invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
        %q_len = arith.subi %q1, %q0 : i32
        %tok0 = arith.addi %q0, %sl#1 : i32
        scf.yield %sl#0, %tok0, %q_len, %sl#1 : i32, i32, i32, i32
      }
      %slp = llvm.getelementptr %seq_lens[%blk#0] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      %seq_len = llvm.load %slp invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
      // tokens: min(bt, q_len - i0); none for a varlen block before its
      // sequence's first (x below f(s): qsl[0] > 0) or past its last, or a
      // sequence whose q_len passes its seq_len (nothing there is defined).
      // A decode of an empty sequence has its token (pos0 = -1: no
      // positions), whose rows get empty partials.
      %left = arith.subi %blk#2, %blk#3 : i32
      %n0 = arith.minsi %left, %bt : i32
      %pos0 = arith.subi %seq_len, %left : i32
      %neg_i0 = arith.cmpi slt, %blk#3, %c0_i32 : i32
      %neg_pos = arith.cmpi slt, %pos0, %c0_i32 : i32
      %bad0 = arith.ori %neg_i0, %neg_pos : i1
      %varlen = arith.xori %decode, %true : i1
      %bad = arith.andi %bad0, %varlen : i1
      %ntok = arith.select %bad, %c0_i32, %n0 : i32
      return %blk#0, %blk#1, %ntok, %pos0, %seq_len : i32, i32, i32, i32, i32
    }

    // ---- the lane's query row of each row tile t (16 t + (l & 15)): its own
    // positions [ws, ws + wl), ws = max(0, limit - W) with a window W (else
    // 0), limit = pos0 + token + 1 (the row's token within the block). Rows
    // past live_rows take the last live row's (never stored).
    func.func private @row_ranges(%pos0: i32, %qg: i32, %live_rows: i32, %sliding_window: i32,
                                  %rt: index) -> (vector<4xi32>, vector<4xi32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c15_i32 = arith.constant 15 : i32
      %c16_i32 = arith.constant 16 : i32
      %lane = func.call @lane() : () -> i32
      %row = arith.andi %lane, %c15_i32 : i32
      %last = arith.subi %live_rows, %c1_i32 : i32
      %last0 = arith.maxsi %last, %c0_i32 : i32
      %windowed = arith.cmpi sgt, %sliding_window, %c0_i32 : i32
      %z = arith.constant dense<0> : vector<4xi32>
      %r:2 = scf.for %t = %c0 to %rt step %c1 iter_args(%wsv = %z, %wlv = %z) -> (vector<4xi32>, vector<4xi32>) {
        %ti = arith.index_cast %t : index to i32
        %r0 = arith.muli %ti, %c16_i32 : i32
        %rho = arith.addi %r0, %row : i32
        %rc = arith.minui %rho, %last0 : i32
        %tau = arith.divui %rc, %qg : i32
        %p1 = arith.addi %pos0, %tau : i32
        %limit = arith.addi %p1, %c1_i32 : i32
        %w0 = arith.subi %limit, %sliding_window : i32
        %w1 = arith.maxsi %w0, %c0_i32 : i32
        %ws = arith.select %windowed, %w1, %c0_i32 : i32
        %wl = arith.subi %limit, %ws : i32
        %wsn = vector.insert %ws, %wsv[%t] : i32 into vector<4xi32>
        %wln = vector.insert %wl, %wlv[%t] : i32 into vector<4xi32>
        scf.yield %wsn, %wln : vector<4xi32>, vector<4xi32>
      }
      return %r#0, %r#1 : vector<4xi32>, vector<4xi32>
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
        %search_seqs: i32) kernel
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
      %zero_acc = arith.constant dense<0.0> : vector<4x16x4xf32>
      // row tiles of 16 MFMA rows; a smaller block (rows 8) rotates fewer rows
      %rt0 = arith.addi %rows, %c15 : index
      %rt = arith.divui %rt0, %c16 : index
      %tile_rows = arith.minui %rows, %c16 : index
      %kvh_ix = gpu.block_id y
      %kvh = arith.index_cast %kvh_ix : index to i32
      %part_ix = gpu.block_id z
      %part = arith.index_cast %part_ix : index to i32
      %blk:5 = func.call @query_block(%query_start_loc, %seq_lens, %search_seqs, %query_group, %rows) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i32, index) -> (i32, i32, i32, i32, i32)
      %ntok = arith.maxsi %blk#2, %c0_i32 : i32
      %live_rows = arith.muli %ntok, %query_group : i32
      // ---- the block's positions: its first token attends < lim_lo = pos0 + 1,
      // its last < kv_end = pos0 + ntok (a decode: both seq_len). With a
      // sliding window W (0: none) its first token attends >= win_start =
      // max(0, lim_lo - W), its last >= ws_hi = max(0, kv_end - W). The walk
      // starts at win_base, win_start rounded down to a tile: partition p walks
      // the 256-token groups that start at win_base + (p + k*P)*256, k < TGPP,
      // over rel_len = kv_end - win_base positions. Nothing before win_base is
      // loaded; tiles that reach past lim_lo or start before ws_hi mask each
      // row to its own positions. Coverage invariant (the launch policy's):
      // P * TGPP * 256 >= rel_len, rel_len <= min(kv_end, W + ntok + 14).
      // Without a window win_base = win_start = 0 (the unshifted walk).
      %lim_lo = arith.addi %blk#3, %c1_i32 : i32
      %kv_end = arith.addi %blk#3, %ntok : i32
      %windowed = arith.cmpi sgt, %sliding_window, %c0_i32 : i32
      %w0 = arith.subi %lim_lo, %sliding_window : i32
      %w1 = arith.maxsi %w0, %c0_i32 : i32
      %win_start = arith.select %windowed, %w1, %c0_i32 : i32
      %w2 = arith.subi %kv_end, %sliding_window : i32
      %w3 = arith.maxsi %w2, %c0_i32 : i32
      %ws_hi = arith.select %windowed, %w3, %c0_i32 : i32
      %tile_mask = arith.constant -16 : i32
      %win_base = arith.andi %win_start, %tile_mask : i32
      %win_len = arith.subi %kv_end, %win_start : i32
      %rel_len = arith.subi %kv_end, %win_base : i32
      // ---- partition p owns the groups p, p + P, ... (at most TGPP); it processes
      // only tiles that hold a position of the block (a flattened tile loop)
      %n0 = arith.addi %rel_len, %c255_i32 : i32
      %groups = arith.shrui %n0, %c8_i32 : i32
      %n1 = arith.subi %groups, %part : i32
      %owns0 = arith.cmpi sgt, %n1, %c0_i32 : i32
      %has_rows = arith.cmpi sgt, %live_rows, %c0_i32 : i32
      %owns = arith.andi %owns0, %has_rows : i1
      %n2 = arith.maxsi %n1, %c1_i32 : i32
      %n3 = arith.subi %num_partitions, %c1_i32 : i32
      %n4 = arith.addi %n2, %n3 : i32
      %n5 = arith.divui %n4, %num_partitions : i32
      %n6 = arith.minsi %n5, %tgpp : i32
      %my_groups = arith.select %owns, %n6, %c0_i32 : i32
      %n7 = arith.subi %my_groups, %c1_i32 : i32
      %full = arith.maxsi %n7, %c0_i32 : i32
      %n8 = arith.muli %full, %num_partitions : i32
      %n9 = arith.addi %part, %n8 : i32
      %n10 = arith.shli %n9, %c8_i32 : i32
      %n11 = arith.subi %rel_len, %n10 : i32
      %n12 = arith.addi %n11, %c15_i32 : i32
      %n13 = arith.shrsi %n12, %c4_i32 : i32
      %last_tiles = arith.minsi %n13, %c16_i32 : i32
      %n14 = arith.shli %full, %c4_i32 : i32
      %n15 = arith.addi %n14, %last_tiles : i32
      %ntiles = arith.select %owns, %n15, %c0_i32 : i32
      // ---- cache geometry
      %bs_shift = math.cttz %block_size : i32
      %bs_mask = arith.subi %block_size, %c1_i32 : i32
      // 64-BIT ADDRESSING (issue 13; keep it): a product of user sizes that can
      // pass 2^31 is formed in i64. The block byte size is bounded by the plan
      // (block_size * Hk * padded_slot <= 2^31 - 1: it is a buffer's 32-bit
      // record count and every in-block offset is 32-bit), but block *
      // blk_bytes reaches 2^31 * 2^31 and the block-table row offset
      // seq * max_blocks_per_seq reaches 65535 * 2^24: both stay i64 up to the
      // address (@tile_loads, @store_partial). test/unit/runtime/
      // large_address_test.c runs a >4 GiB cache and an 8 GiB block table.
      %pos_stride = arith.muli %num_kv_heads, %padded_slot : i32
      %bs64 = arith.extui %block_size : i32 to i64
      %ps64 = arith.extui %pos_stride : i32 to i64
      %blk_bytes = arith.muli %bs64, %ps64 : i64
      %seq64 = arith.extui %blk#0 : i32 to i64
      %mbps64 = arith.extui %max_blocks_per_seq : i32 to i64
      %bt_row = arith.muli %seq64, %mbps64 : i64
      %offs:4 = func.call @kv_lane_offsets(%kvh, %padded_slot, %pos_stride, %d) : (i32, i32, i32, index) -> (vector<2xi32>, vector<2xi32>, i32, i32)
      %rr:2 = func.call @row_ranges(%blk#3, %query_group, %live_rows, %sliding_window, %rt) : (i32, i32, i32, i32, index) -> (vector<4xi32>, vector<4xi32>)
      %has_tiles = arith.cmpi sgt, %ntiles, %c0_i32 : i32
      %fin:3 = scf.if %has_tiles -> (vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>) {
        // the Q operands of every live row tile, through the one LDS Q area
        %zq = arith.constant dense<0> : vector<4x2x8xi32>
        %ni = func.call @issues(%d) : (index) -> index
        %q = scf.for %t = %c0 to %rt step %c1 iter_args(%qa = %zq) -> (vector<4x2x8xi32>) {
          %ti = arith.index_cast %t : index to i32
          %r0 = arith.muli %ti, %c16_i32 : i32
          %live = arith.cmpi slt, %r0, %live_rows : i32
          %qn = scf.if %live -> (vector<4x2x8xi32>) {
            %img = func.call @q_image(%t, %rt, %d) : (index, index, index) -> !llvm.ptr<3>
            func.call @rotate_query(%query, %q_stride_seq, %q_stride_head, %blk#1, %kvh, %query_group, %live_rows, %r0, %tile_rows, %img, %d) : (!llvm.ptr<1>, i32, i32, i32, i32, i32, i32, i32, index, !llvm.ptr<3>, index) -> ()
            gpu.barrier
            %q_lds = func.call @q_operands_in_lds(%rt, %d) : (index, index) -> i1
            %qt = scf.if %q_lds -> (vector<4x2x8xi32>) {
              scf.yield %qa : vector<4x2x8xi32>
            } else {
              // into registers before the next row tile's image overwrites it
              %qr = scf.for %h = %c0 to %ni step %c1 iter_args(%acc = %qa) -> (vector<4x2x8xi32>) {
                %qh = func.call @q_image_operand(%img, %h) : (!llvm.ptr<3>, index) -> vector<8xi32>
                %nr = vector.insert %qh, %acc[%t, %h] : vector<8xi32> into vector<4x2x8xi32>
                scf.yield %nr : vector<4x2x8xi32>
              }
              gpu.barrier
              scf.yield %qr : vector<4x2x8xi32>
            }
            scf.yield %qt : vector<4x2x8xi32>
          } else {
            scf.yield %qa : vector<4x2x8xi32>
          }
          scf.yield %qn : vector<4x2x8xi32>
        }
        // software prefetch: tile 0 here; every tile issues the next tile's loads
        // before its own math. Two tiles per iteration so that the two load sets
        // alternate registers (no copies); an odd last tile runs after the loop.
        %f0 = func.call @tile_first(%c0_i32, %part, %num_partitions, %win_base) : (i32, i32, i32, i32) -> i32
        %ld0:4 = func.call @tile_loads(%kv_cache, %block_tables, %f0, %blk_bytes, %bs_shift, %bs_mask, %bt_row, %blk_bytes, %pos_stride, %offs#0, %offs#1, %offs#2, %offs#3, %d) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i64, i32, i32, i64, i64, i32, vector<2xi32>, vector<2xi32>, i32, i32, index) -> (vector<2x4xi32>, vector<2x4xi32>, i32, i32)
        %npairs = arith.shrui %ntiles, %c1_i32 : i32
        %npairs_ix = arith.index_cast %npairs : i32 to index
        %loop:7 = scf.for %pi = %c0 to %npairs_ix step %c1 iter_args(%m = %ninf4, %l = %zero4, %acc = %zero_acc, %k = %ld0#0, %vc = %ld0#1, %ksw = %ld0#2, %vsw = %ld0#3) -> (vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>, vector<2x4xi32>, vector<2x4xi32>, i32, i32) {
          %pii = arith.index_cast %pi : index to i32
          %ta = arith.shli %pii, %c1_i32 : i32
          %tb = arith.addi %ta, %c1_i32 : i32
          %fb = func.call @tile_first(%tb, %part, %num_partitions, %win_base) : (i32, i32, i32, i32) -> i32
          %ldb:4 = func.call @tile_loads(%kv_cache, %block_tables, %fb, %blk_bytes, %bs_shift, %bs_mask, %bt_row, %blk_bytes, %pos_stride, %offs#0, %offs#1, %offs#2, %offs#3, %d) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i64, i32, i32, i64, i64, i32, vector<2xi32>, vector<2xi32>, i32, i32, index) -> (vector<2x4xi32>, vector<2x4xi32>, i32, i32)
          %fa = func.call @tile_first(%ta, %part, %num_partitions, %win_base) : (i32, i32, i32, i32) -> i32
          %sa:3 = func.call @tile_step(%m, %l, %acc, %k, %vc, %ksw, %vsw, %q, %fa, %lim_lo, %ws_hi, %win_start, %win_len, %rr#0, %rr#1, %live_rows, %softmax_scale, %rt, %d) : (vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>, vector<2x4xi32>, vector<2x4xi32>, i32, i32, vector<4x2x8xi32>, i32, i32, i32, i32, i32, vector<4xi32>, vector<4xi32>, i32, f32, index, index) -> (vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>)
          // the last pair's prefetch targets no tile: it re-reads tile b's block-table
          // entry and gets a descriptor of 0 records (loads return zeros)
          %tc = arith.addi %tb, %c1_i32 : i32
          %tlive = arith.cmpi slt, %tc, %ntiles : i32
          %tn = arith.select %tlive, %tc, %tb : i32
          %rec = arith.select %tlive, %blk_bytes, %c0_i64 : i64
          %fc = func.call @tile_first(%tn, %part, %num_partitions, %win_base) : (i32, i32, i32, i32) -> i32
          %ldc:4 = func.call @tile_loads(%kv_cache, %block_tables, %fc, %rec, %bs_shift, %bs_mask, %bt_row, %blk_bytes, %pos_stride, %offs#0, %offs#1, %offs#2, %offs#3, %d) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i64, i32, i32, i64, i64, i32, vector<2xi32>, vector<2xi32>, i32, i32, index) -> (vector<2x4xi32>, vector<2x4xi32>, i32, i32)
          %sb:3 = func.call @tile_step(%sa#0, %sa#1, %sa#2, %ldb#0, %ldb#1, %ldb#2, %ldb#3, %q, %fb, %lim_lo, %ws_hi, %win_start, %win_len, %rr#0, %rr#1, %live_rows, %softmax_scale, %rt, %d) : (vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>, vector<2x4xi32>, vector<2x4xi32>, i32, i32, vector<4x2x8xi32>, i32, i32, i32, i32, i32, vector<4xi32>, vector<4xi32>, i32, f32, index, index) -> (vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>)
          scf.yield %sb#0, %sb#1, %sb#2, %ldc#0, %ldc#1, %ldc#2, %ldc#3 : vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>, vector<2x4xi32>, vector<2x4xi32>, i32, i32
        }
        %odd = arith.andi %ntiles, %c1_i32 : i32
        %has_odd = arith.cmpi ne, %odd, %c0_i32 : i32
        %tail:3 = scf.if %has_odd -> (vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>) {
          %tl = arith.subi %ntiles, %c1_i32 : i32
          %fl = func.call @tile_first(%tl, %part, %num_partitions, %win_base) : (i32, i32, i32, i32) -> i32
          %st:3 = func.call @tile_step(%loop#0, %loop#1, %loop#2, %loop#3, %loop#4, %loop#5, %loop#6, %q, %fl, %lim_lo, %ws_hi, %win_start, %win_len, %rr#0, %rr#1, %live_rows, %softmax_scale, %rt, %d) : (vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>, vector<2x4xi32>, vector<2x4xi32>, i32, i32, vector<4x2x8xi32>, i32, i32, i32, i32, i32, vector<4xi32>, vector<4xi32>, i32, f32, index, index) -> (vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>)
          scf.yield %st#0, %st#1, %st#2 : vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>
        } else {
          scf.yield %loop#0, %loop#1, %loop#2 : vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>
        }
        scf.yield %tail#0, %tail#1, %tail#2 : vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>
      } else {
        scf.yield %ninf4, %zero4, %zero_acc : vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>
      }
      // the rows' sums: the lanes' running sums added
      %lsum = scf.for %t = %c0 to %rt step %c1 iter_args(%ls = %fin#1) -> (vector<4xf32>) {
        %lt = vector.extract %ls[%t] : f32 from vector<4xf32>
        %st = func.call @row_sum(%lt) : (f32) -> f32
        %ln = vector.insert %st, %ls[%t] : f32 into vector<4xf32>
        scf.yield %ln : vector<4xf32>
      }
      func.call @store_partial(%segm_out, %segm_max, %segm_sum, %fin#0, %lsum, %fin#2, %blk#1, %kvh, %part, %num_kv_heads, %num_partitions, %query_group, %live_rows, %rt, %d) : (!llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>, i32, i32, i32, i32, i32, i32, i32, index, index) -> ()
      gpu.return
    }
  }
  gpu.module @uq_reduce [#rocdl.target<chip = "gfx950", O = 3>] attributes {uq.variants = [{d = 64}, {d = 128}, {d = 256}]} {
    gpu.func @uq_reduce(
        %output: !llvm.ptr<1> {llvm.noalias, llvm.writeonly},
        %segm_out: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %segm_max: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %segm_sum: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %num_kv_heads: i32, %qg: i32, %num_partitions: i32,
        %out_stride_seq: i32, %out_stride_head: i32,
        %sinks: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %query_start_loc: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %num_seqs: i32) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %lane_ix = gpu.thread_id x
      %lane = arith.index_cast %lane_ix : index to i32
      %seq_ix = gpu.block_id x
      %seq = arith.index_cast %seq_ix : index to i32
      %hq_ix = gpu.block_id y
      %hq = arith.index_cast %hq_ix : index to i32
      %dblk_ix = gpu.block_id z
      %dblk = arith.index_cast %dblk_ix : index to i32
      %c0_i32 = arith.constant 0 : i32
      %ninf = arith.constant 0xFF800000 : f32
      %zero_f = arith.constant 0.0 : f32
      %log2e = arith.constant 1.44269504088896340736 : f32
      %c6_i32 = arith.constant 6 : i32
      %c2_row = arith.constant 2 : i32
      // one partial row: D bf16 (grid z = D / 64 workgroups of 64 head dims)
      %d = "uq.param"() {name = "d"} : () -> i32
      %row_bytes = arith.muli %d, %c2_row : i32
      %row_bytes64 = arith.extui %row_bytes : i32 to i64
      %c1_i32 = arith.constant 1 : i32
      %one_f = arith.constant 1.0 : f32
      %c1_i64 = arith.constant 1 : i64
      %v1371 = arith.shli %dblk, %c6_i32 : i32
      %v1372 = arith.addi %v1371, %lane : i32
      %v1373 = arith.divui %hq, %qg : i32
      %v1374 = arith.remui %hq, %qg : i32
      // first workspace row (seq * Hk + kv head) * P in i64: a product of user
      // sizes (64-BIT ADDRESSING, see the decode kernel; keep it)
      %v1375a = arith.extui %seq : i32 to i64
      %v1375b = arith.extui %num_kv_heads : i32 to i64
      %v1375c = arith.extui %v1373 : i32 to i64
      %v1375d = arith.extui %num_partitions : i32 to i64
      %v1375 = arith.muli %v1375a, %v1375b : i64
      %v1376 = arith.addi %v1375, %v1375c : i64
      %v1379 = arith.muli %v1376, %v1375d : i64
      %v1380 = arith.extui %qg : i32 to i64
      %v1381 = arith.extui %v1374 : i32 to i64
      %v1382 = arith.extui %v1372 : i32 to i64
      %c0_ix = arith.constant 0 : index
      %c1_ix = arith.constant 1 : index
      %np_ix = arith.index_cast %num_partitions : i32 to index
      %flags = arith.constant 159744 : i32  // 0x27000: raw buffer, 32-bit data format
      %stride0 = arith.constant 0 : i16
      %max_records = arith.constant 2147483647 : i64
      %v1383 = arith.muli %v1379, %v1380 : i64
      %v1384 = arith.addi %v1383, %v1381 : i64
      %v1385 = arith.muli %v1384, %row_bytes64 : i64
      %v1387 = "uq.buffer_rsrc"(%segm_out, %v1385, %max_records) : (!llvm.ptr<1>, i64, i64) -> !llvm.ptr<8>
      %v1388 = arith.muli %qg, %row_bytes : i32
      %v1389 = arith.shli %v1372, %c1_i32 : i32
      // pass 1: global max over partitions (empty ones hold -inf)
      %gmax = scf.for %p = %c0_ix to %np_ix step %c1_ix iter_args(%mx = %ninf) -> (f32) {
        %v1390 = arith.index_cast %p : index to i64
        %v1391 = arith.addi %v1379, %v1390 : i64
        %v1392 = arith.muli %v1391, %v1380 : i64
        %v1393 = arith.addi %v1392, %v1381 : i64
        %v1394 = llvm.getelementptr %segm_max[%v1393] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
        %v1395 = llvm.load %v1394 invariant {alignment = 4 : i64} : !llvm.ptr<1> -> f32
        %v1396 = arith.maxnumf %mx, %v1395 : f32
        scf.yield %v1396 : f32
      }
      // attention sink of this query head (logit units; null pointer or -inf:
      // none): it joins the max and adds exp(sink - M) to the denominator only,
      // so a row with no tokens but a sink still outputs 0
      %snull = llvm.mlir.zero : !llvm.ptr<1>
      %shas = llvm.icmp "ne" %sinks, %snull : !llvm.ptr<1>
      %sink = scf.if %shas -> (f32) {
        %sp = llvm.getelementptr %sinks[%hq] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
        %sv = llvm.load %sp invariant {alignment = 4 : i64} : !llvm.ptr<1> -> f32
        scf.yield %sv : f32
      } else {
        scf.yield %ninf : f32
      }
      %gmax_s = arith.maxnumf %gmax, %sink : f32
      // pass 2: w_p = exp(m_p - M) * sum_p; out = sum w_p o_p / sum w_p
      // NaN PROPAGATION (issue 13; keep it when rewriting this file): a partition
      // is empty only when its sum is exactly 0 (the decode writes -inf / 0 / 0
      // for it); any other, NaN included, is weighed, so a query row with a
      // NaN or inf element (its scores are NaN) gives a NaN output, never a
      // plausible 0. Hence `une 0` below, not `ogt 0` nor `m_p > -inf` (a NaN
      // row's max stays -inf under maxnum while its sum is NaN). The host
      // references follow the same rule; test/unit/runtime/e2e_sim_test.c
      // (non_finite_query) checks it.
      %v1397 = arith.cmpf ogt, %gmax_s, %ninf : f32
      %v1398 = arith.select %v1397, %gmax_s, %zero_f : f32
      %sd = arith.subf %sink, %v1398 : f32
      %sd2 = arith.mulf %sd, %log2e : f32
      %se = rocdl.exp2 %sd2 f32 -> f32
      %shit = arith.cmpf ogt, %sink, %ninf : f32
      %sw = arith.select %shit, %se, %zero_f : f32
      %acc:2 = scf.for %p = %c0_ix to %np_ix step %c1_ix iter_args(%ao = %zero_f, %aw = %sw) -> (f32, f32) {
        %v1399 = arith.index_cast %p : index to i64
        %v1400 = arith.addi %v1379, %v1399 : i64
        %v1401 = arith.muli %v1400, %v1380 : i64
        %v1402 = arith.addi %v1401, %v1381 : i64
        %v1403 = llvm.getelementptr %segm_max[%v1402] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
        %v1404 = llvm.load %v1403 invariant {alignment = 4 : i64} : !llvm.ptr<1> -> f32
        %v1405 = llvm.getelementptr %segm_sum[%v1402] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
        %v1406 = llvm.load %v1405 invariant {alignment = 4 : i64} : !llvm.ptr<1> -> f32
        %v1407 = arith.index_cast %p : index to i32
        %v1408 = arith.muli %v1407, %v1388 : i32
        %v1409 = rocdl.raw.ptr.buffer.load %v1387, %v1389, %v1408, %c0_i32 : i16
        %v1410 = arith.bitcast %v1409 : i16 to bf16
        %v1411 = arith.extf %v1410 : bf16 to f32
        %v1412 = arith.cmpf une, %v1406, %zero_f : f32
        %v1413 = arith.subf %v1404, %v1398 : f32
        %v1414 = arith.mulf %v1413, %log2e : f32
        %v1415 = rocdl.exp2 %v1414 f32 -> f32
        %v1416 = arith.mulf %v1415, %v1406 : f32
        %v1417 = arith.select %v1412, %v1416, %zero_f : f32
        %v1418 = arith.mulf %v1417, %v1411 : f32
        %v1419 = arith.addf %ao, %v1418 : f32
        %v1420 = arith.addf %aw, %v1417 : f32
        scf.yield %v1419, %v1420 : f32, f32
      }
      %v1421 = arith.cmpf une, %acc#1, %zero_f : f32
      %v1422 = arith.select %v1421, %acc#1, %one_f : f32
      %v1423 = arith.divf %acc#0, %v1422 : f32
      %v1424 = arith.select %v1421, %v1423, %zero_f : f32
      %v1425 = arith.truncf %v1424 : f32 to bf16
      %v1426 = arith.extui %seq : i32 to i64
      %v1427 = arith.extui %out_stride_seq : i32 to i64
      %v1428 = arith.muli %v1426, %v1427 : i64
      %v1429 = arith.extui %hq : i32 to i64
      %v1430 = arith.extui %out_stride_head : i32 to i64
      %v1431 = arith.muli %v1429, %v1430 : i64
      %v1432 = arith.addi %v1428, %v1431 : i64
      %v1433 = arith.shli %v1432, %c1_i64 : i64
      %v1435 = "uq.buffer_rsrc"(%output, %v1433, %max_records) : (!llvm.ptr<1>, i64, i64) -> !llvm.ptr<8>
      %v1436 = arith.bitcast %v1425 : bf16 to i16
      // varlen (query_start_loc set; grid x = the query tokens): only rows
      // query_start_loc[0] .. query_start_loc[num_seqs] - 1 are queries, the
      // rest padding whose partials no decode wrote
      %qnull = llvm.mlir.zero : !llvm.ptr<1>
      %qhas = llvm.icmp "ne" %query_start_loc, %qnull : !llvm.ptr<1>
      %in_span = scf.if %qhas -> (i1) {
        %q0 = llvm.load %query_start_loc invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
        %qep = llvm.getelementptr %query_start_loc[%num_seqs] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
        %qe = llvm.load %qep invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
        %ge = arith.cmpi sge, %seq, %q0 : i32
        %lt = arith.cmpi slt, %seq, %qe : i32
        %in = arith.andi %ge, %lt : i1
        scf.yield %in : i1
      } else {
        %true = arith.constant true
        scf.yield %true : i1
      }
      scf.if %in_span {
        rocdl.raw.ptr.buffer.store %v1436, %v1435, %v1389, %c0_i32, %c0_i32 : i16
      }
      gpu.return
    }
  }

  // ==== NVIDIA Hopper (sm_90a) ==========================================
  // The same contract as the gfx950 decode + reduce (argument order:
  // runtime/kernel_abi.h; partials [B, Hk, P, QG, D] with the same
  // partition walk), designed for Hopper rather than ported. The head dim
  // D (64, 128 or 256) is a uq.param: the helpers that need it read it
  // themselves (this pipeline has no uq-inline: LLVM inlines after the
  // loops are unrolled), and shapes fold to constants once specialized.
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
  gpu.module @uq_decode_sm90 [#nvvm.target<chip = "sm_90a", features = "+ptx84", O = 3>] attributes {uq.variants = [{d = 64, qg_max = 8}, {d = 64, qg_max = 16}, {d = 128, qg_max = 8}, {d = 128, qg_max = 16}, {d = 256, qg_max = 8}, {d = 256, qg_max = 16}], uq.kernel_attrs = [{nvvm.minctasm = 5 : i32}, {nvvm.minctasm = 5 : i32}, {nvvm.minctasm = 4 : i32}, {nvvm.minctasm = 3 : i32}, {nvvm.minctasm = 2 : i32}, {nvvm.minctasm = 2 : i32}]} {
    llvm.mlir.global external @uq_decode_sm90_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>

    // The dynamic shared memory the decode is launched with: @uq_decode's
    // layout, computed by @uq_sm90_shared_bytes once the variant is
    // specialized (uq-evaluate-globals) and read by the runtime from the
    // cubin's symbol (codeobj/cubin.h).
    llvm.mlir.global external constant @uq_dynamic_shared_bytes() {addr_space = 4 : i32, uq.value_of = @uq_sm90_shared_bytes} : i32
    // The walk's group size (@uq_sm90_walk_tiles), for the launch policy.
    llvm.mlir.global external constant @uq_walk_group_tiles() {addr_space = 4 : i32, uq.value_of = @uq_sm90_walk_tiles} : i32

    // ---- this CTA's query block (grid x), as gfx950's @query_block: its
    // sequence, its first token in the query tensor (tok0), its tokens
    // (ntok, <= 0: none) and the position of its first token in the
    // sequence (pos0; it attends positions < pos0 + 1). Without
    // query_start_loc (a decode) block x is sequence x's one token, row x of
    // the query. Else sequence s's q_len = qsl[s + 1] - qsl[s] tokens are the
    // last of its seq_len, in blocks of %bt tokens (qg_max / QG: the block's
    // rows are token-major, (token, head in the group)); sequence s's blocks
    // start at x = qsl[s] / bt + s (vLLM's unified-attention grid; qsl[s]
    // for bt = 1, whose blocks tile the tokens exactly), found by
    // a binary search over the search_seqs sequences (with search_seqs = 0
    // block x is sequence x's first block), and blocks past a
    // sequence's tokens have none, as has a sequence whose q_len passes its
    // seq_len (nothing there is defined).
    func.func private @uq_sm90_query_block(%query_start_loc: !llvm.ptr<1>, %seq_lens: !llvm.ptr<1>,
                                           %search_seqs: i32, %bt: i32, %x: i32) -> (i32, i32, i32, i32) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %several = arith.cmpi ugt, %bt, %c1 : i32
      %null = llvm.mlir.zero : !llvm.ptr<1>
      %decode = llvm.icmp "eq" %query_start_loc, %null : !llvm.ptr<1>
      %r:4 = scf.if %decode -> (i32, i32, i32, i32) {
        %lp = llvm.getelementptr %seq_lens[%x] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
        %len = llvm.load %lp invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
        %pos0 = arith.subi %len, %c1 : i32
        scf.yield %x, %x, %c1, %pos0 : i32, i32, i32, i32
      } else {
        // the largest s with qsl[s] / bt + s <= x (+ 0 for bt = 1); without
        // search_seqs
        // (the launcher's max query length fits one block) block x is
        // sequence x's first
        %search = arith.cmpi ne, %search_seqs, %c0 : i32
        %lo0 = arith.select %search, %c0, %x : i32
        %hi0 = arith.select %search, %search_seqs, %x : i32
        %w:2 = scf.while (%lo = %lo0, %hi = %hi0) : (i32, i32) -> (i32, i32) {
          %span = arith.subi %hi, %lo : i32
          %more = arith.cmpi sgt, %span, %c1 : i32
          scf.condition(%more) %lo, %hi : i32, i32
        } do {
        ^bb0(%lo: i32, %hi: i32):
          %sum = arith.addi %lo, %hi : i32
          %mid = arith.shrui %sum, %c1 : i32
          %qp = llvm.getelementptr %query_start_loc[%mid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
          %qm = llvm.load %qp invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
          %fq = arith.divui %qm, %bt : i32
          %fs = arith.select %several, %mid, %c0 : i32
          %f = arith.addi %fq, %fs : i32
          %le = arith.cmpi sle, %f, %x : i32
          %nlo = arith.select %le, %mid, %lo : i32
          %nhi = arith.select %le, %hi, %mid : i32
          scf.yield %nlo, %nhi : i32, i32
        }
        %q0p = llvm.getelementptr %query_start_loc[%w#0] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
        %q0 = llvm.load %q0p invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
        %q1p = llvm.getelementptr %q0p[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
        %q1 = llvm.load %q1p invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
        %lp = llvm.getelementptr %seq_lens[%w#0] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
        %len = llvm.load %lp invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
        %fq = arith.divui %q0, %bt : i32
        %fs = arith.select %several, %w#0, %c0 : i32
        %f = arith.addi %fq, %fs : i32
        %local = arith.subi %x, %f : i32
        %i0s = arith.muli %local, %bt : i32
        %i0 = arith.select %search, %i0s, %c0 : i32
        %q_len = arith.subi %q1, %q0 : i32
        %left = arith.subi %q_len, %i0 : i32
        %n0 = arith.minsi %left, %bt : i32
        %pos0 = arith.subi %len, %left : i32
        %neg_i0 = arith.cmpi slt, %i0, %c0 : i32
        %neg_pos = arith.cmpi slt, %pos0, %c0 : i32
        %bad = arith.ori %neg_i0, %neg_pos : i1
        %ntok = arith.select %bad, %c0, %n0 : i32
        %tok0 = arith.addi %q0, %i0 : i32
        scf.yield %w#0, %tok0, %ntok, %pos0 : i32, i32, i32, i32
      }
      return %r#0, %r#1, %r#2, %r#3 : i32, i32, i32, i32
    }

    // The positions a row of the block attends end at its limit: pos0 +
    // 1 + its token (row / QG, rows past live_rows taking the last live
    // row's, never stored); a decode's rows all end at seq_len.
    func.func private @uq_sm90_row_limit(%row: i32, %qg: i32, %live_rows: i32, %lim0: i32) -> i32 {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %last = arith.subi %live_rows, %c1 : i32
      %last0 = arith.maxsi %last, %c0 : i32
      %rc = arith.minui %row, %last0 : i32
      %tau = arith.divui %rc, %qg : i32
      %lim = arith.addi %lim0, %tau : i32
      return %lim : i32
    }

    // The first position a row whose positions end at %lim attends: lim - W
    // with a window W (>= 0), else 0.
    func.func private @uq_sm90_window_start(%lim: i32, %sliding_window: i32) -> i32 {
      %c0 = arith.constant 0 : i32
      %w0 = arith.subi %lim, %sliding_window : i32
      %w1 = arith.maxsi %w0, %c0 : i32
      %has_win = arith.cmpi sgt, %sliding_window, %c0 : i32
      %ws = arith.select %has_win, %w1, %c0 : i32
      return %ws : i32
    }

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
    // (3 and 4 measured slower there, at 2 CTAs per SM as at 4), 3 for the
    // other dims, 4 for qg_max 16. Inlined before the loops unroll
    // (uq.inline), whose bounds and stage indices it sets.
    func.func private @uq_sm90_stages() -> i32 attributes {uq.inline} {
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c4 = arith.constant 4 : i32
      %c256 = arith.constant 256 : index
      %i8 = arith.constant 8 : index
      %hd = "uq.param"() {name = "d"} : () -> index
      %qg_max = "uq.param"() {name = "qg_max"} : () -> index
      %is256 = arith.cmpi eq, %hd, %c256 : index
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
    // copies chunks c = l % L + L i (i < ceil(C / L), c < C = (D + D/16) / u)
    // of slot s = l / L + u p, pass p < 16 / u; the slot's address comes
    // from lane s (%lo, %hi). A lane's chunks differ by constant offsets,
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
      %zb = arith.index_cast %zb_ix : index to i32
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

    // S = Q K^T of one tile (D/32 groups) on mma.sync m16n8k16 f16 (Q's E4M3 values and
    // K's E2M1 x 2^-6 are exact in f16): per group j two k-steps from the
    // zero accumulator, then times the group's UE8M0 scale (column = token).
    // Q fragments come from shared memory (ldmatrix at %qaddr, Q stored in
    // the k order below); K's come by ldmatrix from the stage (%lbase).
    // k order within a group: step s, position 2t + e (+8 for hi) is element
    // 8t + 4hi + 2e + s, which is what F2FP gives from the E4M3 bytes of one
    // code word (even elements of word t, then odd ones).
    func.func private @uq_sm90_qk(%lbase: i32, %qaddr: i32, %ks: vector<8xi32>) -> vector<8xf32> {
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c8 = arith.constant 8 : i32
      %c16 = arith.constant 16 : i32
      %c23 = arith.constant 23 : i32
      %c32 = arith.constant 32 : i32
      %c64 = arith.constant 64 : i32
      %c0xff = arith.constant 255 : i32
      %zero_f = arith.constant 0.0 : f32
      %zero8 = arith.constant dense<0.0> : vector<8xf32>
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i4 = arith.constant 4 : index
      %i64 = arith.constant 64 : index
      %hd = "uq.param"() {name = "d"} : () -> index
      %njp = arith.divui %hd, %i64 : index
      %S = scf.for %jp = %i0 to %njp step %i1 iter_args(%sacc = %zero8) -> (vector<8xf32>) {
        %jpi = arith.index_cast %jp : index to i32
        %jo = arith.muli %jpi, %c32 : i32
        %la = arith.addi %lbase, %jo : i32
        %kf = llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0,$1,$2,$3}, [$4];", "=r,=r,=r,=r,r,~{memory}" %la : (i32) -> !llvm.struct<(i32, i32, i32, i32)>
        %kf0 = llvm.extractvalue %kf[0] : !llvm.struct<(i32, i32, i32, i32)>
        %kf1 = llvm.extractvalue %kf[1] : !llvm.struct<(i32, i32, i32, i32)>
        %kf2 = llvm.extractvalue %kf[2] : !llvm.struct<(i32, i32, i32, i32)>
        %kf3 = llvm.extractvalue %kf[3] : !llvm.struct<(i32, i32, i32, i32)>
        %sacc2 = scf.for %jj = %i0 to %i2 step %i1 iter_args(%sa = %sacc) -> (vector<8xf32>) {
          %j2 = arith.muli %jp, %i2 : index
          %j = arith.addi %j2, %jj : index
          %ji = arith.index_cast %j : index to i32
          %isodd = arith.cmpi eq, %jj, %i1 : index
          %wn0 = arith.select %isodd, %kf2, %kf0 : i32
          %wn1 = arith.select %isodd, %kf3, %kf1 : i32
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
          // group byte j of the 8-byte scale row: word j >> 2, byte j & 3
          %jw = arith.shrui %ji, %c2 : i32
          %jb = arith.andi %ji, %c3 : i32
          %jsh = arith.muli %jb, %c8 : i32
          %sout = scf.for %nt = %i0 to %i2 step %i1 iter_args(%sv = %sa) -> (vector<8xf32>) {
            %isn1 = arith.cmpi eq, %nt, %i1 : index
            %w = arith.select %isn1, %wn1, %wn0 : i32
            %b:2 = func.call @uq_sm90_fp4_e4m3(%w) : (i32) -> (i32, i32)
            %el = arith.trunci %b#0 : i32 to i16
            %eh0 = arith.shrui %b#0, %c16 : i32
            %eh = arith.trunci %eh0 : i32 to i16
            %ol = arith.trunci %b#1 : i32 to i16
            %oh0 = arith.shrui %b#1, %c16 : i32
            %oh = arith.trunci %oh0 : i32 to i16
            %h0 = llvm.inline_asm asm_dialect = att "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %el : (i16) -> i32
            %h1 = llvm.inline_asm asm_dialect = att "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %eh : (i16) -> i32
            %h2 = llvm.inline_asm asm_dialect = att "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %ol : (i16) -> i32
            %h3 = llvm.inline_asm asm_dialect = att "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %oh : (i16) -> i32
            %mma0 = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$10,$10,$10};", "=f,=f,=f,=f,r,r,r,r,r,r,f" %q00, %q01, %q02, %q03, %h0, %h1, %zero_f : (i32, i32, i32, i32, i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
            %a0 = llvm.extractvalue %mma0[0] : !llvm.struct<(f32, f32, f32, f32)>
            %a1 = llvm.extractvalue %mma0[1] : !llvm.struct<(f32, f32, f32, f32)>
            %a2 = llvm.extractvalue %mma0[2] : !llvm.struct<(f32, f32, f32, f32)>
            %a3 = llvm.extractvalue %mma0[3] : !llvm.struct<(f32, f32, f32, f32)>
            %mm = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f" %q10, %q11, %q12, %q13, %h2, %h3, %a0, %a1, %a2, %a3 : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
            %m0 = llvm.extractvalue %mm[0] : !llvm.struct<(f32, f32, f32, f32)>
            %m1 = llvm.extractvalue %mm[1] : !llvm.struct<(f32, f32, f32, f32)>
            %m2 = llvm.extractvalue %mm[2] : !llvm.struct<(f32, f32, f32, f32)>
            %m3 = llvm.extractvalue %mm[3] : !llvm.struct<(f32, f32, f32, f32)>
            // scale words: column tokens e = 0, 1 of n-tile nt: ks[(2nt + e) * 2 + jw]
            %ntq4 = arith.muli %nt, %i4 : index
            %jwx = arith.index_cast %jw : i32 to index
            %k0x = arith.addi %ntq4, %jwx : index
            %k1x = arith.addi %k0x, %i2 : index
            %kw0 = vector.extract %ks[%k0x] : i32 from vector<8xi32>
            %kw1 = vector.extract %ks[%k1x] : i32 from vector<8xi32>
            %kb0 = arith.shrui %kw0, %jsh : i32
            %kb1 = arith.shrui %kw1, %jsh : i32
            %kc0 = arith.andi %kb0, %c0xff : i32
            %kc1 = arith.andi %kb1, %c0xff : i32
            %ke0 = arith.shli %kc0, %c23 : i32
            %ke1 = arith.shli %kc1, %c23 : i32
            %sc0 = arith.bitcast %ke0 : i32 to f32
            %sc1 = arith.bitcast %ke1 : i32 to f32
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

    // Scores in base-2 units (x mult) with the positions a row does not
    // attend at -inf: row g's end at %lim_g, row g + 8's at %lim_h (>=
    // lim_g: a later token or the same), each from its window's start
    // (@uq_sm90_window_start).
    func.func private @uq_sm90_mask(%S: vector<8xf32>, %tb: i32, %t2: i32, %lim_g: i32, %lim_h: i32, %sliding_window: i32, %mult: f32) -> vector<8xf32> {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c8 = arith.constant 8 : i32
      %ninf = arith.constant 0xFF800000 : f32
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i8 = arith.constant 8 : index
      // ---- online softmax in base 2 over this tile (rows g and g + 8).
      // Element 4nt + e: row g (e = 0, 1) or g + 8 (e = 2, 3), token
      // tb + 8nt + 2t + (e & 1).
      %inside = func.call @uq_sm90_tile_inside(%tb, %lim_g, %lim_h, %sliding_window) : (i32, i32, i32, i32) -> i1
      %x8 = scf.if %inside -> (vector<8xf32>) {
        %mv = vector.broadcast %mult : f32 to vector<8xf32>
        %xs = arith.mulf %S, %mv : vector<8xf32>
        scf.yield %xs : vector<8xf32>
      } else {
      %x8m = scf.for %e = %i0 to %i8 step %i1 iter_args(%xv = %S) -> (vector<8xf32>) {
        %ei = arith.index_cast %e : index to i32
        %en = arith.shrui %ei, %c2 : i32
        %en8 = arith.muli %en, %c8 : i32
        %ec = arith.andi %ei, %c1 : i32
        %tk0 = arith.addi %tb, %en8 : i32
        %tk1 = arith.addi %tk0, %t2 : i32
        %tk = arith.addi %tk1, %ec : i32
        %eh0 = arith.andi %ei, %c2 : i32
        %eh = arith.cmpi ne, %eh0, %c0 : i32
        %lim = arith.select %eh, %lim_h, %lim_g : i32
        %x = vector.extract %xv[%e] : f32 from vector<8xf32>
        %xm = func.call @uq_sm90_mask_one(%x, %tk, %lim, %sliding_window, %mult) : (f32, i32, i32, i32, f32) -> f32
        %xo = vector.insert %xm, %xv[%e] : f32 into vector<8xf32>
        scf.yield %xo : vector<8xf32>
      }
      scf.yield %x8m : vector<8xf32>
      }
      return %x8 : vector<8xf32>
    }

    // Whether both rows of the lane attend every token of the tile at %tb,
    // the first ending at %lim_a, the second at %lim_b >= lim_a: then the
    // masks are a multiply (uniform across the warp but for a block's
    // boundary tiles).
    func.func private @uq_sm90_tile_inside(%tb: i32, %lim_a: i32, %lim_b: i32, %sliding_window: i32) -> i1 {
      %c16 = arith.constant 16 : i32
      %ws = func.call @uq_sm90_window_start(%lim_b, %sliding_window) : (i32, i32) -> i32
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
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i4 = arith.constant 4 : index
      %tg = arith.addi %tb, %g : i32
      %inside = func.call @uq_sm90_tile_inside(%tb, %lim_a, %lim_b, %sliding_window) : (i32, i32, i32, i32) -> i1
      %x4 = scf.if %inside -> (vector<4xf32>) {
        %mv = vector.broadcast %mult : f32 to vector<4xf32>
        %xs = arith.mulf %S, %mv : vector<4xf32>
        scf.yield %xs : vector<4xf32>
      } else {
      %x4m = scf.for %e = %i0 to %i4 step %i1 iter_args(%xv = %S) -> (vector<4xf32>) {
        %ei = arith.index_cast %e : index to i32
        %eh = arith.shrui %ei, %c1 : i32
        %eh8 = arith.muli %eh, %c8 : i32
        %tk = arith.addi %tg, %eh8 : i32
        %eo0 = arith.andi %ei, %c1 : i32
        %eo = arith.cmpi ne, %eo0, %c0 : i32
        %lim = arith.select %eo, %lim_b, %lim_a : i32
        %x = vector.extract %xv[%e] : f32 from vector<4xf32>
        %xm = func.call @uq_sm90_mask_one(%x, %tk, %lim, %sliding_window, %mult) : (f32, i32, i32, i32, f32) -> f32
        %xo = vector.insert %xm, %xv[%e] : f32 into vector<4xf32>
        scf.yield %xo : vector<4xf32>
      }
      scf.yield %x4m : vector<4xf32>
      }
      return %x4 : vector<4xf32>
    }

    // Score %x of token %tk in base-2 units (x mult), -inf outside the
    // row's positions, which end at %lim (@uq_sm90_window_start).
    func.func private @uq_sm90_mask_one(%x: f32, %tk: i32, %lim: i32, %sliding_window: i32, %mult: f32) -> f32 {
      %ninf = arith.constant 0xFF800000 : f32
      %ws = func.call @uq_sm90_window_start(%lim, %sliding_window) : (i32, i32) -> i32
      %ok0 = arith.cmpi sge, %tk, %ws : i32
      %ok1 = arith.cmpi slt, %tk, %lim : i32
      %ok = arith.andi %ok0, %ok1 : i1
      %xs = arith.mulf %x, %mult : f32
      %xm = arith.select %ok, %xs, %ninf : f32
      return %xm : f32
    }

    // Q^T's B fragments for @uq_sm90_qk_t, loaded once before the tile
    // loop: per group j (D/32 of them, so at most 32 registers) the
    // ldmatrix.x4 at %qaddr + 64 j, both k-steps' b0, b1 at 4 j .. 4 j + 3.
    // Kept in registers, they spare each tile D/32 shared-memory reads.
    func.func private @uq_sm90_q_frags(%qaddr: i32) -> vector<32xi32> {
      %c64 = arith.constant 64 : i32
      %zero32 = arith.constant dense<0> : vector<32xi32>
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i4 = arith.constant 4 : index
      %i32 = arith.constant 32 : index
      %hd = "uq.param"() {name = "d"} : () -> index
      %ng = arith.divui %hd, %i32 : index
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

    // S^T = K Q^T of one tile for QG <= 8 (D/32 groups), on mma.sync
    // m16n8k16 f16 with K as the A operand (16 tokens) and Q^T as B (the 8
    // query rows): one MMA per k-step, where @uq_sm90_qk spends two on 16
    // rows of which 8 are real. Same k order and Q layout as @uq_sm90_qk:
    // B is rows 0..7 of Q's shared copy, in registers (%qf,
    // @uq_sm90_q_frags). Element e: token g + 8 (e >> 1), query row
    // 2t + (e & 1). %ks: K scale words of tokens g, g + 8 (2 each).
    func.func private @uq_sm90_qk_t(%lbase: i32, %qf: vector<32xi32>, %ks: vector<4xi32>) -> vector<4xf32> {
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c8 = arith.constant 8 : i32
      %c16 = arith.constant 16 : i32
      %c23 = arith.constant 23 : i32
      %c32 = arith.constant 32 : i32
      %c64 = arith.constant 64 : i32
      %c0xff = arith.constant 255 : i32
      %zero4 = arith.constant dense<0.0> : vector<4xf32>
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i4 = arith.constant 4 : index
      %i64 = arith.constant 64 : index
      %hd = "uq.param"() {name = "d"} : () -> index
      %njp = arith.divui %hd, %i64 : index
      %S = scf.for %jp = %i0 to %njp step %i1 iter_args(%sacc = %zero4) -> (vector<4xf32>) {
        %jpi = arith.index_cast %jp : index to i32
        %jo = arith.muli %jpi, %c32 : i32
        %la = arith.addi %lbase, %jo : i32
        %kf = llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0,$1,$2,$3}, [$4];", "=r,=r,=r,=r,r,~{memory}" %la : (i32) -> !llvm.struct<(i32, i32, i32, i32)>
        %kf0 = llvm.extractvalue %kf[0] : !llvm.struct<(i32, i32, i32, i32)>
        %kf1 = llvm.extractvalue %kf[1] : !llvm.struct<(i32, i32, i32, i32)>
        %kf2 = llvm.extractvalue %kf[2] : !llvm.struct<(i32, i32, i32, i32)>
        %kf3 = llvm.extractvalue %kf[3] : !llvm.struct<(i32, i32, i32, i32)>
        %sacc2 = scf.for %jj = %i0 to %i2 step %i1 iter_args(%sa = %sacc) -> (vector<4xf32>) {
          %j2 = arith.muli %jp, %i2 : index
          %j = arith.addi %j2, %jj : index
          %ji = arith.index_cast %j : index to i32
          %isodd = arith.cmpi eq, %jj, %i1 : index
          // code words of tokens g and g + 8 in group j
          %wg = arith.select %isodd, %kf2, %kf0 : i32
          %wh = arith.select %isodd, %kf3, %kf1 : i32
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
            %gl = arith.trunci %bg : i32 to i16
            %gh0 = arith.shrui %bg, %c16 : i32
            %gh = arith.trunci %gh0 : i32 to i16
            %hl = arith.trunci %bh : i32 to i16
            %hh0 = arith.shrui %bh, %c16 : i32
            %hh = arith.trunci %hh0 : i32 to i16
            %a0 = llvm.inline_asm asm_dialect = att "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %gl : (i16) -> i32
            %a1 = llvm.inline_asm asm_dialect = att "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %hl : (i16) -> i32
            %a2 = llvm.inline_asm asm_dialect = att "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %gh : (i16) -> i32
            %a3 = llvm.inline_asm asm_dialect = att "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %hh : (i16) -> i32
            %c0v = vector.extract %mv[0] : f32 from vector<4xf32>
            %c1v = vector.extract %mv[1] : f32 from vector<4xf32>
            %c2v = vector.extract %mv[2] : f32 from vector<4xf32>
            %c3v = vector.extract %mv[3] : f32 from vector<4xf32>
            %mm = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f" %a0, %a1, %a2, %a3, %b0, %b1, %c0v, %c1v, %c2v, %c3v : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
            %d0 = llvm.extractvalue %mm[0] : !llvm.struct<(f32, f32, f32, f32)>
            %d1 = llvm.extractvalue %mm[1] : !llvm.struct<(f32, f32, f32, f32)>
            %d2 = llvm.extractvalue %mm[2] : !llvm.struct<(f32, f32, f32, f32)>
            %d3 = llvm.extractvalue %mm[3] : !llvm.struct<(f32, f32, f32, f32)>
            %r = vector.from_elements %d0, %d1, %d2, %d3 : vector<4xf32>
            scf.yield %r : vector<4xf32>
          }
          // group byte j of each token's scale row: word j >> 2, byte j & 3
          %jw = arith.shrui %ji, %c2 : i32
          %jb = arith.andi %ji, %c3 : i32
          %jsh = arith.muli %jb, %c8 : i32
          %jwx = arith.index_cast %jw : i32 to index
          %jwh = arith.addi %jwx, %i2 : index
          %kw0 = vector.extract %ks[%jwx] : i32 from vector<4xi32>
          %kw1 = vector.extract %ks[%jwh] : i32 from vector<4xi32>
          %kb0 = arith.shrui %kw0, %jsh : i32
          %kb1 = arith.shrui %kw1, %jsh : i32
          %kc0 = arith.andi %kb0, %c0xff : i32
          %kc1 = arith.andi %kb1, %c0xff : i32
          %ke0 = arith.shli %kc0, %c23 : i32
          %ke1 = arith.shli %kc1, %c23 : i32
          %sc0 = arith.bitcast %ke0 : i32 to f32
          %sc1 = arith.bitcast %ke1 : i32 to f32
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

    // V's four registers of one group pair of a tile, as ldmatrix.x4.trans
    // gives them: register m holds 16-bit column g of byte half m >> 1 of
    // the pair (codes 4g .. 4g + 3 of group 2 jp + (m >> 1)) of tokens
    // 8 (m & 1) + 2t (low half) and + 1 (high half). ldmatrix reads the
    // lane's row address %la when V rows are 16-byte aligned; else (D = 64:
    // V at byte 34, which cp.async cannot move) 16-bit shared loads from
    // this thread's own element, shared offset %va (token 2t, byte 2g).
    func.func private @uq_sm90_v_frags(%la: i32, %va: i32) -> (i32, i32, i32, i32) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      %c4 = arith.constant 4 : i32
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
        %smem = llvm.mlir.addressof @uq_decode_sm90_smem : !llvm.ptr<3>
        %rows8 = arith.shli %stride, %c3 : i32
        %v = scf.for %m = %i0 to %i4 step %i1 iter_args(%acc = %zero4) -> (vector<4xi32>) {
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
      return %r#0, %r#1, %r#2, %r#3 : i32, i32, i32, i32
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
        %sinks: !llvm.ptr<1> {llvm.noalias, llvm.readonly}) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      // QG is an argument (1 .. qg_max); qg_max picks the code's shape.
      %c0_pre = arith.constant 0 : i32
      %qg_max = "uq.param"() {name = "qg_max"} : () -> index
      %qg_max_i = arith.index_cast %qg_max : index to i32
      %qgi = arith.addi %query_group, %c0_pre : i32
      %c0 = arith.constant 0 : i32
      // The head dim D: the slot geometry (@uq_sm90_slot_geometry), K
      // scales at D/2, V codes at voff, V scales at voff + D/2.
      %hd = "uq.param"() {name = "d"} : () -> index
      %hd_i = arith.index_cast %hd : index to i32
      %c1_g = arith.constant 1 : i32
      %c4_g = arith.constant 4 : i32
      %geo:3 = func.call @uq_sm90_slot_geometry() : () -> (i32, i32, i32)
      %voff = arith.addi %geo#1, %c0 : i32
      %stride = arith.addi %geo#2, %c0 : i32
      %kso = arith.shrui %hd_i, %c1_g : i32
      %vso = arith.addi %voff, %kso : i32
      // a stage: 16 slots; a warp's: %nstages (@uq_sm90_stages)
      %stage_b = arith.shli %stride, %c4_g : i32
      %nstages = func.call @uq_sm90_stages() : () -> i32
      %nstm1 = arith.subi %nstages, %c1_g : i32
      %c2_g = arith.constant 2 : i32
      // per warp D/64 pairs of groups, D/16 m-tiles (QG <= 8) or D/8
      // n-tiles (QG 16) of PV accumulators
      %i64_g = arith.constant 64 : index
      %i16_g = arith.constant 16 : index
      %i8_g = arith.constant 8 : index
      %njp = arith.divui %hd, %i64_g : index
      %nmt = arith.divui %hd, %i16_g : index
      %nnt = arith.divui %hd, %i8_g : index
      // the merge's layout (@uq_sm90_merge_layout): per warp %accw floats
      // of accumulators, maxima and sums from float %mbase, the partials
      // from byte %pbase, their (max, L) from byte %pml
      %mlay:5 = func.call @uq_sm90_merge_layout() : () -> (i32, i32, i32, i32, i32)
      %rows_m = arith.addi %mlay#0, %c0 : i32
      %accw = arith.muli %rows_m, %hd_i : i32
      %mbase = arith.addi %mlay#1, %c0 : i32
      %pbase = arith.addi %mlay#2, %c0 : i32
      %pml = arith.addi %mlay#3, %c0 : i32
      // Q in f16 (the E4M3 values), 16 rows of 2 D + 16 B (odd multiple of
      // 16), after the 4 warps' stages (@uq_sm90_shared_bytes).
      %c8_q = arith.constant 8 : i32
      %small = arith.cmpi ule, %qg_max_i, %c8_q : i32
      %wst_all = arith.muli %stage_b, %nstages : i32
      %q16_off = arith.shli %wst_all, %c2_g : i32
      %c16_g = arith.constant 16 : i32
      %qrow_b0 = arith.shli %hd_i, %c1_g : i32
      %qrow_bytes = arith.addi %qrow_b0, %c16_g : i32
      %i5 = arith.constant 5 : index
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c4 = arith.constant 4 : i32
      %c5 = arith.constant 5 : i32
      %c7 = arith.constant 7 : i32
      %c8 = arith.constant 8 : i32
      %c12 = arith.constant 12 : i32
      %c15 = arith.constant 15 : i32
      %c16 = arith.constant 16 : i32
      %c31 = arith.constant 31 : i32
      %c32 = arith.constant 32 : i32
      %c128 = arith.constant 128 : i32
      %c255 = arith.constant 255 : i32
      %c64 = arith.constant 64 : i32
      %i3 = arith.constant 3 : index
      %ninf = arith.constant 0xFF800000 : f32
      %zero_f = arith.constant 0.0 : f32
      %one_f = arith.constant 1.0 : f32
      %log2e = arith.constant 1.44269504088896340736 : f32
      %ln2 = arith.constant 0.693147180559945309 : f32
      %sixty4 = arith.constant 64.0 : f32
      %zero128 = arith.constant dense<0.0> : vector<128xf32>
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i4 = arith.constant 4 : index
      %i8 = arith.constant 8 : index
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
      %c1_w = arith.constant 1 : i32
      %group_tiles = arith.shli %c1_w, %walk_lg : i32
      // the sequence whose cache this CTA reads, the query (and output and
      // partials) row of its first token, its tokens (blocks of bt =
      // qg_max / QG tokens for varlen, @uq_sm90_query_block) and the
      // positions they attend: the first token's end at end0, the last's at
      // %seq_len, the end of the block's walk (0 for a block of no token).
      // Row r of the block is token r / QG, head r % QG of the group.
      %bt0 = arith.divui %qg_max_i, %qgi : i32
      %bt = arith.maxui %bt0, %c1_g : i32
      %qt:4 = func.call @uq_sm90_query_block(%query_start_loc, %seq_lens, %search_seqs, %bt, %blk_x) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32) -> (i32, i32, i32, i32)
      %seq = arith.addi %qt#0, %c0 : i32
      %qtok = arith.addi %qt#1, %c0 : i32
      %ntok = arith.addi %qt#2, %c0 : i32
      %has_tokens = arith.cmpi sgt, %ntok, %c0 : i32
      %end0 = arith.addi %qt#3, %c1_g : i32
      %lim_last = arith.addi %qt#3, %ntok : i32
      %seq_len = arith.select %has_tokens, %lim_last, %c0 : i32
      %ntok0 = arith.maxsi %ntok, %c0 : i32
      %live_rows = arith.muli %ntok0, %qgi : i32
      // A block of no token (past its sequence's tokens in a vLLM grid)
      // exits here, before any load, so its slot frees at once (all CTAs
      // of a cluster are one block's partitions: they leave together).
      cf.cond_br %has_tokens, ^walk, ^done
    ^walk:
      // ---- Q's loads, issued first: their latency overlaps the dependent
      // chain of the sequence length, the block table and the first tile's
      // copies below (the rotation after them needs only registers). A
      // query row takes R lanes, R = 16 for qg_max <= 8 (2 rows per warp:
      // the 8 rows the QK reads) and 8 for qg_max 16 (4 rows per warp):
      // lane L of warp w loads row (32 / R) w + L / R (row 0 past QG,
      // zeroed later), head dims E (L % R) .. + E - 1, E = D / R (a
      // multiple of 4): 8-byte loads when the query's base and strides keep
      // them aligned, else 2-byte ones.
      %c3_r = arith.constant 3 : i32
      %c4_r = arith.constant 4 : i32
      %lsh = arith.select %small, %c4_r, %c3_r : i32
      %lsh_ix = arith.index_cast %lsh : i32 to index
      %qe = arith.shrui %hd, %lsh_ix : index
      %qe_i = arith.index_cast %qe : index to i32
      %seq64 = arith.extui %seq : i32 to i64
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
      %qvec = arith.cmpi eq, %qal3, %c0_q64 : i64
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
      // ---- the block table entry of the lane's token of the warp's first
      // tile, loaded now, beside the sequence length instead of after it:
      // without a window the tile's first token (@uq_sm90_tile_base with
      // window base 0) does not depend on the length, only the clamp of
      // tokens past it does (@uq_sm90_lane_token), and those lanes (and
      // every lane under a window) load again once it is known. The block
      // index is clamped into the table row, so the read stays in bounds.
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
      // ---- the partition's tiles (@uq_sm90_tile_base): of the groups of
      // G tiles from the window base to seq_len, groups p, p + P, ..., at
      // most TGPP of them, and of the last one only the tiles with a token
      // (for G = 16 the gfx950 walk exactly).
      // (from the first token's window start, at most the walk's end)
      %win1 = func.call @uq_sm90_window_start(%end0, %sliding_window) : (i32, i32) -> i32
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


      // ---- the warp's tiles: k = warp + 4 i, i < nw, through its own cp.async
      // pipeline of nstages stages (16 slots each) in shared memory. Its
      // first copies are issued before Q's rotation below, whose loads and
      // math then overlap their latency.
      %nw0 = arith.subi %ntiles, %warp : i32
      %nw1 = arith.addi %nw0, %c3 : i32
      %nw2 = arith.shrsi %nw1, %c2 : i32
      %nw3 = arith.cmpi sgt, %ntiles, %warp : i32
      %nw = arith.select %nw3, %nw2, %c0 : i32
      %bs_mask = arith.subi %block_size, %c1 : i32
      %pos_stride = arith.muli %num_kv_heads, %padded_slot : i32
      %bb = arith.muli %block_size, %pos_stride : i32
      %blk_bytes = arith.extui %bb : i32 to i64
      %head_off = arith.muli %kvh, %padded_slot : i32
      %slot7 = arith.andi %padded_slot, %c7 : i32
      %unit8 = arith.cmpi eq, %slot7, %c0 : i32
      %mult0 = arith.mulf %softmax_scale, %log2e : f32
      %mult = arith.mulf %mult0, %sixty4 : f32
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
      %nw_ix = arith.index_cast %nw : i32 to index
      %zero64 = arith.constant dense<0.0> : vector<64xf32>
      // combine layout: acc [rows][256] f32 per warp, rows = 8 (QG <= 8) or
      // 16; then max and sum [16] per warp at float index rows * 1024
      %qrow = arith.muli %lrow, %qrow_bytes : i32
      %qaddr0 = arith.addi %smem_i, %q16_off : i32
      %qaddr1 = arith.addi %qaddr0, %qrow : i32
      %qaddr = arith.addi %qaddr1, %lgo : i32
      // The warp's pipeline: nstages stages (@uq_sm90_stages),
      // its first nstages - 1 tiles issued now (one commit group each,
      // empty or not), then the block of tile nstages - 1; each iteration
      // issues one tile and loads the block of the one after.
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
      // ---- Q: lane L of warp w rotates the row it loaded (zero past QG),
      // head dims E (L % R) .. + E - 1 in registers, E = D / R:
      // Walsh-Hadamard butterflies of strides 1 .. E / 2 in registers, E,
      // 2 E, .. R E / 2 across the row's R lanes (the host reference's order:
      // strides ascending, the lower index gets a + b, the upper a - b),
      // x 1/sqrt(D), E4M3 with saturation, then f16 into shared memory at
      // the k order of the QK fragments (see uq_sm90_qk). Its elements are
      // the bf16 loaded at the start, as f32, zero past QG.
      %zero32f = arith.constant dense<0.0> : vector<32xf32>
      %qv0 = scf.for %x = %i0 to %qe step %i1 iter_args(%v = %zero32f) -> (vector<32xf32>) {
        %qb = vector.extract %qraw[%x] : i16 from vector<32xi16>
        %qb32 = arith.extui %qb : i16 to i32
        %qb32s = arith.shli %qb32, %c16 : i32
        %qf = arith.bitcast %qb32s : i32 to f32
        %qz = arith.select %q_in, %qf, %zero_f : f32
        %v1 = vector.insert %qz, %v[%x] : f32 into vector<32xf32>
        scf.yield %v1 : vector<32xf32>
      }
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
      // x 1/sqrt(D), E4M3 (saturating) and back to f16, at the permuted
      // position (d & ~31) | (d & 1) << 4 | ((d >> 2) & 1) << 3 |
      // ((d >> 3) & 3) << 1 | ((d >> 1) & 1), d = E chunk + x: a permutation
      // of bits, so the lane's base E chunk (a multiple of 8) and x permute
      // apart; rows of 2 D + 16 B after the stages. 1/sqrt(D) as sqrt(1/D):
      // uq_wht_scale's f32 bit for bit (as in @uq_store), folded to a
      // constant once specialized.
      %hd_f = arith.uitofp %hd_i : i32 to f32
      %inv_hd = arith.divf %one_f, %hd_f : f32
      %wht_scale = math.sqrt %inv_hd : f32
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
      %qd_pos = arith.ori %qd_hi, %qd_p6 : i32
      %qd0b = arith.muli %qd_pos, %c2 : i32
      %qrow_b3 = arith.addi %qrow_b2, %qd0b : i32
      scf.for %x2 = %i0 to %qe2 step %i1 {
        %x = arith.muli %x2, %i2 : index
        %x1 = arith.addi %x, %i1 : index
        %a = vector.extract %qv2[%x] : f32 from vector<32xf32>
        %b = vector.extract %qv2[%x1] : f32 from vector<32xf32>
        %s0f = arith.mulf %a, %wht_scale : f32
        %s1f = arith.mulf %b, %wht_scale : f32
        // x + (x - x): +-inf -> NaN, so an infinite query element gives a
        // non-finite head (satfinite would clamp it to +-448), as on gfx950.
        %z0 = arith.subf %s0f, %s0f : f32
        %z1 = arith.subf %s1f, %s1f : f32
        %s0 = arith.addf %s0f, %z0 : f32
        %s1 = arith.addf %s1f, %z1 : f32
        %pk = llvm.inline_asm asm_dialect = att "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,f,f" %s1, %s0 : (f32, f32) -> i16
        %hv = llvm.inline_asm asm_dialect = att "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %pk : (i16) -> i32
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
      gpu.barrier
      scf.if %small {
        // ---- QG <= 8: S^T = K Q^T and PV as O^T = V^T P^T (M = head
        // dim), so the accumulators hold only the 8 real query rows (64 at
        // D = 256) and half the PV MMAs; each m-tile lies in one V group,
        // so the group's V scales go into P^T's token rows. nst stages.
        // Q^T fragments (@uq_sm90_qk_t): row l & 7, 16-byte column l >> 3
        %qt0 = arith.muli %lr0, %qrow_bytes : i32
        %qt1 = arith.addi %qaddr0, %qt0 : i32
        %qt2 = arith.shli %lr1, %c4 : i32
        %qaddr_t = arith.addi %qt1, %qt2 : i32
        %qf = func.call @uq_sm90_q_frags(%qaddr_t) : (i32) -> vector<32xi32>
        // the ends of the lane's query rows 2t and 2t + 1 (@uq_sm90_mask_t)
        %t2p = arith.addi %t2, %c1 : i32
        %lim_a = func.call @uq_sm90_row_limit(%t2, %qgi, %live_rows, %end0) : (i32, i32, i32, i32) -> i32
        %lim_b = func.call @uq_sm90_row_limit(%t2p, %qgi, %live_rows, %end0) : (i32, i32, i32, i32) -> i32
        %fin:6 = scf.for %it = %i0 to %nw_ix step %i1 iter_args(%m_0 = %ninf, %m_1 = %ninf, %l_0 = %zero_f, %l_1 = %zero_f, %acc = %zero64, %pf = %pf0) -> (f32, f32, f32, f32, vector<64xf32>, i32) {
          %iti = arith.index_cast %it : index to i32
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
          %n3 = arith.addi %iti, %nstages : i32
          %nk4 = arith.muli %n3, %c4 : i32
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
          %ks:2 = func.call @uq_sm90_scale_row(%sbp, %g, %kso, %stride) : (!llvm.ptr<3>, i32, i32, i32) -> (i32, i32)
          %g8s = arith.addi %g, %c8 : i32
          %kh:2 = func.call @uq_sm90_scale_row(%sbp, %g8s, %kso, %stride) : (!llvm.ptr<3>, i32, i32, i32) -> (i32, i32)
          %ks4 = vector.from_elements %ks#0, %ks#1, %kh#0, %kh#1 : vector<4xi32>
          %S = func.call @uq_sm90_qk_t(%lbase, %qf, %ks4) : (i32, vector<32xi32>, vector<4xi32>) -> vector<4xf32>
          // softmax per query column: 2t (x0, x2: tokens g, g + 8) and
          // 2t + 1 (x1, x3). The running maximum m is lazy
          // (@uq_sm90_lazy_max): a tile moves it only where some score
          // exceeds m + 8, which one vote over the warp finds. Only then
          // (the first tiles, and rarely after) do the column maxima over
          // the 8 lanes of a column, the correction and the accumulators'
          // rescale run; the common tile takes its weights straight from m,
          // without the shuffles' latency.
          %x4 = func.call @uq_sm90_mask_t(%S, %tb, %g, %lim_a, %lim_b, %sliding_window, %mult) : (vector<4xf32>, i32, i32, i32, i32, i32, f32) -> vector<4xf32>
          %x0 = vector.extract %x4[0] : f32 from vector<4xf32>
          %x1 = vector.extract %x4[1] : f32 from vector<4xf32>
          %x2 = vector.extract %x4[2] : f32 from vector<4xf32>
          %x3 = vector.extract %x4[3] : f32 from vector<4xf32>
          %ma0 = arith.maximumf %x0, %x2 : f32
          %mb0 = arith.maximumf %x1, %x3 : f32
          %lim0 = func.call @uq_sm90_lazy_limit(%m_0) : (f32) -> f32
          %lim1 = func.call @uq_sm90_lazy_limit(%m_1) : (f32) -> f32
          %up0 = arith.cmpf ogt, %ma0, %lim0 : f32
          %up1 = arith.cmpf ogt, %mb0, %lim1 : f32
          %up = arith.ori %up0, %up1 : i1
          %upi = arith.extui %up : i1 to i32
          %any = llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.u32 p, $1, 0; vote.sync.any.pred p, p, 0xffffffff; selp.u32 $0, 1, 0, p; }", "=r,r" %upi : (i32) -> i32
          %anyb = arith.cmpi ne, %any, %c0 : i32
          %mv:5 = scf.if %anyb -> (f32, f32, f32, f32, vector<64xf32>) {
            %mx:2 = scf.for %st = %i0 to %i3 step %i1 iter_args(%ma = %ma0, %mb = %mb0) -> (f32, f32) {
              %sti = arith.index_cast %st : index to i32
              %sh = arith.addi %sti, %c2 : i32
              %msk = arith.shli %c1, %sh : i32
              %oa, %va = gpu.shuffle xor %ma, %msk, %c32 : f32
              %ob, %vb = gpu.shuffle xor %mb, %msk, %c32 : f32
              %na = arith.maximumf %ma, %oa : f32
              %nb = arith.maximumf %mb, %ob : f32
              scf.yield %na, %nb : f32, f32
            }
            %mu0 = func.call @uq_sm90_lazy_max(%m_0, %mx#0) : (f32, f32) -> f32
            %mu1 = func.call @uq_sm90_lazy_max(%m_1, %mx#1) : (f32, f32) -> f32
            %empty0 = arith.cmpf oeq, %mu0, %ninf : f32
            %empty1 = arith.cmpf oeq, %mu1, %ninf : f32
            %dm0 = arith.subf %m_0, %mu0 : f32
            %dm1 = arith.subf %m_1, %mu1 : f32
            %em0 = func.call @uq_sm90_exp2(%dm0) : (f32) -> f32
            %em1 = func.call @uq_sm90_exp2(%dm1) : (f32) -> f32
            %cu0 = arith.select %empty0, %one_f, %em0 : f32
            %cu1 = arith.select %empty1, %one_f, %em1 : f32
            // accumulator columns are query rows 2t, 2t + 1, this lane's
            // own (a column whose maximum stayed gets x 1, exact)
            %sc = scf.for %mt = %i0 to %nmt step %i1 iter_args(%ai = %acc) -> (vector<64xf32>) {
              %o = arith.muli %mt, %i4 : index
              %o1 = arith.addi %o, %i1 : index
              %o2 = arith.addi %o, %i2 : index
              %o3 = arith.addi %o2, %i1 : index
              %v0 = vector.extract %ai[%o] : f32 from vector<64xf32>
              %v1 = vector.extract %ai[%o1] : f32 from vector<64xf32>
              %v2 = vector.extract %ai[%o2] : f32 from vector<64xf32>
              %v3 = vector.extract %ai[%o3] : f32 from vector<64xf32>
              %w0 = arith.mulf %v0, %cu0 : f32
              %w1 = arith.mulf %v1, %cu1 : f32
              %w2 = arith.mulf %v2, %cu0 : f32
              %w3 = arith.mulf %v3, %cu1 : f32
              %u0 = vector.insert %w0, %ai[%o] : f32 into vector<64xf32>
              %u1 = vector.insert %w1, %u0[%o1] : f32 into vector<64xf32>
              %u2 = vector.insert %w2, %u1[%o2] : f32 into vector<64xf32>
              %u3 = vector.insert %w3, %u2[%o3] : f32 into vector<64xf32>
              scf.yield %u3 : vector<64xf32>
            }
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
          // P^T as the B fragment: (tokens 2t, 2t + 1) and (2t + 8, 2t + 9)
          // of query row g, bf16. This lane holds (token g, query rows 2t,
          // 2t + 1) and (token g + 8, ...): 8x8 b16 matrices [token][query]
          // in the fragment layout, so a transpose gives [query][token].
          %pt0 = llvm.inline_asm asm_dialect = att "cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f" %p1, %p0 : (f32, f32) -> i32
          %pt1 = llvm.inline_asm asm_dialect = att "cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f" %p3, %p2 : (f32, f32) -> i32
          %pb0 = llvm.inline_asm has_side_effects asm_dialect = att "movmatrix.sync.aligned.m8n8.trans.b16 $0, $1;", "=r,r" %pt0 : (i32) -> i32
          %pb1 = llvm.inline_asm has_side_effects asm_dialect = att "movmatrix.sync.aligned.m8n8.trans.b16 $0, $1;", "=r,r" %pt1 : (i32) -> i32
          %vs = func.call @uq_sm90_scale_words(%sbp, %t2, %vso, %stride) : (!llvm.ptr<3>, i32, i32, i32) -> vector<8xi32>
          %accv = scf.for %jp = %i0 to %njp step %i1 iter_args(%av = %mv#4) -> (vector<64xf32>) {
            %jpi = arith.index_cast %jp : index to i32
            %jo = arith.muli %jpi, %c32 : i32
            %la0 = arith.addi %lbase, %jo : i32
            %la = arith.addi %la0, %voff : i32
            %va = arith.addi %la, %vdelta : i32
            %vf:4 = func.call @uq_sm90_v_frags(%la, %va) : (i32, i32) -> (i32, i32, i32, i32)
            %av2 = scf.for %jj = %i0 to %i2 step %i1 iter_args(%aa = %av) -> (vector<64xf32>) {
              %j2 = arith.muli %jp, %i2 : index
              %j = arith.addi %j2, %jj : index
              %ji = arith.index_cast %j : index to i32
              %isodd = arith.cmpi eq, %jj, %i1 : index
              %rlo = arith.select %isodd, %vf#2, %vf#0 : i32
              %rhi = arith.select %isodd, %vf#3, %vf#1 : i32
              %vjw = arith.divui %j, %i4 : index
              %vjw2 = arith.addi %vjw, %i2 : index
              %vjw4 = arith.addi %vjw, %i4 : index
              %vjw6 = arith.addi %vjw4, %i2 : index
              %vw0 = vector.extract %vs[%vjw] : i32 from vector<8xi32>
              %vw1 = vector.extract %vs[%vjw2] : i32 from vector<8xi32>
              %vw2 = vector.extract %vs[%vjw4] : i32 from vector<8xi32>
              %vw3 = vector.extract %vs[%vjw6] : i32 from vector<8xi32>
              %sv:2 = func.call @uq_sm90_v_scales(%vw0, %vw1, %vw2, %vw3, %ji) : (i32, i32, i32, i32, i32) -> (i32, i32)
              // every m-tile of group j lies in group j: its scales go into
              // P^T's token rows (exact: bf16(p) times a power of two)
              %pj0 = llvm.inline_asm asm_dialect = att "mul.rn.bf16x2 $0, $1, $2;", "=r,r,r" %pb0, %sv#0 : (i32, i32) -> i32
              %pj1 = llvm.inline_asm asm_dialect = att "mul.rn.bf16x2 $0, $1, $2;", "=r,r,r" %pb1, %sv#1 : (i32, i32) -> i32
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
                %o = arith.muli %mt, %i4 : index
                %o1 = arith.addi %o, %i1 : index
                %o2 = arith.addi %o, %i2 : index
                %o3 = arith.addi %o2, %i1 : index
                %c0v = vector.extract %ai[%o] : f32 from vector<64xf32>
                %c1v = vector.extract %ai[%o1] : f32 from vector<64xf32>
                %c2v = vector.extract %ai[%o2] : f32 from vector<64xf32>
                %c3v = vector.extract %ai[%o3] : f32 from vector<64xf32>
                %mm = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f" %e0, %e1, %e2, %e3, %pj0, %pj1, %c0v, %c1v, %c2v, %c3v : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
                %r0 = llvm.extractvalue %mm[0] : !llvm.struct<(f32, f32, f32, f32)>
                %r1 = llvm.extractvalue %mm[1] : !llvm.struct<(f32, f32, f32, f32)>
                %r2 = llvm.extractvalue %mm[2] : !llvm.struct<(f32, f32, f32, f32)>
                %r3 = llvm.extractvalue %mm[3] : !llvm.struct<(f32, f32, f32, f32)>
                %u0 = vector.insert %r0, %ai[%o] : f32 into vector<64xf32>
                %u1 = vector.insert %r1, %u0[%o1] : f32 into vector<64xf32>
                %u2 = vector.insert %r2, %u1[%o2] : f32 into vector<64xf32>
                %u3 = vector.insert %r3, %u2[%o3] : f32 into vector<64xf32>
                scf.yield %u3 : vector<64xf32>
              }
              scf.yield %aout : vector<64xf32>
            }
            scf.yield %av2 : vector<64xf32>
          }
          llvm.inline_asm has_side_effects asm_dialect = att "bar.warp.sync 0xffffffff;", "~{memory}" : () -> ()
          scf.yield %mv#0, %mv#1, %ln0, %ln1, %accv, %pf_next : f32, f32, f32, f32, vector<64xf32>, i32
        }
        llvm.inline_asm has_side_effects asm_dialect = att "cp.async.wait_group 0;", "~{memory}" : () -> ()
        %lr:2 = scf.for %st = %i0 to %i3 step %i1 iter_args(%la = %fin#2, %lb = %fin#3) -> (f32, f32) {
          %sti = arith.index_cast %st : index to i32
          %sh = arith.addi %sti, %c2 : i32
          %msk = arith.shli %c1, %sh : i32
          %oa, %va = gpu.shuffle xor %la, %msk, %c32 : f32
          %ob, %vb = gpu.shuffle xor %lb, %msk, %c32 : f32
          %na = arith.addf %la, %oa : f32
          %nb = arith.addf %lb, %ob : f32
          scf.yield %na, %nb : f32, f32
        }
        gpu.barrier
        // acc of m-tile mt = 2j + ip: head dims 32j + 4g + 2ip (+1 for c2,
        // c3), query rows 2t (c0, c2) and 2t + 1 (c1, c3); [8][256] per warp.
        %wacc = arith.muli %warp, %accw : i32
        %q0r = arith.muli %t2, %hd_i : i32
        %q1r = arith.addi %q0r, %hd_i : i32
        %g4 = arith.muli %g, %c4 : i32
        scf.for %mt = %i0 to %nmt step %i1 {
          %mti = arith.index_cast %mt : index to i32
          %j = arith.shrui %mti, %c1 : i32
          %ip = arith.andi %mti, %c1 : i32
          %dj = arith.muli %j, %c32 : i32
          %dip = arith.shli %ip, %c1 : i32
          %dd0 = arith.addi %dj, %g4 : i32
          %dd = arith.addi %dd0, %dip : i32
          %e0a = arith.addi %q0r, %dd : i32
          %e1a = arith.addi %q1r, %dd : i32
          %e0 = arith.addi %wacc, %e0a : i32
          %e1 = arith.addi %wacc, %e1a : i32
          %o = arith.muli %mt, %i4 : index
          %o1 = arith.addi %o, %i1 : index
          %o2 = arith.addi %o, %i2 : index
          %o3 = arith.addi %o2, %i1 : index
          %v0 = vector.extract %fin#4[%o] : f32 from vector<64xf32>
          %v1 = vector.extract %fin#4[%o1] : f32 from vector<64xf32>
          %v2 = vector.extract %fin#4[%o2] : f32 from vector<64xf32>
          %v3 = vector.extract %fin#4[%o3] : f32 from vector<64xf32>
          // (c0, c2) and (c1, c3) are adjacent head dims of one row
          %q0 = llvm.getelementptr %smem[%e0] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %q1 = llvm.getelementptr %smem[%e1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %w02 = vector.from_elements %v0, %v2 : vector<2xf32>
          %w13 = vector.from_elements %v1, %v3 : vector<2xf32>
          llvm.store %w02, %q0 {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
          llvm.store %w13, %q1 {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
        }
        %g0 = arith.cmpi eq, %g, %c0 : i32
        scf.if %g0 {
          // warp x 16 from tid: from warp, ptxas computed it before the
          // tile loop and spilled it there (built for 128 registers)
          %cm16_m = arith.constant -16 : i32
          %wm0 = arith.shrui %tid, %c1 : i32
          %wm = arith.andi %wm0, %cm16_m : i32
          %mqa = arith.addi %wm, %t2 : i32
          %mqi = arith.addi %mqa, %mbase : i32
          %mqi1 = arith.addi %mqi, %c1 : i32
          %lqi = arith.addi %mqi, %c64 : i32
          %lqi1 = arith.addi %lqi, %c1 : i32
          %pm0 = llvm.getelementptr %smem[%mqi] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %pm1 = llvm.getelementptr %smem[%mqi1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %pl0 = llvm.getelementptr %smem[%lqi] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %pl1 = llvm.getelementptr %smem[%lqi1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %fin#0, %pm0 {alignment = 4 : i64} : f32, !llvm.ptr<3>
          llvm.store %fin#1, %pm1 {alignment = 4 : i64} : f32, !llvm.ptr<3>
          llvm.store %lr#0, %pl0 {alignment = 4 : i64} : f32, !llvm.ptr<3>
          llvm.store %lr#1, %pl1 {alignment = 4 : i64} : f32, !llvm.ptr<3>
        }
      } else {
        // the ends of the lane's query rows g and g + 8 (@uq_sm90_mask)
        %lim_g = func.call @uq_sm90_row_limit(%g, %qgi, %live_rows, %end0) : (i32, i32, i32, i32) -> i32
        %lim_h = func.call @uq_sm90_row_limit(%g8, %qgi, %live_rows, %end0) : (i32, i32, i32, i32) -> i32
        %fin:6 = scf.for %it = %i0 to %nw_ix step %i1 iter_args(%m_g = %ninf, %m_g8 = %ninf, %l_g = %zero_f, %l_g8 = %zero_f, %acc = %zero128, %pf = %pf0) -> (f32, f32, f32, f32, vector<128xf32>, i32) {
          %iti = arith.index_cast %it : index to i32
          // next copy: tile i + nstages - 1 into its stage
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

          %ks = func.call @uq_sm90_scale_words(%sbp, %t2, %kso, %stride) : (!llvm.ptr<3>, i32, i32, i32) -> vector<8xi32>
          %S = func.call @uq_sm90_qk(%lbase, %qaddr, %ks) : (i32, i32, vector<8xi32>) -> vector<8xf32>
          %x8 = func.call @uq_sm90_mask(%S, %tb, %t2, %lim_g, %lim_h, %sliding_window, %mult) : (vector<8xf32>, i32, i32, i32, i32, i32, f32) -> vector<8xf32>
          %x0 = vector.extract %x8[0] : f32 from vector<8xf32>
          %x1 = vector.extract %x8[1] : f32 from vector<8xf32>
          %x2 = vector.extract %x8[2] : f32 from vector<8xf32>
          %x3 = vector.extract %x8[3] : f32 from vector<8xf32>
          %x4 = vector.extract %x8[4] : f32 from vector<8xf32>
          %x5 = vector.extract %x8[5] : f32 from vector<8xf32>
          %x6 = vector.extract %x8[6] : f32 from vector<8xf32>
          %x7 = vector.extract %x8[7] : f32 from vector<8xf32>
          // rows g (x0, x1, x4, x5) and g + 8 (x2, x3, x6, x7): the lazy
          // maximum's move found by one vote, as for QG <= 8 above
          %mg0 = arith.maximumf %x0, %x1 : f32
          %mg1 = arith.maximumf %x4, %x5 : f32
          %mg2 = arith.maximumf %mg0, %mg1 : f32
          %mh0 = arith.maximumf %x2, %x3 : f32
          %mh1 = arith.maximumf %x6, %x7 : f32
          %mh2 = arith.maximumf %mh0, %mh1 : f32
          %limg = func.call @uq_sm90_lazy_limit(%m_g) : (f32) -> f32
          %limh = func.call @uq_sm90_lazy_limit(%m_g8) : (f32) -> f32
          %upg = arith.cmpf ogt, %mg2, %limg : f32
          %uph = arith.cmpf ogt, %mh2, %limh : f32
          %up = arith.ori %upg, %uph : i1
          %upi = arith.extui %up : i1 to i32
          %any = llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.u32 p, $1, 0; vote.sync.any.pred p, p, 0xffffffff; selp.u32 $0, 1, 0, p; }", "=r,r" %upi : (i32) -> i32
          %anyb = arith.cmpi ne, %any, %c0 : i32
          %mv:5 = scf.if %anyb -> (f32, f32, f32, f32, vector<128xf32>) {
            %sg1, %vg1 = gpu.shuffle xor %mg2, %c1, %c32 : f32
            %mg3 = arith.maximumf %mg2, %sg1 : f32
            %sg2, %vg2 = gpu.shuffle xor %mg3, %c2, %c32 : f32
            %mg4 = arith.maximumf %mg3, %sg2 : f32
            %sh1, %vh1 = gpu.shuffle xor %mh2, %c1, %c32 : f32
            %mh3 = arith.maximumf %mh2, %sh1 : f32
            %sh2, %vh2 = gpu.shuffle xor %mh3, %c2, %c32 : f32
            %mh4 = arith.maximumf %mh3, %sh2 : f32
            %mug = func.call @uq_sm90_lazy_max(%m_g, %mg4) : (f32, f32) -> f32
            %muh = func.call @uq_sm90_lazy_max(%m_g8, %mh4) : (f32, f32) -> f32
            %emptyg = arith.cmpf oeq, %mug, %ninf : f32
            %emptyh = arith.cmpf oeq, %muh, %ninf : f32
            %dg = arith.subf %m_g, %mug : f32
            %dh = arith.subf %m_g8, %muh : f32
            %eg = func.call @uq_sm90_exp2(%dg) : (f32) -> f32
            %eh = func.call @uq_sm90_exp2(%dh) : (f32) -> f32
            %corr_g = arith.select %emptyg, %one_f, %eg : f32
            %corr_h = arith.select %emptyh, %one_f, %eh : f32
            %sc = scf.for %nt = %i0 to %nnt step %i1 iter_args(%ai = %acc) -> (vector<128xf32>) {
              %o = arith.muli %nt, %i4 : index
              %o1 = arith.addi %o, %i1 : index
              %o2 = arith.addi %o, %i2 : index
              %o3 = arith.addi %o2, %i1 : index
              %v0 = vector.extract %ai[%o] : f32 from vector<128xf32>
              %v1 = vector.extract %ai[%o1] : f32 from vector<128xf32>
              %v2 = vector.extract %ai[%o2] : f32 from vector<128xf32>
              %v3 = vector.extract %ai[%o3] : f32 from vector<128xf32>
              %w0 = arith.mulf %v0, %corr_g : f32
              %w1 = arith.mulf %v1, %corr_g : f32
              %w2 = arith.mulf %v2, %corr_h : f32
              %w3 = arith.mulf %v3, %corr_h : f32
              %u0 = vector.insert %w0, %ai[%o] : f32 into vector<128xf32>
              %u1 = vector.insert %w1, %u0[%o1] : f32 into vector<128xf32>
              %u2 = vector.insert %w2, %u1[%o2] : f32 into vector<128xf32>
              %u3 = vector.insert %w3, %u2[%o3] : f32 into vector<128xf32>
              scf.yield %u3 : vector<128xf32>
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
          %p0 = vector.extract %pv[0] : f32 from vector<8xf32>
          %p1 = vector.extract %pv[1] : f32 from vector<8xf32>
          %p2 = vector.extract %pv[2] : f32 from vector<8xf32>
          %p3 = vector.extract %pv[3] : f32 from vector<8xf32>
          %p4 = vector.extract %pv[4] : f32 from vector<8xf32>
          %p5 = vector.extract %pv[5] : f32 from vector<8xf32>
          %p6 = vector.extract %pv[6] : f32 from vector<8xf32>
          %p7v = vector.extract %pv[7] : f32 from vector<8xf32>
          %sg_0 = arith.addf %p0, %p1 : f32
          %sg_1 = arith.addf %p4, %p5 : f32
          %sg_2 = arith.addf %sg_0, %sg_1 : f32
          %sh_0 = arith.addf %p2, %p3 : f32
          %sh_1 = arith.addf %p6, %p7v : f32
          %sh_2 = arith.addf %sh_0, %sh_1 : f32
          %lg_new = math.fma %l_g, %mv#2, %sg_2 : f32
          %lh_new = math.fma %l_g8, %mv#3, %sh_2 : f32
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
          %accv = scf.for %jp = %i0 to %njp step %i1 iter_args(%av = %mv#4) -> (vector<128xf32>) {
            %jpi = arith.index_cast %jp : index to i32
            %jo = arith.muli %jpi, %c32 : i32
            %la0 = arith.addi %lbase, %jo : i32
            %la = arith.addi %la0, %voff : i32
            %va = arith.addi %la, %vdelta : i32
            %vf:4 = func.call @uq_sm90_v_frags(%la, %va) : (i32, i32) -> (i32, i32, i32, i32)
            %av2 = scf.for %jj = %i0 to %i2 step %i1 iter_args(%aa = %av) -> (vector<128xf32>) {
              %j2 = arith.muli %jp, %i2 : index
              %j = arith.addi %j2, %jj : index
              %ji = arith.index_cast %j : index to i32
              %isodd = arith.cmpi eq, %jj, %i1 : index
              %rlo = arith.select %isodd, %vf#2, %vf#0 : i32
              %rhi = arith.select %isodd, %vf#3, %vf#1 : i32
              %vjw = arith.divui %j, %i4 : index
              %vjw2 = arith.addi %vjw, %i2 : index
              %vjw4 = arith.addi %vjw, %i4 : index
              %vjw6 = arith.addi %vjw4, %i2 : index
              %vw0 = vector.extract %vs[%vjw] : i32 from vector<8xi32>
              %vw1 = vector.extract %vs[%vjw2] : i32 from vector<8xi32>
              %vw2 = vector.extract %vs[%vjw4] : i32 from vector<8xi32>
              %vw3 = vector.extract %vs[%vjw6] : i32 from vector<8xi32>
              %sv:2 = func.call @uq_sm90_v_scales(%vw0, %vw1, %vw2, %vw3, %ji) : (i32, i32, i32, i32, i32) -> (i32, i32)
              %s01 = arith.addi %sv#0, %c0 : i32
              %s89 = arith.addi %sv#1, %c0 : i32
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
                %o = arith.muli %nt, %i4 : index
                %o1 = arith.addi %o, %i1 : index
                %o2 = arith.addi %o, %i2 : index
                %o3 = arith.addi %o2, %i1 : index
                %c0v = vector.extract %ai[%o] : f32 from vector<128xf32>
                %c1v = vector.extract %ai[%o1] : f32 from vector<128xf32>
                %c2v = vector.extract %ai[%o2] : f32 from vector<128xf32>
                %c3v = vector.extract %ai[%o3] : f32 from vector<128xf32>
                %mm = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f" %pj0, %pj1, %pj2, %pj3, %b0, %b1, %c0v, %c1v, %c2v, %c3v : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
                %d0 = llvm.extractvalue %mm[0] : !llvm.struct<(f32, f32, f32, f32)>
                %d1 = llvm.extractvalue %mm[1] : !llvm.struct<(f32, f32, f32, f32)>
                %d2 = llvm.extractvalue %mm[2] : !llvm.struct<(f32, f32, f32, f32)>
                %d3 = llvm.extractvalue %mm[3] : !llvm.struct<(f32, f32, f32, f32)>
                %u0 = vector.insert %d0, %ai[%o] : f32 into vector<128xf32>
                %u1 = vector.insert %d1, %u0[%o1] : f32 into vector<128xf32>
                %u2 = vector.insert %d2, %u1[%o2] : f32 into vector<128xf32>
                %u3 = vector.insert %d3, %u2[%o3] : f32 into vector<128xf32>
                scf.yield %u3 : vector<128xf32>
              }
              scf.yield %aout : vector<128xf32>
            }
            scf.yield %av2 : vector<128xf32>
          }
          llvm.inline_asm has_side_effects asm_dialect = att "bar.warp.sync 0xffffffff;", "~{memory}" : () -> ()
          scf.yield %mv#0, %mv#1, %lg_new, %lh_new, %accv, %pf_next : f32, f32, f32, f32, vector<128xf32>, i32
        }
        llvm.inline_asm has_side_effects asm_dialect = att "cp.async.wait_group 0;", "~{memory}" : () -> ()
        // ---- merge the 4 warps: per warp acc [16][256] f32 at w * 16384,
        // max and sum [16] f32 at 65536 + w * 64 and 65792 + w * 64.
        %lq1, %vq1 = gpu.shuffle xor %fin#2, %c1, %c32 : f32
        %lq2 = arith.addf %fin#2, %lq1 : f32
        %lq3, %vq3 = gpu.shuffle xor %lq2, %c2, %c32 : f32
        %l_g_tot = arith.addf %lq2, %lq3 : f32
        %lh1, %vh1q = gpu.shuffle xor %fin#3, %c1, %c32 : f32
        %lh2 = arith.addf %fin#3, %lh1 : f32
        %lh3, %vh3q = gpu.shuffle xor %lh2, %c2, %c32 : f32
        %l_h_tot = arith.addf %lh2, %lh3 : f32
        gpu.barrier
        %wacc = arith.muli %warp, %accw : i32
        scf.for %nt = %i0 to %nnt step %i1 {
          %nti = arith.index_cast %nt : index to i32
          %j = arith.shrui %nti, %c2 : i32
          %i = arith.andi %nti, %c3 : i32
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
          %o = arith.muli %nt, %i4 : index
          %o1 = arith.addi %o, %i1 : index
          %o2 = arith.addi %o, %i2 : index
          %o3 = arith.addi %o2, %i1 : index
          %v0 = vector.extract %fin#4[%o] : f32 from vector<128xf32>
          %v1 = vector.extract %fin#4[%o1] : f32 from vector<128xf32>
          %v2 = vector.extract %fin#4[%o2] : f32 from vector<128xf32>
          %v3 = vector.extract %fin#4[%o3] : f32 from vector<128xf32>
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
          %lgi = arith.addi %mgi, %c64 : i32
          %lhi = arith.addi %mhi, %c64 : i32
          %pmg = llvm.getelementptr %smem[%mgi] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %pmh = llvm.getelementptr %smem[%mhi] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %plg = llvm.getelementptr %smem[%lgi] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %plh = llvm.getelementptr %smem[%lhi] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %fin#0, %pmg {alignment = 4 : i64} : f32, !llvm.ptr<3>
          llvm.store %fin#1, %pmh {alignment = 4 : i64} : f32, !llvm.ptr<3>
          llvm.store %l_g_tot, %plg {alignment = 4 : i64} : f32, !llvm.ptr<3>
          llvm.store %l_h_tot, %plh {alignment = 4 : i64} : f32, !llvm.ptr<3>
        }
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
      // ---- the partition's partials: bf16(O / L), max (natural units), L.
      // When the launch makes the P CTAs of this (sequence, kv head) one
      // cluster (P <= 8; P = 1 needs no cluster), they go to this CTA's
      // shared memory after the merge area instead, rows x D bf16 then
      // (max, L) per row, and the cluster merges them itself (below).
      %ncta = llvm.inline_asm asm_dialect = att "mov.u32 $0, %cluster_nctarank;", "=r" : () -> i32
      %merge = arith.cmpi eq, %ncta, %num_partitions : i32
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
      // ---- The cluster's merge (@uq_reduce's arithmetic, the reference's
      // order: M = max(sink, max_p m_p), w_p = e^(m_p - M) l_p over the
      // partitions with l_p != 0, the sink's weight first in the
      // denominator). After a cluster barrier (release / acquire: every
      // CTA's partials are written) the cluster's 128 P threads take 4
      // head dims of a row each in turn, read the P partials from the CTAs'
      // shared memory (mapa + ld.shared::cluster) and write the output,
      // branching over the partition slots past P (8 - P of them do no
      // loads and no arithmetic); a second barrier keeps every CTA's
      // shared memory alive until all have read it.
      // a block of no token (varlen padding) writes no output: its whole
      // cluster (one block's partitions) skips the merge together
      %merge_out = arith.andi %merge, %has_tokens : i1
      scf.if %merge_out {
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
          %ob = arith.truncf %o : vector<4xf32> to vector<4xbf16>
          %hq64 = arith.extui %hq : i32 to i64
          %oh = arith.muli %hq64, %osh64 : i64
          %d64 = arith.extui %d : i32 to i64
          %oa0 = arith.addi %oseq, %oh : i64
          %oa = arith.addi %oa0, %d64 : i64
          %outp = llvm.getelementptr %output[%oa] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
          // 8-byte stores when the output and its strides allow, else 2-byte
          scf.if %wide {
            llvm.store %ob, %outp {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
          } else {
            scf.for %j = %i0 to %i4 step %i1 {
              %ji = arith.index_cast %j : index to i64
              %bj = vector.extract %ob[%j] : bf16 from vector<4xbf16>
              %pj = llvm.getelementptr %outp[%ji] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
              llvm.store %bj, %pj {alignment = 2 : i64} : bf16, !llvm.ptr<1>
            }
          }
        }
        // every CTA's reads of the others' shared memory have returned (their
        // values are in the stores above): nothing to release, only the
        // memory to keep alive, so a relaxed arrive (no MEMBAR.GPU)
        llvm.inline_asm has_side_effects asm_dialect = att "barrier.cluster.arrive.relaxed.aligned; barrier.cluster.wait.aligned;", "~{memory}" : () -> ()
      }
      gpu.return
    ^done:
      gpu.return
    }
  }

  // Reduce for sm_90a: grid (B, Hq), D threads. Same arguments and
  // arithmetic as the gfx950 reduce: M = max(max_p m_p, sink), w_p =
  // e^(m_p - M) l_p over partitions with l_p != 0 (a NaN one makes the head
  // NaN), the sink's e^(sink - M) in the denominator only, 0 when the
  // denominator is 0. Built for latency, which is all it has at small
  // batches: thread t takes head dims 4 (t % (D/4)) .. + 3 (one 8-byte
  // load per partition) of the partitions p = t / (D/4) + 4 i, a batch of 8
  // of them loaded at once (slots past P branch over their loads: the lane
  // is uniform in a warp for D >= 128), with its own running max (weights
  // e^(m_p - M_lane), rescaled when M_lane grows: no pass over the maxima
  // first); H200: 8 a batch and the branch took 8-13% off B 1 / N 16384
  // (P = 64) at every head dim and 3-8% off B 4 / N 75000, 0.5% onto P <=
  // 16;
  // the 4 lanes meet once in shared memory, where thread d sums head dim d
  // over them, each rescaled by e^(M_lane - M).
  gpu.module @uq_reduce_sm90 [#nvvm.target<chip = "sm_90a", features = "+ptx84", O = 3>] attributes {uq.variants = [{d = 64}, {d = 128}, {d = 256}]} {
    // [4][D] f32 partial sums, then the 4 lanes' maxima and denominators
    llvm.mlir.global internal @uq_reduce_sm90_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4128 x i8>
    gpu.func @uq_reduce(
        %output: !llvm.ptr<1> {llvm.noalias, llvm.writeonly},
        %segm_out: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %segm_max: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %segm_sum: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %num_kv_heads: i32, %qg: i32, %num_partitions: i32,
        %out_stride_seq: i32, %out_stride_head: i32,
        %sinks: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %query_start_loc: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %num_seqs: i32) kernel
        attributes {uq.block_size = "d"} {
      %c0 = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      %hd = "uq.param"() {name = "d"} : () -> index
      %hd_i = arith.index_cast %hd : index to i32
      %hd_64 = arith.extui %hd_i : i32 to i64
      %ninf = arith.constant 0xFF800000 : f32
      %zero_f = arith.constant 0.0 : f32
      %one_f = arith.constant 1.0 : f32
      %log2e = arith.constant 1.44269504088896340736 : f32
      %zero4 = arith.constant dense<0.0> : vector<4xf32>
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i4 = arith.constant 4 : index
      // Launched with programmatic stream serialization behind the decode,
      // which lets it launch once its tiles are done: wait here until the
      // decode grid has ended and its partials are visible.
      nvvm.griddepcontrol wait
      %smem = llvm.mlir.addressof @uq_reduce_sm90_smem : !llvm.ptr<3>
      %t_ix = gpu.thread_id x
      %t = arith.index_cast %t_ix : index to i32
      %seq_ix = gpu.block_id x
      %seq = arith.index_cast %seq_ix : index to i32
      %hq_ix = gpu.block_id y
      %hq = arith.index_cast %hq_ix : index to i32
      %kvh = arith.divui %hq, %qg : i32
      %r = arith.remui %hq, %qg : i32
      %b0 = arith.muli %seq, %num_kv_heads : i32
      %b1 = arith.addi %b0, %kvh : i32
      %row0 = arith.muli %b1, %num_partitions : i32
      %null = llvm.mlir.zero : !llvm.ptr<1>
      %has_sink = llvm.icmp "ne" %sinks, %null : !llvm.ptr<1>
      %sink = scf.if %has_sink -> (f32) {
        %sp = llvm.getelementptr %sinks[%hq] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
        %sv = llvm.load %sp {alignment = 4 : i64} : !llvm.ptr<1> -> f32
        scf.yield %sv : f32
      } else {
        scf.yield %ninf : f32
      }
      // thread t: quad q = t % (D/4) (head dims 4q .. 4q + 3), lane j
      %quads = arith.divui %hd_i, %c4 : i32
      %q = arith.remui %t, %quads : i32
      %j = arith.divui %t, %quads : i32
      %q4 = arith.muli %q, %c4 : i32
      %q4_64 = arith.extui %q4 : i32 to i64
      // batches of 32 partitions, 8 per lane: p = 32 b + 4 u + j; a slot
      // past P keeps (-inf, 0, 0): no max, a sum of 0 (not live)
      %c32 = arith.constant 32 : i32
      %i8 = arith.constant 8 : index
      %nb1 = arith.ceildivui %num_partitions, %c32 : i32
      %nb = arith.index_cast %nb1 : i32 to index
      %run:3 = scf.for %b = %i0 to %nb step %i1 iter_args(%mj = %ninf, %den = %zero_f, %num = %zero4) -> (f32, f32, vector<4xf32>) {
        %bi = arith.index_cast %b : index to i32
        %pb = arith.muli %bi, %c32 : i32
        %pj = arith.addi %pb, %j : i32
        %zero8f = arith.constant dense<0.0> : vector<8xf32>
        %zero84 = arith.constant dense<0.0> : vector<8x4xf32>
        %ninf8 = arith.constant dense<0xFF800000> : vector<8xf32>
        // the batch's loads, all issued before any use
        %ld:3 = scf.for %u = %i0 to %i8 step %i1 iter_args(%ms = %ninf8, %ls = %zero8f, %os = %zero84) -> (vector<8xf32>, vector<8xf32>, vector<8x4xf32>) {
          %ui = arith.index_cast %u : index to i32
          %u4 = arith.muli %ui, %c4 : i32
          %p = arith.addi %pj, %u4 : i32
          %in = arith.cmpi slt, %p, %num_partitions : i32
          %slot:3 = scf.if %in -> (f32, f32, vector<4xf32>) {
            %ro = arith.addi %row0, %p : i32
            %ri0 = arith.muli %ro, %qg : i32
            %ri = arith.addi %ri0, %r : i32
            %mp = llvm.getelementptr %segm_max[%ri] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
            %lp = llvm.getelementptr %segm_sum[%ri] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
            %mv = llvm.load %mp {alignment = 4 : i64} : !llvm.ptr<1> -> f32
            %lv = llvm.load %lp {alignment = 4 : i64} : !llvm.ptr<1> -> f32
            %ri64 = arith.extui %ri : i32 to i64
            %oe0 = arith.muli %ri64, %hd_64 : i64
            %oe = arith.addi %oe0, %q4_64 : i64
            %op = llvm.getelementptr %segm_out[%oe] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
            %ov = llvm.load %op {alignment = 8 : i64} : !llvm.ptr<1> -> vector<4xbf16>
            %of0 = arith.extf %ov : vector<4xbf16> to vector<4xf32>
            scf.yield %mv, %lv, %of0 : f32, f32, vector<4xf32>
          } else {
            scf.yield %ninf, %zero_f, %zero4 : f32, f32, vector<4xf32>
          }
          %ms1 = vector.insert %slot#0, %ms[%u] : f32 into vector<8xf32>
          %ls1 = vector.insert %slot#1, %ls[%u] : f32 into vector<8xf32>
          %os1 = vector.insert %slot#2, %os[%u] : vector<4xf32> into vector<8x4xf32>
          scf.yield %ms1, %ls1, %os1 : vector<8xf32>, vector<8xf32>, vector<8x4xf32>
        }
        %mb0 = vector.reduction <maximumf>, %ld#0 : vector<8xf32> into f32
        %mb = arith.maximumf %mj, %mb0 : f32
        %emptyb = arith.cmpf oeq, %mb, %ninf : f32
        %base = arith.select %emptyb, %zero_f, %mb : f32
        %dj = arith.subf %mj, %base : f32
        %dj2 = arith.mulf %dj, %log2e : f32
        %scale = math.exp2 %dj2 : f32
        %den0 = arith.mulf %den, %scale : f32
        %scv = vector.broadcast %scale : f32 to vector<4xf32>
        %num0 = arith.mulf %num, %scv : vector<4xf32>
        %acc:2 = scf.for %u = %i0 to %i8 step %i1 iter_args(%dn = %den0, %nm = %num0) -> (f32, vector<4xf32>) {
          %mu = vector.extract %ld#0[%u] : f32 from vector<8xf32>
          %lu = vector.extract %ld#1[%u] : f32 from vector<8xf32>
          %live = arith.cmpf une, %lu, %zero_f : f32
          %du = arith.subf %mu, %base : f32
          %du2 = arith.mulf %du, %log2e : f32
          %eu = math.exp2 %du2 : f32
          %w0 = arith.mulf %eu, %lu : f32
          %w = arith.select %live, %w0, %zero_f : f32
          %dn1 = arith.addf %dn, %w : f32
          %ou = vector.extract %ld#2[%u] : vector<4xf32> from vector<8x4xf32>
          // a partition with w = 0 adds nothing (its bf16 is never NaN-poisoning)
          %wv = vector.broadcast %w : f32 to vector<4xf32>
          %tv = arith.mulf %wv, %ou : vector<4xf32>
          %wz = arith.cmpf une, %w, %zero_f : f32
          %tz = arith.select %wz, %tv, %zero4 : vector<4xf32>
          %nm1 = arith.addf %nm, %tz : vector<4xf32>
          scf.yield %dn1, %nm1 : f32, vector<4xf32>
        }
        scf.yield %mb, %acc#0, %acc#1 : f32, f32, vector<4xf32>
      }
      // the lanes meet: sums [j][D], then maxima and denominators at 4 D
      %nbase = arith.muli %j, %hd_i : i32
      %na = arith.addi %nbase, %q4 : i32
      %np_ = llvm.getelementptr %smem[%na] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
      llvm.store %run#2, %np_ {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
      %hd4 = arith.muli %hd_i, %c4 : i32
      %first = arith.cmpi eq, %q, %c0 : i32
      scf.if %first {
        %ma = arith.addi %hd4, %j : i32
        %da0 = arith.addi %hd4, %c4 : i32
        %da = arith.addi %da0, %j : i32
        %mp = llvm.getelementptr %smem[%ma] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        %dp = llvm.getelementptr %smem[%da] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        llvm.store %run#0, %mp {alignment = 4 : i64} : f32, !llvm.ptr<3>
        llvm.store %run#1, %dp {alignment = 4 : i64} : f32, !llvm.ptr<3>
      }
      gpu.barrier
      %mlp = llvm.getelementptr %smem[%hd4] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
      %ml = llvm.load %mlp {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
      %dl0 = arith.addi %hd4, %c4 : i32
      %dlp = llvm.getelementptr %smem[%dl0] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
      %dl = llvm.load %dlp {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
      %mlx = vector.reduction <maximumf>, %ml : vector<4xf32> into f32
      %M0 = arith.maximumf %mlx, %sink : f32
      %empty = arith.cmpf oeq, %M0, %ninf : f32
      %M = arith.select %empty, %zero_f, %M0 : f32
      %fin:2 = scf.for %l = %i0 to %i4 step %i1 iter_args(%nm = %zero_f, %dn = %zero_f) -> (f32, f32) {
        %li = arith.index_cast %l : index to i32
        %mlv = vector.extract %ml[%l] : f32 from vector<4xf32>
        %dlv = vector.extract %dl[%l] : f32 from vector<4xf32>
        %dm = arith.subf %mlv, %M : f32
        %dm2 = arith.mulf %dm, %log2e : f32
        %f = math.exp2 %dm2 : f32
        %sa0 = arith.muli %li, %hd_i : i32
        %sa = arith.addi %sa0, %t : i32
        %sp = llvm.getelementptr %smem[%sa] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        %sv = llvm.load %sp {alignment = 4 : i64} : !llvm.ptr<3> -> f32
        %nm1 = math.fma %f, %sv, %nm : f32
        %dn1 = math.fma %f, %dlv, %dn : f32
        scf.yield %nm1, %dn1 : f32, f32
      }
      %ds = arith.subf %sink, %M : f32
      %ds2 = arith.mulf %ds, %log2e : f32
      %es = math.exp2 %ds2 : f32
      %ws = arith.select %has_sink, %es, %zero_f : f32
      %den = arith.addf %fin#1, %ws : f32
      %pos = arith.cmpf une, %den, %zero_f : f32
      %den1 = arith.select %pos, %den, %one_f : f32
      // den >= 1 where it counts (the largest weight is its partition's L,
      // itself >= 1, or a lone sink's e^0): rcp.approx (1 ulp) and a
      // multiply, as in the decode's merges, instead of the IEEE division's
      // range checks and slow path
      %rden = llvm.inline_asm asm_dialect = att "rcp.approx.ftz.f32 $0, $1;", "=f,f" %den1 : (f32) -> f32
      %qo = arith.mulf %fin#0, %rden : f32
      %o = arith.select %pos, %qo, %zero_f : f32
      %ob = arith.truncf %o : f32 to bf16
      %obi = arith.bitcast %ob : bf16 to i16
      %seq64 = arith.extui %seq : i32 to i64
      %hq64 = arith.extui %hq : i32 to i64
      %oss = arith.extui %out_stride_seq : i32 to i64
      %osh = arith.extui %out_stride_head : i32 to i64
      %t64 = arith.extui %t : i32 to i64
      %a0 = arith.muli %seq64, %oss : i64
      %a1 = arith.muli %hq64, %osh : i64
      %a2 = arith.addi %a0, %a1 : i64
      %a3 = arith.addi %a2, %t64 : i64
      %outp = llvm.getelementptr %output[%a3] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
      // varlen (query_start_loc set; grid x = the query tokens): only rows
      // query_start_loc[0] .. query_start_loc[num_seqs] - 1 are queries, the
      // rest padding whose partials no decode wrote
      %qnull = llvm.mlir.zero : !llvm.ptr<1>
      %qhas = llvm.icmp "ne" %query_start_loc, %qnull : !llvm.ptr<1>
      %in_span = scf.if %qhas -> (i1) {
        %q0 = llvm.load %query_start_loc invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
        %qep = llvm.getelementptr %query_start_loc[%num_seqs] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
        %qe = llvm.load %qep invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
        %ge = arith.cmpi sge, %seq, %q0 : i32
        %lt = arith.cmpi slt, %seq, %qe : i32
        %in = arith.andi %ge, %lt : i1
        scf.yield %in : i1
      } else {
        %true = arith.constant true
        scf.yield %true : i1
      }
      scf.if %in_span {
        llvm.store %obi, %outp {alignment = 2 : i64} : i16, !llvm.ptr<1>
      }
      gpu.return
    }
  }

  // ---- The cache store: T new tokens' K and V (bf16 [T, Hk, D], element
  // strides, head dim contiguous) encoded into their slots, byte for byte as
  // the host's uq_cache_write (runtime/format/format.c), written once for
  // every target: the module names both, and uq-compile builds each
  // variant for each (store_d<D> for gfx950, store_sm90_d<D> for sm_90a).
  // Grid (T, Hk), one wave or warp of L lanes each (the target's `lanes`
  // in uq.target_params: L = 64 on gfx950, 32 on sm_90a; the workgroup is
  // uq.block_size = L). The row is D/4 pieces of 4 elements (piece p =
  // elements 4p..4p+3); lane l holds piece l and, when D/4 > L (D = 256 on
  // sm_90a), piece l + L too. Pieces >= D/4 load element 0 and only take
  // part in the shuffles. slot_mapping[t] < 0 (padding) or >= num_slots
  // (past the cache) skips the token; a stored slot gets its K codes, K
  // scales, V codes and V scales (D + D/16 bytes) and no other byte.
  //   K: bf16 -> f32, the fp32 butterfly of uq_wht (strides 1, 2 in the
  //      piece, 4..4L/2 across lanes with gpu.shuffle xor, 4L in the lane
  //      across its two pieces: the host's order), times 1/sqrt(D) rounded
  //      to f32 (uq_wht_scale); V as is.
  // One variant per head dim D = 64, 128, 256 and target.
  //   Group of 32 = 8 pieces (of one lane's pieces: L is a multiple of 8):
  //   absmax by integer max of |bits| (a NaN or inf
  //   shows as >= 0x7F800000 and makes a zero group, the host's rule);
  //   s = 0.156f * absmax; exp = floor(log2(s) + 1/2) exactly: s's binary
  //   exponent, plus one when its significand is >= sqrt(2) (bits >=
  //   0x3504F4: sqrt(2) lies strictly between 0x3504F3 and 0x3504F4), -126
  //   for a subnormal s; no hardware log2. Codes: x * 2^-exp snapped over the
  //   7 midpoints with torch.bucketize ties (a tie takes the level toward
  //   -inf); magnitude 0 is +0.
  gpu.module @uq_store [#rocdl.target<chip = "gfx950", O = 3>, #nvvm.target<chip = "sm_90a", features = "+ptx84", O = 3>] attributes {uq.variants = [{d = 64}, {d = 128}, {d = 256}], uq.target_params = [{lanes = 64}, {lanes = 32}]} {
    gpu.func @uq_store(
        %kv_cache: !llvm.ptr<1> {llvm.noalias},
        %key: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %value: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %slot_mapping: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %num_kv_heads: i32, %padded_slot: i32, %num_slots: i64,
        %key_stride_token: i64, %key_stride_head: i64,
        %value_stride_token: i64, %value_stride_head: i64) kernel
        attributes {uq.block_size = "lanes"} {
      %d = "uq.param"() {name = "d"} : () -> index
      %lanes_ix = "uq.param"() {name = "lanes"} : () -> index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c6 = arith.constant 6 : index
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c3_i32 = arith.constant 3 : i32
      %c4_i32 = arith.constant 4 : i32
      %c5_i32 = arith.constant 5 : i32
      %c7_i32 = arith.constant 7 : i32
      %c8_i32 = arith.constant 8 : i32
      %c12_i32 = arith.constant 12 : i32
      %c23_i32 = arith.constant 23 : i32
      %c126_i32 = arith.constant 126 : i32
      %c127_i32 = arith.constant 127 : i32
      %c254_i32 = arith.constant 254 : i32
      %c0_i64 = arith.constant 0 : i64
      %c4_i64 = arith.constant 4 : i64
      %abs_mask = arith.constant 2147483647 : i32
      %inf_bits = arith.constant 2139095040 : i32
      %mant_mask = arith.constant 8388607 : i32
      %sqrt2_mant = arith.constant 3474676 : i32
      %enc_c = arith.constant 0.156 : f32
      %one_f = arith.constant 1.0 : f32
      %zero4 = arith.constant dense<0.0> : vector<4xf32>
      %zero4i = arith.constant dense<0> : vector<4xi32>
      %one4i = arith.constant dense<1> : vector<4xi32>
      %eight4i = arith.constant dense<8> : vector<4xi32>
      %sh16 = arith.constant dense<16> : vector<4xi32>
      %m025 = arith.constant dense<0.25> : vector<4xf32>
      %m075 = arith.constant dense<0.75> : vector<4xf32>
      %m125 = arith.constant dense<1.25> : vector<4xf32>
      %m175 = arith.constant dense<1.75> : vector<4xf32>
      %m250 = arith.constant dense<2.5> : vector<4xf32>
      %m350 = arith.constant dense<3.5> : vector<4xf32>
      %m500 = arith.constant dense<5.0> : vector<4xf32>
      %d_i32 = arith.index_cast %d : index to i32
      %lanes = arith.index_cast %lanes_ix : index to i32
      // Pieces in the row, and per lane: 1, or 2 when the row has more
      // pieces than the wave has lanes.
      %d_pieces = arith.shrui %d_i32, %c2_i32 : i32
      %d_pieces_ix = arith.shrui %d, %c2 : index
      %per_lane = arith.ceildivui %d_pieces_ix, %lanes_ix : index
      %two = arith.cmpi ugt, %d_pieces, %lanes : i32
      // 1/sqrt(D) as sqrt(1/D): 1/D is exact (D a power of two) and the
      // square root correctly rounded, so this is uq_wht_scale's f32 bit for
      // bit; specialized, it folds to a constant (no v_sqrt_f32 in the ISA).
      %d_f = arith.uitofp %d_i32 : i32 to f32
      %inv_d = arith.divf %one_f, %d_f : f32
      %norm = math.sqrt %inv_d : f32
      %norm4 = vector.broadcast %norm : f32 to vector<4xf32>
      %lane_ix = gpu.thread_id x
      %lane = arith.index_cast %lane_ix : index to i32
      %tok_ix = gpu.block_id x
      %tok = arith.index_cast %tok_ix : index to i64
      %head_ix = gpu.block_id y
      %head = arith.index_cast %head_ix : index to i64
      %slot_p = llvm.getelementptr %slot_mapping[%tok] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i64
      %slot = llvm.load %slot_p invariant {alignment = 8 : i64} : !llvm.ptr<1> -> i64
      %nonneg = arith.cmpi sge, %slot, %c0_i64 : i64
      %inside = arith.cmpi slt, %slot, %num_slots : i64
      %valid = arith.andi %nonneg, %inside : i1
      scf.if %valid {
        %hk64 = arith.extui %num_kv_heads : i32 to i64
        %ps64 = arith.extui %padded_slot : i32 to i64
        %sb1 = arith.muli %slot, %hk64 : i64
        %sb2 = arith.addi %sb1, %head : i64
        %sb3 = arith.muli %sb2, %ps64 : i64
        %slot_base = llvm.getelementptr %kv_cache[%sb3] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
        %d_half = arith.shrui %d_i32, %c1_i32 : i32
        %d_32 = arith.shrui %d_i32, %c5_i32 : i32
        scf.for %pass = %c0 to %c2 step %c1 {
          %is_k = arith.cmpi eq, %pass, %c0 : index
          %src = arith.select %is_k, %key, %value : !llvm.ptr<1>
          %st = arith.select %is_k, %key_stride_token, %value_stride_token : i64
          %sh = arith.select %is_k, %key_stride_head, %value_stride_head : i64
          %o1 = arith.muli %tok, %st : i64
          %o2 = arith.muli %head, %sh : i64
          %o3 = arith.addi %o1, %o2 : i64
          // Each piece of the lane: loaded, and for K rotated through the
          // strides inside the piece and across lanes.
          %rows:2 = scf.for %c = %c0 to %per_lane step %c1 iter_args(%r0 = %zero4, %r1 = %zero4) -> (vector<4xf32>, vector<4xf32>) {
            %c_i32 = arith.index_cast %c : index to i32
            %c_lanes = arith.muli %c_i32, %lanes : i32
            %piece = arith.addi %c_lanes, %lane : i32
            // Pieces past the head dim load element 0 (and never store).
            %active = arith.cmpi ult, %piece, %d_pieces : i32
            %piece_c = arith.select %active, %piece, %c0_i32 : i32
            %piece_c64 = arith.extui %piece_c : i32 to i64
            %elem = arith.muli %piece_c64, %c4_i64 : i64
            %o4 = arith.addi %o3, %elem : i64
            %src_p = llvm.getelementptr %src[%o4] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
            %raw = llvm.load %src_p {alignment = 2 : i64} : !llvm.ptr<1> -> vector<4xi16>
            %wide = arith.extui %raw : vector<4xi16> to vector<4xi32>
            %bits = arith.shli %wide, %sh16 : vector<4xi32>
            %x = arith.bitcast %bits : vector<4xi32> to vector<4xf32>
            %rot = scf.if %is_k -> vector<4xf32> {
              // In-piece stages (strides 1, 2), then lane strides 1..D/8
              // below L.
              %a0 = vector.extract %x[0] : f32 from vector<4xf32>
              %a1 = vector.extract %x[1] : f32 from vector<4xf32>
              %a2 = vector.extract %x[2] : f32 from vector<4xf32>
              %a3 = vector.extract %x[3] : f32 from vector<4xf32>
              %b0 = arith.addf %a0, %a1 : f32
              %b1 = arith.subf %a0, %a1 : f32
              %b2 = arith.addf %a2, %a3 : f32
              %b3 = arith.subf %a2, %a3 : f32
              %e0 = arith.addf %b0, %b2 : f32
              %e1 = arith.addf %b1, %b3 : f32
              %e2 = arith.subf %b0, %b2 : f32
              %e3 = arith.subf %b1, %b3 : f32
              %y0 = vector.broadcast %e0 : f32 to vector<4xf32>
              %y1 = vector.insert %e1, %y0 [1] : f32 into vector<4xf32>
              %y2 = vector.insert %e2, %y1 [2] : f32 into vector<4xf32>
              %y3 = vector.insert %e3, %y2 [3] : f32 into vector<4xf32>
              %butterfly = scf.for %k = %c0 to %c6 step %c1 iter_args(%v = %y3) -> (vector<4xf32>) {
                %k_i32 = arith.index_cast %k : index to i32
                %m = arith.shli %c1_i32, %k_i32 : i32
                %in_row = arith.cmpi ult, %m, %d_pieces : i32
                %in_wave = arith.cmpi ult, %m, %lanes : i32
                %in_dim = arith.andi %in_row, %in_wave : i1
                %next = scf.if %in_dim -> vector<4xf32> {
                  %v0 = vector.extract %v[0] : f32 from vector<4xf32>
                  %v1 = vector.extract %v[1] : f32 from vector<4xf32>
                  %v2 = vector.extract %v[2] : f32 from vector<4xf32>
                  %v3 = vector.extract %v[3] : f32 from vector<4xf32>
                  %p0, %ok0 = gpu.shuffle xor %v0, %m, %lanes : f32
                  %p1, %ok1 = gpu.shuffle xor %v1, %m, %lanes : f32
                  %p2, %ok2 = gpu.shuffle xor %v2, %m, %lanes : f32
                  %p3, %ok3 = gpu.shuffle xor %v3, %m, %lanes : f32
                  %pv0 = vector.broadcast %p0 : f32 to vector<4xf32>
                  %pv1 = vector.insert %p1, %pv0 [1] : f32 into vector<4xf32>
                  %pv2 = vector.insert %p2, %pv1 [2] : f32 into vector<4xf32>
                  %pv3 = vector.insert %p3, %pv2 [3] : f32 into vector<4xf32>
                  // Lower lane of the pair: own + partner; upper: partner - own.
                  %bit = arith.andi %lane, %m : i32
                  %upper = arith.cmpi ne, %bit, %c0_i32 : i32
                  %sum = arith.addf %v, %pv3 : vector<4xf32>
                  %diff = arith.subf %pv3, %v : vector<4xf32>
                  %r = arith.select %upper, %diff, %sum : vector<4xf32>
                  scf.yield %r : vector<4xf32>
                } else {
                  scf.yield %v : vector<4xf32>
                }
                scf.yield %next : vector<4xf32>
              }
              scf.yield %butterfly : vector<4xf32>
            } else {
              scf.yield %x : vector<4xf32>
            }
            %first = arith.cmpi eq, %c, %c0 : index
            %n0 = arith.select %first, %rot, %r0 : vector<4xf32>
            %n1 = arith.select %first, %r1, %rot : vector<4xf32>
            scf.yield %n0, %n1 : vector<4xf32>, vector<4xf32>
          }
          // K: the last stride (L pieces: a lane's two pieces, D = 256 on
          // 32 lanes), then the 1/sqrt(D) scale.
          %out:2 = scf.if %is_k -> (vector<4xf32>, vector<4xf32>) {
            %j:2 = scf.if %two -> (vector<4xf32>, vector<4xf32>) {
              %lo = arith.addf %rows#0, %rows#1 : vector<4xf32>
              %hi = arith.subf %rows#0, %rows#1 : vector<4xf32>
              scf.yield %lo, %hi : vector<4xf32>, vector<4xf32>
            } else {
              scf.yield %rows#0, %rows#1 : vector<4xf32>, vector<4xf32>
            }
            %scaled0 = arith.mulf %j#0, %norm4 : vector<4xf32>
            %scaled1 = arith.mulf %j#1, %norm4 : vector<4xf32>
            scf.yield %scaled0, %scaled1 : vector<4xf32>, vector<4xf32>
          } else {
            scf.yield %rows#0, %rows#1 : vector<4xf32>, vector<4xf32>
          }
          // Each piece of the lane encoded and stored.
          scf.for %c = %c0 to %per_lane step %c1 {
            %c_i32 = arith.index_cast %c : index to i32
            %c_lanes = arith.muli %c_i32, %lanes : i32
            %piece = arith.addi %c_lanes, %lane : i32
            %active = arith.cmpi ult, %piece, %d_pieces : i32
            %group_lane = arith.andi %piece, %c7_i32 : i32
            %group = arith.shrui %piece, %c3_i32 : i32
            %first = arith.cmpi eq, %c, %c0 : index
            %rot = arith.select %first, %out#0, %out#1 : vector<4xf32>
            // Group absmax over the 8 pieces of the group, as |bits|.
            %rbits = arith.bitcast %rot : vector<4xf32> to vector<4xi32>
            %q0 = vector.extract %rbits[0] : i32 from vector<4xi32>
            %q1 = vector.extract %rbits[1] : i32 from vector<4xi32>
            %q2 = vector.extract %rbits[2] : i32 from vector<4xi32>
            %q3 = vector.extract %rbits[3] : i32 from vector<4xi32>
            %aq0 = arith.andi %q0, %abs_mask : i32
            %aq1 = arith.andi %q1, %abs_mask : i32
            %aq2 = arith.andi %q2, %abs_mask : i32
            %aq3 = arith.andi %q3, %abs_mask : i32
            %mx01 = arith.maxui %aq0, %aq1 : i32
            %mx23 = arith.maxui %aq2, %aq3 : i32
            %mx0 = arith.maxui %mx01, %mx23 : i32
            %pm1, %okm1 = gpu.shuffle xor %mx0, %c1_i32, %lanes : i32
            %mx1 = arith.maxui %mx0, %pm1 : i32
            %pm2, %okm2 = gpu.shuffle xor %mx1, %c2_i32, %lanes : i32
            %mx2 = arith.maxui %mx1, %pm2 : i32
            %pm4, %okm4 = gpu.shuffle xor %mx2, %c4_i32, %lanes : i32
            %amax_bits = arith.maxui %mx2, %pm4 : i32
            %nonfinite = arith.cmpi uge, %amax_bits, %inf_bits : i32
            %amax = arith.bitcast %amax_bits : i32 to f32
            %s = arith.mulf %enc_c, %amax : f32
            %s_bits = arith.bitcast %s : f32 to i32
            %s_zero = arith.cmpi eq, %s_bits, %c0_i32 : i32
            %zero_group = arith.ori %nonfinite, %s_zero : i1
            // exp = floor(log2(s) + 1/2), exactly, as the biased byte: the
            // exponent field of s, plus one when the significand is >= sqrt 2;
            // a subnormal s gives 1 (exp -126). The +1 goes in at bit 23 of
            // the whole word (an add LLVM cannot narrow to 16 bits: gfx950's
            // v_add_u16 is not in the simulator).
            %s_field = arith.andi %s_bits, %inf_bits : i32
            %s_mant = arith.andi %s_bits, %mant_mask : i32
            %round_up = arith.cmpi uge, %s_mant, %sqrt2_mant : i32
            %up = arith.extui %round_up : i1 to i32
            %up_field = arith.shli %up, %c23_i32 : i32
            %rounded = arith.addi %s_field, %up_field : i32
            %b1 = arith.shrui %rounded, %c23_i32 : i32
            %b2 = arith.maxui %b1, %c1_i32 : i32
            %biased = arith.minui %b2, %c254_i32 : i32
            %scale_byte = arith.select %zero_group, %c0_i32, %biased : i32
            // 2^-exp: exp <= 125 for every finite group (s <= 0.156 * FLT_MAX),
            // so 127 - exp = 254 - biased >= 2 is a normal exponent field.
            %inv_e = arith.subi %c254_i32, %biased : i32
            %inv_bits = arith.shli %inv_e, %c23_i32 : i32
            %inv = arith.bitcast %inv_bits : i32 to f32
            %inv4 = vector.broadcast %inv : f32 to vector<4xf32>
            %y = arith.mulf %rot, %inv4 : vector<4xf32>
            %ay = math.absf %y : vector<4xf32>
            %neg = arith.cmpf olt, %y, %zero4 : vector<4xf32>
            %g0 = arith.cmpf ogt, %ay, %m025 : vector<4xf32>
            %h0 = arith.cmpf oge, %ay, %m025 : vector<4xf32>
            %t0 = arith.select %neg, %h0, %g0 : vector<4xi1>, vector<4xi1>
            %g1 = arith.cmpf ogt, %ay, %m075 : vector<4xf32>
            %h1 = arith.cmpf oge, %ay, %m075 : vector<4xf32>
            %t1 = arith.select %neg, %h1, %g1 : vector<4xi1>, vector<4xi1>
            %g2 = arith.cmpf ogt, %ay, %m125 : vector<4xf32>
            %h2 = arith.cmpf oge, %ay, %m125 : vector<4xf32>
            %t2 = arith.select %neg, %h2, %g2 : vector<4xi1>, vector<4xi1>
            %g3 = arith.cmpf ogt, %ay, %m175 : vector<4xf32>
            %h3 = arith.cmpf oge, %ay, %m175 : vector<4xf32>
            %t3 = arith.select %neg, %h3, %g3 : vector<4xi1>, vector<4xi1>
            %g4 = arith.cmpf ogt, %ay, %m250 : vector<4xf32>
            %h4 = arith.cmpf oge, %ay, %m250 : vector<4xf32>
            %t4 = arith.select %neg, %h4, %g4 : vector<4xi1>, vector<4xi1>
            %g5 = arith.cmpf ogt, %ay, %m350 : vector<4xf32>
            %h5 = arith.cmpf oge, %ay, %m350 : vector<4xf32>
            %t5 = arith.select %neg, %h5, %g5 : vector<4xi1>, vector<4xi1>
            %g6 = arith.cmpf ogt, %ay, %m500 : vector<4xf32>
            %h6 = arith.cmpf oge, %ay, %m500 : vector<4xf32>
            %t6 = arith.select %neg, %h6, %g6 : vector<4xi1>, vector<4xi1>
            %n0 = arith.extui %t0 : vector<4xi1> to vector<4xi32>
            %n1 = arith.extui %t1 : vector<4xi1> to vector<4xi32>
            %n2 = arith.extui %t2 : vector<4xi1> to vector<4xi32>
            %n3 = arith.extui %t3 : vector<4xi1> to vector<4xi32>
            %n4 = arith.extui %t4 : vector<4xi1> to vector<4xi32>
            %n5 = arith.extui %t5 : vector<4xi1> to vector<4xi32>
            %n6 = arith.extui %t6 : vector<4xi1> to vector<4xi32>
            %k01 = arith.addi %n0, %n1 : vector<4xi32>
            %k23 = arith.addi %n2, %n3 : vector<4xi32>
            %k45 = arith.addi %n4, %n5 : vector<4xi32>
            %k03 = arith.addi %k01, %k23 : vector<4xi32>
            %k46 = arith.addi %k45, %n6 : vector<4xi32>
            %mag = arith.addi %k03, %k46 : vector<4xi32>
            %mag_nz = arith.cmpi ne, %mag, %zero4i : vector<4xi32>
            %signed = arith.andi %neg, %mag_nz : vector<4xi1>
            %sign = arith.select %signed, %eight4i, %zero4i : vector<4xi1>, vector<4xi32>
            %code = arith.ori %mag, %sign : vector<4xi32>
            %c0v = vector.extract %code[0] : i32 from vector<4xi32>
            %c1v = vector.extract %code[1] : i32 from vector<4xi32>
            %c2v = vector.extract %code[2] : i32 from vector<4xi32>
            %c3v = vector.extract %code[3] : i32 from vector<4xi32>
            %w1 = arith.shli %c1v, %c4_i32 : i32
            %w2 = arith.shli %c2v, %c8_i32 : i32
            %w3 = arith.shli %c3v, %c12_i32 : i32
            %w01 = arith.ori %c0v, %w1 : i32
            %w23 = arith.ori %w2, %w3 : i32
            %w = arith.ori %w01, %w23 : i32
            %packed = arith.select %zero_group, %c0_i32, %w : i32
            %packed16 = arith.trunci %packed : i32 to i16
            // K codes at 0, K scales at D/2, V codes at D/2 + D/32, V scales
            // after them; this piece's two code bytes at 2p.
            %v_base = arith.addi %d_half, %d_32 : i32
            %codes_off = arith.select %is_k, %c0_i32, %v_base : i32
            %scales_off = arith.addi %codes_off, %d_half : i32
            scf.if %active {
              %lane2 = arith.shli %piece, %c1_i32 : i32
              %co = arith.addi %codes_off, %lane2 : i32
              %co64 = arith.extui %co : i32 to i64
              %cp = llvm.getelementptr %slot_base[%co64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
              llvm.store %packed16, %cp {alignment = 2 : i64} : i16, !llvm.ptr<1>
              %group_first = arith.cmpi eq, %group_lane, %c0_i32 : i32
              scf.if %group_first {
                %so = arith.addi %scales_off, %group : i32
                %so64 = arith.extui %so : i32 to i64
                %sp = llvm.getelementptr %slot_base[%so64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
                %sbyte = arith.trunci %scale_byte : i32 to i8
                llvm.store %sbyte, %sp {alignment = 1 : i64} : i8, !llvm.ptr<1>
              }
            }
          }
        }
      }
      gpu.return
    }
  }
}
