// RUN: %uq_opt %s --convert-uq-to-rocdl | FileCheck %s
// The 8-lane Walsh-Hadamard: five in-register butterfly stages (strides 1,
// 2, 4, 8, 16), three swizzle stages (xor 1, 2, 4 within 32 lanes) with the
// per-lane sign, then the 1/16 normalization.

// CHECK-LABEL: func.func @wht
// Stage 0 pairs element i with i + 1:
// CHECK: vector.shuffle %arg0, %arg0 [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK: vector.shuffle %arg0, %arg0 [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]
// CHECK: arith.addf
// CHECK: arith.subf
// CHECK-COUNT-4: arith.subf
// CHECK: %[[LANE:.*]] = gpu.lane_id
// CHECK: amdgpu.swizzle_bitmode %{{.*}} 31 0 1 : vector<32xf32>
// CHECK: arith.select
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: amdgpu.swizzle_bitmode %{{.*}} 31 0 2 : vector<32xf32>
// CHECK: amdgpu.swizzle_bitmode %{{.*}} 31 0 4 : vector<32xf32>
// CHECK: arith.constant 6.250000e-02 : f32
// CHECK-NOT: amdgpu.swizzle_bitmode
// CHECK-NOT: uq.
func.func @wht(%v: vector<32xf32>) -> vector<32xf32> {
  %b = "uq.wht256"(%v) : (vector<32xf32>) -> vector<32xf32>
  return %b : vector<32xf32>
}
