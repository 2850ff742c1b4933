// LDS (DS) instructions: loads, stores, two-address forms, atomics,
// swizzles, permutes and the transposing read.
#include <math.h>
#include <string.h>

#include "sim/exec_internal.h"
#include "sim/math.h"

// ---------------------------------------------------------------------------
// LDS.

static uq_status_t lds_fault(const uq_sim_inst_t *in, uint64_t addr,
                             uint32_t size, uint32_t lds_size) {
  return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                        "LDS access of %u bytes at 0x%llx outside the %u-byte "
                        "allocation: '%s' at 0x%llx",
                        size, (unsigned long long)addr, lds_size, in->text,
                        (unsigned long long)in->pc);
}

uq_status_t uq_sim_exec_lds(uq_sim_ctx_t *c, uq_sim_wave_t *w,
                            const uq_sim_inst_t *in) {
  const uq_sim_opnd_t *o = in->o;
  uint64_t exec = exec_of(w);
  uq_sim_counters_t *cnt = c->cnt;
  int op = in->op;
  uint32_t tmp[64];
#define CHECK(addr, n)                                                         \
  do {                                                                         \
    if ((uint64_t)(addr) + (n) > c->lds_size)                                  \
      return lds_fault(in, (addr), (n), c->lds_size);                          \
    if ((uint32_t)((addr) + (n)) > cnt->lds_high_water)                        \
      cnt->lds_high_water = (uint32_t)((addr) + (n));                          \
  } while (0)
  switch (op) {
  case UQ_OP_DS_READ_B32:
  case UQ_OP_DS_READ_B64:
  case UQ_OP_DS_READ_B96:
  case UQ_OP_DS_READ_B128:
  case UQ_OP_DS_READ_U8:
  case UQ_OP_DS_READ_I8:
  case UQ_OP_DS_READ_U16:
  case UQ_OP_DS_READ_I16:
  case UQ_OP_DS_READ_U8_D16:
  case UQ_OP_DS_READ_U8_D16_HI:
  case UQ_OP_DS_READ_I8_D16:
  case UQ_OP_DS_READ_I8_D16_HI:
  case UQ_OP_DS_READ_U16_D16:
  case UQ_OP_DS_READ_U16_D16_HI: {
    const uint32_t *ad = vsrc(w, &o[1], 0, tmp);
    uint32_t n = in->width / 8u;
    for (int l = 0; l < 64; ++l) {
      if (!((exec >> l) & 1))
        continue;
      uint32_t addr = ad[l] + (uint32_t)in->offset;
      CHECK(addr, n);
      const uint8_t *p = c->lds + addr;
      if (n >= 4) {
        for (uint32_t i = 0; i < n / 4; ++i)
          memcpy(&w->v[(o[0].reg + i) & 511][l], p + 4 * i, 4);
      } else {
        uint32_t v = n == 1 ? p[0] : (uint32_t)p[0] | (uint32_t)p[1] << 8;
        if (in->type == UQ_OPT_I)
          v = n == 1 ? (uint32_t)(int32_t)(int8_t)v
                     : (uint32_t)(int32_t)(int16_t)v;
        uint32_t *dst = &w->v[o[0].reg & 511][l];
        *dst = d16_merge(in, *dst, v);
      }
      cnt->lds_bytes_read += n;
    }
    return UQ_OK;
  }
  case UQ_OP_DS_WRITE_B8:
  case UQ_OP_DS_WRITE_B16:
  case UQ_OP_DS_WRITE_B32:
  case UQ_OP_DS_WRITE_B64:
  case UQ_OP_DS_WRITE_B96:
  case UQ_OP_DS_WRITE_B128:
  case UQ_OP_DS_WRITE_B8_D16_HI:
  case UQ_OP_DS_WRITE_B16_D16_HI: {
    const uint32_t *ad = vsrc(w, &o[0], 0, tmp);
    uint32_t n = in->width / 8u;
    // The counters live in locals through the loop (the LDS stores could
    // alias them otherwise) and are stored back before any fault.
    const uint32_t *rows[4];
    for (uint32_t i = 0; i < 4; ++i)
      rows[i] = w->v[(o[1].reg + i) & 511];
    uint32_t hw = cnt->lds_high_water;
    uint64_t bytes = 0;
    for (int l = 0; l < 64; ++l) {
      if (!((exec >> l) & 1))
        continue;
      uint32_t addr = ad[l] + (uint32_t)in->offset;
      if ((uint64_t)addr + n > c->lds_size) {
        cnt->lds_high_water = hw;
        cnt->lds_bytes_written += bytes;
        return lds_fault(in, addr, n, c->lds_size);
      }
      if (addr + n > hw)
        hw = addr + n;
      uint8_t *p = c->lds + addr;
      if (n >= 4) {
        uint32_t v[4];
        for (uint32_t i = 0; i < n / 4; ++i)
          v[i] = rows[i][l];
        memcpy(p, v, n);
      } else {
        uint32_t v = rows[0][l] >> (in->flags & UQ_OPF_HI16 ? 16 : 0);
        memcpy(p, &v, n);
      }
      bytes += n;
    }
    cnt->lds_high_water = hw;
    cnt->lds_bytes_written += bytes;
    return UQ_OK;
  }
  case UQ_OP_DS_READ2_B32:
  case UQ_OP_DS_READ2_B64:
  case UQ_OP_DS_READ2ST64_B32:
  case UQ_OP_DS_READ2ST64_B64:
  case UQ_OP_DS_WRITE2_B32:
  case UQ_OP_DS_WRITE2_B64:
  case UQ_OP_DS_WRITE2ST64_B32:
  case UQ_OP_DS_WRITE2ST64_B64: {
    int st64 = (in->flags & UQ_OPF_ST64) != 0;
    int is_read = (in->flags & UQ_OPF_LOAD) != 0;
    uint32_t n = in->width / 8u, unit = n * (st64 ? 64 : 1);
    const uint32_t *ad = vsrc(w, &o[is_read ? 1 : 0], 0, tmp);
    for (int l = 0; l < 64; ++l) {
      if (!((exec >> l) & 1))
        continue;
      for (int k = 0; k < 2; ++k) {
        uint32_t addr = ad[l] + unit * (uint32_t)(k ? in->offset1 : in->offset);
        CHECK(addr, n);
        uint8_t *p = c->lds + addr;
        for (uint32_t i = 0; i < n / 4; ++i) {
          if (is_read)
            memcpy(&w->v[(o[0].reg + k * (n / 4) + i) & 511][l], p + 4 * i, 4);
          else
            memcpy(p + 4 * i, &w->v[(o[1 + k].reg + i) & 511][l], 4);
        }
        if (is_read)
          cnt->lds_bytes_read += n;
        else
          cnt->lds_bytes_written += n;
      }
    }
    return UQ_OK;
  }
  case UQ_OP_DS_ADD_U32:
  case UQ_OP_DS_ADD_F32:
  case UQ_OP_DS_MAX_F32:
  case UQ_OP_DS_MIN_F32: {
    const uint32_t *ad = vsrc(w, &o[0], 0, tmp);
    for (int l = 0; l < 64; ++l) {
      if (!((exec >> l) & 1))
        continue;
      uint32_t addr = ad[l] + (uint32_t)in->offset, v,
               x = w->v[o[1].reg & 511][l];
      CHECK(addr, 4);
      memcpy(&v, c->lds + addr, 4);
      if (op == UQ_OP_DS_ADD_U32)
        v += x;
      else if (op == UQ_OP_DS_ADD_F32)
        v = f2u(u2f(v) + u2f(x));
      else if (op == UQ_OP_DS_MAX_F32)
        v = f2u(fmaxf(u2f(v), u2f(x)));
      else
        v = f2u(fminf(u2f(v), u2f(x)));
      memcpy(c->lds + addr, &v, 4);
      cnt->lds_bytes_read += 4;
      cnt->lds_bytes_written += 4;
    }
    return UQ_OK;
  }
  case UQ_OP_DS_SWIZZLE_B32: {
    const uint32_t *s = w->v[o[1].reg & 511];
    uint32_t r[64];
    for (int l = 0; l < 64; ++l) {
      int sl = uq_sim_ds_swizzle_src_lane((uint32_t)in->offset & 0xFFFF, l);
      r[l] = sl >= 0 && sl < 64 && ((exec >> sl) & 1) ? s[sl] : 0;
    }
    uint32_t *d = w->v[o[0].reg & 511];
    for (int l = 0; l < 64; ++l)
      if ((exec >> l) & 1)
        d[l] = r[l];
    return UQ_OK;
  }
  case UQ_OP_DS_BPERMUTE_B32:
  case UQ_OP_DS_PERMUTE_B32: {
    const uint32_t *ad = w->v[o[1].reg & 511], *s = w->v[o[2].reg & 511];
    uint32_t r[64];
    memset(r, 0, sizeof(r));
    for (int l = 0; l < 64; ++l) {
      if (!((exec >> l) & 1))
        continue;
      int t = (int)(((ad[l] + (uint32_t)in->offset) >> 2) & 63);
      if (op == UQ_OP_DS_BPERMUTE_B32)
        r[l] = ((exec >> t) & 1) ? s[t] : 0;
      else
        r[t] = s[l];
    }
    uint32_t *d = w->v[o[0].reg & 511];
    for (int l = 0; l < 64; ++l)
      if ((exec >> l) & 1)
        d[l] = r[l];
    return UQ_OK;
  }
  case UQ_OP_DS_READ_B64_TR_B16: {
    if (exec != ~0ull)
      return fail(in, UQ_STATUS_FAILED_PRECONDITION,
                  "ds_read_b64_tr_b16 needs EXEC all ones");
    uint64_t raw[64], out[64];
    const uint32_t *ad = w->v[o[1].reg & 511];
    for (int l = 0; l < 64; ++l) {
      uint32_t addr = ad[l] + (uint32_t)in->offset;
      CHECK(addr, 8);
      memcpy(&raw[l], c->lds + addr, 8);
    }
    uq_sim_ds_read_b64_tr_b16(raw, out);
    for (int l = 0; l < 64; ++l) {
      w->v[o[0].reg & 511][l] = (uint32_t)out[l];
      w->v[(o[0].reg + 1) & 511][l] = (uint32_t)(out[l] >> 32);
    }
    cnt->lds_bytes_read += 64 * 8;
    return UQ_OK;
  }
  default:
    UNIMPL(in);
  }
#undef CHECK
}
