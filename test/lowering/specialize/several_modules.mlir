// RUN: %uq_opt %s --uq-specialize=d=128 | FileCheck %s
// A file holds gpu.modules with their own variant sets: a binding specializes
// each module that declares it and leaves a module that does not (here one
// built for D = 256 only, as the sm_90a kernels are) as it is, instead of
// failing the file.

// CHECK-LABEL: gpu.module @decode
// CHECK: arith.constant 128 : index
// CHECK-NOT: uq.param
// CHECK-LABEL: gpu.module @decode_sm90
// CHECK: "uq.param"() {name = "d"}
module attributes {gpu.container_module} {
  gpu.module @decode attributes {uq.variants = [{d = 128}, {d = 256}]} {
    func.func @f() -> index {
      %d = "uq.param"() {name = "d"} : () -> index
      return %d : index
    }
  }
  gpu.module @decode_sm90 attributes {uq.variants = [{d = 256}]} {
    func.func @g() -> index {
      %d = "uq.param"() {name = "d"} : () -> index
      return %d : index
    }
  }
}
