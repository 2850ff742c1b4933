// Internal structures of the gfx950 simulator shared by its .c files:
// device memory, decoded instructions, wave state and the executor entry.
#ifndef UQ_SIM_INTERNAL_H_
#define UQ_SIM_INTERNAL_H_

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

#include <llvm-c/Disassembler.h>

// ---------------------------------------------------------------------------
// Memory: allocations in a flat 64-bit space, sorted by address.

typedef struct uq_sim_alloc_s {
  uint64_t base;
  uint64_t size;
  uint8_t *data;
  int mapped; // data is an mmap'ed sparse mapping (uq_sim_alloc)
} uq_sim_alloc_t;

// The allocation table is shared by the threads that use one simulator:
// uq_sim_alloc and uq_sim_free change it under `lock`; lookups
// (uq_sim_read, uq_sim_write, a launch's accesses) hold it only
// while they search and copy. A launch holds no lock while it runs.
struct uq_sim_s {
  pthread_mutex_t lock;
  uq_sim_alloc_t *allocs; // sorted by base
  size_t alloc_count;
  size_t alloc_capacity;
  uint64_t next_base;
  size_t last_hit; // index found last (a hint; relaxed atomic accesses)
};

// The allocation holding [address, address + size), copied into *out, or
// 0 when there is none. Takes the lock.
int uq_sim_memory_find_alloc(uq_sim_t *sim, uint64_t address, uint64_t size,
                             uq_sim_alloc_t *out);

// ---------------------------------------------------------------------------
// Decoded instructions.

typedef enum uq_sim_op_e {
  UQ_OP_UNKNOWN = 0,
#define X(e, name, cls, width, type, sub, flags) UQ_OP_##e,
#include "sim/ops.def"
#undef X
  UQ_OP_COUNT,
} uq_sim_op_t;

// An op's arithmetic type (the `type` column of ops.def).
enum {
  UQ_OPT_U = 0, // unsigned or plain bits
  UQ_OPT_I,     // signed
  UQ_OPT_F,     // floating point
};

// The `flags` column of ops.def: what the decoder and executor test instead
// of an op's name or position. ops.def's header says what each one means.
enum {
  UQ_OPF_E32 = 1u << 0,
  UQ_OPF_E64 = 1u << 1,
  UQ_OPF_DPP = 1u << 2,
  UQ_OPF_SDWA = 1u << 3,
  UQ_OPF_NODST = 1u << 4,
  UQ_OPF_DST2 = 1u << 5,
  UQ_OPF_VOP3B = 1u << 6,
  UQ_OPF_SIMM16 = 1u << 7,
  UQ_OPF_S0_64 = 1u << 8,
  UQ_OPF_S1_64 = 1u << 9,
  UQ_OPF_S2_64 = 1u << 10,
  UQ_OPF_PACKED = 1u << 11,
  UQ_OPF_D16 = 1u << 12,
  UQ_OPF_OMOD = 1u << 13,
  UQ_OPF_CMP = 1u << 14,
  UQ_OPF_DS2 = 1u << 15,
  UQ_OPF_ST64 = 1u << 16,
  UQ_OPF_SCC = 1u << 17,
  UQ_OPF_EXEC = 1u << 18,
  UQ_OPF_PC = 1u << 19,
  UQ_OPF_LOAD = 1u << 20,
  UQ_OPF_STORE = 1u << 21,
  UQ_OPF_BUFFER = 1u << 22,
  UQ_OPF_GLOBAL = 1u << 23,
  UQ_OPF_FLAT = 1u << 24,
  UQ_OPF_HI16 = 1u << 25,
};

// One row of ops.def.
typedef struct uq_sim_op_info_s {
  const char *name; // the mnemonic without an encoding suffix
  uint8_t cls;      // uq_sim_class_t
  uint16_t width;   // bits: source operand (ALU) or data moved (memory)
  uint8_t type;     // UQ_OPT_*
  uint8_t sub;      // VOPC condition, byte or shift number
  uint32_t flags;   // UQ_OPF_*
} uq_sim_op_info_t;

// Indexed by uq_sim_op_t; row 0 is UQ_OP_UNKNOWN.
extern const uq_sim_op_info_t uq_sim_op_info[UQ_OP_COUNT];
// The op with mnemonic `name` (no encoding suffix), or UQ_OP_UNKNOWN.
uq_sim_op_t uq_sim_op_lookup(const char *name);

typedef enum uq_sim_opnd_kind_e {
  UQ_OPND_NONE = 0,
  UQ_OPND_SGPR,  // SGPR file index (vcc = 106, m0 = 124, exec = 126, ...)
  UQ_OPND_VGPR,  // VGPR file index (AGPRs are 256 + index)
  UQ_OPND_CONST, // inline constant or literal, resolved to the op's width
  UQ_OPND_SCC,   // src_scc
  UQ_OPND_OFF,   // `off` / `null`
} uq_sim_opnd_kind_t;

enum {
  UQ_MOD_NEG = 1,
  UQ_MOD_ABS = 2,
};

