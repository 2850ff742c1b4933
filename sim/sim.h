// The gfx950 functional simulator: runs real code objects on the CPU.
//
// A simulator instance is one device: a flat 64-bit global address space
// backed by host buffers, loaded programs, and launches. Threads may share an
// instance: allocation, reads, writes and launches (also of one program) may
// run concurrently; a launch holds no lock while it runs, so it does not
// stall the others. Freeing or loading over memory a running launch uses is
// the caller's race, as on a GPU. Program load and destroy are not
// concurrent with launches of that program.
#ifndef UQ_SIM_SIM_H_
#define UQ_SIM_SIM_H_

#include <stddef.h>
#include <stdint.h>

#include "uq/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uq_sim_s uq_sim_t;
typedef struct uq_sim_program_s uq_sim_program_t;

// Instruction classes counted per launch.
typedef enum uq_sim_class_e {
  UQ_SIM_CLASS_SALU = 0,
  UQ_SIM_CLASS_VALU,
  UQ_SIM_CLASS_SMEM,
  UQ_SIM_CLASS_VMEM,
  UQ_SIM_CLASS_LDS,
  UQ_SIM_CLASS_MFMA,
  UQ_SIM_CLASS_BRANCH,
  UQ_SIM_CLASS_OTHER, // waitcnt, barriers, nops, scheduling hints, endpgm
  UQ_SIM_CLASS_COUNT,
} uq_sim_class_t;

typedef struct uq_sim_counters_s {
  uint64_t wave_instructions;            // all classes
  uint64_t by_class[UQ_SIM_CLASS_COUNT]; // wave-instructions per class
  uint64_t global_bytes_read;            // global + buffer + flat loads
  uint64_t global_bytes_written;
  uint64_t scalar_bytes_read; // s_load / s_buffer_load
  uint64_t lds_bytes_read;
  uint64_t lds_bytes_written;
  uint32_t lds_high_water; // highest LDS byte touched + 1
  uint64_t workgroups;
  uint64_t waves;
  // Distinct 128-byte lines of device memory that loads (vector and scalar)
  // read: the launch's traffic if every line were fetched once.
  uint64_t global_lines_read;
  // The most bytes one wave had in flight in vector memory loads: issued
  // and not yet waited for by s_waitcnt vmcnt (what the memory system must
  // hold for it, whatever the latency: the prefetch depth in bytes).
  uint64_t vmem_inflight_peak;
} uq_sim_counters_t;

typedef struct uq_sim_launch_s {
  uint32_t grid[3];      // workgroups in x, y, z (not work-items)
  uint32_t workgroup[3]; // work-items per workgroup; 64..1024 in x*y*z
  const void *kernargs;  // explicit + hidden arguments, as packed by caller
  size_t kernarg_size;   // must equal the metadata's kernarg_segment_size
  uint32_t dynamic_lds;  // bytes of LDS beyond the kernel's static size
  // Wave-instructions the launch may execute before it stops with
  // RESOURCE_EXHAUSTED; 0 takes the default, 2^32 or the environment
  // variable UQ_SIM_MAX_INSTRUCTIONS.
  uint64_t max_instructions;
  // An upper bound on the iterations of the run-time loops one wave makes
  // (nested loops multiplied; for a decode, the tiles of its partition's
  // walk), or 0 when the caller cannot say. When given, a wave may execute
  // 4 x (the code object's instruction slots, image bytes / 4) x (loop_trips
  // + 1) wave-instructions: one pass over every instruction per iteration
  // and once more outside the loops, four times over, so a legitimate
  // launch is never stopped however long its loops; the launch's budget is
  // that times its waves (max_instructions, when set, still caps it). A
  // runaway loop then stops after its own wave's share: a decode that
  // normally runs 1,700 wave-instructions a wave stops after ~300,000,
  // not 2^30.
  uint64_t loop_trips;
} uq_sim_launch_t;

