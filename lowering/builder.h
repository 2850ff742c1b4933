// Small helpers for creating operations from C passes: an insertion point
// before an anchor op, types and attributes parsed from text, constants.
#ifndef UQ_LOWERING_BUILDER_H_
#define UQ_LOWERING_BUILDER_H_

#include <stdint.h>

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

// Creates operations immediately before `anchor`, at `location`.
typedef struct uq_builder_s {
  MlirContext context;
  MlirLocation location;
  MlirOperation anchor;
} uq_builder_t;

uq_builder_t uq_builder_before(MlirOperation anchor);

MlirType uq_type(MlirContext context, const char *text);
MlirAttribute uq_attr(MlirContext context, const char *text);
MlirNamedAttribute uq_named_attr(MlirContext context, const char *name,
                                 MlirAttribute value);

// Creates `name` with the given operands, result types and attributes, and
// inserts it before the anchor.
MlirOperation uq_build_op(uq_builder_t *b, const char *name,
                          intptr_t operand_count, const MlirValue *operands,
                          intptr_t result_count, const MlirType *results,
                          intptr_t attribute_count,
                          const MlirNamedAttribute *attributes);
// The same for a single-result op; returns the result.
MlirValue uq_build_value(uq_builder_t *b, const char *name,
                         intptr_t operand_count, const MlirValue *operands,
                         MlirType result, intptr_t attribute_count,
                         const MlirNamedAttribute *attributes);

MlirValue uq_build_const_i32(uq_builder_t *b, int32_t value);
MlirValue uq_build_const_f32(uq_builder_t *b, float value);
MlirValue uq_build_const_index(uq_builder_t *b, int64_t value);
// arith.<op> on two values of the same type.
MlirValue uq_build_binary(uq_builder_t *b, const char *name, MlirValue lhs,
                          MlirValue rhs);
// vector.shuffle of two vectors with `count` indices into their concatenation.
MlirValue uq_build_shuffle(uq_builder_t *b, MlirValue v1, MlirValue v2,
                           const int64_t *mask, intptr_t count,
                           MlirType result);
// vector.extract of element `position` / vector.insert at `position`.
MlirValue uq_build_extract(uq_builder_t *b, MlirValue vector, int64_t position);
MlirValue uq_build_insert(uq_builder_t *b, MlirValue scalar, MlirValue vector,
                          int64_t position);

// True when `op` is the operation `name` ("scf.for").
bool uq_op_named(MlirOperation op, const char *name);

// `op`'s sym_name ("" when it has none).
MlirStringRef uq_symbol_name(MlirOperation op);

// Replaces every use of `op`'s results with `values` and erases `op`.
void uq_replace_op(MlirOperation op, intptr_t count, const MlirValue *values);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_LOWERING_BUILDER_H_