typedef struct uq_sim_opnd_s {
  uint8_t kind;
  uint8_t mods;  // UQ_MOD_*
  uint8_t count; // registers in the range
  uint8_t is_float_const;
  uint16_t reg;
  uint64_t value; // UQ_OPND_CONST
} uq_sim_opnd_t;

#define UQ_SIM_MAX_OPNDS 8

typedef struct uq_sim_inst_s {
  uint16_t op;    // uq_sim_op_t
  uint8_t cls;    // uq_sim_class_t
  uint16_t width; // the op's width column
  uint8_t type;   // its type column (UQ_OPT_*)
  uint8_t sub;    // its sub column
  uint32_t flags; // its flags column (UQ_OPF_*), copied here for the executor
  uint8_t size;   // bytes
  uint8_t nopnd;
  uint8_t enc; // UQ_ENC_*
  uint8_t clamp;
  uint8_t omod;   // 0 none, 1 mul:2, 2 mul:4, 3 div:2
  uint8_t op_sel; // bit i = operand i
  uint8_t op_sel_hi;
  uint8_t neg_lo;
  uint8_t neg_hi;
  uint8_t offen, idxen, has_offset;
  uint8_t nd;      // destination operands first in o[]
  uint8_t width64; // the op's sources are 64-bit (inline constants)
  uint8_t sdwa_dst_sel, sdwa_dst_unused, sdwa_src_sel[2], sdwa_sext[2];
  uint8_t cbsz, blgp, abid;
  // DPP
  uint16_t dpp_ctrl;
  uint8_t row_mask, bank_mask, bound_ctrl;
  int32_t offset;  // memory instruction offset (offset0 for ds 2addr)
  int32_t offset1; // ds 2addr
  int32_t simm;    // branch / s_*k immediate
  uint64_t pc;
  uq_sim_opnd_t o[UQ_SIM_MAX_OPNDS];
  const char *text; // the disassembly (owned by the program)
} uq_sim_inst_t;

enum {
  UQ_ENC_NONE = 0,
  UQ_ENC_E32,
  UQ_ENC_E64,
  UQ_ENC_DPP,
  UQ_ENC_SDWA,
};

// A decoder over a loaded image, decoding each address once.
typedef struct uq_sim_decoder_s uq_sim_decoder_t;

uq_status_t uq_sim_decoder_create(const uint8_t *image, size_t image_size,
                                  uq_sim_decoder_t **out_decoder);
void uq_sim_decoder_destroy(uq_sim_decoder_t *decoder);
// The decoded instruction at `pc` (borrowed, stable until destroy).
uq_status_t uq_sim_decoder_get(uq_sim_decoder_t *decoder, uint64_t pc,
                               const uq_sim_inst_t **out_inst);

struct uq_sim_decoder_s {
  // A copy of the image with zero padding after it: LLVM's disassembler
  // crashes (LLVM 22) when an instruction's literal would run past the end
  // of the bytes it is given, so it is always given 16 more.
  uint8_t *image;
  size_t image_size;
  LLVMDisasmContextRef disasm;
  // image_size / 4 slots, decoded lazily: launches of one program may run
  // on several threads at once, so a slot is published with a release store
  // and read with an acquire load, and decoding (LLVM's disassembler is not
  // thread-safe) holds `mutex`.
  uq_sim_inst_t **by_word;
  pthread_mutex_t mutex;
  int mutex_initialized;
};

// The executor's fast path: the instruction at `pc` when already decoded.
static inline const uq_sim_inst_t *
uq_sim_decoder_cached(const uq_sim_decoder_t *d, uint64_t pc) {
  return pc < d->image_size && !(pc & 3)
             ? __atomic_load_n(&d->by_word[pc / 4], __ATOMIC_ACQUIRE)
             : NULL;
}
// Decodes one instruction from bytes (tests); `inst->text` is owned by the
// caller-supplied buffer.
uq_status_t uq_sim_decode_text(const char *text, uint64_t pc,
                               const uint8_t *bytes, size_t size,
                               uq_sim_inst_t *inst);

// ---------------------------------------------------------------------------
// Execution.

// What a launch of one kernel needs, from the code object or a test.
typedef struct uq_sim_kernel_setup_s {
  uint64_t entry; // address of the first instruction in the image
  uint32_t rsrc1, rsrc2, rsrc3;
  uint16_t code_properties;
  uint16_t kernarg_preload;
  uint32_t group_segment_size;
  uint32_t private_segment_size;
  uint32_t kernarg_size;
} uq_sim_kernel_setup_t;

uq_status_t uq_sim_execute(uq_sim_t *sim, uq_sim_decoder_t *decoder,
                           const uq_sim_kernel_setup_t *setup,
                           const uq_sim_launch_t *launch,
                           uq_sim_counters_t *counters);

// Runs `in` once on a scratch wave (EXEC all ones, registers zero, no device
// memory, 64 KiB of LDS) and returns its status: the table test's way to see
// that every row of ops.def reaches a handler that models it.
uq_status_t uq_sim_exec_probe(const uq_sim_inst_t *in);

#endif // UQ_SIM_INTERNAL_H_
