// The cubin reader (codeobj/cubin.h) against ptxas: a cubin assembled here
// from cubin_probe.ptx, whose parameter layout follows from the PTX
// parameter types, and whose registers, shared and stack bytes `ptxas -v`
// printed to a log (the independent oracle). Every truncation and random
// byte flips of the cubin must come back as a status, never a crash. When
// the build has the kernels' cubins, each must agree with its gfx950 twin on
// the kernel ABI (the size of every parameter), use no local memory and
// state its dynamic shared memory where it takes some.
// usage: codeobj_cubin_test PROBE.cubin PTXAS.log [KERNELS_DIR]
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj/codeobj.h"
#include "runtime/kernel_abi.h"
#include "uq_test.h"

static const char *g_cubin, *g_log, *g_kernels;

// The figures `ptxas -v` printed for `kernel`.
typedef struct ptxas_s {
  unsigned registers, smem, stack;
} ptxas_t;

static int ptxas_figures(const char *kernel, ptxas_t *out) {
  memset(out, 0, sizeof(*out));
  FILE *f = fopen(g_log, "r");
  if (!f)
    return -1;
  char line[512], marker[256];
  snprintf(marker, sizeof(marker), "Function properties for %s\n", kernel);
  int in_kernel = 0, found = 0;
  while (fgets(line, sizeof(line), f)) {
    const char *m = strstr(line, "Function properties for ");
    if (m) {
      in_kernel = strcmp(strstr(line, "Function properties for "), marker) == 0;
      continue;
    }
    if (!in_kernel)
      continue;
    const char *p;
    if ((p = strstr(line, "bytes stack frame")))
      out->stack = (unsigned)strtoul(line + strspn(line, " \t"), NULL, 10);
    if ((p = strstr(line, "Used "))) {
      out->registers = (unsigned)strtoul(p + 5, NULL, 10);
      found = 1;
      const char *s = strstr(line, "bytes smem");
      if (s) {
        while (s > line && s[-1] == ' ')
          --s;
        while (s > line && s[-1] >= '0' && s[-1] <= '9')
          --s;
        out->smem = (unsigned)strtoul(s, NULL, 10);
      }
      in_kernel = 0;
    }
  }
  fclose(f);
  return found ? 0 : -1;
}

static int read_file(const char *path, uint8_t **out, size_t *out_size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return -1;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  *out = malloc(size > 0 ? (size_t)size : 1);
  *out_size = size > 0 ? (size_t)size : 0;
  size_t got = *out ? fread(*out, 1, *out_size, f) : 0;
  fclose(f);
  return got == *out_size ? 0 : -1;
}

// Checks kernel `name` against the PTX facts and the ptxas figures.
static int check_kernel(const uq_code_object_t *co, const char *name,
                        const uint32_t *offsets, const uint32_t *sizes,
                        uint32_t count, uint32_t param_bytes) {
  const uq_kernel_info_t *k = NULL;
  UQ_EXPECT_OK(uq_code_object_find_kernel(co, name, &k));
  ptxas_t want;
  UQ_EXPECT(ptxas_figures(name, &want) == 0);
  printf("  %s: %u params (%u bytes), %u registers (ptxas %u), shared %u "
         "(ptxas smem %u), local %u (ptxas stack %u)\n",
         name, k->arg_count, k->kernarg_segment_size, k->vgpr_count,
         want.registers, k->group_segment_fixed_size, want.smem,
         k->private_segment_fixed_size, want.stack);
  UQ_EXPECT_EQ_INT(k->arg_count, count);
  for (uint32_t i = 0; i < count && i < k->arg_count; ++i) {
    UQ_EXPECT_EQ_INT(k->args[i].offset, offsets[i]);
    UQ_EXPECT_EQ_INT(k->args[i].size, sizes[i]);
    UQ_EXPECT_EQ_INT(k->args[i].kind, UQ_KERNARG_PARAM);
  }
  UQ_EXPECT_EQ_INT(k->kernarg_segment_size, param_bytes);
  UQ_EXPECT_EQ_INT(k->vgpr_count, want.registers);
  UQ_EXPECT_EQ_INT(k->private_segment_fixed_size, want.stack);
  UQ_EXPECT_EQ_INT(k->wavefront_size, 32);
  // sm_90 cubins reserve 1 KiB of shared memory per block for the system
  // (the .nv.shared.reserved.0 section): the kernel's section is ptxas's
  // smem plus that, as seen with ptxas 13.0. No shared memory, no section.
  UQ_EXPECT_EQ_INT(k->group_segment_fixed_size,
                   want.smem ? want.smem + 1024 : 0);
  UQ_EXPECT_EQ_INT(k->dynamic_shared_bytes, 12288); // cubin_probe.ptx's
  return 0;
}

