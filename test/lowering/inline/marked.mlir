// RUN: %uq_opt %s --uq-inline=marked | FileCheck %s
// uq-inline{marked} inlines only the helpers carrying uq.inline (the sm_90a
// pipeline's, whose constants loop bounds need before unrolling) and erases
// those helpers; the others stay calls, for LLVM to inline later.

// CHECK-LABEL: gpu.module @some
// CHECK-NOT: func.func private @stages
// CHECK: func.func private @geometry
// CHECK: gpu.func @k
// CHECK-NOT: call @stages
// CHECK: %[[S:.*]] = arith.constant 2 : i32
// CHECK: %[[G:.*]] = func.call @geometry() : () -> i32
// CHECK: arith.addi %[[S]], %[[G]] : i32
gpu.module @some {
  func.func private @stages() -> i32 attributes {uq.inline} {
    %c2 = arith.constant 2 : i32
    return %c2 : i32
  }
  func.func private @geometry() -> i32 {
    %c304 = arith.constant 304 : i32
    return %c304 : i32
  }
  gpu.func @k(%p: !llvm.ptr<1>) kernel {
    %s = func.call @stages() : () -> i32
    %g = func.call @geometry() : () -> i32
    %t = arith.addi %s, %g : i32
    llvm.store %t, %p : i32, !llvm.ptr<1>
    gpu.return
  }
}
