// RUN: not %uq_opt %s --split-input-file --uq-evaluate-globals 2>&1 | FileCheck %s
// RUN: not %uq_opt %s --uq-evaluate-globals=bogus 2>&1 | FileCheck %s --check-prefix=BAD
// uq-evaluate-globals' errors: a missing function, a value known only at
// run time, a global that is not an integer, an attribute that is not a
// symbol.
// BAD: uq-opt: error: pass 'uq-evaluate-globals' takes no options

gpu.module @missing {
  // CHECK: invalid.mlir:[[@LINE+1]]:3: error: uq-evaluate-globals: no func.func @nowhere beside it
  llvm.mlir.global external constant @g() {addr_space = 4 : i32, uq.value_of = @nowhere} : i32
}

// -----

gpu.module @runtime {
  // CHECK: invalid.mlir:[[@LINE+1]]:3: error: uq-evaluate-globals: @tid does not fold to one integer constant (it must depend only on uq.param values)
  llvm.mlir.global external constant @g() {addr_space = 4 : i32, uq.value_of = @tid} : i32
  func.func private @tid() -> i32 {
    %t = gpu.thread_id x
    %ti = arith.index_cast %t : index to i32
    return %ti : i32
  }
}

// -----

gpu.module @not_integer {
  // CHECK: invalid.mlir:[[@LINE+1]]:3: error: uq-evaluate-globals: a global with uq.value_of must have an integer type
  llvm.mlir.global external constant @g() {addr_space = 4 : i32, uq.value_of = @f} : f32
  func.func private @f() -> i32 {
    %c = arith.constant 1 : i32
    return %c : i32
  }
}

// -----

gpu.module @not_symbol {
  // CHECK: invalid.mlir:[[@LINE+1]]:3: error: uq-evaluate-globals: uq.value_of must name a function (@name)
  llvm.mlir.global external constant @g() {addr_space = 4 : i32, uq.value_of = "f"} : i32
}