static int test_probe_against_ptxas(void) {
  uq_code_object_t *co = NULL;
  UQ_EXPECT_OK(uq_code_object_load_file(g_cubin, &co));
  printf("  target %s, %zu kernels\n", uq_code_object_target(co),
         uq_code_object_kernel_count(co));
  UQ_EXPECT_STREQ(uq_code_object_target(co), "nvptx64-nvidia-cuda--sm_90");
  UQ_EXPECT_EQ_INT(uq_code_object_kernel_count(co), 2);
  // .u64 .u64 .u64 .u32 .u16, each at its natural alignment.
  static const uint32_t probe_offsets[] = {0, 8, 16, 24, 28};
  static const uint32_t probe_sizes[] = {8, 8, 8, 4, 2};
  int failed = check_kernel(co, "uq_probe", probe_offsets, probe_sizes, 5, 30);
  const uq_kernel_info_t *probe = NULL;
  if (!failed && uq_code_object_find_kernel(co, "uq_probe", &probe) == UQ_OK) {
    UQ_EXPECT_EQ_INT(probe->reqd_workgroup_size[0], 128); // .reqntid
    UQ_EXPECT_EQ_INT(probe->max_flat_workgroup_size, 128);
  }
  static const uint32_t local_offsets[] = {0, 8};
  static const uint32_t local_sizes[] = {8, 4};
  failed |= check_kernel(co, "uq_local", local_offsets, local_sizes, 2, 12);
  uq_code_object_destroy(co);
  return failed;
}

// Every prefix that cuts into the section header table (or anything before
// it) fails cleanly, longer ones (cutting only the program headers ptxas
// writes after it) may parse; seeded bit flips either parse or fail
// cleanly (ASan/UBSan watch for the rest).
static int test_corruption(void) {
  uint8_t *data = NULL;
  size_t size = 0;
  UQ_EXPECT(read_file(g_cubin, &data, &size) == 0);
  UQ_EXPECT(size >= 64);
  uint64_t shoff = 0;
  for (int i = 7; i >= 0; --i)
    shoff = shoff << 8 | data[40 + i];
  uint64_t needed = shoff + 64u * (uint64_t)(data[60] | data[61] << 8);
  UQ_EXPECT(needed <= size);
  size_t refused = 0;
  for (size_t length = 0; length < needed; ++length) {
    uq_code_object_t *co = NULL;
    uq_status_t status = uq_code_object_load(data, length, &co);
    if (status == UQ_OK) {
      uq_code_object_destroy(co);
      free(data);
      UQ_TEST_FAIL_("a %zu-byte prefix parsed (section headers end at "
                    "%" PRIu64 ")",
                    length, needed);
    }
    refused += uq_status_consume_code(status) != UQ_STATUS_OK;
  }
  printf("  %zu of %" PRIu64 " prefixes refused\n", refused, needed);
  uint64_t state = uq_test_seed();
  size_t accepted = 0;
  uint8_t *copy = malloc(size);
  for (int round = 0; copy && round < 3000; ++round) {
    memcpy(copy, data, size);
    for (int flip = 0; flip < 1 + round % 4; ++flip) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      copy[(state >> 33) % size] ^= (uint8_t)(1u << ((state >> 20) & 7));
    }
    uq_code_object_t *co = NULL;
    uq_status_t status = uq_code_object_load(copy, size, &co);
    accepted += status == UQ_OK;
    uq_status_free(status);
    uq_code_object_destroy(co);
  }
  printf("  3000 flipped copies: %zu parsed, the rest refused\n", accepted);
  free(copy);
  free(data);
  return 0;
}

// The threads a warpgroup-MMA variant requires, from its key's pwg and
// rows: a consumer warpgroup per 64 rows and pwg producer warpgroups; with
// none, 2 x rows threads (every thread copies, decodes and multiplies).
static uint32_t wgmma_threads(const char *name) {
  unsigned d = 0, pwg = 0, rows = 0;
  if (sscanf(name, "decode_wgmma_d%u_pwg%u_rows%u", &d, &pwg, &rows) != 3)
    return 0;
  return pwg ? (rows / 64 + pwg) * 128 : 2 * rows;
}

