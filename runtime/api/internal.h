// libuqrt internals shared by the context, the plan and the kernel-argument
// code. Not installed.
#ifndef UQ_RUNTIME_API_INTERNAL_H_
#define UQ_RUNTIME_API_INTERNAL_H_

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "codeobj/codeobj.h"
#include "runtime/api/device.h"
#include "runtime/kernel_abi.h"
#include "uq/uqrt.h"

#ifdef __cplusplus
extern "C" {
#endif

// One code object of the context's table: parsed at context creation,
// loaded onto the device the first time a plan needs it.
typedef struct uq_rt_object_s {
  uq_code_object_source_t source;
  uq_code_object_t *parsed;
  const uq_kernel_info_t *kernel; // borrowed from `parsed`
  void *module;                   // device module, NULL until loaded
  void *function;                 // device function, NULL until loaded
} uq_rt_object_t;

// A record's target; NULL is read as gfx950 (uq/variant.h).
static inline const char *uq_rt_record_target(const uq_variant_record_t *r) {
  return r->target ? r->target : "gfx950";
}

// The query rows a decode record's workgroup holds (its qg_max in tables
// from before rows).
static inline uint32_t uq_rt_record_rows(const uq_variant_record_t *r) {
  return r->rows ? r->rows : r->qg_max;
}

// What a context's device can do, for the plan code (which never asks
// which backend it is):
// - it launches code objects (hip, cuda, sim); the host reference computes
//   runs itself (vtable run_decode, run_store);
static inline int uq_rt_runs_kernels(const uq_rt_device_t *device) {
  return device->vtable->launch != NULL;
}
// - the runtime can see into its memory (sim, host), so a run's buffers and
//   tables are read back and checked before anything is written; a GPU
//   keeps them on the device (a run neither copies nor waits) and its
//   kernels skip what they cannot serve.
static inline int uq_rt_checks_on_host(const uq_rt_device_t *device) {
  return device->vtable->check_range != NULL;
}

struct uq_context_s {
  uq_allocator_t allocator;
  uq_backend_t backend;
  const char *target; // the kernels' target on this backend: gfx950, sm_90a
  uint32_t flags;
  uq_rt_device_t *device;
  pthread_mutex_t mutex;
  int mutex_initialized;
  uq_rt_object_t *objects;
  size_t object_count;
  char description[512];
};

// Finds the code object whose record serves a kernel of `kind` for the
// context's target (gfx950, or sm_90a on the CUDA backend) for
// `head_dim` (and, for decode, `query_group` <= its qg_max, with the
// smallest rows >= `rows`, else the largest rows: a decode asks for QG
// rows, a varlen run for its longest query's tokens x QG);
// otherwise UNIMPLEMENTED listing the table's records of that kind, or
// NOT_FOUND when the table has none of that kind.
// Borrowed.
uq_status_t uq_rt_context_find_variant(uq_context_t *context,
                                       uq_variant_kind_t kind,
                                       uint32_t head_dim, uint32_t query_group,
                                       uint32_t rows,
                                       uq_rt_object_t **out_object);
// Loads `object` onto the device and looks up its kernel (once; later calls
// return at once). Takes the context mutex.
uq_status_t uq_rt_context_load_object(uq_context_t *context,
                                      uq_rt_object_t *object);
// One launch on the context's device: under the context mutex, unless the
// device's launches are concurrent (vtable.concurrent_launch).
uq_status_t uq_rt_context_launch(uq_context_t *context,
                                 const uq_rt_launch_t *launch,
                                 uq_stream_t *stream,
                                 uq_kernel_counters_t *out_counters,
                                 int *out_counted);

// Sim and host: INVALID_ARGUMENT naming `what` unless the `size` bytes at
// `address` lie inside one live allocation of the context (a pointer never
// allocated, freed, or with too little room after it for the run). OK on
// the GPU backends, which cannot check. Takes the context mutex.
uq_status_t uq_rt_context_check_buffer(uq_context_t *context, const char *what,
                                       uq_device_ptr_t address, uint64_t size);

// One expected explicit kernel argument of kernel_abi.h.
typedef struct uq_rt_arg_spec_s {
  const char *name;
  uq_kernarg_kind_t kind;
  uint32_t size;
} uq_rt_arg_spec_t;

#define UQ_RT_MAX_ARGS 32
_Static_assert(UQ_DECODE_ARG_COUNT <= UQ_RT_MAX_ARGS &&
                   UQ_REDUCE_ARG_COUNT <= UQ_RT_MAX_ARGS &&
                   UQ_STORE_ARG_COUNT <= UQ_RT_MAX_ARGS &&
                   UQ_VIEW_ARG_COUNT <= UQ_RT_MAX_ARGS,
               "uq_rt_arg_layout_t.offset cannot hold every kernel argument");

// Where each argument goes in a kernel's kernarg segment, from its metadata.
// Offsets of hidden arguments are -1 when the kernel does not have them.
typedef struct uq_rt_arg_layout_s {
  uint32_t count;
  uint32_t offset[UQ_RT_MAX_ARGS]; // by kernel_abi.h index
  uint32_t kernarg_size;           // metadata kernarg_segment_size
  int32_t block_count[3];          // hidden_block_count_x/y/z (u32)
  int32_t group_size[3];           // hidden_group_size_x/y/z (u16)
  int32_t remainder[3];            // hidden_remainder_x/y/z (u16)
  int32_t grid_dims;               // hidden_grid_dims (u16)
} uq_rt_arg_layout_t;

extern const uq_rt_arg_spec_t uq_rt_decode_arg_specs[UQ_DECODE_ARG_COUNT];
extern const uq_rt_arg_spec_t uq_rt_reduce_arg_specs[UQ_REDUCE_ARG_COUNT];
extern const uq_rt_arg_spec_t uq_rt_store_arg_specs[UQ_STORE_ARG_COUNT];
extern const uq_rt_arg_spec_t uq_rt_view_arg_specs[UQ_VIEW_ARG_COUNT];

// Checks that `kernel`'s explicit arguments agree with `specs` (count, kind,
// size, in order, inside the segment) and records the layout, hidden
// arguments included. FAILED_PRECONDITION names the first disagreement.
uq_status_t uq_rt_arg_layout_build(const uq_kernel_info_t *kernel,
                                   const uq_rt_arg_spec_t *specs,
                                   uint32_t count,
                                   uq_rt_arg_layout_t *out_layout);

// Checks `object`'s kernel arguments against `specs` and its workgroup
// shape (one 64-lane wave), loads it onto the device and allocates its
// kernarg segment (*out_args, the context allocator's; the caller frees it)
// with the group-size and grid-dims hidden arguments filled.
uq_status_t uq_rt_kernel_prepare(uq_context_t *context, uq_rt_object_t *object,
                                 const uq_rt_arg_spec_t *specs, uint32_t count,
                                 uq_rt_arg_layout_t *out_layout,
                                 uint8_t **out_args);

// Stores the low `size` bytes of `value` at `offset` (little-endian); a
// negative offset (argument absent) does nothing.
static inline void uq_rt_arg_put(uint8_t *kernargs, int64_t offset,
                                 uint32_t size, uint64_t value) {
  if (offset < 0)
    return;
  for (uint32_t i = 0; i < size && i < 8; ++i)
    kernargs[offset + i] = (uint8_t)(value >> (8 * i));
}

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_RUNTIME_API_INTERNAL_H_
