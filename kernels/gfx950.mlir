// The gfx950 step helpers of the decode (kernels/decode.mlir's @uq_decode
// declares the ones it calls; uq-link copies them in): lane maps, the
// query rotation, K/V tile loads, the scaled-MFMA QK, masks, the online
// softmax step, PV operands, the partial store. Top-level func.func
// definitions: the kernel library (docs/design.md, "Kernel sources").
//
// Each algorithm step is one func.func helper (here, in kernels/steps.mlir,
// or in the module when it touches the module's LDS; uq-link copies it in,
// uq-inline inlines and erases it), and every loop over
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
// Build: uq-compile kernels -o DIR (uq-compile --print-pipeline shows
// the pass pipeline). The algorithm steps upstream has no op for are uq ops,
// lowered by convert-uq-to-rocdl: uq.wht (the D/32-lane Walsh-Hadamard of
// a query row), uq.e4m3_pack (E4M3 bytes through the hardware conversion),
// uq.fp4_to_bf16 (one scaled FP4 word to eight bf16) and uq.buffer_rsrc (a
// buffer view with a 64-bit base offset). The gpu.modules
// carry their targets, O = 3 included.
//
// Features past the seed: a sliding window (decode argument sliding_window:
// the tile walk starts at the window's first tile, tokens before it are
// masked like the tail; see @tile_first) and attention sinks (argument sinks
// of the reduce, and of the decode, which merges a P = 1 run itself: one f32
// logit per query head joins the softmax denominator; null = none).
// Argument order: runtime/kernel_abi.h.
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

