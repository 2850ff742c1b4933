// uq-sim: runs one kernel of a gfx950 code object in the simulator and
// prints the launch's counters.
//
//   uq-sim FILE.hsaco --list
//   uq-sim FILE.hsaco [--kernel NAME] --grid X,Y,Z --block X,Y,Z
//          [--lds BYTES] ARG... [--dump N:FILE]...
//   ARG: --buffer SIZE[:INIT_FILE] | --i32 V | --u32 V | --i64 V | --f32 V
//
// The ARGs fill the kernel's explicit arguments in order and are checked
// against the metadata (a buffer for each global_buffer argument, a value of
// the argument's size for each by_value one); hidden arguments (block
// counts, group sizes) are filled in. Buffers start zeroed, then take the
// init file's bytes. `--dump N:FILE` writes buffer argument N (its index
// among the explicit arguments) to FILE after the launch.
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj/codeobj.h"
#include "sim/sim.h"
#include "tools/common/file_util.h"
#include "tools/common/stdout_check.h"

#define MAX_ARGS 64
#define MAX_DUMPS 16

typedef enum { ARG_BUFFER, ARG_I32, ARG_U32, ARG_I64, ARG_F32 } arg_kind_t;

typedef struct cli_arg_s {
  arg_kind_t kind;
  const char *text;
  uint64_t size; // buffers
  const char *init;
  uint64_t address;
  union {
    int32_t i32;
    uint32_t u32;
    int64_t i64;
    float f32;
  } v;
} cli_arg_t;

typedef struct cli_s {
  const char *path;
  const char *kernel;
  int list;
  int have_grid, have_block;
  uint32_t grid[3], block[3];
  uint32_t lds;
  cli_arg_t args[MAX_ARGS];
  int nargs;
  struct {
    int index;
    const char *path;
  } dumps[MAX_DUMPS];
  int ndumps;
} cli_t;

static int fail(const char *fmt, const char *a) {
  fprintf(stderr, "uq-sim: error: ");
  fprintf(stderr, fmt, a);
  fprintf(stderr, "\n");
  return 1;
}

static int fail_status(uq_status_t st) {
  fprintf(stderr, "uq-sim: error: %s\n", uq_status_message(st));
  uq_status_free(st);
  return 1;
}

static int parse_u64(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || end == s || *end || s[0] == '-')
    return -1;
  *out = v;
  return 0;
}

static int parse_dims(const char *s, uint32_t out[3]) {
  out[0] = out[1] = out[2] = 1;
  int n = 0;
  const char *p = s;
  for (;;) {
    char num[24];
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    uint64_t v;
    if (n == 3 || len == 0 || len >= sizeof(num))
      return -1;
    memcpy(num, p, len);
    num[len] = 0;
    if (parse_u64(num, &v) || v == 0 || v > 0xFFFFFFFFu)
      return -1;
    out[n++] = (uint32_t)v;
    if (!comma)
      return 0;
    p = comma + 1;
  }
}

