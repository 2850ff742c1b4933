// Strided activation views, one source for both targets. The attention
// kernels read the query and write the output with a contiguous head dim
// (their loads and stores are vectors along D); a plan configured with
// another element stride (a view such as storage[..., ::2]) gathers the
// query into dense rows of its workspace before the attention and scatters
// the dense output rows into the caller's view after it (runtime/plan/
// views.c). Only such plans launch it: the contiguous path is unchanged.
// Argument order: runtime/kernel_abi.h.
module attributes {gpu.container_module} {
  // Grid (rows, heads), one wave or warp of L lanes each (the target's
  // `lanes`: 64 on gfx950, 32 on sm_90a). Workgroup (row, head) copies the
  // D 16-bit elements of that row between dense[(row * heads + head) * D
  // + i] and view[row * stride_row + head * stride_head + i * stride_elem]:
  // view -> dense (gather) or, with `scatter`, dense -> view. Lane l copies
  // elements l, l + L, ... The dtype does not matter (bf16 and fp16 are
  // both 16 bits, copied as bits). A row at or past *row_limit (when
  // row_limit is not null: a varlen run's query_start_loc[num_seqs]) is
  // neither read nor written: padding rows of the caller's output stay as
  // they were, as on the contiguous path. sm_90a's D = 32 and 512 are
  // held, like the decodes they serve.
  gpu.module @uq_view [#rocdl.target<chip = "gfx950", O = 3>, #nvvm.target<chip = "sm_90a", features = "+ptx84", O = 3>] attributes {uq.variants = [{d = 32, target = 0}, {d = 32, target = 1, held = 1}, {d = 64}, {d = 128}, {d = 256}, {d = 512, target = 0}, {d = 512, target = 1, held = 1}], uq.target_params = [{lanes = 64}, {lanes = 32}]} {
    gpu.func @uq_view(
        %dense: !llvm.ptr<1> {llvm.noalias},
        %view: !llvm.ptr<1> {llvm.noalias},
        %row_limit: !llvm.ptr<1> {llvm.noalias, llvm.readonly},
        %num_heads: i32, %stride_row: i64, %stride_head: i64,
        %stride_elem: i64, %scatter: i32) kernel
        attributes {uq.block_size = "lanes"} {
      %d = "uq.param"() {name = "d"} : () -> index
      %lanes = "uq.param"() {name = "lanes"} : () -> index
      %c0_i32 = arith.constant 0 : i32
      %c0_i64 = arith.constant 0 : i64
      %all_rows = arith.constant 2147483647 : i32
      %row_ix = gpu.block_id x
      %head_ix = gpu.block_id y
      %lane = gpu.thread_id x
      %row32 = arith.index_cast %row_ix : index to i32
      %limit_at = llvm.ptrtoint %row_limit : !llvm.ptr<1> to i64
      %has_limit = arith.cmpi ne, %limit_at, %c0_i64 : i64
      %limit = scf.if %has_limit -> (i32) {
        %l = llvm.load %row_limit invariant {alignment = 4 : i64} : !llvm.ptr<1> -> i32
        scf.yield %l : i32
      } else {
        scf.yield %all_rows : i32
      }
      %live = arith.cmpi slt, %row32, %limit : i32
      scf.if %live {
        %row = arith.index_cast %row_ix : index to i64
        %head = arith.index_cast %head_ix : index to i64
        %heads = arith.extui %num_heads : i32 to i64
        %d64 = arith.index_cast %d : index to i64
        %dr = arith.muli %row, %heads : i64
        %dh = arith.addi %dr, %head : i64
        %dense_row = arith.muli %dh, %d64 : i64
        %vr = arith.muli %row, %stride_row : i64
        %vh = arith.muli %head, %stride_head : i64
        %view_row = arith.addi %vr, %vh : i64
        %to_view = arith.cmpi ne, %scatter, %c0_i32 : i32
        scf.for %i = %lane to %d step %lanes {
          %i64 = arith.index_cast %i : index to i64
          %dense_at = arith.addi %dense_row, %i64 : i64
          %ve = arith.muli %i64, %stride_elem : i64
          %view_at = arith.addi %view_row, %ve : i64
          %dp = llvm.getelementptr %dense[%dense_at] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
          %vp = llvm.getelementptr %view[%view_at] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
          %from = arith.select %to_view, %dp, %vp : !llvm.ptr<1>
          %to = arith.select %to_view, %vp, %dp : !llvm.ptr<1>
          %x = llvm.load %from {alignment = 2 : i64} : !llvm.ptr<1> -> i16
          llvm.store %x, %to {alignment = 2 : i64} : i16, !llvm.ptr<1>
        }
      }
      gpu.return
    }
  }
}
