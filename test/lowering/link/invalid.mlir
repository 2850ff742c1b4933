// RUN: not %uq_opt %s --split-input-file --uq-link 2>&1 | FileCheck %s
// uq-link's errors name the declaration: a helper the library lacks, and one
// whose declared type is not the definition's.

module {
  gpu.module @missing {
    // CHECK: invalid.mlir:[[@LINE+1]]:5: error: uq-link: @nowhere is declared in gpu.module @missing, but the kernel library (the top-level func.func definitions) has no @nowhere
    func.func private @nowhere(i32) -> i32
  }
}

// -----

module {
  func.func @widen(%x: i32) -> i64 {
    %r = arith.extsi %x : i32 to i64
    return %r : i64
  }
  gpu.module @mismatch {
    // CHECK: invalid.mlir:[[@LINE+1]]:5: error: uq-link: @widen is declared as (i32) -> i32, but the kernel library defines it as (i32) -> i64
    func.func private @widen(i32) -> i32
  }
}
