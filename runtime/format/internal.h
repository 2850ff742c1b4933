// Helpers shared by uq_format and uq_reference; not a public interface.
#ifndef UQ_RUNTIME_FORMAT_INTERNAL_H_
#define UQ_RUNTIME_FORMAT_INTERNAL_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uq/format.h"

// Rounds a double to bf16 with one rounding (round-to-nearest-even): first to
// float with round-to-odd, which keeps enough information for the second
// rounding to be correct, then to bf16.
uint16_t uq_double_to_bf16_(double x);
// The same for fp16 (round to odd onto float, then RNE to fp16).
uint16_t uq_double_to_f16_(double x);

// Activations are bf16 or fp16 (uq_dtype_t). INVALID_ARGUMENT naming `what`
// and the dtype for any other value; the name of a dtype ("bf16", "f16",
// "f32", "unknown"); conversions to and from the dtype's 16-bit pattern
// (bf16 for any value but F16: callers check the dtype first).
uq_status_t uq_check_dtype_(const char *what, uq_dtype_t dtype);
const char *uq_dtype_name_(uq_dtype_t dtype);
uint16_t uq_act_from_float_(uq_dtype_t dtype, float x);
uint16_t uq_act_from_double_(uq_dtype_t dtype, double x);
float uq_act_to_float_(uq_dtype_t dtype, uint16_t bits);

// The unchecked forms of uq_wht, uq_query_rotate, uq_slot_encode and
// uq_slot_decode, for callers that checked the head dim (64, 128 or 256)
// and the pointers once for many calls.
void uq_format_wht_(int32_t head_dim, float *x);
void uq_format_query_rotate_(int32_t head_dim, uq_dtype_t dtype, const void *q,
                             uq_fp8_overflow_t rule, float *out_q_rot);
void uq_format_slot_encode_(int32_t head_dim, uq_dtype_t dtype, const void *k,
                            const void *v, uint8_t *out_slot);
void uq_format_slot_decode_(int32_t head_dim, const uint8_t *slot,
                            float *out_k_rot, float *out_v);

// True when `n_a` rows at stride `s_a` and `n_b` rows at stride `s_b` (all
// strides >= 0, counts >= 1) of `len` contiguous elements each can be shown
// disjoint: the smaller stride must clear one row and the larger one must
// clear the whole inner run. Exotic interleavings that happen to be disjoint
// are rejected too; callers document "rows must nest".
bool uq_rows_disjoint_(int64_t n_a, int64_t s_a, int64_t n_b, int64_t s_b,
                       int64_t len);

// True when (n_a - 1) * s_a + (n_b - 1) * s_b + len fits in int64 and, in
// bytes of `elem_size`, in size_t. Inputs as above.
bool uq_span_fits_(int64_t n_a, int64_t s_a, int64_t n_b, int64_t s_b,
                   int64_t len, int64_t elem_size);

// INVALID_ARGUMENT naming `what` unless `ptr` is a multiple of `align`:
// for typed data the code reads or writes in place (int32 tables, int64
// slots, f32 sinks, a bf16 output), where an odd address is undefined
// behaviour. bf16 inputs are read with memcpy and need no alignment.
uq_status_t uq_check_aligned_(const char *what, const void *ptr, size_t align);

#endif // UQ_RUNTIME_FORMAT_INTERNAL_H_
