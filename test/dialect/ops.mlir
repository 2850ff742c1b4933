// RUN: %uq_opt %s | %uq_opt | FileCheck %s
// Every uq op parses, verifies and prints back (through the IRDL definition
// that uq_dialect_load embeds).

// CHECK-LABEL: func.func @all_ops
func.func @all_ops(%w: i32, %s: f32, %v: vector<32xf32>, %p: !llvm.ptr<1>,
                   %o: i64, %n: i64) {
  // CHECK: "uq.param"() {name = "qg"} : () -> index
  %qg = "uq.param"() {name = "qg"} : () -> index
  // CHECK: "uq.param"() {name = "bs"} : () -> i32
  %bs = "uq.param"() {name = "bs"} : () -> i32
  // CHECK: "uq.fp4_to_bf16"(%{{.*}}, %{{.*}}) : (i32, f32) -> vector<8xbf16>
  %a = "uq.fp4_to_bf16"(%w, %s) : (i32, f32) -> vector<8xbf16>
  // CHECK: %[[W:.*]] = "uq.wht"(%{{.*}}, %{{.*}}) : (vector<32xf32>, index) -> vector<32xf32>
  %b = "uq.wht"(%v, %qg) : (vector<32xf32>, index) -> vector<32xf32>
  // CHECK: "uq.e4m3_pack"(%[[W]]) : (vector<32xf32>) -> vector<8xi32>
  %c = "uq.e4m3_pack"(%b) : (vector<32xf32>) -> vector<8xi32>
  // CHECK: "uq.buffer_rsrc"(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr<1>, i64, i64) -> !llvm.ptr<8>
  %r = "uq.buffer_rsrc"(%p, %o, %n) : (!llvm.ptr<1>, i64, i64) -> !llvm.ptr<8>
  return
}
