// Vector ALU semantics: each lane loads random a,b,c (ints, v2..v4),
// fa,fb,fc,fd (floats, v5..v8) and s (small ints, v9) from in[64*k + lane]
// and stores one result per op to out[64*k + lane]. sim_test.c computes the
// same ops in C, in the same order.
.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
.include "prologue.inc"

BEGIN valu_ops
  PROLOGUE
  global_load_dword v2, v1, s[4:5]
  global_load_dword v3, v1, s[4:5] offset:256
  global_load_dword v4, v1, s[4:5] offset:512
  global_load_dword v5, v1, s[4:5] offset:768
  global_load_dword v6, v1, s[4:5] offset:1024
  global_load_dword v7, v1, s[4:5] offset:1280
  global_load_dword v8, v1, s[4:5] offset:1536
  global_load_dword v9, v1, s[4:5] offset:1792
  s_waitcnt vmcnt(0)
  v_add_u32 v10, v2, v3            // 0
  ST
  v_sub_u32 v10, v2, v3            // 1
  ST
  v_mul_lo_u32 v10, v2, v3         // 2
  ST
  v_mul_hi_u32 v10, v2, v3         // 3
  ST
  v_mul_hi_i32 v10, v2, v3         // 4
  ST
  v_lshlrev_b32 v10, v3, v2        // 5
  ST
  v_lshrrev_b32 v10, v3, v2        // 6
  ST
  v_ashrrev_i32 v10, v3, v2        // 7
  ST
  v_and_b32 v10, v2, v3            // 8
  ST
  v_or_b32 v10, v2, v3             // 9
  ST
  v_xor_b32 v10, v2, v3            // 10
  ST
  v_bfe_u32 v10, v2, v3, v4        // 11
  ST
  v_bfe_i32 v10, v2, v3, v4        // 12
  ST
  v_bfi_b32 v10, v2, v3, v4        // 13
  ST
  v_alignbit_b32 v10, v2, v3, v4   // 14
  ST
  v_alignbyte_b32 v10, v2, v3, v4  // 15
  ST
  v_perm_b32 v10, v2, v3, v4       // 16
  ST
  v_lshl_add_u32 v10, v2, 3, v4    // 17
  ST
  v_add3_u32 v10, v2, v3, v4       // 18
  ST
  v_lshl_or_b32 v10, v2, 5, v4     // 19
  ST
  v_and_or_b32 v10, v2, v3, v4     // 20
  ST
  v_or3_b32 v10, v2, v3, v4        // 21
  ST
  v_xad_u32 v10, v2, v3, v4        // 22
  ST
  v_add_f32 v10, v5, v6            // 23
  ST
  v_mul_f32 v10, v5, v6            // 24
  ST
  v_fma_f32 v10, v5, v6, v7        // 25
  ST
  v_fma_f32 v10, -v5, |v6|, v7     // 26
  ST
  v_max_f32 v10, v5, v6            // 27
  ST
  v_min_f32 v10, v5, v6            // 28
  ST
  v_med3_f32 v10, v5, v6, v7       // 29
  ST
  v_sub_f32 v10, v5, v6            // 30
  ST
  v_cvt_f32_i32 v10, v2            // 31
  ST
  v_cvt_i32_f32 v10, v5            // 32
  ST
  v_cvt_f32_u32 v10, v2            // 33
  ST
  v_add_f32_e64 v10, v5, v6 clamp  // 34
  ST
  v_mul_f32_e64 v10, v5, v6 mul:2  // 35
  ST
  v_cmp_gt_i32 vcc, v2, v3         // 36
  v_cndmask_b32 v10, v4, v2, vcc
  ST
  v_add_co_u32 v11, vcc, v2, v3    // 37
  v_addc_co_u32 v10, vcc, v4, v3, vcc
  ST
  v_mbcnt_lo_u32_b32 v10, -1, 0    // 38
  v_mbcnt_hi_u32_b32 v10, -1, v10
  ST
  v_bcnt_u32_b32 v10, v2, v3       // 39
  ST
  v_mov_b32 v12, v5
  v_mov_b32 v13, v6
  v_mov_b32 v14, v7
  v_mov_b32 v15, v8
  v_mov_b32 v16, v6
  v_mov_b32 v17, v5
  v_pk_fma_f32 v[10:11], v[12:13], v[14:15], v[16:17]  // 40, 41
  ST
  ST v11
  v_pk_mul_f32 v[10:11], v[12:13], v[14:15] op_sel:[1,0] op_sel_hi:[0,1] neg_lo:[0,1]  // 42, 43
  ST
  ST v11
  v_mad_u64_u32 v[10:11], s[12:13], v2, v3, v[4:5]    // 44, 45
  ST
  ST v11
  v_lshlrev_b64 v[10:11], v9, v[2:3]                   // 46, 47
  ST
  ST v11
  v_readlane_b32 s12, v2, 7        // 48
  v_mov_b32 v10, s12
  ST
  v_max3_i32 v10, v2, v3, v4       // 49
  ST
  v_min3_u32 v10, v2, v3, v4       // 50
  ST
  v_med3_i32 v10, v2, v3, v4       // 51
  ST
  v_cvt_pk_bf16_f32 v10, v5, v6    // 52
  ST
  v_exp_f32 v10, v5                // 53
  ST
  v_mov_b32 v10, v4                // 54
  v_mov_b32_dpp v10, v2 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
  ST
  v_mov_b32 v10, v4                // 55
  v_mov_b32_dpp v10, v2 row_shl:2 row_mask:0xf bank_mask:0xf
  ST
  v_mov_b32_dpp v10, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf  // 56
  ST
  v_add_f32_dpp v10, v5, v6 row_ror:3 row_mask:0xf bank_mask:0xf  // 57
  ST
  v_mov_b32 v10, v4                // 58
  v_mov_b32_dpp v10, v2 row_bcast:15 row_mask:0xa bank_mask:0xf
  ST
  v_mov_b32 v10, v4                // 59
  v_mov_b32_dpp v10, v2 row_mirror row_mask:0xf bank_mask:0x5
  ST
  v_cvt_f16_f32 v10, v5            // 60
  ST
  v_mov_b32_sdwa v10, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_1  // 61
  ST
  v_cmp_lt_f32 vcc, v5, v6         // 62
  v_cndmask_b32 v10, 0, 1, vcc
  ST
  v_cmp_lt_u32_e64 s[12:13], v2, v3  // 63
  v_cndmask_b32_e64 v10, 0, 1, s[12:13]
  ST
  v_cmp_lt_u32 vcc, 20, v0         // 64
  s_and_saveexec_b64 s[14:15], vcc
  v_readfirstlane_b32 s12, v2
  s_mov_b64 exec, s[14:15]
  v_mov_b32 v10, s12
  ST
  v_ldexp_f32 v10, v5, v9          // 65
  ST
  v_mov_b32 v10, v7                // 66
  v_fmac_f32 v10, v5, v6
  ST
  v_subrev_u32 v10, v2, v3         // 67
  ST
  v_cvt_u32_f32 v10, v5            // 68
  ST
  v_rcp_f32 v10, v5                // 69
  ST
  v_sub_co_u32 v11, vcc, v2, v3    // 70
  v_subb_co_u32 v10, vcc, v4, v3, vcc
  ST
  v_cvt_f32_ubyte2 v10, v2         // 71
  ST
  v_cvt_scalef32_pk_bf16_fp4 v10, v2, v5 op_sel:[1,0,0]  // 72
  ST
  v_mov_b32 v10, v2                // 73, 74
  v_mov_b32 v11, v3
  v_permlane16_swap_b32 v10, v11
  ST
  ST v11
  v_mov_b32 v10, v2                // 75, 76
  v_mov_b32 v11, v3
  v_permlane32_swap_b32 v10, v11
  ST
  ST v11
  v_lshl_add_u64 v[10:11], v[2:3], 3, v[4:5]  // 77, 78
  ST
  ST v11
  v_cvt_scalef32_pk_bf16_fp4 v10, v2, v5 op_sel:[1,1,0]  // 79
  ST
  v_pk_add_f32 v[10:11], v[12:13], v[14:15]  // 80, 81
  ST
  ST v11
  v_cvt_pk_f32_fp8 v[10:11], v2    // 82, 83
  ST
  ST v11
  v_max3_f32 v10, v5, v6, v7       // 84
  ST
  v_mad_u32_u24 v10, v2, v3, v4    // 85
  ST
  v_min_u32 v10, v2, v3            // 86
  ST
  v_cmp_neq_f32 vcc, 1.0, v5       // 87
  v_cndmask_b32 v10, 0, 1, vcc
  ST
  v_cmp_lg_f32_e64 s[12:13], v5, v6  // 88
  v_cndmask_b32_e64 v10, 0, 1, s[12:13]
  ST
  // 89: fa / fb, LLVM's IEEE f32 division sequence.
  v_div_scale_f32 v18, s[12:13], v6, v6, v5
  v_rcp_f32 v19, v18
  v_div_scale_f32 v20, vcc, v5, v6, v5
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3
  v_fma_f32 v21, -v18, v19, 1.0
  v_fma_f32 v19, v21, v19, v19
  v_mul_f32 v21, v20, v19
  v_fma_f32 v22, -v18, v21, v20
  v_fma_f32 v21, v22, v19, v21
  v_fma_f32 v18, -v18, v21, v20
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0
  v_div_fmas_f32 v18, v18, v19, v21
  v_div_fixup_f32 v10, v18, v6, v5
  ST
  v_mov_b64 v[10:11], v[2:3]       // 90, 91
  ST
  ST v11
  v_cmp_gt_u32 vcc, v2, v3         // 92
  v_cndmask_b32 v10, 0, 1, vcc
  ST
  v_mov_b32 v11, 0x7fc00000        // 93: unordered with a NaN
  v_cndmask_b32 v11, v5, v11, vcc
  v_cmp_u_f32_e64 s[12:13], v11, v6
  v_cndmask_b32_e64 v10, 0, 1, s[12:13]
  ST
  v_cmp_o_f32 vcc, v11, v6         // 94
  v_cndmask_b32 v10, 0, 1, vcc
  ST
  v_cmp_eq_u32 vcc, v2, v2         // 95
  v_cndmask_b32 v10, 0, 1, vcc
  ST
  v_rcp_iflag_f32 v10, v6          // 96
  ST
  v_mov_b32_dpp v10, v2 row_newbcast:5 row_mask:0xf bank_mask:0xf  // 97
  ST
  v_mov_b32_dpp v10, v2 wave_rol:1 row_mask:0xf bank_mask:0xf  // 98
  ST
  v_cvt_pkrtz_f16_f32 v18, v5, v6  // 99
  ST v18
  v_cvt_pkrtz_f16_f32 v19, v7, v8  // 100
  ST v19
  v_pk_add_f16 v10, v18, v19       // 101
  ST
  v_pk_mul_f16 v10, v18, v19 op_sel:[1,0] op_sel_hi:[0,1]  // 102
  ST
  v_add_f16 v10, v18, v19          // 103
  ST
  v_cvt_f32_f16 v10, v18           // 104
  ST
  v_cvt_f32_f16_sdwa v10, v18 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:WORD_1  // 105
  ST
  v_pack_b32_f16 v10, v18, v19 op_sel:[1,0,0]  // 106
  ST
  v_bfrev_b32 v10, v2              // 107
  ST
  v_ffbh_u32 v10, v2               // 108
  ST
  v_ffbl_b32 v10, v2               // 109
  ST
  v_mul_u32_u24 v10, v2, v3        // 110
  ST
  v_mul_hi_u32_u24 v10, v2, v3     // 111
  ST
  v_med3_u32 v10, v2, v3, v4       // 112
  ST
  v_cvt_f32_ubyte0 v10, v2         // 113
  ST
  v_subrev_f32 v10, v5, v6         // 114
  ST
  v_max_i32 v10, v2, v3            // 115
  ST
  v_cvt_pk_f16_f32 v10, v5, v6     // 116: round to nearest even
  ST
  v_cvt_pk_f16_f32 v10, v2, v3     // 117: any bits (inf, NaN, subnormal)
  ST
  s_endpgm
