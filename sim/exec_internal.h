// The executor's shared pieces: wave state, the launch context, register
// access and the family handlers (exec_<family>.c) the wave loop in exec.c
// calls. Only the simulator's own .c files include this.
#ifndef UQ_SIM_EXEC_INTERNAL_H_
#define UQ_SIM_EXEC_INTERNAL_H_

#include <string.h>

#include "sim/internal.h"

#define UQ_SIM_MAX_WAVES 16
#define UQ_SIM_MAX_LDS (160u * 1024u)
// A wave that runs this many instructions is taken to be stuck in a loop
// (the decode kernel needs a few million at the longest contexts).
#define UQ_SIM_WAVE_INST_LIMIT (1ull << 30)

enum { WAVE_RUN = 0, WAVE_BARRIER, WAVE_DONE };

typedef struct uq_sim_wave_s {
  uint32_t v[512][64]; // v0..v255, then a0..a255
  uint32_t s[128];     // hardware SGPR numbering: vcc 106, m0 124, exec 126
  uint64_t pc;
  uint64_t executed;
  uint32_t mode;
  uint8_t scc;
  uint8_t state;
  // Vector memory operations issued and not yet waited for (vmcnt, loads
  // and stores alike on gfx9), oldest first in a ring: the bytes each
  // load reads (0 for a store), and their sum. s_waitcnt vmcnt(N) retires
  // the oldest until N remain (uq_sim_counters_t.vmem_inflight_peak).
  uint32_t vm_bytes[64];
  uint8_t vm_head, vm_count;
  uint64_t vm_inflight;
} uq_sim_wave_t;

typedef struct uq_sim_ctx_s {
  uq_sim_t *sim;
  uq_sim_decoder_t *decoder;
  uq_sim_counters_t *cnt;
  uint8_t *lds;
  uint32_t lds_size;
  // The allocation hit last, so that a wave's accesses skip the search.
  uint64_t mem_base, mem_size;
  uint8_t *mem_data;
  // The loaded code object, readable (not writable) at its virtual
  // addresses from UQ_SIM_IMAGE_FIRST on: PC-relative loads of constant
  // tables (s_getpc_b64 + offset) read it, as they read the loaded image on
  // hardware. The simulator's PCs are the image's virtual addresses.
  const uint8_t *image;
  uint64_t image_size;
  // UQ_SIM_TRACE=1: every executed instruction goes to stderr.
  int trace;
  uint64_t inst_limit; // per wave; UQ_SIM_MAX_WAVE_INSTRUCTIONS overrides
  uint64_t budget;     // wave-instructions left to the launch
  // The 128-byte lines loads read: an open-addressed set of line numbers
  // (address >> 7; never 0, device memory starts at 4 GiB), 2^line_bits slots.
  uint64_t *lines;
  uint32_t line_bits;
  uint64_t line_count;
  // Lines counted lately, direct-mapped: most loads re-read lines a recent
  // load read, and this small table answers them without touching the set.
  uint64_t recent_lines[1024];
  uint32_t trace_wg[3], trace_wave;
} uq_sim_ctx_t;

// Issue (and retire, from uq_sim_exec_vmem and s_waitcnt) of a wave's
// vector memory operations; the counter keeps the launch's highest sum.
void uq_sim_vm_issue(uq_sim_ctx_t *c, uq_sim_wave_t *w, uint64_t bytes);
void uq_sim_vm_wait(uq_sim_wave_t *w, uint32_t vmcnt);

// The host bytes of [a, a + n) in device memory, or NULL (a fault).
static inline uint8_t *mem_at(uq_sim_ctx_t *c, uint64_t a, uint32_t n) {
  uint64_t off = a - c->mem_base;
  if (off < c->mem_size && n <= c->mem_size - off)
    return c->mem_data + off;
  // Another allocation: found under the table's lock and remembered
  // here (the launch holds no lock while it runs; freeing memory a running
  // kernel uses is the caller's error, as on a GPU).
  uq_sim_alloc_t al;
  if (!uq_sim_memory_find_alloc(c->sim, a, n, &al))
    return NULL;
  c->mem_base = al.base;
  c->mem_size = al.size;
  c->mem_data = al.data;
  return al.data + (a - al.base);
}

// Addresses below this do not reach the image, so that a null pointer (and
// small offsets from one) still faults.
#define UQ_SIM_IMAGE_FIRST 0x100u

// As mem_at, for a load: an address outside every allocation may be in the
// code object's image.
static inline const uint8_t *mem_load_at(uq_sim_ctx_t *c, uint64_t a,
                                         uint32_t n) {
  const uint8_t *p = mem_at(c, a, n);
  if (!p && a >= UQ_SIM_IMAGE_FIRST && a < c->image_size &&
      n <= c->image_size - a)
    p = c->image + a;
  return p;
}

// ---------------------------------------------------------------------------
// Small helpers.

static inline float u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static inline uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static inline uint64_t exec_of(const uq_sim_wave_t *w) {
  return (uint64_t)w->s[127] << 32 | w->s[126];
}
static inline void set_exec(uq_sim_wave_t *w, uint64_t e) {
  w->s[126] = (uint32_t)e;
  w->s[127] = (uint32_t)(e >> 32);
}
static inline uint64_t vcc_of(const uq_sim_wave_t *w) {
  return (uint64_t)w->s[107] << 32 | w->s[106];
}

