// The steps whose math is the same on every target, written once: which
// queries a block holds (its sequence, tokens and positions, vLLM's
// unified-attention grid), where each query row's positions end and, with a
// sliding window, start. Both targets' decodes declare them
// (kernels/decode.mlir) and uq-link copies them in.

// ---- a block's queries (grid x = %x): its sequence, its first token in
// the query tensor (tok0), its tokens (ntok, <= 0: none) and the position of
// its first token in the sequence (pos0; it attends positions < pos0 + 1). Without
// query_start_loc (a decode) block x is sequence x's one token, row x of
// the query. Else sequence s's q_len = qsl[s + 1] - qsl[s] tokens are the
// last of its seq_len, in blocks of %bt tokens (the block's rows / QG: its
// rows are token-major, (token, head in the group)); sequence s's blocks
// start at x = qsl[s] / bt + s (vLLM's unified-attention grid; qsl[s]
// for bt = 1, whose blocks tile the tokens exactly), found by
// a binary search over the search_seqs sequences (with search_seqs = 0
// block x is sequence x's first block), and blocks past a
// sequence's tokens have none, as has a sequence whose q_len passes its
// seq_len (nothing there is defined).
func.func private @query_block(%query_start_loc: !llvm.ptr<1>, %seq_lens: !llvm.ptr<1>,
                               %search_seqs: i32, %bt: i32, %x: i32) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %several = arith.cmpi ugt, %bt, %c1 : i32
  %null = llvm.mlir.zero : !llvm.ptr<1>
  %decode = llvm.icmp "eq" %query_start_loc, %null : !llvm.ptr<1>
  %r:4 = scf.if %decode -> (i32, i32, i32, i32) {
    %lp = llvm.getelementptr %seq_lens[%x] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    %len = llvm.load %lp invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
    %pos0 = arith.subi %len, %c1 : i32
    scf.yield %x, %x, %c1, %pos0 : i32, i32, i32, i32
  } else {
    // the largest s with qsl[s] / bt + s <= x (+ 0 for bt = 1); without
    // search_seqs
    // (the launcher's max query length fits one block) block x is
    // sequence x's first
    %search = arith.cmpi ne, %search_seqs, %c0 : i32
    %lo0 = arith.select %search, %c0, %x : i32
    %hi0 = arith.select %search, %search_seqs, %x : i32
    %w:2 = scf.while (%lo = %lo0, %hi = %hi0) : (i32, i32) -> (i32, i32) {
      %span = arith.subi %hi, %lo : i32
      %more = arith.cmpi sgt, %span, %c1 : i32
      scf.condition(%more) %lo, %hi : i32, i32
    } do {
    ^bb0(%lo: i32, %hi: i32):
      %sum = arith.addi %lo, %hi : i32
      %mid = arith.shrui %sum, %c1 : i32
      %qp = llvm.getelementptr %query_start_loc[%mid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      %qm = llvm.load %qp invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
      %fq = arith.divui %qm, %bt : i32
      %fs = arith.select %several, %mid, %c0 : i32
      %f = arith.addi %fq, %fs : i32
      %le = arith.cmpi sle, %f, %x : i32
      %nlo = arith.select %le, %mid, %lo : i32
      %nhi = arith.select %le, %hi, %mid : i32
      scf.yield %nlo, %nhi : i32, i32
    }
    %q0p = llvm.getelementptr %query_start_loc[%w#0] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    %q0 = llvm.load %q0p invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
    %q1p = llvm.getelementptr %q0p[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i32
    %q1 = llvm.load %q1p invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
    %lp = llvm.getelementptr %seq_lens[%w#0] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    %len = llvm.load %lp invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
    %fq = arith.divui %q0, %bt : i32
    %fs = arith.select %several, %w#0, %c0 : i32
    %f = arith.addi %fq, %fs : i32
    %local = arith.subi %x, %f : i32
    %i0s = arith.muli %local, %bt : i32
    %i0 = arith.select %search, %i0s, %c0 : i32
    %q_len = arith.subi %q1, %q0 : i32
    %left = arith.subi %q_len, %i0 : i32
    %n0 = arith.minsi %left, %bt : i32
    %pos0 = arith.subi %len, %left : i32
    %neg_i0 = arith.cmpi slt, %i0, %c0 : i32
    %neg_pos = arith.cmpi slt, %pos0, %c0 : i32
    %bad = arith.ori %neg_i0, %neg_pos : i1
    %ntok = arith.select %bad, %c0, %n0 : i32
    %tok0 = arith.addi %q0, %i0 : i32
    scf.yield %w#0, %tok0, %ntok, %pos0 : i32, i32, i32, i32
  }
  return %r#0, %r#1, %r#2, %r#3 : i32, i32, i32, i32
}

// The positions a row of the block attends end at its limit: pos0 +
// 1 + its token (row / QG, rows past live_rows taking the last live
// row's, never stored); a decode's rows all end at seq_len.
func.func private @row_limit(%row: i32, %qg: i32, %live_rows: i32, %lim0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %last = arith.subi %live_rows, %c1 : i32
  %last0 = arith.maxsi %last, %c0 : i32
  %rc = arith.minui %row, %last0 : i32
  %tau = arith.divui %rc, %qg : i32
  %lim = arith.addi %lim0, %tau : i32
  return %lim : i32
}

// The first position a row whose positions end at %lim attends: lim - W
// with a window W (>= 0), else 0.
func.func private @window_start(%lim: i32, %sliding_window: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %w0 = arith.subi %lim, %sliding_window : i32
  %w1 = arith.maxsi %w0, %c0 : i32
  %has_win = arith.cmpi sgt, %sliding_window, %c0 : i32
  %ws = arith.select %has_win, %w1, %c0 : i32
  return %ws : i32
}
