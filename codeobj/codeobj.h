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
} uq_kernarg_kind_t;

typedef struct uq_kernarg_s {
  uint32_t offset;        // byte offset in the kernarg segment
  uint32_t size;          // bytes
  uq_kernarg_kind_t kind;
  char value_kind[48];    // the metadata string, e.g. "global_buffer"
  char name[64];          // `.name` when the metadata has one, else ""
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

typedef struct uq_kernel_info_s {
  char name[128];   // `.name`
  char symbol[136]; // `.symbol` (the descriptor symbol, "<name>.kd")
  uint32_t kernarg_segment_size;
  uint32_t kernarg_segment_align;
  uint32_t group_segment_fixed_size;   // static LDS bytes
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
  const uq_kernarg_t *args; // arg_count entries, owned by the code object
  uint64_t descriptor_vaddr; // virtual address of the descriptor
  uint64_t entry_vaddr;      // virtual address of the first instruction
  uq_kernel_descriptor_t descriptor;
} uq_kernel_info_t;

typedef struct uq_code_object_s uq_code_object_t;

// Parses a code object. The bytes are copied; `data` may be freed after the
// call. Fails with DATA_LOSS on a truncated or corrupt ELF or metadata note,
// INVALID_ARGUMENT on an ELF for another machine, OS or ABI version (code
// object v5 and v6 are accepted), and UNIMPLEMENTED on a target other than
// gfx950. The caller destroys the result.
UQ_API uq_status_t uq_code_object_load(const void *data, size_t size,
                                       uq_code_object_t **out_code_object);
// Reads a file and loads it as above.
UQ_API uq_status_t uq_code_object_load_file(const char *path,
                                            uq_code_object_t **out_code_object);
UQ_API void uq_code_object_destroy(uq_code_object_t *code_object);

// The target string of the metadata ("amdgcn-amd-amdhsa--gfx950").
UQ_API const char *uq_code_object_target(const uq_code_object_t *code_object);
// Code object version from `amdhsa.version` (5 or 6).
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
// workgroup of `workgroup_waves` waves.
UQ_API uint32_t uq_kernel_occupancy(const uq_kernel_info_t *kernel,
                                    uint32_t workgroup_waves);

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
