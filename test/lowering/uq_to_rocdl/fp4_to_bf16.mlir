// RUN: %uq_opt %s --convert-uq-to-rocdl | FileCheck %s
// FP4 group dequant: the four bytes of the code word, each through the
// scaled FP4->bf16 conversion (byte i = elements 2i, 2i+1), concatenated.

// CHECK-LABEL: func.func @dequant
// CHECK-SAME: (%[[W:.*]]: i32, %[[S:.*]]: f32)
// CHECK: %[[V1:.*]] = vector.broadcast %[[W]] : i32 to vector<1xi32>
// CHECK: %[[FP4:.*]] = vector.bitcast %[[V1]] : vector<1xi32> to vector<8xf4E2M1FN>
// CHECK: %[[P0:.*]] = amdgpu.scaled_ext_packed %[[FP4]][0], %[[S]] : vector<8xf4E2M1FN> to vector<2xbf16>
// CHECK: %[[P1:.*]] = amdgpu.scaled_ext_packed %[[FP4]][1], %[[S]]
// CHECK: %[[P2:.*]] = amdgpu.scaled_ext_packed %[[FP4]][2], %[[S]]
// CHECK: %[[P3:.*]] = amdgpu.scaled_ext_packed %[[FP4]][3], %[[S]]
// CHECK: %[[LO:.*]] = vector.shuffle %[[P0]], %[[P1]] [0, 1, 2, 3]
// CHECK: %[[HI:.*]] = vector.shuffle %[[P2]], %[[P3]] [0, 1, 2, 3]
// CHECK: %[[R:.*]] = vector.shuffle %[[LO]], %[[HI]] [0, 1, 2, 3, 4, 5, 6, 7]
// CHECK: return %[[R]]
// CHECK-NOT: uq.
func.func @dequant(%w: i32, %s: f32) -> vector<8xbf16> {
  %a = "uq.fp4_to_bf16"(%w, %s) : (i32, f32) -> vector<8xbf16>
  return %a : vector<8xbf16>
}
