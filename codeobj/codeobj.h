// Reads an AMDGPU code object (HSACO ELF for amdgcn-amd-amdhsa): kernels,
// kernel descriptors and the AMDHSA metadata note. The one place where the
// kernel-argument layout, register counts and LDS size are learnt: the
// compiler's manifest, the simulator and the runtime all read them here.
#ifndef UQ_CODEOBJ_CODEOBJ_H_
#define UQ_CODEOBJ_CODEOBJ_H_

#include <stddef.h>
#include <stdint.h>

#include "uq/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// How a kernel argument is passed (AMDHSA metadata `.value_kind`).
typedef enum uq_kernarg_kind_e {
  UQ_KERNARG_BY_VALUE = 0,
  UQ_KERNARG_GLOBAL_BUFFER = 1,
  UQ_KERNARG_HIDDEN = 2, // any `hidden_*` kind; see `value_kind` for which
  UQ_KERNARG_OTHER = 3,
  // A cubin parameter: .nv.info records its offset and size, not whether
  // it is a pointer (value_kind "param").
  UQ_KERNARG_PARAM = 4,
} uq_kernarg_kind_t;

typedef struct uq_kernarg_s {
  uint32_t offset; // byte offset in the kernarg segment
  uint32_t size;   // bytes
  uq_kernarg_kind_t kind;
  char value_kind[48]; // the metadata string, e.g. "global_buffer"
  char name[64];       // `.name` when the metadata has one, else ""
} uq_kernarg_t;

// The 64-byte kernel descriptor, decoded (LLVM AMDGPUUsage, "Kernel
// Descriptor"). `raw` keeps the bytes.
typedef struct uq_kernel_descriptor_s {
  uint8_t raw[64];
  uint32_t group_segment_fixed_size;
  uint32_t private_segment_fixed_size;
  uint32_t kernarg_size;
  int64_t kernel_code_entry_byte_offset; // relative to the descriptor
  uint32_t compute_pgm_rsrc1;
  uint32_t compute_pgm_rsrc2;
  uint32_t compute_pgm_rsrc3;
  uint16_t kernel_code_properties;
  uint16_t kernarg_preload;
} uq_kernel_descriptor_t;

// Field accessors for the descriptor words, with the bit positions of LLVM
// AMDGPUUsage ("Kernel Descriptor", "compute_pgm_rsrc1/2/3 for GFX6-GFX12",
// "Kernel Code Properties"); the simulator builds the initial wave state
// from them.