static int parse_cli(int argc, char **argv, cli_t *c) {
  memset(c, 0, sizeof(*c));
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_VALUE()                                                           \
  do {                                                                         \
    if (!val)                                                                  \
      return fail("%s needs a value", a);                                      \
    ++i;                                                                       \
  } while (0)
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      printf("usage: uq-sim FILE.hsaco --list\n"
             "       uq-sim FILE.hsaco [--kernel NAME] --grid X[,Y[,Z]] "
             "--block X[,Y[,Z]]\n"
             "              [--lds BYTES] ARG... [--dump N:FILE]...\n"
             "  ARG: --buffer SIZE[:INIT_FILE] | --i32 V | --u32 V | --i64 V "
             "| --f32 V,\n"
             "  one per explicit kernel argument, in order. --dump N writes "
             "buffer argument N.\n"
             "  UQ_SIM_TRACE=1 prints every executed instruction.\n");
      exit(0);
    } else if (strcmp(a, "--list") == 0) {
      c->list = 1;
    } else if (strcmp(a, "--kernel") == 0) {
      NEED_VALUE();
      c->kernel = val;
    } else if (strcmp(a, "--grid") == 0) {
      NEED_VALUE();
      if (parse_dims(val, c->grid))
        return fail("bad --grid '%s' (want X[,Y[,Z]], each >= 1)", val);
      c->have_grid = 1;
    } else if (strcmp(a, "--block") == 0) {
      NEED_VALUE();
      if (parse_dims(val, c->block))
        return fail("bad --block '%s' (want X[,Y[,Z]], each >= 1)", val);
      c->have_block = 1;
    } else if (strcmp(a, "--lds") == 0) {
      NEED_VALUE();
      uint64_t v;
      if (parse_u64(val, &v) || v > 0xFFFFFFFFu)
        return fail("bad --lds '%s'", val);
      c->lds = (uint32_t)v;
    } else if (strcmp(a, "--dump") == 0) {
      NEED_VALUE();
      if (c->ndumps == MAX_DUMPS)
        return fail("too many --dump flags%s", "");
      const char *colon = strchr(val, ':');
      char num[32];
      uint64_t idx;
      if (!colon || colon == val || (size_t)(colon - val) >= sizeof(num) ||
          !colon[1])
        return fail("bad --dump '%s' (want N:FILE)", val);
      memcpy(num, val, (size_t)(colon - val));
      num[colon - val] = 0;
      if (parse_u64(num, &idx) || idx >= MAX_ARGS)
        return fail("bad --dump '%s' (want N:FILE)", val);
      c->dumps[c->ndumps].index = (int)idx;
      c->dumps[c->ndumps].path = colon + 1;
      ++c->ndumps;
    } else if (strcmp(a, "--buffer") == 0 || strcmp(a, "--i32") == 0 ||
               strcmp(a, "--u32") == 0 || strcmp(a, "--i64") == 0 ||
               strcmp(a, "--f32") == 0) {
      NEED_VALUE();
      if (c->nargs == MAX_ARGS)
        return fail("too many kernel arguments%s", "");
      cli_arg_t *g = &c->args[c->nargs++];
      g->text = val;
      char *end;
      errno = 0;
      if (strcmp(a, "--buffer") == 0) {
        g->kind = ARG_BUFFER;
        char num[32];
        const char *colon = strchr(val, ':');
        size_t len = colon ? (size_t)(colon - val) : strlen(val);
        if (len == 0 || len >= sizeof(num))
          return fail("bad --buffer '%s' (want SIZE[:INIT_FILE])", val);
        memcpy(num, val, len);
        num[len] = 0;
        if (parse_u64(num, &g->size) || g->size == 0 || g->size > (1ull << 36))
          return fail("bad --buffer size in '%s'", val);
        g->init = colon && colon[1] ? colon + 1 : NULL;
      } else if (strcmp(a, "--i32") == 0) {
        g->kind = ARG_I32;
        long long v = strtoll(val, &end, 0);
        if (errno || *end || end == val || v < INT32_MIN || v > INT32_MAX)
          return fail("bad --i32 '%s'", val);
        g->v.i32 = (int32_t)v;
      } else if (strcmp(a, "--u32") == 0) {
        g->kind = ARG_U32;
        uint64_t v;
        if (parse_u64(val, &v) || v > 0xFFFFFFFFu)
          return fail("bad --u32 '%s'", val);
        g->v.u32 = (uint32_t)v;
      } else if (strcmp(a, "--i64") == 0) {
        g->kind = ARG_I64;
        long long v = strtoll(val, &end, 0);
        if (errno || *end || end == val)
          return fail("bad --i64 '%s'", val);
        g->v.i64 = v;
      } else {
        g->kind = ARG_F32;
        float v = strtof(val, &end);
        if (errno || *end || end == val)
          return fail("bad --f32 '%s'", val);
        g->v.f32 = v;
      }
    } else if (a[0] == '-' && a[1]) {
      return fail("unknown flag '%s'", a);
    } else if (!c->path) {
      c->path = a;
    } else {
      return fail("unexpected argument '%s'", a);
    }
#undef NEED_VALUE
  }
  if (!c->path)
    return fail("no code object given%s", "");
  if (!c->list && (!c->have_grid || !c->have_block))
    return fail("--grid and --block are required%s", "");
  return 0;
}

static void list_kernels(const uq_code_object_t *co) {
  printf("target %s, code object v%u\n", uq_code_object_target(co),
         uq_code_object_version(co));
  for (size_t i = 0; i < uq_code_object_kernel_count(co); ++i) {
    const uq_kernel_info_t *k = uq_code_object_kernel_at(co, i);
    printf("kernel %s: kernarg %u bytes, lds %u, sgpr %u, vgpr %u, agpr %u, "
           "scratch %u, max workgroup %u\n",
           k->name, k->kernarg_segment_size, k->group_segment_fixed_size,
           k->sgpr_count, k->vgpr_count, k->agpr_count,
           k->private_segment_fixed_size, k->max_flat_workgroup_size);
    for (uint32_t a = 0; a < k->arg_count; ++a)
      printf("  arg %u: %-24s offset %3u size %2u %s\n", a,
             k->args[a].name[0] ? k->args[a].name : "-", k->args[a].offset,
             k->args[a].size, k->args[a].value_kind);
  }
}

