// RUN: %uq_opt %s --uq-tensor-map-args | FileCheck %s
// RUN: %uq_opt %s --pass-pipeline='builtin.module(uq-tensor-map-args)' | %mlir_translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM
// uq-tensor-map-args turns the listed arguments of an nvvm.kernel into
// by-value, 64-byte aligned, grid-constant 128-byte CUtensorMaps and drops
// the list; the other arguments keep their attributes.

// CHECK-LABEL: llvm.func @k(
// CHECK-SAME: %{{.*}}: !llvm.ptr<1> {llvm.noalias},
// CHECK-SAME: %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %{{.*}}: i32)
// CHECK-NOT: uq.tensor_map_args
// LLVM: define ptx_kernel void @k(ptr addrspace(1) noalias %0, ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %1, i32 %2)
llvm.func @k(%out: !llvm.ptr<1> {llvm.noalias}, %map: !llvm.ptr {llvm.align = 16 : i64}, %x: i32) attributes {nvvm.kernel, uq.tensor_map_args = array<i32: 1>} {
  llvm.return
}

// A function without the list is left alone.
// CHECK-LABEL: llvm.func @plain(
// CHECK-SAME: %{{.*}}: !llvm.ptr)
llvm.func @plain(%p: !llvm.ptr) attributes {nvvm.kernel} {
  llvm.return
}
