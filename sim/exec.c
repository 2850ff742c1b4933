// The executor's wave loop: runs the workgroups of one launch, wave by
// wave, handing each decoded instruction to its family's handler
// (exec_<family>.c). Semantics follow AMD's CDNA4 ISA guide.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/exec_internal.h"

// The default budget of a launch: the decode kernel runs ~10^8
// wave-instructions at the longest contexts tested; 2^32 is minutes.
#define UQ_SIM_LAUNCH_BUDGET (1ull << 32)

// a * b, or UINT64_MAX when it overflows.
static uint64_t mul_saturating(uint64_t a, uint64_t b) {
  uint64_t product;
  return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

// The per-wave cap and the launch budget (uq_sim_launch_t.loop_trips says
// how they are derived from the work the caller states).
static void set_budgets(uq_sim_ctx_t *c, const uq_sim_launch_t *L,
                        uint64_t waves) {
  c->inst_limit = UQ_SIM_WAVE_INST_LIMIT;
  c->budget = UQ_SIM_LAUNCH_BUDGET;
  if (L->loop_trips) {
    uint64_t slots = c->image_size / 4;
    c->inst_limit = mul_saturating(4 * slots, L->loop_trips == UINT64_MAX
                                                  ? UINT64_MAX
                                                  : L->loop_trips + 1);
    c->budget = mul_saturating(c->inst_limit, waves);
  }
  const char *limit = getenv("UQ_SIM_MAX_WAVE_INSTRUCTIONS");
  if (limit && strtoull(limit, NULL, 0) > 0)
    c->inst_limit = strtoull(limit, NULL, 0);
  if (L->max_instructions) {
    c->budget = L->max_instructions;
  } else {
    const char *budget = getenv("UQ_SIM_MAX_INSTRUCTIONS");
    if (budget && strtoull(budget, NULL, 0) > 0)
      c->budget = strtoull(budget, NULL, 0);
  }
}

// ---------------------------------------------------------------------------
// One wave until it ends or reaches a barrier.

// Runs one instruction; `*next` is the address of the one after it (a
// branch or s_setpc changes it).
static inline uq_status_t exec_one(uq_sim_ctx_t *c, uq_sim_wave_t *w,
                                   const uq_sim_inst_t *in, uint64_t *next) {
  switch (in->cls) {
  case UQ_SIM_CLASS_SALU: {
    uq_status_t st = uq_sim_exec_salu(w, in);
    *next = w->pc + in->size; // s_setpc/s_swappc adjust pc
    return st;
  }
  case UQ_SIM_CLASS_VALU:
    return (in->flags & UQ_OPF_CMP) ? uq_sim_exec_vcmp(w, in)
                                    : uq_sim_exec_valu(c, w, in);
  case UQ_SIM_CLASS_MFMA:
    return uq_sim_exec_mfma(w, in);
  case UQ_SIM_CLASS_SMEM:
    return uq_sim_exec_smem(c, w, in);
  case UQ_SIM_CLASS_VMEM:
    return uq_sim_exec_vmem(c, w, in);
  case UQ_SIM_CLASS_LDS:
    return uq_sim_exec_lds(c, w, in);
  case UQ_SIM_CLASS_BRANCH: {
    int take;
    switch (in->op) {
    case UQ_OP_S_BRANCH:
      take = 1;
      break;
    case UQ_OP_S_CBRANCH_SCC0:
      take = !w->scc;
      break;
    case UQ_OP_S_CBRANCH_SCC1:
      take = w->scc;
      break;
    case UQ_OP_S_CBRANCH_VCCZ:
      take = vcc_of(w) == 0;
      break;
    case UQ_OP_S_CBRANCH_VCCNZ:
      take = vcc_of(w) != 0;
      break;
    case UQ_OP_S_CBRANCH_EXECZ:
      take = exec_of(w) == 0;
      break;
    case UQ_OP_S_CBRANCH_EXECNZ:
      take = exec_of(w) != 0;
      break;
    default:
      UNIMPL(in);
    }
    if (take)
      *next = w->pc + 4 + (uint64_t)((int64_t)in->simm * 4);
    return UQ_OK;
  }
  default:
    switch (in->op) {
    case UQ_OP_S_ENDPGM:
      w->state = WAVE_DONE;
      return UQ_OK;
    case UQ_OP_S_BARRIER:
      w->state = WAVE_BARRIER;
      return UQ_OK;
    case UQ_OP_S_WAITCNT:
      // gfx9 simm16: vmcnt in [3:0] and [15:14] (lgkmcnt, expcnt: no
      // model; one wave at a time, every access is complete at issue).
      uq_sim_vm_wait(w, (in->simm & 0xF) | ((in->simm >> 10) & 0x30));
      return UQ_OK;
    case UQ_OP_S_WAITCNT_VSCNT:
    case UQ_OP_S_NOP:
    case UQ_OP_S_SETPRIO:
    case UQ_OP_S_SLEEP:
    case UQ_OP_S_DCACHE_WB:
    case UQ_OP_S_DCACHE_INV:
    case UQ_OP_S_ICACHE_INV:
    case UQ_OP_BUFFER_WBL2:
    case UQ_OP_BUFFER_INV:
      return UQ_OK; // one wave at a time: ordering and caches are moot
    default:
      UNIMPL(in);
    }
  }
}

// One wave until it ends or reaches a barrier.
static uq_status_t run_wave(uq_sim_ctx_t *c, uq_sim_wave_t *w) {
  uq_sim_counters_t *cnt = c->cnt;
  for (;;) {
    const uq_sim_inst_t *in = uq_sim_decoder_cached(c->decoder, w->pc);
    if (!in)
      UQ_RETURN_IF_ERROR(uq_sim_decoder_get(c->decoder, w->pc, &in),
                         "while fetching");
    ++cnt->by_class[in->cls];
    if (c->trace)
      fprintf(stderr,
              "uq-sim: wg (%u,%u,%u) wave %u exec 0x%016llx 0x%llx: %s\n",
              c->trace_wg[0], c->trace_wg[1], c->trace_wg[2], c->trace_wave,
              (unsigned long long)((uint64_t)w->s[127] << 32 | w->s[126]),
              (unsigned long long)w->pc, in->text);
    if (++w->executed > c->inst_limit)
      return UQ_MAKE_STATUS(
          UQ_STATUS_RESOURCE_EXHAUSTED,
          "the wave ran past its cap of %llu wave-instructions (endless "
          "loop? the cap follows the launch's loop_trips; "
          "UQ_SIM_MAX_WAVE_INSTRUCTIONS overrides) at '%s' at 0x%llx",
          (unsigned long long)c->inst_limit, in->text,
          (unsigned long long)in->pc);
    if (c->budget == 0)
      return UQ_MAKE_STATUS(
          UQ_STATUS_RESOURCE_EXHAUSTED,
          "the launch ran out of its budget of %llu wave-instructions "
          "(endless loop? raise max_instructions or "
          "UQ_SIM_MAX_INSTRUCTIONS) at '%s' at 0x%llx",
          (unsigned long long)cnt->wave_instructions, in->text,
          (unsigned long long)in->pc);
    --c->budget;
    uint64_t next = w->pc + in->size;
    uq_status_t st = exec_one(c, w, in, &next);
    if (st)
      return st;
    ++cnt->wave_instructions;
    w->pc = next;
    if (w->state != WAVE_RUN)
      return UQ_OK;
  }
}

void uq_sim_vm_issue(uq_sim_ctx_t *c, uq_sim_wave_t *w, uint64_t bytes) {
  // A 64th outstanding operation would overflow vmcnt's 6 bits: the
  // hardware stalls the issue until the oldest retires.
  if (w->vm_count == 64)
    uq_sim_vm_wait(w, 63);
  w->vm_bytes[(w->vm_head + w->vm_count++) & 63] = (uint32_t)bytes;
  w->vm_inflight += bytes;
  if (w->vm_inflight > c->cnt->vmem_inflight_peak)
    c->cnt->vmem_inflight_peak = w->vm_inflight;
}

void uq_sim_vm_wait(uq_sim_wave_t *w, uint32_t vmcnt) {
  while (w->vm_count > vmcnt) {
    w->vm_inflight -= w->vm_bytes[w->vm_head];
    w->vm_head = (uint8_t)((w->vm_head + 1) & 63);
    --w->vm_count;
  }
}

int uq_sim_line_insert(uq_sim_ctx_t *c, uint64_t line) {
  if (c->line_count * 2 >= (c->lines ? 1ull << c->line_bits : 0)) {
    // Grow (or create) at half full and rehash.
    uint32_t bits = c->lines ? c->line_bits + 1 : 12;
    uint64_t *n = calloc(1ull << bits, sizeof(*n));
    if (!n)
      return -1;
    for (uint64_t i = 0; c->lines && i < (1ull << c->line_bits); ++i) {
      uint64_t v = c->lines[i];
      if (!v)
        continue;
      uint64_t h = (v * 0x9E3779B97F4A7C15ull) >> (64 - bits);
      while (n[h])
        h = (h + 1) & ((1ull << bits) - 1);
      n[h] = v;
    }
    free(c->lines);
    c->lines = n;
    c->line_bits = bits;
  }
  uint64_t mask = (1ull << c->line_bits) - 1;
  uint64_t h = (line * 0x9E3779B97F4A7C15ull) >> (64 - c->line_bits);
  while (c->lines[h]) {
    if (c->lines[h] == line)
      return 0;
    h = (h + 1) & mask;
  }
  c->lines[h] = line;
  ++c->line_count;
  ++c->cnt->global_lines_read;
  return 0;
}

uq_status_t uq_sim_exec_probe(const uq_sim_inst_t *in) {
  // A scratch wave and launch with nothing mapped: memory ops fault, which
  // is not UNIMPLEMENTED.
  uq_sim_wave_t *w = calloc(1, sizeof(*w));
  uint8_t *lds = calloc(1, 65536);
  uq_sim_t *sim = NULL;
  uq_status_t st = uq_sim_create(&sim);
  if (!st && (!w || !lds))
    st = UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!st) {
    uq_sim_counters_t cnt;
    memset(&cnt, 0, sizeof(cnt));
    uq_sim_ctx_t c;
    memset(&c, 0, sizeof(c));
    c.sim = sim;
    c.cnt = &cnt;
    c.lds = lds;
    c.lds_size = 65536;
    set_exec(w, ~0ull);
    w->mode = 0;
    w->pc = in->pc;
    uint64_t next = in->pc + in->size;
    st = exec_one(&c, w, in, &next);
    free(c.lines);
  }
  uq_sim_destroy(sim);
  free(lds);
  free(w);
  return st;
}