static void put(uint8_t *ka, size_t ka_size, uint32_t off, const void *v,
                size_t n) {
  if (off + n <= ka_size)
    memcpy(ka + off, v, n);
}

static void fill_hidden(uint8_t *ka, size_t ka_size, const uq_kernarg_t *a,
                        const cli_t *c) {
  const char *vk = a->value_kind;
  uint64_t v = 0;
  // The axis letter of hidden_block_count_[xyz] / hidden_group_size_[xyz];
  // any other suffix is a kind this tool does not know and stays 0.
  int axis = -1;
  if (strncmp(vk, "hidden_block_count_", 19) == 0 && vk[19] >= 'x' &&
      vk[19] <= 'z' && !vk[20])
    axis = vk[19] - 'x';
  else if (strncmp(vk, "hidden_group_size_", 18) == 0 && vk[18] >= 'x' &&
           vk[18] <= 'z' && !vk[19])
    axis = 3 + vk[18] - 'x';
  if (axis >= 3)
    v = c->block[axis - 3];
  else if (axis >= 0)
    v = c->grid[axis];
  else if (strcmp(vk, "hidden_grid_dims") == 0)
    v = c->grid[2] > 1 || c->block[2] > 1   ? 3
        : c->grid[1] > 1 || c->block[1] > 1 ? 2
                                            : 1;
  else if (strcmp(vk, "hidden_dynamic_lds_size") == 0)
    v = c->lds;
  put(ka, ka_size, a->offset, &v, a->size < 8 ? a->size : 8);
}

