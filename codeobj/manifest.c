// Occupancy estimate and the per-kernel JSON manifest uq-compile writes.
#include "codeobj/codeobj.h"

#include <stdio.h>

// gfx950 resources (AMD CDNA4 ISA guide; LLVM AMDGPUBaseInfo for gfx950):
// a unified 512-entry VGPR file per lane per SIMD shared by arch VGPRs and
// AGPRs, allocated in granules of 8; 160 KiB of LDS per CU; 4 SIMDs per CU;
// at most 8 waves per SIMD.
enum {
  kVgprsPerSimd = 512,
  kVgprGranule = 8,
  kLdsBytesPerCu = 160 * 1024,
  kSimdsPerCu = 4,
  kMaxWavesPerSimd = 8,
};

static uint32_t align_up(uint32_t x, uint32_t a) { return (x + a - 1) / a * a; }

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

// Registers a wave holds in the unified file. On gfx90a and later the
// metadata's .vgpr_count is already the total: the arch VGPRs rounded up to
// 4 (rsrc3 ACCUM_OFFSET) plus the AGPRs after them (checked on
// decode_d256_rows64: v0..v255 and a0..a222 used, .vgpr_count 479,
// .agpr_count 223), so .agpr_count is part of it, not added to it.
static uint64_t unified_vgprs(const uq_kernel_info_t *kernel) {
  return kernel->vgpr_count;
}

// sm_90 (CUDA occupancy calculator facts for compute capability 9.0): 64K
// 32-bit registers per SM in 4 sub-partitions, allocated per warp in units
// of 256; at most 64 warps per SM (16 per sub-partition); 228 KiB of shared
// memory per SM. The figure is warps per sub-partition, the counterpart of
// gfx950's waves per SIMD; a block's shared memory is the static one plus
// the dynamic one the cubin states (uq_dynamic_shared_bytes).
static uint32_t sm90_occupancy(const uq_kernel_info_t *kernel,
                               uint32_t workgroup_warps) {
  enum { kRegsPerSmsp = 16384, kRegUnit = 256, kMaxWarpsPerSmsp = 16 };
  enum { kSharedPerSm = 228 * 1024, kSmsps = 4 };
  uint32_t regs = kernel->vgpr_count ? kernel->vgpr_count : 1;
  if (regs > 255)
    return 0;
  uint32_t per_warp = align_up(regs * 32, kRegUnit);
  uint32_t warps = min_u32(kMaxWarpsPerSmsp, kRegsPerSmsp / per_warp);
  uint32_t blocks = kSmsps * warps / workgroup_warps;
  uint64_t shared =
      (uint64_t)kernel->group_segment_fixed_size + kernel->dynamic_shared_bytes;
  if (shared > 0)
    blocks = min_u32(blocks, (uint32_t)(kSharedPerSm / shared));
  uint64_t resident = (uint64_t)blocks * workgroup_warps;
  return min_u32(warps, (uint32_t)((resident + kSmsps - 1) / kSmsps));
}

uint32_t uq_kernel_occupancy(const uq_kernel_info_t *kernel,
                             uint32_t workgroup_waves) {
  if (!kernel)
    return 0;
  if (kernel->wavefront_size == 32)
    return sm90_occupancy(kernel, workgroup_waves ? workgroup_waves : 1);
  if (workgroup_waves == 0)
    workgroup_waves = 1;
  uint64_t vgprs = unified_vgprs(kernel);
  if (vgprs == 0)
    vgprs = 1;
  if (vgprs > kVgprsPerSimd)
    return 0;
  uint32_t by_vgpr = kVgprsPerSimd / align_up((uint32_t)vgprs, kVgprGranule);
  // GFX8+ SGPR limit, as LLVM's getOccupancyWithNumSGPRs gives it for VI and
  // later (800 SGPRs per SIMD, 16-SGPR granule, VCC included in the count).
  uint32_t by_sgpr = kernel->sgpr_count <= 80    ? 10
                     : kernel->sgpr_count <= 88  ? 9
                     : kernel->sgpr_count <= 100 ? 8
                                                 : 7;
  uint32_t per_simd = min_u32(kMaxWavesPerSimd, min_u32(by_vgpr, by_sgpr));
  // Whole workgroups per CU: bounded by the register slots of 4 SIMDs and by
  // LDS (the LDS allocation granule is ignored).
  uint32_t workgroups = kSimdsPerCu * per_simd / workgroup_waves;
  if (kernel->group_segment_fixed_size > 0)
    workgroups =
        min_u32(workgroups, kLdsBytesPerCu / kernel->group_segment_fixed_size);
  if (workgroups == 0)
    return 0;
  uint64_t waves = (uint64_t)workgroups * workgroup_waves;
  uint32_t per_simd_lds = (uint32_t)((waves + kSimdsPerCu - 1) / kSimdsPerCu);
  return min_u32(per_simd, per_simd_lds);
}