// From kernels/steps.mlir (resolved when the folder is read).
func.func private @row_limit(i32, i32, i32, i32) -> i32
func.func private @window_start(i32, i32) -> i32
func.func private @act_widen4(vector<4xi16>, i1) -> vector<4xf32>
func.func private @act_narrow4(vector<4xf32>, i1) -> vector<4xi16>

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
                                %tile_rows: index, %img: !llvm.ptr<3>, %d: index,
                                %f16: i1) {
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
      %h = vector.bitcast %w : vector<4xi32> to vector<8xi16>
      %h0 = vector.extract_strided_slice %h {offsets = [0], sizes = [4], strides = [1]} : vector<8xi16> to vector<4xi16>
      %h1 = vector.extract_strided_slice %h {offsets = [4], sizes = [4], strides = [1]} : vector<8xi16> to vector<4xi16>
      %f0 = func.call @act_widen4(%h0, %f16) : (vector<4xi16>, i1) -> vector<4xf32>
      %f1 = func.call @act_widen4(%h1, %f16) : (vector<4xi16>, i1) -> vector<4xf32>
      %f = vector.shuffle %f0, %f1 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf32>, vector<4xf32>
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

// Four consecutive head dims of a workspace row: bf16 of a x inv at
// element e (the row's first element plus the dims' offset); with %direct
// the output's at element f, in the activations' dtype (%f16).
func.func private @store_out4(%direct: i1, %segm_out: !llvm.ptr<1>, %e: i64,
                              %output: !llvm.ptr<1>, %f: i64, %a: vector<4xf32>, %inv: f32,
                              %w: f32, %aw: f32, %f16: i1) {
  %inv4 = vector.broadcast %inv : f32 to vector<4xf32>
  %n = arith.mulf %a, %inv4 : vector<4xf32>
  %b = arith.truncf %n : vector<4xf32> to vector<4xbf16>
  scf.if %direct {
    // the reduce's sum for one partition, from the bf16 partial: 0 + w o
    %o = arith.extf %b : vector<4xbf16> to vector<4xf32>
    %zero4 = arith.constant dense<0.0> : vector<4xf32>
    %w4 = vector.broadcast %w : f32 to vector<4xf32>
    %wo = arith.mulf %w4, %o : vector<4xf32>
    %ao4 = arith.addf %zero4, %wo : vector<4xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = scf.for %i = %c0 to %c4 step %c1 iter_args(%v = %zero4) -> (vector<4xf32>) {
      %ao = vector.extract %ao4[%i] : f32 from vector<4xf32>
      %r = func.call @merge_out(%ao, %aw) : (f32, f32) -> f32
      %vn = vector.insert %r, %v[%i] : f32 into vector<4xf32>
      scf.yield %vn : vector<4xf32>
    }
    %ob = func.call @act_narrow4(%out, %f16) : (vector<4xf32>, i1) -> vector<4xi16>
    // the output's strides keep only 2-byte alignment
    %optr = llvm.getelementptr %output[%f] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
    llvm.store %ob, %optr {alignment = 2 : i64} : vector<4xi16>, !llvm.ptr<1>
  } else {
    %ptr = llvm.getelementptr %segm_out[%e] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
    llvm.store %b, %ptr {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
  }
  return
}

// ---- outputs of a partition, per live row: bf16 partial normalized by its
// own sum, fp32 max and sum (an empty partition writes 0, -inf, 0), at
// workspace row ((token * Hk + kvh) * P + part) * QG + head (partials
// [T, Hk, P, QG, D] by query token: a decode's [B, Hk, P, QG, D]). With
// one partition (P = 1) the row is final: the reduce's steps for P = 1
// (@merge_base, @merge_weight, @merge_out on the bf16 partial, so the
// output is the one decode + reduce write) put it in the output, and no
// reduce runs. Each
// lane addresses its own row in 64 bits (the rows of a block's tokens
// lie Hk * P * QG rows apart). Rows by the PV's column groups: a row
// tile's 16 (lane l: row l & 15, head dims 16i + 4 (l >> 4) ..), or with
// @pv_pairs a pair's 32 (row l & 31, head dims 32u + 8k + 4 (l >> 5) ..).
func.func private @store_partial(%segm_out: !llvm.ptr<1>, %segm_max: !llvm.ptr<1>,
                                 %segm_sum: !llvm.ptr<1>, %m: vector<4xf32>, %l: vector<4xf32>,
                                 %acc: vector<4x16x4xf32>, %tok0: i32, %kvh: i32, %part: i32,
                                 %num_kv_heads: i32, %num_partitions: i32, %qg: i32,
                                 %live_rows: i32, %rt: index, %d: index,
                                 %output: !llvm.ptr<1>, %out_stride_seq: i32,
                                 %out_stride_head: i32, %sinks: !llvm.ptr<1>,
                                 %f16: i1) {
  // One branch for the wave (P and the dtype are uniform), each side
  // @store_rows with its %direct and %f16 constants, so none carries
  // another's stores or conversions.
  %c1_np = arith.constant 1 : i32
  %one = arith.cmpi eq, %num_partitions, %c1_np : i32
  %true = arith.constant true
  %false = arith.constant false
  scf.if %one {
    scf.if %f16 {
      func.call @store_rows(%true, %segm_out, %segm_max, %segm_sum, %m, %l, %acc, %tok0, %kvh, %part, %num_kv_heads, %num_partitions, %qg, %live_rows, %rt, %d, %output, %out_stride_seq, %out_stride_head, %sinks, %true) : (i1, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>, i32, i32, i32, i32, i32, i32, i32, index, index, !llvm.ptr<1>, i32, i32, !llvm.ptr<1>, i1) -> ()
    } else {
      func.call @store_rows(%true, %segm_out, %segm_max, %segm_sum, %m, %l, %acc, %tok0, %kvh, %part, %num_kv_heads, %num_partitions, %qg, %live_rows, %rt, %d, %output, %out_stride_seq, %out_stride_head, %sinks, %false) : (i1, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>, i32, i32, i32, i32, i32, i32, i32, index, index, !llvm.ptr<1>, i32, i32, !llvm.ptr<1>, i1) -> ()
    }
  } else {
    func.call @store_rows(%false, %segm_out, %segm_max, %segm_sum, %m, %l, %acc, %tok0, %kvh, %part, %num_kv_heads, %num_partitions, %qg, %live_rows, %rt, %d, %output, %out_stride_seq, %out_stride_head, %sinks, %false) : (i1, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, vector<4xf32>, vector<4xf32>, vector<4x16x4xf32>, i32, i32, i32, i32, i32, i32, i32, index, index, !llvm.ptr<1>, i32, i32, !llvm.ptr<1>, i1) -> ()
  }
  return
}

// @store_partial's rows: %direct (a constant at each call) writes them to
// the output (P = 1), else as partials.
func.func private @store_rows(%direct: i1, %segm_out: !llvm.ptr<1>, %segm_max: !llvm.ptr<1>,
                              %segm_sum: !llvm.ptr<1>, %m: vector<4xf32>, %l: vector<4xf32>,
                              %acc: vector<4x16x4xf32>, %tok0: i32, %kvh: i32, %part: i32,
                              %num_kv_heads: i32, %num_partitions: i32, %qg: i32,
                              %live_rows: i32, %rt: index, %d: index,
                              %output: !llvm.ptr<1>, %out_stride_seq: i32,
                              %out_stride_head: i32, %sinks: !llvm.ptr<1>,
                              %f16: i1) {
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
  %ninf = arith.constant 0xFF800000 : f32
  %true = arith.constant true
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
      // P = 1: the output row (token, query head kvh QG + head) and the
      // merge's weights of the row's one partition (and its sink)
      %hq0 = arith.muli %kvh, %qg : i32
      %hq = arith.addi %hq0, %head : i32
      %fin:3 = scf.if %direct -> (i64, f32, f32) {
        %os = arith.extui %out_stride_seq : i32 to i64
        %oh = arith.extui %out_stride_head : i32 to i64
        %hq64 = arith.extui %hq : i32 to i64
        %o0 = arith.muli %s64, %os : i64
        %o1 = arith.muli %hq64, %oh : i64
        %o2 = arith.addi %o0, %o1 : i64
        %o3 = arith.addi %o2, %lg64 : i64
        %snull = llvm.mlir.zero : !llvm.ptr<1>
        %shas = llvm.icmp "ne" %sinks, %snull : !llvm.ptr<1>
        %sink = scf.if %shas -> (f32) {
          %sp = llvm.getelementptr %sinks[%hq] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
          %sv = llvm.load %sp invariant {alignment = 4 : i64} : !llvm.ptr<1> -> f32
          scf.yield %sv : f32
        } else {
          scf.yield %ninf : f32
        }
        %gmax = arith.maxnumf %ninf, %mt : f32
        %mb:2 = func.call @merge_base(%gmax, %sink) : (f32, f32) -> (f32, f32)
        %w = func.call @merge_weight(%mt, %lt, %mb#0) : (f32, f32, f32) -> f32
        %aw = arith.addf %mb#1, %w : f32
        scf.yield %o3, %w, %aw : i64, f32, f32
      } else {
        %z64 = arith.constant 0 : i64
        scf.yield %z64, %zero_f, %zero_f : i64, f32, f32
      }
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
          %f2 = arith.addi %fin#0, %dim64 : i64
          func.call @store_out4(%direct, %segm_out, %e2, %output, %f2, %a, %inv, %fin#1, %fin#2, %f16) : (i1, !llvm.ptr<1>, i64, !llvm.ptr<1>, i64, vector<4xf32>, f32, f32, f32, i1) -> ()
        }
      } else {
        scf.for %i = %c0 to %na step %c1 {
          %a = vector.extract %acc[%grp, %i] : vector<4xf32> from vector<4x16x4xf32>
          %ii = arith.index_cast %i : index to i32
          %dim = arith.muli %ii, %c16_i32 : i32
          %dim64 = arith.extui %dim : i32 to i64
          %e2 = arith.addi %e1, %dim64 : i64
          %f2 = arith.addi %fin#0, %dim64 : i64
          func.call @store_out4(%direct, %segm_out, %e2, %output, %f2, %a, %inv, %fin#1, %fin#2, %f16) : (i1, !llvm.ptr<1>, i64, !llvm.ptr<1>, i64, vector<4xf32>, f32, f32, f32, i1) -> ()
        }
      }
      %partial = arith.xori %direct, %true : i1
      %writes_ml = arith.andi %writer, %partial : i1
      scf.if %writes_ml {
        %mp = llvm.getelementptr %segm_max[%ridx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
        llvm.store %mt, %mp {alignment = 4 : i64} : f32, !llvm.ptr<1>
        %sp = llvm.getelementptr %segm_sum[%ridx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
        llvm.store %lt, %sp {alignment = 4 : i64} : f32, !llvm.ptr<1>
      }
    }
  }
  return
}

// ---- the lane's query row of each row tile t (16 t + (l & 15)): its own
// positions [ws, ws + wl), limit = ws + wl = pos0 + 1 + the row's token
// (@row_limit), ws its window's start (@window_start).
func.func private @row_ranges(%pos0: i32, %qg: i32, %live_rows: i32, %sliding_window: i32,
                              %rt: index) -> (vector<4xi32>, vector<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %c15_i32 = arith.constant 15 : i32
  %c16_i32 = arith.constant 16 : i32
  %lane = func.call @lane() : () -> i32
  %row = arith.andi %lane, %c15_i32 : i32
  %lim0 = arith.addi %pos0, %c1_i32 : i32
  %z = arith.constant dense<0> : vector<4xi32>
  %r:2 = scf.for %t = %c0 to %rt step %c1 iter_args(%wsv = %z, %wlv = %z) -> (vector<4xi32>, vector<4xi32>) {
    %ti = arith.index_cast %t : index to i32
    %r0 = arith.muli %ti, %c16_i32 : i32
    %rho = arith.addi %r0, %row : i32
    %limit = func.call @row_limit(%rho, %qg, %live_rows, %lim0) : (i32, i32, i32, i32) -> i32
    %ws = func.call @window_start(%limit, %sliding_window) : (i32, i32) -> i32
    %wl = arith.subi %limit, %ws : i32
    %wsn = vector.insert %ws, %wsv[%t] : i32 into vector<4xi32>
    %wln = vector.insert %wl, %wlv[%t] : i32 into vector<4xi32>
    scf.yield %wsn, %wln : vector<4xi32>, vector<4xi32>
  }
  return %r#0, %r#1 : vector<4xi32>, vector<4xi32>
}

// ---- the partition merge (@uq_reduce's steps; the decode runs them for P =
// 1): M = max(max_p m_p, sink) (0 where that is -inf), w_p = e^(m_p - M)
// l_p, out = sum w_p o_p / (sum w_p + e^(sink - M)).
// NaN PROPAGATION (issue 13; keep it): a partition is empty only when its
// sum is exactly 0 (the decode writes -inf / 0 / 0 for it); any other, NaN
// included, is weighed, so a query row with a NaN or inf element (its
// scores are NaN) gives a NaN output, never a plausible 0. Hence `une 0` in
// @merge_weight, not `ogt 0` nor `m_p > -inf` (a NaN row's max stays -inf
// under maxnum while its sum is NaN). The host references follow the same
// rule; test/unit/runtime/e2e_sim_test.c (non_finite_query) checks it.

// The merge's base M (from the partitions' largest max and the query head's
// sink, -inf: none) and the sink's weight e^(sink - M) (0 without one).
func.func private @merge_base(%gmax: f32, %sink: f32) -> (f32, f32) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero_f = arith.constant 0.0 : f32
  %log2e = arith.constant 1.44269504088896340736 : f32
  %gmax_s = arith.maxnumf %gmax, %sink : f32
  %finite = arith.cmpf ogt, %gmax_s, %ninf : f32
  %base = arith.select %finite, %gmax_s, %zero_f : f32
  %sd = arith.subf %sink, %base : f32
  %sd2 = arith.mulf %sd, %log2e : f32
  %se = rocdl.exp2 %sd2 f32 -> f32
  %has_sink = arith.cmpf ogt, %sink, %ninf : f32
  %sw = arith.select %has_sink, %se, %zero_f : f32
  return %base, %sw : f32, f32
}

// A partition's weight e^(m - M) l, 0 for an empty one (l == 0).
func.func private @merge_weight(%m: f32, %l: f32, %base: f32) -> f32 {
  %zero_f = arith.constant 0.0 : f32
  %log2e = arith.constant 1.44269504088896340736 : f32
  %weighed = arith.cmpf une, %l, %zero_f : f32
  %d = arith.subf %m, %base : f32
  %d2 = arith.mulf %d, %log2e : f32
  %e = rocdl.exp2 %d2 f32 -> f32
  %w = arith.mulf %e, %l : f32
  %r = arith.select %weighed, %w, %zero_f : f32
  return %r : f32
}

// The merged element: the weighted sum over the weights, 0 where they sum
// to 0 (no token and no sink).
func.func private @merge_out(%ao: f32, %aw: f32) -> f32 {
  %zero_f = arith.constant 0.0 : f32
  %one_f = arith.constant 1.0 : f32
  %some = arith.cmpf une, %aw, %zero_f : f32
  %den = arith.select %some, %aw, %one_f : f32
  %q = arith.divf %ao, %den : f32
  %r = arith.select %some, %q, %zero_f : f32
  return %r : f32
}
