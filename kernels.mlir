// UltraQuant decode (head dim 256, FP4 K/V with UE8M0 group scales) and the
// partition reduce, for gfx950. See DESIGN.md "Kernel facts from the seeds".
//
// QG (query heads per KV head: 6, 8 or 16) is the only compile-time value; it
// is written once, on the line marked UQ-PARAM, and everything else is derived
// from it. Loops over register arrays are written out unrolled here.
//
// Pipeline (mlir-opt-22):
//   builtin.module(canonicalize, cse, convert-scf-to-cf,
//     gpu.module(convert-amdgpu-to-rocdl{chipset=gfx950}),
//     gpu.module(convert-gpu-to-rocdl{chipset=gfx950 use-bare-ptr-memref-call-conv=true}),
//     gpu-module-to-binary{format=bin toolkit=DIR})
// with DIR/llvm/bin/ld.lld -> /usr/lib/llvm-22/bin/ld.lld. The targets carry
// O = 3 themselves (no rocdl-attach-target: it would add a second object).
//
// Lane maps (64 lanes, l = lane, j = l >> 4):
//   K loads     token l & 15, groups j and 4 + j (16 B each) = the scaled MFMA's
//               FP4 A operand for issues 0 and 1 directly (no LDS round trip);
//               scale word j & 1 (4 B), the other word comes from lane l ^ 16.
//   V loads     token l >> 2, chunk c = l & 3 (groups 2c, 2c + 1), scale word c >> 1.
//   MFMA out    lane l holds C[4j + i][l & 15], i = 0..3 (token or head dim, query row).
module attributes {gpu.container_module} {
    gpu.module @uq_decode [#rocdl.target<chip = "gfx950", O = 3>] {
        // One LDS region, reused: first the rotated Q rows (16 x 512 B: rows >= QG
        // are written with duplicates / never read into the operand), then the V
        // tile as bf16 rows of 528 B (16 x 528 = 8,448 B). K never goes to LDS.
        llvm.mlir.global internal @uq_decode_lds() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<8448 x i8>
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
            %max_blocks_per_seq: i32, %softmax_scale: f32) kernel
            attributes {known_block_size = array<i32: 64, 1, 1>} {
            %qg = arith.constant 8 : index  // UQ-PARAM qg
            %qgi = arith.index_cast %qg : index to i32
      %zero8i = arith.constant dense<0> : vector<8xi32>
      %lane_tok_base = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %ninf = arith.constant 0xFF800000 : f32
      %zero_f = arith.constant 0.0 : f32
      %one_f = arith.constant 1.0 : f32
      %log2e = arith.constant 1.44269504088896340736 : f32
      %c7_i32 = arith.constant 7 : i32
      %c3_i32 = arith.constant 3 : i32
      %c2_i32 = arith.constant 2 : i32
      %c6_i32 = arith.constant 6 : i32
      %c4_i32 = arith.constant 4 : i32
      %c5_i32 = arith.constant 5 : i32
      %c8_i32 = arith.constant 8 : i32
      %c32_i32 = arith.constant 32 : i32
      %m_one_f = arith.constant -1.0 : f32
      %inv_sqrt_d = arith.constant 0.0625 : f32
      %c512_i32 = arith.constant 512 : i32
      %c40_i32 = arith.constant 40 : i32
      %c15_i32 = arith.constant 15 : i32
      %c64_i32 = arith.constant 64 : i32
      %c16_i32 = arith.constant 16 : i32
      %c48_i32 = arith.constant 48 : i32
      %c256_i32 = arith.constant 256 : i32
      %c255_i32 = arith.constant 255 : i32
      %c128_i32 = arith.constant 128 : i32
      %c136_i32 = arith.constant 136 : i32
      %c264_i32 = arith.constant 264 : i32
      %c127_i32 = arith.constant 127 : i32
      %c528_i32 = arith.constant 528 : i32
      %c23_i32 = arith.constant 23 : i32
      %c80_i32 = arith.constant 80 : i32
      %c96_i32 = arith.constant 96 : i32
      %c112_i32 = arith.constant 112 : i32
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
      %c256_i64 = arith.constant 256 : i64
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
            // ---- Q rotation: lane L owns row L>>3 (+8 per pass) and head dims (L&7)*32..+31.
            // Butterfly order (host reference must match): strides 1,2,4,8,16 in registers,
            // then 32,64,128 across lanes (ds_swizzle xor 1,2,4); pair (a,b) -> (a+b, a-b).
            %v1 = arith.andi %lane, %c7_i32 : i32
            %v2 = arith.shrui %lane, %c3_i32 : i32
            %v3 = arith.andi %v1, %c2_i32 : i32
            %v4 = arith.shli %v3, %c3_i32 : i32
            %v5 = arith.andi %v1, %c1_i32 : i32
            %v6 = arith.shli %v5, %c6_i32 : i32
            %v7 = arith.andi %v1, %c4_i32 : i32
            %v8 = arith.shli %v7, %c5_i32 : i32
            %v9 = arith.ori %v4, %v6 : i32
            %v10 = arith.ori %v9, %v8 : i32
            %c0_ix = arith.constant 0 : index
            %c1_ix = arith.constant 1 : index
            %c8_ix = arith.constant 8 : index
            %c7_ix = arith.constant 7 : index
            %qg7 = arith.addi %qg, %c7_ix : index
            %npass = arith.divui %qg7, %c8_ix : index
            %v11 = arith.subi %qgi, %c1_i32 : i32
            %v12 = arith.muli %kvh, %qgi : i32
            %v13 = arith.muli %seq, %q_stride_seq : i32
            scf.for %pass = %c0_ix to %npass step %c1_ix {
                %v14 = arith.index_cast %pass : index to i32
                %v15 = arith.muli %v14, %c8_i32 : i32
                %v16 = arith.addi %v2, %v15 : i32
                %v17 = arith.minui %v16, %v11 : i32
                %v18 = arith.addi %v12, %v17 : i32
                %v19 = arith.muli %v18, %q_stride_head : i32
                %v20 = arith.addi %v13, %v19 : i32
                %v21 = arith.muli %v1, %c32_i32 : i32
                %v22 = arith.addi %v20, %v21 : i32
                %v23 = arith.extui %v22 : i32 to i64
                %v24 = llvm.getelementptr %query[%v23] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v25 = llvm.load %v24 {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
                %v26 = arith.extf %v25 : vector<8xbf16> to vector<8xf32>
                %v27 = llvm.getelementptr %query[%v23] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v28 = llvm.getelementptr %v27[8] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                %v29 = llvm.load %v28 {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
                %v30 = arith.extf %v29 : vector<8xbf16> to vector<8xf32>
                %v31 = llvm.getelementptr %query[%v23] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v32 = llvm.getelementptr %v31[16] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                %v33 = llvm.load %v32 {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
                %v34 = arith.extf %v33 : vector<8xbf16> to vector<8xf32>
                %v35 = llvm.getelementptr %query[%v23] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v36 = llvm.getelementptr %v35[24] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                %v37 = llvm.load %v36 {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
                %v38 = arith.extf %v37 : vector<8xbf16> to vector<8xf32>
                %v39 = vector.shuffle %v26, %v30 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xf32>, vector<8xf32>
                %v40 = vector.shuffle %v34, %v38 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xf32>, vector<8xf32>
                %v41 = vector.shuffle %v39, %v40 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
                %v42 = vector.shuffle %v41, %v41 [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30] : vector<32xf32>, vector<32xf32>
                %v43 = vector.shuffle %v41, %v41 [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31] : vector<32xf32>, vector<32xf32>
                %v44 = arith.addf %v42, %v43 : vector<16xf32>
                %v45 = arith.subf %v42, %v43 : vector<16xf32>
                %v46 = vector.shuffle %v44, %v45 [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
                %v47 = vector.shuffle %v46, %v46 [0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29] : vector<32xf32>, vector<32xf32>
                %v48 = vector.shuffle %v46, %v46 [2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31] : vector<32xf32>, vector<32xf32>
                %v49 = arith.addf %v47, %v48 : vector<16xf32>
                %v50 = arith.subf %v47, %v48 : vector<16xf32>
                %v51 = vector.shuffle %v49, %v50 [0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31] : vector<16xf32>, vector<16xf32>
                %v52 = vector.shuffle %v51, %v51 [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27] : vector<32xf32>, vector<32xf32>
                %v53 = vector.shuffle %v51, %v51 [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31] : vector<32xf32>, vector<32xf32>
                %v54 = arith.addf %v52, %v53 : vector<16xf32>
                %v55 = arith.subf %v52, %v53 : vector<16xf32>
                %v56 = vector.shuffle %v54, %v55 [0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23, 8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
                %v57 = vector.shuffle %v56, %v56 [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23] : vector<32xf32>, vector<32xf32>
                %v58 = vector.shuffle %v56, %v56 [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31] : vector<32xf32>, vector<32xf32>
                %v59 = arith.addf %v57, %v58 : vector<16xf32>
                %v60 = arith.subf %v57, %v58 : vector<16xf32>
                %v61 = vector.shuffle %v59, %v60 [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
                %v62 = vector.shuffle %v61, %v61 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<32xf32>, vector<32xf32>
                %v63 = vector.shuffle %v61, %v61 [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<32xf32>, vector<32xf32>
                %v64 = arith.addf %v62, %v63 : vector<16xf32>
                %v65 = arith.subf %v62, %v63 : vector<16xf32>
                %v66 = vector.shuffle %v64, %v65 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
                %v67 = amdgpu.swizzle_bitmode %v66 31 0 1 : vector<32xf32>
                %v68 = arith.andi %v1, %c1_i32 : i32
                %v69 = arith.cmpi ne, %v68, %c0_i32 : i32
                %v70 = arith.select %v69, %m_one_f, %one_f : f32
                %v71 = vector.broadcast %v70 : f32 to vector<32xf32>
                // high half of the pair: partner - mine; low half: mine + partner
                %v72 = arith.mulf %v66, %v71 : vector<32xf32>
                %v73 = arith.addf %v72, %v67 : vector<32xf32>
                %v74 = amdgpu.swizzle_bitmode %v73 31 0 2 : vector<32xf32>
                %v75 = arith.andi %v1, %c2_i32 : i32
                %v76 = arith.cmpi ne, %v75, %c0_i32 : i32
                %v77 = arith.select %v76, %m_one_f, %one_f : f32
                %v78 = vector.broadcast %v77 : f32 to vector<32xf32>
                // high half of the pair: partner - mine; low half: mine + partner
                %v79 = arith.mulf %v73, %v78 : vector<32xf32>
                %v80 = arith.addf %v79, %v74 : vector<32xf32>
                %v81 = amdgpu.swizzle_bitmode %v80 31 0 4 : vector<32xf32>
                %v82 = arith.andi %v1, %c4_i32 : i32
                %v83 = arith.cmpi ne, %v82, %c0_i32 : i32
                %v84 = arith.select %v83, %m_one_f, %one_f : f32
                %v85 = vector.broadcast %v84 : f32 to vector<32xf32>
                // high half of the pair: partner - mine; low half: mine + partner
                %v86 = arith.mulf %v80, %v85 : vector<32xf32>
                %v87 = arith.addf %v86, %v81 : vector<32xf32>
                %v88 = vector.broadcast %inv_sqrt_d : f32 to vector<32xf32>
                %v89 = arith.mulf %v87, %v88 : vector<32xf32>
                // E4M3 round trip (v_cvt_pk_fp8_f32, RNE; past +-448 per MODE.FP16_OVFL), then bf16 (exact)
                %v90 = vector.extract %v89[0] : f32 from vector<32xf32>
                %v91 = vector.extract %v89[1] : f32 from vector<32xf32>
                %v92 = rocdl.cvt.pk.fp8.f32 %v90, %v91 -> %c0_i32[false] : i32
                %v93 = rocdl.cvt.pk.f32.fp8 %v92[false] : vector<2xf32>
                %v94 = vector.extract %v89[2] : f32 from vector<32xf32>
                %v95 = vector.extract %v89[3] : f32 from vector<32xf32>
                %v96 = rocdl.cvt.pk.fp8.f32 %v94, %v95 -> %c0_i32[false] : i32
                %v97 = rocdl.cvt.pk.f32.fp8 %v96[false] : vector<2xf32>
                %v98 = vector.extract %v89[4] : f32 from vector<32xf32>
                %v99 = vector.extract %v89[5] : f32 from vector<32xf32>
                %v100 = rocdl.cvt.pk.fp8.f32 %v98, %v99 -> %c0_i32[false] : i32
                %v101 = rocdl.cvt.pk.f32.fp8 %v100[false] : vector<2xf32>
                %v102 = vector.extract %v89[6] : f32 from vector<32xf32>
                %v103 = vector.extract %v89[7] : f32 from vector<32xf32>
                %v104 = rocdl.cvt.pk.fp8.f32 %v102, %v103 -> %c0_i32[false] : i32
                %v105 = rocdl.cvt.pk.f32.fp8 %v104[false] : vector<2xf32>
                %v106 = vector.extract %v89[8] : f32 from vector<32xf32>
                %v107 = vector.extract %v89[9] : f32 from vector<32xf32>
                %v108 = rocdl.cvt.pk.fp8.f32 %v106, %v107 -> %c0_i32[false] : i32
                %v109 = rocdl.cvt.pk.f32.fp8 %v108[false] : vector<2xf32>
                %v110 = vector.extract %v89[10] : f32 from vector<32xf32>
                %v111 = vector.extract %v89[11] : f32 from vector<32xf32>
                %v112 = rocdl.cvt.pk.fp8.f32 %v110, %v111 -> %c0_i32[false] : i32
                %v113 = rocdl.cvt.pk.f32.fp8 %v112[false] : vector<2xf32>
                %v114 = vector.extract %v89[12] : f32 from vector<32xf32>
                %v115 = vector.extract %v89[13] : f32 from vector<32xf32>
                %v116 = rocdl.cvt.pk.fp8.f32 %v114, %v115 -> %c0_i32[false] : i32
                %v117 = rocdl.cvt.pk.f32.fp8 %v116[false] : vector<2xf32>
                %v118 = vector.extract %v89[14] : f32 from vector<32xf32>
                %v119 = vector.extract %v89[15] : f32 from vector<32xf32>
                %v120 = rocdl.cvt.pk.fp8.f32 %v118, %v119 -> %c0_i32[false] : i32
                %v121 = rocdl.cvt.pk.f32.fp8 %v120[false] : vector<2xf32>
                %v122 = vector.extract %v89[16] : f32 from vector<32xf32>
                %v123 = vector.extract %v89[17] : f32 from vector<32xf32>
                %v124 = rocdl.cvt.pk.fp8.f32 %v122, %v123 -> %c0_i32[false] : i32
                %v125 = rocdl.cvt.pk.f32.fp8 %v124[false] : vector<2xf32>
                %v126 = vector.extract %v89[18] : f32 from vector<32xf32>
                %v127 = vector.extract %v89[19] : f32 from vector<32xf32>
                %v128 = rocdl.cvt.pk.fp8.f32 %v126, %v127 -> %c0_i32[false] : i32
                %v129 = rocdl.cvt.pk.f32.fp8 %v128[false] : vector<2xf32>
                %v130 = vector.extract %v89[20] : f32 from vector<32xf32>
                %v131 = vector.extract %v89[21] : f32 from vector<32xf32>
                %v132 = rocdl.cvt.pk.fp8.f32 %v130, %v131 -> %c0_i32[false] : i32
                %v133 = rocdl.cvt.pk.f32.fp8 %v132[false] : vector<2xf32>
                %v134 = vector.extract %v89[22] : f32 from vector<32xf32>
                %v135 = vector.extract %v89[23] : f32 from vector<32xf32>
                %v136 = rocdl.cvt.pk.fp8.f32 %v134, %v135 -> %c0_i32[false] : i32
                %v137 = rocdl.cvt.pk.f32.fp8 %v136[false] : vector<2xf32>
                %v138 = vector.extract %v89[24] : f32 from vector<32xf32>
                %v139 = vector.extract %v89[25] : f32 from vector<32xf32>
                %v140 = rocdl.cvt.pk.fp8.f32 %v138, %v139 -> %c0_i32[false] : i32
                %v141 = rocdl.cvt.pk.f32.fp8 %v140[false] : vector<2xf32>
                %v142 = vector.extract %v89[26] : f32 from vector<32xf32>
                %v143 = vector.extract %v89[27] : f32 from vector<32xf32>
                %v144 = rocdl.cvt.pk.fp8.f32 %v142, %v143 -> %c0_i32[false] : i32
                %v145 = rocdl.cvt.pk.f32.fp8 %v144[false] : vector<2xf32>
                %v146 = vector.extract %v89[28] : f32 from vector<32xf32>
                %v147 = vector.extract %v89[29] : f32 from vector<32xf32>
                %v148 = rocdl.cvt.pk.fp8.f32 %v146, %v147 -> %c0_i32[false] : i32
                %v149 = rocdl.cvt.pk.f32.fp8 %v148[false] : vector<2xf32>
                %v150 = vector.extract %v89[30] : f32 from vector<32xf32>
                %v151 = vector.extract %v89[31] : f32 from vector<32xf32>
                %v152 = rocdl.cvt.pk.fp8.f32 %v150, %v151 -> %c0_i32[false] : i32
                %v153 = rocdl.cvt.pk.f32.fp8 %v152[false] : vector<2xf32>
                %v154 = arith.muli %v16, %c512_i32 : i32
                %v155 = vector.shuffle %v93, %v97 [0, 1, 2, 3] : vector<2xf32>, vector<2xf32>
                %v156 = vector.shuffle %v101, %v105 [0, 1, 2, 3] : vector<2xf32>, vector<2xf32>
                %v157 = vector.shuffle %v155, %v156 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf32>, vector<4xf32>
                %v158 = arith.truncf %v157 : vector<8xf32> to vector<8xbf16>
                %v159 = arith.addi %v10, %c0_i32 : i32
                %v160 = arith.shli %v159, %c1_i32 : i32
                %v161 = arith.addi %v154, %v160 : i32
                %v162 = llvm.getelementptr %lds[%v161] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                llvm.store %v158, %v162 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
                %v163 = vector.shuffle %v109, %v113 [0, 1, 2, 3] : vector<2xf32>, vector<2xf32>
                %v164 = vector.shuffle %v117, %v121 [0, 1, 2, 3] : vector<2xf32>, vector<2xf32>
                %v165 = vector.shuffle %v163, %v164 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf32>, vector<4xf32>
                %v166 = arith.truncf %v165 : vector<8xf32> to vector<8xbf16>
                %v167 = arith.addi %v10, %c8_i32 : i32
                %v168 = arith.shli %v167, %c1_i32 : i32
                %v169 = arith.addi %v154, %v168 : i32
                %v170 = llvm.getelementptr %lds[%v169] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                llvm.store %v166, %v170 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
                %v171 = vector.shuffle %v125, %v129 [0, 1, 2, 3] : vector<2xf32>, vector<2xf32>
                %v172 = vector.shuffle %v133, %v137 [0, 1, 2, 3] : vector<2xf32>, vector<2xf32>
                %v173 = vector.shuffle %v171, %v172 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf32>, vector<4xf32>
                %v174 = arith.truncf %v173 : vector<8xf32> to vector<8xbf16>
                %v175 = arith.addi %v10, %c32_i32 : i32
                %v176 = arith.shli %v175, %c1_i32 : i32
                %v177 = arith.addi %v154, %v176 : i32
                %v178 = llvm.getelementptr %lds[%v177] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                llvm.store %v174, %v178 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
                %v179 = vector.shuffle %v141, %v145 [0, 1, 2, 3] : vector<2xf32>, vector<2xf32>
                %v180 = vector.shuffle %v149, %v153 [0, 1, 2, 3] : vector<2xf32>, vector<2xf32>
                %v181 = vector.shuffle %v179, %v180 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf32>, vector<4xf32>
                %v182 = arith.truncf %v181 : vector<8xf32> to vector<8xbf16>
                %v183 = arith.addi %v10, %c40_i32 : i32
                %v184 = arith.shli %v183, %c1_i32 : i32
                %v185 = arith.addi %v154, %v184 : i32
                %v186 = llvm.getelementptr %lds[%v185] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                llvm.store %v182, %v186 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
            }
            gpu.barrier
            // ---- QK B operand: lane l = query row l&15, lane group j = l>>4, issue h:
            // the 32 permuted elements [128h + 32j, +32) of that row as E4M3 bytes.
            %v187 = arith.andi %lane, %c15_i32 : i32
            %v188 = arith.shrui %lane, %c4_i32 : i32
            %v189 = arith.cmpi ult, %v187, %qgi : i32
            %v190 = arith.shli %v188, %c2_i32 : i32
            %v191 = vector.broadcast %v190 : i32 to vector<4xi32>
            %lane_tok4 = arith.addi %v191, %lane_tok_base : vector<4xi32>
            %v192 = arith.muli %v187, %c512_i32 : i32
            %v193 = arith.muli %v188, %c64_i32 : i32
            %v194 = arith.addi %v193, %c0_i32 : i32
            %v195 = arith.addi %v192, %v194 : i32
            %v196 = arith.addi %v195, %c0_i32 : i32
            %v197 = llvm.getelementptr %lds[%v196] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %v198 = llvm.load %v197 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
            %v199 = arith.extf %v198 : vector<8xbf16> to vector<8xf32>
            %v200 = vector.extract %v199[0] : f32 from vector<8xf32>
            %v201 = vector.extract %v199[1] : f32 from vector<8xf32>
            %v202 = vector.extract %v199[2] : f32 from vector<8xf32>
            %v203 = vector.extract %v199[3] : f32 from vector<8xf32>
            %v204 = rocdl.cvt.pk.fp8.f32 %v200, %v201 -> %c0_i32[false] : i32
            %v205 = rocdl.cvt.pk.fp8.f32 %v202, %v203 -> %v204[true] : i32
            %v206 = vector.extract %v199[4] : f32 from vector<8xf32>
            %v207 = vector.extract %v199[5] : f32 from vector<8xf32>
            %v208 = vector.extract %v199[6] : f32 from vector<8xf32>
            %v209 = vector.extract %v199[7] : f32 from vector<8xf32>
            %v210 = rocdl.cvt.pk.fp8.f32 %v206, %v207 -> %c0_i32[false] : i32
            %v211 = rocdl.cvt.pk.fp8.f32 %v208, %v209 -> %v210[true] : i32
            %v212 = arith.addi %v195, %c16_i32 : i32
            %v213 = llvm.getelementptr %lds[%v212] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %v214 = llvm.load %v213 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
            %v215 = arith.extf %v214 : vector<8xbf16> to vector<8xf32>
            %v216 = vector.extract %v215[0] : f32 from vector<8xf32>
            %v217 = vector.extract %v215[1] : f32 from vector<8xf32>
            %v218 = vector.extract %v215[2] : f32 from vector<8xf32>
            %v219 = vector.extract %v215[3] : f32 from vector<8xf32>
            %v220 = rocdl.cvt.pk.fp8.f32 %v216, %v217 -> %c0_i32[false] : i32
            %v221 = rocdl.cvt.pk.fp8.f32 %v218, %v219 -> %v220[true] : i32
            %v222 = vector.extract %v215[4] : f32 from vector<8xf32>
            %v223 = vector.extract %v215[5] : f32 from vector<8xf32>
            %v224 = vector.extract %v215[6] : f32 from vector<8xf32>
            %v225 = vector.extract %v215[7] : f32 from vector<8xf32>
            %v226 = rocdl.cvt.pk.fp8.f32 %v222, %v223 -> %c0_i32[false] : i32
            %v227 = rocdl.cvt.pk.fp8.f32 %v224, %v225 -> %v226[true] : i32
            %v228 = arith.addi %v195, %c32_i32 : i32
            %v229 = llvm.getelementptr %lds[%v228] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %v230 = llvm.load %v229 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
            %v231 = arith.extf %v230 : vector<8xbf16> to vector<8xf32>
            %v232 = vector.extract %v231[0] : f32 from vector<8xf32>
            %v233 = vector.extract %v231[1] : f32 from vector<8xf32>
            %v234 = vector.extract %v231[2] : f32 from vector<8xf32>
            %v235 = vector.extract %v231[3] : f32 from vector<8xf32>
            %v236 = rocdl.cvt.pk.fp8.f32 %v232, %v233 -> %c0_i32[false] : i32
            %v237 = rocdl.cvt.pk.fp8.f32 %v234, %v235 -> %v236[true] : i32
            %v238 = vector.extract %v231[4] : f32 from vector<8xf32>
            %v239 = vector.extract %v231[5] : f32 from vector<8xf32>
            %v240 = vector.extract %v231[6] : f32 from vector<8xf32>
            %v241 = vector.extract %v231[7] : f32 from vector<8xf32>
            %v242 = rocdl.cvt.pk.fp8.f32 %v238, %v239 -> %c0_i32[false] : i32
            %v243 = rocdl.cvt.pk.fp8.f32 %v240, %v241 -> %v242[true] : i32
            %v244 = arith.addi %v195, %c48_i32 : i32
            %v245 = llvm.getelementptr %lds[%v244] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %v246 = llvm.load %v245 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
            %v247 = arith.extf %v246 : vector<8xbf16> to vector<8xf32>
            %v248 = vector.extract %v247[0] : f32 from vector<8xf32>
            %v249 = vector.extract %v247[1] : f32 from vector<8xf32>
            %v250 = vector.extract %v247[2] : f32 from vector<8xf32>
            %v251 = vector.extract %v247[3] : f32 from vector<8xf32>
            %v252 = rocdl.cvt.pk.fp8.f32 %v248, %v249 -> %c0_i32[false] : i32
            %v253 = rocdl.cvt.pk.fp8.f32 %v250, %v251 -> %v252[true] : i32
            %v254 = vector.extract %v247[4] : f32 from vector<8xf32>
            %v255 = vector.extract %v247[5] : f32 from vector<8xf32>
            %v256 = vector.extract %v247[6] : f32 from vector<8xf32>
            %v257 = vector.extract %v247[7] : f32 from vector<8xf32>
            %v258 = rocdl.cvt.pk.fp8.f32 %v254, %v255 -> %c0_i32[false] : i32
            %v259 = rocdl.cvt.pk.fp8.f32 %v256, %v257 -> %v258[true] : i32
            %v260 = vector.from_elements %v205, %v211, %v221, %v227, %v237, %v243, %v253, %v259 : vector<8xi32>
            // rows >= QG read rows that hold no query: zero them
            %v261 = arith.select %v189, %v260, %zero8i : vector<8xi32>
            %v262 = arith.muli %v187, %c512_i32 : i32
            %v263 = arith.muli %v188, %c64_i32 : i32
            %v264 = arith.addi %v263, %c256_i32 : i32
            %v265 = arith.addi %v262, %v264 : i32
            %v266 = arith.addi %v265, %c0_i32 : i32
            %v267 = llvm.getelementptr %lds[%v266] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %v268 = llvm.load %v267 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
            %v269 = arith.extf %v268 : vector<8xbf16> to vector<8xf32>
            %v270 = vector.extract %v269[0] : f32 from vector<8xf32>
            %v271 = vector.extract %v269[1] : f32 from vector<8xf32>
            %v272 = vector.extract %v269[2] : f32 from vector<8xf32>
            %v273 = vector.extract %v269[3] : f32 from vector<8xf32>
            %v274 = rocdl.cvt.pk.fp8.f32 %v270, %v271 -> %c0_i32[false] : i32
            %v275 = rocdl.cvt.pk.fp8.f32 %v272, %v273 -> %v274[true] : i32
            %v276 = vector.extract %v269[4] : f32 from vector<8xf32>
            %v277 = vector.extract %v269[5] : f32 from vector<8xf32>
            %v278 = vector.extract %v269[6] : f32 from vector<8xf32>
            %v279 = vector.extract %v269[7] : f32 from vector<8xf32>
            %v280 = rocdl.cvt.pk.fp8.f32 %v276, %v277 -> %c0_i32[false] : i32
            %v281 = rocdl.cvt.pk.fp8.f32 %v278, %v279 -> %v280[true] : i32
            %v282 = arith.addi %v265, %c16_i32 : i32
            %v283 = llvm.getelementptr %lds[%v282] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %v284 = llvm.load %v283 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
            %v285 = arith.extf %v284 : vector<8xbf16> to vector<8xf32>
            %v286 = vector.extract %v285[0] : f32 from vector<8xf32>
            %v287 = vector.extract %v285[1] : f32 from vector<8xf32>
            %v288 = vector.extract %v285[2] : f32 from vector<8xf32>
            %v289 = vector.extract %v285[3] : f32 from vector<8xf32>
            %v290 = rocdl.cvt.pk.fp8.f32 %v286, %v287 -> %c0_i32[false] : i32
            %v291 = rocdl.cvt.pk.fp8.f32 %v288, %v289 -> %v290[true] : i32
            %v292 = vector.extract %v285[4] : f32 from vector<8xf32>
            %v293 = vector.extract %v285[5] : f32 from vector<8xf32>
            %v294 = vector.extract %v285[6] : f32 from vector<8xf32>
            %v295 = vector.extract %v285[7] : f32 from vector<8xf32>
            %v296 = rocdl.cvt.pk.fp8.f32 %v292, %v293 -> %c0_i32[false] : i32
            %v297 = rocdl.cvt.pk.fp8.f32 %v294, %v295 -> %v296[true] : i32
            %v298 = arith.addi %v265, %c32_i32 : i32
            %v299 = llvm.getelementptr %lds[%v298] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %v300 = llvm.load %v299 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
            %v301 = arith.extf %v300 : vector<8xbf16> to vector<8xf32>
            %v302 = vector.extract %v301[0] : f32 from vector<8xf32>
            %v303 = vector.extract %v301[1] : f32 from vector<8xf32>
            %v304 = vector.extract %v301[2] : f32 from vector<8xf32>
            %v305 = vector.extract %v301[3] : f32 from vector<8xf32>
            %v306 = rocdl.cvt.pk.fp8.f32 %v302, %v303 -> %c0_i32[false] : i32
            %v307 = rocdl.cvt.pk.fp8.f32 %v304, %v305 -> %v306[true] : i32
            %v308 = vector.extract %v301[4] : f32 from vector<8xf32>
            %v309 = vector.extract %v301[5] : f32 from vector<8xf32>
            %v310 = vector.extract %v301[6] : f32 from vector<8xf32>
            %v311 = vector.extract %v301[7] : f32 from vector<8xf32>
            %v312 = rocdl.cvt.pk.fp8.f32 %v308, %v309 -> %c0_i32[false] : i32
            %v313 = rocdl.cvt.pk.fp8.f32 %v310, %v311 -> %v312[true] : i32
            %v314 = arith.addi %v265, %c48_i32 : i32
            %v315 = llvm.getelementptr %lds[%v314] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            %v316 = llvm.load %v315 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
            %v317 = arith.extf %v316 : vector<8xbf16> to vector<8xf32>
            %v318 = vector.extract %v317[0] : f32 from vector<8xf32>
            %v319 = vector.extract %v317[1] : f32 from vector<8xf32>
            %v320 = vector.extract %v317[2] : f32 from vector<8xf32>
            %v321 = vector.extract %v317[3] : f32 from vector<8xf32>
            %v322 = rocdl.cvt.pk.fp8.f32 %v318, %v319 -> %c0_i32[false] : i32
            %v323 = rocdl.cvt.pk.fp8.f32 %v320, %v321 -> %v322[true] : i32
            %v324 = vector.extract %v317[4] : f32 from vector<8xf32>
            %v325 = vector.extract %v317[5] : f32 from vector<8xf32>
            %v326 = vector.extract %v317[6] : f32 from vector<8xf32>
            %v327 = vector.extract %v317[7] : f32 from vector<8xf32>
            %v328 = rocdl.cvt.pk.fp8.f32 %v324, %v325 -> %c0_i32[false] : i32
            %v329 = rocdl.cvt.pk.fp8.f32 %v326, %v327 -> %v328[true] : i32
            %v330 = vector.from_elements %v275, %v281, %v291, %v297, %v307, %v313, %v323, %v329 : vector<8xi32>
            // rows >= QG read rows that hold no query: zero them
            %v331 = arith.select %v189, %v330, %zero8i : vector<8xi32>
            gpu.barrier
            // ---- partition p walks tile-groups p, p+P, ... (at most TGPP); only tiles
            // that hold an in-context token are processed (flattened tile loop).
            %v332 = llvm.getelementptr %seq_lens[%seq] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
            %seq_len = llvm.load %v332 invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
            %v333 = arith.addi %seq_len, %c255_i32 : i32
            %v334 = arith.shrui %v333, %c8_i32 : i32
            %v335 = arith.subi %v334, %part : i32
            %v336 = arith.cmpi sgt, %v335, %c0_i32 : i32
            %v337 = arith.maxsi %v335, %c1_i32 : i32
            %v338 = arith.subi %num_partitions, %c1_i32 : i32
            %v339 = arith.addi %v337, %v338 : i32
            %v340 = arith.divui %v339, %num_partitions : i32
            %v341 = arith.minsi %v340, %tgpp : i32
            %v342 = arith.select %v336, %v341, %c0_i32 : i32
            %v343 = arith.subi %v342, %c1_i32 : i32
            %v344 = arith.maxsi %v343, %c0_i32 : i32
            %v345 = arith.muli %v344, %num_partitions : i32
            %v346 = arith.addi %part, %v345 : i32
            %v347 = arith.shli %v346, %c8_i32 : i32
            %v348 = arith.subi %seq_len, %v347 : i32
            %v349 = arith.addi %v348, %c15_i32 : i32
            %v350 = arith.shrsi %v349, %c4_i32 : i32
            %v351 = arith.minsi %v350, %c16_i32 : i32
            %v352 = arith.shli %v344, %c4_i32 : i32
            %v353 = arith.addi %v352, %v351 : i32
            %ntiles = arith.select %v336, %v353, %c0_i32 : i32
            %bs_shift = math.cttz %block_size : i32
            %v354 = arith.subi %block_size, %c1_i32 : i32
            %pos_stride = arith.muli %num_kv_heads, %padded_slot : i32
            %v355 = arith.muli %block_size, %pos_stride : i32
            %blk_bytes = arith.extui %v355 : i32 to i64
            %bt_row = arith.muli %seq, %max_blocks_per_seq : i32
            %v356 = arith.muli %kvh, %padded_slot : i32
            %v357 = arith.muli %v187, %pos_stride : i32
            %v358 = arith.addi %v357, %v356 : i32
            %v359 = arith.muli %v188, %c16_i32 : i32
            %k_off0 = arith.addi %v358, %v359 : i32
            %k_off1 = arith.addi %k_off0, %c64_i32 : i32
            %v360 = arith.andi %v188, %c1_i32 : i32
            %v361 = arith.muli %v360, %c4_i32 : i32
            %v362 = arith.addi %c128_i32, %v361 : i32
            %ks_off = arith.addi %v358, %v362 : i32
            %v_tok = arith.shrui %lane, %c2_i32 : i32
            %v_chunk = arith.andi %lane, %c3_i32 : i32
            %v363 = arith.muli %v_tok, %pos_stride : i32
            %v364 = arith.addi %v363, %v356 : i32
            %v365 = arith.muli %v_chunk, %c32_i32 : i32
            %v366 = arith.addi %c136_i32, %v365 : i32
            %v_off0 = arith.addi %v364, %v366 : i32
            %v_off1 = arith.addi %v_off0, %c16_i32 : i32
            %v367 = arith.shrui %v_chunk, %c1_i32 : i32
            %v368 = arith.muli %v367, %c4_i32 : i32
            %v369 = arith.addi %c264_i32, %v368 : i32
            %vs_off = arith.addi %v364, %v369 : i32
            %flags = arith.constant 159744 : i32  // 0x27000: raw buffer, 32-bit data format
            %stride0 = arith.constant 0 : i16
            %ntiles_ix = arith.index_cast %ntiles : i32 to index
            %has_tiles = arith.cmpi sgt, %ntiles, %c0_i32 : i32
            %fin:18 = scf.if %has_tiles -> (f32, f32, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
                // software prefetch: tile 0 here, tile i+1 at the top of iteration i
                %v370 = arith.shrui %c0_i32, %c4_i32 : i32
                %v371 = arith.andi %c0_i32, %c15_i32 : i32
                %v372 = arith.muli %v370, %num_partitions : i32
                %v373 = arith.addi %part, %v372 : i32
                %v374 = arith.shli %v373, %c8_i32 : i32
                %v375 = arith.shli %v371, %c4_i32 : i32
                %v376 = arith.addi %v374, %v375 : i32
                %v377 = arith.shrui %v376, %bs_shift : i32
                %v378 = arith.andi %v376, %v354 : i32
                %v379 = arith.addi %bt_row, %v377 : i32
                %v380 = llvm.getelementptr %block_tables[%v379] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
                %v381 = llvm.load %v380 invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
                %v382 = arith.extui %v381 : i32 to i64
                %v383 = arith.muli %v382, %blk_bytes : i64
                %v384 = llvm.getelementptr %kv_cache[%v383] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
                %v385 = rocdl.make.buffer.rsrc %v384, %stride0, %blk_bytes, %flags : !llvm.ptr<1> to !llvm.ptr<8>
                %v386 = arith.muli %v378, %pos_stride : i32
                %v387 = rocdl.raw.ptr.buffer.load %v385, %k_off0, %v386, %c0_i32 : vector<4xi32>
                %v388 = rocdl.raw.ptr.buffer.load %v385, %k_off1, %v386, %c0_i32 : vector<4xi32>
                %v389 = rocdl.raw.ptr.buffer.load %v385, %v_off0, %v386, %c0_i32 : vector<4xi32>
                %v390 = rocdl.raw.ptr.buffer.load %v385, %v_off1, %v386, %c0_i32 : vector<4xi32>
                %v391 = rocdl.raw.ptr.buffer.load %v385, %ks_off, %v386, %c0_i32 : i32
                %v392 = rocdl.raw.ptr.buffer.load %v385, %vs_off, %v386, %c0_i32 : i32
                %loop:24 = scf.for %ti = %c0_ix to %ntiles_ix step %c1_ix iter_args(%m = %ninf, %l = %zero_f, %acc0 = %zero4, %acc1 = %zero4, %acc2 = %zero4, %acc3 = %zero4, %acc4 = %zero4, %acc5 = %zero4, %acc6 = %zero4, %acc7 = %zero4, %acc8 = %zero4, %acc9 = %zero4, %acc10 = %zero4, %acc11 = %zero4, %acc12 = %zero4, %acc13 = %zero4, %acc14 = %zero4, %acc15 = %zero4, %k0 = %v387, %k1 = %v388, %vc0 = %v389, %vc1 = %v390, %ksw = %v391, %vsw = %v392) -> (f32, f32, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, i32, i32) {
                    %v393 = arith.index_cast %ti : index to i32
                    %v394 = arith.addi %v393, %c1_i32 : i32
                    %v395 = arith.subi %ntiles, %c1_i32 : i32
                    %v396 = arith.minsi %v394, %v395 : i32
                    %v397 = arith.shrui %v396, %c4_i32 : i32
                    %v398 = arith.andi %v396, %c15_i32 : i32
                    %v399 = arith.muli %v397, %num_partitions : i32
                    %v400 = arith.addi %part, %v399 : i32
                    %v401 = arith.shli %v400, %c8_i32 : i32
                    %v402 = arith.shli %v398, %c4_i32 : i32
                    %v403 = arith.addi %v401, %v402 : i32
                    %v404 = arith.shrui %v403, %bs_shift : i32
                    %v405 = arith.andi %v403, %v354 : i32
                    %v406 = arith.addi %bt_row, %v404 : i32
                    %v407 = llvm.getelementptr %block_tables[%v406] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
                    %v408 = llvm.load %v407 invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
                    %v409 = arith.extui %v408 : i32 to i64
                    %v410 = arith.muli %v409, %blk_bytes : i64
                    %v411 = llvm.getelementptr %kv_cache[%v410] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
                    %v412 = rocdl.make.buffer.rsrc %v411, %stride0, %blk_bytes, %flags : !llvm.ptr<1> to !llvm.ptr<8>
                    %v413 = arith.muli %v405, %pos_stride : i32
                    %v414 = rocdl.raw.ptr.buffer.load %v412, %k_off0, %v413, %c0_i32 : vector<4xi32>
                    %v415 = rocdl.raw.ptr.buffer.load %v412, %k_off1, %v413, %c0_i32 : vector<4xi32>
                    %v416 = rocdl.raw.ptr.buffer.load %v412, %v_off0, %v413, %c0_i32 : vector<4xi32>
                    %v417 = rocdl.raw.ptr.buffer.load %v412, %v_off1, %v413, %c0_i32 : vector<4xi32>
                    %v418 = rocdl.raw.ptr.buffer.load %v412, %ks_off, %v413, %c0_i32 : i32
                    %v419 = rocdl.raw.ptr.buffer.load %v412, %vs_off, %v413, %c0_i32 : i32
                    %v420 = arith.shrui %v393, %c4_i32 : i32
                    %v421 = arith.andi %v393, %c15_i32 : i32
                    %v422 = arith.muli %v420, %num_partitions : i32
                    %v423 = arith.addi %part, %v422 : i32
                    %v424 = arith.shli %v423, %c8_i32 : i32
                    %v425 = arith.shli %v421, %c4_i32 : i32
                    %v426 = arith.addi %v424, %v425 : i32
                    // K scales: lane l needs the byte of (token l&15, group 4h + j). It loaded word j&1;
                    // lane l^16 (j^1) holds the other word.
                    %v427 = amdgpu.swizzle_bitmode %ksw 31 0 16 : i32
                    %v428 = arith.andi %v188, %c1_i32 : i32
                    %v429 = arith.cmpi ne, %v428, %c0_i32 : i32
                    %v430 = arith.select %v429, %v427, %ksw : i32
                    %v431 = arith.select %v429, %ksw, %v427 : i32
                    %v432 = arith.shli %v188, %c3_i32 : i32
                    %v433 = arith.shrui %v430, %v432 : i32
                    %v434 = arith.shrui %v431, %v432 : i32
                    // QK: C[token][query row] over two K=128 issues; A = K FP4 with UE8M0 scale, B = Q E4M3 (scale 0x7F = 1)
                    %v435 = rocdl.mfma.scale.f32.16x16x128.f8f6f4 %k0, %v261, %zero4, %c4_i32, %c0_i32, %c0_i32, %v433, %c0_i32, %c127_i32 : (vector<4xi32>, vector<8xi32>, vector<4xf32>, i32, i32, i32, i32, i32, i32) -> vector<4xf32>
                    %v436 = rocdl.mfma.scale.f32.16x16x128.f8f6f4 %k1, %v331, %v435, %c4_i32, %c0_i32, %c0_i32, %v434, %c0_i32, %c127_i32 : (vector<4xi32>, vector<8xi32>, vector<4xf32>, i32, i32, i32, i32, i32, i32) -> vector<4xf32>
                    %v437 = vector.broadcast %softmax_scale : f32 to vector<4xf32>
                    %v438 = arith.mulf %v436, %v437 : vector<4xf32>
                    // mask tokens >= seq_len to -inf (select: garbage K/NaN never survives)
                    %v439 = vector.broadcast %v426 : i32 to vector<4xi32>
                    %v440 = arith.addi %v439, %lane_tok4 : vector<4xi32>
                    %v441 = vector.broadcast %seq_len : i32 to vector<4xi32>
                    %v442 = arith.cmpi slt, %v440, %v441 : vector<4xi32>
                    %v443 = vector.broadcast %ninf : f32 to vector<4xf32>
                    %v444 = arith.select %v442, %v438, %v443 : vector<4xi1>, vector<4xf32>
                    %v445 = vector.extract %v444[0] : f32 from vector<4xf32>
                    %v446 = vector.extract %v444[1] : f32 from vector<4xf32>
                    %v447 = vector.extract %v444[2] : f32 from vector<4xf32>
                    %v448 = vector.extract %v444[3] : f32 from vector<4xf32>
                    %v449 = arith.maxnumf %v445, %v446 : f32
                    %v450 = arith.maxnumf %v447, %v448 : f32
                    %v451 = arith.maxnumf %v449, %v450 : f32
                    %sh452, %ok453 = gpu.shuffle xor %v451, %c16_i32, %c64_i32 : f32
                    %v454 = arith.maxnumf %v451, %sh452 : f32
                    %sh455, %ok456 = gpu.shuffle xor %v454, %c32_i32, %c64_i32 : f32
                    %v457 = arith.maxnumf %v454, %sh455 : f32
                    %v458 = arith.maxnumf %m, %v457 : f32
                    %v459 = arith.cmpf ogt, %m, %ninf : f32
                    %v460 = arith.subf %m, %v458 : f32
                    %v461 = arith.select %v459, %v460, %zero_f : f32
                    %v462 = arith.mulf %v461, %log2e : f32
                    %v463 = rocdl.exp2 %v462 f32 -> f32
                    %v464 = arith.cmpf ogt, %v458, %ninf : f32
                    %v465 = arith.subf %v445, %v458 : f32
                    %v466 = arith.select %v464, %v465, %ninf : f32
                    %v467 = arith.mulf %v466, %log2e : f32
                    %v468 = rocdl.exp2 %v467 f32 -> f32
                    %v469 = arith.subf %v446, %v458 : f32
                    %v470 = arith.select %v464, %v469, %ninf : f32
                    %v471 = arith.mulf %v470, %log2e : f32
                    %v472 = rocdl.exp2 %v471 f32 -> f32
                    %v473 = arith.subf %v447, %v458 : f32
                    %v474 = arith.select %v464, %v473, %ninf : f32
                    %v475 = arith.mulf %v474, %log2e : f32
                    %v476 = rocdl.exp2 %v475 f32 -> f32
                    %v477 = arith.subf %v448, %v458 : f32
                    %v478 = arith.select %v464, %v477, %ninf : f32
                    %v479 = arith.mulf %v478, %log2e : f32
                    %v480 = rocdl.exp2 %v479 f32 -> f32
                    %v481 = arith.addf %v468, %v472 : f32
                    %v482 = arith.addf %v476, %v480 : f32
                    %v483 = arith.addf %v481, %v482 : f32
                    %sh484, %ok485 = gpu.shuffle xor %v483, %c16_i32, %c64_i32 : f32
                    %v486 = arith.addf %v483, %sh484 : f32
                    %sh487, %ok488 = gpu.shuffle xor %v486, %c32_i32, %c64_i32 : f32
                    %v489 = arith.addf %v486, %sh487 : f32
                    %v490 = arith.mulf %l, %v463 : f32
                    %v491 = arith.addf %v490, %v489 : f32
                    %v492 = vector.from_elements %v468, %v472, %v476, %v480 : vector<4xf32>
                    %v493 = arith.truncf %v492 : vector<4xf32> to vector<4xbf16>
                    %v494 = vector.bitcast %v493 : vector<4xbf16> to vector<4xi16>
                    // V: FP4 -> bf16 with the UE8M0 scale fused; an out-of-context token gets scale
                    // byte 0 (2^-127 x a finite FP4 value: finite), so 0xFF garbage never meets p = 0.
                    %v495 = arith.addi %v426, %v_tok : i32
                    %v496 = arith.cmpi slt, %v495, %seq_len : i32
                    %v497 = arith.select %v496, %vsw, %c0_i32 : i32
                    %v498 = arith.muli %v_tok, %c528_i32 : i32
                    %v499 = arith.muli %v_chunk, %c128_i32 : i32
                    %v500 = arith.addi %v498, %v499 : i32
                    %v501 = arith.shli %v_chunk, %c1_i32 : i32
                    %v502 = arith.addi %v501, %c0_i32 : i32
                    %v503 = arith.andi %v502, %c3_i32 : i32
                    %v504 = arith.shli %v503, %c3_i32 : i32
                    %v505 = arith.shrui %v497, %v504 : i32
                    %v506 = arith.andi %v505, %c255_i32 : i32
                    %v507 = arith.shli %v506, %c23_i32 : i32
                    %v508 = arith.bitcast %v507 : i32 to f32
                    %v509 = vector.extract %vc0[0] : i32 from vector<4xi32>
                    %v510 = rocdl.cvt.scalef32.pk.bf16.fp4 %v509[0], %v508 : vector<2xbf16>
                    %v511 = rocdl.cvt.scalef32.pk.bf16.fp4 %v509[1], %v508 : vector<2xbf16>
                    %v512 = rocdl.cvt.scalef32.pk.bf16.fp4 %v509[2], %v508 : vector<2xbf16>
                    %v513 = rocdl.cvt.scalef32.pk.bf16.fp4 %v509[3], %v508 : vector<2xbf16>
                    %v514 = vector.shuffle %v510, %v511 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
                    %v515 = vector.shuffle %v512, %v513 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
                    %v516 = vector.shuffle %v514, %v515 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xbf16>, vector<4xbf16>
                    %v517 = arith.addi %v500, %c0_i32 : i32
                    %v518 = llvm.getelementptr %lds[%v517] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    llvm.store %v516, %v518 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
                    %v519 = vector.extract %vc0[1] : i32 from vector<4xi32>
                    %v520 = rocdl.cvt.scalef32.pk.bf16.fp4 %v519[0], %v508 : vector<2xbf16>
                    %v521 = rocdl.cvt.scalef32.pk.bf16.fp4 %v519[1], %v508 : vector<2xbf16>
                    %v522 = rocdl.cvt.scalef32.pk.bf16.fp4 %v519[2], %v508 : vector<2xbf16>
                    %v523 = rocdl.cvt.scalef32.pk.bf16.fp4 %v519[3], %v508 : vector<2xbf16>
                    %v524 = vector.shuffle %v520, %v521 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
                    %v525 = vector.shuffle %v522, %v523 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
                    %v526 = vector.shuffle %v524, %v525 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xbf16>, vector<4xbf16>
                    %v527 = arith.addi %v500, %c16_i32 : i32
                    %v528 = llvm.getelementptr %lds[%v527] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    llvm.store %v526, %v528 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
                    %v529 = vector.extract %vc0[2] : i32 from vector<4xi32>
                    %v530 = rocdl.cvt.scalef32.pk.bf16.fp4 %v529[0], %v508 : vector<2xbf16>
                    %v531 = rocdl.cvt.scalef32.pk.bf16.fp4 %v529[1], %v508 : vector<2xbf16>
                    %v532 = rocdl.cvt.scalef32.pk.bf16.fp4 %v529[2], %v508 : vector<2xbf16>
                    %v533 = rocdl.cvt.scalef32.pk.bf16.fp4 %v529[3], %v508 : vector<2xbf16>
                    %v534 = vector.shuffle %v530, %v531 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
                    %v535 = vector.shuffle %v532, %v533 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
                    %v536 = vector.shuffle %v534, %v535 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xbf16>, vector<4xbf16>
                    %v537 = arith.addi %v500, %c32_i32 : i32
                    %v538 = llvm.getelementptr %lds[%v537] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    llvm.store %v536, %v538 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
                    %v539 = vector.extract %vc0[3] : i32 from vector<4xi32>
                    %v540 = rocdl.cvt.scalef32.pk.bf16.fp4 %v539[0], %v508 : vector<2xbf16>
                    %v541 = rocdl.cvt.scalef32.pk.bf16.fp4 %v539[1], %v508 : vector<2xbf16>
                    %v542 = rocdl.cvt.scalef32.pk.bf16.fp4 %v539[2], %v508 : vector<2xbf16>
                    %v543 = rocdl.cvt.scalef32.pk.bf16.fp4 %v539[3], %v508 : vector<2xbf16>
                    %v544 = vector.shuffle %v540, %v541 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
                    %v545 = vector.shuffle %v542, %v543 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
                    %v546 = vector.shuffle %v544, %v545 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xbf16>, vector<4xbf16>
                    %v547 = arith.addi %v500, %c48_i32 : i32
                    %v548 = llvm.getelementptr %lds[%v547] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    llvm.store %v546, %v548 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
                    %v549 = arith.shli %v_chunk, %c1_i32 : i32
                    %v550 = arith.addi %v549, %c1_i32 : i32
                    %v551 = arith.andi %v550, %c3_i32 : i32
                    %v552 = arith.shli %v551, %c3_i32 : i32
                    %v553 = arith.shrui %v497, %v552 : i32
                    %v554 = arith.andi %v553, %c255_i32 : i32
                    %v555 = arith.shli %v554, %c23_i32 : i32
                    %v556 = arith.bitcast %v555 : i32 to f32
                    %v557 = vector.extract %vc1[0] : i32 from vector<4xi32>
                    %v558 = rocdl.cvt.scalef32.pk.bf16.fp4 %v557[0], %v556 : vector<2xbf16>
                    %v559 = rocdl.cvt.scalef32.pk.bf16.fp4 %v557[1], %v556 : vector<2xbf16>
                    %v560 = rocdl.cvt.scalef32.pk.bf16.fp4 %v557[2], %v556 : vector<2xbf16>
                    %v561 = rocdl.cvt.scalef32.pk.bf16.fp4 %v557[3], %v556 : vector<2xbf16>
                    %v562 = vector.shuffle %v558, %v559 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
                    %v563 = vector.shuffle %v560, %v561 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
                    %v564 = vector.shuffle %v562, %v563 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xbf16>, vector<4xbf16>
                    %v565 = arith.addi %v500, %c64_i32 : i32
                    %v566 = llvm.getelementptr %lds[%v565] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    llvm.store %v564, %v566 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
                    %v567 = vector.extract %vc1[1] : i32 from vector<4xi32>
                    %v568 = rocdl.cvt.scalef32.pk.bf16.fp4 %v567[0], %v556 : vector<2xbf16>
                    %v569 = rocdl.cvt.scalef32.pk.bf16.fp4 %v567[1], %v556 : vector<2xbf16>
                    %v570 = rocdl.cvt.scalef32.pk.bf16.fp4 %v567[2], %v556 : vector<2xbf16>
                    %v571 = rocdl.cvt.scalef32.pk.bf16.fp4 %v567[3], %v556 : vector<2xbf16>
                    %v572 = vector.shuffle %v568, %v569 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
                    %v573 = vector.shuffle %v570, %v571 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
                    %v574 = vector.shuffle %v572, %v573 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xbf16>, vector<4xbf16>
                    %v575 = arith.addi %v500, %c80_i32 : i32
                    %v576 = llvm.getelementptr %lds[%v575] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    llvm.store %v574, %v576 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
                    %v577 = vector.extract %vc1[2] : i32 from vector<4xi32>
                    %v578 = rocdl.cvt.scalef32.pk.bf16.fp4 %v577[0], %v556 : vector<2xbf16>
                    %v579 = rocdl.cvt.scalef32.pk.bf16.fp4 %v577[1], %v556 : vector<2xbf16>
                    %v580 = rocdl.cvt.scalef32.pk.bf16.fp4 %v577[2], %v556 : vector<2xbf16>
                    %v581 = rocdl.cvt.scalef32.pk.bf16.fp4 %v577[3], %v556 : vector<2xbf16>
                    %v582 = vector.shuffle %v578, %v579 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
                    %v583 = vector.shuffle %v580, %v581 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
                    %v584 = vector.shuffle %v582, %v583 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xbf16>, vector<4xbf16>
                    %v585 = arith.addi %v500, %c96_i32 : i32
                    %v586 = llvm.getelementptr %lds[%v585] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    llvm.store %v584, %v586 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
                    %v587 = vector.extract %vc1[3] : i32 from vector<4xi32>
                    %v588 = rocdl.cvt.scalef32.pk.bf16.fp4 %v587[0], %v556 : vector<2xbf16>
                    %v589 = rocdl.cvt.scalef32.pk.bf16.fp4 %v587[1], %v556 : vector<2xbf16>
                    %v590 = rocdl.cvt.scalef32.pk.bf16.fp4 %v587[2], %v556 : vector<2xbf16>
                    %v591 = rocdl.cvt.scalef32.pk.bf16.fp4 %v587[3], %v556 : vector<2xbf16>
                    %v592 = vector.shuffle %v588, %v589 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
                    %v593 = vector.shuffle %v590, %v591 [0, 1, 2, 3] : vector<2xbf16>, vector<2xbf16>
                    %v594 = vector.shuffle %v592, %v593 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xbf16>, vector<4xbf16>
                    %v595 = arith.addi %v500, %c112_i32 : i32
                    %v596 = llvm.getelementptr %lds[%v595] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    llvm.store %v594, %v596 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
                    gpu.barrier
                    // PV: C[head dim][query] += V^T P; A read through the LDS transpose
                    %v597 = vector.broadcast %v463 : f32 to vector<4xf32>
                    %v598 = arith.muli %v_tok, %c528_i32 : i32
                    %v599 = arith.muli %v_chunk, %c8_i32 : i32
                    %v600 = arith.addi %v598, %v599 : i32
                    %v601 = arith.addi %v600, %c0_i32 : i32
                    %v602 = llvm.getelementptr %lds[%v601] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    %v603 = rocdl.ds.read.tr16.b64 %v602 : !llvm.ptr<3> -> vector<4xi16>
                    %v604 = arith.mulf %acc0, %v597 : vector<4xf32>
                    %v605 = rocdl.mfma.f32.16x16x16bf16.1k %v603, %v494, %v604, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
                    %v606 = arith.addi %v600, %c32_i32 : i32
                    %v607 = llvm.getelementptr %lds[%v606] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    %v608 = rocdl.ds.read.tr16.b64 %v607 : !llvm.ptr<3> -> vector<4xi16>
                    %v609 = arith.mulf %acc1, %v597 : vector<4xf32>
                    %v610 = rocdl.mfma.f32.16x16x16bf16.1k %v608, %v494, %v609, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
                    %v611 = arith.addi %v600, %c64_i32 : i32
                    %v612 = llvm.getelementptr %lds[%v611] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    %v613 = rocdl.ds.read.tr16.b64 %v612 : !llvm.ptr<3> -> vector<4xi16>
                    %v614 = arith.mulf %acc2, %v597 : vector<4xf32>
                    %v615 = rocdl.mfma.f32.16x16x16bf16.1k %v613, %v494, %v614, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
                    %v616 = arith.addi %v600, %c96_i32 : i32
                    %v617 = llvm.getelementptr %lds[%v616] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    %v618 = rocdl.ds.read.tr16.b64 %v617 : !llvm.ptr<3> -> vector<4xi16>
                    %v619 = arith.mulf %acc3, %v597 : vector<4xf32>
                    %v620 = rocdl.mfma.f32.16x16x16bf16.1k %v618, %v494, %v619, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
                    %v621 = arith.addi %v600, %c128_i32 : i32
                    %v622 = llvm.getelementptr %lds[%v621] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    %v623 = rocdl.ds.read.tr16.b64 %v622 : !llvm.ptr<3> -> vector<4xi16>
                    %v624 = arith.mulf %acc4, %v597 : vector<4xf32>
                    %v625 = rocdl.mfma.f32.16x16x16bf16.1k %v623, %v494, %v624, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
                    %v626 = arith.addi %v600, %c160_i32 : i32
                    %v627 = llvm.getelementptr %lds[%v626] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    %v628 = rocdl.ds.read.tr16.b64 %v627 : !llvm.ptr<3> -> vector<4xi16>
                    %v629 = arith.mulf %acc5, %v597 : vector<4xf32>
                    %v630 = rocdl.mfma.f32.16x16x16bf16.1k %v628, %v494, %v629, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
                    %v631 = arith.addi %v600, %c192_i32 : i32
                    %v632 = llvm.getelementptr %lds[%v631] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    %v633 = rocdl.ds.read.tr16.b64 %v632 : !llvm.ptr<3> -> vector<4xi16>
                    %v634 = arith.mulf %acc6, %v597 : vector<4xf32>
                    %v635 = rocdl.mfma.f32.16x16x16bf16.1k %v633, %v494, %v634, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
                    %v636 = arith.addi %v600, %c224_i32 : i32
                    %v637 = llvm.getelementptr %lds[%v636] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    %v638 = rocdl.ds.read.tr16.b64 %v637 : !llvm.ptr<3> -> vector<4xi16>
                    %v639 = arith.mulf %acc7, %v597 : vector<4xf32>
                    %v640 = rocdl.mfma.f32.16x16x16bf16.1k %v638, %v494, %v639, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
                    %v641 = arith.addi %v600, %c256_i32 : i32
                    %v642 = llvm.getelementptr %lds[%v641] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    %v643 = rocdl.ds.read.tr16.b64 %v642 : !llvm.ptr<3> -> vector<4xi16>
                    %v644 = arith.mulf %acc8, %v597 : vector<4xf32>
                    %v645 = rocdl.mfma.f32.16x16x16bf16.1k %v643, %v494, %v644, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
                    %v646 = arith.addi %v600, %c288_i32 : i32
                    %v647 = llvm.getelementptr %lds[%v646] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    %v648 = rocdl.ds.read.tr16.b64 %v647 : !llvm.ptr<3> -> vector<4xi16>
                    %v649 = arith.mulf %acc9, %v597 : vector<4xf32>
                    %v650 = rocdl.mfma.f32.16x16x16bf16.1k %v648, %v494, %v649, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
                    %v651 = arith.addi %v600, %c320_i32 : i32
                    %v652 = llvm.getelementptr %lds[%v651] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    %v653 = rocdl.ds.read.tr16.b64 %v652 : !llvm.ptr<3> -> vector<4xi16>
                    %v654 = arith.mulf %acc10, %v597 : vector<4xf32>
                    %v655 = rocdl.mfma.f32.16x16x16bf16.1k %v653, %v494, %v654, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
                    %v656 = arith.addi %v600, %c352_i32 : i32
                    %v657 = llvm.getelementptr %lds[%v656] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    %v658 = rocdl.ds.read.tr16.b64 %v657 : !llvm.ptr<3> -> vector<4xi16>
                    %v659 = arith.mulf %acc11, %v597 : vector<4xf32>
                    %v660 = rocdl.mfma.f32.16x16x16bf16.1k %v658, %v494, %v659, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
                    %v661 = arith.addi %v600, %c384_i32 : i32
                    %v662 = llvm.getelementptr %lds[%v661] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    %v663 = rocdl.ds.read.tr16.b64 %v662 : !llvm.ptr<3> -> vector<4xi16>
                    %v664 = arith.mulf %acc12, %v597 : vector<4xf32>
                    %v665 = rocdl.mfma.f32.16x16x16bf16.1k %v663, %v494, %v664, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
                    %v666 = arith.addi %v600, %c416_i32 : i32
                    %v667 = llvm.getelementptr %lds[%v666] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    %v668 = rocdl.ds.read.tr16.b64 %v667 : !llvm.ptr<3> -> vector<4xi16>
                    %v669 = arith.mulf %acc13, %v597 : vector<4xf32>
                    %v670 = rocdl.mfma.f32.16x16x16bf16.1k %v668, %v494, %v669, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
                    %v671 = arith.addi %v600, %c448_i32 : i32
                    %v672 = llvm.getelementptr %lds[%v671] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    %v673 = rocdl.ds.read.tr16.b64 %v672 : !llvm.ptr<3> -> vector<4xi16>
                    %v674 = arith.mulf %acc14, %v597 : vector<4xf32>
                    %v675 = rocdl.mfma.f32.16x16x16bf16.1k %v673, %v494, %v674, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
                    %v676 = arith.addi %v600, %c480_i32 : i32
                    %v677 = llvm.getelementptr %lds[%v676] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                    %v678 = rocdl.ds.read.tr16.b64 %v677 : !llvm.ptr<3> -> vector<4xi16>
                    %v679 = arith.mulf %acc15, %v597 : vector<4xf32>
                    %v680 = rocdl.mfma.f32.16x16x16bf16.1k %v678, %v494, %v679, %c0_i32, %c0_i32, %c0_i32 : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
                    gpu.barrier
                    scf.yield %v458, %v491, %v605, %v610, %v615, %v620, %v625, %v630, %v635, %v640, %v645, %v650, %v655, %v660, %v665, %v670, %v675, %v680, %v414, %v415, %v416, %v417, %v418, %v419 : f32, f32, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, i32, i32
                }
                scf.yield %loop#0, %loop#1, %loop#2, %loop#3, %loop#4, %loop#5, %loop#6, %loop#7, %loop#8, %loop#9, %loop#10, %loop#11, %loop#12, %loop#13, %loop#14, %loop#15, %loop#16, %loop#17 : f32, f32, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            } else {
              scf.yield %ninf, %zero_f, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4, %zero4 : f32, f32, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            // ---- outputs: bf16 partial normalised by its own sum, fp32 max and sum
            %v681 = arith.cmpf ogt, %fin#1, %zero_f : f32
            %v682 = arith.select %v681, %fin#1, %one_f : f32
            %v683 = arith.divf %one_f, %v682 : f32
            %v684 = vector.broadcast %v683 : f32 to vector<4xf32>
            %v685 = arith.muli %seq, %num_kv_heads : i32
            %v686 = arith.addi %v685, %kvh : i32
            %v687 = arith.muli %v686, %num_partitions : i32
            %v688 = arith.addi %v687, %part : i32
            %v689 = arith.extui %v688 : i32 to i64
            %v690 = arith.extui %qgi : i32 to i64
            %v691 = arith.muli %v689, %v690 : i64
            %v692 = arith.extui %v187 : i32 to i64
            %v693 = arith.addi %v691, %v692 : i64
            scf.if %v189 {
                %v694 = arith.muli %v693, %c256_i64 : i64
                %v695 = arith.muli %v188, %c4_i32 : i32
                %v696 = arith.extui %v695 : i32 to i64
                %v697 = arith.addi %v694, %v696 : i64
                %v698 = arith.mulf %fin#2, %v684 : vector<4xf32>
                %v699 = arith.truncf %v698 : vector<4xf32> to vector<4xbf16>
                %v700 = llvm.getelementptr %segm_out[%v697] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                llvm.store %v699, %v700 {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
                %v701 = arith.mulf %fin#3, %v684 : vector<4xf32>
                %v702 = arith.truncf %v701 : vector<4xf32> to vector<4xbf16>
                %v703 = llvm.getelementptr %segm_out[%v697] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v704 = llvm.getelementptr %v703[16] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                llvm.store %v702, %v704 {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
                %v705 = arith.mulf %fin#4, %v684 : vector<4xf32>
                %v706 = arith.truncf %v705 : vector<4xf32> to vector<4xbf16>
                %v707 = llvm.getelementptr %segm_out[%v697] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v708 = llvm.getelementptr %v707[32] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                llvm.store %v706, %v708 {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
                %v709 = arith.mulf %fin#5, %v684 : vector<4xf32>
                %v710 = arith.truncf %v709 : vector<4xf32> to vector<4xbf16>
                %v711 = llvm.getelementptr %segm_out[%v697] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v712 = llvm.getelementptr %v711[48] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                llvm.store %v710, %v712 {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
                %v713 = arith.mulf %fin#6, %v684 : vector<4xf32>
                %v714 = arith.truncf %v713 : vector<4xf32> to vector<4xbf16>
                %v715 = llvm.getelementptr %segm_out[%v697] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v716 = llvm.getelementptr %v715[64] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                llvm.store %v714, %v716 {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
                %v717 = arith.mulf %fin#7, %v684 : vector<4xf32>
                %v718 = arith.truncf %v717 : vector<4xf32> to vector<4xbf16>
                %v719 = llvm.getelementptr %segm_out[%v697] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v720 = llvm.getelementptr %v719[80] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                llvm.store %v718, %v720 {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
                %v721 = arith.mulf %fin#8, %v684 : vector<4xf32>
                %v722 = arith.truncf %v721 : vector<4xf32> to vector<4xbf16>
                %v723 = llvm.getelementptr %segm_out[%v697] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v724 = llvm.getelementptr %v723[96] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                llvm.store %v722, %v724 {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
                %v725 = arith.mulf %fin#9, %v684 : vector<4xf32>
                %v726 = arith.truncf %v725 : vector<4xf32> to vector<4xbf16>
                %v727 = llvm.getelementptr %segm_out[%v697] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v728 = llvm.getelementptr %v727[112] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                llvm.store %v726, %v728 {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
                %v729 = arith.mulf %fin#10, %v684 : vector<4xf32>
                %v730 = arith.truncf %v729 : vector<4xf32> to vector<4xbf16>
                %v731 = llvm.getelementptr %segm_out[%v697] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v732 = llvm.getelementptr %v731[128] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                llvm.store %v730, %v732 {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
                %v733 = arith.mulf %fin#11, %v684 : vector<4xf32>
                %v734 = arith.truncf %v733 : vector<4xf32> to vector<4xbf16>
                %v735 = llvm.getelementptr %segm_out[%v697] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v736 = llvm.getelementptr %v735[144] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                llvm.store %v734, %v736 {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
                %v737 = arith.mulf %fin#12, %v684 : vector<4xf32>
                %v738 = arith.truncf %v737 : vector<4xf32> to vector<4xbf16>
                %v739 = llvm.getelementptr %segm_out[%v697] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v740 = llvm.getelementptr %v739[160] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                llvm.store %v738, %v740 {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
                %v741 = arith.mulf %fin#13, %v684 : vector<4xf32>
                %v742 = arith.truncf %v741 : vector<4xf32> to vector<4xbf16>
                %v743 = llvm.getelementptr %segm_out[%v697] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v744 = llvm.getelementptr %v743[176] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                llvm.store %v742, %v744 {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
                %v745 = arith.mulf %fin#14, %v684 : vector<4xf32>
                %v746 = arith.truncf %v745 : vector<4xf32> to vector<4xbf16>
                %v747 = llvm.getelementptr %segm_out[%v697] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v748 = llvm.getelementptr %v747[192] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                llvm.store %v746, %v748 {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
                %v749 = arith.mulf %fin#15, %v684 : vector<4xf32>
                %v750 = arith.truncf %v749 : vector<4xf32> to vector<4xbf16>
                %v751 = llvm.getelementptr %segm_out[%v697] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v752 = llvm.getelementptr %v751[208] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                llvm.store %v750, %v752 {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
                %v753 = arith.mulf %fin#16, %v684 : vector<4xf32>
                %v754 = arith.truncf %v753 : vector<4xf32> to vector<4xbf16>
                %v755 = llvm.getelementptr %segm_out[%v697] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v756 = llvm.getelementptr %v755[224] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                llvm.store %v754, %v756 {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
                %v757 = arith.mulf %fin#17, %v684 : vector<4xf32>
                %v758 = arith.truncf %v757 : vector<4xf32> to vector<4xbf16>
                %v759 = llvm.getelementptr %segm_out[%v697] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v760 = llvm.getelementptr %v759[240] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
                llvm.store %v758, %v760 {alignment = 8 : i64} : vector<4xbf16>, !llvm.ptr<1>
                %v761 = arith.cmpi eq, %v188, %c0_i32 : i32
                scf.if %v761 {
                    %v762 = llvm.getelementptr %segm_max[%v693] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
                    llvm.store %fin#0, %v762 {alignment = 4 : i64} : f32, !llvm.ptr<1>
                    %v763 = llvm.getelementptr %segm_sum[%v693] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
                    llvm.store %fin#1, %v763 {alignment = 4 : i64} : f32, !llvm.ptr<1>
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
            %out_stride_seq: i32, %out_stride_head: i32) kernel
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
      %c256_i64 = arith.constant 256 : i64
      %one_f = arith.constant 1.0 : f32
            %v764 = arith.shli %dblk, %c6_i32 : i32
            %v765 = arith.addi %v764, %lane : i32
            %v766 = arith.divui %hq, %qg : i32
            %v767 = arith.remui %hq, %qg : i32
            %v768 = arith.muli %seq, %num_kv_heads : i32
            %v769 = arith.addi %v768, %v766 : i32
            %v770 = arith.muli %v769, %num_partitions : i32
            %v771 = arith.addi %v770, %c0_i32 : i32
            %v772 = arith.extui %v771 : i32 to i64
            %v773 = arith.extui %qg : i32 to i64
            %v774 = arith.extui %v767 : i32 to i64
            %v775 = arith.extui %v765 : i32 to i64
            %c0_ix = arith.constant 0 : index
            %c1_ix = arith.constant 1 : index
            %np_ix = arith.index_cast %num_partitions : i32 to index
            // pass 1: global max over partitions (empty ones hold -inf)
            %gmax = scf.for %p = %c0_ix to %np_ix step %c1_ix iter_args(%mx = %ninf) -> (f32) {
                %v776 = arith.index_cast %p : index to i64
                %v777 = arith.addi %v772, %v776 : i64
                %v778 = arith.muli %v777, %v773 : i64
                %v779 = arith.addi %v778, %v774 : i64
                %v780 = llvm.getelementptr %segm_max[%v779] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
                %v781 = llvm.load %v780 invariant {alignment = 4 : i64} : !llvm.ptr<1> -> f32
                %v782 = arith.maxnumf %mx, %v781 : f32
                scf.yield %v782 : f32
            }
            // pass 2: w_p = exp(m_p - M) * sum_p; out = sum w_p o_p / sum w_p
            %v783 = arith.cmpf ogt, %gmax, %ninf : f32
            %v784 = arith.select %v783, %gmax, %zero_f : f32
            %acc:2 = scf.for %p = %c0_ix to %np_ix step %c1_ix iter_args(%ao = %zero_f, %aw = %zero_f) -> (f32, f32) {
                %v785 = arith.index_cast %p : index to i64
                %v786 = arith.addi %v772, %v785 : i64
                %v787 = arith.muli %v786, %v773 : i64
                %v788 = arith.addi %v787, %v774 : i64
                %v789 = llvm.getelementptr %segm_max[%v788] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
                %v790 = llvm.load %v789 invariant {alignment = 4 : i64} : !llvm.ptr<1> -> f32
                %v791 = llvm.getelementptr %segm_sum[%v788] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
                %v792 = llvm.load %v791 invariant {alignment = 4 : i64} : !llvm.ptr<1> -> f32
                %v793 = arith.muli %v788, %c256_i64 : i64
                %v794 = arith.addi %v793, %v775 : i64
                %v795 = llvm.getelementptr %segm_out[%v794] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
                %v796 = llvm.load %v795 {alignment = 2 : i64} : !llvm.ptr<1> -> bf16
                %v797 = arith.extf %v796 : bf16 to f32
                %v798 = arith.cmpf ogt, %v790, %ninf : f32
                %v799 = arith.subf %v790, %v784 : f32
                %v800 = arith.mulf %v799, %log2e : f32
                %v801 = rocdl.exp2 %v800 f32 -> f32
                %v802 = arith.mulf %v801, %v792 : f32
                %v803 = arith.select %v798, %v802, %zero_f : f32
                %v804 = arith.mulf %v803, %v797 : f32
                %v805 = arith.addf %ao, %v804 : f32
                %v806 = arith.addf %aw, %v803 : f32
                scf.yield %v805, %v806 : f32, f32
            }
            %v807 = arith.cmpf ogt, %acc#1, %zero_f : f32
            %v808 = arith.select %v807, %acc#1, %one_f : f32
            %v809 = arith.divf %acc#0, %v808 : f32
            %v810 = arith.select %v807, %v809, %zero_f : f32
            %v811 = arith.truncf %v810 : f32 to bf16
            %v812 = arith.extui %seq : i32 to i64
            %v813 = arith.extui %out_stride_seq : i32 to i64
            %v814 = arith.muli %v812, %v813 : i64
            %v815 = arith.extui %hq : i32 to i64
            %v816 = arith.extui %out_stride_head : i32 to i64
            %v817 = arith.muli %v815, %v816 : i64
            %v818 = arith.addi %v814, %v817 : i64
            %v819 = arith.addi %v818, %v775 : i64
            %v820 = llvm.getelementptr %output[%v819] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
            llvm.store %v811, %v820 {alignment = 2 : i64} : bf16, !llvm.ptr<1>
            gpu.return
        }
    }
}
