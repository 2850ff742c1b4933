// The partition reduce of both targets: each query row's P partials
// (bf16 accumulators, f32 max and sum) merged with the sinks into the
// output row (bf16, or fp16 with act_f16: @act_narrow). Argument order: runtime/kernel_abi.h.
module attributes {gpu.container_module} {
  gpu.module @uq_reduce [#rocdl.target<chip = "gfx950", O = 3>] attributes {uq.variants = [{d = 32}, {d = 64}, {d = 128}, {d = 256}, {d = 512}]} {
    // From kernels/steps.mlir, linked by uq-link.
    func.func private @query_row_live(!llvm.ptr<1>, i32, i32) -> i1
    func.func private @act_narrow(f32, i1) -> i16
    // From kernels/gfx950.mlir, linked by uq-link.
    func.func private @merge_base(f32, f32) -> (f32, f32)
    func.func private @merge_weight(f32, f32, f32) -> f32
    func.func private @merge_out(f32, f32) -> f32
    gpu.func @uq_reduce(
        %output: !llvm.ptr<1> {llvm.noalias, llvm.writeonly},
        %segm_out: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %segm_max: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %segm_sum: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %num_kv_heads: i32, %qg: i32, %num_partitions: i32,
        %out_stride_seq: i32, %out_stride_head: i32,
        %sinks: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %query_start_loc: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %num_seqs: i32, %act_f16: i32) kernel
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
      %c6_i32 = arith.constant 6 : i32
      %c2_row = arith.constant 2 : i32
      // one partial row: D bf16 (grid z = D / 64 workgroups of 64 head dims)
      %d = "uq.param"() {name = "d"} : () -> i32
      %row_bytes = arith.muli %d, %c2_row : i32
      %row_bytes64 = arith.extui %row_bytes : i32 to i64
      %c1_i32 = arith.constant 1 : i32
      %c1_i64 = arith.constant 1 : i64
      %v1371 = arith.shli %dblk, %c6_i32 : i32
      // D = 32 fills half the wave: lanes past D merge a live lane's head
      // dim again (their loads stay in the row) and store nothing
      %c64_i32 = arith.constant 64 : i32
      %narrow = arith.cmpi ult, %d, %c64_i32 : i32
      %dm1 = arith.subi %d, %c1_i32 : i32
      %lane_in_d = arith.andi %lane, %dm1 : i32
      %lane_eff = arith.select %narrow, %lane_in_d, %lane : i32
      %lane_live = arith.cmpi ult, %lane, %d : i32
      %true = arith.constant true
      %dim_live = arith.select %narrow, %lane_live, %true : i1
      %v1372 = arith.addi %v1371, %lane_eff : i32
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
      // pass 2: w_p = exp(m_p - M) * sum_p; out = sum w_p o_p / sum w_p
      // (@merge_base, @merge_weight, @merge_out: the decode's P = 1 epilogue
      // runs the same steps)
      %mb:2 = func.call @merge_base(%gmax, %sink) : (f32, f32) -> (f32, f32)
      %acc:2 = scf.for %p = %c0_ix to %np_ix step %c1_ix iter_args(%ao = %zero_f, %aw = %mb#1) -> (f32, f32) {
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
        %v1417 = func.call @merge_weight(%v1404, %v1406, %mb#0) : (f32, f32, f32) -> f32
        %v1418 = arith.mulf %v1417, %v1411 : f32
        %v1419 = arith.addf %ao, %v1418 : f32
        %v1420 = arith.addf %aw, %v1417 : f32
        scf.yield %v1419, %v1420 : f32, f32
      }
      %v1424 = func.call @merge_out(%acc#0, %acc#1) : (f32, f32) -> f32
      %f16 = arith.cmpi ne, %act_f16, %c0_i32 : i32
      %v1436 = func.call @act_narrow(%v1424, %f16) : (f32, i1) -> i16
      %v1426 = arith.extui %seq : i32 to i64
      %v1427 = arith.extui %out_stride_seq : i32 to i64
      %v1428 = arith.muli %v1426, %v1427 : i64
      %v1429 = arith.extui %hq : i32 to i64
      %v1430 = arith.extui %out_stride_head : i32 to i64
      %v1431 = arith.muli %v1429, %v1430 : i64
      %v1432 = arith.addi %v1428, %v1431 : i64
      %v1433 = arith.shli %v1432, %c1_i64 : i64
      %v1435 = "uq.buffer_rsrc"(%output, %v1433, %max_records) : (!llvm.ptr<1>, i64, i64) -> !llvm.ptr<8>
      // a varlen run's padding rows are left alone (@query_row_live)
      %in_span0 = func.call @query_row_live(%query_start_loc, %num_seqs, %seq) : (!llvm.ptr<1>, i32, i32) -> i1
      %in_span = arith.andi %in_span0, %dim_live : i1
      scf.if %in_span {
        rocdl.raw.ptr.buffer.store %v1436, %v1435, %v1389, %c0_i32, %c0_i32 : i16
      }
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
  gpu.module @uq_reduce_sm90 [#nvvm.target<chip = "sm_90a", features = "+ptx84", O = 3>] attributes {uq.variants = [{d = 32, held = 1}, {d = 64}, {d = 128}, {d = 256}, {d = 512, held = 1}]} {
    // From kernels/steps.mlir, linked by uq-link.
    func.func private @query_row_live(!llvm.ptr<1>, i32, i32) -> i1
    func.func private @act_narrow(f32, i1) -> i16
    // [4][D] f32 partial sums, then the 4 lanes' maxima and denominators:
    // sized for D = 256, and D = 512's own (referenced only by that
    // variant, so the others' shared memory stays 4,128 B). D = 32 and 512
    // are held with their decodes (docs/design.md "Held variants").
    llvm.mlir.global internal @uq_reduce_sm90_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4128 x i8>
    llvm.mlir.global internal @uq_reduce_sm90_smem_d512() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<8224 x i8>
    gpu.func @uq_reduce(
        %output: !llvm.ptr<1> {llvm.noalias, llvm.writeonly},
        %segm_out: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %segm_max: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %segm_sum: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %num_kv_heads: i32, %qg: i32, %num_partitions: i32,
        %out_stride_seq: i32, %out_stride_head: i32,
        %sinks: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %query_start_loc: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %num_seqs: i32, %act_f16: i32) kernel
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
      %c512_ix = arith.constant 512 : index
      %wide = arith.cmpi eq, %hd, %c512_ix : index
      %smem_narrow = llvm.mlir.addressof @uq_reduce_sm90_smem : !llvm.ptr<3>
      %smem_wide = llvm.mlir.addressof @uq_reduce_sm90_smem_d512 : !llvm.ptr<3>
      %smem = arith.select %wide, %smem_wide, %smem_narrow : !llvm.ptr<3>
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
      %f16 = arith.cmpi ne, %act_f16, %c0 : i32
      %obi = func.call @act_narrow(%o, %f16) : (f32, i1) -> i16
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
      // a varlen run's padding rows are left alone (@query_row_live)
      %in_span = func.call @query_row_live(%query_start_loc, %num_seqs, %seq) : (!llvm.ptr<1>, i32, i32) -> i1
      scf.if %in_span {
        llvm.store %obi, %outp {alignment = 2 : i64} : i16, !llvm.ptr<1>
      }
      gpu.return
    }
  }
}