.Lvalu_end:
.size valu_ops, .Lvalu_end-valu_ops
KD valu_ops, vgprs=32

// Scalar ALU: s12..s19 = in[0..7]; one result per op to out[64*k + lane]
// (every lane stores the same value).
BEGIN salu_ops
  PROLOGUE
  s_load_dwordx8 s[12:19], s[4:5], 0x0
  s_waitcnt lgkmcnt(0)
.macro SST reg=s20
  v_mov_b32 v10, \reg
  ST
.endm
  s_add_u32 s20, s12, s13          // 0
  SST
  s_add_u32 s21, s12, s13          // 1
  s_cselect_b32 s20, 1, 0
  SST
  s_sub_u32 s20, s12, s13          // 2
  SST
  s_mul_i32 s20, s12, s13          // 3
  SST
  s_mul_hi_u32 s20, s12, s13       // 4
  SST
  s_mul_hi_i32 s20, s12, s13       // 5
  SST
  s_lshl_b32 s20, s12, s13         // 6
  SST
  s_lshr_b32 s20, s12, s13         // 7
  SST
  s_ashr_i32 s20, s12, s13         // 8
  SST
  s_and_b32 s20, s12, s13          // 9
  SST
  s_or_b32 s20, s12, s13           // 10
  SST
  s_xor_b32 s20, s12, s13          // 11
  SST
  s_andn2_b32 s20, s12, s13        // 12
  SST
  s_orn2_b32 s20, s12, s13         // 13
  SST
  s_not_b32 s20, s12               // 14
  SST
  s_nand_b32 s20, s12, s13         // 15
  SST
  s_xnor_b32 s20, s12, s13         // 16
  SST
  s_and_b32 s21, s13, 0x1f001f     // 17
  s_bfe_u32 s20, s12, s21
  SST
  s_bfe_i32 s20, s12, s21          // 18
  SST
  s_brev_b32 s20, s12              // 19
  SST
  s_ff1_i32_b32 s20, s12           // 20
  SST
  s_bcnt1_i32_b32 s20, s12         // 21
  SST
  s_min_i32 s20, s12, s13          // 22
  SST
  s_max_u32 s20, s12, s13          // 23
  SST
  s_cmp_lt_i32 s12, s13            // 24
  s_cselect_b32 s20, s14, s15
  SST
  s_lshl2_add_u32 s20, s12, s13    // 25
  SST
  s_pack_ll_b32_b16 s20, s12, s13  // 26
  SST
  s_pack_lh_b32_b16 s20, s12, s13  // 27
  SST
  s_pack_hh_b32_b16 s20, s12, s13  // 28
  SST
  s_lshl_b64 s[20:21], s[12:13], s14  // 29, 30
  SST
  SST s21
  s_ashr_i64 s[20:21], s[12:13], s14  // 31, 32
  SST
  SST s21
  s_bfm_b32 s20, s12, s13          // 33
  SST
  s_sext_i32_i8 s20, s12           // 34
  SST
  s_abs_i32 s20, s12               // 35
  SST
  s_movk_i32 s20, 0x8765           // 36
  SST
  s_mov_b32 s20, s12               // 37
  s_addk_i32 s20, 0x1234
  SST
  s_add_u32 s20, s12, s14          // 38, 39
  s_addc_u32 s21, s13, s15
  SST
  SST s21
  s_bitcmp1_b32 s12, s13           // 40
  s_cselect_b32 s20, 1, 0
  SST
  s_absdiff_i32 s20, s12, s13      // 41
  SST
  s_max_i32 s20, s12, s13          // 42
  SST
  s_min_u32 s20, s12, s13          // 43
  SST
  s_mul_i32 s20, s12, 0x12345      // 44
  SST
  s_sub_i32 s20, s12, s13          // 45
  SST
  s_add_i32 s20, s12, s13          // 46
  SST
  s_sub_u32 s21, s12, s13          // 47
  s_subb_u32 s20, s14, s15
  SST
  s_lshl4_add_u32 s20, s12, s13    // 48
  SST
  s_bitcmp0_b32 s12, s13           // 49
  s_cselect_b32 s20, 1, 0
  SST
  s_or_b64 s[20:21], s[12:13], s[14:15]  // 50, 51
  SST
  SST s21
  s_cmp_lg_u64 s[12:13], s[12:13]  // 52, 53
  s_cselect_b64 s[20:21], -1, 0
  SST
  s_cmp_lg_u64 s[12:13], s[14:15]
  s_cselect_b64 s[20:21], -1, 0
  SST s21
  s_cmp_ge_u32 s12, s13            // 54
  s_cselect_b32 s20, s14, s15
  SST
  s_cmp_gt_i32 s12, s13            // 55
  s_cselect_b32 s20, s14, s15
  SST
  s_cmp_le_i32 s12, s13            // 56
  s_cselect_b32 s20, s14, s15
  SST
  s_cmp_lt_u32 s12, s13            // 57
  s_cbranch_scc0 .Ls57
  s_mov_b32 s20, 1
  s_branch .Ls57e
.Ls57:
  s_mov_b32 s20, 2
.Ls57e:
  SST
  s_cmp_gt_u32 s12, s13            // 58
  s_cbranch_scc1 .Ls58
  s_mov_b32 s20, 4
  s_branch .Ls58e
.Ls58:
  s_mov_b32 s20, 3
.Ls58e:
  SST
  s_and_b64 vcc, s[12:13], 0x100   // 59
  s_mov_b32 s20, 5
  s_cbranch_vccnz .Ls59
  s_mov_b32 s20, 6
.Ls59:
  SST
  s_endpgm
.Lsalu_end:
.size salu_ops, .Lsalu_end-salu_ops
KD salu_ops, vgprs=16, sgprs=32

// Divergent control flow: odd lanes take a nested if/else on bit 1, even
// lanes run a loop of (x & 7) iterations; EXEC is restored at each join.
BEGIN control_flow
  PROLOGUE
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, 0
  v_and_b32 v3, 1, v2
  v_cmp_ne_u32 vcc, 0, v3
  s_and_saveexec_b64 s[12:13], vcc
  s_cbranch_execz .Lcf_else
  v_and_b32 v3, 2, v2
  v_cmp_ne_u32 vcc, 0, v3
  s_and_saveexec_b64 s[14:15], vcc
  s_cbranch_execz .Lcf_in_else
  v_mul_lo_u32 v10, v2, 3
.Lcf_in_else:
  s_andn2_b64 exec, s[14:15], exec
  s_cbranch_execz .Lcf_in_end
  v_add_u32 v10, 7, v2
.Lcf_in_end:
  s_mov_b64 exec, s[14:15]
.Lcf_else:
  s_andn2_b64 exec, s[12:13], exec
  s_cbranch_execz .Lcf_end
  v_and_b32 v4, 7, v2
  v_mov_b32 v5, 0
  s_mov_b64 s[16:17], exec
.Lcf_loop:
  v_cmp_lt_u32 vcc, v5, v4
  s_and_b64 exec, exec, vcc
  s_cbranch_execz .Lcf_loop_end
  v_mul_lo_u32 v6, v5, v2
  v_add_u32 v10, v10, v6
  v_add_u32 v5, 1, v5
  s_branch .Lcf_loop
.Lcf_loop_end:
  s_mov_b64 exec, s[16:17]
.Lcf_end:
  s_mov_b64 exec, s[12:13]
  ST
  s_endpgm
.Lcf_end_sym:
.size control_flow, .Lcf_end_sym-control_flow
KD control_flow, vgprs=16

// Four waves exchange data through LDS across s_barrier: item t writes
// in[t] at 4t, then reads item 255-t's; then 2-address and 64-bit forms.
BEGIN lds_barrier
  PROLOGUE
  s_lshl_b32 s10, s2, 10
  s_add_u32 s4, s4, s10
  s_addc_u32 s5, s5, 0
  s_lshl_b32 s10, s2, 12
  s_add_u32 s6, s6, s10
  s_addc_u32 s7, s7, 0
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  ds_write_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_sub_u32 v3, 255, v0
  v_lshlrev_b32 v3, 2, v3
  ds_read_b32 v10, v3
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v4, 3, v0
  v_add_u32 v4, 0x400, v4
  ds_write2_b32 v4, v2, v10 offset1:1
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_xor_b32 v5, 1, v0
  v_lshlrev_b32 v5, 3, v5
  ds_read_b64 v[12:13], v5 offset:1024
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v10, s[6:7]
  global_store_dword v1, v12, s[6:7] offset:1024
  global_store_dword v1, v13, s[6:7] offset:2048
  s_endpgm
