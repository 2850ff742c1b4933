// A minimal gfx950 kernel (code object v6, the LLVM 22 default): loads two
// pointers from the kernarg segment and copies one dword per lane. The
// reference object of the loader tests; the oracle for its fields is
// llvm-readelf / llvm-objdump on the linked file.
.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
.text
.globl copy_kernel
.p2align 8
.type copy_kernel,@function
copy_kernel:
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  global_store_dword v1, v2, s[6:7]
  s_endpgm
.Lcopy_end:
.size copy_kernel, .Lcopy_end-copy_kernel

.rodata
.p2align 6
.amdhsa_kernel copy_kernel
  .amdhsa_float_denorm_mode_32 3 // keep f32 denormals (what the simulator models)
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 3
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 4
  .amdhsa_kernarg_size 16
  .amdhsa_group_segment_fixed_size 256
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx950
amdhsa.kernels:
  - .name: copy_kernel
    .symbol: copy_kernel.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 256
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 14
    .vgpr_count: 3
    .agpr_count: 0
    .max_flat_workgroup_size: 256
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
