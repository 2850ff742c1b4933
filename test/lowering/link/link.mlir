// RUN: %uq_opt %s --split-input-file --uq-link | FileCheck %s
// uq-link: each gpu.module's declarations become private copies of the
// top-level definitions (the kernel library), with the helpers those call;
// the library is erased afterwards, used or not.

// CHECK-NOT: func.func @unused
// CHECK-LABEL: gpu.module @first
// CHECK-DAG: func.func private @double(%{{.*}}: i32) -> i32
// CHECK-DAG: arith.addi
// CHECK-DAG: func.func private @double_squared(%{{.*}}: i32) -> i32
// CHECK: gpu.func @k
// CHECK-LABEL: gpu.module @second
// A helper the module defines itself is kept, not replaced by the library's.
// CHECK: func.func private @double(%{{.*}}: i32) -> i32
// CHECK-NEXT: arith.constant 2
// CHECK-NEXT: arith.muli
// CHECK: func.func private @double_squared
// CHECK: gpu.func @k
// CHECK-NOT: func.func
module {
  func.func @double(%x: i32) -> i32 {
    %r = arith.addi %x, %x : i32
    return %r : i32
  }
  func.func @double_squared(%x: i32) -> i32 {
    %d = func.call @double(%x) : (i32) -> i32
    %r = arith.muli %d, %d : i32
    return %r : i32
  }
  func.func @unused() {
    return
  }
  gpu.module @first {
    func.func private @double_squared(i32) -> i32
    gpu.func @k(%x: i32) kernel {
      %r = func.call @double_squared(%x) : (i32) -> i32
      gpu.return
    }
  }
  gpu.module @second {
    func.func private @double(%x: i32) -> i32 {
      %two = arith.constant 2 : i32
      %r = arith.muli %x, %two : i32
      return %r : i32
    }
    func.func private @double_squared(i32) -> i32
    gpu.func @k(%x: i32) kernel {
      %r = func.call @double_squared(%x) : (i32) -> i32
      gpu.return
    }
  }
}

// -----

// A declaration nobody calls (a value a global names) is linked too, and
// attributes of the definition (uq.inline) come with it.
// CHECK-LABEL: gpu.module @named
// CHECK: func.func private @bytes() -> i32 attributes {uq.inline}
// CHECK: llvm.mlir.global external constant @size() {addr_space = 4 : i32, uq.value_of = @bytes} : i32
module {
  func.func @bytes() -> i32 attributes {uq.inline} {
    %c = arith.constant 64 : i32
    return %c : i32
  }
  gpu.module @named {
    func.func private @bytes() -> i32
    llvm.mlir.global external constant @size() {addr_space = 4 : i32, uq.value_of = @bytes} : i32
  }
}