.Llds_end:
.size lds_barrier, .Llds_end-lds_barrier
KD lds_barrier, vgprs=16, lds=3072

// Buffer range checking: in viewed through a raw buffer of n bytes, out
// (third 256-byte row) through one of m bytes.
BEGIN buffer_oob
  PROLOGUE
  s_mov_b32 s12, s4
  s_and_b32 s13, s5, 0xffff
  s_mov_b32 s14, s8
  s_mov_b32 s15, 0x27000
  v_mov_b32 v10, 0
  buffer_load_dword v10, v1, s[12:15], 0 offen         // 0
  s_waitcnt vmcnt(0)
  ST
  v_lshlrev_b32 v3, 3, v0
  buffer_load_dwordx2 v[10:11], v3, s[12:15], 0 offen  // 1, 2
  s_waitcnt vmcnt(0)
  ST
  ST v11
  s_mov_b32 s20, 4
  buffer_load_dword v10, v1, s[12:15], s20 offen       // 3
  s_waitcnt vmcnt(0)
  ST
  buffer_load_dword v10, v1, s[12:15], 0 offen offset:8  // 4
  s_waitcnt vmcnt(0)
  ST
  v_lshlrev_b32 v3, 4, v0
  buffer_load_dwordx4 v[12:15], v3, s[12:15], 0 offen   // 5..8
  s_waitcnt vmcnt(0)
  ST v12
  ST v13
  ST v14
  ST v15
  s_mov_b32 s16, s6
  s_and_b32 s17, s7, 0xffff
  s_mov_b32 s18, s9
  s_mov_b32 s19, 0x27000
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  buffer_store_dword v2, v1, s[16:19], 0 offen         // 9
  s_waitcnt vmcnt(0)
  s_endpgm
.Lbuf_end:
.size buffer_oob, .Lbuf_end-buffer_oob
KD buffer_oob, vgprs=16, sgprs=24

// A global load n bytes past `in`: must fault.
BEGIN global_oob
  PROLOGUE
  v_add_u32 v3, s8, v1
  global_load_dword v10, v3, s[4:5]
  s_waitcnt vmcnt(0)
  ST
  s_endpgm
.Lgoob_end:
.size global_oob, .Lgoob_end-global_oob
KD global_oob, vgprs=16

// v_mfma_f32_16x16x16_bf16: A at in+0 (2 dwords/lane), B at in+512,
// C at in+1024 (4 dwords/lane). D through AGPRs (C from AGPRs), and
// again into VGPRs with C = 0.
BEGIN mfma_bf16
  PROLOGUE
  v_lshlrev_b32 v20, 3, v0
  v_lshlrev_b32 v21, 4, v0
  global_load_dwordx2 v[2:3], v20, s[4:5]
  global_load_dwordx2 v[4:5], v20, s[4:5] offset:512
  global_load_dwordx4 v[6:9], v21, s[4:5] offset:1024
  s_waitcnt vmcnt(0)
  v_accvgpr_write_b32 a0, v6
  v_accvgpr_write_b32 a1, v7
  v_accvgpr_write_b32 a2, v8
  v_accvgpr_write_b32 a3, v9
  v_mfma_f32_16x16x16_bf16 a[0:3], v[2:3], v[4:5], a[0:3]
  v_mfma_f32_16x16x16_bf16 v[12:15], v[2:3], v[4:5], 0
  s_nop 7
  s_nop 7
  v_accvgpr_read_b32 v10, a0
  v_accvgpr_read_b32 v11, a1
  v_accvgpr_read_b32 v16, a2
  v_accvgpr_read_b32 v17, a3
  ST
  ST v11
  ST v16
  ST v17
  ST v12
  ST v13
  ST v14
  ST v15
  s_endpgm
.Lmb_end:
.size mfma_bf16, .Lmb_end-mfma_bf16
KD mfma_bf16, vgprs=24

// v_mfma_f32_32x32x16_bf16: A at in+0 and B at in+1024 (4 dwords = 8 bf16
// per lane), C at in+2048 (16 dwords per lane). Two products: C from
// a[0:15] into a[0:15] (read back into v[42:57]), and C = 0 into v[26:41].
// out: the 16 AGPR results, then the 16 VGPR results.
BEGIN mfma_bf16_32x32
  PROLOGUE
  v_lshlrev_b32 v58, 4, v0
  v_lshlrev_b32 v59, 6, v0
  global_load_dwordx4 v[2:5], v58, s[4:5]
  global_load_dwordx4 v[6:9], v58, s[4:5] offset:1024
  global_load_dwordx4 v[10:13], v59, s[4:5] offset:2048
  global_load_dwordx4 v[14:17], v59, s[4:5] offset:2064
  global_load_dwordx4 v[18:21], v59, s[4:5] offset:2080
  global_load_dwordx4 v[22:25], v59, s[4:5] offset:2096
  s_waitcnt vmcnt(0)
.irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
  v_accvgpr_write_b32 a\r, v[10+\r]
.endr
  s_nop 1                          // VALU write -> MFMA SrcC read
  v_mfma_f32_32x32x16_bf16 a[0:15], v[2:5], v[6:9], a[0:15]
  v_mfma_f32_32x32x16_bf16 v[26:41], v[2:5], v[6:9], 0
  s_nop 7                          // 16-pass results: wait before reading
  s_nop 7
  s_nop 7
  s_nop 7
.irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
  v_accvgpr_read_b32 v[42+\r], a\r
.endr
.irp r, 42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41
  ST v\r
.endr
  s_endpgm
.Lmb32_end:
.size mfma_bf16_32x32, .Lmb32_end-mfma_bf16_32x32
KD mfma_bf16_32x32, vgprs=60

// v_mfma_scale_f32_16x16x128_f8f6f4. FP4 data at in+0 (16 B/lane), FP8
// data at in+1024 (32 B/lane), C at in+3072 (16 B/lane), scale VGPRs at
// in+4096 (A) and in+4352 (B). Three products: FP4 x FP8 with op_sel
// byte selection, FP8 x FP8, FP4 x FP4.
BEGIN mfma_scale
  PROLOGUE
  v_lshlrev_b32 v40, 4, v0
  v_lshlrev_b32 v41, 5, v0
  global_load_dwordx4 v[4:7], v40, s[4:5]
  global_load_dwordx4 v[8:11], v41, s[4:5] offset:1024
  global_load_dwordx4 v[12:15], v41, s[4:5] offset:1040
  global_load_dwordx4 v[16:19], v40, s[4:5] offset:3072
  s_add_u32 s10, s4, 0x1000
  s_addc_u32 s11, s5, 0
  global_load_dword v20, v1, s[10:11]
  global_load_dword v21, v1, s[10:11] offset:256
  s_waitcnt vmcnt(0)
  v_mfma_scale_f32_16x16x128_f8f6f4 v[24:27], v[4:7], v[8:15], v[16:19], v20, v21 op_sel:[1,1,0] op_sel_hi:[0,1,0] cbsz:4 blgp:0
  v_mfma_scale_f32_16x16x128_f8f6f4 v[28:31], v[8:15], v[8:15], v[16:19], v20, v21 cbsz:0 blgp:0
  v_mfma_scale_f32_16x16x128_f8f6f4 v[32:35], v[4:7], v[4:7], v[16:19], v20, v21 op_sel:[0,1,0] op_sel_hi:[1,0,0] cbsz:4 blgp:4
  s_nop 7
  s_nop 7
  ST v24
  ST v25
  ST v26
  ST v27
  ST v28
  ST v29
  ST v30
  ST v31
  ST v32
  ST v33
  ST v34
  ST v35
  s_endpgm
.Lms_end:
.size mfma_scale, .Lms_end-mfma_scale
KD mfma_scale, vgprs=48

// LDS cross-lane ops. Lane l stores in[2l], in[2l+1] at LDS 8l; then
// ds_read_b64_tr_b16 from 8*((5l) & 63), ds_swizzle in three modes and
// ds_bpermute from lane (7l + 3) & 63.
BEGIN lds_lanes
  PROLOGUE
  v_lshlrev_b32 v20, 3, v0
  global_load_dwordx2 v[2:3], v20, s[4:5]
  s_waitcnt vmcnt(0)
  ds_write_b64 v20, v[2:3]
  s_waitcnt lgkmcnt(0)
  v_mul_u32_u24 v21, 5, v0
  v_and_b32 v21, 63, v21
  v_lshlrev_b32 v21, 3, v21
  ds_read_b64_tr_b16 v[10:11], v21
  s_waitcnt lgkmcnt(0)
  ST                               // 0
  ST v11                           // 1
  ds_swizzle_b32 v10, v2 offset:0x41f   // 2: xor 1
  s_waitcnt lgkmcnt(0)
  ST
  ds_swizzle_b32 v10, v2 offset:0x70    // 3: and 0x10, or 3
  s_waitcnt lgkmcnt(0)
  ST
  ds_swizzle_b32 v10, v2 offset:0x801b  // 4: quad perm [3,2,1,0]
  s_waitcnt lgkmcnt(0)
  ST
  v_mul_u32_u24 v22, 7, v0
  v_add_u32 v22, 3, v22
  v_and_b32 v22, 63, v22
  v_lshlrev_b32 v22, 2, v22
  ds_bpermute_b32 v10, v22, v2          // 5
  s_waitcnt lgkmcnt(0)
  ST
  ds_permute_b32 v10, v22, v2           // 6
  s_waitcnt lgkmcnt(0)
  ST
  ds_read2st64_b32 v[10:11], v20 offset1:1  // 7, 8: LDS 8l and 8l + 256
  s_waitcnt lgkmcnt(0)
  ST
  ST v11
  s_endpgm
