// RUN: not %uq_opt %s --split-input-file --uq-verify-unrolled 2>&1 | FileCheck %s
// RUN: not %uq_opt %s --uq-verify-unrolled=bogus 2>&1 | FileCheck %s --check-prefix=BAD
// uq-verify-unrolled names a run-time position (a loop over a register
// array that did not unroll) instead of letting the LLVM lowering spill the
// array or, for a vector.insert into a 2-D vector, crash (MLIR 22).
// BAD: uq-opt: error: pass 'uq-verify-unrolled' takes no options

func.func @insert_at_runtime(%v: vector<8x4xf32>, %x: vector<4xf32>, %n: index) -> vector<8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %p = %c0 to %n step %c1 iter_args(%a = %v) -> (vector<8x4xf32>) {
    // CHECK: invalid.mlir:[[@LINE+1]]:11: error: vector.insert at a run-time position: a loop over a register array did not unroll (its bounds must be constants once the variant is specialized)
    %a1 = vector.insert %x, %a[%p] : vector<4xf32> into vector<8x4xf32>
    scf.yield %a1 : vector<8x4xf32>
  }
  return %r : vector<8x4xf32>
}

// -----

func.func @extract_at_runtime(%w: vector<8xf32>, %i: index) -> f32 {
  // CHECK: invalid.mlir:[[@LINE+1]]:8: error: vector.extract at a run-time position
  %e = vector.extract %w[%i] : f32 from vector<8xf32>
  return %e : f32
}
