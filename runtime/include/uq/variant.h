// The typed record of one kernel variant: what uq-compile embeds in libuqrt
// for every code object it builds, and what a caller passes for a custom
// code object. The runtime picks a kernel by matching a configuration
// against these fields, never by building a name.
//
// One header for every target: a new kind of kernel or a new target (e.g.
// NVIDIA sm_90a cubins) extends the enum and uses `target`; add fields at
// the end.
#ifndef UQ_RUNTIME_INCLUDE_UQ_VARIANT_H_
#define UQ_RUNTIME_INCLUDE_UQ_VARIANT_H_

#include <stddef.h>
#include <stdint.h>

#include "uq/format.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum uq_variant_kind_e {
  UQ_VARIANT_KIND_NONE = 0,   // not set: the record is rejected
  UQ_VARIANT_KIND_DECODE = 1, // decode attention, one partial per partition
  UQ_VARIANT_KIND_REDUCE = 2, // the partition reduce
  UQ_VARIANT_KIND_STORE = 3,  // the cache store (new tokens' K and V)
  // Since 0.10: rows of activations copied between a strided view and
  // dense rows (a plan whose query or output has a non-unit element
  // stride).
  UQ_VARIANT_KIND_VIEW = 4,
} uq_variant_kind_t;

// One explicit kernel argument as the code object lays it out.
typedef struct uq_variant_arg_s {
  uint32_t offset; // bytes into the kernarg segment
  uint32_t size;   // bytes
} uq_variant_arg_t;

// The longest variant key a record may have: uq_plan_info_t.variant and
// uq_varlen_shape_t.variant hold it and its NUL (uq-compile refuses a
// longer key, a context a longer record's).
#define UQ_VARIANT_KEY_MAX 31

typedef struct uq_variant_record_s {
  const char *variant; // key, e.g. "decode_d256_rows8" (messages, tools)
  const char *kernel;  // the kernel's name in the code object
  const void *data;    // the code object (HSACO); must outlive the context
  size_t size;
  uq_variant_kind_t kind;
  const char *target; // "gfx950"; NULL is read as "gfx950"
  uint32_t head_dim;  // the head dim D the kernel is built for
  // decode: serves every query group 1 .. qg_max (QG is a kernel argument;
  // the runtime takes the matching record with the smallest qg_max).
  uint32_t qg_max;
  // What the code object's own metadata says, repeated so a table can be
  // read without parsing ELF. 0 (and args NULL) in a caller's record means
  // "not stated"; a stated value that disagrees with the code object fails
  // context creation (a stale table).
  uint32_t lds_bytes;
  uint32_t vgpr_count;
  uint32_t agpr_count;
  uint32_t sgpr_count;
  uint32_t scratch_bytes;
  uint32_t arg_count;
  const uq_variant_arg_t *args; // arg_count entries, in argument order
  // Since 0.6, decode: the query rows a workgroup holds (query tokens x QG
  // of one kv head: a varlen block of floor(rows / QG) tokens); 0: qg_max
  // (one token's heads, the decode of earlier tables).
  uint32_t rows;
  // Since 0.9, decode: the fewest query rows of a varlen run (its longest
  // query x QG) the plan gives this kernel; below them a smaller block
  // serves the run (a kernel measured slower on partly filled blocks). 0:
  // any.
  uint32_t min_rows;
} uq_variant_record_t;

// What the runtime selects among: uq_plan_create takes, for head dim 64,
// 128 or 256, the decode record with the smallest qg_max >= the plan's
// query group, 1..UQ_VARIANT_MAX_QUERY_GROUP (one 16-row MFMA tile holds a
// kv head's query rows), and the reduce and store records of that head dim.
// A record outside this set would never be picked, or be picked for query
// groups its kernel was not built for: uq-compile refuses to build one and
// context creation to take one.
#define UQ_VARIANT_MAX_QUERY_GROUP 16

static inline int uq_variant_head_dim_selectable(uint32_t head_dim) {
  return uq_head_dim_supported(head_dim);
}

static inline int uq_variant_qg_max_selectable(uint32_t qg_max) {
  return qg_max >= 1 && qg_max <= UQ_VARIANT_MAX_QUERY_GROUP;
}

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_RUNTIME_INCLUDE_UQ_VARIANT_H_