.Lll_end:
.size lds_lanes, .Lll_end-lds_lanes
KD lds_lanes, vgprs=24, lds=1024

// An instruction the simulator does not implement.
BEGIN unimplemented
  PROLOGUE
  v_sin_f32 v10, v1
  ST
  s_endpgm
.Lun_end:
.size unimplemented, .Lun_end-unimplemented
KD unimplemented, vgprs=16

// The same body, asking for flushed f32 denormals: refused, not run.
BEGIN flush_denormals
  PROLOGUE
  ST
  s_endpgm
.Lfd_end:
.size flush_denormals, .Lfd_end-flush_denormals
KD flush_denormals, vgprs=16, denorm32=0

// Work-item and workgroup ids in a 3-D launch (grid 2x3x2, workgroup
// 8x4x2): out[64*lin + t] = v0 as dispatched, out[768 + 64*lin + t] = ids.
BEGIN ids
  s_load_dwordx2 s[6:7], s[0:1], 0x8
  v_bfe_u32 v11, v0, 0, 10
  v_bfe_u32 v12, v0, 10, 10
  v_bfe_u32 v13, v0, 20, 10
  v_lshl_add_u32 v14, v12, 3, v11
  v_lshl_add_u32 v14, v13, 5, v14
  s_lshl_b32 s10, s3, 1
  s_add_u32 s10, s10, s2
  s_mul_i32 s11, s4, 6
  s_add_u32 s10, s10, s11
  s_lshl_b32 s10, s10, 6
  v_add_u32 v15, s10, v14
  v_lshlrev_b32 v15, 2, v15
  s_lshl_b32 s11, s3, 8
  s_or_b32 s11, s11, s2
  s_lshl_b32 s12, s4, 16
  s_or_b32 s11, s11, s12
  v_mov_b32 v16, s11
  s_waitcnt lgkmcnt(0)
  global_store_dword v15, v0, s[6:7]
  global_store_dword v15, v16, s[6:7] offset:3072
  s_endpgm
.Lids_end:
.size ids, .Lids_end-ids
KD ids, vgprs=24, wgx=1, wgy=1, wgz=1, vid=2

// v_cvt_pk_fp8_f32 past the E4M3 range, with MODE.FP16_OVFL from the
// descriptor (fp8_clamp: set; fp8_nan: clear) and set by s_setreg
// (fp8_setreg: clear in the descriptor).
.macro FP8_BODY
  PROLOGUE
  global_load_dword v5, v1, s[4:5]
  global_load_dword v6, v1, s[4:5] offset:256
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, 0
  v_cvt_pk_fp8_f32 v10, v5, v6
  v_cvt_pk_fp8_f32 v10, v6, v5 op_sel:[0,0,1]
  ST
.endm
BEGIN fp8_clamp
  FP8_BODY
  s_endpgm
.Lfc_end:
.size fp8_clamp, .Lfc_end-fp8_clamp
KD fp8_clamp, vgprs=16, fp16ovfl=1
BEGIN fp8_nan
  FP8_BODY
  s_endpgm
.Lfn_end:
.size fp8_nan, .Lfn_end-fp8_nan
KD fp8_nan, vgprs=16, fp16ovfl=0
BEGIN fp8_setreg
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 23, 1), 1
  FP8_BODY
  s_endpgm
.Lfs_end:
.size fp8_setreg, .Lfs_end-fp8_setreg
KD fp8_setreg, vgprs=16, fp16ovfl=0

// Odds and ends: the dispatch packet (user SGPRs s[0:1], kernarg s[2:3]),
// s_buffer_load range checking, flat loads, sub-dword LDS access, DPP
// wave_shr/row_bcast:31, v_cmpx, s_getpc/s_setpc, s_cbranch_vccz.
BEGIN misc
  s_load_dwordx4 s[4:7], s[2:3], 0x0
  s_load_dword s16, s[0:1], 0x4
  s_load_dword s17, s[0:1], 0xc
  v_and_b32 v0, 0x3ff, v0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v10, s16               // 0: workgroup_size_x | y << 16
  ST
  v_mov_b32 v10, s17               // 1: grid_size_x
  ST
  s_mov_b32 s12, s4
  s_and_b32 s13, s5, 0xffff
  s_mov_b32 s14, 16
  s_mov_b32 s15, 0x27000
  s_buffer_load_dwordx2 s[18:19], s[12:15], 0x8
  s_buffer_load_dword s20, s[12:15], 0x10
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v10, s18               // 2: in[2]
  ST
  v_mov_b32 v10, s19               // 3: in[3]
  ST
  v_mov_b32 v10, s20               // 4: past num_records: 0
  ST
  v_mov_b32 v3, s5
  v_add_co_u32 v2, vcc, s4, v1
  v_addc_co_u32 v3, vcc, 0, v3, vcc
  flat_load_dword v10, v[2:3] offset:256  // 5: in[64 + l]
  s_waitcnt vmcnt(0) lgkmcnt(0)
  ST
  global_load_dword v4, v1, s[4:5]
  s_waitcnt vmcnt(0)
  ds_write_b32 v1, v4
  s_waitcnt lgkmcnt(0)
  ds_read_u8 v10, v0 offset:1      // 6: LDS byte l + 1
  s_waitcnt lgkmcnt(0)
  ST
  ds_read_i16 v10, v1 offset:2     // 7: in[l] >> 16, sign-extended
  s_waitcnt lgkmcnt(0)
  ST
  ds_write_b8 v0, v4 offset:512
  ds_write_b16 v1, v4 offset:768
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v10, v1 offset:512   // 8: low bytes of in[4l..4l+3] (l < 16)
  s_waitcnt lgkmcnt(0)
  ST
  ds_read_u16 v10, v1 offset:768   // 9: in[l] & 0xffff
  s_waitcnt lgkmcnt(0)
  ST
  v_mov_b32 v10, v4                // 10: wave_shr:1 (lane 0 keeps in[0])
  v_mov_b32_dpp v10, v4 wave_shr:1 row_mask:0xf bank_mask:0xf
  ST
  v_mov_b32 v10, 0                 // 11: rows 2, 3 get lane 31
  v_mov_b32_dpp v10, v4 row_bcast:31 row_mask:0xc bank_mask:0xf
  ST
  v_mov_b32 v10, 7                 // 12: odd in[l] -> in[l], else 7
  s_mov_b64 s[22:23], exec
  v_and_b32 v5, 1, v4
  v_cmpx_eq_u32 vcc, 1, v5
  v_mov_b32 v10, v4
  s_mov_b64 exec, s[22:23]
  ST
  v_mov_b32 v10, 1                 // 13: s_setpc skips the v_mov 2
  s_getpc_b64 s[24:25]
.Lmisc_pc:
  s_add_u32 s24, s24, .Lmisc_skip-.Lmisc_pc
  s_addc_u32 s25, s25, 0
  s_setpc_b64 s[24:25]
  v_mov_b32 v10, 2
.Lmisc_skip:
  ST
  v_mov_b32 v10, 3                 // 14: vccz taken
  s_mov_b64 vcc, 0
  s_cbranch_vccz .Lmisc_vz
  v_mov_b32 v10, 4
.Lmisc_vz:
  ST
  v_mov_b32 v6, v4                 // 15..18: ds_write/read_b128
  v_not_b32 v7, v4
  v_mov_b32 v8, v0
  v_mov_b32 v9, s17
  v_lshlrev_b32 v11, 4, v0
  ds_write_b128 v11, v[6:9]
  s_waitcnt lgkmcnt(0)
  v_xor_b32 v12, 16, v11
  ds_read_b128 v[12:15], v12
  s_waitcnt lgkmcnt(0)
  ST v12
  ST v13
  ST v14
  ST v15
  global_load_ushort v10, v1, s[4:5] offset:2  // 19: in[l] >> 16
  s_waitcnt vmcnt(0)
  ST
  global_store_short v1, v4, s[6:7]            // 20: low half only
  s_add_u32 s6, s6, 0x100
  s_addc_u32 s7, s7, 0
  v_lshlrev_b32 v3, 3, v0                      // 21, 22: (in[l], ~in[l])
  v_not_b32 v5, v4
  global_store_dwordx2 v3, v[4:5], s[6:7]
  s_endpgm
.Lmisc_end:
.size misc, .Lmisc_end-misc
KD misc, vgprs=16, lds=1024, sgprs=32, dispatch=1

// Kernel arguments preloaded into SGPRs: s[2:5] = in, out (after the
// kernarg pointer). Execution starts 256 bytes in, past the prologue that
// traps on firmware without preloading.
BEGIN preload
  s_trap 2
  .fill 63, 4, 0xbf800000
  v_and_b32 v0, 0x3ff, v0
  v_lshlrev_b32 v1, 2, v0
  global_load_dword v10, v1, s[2:3]
  s_waitcnt vmcnt(0)
  v_add_u32 v10, 1, v10
  global_store_dword v1, v10, s[4:5]
  s_endpgm
.Lpre_end:
.size preload, .Lpre_end-preload
.rodata
.p2align 6
.amdhsa_kernel preload
  .amdhsa_float_denorm_mode_32 3 // keep f32 denormals (what the simulator models)
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_kernarg_preload_length 4
  .amdhsa_user_sgpr_kernarg_preload_offset 0
  .amdhsa_next_free_vgpr 16
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 16
  .amdhsa_kernarg_size 24
.end_amdhsa_kernel
.text

// A wave that never ends.
BEGIN endless
.Lendless_loop:
  s_branch .Lendless_loop
  s_endpgm
.Lendless_end:
.size endless, .Lendless_end-endless
KD endless, vgprs=8

