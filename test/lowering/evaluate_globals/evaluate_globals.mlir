// RUN: %uq_opt %s --split-input-file --uq-specialize="d=256,qg_max=8" --uq-evaluate-globals | FileCheck %s
// uq-evaluate-globals gives a global with uq.value_of = @f the constant @f
// folds to once the parameters are constants (here (256 + 16) x 2 x 16 +
// 1072 = 9776): the helpers @f calls are
// inlined into a copy of it, the originals (and the kernel's calls) stay.

// CHECK-LABEL: gpu.module @layout
// CHECK: llvm.mlir.global external constant @bytes(9776 : i32) {addr_space = 4 : i32} : i32
// CHECK: func.func private @stride
// CHECK: func.func private @bytes_of
// CHECK: func.call @stride
gpu.module @layout attributes {uq.variants = [{d = 256, qg_max = 8}]} {
  llvm.mlir.global external constant @bytes() {addr_space = 4 : i32, uq.value_of = @bytes_of} : i32
  func.func private @stride() -> i32 {
    %d = "uq.param"() {name = "d"} : () -> index
    %di = arith.index_cast %d : index to i32
    %c16 = arith.constant 16 : i32
    %r = arith.addi %di, %c16 : i32
    return %r : i32
  }
  func.func private @bytes_of() -> i32 {
    %s = func.call @stride() : () -> i32
    %q = "uq.param"() {name = "qg_max"} : () -> index
    %qi = arith.index_cast %q : index to i32
    %c8 = arith.constant 8 : i32
    %small = arith.cmpi ule, %qi, %c8 : i32
    %c2 = arith.constant 2 : i32
    %c4 = arith.constant 4 : i32
    %n = arith.select %small, %c2, %c4 : i32
    %b0 = arith.muli %s, %n : i32
    %c16 = arith.constant 16 : i32
    %b = arith.muli %b0, %c16 : i32
    %c1072 = arith.constant 1072 : i32
    %t = arith.addi %b, %c1072 : i32
    return %t : i32
  }
  gpu.func @k(%p: !llvm.ptr<1>) kernel {
    %s = func.call @stride() : () -> i32
    llvm.store %s, %p : i32, !llvm.ptr<1>
    gpu.return
  }
}
