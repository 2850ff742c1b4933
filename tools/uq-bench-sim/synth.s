// A synthetic decode-like loop for uq-bench-sim: per iteration buffer loads,
// LDS traffic, VALU math, an MFMA and scalar loop control, in roughly the
// decode kernel's mix. Arguments: (in, out: global_buffer, iters: i32).
.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
.text
.globl uq_bench_synth
.p2align 8
.type uq_bench_synth,@function
uq_bench_synth:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dword s8, s[0:1], 0x10
  v_and_b32 v0, 0x3ff, v0
  v_lshlrev_b32 v1, 4, v0
  v_mov_b32 v20, 0
  v_mov_b32 v21, 0
  v_mov_b32 v22, 0
  v_mov_b32 v23, 0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s12, s4
  s_and_b32 s13, s5, 0xffff
  s_mov_b32 s14, 0x10000
  s_mov_b32 s15, 0x27000
  s_mov_b32 s9, 0
.Lloop:
  buffer_load_dwordx4 v[2:5], v1, s[12:15], 0 offen
  buffer_load_dwordx4 v[6:9], v1, s[12:15], 0 offen offset:1024
  s_waitcnt vmcnt(0)
  ds_write_b128 v1, v[2:5]
  s_waitcnt lgkmcnt(0)
  ds_read_b64_tr_b16 v[10:11], v1
  ds_read_b128 v[12:15], v1 offset:0
  s_waitcnt lgkmcnt(0)
  v_mfma_f32_16x16x16_bf16 v[20:23], v[10:11], v[12:13], v[20:23]
  v_cvt_scalef32_pk_bf16_fp4 v16, v6, v7 op_sel:[1,0,0]
  v_pk_mul_f32 v[24:25], v[2:3], v[4:5] op_sel_hi:[1,0]
  v_fma_f32 v26, v24, v25, v26
  v_max_f32 v27, v26, v27
  v_sub_f32 v28, v26, v27
  v_mul_f32 v28, 0x3fb8aa3b, v28
  v_exp_f32 v28, v28
  v_add_f32 v29, v28, v29
  v_cvt_pk_bf16_f32 v30, v28, v29
  ds_swizzle_b32 v31, v29 offset:swizzle(SWAP,1)
  s_waitcnt lgkmcnt(0)
  v_add_f32 v29, v29, v31
  v_lshl_add_u32 v32, v0, 2, v1
  v_and_b32 v33, 0xff, v32
  v_or_b32 v34, v33, v32
  v_xor_b32 v35, v34, v33
  v_add_u32 v36, v35, v34
  v_cndmask_b32 v37, v36, v35, vcc
  v_mov_b32 v38, v37
  v_add_u32 v1, 0, v1
  s_add_u32 s9, s9, 1
  s_cmp_lt_u32 s9, s8
  s_cbranch_scc1 .Lloop
  v_lshlrev_b32 v1, 2, v0
  global_store_dword v1, v29, s[6:7]
  s_endpgm
.Lsynth_end:
.size uq_bench_synth, .Lsynth_end-uq_bench_synth

.rodata
.p2align 6
.amdhsa_kernel uq_bench_synth
  .amdhsa_float_denorm_mode_32 3 // keep f32 denormals (what the simulator models)
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 40
  .amdhsa_next_free_sgpr 24
  .amdhsa_accum_offset 40
  .amdhsa_kernarg_size 24
  .amdhsa_group_segment_fixed_size 1024
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx950
amdhsa.kernels:
  - .name: uq_bench_synth
    .symbol: uq_bench_synth.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 1024
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 24
    .vgpr_count: 40
    .agpr_count: 0
    .max_flat_workgroup_size: 64
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: iters, .offset: 16, .size: 4, .value_kind: by_value }
...
.end_amdgpu_metadata