// 16-bit integer ops, v_bitop3, v_xor3, SDWA VOPC and 16-bit SDWA/op_sel
// forms: a, b, c (v2..v4) from in[64*k + lane]; one result per op to out.
BEGIN int16_ops
  PROLOGUE
  global_load_dword v2, v1, s[4:5]
  global_load_dword v3, v1, s[4:5] offset:256
  global_load_dword v4, v1, s[4:5] offset:512
  s_waitcnt vmcnt(0)
  v_add_u16 v10, v2, v3            // 0
  ST
  v_sub_u16 v10, v2, v3            // 1
  ST
  v_subrev_u16 v10, v2, v3         // 2
  ST
  v_mul_lo_u16 v10, v2, v3         // 3
  ST
  v_lshlrev_b16 v10, v3, v2        // 4
  ST
  v_lshrrev_b16 v10, v3, v2        // 5
  ST
  v_ashrrev_i16 v10, v3, v2        // 6
  ST
  v_max_u16 v10, v2, v3            // 7
  ST
  v_max_i16 v10, v2, v3            // 8
  ST
  v_min_u16 v10, v2, v3            // 9
  ST
  v_min_i16 v10, v2, v3            // 10
  ST
  v_add_i16 v10, v2, v3            // 11
  ST
  v_sub_i16 v10, v2, v3            // 12
  ST
  v_mad_u16 v10, v2, v3, v4        // 13
  ST
  v_mad_i16 v10, v2, v3, v4        // 14
  ST
  v_mad_u32_u16 v10, v2, v3, v4    // 15
  ST
  v_mad_i32_i16 v10, v2, v3, v4    // 16
  ST
  v_bitop3_b32 v10, v2, v3, v4 bitop3:0x6c   // 17: (a & c) ^ b
  ST
  v_bitop3_b32 v10, v2, v3, v4 bitop3:0xe8   // 18: majority
  ST
  v_bitop3_b16 v10, v2, v3, v4 bitop3:0x96   // 19: a ^ b ^ c
  ST
  s_mov_b32 s22, 0x0ff0f00f
  v_bitop3_b32 v10, v2, s22, v4 bitop3:0xca   // 20: a ? K : c
  ST
  v_mov_b32 v10, v4                // 21: byte 1 of a times word 1 of b
  v_mul_lo_u16_sdwa v10, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1 src1_sel:WORD_1
  ST
  v_mul_lo_u16_e32 v10, 0xab, v2   // 22
  ST
  v_mov_b32 v10, v4                // 23: high halves, result to the high half
  v_mad_u16 v10, v2, v3, v4 op_sel:[1,1,0,1]
  ST
  v_cmp_ne_u16_sdwa vcc, v2, v3 src0_sel:BYTE_1 src1_sel:BYTE_0   // 24
  v_cndmask_b32_e64 v10, 0, 1, vcc
  ST
  v_cmp_gt_i16_sdwa s[20:21], v2, v3 src0_sel:WORD_1 src1_sel:WORD_0  // 25
  v_cndmask_b32_e64 v10, 0, 1, s[20:21]
  ST
  v_cmp_lt_i32_sdwa vcc, sext(v2), sext(v3) src0_sel:BYTE_0 src1_sel:BYTE_2  // 26
  v_cndmask_b32_e64 v10, 0, 1, vcc
  ST
  v_lshlrev_b16_e64 v10, 19, v2    // 27: shift amount 19 & 15 = 3
  ST
  s_endpgm
.Lint16_end:
.size int16_ops, .Lint16_end-int16_ops
KD int16_ops, vgprs=16

// D16 loads and stores (global and LDS): a, c from in; each result to out.
BEGIN d16_mem
  PROLOGUE
  global_load_dword v2, v1, s[4:5]
  global_load_dword v4, v1, s[4:5] offset:512
  s_waitcnt vmcnt(0)
  v_mov_b32 v10, v4                // 0
  global_load_ubyte_d16 v10, v1, s[4:5]
  s_waitcnt vmcnt(0)
  ST
  v_mov_b32 v10, v4                // 1
  global_load_sbyte_d16_hi v10, v1, s[4:5] offset:1
  s_waitcnt vmcnt(0)
  ST
  v_mov_b32 v10, v4                // 2
  global_load_short_d16_hi v10, v1, s[4:5] offset:2
  s_waitcnt vmcnt(0)
  ST
  v_mov_b32 v10, v4                // 3
  global_load_short_d16 v10, v1, s[4:5] offset:2
  s_waitcnt vmcnt(0)
  ST
  v_mov_b32 v10, v4                // 4
  global_load_sbyte_d16 v10, v1, s[4:5] offset:3
  s_waitcnt vmcnt(0)
  ST
  v_mov_b32 v10, v4                // 5
  global_load_ubyte_d16_hi v10, v1, s[4:5] offset:2
  s_waitcnt vmcnt(0)
  ST
  global_store_dword v1, v4, s[6:7]   // 6: c, then its low half from a's high half
  global_store_short_d16_hi v1, v2, s[6:7]
  s_add_u32 s6, s6, 0x100
  s_addc_u32 s7, s7, 0
  global_store_dword v1, v4, s[6:7]   // 7: c, then its byte 0 from a's byte 2
  global_store_byte_d16_hi v1, v2, s[6:7]
  s_add_u32 s6, s6, 0x100
  s_addc_u32 s7, s7, 0
  ds_write_b32 v1, v4              // 8: LDS c, low half from a's high half
  ds_write_b16_d16_hi v1, v2
  ds_read_b32 v10, v1
  s_waitcnt lgkmcnt(0)
  ST
  ds_write_b8_d16_hi v1, v2 offset:256   // 9: byte 0 of c from a's byte 2
  ds_write_b32 v1, v4 offset:512
  ds_write_b8_d16_hi v1, v2 offset:512
  ds_read_b32 v10, v1 offset:512
  s_waitcnt lgkmcnt(0)
  ST
  ds_write_b32 v1, v2 offset:768   // LDS a
  v_mov_b32 v10, v4                // 10
  ds_read_u8_d16_hi v10, v1 offset:769
  s_waitcnt lgkmcnt(0)
  ST
  v_mov_b32 v10, v4                // 11
  ds_read_u8_d16 v10, v1 offset:770
  s_waitcnt lgkmcnt(0)
  ST
  v_mov_b32 v10, v4                // 12
  ds_read_i8_d16 v10, v1 offset:771
  s_waitcnt lgkmcnt(0)
  ST
  v_mov_b32 v10, v4                // 13
  ds_read_i8_d16_hi v10, v1 offset:768
  s_waitcnt lgkmcnt(0)
  ST
  v_mov_b32 v10, v4                // 14
  ds_read_u16_d16 v10, v1 offset:770
  s_waitcnt lgkmcnt(0)
  ST
  v_mov_b32 v10, v4                // 15
  ds_read_u16_d16_hi v10, v1 offset:768
  s_waitcnt lgkmcnt(0)
  ST
  s_endpgm
.Ld16_end:
.size d16_mem, .Ld16_end-d16_mem
KD d16_mem, vgprs=16, lds=1024

// Every VOPC compare: f32 (a4, a5), i32/u32/i16/u16 (a0, a1), i64/u64
// (a2:a0, a3:a1) from in[64*k + lane]; each lane mask as 0/1 to out, the
// v_cmp forms first, then the v_cmpx forms (their EXEC, restored after).
.macro VCMP1 c, t, a, b
  v_cmp_\c\()_\t vcc, \a, \b
  v_cndmask_b32_e64 v10, 0, 1, vcc
  ST
.endm
.macro VCMPX1 c, t, a, b
  v_cmpx_\c\()_\t vcc, \a, \b
  s_mov_b64 s[22:23], exec
  s_mov_b64 exec, s[20:21]
  v_cndmask_b32_e64 v10, 0, 1, s[22:23]
  ST
.endm
.macro VCMP_TYPES m
.irp c, f,lt,eq,le,gt,lg,ge,o,u,nge,nlg,ngt,nle,neq,nlt,tru
  \m \c, f32, v6, v7
.endr
.irp c, f,lt,eq,le,gt,ne,ge,t
  \m \c, i32, v2, v3
.endr
.irp c, f,lt,eq,le,gt,ne,ge,t
  \m \c, u32, v2, v3
.endr
.irp c, f,lt,eq,le,gt,ne,ge,t
  \m \c, i64, v[8:9], v[12:13]
.endr
.irp c, f,lt,eq,le,gt,ne,ge,t
  \m \c, u64, v[8:9], v[12:13]
.endr
.irp c, f,lt,eq,le,gt,ne,ge,t
  \m \c, i16, v2, v3
.endr
.irp c, f,lt,eq,le,gt,ne,ge,t
  \m \c, u16, v2, v3
.endr
.endm
BEGIN vcmp_all
  PROLOGUE
  global_load_dword v2, v1, s[4:5]
  global_load_dword v3, v1, s[4:5] offset:256
  global_load_dword v4, v1, s[4:5] offset:512
  global_load_dword v5, v1, s[4:5] offset:768
  global_load_dword v6, v1, s[4:5] offset:1024
  global_load_dword v7, v1, s[4:5] offset:1280
  s_waitcnt vmcnt(0)
  v_mov_b32 v8, v2
  v_mov_b32 v9, v4
  v_mov_b32 v12, v3
  v_mov_b32 v13, v5
  s_mov_b64 s[20:21], exec
  VCMP_TYPES VCMP1
  VCMP_TYPES VCMPX1
  VCMP1 class, f32, v6, v3
  VCMPX1 class, f32, v6, v3
  s_endpgm
.Lvcmp_end:
.size vcmp_all, .Lvcmp_end-vcmp_all
KD vcmp_all, vgprs=16

