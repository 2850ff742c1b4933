// The uq dialect: loading its IRDL definition into a context, and C helpers
// to build and match its ops.
#ifndef UQ_DIALECT_UQ_DIALECT_H_
#define UQ_DIALECT_UQ_DIALECT_H_

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

// Parses the embedded dialect/uq.irdl.mlir and loads the `uq` dialect into
// `context`. Returns failure (with a diagnostic on the context) if the
// definition does not parse or load; loading twice is harmless.
MlirLogicalResult uq_dialect_load(MlirContext context);

// True when `op` is `uq.<short_name>`.
bool uq_op_is(MlirOperation op, const char *short_name);

// uq.param: a compile-time parameter. `type` is i32 or index.
MlirOperation uq_param_build(MlirLocation location, const char *name,
                             MlirType type);
// True when `op` is a uq.param; `out_name` (may be NULL) borrows its name.
bool uq_param_match(MlirOperation op, MlirStringRef *out_name);

// uq.fp4_to_bf16 (codes: i32, scale: f32) -> vector<8xbf16>.
MlirOperation uq_fp4_to_bf16_build(MlirLocation location, MlirValue codes,
                                   MlirValue scale);
// uq.wht (input: vector<32xf32>, head_dim: index) -> vector<32xf32>.
MlirOperation uq_wht_build(MlirLocation location, MlirValue input,
                           MlirValue head_dim);
// uq.e4m3_pack (vector<32xf32>) -> vector<8xi32>.
MlirOperation uq_e4m3_pack_build(MlirLocation location, MlirValue input);
// uq.buffer_rsrc (base: !llvm.ptr<1>, offset: i64, num_records: i64)
//   -> !llvm.ptr<8>.
MlirOperation uq_buffer_rsrc_build(MlirLocation location, MlirValue base,
                                   MlirValue offset, MlirValue num_records);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_DIALECT_UQ_DIALECT_H_
