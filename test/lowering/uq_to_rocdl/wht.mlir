// RUN: %uq_opt %s --split-input-file --convert-uq-to-rocdl | FileCheck %s
// The Walsh-Hadamard over D / 32 lanes: five in-register butterfly stages
// (strides 1, 2, 4, 8, 16), log2(D / 32) swizzle stages (xor 1 .. 8 within
// 32 lanes) with the per-lane sign (one fma: v * sign + partner), then the
// 1/sqrt(D) normalization as the host reference rounds it.

// CHECK-LABEL: func.func @wht256
// Stage 0 pairs element i with i + 1:
// CHECK: vector.shuffle %arg0, %arg0 [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK: vector.shuffle %arg0, %arg0 [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]
// CHECK: arith.addf
// CHECK: arith.subf
// CHECK-COUNT-4: arith.subf
// CHECK: %[[LANE:.*]] = gpu.lane_id
// CHECK: amdgpu.swizzle_bitmode %{{.*}} 31 0 1 : vector<32xf32>
// CHECK: arith.select
// CHECK: math.fma
// CHECK: amdgpu.swizzle_bitmode %{{.*}} 31 0 2 : vector<32xf32>
// CHECK: amdgpu.swizzle_bitmode %{{.*}} 31 0 4 : vector<32xf32>
// CHECK: arith.constant 6.250000e-02 : f32
// CHECK-NOT: amdgpu.swizzle_bitmode
// CHECK-NOT: uq.
func.func @wht256(%v: vector<32xf32>) -> vector<32xf32> {
  %d = arith.constant 256 : index
  %b = "uq.wht"(%v, %d) : (vector<32xf32>, index) -> vector<32xf32>
  return %b : vector<32xf32>
}

// -----

// D = 128: two lanes apart at most (xor 1, 2), 1/sqrt(128) = 0x3DB504F3.
// CHECK-LABEL: func.func @wht128
// CHECK: amdgpu.swizzle_bitmode %{{.*}} 31 0 1 : vector<32xf32>
// CHECK: amdgpu.swizzle_bitmode %{{.*}} 31 0 2 : vector<32xf32>
// CHECK-NOT: amdgpu.swizzle_bitmode
// CHECK: arith.constant 0.0883883461 : f32
func.func @wht128(%v: vector<32xf32>) -> vector<32xf32> {
  %d = arith.constant 128 : index
  %b = "uq.wht"(%v, %d) : (vector<32xf32>, index) -> vector<32xf32>
  return %b : vector<32xf32>
}

// -----

// D = 64: one cross-lane stage, x 1/8.
// CHECK-LABEL: func.func @wht64
// CHECK: amdgpu.swizzle_bitmode %{{.*}} 31 0 1 : vector<32xf32>
// CHECK-NOT: amdgpu.swizzle_bitmode
// CHECK: arith.constant 1.250000e-01 : f32
func.func @wht64(%v: vector<32xf32>) -> vector<32xf32> {
  %d = arith.constant 64 : index
  %b = "uq.wht"(%v, %d) : (vector<32xf32>, index) -> vector<32xf32>
  return %b : vector<32xf32>
}


// -----

// D = 512: sixteen lanes a row (xor 1, 2, 4, 8), 1/sqrt(512) = 0x3D3504F3.
// CHECK-LABEL: func.func @wht512
// CHECK: amdgpu.swizzle_bitmode %{{.*}} 31 0 1 : vector<32xf32>
// CHECK: amdgpu.swizzle_bitmode %{{.*}} 31 0 2 : vector<32xf32>
// CHECK: amdgpu.swizzle_bitmode %{{.*}} 31 0 4 : vector<32xf32>
// CHECK: amdgpu.swizzle_bitmode %{{.*}} 31 0 8 : vector<32xf32>
// CHECK-NOT: amdgpu.swizzle_bitmode
// CHECK: arith.constant 0.0441941731 : f32
func.func @wht512(%v: vector<32xf32>) -> vector<32xf32> {
  %d = arith.constant 512 : index
  %b = "uq.wht"(%v, %d) : (vector<32xf32>, index) -> vector<32xf32>
  return %b : vector<32xf32>
}

// -----

// D = 32: one lane a row, no cross-lane stage, 1/sqrt(32) = 0x3E3504F3.
// CHECK-LABEL: func.func @wht32
// CHECK-NOT: amdgpu.swizzle_bitmode
// CHECK: arith.constant 0.176776692 : f32
func.func @wht32(%v: vector<32xf32>) -> vector<32xf32> {
  %d = arith.constant 32 : index
  %b = "uq.wht"(%v, %d) : (vector<32xf32>, index) -> vector<32xf32>
  return %b : vector<32xf32>
}