// Source modifiers on 16-bit float sources: neg/abs act on the sign of the
// 16-bit value (bit 15 of the selected half; bit 31 when v_pack_b32_f16's
// op_sel picks the high half). a, b (f16 pairs, v2, v3) and h (bf16 pairs,
// v5) from in[64*k + lane]; one result per case to out.
BEGIN f16_mods
  PROLOGUE
  global_load_dword v2, v1, s[4:5]
  global_load_dword v3, v1, s[4:5] offset:256
  global_load_dword v5, v1, s[4:5] offset:512
  s_waitcnt vmcnt(0)
  v_cvt_f32_f16_e64 v10, -v2       // 0
  ST
  v_cvt_f32_f16_e64 v10, |v2|      // 1
  ST
  v_cvt_f32_f16_e64 v10, -|v2|     // 2
  ST
  v_cvt_f32_f16_sdwa v10, -v2 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:WORD_1  // 3
  ST
  v_cvt_f32_f16_sdwa v10, |v2| dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:WORD_1  // 4
  ST
  v_cvt_f32_bf16_e64 v10, -v5      // 5
  ST
  v_cvt_f32_bf16_e64 v10, |v5|     // 6
  ST
  v_cvt_f32_bf16_e64 v10, -|v5|    // 7
  ST
  v_cvt_f32_bf16_sdwa v10, -v5 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:WORD_1  // 8
  ST
  v_cvt_f32_bf16_sdwa v10, -|v5| dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:WORD_1  // 9
  ST
  v_pack_b32_f16 v10, -v2, |v3|    // 10
  ST
  v_pack_b32_f16 v10, |v2|, -v3 op_sel:[1,1,0]   // 11
  ST
  v_pack_b32_f16 v10, -|v2|, -v3 op_sel:[0,1,0]  // 12
  ST
  v_cvt_f32_f16 v10, v2            // 13: no modifier
  ST
  v_cvt_f32_bf16 v10, v5           // 14
  ST
  s_endpgm
.Lf16_mods_end:
.size f16_mods, .Lf16_mods_end-f16_mods
KD f16_mods, vgprs=16

// The clamp bit on 16-bit results: f16 VOP3 and packed ops clamp to
// [0, 1] (NaN gives 0), 16-bit integer add/sub/mad saturate; with them the
// packed 16-bit integer ops. a, b, c (v2..v4) and moderate f16 pairs d, e,
// g (v5..v7, for the FMAs) from in[64*k + lane]; one result per case.
BEGIN clamp16
  PROLOGUE
  global_load_dword v2, v1, s[4:5]
  global_load_dword v3, v1, s[4:5] offset:256
  global_load_dword v4, v1, s[4:5] offset:512
  global_load_dword v5, v1, s[4:5] offset:768
  global_load_dword v6, v1, s[4:5] offset:1024
  global_load_dword v7, v1, s[4:5] offset:1280
  s_waitcnt vmcnt(0)
  v_add_f16_e64 v10, v2, v3 clamp  // 0
  ST
  v_sub_f16_e64 v10, v2, v3 clamp  // 1
  ST
  v_mul_f16_e64 v10, v2, v3 clamp  // 2
  ST
  v_max_f16_e64 v10, v2, v3 clamp  // 3
  ST
  v_min_f16_e64 v10, v2, v3 clamp  // 4
  ST
  v_fma_f16 v10, v5, v6, v7 clamp  // 5
  ST
  v_pk_add_f16 v10, v2, v3 clamp   // 6
  ST
  v_pk_mul_f16 v10, v2, v3 clamp   // 7
  ST
  v_pk_fma_f16 v10, v5, v6, v7 clamp  // 8
  ST
  v_pk_max_f16 v10, v2, v3 clamp   // 9
  ST
  v_add_u16_e64 v10, v2, v3 clamp  // 10
  ST
  v_sub_u16_e64 v10, v2, v3 clamp  // 11
  ST
  v_subrev_u16_e64 v10, v2, v3 clamp  // 12
  ST
  v_add_i16 v10, v2, v3 clamp      // 13
  ST
  v_sub_i16 v10, v2, v3 clamp      // 14
  ST
  v_mad_u16 v10, v2, v3, v4 clamp  // 15
  ST
  v_mad_i16 v10, v2, v3, v4 clamp  // 16
  ST
  v_pk_add_u16 v10, v2, v3 clamp   // 17
  ST
  v_pk_sub_u16 v10, v2, v3 clamp   // 18
  ST
  v_pk_add_i16 v10, v2, v3         // 19
  ST
  v_pk_add_i16 v10, v2, v3 clamp   // 20
  ST
  v_pk_sub_i16 v10, v2, v3 clamp   // 21
  ST
  v_pk_mad_u16 v10, v2, v3, v4     // 22
  ST
  v_pk_mad_u16 v10, v2, v3, v4 clamp  // 23
  ST
  v_pk_mad_i16 v10, v2, v3, v4     // 24
  ST
  v_pk_mad_i16 v10, v2, v3, v4 clamp  // 25
  ST
  v_pk_max_u16 v10, v2, v3         // 26
  ST
  v_pk_min_u16 v10, v2, v3         // 27
  ST
  v_pk_max_u16 v10, v2, v3 op_sel:[1,0] op_sel_hi:[0,1]  // 28
  ST
  v_pk_min_u16 v10, v2, v3 op_sel:[0,1] op_sel_hi:[1,1]  // 29
  ST
  v_pk_min_f16 v10, v2, v3 clamp   // 30
  ST
  s_endpgm
.Lclamp16_end:
.size clamp16, .Lclamp16_end-clamp16
KD clamp16, vgprs=16

// v_mfma_f32_32x32x64_f8f6f4 (unscaled): FP8 A at in+0 and B at in+2048
// (32 B/lane), FP4 B at in+4096 (16 B/lane), C at in+5120 (64 B/lane).
// Two products: E4M3 x E4M3 with C, E4M3 x E2M1 with C = 0; then the
// same FP8 registers through v_mfma_f32_16x16x128_f8f6f4 with C = 0.
BEGIN mfma_32x32
  PROLOGUE
  v_lshlrev_b32 v52, 5, v0
  v_lshlrev_b32 v53, 4, v0
  v_lshlrev_b32 v54, 6, v0
  global_load_dwordx4 v[4:7], v52, s[4:5]
  global_load_dwordx4 v[8:11], v52, s[4:5] offset:16
  global_load_dwordx4 v[12:15], v52, s[4:5] offset:2048
  global_load_dwordx4 v[16:19], v52, s[4:5] offset:2064
  s_add_u32 s10, s4, 0x1000
  s_addc_u32 s11, s5, 0
  global_load_dwordx4 v[60:63], v53, s[10:11]
  s_add_u32 s10, s4, 0x1400
  s_addc_u32 s11, s5, 0
  global_load_dwordx4 v[20:23], v54, s[10:11]
  global_load_dwordx4 v[24:27], v54, s[10:11] offset:16
  global_load_dwordx4 v[28:31], v54, s[10:11] offset:32
  global_load_dwordx4 v[32:35], v54, s[10:11] offset:48
  s_waitcnt vmcnt(0)
  v_mfma_f32_32x32x64_f8f6f4 v[36:51], v[4:11], v[12:19], v[20:35] cbsz:0 blgp:0
  v_mfma_f32_32x32x64_f8f6f4 v[64:79], v[4:11], v[60:63], 0 cbsz:0 blgp:4
  v_mfma_f32_16x16x128_f8f6f4 v[80:83], v[4:11], v[12:19], 0
  s_nop 7
  s_nop 7
  s_nop 7
  s_nop 7
.irp r, 36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83
  ST v\r
.endr
  s_endpgm
.Lmfma32_end:
.size mfma_32x32, .Lmfma32_end-mfma_32x32
KD mfma_32x32, vgprs=84

// More VALU arithmetic LLVM emits: a, b, c (ints, v2..v4), fa, fb, fc
// (floats, v5..v7), s (small ints, v9) from in[64*k + lane]; one result per
// case to out.
BEGIN valu_more
  PROLOGUE
  global_load_dword v2, v1, s[4:5]
  global_load_dword v3, v1, s[4:5] offset:256
  global_load_dword v4, v1, s[4:5] offset:512
  global_load_dword v5, v1, s[4:5] offset:768
  global_load_dword v6, v1, s[4:5] offset:1024
  global_load_dword v7, v1, s[4:5] offset:1280
  global_load_dword v9, v1, s[4:5] offset:1536
  s_waitcnt vmcnt(0)
  v_nop
  v_cvt_f32_ubyte1 v10, v2         // 0
  ST
  v_cvt_f32_ubyte3 v10, v2         // 1
  ST
  v_cvt_rpi_i32_f32 v10, v5        // 2
  ST
  v_cvt_flr_i32_f32 v10, v5        // 3
  ST
  v_fract_f32 v10, v5              // 4
  ST
  v_trunc_f32 v10, v5              // 5
  ST
  v_ceil_f32 v10, v5               // 6
  ST
  v_floor_f32 v10, v5              // 7
  ST
  v_log_f32_e64 v10, |v5|          // 8
  ST
  v_rsq_f32_e64 v10, |v5|          // 9
  ST
  v_sqrt_f32_e64 v10, |v5|         // 10
  ST
  v_ffbh_i32 v10, v2               // 11
  ST
  v_frexp_mant_f32 v10, v5         // 12
  ST
  v_frexp_exp_i32_f32 v10, v5      // 13
  ST
  v_mul_legacy_f32 v10, v5, v6     // 14
  ST
  v_mul_i32_i24 v10, v2, v3        // 15
  ST
  v_mul_hi_i32_i24 v10, v2, v3     // 16
  ST
  v_min_i32 v10, v2, v3            // 17
  ST
  v_max_u32 v10, v2, v3            // 18
  ST
  v_fmamk_f32 v10, v5, 0x40490fdb, v6   // 19: fa * pi + fb
  ST
  v_fmaak_f32 v10, v5, v6, 0xc0490fdb   // 20: fa * fb - pi
  ST
  v_subrev_co_u32 v10, vcc, v2, v3      // 21: b - a
  ST
  v_subbrev_co_u32 v10, vcc, v4, v2, vcc   // 22: a - c - borrow
  ST
  v_cndmask_b32_e64 v10, 0, 1, vcc      // 23: the borrow out
  ST
  v_lshrrev_b64 v[10:11], v9, v[2:3]    // 24, 25
  ST
  ST v11
  v_ashrrev_i64 v[10:11], v9, v[2:3]    // 26, 27
  ST
  ST v11
  v_mad_i32_i24 v10, v2, v3, v4    // 28
  ST
  v_min3_f32 v10, v5, v6, v7       // 29
  ST
  v_min3_i32 v10, v2, v3, v4       // 30
  ST
  v_max3_u32 v10, v2, v3, v4       // 31
  ST
  v_mad_i64_i32 v[10:11], s[12:13], v2, v3, v[4:5]   // 32, 33
  ST
  ST v11
  v_add_lshl_u32 v10, v2, v3, v9   // 34
  ST
  v_bfm_b32 v10, v9, v3            // 35
  ST
  v_cvt_pk_u16_u32 v10, v2, v3     // 36
  ST
  v_cvt_pk_i16_i32 v10, v2, v3     // 37
  ST
  v_pk_mov_b32 v[10:11], v[2:3], v[4:5] op_sel:[1,0]   // 38, 39: b, c
  ST
  ST v11
  v_mov_b32 v10, v2                // 40: lane 5 from lane 0's b
  v_readfirstlane_b32 s12, v3
  v_writelane_b32 v10, s12, 5
  ST
  v_mov_b32 v11, 0x7f800000        // 41: 0 * inf is 0
  v_cvt_f32_i32 v12, v9
  v_mul_legacy_f32 v10, v11, v12
  ST
  s_endpgm
