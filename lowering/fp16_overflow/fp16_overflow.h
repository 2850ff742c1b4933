// Sets the saturating FP8/FP16 overflow rule (FP16_OVFL, COMPUTE_PGM_RSRC1
// bit 26) in every kernel descriptor of a gfx950 code object, or in the
// `.amdhsa_fp16_overflow` directives of its assembly listing. LLVM has no
// attribute for the bit, so the pipeline sets it on what it emits: with it,
// v_cvt_pk_fp8_f32 turns |x| > 448 into +-448 instead of NaN, so a large
// rotated query element saturates (the host oracle reads the bit back).
#ifndef UQ_LOWERING_FP16_OVERFLOW_FP16_OVERFLOW_H_
#define UQ_LOWERING_FP16_OVERFLOW_FP16_OVERFLOW_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Code object (ELF64, AMDGPU): sets the bit in each `<kernel>.kd` symbol's
// descriptor. Returns the number of descriptors set, or -1 when the ELF is
// malformed (offsets out of range, a descriptor outside every PT_LOAD
// segment's file bytes).
int uq_code_object_set_fp16_overflow(uint8_t *data, size_t size);

// Assembly listing: rewrites every ".amdhsa_fp16_overflow 0" as "... 1" in
// place (same length). Returns the number of directives rewritten.
int uq_listing_set_fp16_overflow(uint8_t *text, size_t size);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_LOWERING_FP16_OVERFLOW_FP16_OVERFLOW_H_