// compute_pgm_rsrc1 [5:0] GRANULATED_WORKITEM_VGPR_COUNT: VGPR blocks - 1
// (gfx90a+: granule 8 arch+acc VGPRs in wave64).
static inline uint32_t
uq_kd_granulated_vgpr_count(const uq_kernel_descriptor_t *kd) {
  return kd->compute_pgm_rsrc1 & 0x3fu;
}
// compute_pgm_rsrc1 [9:6] GRANULATED_WAVEFRONT_SGPR_COUNT.
static inline uint32_t
uq_kd_granulated_sgpr_count(const uq_kernel_descriptor_t *kd) {
  return (kd->compute_pgm_rsrc1 >> 6) & 0xfu;
}
// compute_pgm_rsrc1 [13:12] FLOAT_ROUND_MODE_32, [15:14]
// FLOAT_ROUND_MODE_16_64, [17:16] FLOAT_DENORM_MODE_32, [19:18]
// FLOAT_DENORM_MODE_16_64 (the initial MODE register fields).
static inline uint32_t uq_kd_float_mode(const uq_kernel_descriptor_t *kd) {
  return (kd->compute_pgm_rsrc1 >> 12) & 0xffu;
}
// compute_pgm_rsrc1 bit 21 ENABLE_DX10_CLAMP (GFX6-GFX11).
static inline int uq_kd_dx10_clamp(const uq_kernel_descriptor_t *kd) {
  return (kd->compute_pgm_rsrc1 >> 21) & 1u;
}
// compute_pgm_rsrc1 bit 23 ENABLE_IEEE_MODE (GFX6-GFX11).
static inline int uq_kd_ieee_mode(const uq_kernel_descriptor_t *kd) {
  return (kd->compute_pgm_rsrc1 >> 23) & 1u;
}
// compute_pgm_rsrc1 bit 26 FP16_OVFL (GFX9+): clamp f16 overflow to max.
static inline int uq_kd_fp16_overflow(const uq_kernel_descriptor_t *kd) {
  return (kd->compute_pgm_rsrc1 >> 26) & 1u;
}
// compute_pgm_rsrc2 bit 0 ENABLE_PRIVATE_SEGMENT (scratch wave offset SGPR).
static inline int
uq_kd_enable_private_segment(const uq_kernel_descriptor_t *kd) {
  return kd->compute_pgm_rsrc2 & 1u;
}
// compute_pgm_rsrc2 [5:1] USER_SGPR_COUNT: SGPRs s0.. the dispatcher fills.
static inline uint32_t uq_kd_user_sgpr_count(const uq_kernel_descriptor_t *kd) {
  return (kd->compute_pgm_rsrc2 >> 1) & 0x1fu;
}
// compute_pgm_rsrc2 bits 7, 8, 9 ENABLE_SGPR_WORKGROUP_ID_X/Y/Z (dim 0..2).
static inline int uq_kd_enable_workgroup_id(const uq_kernel_descriptor_t *kd,
                                            unsigned dim) {
  return dim < 3 ? (int)((kd->compute_pgm_rsrc2 >> (7 + dim)) & 1u) : 0;
}
// compute_pgm_rsrc2 bit 10 ENABLE_SGPR_WORKGROUP_INFO.
static inline int
uq_kd_enable_workgroup_info(const uq_kernel_descriptor_t *kd) {
  return (kd->compute_pgm_rsrc2 >> 10) & 1u;
}
// compute_pgm_rsrc2 [12:11] ENABLE_VGPR_WORKITEM_ID: 0 = X, 1 = X and Y,
// 2 = X, Y and Z (gfx90a+ pack them all in v0: [9:0] x, [19:10] y, [29:20] z).
static inline uint32_t
uq_kd_enable_vgpr_workitem_id(const uq_kernel_descriptor_t *kd) {
  return (kd->compute_pgm_rsrc2 >> 11) & 3u;
}
// compute_pgm_rsrc2 [23:15] GRANULATED_LDS_SIZE (set by the CP, 0 here).
static inline uint32_t
uq_kd_granulated_lds_size(const uq_kernel_descriptor_t *kd) {
  return (kd->compute_pgm_rsrc2 >> 15) & 0x1ffu;
}
// compute_pgm_rsrc3 [5:0] ACCUM_OFFSET (gfx90a, gfx942, gfx950): the first
// AGPR's index in the unified VGPR file is (ACCUM_OFFSET + 1) * 4.
static inline uint32_t uq_kd_accum_offset(const uq_kernel_descriptor_t *kd) {
  return ((kd->compute_pgm_rsrc3 & 0x3fu) + 1u) * 4u;
}
// compute_pgm_rsrc3 bit 16 TG_SPLIT (gfx90a, gfx942, gfx950).
static inline int uq_kd_tg_split(const uq_kernel_descriptor_t *kd) {
  return (kd->compute_pgm_rsrc3 >> 16) & 1u;
}