// The wave state right after dispatch (LLVM AMDGPUUsage, "Initial Kernel
// Execution State").
static uq_status_t init_wave(uq_sim_wave_t *w, const uq_sim_kernel_setup_t *k,
                             const uq_sim_launch_t *L, uint32_t wave_index,
                             const uint32_t wg_id[3], uint64_t kernarg_addr,
                             uint64_t dispatch_addr, uint64_t queue_addr,
                             uint32_t wg_items) {
  memset(w->s, 0, sizeof(w->s));
  w->vm_head = w->vm_count = 0;
  w->vm_inflight = 0;
  w->scc = 0;
  w->state = WAVE_RUN;
  w->executed = 0;
  // With kernel arguments preloaded into SGPRs, firmware that supports it
  // starts 256 bytes into the code, past the compatibility prologue.
  w->pc = k->entry + ((k->kernarg_preload & 0x7F) ? 256 : 0);
  uint32_t sg = 0;
  uint16_t props = k->code_properties;
  if (props & 1) { // private segment buffer: no scratch is modelled
    sg += 4;
  }
  if (props & 2) {
    w->s[sg++] = (uint32_t)dispatch_addr;
    w->s[sg++] = (uint32_t)(dispatch_addr >> 32);
  }
  if (props & 4) {
    w->s[sg++] = (uint32_t)queue_addr;
    w->s[sg++] = (uint32_t)(queue_addr >> 32);
  }
  if (props & 8) {
    w->s[sg++] = (uint32_t)kernarg_addr;
    w->s[sg++] = (uint32_t)(kernarg_addr >> 32);
  }
  if (props & 16) { // dispatch id
    sg += 2;
  }
  if (props & 32) // flat scratch init
    sg += 2;
  if (props & 64) // private segment size
    sg += 1;
  // Kernel arguments preloaded into SGPRs (gfx950).
  uint32_t preload_len = k->kernarg_preload & 0x7F;
  uint32_t preload_off = (k->kernarg_preload >> 7) & 0x1FF;
  if (preload_len) {
    const uint8_t *ka = L->kernargs;
    for (uint32_t i = 0; i < preload_len && sg < 104; ++i) {
      uint32_t v = 0;
      size_t at = 4 * ((size_t)preload_off + i);
      if (at + 4 <= L->kernarg_size)
        memcpy(&v, ka + at, 4);
      w->s[sg++] = v;
    }
  }
  uint32_t user = (k->rsrc2 >> 1) & 0x1F;
  if (user > sg)
    sg = user;
  if (k->rsrc2 & (1u << 7))
    w->s[sg++] = wg_id[0];
  if (k->rsrc2 & (1u << 8))
    w->s[sg++] = wg_id[1];
  if (k->rsrc2 & (1u << 9))
    w->s[sg++] = wg_id[2];
  if (k->rsrc2 & (1u << 10))
    w->s[sg++] = 0; // workgroup info
  if (k->rsrc2 & 1)
    w->s[sg++] = 0; // private segment wave byte offset
  // EXEC: the work-items that exist in this wave.
  uint32_t first = wave_index * 64;
  uint32_t count = wg_items - first < 64 ? wg_items - first : 64;
  set_exec(w, count == 64 ? ~0ull : ((1ull << count) - 1));
  w->s[124] = 0xFFFFFFFFu; // m0
  // Work-item ids packed into v0.
  for (uint32_t l = 0; l < 64; ++l) {
    uint32_t t = first + l;
    uint32_t x = t % L->workgroup[0],
             y = (t / L->workgroup[0]) % L->workgroup[1],
             z = t / (L->workgroup[0] * L->workgroup[1]);
    w->v[0][l] = l < count ? (x | y << 10 | z << 20) : 0;
  }
  // MODE from COMPUTE_PGM_RSRC1: round [15:12], denorm [19:16],
  // dx10_clamp 21, ieee 23, fp16_ovfl 26.
  uint32_t r1 = k->rsrc1;
  w->mode = ((r1 >> 12) & 0xF) | ((r1 >> 16) & 0xF) << 4 |
            ((r1 >> 21) & 1) << 8 | ((r1 >> 23) & 1) << 9 |
            ((r1 >> 26) & 1) << 23;
  return UQ_OK;
}

