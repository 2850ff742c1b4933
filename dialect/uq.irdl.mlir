// The uq dialect, written as data: compile-time parameters and the
// algorithm-level steps of the UltraQuant decode that upstream has no op for.
// Loaded at run time by uq_dialect_load (dialect/uq_dialect.c); lowered by
// the passes in lowering/. IRDL ops carry no traits: the lowerings erase them.
irdl.dialect @uq {
  // A compile-time parameter of a kernel variant (e.g. the query-group size).
  // `uq-specialize` replaces it with an arith.constant of the variant's value.
  //   %qg = "uq.param"() {name = "qg"} : () -> index
  irdl.operation @param {
    %name = irdl.base "#builtin.string"
    irdl.attributes {"name" = %name}
    %i32 = irdl.is i32
    %index = irdl.is index
    %t = irdl.any_of(%i32, %index)
    irdl.results(value: %t)
  }

  // Dequantizes one 32-bit word of eight FP4 E2M1 codes (element 2i in the
  // low nibble of byte i) with a UE8M0 group scale given as an f32 whose
  // exponent field is the scale byte: eight bf16 values.
  irdl.operation @fp4_to_bf16 {
    %i32 = irdl.is i32
    %f32 = irdl.is f32
    %v8 = irdl.is vector<8xbf16>
    irdl.operands(codes: %i32, scale: %f32)
    irdl.results(values: %v8)
  }

  // The per-lane part of the D-point Walsh-Hadamard transform over D / 32
  // lanes (D = 64, 128 or 256: the second operand, a constant once the
  // variant is specialized): each lane holds 32 consecutive elements (lane &
  // (D/32 - 1) = which 32); five butterfly stages in registers, log2(D/32)
  // across lanes (xor 1, 2, 4 via ds_swizzle), then the 1/sqrt(D)
  // normalization rounded to f32.
  irdl.operation @wht {
    %v = irdl.is vector<32xf32>
    %index = irdl.is index
    irdl.operands(input: %v, head_dim: %index)
    irdl.results(output: %v)
  }

  // Rounds f32 values to FP8 E4M3 with the hardware conversion (so the
  // overflow rule is the code object's MODE.FP16_OVFL; a non-finite value
  // becomes NaN, never a saturated finite code): byte i of the result is
  // element i.
  irdl.operation @e4m3_pack {
    %in = irdl.is vector<32xf32>
    %out = irdl.is vector<8xi32>
    irdl.operands(input: %in)
    irdl.results(output: %out)
  }

  // A raw buffer resource whose base is `base + offset` (64-bit), so that a
  // view of one block of a cache larger than 4 GiB addresses it with 32-bit
  // offsets; accesses at or past `num_records` bytes read 0 and drop writes.
  // (num_records is i64 as in rocdl.make.buffer.rsrc; gfx950 keeps 32 bits.)
  irdl.operation @buffer_rsrc {
    %ptr = irdl.is !llvm.ptr<1>
    %i64 = irdl.is i64
    %rsrc = irdl.is !llvm.ptr<8>
    irdl.operands(base: %ptr, offset: %i64, num_records: %i64)
    irdl.results(resource: %rsrc)
  }
}
