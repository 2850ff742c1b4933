// convert-uq-to-rocdl: lowers the uq algorithm ops to amdgpu, rocdl, vector
// and arith ops for gfx950.
#ifndef UQ_LOWERING_UQ_TO_ROCDL_UQ_TO_ROCDL_H_
#define UQ_LOWERING_UQ_TO_ROCDL_UQ_TO_ROCDL_H_

#include "lowering/pass.h"

#ifdef __cplusplus
extern "C" {
#endif

// uq.fp4_to_bf16   -> 4 x amdgpu.scaled_ext_packed (v_cvt_scalef32_pk_bf16_fp4)
// uq.wht           -> 5 register butterfly stages (vector.shuffle + arith),
//                     log2(D / 32) cross-lane stages (amdgpu.swizzle_bitmode
//                     xor 1/2/4, math.fma with the lane's sign), x 1/sqrt(D)
// uq.e4m3_pack     -> math.fma (x * 0 + x: inf -> NaN), then
//                     rocdl.cvt.pk.fp8.f32 per pair, two pairs a word
// uq.buffer_rsrc   -> llvm.getelementptr + rocdl.make.buffer.rsrc
// A uq.param left over is an error (run uq-specialize first).
extern const uq_pass_def_t uq_to_rocdl_pass;

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_LOWERING_UQ_TO_ROCDL_UQ_TO_ROCDL_H_
