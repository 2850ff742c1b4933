// Vector memory: buffer (with range checks), global and flat loads and
// stores.
#include <math.h>
#include <string.h>

#include "sim/exec_internal.h"

// ---------------------------------------------------------------------------
// Vector memory: buffer, global, flat.

static uq_status_t mem_fault(const uq_sim_inst_t *in, uint64_t addr,
                             uint32_t n) {
  return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                        "memory fault: %u bytes at 0x%llx outside every "
                        "allocation: '%s' at 0x%llx",
                        n, (unsigned long long)addr, in->text,
                        (unsigned long long)in->pc);
}

uq_status_t uq_sim_exec_vmem(uq_sim_ctx_t *c, uq_sim_wave_t *w,
                             const uq_sim_inst_t *in) {
  const uq_sim_opnd_t *o = in->o;
  uint64_t exec = exec_of(w);
  int is_buffer = (in->flags & UQ_OPF_BUFFER) != 0;
  int is_global = (in->flags & UQ_OPF_GLOBAL) != 0;
  uint32_t n = in->width / 8u; // bytes per lane
  int is_store = (in->flags & UQ_OPF_STORE) != 0;
  int sext = in->type == UQ_OPT_I; // sbyte, sshort
  const uq_sim_opnd_t *data = is_store ? (is_buffer ? &o[0] : &o[1]) : &o[0];
  const uq_sim_opnd_t *vaddr = is_buffer ? &o[1] : (is_store ? &o[0] : &o[1]);
  uq_sim_counters_t *cnt = c->cnt;
  uint32_t tmp[64];

  uint64_t base = 0, num = 0, soff = 0;
  uint32_t stride = 0;
  int structured = 0;
  if (is_buffer) {
    const uq_sim_opnd_t *rs = &o[2];
    uint32_t w0 = sread(w, rs, 0), w1 = sread(w, rs, 1);
    base = (uint64_t)w0 | (uint64_t)(w1 & 0xFFFF) << 32;
    stride = (w1 >> 16) & 0x3FFF;
    num = sread(w, rs, 2);
    soff = sread(w, &o[3], 0);
    structured = in->idxen && stride != 0;
  }
  const uq_sim_opnd_t *saddr = (!is_buffer && is_global) ? &o[2] : NULL;
  uint64_t bytes_read = 0, bytes_written = 0;
  for (int l = 0; l < 64; ++l) {
    if (!((exec >> l) & 1))
      continue;
    uint64_t addr;
    uint64_t range_off = 0;
    int oob_all = 0;
    if (is_buffer) {
      uint32_t idx = 0, voff = 0;
      if (in->idxen)
        idx = w->v[vaddr->reg & 511][l];
      if (in->offen)
        voff = w->v[(vaddr->reg + (in->idxen ? 1 : 0)) & 511][l];
      range_off = (uint64_t)(uint32_t)in->offset + voff;
      addr = base + soff + range_off + (uint64_t)idx * stride;
      if (structured)
        oob_all = idx >= num;
    } else {
      if (saddr && saddr->kind != UQ_OPND_OFF)
        addr = sread64(w, saddr) + vsrc(w, vaddr, 0, tmp)[l];
      else
        addr = (uint64_t)w->v[(vaddr->reg + 1) & 511][l] << 32 |
               w->v[vaddr->reg & 511][l];
      addr += (uint64_t)(int64_t)in->offset;
    }
    uint32_t comps = n >= 4 ? n / 4 : 1, csize = n >= 4 ? 4 : n;
    if (csize == 4 &&
        (!is_buffer || (!oob_all && (structured || range_off + n <= num)))) {
      // Every dword in range and, usually, in one allocation: one lookup
      // for the lane (else the per-dword path below finds the fault).
      uint8_t *p = is_store ? mem_at(c, addr, n) : NULL;
      const uint8_t *q = is_store ? p : mem_load_at(c, addr, n);
      if (q) {
        for (uint32_t i = 0; i < comps; ++i) {
          uint32_t *reg = &w->v[(data->reg + i) & 511][l];
          if (is_store)
            memcpy(p + 4 * i, reg, 4);
          else
            memcpy(reg, q + 4 * i, 4);
        }
        if (is_store) {
          bytes_written += n;
        } else {
          bytes_read += n;
          uq_status_t ls = count_lines(c, in, addr, n);
          if (ls)
            return ls;
        }
        continue;
      }
    }
    for (uint32_t i = 0; i < comps; ++i) {
      uint64_t a = addr + (uint64_t)csize * i;
      int oob =
          is_buffer &&
          (oob_all || (!structured && range_off + (uint64_t)csize * i >= num));
      if (is_store) {
        if (oob)
          continue;
        uint8_t *p = mem_at(c, a, csize);
        if (!p)
          return mem_fault(in, a, csize);
        uint32_t v = w->v[(data->reg + i) & 511][l] >>
                     (in->flags & UQ_OPF_HI16 ? 16 : 0);
        if (csize == 4)
          memcpy(p, &v, 4);
        else if (csize == 2)
          memcpy(p, &v, 2);
        else
          *p = (uint8_t)v;
        bytes_written += csize;
      } else {
        uint32_t v = 0;
        if (!oob) {
          const uint8_t *p = mem_load_at(c, a, csize);
          if (!p)
            return mem_fault(in, a, csize);
          if (csize == 4)
            memcpy(&v, p, 4);
          else if (csize == 2)
            v = (uint32_t)p[0] | (uint32_t)p[1] << 8;
          else
            v = *p;
          bytes_read += csize;
          uq_status_t ls = count_lines(c, in, a, csize);
          if (ls)
            return ls;
        }
        if (sext)
          v = csize == 1 ? (uint32_t)(int32_t)(int8_t)v
                         : (uint32_t)(int32_t)(int16_t)v;
        uint32_t *dst = &w->v[(data->reg + i) & 511][l];
        *dst = d16_merge(in, *dst, v);
      }
    }
  }
  cnt->global_bytes_read += bytes_read;
  cnt->global_bytes_written += bytes_written;
  uq_sim_vm_issue(c, w, bytes_read);
  return UQ_OK;
}
