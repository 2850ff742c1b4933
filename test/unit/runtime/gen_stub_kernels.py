#!/usr/bin/env python3
"""Writes stub_kernels.s: gfx950 kernels with the decode/reduce kernel ABI
(kernel_abi.h) whose only job is to copy their own kernarg segment to a
buffer (decode: to `query`, reduce: to `output`), so tests can check the
runtime's argument packing through the simulator without real kernels.
Also two decode kernels whose metadata disagrees with the ABI and one
whose workgroups cannot hold a 64-lane wave.
Run by the build (test/unit/runtime/CMakeLists.txt); writes to stdout."""
import sys

DECODE = [("gb", "segm_out"), ("gb", "segm_max"), ("gb", "segm_sum"),
          ("gb", "query"), ("gb", "kv_cache"), ("gb", "block_tables"),
          ("gb", "seq_lens")] + [("i32", n) for n in (
              "num_kv_heads", "num_partitions", "tgpp", "block_size",
              "padded_slot", "q_stride_seq", "q_stride_head",
              "max_blocks_per_seq")] + [
                  ("f32", "softmax_scale"), ("i32", "sliding_window"),
                  ("i32", "query_group"), ("gb", "query_start_loc"),
                  ("i32", "search_seqs"), ("gb", "output"),
                  ("i32", "out_stride_seq"), ("i32", "out_stride_head"),
                  ("gb", "sinks"), ("i32", "act_f16")]
REDUCE = [("gb", "output"), ("gb", "segm_out"), ("gb", "segm_max"),
          ("gb", "segm_sum")] + [("i32", n) for n in (
              "num_kv_heads", "query_group", "num_partitions",
              "out_stride_seq", "out_stride_head")] + [
                  ("gb", "sinks"), ("gb", "query_start_loc"),
                  ("i32", "num_seqs"), ("i32", "act_f16")]
HIDDEN = [(0, 4, "hidden_block_count_x"), (4, 4, "hidden_block_count_y"),
          (8, 4, "hidden_block_count_z"), (12, 2, "hidden_group_size_x"),
          (14, 2, "hidden_group_size_y"), (16, 2, "hidden_group_size_z"),
          (18, 2, "hidden_remainder_x"), (20, 2, "hidden_remainder_y"),
          (22, 2, "hidden_remainder_z"), (40, 8, "hidden_global_offset_x"),
          (48, 8, "hidden_global_offset_y"), (56, 8, "hidden_global_offset_z"),
          (64, 2, "hidden_grid_dims")]


def layout(args):
    off, out = 0, []
    for kind, name in args:
        size = 8 if kind == "gb" else 4
        off = (off + size - 1) // size * size
        out.append((off, size, kind, name))
        off += size
    base = (off + 7) // 8 * 8
    return out, base, base + 256


def kernel(name, args, dest_offset, max_flat=64):
    explicit, base, size = layout(args)
    text = [".text", f".globl {name}", ".p2align 8",
            f".type {name},@function", f"{name}:",
            f"  s_load_dwordx2 s[2:3], s[0:1], {dest_offset}",
            "  v_mov_b32 v0, 0", "  s_waitcnt lgkmcnt(0)"]
    for i in range(size // 4):
        text += [f"  s_load_dword s4, s[0:1], {4 * i}",
                 "  s_waitcnt lgkmcnt(0)", "  v_mov_b32 v1, s4",
                 f"  global_store_dword v0, v1, s[2:3] offset:{4 * i}"]
    text += ["  s_waitcnt vmcnt(0)", "  s_endpgm", f".Lend_{name}:",
             f".size {name}, .Lend_{name}-{name}", "",
             ".rodata", ".p2align 6", f".amdhsa_kernel {name}",
             "  .amdhsa_user_sgpr_kernarg_segment_ptr 1",
             "  .amdhsa_float_denorm_mode_32 3",
             f"  .amdhsa_kernarg_size {size}",
             "  .amdhsa_next_free_vgpr 2", "  .amdhsa_next_free_sgpr 8",
             "  .amdhsa_accum_offset 4", ".end_amdhsa_kernel", ""]
    meta = [f"  - .name: {name}", f"    .symbol: {name}.kd",
            f"    .kernarg_segment_size: {size}",
            "    .kernarg_segment_align: 8",
            "    .group_segment_fixed_size: 0",
            "    .private_segment_fixed_size: 0",
            "    .wavefront_size: 64", "    .sgpr_count: 8",
            "    .vgpr_count: 2", f"    .max_flat_workgroup_size: {max_flat}",
            "    .args:"]
    for off, sz, kind, argname in explicit:
        meta += [f"      - .offset: {off}", f"        .size: {sz}",
                 f"        .name: {argname}"]
        if kind == "gb":
            meta += ["        .value_kind: global_buffer",
                     "        .address_space: global"]
        else:
            meta += ["        .value_kind: by_value"]
    for off, sz, kind in HIDDEN:
        meta += [f"      - .offset: {base + off}", f"        .size: {sz}",
                 f"        .value_kind: {kind}"]
    return "\n".join(text), "\n".join(meta)


def main():
    kernels = [(f"uq_decode_d256_rows{qg}", DECODE, 24) for qg in (8, 16)]
    kernels.append(("uq_reduce_d256", REDUCE, 0))
    # Metadata that disagrees with kernel_abi.h: query passed by value, and
    # the last argument (search_seqs) missing.
    bad_kind = list(DECODE)
    bad_kind[3] = ("i32", "query")
    kernels.append(("uq_decode_bad_kind", bad_kind, 0))
    kernels.append(("uq_decode_bad_count", DECODE[:-1], 24))
    out = [".amdgcn_target \"amdgcn-amd-amdhsa--gfx950\"",
           ".amdhsa_code_object_version 5", ""]
    metas = []
    # Right arguments, but workgroups too small for one 64-lane wave.
    kernels.append(("uq_decode_small_workgroup", DECODE, 24, 32))
    for name, args, dest, *rest in kernels:
        text, meta = kernel(name, args, dest, *rest)
        out.append(text)
        metas.append(meta)
    out += [".amdgpu_metadata", "---", "amdhsa.kernels:"] + metas + [
        "amdhsa.target: amdgcn-amd-amdhsa--gfx950",
        "amdhsa.version:", "  - 1", "  - 2", "...", ".end_amdgpu_metadata",
        ""]
    sys.stdout.write("// Generated by gen_stub_kernels.py: test-only kernels "
                     "with the runtime's kernel ABI.\n" + "\n".join(out))


main()
