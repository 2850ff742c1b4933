// RUN: not %uq_opt %s --convert-uq-to-rocdl 2>&1 | FileCheck %s --check-prefix=BAD
// The head dim must be a constant the lowering knows.
func.func @wht_unknown(%v: vector<32xf32>, %d: index) -> vector<32xf32> {
  // BAD: wht_invalid.mlir:[[@LINE+1]]:8: error: uq.wht needs a constant head dim of 32, 64, 128, 256 or 512 (run uq-specialize and canonicalize first)
  %b = "uq.wht"(%v, %d) : (vector<32xf32>, index) -> vector<32xf32>
  return %b : vector<32xf32>
}
