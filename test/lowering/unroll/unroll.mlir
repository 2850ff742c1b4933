// RUN: %uq_opt %s --split-input-file --allow-unregistered-dialect --uq-unroll-loops | FileCheck %s
// RUN: not %uq_opt %s --uq-unroll-loops=bogus 2>&1 | FileCheck %s --check-prefix=BAD
// uq-unroll-loops removes loops with constant trip counts (so no register
// array is indexed dynamically) and leaves runtime loops alone.
// BAD: uq-opt: error: uq-unroll-loops: unknown option 'bogus' (expected max-trip=N)

// CHECK-LABEL: func.func @sum_iter_args
// CHECK-NOT: scf.for
// CHECK: %[[I0:.*]] = arith.constant 0 : index
// CHECK: %[[A0:.*]] = arith.addi %arg0, %[[I0]]
// CHECK: %[[I1:.*]] = arith.constant 2 : index
// CHECK: %[[A1:.*]] = arith.addi %[[A0]], %[[I1]]
// CHECK: %[[I2:.*]] = arith.constant 4 : index
// CHECK: %[[A2:.*]] = arith.addi %[[A1]], %[[I2]]
// CHECK: return %[[A2]]
func.func @sum_iter_args(%init: index) -> index {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %c5 step %c2 iter_args(%acc = %init) -> index {
    %n = arith.addi %acc, %i : index
    scf.yield %n : index
  }
  return %r : index
}

// -----

// CHECK-LABEL: func.func @runtime_loop_kept
// CHECK: scf.for
func.func @runtime_loop_kept(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// Nested: the inner loop is unrolled inside each copy of the outer body.
// CHECK-LABEL: func.func @nested
// CHECK-NOT: scf.for
// CHECK-COUNT-6: "test.use"
// CHECK-NOT: "test.use"
func.func @nested() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      "test.use"(%i, %j) : (index, index) -> ()
    }
  }
  return
}

// -----

// A zero-trip loop yields its initial values.
// CHECK-LABEL: func.func @zero_trip
// CHECK-NOT: scf.for
// CHECK: return %arg0
func.func @zero_trip(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c0 step %c1 iter_args(%a = %x) -> f32 {
    %y = arith.addf %a, %a : f32
    scf.yield %y : f32
  }
  return %r : f32
}
