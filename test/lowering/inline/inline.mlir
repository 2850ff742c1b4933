// RUN: %uq_opt %s --split-input-file --allow-unregistered-dialect --uq-inline | FileCheck %s
// uq-inline copies each helper's body over its call (helpers calling helpers
// included) and erases the helpers of a gpu.module, so kernels/ can write
// each step once; uq ops (no inliner interface) are inlined too.

// CHECK-LABEL: gpu.module @nested
// CHECK-NOT: func.func
// CHECK: gpu.func @k
// CHECK-NOT: func.call
// CHECK: %[[A:.*]] = arith.addi %arg0, %arg0 : i32
// CHECK: %[[M:.*]] = arith.muli %[[A]], %[[A]] : i32
// CHECK: "test.use"(%[[M]])
gpu.module @nested {
  func.func private @double(%x: i32) -> i32 {
    %r = arith.addi %x, %x : i32
    return %r : i32
  }
  func.func private @double_squared(%x: i32) -> i32 {
    %d = func.call @double(%x) : (i32) -> i32
    %r = arith.muli %d, %d : i32
    return %r : i32
  }
  gpu.func @k(%x: i32) kernel {
    %r = func.call @double_squared(%x) : (i32) -> i32
    "test.use"(%r) : (i32) -> ()
    gpu.return
  }
}

// -----

// A helper with several results and a structured loop inside; uq ops survive.
// CHECK-LABEL: gpu.module @multi
// CHECK-NOT: func.func
// CHECK: scf.for
// CHECK: "uq.fp4_to_bf16"
// CHECK: "test.use"
gpu.module @multi {
  func.func private @pair(%w: i32, %s: f32) -> (vector<8xbf16>, i32) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %n = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %w) -> (i32) {
      %b = arith.addi %a, %w : i32
      scf.yield %b : i32
    }
    %v = "uq.fp4_to_bf16"(%n, %s) : (i32, f32) -> vector<8xbf16>
    return %v, %n : vector<8xbf16>, i32
  }
  gpu.func @k(%w: i32, %s: f32) kernel {
    %r:2 = func.call @pair(%w, %s) : (i32, f32) -> (vector<8xbf16>, i32)
    "test.use"(%r#0, %r#1) : (vector<8xbf16>, i32) -> ()
    gpu.return
  }
}