// The kernels' cubins against their gfx950 twins: every parameter the cubin
// has is the size of the twin's explicit argument at that position (offsets
// are each target's own), and no local memory (a spill would be local
// memory). The counts are printed: a cubin with fewer parameters than its
// twin lacks the trailing ones (kernel_abi.h says which).
static int test_kernels_match_gfx950(void) {
  if (!g_kernels) {
    printf("  no kernels directory given\n");
    return UQ_TEST_SKIP;
  }
  static const char *const pairs[][2] = {
      {"decode_sm90_d256_qg_max8.cubin", "decode_d256_rows8.hsaco"},
      {"decode_sm90_d256_qg_max16.cubin", "decode_d256_rows16.hsaco"},
      {"decode_sm90_d128_qg_max16.cubin", "decode_d128_rows16.hsaco"},
      {"decode_sm90_d64_qg_max16.cubin", "decode_d64_rows16.hsaco"},
      {"decode_wgmma_d256_pwg0_rows128.cubin", "decode_d256_rows64.hsaco"},
      {"decode_wgmma_d64_pwg1_rows128.cubin", "decode_d64_rows64.hsaco"},
      {"reduce_sm90_d256.cubin", "reduce_d256.hsaco"},
      {"reduce_sm90_d128.cubin", "reduce_d128.hsaco"},
      {"reduce_sm90_d64.cubin", "reduce_d64.hsaco"}};
  int checked = 0;
  for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); ++i) {
    char cubin_path[1024], hsaco_path[1024];
    snprintf(cubin_path, sizeof(cubin_path), "%s/%s", g_kernels, pairs[i][0]);
    snprintf(hsaco_path, sizeof(hsaco_path), "%s/%s", g_kernels, pairs[i][1]);
    uq_code_object_t *cubin = NULL, *hsaco = NULL;
    uq_status_t status = uq_code_object_load_file(cubin_path, &cubin);
    if (!status)
      status = uq_code_object_load_file(hsaco_path, &hsaco);
    if (status) {
      printf("  %s / %s: %s (not built here)\n", pairs[i][0], pairs[i][1],
             uq_status_message(status));
      uq_status_free(status);
      uq_code_object_destroy(cubin);
      continue;
    }
    const uq_kernel_info_t *n = uq_code_object_kernel_at(cubin, 0);
    const uq_kernel_info_t *a = uq_code_object_kernel_at(hsaco, 0);
    uint32_t twin_sizes[64], twin_count = 0;
    for (uint32_t j = 0; a && j < a->arg_count && twin_count < 64; ++j)
      if (a->args[j].kind != UQ_KERNARG_HIDDEN)
        twin_sizes[twin_count++] = a->args[j].size;
    printf("  %s (%s): %u params (gfx950 twin %u), %u registers, %u B "
           "static + %u B dynamic shared, %u B local\n",
           pairs[i][0], n ? n->name : "?", n ? n->arg_count : 0, twin_count,
           n ? n->vgpr_count : 0, n ? n->group_segment_fixed_size : 0,
           n ? n->dynamic_shared_bytes : 0,
           n ? n->private_segment_fixed_size : 0);
    // The same arguments as its gfx950 twin (kernel_abi.h); the decode
    // states its dynamic shared memory and its walk's groups (single tiles
    // at D = 128 and 256, tile-groups at 64; the two-warpgroup kernel's
    // 64-token tiles, 4) and that it merges a cluster of its partitions
    // (not the two-warpgroup kernel) and its copy stages (at least 2),
    // the reduce none of them; the warpgroup-MMA kernel requires its
    // threads (reqntid, @wgmma_threads).
    int decode = strncmp(pairs[i][0], "decode", 6) == 0;
    int wgmma = strncmp(pairs[i][0], "decode_wgmma", 12) == 0;
    uint32_t want_walk = !decode                        ? 0
                         : wgmma                        ? 4
                         : strstr(pairs[i][0], "_d64_") ? 16
                                                        : 1;
    int ok =
        n && a && uq_code_object_kernel_count(cubin) == 1 &&
        twin_count == (decode ? UQ_DECODE_ARG_COUNT : UQ_REDUCE_ARG_COUNT) &&
        n->arg_count == twin_count && n->private_segment_fixed_size == 0 &&
        (n->dynamic_shared_bytes > 0) == decode &&
        n->walk_group_tiles == want_walk &&
        n->cluster_merge == (decode && !wgmma) &&
        (n->pipeline_stages >= 2) == decode &&
        n->reqd_workgroup_size[0] == (wgmma ? wgmma_threads(pairs[i][0]) : 0u);
    for (uint32_t j = 0; ok && j < twin_count; ++j)
      ok = n->args[j].size == twin_sizes[j];
    uq_code_object_destroy(cubin);
    uq_code_object_destroy(hsaco);
    UQ_EXPECT(ok);
    ++checked;
  }
  return checked ? 0 : UQ_TEST_SKIP;
}

static const uq_test_case_t tests[] = {
    {"probe_against_ptxas", test_probe_against_ptxas},
    {"corruption", test_corruption},
    {"kernels_match_gfx950", test_kernels_match_gfx950},
    {0, 0}};

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s PROBE.cubin PTXAS.log [KERNELS_DIR]\n", argv[0]);
    return 2;
  }
  g_cubin = argv[1];
  g_log = argv[2];
  g_kernels = argc > 3 ? argv[3] : NULL;
  return uq_test_main(1, argv, tests);
}