static inline uq_status_t fail(const uq_sim_inst_t *in, uq_status_code_t code,
                               const char *what) {
  return UQ_MAKE_STATUS(code, "%s: '%s' at 0x%llx", what, in->text,
                        (unsigned long long)in->pc);
}
#define UNIMPL(in)                                                             \
  return fail((in), UQ_STATUS_UNIMPLEMENTED, "unimplemented instruction")

static inline uint32_t sread(const uq_sim_wave_t *w, const uq_sim_opnd_t *o,
                             int half) {
  switch (o->kind) {
  case UQ_OPND_SGPR:
    return w->s[(o->reg + half) & 127];
  case UQ_OPND_CONST:
    return (uint32_t)(o->value >> (32 * half));
  case UQ_OPND_SCC:
    return half ? 0 : w->scc;
  default:
    return 0;
  }
}
static inline uint64_t sread64(const uq_sim_wave_t *w, const uq_sim_opnd_t *o) {
  if (o->kind == UQ_OPND_CONST)
    return o->value;
  return (uint64_t)sread(w, o, 1) << 32 | sread(w, o, 0);
}
static inline void swrite(uq_sim_wave_t *w, const uq_sim_opnd_t *o, int half,
                          uint32_t v) {
  if (o->kind == UQ_OPND_SGPR)
    w->s[(o->reg + half) & 127] = v;
}
static inline void swrite64(uq_sim_wave_t *w, const uq_sim_opnd_t *o,
                            uint64_t v) {
  swrite(w, o, 0, (uint32_t)v);
  swrite(w, o, 1, (uint32_t)(v >> 32));
}

// A whole-wave source: the VGPR row itself, or `tmp` filled with a scalar.
static inline const uint32_t *vsrc(uq_sim_wave_t *w, const uq_sim_opnd_t *o,
                                   int half, uint32_t *tmp) {
  if (o->kind == UQ_OPND_VGPR)
    return w->v[(o->reg + half) & 511];
  uint32_t x = sread(w, o, half);
  if (o->kind == UQ_OPND_CONST && half == 1 && !(o->value >> 32) &&
      o->is_float_const == 0 && (int64_t)o->value < 0)
    x = 0xFFFFFFFFu;
  for (int l = 0; l < 64; ++l)
    tmp[l] = x;
  return tmp;
}

// SDWA: the byte (sel 0..3) or word (4, 5) of x, zero- or sign-extended;
// sel 6 is the whole dword.
static inline uint32_t sdwa_sel(uint32_t x, int sel, int sext) {
  switch (sel) {
  case 0:
  case 1:
  case 2:
  case 3: {
    uint32_t b = (x >> (8 * sel)) & 0xFF;
    return sext ? (uint32_t)(int32_t)(int8_t)b : b;
  }
  case 4:
  case 5: {
    uint32_t h = (x >> (16 * (sel - 4))) & 0xFFFF;
    return sext ? (uint32_t)(int32_t)(int16_t)h : h;
  }
  default:
    return x;
  }
}

// A narrow load's value `v` (already extended) as the VGPR holds it: the
// whole register, or for the *_d16 forms 16 bits into the low (or, HI16,
// high) half with the other half kept.
static inline uint32_t d16_merge(const uq_sim_inst_t *in, uint32_t old,
                                 uint32_t v) {
  if (!(in->flags & UQ_OPF_D16))
    return v;
  return in->flags & UQ_OPF_HI16 ? (old & 0xFFFFu) | (v << 16)
                                 : (old & 0xFFFF0000u) | (v & 0xFFFFu);
}

// Adds `line` to the launch's set of lines read; -1 when the set cannot
// grow (out of memory).
int uq_sim_line_insert(uq_sim_ctx_t *c, uint64_t line);

// Counts the lines of a load of [addr, addr + n) in the launch's distinct
// lines read (a line in recent_lines is skipped without a lookup).
static inline uq_status_t count_lines(uq_sim_ctx_t *c, const uq_sim_inst_t *in,
                                      uint64_t addr, uint32_t n) {
  for (uint64_t line = addr >> 7; line <= (addr + n - 1) >> 7; ++line) {
    uint64_t *recent = &c->recent_lines[line & 1023];
    if (*recent == line)
      continue;
    *recent = line;
    if (uq_sim_line_insert(c, line) != 0)
      return fail(in, UQ_STATUS_RESOURCE_EXHAUSTED,
                  "out of memory counting the lines read");
  }
  return UQ_OK;
}

// The family handlers: each runs one decoded instruction of its class on a
// wave and returns UNIMPLEMENTED (with the text and address) for an op or a
// form it does not model.
uq_status_t uq_sim_exec_salu(uq_sim_wave_t *w, const uq_sim_inst_t *in);
uq_status_t uq_sim_exec_smem(uq_sim_ctx_t *c, uq_sim_wave_t *w,
                             const uq_sim_inst_t *in);
uq_status_t uq_sim_exec_valu(uq_sim_ctx_t *c, uq_sim_wave_t *w,
                             const uq_sim_inst_t *in);
uq_status_t uq_sim_exec_vcmp(uq_sim_wave_t *w, const uq_sim_inst_t *in);
uq_status_t uq_sim_exec_mfma(uq_sim_wave_t *w, const uq_sim_inst_t *in);
uq_status_t uq_sim_exec_lds(uq_sim_ctx_t *c, uq_sim_wave_t *w,
                            const uq_sim_inst_t *in);
uq_status_t uq_sim_exec_vmem(uq_sim_ctx_t *c, uq_sim_wave_t *w,
                             const uq_sim_inst_t *in);

#endif // UQ_SIM_EXEC_INTERNAL_H_
