// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %uq_compile %s -o %t.dir --quiet
// RUN: %objdump -d %t.dir/isa_qg8.hsaco | FileCheck %s
// RUN: %readelf --notes %t.dir/isa_qg8.hsaco | FileCheck %s --check-prefix=NOTES
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.dir/isa_qg8.json
// A small kernel through the whole pipeline (specialize, unroll, every uq
// lowering, the upstream gfx950 conversions, serialization) to a real code
// object; the ISA shows each uq op's target instruction and the scaled MFMA.

// CHECK-LABEL: <isa_qg8>:
// CHECK-DAG: v_cvt_scalef32_pk_bf16_fp4
// CHECK-DAG: ds_swizzle_b32 {{.*}} offset:swizzle(SWAP,1)
// CHECK-DAG: ds_swizzle_b32 {{.*}} offset:swizzle(SWAP,2)
// CHECK-DAG: ds_swizzle_b32 {{.*}} offset:swizzle(SWAP,4)
// CHECK-DAG: v_pk_fma_f32
// CHECK-DAG: v_cvt_pk_fp8_f32
// CHECK-DAG: buffer_load_dwordx4
// CHECK-DAG: v_mfma_scale_f32_16x16x128_f8f6f4
// CHECK: s_endpgm

// NOTES: .name: isa_qg8
// NOTES: .private_segment_fixed_size: 0
// MANIFEST-DAG: "variant": "isa_qg8"
// MANIFEST-DAG: "symbol": "isa_qg8.kd"

module attributes {gpu.container_module} {
  gpu.module @uq_isa [#rocdl.target<chip = "gfx950", O = 3>]
      attributes {uq.variants = [{qg = 8}]} {
    gpu.func @isa(%out: !llvm.ptr<1>, %cache: !llvm.ptr<1>, %block: i64,
                  %codes: i32, %vscale: f32, %q: vector<32xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %qg = "uq.param"() {name = "qg"} : () -> index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %head_dim = arith.constant 256 : index
      %zero = arith.constant 0 : i32
      %nrec = arith.constant 4096 : i64
      // Compile-time loop over the QG rows: unrolled by uq-unroll-loops.
      %sum = scf.for %i = %c0 to %qg step %c1 iter_args(%acc = %q) -> vector<32xf32> {
        %w = "uq.wht"(%acc, %head_dim) : (vector<32xf32>, index) -> vector<32xf32>
        scf.yield %w : vector<32xf32>
      }
      %hc = "uq.e4m3_pack"(%sum) : (vector<32xf32>) -> vector<8xi32>
      %v = "uq.fp4_to_bf16"(%codes, %vscale) : (i32, f32) -> vector<8xbf16>
      %rsrc = "uq.buffer_rsrc"(%cache, %block, %nrec) : (!llvm.ptr<1>, i64, i64) -> !llvm.ptr<8>
      %k = rocdl.raw.ptr.buffer.load %rsrc, %zero, %zero, %zero : vector<4xi32>
      %kz = arith.constant dense<0> : vector<4xi32>
      %a = vector.shuffle %k, %kz [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xi32>, vector<4xi32>
      %acc0 = arith.constant dense<0.0> : vector<4xf32>
      %fa = arith.constant 4 : i32
      %fb = arith.constant 0 : i32
      %sa = arith.constant 0x7F7F7F00 : i32
      %sb = arith.constant 127 : i32
      %sav = arith.ori %sa, %codes : i32
      %d = rocdl.mfma.scale.f32.16x16x128.f8f6f4 %a, %hc, %acc0, %fa, %fb, %zero, %sav, %zero, %sb : (vector<8xi32>, vector<8xi32>, vector<4xf32>, i32, i32, i32, i32, i32, i32) -> vector<4xf32>
      %vw = vector.bitcast %v : vector<8xbf16> to vector<4xf32>
      %r = arith.addf %d, %vw : vector<4xf32>
      %lane = gpu.lane_id
      %lane64 = arith.index_cast %lane : index to i64
      %p = llvm.getelementptr %out[%lane64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xf32>
      llvm.store %r, %p : vector<4xf32>, !llvm.ptr<1>
      gpu.return
    }
  }
}
