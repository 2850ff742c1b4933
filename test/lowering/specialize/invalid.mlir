// RUN: not %uq_opt %s --uq-specialize=bs=16 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not %uq_opt %s --uq-specialize=qg 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not %uq_opt %s --uq-specialize=qg=eight 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not %uq_opt %s --convert-uq-to-rocdl 2>&1 | FileCheck %s --check-prefix=LEFTOVER

func.func @f() -> index {
  // MISSING: invalid.mlir:[[@LINE+2]]:9: error: uq.param "qg" has no value: run uq-specialize{qg=N}
  // LEFTOVER: invalid.mlir:[[@LINE+1]]:9: error: uq.param left unspecialized: run uq-specialize first
  %qg = "uq.param"() {name = "qg"} : () -> index
  return %qg : index
}
// SYNTAX: uq-opt: error: uq-specialize: expected NAME=VALUE, got 'qg'
// VALUE: uq-opt: error: uq-specialize: parameter 'qg' needs an integer value
