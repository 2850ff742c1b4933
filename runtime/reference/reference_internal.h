// The host references' internals shared by problem.c (checks, rows),
// exact.c and faithful.c. Not installed; the helpers end in '_', which
// libuqrt's export map leaves local.
#ifndef UQ_RUNTIME_REFERENCE_REFERENCE_INTERNAL_H_
#define UQ_RUNTIME_REFERENCE_REFERENCE_INTERNAL_H_

#include <stdbool.h>
#include <stdint.h>

#include "uq/reference.h"

#ifdef __cplusplus
extern "C" {
#endif

// Sequence b's query tokens: rows first .. first + count - 1.
typedef struct query_span_s {
  int64_t first;
  int32_t count;
} query_span_t;

uq_status_t uq_ref_check_sinks_(const float *sinks, int64_t count);
query_span_t uq_ref_query_span_(const uq_decode_problem_t *p, int32_t b);
void uq_ref_token_range_(int64_t len, int32_t count, int64_t i, int32_t window,
                         int64_t *start, int64_t *limit);
uq_status_t uq_ref_check_rows_(const char *name, int64_t n_seq,
                               int64_t stride_seq, int64_t n_head,
                               int64_t stride_head, int32_t head_dim);
const uint8_t *uq_ref_slot_of_(const uq_decode_problem_t *p, int32_t b,
                               int32_t kv_head, int64_t token);
const uint16_t *uq_ref_query_row_(const uq_decode_problem_t *p, int64_t token,
                                  int64_t q_head);
uint16_t *uq_ref_output_row_(const uq_decode_problem_t *p, int64_t token,
                             int64_t q_head);
int32_t uq_ref_longest_seq_(const uq_decode_problem_t *p);
void uq_ref_reduce_one_(int32_t num_parts, int32_t qg, int32_t D,
                        const uint16_t *o, const float *m, const float *l,
                        const float *sinks, uq_dtype_t dtype,
                        uint16_t *out_base, int64_t out_stride_head);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_RUNTIME_REFERENCE_REFERENCE_INTERNAL_H_
