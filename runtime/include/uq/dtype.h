// The activation dtypes of the public API: the one definition uq/uqrt.h
// (plan configs) and uq/format.h, uq/reference.h (host helpers) share.
#ifndef UQ_RUNTIME_INCLUDE_UQ_DTYPE_H_
#define UQ_RUNTIME_INCLUDE_UQ_DTYPE_H_

#ifdef __cplusplus
extern "C" {
#endif

// The element type of the query, key, value and output tensors (the
// model's activations). The zero value is BF16, so a zero-initialized
// struct keeps the bf16 behaviour of the versions before 0.9.
typedef enum uq_dtype_e {
  UQ_DTYPE_BF16 = 0, // bfloat16
  UQ_DTYPE_F16 = 1,  // Since 0.9: IEEE binary16
  UQ_DTYPE_F32 = 2,  // no activation tensor takes it (INVALID_ARGUMENT)
} uq_dtype_t;

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_RUNTIME_INCLUDE_UQ_DTYPE_H_
