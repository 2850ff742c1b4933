// RUN: %mlir_opt --irdl-file=%irdl --split-input-file --verify-diagnostics %s
// The dialect's verifier (from the IRDL constraints) rejects wrong types and
// missing attributes.

func.func @param_without_name() {
  // expected-error@+1 {{attribute "name" is expected but not provided}}
  %x = "uq.param"() : () -> index
  return
}

// -----

func.func @param_of_float() {
  // expected-error@+1 {{'f32' does not satisfy the constraint}}
  %x = "uq.param"() {name = "qg"} : () -> f32
  return
}

// -----

func.func @dequant_wrong_result(%w: i32, %s: f32) {
  // expected-error@+1 {{expected 'vector<8xbf16>' but got 'vector<8xf32>'}}
  %a = "uq.fp4_to_bf16"(%w, %s) : (i32, f32) -> vector<8xf32>
  return
}

// -----

func.func @wht_wrong_width(%v: vector<16xf32>, %d: index) {
  // expected-error@+1 {{expected 'vector<32xf32>' but got 'vector<16xf32>'}}
  %b = "uq.wht"(%v, %d) : (vector<16xf32>, index) -> vector<16xf32>
  return
}

// -----

func.func @rsrc_wrong_address_space(%p: !llvm.ptr<3>, %o: i64, %n: i64) {
  // expected-error@+1 {{expected '!llvm.ptr<1>' but got '!llvm.ptr<3>'}}
  %r = "uq.buffer_rsrc"(%p, %o, %n) : (!llvm.ptr<3>, i64, i64) -> !llvm.ptr<8>
  return
}
