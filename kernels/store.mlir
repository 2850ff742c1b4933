// The cache store, one source for both targets: new tokens' K and V
// encoded into their slots byte for byte as the host encoder
// (runtime/format). Argument order: runtime/kernel_abi.h.
module attributes {gpu.container_module} {
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
