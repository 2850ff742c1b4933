// RUN: %uq_opt %s --uq-verify-unrolled | FileCheck %s
// uq-verify-unrolled passes vector.insert / vector.extract at constant
// positions through unchanged (their failures: invalid.mlir).

// CHECK-LABEL: func.func @constant_positions
// CHECK: vector.insert %{{.*}}, %{{.*}} [3] : vector<4xf32> into vector<8x4xf32>
// CHECK: vector.extract %{{.*}}[2] : f32 from vector<8xf32>
func.func @constant_positions(%v: vector<8x4xf32>, %x: vector<4xf32>, %w: vector<8xf32>) -> (vector<8x4xf32>, f32) {
  %r = vector.insert %x, %v[3] : vector<4xf32> into vector<8x4xf32>
  %e = vector.extract %w[2] : f32 from vector<8xf32>
  return %r, %e : vector<8x4xf32>, f32
}
