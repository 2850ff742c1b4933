// The backend interface of libuqrt: one vtable that HIP, CUDA, the simulator
// and the host reference implement, so the plan code and one test suite
// cover all four. The plan asks what a device can do (launch code objects,
// see into its memory, count instructions), never which backend it is.
#ifndef UQ_RUNTIME_API_DEVICE_H_
#define UQ_RUNTIME_API_DEVICE_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "uq/format.h"
#include "uq/uqrt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uq_rt_device_s uq_rt_device_t;

// One kernel launch, in workgroups. `function` is what function_get gave.
typedef struct uq_rt_launch_s {
  void *function;
  uint32_t grid[3];
  uint32_t workgroup[3];
  const void *kernargs;
  size_t kernarg_size;
  uint32_t dynamic_lds;
  // Workgroups per cluster in z (CUDA thread-block clusters; 0 or 1: none).
  // Only the CUDA backend launches clusters.
  uint32_t cluster_z;
  // The kernel waits for the stream's earlier work itself before its first
  // global memory access (sm_90a: griddepcontrol.wait), so it may start
  // before that work ends: the CUDA backend launches it with programmatic
  // stream serialization where the driver takes it in graphs too.
  int waits_for_previous;
  // An upper bound on the iterations of the run-time loops one workgroup
  // makes (nested loops multiplied), from the work the launch is given: the
  // simulator derives each wave's instruction budget from it, so a runaway
  // loop in a corrupt code object stops in milliseconds with
  // RESOURCE_EXHAUSTED and a legitimate launch, however long, never does
  // (uq_sim_launch_t.loop_trips). 0: unknown (the simulator's default caps).
  uint64_t loop_trips;
} uq_rt_launch_t;

// A decode or varlen run in device addresses, with the plan's walk, blocks
// and workspace: what a device that launches no kernels computes itself
// (run_decode).
typedef struct uq_rt_decode_args_s {
  int32_t num_seqs, query_group, head_dim;
  int64_t num_blocks;
  int32_t block_size, num_kv_heads, padded_slot, max_blocks_per_seq;
  float softmax_scale;
  uq_fp8_overflow_t q_overflow;
  uq_device_ptr_t query;
  int64_t query_stride_seq, query_stride_head;
  uq_device_ptr_t kv_cache, block_tables, seq_lens, output;
  int64_t output_stride_seq, output_stride_head;
  uq_launch_walk_t walk; // the plan's split of each sequence
  uq_device_ptr_t segm_out, segm_max, segm_sum; // the plan's workspace
  int32_t sliding_window;                       // 0: none
  uq_device_ptr_t sinks;                        // f32 [Hq] or 0: none
  uq_device_ptr_t query_start_loc; // i32 [num_seqs + 1] or 0: a decode
  int32_t block_tokens;            // the varlen kernel's tokens a block
  uq_dtype_t dtype;                // query and output: the plan's query_dtype
} uq_rt_decode_args_t;

// A cache store in device addresses, for a device that encodes itself
// (run_store): the layout, the cache and the tokens' K, V and slots.
typedef struct uq_rt_store_args_s {
  uq_cache_layout_t layout;
  uq_device_ptr_t kv_cache;
  size_t cache_bytes;
  uq_device_ptr_t key, value, slot_mapping;
  int64_t key_stride_token, key_stride_head;
  int64_t value_stride_token, value_stride_head;
  uint32_t num_tokens;
  uq_dtype_t dtype; // key and value: the plan's query_dtype
} uq_rt_store_args_t;

