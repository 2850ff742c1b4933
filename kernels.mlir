// UltraQuant decode (head dim 256, FP4 K/V with UE8M0 group scales) and the
// partition reduce, for gfx950. See DESIGN.md "Kernel facts from the seeds".
//
// QG (query heads per KV head: 6, 8 or 16) is the only compile-time value: one
// uq.param, specialized by uq-compile for each entry of uq.variants; everything
// else is derived from it. Loops over register arrays are written out unrolled
// here; the only loops left are the WHT's row passes (1, or 2 for QG 16), the
// tile loop and the reduce's partition loops.
//
// Build: uq-compile kernels.mlir -o DIR (uq-compile --print-pipeline shows
// the pass pipeline). The algorithm steps upstream has no op for are uq ops,
// lowered by convert-uq-to-rocdl: uq.wht256 (the 8-lane Walsh-Hadamard of a
// query row), uq.e4m3_haircut (the E4M3 round trip through the hardware
// conversion), uq.fp4_to_bf16 (one scaled FP4 word to eight bf16) and
// uq.buffer_rsrc (a buffer view with a 64-bit base offset). The gpu.modules
// carry their targets, O = 3 included.
//
// Much of the rest is written out unrolled (per-register code); edit it as
// text.
//
// Features past the seed: a sliding window (decode argument sliding_window:
// the tile walk starts at the window's first tile, tokens before it are
// masked like the tail; see "sliding window" below) and attention sinks
// (reduce argument sinks: one f32 logit per query head joins the softmax
// denominator; null = none). Argument order: runtime/kernel_abi.h.
//
// Lane maps (64 lanes, l = lane, j = l >> 4):
//   K loads     token l & 15, groups j and 4 + j (16 B each) = the scaled MFMA's
//               FP4 A operand for issues 0 and 1 directly (no LDS round trip);
//               scale word j & 1 (4 B); v_permlane16_swap hands each lane both words.
//   V loads     token l >> 2, chunk c = l & 3 (groups 2c, 2c + 1), scale word c >> 1.
//   MFMA out    lane l holds C[4j + i][l & 15], i = 0..3 (token or head dim, query row).
module attributes {gpu.container_module} {
  gpu.module @uq_decode [#rocdl.target<chip = "gfx950", O = 3>] attributes {uq.variants = [{qg = 6}, {qg = 8}, {qg = 16}]} {
    // One LDS region, reused: first the rotated Q rows (16 x 512 B: rows >= QG
    // are written with duplicates / never read into the operand), then the V
    // tile as bf16 rows of 528 B (16 x 528 = 8,448 B). K never goes to LDS.
    llvm.mlir.global internal @uq_decode_lds() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<8448 x i8>
    // rocdl.waves_per_eu = 3: the register budget of 3 waves per SIMD (<= 168 VGPRs);
    // 4 waves (128) would spill.
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
        %max_blocks_per_seq: i32, %softmax_scale: f32, %sliding_window: i32) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>, rocdl.waves_per_eu = 3 : i32} {
      %qg = "uq.param"() {name = "qg"} : () -> index
      %qgi = arith.index_cast %qg : index to i32
      %zero8i = arith.constant dense<0> : vector<8xi32>
      %lane_tok_base = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %ninf = arith.constant 0xFF800000 : f32
      %zero_f = arith.constant 0.0 : f32
      %one_f = arith.constant 1.0 : f32
      %log2e = arith.constant 1.44269504088896340736 : f32
      %c15_i32 = arith.constant 15 : i32
      %c4_i32 = arith.constant 4 : i32
      %c2_i32 = arith.constant 2 : i32
      %c255_i32 = arith.constant 255 : i32
      %c8_i32 = arith.constant 8 : i32
      %c16_i32 = arith.constant 16 : i32
      %c64_i32 = arith.constant 64 : i32
      %c128_i32 = arith.constant 128 : i32
      %c3_i32 = arith.constant 3 : i32
      %c136_i32 = arith.constant 136 : i32
      %c32_i32 = arith.constant 32 : i32
      %c264_i32 = arith.constant 264 : i32
      %c7_i32 = arith.constant 7 : i32
      %c6_i32 = arith.constant 6 : i32
      %c5_i32 = arith.constant 5 : i32
      %c1_i64 = arith.constant 1 : i64
      %c48_i32 = arith.constant 48 : i32
      %m_one_f = arith.constant -1.0 : f32
      %inv_sqrt_d = arith.constant 0.0625 : f32
      %c512_i32 = arith.constant 512 : i32
      %c40_i32 = arith.constant 40 : i32
      %c256_i32 = arith.constant 256 : i32
      %c127_i32 = arith.constant 127 : i32
      %c528_i32 = arith.constant 528 : i32
      %c23_i32 = arith.constant 23 : i32
      %c80_i32 = arith.constant 80 : i32
      %c96_i32 = arith.constant 96 : i32
      %c112_i32 = arith.constant 112 : i32
      %c0_i64 = arith.constant 0 : i64
      %c160_i32 = arith.constant 160 : i32
      %c192_i32 = arith.constant 192 : i32
      %c224_i32 = arith.constant 224 : i32
      %c288_i32 = arith.constant 288 : i32
      %c320_i32 = arith.constant 320 : i32
      %c352_i32 = arith.constant 352 : i32
      %c384_i32 = arith.constant 384 : i32
      %c416_i32 = arith.constant 416 : i32
      %c448_i32 = arith.constant 448 : i32
      %c480_i32 = arith.constant 480 : i32
      %c512_i64 = arith.constant 512 : i64
      %c4_i64 = arith.constant 4 : i64
      %lds = llvm.mlir.addressof @uq_decode_lds : !llvm.ptr<3>
      %lane_ix = gpu.thread_id x
      %lane = arith.index_cast %lane_ix : index to i32
      %seq_ix = gpu.block_id x
      %seq = arith.index_cast %seq_ix : index to i32
      %kvh_ix = gpu.block_id y
      %kvh = arith.index_cast %kvh_ix : index to i32
      %part_ix = gpu.block_id z
      %part = arith.index_cast %part_ix : index to i32
      %zero4 = arith.constant dense<0.0> : vector<4xf32>
      %flags = arith.constant 159744 : i32  // 0x27000: raw buffer, 32-bit data format
      %stride0 = arith.constant 0 : i16
      %max_records = arith.constant 2147483647 : i64
      // ---- QK B operand: lane l = query row l&15, lane group j = l>>4, issue h:
      // the 32 permuted elements [128h + 32j, +32) of that row as E4M3 bytes.
      %v1 = arith.andi %lane, %c15_i32 : i32
      %v2 = arith.shrui %lane, %c4_i32 : i32
      %v3 = arith.cmpi ult, %v1, %qgi : i32
      %v4 = arith.shli %v2, %c2_i32 : i32
      %v5 = vector.broadcast %v4 : i32 to vector<4xi32>
      %lane_tok4 = arith.addi %v5, %lane_tok_base : vector<4xi32>
      // ---- partition p walks tile-groups p, p+P, ... (at most TGPP); only tiles
      // that hold an in-context token are processed (flattened tile loop).
      %v6 = llvm.getelementptr %seq_lens[%seq] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      %seq_len = llvm.load %v6 invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
      // ---- sliding window W (0: none): only tokens >= win_start = max(0, seq_len - W)
      // are attended. The walk is shifted to start at win_base, win_start rounded
      // down to a tile: partition p walks the 256-token groups that start at
      // win_base + (p + k*P)*256, k < TGPP, over rel_len = seq_len - win_base tokens.
      // Nothing before win_base is loaded; the first tile masks tokens before
      // win_start like the tail masks tokens >= seq_len. Coverage invariant (the
      // launch policy's): P * TGPP * 256 >= rel_len, rel_len <= min(seq_len, W + 15).
      // Without a window win_base = win_start = 0 (the unshifted walk).
      %v6a = arith.subi %seq_len, %sliding_window : i32
      %v6b = arith.maxsi %v6a, %c0_i32 : i32
      %v6c = arith.cmpi sgt, %sliding_window, %c0_i32 : i32
      %win_start = arith.select %v6c, %v6b, %c0_i32 : i32
      %v6d = arith.constant -16 : i32
      %win_base = arith.andi %win_start, %v6d : i32
      %win_len = arith.subi %seq_len, %win_start : i32
      %rel_len = arith.subi %seq_len, %win_base : i32
      %v7 = arith.addi %rel_len, %c255_i32 : i32
      %v8 = arith.shrui %v7, %c8_i32 : i32
      %v9 = arith.subi %v8, %part : i32
      %v10 = arith.cmpi sgt, %v9, %c0_i32 : i32
      %v11 = arith.maxsi %v9, %c1_i32 : i32
      %v12 = arith.subi %num_partitions, %c1_i32 : i32
      %v13 = arith.addi %v11, %v12 : i32
      %v14 = arith.divui %v13, %num_partitions : i32
      %v15 = arith.minsi %v14, %tgpp : i32
      %v16 = arith.select %v10, %v15, %c0_i32 : i32
      %v17 = arith.subi %v16, %c1_i32 : i32
      %v18 = arith.maxsi %v17, %c0_i32 : i32
      %v19 = arith.muli %v18, %num_partitions : i32
      %v20 = arith.addi %part, %v19 : i32
      %v21 = arith.shli %v20, %c8_i32 : i32
      %v22 = arith.subi %rel_len, %v21 : i32
      %v23 = arith.addi %v22, %c15_i32 : i32
      %v24 = arith.shrsi %v23, %c4_i32 : i32
      %v25 = arith.minsi %v24, %c16_i32 : i32
      %v26 = arith.shli %v18, %c4_i32 : i32
      %v27 = arith.addi %v26, %v25 : i32
      %ntiles = arith.select %v10, %v27, %c0_i32 : i32
      %bs_shift = math.cttz %block_size : i32
      %v28 = arith.subi %block_size, %c1_i32 : i32
      // 64-BIT ADDRESSING (issue 13; keep it when rewriting this file): a product
      // of user sizes that can pass 2^31 is formed in i64. The block byte size
      // is bounded by the plan (block_size * Hk * padded_slot <= 2^31 - 1: it is
      // a buffer's 32-bit record count and every in-block offset is 32-bit), but
      // block * blk_bytes reaches 2^31 * 2^31 and the block-table row offset
      // seq * max_blocks_per_seq reaches 65535 * 2^24: both stay i64 up to the
      // address. test/unit/runtime/large_address_test.c runs a >4 GiB cache and
      // an 8 GiB block table.
      %pos_stride = arith.muli %num_kv_heads, %padded_slot : i32
      %v29a = arith.extui %block_size : i32 to i64
      %v29b = arith.extui %pos_stride : i32 to i64
      %blk_bytes = arith.muli %v29a, %v29b : i64
      %v29c = arith.extui %seq : i32 to i64
      %v29d = arith.extui %max_blocks_per_seq : i32 to i64
      %bt_row = arith.muli %v29c, %v29d : i64
      %v30 = arith.muli %kvh, %padded_slot : i32
      %v31 = arith.muli %v1, %pos_stride : i32
      %v32 = arith.addi %v31, %v30 : i32
      %v33 = arith.muli %v2, %c16_i32 : i32
      %k_off0 = arith.addi %v32, %v33 : i32
      %k_off1 = arith.addi %k_off0, %c64_i32 : i32
      %v34 = arith.andi %v2, %c1_i32 : i32
      %v35 = arith.muli %v34, %c4_i32 : i32
      %v36 = arith.addi %c128_i32, %v35 : i32
      %ks_off = arith.addi %v32, %v36 : i32
      %v_tok = arith.shrui %lane, %c2_i32 : i32
      %v_chunk = arith.andi %lane, %c3_i32 : i32
      %v37 = arith.muli %v_tok, %pos_stride : i32
      %v38 = arith.addi %v37, %v30 : i32
      %v39 = arith.muli %v_chunk, %c32_i32 : i32
      %v40 = arith.addi %c136_i32, %v39 : i32
      %v_off0 = arith.addi %v38, %v40 : i32
      %v_off1 = arith.addi %v_off0, %c16_i32 : i32
      %v41 = arith.shrui %v_chunk, %c1_i32 : i32
      %v42 = arith.muli %v41, %c4_i32 : i32
      %v43 = arith.addi %c264_i32, %v42 : i32
      %vs_off = arith.addi %v38, %v43 : i32
      %ntiles_ix = arith.index_cast %ntiles : i32 to index
      %has_tiles = arith.cmpi sgt, %ntiles, %c0_i32 : i32
      %fin:18 = scf.if %has_tiles -> (f32, f32, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
        // ---- everything below runs only for a partition that owns tiles
        // ---- Q rotation: lane L owns row L>>3 (+8 per pass) and head dims (L&7)*32..+31.
        // Butterfly order (host reference must match): strides 1,2,4,8,16 in registers,
        // then 32,64,128 across lanes (ds_swizzle xor 1,2,4); pair (a,b) -> (a+b, a-b).
        %v44 = arith.andi %lane, %c7_i32 : i32
        %v45 = arith.shrui %lane, %c3_i32 : i32
        %v46 = arith.andi %v44, %c2_i32 : i32
        %v47 = arith.shli %v46, %c3_i32 : i32
        %v48 = arith.andi %v44, %c1_i32 : i32
        %v49 = arith.shli %v48, %c6_i32 : i32
        %v50 = arith.andi %v44, %c4_i32 : i32
        %v51 = arith.shli %v50, %c5_i32 : i32
        %v52 = arith.ori %v47, %v49 : i32
        %v53 = arith.ori %v52, %v51 : i32
        %c0_ix = arith.constant 0 : index
        %c1_ix = arith.constant 1 : index
        %c8_ix = arith.constant 8 : index
        %c7_ix = arith.constant 7 : index
        %qg7 = arith.addi %qg, %c7_ix : index
        %npass = arith.divui %qg7, %c8_ix : index
        %v54 = arith.subi %qgi, %c1_i32 : i32
        %v55 = arith.muli %kvh, %qgi : i32
        // the query rows of this (sequence, kv head): one descriptor, 32-bit lane offsets
        %v56 = arith.extui %seq : i32 to i64
        %v57 = arith.extui %q_stride_seq : i32 to i64
        %v58 = arith.muli %v56, %v57 : i64
        %v59 = arith.extui %v55 : i32 to i64
        %v60 = arith.extui %q_stride_head : i32 to i64
        %v61 = arith.muli %v59, %v60 : i64
        %v62 = arith.addi %v58, %v61 : i64
        %v63 = arith.shli %v62, %c1_i64 : i64
        %v65 = "uq.buffer_rsrc"(%query, %v63, %max_records) : (!llvm.ptr<1>, i64, i64) -> !llvm.ptr<8>
        scf.for %pass = %c0_ix to %npass step %c1_ix {
          %v66 = arith.index_cast %pass : index to i32
          %v67 = arith.muli %v66, %c8_i32 : i32
          %v68 = arith.addi %v45, %v67 : i32
          %v69 = arith.minui %v68, %v54 : i32
          %v70 = arith.muli %v69, %q_stride_head : i32
          %v71 = arith.muli %v44, %c32_i32 : i32
          %v72 = arith.addi %v70, %v71 : i32
          %v73 = arith.shli %v72, %c1_i32 : i32
          %v74 = arith.addi %v73, %c0_i32 : i32
          %v75 = rocdl.raw.ptr.buffer.load %v65, %v74, %c0_i32, %c0_i32 : vector<4xi32>
          %v76 = vector.bitcast %v75 : vector<4xi32> to vector<8xbf16>
          %v77 = arith.extf %v76 : vector<8xbf16> to vector<8xf32>
          %v78 = arith.addi %v73, %c16_i32 : i32
          %v79 = rocdl.raw.ptr.buffer.load %v65, %v78, %c0_i32, %c0_i32 : vector<4xi32>
          %v80 = vector.bitcast %v79 : vector<4xi32> to vector<8xbf16>
          %v81 = arith.extf %v80 : vector<8xbf16> to vector<8xf32>
          %v82 = arith.addi %v73, %c32_i32 : i32
          %v83 = rocdl.raw.ptr.buffer.load %v65, %v82, %c0_i32, %c0_i32 : vector<4xi32>
          %v84 = vector.bitcast %v83 : vector<4xi32> to vector<8xbf16>
          %v85 = arith.extf %v84 : vector<8xbf16> to vector<8xf32>
          %v86 = arith.addi %v73, %c48_i32 : i32
          %v87 = rocdl.raw.ptr.buffer.load %v65, %v86, %c0_i32, %c0_i32 : vector<4xi32>
          %v88 = vector.bitcast %v87 : vector<4xi32> to vector<8xbf16>
          %v89 = arith.extf %v88 : vector<8xbf16> to vector<8xf32>
          %v90 = vector.shuffle %v77, %v81 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xf32>, vector<8xf32>
          %v91 = vector.shuffle %v85, %v89 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xf32>, vector<8xf32>
          %v92 = vector.shuffle %v90, %v91 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
          // Walsh-Hadamard over the 8 lanes of a row, normalized (uq.wht256)
          %v140 = "uq.wht256"(%v92) : (vector<32xf32>) -> vector<32xf32>
          // E4M3 round trip through v_cvt_pk_fp8_f32 (the code object's overflow rule), as bf16
          %v140_hc = "uq.e4m3_haircut"(%v140) : (vector<32xf32>) -> vector<32xbf16>
          %v205 = arith.muli %v68, %c512_i32 : i32
          %v209 = vector.extract_strided_slice %v140_hc {offsets = [0], sizes = [8], strides = [1]} : vector<32xbf16> to vector<8xbf16>
          %v210 = arith.addi %v53, %c0_i32 : i32
          %v211 = arith.shli %v210, %c1_i32 : i32
          %v212 = arith.addi %v205, %v211 : i32
          %v213 = llvm.getelementptr %lds[%v212] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v209, %v213 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v217 = vector.extract_strided_slice %v140_hc {offsets = [8], sizes = [8], strides = [1]} : vector<32xbf16> to vector<8xbf16>
          %v218 = arith.addi %v53, %c8_i32 : i32
          %v219 = arith.shli %v218, %c1_i32 : i32
          %v220 = arith.addi %v205, %v219 : i32
          %v221 = llvm.getelementptr %lds[%v220] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v217, %v221 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v225 = vector.extract_strided_slice %v140_hc {offsets = [16], sizes = [8], strides = [1]} : vector<32xbf16> to vector<8xbf16>
          %v226 = arith.addi %v53, %c32_i32 : i32
          %v227 = arith.shli %v226, %c1_i32 : i32
          %v228 = arith.addi %v205, %v227 : i32
          %v229 = llvm.getelementptr %lds[%v228] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v225, %v229 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v233 = vector.extract_strided_slice %v140_hc {offsets = [24], sizes = [8], strides = [1]} : vector<32xbf16> to vector<8xbf16>
          %v234 = arith.addi %v53, %c40_i32 : i32
          %v235 = arith.shli %v234, %c1_i32 : i32
          %v236 = arith.addi %v205, %v235 : i32
          %v237 = llvm.getelementptr %lds[%v236] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v233, %v237 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          // keep the passes apart once unrolled (QG 16): two interleaved passes spill
          rocdl.sched.barrier 0
        }
        gpu.barrier
        %v238 = arith.muli %v1, %c512_i32 : i32
        %v239 = arith.muli %v2, %c64_i32 : i32
        %v240 = arith.addi %v239, %c0_i32 : i32
        %v241 = arith.addi %v238, %v240 : i32
        %v242 = arith.addi %v241, %c0_i32 : i32
        %v243 = llvm.getelementptr %lds[%v242] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %v244 = llvm.load %v243 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
        %v245 = arith.extf %v244 : vector<8xbf16> to vector<8xf32>
        %v246 = vector.extract %v245[0] : f32 from vector<8xf32>
        %v247 = vector.extract %v245[1] : f32 from vector<8xf32>
        %v248 = vector.extract %v245[2] : f32 from vector<8xf32>
        %v249 = vector.extract %v245[3] : f32 from vector<8xf32>
        %v250 = rocdl.cvt.pk.fp8.f32 %v246, %v247 -> %c0_i32[false] : i32
        %v251 = rocdl.cvt.pk.fp8.f32 %v248, %v249 -> %v250[true] : i32
        %v252 = vector.extract %v245[4] : f32 from vector<8xf32>
        %v253 = vector.extract %v245[5] : f32 from vector<8xf32>
        %v254 = vector.extract %v245[6] : f32 from vector<8xf32>
        %v255 = vector.extract %v245[7] : f32 from vector<8xf32>
        %v256 = rocdl.cvt.pk.fp8.f32 %v252, %v253 -> %c0_i32[false] : i32
        %v257 = rocdl.cvt.pk.fp8.f32 %v254, %v255 -> %v256[true] : i32
        %v258 = arith.addi %v241, %c16_i32 : i32
        %v259 = llvm.getelementptr %lds[%v258] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %v260 = llvm.load %v259 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
        %v261 = arith.extf %v260 : vector<8xbf16> to vector<8xf32>
        %v262 = vector.extract %v261[0] : f32 from vector<8xf32>
        %v263 = vector.extract %v261[1] : f32 from vector<8xf32>
        %v264 = vector.extract %v261[2] : f32 from vector<8xf32>
        %v265 = vector.extract %v261[3] : f32 from vector<8xf32>
        %v266 = rocdl.cvt.pk.fp8.f32 %v262, %v263 -> %c0_i32[false] : i32
        %v267 = rocdl.cvt.pk.fp8.f32 %v264, %v265 -> %v266[true] : i32
        %v268 = vector.extract %v261[4] : f32 from vector<8xf32>
        %v269 = vector.extract %v261[5] : f32 from vector<8xf32>
        %v270 = vector.extract %v261[6] : f32 from vector<8xf32>
        %v271 = vector.extract %v261[7] : f32 from vector<8xf32>
        %v272 = rocdl.cvt.pk.fp8.f32 %v268, %v269 -> %c0_i32[false] : i32
        %v273 = rocdl.cvt.pk.fp8.f32 %v270, %v271 -> %v272[true] : i32
        %v274 = arith.addi %v241, %c32_i32 : i32
        %v275 = llvm.getelementptr %lds[%v274] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %v276 = llvm.load %v275 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
        %v277 = arith.extf %v276 : vector<8xbf16> to vector<8xf32>
        %v278 = vector.extract %v277[0] : f32 from vector<8xf32>
        %v279 = vector.extract %v277[1] : f32 from vector<8xf32>
        %v280 = vector.extract %v277[2] : f32 from vector<8xf32>
        %v281 = vector.extract %v277[3] : f32 from vector<8xf32>
        %v282 = rocdl.cvt.pk.fp8.f32 %v278, %v279 -> %c0_i32[false] : i32
        %v283 = rocdl.cvt.pk.fp8.f32 %v280, %v281 -> %v282[true] : i32
        %v284 = vector.extract %v277[4] : f32 from vector<8xf32>
        %v285 = vector.extract %v277[5] : f32 from vector<8xf32>
        %v286 = vector.extract %v277[6] : f32 from vector<8xf32>
        %v287 = vector.extract %v277[7] : f32 from vector<8xf32>
        %v288 = rocdl.cvt.pk.fp8.f32 %v284, %v285 -> %c0_i32[false] : i32
        %v289 = rocdl.cvt.pk.fp8.f32 %v286, %v287 -> %v288[true] : i32
        %v290 = arith.addi %v241, %c48_i32 : i32
        %v291 = llvm.getelementptr %lds[%v290] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %v292 = llvm.load %v291 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
        %v293 = arith.extf %v292 : vector<8xbf16> to vector<8xf32>
        %v294 = vector.extract %v293[0] : f32 from vector<8xf32>
        %v295 = vector.extract %v293[1] : f32 from vector<8xf32>
        %v296 = vector.extract %v293[2] : f32 from vector<8xf32>
        %v297 = vector.extract %v293[3] : f32 from vector<8xf32>
        %v298 = rocdl.cvt.pk.fp8.f32 %v294, %v295 -> %c0_i32[false] : i32
        %v299 = rocdl.cvt.pk.fp8.f32 %v296, %v297 -> %v298[true] : i32
        %v300 = vector.extract %v293[4] : f32 from vector<8xf32>
        %v301 = vector.extract %v293[5] : f32 from vector<8xf32>
        %v302 = vector.extract %v293[6] : f32 from vector<8xf32>
        %v303 = vector.extract %v293[7] : f32 from vector<8xf32>
        %v304 = rocdl.cvt.pk.fp8.f32 %v300, %v301 -> %c0_i32[false] : i32
        %v305 = rocdl.cvt.pk.fp8.f32 %v302, %v303 -> %v304[true] : i32
        %v306 = vector.from_elements %v251, %v257, %v267, %v273, %v283, %v289, %v299, %v305 : vector<8xi32>
        // rows >= QG read rows that hold no query: zero them
        %v307 = arith.select %v3, %v306, %zero8i : vector<8xi32>
        %v308 = arith.muli %v1, %c512_i32 : i32
        %v309 = arith.muli %v2, %c64_i32 : i32
        %v310 = arith.addi %v309, %c256_i32 : i32
        %v311 = arith.addi %v308, %v310 : i32
        %v312 = arith.addi %v311, %c0_i32 : i32
        %v313 = llvm.getelementptr %lds[%v312] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %v314 = llvm.load %v313 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
        %v315 = arith.extf %v314 : vector<8xbf16> to vector<8xf32>
        %v316 = vector.extract %v315[0] : f32 from vector<8xf32>
        %v317 = vector.extract %v315[1] : f32 from vector<8xf32>
        %v318 = vector.extract %v315[2] : f32 from vector<8xf32>
        %v319 = vector.extract %v315[3] : f32 from vector<8xf32>
        %v320 = rocdl.cvt.pk.fp8.f32 %v316, %v317 -> %c0_i32[false] : i32
        %v321 = rocdl.cvt.pk.fp8.f32 %v318, %v319 -> %v320[true] : i32
        %v322 = vector.extract %v315[4] : f32 from vector<8xf32>
        %v323 = vector.extract %v315[5] : f32 from vector<8xf32>
        %v324 = vector.extract %v315[6] : f32 from vector<8xf32>
        %v325 = vector.extract %v315[7] : f32 from vector<8xf32>
        %v326 = rocdl.cvt.pk.fp8.f32 %v322, %v323 -> %c0_i32[false] : i32
        %v327 = rocdl.cvt.pk.fp8.f32 %v324, %v325 -> %v326[true] : i32
        %v328 = arith.addi %v311, %c16_i32 : i32
        %v329 = llvm.getelementptr %lds[%v328] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %v330 = llvm.load %v329 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
        %v331 = arith.extf %v330 : vector<8xbf16> to vector<8xf32>
        %v332 = vector.extract %v331[0] : f32 from vector<8xf32>
        %v333 = vector.extract %v331[1] : f32 from vector<8xf32>
        %v334 = vector.extract %v331[2] : f32 from vector<8xf32>
        %v335 = vector.extract %v331[3] : f32 from vector<8xf32>
        %v336 = rocdl.cvt.pk.fp8.f32 %v332, %v333 -> %c0_i32[false] : i32
        %v337 = rocdl.cvt.pk.fp8.f32 %v334, %v335 -> %v336[true] : i32
        %v338 = vector.extract %v331[4] : f32 from vector<8xf32>
        %v339 = vector.extract %v331[5] : f32 from vector<8xf32>
        %v340 = vector.extract %v331[6] : f32 from vector<8xf32>
        %v341 = vector.extract %v331[7] : f32 from vector<8xf32>
        %v342 = rocdl.cvt.pk.fp8.f32 %v338, %v339 -> %c0_i32[false] : i32
        %v343 = rocdl.cvt.pk.fp8.f32 %v340, %v341 -> %v342[true] : i32
        %v344 = arith.addi %v311, %c32_i32 : i32
        %v345 = llvm.getelementptr %lds[%v344] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %v346 = llvm.load %v345 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
        %v347 = arith.extf %v346 : vector<8xbf16> to vector<8xf32>
        %v348 = vector.extract %v347[0] : f32 from vector<8xf32>
        %v349 = vector.extract %v347[1] : f32 from vector<8xf32>
        %v350 = vector.extract %v347[2] : f32 from vector<8xf32>
        %v351 = vector.extract %v347[3] : f32 from vector<8xf32>
        %v352 = rocdl.cvt.pk.fp8.f32 %v348, %v349 -> %c0_i32[false] : i32
        %v353 = rocdl.cvt.pk.fp8.f32 %v350, %v351 -> %v352[true] : i32
        %v354 = vector.extract %v347[4] : f32 from vector<8xf32>
        %v355 = vector.extract %v347[5] : f32 from vector<8xf32>
        %v356 = vector.extract %v347[6] : f32 from vector<8xf32>
        %v357 = vector.extract %v347[7] : f32 from vector<8xf32>
        %v358 = rocdl.cvt.pk.fp8.f32 %v354, %v355 -> %c0_i32[false] : i32
        %v359 = rocdl.cvt.pk.fp8.f32 %v356, %v357 -> %v358[true] : i32
        %v360 = arith.addi %v311, %c48_i32 : i32
        %v361 = llvm.getelementptr %lds[%v360] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %v362 = llvm.load %v361 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
        %v363 = arith.extf %v362 : vector<8xbf16> to vector<8xf32>
        %v364 = vector.extract %v363[0] : f32 from vector<8xf32>
        %v365 = vector.extract %v363[1] : f32 from vector<8xf32>
        %v366 = vector.extract %v363[2] : f32 from vector<8xf32>
        %v367 = vector.extract %v363[3] : f32 from vector<8xf32>
        %v368 = rocdl.cvt.pk.fp8.f32 %v364, %v365 -> %c0_i32[false] : i32
        %v369 = rocdl.cvt.pk.fp8.f32 %v366, %v367 -> %v368[true] : i32
        %v370 = vector.extract %v363[4] : f32 from vector<8xf32>
        %v371 = vector.extract %v363[5] : f32 from vector<8xf32>
        %v372 = vector.extract %v363[6] : f32 from vector<8xf32>
        %v373 = vector.extract %v363[7] : f32 from vector<8xf32>
        %v374 = rocdl.cvt.pk.fp8.f32 %v370, %v371 -> %c0_i32[false] : i32
        %v375 = rocdl.cvt.pk.fp8.f32 %v372, %v373 -> %v374[true] : i32
        %v376 = vector.from_elements %v321, %v327, %v337, %v343, %v353, %v359, %v369, %v375 : vector<8xi32>
        // rows >= QG read rows that hold no query: zero them
        %v377 = arith.select %v3, %v376, %zero8i : vector<8xi32>
        gpu.barrier
        // software prefetch: tile 0 here; every tile issues the next tile's loads
        // before its own math. Two tiles per iteration so that the two load sets
        // alternate registers (no copies); an odd last tile runs after the loop.
        %v378 = arith.shrui %c0_i32, %c4_i32 : i32
        %v379 = arith.andi %c0_i32, %c15_i32 : i32
        %v380 = arith.muli %v378, %num_partitions : i32
        %v381 = arith.addi %part, %v380 : i32
        %v382r = arith.shli %v381, %c8_i32 : i32
        %v382 = arith.addi %v382r, %win_base : i32
        %v383 = arith.shli %v379, %c4_i32 : i32
        %v384 = arith.addi %v382, %v383 : i32
        %v385 = arith.shrui %v384, %bs_shift : i32
        %v386 = arith.andi %v384, %v28 : i32
        %v387x = arith.extui %v385 : i32 to i64
        %v387 = arith.addi %bt_row, %v387x : i64
        %v388 = llvm.getelementptr %block_tables[%v387] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
        %v389 = llvm.load %v388 invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
        %v390 = arith.extui %v389 : i32 to i64
        %v391 = arith.muli %v390, %blk_bytes : i64
        %v393 = "uq.buffer_rsrc"(%kv_cache, %v391, %blk_bytes) : (!llvm.ptr<1>, i64, i64) -> !llvm.ptr<8>
        %v394 = arith.muli %v386, %pos_stride : i32
        %v395 = rocdl.raw.ptr.buffer.load %v393, %k_off0, %v394, %c0_i32 : vector<4xi32>
        %v396 = rocdl.raw.ptr.buffer.load %v393, %k_off1, %v394, %c0_i32 : vector<4xi32>
        %v397 = rocdl.raw.ptr.buffer.load %v393, %v_off0, %v394, %c0_i32 : vector<4xi32>
        %v398 = rocdl.raw.ptr.buffer.load %v393, %v_off1, %v394, %c0_i32 : vector<4xi32>
        %v399 = rocdl.raw.ptr.buffer.load %v393, %ks_off, %v394, %c0_i32 : i32
        %v400 = rocdl.raw.ptr.buffer.load %v393, %vs_off, %v394, %c0_i32 : i32
        %npairs = arith.shrui %ntiles, %c1_i32 : i32
        %npairs_ix = arith.index_cast %npairs : i32 to index
        %loop:24 = scf.for %pi = %c0_ix to %npairs_ix step %c1_ix iter_args(%m = %ninf, %l = %zero_f, %acc0 = %zero4, %acc1 = %zero4, %acc2 = %zero4, %acc3 = %zero4, %acc4 = %zero4, %acc5 = %zero4, %acc6 = %zero4, %acc7 = %zero4, %acc8 = %zero4, %acc9 = %zero4, %acc10 = %zero4, %acc11 = %zero4, %acc12 = %zero4, %acc13 = %zero4, %acc14 = %zero4, %acc15 = %zero4, %k0 = %v395, %k1 = %v396, %vc0 = %v397, %vc1 = %v398, %ksw = %v399, %vsw = %v400) -> (f32, f32, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, i32, i32) {
          %v401 = arith.index_cast %pi : index to i32
          %v402 = arith.shli %v401, %c1_i32 : i32
          %v403 = arith.addi %v402, %c1_i32 : i32
          %v404 = arith.shrui %v403, %c4_i32 : i32
          %v405 = arith.andi %v403, %c15_i32 : i32
          %v406 = arith.muli %v404, %num_partitions : i32
          %v407 = arith.addi %part, %v406 : i32
          %v408r = arith.shli %v407, %c8_i32 : i32
          %v408 = arith.addi %v408r, %win_base : i32
          %v409 = arith.shli %v405, %c4_i32 : i32
          %v410 = arith.addi %v408, %v409 : i32
          %v411 = arith.shrui %v410, %bs_shift : i32
          %v412 = arith.andi %v410, %v28 : i32
          %v413x = arith.extui %v411 : i32 to i64
          %v413 = arith.addi %bt_row, %v413x : i64
          %v414 = llvm.getelementptr %block_tables[%v413] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
          %v415 = llvm.load %v414 invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
          %v416 = arith.extui %v415 : i32 to i64
          %v417 = arith.muli %v416, %blk_bytes : i64
          %v419 = "uq.buffer_rsrc"(%kv_cache, %v417, %blk_bytes) : (!llvm.ptr<1>, i64, i64) -> !llvm.ptr<8>
          %v420 = arith.muli %v412, %pos_stride : i32
          %v421 = rocdl.raw.ptr.buffer.load %v419, %k_off0, %v420, %c0_i32 : vector<4xi32>
          %v422 = rocdl.raw.ptr.buffer.load %v419, %k_off1, %v420, %c0_i32 : vector<4xi32>
          %v423 = rocdl.raw.ptr.buffer.load %v419, %v_off0, %v420, %c0_i32 : vector<4xi32>
          %v424 = rocdl.raw.ptr.buffer.load %v419, %v_off1, %v420, %c0_i32 : vector<4xi32>
          %v425 = rocdl.raw.ptr.buffer.load %v419, %ks_off, %v420, %c0_i32 : i32
          %v426 = rocdl.raw.ptr.buffer.load %v419, %vs_off, %v420, %c0_i32 : i32
          %v427 = arith.shrui %v402, %c4_i32 : i32
          %v428 = arith.andi %v402, %c15_i32 : i32
          %v429 = arith.muli %v427, %num_partitions : i32
          %v430 = arith.addi %part, %v429 : i32
          %v431r = arith.shli %v430, %c8_i32 : i32
          %v431 = arith.addi %v431r, %win_base : i32
          %v432 = arith.shli %v428, %c4_i32 : i32
          %v433 = arith.addi %v431, %v432 : i32
          // K scales: lane l needs the byte of (token l&15, group 4h + j). Row j of 16
          // lanes loaded scale word j&1; v_permlane16_swap of two copies gives every
          // lane word 0 (from row j&~1) in the first result and word 1 (row j|1) in
          // the second.
          %v434 = rocdl.permlane16.swap %ksw, %ksw, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
          %v435 = llvm.extractvalue %v434[0] : !llvm.struct<(i32, i32)>
          %v436 = llvm.extractvalue %v434[1] : !llvm.struct<(i32, i32)>
          %v437 = arith.shli %v2, %c3_i32 : i32
          %v438 = arith.shrui %v435, %v437 : i32
          %v439 = arith.shrui %v436, %v437 : i32
          // QK: C[token][query row] over two K=128 issues; A = K FP4 with UE8M0 scale, B = Q E4M3 (scale 0x7F = 1)
          %v440 = rocdl.mfma.scale.f32.16x16x128.f8f6f4 %k0, %v307, %zero4, %c4_i32, %c0_i32, %c0_i32, %v438, %c0_i32, %c127_i32 : (vector<4xi32>, vector<8xi32>, vector<4xf32>, i32, i32, i32, i32, i32, i32) -> vector<4xf32>
          %v441 = rocdl.mfma.scale.f32.16x16x128.f8f6f4 %k1, %v377, %v440, %c4_i32, %c0_i32, %c0_i32, %v439, %c0_i32, %c127_i32 : (vector<4xi32>, vector<8xi32>, vector<4xf32>, i32, i32, i32, i32, i32, i32) -> vector<4xf32>
          %v442 = vector.broadcast %softmax_scale : f32 to vector<4xf32>
          %v443 = arith.mulf %v441, %v442 : vector<4xf32>
          // Only a tile that reaches past seq_len or starts before win_start needs
          // masking (wave-uniform branch): its scores of tokens outside [win_start,
          // seq_len) become -inf (select: garbage K never survives), and those
          // tokens' V scale word becomes 0 (E8M0 2^-127 times an FP4 value is
          // finite), so 0xFF garbage never meets p = 0 in the PV MFMA.
          %v444 = arith.addi %v433, %c16_i32 : i32
          %v445a = arith.cmpi sgt, %v444, %seq_len : i32
          %v445b = arith.cmpi slt, %v433, %win_start : i32
          %v445 = arith.ori %v445a, %v445b : i1
          %mk446:2 = scf.if %v445 -> (vector<4xf32>, i32) {
            %v447 = vector.broadcast %v433 : i32 to vector<4xi32>
            %v448 = arith.addi %v447, %lane_tok4 : vector<4xi32>
            %v449s = vector.broadcast %win_start : i32 to vector<4xi32>
            %v449d = arith.subi %v448, %v449s : vector<4xi32>
            %v449 = vector.broadcast %win_len : i32 to vector<4xi32>
            %v450 = arith.cmpi ult, %v449d, %v449 : vector<4xi32>
            %v451 = vector.broadcast %ninf : f32 to vector<4xf32>
            %v452 = arith.select %v450, %v443, %v451 : vector<4xi1>, vector<4xf32>
            %v453 = arith.addi %v433, %v_tok : i32
            %v454d = arith.subi %v453, %win_start : i32
            %v454 = arith.cmpi ult, %v454d, %win_len : i32
            %v455 = arith.select %v454, %vsw, %c0_i32 : i32
            scf.yield %v452, %v455 : vector<4xf32>, i32
          } else {
            scf.yield %v443, %vsw : vector<4xf32>, i32
          }
          %v456 = vector.extract %mk446#0[0] : f32 from vector<4xf32>
          %v457 = vector.extract %mk446#0[1] : f32 from vector<4xf32>
          %v458 = vector.extract %mk446#0[2] : f32 from vector<4xf32>
          %v459 = vector.extract %mk446#0[3] : f32 from vector<4xf32>
          // online softmax over the 16 tokens of each query row (lanes l, l^16, l^32, l^48)
          %v460 = arith.maxnumf %v456, %v457 fastmath<nnan> : f32
          %v461 = arith.maxnumf %v458, %v459 fastmath<nnan> : f32
          %v462 = arith.maxnumf %v460, %v461 fastmath<nnan> : f32
          %v463 = arith.bitcast %v462 : f32 to i32
          %v464 = rocdl.permlane16.swap %v463, %v463, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
          %v465 = llvm.extractvalue %v464[0] : !llvm.struct<(i32, i32)>
          %v466 = arith.bitcast %v465 : i32 to f32
          %v467 = llvm.extractvalue %v464[1] : !llvm.struct<(i32, i32)>
          %v468 = arith.bitcast %v467 : i32 to f32
          %v469 = arith.maxnumf %v466, %v468 fastmath<nnan> : f32
          %v470 = arith.bitcast %v469 : f32 to i32
          %v471 = rocdl.permlane32.swap %v470, %v470, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
          %v472 = llvm.extractvalue %v471[0] : !llvm.struct<(i32, i32)>
          %v473 = arith.bitcast %v472 : i32 to f32
          %v474 = llvm.extractvalue %v471[1] : !llvm.struct<(i32, i32)>
          %v475 = arith.bitcast %v474 : i32 to f32
          %v476 = arith.maxnumf %v473, %v475 fastmath<nnan> : f32
          %v477 = arith.maxnumf %m, %v476 fastmath<nnan> : f32
          // Every processed tile holds an in-context token, so nm is finite; on the
          // first tile m = -inf gives alpha = 0 on l = 0 and acc = 0 (same as 1).
          %v478 = arith.subf %m, %v477 : f32
          %v479 = arith.mulf %v478, %log2e : f32
          %v480 = rocdl.exp2 %v479 f32 -> f32
          %v481 = arith.subf %v456, %v477 : f32
          %v482 = arith.mulf %v481, %log2e : f32
          %v483 = rocdl.exp2 %v482 f32 -> f32
          %v484 = arith.subf %v457, %v477 : f32
          %v485 = arith.mulf %v484, %log2e : f32
          %v486 = rocdl.exp2 %v485 f32 -> f32
          %v487 = arith.subf %v458, %v477 : f32
          %v488 = arith.mulf %v487, %log2e : f32
          %v489 = rocdl.exp2 %v488 f32 -> f32
          %v490 = arith.subf %v459, %v477 : f32
          %v491 = arith.mulf %v490, %log2e : f32
          %v492 = rocdl.exp2 %v491 f32 -> f32
          %v493 = arith.addf %v483, %v486 : f32
          %v494 = arith.addf %v493, %v489 : f32
          %v495 = arith.addf %v494, %v492 : f32
          %v496 = arith.bitcast %v495 : f32 to i32
          %v497 = rocdl.permlane16.swap %v496, %v496, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
          %v498 = llvm.extractvalue %v497[0] : !llvm.struct<(i32, i32)>
          %v499 = arith.bitcast %v498 : i32 to f32
          %v500 = llvm.extractvalue %v497[1] : !llvm.struct<(i32, i32)>
          %v501 = arith.bitcast %v500 : i32 to f32
          %v502 = arith.addf %v499, %v501 : f32
          %v503 = arith.bitcast %v502 : f32 to i32
          %v504 = rocdl.permlane32.swap %v503, %v503, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
          %v505 = llvm.extractvalue %v504[0] : !llvm.struct<(i32, i32)>
          %v506 = arith.bitcast %v505 : i32 to f32
          %v507 = llvm.extractvalue %v504[1] : !llvm.struct<(i32, i32)>
          %v508 = arith.bitcast %v507 : i32 to f32
          %v509 = arith.addf %v506, %v508 : f32
          %v510 = arith.mulf %l, %v480 : f32
          %v511 = arith.addf %v510, %v509 : f32
          %v512 = vector.from_elements %v483, %v486, %v489, %v492 : vector<4xf32>
          %v513 = arith.truncf %v512 : vector<4xf32> to vector<4xbf16>
          %v514 = vector.bitcast %v513 : vector<4xbf16> to vector<4xi16>
          // V: FP4 -> bf16 with the UE8M0 scale fused; an out-of-context token gets scale
          // byte 0 (2^-127 x a finite FP4 value: finite), so 0xFF garbage never meets p = 0.
          %v515 = arith.muli %v_tok, %c528_i32 : i32
          %v516 = arith.muli %v_chunk, %c128_i32 : i32
          %v517 = arith.addi %v515, %v516 : i32
          %v518 = arith.shli %v_chunk, %c1_i32 : i32
          %v519 = arith.addi %v518, %c0_i32 : i32
          %v520 = arith.andi %v519, %c3_i32 : i32
          %v521 = arith.shli %v520, %c3_i32 : i32
          %v522 = arith.shrui %mk446#1, %v521 : i32
          %v523 = arith.andi %v522, %c255_i32 : i32
          %v524 = arith.shli %v523, %c23_i32 : i32
          %v525 = arith.bitcast %v524 : i32 to f32
          %v526 = vector.extract %vc0[0] : i32 from vector<4xi32>
          %v533 = "uq.fp4_to_bf16"(%v526, %v525) : (i32, f32) -> vector<8xbf16>
          %v534 = arith.addi %v517, %c0_i32 : i32
          %v535 = llvm.getelementptr %lds[%v534] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v533, %v535 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v536 = vector.extract %vc0[1] : i32 from vector<4xi32>
          %v543 = "uq.fp4_to_bf16"(%v536, %v525) : (i32, f32) -> vector<8xbf16>
          %v544 = arith.addi %v517, %c16_i32 : i32
          %v545 = llvm.getelementptr %lds[%v544] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v543, %v545 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v546 = vector.extract %vc0[2] : i32 from vector<4xi32>
          %v553 = "uq.fp4_to_bf16"(%v546, %v525) : (i32, f32) -> vector<8xbf16>
          %v554 = arith.addi %v517, %c32_i32 : i32
          %v555 = llvm.getelementptr %lds[%v554] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v553, %v555 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v556 = vector.extract %vc0[3] : i32 from vector<4xi32>
          %v563 = "uq.fp4_to_bf16"(%v556, %v525) : (i32, f32) -> vector<8xbf16>
          %v564 = arith.addi %v517, %c48_i32 : i32
          %v565 = llvm.getelementptr %lds[%v564] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v563, %v565 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v566 = arith.shli %v_chunk, %c1_i32 : i32
          %v567 = arith.addi %v566, %c1_i32 : i32
          %v568 = arith.andi %v567, %c3_i32 : i32
          %v569 = arith.shli %v568, %c3_i32 : i32
          %v570 = arith.shrui %mk446#1, %v569 : i32
          %v571 = arith.andi %v570, %c255_i32 : i32
          %v572 = arith.shli %v571, %c23_i32 : i32
          %v573 = arith.bitcast %v572 : i32 to f32
          %v574 = vector.extract %vc1[0] : i32 from vector<4xi32>
          %v581 = "uq.fp4_to_bf16"(%v574, %v573) : (i32, f32) -> vector<8xbf16>
          %v582 = arith.addi %v517, %c64_i32 : i32
          %v583 = llvm.getelementptr %lds[%v582] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v581, %v583 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v584 = vector.extract %vc1[1] : i32 from vector<4xi32>
          %v591 = "uq.fp4_to_bf16"(%v584, %v573) : (i32, f32) -> vector<8xbf16>
          %v592 = arith.addi %v517, %c80_i32 : i32
          %v593 = llvm.getelementptr %lds[%v592] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v591, %v593 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v594 = vector.extract %vc1[2] : i32 from vector<4xi32>
          %v601 = "uq.fp4_to_bf16"(%v594, %v573) : (i32, f32) -> vector<8xbf16>
          %v602 = arith.addi %v517, %c96_i32 : i32
          %v603 = llvm.getelementptr %lds[%v602] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v601, %v603 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v604 = vector.extract %vc1[3] : i32 from vector<4xi32>
          %v611 = "uq.fp4_to_bf16"(%v604, %v573) : (i32, f32) -> vector<8xbf16>
          %v612 = arith.addi %v517, %c112_i32 : i32
          %v613 = llvm.getelementptr %lds[%v612] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v611, %v613 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          gpu.barrier
          // PV: C[head dim][query] += V^T P; A read through the LDS transpose
          // rescale the accumulators only when some row's max moved (wave-uniform branch;
          // skipping a multiply by exactly 1 changes nothing)
          %v614 = arith.cmpf une, %v480, %one_f : f32
          %v615 = rocdl.ballot %v614 : i64
          %v616 = arith.cmpi ne, %v615, %c0_i64 : i64
          %rs617:16 = scf.if %v616 -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
            %v618 = vector.broadcast %v480 : f32 to vector<4xf32>
            %v619 = arith.mulf %acc0, %v618 : vector<4xf32>
            %v620 = arith.mulf %acc1, %v618 : vector<4xf32>
            %v621 = arith.mulf %acc2, %v618 : vector<4xf32>
            %v622 = arith.mulf %acc3, %v618 : vector<4xf32>
            %v623 = arith.mulf %acc4, %v618 : vector<4xf32>
            %v624 = arith.mulf %acc5, %v618 : vector<4xf32>
            %v625 = arith.mulf %acc6, %v618 : vector<4xf32>
            %v626 = arith.mulf %acc7, %v618 : vector<4xf32>
            %v627 = arith.mulf %acc8, %v618 : vector<4xf32>
            %v628 = arith.mulf %acc9, %v618 : vector<4xf32>
            %v629 = arith.mulf %acc10, %v618 : vector<4xf32>
            %v630 = arith.mulf %acc11, %v618 : vector<4xf32>
            %v631 = arith.mulf %acc12, %v618 : vector<4xf32>
            %v632 = arith.mulf %acc13, %v618 : vector<4xf32>
            %v633 = arith.mulf %acc14, %v618 : vector<4xf32>
            %v634 = arith.mulf %acc15, %v618 : vector<4xf32>
            scf.yield %v619, %v620, %v621, %v622, %v623, %v624, %v625, %v626, %v627, %v628, %v629, %v630, %v631, %v632, %v633, %v634 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
          } else {
            scf.yield %acc0, %acc1, %acc2, %acc3, %acc4, %acc5, %acc6, %acc7, %acc8, %acc9, %acc10, %acc11, %acc12, %acc13, %acc14, %acc15 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
          }
          %v635 = arith.muli %v_tok, %c528_i32 : i32
          %v636 = arith.muli %v_chunk, %c8_i32 : i32
          %v637 = arith.addi %v635, %v636 : i32
          %v638 = arith.addi %v637, %c0_i32 : i32
          %v639 = llvm.getelementptr %lds[%v638] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v640 = rocdl.ds.read.tr16.b64 %v639 : !llvm.ptr<3> -> vector<4xi16>
          %v641 = rocdl.mfma.f32.16x16x16bf16.1k %v640, %v514, %rs617#0, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v642 = arith.addi %v637, %c32_i32 : i32
          %v643 = llvm.getelementptr %lds[%v642] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v644 = rocdl.ds.read.tr16.b64 %v643 : !llvm.ptr<3> -> vector<4xi16>
          %v645 = rocdl.mfma.f32.16x16x16bf16.1k %v644, %v514, %rs617#1, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v646 = arith.addi %v637, %c64_i32 : i32
          %v647 = llvm.getelementptr %lds[%v646] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v648 = rocdl.ds.read.tr16.b64 %v647 : !llvm.ptr<3> -> vector<4xi16>
          %v649 = rocdl.mfma.f32.16x16x16bf16.1k %v648, %v514, %rs617#2, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v650 = arith.addi %v637, %c96_i32 : i32
          %v651 = llvm.getelementptr %lds[%v650] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v652 = rocdl.ds.read.tr16.b64 %v651 : !llvm.ptr<3> -> vector<4xi16>
          %v653 = rocdl.mfma.f32.16x16x16bf16.1k %v652, %v514, %rs617#3, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v654 = arith.addi %v637, %c128_i32 : i32
          %v655 = llvm.getelementptr %lds[%v654] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v656 = rocdl.ds.read.tr16.b64 %v655 : !llvm.ptr<3> -> vector<4xi16>
          %v657 = rocdl.mfma.f32.16x16x16bf16.1k %v656, %v514, %rs617#4, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v658 = arith.addi %v637, %c160_i32 : i32
          %v659 = llvm.getelementptr %lds[%v658] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v660 = rocdl.ds.read.tr16.b64 %v659 : !llvm.ptr<3> -> vector<4xi16>
          %v661 = rocdl.mfma.f32.16x16x16bf16.1k %v660, %v514, %rs617#5, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v662 = arith.addi %v637, %c192_i32 : i32
          %v663 = llvm.getelementptr %lds[%v662] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v664 = rocdl.ds.read.tr16.b64 %v663 : !llvm.ptr<3> -> vector<4xi16>
          %v665 = rocdl.mfma.f32.16x16x16bf16.1k %v664, %v514, %rs617#6, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v666 = arith.addi %v637, %c224_i32 : i32
          %v667 = llvm.getelementptr %lds[%v666] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v668 = rocdl.ds.read.tr16.b64 %v667 : !llvm.ptr<3> -> vector<4xi16>
          %v669 = rocdl.mfma.f32.16x16x16bf16.1k %v668, %v514, %rs617#7, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v670 = arith.addi %v637, %c256_i32 : i32
          %v671 = llvm.getelementptr %lds[%v670] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v672 = rocdl.ds.read.tr16.b64 %v671 : !llvm.ptr<3> -> vector<4xi16>
          %v673 = rocdl.mfma.f32.16x16x16bf16.1k %v672, %v514, %rs617#8, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v674 = arith.addi %v637, %c288_i32 : i32
          %v675 = llvm.getelementptr %lds[%v674] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v676 = rocdl.ds.read.tr16.b64 %v675 : !llvm.ptr<3> -> vector<4xi16>
          %v677 = rocdl.mfma.f32.16x16x16bf16.1k %v676, %v514, %rs617#9, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v678 = arith.addi %v637, %c320_i32 : i32
          %v679 = llvm.getelementptr %lds[%v678] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v680 = rocdl.ds.read.tr16.b64 %v679 : !llvm.ptr<3> -> vector<4xi16>
          %v681 = rocdl.mfma.f32.16x16x16bf16.1k %v680, %v514, %rs617#10, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v682 = arith.addi %v637, %c352_i32 : i32
          %v683 = llvm.getelementptr %lds[%v682] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v684 = rocdl.ds.read.tr16.b64 %v683 : !llvm.ptr<3> -> vector<4xi16>
          %v685 = rocdl.mfma.f32.16x16x16bf16.1k %v684, %v514, %rs617#11, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v686 = arith.addi %v637, %c384_i32 : i32
          %v687 = llvm.getelementptr %lds[%v686] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v688 = rocdl.ds.read.tr16.b64 %v687 : !llvm.ptr<3> -> vector<4xi16>
          %v689 = rocdl.mfma.f32.16x16x16bf16.1k %v688, %v514, %rs617#12, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v690 = arith.addi %v637, %c416_i32 : i32
          %v691 = llvm.getelementptr %lds[%v690] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v692 = rocdl.ds.read.tr16.b64 %v691 : !llvm.ptr<3> -> vector<4xi16>
          %v693 = rocdl.mfma.f32.16x16x16bf16.1k %v692, %v514, %rs617#13, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v694 = arith.addi %v637, %c448_i32 : i32
          %v695 = llvm.getelementptr %lds[%v694] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v696 = rocdl.ds.read.tr16.b64 %v695 : !llvm.ptr<3> -> vector<4xi16>
          %v697 = rocdl.mfma.f32.16x16x16bf16.1k %v696, %v514, %rs617#14, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v698 = arith.addi %v637, %c480_i32 : i32
          %v699 = llvm.getelementptr %lds[%v698] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v700 = rocdl.ds.read.tr16.b64 %v699 : !llvm.ptr<3> -> vector<4xi16>
          %v701 = rocdl.mfma.f32.16x16x16bf16.1k %v700, %v514, %rs617#15, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          gpu.barrier
          // the last pair's prefetch targets no tile: its descriptor gets 0 records,
          // so the loads return zeros without touching memory
          %v702 = arith.addi %v403, %c1_i32 : i32
          %v703 = arith.cmpi slt, %v702, %ntiles : i32
          %v704 = arith.select %v703, %v702, %v403 : i32
          %v705 = arith.select %v703, %blk_bytes, %c0_i64 : i64
          %v706 = arith.shrui %v704, %c4_i32 : i32
          %v707 = arith.andi %v704, %c15_i32 : i32
          %v708 = arith.muli %v706, %num_partitions : i32
          %v709 = arith.addi %part, %v708 : i32
          %v710r = arith.shli %v709, %c8_i32 : i32
          %v710 = arith.addi %v710r, %win_base : i32
          %v711 = arith.shli %v707, %c4_i32 : i32
          %v712 = arith.addi %v710, %v711 : i32
          %v713 = arith.shrui %v712, %bs_shift : i32
          %v714 = arith.andi %v712, %v28 : i32
          %v715x = arith.extui %v713 : i32 to i64
          %v715 = arith.addi %bt_row, %v715x : i64
          %v716 = llvm.getelementptr %block_tables[%v715] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
          %v717 = llvm.load %v716 invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
          %v718 = arith.extui %v717 : i32 to i64
          %v719 = arith.muli %v718, %blk_bytes : i64
          %v721 = "uq.buffer_rsrc"(%kv_cache, %v719, %v705) : (!llvm.ptr<1>, i64, i64) -> !llvm.ptr<8>
          %v722 = arith.muli %v714, %pos_stride : i32
          %v723 = rocdl.raw.ptr.buffer.load %v721, %k_off0, %v722, %c0_i32 : vector<4xi32>
          %v724 = rocdl.raw.ptr.buffer.load %v721, %k_off1, %v722, %c0_i32 : vector<4xi32>
          %v725 = rocdl.raw.ptr.buffer.load %v721, %v_off0, %v722, %c0_i32 : vector<4xi32>
          %v726 = rocdl.raw.ptr.buffer.load %v721, %v_off1, %v722, %c0_i32 : vector<4xi32>
          %v727 = rocdl.raw.ptr.buffer.load %v721, %ks_off, %v722, %c0_i32 : i32
          %v728 = rocdl.raw.ptr.buffer.load %v721, %vs_off, %v722, %c0_i32 : i32
          %v729 = arith.shrui %v403, %c4_i32 : i32
          %v730 = arith.andi %v403, %c15_i32 : i32
          %v731 = arith.muli %v729, %num_partitions : i32
          %v732 = arith.addi %part, %v731 : i32
          %v733r = arith.shli %v732, %c8_i32 : i32
          %v733 = arith.addi %v733r, %win_base : i32
          %v734 = arith.shli %v730, %c4_i32 : i32
          %v735 = arith.addi %v733, %v734 : i32
          // K scales: lane l needs the byte of (token l&15, group 4h + j). Row j of 16
          // lanes loaded scale word j&1; v_permlane16_swap of two copies gives every
          // lane word 0 (from row j&~1) in the first result and word 1 (row j|1) in
          // the second.
          %v736 = rocdl.permlane16.swap %v425, %v425, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
          %v737 = llvm.extractvalue %v736[0] : !llvm.struct<(i32, i32)>
          %v738 = llvm.extractvalue %v736[1] : !llvm.struct<(i32, i32)>
          %v739 = arith.shli %v2, %c3_i32 : i32
          %v740 = arith.shrui %v737, %v739 : i32
          %v741 = arith.shrui %v738, %v739 : i32
          // QK: C[token][query row] over two K=128 issues; A = K FP4 with UE8M0 scale, B = Q E4M3 (scale 0x7F = 1)
          %v742 = rocdl.mfma.scale.f32.16x16x128.f8f6f4 %v421, %v307, %zero4, %c4_i32, %c0_i32, %c0_i32, %v740, %c0_i32, %c127_i32 : (vector<4xi32>, vector<8xi32>, vector<4xf32>, i32, i32, i32, i32, i32, i32) -> vector<4xf32>
          %v743 = rocdl.mfma.scale.f32.16x16x128.f8f6f4 %v422, %v377, %v742, %c4_i32, %c0_i32, %c0_i32, %v741, %c0_i32, %c127_i32 : (vector<4xi32>, vector<8xi32>, vector<4xf32>, i32, i32, i32, i32, i32, i32) -> vector<4xf32>
          %v744 = vector.broadcast %softmax_scale : f32 to vector<4xf32>
          %v745 = arith.mulf %v743, %v744 : vector<4xf32>
          // Only a tile that reaches past seq_len or starts before win_start needs
          // masking (wave-uniform branch): its scores of tokens outside [win_start,
          // seq_len) become -inf (select: garbage K never survives), and those
          // tokens' V scale word becomes 0 (E8M0 2^-127 times an FP4 value is
          // finite), so 0xFF garbage never meets p = 0 in the PV MFMA.
          %v746 = arith.addi %v735, %c16_i32 : i32
          %v747a = arith.cmpi sgt, %v746, %seq_len : i32
          %v747b = arith.cmpi slt, %v735, %win_start : i32
          %v747 = arith.ori %v747a, %v747b : i1
          %mk748:2 = scf.if %v747 -> (vector<4xf32>, i32) {
            %v749 = vector.broadcast %v735 : i32 to vector<4xi32>
            %v750 = arith.addi %v749, %lane_tok4 : vector<4xi32>
            %v751s = vector.broadcast %win_start : i32 to vector<4xi32>
            %v751d = arith.subi %v750, %v751s : vector<4xi32>
            %v751 = vector.broadcast %win_len : i32 to vector<4xi32>
            %v752 = arith.cmpi ult, %v751d, %v751 : vector<4xi32>
            %v753 = vector.broadcast %ninf : f32 to vector<4xf32>
            %v754 = arith.select %v752, %v745, %v753 : vector<4xi1>, vector<4xf32>
            %v755 = arith.addi %v735, %v_tok : i32
            %v756d = arith.subi %v755, %win_start : i32
            %v756 = arith.cmpi ult, %v756d, %win_len : i32
            %v757 = arith.select %v756, %v426, %c0_i32 : i32
            scf.yield %v754, %v757 : vector<4xf32>, i32
          } else {
            scf.yield %v745, %v426 : vector<4xf32>, i32
          }
          %v758 = vector.extract %mk748#0[0] : f32 from vector<4xf32>
          %v759 = vector.extract %mk748#0[1] : f32 from vector<4xf32>
          %v760 = vector.extract %mk748#0[2] : f32 from vector<4xf32>
          %v761 = vector.extract %mk748#0[3] : f32 from vector<4xf32>
          // online softmax over the 16 tokens of each query row (lanes l, l^16, l^32, l^48)
          %v762 = arith.maxnumf %v758, %v759 fastmath<nnan> : f32
          %v763 = arith.maxnumf %v760, %v761 fastmath<nnan> : f32
          %v764 = arith.maxnumf %v762, %v763 fastmath<nnan> : f32
          %v765 = arith.bitcast %v764 : f32 to i32
          %v766 = rocdl.permlane16.swap %v765, %v765, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
          %v767 = llvm.extractvalue %v766[0] : !llvm.struct<(i32, i32)>
          %v768 = arith.bitcast %v767 : i32 to f32
          %v769 = llvm.extractvalue %v766[1] : !llvm.struct<(i32, i32)>
          %v770 = arith.bitcast %v769 : i32 to f32
          %v771 = arith.maxnumf %v768, %v770 fastmath<nnan> : f32
          %v772 = arith.bitcast %v771 : f32 to i32
          %v773 = rocdl.permlane32.swap %v772, %v772, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
          %v774 = llvm.extractvalue %v773[0] : !llvm.struct<(i32, i32)>
          %v775 = arith.bitcast %v774 : i32 to f32
          %v776 = llvm.extractvalue %v773[1] : !llvm.struct<(i32, i32)>
          %v777 = arith.bitcast %v776 : i32 to f32
          %v778 = arith.maxnumf %v775, %v777 fastmath<nnan> : f32
          %v779 = arith.maxnumf %v477, %v778 fastmath<nnan> : f32
          // Every processed tile holds an in-context token, so nm is finite; on the
          // first tile m = -inf gives alpha = 0 on l = 0 and acc = 0 (same as 1).
          %v780 = arith.subf %v477, %v779 : f32
          %v781 = arith.mulf %v780, %log2e : f32
          %v782 = rocdl.exp2 %v781 f32 -> f32
          %v783 = arith.subf %v758, %v779 : f32
          %v784 = arith.mulf %v783, %log2e : f32
          %v785 = rocdl.exp2 %v784 f32 -> f32
          %v786 = arith.subf %v759, %v779 : f32
          %v787 = arith.mulf %v786, %log2e : f32
          %v788 = rocdl.exp2 %v787 f32 -> f32
          %v789 = arith.subf %v760, %v779 : f32
          %v790 = arith.mulf %v789, %log2e : f32
          %v791 = rocdl.exp2 %v790 f32 -> f32
          %v792 = arith.subf %v761, %v779 : f32
          %v793 = arith.mulf %v792, %log2e : f32
          %v794 = rocdl.exp2 %v793 f32 -> f32
          %v795 = arith.addf %v785, %v788 : f32
          %v796 = arith.addf %v795, %v791 : f32
          %v797 = arith.addf %v796, %v794 : f32
          %v798 = arith.bitcast %v797 : f32 to i32
          %v799 = rocdl.permlane16.swap %v798, %v798, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
          %v800 = llvm.extractvalue %v799[0] : !llvm.struct<(i32, i32)>
          %v801 = arith.bitcast %v800 : i32 to f32
          %v802 = llvm.extractvalue %v799[1] : !llvm.struct<(i32, i32)>
          %v803 = arith.bitcast %v802 : i32 to f32
          %v804 = arith.addf %v801, %v803 : f32
          %v805 = arith.bitcast %v804 : f32 to i32
          %v806 = rocdl.permlane32.swap %v805, %v805, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
          %v807 = llvm.extractvalue %v806[0] : !llvm.struct<(i32, i32)>
          %v808 = arith.bitcast %v807 : i32 to f32
          %v809 = llvm.extractvalue %v806[1] : !llvm.struct<(i32, i32)>
          %v810 = arith.bitcast %v809 : i32 to f32
          %v811 = arith.addf %v808, %v810 : f32
          %v812 = arith.mulf %v511, %v782 : f32
          %v813 = arith.addf %v812, %v811 : f32
          %v814 = vector.from_elements %v785, %v788, %v791, %v794 : vector<4xf32>
          %v815 = arith.truncf %v814 : vector<4xf32> to vector<4xbf16>
          %v816 = vector.bitcast %v815 : vector<4xbf16> to vector<4xi16>
          // V: FP4 -> bf16 with the UE8M0 scale fused; an out-of-context token gets scale
          // byte 0 (2^-127 x a finite FP4 value: finite), so 0xFF garbage never meets p = 0.
          %v817 = arith.muli %v_tok, %c528_i32 : i32
          %v818 = arith.muli %v_chunk, %c128_i32 : i32
          %v819 = arith.addi %v817, %v818 : i32
          %v820 = arith.shli %v_chunk, %c1_i32 : i32
          %v821 = arith.addi %v820, %c0_i32 : i32
          %v822 = arith.andi %v821, %c3_i32 : i32
          %v823 = arith.shli %v822, %c3_i32 : i32
          %v824 = arith.shrui %mk748#1, %v823 : i32
          %v825 = arith.andi %v824, %c255_i32 : i32
          %v826 = arith.shli %v825, %c23_i32 : i32
          %v827 = arith.bitcast %v826 : i32 to f32
          %v828 = vector.extract %v423[0] : i32 from vector<4xi32>
          %v835 = "uq.fp4_to_bf16"(%v828, %v827) : (i32, f32) -> vector<8xbf16>
          %v836 = arith.addi %v819, %c0_i32 : i32
          %v837 = llvm.getelementptr %lds[%v836] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v835, %v837 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v838 = vector.extract %v423[1] : i32 from vector<4xi32>
          %v845 = "uq.fp4_to_bf16"(%v838, %v827) : (i32, f32) -> vector<8xbf16>
          %v846 = arith.addi %v819, %c16_i32 : i32
          %v847 = llvm.getelementptr %lds[%v846] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v845, %v847 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v848 = vector.extract %v423[2] : i32 from vector<4xi32>
          %v855 = "uq.fp4_to_bf16"(%v848, %v827) : (i32, f32) -> vector<8xbf16>
          %v856 = arith.addi %v819, %c32_i32 : i32
          %v857 = llvm.getelementptr %lds[%v856] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v855, %v857 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v858 = vector.extract %v423[3] : i32 from vector<4xi32>
          %v865 = "uq.fp4_to_bf16"(%v858, %v827) : (i32, f32) -> vector<8xbf16>
          %v866 = arith.addi %v819, %c48_i32 : i32
          %v867 = llvm.getelementptr %lds[%v866] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v865, %v867 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v868 = arith.shli %v_chunk, %c1_i32 : i32
          %v869 = arith.addi %v868, %c1_i32 : i32
          %v870 = arith.andi %v869, %c3_i32 : i32
          %v871 = arith.shli %v870, %c3_i32 : i32
          %v872 = arith.shrui %mk748#1, %v871 : i32
          %v873 = arith.andi %v872, %c255_i32 : i32
          %v874 = arith.shli %v873, %c23_i32 : i32
          %v875 = arith.bitcast %v874 : i32 to f32
          %v876 = vector.extract %v424[0] : i32 from vector<4xi32>
          %v883 = "uq.fp4_to_bf16"(%v876, %v875) : (i32, f32) -> vector<8xbf16>
          %v884 = arith.addi %v819, %c64_i32 : i32
          %v885 = llvm.getelementptr %lds[%v884] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v883, %v885 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v886 = vector.extract %v424[1] : i32 from vector<4xi32>
          %v893 = "uq.fp4_to_bf16"(%v886, %v875) : (i32, f32) -> vector<8xbf16>
          %v894 = arith.addi %v819, %c80_i32 : i32
          %v895 = llvm.getelementptr %lds[%v894] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v893, %v895 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v896 = vector.extract %v424[2] : i32 from vector<4xi32>
          %v903 = "uq.fp4_to_bf16"(%v896, %v875) : (i32, f32) -> vector<8xbf16>
          %v904 = arith.addi %v819, %c96_i32 : i32
          %v905 = llvm.getelementptr %lds[%v904] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v903, %v905 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v906 = vector.extract %v424[3] : i32 from vector<4xi32>
          %v913 = "uq.fp4_to_bf16"(%v906, %v875) : (i32, f32) -> vector<8xbf16>
          %v914 = arith.addi %v819, %c112_i32 : i32
          %v915 = llvm.getelementptr %lds[%v914] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v913, %v915 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          gpu.barrier
          // PV: C[head dim][query] += V^T P; A read through the LDS transpose
          // rescale the accumulators only when some row's max moved (wave-uniform branch;
          // skipping a multiply by exactly 1 changes nothing)
          %v916 = arith.cmpf une, %v782, %one_f : f32
          %v917 = rocdl.ballot %v916 : i64
          %v918 = arith.cmpi ne, %v917, %c0_i64 : i64
          %rs919:16 = scf.if %v918 -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
            %v920 = vector.broadcast %v782 : f32 to vector<4xf32>
            %v921 = arith.mulf %v641, %v920 : vector<4xf32>
            %v922 = arith.mulf %v645, %v920 : vector<4xf32>
            %v923 = arith.mulf %v649, %v920 : vector<4xf32>
            %v924 = arith.mulf %v653, %v920 : vector<4xf32>
            %v925 = arith.mulf %v657, %v920 : vector<4xf32>
            %v926 = arith.mulf %v661, %v920 : vector<4xf32>
            %v927 = arith.mulf %v665, %v920 : vector<4xf32>
            %v928 = arith.mulf %v669, %v920 : vector<4xf32>
            %v929 = arith.mulf %v673, %v920 : vector<4xf32>
            %v930 = arith.mulf %v677, %v920 : vector<4xf32>
            %v931 = arith.mulf %v681, %v920 : vector<4xf32>
            %v932 = arith.mulf %v685, %v920 : vector<4xf32>
            %v933 = arith.mulf %v689, %v920 : vector<4xf32>
            %v934 = arith.mulf %v693, %v920 : vector<4xf32>
            %v935 = arith.mulf %v697, %v920 : vector<4xf32>
            %v936 = arith.mulf %v701, %v920 : vector<4xf32>
            scf.yield %v921, %v922, %v923, %v924, %v925, %v926, %v927, %v928, %v929, %v930, %v931, %v932, %v933, %v934, %v935, %v936 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
          } else {
            scf.yield %v641, %v645, %v649, %v653, %v657, %v661, %v665, %v669, %v673, %v677, %v681, %v685, %v689, %v693, %v697, %v701 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
          }
          %v937 = arith.muli %v_tok, %c528_i32 : i32
          %v938 = arith.muli %v_chunk, %c8_i32 : i32
          %v939 = arith.addi %v937, %v938 : i32
          %v940 = arith.addi %v939, %c0_i32 : i32
          %v941 = llvm.getelementptr %lds[%v940] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v942 = rocdl.ds.read.tr16.b64 %v941 : !llvm.ptr<3> -> vector<4xi16>
          %v943 = rocdl.mfma.f32.16x16x16bf16.1k %v942, %v816, %rs919#0, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v944 = arith.addi %v939, %c32_i32 : i32
          %v945 = llvm.getelementptr %lds[%v944] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v946 = rocdl.ds.read.tr16.b64 %v945 : !llvm.ptr<3> -> vector<4xi16>
          %v947 = rocdl.mfma.f32.16x16x16bf16.1k %v946, %v816, %rs919#1, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v948 = arith.addi %v939, %c64_i32 : i32
          %v949 = llvm.getelementptr %lds[%v948] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v950 = rocdl.ds.read.tr16.b64 %v949 : !llvm.ptr<3> -> vector<4xi16>
          %v951 = rocdl.mfma.f32.16x16x16bf16.1k %v950, %v816, %rs919#2, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v952 = arith.addi %v939, %c96_i32 : i32
          %v953 = llvm.getelementptr %lds[%v952] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v954 = rocdl.ds.read.tr16.b64 %v953 : !llvm.ptr<3> -> vector<4xi16>
          %v955 = rocdl.mfma.f32.16x16x16bf16.1k %v954, %v816, %rs919#3, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v956 = arith.addi %v939, %c128_i32 : i32
          %v957 = llvm.getelementptr %lds[%v956] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v958 = rocdl.ds.read.tr16.b64 %v957 : !llvm.ptr<3> -> vector<4xi16>
          %v959 = rocdl.mfma.f32.16x16x16bf16.1k %v958, %v816, %rs919#4, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v960 = arith.addi %v939, %c160_i32 : i32
          %v961 = llvm.getelementptr %lds[%v960] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v962 = rocdl.ds.read.tr16.b64 %v961 : !llvm.ptr<3> -> vector<4xi16>
          %v963 = rocdl.mfma.f32.16x16x16bf16.1k %v962, %v816, %rs919#5, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v964 = arith.addi %v939, %c192_i32 : i32
          %v965 = llvm.getelementptr %lds[%v964] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v966 = rocdl.ds.read.tr16.b64 %v965 : !llvm.ptr<3> -> vector<4xi16>
          %v967 = rocdl.mfma.f32.16x16x16bf16.1k %v966, %v816, %rs919#6, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v968 = arith.addi %v939, %c224_i32 : i32
          %v969 = llvm.getelementptr %lds[%v968] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v970 = rocdl.ds.read.tr16.b64 %v969 : !llvm.ptr<3> -> vector<4xi16>
          %v971 = rocdl.mfma.f32.16x16x16bf16.1k %v970, %v816, %rs919#7, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v972 = arith.addi %v939, %c256_i32 : i32
          %v973 = llvm.getelementptr %lds[%v972] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v974 = rocdl.ds.read.tr16.b64 %v973 : !llvm.ptr<3> -> vector<4xi16>
          %v975 = rocdl.mfma.f32.16x16x16bf16.1k %v974, %v816, %rs919#8, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v976 = arith.addi %v939, %c288_i32 : i32
          %v977 = llvm.getelementptr %lds[%v976] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v978 = rocdl.ds.read.tr16.b64 %v977 : !llvm.ptr<3> -> vector<4xi16>
          %v979 = rocdl.mfma.f32.16x16x16bf16.1k %v978, %v816, %rs919#9, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v980 = arith.addi %v939, %c320_i32 : i32
          %v981 = llvm.getelementptr %lds[%v980] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v982 = rocdl.ds.read.tr16.b64 %v981 : !llvm.ptr<3> -> vector<4xi16>
          %v983 = rocdl.mfma.f32.16x16x16bf16.1k %v982, %v816, %rs919#10, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v984 = arith.addi %v939, %c352_i32 : i32
          %v985 = llvm.getelementptr %lds[%v984] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v986 = rocdl.ds.read.tr16.b64 %v985 : !llvm.ptr<3> -> vector<4xi16>
          %v987 = rocdl.mfma.f32.16x16x16bf16.1k %v986, %v816, %rs919#11, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v988 = arith.addi %v939, %c384_i32 : i32
          %v989 = llvm.getelementptr %lds[%v988] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v990 = rocdl.ds.read.tr16.b64 %v989 : !llvm.ptr<3> -> vector<4xi16>
          %v991 = rocdl.mfma.f32.16x16x16bf16.1k %v990, %v816, %rs919#12, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v992 = arith.addi %v939, %c416_i32 : i32
          %v993 = llvm.getelementptr %lds[%v992] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v994 = rocdl.ds.read.tr16.b64 %v993 : !llvm.ptr<3> -> vector<4xi16>
          %v995 = rocdl.mfma.f32.16x16x16bf16.1k %v994, %v816, %rs919#13, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v996 = arith.addi %v939, %c448_i32 : i32
          %v997 = llvm.getelementptr %lds[%v996] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v998 = rocdl.ds.read.tr16.b64 %v997 : !llvm.ptr<3> -> vector<4xi16>
          %v999 = rocdl.mfma.f32.16x16x16bf16.1k %v998, %v816, %rs919#14, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v1000 = arith.addi %v939, %c480_i32 : i32
          %v1001 = llvm.getelementptr %lds[%v1000] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v1002 = rocdl.ds.read.tr16.b64 %v1001 : !llvm.ptr<3> -> vector<4xi16>
          %v1003 = rocdl.mfma.f32.16x16x16bf16.1k %v1002, %v816, %rs919#15, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          gpu.barrier
          scf.yield %v779, %v813, %v943, %v947, %v951, %v955, %v959, %v963, %v967, %v971, %v975, %v979, %v983, %v987, %v991, %v995, %v999, %v1003, %v723, %v724, %v725, %v726, %v727, %v728 : f32, f32, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, i32, i32
        }
        %v1004 = arith.andi %ntiles, %c1_i32 : i32
        %v1005 = arith.cmpi ne, %v1004, %c0_i32 : i32
        %tail:18 = scf.if %v1005 -> (f32, f32, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
          %v1006 = arith.subi %ntiles, %c1_i32 : i32
          %v1007 = arith.shrui %v1006, %c4_i32 : i32
          %v1008 = arith.andi %v1006, %c15_i32 : i32
          %v1009 = arith.muli %v1007, %num_partitions : i32
          %v1010 = arith.addi %part, %v1009 : i32
          %v1011r = arith.shli %v1010, %c8_i32 : i32
          %v1011 = arith.addi %v1011r, %win_base : i32
          %v1012 = arith.shli %v1008, %c4_i32 : i32
          %v1013 = arith.addi %v1011, %v1012 : i32
          // K scales: lane l needs the byte of (token l&15, group 4h + j). Row j of 16
          // lanes loaded scale word j&1; v_permlane16_swap of two copies gives every
          // lane word 0 (from row j&~1) in the first result and word 1 (row j|1) in
          // the second.
          %v1014 = rocdl.permlane16.swap %loop#22, %loop#22, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
          %v1015 = llvm.extractvalue %v1014[0] : !llvm.struct<(i32, i32)>
          %v1016 = llvm.extractvalue %v1014[1] : !llvm.struct<(i32, i32)>
          %v1017 = arith.shli %v2, %c3_i32 : i32
          %v1018 = arith.shrui %v1015, %v1017 : i32
          %v1019 = arith.shrui %v1016, %v1017 : i32
          // QK: C[token][query row] over two K=128 issues; A = K FP4 with UE8M0 scale, B = Q E4M3 (scale 0x7F = 1)
          %v1020 = rocdl.mfma.scale.f32.16x16x128.f8f6f4 %loop#18, %v307, %zero4, %c4_i32, %c0_i32, %c0_i32, %v1018, %c0_i32, %c127_i32 : (vector<4xi32>, vector<8xi32>, vector<4xf32>, i32, i32, i32, i32, i32, i32) -> vector<4xf32>
          %v1021 = rocdl.mfma.scale.f32.16x16x128.f8f6f4 %loop#19, %v377, %v1020, %c4_i32, %c0_i32, %c0_i32, %v1019, %c0_i32, %c127_i32 : (vector<4xi32>, vector<8xi32>, vector<4xf32>, i32, i32, i32, i32, i32, i32) -> vector<4xf32>
          %v1022 = vector.broadcast %softmax_scale : f32 to vector<4xf32>
          %v1023 = arith.mulf %v1021, %v1022 : vector<4xf32>
          // Only a tile that reaches past seq_len or starts before win_start needs
          // masking (wave-uniform branch): its scores of tokens outside [win_start,
          // seq_len) become -inf (select: garbage K never survives), and those
          // tokens' V scale word becomes 0 (E8M0 2^-127 times an FP4 value is
          // finite), so 0xFF garbage never meets p = 0 in the PV MFMA.
          %v1024 = arith.addi %v1013, %c16_i32 : i32
          %v1025a = arith.cmpi sgt, %v1024, %seq_len : i32
          %v1025b = arith.cmpi slt, %v1013, %win_start : i32
          %v1025 = arith.ori %v1025a, %v1025b : i1
          %mk1026:2 = scf.if %v1025 -> (vector<4xf32>, i32) {
            %v1027 = vector.broadcast %v1013 : i32 to vector<4xi32>
            %v1028 = arith.addi %v1027, %lane_tok4 : vector<4xi32>
            %v1029s = vector.broadcast %win_start : i32 to vector<4xi32>
            %v1029d = arith.subi %v1028, %v1029s : vector<4xi32>
            %v1029 = vector.broadcast %win_len : i32 to vector<4xi32>
            %v1030 = arith.cmpi ult, %v1029d, %v1029 : vector<4xi32>
            %v1031 = vector.broadcast %ninf : f32 to vector<4xf32>
            %v1032 = arith.select %v1030, %v1023, %v1031 : vector<4xi1>, vector<4xf32>
            %v1033 = arith.addi %v1013, %v_tok : i32
            %v1034d = arith.subi %v1033, %win_start : i32
            %v1034 = arith.cmpi ult, %v1034d, %win_len : i32
            %v1035 = arith.select %v1034, %loop#23, %c0_i32 : i32
            scf.yield %v1032, %v1035 : vector<4xf32>, i32
          } else {
            scf.yield %v1023, %loop#23 : vector<4xf32>, i32
          }
          %v1036 = vector.extract %mk1026#0[0] : f32 from vector<4xf32>
          %v1037 = vector.extract %mk1026#0[1] : f32 from vector<4xf32>
          %v1038 = vector.extract %mk1026#0[2] : f32 from vector<4xf32>
          %v1039 = vector.extract %mk1026#0[3] : f32 from vector<4xf32>
          // online softmax over the 16 tokens of each query row (lanes l, l^16, l^32, l^48)
          %v1040 = arith.maxnumf %v1036, %v1037 fastmath<nnan> : f32
          %v1041 = arith.maxnumf %v1038, %v1039 fastmath<nnan> : f32
          %v1042 = arith.maxnumf %v1040, %v1041 fastmath<nnan> : f32
          %v1043 = arith.bitcast %v1042 : f32 to i32
          %v1044 = rocdl.permlane16.swap %v1043, %v1043, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
          %v1045 = llvm.extractvalue %v1044[0] : !llvm.struct<(i32, i32)>
          %v1046 = arith.bitcast %v1045 : i32 to f32
          %v1047 = llvm.extractvalue %v1044[1] : !llvm.struct<(i32, i32)>
          %v1048 = arith.bitcast %v1047 : i32 to f32
          %v1049 = arith.maxnumf %v1046, %v1048 fastmath<nnan> : f32
          %v1050 = arith.bitcast %v1049 : f32 to i32
          %v1051 = rocdl.permlane32.swap %v1050, %v1050, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
          %v1052 = llvm.extractvalue %v1051[0] : !llvm.struct<(i32, i32)>
          %v1053 = arith.bitcast %v1052 : i32 to f32
          %v1054 = llvm.extractvalue %v1051[1] : !llvm.struct<(i32, i32)>
          %v1055 = arith.bitcast %v1054 : i32 to f32
          %v1056 = arith.maxnumf %v1053, %v1055 fastmath<nnan> : f32
          %v1057 = arith.maxnumf %loop#0, %v1056 fastmath<nnan> : f32
          // Every processed tile holds an in-context token, so nm is finite; on the
          // first tile m = -inf gives alpha = 0 on l = 0 and acc = 0 (same as 1).
          %v1058 = arith.subf %loop#0, %v1057 : f32
          %v1059 = arith.mulf %v1058, %log2e : f32
          %v1060 = rocdl.exp2 %v1059 f32 -> f32
          %v1061 = arith.subf %v1036, %v1057 : f32
          %v1062 = arith.mulf %v1061, %log2e : f32
          %v1063 = rocdl.exp2 %v1062 f32 -> f32
          %v1064 = arith.subf %v1037, %v1057 : f32
          %v1065 = arith.mulf %v1064, %log2e : f32
          %v1066 = rocdl.exp2 %v1065 f32 -> f32
          %v1067 = arith.subf %v1038, %v1057 : f32
          %v1068 = arith.mulf %v1067, %log2e : f32
          %v1069 = rocdl.exp2 %v1068 f32 -> f32
          %v1070 = arith.subf %v1039, %v1057 : f32
          %v1071 = arith.mulf %v1070, %log2e : f32
          %v1072 = rocdl.exp2 %v1071 f32 -> f32
          %v1073 = arith.addf %v1063, %v1066 : f32
          %v1074 = arith.addf %v1073, %v1069 : f32
          %v1075 = arith.addf %v1074, %v1072 : f32
          %v1076 = arith.bitcast %v1075 : f32 to i32
          %v1077 = rocdl.permlane16.swap %v1076, %v1076, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
          %v1078 = llvm.extractvalue %v1077[0] : !llvm.struct<(i32, i32)>
          %v1079 = arith.bitcast %v1078 : i32 to f32
          %v1080 = llvm.extractvalue %v1077[1] : !llvm.struct<(i32, i32)>
          %v1081 = arith.bitcast %v1080 : i32 to f32
          %v1082 = arith.addf %v1079, %v1081 : f32
          %v1083 = arith.bitcast %v1082 : f32 to i32
          %v1084 = rocdl.permlane32.swap %v1083, %v1083, false, false : (i32, i32) -> !llvm.struct<(i32, i32)>
          %v1085 = llvm.extractvalue %v1084[0] : !llvm.struct<(i32, i32)>
          %v1086 = arith.bitcast %v1085 : i32 to f32
          %v1087 = llvm.extractvalue %v1084[1] : !llvm.struct<(i32, i32)>
          %v1088 = arith.bitcast %v1087 : i32 to f32
          %v1089 = arith.addf %v1086, %v1088 : f32
          %v1090 = arith.mulf %loop#1, %v1060 : f32
          %v1091 = arith.addf %v1090, %v1089 : f32
          %v1092 = vector.from_elements %v1063, %v1066, %v1069, %v1072 : vector<4xf32>
          %v1093 = arith.truncf %v1092 : vector<4xf32> to vector<4xbf16>
          %v1094 = vector.bitcast %v1093 : vector<4xbf16> to vector<4xi16>
          // V: FP4 -> bf16 with the UE8M0 scale fused; an out-of-context token gets scale
          // byte 0 (2^-127 x a finite FP4 value: finite), so 0xFF garbage never meets p = 0.
          %v1095 = arith.muli %v_tok, %c528_i32 : i32
          %v1096 = arith.muli %v_chunk, %c128_i32 : i32
          %v1097 = arith.addi %v1095, %v1096 : i32
          %v1098 = arith.shli %v_chunk, %c1_i32 : i32
          %v1099 = arith.addi %v1098, %c0_i32 : i32
          %v1100 = arith.andi %v1099, %c3_i32 : i32
          %v1101 = arith.shli %v1100, %c3_i32 : i32
          %v1102 = arith.shrui %mk1026#1, %v1101 : i32
          %v1103 = arith.andi %v1102, %c255_i32 : i32
          %v1104 = arith.shli %v1103, %c23_i32 : i32
          %v1105 = arith.bitcast %v1104 : i32 to f32
          %v1106 = vector.extract %loop#20[0] : i32 from vector<4xi32>
          %v1113 = "uq.fp4_to_bf16"(%v1106, %v1105) : (i32, f32) -> vector<8xbf16>
          %v1114 = arith.addi %v1097, %c0_i32 : i32
          %v1115 = llvm.getelementptr %lds[%v1114] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v1113, %v1115 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v1116 = vector.extract %loop#20[1] : i32 from vector<4xi32>
          %v1123 = "uq.fp4_to_bf16"(%v1116, %v1105) : (i32, f32) -> vector<8xbf16>
          %v1124 = arith.addi %v1097, %c16_i32 : i32
          %v1125 = llvm.getelementptr %lds[%v1124] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v1123, %v1125 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v1126 = vector.extract %loop#20[2] : i32 from vector<4xi32>
          %v1133 = "uq.fp4_to_bf16"(%v1126, %v1105) : (i32, f32) -> vector<8xbf16>
          %v1134 = arith.addi %v1097, %c32_i32 : i32
          %v1135 = llvm.getelementptr %lds[%v1134] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v1133, %v1135 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v1136 = vector.extract %loop#20[3] : i32 from vector<4xi32>
          %v1143 = "uq.fp4_to_bf16"(%v1136, %v1105) : (i32, f32) -> vector<8xbf16>
          %v1144 = arith.addi %v1097, %c48_i32 : i32
          %v1145 = llvm.getelementptr %lds[%v1144] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v1143, %v1145 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v1146 = arith.shli %v_chunk, %c1_i32 : i32
          %v1147 = arith.addi %v1146, %c1_i32 : i32
          %v1148 = arith.andi %v1147, %c3_i32 : i32
          %v1149 = arith.shli %v1148, %c3_i32 : i32
          %v1150 = arith.shrui %mk1026#1, %v1149 : i32
          %v1151 = arith.andi %v1150, %c255_i32 : i32
          %v1152 = arith.shli %v1151, %c23_i32 : i32
          %v1153 = arith.bitcast %v1152 : i32 to f32
          %v1154 = vector.extract %loop#21[0] : i32 from vector<4xi32>
          %v1161 = "uq.fp4_to_bf16"(%v1154, %v1153) : (i32, f32) -> vector<8xbf16>
          %v1162 = arith.addi %v1097, %c64_i32 : i32
          %v1163 = llvm.getelementptr %lds[%v1162] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v1161, %v1163 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v1164 = vector.extract %loop#21[1] : i32 from vector<4xi32>
          %v1171 = "uq.fp4_to_bf16"(%v1164, %v1153) : (i32, f32) -> vector<8xbf16>
          %v1172 = arith.addi %v1097, %c80_i32 : i32
          %v1173 = llvm.getelementptr %lds[%v1172] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v1171, %v1173 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v1174 = vector.extract %loop#21[2] : i32 from vector<4xi32>
          %v1181 = "uq.fp4_to_bf16"(%v1174, %v1153) : (i32, f32) -> vector<8xbf16>
          %v1182 = arith.addi %v1097, %c96_i32 : i32
          %v1183 = llvm.getelementptr %lds[%v1182] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v1181, %v1183 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          %v1184 = vector.extract %loop#21[3] : i32 from vector<4xi32>
          %v1191 = "uq.fp4_to_bf16"(%v1184, %v1153) : (i32, f32) -> vector<8xbf16>
          %v1192 = arith.addi %v1097, %c112_i32 : i32
          %v1193 = llvm.getelementptr %lds[%v1192] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          llvm.store %v1191, %v1193 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
          gpu.barrier
          // PV: C[head dim][query] += V^T P; A read through the LDS transpose
          // rescale the accumulators only when some row's max moved (wave-uniform branch;
          // skipping a multiply by exactly 1 changes nothing)
          %v1194 = arith.cmpf une, %v1060, %one_f : f32
          %v1195 = rocdl.ballot %v1194 : i64
          %v1196 = arith.cmpi ne, %v1195, %c0_i64 : i64
          %rs1197:16 = scf.if %v1196 -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
            %v1198 = vector.broadcast %v1060 : f32 to vector<4xf32>
            %v1199 = arith.mulf %loop#2, %v1198 : vector<4xf32>
            %v1200 = arith.mulf %loop#3, %v1198 : vector<4xf32>
            %v1201 = arith.mulf %loop#4, %v1198 : vector<4xf32>
            %v1202 = arith.mulf %loop#5, %v1198 : vector<4xf32>
            %v1203 = arith.mulf %loop#6, %v1198 : vector<4xf32>
            %v1204 = arith.mulf %loop#7, %v1198 : vector<4xf32>
            %v1205 = arith.mulf %loop#8, %v1198 : vector<4xf32>
            %v1206 = arith.mulf %loop#9, %v1198 : vector<4xf32>
            %v1207 = arith.mulf %loop#10, %v1198 : vector<4xf32>
            %v1208 = arith.mulf %loop#11, %v1198 : vector<4xf32>
            %v1209 = arith.mulf %loop#12, %v1198 : vector<4xf32>
            %v1210 = arith.mulf %loop#13, %v1198 : vector<4xf32>
            %v1211 = arith.mulf %loop#14, %v1198 : vector<4xf32>
            %v1212 = arith.mulf %loop#15, %v1198 : vector<4xf32>
            %v1213 = arith.mulf %loop#16, %v1198 : vector<4xf32>
            %v1214 = arith.mulf %loop#17, %v1198 : vector<4xf32>
            scf.yield %v1199, %v1200, %v1201, %v1202, %v1203, %v1204, %v1205, %v1206, %v1207, %v1208, %v1209, %v1210, %v1211, %v1212, %v1213, %v1214 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
          } else {
            scf.yield %loop#2, %loop#3, %loop#4, %loop#5, %loop#6, %loop#7, %loop#8, %loop#9, %loop#10, %loop#11, %loop#12, %loop#13, %loop#14, %loop#15, %loop#16, %loop#17 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
          }
          %v1215 = arith.muli %v_tok, %c528_i32 : i32
          %v1216 = arith.muli %v_chunk, %c8_i32 : i32
          %v1217 = arith.addi %v1215, %v1216 : i32
          %v1218 = arith.addi %v1217, %c0_i32 : i32
          %v1219 = llvm.getelementptr %lds[%v1218] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v1220 = rocdl.ds.read.tr16.b64 %v1219 : !llvm.ptr<3> -> vector<4xi16>
          %v1221 = rocdl.mfma.f32.16x16x16bf16.1k %v1220, %v1094, %rs1197#0, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v1222 = arith.addi %v1217, %c32_i32 : i32
          %v1223 = llvm.getelementptr %lds[%v1222] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v1224 = rocdl.ds.read.tr16.b64 %v1223 : !llvm.ptr<3> -> vector<4xi16>
          %v1225 = rocdl.mfma.f32.16x16x16bf16.1k %v1224, %v1094, %rs1197#1, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v1226 = arith.addi %v1217, %c64_i32 : i32
          %v1227 = llvm.getelementptr %lds[%v1226] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v1228 = rocdl.ds.read.tr16.b64 %v1227 : !llvm.ptr<3> -> vector<4xi16>
          %v1229 = rocdl.mfma.f32.16x16x16bf16.1k %v1228, %v1094, %rs1197#2, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v1230 = arith.addi %v1217, %c96_i32 : i32
          %v1231 = llvm.getelementptr %lds[%v1230] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v1232 = rocdl.ds.read.tr16.b64 %v1231 : !llvm.ptr<3> -> vector<4xi16>
          %v1233 = rocdl.mfma.f32.16x16x16bf16.1k %v1232, %v1094, %rs1197#3, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v1234 = arith.addi %v1217, %c128_i32 : i32
          %v1235 = llvm.getelementptr %lds[%v1234] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v1236 = rocdl.ds.read.tr16.b64 %v1235 : !llvm.ptr<3> -> vector<4xi16>
          %v1237 = rocdl.mfma.f32.16x16x16bf16.1k %v1236, %v1094, %rs1197#4, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v1238 = arith.addi %v1217, %c160_i32 : i32
          %v1239 = llvm.getelementptr %lds[%v1238] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v1240 = rocdl.ds.read.tr16.b64 %v1239 : !llvm.ptr<3> -> vector<4xi16>
          %v1241 = rocdl.mfma.f32.16x16x16bf16.1k %v1240, %v1094, %rs1197#5, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v1242 = arith.addi %v1217, %c192_i32 : i32
          %v1243 = llvm.getelementptr %lds[%v1242] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v1244 = rocdl.ds.read.tr16.b64 %v1243 : !llvm.ptr<3> -> vector<4xi16>
          %v1245 = rocdl.mfma.f32.16x16x16bf16.1k %v1244, %v1094, %rs1197#6, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v1246 = arith.addi %v1217, %c224_i32 : i32
          %v1247 = llvm.getelementptr %lds[%v1246] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v1248 = rocdl.ds.read.tr16.b64 %v1247 : !llvm.ptr<3> -> vector<4xi16>
          %v1249 = rocdl.mfma.f32.16x16x16bf16.1k %v1248, %v1094, %rs1197#7, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v1250 = arith.addi %v1217, %c256_i32 : i32
          %v1251 = llvm.getelementptr %lds[%v1250] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v1252 = rocdl.ds.read.tr16.b64 %v1251 : !llvm.ptr<3> -> vector<4xi16>
          %v1253 = rocdl.mfma.f32.16x16x16bf16.1k %v1252, %v1094, %rs1197#8, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v1254 = arith.addi %v1217, %c288_i32 : i32
          %v1255 = llvm.getelementptr %lds[%v1254] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v1256 = rocdl.ds.read.tr16.b64 %v1255 : !llvm.ptr<3> -> vector<4xi16>
          %v1257 = rocdl.mfma.f32.16x16x16bf16.1k %v1256, %v1094, %rs1197#9, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v1258 = arith.addi %v1217, %c320_i32 : i32
          %v1259 = llvm.getelementptr %lds[%v1258] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v1260 = rocdl.ds.read.tr16.b64 %v1259 : !llvm.ptr<3> -> vector<4xi16>
          %v1261 = rocdl.mfma.f32.16x16x16bf16.1k %v1260, %v1094, %rs1197#10, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v1262 = arith.addi %v1217, %c352_i32 : i32
          %v1263 = llvm.getelementptr %lds[%v1262] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v1264 = rocdl.ds.read.tr16.b64 %v1263 : !llvm.ptr<3> -> vector<4xi16>
          %v1265 = rocdl.mfma.f32.16x16x16bf16.1k %v1264, %v1094, %rs1197#11, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v1266 = arith.addi %v1217, %c384_i32 : i32
          %v1267 = llvm.getelementptr %lds[%v1266] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v1268 = rocdl.ds.read.tr16.b64 %v1267 : !llvm.ptr<3> -> vector<4xi16>
          %v1269 = rocdl.mfma.f32.16x16x16bf16.1k %v1268, %v1094, %rs1197#12, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v1270 = arith.addi %v1217, %c416_i32 : i32
          %v1271 = llvm.getelementptr %lds[%v1270] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v1272 = rocdl.ds.read.tr16.b64 %v1271 : !llvm.ptr<3> -> vector<4xi16>
          %v1273 = rocdl.mfma.f32.16x16x16bf16.1k %v1272, %v1094, %rs1197#13, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v1274 = arith.addi %v1217, %c448_i32 : i32
          %v1275 = llvm.getelementptr %lds[%v1274] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v1276 = rocdl.ds.read.tr16.b64 %v1275 : !llvm.ptr<3> -> vector<4xi16>
          %v1277 = rocdl.mfma.f32.16x16x16bf16.1k %v1276, %v1094, %rs1197#14, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          %v1278 = arith.addi %v1217, %c480_i32 : i32
          %v1279 = llvm.getelementptr %lds[%v1278] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %v1280 = rocdl.ds.read.tr16.b64 %v1279 : !llvm.ptr<3> -> vector<4xi16>
          %v1281 = rocdl.mfma.f32.16x16x16bf16.1k %v1280, %v1094, %rs1197#15, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
          gpu.barrier
          scf.yield %v1057, %v1091, %v1221, %v1225, %v1229, %v1233, %v1237, %v1241, %v1245, %v1249, %v1253, %v1257, %v1261, %v1265, %v1269, %v1273, %v1277, %v1281 : f32, f32, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
        } else {
          scf.yield %loop#0, %loop#1, %loop#2, %loop#3, %loop#4, %loop#5, %loop#6, %loop#7, %loop#8, %loop#9, %loop#10, %loop#11, %loop#12, %loop#13, %loop#14, %loop#15, %loop#16, %loop#17 : f32, f32, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
        }
        scf.yield %tail#0, %tail#1, %tail#2, %tail#3, %tail#4, %tail#5, %tail#6, %tail#7, %tail#8, %tail#9, %tail#10, %tail#11, %tail#12, %tail#13, %tail#14, %tail#15, %tail#16, %tail#17 : f32, f32, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
      } else {
        scf.yield %ninf, %zero_f, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4 : f32, f32, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
      }
      // ---- outputs: bf16 partial normalised by its own sum, fp32 max and sum
      %v1282 = arith.cmpf ogt, %fin#1, %zero_f : f32
      %v1283 = arith.select %v1282, %fin#1, %one_f : f32
      %v1284 = arith.divf %one_f, %v1283 : f32
      %v1285 = vector.broadcast %v1284 : f32 to vector<4xf32>
      // workspace row (seq * Hk + kvh) * P + part, in i64 (64-bit addressing above)
      %v1286a = arith.extui %seq : i32 to i64
      %v1286b = arith.extui %num_kv_heads : i32 to i64
      %v1286c = arith.extui %kvh : i32 to i64
      %v1286d = arith.extui %num_partitions : i32 to i64
      %v1286e = arith.extui %part : i32 to i64
      %v1286 = arith.muli %v1286a, %v1286b : i64
      %v1287 = arith.addi %v1286, %v1286c : i64
      %v1288 = arith.muli %v1287, %v1286d : i64
      %v1290 = arith.addi %v1288, %v1286e : i64
      %v1291 = arith.extui %qgi : i32 to i64
      %v1292 = arith.muli %v1290, %v1291 : i64
      %v1293 = arith.muli %v1292, %c512_i64 : i64
      %v1295 = "uq.buffer_rsrc"(%segm_out, %v1293, %max_records) : (!llvm.ptr<1>, i64, i64) -> !llvm.ptr<8>
      %v1296 = arith.muli %v1292, %c4_i64 : i64
      %v1298 = "uq.buffer_rsrc"(%segm_max, %v1296, %max_records) : (!llvm.ptr<1>, i64, i64) -> !llvm.ptr<8>
      %v1299 = arith.muli %v1292, %c4_i64 : i64
      %v1301 = "uq.buffer_rsrc"(%segm_sum, %v1299, %max_records) : (!llvm.ptr<1>, i64, i64) -> !llvm.ptr<8>
      scf.if %v3 {
        %v1302 = arith.muli %v1, %c512_i32 : i32
        %v1303 = arith.muli %v2, %c8_i32 : i32
        %v1304 = arith.addi %v1302, %v1303 : i32
        %v1305 = arith.mulf %fin#2, %v1285 : vector<4xf32>
        %v1306 = arith.truncf %v1305 : vector<4xf32> to vector<4xbf16>
        %v1307 = vector.bitcast %v1306 : vector<4xbf16> to vector<2xi32>
        %v1308 = arith.addi %v1304, %c0_i32 : i32
        rocdl.raw.ptr.buffer.store %v1307, %v1295, %v1308, %c0_i32, %c0_i32 : vector<2xi32>
        %v1309 = arith.mulf %fin#3, %v1285 : vector<4xf32>
        %v1310 = arith.truncf %v1309 : vector<4xf32> to vector<4xbf16>
        %v1311 = vector.bitcast %v1310 : vector<4xbf16> to vector<2xi32>
        %v1312 = arith.addi %v1304, %c32_i32 : i32
        rocdl.raw.ptr.buffer.store %v1311, %v1295, %v1312, %c0_i32, %c0_i32 : vector<2xi32>
        %v1313 = arith.mulf %fin#4, %v1285 : vector<4xf32>
        %v1314 = arith.truncf %v1313 : vector<4xf32> to vector<4xbf16>
        %v1315 = vector.bitcast %v1314 : vector<4xbf16> to vector<2xi32>
        %v1316 = arith.addi %v1304, %c64_i32 : i32
        rocdl.raw.ptr.buffer.store %v1315, %v1295, %v1316, %c0_i32, %c0_i32 : vector<2xi32>
        %v1317 = arith.mulf %fin#5, %v1285 : vector<4xf32>
        %v1318 = arith.truncf %v1317 : vector<4xf32> to vector<4xbf16>
        %v1319 = vector.bitcast %v1318 : vector<4xbf16> to vector<2xi32>
        %v1320 = arith.addi %v1304, %c96_i32 : i32
        rocdl.raw.ptr.buffer.store %v1319, %v1295, %v1320, %c0_i32, %c0_i32 : vector<2xi32>
        %v1321 = arith.mulf %fin#6, %v1285 : vector<4xf32>
        %v1322 = arith.truncf %v1321 : vector<4xf32> to vector<4xbf16>
        %v1323 = vector.bitcast %v1322 : vector<4xbf16> to vector<2xi32>
        %v1324 = arith.addi %v1304, %c128_i32 : i32
        rocdl.raw.ptr.buffer.store %v1323, %v1295, %v1324, %c0_i32, %c0_i32 : vector<2xi32>
        %v1325 = arith.mulf %fin#7, %v1285 : vector<4xf32>
        %v1326 = arith.truncf %v1325 : vector<4xf32> to vector<4xbf16>
        %v1327 = vector.bitcast %v1326 : vector<4xbf16> to vector<2xi32>
        %v1328 = arith.addi %v1304, %c160_i32 : i32
        rocdl.raw.ptr.buffer.store %v1327, %v1295, %v1328, %c0_i32, %c0_i32 : vector<2xi32>
        %v1329 = arith.mulf %fin#8, %v1285 : vector<4xf32>
        %v1330 = arith.truncf %v1329 : vector<4xf32> to vector<4xbf16>
        %v1331 = vector.bitcast %v1330 : vector<4xbf16> to vector<2xi32>
        %v1332 = arith.addi %v1304, %c192_i32 : i32
        rocdl.raw.ptr.buffer.store %v1331, %v1295, %v1332, %c0_i32, %c0_i32 : vector<2xi32>
        %v1333 = arith.mulf %fin#9, %v1285 : vector<4xf32>
        %v1334 = arith.truncf %v1333 : vector<4xf32> to vector<4xbf16>
        %v1335 = vector.bitcast %v1334 : vector<4xbf16> to vector<2xi32>
        %v1336 = arith.addi %v1304, %c224_i32 : i32
        rocdl.raw.ptr.buffer.store %v1335, %v1295, %v1336, %c0_i32, %c0_i32 : vector<2xi32>
        %v1337 = arith.mulf %fin#10, %v1285 : vector<4xf32>
        %v1338 = arith.truncf %v1337 : vector<4xf32> to vector<4xbf16>
        %v1339 = vector.bitcast %v1338 : vector<4xbf16> to vector<2xi32>
        %v1340 = arith.addi %v1304, %c256_i32 : i32
        rocdl.raw.ptr.buffer.store %v1339, %v1295, %v1340, %c0_i32, %c0_i32 : vector<2xi32>
        %v1341 = arith.mulf %fin#11, %v1285 : vector<4xf32>
        %v1342 = arith.truncf %v1341 : vector<4xf32> to vector<4xbf16>
        %v1343 = vector.bitcast %v1342 : vector<4xbf16> to vector<2xi32>
        %v1344 = arith.addi %v1304, %c288_i32 : i32
        rocdl.raw.ptr.buffer.store %v1343, %v1295, %v1344, %c0_i32, %c0_i32 : vector<2xi32>
        %v1345 = arith.mulf %fin#12, %v1285 : vector<4xf32>
        %v1346 = arith.truncf %v1345 : vector<4xf32> to vector<4xbf16>
        %v1347 = vector.bitcast %v1346 : vector<4xbf16> to vector<2xi32>
        %v1348 = arith.addi %v1304, %c320_i32 : i32
        rocdl.raw.ptr.buffer.store %v1347, %v1295, %v1348, %c0_i32, %c0_i32 : vector<2xi32>
        %v1349 = arith.mulf %fin#13, %v1285 : vector<4xf32>
        %v1350 = arith.truncf %v1349 : vector<4xf32> to vector<4xbf16>
        %v1351 = vector.bitcast %v1350 : vector<4xbf16> to vector<2xi32>
        %v1352 = arith.addi %v1304, %c352_i32 : i32
        rocdl.raw.ptr.buffer.store %v1351, %v1295, %v1352, %c0_i32, %c0_i32 : vector<2xi32>
        %v1353 = arith.mulf %fin#14, %v1285 : vector<4xf32>
        %v1354 = arith.truncf %v1353 : vector<4xf32> to vector<4xbf16>
        %v1355 = vector.bitcast %v1354 : vector<4xbf16> to vector<2xi32>
        %v1356 = arith.addi %v1304, %c384_i32 : i32
        rocdl.raw.ptr.buffer.store %v1355, %v1295, %v1356, %c0_i32, %c0_i32 : vector<2xi32>
        %v1357 = arith.mulf %fin#15, %v1285 : vector<4xf32>
        %v1358 = arith.truncf %v1357 : vector<4xf32> to vector<4xbf16>
        %v1359 = vector.bitcast %v1358 : vector<4xbf16> to vector<2xi32>
        %v1360 = arith.addi %v1304, %c416_i32 : i32
        rocdl.raw.ptr.buffer.store %v1359, %v1295, %v1360, %c0_i32, %c0_i32 : vector<2xi32>
        %v1361 = arith.mulf %fin#16, %v1285 : vector<4xf32>
        %v1362 = arith.truncf %v1361 : vector<4xf32> to vector<4xbf16>
        %v1363 = vector.bitcast %v1362 : vector<4xbf16> to vector<2xi32>
        %v1364 = arith.addi %v1304, %c448_i32 : i32
        rocdl.raw.ptr.buffer.store %v1363, %v1295, %v1364, %c0_i32, %c0_i32 : vector<2xi32>
        %v1365 = arith.mulf %fin#17, %v1285 : vector<4xf32>
        %v1366 = arith.truncf %v1365 : vector<4xf32> to vector<4xbf16>
        %v1367 = vector.bitcast %v1366 : vector<4xbf16> to vector<2xi32>
        %v1368 = arith.addi %v1304, %c480_i32 : i32
        rocdl.raw.ptr.buffer.store %v1367, %v1295, %v1368, %c0_i32, %c0_i32 : vector<2xi32>
        %v1369 = arith.cmpi eq, %v2, %c0_i32 : i32
        scf.if %v1369 {
          %v1370 = arith.muli %v1, %c4_i32 : i32
          rocdl.raw.ptr.buffer.store %fin#0, %v1298, %v1370, %c0_i32, %c0_i32 : f32
          rocdl.raw.ptr.buffer.store %fin#1, %v1301, %v1370, %c0_i32, %c0_i32 : f32
        }
      }
      gpu.return
    }
  }
  gpu.module @uq_reduce [#rocdl.target<chip = "gfx950", O = 3>] {
    gpu.func @uq_reduce(
        %output: !llvm.ptr<1> {llvm.noalias, llvm.writeonly},
        %segm_out: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %segm_max: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %segm_sum: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %num_kv_heads: i32, %qg: i32, %num_partitions: i32,
        %out_stride_seq: i32, %out_stride_head: i32,
        %sinks: !llvm.ptr<1> {llvm.noalias, llvm.readonly}) kernel
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
      %c512_i64 = arith.constant 512 : i64
      %c512_i32 = arith.constant 512 : i32
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
      %v1385 = arith.muli %v1384, %c512_i64 : i64
      %v1387 = "uq.buffer_rsrc"(%segm_out, %v1385, %max_records) : (!llvm.ptr<1>, i64, i64) -> !llvm.ptr<8>
      %v1388 = arith.muli %qg, %c512_i32 : i32
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
      rocdl.raw.ptr.buffer.store %v1436, %v1435, %v1389, %c0_i32, %c0_i32 : i16
      gpu.return
    }
  }

  // ==== NVIDIA Hopper (sm_90a) ==========================================
  // The same contract as the gfx950 decode + reduce (argument order:
  // runtime/kernel_abi.h; partials [B, Hk, P, QG, 256] with the same
  // partition walk), designed for Hopper rather than ported:
  //
  // - 4 warps per CTA (grid B x Hk x P), each warp an independent stream of
  //   16-token tiles of the partition (tiles w, w+4, ...) with its own
  //   cp.async pipeline in shared memory (3 stages for QG <= 8, 4 for QG 16);
  //   the warps' (max, sum, acc) are merged through shared memory at the
  //   end. The KV of a head is read once for all QG query heads.
  // - QK on tensor cores: mma.sync m16n8k16 f16 -> f32 (Hopper has no
  //   mma.sync for FP8: ptxas emulates it with conversions), two k-steps per
  //   32-element UE8M0 group from a zero accumulator, the group's scale
  //   applied to that f32 result (per token = column). K's FP4 codes become
  //   E4M3 by two shifts and a mask per 4 codes (E2M1 code s.e1e0.m placed as
  //   E4M3 bits s.000e1e0m.00 is exactly the E2M1 value times 2^-6,
  //   subnormals included; 2^6 is folded into the softmax multiplier), then
  //   f16 by the hardware's E4M3 -> f16x2 conversion (exact). Q (rotated,
  //   E4M3-rounded, exact in f16) waits in shared memory in the k order
  //   those conversions produce and is read by ldmatrix.
  // - PV on tensor cores: mma.sync m16n8k16 bf16 -> f32. V's codes become
  //   bf16 by shifts (code s.e1e0.m as bf16 bits s.0..0e1e0.m000000 is the
  //   E2M1 value times 2^-126) and a bf16x2 multiply by 2^126 (exact);
  //   ldmatrix.trans hands each thread its codes already paired by token.
  //   QG 16: O = P V (M = query rows), V's per-(token, group) scale folded
  //   into bf16 P, one P per group (exact: a power of two). QG <= 8:
  //   O^T = V^T P^T (M = head dim) so the accumulators hold only the real
  //   rows (64 registers: 3 CTAs per SM) and half the MMAs; V's scale goes
  //   into V by a second bf16x2 multiply (exact).
  // - Shared-memory slot layout (stride 304 B, odd multiple of 16: ldmatrix
  //   is free of bank conflicts): [0,136) K codes + K scales, [144,280) V
  //   codes + V scales (16 B aligned for ldmatrix). Copies are 8 B cp.async
  //   (4 B when padded_slot is not a multiple of 8), 17 per lane per tile.
  // - Tokens of a tile outside [window start, seq_len) are clamped to a
  //   valid token for the copy (no read past the used block table entries,
  //   no garbage slot ever loaded) and masked to -inf.
  gpu.module @uq_decode_sm90 [#nvvm.target<chip = "sm_90a", features = "+ptx84", O = 3>] attributes {uq.variants = [{qg = 6}, {qg = 8}, {qg = 16}]} {
    llvm.mlir.global external @uq_decode_sm90_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>

    // Copies the 16 slots of one tile (token base %tb) into a stage buffer
    // (shared address %stage). Lane l copies token tb + (l & 15): its K half
    // [0, 136) (l < 16) or its V half [136, 272) (l >= 16, to shared offset
    // 144 so V's rows are 16-byte aligned for ldmatrix), as 17 8-byte (34
    // 4-byte) cp.async at constant offsets from one address per lane.
    func.func private @uq_sm90_issue_tile(%stage: i32, %tb: i32, %lane: i32,
        %win_start: i32, %seq_len: i32, %bs_shift: i32, %bs_mask: i32,
        %block_tables: !llvm.ptr<1>, %bt_row: i32, %kv_cache: !llvm.ptr<1>,
        %blk_bytes: i64, %pos_stride: i32, %head_off: i32, %unit8: i1) {
      %c1 = arith.constant 1 : i32
      %c4 = arith.constant 4 : i32
      %c8 = arith.constant 8 : i32
      %c15 = arith.constant 15 : i32
      %c136 = arith.constant 136 : i32
      %c144 = arith.constant 144 : i32
      %c304 = arith.constant 304 : i32
      %mine = arith.andi %lane, %c15 : i32
      %half = arith.shrui %lane, %c4 : i32
      %t0 = arith.addi %tb, %mine : i32
      %t1 = arith.maxsi %t0, %win_start : i32
      %last = arith.subi %seq_len, %c1 : i32
      %tok = arith.minsi %t1, %last : i32
      %blk = arith.shrui %tok, %bs_shift : i32
      %pos = arith.andi %tok, %bs_mask : i32
      %bt_ix = arith.addi %bt_row, %blk : i32
      %bt_p = llvm.getelementptr %block_tables[%bt_ix] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      %phys = llvm.load %bt_p invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
      %phys64 = arith.extsi %phys : i32 to i64
      %a0 = arith.muli %phys64, %blk_bytes : i64
      %p0 = arith.muli %pos, %pos_stride : i32
      %p1 = arith.addi %p0, %head_off : i32
      %hs = arith.muli %half, %c136 : i32
      %p2 = arith.addi %p1, %hs : i32
      %p64 = arith.extui %p2 : i32 to i64
      %addr = arith.addi %a0, %p64 : i64
      %kv_i = llvm.ptrtoint %kv_cache : !llvm.ptr<1> to i64
      %src = arith.addi %kv_i, %addr : i64
      %d0 = arith.muli %mine, %c304 : i32
      %hd = arith.muli %half, %c144 : i32
      %d1 = arith.addi %d0, %hd : i32
      %dst = arith.addi %stage, %d1 : i32
      %z = arith.constant 0 : index
      %one = arith.constant 1 : index
      scf.if %unit8 {
        %n = arith.constant 17 : index
        scf.for %k = %z to %n step %one {
          %ki = arith.index_cast %k : index to i32
          %o = arith.muli %ki, %c8 : i32
          %o64 = arith.extui %o : i32 to i64
          %s = arith.addi %src, %o64 : i64
          %d = arith.addi %dst, %o : i32
          llvm.inline_asm has_side_effects asm_dialect = att "cp.async.ca.shared.global [$0], [$1], 8;", "r,l,~{memory}" %d, %s : (i32, i64) -> ()
        }
      } else {
        %n = arith.constant 34 : index
        scf.for %k = %z to %n step %one {
          %ki = arith.index_cast %k : index to i32
          %o = arith.muli %ki, %c4 : i32
          %o64 = arith.extui %o : i32 to i64
          %s = arith.addi %src, %o64 : i64
          %d = arith.addi %dst, %o : i32
          llvm.inline_asm has_side_effects asm_dialect = att "cp.async.ca.shared.global [$0], [$1], 4;", "r,l,~{memory}" %d, %s : (i32, i64) -> ()
        }
      }
      return
    }

    // First token of tile %k of the partition's walk (see the gfx950 decode).
    func.func private @uq_sm90_tile_base(%k: i32, %part: i32, %np: i32, %win_base: i32) -> i32 {
      %c4 = arith.constant 4 : i32
      %c8 = arith.constant 8 : i32
      %c15 = arith.constant 15 : i32
      %tgk = arith.shrui %k, %c4 : i32
      %tg0 = arith.muli %tgk, %np : i32
      %tg = arith.addi %part, %tg0 : i32
      %b0 = arith.shli %tg, %c8 : i32
      %tin = arith.andi %k, %c15 : i32
      %b1 = arith.shli %tin, %c4 : i32
      %b2 = arith.addi %b0, %b1 : i32
      %tb = arith.addi %win_base, %b2 : i32
      return %tb : i32
    }

    // E4M3 B fragment of 8 codes (one 32-bit word, element 2i in the low
    // nibble of byte i): (even elements, odd elements) as E4M3 bytes, value
    // times 2^-6.
    func.func private @uq_sm90_fp4_e4m3(%w: i32) -> (i32, i32) {
      %c2 = arith.constant 2 : i32
      %c4 = arith.constant 4 : i32
      %m1c = arith.constant 0x1C1C1C1C : i32
      %m80 = arith.constant 0x80808080 : i32
      %e0 = arith.shli %w, %c2 : i32
      %e1 = arith.andi %e0, %m1c : i32
      %e2 = arith.shli %w, %c4 : i32
      %e3 = arith.andi %e2, %m80 : i32
      %ev = arith.ori %e1, %e3 : i32
      %o0 = arith.shrui %w, %c2 : i32
      %o1 = arith.andi %o0, %m1c : i32
      %o2 = arith.andi %w, %m80 : i32
      %od = arith.ori %o1, %o2 : i32
      return %ev, %od : i32, i32
    }

    // bf16 pair of nibble %i of both 16-bit halves of %r (E2M1 exact).
    func.func private @uq_sm90_fp4_bf16x2(%r: i32, %i: i32) -> i32 {
      %c2 = arith.constant 2 : i32
      %c6 = arith.constant 6 : i32
      %c12 = arith.constant 12 : i32
      %m1c0 = arith.constant 0x01C001C0 : i32
      %m8000 = arith.constant 0x80008000 : i32
      %two126 = arith.constant 0x7E807E80 : i32
      %sh = arith.shli %i, %c2 : i32
      %x = arith.shrui %r, %sh : i32
      %a0 = arith.shli %x, %c6 : i32
      %a1 = arith.andi %a0, %m1c0 : i32
      %s0 = arith.shli %x, %c12 : i32
      %s1 = arith.andi %s0, %m8000 : i32
      %b = arith.ori %a1, %s1 : i32
      %v = llvm.inline_asm asm_dialect = att "mul.rn.bf16x2 $0, $1, $2;", "=r,r,r" %b, %two126 : (i32, i32) -> i32
      return %v : i32
    }

    // The 8 scale bytes (K at %off = 128, V at 272) of the tokens this
    // thread's fragments touch: 2t, 2t + 1, 8 + 2t, 9 + 2t (two words each).
    func.func private @uq_sm90_scale_words(%sbp: !llvm.ptr<3>, %t2: i32, %off: i32) -> vector<8xi32> {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c7 = arith.constant 7 : i32
      %c8 = arith.constant 8 : i32
      %c23 = arith.constant 23 : i32
      %c32 = arith.constant 32 : i32
      %c304 = arith.constant 304 : i32
      %c0xff = arith.constant 255 : i32
      %ninf = arith.constant 0xFF800000 : f32
      %zero_f = arith.constant 0.0 : f32
      %zero8 = arith.constant dense<0.0> : vector<8xf32>
      %zero8i = arith.constant dense<0> : vector<8xi32>
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i4 = arith.constant 4 : index
      %i8 = arith.constant 8 : index
      // ---- K scales of this thread's columns: tokens 2t + e (n-tile 0)
      // and 8 + 2t + e (n-tile 1), e = 0, 1; 8 bytes each.
      %ks = scf.for %c = %i0 to %i4 step %i1 iter_args(%v = %zero8i) -> (vector<8xi32>) {
        %ci = arith.index_cast %c : index to i32
        %ce = arith.andi %ci, %c1 : i32
        %cn = arith.shrui %ci, %c1 : i32
        %cn8 = arith.muli %cn, %c8 : i32
        %tk0 = arith.addi %t2, %ce : i32
        %tk = arith.addi %tk0, %cn8 : i32
        %o0 = arith.muli %tk, %c304 : i32
        %o1 = arith.addi %o0, %off : i32
        %p = llvm.getelementptr %sbp[%o1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %w = llvm.load %p {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xi32>
        %w0 = vector.extract %w[0] : i32 from vector<2xi32>
        %w1 = vector.extract %w[1] : i32 from vector<2xi32>
        %c2x = arith.muli %c, %i2 : index
        %c2x1 = arith.addi %c2x, %i1 : index
        %v0 = vector.insert %w0, %v[%c2x] : i32 into vector<8xi32>
        %v1 = vector.insert %w1, %v0[%c2x1] : i32 into vector<8xi32>
        scf.yield %v1 : vector<8xi32>
      }
      return %ks : vector<8xi32>
    }

    // S = Q K^T of one tile: 8 groups x 2 n-tiles of m16n8k32 E4M3, each
    // group's f32 result times its UE8M0 scale (column = token).
    // S = Q K^T of one tile on mma.sync m16n8k16 f16 (Q's E4M3 values and
    // K's E2M1 x 2^-6 are exact in f16): per group j two k-steps from the
    // zero accumulator, then times the group's UE8M0 scale (column = token).
    // Q fragments come from shared memory (ldmatrix at %qaddr, Q stored in
    // the k order below); K's come by ldmatrix from the stage (%lbase).
    // k order within a group: step s, position 2t + e (+8 for hi) is element
    // 8t + 4hi + 2e + s, which is what F2FP gives from the E4M3 bytes of one
    // code word (even elements of word t, then odd ones).
    func.func private @uq_sm90_qk(%lbase: i32, %qaddr: i32, %ks: vector<8xi32>) -> vector<8xf32> {
      %c0 = arith.constant 0 : i32
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
      %S = scf.for %jp = %i0 to %i4 step %i1 iter_args(%sacc = %zero8) -> (vector<8xf32>) {
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

    // Scores in base-2 units (x mult) with tokens outside [win_start, seq_len)
    // at -inf.
    func.func private @uq_sm90_mask(%S: vector<8xf32>, %tb: i32, %t2: i32, %win_start: i32, %seq_len: i32, %mult: f32) -> vector<8xf32> {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c7 = arith.constant 7 : i32
      %c8 = arith.constant 8 : i32
      %c23 = arith.constant 23 : i32
      %c32 = arith.constant 32 : i32
      %c304 = arith.constant 304 : i32
      %c0xff = arith.constant 255 : i32
      %ninf = arith.constant 0xFF800000 : f32
      %zero_f = arith.constant 0.0 : f32
      %zero8 = arith.constant dense<0.0> : vector<8xf32>
      %zero8i = arith.constant dense<0> : vector<8xi32>
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i4 = arith.constant 4 : index
      %i8 = arith.constant 8 : index
      // ---- online softmax in base 2 over this tile (rows g and g + 8).
      // Element 4nt + e: row g (e = 0, 1) or g + 8 (e = 2, 3), token
      // tb + 8nt + 2t + (e & 1).
      %x8 = scf.for %e = %i0 to %i8 step %i1 iter_args(%xv = %S) -> (vector<8xf32>) {
        %ei = arith.index_cast %e : index to i32
        %en = arith.shrui %ei, %c2 : i32
        %en8 = arith.muli %en, %c8 : i32
        %ec = arith.andi %ei, %c1 : i32
        %tk0 = arith.addi %tb, %en8 : i32
        %tk1 = arith.addi %tk0, %t2 : i32
        %tk = arith.addi %tk1, %ec : i32
        %ok0 = arith.cmpi sge, %tk, %win_start : i32
        %ok1 = arith.cmpi slt, %tk, %seq_len : i32
        %ok = arith.andi %ok0, %ok1 : i1
        %x = vector.extract %xv[%e] : f32 from vector<8xf32>
        %xs = arith.mulf %x, %mult : f32
        %xm = arith.select %ok, %xs, %ninf : f32
        %xo = vector.insert %xm, %xv[%e] : f32 into vector<8xf32>
        scf.yield %xo : vector<8xf32>
      }
      return %x8 : vector<8xf32>
    }

    // bf16x2 V scales of group %j: (tokens 2t, 2t + 1) and (2t + 8, 2t + 9);
    // bf16 2^(e - 127) = e << 7 (e = 0 gives +0: its codes are +0 too).
    func.func private @uq_sm90_v_scales(%vs: vector<8xi32>, %ji: i32) -> (i32, i32) {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c7 = arith.constant 7 : i32
      %c8 = arith.constant 8 : i32
      %c23 = arith.constant 23 : i32
      %c32 = arith.constant 32 : i32
      %c304 = arith.constant 304 : i32
      %c0xff = arith.constant 255 : i32
      %ninf = arith.constant 0xFF800000 : f32
      %zero_f = arith.constant 0.0 : f32
      %zero8 = arith.constant dense<0.0> : vector<8xf32>
      %zero8i = arith.constant dense<0> : vector<8xi32>
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i4 = arith.constant 4 : index
      %i8 = arith.constant 8 : index
      %jw = arith.shrui %ji, %c2 : i32
      %jwx = arith.index_cast %jw : i32 to index
      %jb = arith.andi %ji, %c3 : i32
      %jsh = arith.muli %jb, %c8 : i32
      %ix1 = arith.addi %jwx, %i2 : index
      %ix2 = arith.addi %jwx, %i4 : index
      %ix3 = arith.addi %ix2, %i2 : index
      %sw0 = vector.extract %vs[%jwx] : i32 from vector<8xi32>
      %sw1 = vector.extract %vs[%ix1] : i32 from vector<8xi32>
      %sw2 = vector.extract %vs[%ix2] : i32 from vector<8xi32>
      %sw3 = vector.extract %vs[%ix3] : i32 from vector<8xi32>
      %sb0 = arith.shrui %sw0, %jsh : i32
      %sb1 = arith.shrui %sw1, %jsh : i32
      %sb2 = arith.shrui %sw2, %jsh : i32
      %sb3 = arith.shrui %sw3, %jsh : i32
      %sa0 = arith.andi %sb0, %c0xff : i32
      %sa1 = arith.andi %sb1, %c0xff : i32
      %sa2 = arith.andi %sb2, %c0xff : i32
      %sa3 = arith.andi %sb3, %c0xff : i32
      %c16 = arith.constant 16 : i32
      %sc0 = arith.shli %sa0, %c7 : i32
      %sc1a = arith.shli %sa1, %c7 : i32
      %sc1 = arith.shli %sc1a, %c16 : i32
      %sc2 = arith.shli %sa2, %c7 : i32
      %sc3a = arith.shli %sa3, %c7 : i32
      %sc3 = arith.shli %sc3a, %c16 : i32
      %s01 = arith.ori %sc0, %sc1 : i32
      %s89 = arith.ori %sc2, %sc3 : i32
      return %s01, %s89 : i32, i32
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
        %max_blocks_per_seq: i32, %softmax_scale: f32, %sliding_window: i32) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %qg = "uq.param"() {name = "qg"} : () -> index
      %qgi = arith.index_cast %qg : index to i32
      %c0 = arith.constant 0 : i32
      // Q in f16 (the E4M3 values), 16 rows of 528 B, after the stages
      // (3 x 4 warps x 4864 B for QG <= 8, 4 x ... for QG 16).
      %c8_q = arith.constant 8 : i32
      %small = arith.cmpi ule, %qgi, %c8_q : i32
      %c58368 = arith.constant 58368 : i32
      %c77824 = arith.constant 77824 : i32
      %q16_off = arith.select %small, %c58368, %c77824 : i32
      %c528 = arith.constant 528 : i32
      %cm32 = arith.constant -32 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %c4 = arith.constant 4 : i32
      %c5 = arith.constant 5 : i32
      %c7 = arith.constant 7 : i32
      %c8 = arith.constant 8 : i32
      %c15 = arith.constant 15 : i32
      %c16 = arith.constant 16 : i32
      %c23 = arith.constant 23 : i32
      %c31 = arith.constant 31 : i32
      %c32 = arith.constant 32 : i32
      %c128 = arith.constant 128 : i32
      %c144 = arith.constant 144 : i32
      %c255 = arith.constant 255 : i32
      %c256 = arith.constant 256 : i32
      %c272 = arith.constant 272 : i32
      %c304 = arith.constant 304 : i32
      %c4864 = arith.constant 4864 : i32
      %c19456 = arith.constant 19456 : i32
      %c16384 = arith.constant 16384 : i32
      %c65536 = arith.constant 65536 : i32
      %c65792 = arith.constant 65792 : i32
      %c64 = arith.constant 64 : i32
      %c127 = arith.constant 127 : i32
      %c2048 = arith.constant 2048 : i32
      %c4096 = arith.constant 4096 : i32
      %zero8i = arith.constant dense<0> : vector<8xi32>
      %i3 = arith.constant 3 : index
      %c0x6420 = arith.constant 0x6420 : i32
      %c0x7531 = arith.constant 0x7531 : i32
      %c0xff = arith.constant 255 : i32
      %c32_i64 = arith.constant 32 : i64
      %ninf = arith.constant 0xFF800000 : f32
      %zero_f = arith.constant 0.0 : f32
      %one_f = arith.constant 1.0 : f32
      %log2e = arith.constant 1.44269504088896340736 : f32
      %ln2 = arith.constant 0.693147180559945309 : f32
      %sixty4 = arith.constant 64.0 : f32
      %sixteenth = arith.constant 0.0625 : f32
      %zero4 = arith.constant dense<0.0> : vector<4xf32>
      %zero8 = arith.constant dense<0.0> : vector<8xf32>
      %zero128 = arith.constant dense<0.0> : vector<128xf32>
      %zero32i = arith.constant dense<0> : vector<32xi32>
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i2 = arith.constant 2 : index
      %i4 = arith.constant 4 : index
      %i8 = arith.constant 8 : index
      %i16 = arith.constant 16 : index
      %i32 = arith.constant 32 : index
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
      %seq_ix = gpu.block_id x
      %seq = arith.index_cast %seq_ix : index to i32
      %kvh_ix = gpu.block_id y
      %kvh = arith.index_cast %kvh_ix : index to i32
      %part_ix = gpu.block_id z
      %part = arith.index_cast %part_ix : index to i32
      %sl_p = llvm.getelementptr %seq_lens[%seq] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      %seq_len = llvm.load %sl_p invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
      // ---- the partition's tiles: the gfx950 walk exactly (window shift,
      // tile-groups p, p+P, ..., at most TGPP, only tiles with a token).
      %win0 = arith.subi %seq_len, %sliding_window : i32
      %win1 = arith.maxsi %win0, %c0 : i32
      %has_win = arith.cmpi sgt, %sliding_window, %c0 : i32
      %win_start = arith.select %has_win, %win1, %c0 : i32
      %m16 = arith.constant -16 : i32
      %win_base = arith.andi %win_start, %m16 : i32
      %rel_len = arith.subi %seq_len, %win_base : i32
      %walk0 = arith.addi %rel_len, %c255 : i32
      %n_tg = arith.shrui %walk0, %c8 : i32
      %walk1 = arith.subi %n_tg, %part : i32
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
      %walk11 = arith.shli %walk10, %c8 : i32
      %walk12 = arith.subi %rel_len, %walk11 : i32
      %walk13 = arith.addi %walk12, %c15 : i32
      %walk14 = arith.shrsi %walk13, %c4 : i32
      %walk15 = arith.minsi %walk14, %c16 : i32
      %walk16 = arith.shli %walk8, %c4 : i32
      %walk17 = arith.addi %walk16, %walk15 : i32
      %ntiles = arith.select %owns, %walk17, %c0 : i32

      // ---- Q: load the QG rows (bf16 -> f32, zero rows past QG) into
      // shared memory, Walsh-Hadamard butterflies (strides 1, 2, ..., 128,
      // the host reference's order), x 1/16, E4M3 with saturation.
      %qf = llvm.getelementptr %smem[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
      %qss64 = arith.extui %q_stride_seq : i32 to i64
      %qsh64 = arith.extui %q_stride_head : i32 to i64
      %seq64 = arith.extui %seq : i32 to i64
      %qrow_seq = arith.muli %seq64, %qss64 : i64
      %hq0 = arith.muli %kvh, %qgi : i32
      scf.for %ii = %i0 to %i32 step %i1 {
        %iii = arith.index_cast %ii : index to i32
        %x0 = arith.muli %iii, %c128 : i32
        %idx = arith.addi %tid, %x0 : i32
        %r = arith.shrui %idx, %c8 : i32
        %d = arith.andi %idx, %c255 : i32
        %in = arith.cmpi ult, %r, %qgi : i32
        // rows past QG read row 0 and become 0 (no branch: 32 loads in flight)
        %rr = arith.select %in, %r, %c0 : i32
        %hq = arith.addi %hq0, %rr : i32
        %hq64 = arith.extui %hq : i32 to i64
        %o0 = arith.muli %hq64, %qsh64 : i64
        %o1 = arith.addi %qrow_seq, %o0 : i64
        %d64 = arith.extui %d : i32 to i64
        %o2 = arith.addi %o1, %d64 : i64
        %qp = llvm.getelementptr %query[%o2] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
        %qb = llvm.load %qp {alignment = 2 : i64} : !llvm.ptr<1> -> i16
        %qb32 = arith.extui %qb : i16 to i32
        %qb32s = arith.shli %qb32, %c16 : i32
        %qv = arith.bitcast %qb32s : i32 to f32
        %val = arith.select %in, %qv, %zero_f : f32
        %sp = llvm.getelementptr %qf[%idx] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        llvm.store %val, %sp {alignment = 4 : i64} : f32, !llvm.ptr<3>
      }
      gpu.barrier
      scf.for %s = %i0 to %i8 step %i1 {
        %si = arith.index_cast %s : index to i32
        %h = arith.shli %c1, %si : i32
        %hm = arith.subi %h, %c1 : i32
        %s1 = arith.addi %si, %c1 : i32
        scf.for %ii = %i0 to %i16 step %i1 {
          %iii = arith.index_cast %ii : index to i32
          %x0 = arith.muli %iii, %c128 : i32
          %b = arith.addi %tid, %x0 : i32
          %r = arith.shrui %b, %c7 : i32
          %p = arith.andi %b, %c127 : i32
          %hi = arith.shrui %p, %si : i32
          %hi2 = arith.shli %hi, %s1 : i32
          %lo = arith.andi %p, %hm : i32
          %e0 = arith.ori %hi2, %lo : i32
          %rb = arith.shli %r, %c8 : i32
          %ia = arith.addi %rb, %e0 : i32
          %ib = arith.addi %ia, %h : i32
          %pa = llvm.getelementptr %qf[%ia] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %pb = llvm.getelementptr %qf[%ib] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %va = llvm.load %pa {alignment = 4 : i64} : !llvm.ptr<3> -> f32
          %vb = llvm.load %pb {alignment = 4 : i64} : !llvm.ptr<3> -> f32
          %sum = arith.addf %va, %vb : f32
          %dif = arith.subf %va, %vb : f32
          llvm.store %sum, %pa {alignment = 4 : i64} : f32, !llvm.ptr<3>
          llvm.store %dif, %pb {alignment = 4 : i64} : f32, !llvm.ptr<3>
        }
        gpu.barrier
      }
      scf.for %ii = %i0 to %i16 step %i1 {
        %iii = arith.index_cast %ii : index to i32
        %x0 = arith.muli %iii, %c128 : i32
        %e = arith.addi %tid, %x0 : i32
        %e2 = arith.shli %e, %c1 : i32
        %pa = llvm.getelementptr %qf[%e2] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        %va = llvm.load %pa {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xf32>
        %v0 = vector.extract %va[0] : f32 from vector<2xf32>
        %v1 = vector.extract %va[1] : f32 from vector<2xf32>
        %s0 = arith.mulf %v0, %sixteenth : f32
        %s1 = arith.mulf %v1, %sixteenth : f32
        %pk = llvm.inline_asm asm_dialect = att "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,f,f" %s1, %s0 : (f32, f32) -> i16
        %hv = llvm.inline_asm asm_dialect = att "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %pk : (i16) -> i32
        %hlo = arith.trunci %hv : i32 to i16
        %hhi0 = arith.shrui %hv, %c16 : i32
        %hhi = arith.trunci %hhi0 : i32 to i16
        // element d of row r goes to position (d & ~31) | (d & 1) << 4 |
        // ((d >> 2) & 1) << 3 | ((d >> 3) & 3) << 1 | ((d >> 1) & 1)
        %row = arith.shrui %e2, %c8 : i32
        %d0 = arith.andi %e2, %c255 : i32
        %dg = arith.andi %d0, %cm32 : i32
        %dhi0 = arith.shrui %d0, %c2 : i32
        %dhi1 = arith.andi %dhi0, %c1 : i32
        %dhi = arith.shli %dhi1, %c3 : i32
        %dt0 = arith.shrui %d0, %c3 : i32
        %dt1 = arith.andi %dt0, %c3 : i32
        %dt = arith.shli %dt1, %c1 : i32
        %de0 = arith.shrui %d0, %c1 : i32
        %de = arith.andi %de0, %c1 : i32
        %pp0 = arith.ori %dg, %dhi : i32
        %pp1 = arith.ori %pp0, %dt : i32
        %pos0 = arith.ori %pp1, %de : i32
        %pos1 = arith.ori %pos0, %c16 : i32
        %rb = arith.muli %row, %c528 : i32
        %rb2 = arith.addi %rb, %q16_off : i32
        %b0x = arith.shli %pos0, %c1 : i32
        %b1x = arith.shli %pos1, %c1 : i32
        %a0x = arith.addi %rb2, %b0x : i32
        %a1x = arith.addi %rb2, %b1x : i32
        %pq0 = llvm.getelementptr %smem[%a0x] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        %pq1 = llvm.getelementptr %smem[%a1x] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
        llvm.store %hlo, %pq0 {alignment = 2 : i64} : i16, !llvm.ptr<3>
        llvm.store %hhi, %pq1 {alignment = 2 : i64} : i16, !llvm.ptr<3>
      }
      gpu.barrier
      gpu.barrier

      // ---- the warp's tiles: k = warp + 4 i, i < nw, through a 4-stage
      // cp.async pipeline in the warp's own 4 x 4864 B of shared memory.
      %nw0 = arith.subi %ntiles, %warp : i32
      %nw1 = arith.addi %nw0, %c3 : i32
      %nw2 = arith.shrsi %nw1, %c2 : i32
      %nw3 = arith.cmpi sgt, %ntiles, %warp : i32
      %nw = arith.select %nw3, %nw2, %c0 : i32
      %bs_shift = "llvm.intr.cttz"(%block_size) <{is_zero_poison = false}> : (i32) -> i32
      %bs_mask = arith.subi %block_size, %c1 : i32
      %pos_stride = arith.muli %num_kv_heads, %padded_slot : i32
      %bb = arith.muli %block_size, %pos_stride : i32
      %blk_bytes = arith.extui %bb : i32 to i64
      %bt_row = arith.muli %seq, %max_blocks_per_seq : i32
      %head_off = arith.muli %kvh, %padded_slot : i32
      %p7 = arith.andi %padded_slot, %c7 : i32
      %unit8 = arith.cmpi eq, %p7, %c0 : i32
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
      %lrb = arith.muli %lrow, %c304 : i32
      %lrow_off = arith.addi %lrb, %lgo : i32
      %nw_ix = arith.index_cast %nw : i32 to index
      %c14592 = arith.constant 14592 : i32
      %zero64 = arith.constant dense<0.0> : vector<64xf32>
      // combine layout: acc [rows][256] f32 per warp, rows = 8 (QG <= 8) or
      // 16; then max and sum [16] per warp at float index rows * 1024
      %c8192 = arith.constant 8192 : i32
      %qrow = arith.muli %lrow, %c528 : i32
      %qaddr0 = arith.addi %smem_i, %q16_off : i32
      %qaddr1 = arith.addi %qaddr0, %qrow : i32
      %qaddr = arith.addi %qaddr1, %lgo : i32
      %accw = arith.select %small, %c2048, %c4096 : i32
      %mbase = arith.select %small, %c8192, %c16384 : i32
      scf.if %small {
        // ---- QG <= 8: PV as O^T = V^T P^T (M = head dim), so the
        // accumulators hold only the 8 real query rows (64 registers, 3 CTAs
        // per SM) and half the PV MMAs; V's scale goes into V (bf16, exact:
        // two bf16x2 multiplies), P needs no per-group copy. 3-stage pipeline.
        %wstage0 = arith.muli %warp, %c14592 : i32
        %wbase = arith.addi %smem_i, %wstage0 : i32
        scf.for %s = %i0 to %i2 step %i1 {
          %si = arith.index_cast %s : index to i32
          %have = arith.cmpi slt, %si, %nw : i32
          scf.if %have {
            %k4 = arith.muli %si, %c4 : i32
            %k = arith.addi %warp, %k4 : i32
            %tb = func.call @uq_sm90_tile_base(%k, %part, %num_partitions, %win_base) : (i32, i32, i32, i32) -> i32
            %so = arith.muli %si, %c4864 : i32
            %stage = arith.addi %wbase, %so : i32
            func.call @uq_sm90_issue_tile(%stage, %tb, %lane, %win_start, %seq_len, %bs_shift, %bs_mask, %block_tables, %bt_row, %kv_cache, %blk_bytes, %pos_stride, %head_off, %unit8) : (i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<1>, i32, !llvm.ptr<1>, i64, i32, i32, i1) -> ()
          }
          llvm.inline_asm has_side_effects asm_dialect = att "cp.async.commit_group;", "~{memory}" : () -> ()
        }
        // lanes holding the softmax state of query rows 2t and 2t + 1
        %src_q0 = arith.muli %t, %c8 : i32
        %src_q1 = arith.addi %src_q0, %c4 : i32
        %fin:3 = scf.for %it = %i0 to %nw_ix step %i1 iter_args(%m_g = %ninf, %l_g = %zero_f, %acc = %zero64) -> (f32, f32, vector<64xf32>) {
          %iti = arith.index_cast %it : index to i32
          %ni = arith.addi %iti, %c2 : i32
          %have = arith.cmpi slt, %ni, %nw : i32
          scf.if %have {
            %k4 = arith.muli %ni, %c4 : i32
            %k = arith.addi %warp, %k4 : i32
            %tb = func.call @uq_sm90_tile_base(%k, %part, %num_partitions, %win_base) : (i32, i32, i32, i32) -> i32
            %ns = arith.remui %ni, %c3 : i32
            %so = arith.muli %ns, %c4864 : i32
            %stage = arith.addi %wbase, %so : i32
            func.call @uq_sm90_issue_tile(%stage, %tb, %lane, %win_start, %seq_len, %bs_shift, %bs_mask, %block_tables, %bt_row, %kv_cache, %blk_bytes, %pos_stride, %head_off, %unit8) : (i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<1>, i32, !llvm.ptr<1>, i64, i32, i32, i1) -> ()
          }
          llvm.inline_asm has_side_effects asm_dialect = att "cp.async.commit_group;", "~{memory}" : () -> ()
          llvm.inline_asm has_side_effects asm_dialect = att "cp.async.wait_group 2;", "~{memory}" : () -> ()
          llvm.inline_asm has_side_effects asm_dialect = att "bar.warp.sync 0xffffffff;", "~{memory}" : () -> ()
          %cs = arith.remui %iti, %c3 : i32
          %cso = arith.muli %cs, %c4864 : i32
          %sb = arith.addi %wbase, %cso : i32
          %sbp_off = arith.subi %sb, %smem_i : i32
          %sbp = llvm.getelementptr %smem[%sbp_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %k4c = arith.muli %iti, %c4 : i32
          %kc = arith.addi %warp, %k4c : i32
          %tb = func.call @uq_sm90_tile_base(%kc, %part, %num_partitions, %win_base) : (i32, i32, i32, i32) -> i32
          %lbase = arith.addi %sb, %lrow_off : i32
          %ks = func.call @uq_sm90_scale_words(%sbp, %t2, %c128) : (!llvm.ptr<3>, i32, i32) -> vector<8xi32>
          %S = func.call @uq_sm90_qk(%lbase, %qaddr, %ks) : (i32, i32, vector<8xi32>) -> vector<8xf32>
          // softmax over row g (elements 0, 1: tokens 2t, 2t + 1; 4, 5: + 8)
          %x8 = func.call @uq_sm90_mask(%S, %tb, %t2, %win_start, %seq_len, %mult) : (vector<8xf32>, i32, i32, i32, i32, f32) -> vector<8xf32>
          %x0 = vector.extract %x8[0] : f32 from vector<8xf32>
          %x1 = vector.extract %x8[1] : f32 from vector<8xf32>
          %x4 = vector.extract %x8[4] : f32 from vector<8xf32>
          %x5 = vector.extract %x8[5] : f32 from vector<8xf32>
          %mg0 = arith.maximumf %x0, %x1 : f32
          %mg1 = arith.maximumf %x4, %x5 : f32
          %mg2 = arith.maximumf %mg0, %mg1 : f32
          %sg1, %vg1 = gpu.shuffle xor %mg2, %c1, %c32 : f32
          %mg3 = arith.maximumf %mg2, %sg1 : f32
          %sg2, %vg2 = gpu.shuffle xor %mg3, %c2, %c32 : f32
          %mg4 = arith.maximumf %mg3, %sg2 : f32
          %mng = arith.maximumf %m_g, %mg4 : f32
          %emptyg = arith.cmpf oeq, %mng, %ninf : f32
          %dg = arith.subf %m_g, %mng : f32
          %eg = math.exp2 %dg : f32
          %corr_g = arith.select %emptyg, %one_f, %eg : f32
          %bg = arith.select %emptyg, %zero_f, %mng : f32
          %d0 = arith.subf %x0, %bg : f32
          %d1 = arith.subf %x1, %bg : f32
          %d4 = arith.subf %x4, %bg : f32
          %d5 = arith.subf %x5, %bg : f32
          %p0 = math.exp2 %d0 : f32
          %p1 = math.exp2 %d1 : f32
          %p4 = math.exp2 %d4 : f32
          %p5 = math.exp2 %d5 : f32
          %sg_0 = arith.addf %p0, %p1 : f32
          %sg_1 = arith.addf %p4, %p5 : f32
          %sg_2 = arith.addf %sg_0, %sg_1 : f32
          %lg_new = math.fma %l_g, %corr_g, %sg_2 : f32
          %ng = arith.cmpf une, %corr_g, %one_f : f32
          %nni = arith.extui %ng : i1 to i32
          %any = llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.u32 p, $1, 0; vote.sync.any.pred p, p, 0xffffffff; selp.u32 $0, 1, 0, p; }", "=r,r" %nni : (i32) -> i32
          %anyb = arith.cmpi ne, %any, %c0 : i32
          // accumulator columns are query rows 2t, 2t + 1: their factors
          // come from the lanes that own those rows
          %cq0, %vq0 = gpu.shuffle idx %corr_g, %src_q0, %c32 : f32
          %cq1, %vq1 = gpu.shuffle idx %corr_g, %src_q1, %c32 : f32
          %acc1 = scf.if %anyb -> (vector<64xf32>) {
            %sc = scf.for %mt = %i0 to %i16 step %i1 iter_args(%ai = %acc) -> (vector<64xf32>) {
              %o = arith.muli %mt, %i4 : index
              %o1 = arith.addi %o, %i1 : index
              %o2 = arith.addi %o, %i2 : index
              %o3 = arith.addi %o2, %i1 : index
              %v0 = vector.extract %ai[%o] : f32 from vector<64xf32>
              %v1 = vector.extract %ai[%o1] : f32 from vector<64xf32>
              %v2 = vector.extract %ai[%o2] : f32 from vector<64xf32>
              %v3 = vector.extract %ai[%o3] : f32 from vector<64xf32>
              %w0 = arith.mulf %v0, %cq0 : f32
              %w1 = arith.mulf %v1, %cq1 : f32
              %w2 = arith.mulf %v2, %cq0 : f32
              %w3 = arith.mulf %v3, %cq1 : f32
              %u0 = vector.insert %w0, %ai[%o] : f32 into vector<64xf32>
              %u1 = vector.insert %w1, %u0[%o1] : f32 into vector<64xf32>
              %u2 = vector.insert %w2, %u1[%o2] : f32 into vector<64xf32>
              %u3 = vector.insert %w3, %u2[%o3] : f32 into vector<64xf32>
              scf.yield %u3 : vector<64xf32>
            }
            scf.yield %sc : vector<64xf32>
          } else {
            scf.yield %acc : vector<64xf32>
          }
          // P^T as the B fragment: (tokens 2t, 2t + 1) and (2t + 8, 2t + 9)
          // of query row g, bf16
          %pb0 = llvm.inline_asm asm_dialect = att "cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f" %p1, %p0 : (f32, f32) -> i32
          %pb1 = llvm.inline_asm asm_dialect = att "cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f" %p5, %p4 : (f32, f32) -> i32
          %vs = func.call @uq_sm90_scale_words(%sbp, %t2, %c272) : (!llvm.ptr<3>, i32, i32) -> vector<8xi32>
          %accv = scf.for %jp = %i0 to %i4 step %i1 iter_args(%av = %acc1) -> (vector<64xf32>) {
            %jpi = arith.index_cast %jp : index to i32
            %jo = arith.muli %jpi, %c32 : i32
            %la0 = arith.addi %lbase, %jo : i32
            %la = arith.addi %la0, %c144 : i32
            %vf = llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0,$1,$2,$3}, [$4];", "=r,=r,=r,=r,r,~{memory}" %la : (i32) -> !llvm.struct<(i32, i32, i32, i32)>
            %vf0 = llvm.extractvalue %vf[0] : !llvm.struct<(i32, i32, i32, i32)>
            %vf1 = llvm.extractvalue %vf[1] : !llvm.struct<(i32, i32, i32, i32)>
            %vf2 = llvm.extractvalue %vf[2] : !llvm.struct<(i32, i32, i32, i32)>
            %vf3 = llvm.extractvalue %vf[3] : !llvm.struct<(i32, i32, i32, i32)>
            %av2 = scf.for %jj = %i0 to %i2 step %i1 iter_args(%aa = %av) -> (vector<64xf32>) {
              %j2 = arith.muli %jp, %i2 : index
              %j = arith.addi %j2, %jj : index
              %ji = arith.index_cast %j : index to i32
              %isodd = arith.cmpi eq, %jj, %i1 : index
              %rlo = arith.select %isodd, %vf2, %vf0 : i32
              %rhi = arith.select %isodd, %vf3, %vf1 : i32
              %sv:2 = func.call @uq_sm90_v_scales(%vs, %ji) : (vector<8xi32>, i32) -> (i32, i32)
              %aout = scf.for %ip = %i0 to %i2 step %i1 iter_args(%ai = %aa) -> (vector<64xf32>) {
                %ipi = arith.index_cast %ip : index to i32
                %n0 = arith.shli %ipi, %c1 : i32
                %n1 = arith.addi %n0, %c1 : i32
                %e0 = func.call @uq_sm90_fp4_bf16x2(%rlo, %n0) : (i32, i32) -> i32
                %e1 = func.call @uq_sm90_fp4_bf16x2(%rlo, %n1) : (i32, i32) -> i32
                %e2 = func.call @uq_sm90_fp4_bf16x2(%rhi, %n0) : (i32, i32) -> i32
                %e3 = func.call @uq_sm90_fp4_bf16x2(%rhi, %n1) : (i32, i32) -> i32
                %a0 = llvm.inline_asm asm_dialect = att "mul.rn.bf16x2 $0, $1, $2;", "=r,r,r" %e0, %sv#0 : (i32, i32) -> i32
                %a1 = llvm.inline_asm asm_dialect = att "mul.rn.bf16x2 $0, $1, $2;", "=r,r,r" %e1, %sv#0 : (i32, i32) -> i32
                %a2 = llvm.inline_asm asm_dialect = att "mul.rn.bf16x2 $0, $1, $2;", "=r,r,r" %e2, %sv#1 : (i32, i32) -> i32
                %a3 = llvm.inline_asm asm_dialect = att "mul.rn.bf16x2 $0, $1, $2;", "=r,r,r" %e3, %sv#1 : (i32, i32) -> i32
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
                %mm = llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f" %a0, %a1, %a2, %a3, %pb0, %pb1, %c0v, %c1v, %c2v, %c3v : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
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
          scf.yield %mng, %lg_new, %accv : f32, f32, vector<64xf32>
        }
        llvm.inline_asm has_side_effects asm_dialect = att "cp.async.wait_group 0;", "~{memory}" : () -> ()
        %lq1, %vq1 = gpu.shuffle xor %fin#1, %c1, %c32 : f32
        %lq2 = arith.addf %fin#1, %lq1 : f32
        %lq3, %vq3 = gpu.shuffle xor %lq2, %c2, %c32 : f32
        %l_g_tot = arith.addf %lq2, %lq3 : f32
        gpu.barrier
        // acc of m-tile mt = 2j + ip: head dims 32j + 4g + 2ip (+1 for c2,
        // c3), query rows 2t (c0, c2) and 2t + 1 (c1, c3); [8][256] per warp.
        %wacc = arith.muli %warp, %c2048 : i32
        %q0r = arith.muli %t2, %c256 : i32
        %q1r = arith.addi %q0r, %c256 : i32
        %g4 = arith.muli %g, %c4 : i32
        scf.for %mt = %i0 to %i16 step %i1 {
          %mti = arith.index_cast %mt : index to i32
          %j = arith.shrui %mti, %c1 : i32
          %ip = arith.andi %mti, %c1 : i32
          %dj = arith.muli %j, %c32 : i32
          %dip = arith.shli %ip, %c1 : i32
          %dd0 = arith.addi %dj, %g4 : i32
          %dd = arith.addi %dd0, %dip : i32
          %dd1 = arith.addi %dd, %c1 : i32
          %e0a = arith.addi %q0r, %dd : i32
          %e1a = arith.addi %q1r, %dd : i32
          %e2a = arith.addi %q0r, %dd1 : i32
          %e3a = arith.addi %q1r, %dd1 : i32
          %e0 = arith.addi %wacc, %e0a : i32
          %e1 = arith.addi %wacc, %e1a : i32
          %e2 = arith.addi %wacc, %e2a : i32
          %e3 = arith.addi %wacc, %e3a : i32
          %o = arith.muli %mt, %i4 : index
          %o1 = arith.addi %o, %i1 : index
          %o2 = arith.addi %o, %i2 : index
          %o3 = arith.addi %o2, %i1 : index
          %v0 = vector.extract %fin#2[%o] : f32 from vector<64xf32>
          %v1 = vector.extract %fin#2[%o1] : f32 from vector<64xf32>
          %v2 = vector.extract %fin#2[%o2] : f32 from vector<64xf32>
          %v3 = vector.extract %fin#2[%o3] : f32 from vector<64xf32>
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
          %mgi = arith.addi %mga, %mbase : i32
          %lgi = arith.addi %mgi, %c64 : i32
          %pmg = llvm.getelementptr %smem[%mgi] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %plg = llvm.getelementptr %smem[%lgi] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %fin#0, %pmg {alignment = 4 : i64} : f32, !llvm.ptr<3>
          llvm.store %l_g_tot, %plg {alignment = 4 : i64} : f32, !llvm.ptr<3>
        }
      } else {
        %wstage0 = arith.muli %warp, %c19456 : i32
        %wbase = arith.addi %smem_i, %wstage0 : i32
        // Prologue: tiles 0, 1, 2 (one commit group each, empty or not).
        scf.for %s = %i0 to %i3 step %i1 {
          %si = arith.index_cast %s : index to i32
          %have = arith.cmpi slt, %si, %nw : i32
          scf.if %have {
            %k4 = arith.muli %si, %c4 : i32
            %k = arith.addi %warp, %k4 : i32
            %tb = func.call @uq_sm90_tile_base(%k, %part, %num_partitions, %win_base) : (i32, i32, i32, i32) -> i32
            %so = arith.muli %si, %c4864 : i32
            %stage = arith.addi %wbase, %so : i32
            func.call @uq_sm90_issue_tile(%stage, %tb, %lane, %win_start, %seq_len, %bs_shift, %bs_mask, %block_tables, %bt_row, %kv_cache, %blk_bytes, %pos_stride, %head_off, %unit8) : (i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<1>, i32, !llvm.ptr<1>, i64, i32, i32, i1) -> ()
          }
          llvm.inline_asm has_side_effects asm_dialect = att "cp.async.commit_group;", "~{memory}" : () -> ()
        }
        %fin:5 = scf.for %it = %i0 to %nw_ix step %i1 iter_args(%m_g = %ninf, %m_g8 = %ninf, %l_g = %zero_f, %l_g8 = %zero_f, %acc = %zero128) -> (f32, f32, f32, f32, vector<128xf32>) {
          %iti = arith.index_cast %it : index to i32
          // next copy: tile i + 3 into stage (i + 3) & 3
          %ni = arith.addi %iti, %c3 : i32
          %have = arith.cmpi slt, %ni, %nw : i32
          scf.if %have {
            %k4 = arith.muli %ni, %c4 : i32
            %k = arith.addi %warp, %k4 : i32
            %tb = func.call @uq_sm90_tile_base(%k, %part, %num_partitions, %win_base) : (i32, i32, i32, i32) -> i32
            %ns = arith.andi %ni, %c3 : i32
            %so = arith.muli %ns, %c4864 : i32
            %stage = arith.addi %wbase, %so : i32
            func.call @uq_sm90_issue_tile(%stage, %tb, %lane, %win_start, %seq_len, %bs_shift, %bs_mask, %block_tables, %bt_row, %kv_cache, %blk_bytes, %pos_stride, %head_off, %unit8) : (i32, i32, i32, i32, i32, i32, i32, !llvm.ptr<1>, i32, !llvm.ptr<1>, i64, i32, i32, i1) -> ()
          }
          llvm.inline_asm has_side_effects asm_dialect = att "cp.async.commit_group;", "~{memory}" : () -> ()
          llvm.inline_asm has_side_effects asm_dialect = att "cp.async.wait_group 3;", "~{memory}" : () -> ()
          llvm.inline_asm has_side_effects asm_dialect = att "bar.warp.sync 0xffffffff;", "~{memory}" : () -> ()
          %cs = arith.andi %iti, %c3 : i32
          %cso = arith.muli %cs, %c4864 : i32
          %sb = arith.addi %wbase, %cso : i32
          %sbp_off = arith.subi %sb, %smem_i : i32
          %sbp = llvm.getelementptr %smem[%sbp_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %k4c = arith.muli %iti, %c4 : i32
          %kc = arith.addi %warp, %k4c : i32
          %tb = func.call @uq_sm90_tile_base(%kc, %part, %num_partitions, %win_base) : (i32, i32, i32, i32) -> i32
          %lbase = arith.addi %sb, %lrow_off : i32

          %ks = func.call @uq_sm90_scale_words(%sbp, %t2, %c128) : (!llvm.ptr<3>, i32, i32) -> vector<8xi32>
          %S = func.call @uq_sm90_qk(%lbase, %qaddr, %ks) : (i32, i32, vector<8xi32>) -> vector<8xf32>
          %x8 = func.call @uq_sm90_mask(%S, %tb, %t2, %win_start, %seq_len, %mult) : (vector<8xf32>, i32, i32, i32, i32, f32) -> vector<8xf32>
          %x0 = vector.extract %x8[0] : f32 from vector<8xf32>
          %x1 = vector.extract %x8[1] : f32 from vector<8xf32>
          %x2 = vector.extract %x8[2] : f32 from vector<8xf32>
          %x3 = vector.extract %x8[3] : f32 from vector<8xf32>
          %x4 = vector.extract %x8[4] : f32 from vector<8xf32>
          %x5 = vector.extract %x8[5] : f32 from vector<8xf32>
          %x6 = vector.extract %x8[6] : f32 from vector<8xf32>
          %x7 = vector.extract %x8[7] : f32 from vector<8xf32>
          %mg0 = arith.maximumf %x0, %x1 : f32
          %mg1 = arith.maximumf %x4, %x5 : f32
          %mg2 = arith.maximumf %mg0, %mg1 : f32
          %mh0 = arith.maximumf %x2, %x3 : f32
          %mh1 = arith.maximumf %x6, %x7 : f32
          %mh2 = arith.maximumf %mh0, %mh1 : f32
          %sg1, %vg1 = gpu.shuffle xor %mg2, %c1, %c32 : f32
          %mg3 = arith.maximumf %mg2, %sg1 : f32
          %sg2, %vg2 = gpu.shuffle xor %mg3, %c2, %c32 : f32
          %mg4 = arith.maximumf %mg3, %sg2 : f32
          %sh1, %vh1 = gpu.shuffle xor %mh2, %c1, %c32 : f32
          %mh3 = arith.maximumf %mh2, %sh1 : f32
          %sh2, %vh2 = gpu.shuffle xor %mh3, %c2, %c32 : f32
          %mh4 = arith.maximumf %mh3, %sh2 : f32
          %mng = arith.maximumf %m_g, %mg4 : f32
          %mnh = arith.maximumf %m_g8, %mh4 : f32
          %emptyg = arith.cmpf oeq, %mng, %ninf : f32
          %emptyh = arith.cmpf oeq, %mnh, %ninf : f32
          %dg = arith.subf %m_g, %mng : f32
          %dh = arith.subf %m_g8, %mnh : f32
          %eg = math.exp2 %dg : f32
          %eh = math.exp2 %dh : f32
          %corr_g = arith.select %emptyg, %one_f, %eg : f32
          %corr_h = arith.select %emptyh, %one_f, %eh : f32
          %bg = arith.select %emptyg, %zero_f, %mng : f32
          %bh = arith.select %emptyh, %zero_f, %mnh : f32
          %bv = vector.from_elements %bg, %bg, %bh, %bh, %bg, %bg, %bh, %bh : vector<8xf32>
          %pv = scf.for %e = %i0 to %i8 step %i1 iter_args(%pp = %x8) -> (vector<8xf32>) {
            %xe = vector.extract %pp[%e] : f32 from vector<8xf32>
            %be = vector.extract %bv[%e] : f32 from vector<8xf32>
            %de = arith.subf %xe, %be : f32
            %pe = math.exp2 %de : f32
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
          %lg_new = math.fma %l_g, %corr_g, %sg_2 : f32
          %lh_new = math.fma %l_g8, %corr_h, %sh_2 : f32
          // rescale the accumulators only when some row's max moved
          %ng = arith.cmpf une, %corr_g, %one_f : f32
          %nh = arith.cmpf une, %corr_h, %one_f : f32
          %nn = arith.ori %ng, %nh : i1
          %nni = arith.extui %nn : i1 to i32
          %any = llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.u32 p, $1, 0; vote.sync.any.pred p, p, 0xffffffff; selp.u32 $0, 1, 0, p; }", "=r,r" %nni : (i32) -> i32
          %anyb = arith.cmpi ne, %any, %c0 : i32
          %acc1 = scf.if %anyb -> (vector<128xf32>) {
            %sc = scf.for %nt = %i0 to %i32 step %i1 iter_args(%ai = %acc) -> (vector<128xf32>) {
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
            scf.yield %sc : vector<128xf32>
          } else {
            scf.yield %acc : vector<128xf32>
          }
          // P as the bf16 A fragments of m16n8k16 (rows g / g + 8, tokens 2t,
          // 2t + 1 then 2t + 8, 2t + 9): the QK C layout reused in registers.
          %pa0 = llvm.inline_asm asm_dialect = att "cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f" %p1, %p0 : (f32, f32) -> i32
          %pa1 = llvm.inline_asm asm_dialect = att "cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f" %p3, %p2 : (f32, f32) -> i32
          %pa2 = llvm.inline_asm asm_dialect = att "cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f" %p5, %p4 : (f32, f32) -> i32
          %pa3 = llvm.inline_asm asm_dialect = att "cvt.rn.bf16x2.f32 $0, $1, $2;", "=r,f,f" %p7v, %p6 : (f32, f32) -> i32
          // V scales of tokens 2t, 2t + 1, 2t + 8, 2t + 9 (8 bytes each)
          %vs = func.call @uq_sm90_scale_words(%sbp, %t2, %c272) : (!llvm.ptr<3>, i32, i32) -> vector<8xi32>
          // ---- O += P V: per group j, P scaled by the group's V scales, 4
          // n-tiles of m16n8k16 bf16.
          %accv = scf.for %jp = %i0 to %i4 step %i1 iter_args(%av = %acc1) -> (vector<128xf32>) {
            %jpi = arith.index_cast %jp : index to i32
            %jo = arith.muli %jpi, %c32 : i32
            %la0 = arith.addi %lbase, %jo : i32
            %la = arith.addi %la0, %c144 : i32
            %vf = llvm.inline_asm has_side_effects asm_dialect = att "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0,$1,$2,$3}, [$4];", "=r,=r,=r,=r,r,~{memory}" %la : (i32) -> !llvm.struct<(i32, i32, i32, i32)>
            %vf0 = llvm.extractvalue %vf[0] : !llvm.struct<(i32, i32, i32, i32)>
            %vf1 = llvm.extractvalue %vf[1] : !llvm.struct<(i32, i32, i32, i32)>
            %vf2 = llvm.extractvalue %vf[2] : !llvm.struct<(i32, i32, i32, i32)>
            %vf3 = llvm.extractvalue %vf[3] : !llvm.struct<(i32, i32, i32, i32)>
            %av2 = scf.for %jj = %i0 to %i2 step %i1 iter_args(%aa = %av) -> (vector<128xf32>) {
              %j2 = arith.muli %jp, %i2 : index
              %j = arith.addi %j2, %jj : index
              %ji = arith.index_cast %j : index to i32
              %isodd = arith.cmpi eq, %jj, %i1 : index
              %rlo = arith.select %isodd, %vf2, %vf0 : i32
              %rhi = arith.select %isodd, %vf3, %vf1 : i32
              %sv:2 = func.call @uq_sm90_v_scales(%vs, %ji) : (vector<8xi32>, i32) -> (i32, i32)
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
          scf.yield %mng, %mnh, %lg_new, %lh_new, %accv : f32, f32, f32, f32, vector<128xf32>
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
        %wacc = arith.muli %warp, %c4096 : i32
        scf.for %nt = %i0 to %i32 step %i1 {
          %nti = arith.index_cast %nt : index to i32
          %j = arith.shrui %nti, %c2 : i32
          %i = arith.andi %nti, %c3 : i32
          %d0a = arith.muli %j, %c32 : i32
          %d0b = arith.muli %t, %c8 : i32
          %d0c = arith.addi %d0a, %d0b : i32
          %d0 = arith.addi %d0c, %i : i32
          %d1 = arith.addi %d0, %c4 : i32
          %rg = arith.muli %g, %c256 : i32
          %rh = arith.muli %g8, %c256 : i32
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
          %mgi = arith.addi %mga, %c16384 : i32
          %mhi = arith.addi %mha, %c16384 : i32
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
      // ---- the partition's partials: bf16(O / L), max (natural units), L.
      %hk_p0 = arith.muli %seq, %num_kv_heads : i32
      %hk_p1 = arith.addi %hk_p0, %kvh : i32
      %hk_p2 = arith.muli %hk_p1, %num_partitions : i32
      %prow = arith.addi %hk_p2, %part : i32
      %prow_q = arith.muli %prow, %qgi : i32
      scf.for %ii = %i0 to %i32 step %i1 {
        %iii = arith.index_cast %ii : index to i32
        %x0 = arith.muli %iii, %c128 : i32
        %e = arith.addi %tid, %x0 : i32
        %r = arith.shrui %e, %c8 : i32
        %d = arith.andi %e, %c255 : i32
        %in = arith.cmpi ult, %r, %qgi : i32
        scf.if %in {
          %M = scf.for %w = %i0 to %i4 step %i1 iter_args(%mm = %ninf) -> (f32) {
            %wi = arith.index_cast %w : index to i32
            %wo = arith.muli %wi, %c16 : i32
            %a0 = arith.addi %wo, %r : i32
            %a = arith.addi %a0, %mbase : i32
            %pm = llvm.getelementptr %smem[%a] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
            %mv = llvm.load %pm {alignment = 4 : i64} : !llvm.ptr<3> -> f32
            %mx = arith.maximumf %mm, %mv : f32
            scf.yield %mx : f32
          }
          %empty = arith.cmpf oeq, %M, %ninf : f32
          %Mb = arith.select %empty, %zero_f, %M : f32
          %sums:2 = scf.for %w = %i0 to %i4 step %i1 iter_args(%num = %zero_f, %den = %zero_f) -> (f32, f32) {
            %wi = arith.index_cast %w : index to i32
            %wo = arith.muli %wi, %c16 : i32
            %a0 = arith.addi %wo, %r : i32
            %a = arith.addi %a0, %mbase : i32
            %al = arith.addi %a, %c64 : i32
            %pm = llvm.getelementptr %smem[%a] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
            %pl = llvm.getelementptr %smem[%al] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
            %mv = llvm.load %pm {alignment = 4 : i64} : !llvm.ptr<3> -> f32
            %lv = llvm.load %pl {alignment = 4 : i64} : !llvm.ptr<3> -> f32
            %wa = arith.muli %wi, %accw : i32
            %ra = arith.muli %r, %c256 : i32
            %oa0 = arith.addi %wa, %ra : i32
            %oa = arith.addi %oa0, %d : i32
            %po = llvm.getelementptr %smem[%oa] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
            %ov = llvm.load %po {alignment = 4 : i64} : !llvm.ptr<3> -> f32
            %dm = arith.subf %mv, %Mb : f32
            %wt = math.exp2 %dm : f32
            %nacc1 = math.fma %wt, %ov, %num : f32
            %d1 = math.fma %wt, %lv, %den : f32
            scf.yield %nacc1, %d1 : f32, f32
          }
          %pos = arith.cmpf ogt, %sums#1, %zero_f : f32
          %den1 = arith.select %pos, %sums#1, %one_f : f32
          %inv = arith.divf %one_f, %den1 : f32
          %o = arith.mulf %sums#0, %inv : f32
          %ob = arith.truncf %o : f32 to bf16
          %obi = arith.bitcast %ob : bf16 to i16
          %orow = arith.addi %prow_q, %r : i32
          %orow64 = arith.extui %orow : i32 to i64
          %c256_64 = arith.constant 256 : i64
          %oe0 = arith.muli %orow64, %c256_64 : i64
          %d64 = arith.extui %d : i32 to i64
          %oe = arith.addi %oe0, %d64 : i64
          %op = llvm.getelementptr %segm_out[%oe] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
          llvm.store %obi, %op {alignment = 2 : i64} : i16, !llvm.ptr<1>
          %d0 = arith.cmpi eq, %d, %c0 : i32
          scf.if %d0 {
            %mnat = arith.mulf %M, %ln2 : f32
            %pmx = llvm.getelementptr %segm_max[%orow64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            %psm = llvm.getelementptr %segm_sum[%orow64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
            llvm.store %mnat, %pmx {alignment = 4 : i64} : f32, !llvm.ptr<1>
            llvm.store %sums#1, %psm {alignment = 4 : i64} : f32, !llvm.ptr<1>
          }
        }
      }
      gpu.return
    }
  }

  // Reduce for sm_90a: grid (B, Hq), 256 threads (thread = head dim). Same
  // arguments and arithmetic as the gfx950 reduce: M = max(max_p m_p, sink),
  // w_p = e^(m_p - M) l_p over partitions with l_p > 0, the sink's
  // e^(sink - M) in the denominator only, 0 when the denominator is 0.
  // Built for latency: the partitions' max and weights are computed by the
  // CTA's threads in parallel (block reductions through shared memory), and
  // each thread's sum over partitions keeps 8 loads in flight.
  gpu.module @uq_reduce_sm90 [#nvvm.target<chip = "sm_90a", features = "+ptx84", O = 3>] {
    llvm.mlir.global internal @uq_reduce_sm90_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1056 x i8>
    // The block-wide max (%is_max) or sum of %v over the 256 threads.
    func.func private @uq_sm90_block_reduce(%v: f32, %tid: i32, %is_max: i1) -> f32 {
      %c5 = arith.constant 5 : i32
      %c31 = arith.constant 31 : i32
      %c32 = arith.constant 32 : i32
      %c0 = arith.constant 0 : i32
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i5 = arith.constant 5 : index
      %i8 = arith.constant 8 : index
      %c1 = arith.constant 1 : i32
      %base = llvm.mlir.addressof @uq_reduce_sm90_smem : !llvm.ptr<3>
      %red = llvm.getelementptr %base[256] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
      %w = scf.for %s = %i0 to %i5 step %i1 iter_args(%x = %v) -> (f32) {
        %si = arith.index_cast %s : index to i32
        %off = arith.shli %c1, %si : i32
        %o, %ok = gpu.shuffle xor %x, %off, %c32 : f32
        %mx = arith.maximumf %x, %o : f32
        %sm = arith.addf %x, %o : f32
        %y = arith.select %is_max, %mx, %sm : f32
        scf.yield %y : f32
      }
      %warp = arith.shrui %tid, %c5 : i32
      %lane = arith.andi %tid, %c31 : i32
      %first = arith.cmpi eq, %lane, %c0 : i32
      scf.if %first {
        %p = llvm.getelementptr %red[%warp] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        llvm.store %w, %p {alignment = 4 : i64} : f32, !llvm.ptr<3>
      }
      gpu.barrier
      %p0 = llvm.getelementptr %red[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
      %r0 = llvm.load %p0 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
      %r = scf.for %k = %i1 to %i8 step %i1 iter_args(%x = %r0) -> (f32) {
        %ki = arith.index_cast %k : index to i32
        %p = llvm.getelementptr %red[%ki] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        %y = llvm.load %p {alignment = 4 : i64} : !llvm.ptr<3> -> f32
        %mx = arith.maximumf %x, %y : f32
        %sm = arith.addf %x, %y : f32
        %z = arith.select %is_max, %mx, %sm : f32
        scf.yield %z : f32
      }
      gpu.barrier
      return %r : f32
    }
    gpu.func @uq_reduce(
        %output: !llvm.ptr<1> {llvm.noalias, llvm.writeonly},
        %segm_out: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %segm_max: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %segm_sum: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %num_kv_heads: i32, %qg: i32, %num_partitions: i32,
        %out_stride_seq: i32, %out_stride_head: i32,
        %sinks: !llvm.ptr<1> {llvm.noalias, llvm.readonly}) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c8 = arith.constant 8 : i32
      %c16 = arith.constant 16 : i32
      %c256 = arith.constant 256 : i32
      %c256_64 = arith.constant 256 : i64
      %ninf = arith.constant 0xFF800000 : f32
      %zero_f = arith.constant 0.0 : f32
      %one_f = arith.constant 1.0 : f32
      %log2e = arith.constant 1.44269504088896340736 : f32
      %true = arith.constant true
      %false = arith.constant false
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %i8 = arith.constant 8 : index
      %wbuf = llvm.mlir.addressof @uq_reduce_sm90_smem : !llvm.ptr<3>
      %d_ix = gpu.thread_id x
      %d = arith.index_cast %d_ix : index to i32
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
        %s = llvm.load %sp {alignment = 4 : i64} : !llvm.ptr<1> -> f32
        scf.yield %s : f32
      } else {
        scf.yield %ninf : f32
      }
      %np = arith.index_cast %num_partitions : i32 to index
      %i256 = arith.constant 256 : index
      %d_i = arith.index_cast %d : i32 to index
      // M: each thread's partitions p = d, d + 256, ..., then the block max.
      %mloc = scf.for %p = %d_i to %np step %i256 iter_args(%m = %ninf) -> (f32) {
        %pi = arith.index_cast %p : index to i32
        %ro = arith.addi %row0, %pi : i32
        %ri0 = arith.muli %ro, %qg : i32
        %ri = arith.addi %ri0, %r : i32
        %mp = llvm.getelementptr %segm_max[%ri] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
        %mv = llvm.load %mp {alignment = 4 : i64} : !llvm.ptr<1> -> f32
        %mx = arith.maximumf %m, %mv : f32
        scf.yield %mx : f32
      }
      %mblk = func.call @uq_sm90_block_reduce(%mloc, %d, %true) : (f32, i32, i1) -> f32
      %M0 = arith.maximumf %mblk, %sink : f32
      %empty = arith.cmpf oeq, %M0, %ninf : f32
      %M = arith.select %empty, %zero_f, %M0 : f32
      %d64 = arith.extui %d : i32 to i64
      // Chunks of 256 partitions: thread d computes w for partition c + d into
      // shared memory, then every thread sums its head dim over the chunk.
      %acc:2 = scf.for %c = %i0 to %np step %i256 iter_args(%num = %zero_f, %den = %zero_f) -> (f32, f32) {
        %ci = arith.index_cast %c : index to i32
        %p = arith.addi %ci, %d : i32
        %inr = arith.cmpi slt, %p, %num_partitions : i32
        %ps = arith.select %inr, %p, %ci : i32
        %ro = arith.addi %row0, %ps : i32
        %ri0 = arith.muli %ro, %qg : i32
        %ri = arith.addi %ri0, %r : i32
        %lp = llvm.getelementptr %segm_sum[%ri] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
        %mp = llvm.getelementptr %segm_max[%ri] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
        %lv = llvm.load %lp {alignment = 4 : i64} : !llvm.ptr<1> -> f32
        %mv = llvm.load %mp {alignment = 4 : i64} : !llvm.ptr<1> -> f32
        %live0 = arith.cmpf ogt, %lv, %zero_f : f32
        %live = arith.andi %live0, %inr : i1
        %dm = arith.subf %mv, %M : f32
        %dm2 = arith.mulf %dm, %log2e : f32
        %e = math.exp2 %dm2 : f32
        %w0 = arith.mulf %e, %lv : f32
        %w = arith.select %live, %w0, %zero_f : f32
        %wp = llvm.getelementptr %wbuf[%d] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
        llvm.store %w, %wp {alignment = 4 : i64} : f32, !llvm.ptr<3>
        %den1 = arith.addf %den, %w : f32
        gpu.barrier
        %rest = arith.subi %num_partitions, %ci : i32
        %n = arith.minsi %rest, %c256 : i32
        %nx = arith.index_cast %n : i32 to index
        %num1 = scf.for %q = %i0 to %nx step %i8 iter_args(%nm = %num) -> (f32) {
          %qi = arith.index_cast %q : index to i32
          %nm8 = scf.for %u = %i0 to %i8 step %i1 iter_args(%a = %nm) -> (f32) {
            %ui = arith.index_cast %u : index to i32
            %k = arith.addi %qi, %ui : i32
            %ink = arith.cmpi slt, %k, %n : i32
            %ks = arith.select %ink, %k, %qi : i32
            %wkp = llvm.getelementptr %wbuf[%ks] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
            %wk0 = llvm.load %wkp {alignment = 4 : i64} : !llvm.ptr<3> -> f32
            %wk = arith.select %ink, %wk0, %zero_f : f32
            %pk = arith.addi %ci, %ks : i32
            %rk = arith.addi %row0, %pk : i32
            %rq0 = arith.muli %rk, %qg : i32
            %rq = arith.addi %rq0, %r : i32
            %rq64 = arith.extui %rq : i32 to i64
            %oe0 = arith.muli %rq64, %c256_64 : i64
            %oe = arith.addi %oe0, %d64 : i64
            %op = llvm.getelementptr %segm_out[%oe] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
            %ob = llvm.load %op {alignment = 2 : i64} : !llvm.ptr<1> -> i16
            %ob32 = arith.extui %ob : i16 to i32
            %obs = arith.shli %ob32, %c16 : i32
            %ov = arith.bitcast %obs : i32 to f32
            // a partition with w = 0 adds nothing (and its bf16 is never NaN-poisoning)
            %t = arith.mulf %wk, %ov : f32
            %live_k = arith.cmpf one, %wk, %zero_f : f32
            %tz = arith.select %live_k, %t, %zero_f : f32
            %a1 = arith.addf %a, %tz : f32
            scf.yield %a1 : f32
          }
          scf.yield %nm8 : f32
        }
        gpu.barrier
        scf.yield %num1, %den1 : f32, f32
      }
      %dsum = func.call @uq_sm90_block_reduce(%acc#1, %d, %false) : (f32, i32, i1) -> f32
      %ds = arith.subf %sink, %M : f32
      %ds2 = arith.mulf %ds, %log2e : f32
      %es = math.exp2 %ds2 : f32
      %ws = arith.select %has_sink, %es, %zero_f : f32
      %den = arith.addf %dsum, %ws : f32
      %pos = arith.cmpf ogt, %den, %zero_f : f32
      %den1 = arith.select %pos, %den, %one_f : f32
      %q = arith.divf %acc#0, %den1 : f32
      %o = arith.select %pos, %q, %zero_f : f32
      %ob = arith.truncf %o : f32 to bf16
      %obi = arith.bitcast %ob : bf16 to i16
      %seq64 = arith.extui %seq : i32 to i64
      %hq64 = arith.extui %hq : i32 to i64
      %oss = arith.extui %out_stride_seq : i32 to i64
      %osh = arith.extui %out_stride_head : i32 to i64
      %a0 = arith.muli %seq64, %oss : i64
      %a1 = arith.muli %hq64, %osh : i64
      %a2 = arith.addi %a0, %a1 : i64
      %a3 = arith.addi %a2, %d64 : i64
      %outp = llvm.getelementptr %output[%a3] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
      llvm.store %obi, %outp {alignment = 2 : i64} : i16, !llvm.ptr<1>
      gpu.return
    }
  }
}
