// RUN: not %uq_opt %s --split-input-file --uq-inline 2>&1 | FileCheck %s
// RUN: not %uq_opt %s --uq-inline=bogus 2>&1 | FileCheck %s --check-prefix=BAD
// uq-inline's errors: a helper with branches (its body is spliced as one
// block) and recursion (which would
// never finish inlining).
// BAD: uq-opt: error: uq-inline: the only option is 'marked' (got 'bogus')

gpu.module @blocks {
  // CHECK: invalid.mlir:[[@LINE+1]]:3: error: uq-inline: @branchy must have one block (use scf, not cf)
  func.func private @branchy() {
    cf.br ^next
  ^next:
    return
  }
  gpu.func @k() kernel {
    func.call @branchy() : () -> ()
    gpu.return
  }
}

// -----

gpu.module @recursive {
  func.func private @self() {
    func.call @self() : () -> ()
    return
  }
  gpu.func @k() kernel {
    // CHECK: error: uq-inline: calls nested deeper than 16 (recursion?)
    func.call @self() : () -> ()
    gpu.return
  }
}