.Lvalu_more_end:
.size valu_more, .Lvalu_more_end-valu_more
KD valu_more, vgprs=16

// Buffer, global, flat and LDS forms LLVM emits: loads of every width and
// extension from `in` (X: 1024 random bytes, then floats F and G), LDS
// reads of X after writing it, LDS two-address writes and atomics read
// back; one result per ST row. Then stores into 16-byte slots per lane of
// eleven 1 KiB blocks after the rows (bytes not written keep out's 0xCD).
BEGIN mem_more
  PROLOGUE
  v_lshlrev_b32 v20, 4, v0         // 16 l
  v_lshlrev_b32 v21, 3, v0         // 8 l
  v_lshlrev_b32 v22, 1, v0         // 2 l
  s_mov_b32 s12, s4
  s_and_b32 s13, s5, 0xffff
  s_mov_b32 s14, s8
  s_mov_b32 s15, 0x27000
  v_add_co_u32 v24, vcc, s4, v20
  v_mov_b32 v25, s5
  v_addc_co_u32 v25, vcc, 0, v25, vcc
  buffer_load_dwordx3 v[10:12], v20, s[12:15], 0 offen  // 0..2
  s_waitcnt vmcnt(0)
  ST
  ST v11
  ST v12
  buffer_load_ubyte v10, v0, s[12:15], 0 offen          // 3
  s_waitcnt vmcnt(0)
  ST
  buffer_load_sbyte v10, v0, s[12:15], 0 offen offset:64  // 4
  s_waitcnt vmcnt(0)
  ST
  buffer_load_ushort v10, v22, s[12:15], 0 offen        // 5
  s_waitcnt vmcnt(0)
  ST
  buffer_load_sshort v10, v22, s[12:15], 0 offen offset:128  // 6
  s_waitcnt vmcnt(0)
  ST
  global_load_dwordx3 v[10:12], v20, s[4:5] offset:4    // 7..9
  s_waitcnt vmcnt(0)
  ST
  ST v11
  ST v12
  global_load_sshort v10, v22, s[4:5] offset:256        // 10
  s_waitcnt vmcnt(0)
  ST
  flat_load_dwordx2 v[10:11], v[24:25]                  // 11, 12
  s_waitcnt vmcnt(0) lgkmcnt(0)
  ST
  ST v11
  flat_load_dwordx3 v[10:12], v[24:25]                  // 13..15
  s_waitcnt vmcnt(0) lgkmcnt(0)
  ST
  ST v11
  ST v12
  flat_load_dwordx4 v[10:13], v[24:25]                  // 16..19
  s_waitcnt vmcnt(0) lgkmcnt(0)
  ST
  ST v11
  ST v12
  ST v13
  flat_load_ubyte v10, v[24:25] offset:3                // 20
  s_waitcnt vmcnt(0) lgkmcnt(0)
  ST
  flat_load_sbyte v10, v[24:25] offset:5                // 21
  s_waitcnt vmcnt(0) lgkmcnt(0)
  ST
  flat_load_ushort v10, v[24:25] offset:6               // 22
  s_waitcnt vmcnt(0) lgkmcnt(0)
  ST
  flat_load_sshort v10, v[24:25] offset:10              // 23
  s_waitcnt vmcnt(0) lgkmcnt(0)
  ST
.macro D16B op, addr, off
  v_mov_b32 v10, 0xa5a5c3c3
  \op v10, \addr, s[12:15], 0 offen offset:\off
  s_waitcnt vmcnt(0)
  ST
.endm
  D16B buffer_load_ubyte_d16, v0, 0       // 24
  D16B buffer_load_ubyte_d16_hi, v0, 64   // 25
  D16B buffer_load_sbyte_d16, v0, 128     // 26
  D16B buffer_load_sbyte_d16_hi, v0, 192  // 27
  D16B buffer_load_short_d16, v22, 256    // 28
  D16B buffer_load_short_d16_hi, v22, 384 // 29
.macro D16F op, off
  v_mov_b32 v10, 0xa5a5c3c3
  \op v10, v[24:25] offset:\off
  s_waitcnt vmcnt(0) lgkmcnt(0)
  ST
.endm
  D16F flat_load_ubyte_d16, 1             // 30
  D16F flat_load_ubyte_d16_hi, 2          // 31
  D16F flat_load_sbyte_d16, 7             // 32
  D16F flat_load_sbyte_d16_hi, 9          // 33
  D16F flat_load_short_d16, 12            // 34
  D16F flat_load_short_d16_hi, 14         // 35
  global_load_dwordx4 v[30:33], v20, s[4:5]
  global_load_dword v34, v1, s[4:5] offset:1024   // F
  global_load_dword v35, v1, s[4:5] offset:1280   // G
  s_waitcnt vmcnt(0)
  ds_write_b96 v20, v[30:32]              // LDS[0, 1024) = X
  ds_write_b32 v20, v33 offset:12
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_read_b96 v[10:12], v20               // 36..38
  s_waitcnt lgkmcnt(0)
  ST
  ST v11
  ST v12
  ds_read_i8 v10, v0                      // 39
  s_waitcnt lgkmcnt(0)
  ST
  ds_read2_b32 v[10:11], v1 offset0:1 offset1:17      // 40, 41
  s_waitcnt lgkmcnt(0)
  ST
  ST v11
  ds_read2_b64 v[10:13], v21 offset0:0 offset1:3      // 42..45
  s_waitcnt lgkmcnt(0)
  ST
  ST v11
  ST v12
  ST v13
  ds_read2st64_b64 v[10:13], v21 offset0:0 offset1:1  // 46..49
  s_waitcnt lgkmcnt(0)
  ST
  ST v11
  ST v12
  ST v13
  ds_write2_b64 v20, v[30:31], v[32:33] offset0:128 offset1:129
  s_waitcnt lgkmcnt(0)
  v_add_u32 v36, 0x400, v20
  ds_read2_b32 v[10:11], v36 offset0:0 offset1:2      // 50, 51
  s_waitcnt lgkmcnt(0)
  ST
  ST v11
  ds_write2st64_b32 v1, v30, v31 offset0:4 offset1:5
  s_waitcnt lgkmcnt(0)
  v_add_u32 v37, 0x400, v1
  ds_read2_b32 v[10:11], v37 offset0:0 offset1:64     // 52, 53
  s_waitcnt lgkmcnt(0)
  ST
  ST v11
  ds_write2st64_b64 v21, v[30:31], v[32:33] offset0:2 offset1:3
  s_waitcnt lgkmcnt(0)
  ds_read2_b64 v[10:13], v21 offset0:128 offset1:192  // 54..57
  s_waitcnt lgkmcnt(0)
  ST
  ST v11
  ST v12
  ST v13
.macro DSATOM op, a, b
  ds_write_b32 v1, \a offset:1024
  \op v1, \b offset:1024
  ds_read_b32 v10, v1 offset:1024
  s_waitcnt lgkmcnt(0)
  ST
.endm
  DSATOM ds_add_u32, v30, v31             // 58
  DSATOM ds_max_f32, v34, v35             // 59
  DSATOM ds_min_f32, v34, v35             // 60
  DSATOM ds_add_f32, v34, v35             // 61
  s_mov_b32 s16, s6                       // the store blocks
  s_and_b32 s17, s7, 0xffff
  s_mov_b32 s18, 0x10000
  s_mov_b32 s19, 0x27000
  buffer_store_dwordx2 v[30:31], v20, s[16:19], 0 offen              // 0
  buffer_store_dwordx3 v[30:32], v20, s[16:19], 0 offen offset:1024  // 1
  buffer_store_dwordx4 v[30:33], v20, s[16:19], 0 offen offset:2048  // 2
  buffer_store_byte v30, v20, s[16:19], 0 offen offset:3072          // 3
  buffer_store_short v30, v20, s[16:19], 0 offen offset:3076
  buffer_store_byte_d16_hi v30, v20, s[16:19], 0 offen offset:3080
  buffer_store_short_d16_hi v30, v20, s[16:19], 0 offen offset:3084
  s_add_u32 s24, s6, 0x1000
  s_addc_u32 s25, s7, 0
  global_store_dwordx3 v20, v[30:32], s[24:25]                       // 4
  global_store_dwordx4 v20, v[30:33], s[24:25] offset:1024           // 5
  global_store_byte v20, v31, s[24:25] offset:2048                   // 6
  v_add_co_u32 v26, vcc, s24, v20
  v_mov_b32 v27, s25
  v_addc_co_u32 v27, vcc, 0, v27, vcc
  flat_store_dword v[26:27], v30 offset:3072                         // 7
  flat_store_short v[26:27], v31 offset:3076
  flat_store_byte v[26:27], v32 offset:3080
  flat_store_byte_d16_hi v[26:27], v32 offset:3081
  flat_store_short_d16_hi v[26:27], v33 offset:3084
  v_add_co_u32 v26, vcc, 0x1000, v26
  v_addc_co_u32 v27, vcc, 0, v27, vcc
  flat_store_dwordx2 v[26:27], v[30:31]                              // 8
  flat_store_dwordx3 v[26:27], v[30:32] offset:1024                  // 9
  flat_store_dwordx4 v[26:27], v[30:33] offset:2048                  // 10
  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_endpgm
