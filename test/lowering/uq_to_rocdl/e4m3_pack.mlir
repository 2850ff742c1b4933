// RUN: %uq_opt %s --convert-uq-to-rocdl | FileCheck %s
// The E4M3 bytes come from the hardware conversion (so the kernel's overflow
// rule is MODE.FP16_OVFL's) after x * 0 + x (an infinity becomes NaN):
// 16 pairs, the low then the high half of each of the 8 words.

// CHECK-LABEL: func.func @pack
// CHECK: math.fma
// CHECK: %[[LO:.*]] = rocdl.cvt.pk.fp8.f32 %{{.*}}, %{{.*}} -> %{{.*}}[false] : i32
// CHECK: %[[HI:.*]] = rocdl.cvt.pk.fp8.f32 %{{.*}}, %{{.*}} -> %[[LO]][true] : i32
// CHECK: vector.insert %[[HI]], %{{.*}} [0] : i32 into vector<8xi32>
// CHECK-COUNT-14: rocdl.cvt.pk.fp8.f32
// CHECK-NOT: rocdl.cvt.pk.fp8.f32
// CHECK-NOT: rocdl.cvt.pk.f32.fp8
// CHECK-NOT: uq.
func.func @pack(%v: vector<32xf32>) -> vector<8xi32> {
  %c = "uq.e4m3_pack"(%v) : (vector<32xf32>) -> vector<8xi32>
  return %c : vector<8xi32>
}