UQ_API uq_status_t uq_sim_create(uq_sim_t **out_sim);
UQ_API void uq_sim_destroy(uq_sim_t *sim);

// Device memory. Addresses are not host pointers; 0 is never returned.
// Allocation contents start as 0xCD so unwritten reads show. Allocations of
// UQ_SIM_SPARSE_BYTES and more are sparse (one poisoned chunk mapped
// copy-on-write over the range: host pages are backed when first written),
// so a test can give a kernel a cache or block table spanning many
// gigabytes; where memfd_create is missing they read as 0 instead.
#define UQ_SIM_SPARSE_BYTES ((size_t)1 << 30)
UQ_API uq_status_t uq_sim_alloc(uq_sim_t *sim, size_t size,
                                uint64_t *out_address);
UQ_API uq_status_t uq_sim_free(uq_sim_t *sim, uint64_t address);
UQ_API uq_status_t uq_sim_write(uq_sim_t *sim, uint64_t address,
                                const void *data, size_t size);
UQ_API uq_status_t uq_sim_read(uq_sim_t *sim, uint64_t address, void *data,
                               size_t size);
// OK when [address, address + size) lies inside one allocation, else
// OUT_OF_RANGE saying so; nothing is copied (the runtime checks a run's
// buffers before it launches anything).
UQ_API uq_status_t uq_sim_check_range(uq_sim_t *sim, uint64_t address,
                                      uint64_t size);

// Loads a code object (copied). Fails as uq_code_object_load does.
UQ_API uq_status_t uq_sim_program_load(uq_sim_t *sim, const void *data,
                                       size_t size,
                                       uq_sim_program_t **out_program);
UQ_API void uq_sim_program_destroy(uq_sim_program_t *program);
// The parsed code object behind a program (borrowed), for kernarg layouts.
struct uq_code_object_s;
UQ_API const struct uq_code_object_s *
uq_sim_program_code_object(const uq_sim_program_t *program);

// Runs every workgroup of the grid to completion. On an unimplemented
// instruction, a memory fault or a bad launch, returns a failure that names
// the instruction's text and address (or the fault). `out_counters` may be
// NULL; when given, it receives this launch's counters.
//
// Codes: NOT_FOUND (no such kernel), INVALID_ARGUMENT (kernarg size not the
// metadata's, bad grid/workgroup shape, more than 16 waves),
// RESOURCE_EXHAUSTED (LDS over 160 KiB, a wave stuck in a loop),
// UNIMPLEMENTED (an instruction or feature the simulator lacks, e.g.
// scratch), OUT_OF_RANGE (a global, flat, scalar or LDS access outside its
// allocation; buffer instructions follow the num_records rule instead).
// Workgroups run one at a time, their waves interleaved at s_barrier; LDS
// starts zeroed for each workgroup. Kernels with preloaded kernel arguments
// start 256 bytes past their entry, as on firmware that supports it.
// With the environment variable UQ_SIM_TRACE=1 every executed instruction is
// printed to stderr (workgroup, wave, EXEC, address, text). A launch that
// executes more wave-instructions than its budget (max_instructions) stops
// with RESOURCE_EXHAUSTED naming the kernel and the count, as does a wave
// past its cap: 2^30, or the bound loop_trips gives
// (UQ_SIM_MAX_WAVE_INSTRUCTIONS overrides either). The code object is
// untrusted: bytes that do not decode, operands the disassembler flags
// (misaligned register tuples), reserved encodings and kernel-descriptor
// fields the simulator does not model fail the launch with DATA_LOSS or
// UNIMPLEMENTED, never a crash.
UQ_API uq_status_t uq_sim_launch(uq_sim_t *sim, const uq_sim_program_t *program,
                                 const char *kernel_name,
                                 const uq_sim_launch_t *launch,
                                 uq_sim_counters_t *out_counters);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // UQ_SIM_SIM_H_
