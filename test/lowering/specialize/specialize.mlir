// RUN: %uq_opt %s --uq-specialize=qg=8,bs=16 | FileCheck %s
// uq-specialize turns parameters into constants of the parameter's type.

// CHECK-LABEL: func.func @params
// CHECK-DAG: arith.constant 8 : index
// CHECK-DAG: arith.constant 16 : i32
// CHECK-NOT: uq.param
func.func @params() -> (index, i32) {
  %qg = "uq.param"() {name = "qg"} : () -> index
  %bs = "uq.param"() {name = "bs"} : () -> i32
  return %qg, %bs : index, i32
}
