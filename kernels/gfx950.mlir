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
// accumulators of 16 head dims. Register arrays are declared for D = 512
// and used up to D; what a smaller D leaves unused folds away (the code
// objects of D <= 256 are byte for byte those of arrays sized for 256).
// D = 512 has 16 and 32 rows at one wave per SIMD (280 and 420 VGPRs, no
// spills; the V tile in the module's wider LDS area; 64 rows spill); D = 32
// 16 rows, a quarter of an issue (its Q image zeroes the rest of the
// operand). The runtime loops
// left are the tile loop and the reduce's partition loops.
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
//               j & 1, v_permlane16_swap hands each lane both words; D = 512:
//               word j, v_permlane32_swap of those gives each lane all four;
//               D = 64: lane groups 2, 3 hold zeros (the padding); D = 32:
//               groups 1..3 (every group loads group 0's codes: the slot
//               holds no others).
//   V loads     token l >> 2, chunk c = l & 3: head dims [c D/4, (c + 1) D/4),
//               D / 32 words, and the scale word holding their groups.
//   MFMA out    lane l holds C[4j + i][l & 15], i = 0..3 (token or head dim, query row);
//               the PV of a pair of row tiles (blocks of 32 and 64 rows, @pv_pairs):
//               lane l register r holds C[8 (r / 4) + 4 (l >> 5) + r % 4][l & 31].
//   WHT         D / 32 lanes per query row, 32 head dims per lane.
//
// Register arrays: K codes vector<4x4xi32> (issue h), V codes vector<4x4xi32>
// (16-byte load h of the lane's chunk), the Q operand vector<4x8xi32> (issue
// h), the PV accumulators vector<4x32x4xf32> (row tile t, head dims 16i ..
// 16i + 15; with @pv_pairs the slots of a pair's 32x32 outputs, @acc_block).

// From kernels/steps.mlir (resolved when the folder is read).
func.func private @row_limit(i32, i32, i32, i32) -> i32
func.func private @window_start(i32, i32) -> i32
func.func private @query_block(!llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32) -> (i32, i32, i32, i32)
func.func private @act_widen4(vector<4xi16>, i1) -> vector<4xf32>
func.func private @act_narrow4(vector<4xf32>, i1) -> vector<4xi16>

// The lane within its wave: thread id x mod 64 (a one-wave workgroup's
// mask folds away: LLVM knows its ids are below 64).
func.func private @lane() -> i32 {
  %c63 = arith.constant 63 : i32
  %l = gpu.thread_id x
  %r = arith.index_cast %l : index to i32
  %w = arith.andi %r, %c63 : i32
  return %w : i32
}

