// Scalar memory: s_load_* and s_buffer_load_*.
#include <math.h>
#include <string.h>

#include "sim/exec_internal.h"

// ---------------------------------------------------------------------------
// SMEM.

uq_status_t uq_sim_exec_smem(uq_sim_ctx_t *c, uq_sim_wave_t *w,
                             const uq_sim_inst_t *in) {
  const uq_sim_opnd_t *d = &in->o[0];
  uint32_t n = d->count;
  // An immediate offset is signed (21 bits); an SGPR offset is unsigned.
  uint64_t off =
      in->o[2].kind == UQ_OPND_CONST ? in->o[2].value : sread(w, &in->o[2], 0);
  off += (uint64_t)(int64_t)(in->has_offset ? in->offset : 0);
  int is_buffer = (in->flags & UQ_OPF_BUFFER) != 0;
  uint32_t vals[16];
  if (is_buffer) {
    const uq_sim_opnd_t *r = &in->o[1];
    uint64_t base =
        (uint64_t)sread(w, r, 0) | (uint64_t)(sread(w, r, 1) & 0xFFFF) << 32;
    uint32_t stride = sread(w, r, 1) >> 16, num = sread(w, r, 2);
    uint64_t limit = stride == 0 ? num : (uint64_t)num * stride;
    for (uint32_t i = 0; i < n; ++i) {
      uint64_t o4 = (off & ~3ull) + 4ull * i;
      vals[i] = 0;
      if (o4 + 4 <= limit) {
        const uint8_t *p = mem_load_at(c, base + o4, 4);
        if (!p)
          return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                                "memory fault at 0x%llx: '%s' at 0x%llx",
                                (unsigned long long)(base + o4), in->text,
                                (unsigned long long)in->pc);
        memcpy(&vals[i], p, 4);
        uq_status_t ls = count_lines(c, in, base + o4, 4);
        if (ls)
          return ls;
      }
    }
  } else {
    uint64_t addr = (sread64(w, &in->o[1]) + off) & ~3ull;
    const uint8_t *p = mem_load_at(c, addr, 4u * n);
    if (!p)
      return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                            "memory fault: %u bytes at 0x%llx: '%s' at 0x%llx",
                            4 * n, (unsigned long long)addr, in->text,
                            (unsigned long long)in->pc);
    memcpy(vals, p, 4ull * n);
    uq_status_t ls = count_lines(c, in, addr, 4u * n);
    if (ls)
      return ls;
  }
  for (uint32_t i = 0; i < n; ++i)
    swrite(w, d, (int)i, vals[i]);
  c->cnt->scalar_bytes_read += 4ull * n;
  return UQ_OK;
}