static void write_json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p < 0x20 || *p >= 0x7f)
      fprintf(f, "\\u%04x", *p);
    else
      fputc(*p, f);
  }
  fputc('"', f);
}

uint32_t uq_kernel_workgroup_waves(const uq_kernel_info_t *kernel) {
  uint64_t items = kernel->max_flat_workgroup_size;
  if (kernel->reqd_workgroup_size[0])
    items = (uint64_t)kernel->reqd_workgroup_size[0] *
            kernel->reqd_workgroup_size[1] * kernel->reqd_workgroup_size[2];
  uint32_t wave = kernel->wavefront_size ? kernel->wavefront_size : 64;
  uint64_t waves = (items + wave - 1) / wave;
  return waves == 0 ? 1 : waves > 1024 ? 1024 : (uint32_t)waves;
}

uq_status_t uq_kernel_write_manifest_json(const uq_kernel_info_t *kernel,
                                          const char *variant, void *out_file) {
  if (!kernel || !out_file)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "NULL argument");
  FILE *f = out_file;
  uint32_t workgroup_waves = uq_kernel_workgroup_waves(kernel);
  fputs("{\"symbol\": ", f);
  write_json_string(f, kernel->symbol);
  fputs(", \"name\": ", f);
  write_json_string(f, kernel->name);
  if (variant) {
    fputs(", \"variant\": ", f);
    write_json_string(f, variant);
  }
  fprintf(f, ", \"kernarg_size\": %u, \"kernarg_align\": %u, \"args\": [",
          kernel->kernarg_segment_size, kernel->kernarg_segment_align);
  for (uint32_t i = 0; i < kernel->arg_count; ++i) {
    const uq_kernarg_t *a = &kernel->args[i];
    fprintf(f,
            "%s{\"offset\": %u, \"size\": %u, \"value_kind\": ", i ? ", " : "",
            a->offset, a->size);
    write_json_string(f, a->value_kind);
    fputs(", \"name\": ", f);
    write_json_string(f, a->name);
    fputc('}', f);
  }
  fprintf(f,
          "], \"lds_bytes\": %u, \"sgpr_count\": %u, \"vgpr_count\": %u, "
          "\"agpr_count\": %u, \"sgpr_spill_count\": %u, "
          "\"vgpr_spill_count\": %u, \"scratch_bytes\": %u, "
          "\"wavefront_size\": %u, \"max_workgroup_size\": %u, "
          "\"reqd_workgroup_size\": [%u, %u, %u], "
          "\"occupancy\": %u, \"occupancy_workgroup_waves\": %u, "
          "\"dynamic_lds_bytes\": %u, \"walk_group_tiles\": %u, "
          "\"cluster_merge\": %u, \"pipeline_stages\": %u, "
          "\"fp16_overflow\": %d}\n",
          kernel->group_segment_fixed_size, kernel->sgpr_count,
          kernel->vgpr_count, kernel->agpr_count, kernel->sgpr_spill_count,
          kernel->vgpr_spill_count, kernel->private_segment_fixed_size,
          kernel->wavefront_size, kernel->max_flat_workgroup_size,
          kernel->reqd_workgroup_size[0], kernel->reqd_workgroup_size[1],
          kernel->reqd_workgroup_size[2],
          uq_kernel_occupancy(kernel, workgroup_waves), workgroup_waves,
          kernel->dynamic_shared_bytes, kernel->walk_group_tiles,
          kernel->cluster_merge, kernel->pipeline_stages,
          uq_kd_fp16_overflow(&kernel->descriptor));
  if (fflush(f) != 0 || ferror(f))
    return UQ_MAKE_STATUS(UQ_STATUS_UNAVAILABLE,
                          "cannot write the manifest of %s", kernel->name);
  return UQ_OK;
}
