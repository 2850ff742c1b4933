// The cache store, one source for both targets: new tokens' K and V
// encoded into their slots byte for byte as the host encoder
// (runtime/format). Argument order: runtime/kernel_abi.h.
module attributes {gpu.container_module} {
  // ---- The cache store: T new tokens' K and V (bf16 or, with act_f16,
  // fp16 [T, Hk, D], element strides, head dim contiguous) encoded into their slots, byte for byte as
  // the host's uq_cache_write (runtime/format/format.c), written once for
  // every target: the module names both, and uq-compile builds each
  // variant for each (store_d<D> for gfx950, store_sm90_d<D> for sm_90a).
  // Grid (T, Hk), one wave or warp of L lanes each (the target's `lanes`
  // in uq.target_params: L = 64 on gfx950, 32 on sm_90a; the workgroup is
  // uq.block_size = L). The row is D/4 pieces of 4 elements (piece p =
  // elements 4p..4p+3); lane l holds pieces l + cL, c < ceil(D/4L) (1, 2
  // or 4: D = 512 on sm_90a). Pieces >= D/4 load element 0 and only take
  // part in the shuffles. slot_mapping[t] < 0 (padding) or >= num_slots
  // (past the cache) skips the token; a stored slot gets its K codes, K
  // scales, V codes and V scales (D + D/16 bytes) and no other byte.
  //   K: bf16 or fp16 -> f32 (@act_widen4), the fp32 butterfly of uq_wht (strides 1, 2 in the
  //      piece, 4..4L/2 across lanes with gpu.shuffle xor, then 4L and
  //      8L in the lane across its pieces: the host's order), times
  //      1/sqrt(D) rounded to f32 (uq_wht_scale); V as is.
  // One variant per head dim D = 32 to 512 and target; sm_90a's D = 32 and
  // 512 held (`held = 1`, with the decodes they serve, until a GPU run
  // checks them: docs/design.md "Held variants").
  //   Group of 32 = 8 pieces (of one lane's pieces: L is a multiple of 8):
  //   absmax by integer max of |bits| (a NaN or inf
  //   shows as >= 0x7F800000 and makes a zero group, the host's rule);
  //   s = 0.156f * absmax; exp = floor(log2(s) + 1/2) exactly: s's binary
  //   exponent, plus one when its significand is >= sqrt(2) (bits >=
  //   0x3504F4: sqrt(2) lies strictly between 0x3504F3 and 0x3504F4), -126
  //   for a subnormal s; no hardware log2. Codes: x * 2^-exp snapped over the
  //   7 midpoints with torch.bucketize ties (a tie takes the level toward
  //   -inf); magnitude 0 is +0.
  gpu.module @uq_store [#rocdl.target<chip = "gfx950", O = 3>, #nvvm.target<chip = "sm_90a", features = "+ptx84", O = 3>] attributes {uq.variants = [{d = 32, target = 0}, {d = 32, target = 1, held = 1}, {d = 64}, {d = 128}, {d = 256}, {d = 512, target = 0}, {d = 512, target = 1, held = 1}], uq.target_params = [{lanes = 64}, {lanes = 32}]} {
    // From kernels/steps.mlir, linked by uq-link.
    func.func private @fp4_codes(vector<4xf32>, i1) -> i16
    func.func private @group_scale(vector<4xf32>, i32) -> (i1, i32, f32)
    func.func private @wht_pieces(vector<4xf32>, i32, i32, i32) -> vector<4xf32>
    func.func private @act_widen4(vector<4xi16>, i1) -> vector<4xf32>

    gpu.func @uq_store(
        %kv_cache: !llvm.ptr<1> {llvm.noalias},
        %key: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %value: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %slot_mapping: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %num_kv_heads: i32, %padded_slot: i32, %num_slots: i64,
        %key_stride_token: i64, %key_stride_head: i64,
        %value_stride_token: i64, %value_stride_head: i64, %act_f16: i32) kernel
        attributes {uq.block_size = "lanes"} {
      %d = "uq.param"() {name = "d"} : () -> index
      %lanes_ix = "uq.param"() {name = "lanes"} : () -> index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c6 = arith.constant 6 : index
      %c8_i16 = arith.constant 8 : i16
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
      %f16 = arith.cmpi ne, %act_f16, %c0_i32 : i32
      %m025 = arith.constant dense<0.25> : vector<4xf32>
      %m075 = arith.constant dense<0.75> : vector<4xf32>
      %m125 = arith.constant dense<1.25> : vector<4xf32>
      %m175 = arith.constant dense<1.75> : vector<4xf32>
      %m250 = arith.constant dense<2.5> : vector<4xf32>
      %m350 = arith.constant dense<3.5> : vector<4xf32>
      %m500 = arith.constant dense<5.0> : vector<4xf32>
      %d_i32 = arith.index_cast %d : index to i32
      %lanes = arith.index_cast %lanes_ix : index to i32
      // Pieces in the row, and per lane: 1, or 2 or 4 when the row has
      // more pieces than the wave has lanes (D = 256 and 512 on 32 lanes,
      // 512 on 64).
      %d_pieces = arith.shrui %d_i32, %c2_i32 : i32
      %d_pieces_ix = arith.shrui %d, %c2 : index
      %per_lane = arith.ceildivui %d_pieces_ix, %lanes_ix : index
      %two = arith.cmpi ugt, %d_pieces, %lanes : i32
      %lanes2 = arith.shli %lanes, %c1_i32 : i32
      %four = arith.cmpi ugt, %d_pieces, %lanes2 : i32
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
          %rows:4 = scf.for %c = %c0 to %per_lane step %c1 iter_args(%r0 = %zero4, %r1 = %zero4, %r2 = %zero4, %r3 = %zero4) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
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
            %x = func.call @act_widen4(%raw, %f16) : (vector<4xi16>, i1) -> vector<4xf32>
            %rot = scf.if %is_k -> vector<4xf32> {
              // rotated: the butterflies of its strides up to the wave
              %butterfly = func.call @wht_pieces(%x, %lane, %lanes, %d_pieces) : (vector<4xf32>, i32, i32, i32) -> vector<4xf32>
              scf.yield %butterfly : vector<4xf32>
            } else {
              scf.yield %x : vector<4xf32>
            }
            %is0 = arith.cmpi eq, %c, %c0 : index
            %is1 = arith.cmpi eq, %c, %c1 : index
            %is2 = arith.cmpi eq, %c, %c2 : index
            %is3 = arith.cmpi eq, %c, %c3 : index
            %n0 = arith.select %is0, %rot, %r0 : vector<4xf32>
            %n1 = arith.select %is1, %rot, %r1 : vector<4xf32>
            %n2 = arith.select %is2, %rot, %r2 : vector<4xf32>
            %n3 = arith.select %is3, %rot, %r3 : vector<4xf32>
            scf.yield %n0, %n1, %n2, %n3 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
          }
          // K: the strides past the wave, inside the lane (4L: its pieces
          // c and c + 1; 8L: c and c + 2, D = 512 on 32 lanes), then the
          // 1/sqrt(D) scale.
          %out:4 = scf.if %is_k -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
            %j:4 = scf.if %two -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
              %lo01 = arith.addf %rows#0, %rows#1 : vector<4xf32>
              %hi01 = arith.subf %rows#0, %rows#1 : vector<4xf32>
              %lo23 = arith.addf %rows#2, %rows#3 : vector<4xf32>
              %hi23 = arith.subf %rows#2, %rows#3 : vector<4xf32>
              scf.yield %lo01, %hi01, %lo23, %hi23 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            } else {
              scf.yield %rows#0, %rows#1, %rows#2, %rows#3 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            %k:4 = scf.if %four -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
              %lo02 = arith.addf %j#0, %j#2 : vector<4xf32>
              %lo13 = arith.addf %j#1, %j#3 : vector<4xf32>
              %hi02 = arith.subf %j#0, %j#2 : vector<4xf32>
              %hi13 = arith.subf %j#1, %j#3 : vector<4xf32>
              scf.yield %lo02, %lo13, %hi02, %hi13 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            } else {
              scf.yield %j#0, %j#1, %j#2, %j#3 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
            }
            %scaled0 = arith.mulf %k#0, %norm4 : vector<4xf32>
            %scaled1 = arith.mulf %k#1, %norm4 : vector<4xf32>
            %scaled2 = arith.mulf %k#2, %norm4 : vector<4xf32>
            %scaled3 = arith.mulf %k#3, %norm4 : vector<4xf32>
            scf.yield %scaled0, %scaled1, %scaled2, %scaled3 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
          } else {
            scf.yield %rows#0, %rows#1, %rows#2, %rows#3 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
          }
          // Each piece of the lane encoded and stored.
          scf.for %c = %c0 to %per_lane step %c1 {
            %c_i32 = arith.index_cast %c : index to i32
            %c_lanes = arith.muli %c_i32, %lanes : i32
            %piece = arith.addi %c_lanes, %lane : i32
            %active = arith.cmpi ult, %piece, %d_pieces : i32
            %group_lane = arith.andi %piece, %c7_i32 : i32
            %group = arith.shrui %piece, %c3_i32 : i32
            %is1 = arith.cmpi eq, %c, %c1 : index
            %is2 = arith.cmpi eq, %c, %c2 : index
            %is3 = arith.cmpi eq, %c, %c3 : index
            %rot1 = arith.select %is1, %out#1, %out#0 : vector<4xf32>
            %rot2 = arith.select %is2, %out#2, %rot1 : vector<4xf32>
            %rot = arith.select %is3, %out#3, %rot2 : vector<4xf32>
            %zero_group, %scale_byte, %inv = func.call @group_scale(%rot, %lanes) : (vector<4xf32>, i32) -> (i1, i32, f32)
            %inv4 = vector.broadcast %inv : f32 to vector<4xf32>
            %y = arith.mulf %rot, %inv4 : vector<4xf32>
            %packed16 = func.call @fp4_codes(%y, %zero_group) : (vector<4xf32>, i1) -> i16
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
              // D = 32 puts V's codes at the odd byte 17: two byte stores
              // there (sm_90a faults on a misaligned 16-bit store).
              %co_odd = arith.andi %codes_off, %c1_i32 : i32
              %odd = arith.cmpi ne, %co_odd, %c0_i32 : i32
              scf.if %odd {
                %lo8 = arith.trunci %packed16 : i16 to i8
                %hi16 = arith.shrui %packed16, %c8_i16 : i16
                %hi8 = arith.trunci %hi16 : i16 to i8
                %cp1 = llvm.getelementptr %cp[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i8
                llvm.store %lo8, %cp {alignment = 1 : i64} : i8, !llvm.ptr<1>
                llvm.store %hi8, %cp1 {alignment = 1 : i64} : i8, !llvm.ptr<1>
              } else {
                llvm.store %packed16, %cp {alignment = 2 : i64} : i16, !llvm.ptr<1>
              }
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
