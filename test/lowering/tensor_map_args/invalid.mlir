// RUN: not %uq_opt %s --split-input-file --uq-tensor-map-args 2>&1 | FileCheck %s
// RUN: not %uq_opt %s --uq-tensor-map-args=bogus 2>&1 | FileCheck %s --check-prefix=BAD
// uq-tensor-map-args names a list it cannot apply.
// BAD: uq-opt: error: pass 'uq-tensor-map-args' takes no options

// CHECK: invalid.mlir:[[@LINE+1]]:1: error: uq.tensor_map_args: argument 1 is not a !llvm.ptr argument of the kernel (it has 2)
llvm.func @not_a_pointer(%p: !llvm.ptr, %x: i32) attributes {nvvm.kernel, uq.tensor_map_args = array<i32: 1>} {
  llvm.return
}

// -----

// CHECK: invalid.mlir:[[@LINE+1]]:1: error: uq.tensor_map_args: argument 5 is not a !llvm.ptr argument of the kernel (it has 1)
llvm.func @out_of_range(%p: !llvm.ptr) attributes {nvvm.kernel, uq.tensor_map_args = array<i32: 5>} {
  llvm.return
}

// -----

// CHECK: invalid.mlir:[[@LINE+1]]:1: error: uq.tensor_map_args on a function that is not an nvvm.kernel
llvm.func @not_a_kernel(%p: !llvm.ptr) attributes {uq.tensor_map_args = array<i32: 0>} {
  llvm.return
}

// -----

// CHECK: invalid.mlir:[[@LINE+1]]:1: error: uq.tensor_map_args must be an array<i32: ...> of argument indices
llvm.func @not_an_array(%p: !llvm.ptr) attributes {nvvm.kernel, uq.tensor_map_args = 0 : i32} {
  llvm.return
}