// The wave's index in a multi-wave workgroup (thread id x / 64), read from
// the first lane so that it sits in an SGPR and branches on it are uniform.
func.func private @wave_index() -> i32 {
  %c6 = arith.constant 6 : i32
  %l = gpu.thread_id x
  %r = arith.index_cast %l : index to i32
  %w = arith.shrui %r, %c6 : i32
  %u = rocdl.readfirstlane %w : i32
  return %u : i32
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
  %padded = arith.cmpi ule, %d, %c64 : index
  %c32_ix = arith.constant 32 : index
  %quarter = arith.cmpi eq, %d, %c32_ix : index
  // lanes per row (a power of two) and rows per pass
  %lpr_ix = arith.divui %d, %c32 : index
  %rpp_ix = arith.divui %c64, %lpr_ix : index
  %lpr = arith.index_cast %lpr_ix : index to i32
  %rpp = arith.index_cast %rpp_ix : index to i32
  %lpr_mask = arith.subi %lpr, %c1_i32 : i32
  %chunk = arith.andi %lane, %lpr_mask : i32
  %lrow = arith.divui %lane, %lpr : i32
  // this lane's first element at its permuted position:
  // dest(d) = (d & 0x18F) | ((d >> 2) & 0x10) | ((d << 1) & 0x60), d = 32 * chunk
  %p0 = arith.andi %chunk, %c2_i32 : i32
  %p1 = arith.shli %p0, %c3_i32 : i32
  %p2 = arith.andi %chunk, %c1_i32 : i32
  %p3 = arith.shli %p2, %c6_i32 : i32
  %p4 = arith.andi %chunk, %c4_i32 : i32
  %p5 = arith.shli %p4, %c5_i32 : i32
  %p6 = arith.ori %p1, %p3 : i32
  %p7 = arith.ori %p6, %p5 : i32
  // D = 512: chunk bit 3 (d bit 8, the issue's high bit) passes through
  %p8 = arith.andi %chunk, %c8_i32 : i32
  %p9 = arith.shli %p8, %c5_i32 : i32
  %dest0 = arith.ori %p7, %p9 : i32
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
        // D = 64 and 32: the run at byte 0 of a lane's 32 also zeroes its
        // bytes 16..31; D = 32 fills lane groups 0 and 1 only, and its
        // first run zeroes the row's 32 bytes of groups 2 and 3 (K's codes
        // there are zeros, and 0 x a stale NaN byte would not be)
        %even = arith.cmpi eq, %lo, %c0_i32 : i32
        %pad = arith.andi %padded, %even : i1
        scf.if %pad {
          %c16o = arith.addi %off, %c16_i32 : i32
          %zp = llvm.getelementptr %img[%c16o] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %z4 = arith.constant dense<0> : vector<4xi32>
          llvm.store %z4, %zp {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
        }
        %first_run = arith.cmpi eq, %ci, %c0_i32 : i32
        %unused = arith.andi %quarter, %first_run : i1
        scf.if %unused {
          %c1024_i32 = arith.constant 1024 : i32
          %c1536_i32 = arith.constant 1536 : i32
          %z4 = arith.constant dense<0> : vector<4xi32>
          scf.for %g = %c0 to %c4 step %c1 {
            %gi = arith.index_cast %g : index to i32
            %gh = arith.shrui %gi, %c1_i32 : i32
            %gl = arith.andi %gi, %c1_i32 : i32
            %g3 = arith.cmpi ne, %gh, %c0_i32 : i32
            %gb = arith.select %g3, %c1536_i32, %c1024_i32 : i32
            %g16 = arith.muli %gl, %c16_i32 : i32
            %go = arith.addi %gb, %g16 : i32
            %zo = arith.addi %go, %dst_row : i32
            %zq = llvm.getelementptr %img[%zo] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            llvm.store %z4, %zq {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
          }
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
    -> (vector<4xi32>, vector<4xi32>, i32, i32) {
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %c4_i32 = arith.constant 4 : i32
  %c5_i32 = arith.constant 5 : i32
  %c7_i32 = arith.constant 7 : i32
  %c15_i32 = arith.constant 15 : i32
  %c16_i32 = arith.constant 16 : i32
  %not3 = arith.constant -4 : i32
  %issue_bytes = arith.constant dense<[0, 64, 128, 192]> : vector<4xi32>
  %load_bytes = arith.constant dense<[0, 16, 32, 48]> : vector<4xi32>
  %di = arith.index_cast %d : index to i32
  %ni_ix = func.call @issues(%d) : (index) -> index
  %ni = arith.index_cast %ni_ix : index to i32
  %k_scales = arith.shrui %di, %c1_i32 : i32
  %d32 = arith.shrui %di, %c5_i32 : i32
  %v_codes = arith.addi %k_scales, %d32 : i32
  %v_scales = arith.addi %di, %d32 : i32
  %lane = func.call @lane() : () -> i32
  %head = arith.muli %kvh, %padded_slot : i32
  // K: token l & 15, lane group j reads group 4h + j of issue h (D = 32:
  // every group reads group 0, whose slot holds no group 1..3; @tile_loads
  // zeroes the dead groups' codes)
  %ktok = arith.andi %lane, %c15_i32 : i32
  %j = arith.shrui %lane, %c4_i32 : i32
  %k0 = arith.muli %ktok, %pos_stride : i32
  %krow = arith.addi %k0, %head : i32
  %c0_i32 = arith.constant 0 : i32
  %c32_i32 = arith.constant 32 : i32
  %one_group = arith.cmpi eq, %di, %c32_i32 : i32
  %jk = arith.select %one_group, %c0_i32, %j : i32
  %k1 = arith.muli %jk, %c16_i32 : i32
  %k2 = arith.addi %krow, %k1 : i32
  %k3 = vector.broadcast %k2 : i32 to vector<4xi32>
  %k_offs = arith.addi %k3, %issue_bytes : vector<4xi32>
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
  %v4 = vector.broadcast %v3 : i32 to vector<4xi32>
  %v_offs = arith.addi %v4, %load_bytes : vector<4xi32>
  // the 4-byte word holding the chunk's scale bytes (first group c D / 128,
  // rounded down: D = 64 chunks 0, 1 are group 0)
  %cd = arith.muli %chunk, %di : i32
  %g0 = arith.shrui %cd, %c7_i32 : i32
  %v5 = arith.addi %v_scales, %g0 : i32
  %v6 = arith.andi %v5, %not3 : i32
  %vs_off = arith.addi %vrow, %v6 : i32
  return %k_offs, %v_offs, %ks_off, %vs_off : vector<4xi32>, vector<4xi32>, i32, i32
}

// ---- a varlen block's queries: bt = rows / QG tokens (at least one) of
// block blk_x's sequence (@query_block's results: sequence, first token,
// tokens, first token's position), ntok >= 0 of them live, live_rows =
// ntok x QG query rows.
func.func private @block_queries(%query_start_loc: !llvm.ptr<1>, %seq_lens: !llvm.ptr<1>,
                                 %search_seqs: i32, %rows: index, %query_group: i32,
                                 %blk_x: i32) -> (i32, i32, i32, i32, i32, i32) {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %rows_i = arith.index_cast %rows : index to i32
  %bt0 = arith.divui %rows_i, %query_group : i32
  %bt = arith.maxui %bt0, %c1_i32 : i32
  %blk:4 = func.call @query_block(%query_start_loc, %seq_lens, %search_seqs, %bt, %blk_x) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i32, i32) -> (i32, i32, i32, i32)
  %ntok = arith.maxsi %blk#2, %c0_i32 : i32
  %live_rows = arith.muli %ntok, %query_group : i32
  return %blk#0, %blk#1, %blk#2, %blk#3, %ntok, %live_rows : i32, i32, i32, i32, i32, i32
}

// ---- the cache's geometry: a block's tokens as a shift and mask, bytes
// between positions and between blocks, and the sequence's block-table row
// offset. 64-BIT ADDRESSING (issue 13; keep it): a product of user sizes
// that can pass 2^31 is formed in i64. The block byte size is bounded by
// the plan (block_size * Hk * padded_slot <= 2^31 - 1: it is a buffer's
// 32-bit record count and every in-block offset is 32-bit), but block *
// blk_bytes reaches 2^31 * 2^31 and the block-table row offset
// seq * max_blocks_per_seq reaches 65535 * 2^24: both stay i64 up to the
// address (@tile_loads, @store_partial). test/unit/runtime/
// large_address_test.c runs a >4 GiB cache and an 8 GiB block table.
func.func private @cache_geometry(%block_size: i32, %num_kv_heads: i32, %padded_slot: i32,
                                  %seq: i32, %max_blocks_per_seq: i32)
    -> (i32, i32, i32, i64, i64) {
  %c1_i32 = arith.constant 1 : i32
  %bs_shift = math.cttz %block_size : i32
  %bs_mask = arith.subi %block_size, %c1_i32 : i32
  %pos_stride = arith.muli %num_kv_heads, %padded_slot : i32
  %bs64 = arith.extui %block_size : i32 to i64
  %ps64 = arith.extui %pos_stride : i32 to i64
  %blk_bytes = arith.muli %bs64, %ps64 : i64
  %seq64 = arith.extui %seq : i32 to i64
  %mbps64 = arith.extui %max_blocks_per_seq : i32 to i64
  %bt_row = arith.muli %seq64, %mbps64 : i64
  return %bs_shift, %bs_mask, %pos_stride, %blk_bytes, %bt_row : i32, i32, i32, i64, i64
}

// ---- the block's positions (from its first token's position pos0 and its
// ntok tokens): its first token attends < lim_lo = pos0 + 1,
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
func.func private @block_positions(%pos0: i32, %ntok: i32, %sliding_window: i32)
    -> (i32, i32, i32, i32, i32, i32) {
  %c1_i32 = arith.constant 1 : i32
  %lim_lo = arith.addi %pos0, %c1_i32 : i32
  %kv_end = arith.addi %pos0, %ntok : i32
  %win_start = func.call @window_start(%lim_lo, %sliding_window) : (i32, i32) -> i32
  %ws_hi = func.call @window_start(%kv_end, %sliding_window) : (i32, i32) -> i32
  %tile_mask = arith.constant -16 : i32
  %win_base = arith.andi %win_start, %tile_mask : i32
  %win_len = arith.subi %kv_end, %win_start : i32
  %rel_len = arith.subi %kv_end, %win_base : i32
  return %lim_lo, %win_start, %ws_hi, %win_base, %win_len, %rel_len : i32, i32, i32, i32, i32, i32
}

// ---- the tiles partition `part` walks over rel_len positions: it owns the
// 256-token groups p, p + P, ... (at most TGPP) and processes only tiles
// that hold a position of the block (a flattened tile loop); none without
// live rows.
func.func private @partition_tiles(%rel_len: i32, %part: i32, %num_partitions: i32, %tgpp: i32,
                                   %live_rows: i32) -> i32 {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c4_i32 = arith.constant 4 : i32
  %c8_i32 = arith.constant 8 : i32
  %c15_i32 = arith.constant 15 : i32
  %c16_i32 = arith.constant 16 : i32
  %c255_i32 = arith.constant 255 : i32
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
  return %ntiles : i32
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

// ---- the buffer view of the cache block holding the tile that starts at
// token `first` (its 64-bit byte offset in the descriptor's base: caches
// over 4 GiB do not wrap; `records` = 0 reads zeros without touching
// memory) and the token's row offset in it.
func.func private @tile_rsrc(%kv_cache: !llvm.ptr<1>, %block_tables: !llvm.ptr<1>, %first: i32,
                             %records: i64, %bs_shift: i32, %bs_mask: i32, %bt_row: i64,
                             %blk_bytes: i64, %pos_stride: i32) -> (!llvm.ptr<8>, i32) {
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
  return %rsrc, %row : !llvm.ptr<8>, i32
}

// ---- the KV loads of the tile starting at token `first`: the block's 64-bit
// byte offset goes into the descriptor base (caches over 4 GiB do not wrap),
// the token's row offset into soffset. `records` = 0 makes every load read
// zeros without touching memory (the prefetch past the last tile).
func.func private @tile_loads(%kv_cache: !llvm.ptr<1>, %block_tables: !llvm.ptr<1>, %first: i32,
                              %records: i64, %bs_shift: i32, %bs_mask: i32, %bt_row: i64,
                              %blk_bytes: i64, %pos_stride: i32, %k_offs: vector<4xi32>,
                              %v_offs: vector<4xi32>, %ks_off: i32, %vs_off: i32, %d: index)
    -> (vector<4x4xi32>, vector<4x4xi32>, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %rsrc, %row = func.call @tile_rsrc(%kv_cache, %block_tables, %first, %records, %bs_shift, %bs_mask, %bt_row, %blk_bytes, %pos_stride) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i64, i32, i32, i64, i64, i32) -> (!llvm.ptr<8>, i32)
  %zero = arith.constant dense<0> : vector<4x4xi32>
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
  %kc = scf.for %h = %c0 to %ni step %c1 iter_args(%k = %zero) -> (vector<4x4xi32>) {
    %ko = vector.extract %k_offs[%h] : i32 from vector<4xi32>
    %kr = rocdl.raw.ptr.buffer.load %rsrc, %ko, %row, %c0_i32 : vector<4xi32>
    %kl = arith.select %k_live, %kr, %zero4 : vector<4xi32>
    %kn = vector.insert %kl, %k[%h] : vector<4xi32> into vector<4x4xi32>
    scf.yield %kn : vector<4x4xi32>
  }
  %vsw = rocdl.raw.ptr.buffer.load %rsrc, %vs_off, %row, %c0_i32 : i32
  %vc = scf.for %h = %c0 to %ni step %c1 iter_args(%v = %zero) -> (vector<4x4xi32>) {
    %vo = vector.extract %v_offs[%h] : i32 from vector<4xi32>
    // D = 64 (32): a lane's chunk is 8 (4) bytes; a 16-byte load would
    // read past the last slot of the cache (the conditions fold per variant)
    %wide = arith.cmpi uge, %groups, %c4_i32 : i32
    %c2_i32 = arith.constant 2 : i32
    %half = arith.cmpi eq, %groups, %c2_i32 : i32
    %vl = scf.if %wide -> (vector<4xi32>) {
      %v16 = rocdl.raw.ptr.buffer.load %rsrc, %vo, %row, %c0_i32 : vector<4xi32>
      scf.yield %v16 : vector<4xi32>
    } else {
      %vn = scf.if %half -> (vector<4xi32>) {
        %v8 = rocdl.raw.ptr.buffer.load %rsrc, %vo, %row, %c0_i32 : vector<2xi32>
        %v8x = vector.shuffle %v8, %v8 [0, 1, 2, 3] : vector<2xi32>, vector<2xi32>
        scf.yield %v8x : vector<4xi32>
      } else {
        %v4 = rocdl.raw.ptr.buffer.load %rsrc, %vo, %row, %c0_i32 : i32
        %v4x = vector.broadcast %v4 : i32 to vector<4xi32>
        scf.yield %v4x : vector<4xi32>
      }
      scf.yield %vn : vector<4xi32>
    }
    %vn = vector.insert %vl, %v[%h] : vector<4xi32> into vector<4x4xi32>
    scf.yield %vn : vector<4x4xi32>
  }
  return %kc, %vc, %ksw, %vsw : vector<4x4xi32>, vector<4x4xi32>, i32, i32
}

// ---- A KV tile shared by the waves of a workgroup (kernels/
// attention_gfx950.mlir): each wave loads a share of the tile from global
// memory once (@share_loads), puts it in the tile's LDS buffer
// (@share_store), and after a barrier every wave reads the K operands it
// needs (@share_k) and V in bf16. The shares keep @tile_loads' lane maps.
// Wave w's share (@share_roles, fixed for the walk): the K codes of issue
// w (16 B a lane) if w < issues, the K scale words if w = issues, and V
// slice w = (load h, word i) of every lane's chunk, w = h min(4, D/32) +
// i (at most 8 slices: a variant has at least as many waves), with the V
// scale word, converted to bf16. A wave loads and stores every part of a
// share, with or without a role: a part it has no role in loads at an
// offset past the buffer's records (zeros, no memory read) and stores
// into LDS nobody reads (the K image's spare area, V rows' 16-byte
// padding), so the walk has no branch per role. The K image (3,584 B):
// issue h, lane l at 1024 h + 16 l, the scale words at 2048 + 4 l, spare
// codes at 2304 + 16 l and scale words at 3328 + 4 l. V: the bf16 rows of
// @v_word_to_lds.

// An offset no buffer view's records reach (the plan bounds a block's
// bytes by 2^31 - 1): its loads return zeros and read no memory.
func.func private @share_nowhere() -> i32 {
  %c = arith.constant -256 : i32
  return %c : i32
}

// The wave's share as offsets: loads (cache row-relative) of its K codes,
// K scale word, V word and V scale word; the LDS offsets of its K codes
// and scale word in the K image and of its V word's bf16 in the V rows;
// the V word's load h (its scale byte).
func.func private @share_roles(%k_offs: vector<4xi32>, %v_offs: vector<4xi32>, %ks_off: i32,
                               %vs_off: i32, %wave: i32, %d: index)
    -> (i32, i32, i32, i32, i32, i32, i32, i32) {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %c4_i32 = arith.constant 4 : i32
  %c5_i32 = arith.constant 5 : i32
  %c6_i32 = arith.constant 6 : i32
  %c10_i32 = arith.constant 10 : i32
  %c16_i32 = arith.constant 16 : i32
  %c2048_i32 = arith.constant 2048 : i32
  %c2304_i32 = arith.constant 2304 : i32
  %c3328_i32 = arith.constant 3328 : i32
  %nowhere = func.call @share_nowhere() : () -> i32
  %ni_ix = func.call @issues(%d) : (index) -> index
  %ni = arith.index_cast %ni_ix : index to i32
  %wpl_ix = func.call @v_words_per_load(%d) : (index) -> index
  %wpl = arith.index_cast %wpl_ix : index to i32
  %nslices = arith.muli %ni, %wpl : i32
  %vrb = func.call @v_row_bytes(%d) : (index) -> i32
  %di = arith.index_cast %d : index to i32
  %lane = func.call @lane() : () -> i32
  // K codes of issue w; D = 64: lane groups 2 and 3 (K 64..127) zeros
  %j = arith.shrui %lane, %c4_i32 : i32
  %groups = arith.shrui %di, %c5_i32 : i32
  %k_live = arith.cmpi ult, %j, %groups : i32
  %is_codes = arith.cmpi ult, %wave, %ni : i32
  %k_loads = arith.andi %is_codes, %k_live : i1
  %ko0 = vector.extract %k_offs[0] : i32 from vector<4xi32>
  %ko1 = vector.extract %k_offs[1] : i32 from vector<4xi32>
  %second = arith.cmpi eq, %wave, %c1_i32 : i32
  %ko = arith.select %second, %ko1, %ko0 : i32
  %k_load = arith.select %k_loads, %ko, %nowhere : i32
  %l16 = arith.shli %lane, %c4_i32 : i32
  %kd0 = arith.shli %wave, %c10_i32 : i32
  %kd1 = arith.addi %kd0, %l16 : i32
  %kd2 = arith.addi %c2304_i32, %l16 : i32
  %k_dst = arith.select %is_codes, %kd1, %kd2 : i32
  // the K scale words
  %is_scales = arith.cmpi eq, %wave, %ni : i32
  %ks_load = arith.select %is_scales, %ks_off, %nowhere : i32
  %l4 = arith.shli %lane, %c2_i32 : i32
  %sd1 = arith.addi %c2048_i32, %l4 : i32
  %sd2 = arith.addi %c3328_i32, %l4 : i32
  %ks_dst = arith.select %is_scales, %sd1, %sd2 : i32
  // V slice w: word i of load h
  %is_v = arith.cmpi ult, %wave, %nslices : i32
  %h0 = arith.divui %wave, %wpl : i32
  %h = arith.select %is_v, %h0, %c0_i32 : i32
  %hw = arith.muli %h, %wpl : i32
  %i = arith.subi %wave, %hw : i32
  %vo0 = vector.extract %v_offs[0] : i32 from vector<4xi32>
  %vo1 = vector.extract %v_offs[1] : i32 from vector<4xi32>
  %vsecond = arith.cmpi eq, %h, %c1_i32 : i32
  %vo = arith.select %vsecond, %vo1, %vo0 : i32
  %i4 = arith.shli %i, %c2_i32 : i32
  %vi = arith.addi %vo, %i4 : i32
  %v_load = arith.select %is_v, %vi, %nowhere : i32
  %vs_load = arith.select %is_v, %vs_off, %nowhere : i32
  // its bf16 (@v_word_to_lds's place), else the padding of the lane's row
  %vtok = arith.shrui %lane, %c2_i32 : i32
  %chunk = arith.andi %lane, %c3_i32 : i32
  %vr0 = arith.muli %vtok, %vrb : i32
  %d2 = arith.shrui %di, %c1_i32 : i32
  %vr1 = arith.muli %chunk, %d2 : i32
  %vrow = arith.addi %vr0, %vr1 : i32
  %hb = arith.shli %h, %c6_i32 : i32
  %ib = arith.muli %i, %c16_i32 : i32
  %vd0 = arith.addi %vrow, %hb : i32
  %vd1 = arith.addi %vd0, %ib : i32
  %dd = arith.shli %di, %c1_i32 : i32
  %pad = arith.addi %vr0, %dd : i32
  %v_dst = arith.select %is_v, %vd1, %pad : i32
  return %k_load, %ks_load, %v_load, %vs_load, %k_dst, %ks_dst, %v_dst, %h : i32, i32, i32, i32, i32, i32, i32, i32
}

// The wave's share of the tile starting at `first` (@share_roles' load
// offsets): K codes, K scale word, V word, V scale word.
func.func private @share_loads(%kv_cache: !llvm.ptr<1>, %block_tables: !llvm.ptr<1>, %first: i32,
                               %records: i64, %bs_shift: i32, %bs_mask: i32, %bt_row: i64,
                               %blk_bytes: i64, %pos_stride: i32, %k_load: i32, %ks_load: i32,
                               %v_load: i32, %vs_load: i32)
    -> (vector<4xi32>, i32, i32, i32) {
  %c0_i32 = arith.constant 0 : i32
  %rsrc, %row = func.call @tile_rsrc(%kv_cache, %block_tables, %first, %records, %bs_shift, %bs_mask, %bt_row, %blk_bytes, %pos_stride) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, i64, i32, i32, i64, i64, i32) -> (!llvm.ptr<8>, i32)
  // K first (the scores wait for it), then V
  %ksw = rocdl.raw.ptr.buffer.load %rsrc, %ks_load, %row, %c0_i32 : i32
  %kc = rocdl.raw.ptr.buffer.load %rsrc, %k_load, %row, %c0_i32 : vector<4xi32>
  %vsw = rocdl.raw.ptr.buffer.load %rsrc, %vs_load, %row, %c0_i32 : i32
  %vw = rocdl.raw.ptr.buffer.load %rsrc, %v_load, %row, %c0_i32 : i32
  return %kc, %ksw, %vw, %vsw : vector<4xi32>, i32, i32, i32
}

// The wave's share of the tile starting at `first` into LDS (@share_roles'
// LDS offsets): K words into the K image at %kb, its V word to bf16 in
// the V rows at %vb (the scale word masked by @v_tile_scales).
func.func private @share_store(%kc: vector<4xi32>, %ksw: i32, %vw: i32, %vsw: i32, %first: i32,
                               %lim_lo: i32, %ws_hi: i32, %win_start: i32, %win_len: i32,
                               %kb: !llvm.ptr<3>, %vb: !llvm.ptr<3>, %k_dst: i32, %ks_dst: i32,
                               %v_dst: i32, %vh: i32, %d: index) {
  %kp = llvm.getelementptr %kb[%k_dst] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  llvm.store %kc, %kp {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
  %sp = llvm.getelementptr %kb[%ks_dst] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  llvm.store %ksw, %sp {alignment = 4 : i64} : i32, !llvm.ptr<3>
  %vs = func.call @v_tile_scales(%vsw, %first, %lim_lo, %ws_hi, %win_start, %win_len) : (i32, i32, i32, i32, i32, i32) -> i32
  %bf = func.call @v_word_bf16(%vw, %vs, %vh, %d) : (i32, i32, i32, index) -> vector<8xbf16>
  %vp = llvm.getelementptr %vb[%v_dst] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  llvm.store %bf, %vp {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
  return
}

// The K codes and scale word of @tile_loads' lane map, from the K image at
// %kb.
func.func private @share_k(%kb: !llvm.ptr<3>, %d: index) -> (vector<4x4xi32>, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2_i32 = arith.constant 2 : i32
  %c4_i32 = arith.constant 4 : i32
  %c10_i32 = arith.constant 10 : i32
  %c2048_i32 = arith.constant 2048 : i32
  %zero = arith.constant dense<0> : vector<4x4xi32>
  %ni = func.call @issues(%d) : (index) -> index
  %lane = func.call @lane() : () -> i32
  %o1 = arith.shli %lane, %c4_i32 : i32
  %kc = scf.for %h = %c0 to %ni step %c1 iter_args(%k = %zero) -> (vector<4x4xi32>) {
    %hi = arith.index_cast %h : index to i32
    %o0 = arith.shli %hi, %c10_i32 : i32
    %o = arith.addi %o0, %o1 : i32
    %p = llvm.getelementptr %kb[%o] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    %x = llvm.load %p {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
    %kn = vector.insert %x, %k[%h] : vector<4xi32> into vector<4x4xi32>
    scf.yield %kn : vector<4x4xi32>
  }
  %s1 = arith.shli %lane, %c2_i32 : i32
  %so = arith.addi %s1, %c2048_i32 : i32
  %sp = llvm.getelementptr %kb[%so] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  %ksw = llvm.load %sp {alignment = 4 : i64} : !llvm.ptr<3> -> i32
  return %kc, %ksw : vector<4x4xi32>, i32
}

// ---- the QK scores of one row tile: C[token][query row] over the K = 128
// issues; A = K FP4 with its UE8M0 scale, B = Q E4M3 (scale 0x7F = 1);
// the raw dot products (@softmax_step applies the softmax scale).
func.func private @qk_scores(%k: vector<4x4xi32>, %kscales: vector<4xi32>, %q: vector<4x8xi32>,
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
    %a = vector.extract %k[%h] : vector<4xi32> from vector<4x4xi32>
    %b = vector.extract %q[%h] : vector<8xi32> from vector<4x8xi32>
    %sa = vector.extract %kscales[%h] : i32 from vector<4xi32>
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
func.func private @acc_block(%acc: vector<4x32x4xf32>, %p: index, %u: index) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s:2 = func.call @pair_slots(%p, %u) : (index, index) -> (index, index)
  %z = arith.constant dense<0.0> : vector<4x4xf32>
  %b = scf.for %k = %c0 to %c4 step %c1 iter_args(%bk = %z) -> (vector<4x4xf32>) {
    %i = arith.addi %s#1, %k : index
    %x = vector.extract %acc[%s#0, %i] : vector<4xf32> from vector<4x32x4xf32>
    %n = vector.insert %x, %bk[%k] : vector<4xf32> into vector<4x4xf32>
    scf.yield %n : vector<4x4xf32>
  }
  %f = vector.shape_cast %b : vector<4x4xf32> to vector<16xf32>
  return %f : vector<16xf32>
}
func.func private @acc_set_block(%acc: vector<4x32x4xf32>, %blk: vector<16xf32>, %p: index,
                                 %u: index) -> vector<4x32x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s:2 = func.call @pair_slots(%p, %u) : (index, index) -> (index, index)
  %b = vector.shape_cast %blk : vector<16xf32> to vector<4x4xf32>
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %acc) -> (vector<4x32x4xf32>) {
    %i = arith.addi %s#1, %k : index
    %x = vector.extract %b[%k] : vector<4xf32> from vector<4x4xf32>
    %n = vector.insert %x, %a[%s#0, %i] : vector<4xf32> into vector<4x32x4xf32>
    scf.yield %n : vector<4x32x4xf32>
  }
  return %r : vector<4x32x4xf32>
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

// The bytes of a row tile's Q operand image: 2,048 per issue, at least
// two issues' (the LDS areas' layout for D <= 256).
func.func private @q_image_bytes(%d: index) -> index {
  %c2 = arith.constant 2 : index
  %c2048 = arith.constant 2048 : index
  %ni = func.call @issues(%d) : (index) -> index
  %n = arith.maxui %ni, %c2 : index
  %b = arith.muli %n, %c2048 : index
  return %b : index
}

// Row tile t's Q operands, every issue: from the wave's registers %q,
// or from LDS where they wait there (@q_operands_in_lds: row tile t's
// image at %q_lds + t @q_image_bytes).
func.func private @row_tile_q(%q: vector<4x4x8xi32>, %t: index, %rt: index, %d: index,
                              %q_lds: !llvm.ptr<3>) -> vector<4x8xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ni = func.call @issues(%d) : (index) -> index
  %in_lds = func.call @q_operands_in_lds(%rt, %d) : (index, index) -> i1
  %qt = scf.if %in_lds -> (vector<4x8xi32>) {
    %tile_bytes = func.call @q_image_bytes(%d) : (index) -> index
    %o = arith.muli %t, %tile_bytes : index
    %oi = arith.index_cast %o : index to i32
    %img = llvm.getelementptr %q_lds[%oi] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    %zq = arith.constant dense<0> : vector<4x8xi32>
    %ql = scf.for %h = %c0 to %ni step %c1 iter_args(%qa = %zq) -> (vector<4x8xi32>) {
      %qh = func.call @q_image_operand(%img, %h) : (!llvm.ptr<3>, index) -> vector<8xi32>
      %qn = vector.insert %qh, %qa[%h] : vector<8xi32> into vector<4x8xi32>
      scf.yield %qn : vector<4x8xi32>
    }
    scf.yield %ql : vector<4x8xi32>
  } else {
    %qr = vector.extract %q[%t] : vector<4x8xi32> from vector<4x4x8xi32>
    scf.yield %qr : vector<4x8xi32>
  }
  return %qt : vector<4x8xi32>
}


// ---- the scores and online softmax of one 16-token tile for the wave's
// row tiles (rt of them; those past live_rows skipped): QK on the K codes
// %k and scale word %ksw (@tile_loads' lane map), the mask where the tile
// reaches past the block's first row's last position (lim_lo - 1) or
// starts before its last row's window (ws_hi), @softmax_step. Lane l's row
// in row tile t is 16 t + (l & 15), its own positions [row_ws[t], row_ws[t]
// + row_wl[t]). Returns the new m and l, each row tile's rescale alpha,
// bf16 P and whether its maximum moved (@pv_step takes the last three).
// %every_tile (a constant) runs every row tile, live rows or not, without
// a branch each: a row past live_rows is never stored, and its scores are
// finite (zero Q) or masked like its block's last row's.
func.func private @tile_scores(%m: vector<4xf32>, %l: vector<4xf32>, %k: vector<4x4xi32>,
                               %ksw: i32, %q: vector<4x4x8xi32>, %q_lds: !llvm.ptr<3>,
                               %first: i32, %lim_lo: i32, %ws_hi: i32, %row_ws: vector<4xi32>,
                               %row_wl: vector<4xi32>, %live_rows: i32, %softmax_scale: f32,
                               %every_tile: i1, %rt: index, %d: index)
    -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4x4xi16>, vector<4xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3_i32 = arith.constant 3 : i32
  %c4_i32 = arith.constant 4 : i32
  %c5_i32 = arith.constant 5 : i32
  %c16_i32 = arith.constant 16 : i32
  %c127_i32 = arith.constant 127 : i32
  %di = arith.index_cast %d : index to i32
  %one_f = arith.constant 1.0 : f32
  %log2e = arith.constant 1.44269504088896340736 : f32
  %scale_log2e = arith.mulf %softmax_scale, %log2e : f32
  %lane = func.call @lane() : () -> i32
  %j = arith.shrui %lane, %c4_i32 : i32
  // K scales: lane l needs the byte of (token l & 15, group 4h + j). D = 256:
  // row j of 16 lanes loaded scale word j & 1; the swap gives every lane
  // word 0 (from row j & ~1) and word 1 (row j | 1). D <= 128: every row
  // loaded word 0. D = 64: lane groups 2, 3 (zero codes, the padding) get
  // scale 0x7F, not the V code bytes after the two scales. D = 512: row j
  // loaded word j; the swaps across 32 lanes of those across 16 give every
  // lane all four (words 0, 2 from row j & ~1's, 1, 3 from row j | 1's).
  %ks:2 = func.call @swap16(%ksw) : (i32) -> (i32, i32)
  %ksh = arith.shli %j, %c3_i32 : i32
  %ks0 = arith.shrui %ks#0, %ksh : i32
  %ks1 = arith.shrui %ks#1, %ksh : i32
  %groups = arith.shrui %di, %c5_i32 : i32
  %k_live = arith.cmpi ult, %j, %groups : i32
  %ks0l = arith.select %k_live, %ks0, %c127_i32 : i32
  %c4 = arith.constant 4 : index
  %ni = func.call @issues(%d) : (index) -> index
  %four = arith.cmpi eq, %ni, %c4 : index
  %kscales = scf.if %four -> (vector<4xi32>) {
    %w02:2 = func.call @swap32(%ks#0) : (i32) -> (i32, i32)
    %w13:2 = func.call @swap32(%ks#1) : (i32) -> (i32, i32)
    %w = vector.from_elements %w02#0, %w13#0, %w02#1, %w13#1 : vector<4xi32>
    %sh = vector.broadcast %ksh : i32 to vector<4xi32>
    %ws = arith.shrui %w, %sh : vector<4xi32>
    scf.yield %ws : vector<4xi32>
  } else {
    %ks2 = vector.from_elements %ks0l, %ks1, %ks1, %ks1 : vector<4xi32>
    scf.yield %ks2 : vector<4xi32>
  }
  // only such tiles need the mask (a wave-uniform branch; a decode: past
  // seq_len or before the window)
  %partial = func.call @tile_partial(%first, %lim_lo, %ws_hi) : (i32, i32, i32) -> i1
  // QK and the softmax per row tile. Every processed tile holds a
  // position of the block; rows it holds none of keep their state.
  %ones4 = arith.constant dense<1.0> : vector<4xf32>
  %zp = arith.constant dense<0> : vector<4x4xi16>
  %zp1 = arith.constant dense<0> : vector<4xi16>
  %still = arith.constant dense<false> : vector<4xi1>
  %sm:5 = scf.for %t = %c0 to %rt step %c1 iter_args(%mv = %m, %lv = %l, %av = %ones4, %pv = %zp, %yv = %still) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4x4xi16>, vector<4xi1>) {
    %ti = arith.index_cast %t : index to i32
    %r0 = arith.muli %ti, %c16_i32 : i32
    %live0 = arith.cmpi slt, %r0, %live_rows : i32
    %live = arith.ori %live0, %every_tile : i1
    %mt = vector.extract %mv[%t] : f32 from vector<4xf32>
    %lt = vector.extract %lv[%t] : f32 from vector<4xf32>
    %res:5 = scf.if %live -> (f32, f32, f32, vector<4xi16>, i1) {
      %qt = func.call @row_tile_q(%q, %t, %rt, %d, %q_lds) : (vector<4x4x8xi32>, index, index, index, !llvm.ptr<3>) -> vector<4x8xi32>
      %s = func.call @qk_scores(%k, %kscales, %qt, %d) : (vector<4x4xi32>, vector<4xi32>, vector<4x8xi32>, index) -> vector<4xf32>
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
  return %sm#0, %sm#1, %sm#2, %sm#3, %sm#4 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4x4xi16>, vector<4xi1>
}

// Whether the tile starting at `first` needs masking: it reaches past the
// block's first row's last position (lim_lo - 1) or starts before its last
// row's window (ws_hi).
func.func private @tile_partial(%first: i32, %lim_lo: i32, %ws_hi: i32) -> i1 {
  %c16_i32 = arith.constant 16 : i32
  %end = arith.addi %first, %c16_i32 : i32
  %past = arith.cmpi sgt, %end, %lim_lo : i32
  %before = arith.cmpi slt, %first, %ws_hi : i32
  %partial = arith.ori %past, %before : i1
  return %partial : i1
}

// The V scale word of the lane's V token (first + (l >> 2)) for the bf16
// conversion: on a tile that needs masking (@tile_partial), 0 for tokens
// outside every row's positions [win_start, win_start + win_len) (E8M0
// 2^-127 times an FP4 value is finite), so 0xFF garbage never meets p = 0
// in the PV MFMA.
func.func private @v_tile_scales(%vsw: i32, %first: i32, %lim_lo: i32, %ws_hi: i32,
                                 %win_start: i32, %win_len: i32) -> i32 {
  %c0_i32 = arith.constant 0 : i32
  %c2_i32 = arith.constant 2 : i32
  %partial = func.call @tile_partial(%first, %lim_lo, %ws_hi) : (i32, i32, i32) -> i1
  %vs = scf.if %partial -> (i32) {
    %lane = func.call @lane() : () -> i32
    %vtok = arith.shrui %lane, %c2_i32 : i32
    %vt = arith.addi %first, %vtok : i32
    %vrel = arith.subi %vt, %win_start : i32
    %vin = arith.cmpi ult, %vrel, %win_len : i32
    %vsm = arith.select %vin, %vsw, %c0_i32 : i32
    scf.yield %vsm : i32
  } else {
    scf.yield %vsw : i32
  }
  return %vs : i32
}

// ---- one word of V (@tile_loads' lane map: token l >> 2, chunk c = l & 3,
// word i of 16-byte load h) to bf16 with its UE8M0 scale fused, into the
// tile's bf16 rows of 2D + 16 B at %vlds (@v_word_bf16).
func.func private @v_word_to_lds(%w: i32, %vs: i32, %h: i32, %i: i32, %vlds: !llvm.ptr<3>,
                                 %d: index) {
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c3_i32 = arith.constant 3 : i32
  %c16_i32 = arith.constant 16 : i32
  %c64_i32 = arith.constant 64 : i32
  %v_row_bytes = func.call @v_row_bytes(%d) : (index) -> i32
  %di = arith.index_cast %d : index to i32
  %lane = func.call @lane() : () -> i32
  %vtok = arith.shrui %lane, %c2_i32 : i32
  %chunk = arith.andi %lane, %c3_i32 : i32
  %vr0 = arith.muli %vtok, %v_row_bytes : i32
  %d2 = arith.shrui %di, %c1_i32 : i32
  %vr1 = arith.muli %chunk, %d2 : i32
  %vrow = arith.addi %vr0, %vr1 : i32
  %bf = func.call @v_word_bf16(%w, %vs, %h, %d) : (i32, i32, i32, index) -> vector<8xbf16>
  %hb = arith.muli %h, %c64_i32 : i32
  %hrow = arith.addi %vrow, %hb : i32
  %ib = arith.muli %i, %c16_i32 : i32
  %off = arith.addi %hrow, %ib : i32
  %ptr = llvm.getelementptr %vlds[%off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  llvm.store %bf, %ptr {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
  return
}

// A V word of the lane's chunk from its 16-byte load h as eight bf16: the
// word's group g = floor(c D / 128) + h (c = l & 3), its scale byte (D +
// D/32 + g) & 3 of the (masked) scale word %vs fused into the conversion.
func.func private @v_word_bf16(%w: i32, %vs: i32, %h: i32, %d: index) -> vector<8xbf16> {
  %c3_i32 = arith.constant 3 : i32
  %c5_i32 = arith.constant 5 : i32
  %c7_i32 = arith.constant 7 : i32
  %c23_i32 = arith.constant 23 : i32
  %c255_i32 = arith.constant 255 : i32
  %di = arith.index_cast %d : index to i32
  %lane = func.call @lane() : () -> i32
  %chunk = arith.andi %lane, %c3_i32 : i32
  %cd = arith.muli %chunk, %di : i32
  %g0 = arith.shrui %cd, %c7_i32 : i32
  %dg = arith.shrui %di, %c5_i32 : i32
  %v_scales = arith.addi %di, %dg : i32
  %vsg = arith.addi %v_scales, %g0 : i32
  %g = arith.addi %vsg, %h : i32
  %gb = arith.andi %g, %c3_i32 : i32
  %sh = arith.shli %gb, %c3_i32 : i32
  %sb = arith.shrui %vs, %sh : i32
  %sbyte = arith.andi %sb, %c255_i32 : i32
  %sbits = arith.shli %sbyte, %c23_i32 : i32
  %scale = arith.bitcast %sbits : i32 to f32
  %bf = "uq.fp4_to_bf16"(%w, %scale) : (i32, f32) -> vector<8xbf16>
  return %bf : vector<8xbf16>
}

// The words of V a lane converts per 16-byte load h: min(4, D/32).
func.func private @v_words_per_load(%d: index) -> index {
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %d32 = arith.divui %d, %c32 : index
  %wpl = arith.minui %d32, %c4 : index
  return %wpl : index
}

// ---- PV of one tile (V in bf16 at %vlds) for the wave's rt row tiles:
// C[head dim][query] += V^T P, A read through the LDS transpose once for
// every row tile (@pv_tiles). First the accumulators of a row tile's slots
// are rescaled by its alpha, only when the softmax found a row max that
// may move (%moved, wave-uniform: skipping a multiply by exactly 1 changes
// nothing; a row tile past live_rows keeps alpha 1), with @pv_pairs its
// pair's.
func.func private @pv_step(%acc: vector<4x32x4xf32>, %alpha: vector<4xf32>, %p: vector<4x4xi16>,
                           %moved: vector<4xi1>, %vlds: !llvm.ptr<3>, %rt: index, %d: index)
    -> vector<4x32x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16i = arith.constant 16 : index
  %na = arith.divui %d, %c16i : index
  %accr = scf.for %t = %c0 to %rt step %c1 iter_args(%a = %acc) -> (vector<4x32x4xf32>) {
    %al = func.call @acc_row_value(%alpha, %t, %rt) : (vector<4xf32>, index, index) -> f32
    %wide = func.call @pv_pairs(%rt) : (index) -> i1
    %tp:2 = func.call @pair_tiles(%t) : (index) -> (index, index)
    %y0 = vector.extract %moved[%tp#0] : i1 from vector<4xi1>
    %y1 = vector.extract %moved[%tp#1] : i1 from vector<4xi1>
    %yp = arith.ori %y0, %y1 : i1
    %yt = vector.extract %moved[%t] : i1 from vector<4xi1>
    %any = arith.select %wide, %yp, %yt : i1
    %an = scf.if %any -> (vector<4x32x4xf32>) {
      %at = vector.extract %a[%t] : vector<32x4xf32> from vector<4x32x4xf32>
      %a4 = vector.broadcast %al : f32 to vector<4xf32>
      %r = scf.for %i = %c0 to %na step %c1 iter_args(%ar = %at) -> (vector<32x4xf32>) {
        %ai = vector.extract %ar[%i] : vector<4xf32> from vector<32x4xf32>
        %m4 = arith.mulf %ai, %a4 : vector<4xf32>
        %arn = vector.insert %m4, %ar[%i] : vector<4xf32> into vector<32x4xf32>
        scf.yield %arn : vector<32x4xf32>
      }
      %anew = vector.insert %r, %a[%t] : vector<32x4xf32> into vector<4x32x4xf32>
      scf.yield %anew : vector<4x32x4xf32>
    } else {
      scf.yield %a : vector<4x32x4xf32>
    }
    scf.yield %an : vector<4x32x4xf32>
  }
  %accn = func.call @pv_tiles(%accr, %p, %rt, %vlds, %d) : (vector<4x32x4xf32>, vector<4x4xi16>, index, !llvm.ptr<3>, index) -> vector<4x32x4xf32>
  return %accn : vector<4x32x4xf32>
}

// ---- PV of one tile for its n row tiles, V in bf16 rows at %vlds: per 16 head dims one
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
func.func private @pv_tiles(%acc: vector<4x32x4xf32>, %p: vector<4x4xi16>, %n: index,
                            %vlds: !llvm.ptr<3>, %d: index) -> vector<4x32x4xf32> {
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
  %r = scf.if %wide -> (vector<4x32x4xf32>) {
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
    %ra = scf.for %u = %c0 to %nu step %c1 iter_args(%a = %acc) -> (vector<4x32x4xf32>) {
      %ui = arith.index_cast %u : index to i32
      %uo = arith.muli %ui, %c64_i32 : i32
      %off0 = arith.addi %base, %uo : i32
      %off1 = arith.addi %off0, %second : i32
      %p0 = llvm.getelementptr %vlds[%off0] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %p1 = llvm.getelementptr %vlds[%off1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %v0 = rocdl.ds.read.tr16.b64 %p0 : !llvm.ptr<3> -> vector<4xi16>
      %v1 = rocdl.ds.read.tr16.b64 %p1 : !llvm.ptr<3> -> vector<4xi16>
      %v = vector.shuffle %v0, %v1 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xi16>, vector<4xi16>
      %va = vector.bitcast %v : vector<8xi16> to vector<8xbf16>
      %au = scf.for %pp = %c0 to %np step %c1 iter_args(%at = %a) -> (vector<4x32x4xf32>) {
        %bw = vector.extract %bs[%pp] : vector<4xi32> from vector<2x4xi32>
        %bb = vector.bitcast %bw : vector<4xi32> to vector<8xbf16>
        %c = func.call @acc_block(%at, %pp, %u) : (vector<4x32x4xf32>, index, index) -> vector<16xf32>
        %m = rocdl.mfma.f32.32x32x16.bf16 %va, %bb, %c, %c0_i32, %c0_i32, %c0_i32 : (vector<8xbf16>, vector<8xbf16>, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
        %atn = func.call @acc_set_block(%at, %m, %pp, %u) : (vector<4x32x4xf32>, vector<16xf32>, index, index) -> vector<4x32x4xf32>
        scf.yield %atn : vector<4x32x4xf32>
      }
      scf.yield %au : vector<4x32x4xf32>
    }
    scf.yield %ra : vector<4x32x4xf32>
  } else {
    %t0 = arith.muli %q0, %vrb : i32
    %tbase = arith.addi %t0, %c8 : i32
    %na = arith.divui %d, %c16 : index
    %rn = scf.for %i = %c0 to %na step %c1 iter_args(%a = %acc) -> (vector<4x32x4xf32>) {
      %ii = arith.index_cast %i : index to i32
      %io = arith.muli %ii, %c32_i32 : i32
      %off = arith.addi %tbase, %io : i32
      %ptr = llvm.getelementptr %vlds[%off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %v = rocdl.ds.read.tr16.b64 %ptr : !llvm.ptr<3> -> vector<4xi16>
      %ai = scf.for %t = %c0 to %n step %c1 iter_args(%at = %a) -> (vector<4x32x4xf32>) {
        %pt = vector.extract %p[%t] : vector<4xi16> from vector<4x4xi16>
        %c = vector.extract %at[%t, %i] : vector<4xf32> from vector<4x32x4xf32>
        %m = rocdl.mfma.f32.16x16x16bf16.1k %v, %pt, %c, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
        %atn = vector.insert %m, %at[%t, %i] : vector<4xf32> into vector<4x32x4xf32>
        scf.yield %atn : vector<4x32x4xf32>
      }
      scf.yield %ai : vector<4x32x4xf32>
    }
    scf.yield %rn : vector<4x32x4xf32>
  }
  return %r : vector<4x32x4xf32>
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
// @pv_pairs a pair's 32 (row l & 31, head dims 32u + 8k + 4 (l >> 5) ..),
// counted from the wave's first row rb of the block (0 for one wave).
func.func private @store_partial(%segm_out: !llvm.ptr<1>, %segm_max: !llvm.ptr<1>,
                                 %segm_sum: !llvm.ptr<1>, %m: vector<4xf32>, %l: vector<4xf32>,
                                 %acc: vector<4x32x4xf32>, %tok0: i32, %kvh: i32, %part: i32,
                                 %num_kv_heads: i32, %num_partitions: i32, %qg: i32,
                                 %live_rows: i32, %rt: index, %d: index,
                                 %output: !llvm.ptr<1>, %out_stride_seq: i32,
                                 %out_stride_head: i32, %sinks: !llvm.ptr<1>,
                                 %f16: i1, %rb: i32) {
  // One branch for the wave (P and the dtype are uniform), each side
  // @store_rows with its %direct and %f16 constants, so none carries
  // another's stores or conversions.
  %c1_np = arith.constant 1 : i32
  %one = arith.cmpi eq, %num_partitions, %c1_np : i32
  %true = arith.constant true
  %false = arith.constant false
  scf.if %one {
    scf.if %f16 {
      func.call @store_rows(%true, %segm_out, %segm_max, %segm_sum, %m, %l, %acc, %tok0, %kvh, %part, %num_kv_heads, %num_partitions, %qg, %live_rows, %rt, %d, %output, %out_stride_seq, %out_stride_head, %sinks, %true, %rb) : (i1, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, i32, i32, i32, i32, i32, i32, i32, index, index, !llvm.ptr<1>, i32, i32, !llvm.ptr<1>, i1, i32) -> ()
    } else {
      func.call @store_rows(%true, %segm_out, %segm_max, %segm_sum, %m, %l, %acc, %tok0, %kvh, %part, %num_kv_heads, %num_partitions, %qg, %live_rows, %rt, %d, %output, %out_stride_seq, %out_stride_head, %sinks, %false, %rb) : (i1, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, i32, i32, i32, i32, i32, i32, i32, index, index, !llvm.ptr<1>, i32, i32, !llvm.ptr<1>, i1, i32) -> ()
    }
  } else {
    func.call @store_rows(%false, %segm_out, %segm_max, %segm_sum, %m, %l, %acc, %tok0, %kvh, %part, %num_kv_heads, %num_partitions, %qg, %live_rows, %rt, %d, %output, %out_stride_seq, %out_stride_head, %sinks, %false, %rb) : (i1, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, vector<4xf32>, vector<4xf32>, vector<4x32x4xf32>, i32, i32, i32, i32, i32, i32, i32, index, index, !llvm.ptr<1>, i32, i32, !llvm.ptr<1>, i1, i32) -> ()
  }
  return
}

// @store_partial's rows: %direct (a constant at each call) writes them to
// the output (P = 1), else as partials.
func.func private @store_rows(%direct: i1, %segm_out: !llvm.ptr<1>, %segm_max: !llvm.ptr<1>,
                              %segm_sum: !llvm.ptr<1>, %m: vector<4xf32>, %l: vector<4xf32>,
                              %acc: vector<4x32x4xf32>, %tok0: i32, %kvh: i32, %part: i32,
                              %num_kv_heads: i32, %num_partitions: i32, %qg: i32,
                              %live_rows: i32, %rt: index, %d: index,
                              %output: !llvm.ptr<1>, %out_stride_seq: i32,
                              %out_stride_head: i32, %sinks: !llvm.ptr<1>,
                              %f16: i1, %rb: i32) {
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
    %r00 = arith.muli %gi, %span : i32
    %r0 = arith.addi %r00, %rb : i32
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
          %a = vector.extract %acc[%sl#0, %i] : vector<4xf32> from vector<4x32x4xf32>
          %si = arith.index_cast %sidx : index to i32
          %dim = arith.muli %si, %c8_i32 : i32
          %dim64 = arith.extui %dim : i32 to i64
          %e2 = arith.addi %e1, %dim64 : i64
          %f2 = arith.addi %fin#0, %dim64 : i64
          func.call @store_out4(%direct, %segm_out, %e2, %output, %f2, %a, %inv, %fin#1, %fin#2, %f16) : (i1, !llvm.ptr<1>, i64, !llvm.ptr<1>, i64, vector<4xf32>, f32, f32, f32, i1) -> ()
        }
      } else {
        scf.for %i = %c0 to %na step %c1 {
          %a = vector.extract %acc[%grp, %i] : vector<4xf32> from vector<4x32x4xf32>
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

// ---- the lane's query row of each row tile t (rb + 16 t + (l & 15), rb
// the wave's first row in its block, 0 for one wave): its own
// positions [ws, ws + wl), limit = ws + wl = pos0 + 1 + the row's token
// (@row_limit), ws its window's start (@window_start).
func.func private @row_ranges(%pos0: i32, %qg: i32, %live_rows: i32, %sliding_window: i32,
                              %rt: index, %rb: i32) -> (vector<4xi32>, vector<4xi32>) {
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
    %r00 = arith.muli %ti, %c16_i32 : i32
    %r0 = arith.addi %r00, %rb : i32
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