// kernel_code_properties bits: the user SGPRs, in this order from s0:
// private segment buffer (4 SGPRs, bit 0), dispatch ptr (2, bit 1), queue ptr
// (2, bit 2), kernarg segment ptr (2, bit 3), dispatch id (2, bit 4), flat
// scratch init (2, bit 5), private segment size (1, bit 6); then the
// preloaded kernargs. Bit 10 ENABLE_WAVEFRONT_SIZE32, bit 11
// USES_DYNAMIC_STACK.
typedef enum uq_kd_property_e {
  UQ_KD_PRIVATE_SEGMENT_BUFFER = 1u << 0,
  UQ_KD_DISPATCH_PTR = 1u << 1,
  UQ_KD_QUEUE_PTR = 1u << 2,
  UQ_KD_KERNARG_SEGMENT_PTR = 1u << 3,
  UQ_KD_DISPATCH_ID = 1u << 4,
  UQ_KD_FLAT_SCRATCH_INIT = 1u << 5,
  UQ_KD_PRIVATE_SEGMENT_SIZE = 1u << 6,
  UQ_KD_WAVEFRONT_SIZE32 = 1u << 10,
  UQ_KD_USES_DYNAMIC_STACK = 1u << 11,
} uq_kd_property_t;

static inline int uq_kd_has_property(const uq_kernel_descriptor_t *kd,
                                     uq_kd_property_t property) {
  return (kd->kernel_code_properties & (uint16_t)property) != 0;
}
// kernarg_preload [6:0] KERNARG_PRELOAD_SPEC_LENGTH: dwords of kernarg
// preloaded into user SGPRs after the ones above; [15:7]
// KERNARG_PRELOAD_SPEC_OFFSET: their dword offset in the kernarg segment.
static inline uint32_t
uq_kd_kernarg_preload_length(const uq_kernel_descriptor_t *kd) {
  return kd->kernarg_preload & 0x7fu;
}
static inline uint32_t
uq_kd_kernarg_preload_offset(const uq_kernel_descriptor_t *kd) {
  return (uint32_t)(kd->kernarg_preload >> 7) & 0x1ffu;
}

typedef struct uq_kernel_info_s {
  char name[128];   // `.name`
  char symbol[136]; // `.symbol` (the descriptor symbol, "<name>.kd")
  uint32_t kernarg_segment_size;
  uint32_t kernarg_segment_align;
  uint32_t group_segment_fixed_size; // static LDS bytes
  // A cubin's uq_dynamic_shared_bytes: the dynamic shared memory the kernel
  // is launched with (codeobj/cubin.h); 0: none.
  uint32_t dynamic_shared_bytes;
  // A cubin's uq_walk_group_tiles: the tiles in a group of a decode's
  // partition walk (uq/policy.h's uq_launch_walk_t); 0: not stated.
  uint32_t walk_group_tiles;
  // A cubin's uq_cluster_merge: whether a decode launched as a cluster of
  // its P partitions' CTAs merges them itself; 0 when not stated.
  uint32_t cluster_merge;
  // A cubin's uq_pipeline_stages: the KV tiles a block has in flight in
  // shared memory (its copy stages); 0: not stated.
  uint32_t pipeline_stages;
  uint32_t private_segment_fixed_size; // scratch bytes per work-item
  uint32_t wavefront_size;
  uint32_t sgpr_count;
  uint32_t vgpr_count;
  uint32_t agpr_count;
  uint32_t sgpr_spill_count;
  uint32_t vgpr_spill_count;
  uint32_t max_flat_workgroup_size;
  uint32_t reqd_workgroup_size[3]; // 0 when the metadata has none
  uint32_t arg_count;
  const uq_kernarg_t *args;  // arg_count entries, owned by the code object
  uint64_t descriptor_vaddr; // virtual address of the descriptor
  uint64_t entry_vaddr;      // virtual address of the first instruction
  uq_kernel_descriptor_t descriptor;
} uq_kernel_info_t;

// Decodes the 64 descriptor bytes (little-endian) into `out_descriptor`.
UQ_API void uq_kernel_descriptor_decode(const uint8_t raw[64],
                                        uq_kernel_descriptor_t *out_descriptor);

typedef struct uq_code_object_s uq_code_object_t;

// The code object's internals, for the readers in codeobj/ only.
struct uq_code_object_s {
  uint8_t *image;
  size_t image_size;
  uint32_t version;
  char target[128];
  size_t kernel_count;
  uq_kernel_info_t *kernels;
  uq_kernarg_t *args;
};