static int run(cli_t *c, uq_sim_t *sim, uq_sim_program_t *prog) {
  const uq_code_object_t *co = uq_sim_program_code_object(prog);
  const uq_kernel_info_t *k = NULL;
  if (!c->kernel) {
    if (uq_code_object_kernel_count(co) != 1)
      return fail("the code object has several kernels: pick one with "
                  "--kernel%s",
                  "");
    k = uq_code_object_kernel_at(co, 0);
  } else {
    uq_status_t st = uq_code_object_find_kernel(co, c->kernel, &k);
    if (st)
      return fail_status(st);
  }
  size_t ka_size = k->kernarg_segment_size;
  uint8_t *ka = calloc(1, ka_size ? ka_size : 1);
  int explicit_count = 0, rc = 0;
  for (uint32_t i = 0; i < k->arg_count; ++i) {
    const uq_kernarg_t *a = &k->args[i];
    if (a->kind == UQ_KERNARG_HIDDEN) {
      fill_hidden(ka, ka_size, a, c);
      continue;
    }
    int idx = explicit_count++;
    if (idx >= c->nargs) {
      fprintf(stderr,
              "uq-sim: error: kernel '%s' takes more arguments: missing "
              "argument %d ('%s', %s, %u bytes)\n",
              k->name, idx, a->name, a->value_kind, a->size);
      rc = 1;
      goto done;
    }
    cli_arg_t *g = &c->args[idx];
    if (a->kind == UQ_KERNARG_GLOBAL_BUFFER) {
      if (g->kind != ARG_BUFFER || a->size != 8) {
        fprintf(stderr,
                "uq-sim: error: argument %d ('%s') is a global buffer: "
                "give --buffer\n",
                idx, a->name);
        rc = 1;
        goto done;
      }
      uq_status_t st = uq_sim_alloc(sim, g->size, &g->address);
      uint8_t *zero = st ? NULL : calloc(1, g->size);
      if (!st)
        st = uq_sim_write(sim, g->address, zero, g->size);
      free(zero);
      if (!st && g->init) {
        char *data = NULL;
        size_t size = 0;
        st = uq_file_read(g->init, &data, &size);
        if (!st && size > g->size)
          st = UQ_MAKE_STATUS(
              UQ_STATUS_INVALID_ARGUMENT,
              "'%s' has %zu bytes, more than the buffer's %" PRIu64, g->init,
              size, g->size);
        if (!st)
          st = uq_sim_write(sim, g->address, data, size);
        free(data);
      }
      if (st) {
        rc = fail_status(st);
        goto done;
      }
      put(ka, ka_size, a->offset, &g->address, 8);
    } else {
      size_t want = g->kind == ARG_I64 ? 8 : g->kind == ARG_BUFFER ? 0 : 4;
      if (a->kind != UQ_KERNARG_BY_VALUE || want != a->size) {
        fprintf(stderr,
                "uq-sim: error: argument %d ('%s') is %s of %u bytes; '%s' "
                "does not fit it\n",
                idx, a->name, a->value_kind, a->size, g->text);
        rc = 1;
        goto done;
      }
      put(ka, ka_size, a->offset, &g->v, want);
    }
  }
  if (explicit_count != c->nargs) {
    fprintf(stderr, "uq-sim: error: kernel '%s' takes %d arguments, got %d\n",
            k->name, explicit_count, c->nargs);
    rc = 1;
    goto done;
  }
  for (int d = 0; d < c->ndumps; ++d) {
    int i = c->dumps[d].index;
    if (i >= c->nargs || c->args[i].kind != ARG_BUFFER) {
      fprintf(stderr, "uq-sim: error: --dump %d: argument %d is not a buffer\n",
              i, i);
      rc = 1;
      goto done;
    }
  }
  uq_sim_launch_t L = {{c->grid[0], c->grid[1], c->grid[2]},
                       {c->block[0], c->block[1], c->block[2]},
                       ka,
                       ka_size,
                       c->lds,
                       0,
                       0};
  uq_sim_counters_t cnt;
  uq_status_t st = uq_sim_launch(sim, prog, k->name, &L, &cnt);
  if (st) {
    rc = fail_status(st);
    goto done;
  }
  static const char *names[UQ_SIM_CLASS_COUNT] = {
      "salu", "valu", "smem", "vmem", "lds", "mfma", "branch", "other"};
  printf("kernel %s: %" PRIu64 " workgroups, %" PRIu64 " waves\n", k->name,
         cnt.workgroups, cnt.waves);
  printf("wave_instructions %" PRIu64 "\n", cnt.wave_instructions);
  for (int i = 0; i < UQ_SIM_CLASS_COUNT; ++i)
    printf("  %-7s %" PRIu64 "\n", names[i], cnt.by_class[i]);
  printf("global_bytes_read %" PRIu64 "\n", cnt.global_bytes_read);
  printf("global_bytes_written %" PRIu64 "\n", cnt.global_bytes_written);
  printf("scalar_bytes_read %" PRIu64 "\n", cnt.scalar_bytes_read);
  printf("lds_bytes_read %" PRIu64 "\n", cnt.lds_bytes_read);
  printf("lds_bytes_written %" PRIu64 "\n", cnt.lds_bytes_written);
  printf("global_lines_read %" PRIu64 "\n", cnt.global_lines_read);
  printf("vmem_inflight_peak %" PRIu64 "\n", cnt.vmem_inflight_peak);
  printf("lds_high_water %u\n", cnt.lds_high_water);
  for (int d = 0; d < c->ndumps; ++d) {
    cli_arg_t *g = &c->args[c->dumps[d].index];
    uint8_t *buf = malloc(g->size);
    st = buf ? uq_sim_read(sim, g->address, buf, g->size)
             : UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    if (!st)
      st = uq_file_write_atomic(c->dumps[d].path, buf, g->size);
    free(buf);
    if (st) {
      rc = fail_status(st);
      goto done;
    }
  }
done:
  free(ka);
  return rc;
}

int main(int argc, char **argv) {
  uq_tool_check_stdout_at_exit("uq-sim");
  cli_t c;
  if (parse_cli(argc, argv, &c))
    return 1;
  char *data = NULL;
  size_t size = 0;
  uq_status_t st = uq_file_read(c.path, &data, &size);
  if (st)
    return fail_status(st);
  uq_sim_t *sim = NULL;
  uq_sim_program_t *prog = NULL;
  st = uq_sim_create(&sim);
  if (!st)
    st = uq_sim_program_load(sim, data, size, &prog);
  free(data);
  int rc;
  if (st) {
    rc = fail_status(uq_status_annotate(st, "'%s'", c.path));
  } else if (c.list) {
    list_kernels(uq_sim_program_code_object(prog));
    rc = 0;
  } else {
    rc = run(&c, sim, prog);
  }
  uq_sim_program_destroy(prog);
  uq_sim_destroy(sim);
  return rc;
}
