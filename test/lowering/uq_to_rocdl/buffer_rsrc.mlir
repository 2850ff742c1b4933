// RUN: %uq_opt %s --convert-uq-to-rocdl | FileCheck %s
// The 64-bit offset is folded into the descriptor's base address, so the
// 32-bit offsets of the accesses never wrap on caches over 4 GiB.

// CHECK-LABEL: func.func @rsrc
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr<1>, %[[O:.*]]: i64, %[[N:.*]]: i64)
// CHECK: %[[BASE:.*]] = llvm.getelementptr %[[P]][%[[O]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK: %[[STRIDE:.*]] = arith.constant 0 : i16
// CHECK: %[[FLAGS:.*]] = arith.constant 159744 : i32
// CHECK: rocdl.make.buffer.rsrc %[[BASE]], %[[STRIDE]], %[[N]], %[[FLAGS]] : <1> to <8>
func.func @rsrc(%p: !llvm.ptr<1>, %o: i64, %n: i64) -> !llvm.ptr<8> {
  %r = "uq.buffer_rsrc"(%p, %o, %n) : (!llvm.ptr<1>, i64, i64) -> !llvm.ptr<8>
  return %r : !llvm.ptr<8>
}
