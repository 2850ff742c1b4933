// RUN: %uq_opt %s --convert-uq-to-rocdl | FileCheck %s
// The E4M3 round trip goes through the hardware conversion (so the kernel's
// overflow rule is MODE.FP16_OVFL's), 16 pairs each way, then bf16.

// CHECK-LABEL: func.func @haircut
// CHECK-COUNT-16: rocdl.cvt.pk.f32.fp8
// CHECK-NOT: rocdl.cvt.pk.fp8.f32
// CHECK: arith.truncf %{{.*}} : vector<32xf32> to vector<32xbf16>
// CHECK-NOT: uq.
func.func @haircut(%v: vector<32xf32>) -> vector<32xbf16> {
  %c = "uq.e4m3_haircut"(%v) : (vector<32xf32>) -> vector<32xbf16>
  return %c : vector<32xbf16>
}
