// Two gfx950 kernels in one code object v5: one turning on most of the
// descriptor's enable bits (dispatch/queue pointers, workgroup ids X/Y/Z,
// work-item ids X/Y/Z, scratch, FP16_OVFL, AGPRs after ACCUM_OFFSET, LDS),
// one with kernarg preloading. The oracle for every field is llvm-readelf
// and llvm-objdump on the linked file, not this text.
.amdhsa_code_object_version 5
.amdgcn_target "amdgcn-amd-amdhsa--gfx950"

.text
.globl wide_kernel
.p2align 8
.type wide_kernel,@function
wide_kernel:
  s_load_dwordx2 s[20:21], s[6:7], 0x8
  v_accvgpr_write_b32 a3, v0
  v_accvgpr_read_b32 v39, a3
  s_waitcnt lgkmcnt(0)
  global_store_dword v0, v39, s[20:21]
  s_endpgm
.Lwide_end:
.size wide_kernel, .Lwide_end-wide_kernel

.globl preload_kernel
.p2align 8
.type preload_kernel,@function
preload_kernel:
  s_nop 0
  s_endpgm
.Lpreload_end:
.size preload_kernel, .Lpreload_end-preload_kernel

.rodata
.p2align 6
.amdhsa_kernel wide_kernel
  .amdhsa_float_denorm_mode_32 3 // keep f32 denormals (what the simulator models)
  .amdhsa_user_sgpr_dispatch_ptr 1
  .amdhsa_user_sgpr_queue_ptr 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_dispatch_id 1
  .amdhsa_user_sgpr_private_segment_size 1
  .amdhsa_enable_private_segment 1
  .amdhsa_private_segment_fixed_size 48
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_sgpr_workgroup_id_y 1
  .amdhsa_system_sgpr_workgroup_id_z 1
  .amdhsa_system_sgpr_workgroup_info 1
  .amdhsa_system_vgpr_workitem_id 2
  .amdhsa_next_free_vgpr 72
  .amdhsa_next_free_sgpr 30
  .amdhsa_accum_offset 40
  .amdhsa_fp16_overflow 1
  .amdhsa_kernarg_size 288
  .amdhsa_group_segment_fixed_size 65536
.end_amdhsa_kernel

.p2align 6
.amdhsa_kernel preload_kernel
  .amdhsa_float_denorm_mode_32 3 // keep f32 denormals (what the simulator models)
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_kernarg_preload_length 2
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 12
  .amdhsa_accum_offset 4
  .amdhsa_kernarg_size 16
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx950
amdhsa.kernels:
  - .name: wide_kernel
    .symbol: wide_kernel.kd
    .kernarg_segment_size: 288
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 65536
    .private_segment_fixed_size: 48
    .wavefront_size: 64
    .sgpr_count: 36
    .vgpr_count: 40
    .agpr_count: 32
    .sgpr_spill_count: 3
    .vgpr_spill_count: 5
    .max_flat_workgroup_size: 128
    .reqd_workgroup_size: [ 64, 2, 1 ]
    .args:
      - { .name: n, .offset: 0, .size: 4, .value_kind: by_value }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .offset: 16, .size: 4, .value_kind: hidden_block_count_x }
      - { .offset: 20, .size: 4, .value_kind: hidden_block_count_y }
      - { .offset: 24, .size: 4, .value_kind: hidden_block_count_z }
      - { .offset: 28, .size: 2, .value_kind: hidden_group_size_x }
      - { .offset: 88, .size: 8, .value_kind: hidden_global_offset_x }
      - { .offset: 120, .size: 8, .value_kind: hidden_queue_ptr }
      - { .offset: 128, .size: 8, .value_kind: hidden_none }
  - .name: preload_kernel
    .symbol: preload_kernel.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 18
    .vgpr_count: 1
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: a, .offset: 0, .size: 8, .value_kind: by_value }
      - { .name: b, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