.Lmem_more_end:
.size mem_more, .Lmem_more_end-mem_more
KD mem_more, vgprs=40, lds=2048

// More scalar ALU, compare, memory and EXEC ops: a..h (s12..s19) from
// in[0..7] (A64 = s[12:13], B64 = s[14:15], s16 a shift/bit index, s17 a
// shift, s18 a bfe control, s19 a cmpk operand); one result per row, every
// lane storing the same value.
.macro SAVEEXEC op
  \op s[20:21], s[12:13]
  s_mov_b64 s[22:23], exec
  s_mov_b64 exec, -1
  SST s20
  SST s22
  SST s23
.endm
BEGIN salu_more
  PROLOGUE
  s_load_dwordx8 s[12:19], s[4:5], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s20, s12               // 0: SCC set, moves
  s_cmp_eq_u32 s13, s13
  s_cmov_b32 s20, s14
  SST
  s_mov_b32 s20, s12               // 1: SCC clear, keeps
  s_cmp_lg_u32 s13, s13
  s_cmov_b32 s20, s14
  SST
  s_mov_b64 s[20:21], s[12:13]     // 2, 3
  s_cmp_eq_u32 0, 0
  s_cmov_b64 s[20:21], s[14:15]
  SST
  SST s21
  s_not_b64 s[20:21], s[12:13]     // 4, 5
  SST
  SST s21
  s_bcnt1_i32_b64 s20, s[12:13]    // 6
  SST
  s_ff1_i32_b64 s20, s[12:13]      // 7
  SST
  s_ff1_i32_b64 s20, 0             // 8
  SST
  s_flbit_i32_b32 s20, s12         // 9
  SST
  s_flbit_i32_b32 s20, 0           // 10
  SST
  s_sext_i32_i16 s20, s12          // 11
  SST
  s_orn2_b64 s[20:21], s[12:13], s[14:15]   // 12, 13
  SST
  SST s21
  s_nand_b64 s[20:21], s[12:13], s[14:15]   // 14, 15
  SST
  SST s21
  s_nor_b32 s20, s12, s13          // 16
  SST
  s_nor_b64 s[20:21], s[12:13], s[14:15]    // 17, 18
  SST
  SST s21
  s_xnor_b64 s[20:21], s[12:13], s[14:15]   // 19, 20
  SST
  SST s21
  s_lshr_b64 s[20:21], s[12:13], s16        // 21, 22
  SST
  SST s21
  s_bfm_b64 s[20:21], s16, s17              // 23, 24
  SST
  SST s21
  s_bfe_u64 s[20:21], s[12:13], s18         // 25, 26
  SST
  SST s21
  s_bfe_i64 s[20:21], s[12:13], s18         // 27, 28
  SST
  SST s21
  s_lshl1_add_u32 s20, s12, s13    // 29
  SST
  s_lshl3_add_u32 s20, s12, s13    // 30
  SST
  s_mov_b32 s20, s12               // 31
  s_cmp_eq_u32 s13, s13
  s_cmovk_i32 s20, 0x8001
  SST
  s_mov_b32 s20, s12               // 32
  s_mulk_i32 s20, 0xfff3
  SST
.irp c, eq_i32,lg_i32,gt_i32,ge_i32,lt_i32,le_i32,eq_u32,lg_u32,gt_u32,ge_u32,lt_u32,le_u32
  s_cmpk_\c s19, 0x8010            // 33..44
  s_cselect_b32 s20, 1, 0
  SST
.endr
.irp c, eq_i32,lg_i32,ge_i32,eq_u32,lg_u32,le_u32
  s_cmp_\c s12, s13                // 45..50
  s_cselect_b32 s20, 1, 0
  SST
.endr
  s_cmp_eq_u64 s[12:13], s[14:15]  // 51
  s_cselect_b32 s20, 1, 0
  SST
  s_bitcmp0_b64 s[12:13], s16      // 52
  s_cselect_b32 s20, 1, 0
  SST
  s_bitcmp1_b64 s[12:13], s16      // 53
  s_cselect_b32 s20, 1, 0
  SST
  s_mov_b32 s20, s12               // 54
  s_bitset0_b32 s20, s16
  SST
  s_mov_b32 s20, s12               // 55
  s_bitset1_b32 s20, s16
  SST
  s_getreg_b32 s26, hwreg(HW_REG_MODE, 0, 4)   // 56, 57: round mode
  s_mov_b32 s21, 5
  s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s21
  s_getreg_b32 s20, hwreg(HW_REG_MODE, 0, 4)
  s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s26
  SST
  SST s26
  s_load_dwordx16 s[32:47], s[4:5], 0x0     // 58..73
  s_waitcnt lgkmcnt(0)
.irp r, 32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47
  SST s\r
.endr
  s_mov_b32 s24, s4
  s_and_b32 s25, s5, 0xffff
  s_mov_b32 s26, 256
  s_mov_b32 s27, 0x27000
  s_buffer_load_dwordx4 s[32:35], s[24:27], 0x10   // 74..77
  s_waitcnt lgkmcnt(0)
.irp r, 32,33,34,35
  SST s\r
.endr
  s_buffer_load_dwordx8 s[32:39], s[24:27], 0x20   // 78..85
  s_waitcnt lgkmcnt(0)
.irp r, 32,33,34,35,36,37,38,39
  SST s\r
.endr
  s_buffer_load_dwordx16 s[32:47], s[24:27], 0x40  // 86..101
  s_waitcnt lgkmcnt(0)
.irp r, 32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47
  SST s\r
.endr
  s_mov_b32 s26, 0                 // 102: a call and its return
  s_getpc_b64 s[20:21]
.Lsm_pc:
  s_add_u32 s20, s20, .Lsm_callee-.Lsm_pc
  s_addc_u32 s21, s21, 0
  s_swappc_b64 s[22:23], s[20:21]
  s_branch .Lsm_after
.Lsm_callee:
  s_mov_b32 s26, 7
  s_setpc_b64 s[22:23]
.Lsm_after:
  SST s26
  SAVEEXEC s_xor_saveexec_b64      // 103..105: D, EXEC lo, EXEC hi
  SAVEEXEC s_orn2_saveexec_b64     // 106..108
  SAVEEXEC s_nand_saveexec_b64     // 109..111
  SAVEEXEC s_nor_saveexec_b64      // 112..114
  SAVEEXEC s_xnor_saveexec_b64     // 115..117
  SAVEEXEC s_andn1_saveexec_b64    // 118..120
  SAVEEXEC s_orn1_saveexec_b64     // 121..123
  SAVEEXEC s_andn1_wrexec_b64      // 124..126
  SAVEEXEC s_andn2_wrexec_b64      // 127..129
  s_setprio 1                      // ops with no visible result
  s_sleep 1
  s_dcache_wb
  s_dcache_inv
  s_icache_inv
  buffer_wbl2 sc0 sc1
  buffer_inv sc1
  s_setprio 0
  v_accvgpr_write_b32 a0, v0       // 130: lane id through a1
  v_accvgpr_mov_b32 a1, a0
  v_accvgpr_read_b32 v10, a1
  ST
  s_endpgm
.Lsalu_more_end:
.size salu_more, .Lsalu_more_end-salu_more
KD salu_more, vgprs=16, sgprs=56

.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--gfx950
amdhsa.kernels:
  - .name: valu_ops
    .symbol: valu_ops.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 48
    .agpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: salu_ops
    .symbol: salu_ops.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 48
    .agpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: control_flow
    .symbol: control_flow.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 48
    .agpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: lds_barrier
    .symbol: lds_barrier.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 3072
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 48
    .agpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: buffer_oob
    .symbol: buffer_oob.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 48
    .agpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: global_oob
    .symbol: global_oob.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 48
    .agpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: mfma_bf16
    .symbol: mfma_bf16.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 48
    .agpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: mfma_bf16_32x32
    .symbol: mfma_bf16_32x32.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 60
    .agpr_count: 16
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: mfma_scale
    .symbol: mfma_scale.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 48
    .agpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: lds_lanes
    .symbol: lds_lanes.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 1024
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 48
    .agpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: unimplemented
    .symbol: unimplemented.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 48
    .agpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: flush_denormals
    .symbol: flush_denormals.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 48
    .agpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: ids
    .symbol: ids.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 48
    .agpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: fp8_clamp
    .symbol: fp8_clamp.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 48
    .agpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: fp8_nan
    .symbol: fp8_nan.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 48
    .agpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: fp8_setreg
    .symbol: fp8_setreg.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 48
    .agpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: misc
    .symbol: misc.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 1024
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 48
    .agpr_count: 4
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: preload
    .symbol: preload.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 16
    .agpr_count: 0
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: endless
    .symbol: endless.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 24
    .vgpr_count: 8
    .agpr_count: 0
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: int16_ops
    .symbol: int16_ops.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 24
    .vgpr_count: 16
    .agpr_count: 0
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: d16_mem
    .symbol: d16_mem.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 1024
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 24
    .vgpr_count: 16
    .agpr_count: 0
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: vcmp_all
    .symbol: vcmp_all.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 24
    .vgpr_count: 16
    .agpr_count: 0
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: f16_mods
    .symbol: f16_mods.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 24
    .vgpr_count: 16
    .agpr_count: 0
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: clamp16
    .symbol: clamp16.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 24
    .vgpr_count: 16
    .agpr_count: 0
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: mfma_32x32
    .symbol: mfma_32x32.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 24
    .vgpr_count: 84
    .agpr_count: 0
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: valu_more
    .symbol: valu_more.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 24
    .vgpr_count: 16
    .agpr_count: 0
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: mem_more
    .symbol: mem_more.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 2048
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 24
    .vgpr_count: 40
    .agpr_count: 0
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
  - .name: salu_more
    .symbol: salu_more.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 56
    .vgpr_count: 16
    .agpr_count: 0
    .max_flat_workgroup_size: 1024
    .args:
      - { .name: in, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: out, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }
      - { .name: n, .offset: 16, .size: 4, .value_kind: by_value }
      - { .name: m, .offset: 20, .size: 4, .value_kind: by_value }
...
.end_amdgpu_metadata
