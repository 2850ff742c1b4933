// uq-tensor-map-args: kernel arguments that are CUDA tensor maps.
#ifndef UQ_LOWERING_TENSOR_MAP_ARGS_TENSOR_MAP_ARGS_H_
#define UQ_LOWERING_TENSOR_MAP_ARGS_TENSOR_MAP_ARGS_H_

#include "lowering/pass.h"

#ifdef __cplusplus
extern "C" {
#endif

// An llvm.func kernel (nvvm.kernel) with `uq.tensor_map_args = array<i32:
// i, ...>` gets, on each listed !llvm.ptr argument, {llvm.byval =
// !llvm.array<128 x i8>, llvm.align = 64, nvvm.grid_constant}, and loses
// the attribute: the argument is a CUtensorMap (128 bytes, 64-byte
// aligned) passed by value, whose address the kernel hands to
// cp.async.bulk.tensor (a `.param .align 64 .b8 [128]` parameter that
// NVPTX addresses with cvta.param instead of copying it to local memory).
// Runs after convert-gpu-to-nvvm: gpu.func keeps neither llvm.byval nor
// nvvm.grid_constant on its arguments (the latter is verified to sit on an
// nvvm.kernel llvm.func), while its discardable attributes carry over.
// No options.
extern const uq_pass_def_t uq_tensor_map_args_pass;

#ifdef __cplusplus
}
#endif

#endif // UQ_LOWERING_TENSOR_MAP_ARGS_TENSOR_MAP_ARGS_H_
