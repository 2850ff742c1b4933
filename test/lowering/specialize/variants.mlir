// RUN: %uq_opt %s --uq-specialize=qg=16 | FileCheck %s
// RUN: not %uq_opt %s --uq-specialize=qg=7 2>&1 | FileCheck %s --check-prefix=BAD
// A module that declares its variants accepts one of them and rejects the
// rest (a query-group size of 7 is not a kernel we build).

// CHECK: arith.constant 16 : index
// BAD: variants.mlir:[[@LINE+1]]:{{[0-9]+}}: error: unsupported variant {qg=7}: this module supports [{qg = 6 : i64}, {qg = 8 : i64}, {qg = 16 : i64}]
gpu.module @uq_decode attributes {uq.variants = [{qg = 6}, {qg = 8}, {qg = 16}]} {
  gpu.func @k() kernel {
    %qg = "uq.param"() {name = "qg"} : () -> index
    gpu.return
  }
}
