// Reads an NVIDIA cubin (ELF for EM_CUDA) into the same kernel records as a
// HSACO: each kernel's parameters (offset and size in the parameter
// constant bank), registers, static shared memory and per-thread local
// memory, from the ELF's `.nv.info` attribute sections. uq_code_object_load
// dispatches here for an EM_CUDA ELF, so the manifest, uq-compile's table
// and the runtime's kernel-ABI check are shared by both targets.
//
// The .nv.info format (as cuobjdump -elf prints it, and as public
// assemblers such as CuAssembler decode it): a sequence of attributes, each
// a format byte (1 NVAL, 2 BVAL, 3 HVAL: a 2-byte value follows; 4 SVAL: a
// 2-byte length and that many bytes follow) and an attribute byte
// (EIATTR_*). `.nv.info` holds per-function values keyed by symbol index
// (REGCOUNT, FRAME_SIZE); `.nv.info.<kernel>` (sh_info: the kernel's
// .text section) holds KPARAM_INFO (index u32, ordinal u16, offset u16,
// flags u32 with the size in bytes in bits 18-31), CBANK_PARAM_SIZE,
// MAX_THREADS and REQNTID. Static shared memory is the size of the
// NOBITS section `.nv.shared.<kernel>` (on sm_90 it includes the 1 KiB the
// system reserves per block). Dynamic shared memory is a launch parameter,
// not in the file: a kernel that needs it states it as a 4-byte constant
// global `uq_dynamic_shared_bytes` (PTX `.visible .const .u32`;
// kernels/sm90a.mlir computes it per variant, uq-evaluate-globals), read from
// its symbol into every kernel of the cubin; likewise a decode's
// `uq_walk_group_tiles`, the group size of its partitions' walk, and
// `uq_cluster_merge` (1: launched as a cluster of its P partitions' CTAs,
// it merges them itself) and `uq_pipeline_stages` (the copy stages a block
// keeps in flight, for uq-compile's table).
#ifndef UQ_CODEOBJ_CUBIN_H_
#define UQ_CODEOBJ_CUBIN_H_

#include <stddef.h>
#include <stdint.h>

#include "codeobj/codeobj.h"

#ifdef __cplusplus
extern "C" {
#endif

// EM_CUDA, the e_machine of a cubin.
#define UQ_ELF_MACHINE_CUDA 190

// Parses the cubin `data` into `co` (whose fields codeobj.c owns): target
// "nvptx64-nvidia-cuda--sm_NN", the kernels with UQ_KERNARG_PARAM
// arguments, and the file itself as the image. DATA_LOSS on anything
// malformed.
uq_status_t uq_cubin_parse(const uint8_t *data, size_t size,
                           uq_code_object_t *co);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_CODEOBJ_CUBIN_H_