uq_status_t uq_sim_execute(uq_sim_t *sim, uq_sim_decoder_t *decoder,
                           const uq_sim_kernel_setup_t *k,
                           const uq_sim_launch_t *L,
                           uq_sim_counters_t *counters) {
  uq_sim_ctx_t ctx;
  memset(&ctx, 0, sizeof(ctx));
  memset(counters, 0, sizeof(*counters));
  uint64_t items =
      (uint64_t)L->workgroup[0] * L->workgroup[1] * L->workgroup[2];
  if (items == 0 || items > 1024 || L->grid[0] == 0 || L->grid[1] == 0 ||
      L->grid[2] == 0)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "bad launch shape: grid %ux%ux%u, workgroup %ux%ux%u",
                          L->grid[0], L->grid[1], L->grid[2], L->workgroup[0],
                          L->workgroup[1], L->workgroup[2]);
  uint32_t nwaves = (uint32_t)((items + 63) / 64);
  if (nwaves > UQ_SIM_MAX_WAVES)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "%u waves per workgroup (at most %d)", nwaves,
                          UQ_SIM_MAX_WAVES);
  uint64_t lds_size = (uint64_t)k->group_segment_size + L->dynamic_lds;
  if (lds_size > UQ_SIM_MAX_LDS)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "LDS of %llu bytes exceeds %u",
                          (unsigned long long)lds_size, UQ_SIM_MAX_LDS);
  if (k->private_segment_size)
    return UQ_MAKE_STATUS(UQ_STATUS_UNIMPLEMENTED,
                          "the kernel uses %u bytes of scratch per work-item; "
                          "the simulator models none",
                          k->private_segment_size);
  uq_status_t st = UQ_OK;
  uint64_t kernarg_addr = 0, dispatch_addr = 0, queue_addr = 0;
  uq_sim_wave_t *waves = NULL;
  uint8_t *lds = NULL;
  // The kernarg block is rounded up to 16 bytes, as runtimes hand it out:
  // LLVM merges the last scalar loads into one s_load_dwordx4 that may read
  // up to 12 bytes past kernarg_segment_size (e.g. three dwords at 88..100).
  // The kernel never uses what the padding holds.
  uint64_t kernarg_block = ((uint64_t)L->kernarg_size + 15) & ~(uint64_t)15;
  st = uq_sim_alloc(sim, kernarg_block ? kernarg_block : 16, &kernarg_addr);
  if (st)
    goto done;
  if (L->kernarg_size) {
    st = uq_sim_write(sim, kernarg_addr, L->kernargs, L->kernarg_size);
    if (st)
      goto done;
  }
  st = uq_sim_alloc(sim, 64, &dispatch_addr);
  if (st)
    goto done;
  {
    // hsa_kernel_dispatch_packet_t.
    uint8_t pk[64];
    memset(pk, 0, sizeof(pk));
    uint16_t setup = L->grid[2] > 1 || L->workgroup[2] > 1   ? 3
                     : L->grid[1] > 1 || L->workgroup[1] > 1 ? 2
                                                             : 1;
    uint16_t wg16[3] = {(uint16_t)L->workgroup[0], (uint16_t)L->workgroup[1],
                        (uint16_t)L->workgroup[2]};
    uint32_t gs[3];
    for (int i = 0; i < 3; ++i)
      gs[i] = L->grid[i] * L->workgroup[i];
    uint32_t grp = (uint32_t)lds_size, priv = 0;
    memcpy(pk + 2, &setup, 2);
    memcpy(pk + 4, wg16, 6);
    memcpy(pk + 12, gs, 12);
    memcpy(pk + 24, &priv, 4);
    memcpy(pk + 28, &grp, 4);
    memcpy(pk + 40, &kernarg_addr, 8);
    st = uq_sim_write(sim, dispatch_addr, pk, 64);
    if (st)
      goto done;
  }
  st = uq_sim_alloc(sim, 256, &queue_addr);
  if (st)
    goto done;
  {
    uint8_t zero[256] = {0};
    st = uq_sim_write(sim, queue_addr, zero, 256);
    if (st)
      goto done;
  }
  waves = malloc(sizeof(uq_sim_wave_t) * nwaves);
  lds = calloc(1, lds_size ? lds_size : 1);
  if (!waves || !lds) {
    st = UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  memset(waves, 0, sizeof(uq_sim_wave_t) * nwaves);
  ctx.sim = sim;
  ctx.decoder = decoder;
  ctx.image = decoder->image;
  ctx.image_size = decoder->image_size;
  ctx.cnt = counters;
  ctx.lds = lds;
  ctx.lds_size = (uint32_t)lds_size;
  const char *trace = getenv("UQ_SIM_TRACE");
  ctx.trace = trace && trace[0] && strcmp(trace, "0") != 0;
  set_budgets(&ctx, L,
              mul_saturating((uint64_t)L->grid[0] * L->grid[1],
                             (uint64_t)L->grid[2] * nwaves));
  for (uint32_t gz = 0; gz < L->grid[2]; ++gz) {
    for (uint32_t gy = 0; gy < L->grid[1]; ++gy) {
      for (uint32_t gx = 0; gx < L->grid[0]; ++gx) {
        uint32_t id[3] = {gx, gy, gz};
        memset(lds, 0, lds_size ? lds_size : 1);
        for (uint32_t i = 0; i < nwaves; ++i)
          init_wave(&waves[i], k, L, i, id, kernarg_addr, dispatch_addr,
                    queue_addr, (uint32_t)items);
        ++counters->workgroups;
        counters->waves += nwaves;
        for (;;) {
          int running = 0, waiting = 0;
          for (uint32_t i = 0; i < nwaves; ++i) {
            if (waves[i].state != WAVE_RUN)
              continue;
            ctx.trace_wg[0] = gx;
            ctx.trace_wg[1] = gy;
            ctx.trace_wg[2] = gz;
            ctx.trace_wave = i;
            st = run_wave(&ctx, &waves[i]);
            if (st) {
              st = uq_status_annotate(st, "workgroup (%u,%u,%u) wave %u", gx,
                                      gy, gz, i);
              goto done;
            }
          }
          for (uint32_t i = 0; i < nwaves; ++i) {
            running += waves[i].state == WAVE_RUN;
            waiting += waves[i].state == WAVE_BARRIER;
          }
          if (running == 0 && waiting == 0)
            break;
          // Every live wave reached the barrier: release them.
          for (uint32_t i = 0; i < nwaves; ++i)
            if (waves[i].state == WAVE_BARRIER)
              waves[i].state = WAVE_RUN;
        }
      }
    }
  }
done:
  free(ctx.lines);
  free(waves);
  free(lds);
  if (kernarg_addr)
    uq_status_free(uq_sim_free(sim, kernarg_addr));
  if (dispatch_addr)
    uq_status_free(uq_sim_free(sim, dispatch_addr));
  if (queue_addr)
    uq_status_free(uq_sim_free(sim, queue_addr));
  return st;
}