typedef struct uq_rt_device_vtable_s {
  void (*destroy)(uq_rt_device_t *device);
  uq_status_t (*alloc)(uq_rt_device_t *device, size_t size,
                       uint64_t *out_address);
  uq_status_t (*free)(uq_rt_device_t *device, uint64_t address);
  uq_status_t (*upload)(uq_rt_device_t *device, uint64_t dst, const void *src,
                        size_t size);
  uq_status_t (*download)(uq_rt_device_t *device, void *dst, uint64_t src,
                          size_t size);
  uq_status_t (*synchronize)(uq_rt_device_t *device, uq_stream_t *stream);
  // Kernel backends only (NULL on host). A module is one loaded code
  // object; a function one kernel in it (owned by the module).
  uq_status_t (*module_load)(uq_rt_device_t *device, const void *data,
                             size_t size, void **out_module);
  void (*module_unload)(uq_rt_device_t *device, void *module);
  uq_status_t (*function_get)(uq_rt_device_t *device, void *module,
                              const char *name, void **out_function);
  // `out_counters` may be NULL; backends that do not count leave it alone
  // and return UQ_OK.
  uq_status_t (*launch)(uq_rt_device_t *device, const uq_rt_launch_t *launch,
                        uq_stream_t *stream, uq_kernel_counters_t *out_counters,
                        int *out_counted);
  // The device's compute units (SMs) and how many workgroups of `function`
  // (`threads` each, `dynamic_lds` bytes of dynamic shared memory) each
  // runs at once, for the split policy of GPUs whose kernels take any P
  // (NULL: the seed's policy).
  uq_status_t (*occupancy)(uq_rt_device_t *device, void *function,
                           uint32_t threads, uint32_t dynamic_lds,
                           uint32_t *out_compute_units,
                           uint32_t *out_workgroups_per_cu);
  // How many clusters of `cluster_z` such workgroups can be resident at
  // once (NULL: the device launches no clusters).
  uq_status_t (*cluster_occupancy)(uq_rt_device_t *device, void *function,
                                   uint32_t threads, uint32_t dynamic_lds,
                                   uint32_t cluster_z, uint32_t *out_clusters);
  // Nonzero when launches may run on several threads at once and alongside
  // the memory calls: the context then does not hold its mutex across a
  // launch (uq_rt_context_launch), so a long one (the simulator's) does not
  // stall other plans on the context.
  int concurrent_launch;
  // Sim and host: OK when [address, address + size) lies inside one live
  // allocation, else a status saying why; the runtime checks a run's
  // buffers with it before anything is written. NULL on the GPU backends,
  // whose pointers the runtime cannot see into.
  uq_status_t (*check_range)(uq_rt_device_t *device, uint64_t address,
                             uint64_t size);
  // Nonzero when launches report the simulator's instruction counters.
  int counts_instructions;
  // A device that launches no code objects (launch NULL: the host
  // reference) computes a run's decode and a store itself, on its memory.
  uq_status_t (*run_decode)(uq_rt_device_t *device,
                            const uq_rt_decode_args_t *args);
  uq_status_t (*run_store)(uq_rt_device_t *device,
                           const uq_rt_store_args_t *args);
} uq_rt_device_vtable_t;

struct uq_rt_device_s {
  const uq_rt_device_vtable_t *vtable;
  uq_backend_t kind;
  uq_allocator_t allocator;
  char description[192];
};

// Host memory through a context's allocator.
static inline void *uq_rt_alloc(const uq_allocator_t *allocator, size_t size) {
  return allocator->alloc(allocator->self, size ? size : 1);
}
static inline void uq_rt_free(const uq_allocator_t *allocator, void *ptr) {
  if (ptr)
    allocator->free(allocator->self, ptr);
}
static inline void *uq_rt_calloc(const uq_allocator_t *allocator, size_t size) {
  void *ptr = uq_rt_alloc(allocator, size);
  if (ptr)
    memset(ptr, 0, size ? size : 1);
  return ptr;
}

// Backend constructors. Each fails with UNAVAILABLE when the backend cannot
// be used here, with the reason in the message.
uq_status_t uq_hip_device_create(const uq_allocator_t *allocator,
                                 const char *library, int32_t ordinal,
                                 uq_rt_device_t **out_device);
// The simulator backend lives in its own module, libuqrt_sim.so, so that
// libuqrt itself needs no LLVM: uq_sim_device_create is defined there and
// libuqrt reaches it through uq_sim_device_load (sim_loader.c), which loads
// the module on demand and fails with UNAVAILABLE when it is absent.
uq_status_t uq_sim_device_create(const uq_allocator_t *allocator,
                                 uint32_t flags, uq_rt_device_t **out_device);
uq_status_t uq_sim_device_load(const uq_allocator_t *allocator, uint32_t flags,
                               uq_rt_device_t **out_device);

// The module's one exported symbol. `abi` and `vtable_size` are the
// loader's UQ_SIM_MODULE_ABI and sizeof(uq_rt_device_vtable_t): a module
// built from another tree refuses with FAILED_PRECONDITION.
#define UQ_SIM_MODULE_ABI 1u
#define UQ_SIM_MODULE_ENTRY "uq_sim_module_create_device"
typedef uq_status_t (*uq_sim_module_create_fn)(uint32_t abi, size_t vtable_size,
                                               const uq_allocator_t *allocator,
                                               uint32_t flags,
                                               uq_rt_device_t **out_device);
// UNAVAILABLE with the reason for a device of another compute capability
// than 9.0 (the cubins are sm_90a).
uq_status_t uq_cuda_device_create(const uq_allocator_t *allocator,
                                  const char *library, int32_t ordinal,
                                  uq_rt_device_t **out_device);
uq_status_t uq_host_device_create(const uq_allocator_t *allocator,
                                  uq_rt_device_t **out_device);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_RUNTIME_API_DEVICE_H_
