// RUN: %uq_opt %s --allow-unregistered-dialect --uq-specialize=lanes=32 | FileCheck %s
// RUN: not %uq_opt %s --allow-unregistered-dialect --uq-specialize=d=1 2>&1 | FileCheck %s --check-prefix=UNBOUND
// A kernel whose workgroup is a parameter names it in uq.block_size: the
// bound value becomes its known_block_size (a module built for several
// targets, 64-lane waves and 32-lane warps, writes the kernel once).

// CHECK-LABEL: gpu.func @k
// CHECK-SAME: known_block_size = array<i32: 32, 1, 1>
// CHECK-NOT: uq.block_size
// CHECK: arith.constant 32 : i32
// UNBOUND: error: uq.param "lanes" has no value
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel attributes {uq.block_size = "lanes"} {
      %lanes = "uq.param"() {name = "lanes"} : () -> i32
      "test.use"(%lanes) : (i32) -> ()
      gpu.return
    }
  }
}