// Parses a code object. The bytes are copied; `data` may be freed after the
// call. Fails with DATA_LOSS on a truncated or corrupt ELF or metadata note,
// INVALID_ARGUMENT on an ELF for another machine, OS or ABI version (code
// object v5 and v6 are accepted), and UNIMPLEMENTED on a target other than
// gfx950. An NVIDIA cubin (EM_CUDA) is read through codeobj/cubin.h: its
// kernels have UQ_KERNARG_PARAM arguments, 32-wide warps, registers in
// vgpr_count, local memory in private_segment_fixed_size; its image is the
// file. Every offset and size in the file is bounds-checked; an image
// (highest PT_LOAD end address) over 16 MiB is DATA_LOSS. NULL `data` with a
// non-zero size, or a NULL `out_code_object`, is INVALID_ARGUMENT. The caller
// destroys the result.
UQ_API uq_status_t uq_code_object_load(const void *data, size_t size,
                                       uq_code_object_t **out_code_object);
// Reads a file and loads it as above.
UQ_API uq_status_t uq_code_object_load_file(const char *path,
                                            uq_code_object_t **out_code_object);
UQ_API void uq_code_object_destroy(uq_code_object_t *code_object);

// The target string of the metadata ("amdgcn-amd-amdhsa--gfx950").
UQ_API const char *uq_code_object_target(const uq_code_object_t *code_object);
// Code object version (5 or 6), from the ELF ABI version (3 = v5, 4 = v6):
// LLVM 22 writes `amdhsa.version` [1, 2] for both, so the note cannot tell.
UQ_API uint32_t uq_code_object_version(const uq_code_object_t *code_object);

UQ_API size_t uq_code_object_kernel_count(const uq_code_object_t *code_object);
// Borrowed; valid until the code object is destroyed.
UQ_API const uq_kernel_info_t *
uq_code_object_kernel_at(const uq_code_object_t *code_object, size_t index);
// Finds a kernel by `.name` (or by its `.symbol`); NOT_FOUND otherwise.
UQ_API uq_status_t uq_code_object_find_kernel(
    const uq_code_object_t *code_object, const char *name,
    const uq_kernel_info_t **out_kernel);

// The loaded image: every PT_LOAD segment placed at its virtual address, so
// that `image[vaddr]` is the byte at `vaddr` (bytes past a segment's file
// size are zero). Borrowed.
UQ_API const uint8_t *uq_code_object_image(const uq_code_object_t *code_object,
                                           size_t *out_size);

// Waves per SIMD that one wave of this kernel allows, from its VGPR+AGPR,
// SGPR and LDS use on gfx950 (512 unified VGPRs per lane per SIMD, granule
// 8; 160 KiB LDS per CU; 4 SIMDs per CU; at most 8 waves per SIMD), for a
// workgroup of `workgroup_waves` waves. For a cubin (32-wide warps): warps
// per sm_90 sub-partition (64K registers per SM in 4, granule 256 per warp;
// at most 16 warps each; 228 KiB shared memory per SM).
UQ_API uint32_t uq_kernel_occupancy(const uq_kernel_info_t *kernel,
                                    uint32_t workgroup_waves);

// Waves (warps) in the kernel's workgroup, for its occupancy figure: the
// required workgroup size when the metadata gives one, else the largest it
// admits.
UQ_API uint32_t uq_kernel_workgroup_waves(const uq_kernel_info_t *kernel);

// Writes the kernel's manifest as one JSON object (symbol, kernarg layout,
// LDS, registers, scratch, occupancy) to `out` (a FILE*). `variant` is added
// as "variant" when not NULL.
UQ_API uq_status_t uq_kernel_write_manifest_json(const uq_kernel_info_t *kernel,
                                                 const char *variant,
                                                 void *out_file);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_CODEOBJ_CODEOBJ_H_
