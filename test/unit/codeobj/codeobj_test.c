// Tests of the code-object reader against real HSACOs built by the test's
// CMakeLists (llvm-mc + ld.lld, and mlir-opt's gpu-module-to-binary). Every
// field read is compared with what llvm-readelf and llvm-objdump print for
// the same file; every malformed input must give the documented status code.
#include "codeobj/codeobj.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oracle.h"
#include "uq_test.h"

#define INPUT(name) UQ_CODEOBJ_TEST_INPUTS "/" name

// The code objects every positive test walks.
static const char *const kGood[] = {"copy_v6", "multi_v5", "vadd_mlir"};
enum { kGoodCount = sizeof(kGood) / sizeof(kGood[0]) };

typedef struct blob_s {
  uint8_t *data;
  size_t size;
} blob_t;

static int read_blob(const char *path, blob_t *out) {
  out->data = NULL;
  out->size = 0;
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    return 1;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  out->data = malloc(n > 0 ? (size_t)n : 1);
  if (!out->data || fread(out->data, 1, (size_t)n, f) != (size_t)n) {
    fclose(f);
    free(out->data);
    out->data = NULL;
    return 1;
  }
  out->size = (size_t)n;
  fclose(f);
  return 0;
}

static oracle_t *read_oracle(const char *name) {
  char readelf[512], kd[512];
  snprintf(readelf, sizeof(readelf), "%s/%s.readelf.txt",
           UQ_CODEOBJ_TEST_INPUTS, name);
  snprintf(kd, sizeof(kd), "%s/%s.kd.txt", UQ_CODEOBJ_TEST_INPUTS, name);
  return oracle_read(readelf, kd);
}

static void hsaco_path(const char *name, char *out, size_t capacity) {
  snprintf(out, capacity, "%s/%s.hsaco", UQ_CODEOBJ_TEST_INPUTS, name);
}

// 64-bit LCG seeded from the clock; the seed is printed so a failure can be
// replayed with UQ_TEST_SEED.
static uint64_t g_rng;
static void seed_rng(const char *test) {
  (void)test;
  g_rng = uq_test_seed() * 6364136223846793005ull + 1442695040888963407ull;
}
static uint32_t rng_u32(void) {
  g_rng = g_rng * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(g_rng >> 33);
}

//===----------------------------------------------------------------------===//
// Positive tests: every field against llvm-readelf / llvm-objdump
//===----------------------------------------------------------------------===//

static int check_kernel_metadata(const uq_kernel_info_t *k,
                                 const oracle_kernel_t *ok) {
  const oracle_map_t *f = &ok->fields;
  UQ_EXPECT_STREQ(k->name, oracle_get(f, ".name"));
  UQ_EXPECT_STREQ(k->symbol, oracle_get(f, ".symbol"));
  UQ_EXPECT_EQ_INT(k->kernarg_segment_size,
                   oracle_u64(f, ".kernarg_segment_size", ~0ull));
  UQ_EXPECT_EQ_INT(k->kernarg_segment_align,
                   oracle_u64(f, ".kernarg_segment_align", ~0ull));
  UQ_EXPECT_EQ_INT(k->group_segment_fixed_size,
                   oracle_u64(f, ".group_segment_fixed_size", ~0ull));
  UQ_EXPECT_EQ_INT(k->private_segment_fixed_size,
                   oracle_u64(f, ".private_segment_fixed_size", ~0ull));
  UQ_EXPECT_EQ_INT(k->wavefront_size, oracle_u64(f, ".wavefront_size", ~0ull));
  UQ_EXPECT_EQ_INT(k->sgpr_count, oracle_u64(f, ".sgpr_count", ~0ull));
  UQ_EXPECT_EQ_INT(k->vgpr_count, oracle_u64(f, ".vgpr_count", ~0ull));
  UQ_EXPECT_EQ_INT(k->agpr_count, oracle_u64(f, ".agpr_count", 0));
  UQ_EXPECT_EQ_INT(k->sgpr_spill_count, oracle_u64(f, ".sgpr_spill_count", 0));
  UQ_EXPECT_EQ_INT(k->vgpr_spill_count, oracle_u64(f, ".vgpr_spill_count", 0));
  UQ_EXPECT_EQ_INT(k->max_flat_workgroup_size,
                   oracle_u64(f, ".max_flat_workgroup_size", ~0ull));
  for (int d = 0; d < 3; ++d)
    UQ_EXPECT_EQ_INT(k->reqd_workgroup_size[d],
                     ok->reqd_count == 3 ? ok->reqd_workgroup_size[d] : 0);
  UQ_EXPECT_EQ_INT(k->arg_count, ok->arg_count);
  for (int i = 0; i < ok->arg_count; ++i) {
    const uq_kernarg_t *a = &k->args[i];
    const oracle_map_t *oa = &ok->args[i];
    UQ_EXPECT_EQ_INT(a->offset, oracle_u64(oa, ".offset", ~0ull));
    UQ_EXPECT_EQ_INT(a->size, oracle_u64(oa, ".size", ~0ull));
    const char *kind = oracle_get(oa, ".value_kind");
    UQ_EXPECT(kind != NULL);
    UQ_EXPECT_STREQ(a->value_kind, kind);
    const char *name = oracle_get(oa, ".name");
    UQ_EXPECT_STREQ(a->name, name ? name : "");
    uq_kernarg_kind_t expected =
        strcmp(kind, "by_value") == 0        ? UQ_KERNARG_BY_VALUE
        : strcmp(kind, "global_buffer") == 0 ? UQ_KERNARG_GLOBAL_BUFFER
        : memcmp(kind, "hidden_", 7) == 0    ? UQ_KERNARG_HIDDEN
                                             : UQ_KERNARG_OTHER;
    UQ_EXPECT_EQ_INT(a->kind, expected);
  }
  return 0;
}

// The user SGPRs the ABI places before the system SGPRs (AMDGPUUsage,
// "Initial Kernel Execution State"), counted from objdump's directives.
static uint64_t oracle_user_sgprs(const oracle_map_t *d) {
  return 4 * oracle_u64(d, ".amdhsa_user_sgpr_private_segment_buffer", 0) +
         2 * oracle_u64(d, ".amdhsa_user_sgpr_dispatch_ptr", 0) +
         2 * oracle_u64(d, ".amdhsa_user_sgpr_queue_ptr", 0) +
         2 * oracle_u64(d, ".amdhsa_user_sgpr_kernarg_segment_ptr", 0) +
         2 * oracle_u64(d, ".amdhsa_user_sgpr_dispatch_id", 0) +
         2 * oracle_u64(d, ".amdhsa_user_sgpr_flat_scratch_init", 0) +
         oracle_u64(d, ".amdhsa_user_sgpr_private_segment_size", 0) +
         oracle_u64(d, ".amdhsa_user_sgpr_kernarg_preload_length", 0);
}

static int check_descriptor(const uq_kernel_info_t *k,
                            const oracle_descriptor_t *od) {
  const uq_kernel_descriptor_t *kd = &k->descriptor;
  const oracle_map_t *d = &od->directives;
  // Every directive objdump prints must be present (so a format change in
  // the oracle fails loudly rather than comparing against defaults).
  UQ_EXPECT(oracle_get(d, ".amdhsa_group_segment_fixed_size") != NULL);
  UQ_EXPECT(oracle_get(d, ".amdhsa_next_free_vgpr") != NULL);
  UQ_EXPECT_EQ_INT(kd->group_segment_fixed_size,
                   oracle_u64(d, ".amdhsa_group_segment_fixed_size", ~0ull));
  UQ_EXPECT_EQ_INT(kd->private_segment_fixed_size,
                   oracle_u64(d, ".amdhsa_private_segment_fixed_size", ~0ull));
  UQ_EXPECT_EQ_INT(kd->kernarg_size,
                   oracle_u64(d, ".amdhsa_kernarg_size", ~0ull));
  UQ_EXPECT_EQ_INT(uq_kd_accum_offset(kd),
                   oracle_u64(d, ".amdhsa_accum_offset", ~0ull));
  UQ_EXPECT_EQ_INT(uq_kd_tg_split(kd), oracle_u64(d, ".amdhsa_tg_split", 0));
  // gfx90a+ wave64: VGPR blocks of 8, SGPR blocks of 8 (objdump prints the
  // rounded-up "next free" register).
  UQ_EXPECT_EQ_INT((uq_kd_granulated_vgpr_count(kd) + 1) * 8,
                   oracle_u64(d, ".amdhsa_next_free_vgpr", ~0ull));
  UQ_EXPECT_EQ_INT((uq_kd_granulated_sgpr_count(kd) + 1) * 8,
                   oracle_u64(d, ".amdhsa_next_free_sgpr", ~0ull));
  uint32_t mode = uq_kd_float_mode(kd);
  UQ_EXPECT_EQ_INT(mode & 3, oracle_u64(d, ".amdhsa_float_round_mode_32", 0));
  UQ_EXPECT_EQ_INT((mode >> 2) & 3,
                   oracle_u64(d, ".amdhsa_float_round_mode_16_64", 0));
  UQ_EXPECT_EQ_INT((mode >> 4) & 3,
                   oracle_u64(d, ".amdhsa_float_denorm_mode_32", 0));
  UQ_EXPECT_EQ_INT((mode >> 6) & 3,
                   oracle_u64(d, ".amdhsa_float_denorm_mode_16_64", 0));
  UQ_EXPECT_EQ_INT(uq_kd_dx10_clamp(kd),
                   oracle_u64(d, ".amdhsa_dx10_clamp", 0));
  UQ_EXPECT_EQ_INT(uq_kd_ieee_mode(kd), oracle_u64(d, ".amdhsa_ieee_mode", 0));
  UQ_EXPECT_EQ_INT(uq_kd_fp16_overflow(kd),
                   oracle_u64(d, ".amdhsa_fp16_overflow", 0));
  UQ_EXPECT_EQ_INT(uq_kd_enable_private_segment(kd),
                   oracle_u64(d, ".amdhsa_enable_private_segment", 0));
  static const char *const wg[3] = {".amdhsa_system_sgpr_workgroup_id_x",
                                    ".amdhsa_system_sgpr_workgroup_id_y",
                                    ".amdhsa_system_sgpr_workgroup_id_z"};
  for (unsigned dim = 0; dim < 3; ++dim)
    UQ_EXPECT_EQ_INT(uq_kd_enable_workgroup_id(kd, dim),
                     oracle_u64(d, wg[dim], 0));
  UQ_EXPECT_EQ_INT(uq_kd_enable_workgroup_info(kd),
                   oracle_u64(d, ".amdhsa_system_sgpr_workgroup_info", 0));
  UQ_EXPECT_EQ_INT(uq_kd_enable_vgpr_workitem_id(kd),
                   oracle_u64(d, ".amdhsa_system_vgpr_workitem_id", 0));
  static const struct {
    uq_kd_property_t bit;
    const char *directive;
  } props[] = {
      {UQ_KD_PRIVATE_SEGMENT_BUFFER,
       ".amdhsa_user_sgpr_private_segment_buffer"},
      {UQ_KD_DISPATCH_PTR, ".amdhsa_user_sgpr_dispatch_ptr"},
      {UQ_KD_QUEUE_PTR, ".amdhsa_user_sgpr_queue_ptr"},
      {UQ_KD_KERNARG_SEGMENT_PTR, ".amdhsa_user_sgpr_kernarg_segment_ptr"},
      {UQ_KD_DISPATCH_ID, ".amdhsa_user_sgpr_dispatch_id"},
      {UQ_KD_FLAT_SCRATCH_INIT, ".amdhsa_user_sgpr_flat_scratch_init"},
      {UQ_KD_PRIVATE_SEGMENT_SIZE, ".amdhsa_user_sgpr_private_segment_size"},
      {UQ_KD_USES_DYNAMIC_STACK, ".amdhsa_uses_dynamic_stack"},
  };
  for (size_t i = 0; i < sizeof(props) / sizeof(props[0]); ++i)
    UQ_EXPECT_EQ_INT(uq_kd_has_property(kd, props[i].bit),
                     oracle_u64(d, props[i].directive, 0));
  UQ_EXPECT_EQ_INT(
      uq_kd_kernarg_preload_length(kd),
      oracle_u64(d, ".amdhsa_user_sgpr_kernarg_preload_length", 0));
  UQ_EXPECT_EQ_INT(
      uq_kd_kernarg_preload_offset(kd),
      oracle_u64(d, ".amdhsa_user_sgpr_kernarg_preload_offset", 0));
  UQ_EXPECT_EQ_INT(uq_kd_user_sgpr_count(kd), oracle_user_sgprs(d));
  return 0;
}

static int check_loaded(const uq_code_object_t *co, const oracle_t *o) {
  UQ_EXPECT_EQ_HEX(o->flags & 0xff, 0x4f);
  UQ_EXPECT(o->abi_version == 3 || o->abi_version == 4);
  UQ_EXPECT_EQ_INT(uq_code_object_version(co), o->abi_version + 2);
  UQ_EXPECT_STREQ(uq_code_object_target(co), o->target);
  UQ_EXPECT(o->kernel_count > 0);
  UQ_EXPECT_EQ_INT(uq_code_object_kernel_count(co), o->kernel_count);
  for (int i = 0; i < o->kernel_count; ++i) {
    const oracle_kernel_t *ok = &o->kernels[i];
    const uq_kernel_info_t *k = NULL, *by_symbol = NULL;
    const char *kname = oracle_get(&ok->fields, ".name");
    const char *ksym = oracle_get(&ok->fields, ".symbol");
    UQ_EXPECT(kname != NULL && ksym != NULL);
    UQ_EXPECT_OK(uq_code_object_find_kernel(co, kname, &k));
    UQ_EXPECT_OK(uq_code_object_find_kernel(co, ksym, &by_symbol));
    UQ_EXPECT(k == by_symbol);
    UQ_EXPECT(uq_code_object_kernel_at(co, (size_t)i) == k);
    if (check_kernel_metadata(k, ok))
      return 1;
    // The descriptor symbol and the kernel's code symbol, from the symtab.
    const oracle_symbol_t *kd_sym = oracle_symbol(o, ".symtab", ksym);
    const oracle_symbol_t *fn_sym = oracle_symbol(o, ".symtab", kname);
    UQ_EXPECT(kd_sym != NULL && fn_sym != NULL);
    UQ_EXPECT_STREQ(kd_sym->type, "OBJECT");
    UQ_EXPECT_EQ_INT(kd_sym->size, 64);
    UQ_EXPECT_EQ_HEX(k->descriptor_vaddr, kd_sym->value);
    UQ_EXPECT_STREQ(fn_sym->type, "FUNC");
    UQ_EXPECT_EQ_HEX(k->entry_vaddr, fn_sym->value);
    UQ_EXPECT_EQ_INT(k->descriptor.kernel_code_entry_byte_offset,
                     (int64_t)(fn_sym->value - kd_sym->value));
    const oracle_descriptor_t *od = oracle_descriptor(o, ksym);
    UQ_EXPECT(od != NULL);
    if (check_descriptor(k, od))
      return 1;
  }
  return 0;
}

static int check_code_object(const char *name) {
  char path[512];
  hsaco_path(name, path, sizeof(path));
  oracle_t *o = read_oracle(name);
  UQ_EXPECT(o != NULL);
  uq_code_object_t *co = NULL;
  uq_status_t s = uq_code_object_load_file(path, &co);
  int failed = s != UQ_OK;
  if (s)
    fprintf(stderr, "%s: %s\n", name, uq_status_message(s));
  uq_status_free(s);
  if (!failed && check_loaded(co, o)) {
    fprintf(stderr, "  in %s\n", name);
    failed = 1;
  }
  uq_code_object_destroy(co);
  free(o);
  return failed;
}

static int test_fields_match_readelf_and_objdump(void) {
  for (int i = 0; i < kGoodCount; ++i)
    if (check_code_object(kGood[i]))
      return 1;
  return 0;
}

// The image holds every PT_LOAD at its vaddr: file bytes, then zeros.
static int test_image_matches_segments(void) {
  for (int i = 0; i < kGoodCount; ++i) {
    char path[512];
    hsaco_path(kGood[i], path, sizeof(path));
    blob_t file;
    UQ_EXPECT_EQ_INT(read_blob(path, &file), 0);
    oracle_t *o = read_oracle(kGood[i]);
    uq_code_object_t *co = NULL;
    uq_status_t s = uq_code_object_load(file.data, file.size, &co);
    // The bytes are copied: scribbling over the input changes nothing.
    blob_t pristine = {malloc(file.size), file.size};
    int bad = o == NULL || s != UQ_OK || pristine.data == NULL;
    if (!bad) {
      memcpy(pristine.data, file.data, file.size);
      memset(file.data, 0xa5, file.size);
      size_t size = 0;
      const uint8_t *image = uq_code_object_image(co, &size);
      uint64_t end = 0;
      int loads = 0;
      for (int j = 0; j < o->segment_count && !bad; ++j) {
        const oracle_segment_t *seg = &o->segments[j];
        if (strcmp(seg->type, "LOAD") != 0)
          continue;
        ++loads;
        if (seg->vaddr + seg->memsz > end)
          end = seg->vaddr + seg->memsz;
        if (seg->vaddr + seg->memsz > size ||
            memcmp(image + seg->vaddr, pristine.data + seg->offset,
                   seg->filesz) != 0) {
          fprintf(stderr, "%s: segment %d bytes differ\n", kGood[i], j);
          bad = 1;
        }
        for (uint64_t a = seg->vaddr + seg->filesz;
             !bad && a < seg->vaddr + seg->memsz; ++a)
          bad = image[a] != 0;
      }
      if (!bad && (loads < 2 || end != size)) {
        fprintf(stderr, "%s: %d loads, image %zu, expected %llu\n", kGood[i],
                loads, size, (unsigned long long)end);
        bad = 1;
      }
    }
    uq_status_free(s);
    uq_code_object_destroy(co);
    free(o);
    free(file.data);
    free(pristine.data);
    UQ_EXPECT(!bad);
  }
  return 0;
}

static int test_find_kernel_not_found(void) {
  char path[512];
  hsaco_path("copy_v6", path, sizeof(path));
  uq_code_object_t *co = NULL;
  UQ_EXPECT_OK(uq_code_object_load_file(path, &co));
  const uq_kernel_info_t *k = (const uq_kernel_info_t *)1;
  uq_status_code_t code = uq_status_consume_code(
      uq_code_object_find_kernel(co, "no_such_kernel", &k));
  const uq_kernel_info_t *past = uq_code_object_kernel_at(co, 99);
  uq_code_object_destroy(co);
  UQ_EXPECT_EQ_INT(code, UQ_STATUS_NOT_FOUND);
  UQ_EXPECT(k == NULL);
  UQ_EXPECT(past == NULL);
  return 0;
}

//===----------------------------------------------------------------------===//
// Manifest and occupancy
//===----------------------------------------------------------------------===//

// A minimal JSON syntax check (objects, arrays, strings, unsigned numbers):
// returns the position after one value, or NULL.
static const char *json_value(const char *p);
static const char *json_ws(const char *p) {
  while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
    ++p;
  return p;
}
static const char *json_string(const char *p) {
  if (*p++ != '"')
    return NULL;
  while (*p && *p != '"') {
    if ((unsigned char)*p < 0x20)
      return NULL;
    if (*p == '\\') {
      ++p;
      if (*p == 'u') {
        for (int i = 1; i <= 4; ++i)
          if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
            return NULL;
        p += 4;
      } else if (!*p || !strchr("\"\\/bfnrt", *p)) {
        return NULL;
      }
    }
    ++p;
  }
  return *p == '"' ? p + 1 : NULL;
}
static const char *json_value(const char *p) {
  p = json_ws(p);
  if (*p == '"')
    return json_string(p);
  if (*p >= '0' && *p <= '9') {
    while (*p >= '0' && *p <= '9')
      ++p;
    return p;
  }
  if (*p == '{' || *p == '[') {
    char close = *p == '{' ? '}' : ']';
    p = json_ws(p + 1);
    if (*p == close)
      return p + 1;
    for (;;) {
      if (close == '}') {
        p = json_string(json_ws(p));
        if (!p)
          return NULL;
        p = json_ws(p);
        if (*p++ != ':')
          return NULL;
      }
      p = json_value(p);
      if (!p)
        return NULL;
      p = json_ws(p);
      if (*p == close)
        return p + 1;
      if (*p++ != ',')
        return NULL;
    }
  }
  return NULL;
}

static int expect_field(const char *json, const char *key, uint64_t value) {
  char want[128];
  snprintf(want, sizeof(want), "\"%s\": %llu", key, (unsigned long long)value);
  if (!strstr(json, want)) {
    fprintf(stderr, "manifest lacks %s in %s\n", want, json);
    return 1;
  }
  return 0;
}

static int test_manifest_matches_oracle(void) {
  for (int i = 0; i < kGoodCount; ++i) {
    char path[512];
    hsaco_path(kGood[i], path, sizeof(path));
    oracle_t *o = read_oracle(kGood[i]);
    UQ_EXPECT(o != NULL);
    uq_code_object_t *co = NULL;
    uq_status_t s = uq_code_object_load_file(path, &co);
    int bad = s != UQ_OK;
    uq_status_free(s);
    for (int j = 0; !bad && j < o->kernel_count; ++j) {
      const oracle_kernel_t *ok = &o->kernels[j];
      const oracle_map_t *f = &ok->fields;
      const uq_kernel_info_t *k = uq_code_object_kernel_at(co, (size_t)j);
      char json[8192] = "";
      FILE *tmp = tmpfile();
      bad = tmp == NULL;
      for (int with_variant = 0; !bad && with_variant < 2; ++with_variant) {
        rewind(tmp);
        s = uq_kernel_write_manifest_json(k, with_variant ? "qg=4 \"x\"" : NULL,
                                          tmp);
        bad = s != UQ_OK;
        uq_status_free(s);
        long n = ftell(tmp);
        rewind(tmp);
        bad = bad || n <= 0 || n >= (long)sizeof(json) ||
              fread(json, 1, (size_t)n, tmp) != (size_t)n;
        if (bad)
          break;
        json[n] = '\0';
        const char *end = json_value(json);
        if (!end || *json_ws(end) != '\0') {
          fprintf(stderr, "manifest is not one JSON value: %s\n", json);
          bad = 1;
          break;
        }
        bad |= (strstr(json, "\"variant\": \"qg=4 \\\"x\\\"\"") != NULL) !=
               with_variant;
        char want[256];
        snprintf(want, sizeof(want), "\"symbol\": \"%s\"",
                 oracle_get(f, ".symbol"));
        bad |= strstr(json, want) == NULL;
        bad |= expect_field(json, "kernarg_size",
                            oracle_u64(f, ".kernarg_segment_size", ~0ull));
        bad |= expect_field(json, "kernarg_align",
                            oracle_u64(f, ".kernarg_segment_align", ~0ull));
        bad |= expect_field(json, "lds_bytes",
                            oracle_u64(f, ".group_segment_fixed_size", ~0ull));
        bad |= expect_field(json, "sgpr_count",
                            oracle_u64(f, ".sgpr_count", ~0ull));
        bad |= expect_field(json, "vgpr_count",
                            oracle_u64(f, ".vgpr_count", ~0ull));
        bad |=
            expect_field(json, "agpr_count", oracle_u64(f, ".agpr_count", 0));
        bad |= expect_field(json, "sgpr_spill_count",
                            oracle_u64(f, ".sgpr_spill_count", 0));
        bad |= expect_field(json, "vgpr_spill_count",
                            oracle_u64(f, ".vgpr_spill_count", 0));
        bad |=
            expect_field(json, "scratch_bytes",
                         oracle_u64(f, ".private_segment_fixed_size", ~0ull));
        bad |= expect_field(json, "wavefront_size",
                            oracle_u64(f, ".wavefront_size", ~0ull));
        bad |= expect_field(json, "max_workgroup_size",
                            oracle_u64(f, ".max_flat_workgroup_size", ~0ull));
        const oracle_descriptor_t *od =
            oracle_descriptor(o, oracle_get(f, ".symbol"));
        bad |=
            od == NULL || expect_field(json, "fp16_overflow",
                                       oracle_u64(&od->directives,
                                                  ".amdhsa_fp16_overflow", 0));
        // Each argument, in order, with the oracle's numbers.
        const char *cursor = json;
        for (int a = 0; !bad && a < ok->arg_count; ++a) {
          const char *name = oracle_get(&ok->args[a], ".name");
          snprintf(want, sizeof(want),
                   "{\"offset\": %llu, \"size\": %llu, \"value_kind\": "
                   "\"%s\", \"name\": \"%s\"}",
                   (unsigned long long)oracle_u64(&ok->args[a], ".offset", 0),
                   (unsigned long long)oracle_u64(&ok->args[a], ".size", 0),
                   oracle_get(&ok->args[a], ".value_kind"), name ? name : "");
          cursor = strstr(cursor, want);
          if (!cursor) {
            fprintf(stderr, "manifest lacks arg %s\n", want);
            bad = 1;
          }
        }
      }
      if (tmp)
        fclose(tmp);
    }
    uq_code_object_destroy(co);
    free(o);
    UQ_EXPECT(!bad);
  }
  return 0;
}

static int test_manifest_write_error(void) {
  char path[512];
  hsaco_path("copy_v6", path, sizeof(path));
  uq_code_object_t *co = NULL;
  UQ_EXPECT_OK(uq_code_object_load_file(path, &co));
  const uq_kernel_info_t *k = uq_code_object_kernel_at(co, 0);
  FILE *full = fopen("/dev/full", "w");
  uq_status_code_t full_code =
      full
          ? uq_status_consume_code(uq_kernel_write_manifest_json(k, NULL, full))
          : UQ_STATUS_UNAVAILABLE;
  if (full)
    fclose(full);
  uq_status_code_t null_code =
      uq_status_consume_code(uq_kernel_write_manifest_json(k, NULL, NULL));
  uq_code_object_destroy(co);
  UQ_EXPECT_EQ_INT(null_code, UQ_STATUS_INVALID_ARGUMENT);
  if (!full)
    return UQ_TEST_SKIP; // no /dev/full: the write failure cannot be made
  UQ_EXPECT_EQ_INT(full_code, UQ_STATUS_UNAVAILABLE);
  return 0;
}

// Occupancy oracle: fill one CU wave by wave. Each SIMD has 512 VGPRs per
// lane allocated in granules of 8 and at most 8 wave slots; SGPRs allow
// the number of waves LLVM's table gives; the CU has 160 KiB of LDS. Whole
// workgroups are placed, each wave on the least-loaded SIMD, until one does
// not fit; the answer is the most waves any SIMD holds.
// `vgprs` is the metadata's .vgpr_count: on gfx90a and later the unified
// file's total, AGPRs included (LLVM's getTotalNumVGPRs: arch VGPRs rounded
// to 4, then the AGPRs).
static uint32_t occupancy_by_placement(uint32_t vgprs, uint32_t sgprs,
                                       uint32_t lds, uint32_t workgroup_waves) {
  uint32_t unified = vgprs;
  uint32_t alloc = ((unified ? unified : 1) + 7) / 8 * 8;
  uint32_t sgpr_waves = sgprs <= 80    ? 10
                        : sgprs <= 88  ? 9
                        : sgprs <= 100 ? 8
                                       : 7;
  uint32_t used[4] = {0}, waves[4] = {0}, lds_used = 0;
  for (;;) {
    uint32_t try_used[4], try_waves[4];
    memcpy(try_used, used, sizeof(used));
    memcpy(try_waves, waves, sizeof(waves));
    int fits = lds_used + lds <= 160 * 1024;
    for (uint32_t w = 0; fits && w < workgroup_waves; ++w) {
      int best = 0;
      for (int s = 1; s < 4; ++s)
        if (try_waves[s] < try_waves[best])
          best = s;
      if (try_used[best] + alloc > 512 || try_waves[best] + 1 > 8 ||
          try_waves[best] + 1 > sgpr_waves)
        fits = 0;
      try_used[best] += alloc;
      ++try_waves[best];
    }
    if (!fits)
      break;
    memcpy(used, try_used, sizeof(used));
    memcpy(waves, try_waves, sizeof(waves));
    lds_used += lds;
    if (lds == 0 && waves[0] >= 8 && waves[3] >= 8)
      break;
  }
  uint32_t most = 0;
  for (int s = 0; s < 4; ++s)
    most = waves[s] > most ? waves[s] : most;
  return most;
}

static int test_occupancy_matches_placement(void) {
  seed_rng("occupancy");
  uq_kernel_info_t k;
  for (int i = 0; i < 20000; ++i) {
    memset(&k, 0, sizeof(k));
    k.vgpr_count = 1 + rng_u32() % 520;
    k.agpr_count = rng_u32() % 3 == 0 ? rng_u32() % (k.vgpr_count / 2 + 1) : 0;
    k.sgpr_count = 1 + rng_u32() % 108;
    k.group_segment_fixed_size =
        rng_u32() % 3 == 0 ? 0 : rng_u32() % (170 * 1024);
    k.wavefront_size = 64;
    uint32_t ww = 1 + rng_u32() % 16;
    uint32_t got = uq_kernel_occupancy(&k, ww);
    uint32_t want =
        k.vgpr_count > 512
            ? 0
            : occupancy_by_placement(k.vgpr_count, k.sgpr_count,
                                     k.group_segment_fixed_size, ww);
    if (got != want) {
      fprintf(stderr,
              "vgpr %u agpr %u sgpr %u lds %u waves/wg %u: got %u, placement "
              "%u\n",
              k.vgpr_count, k.agpr_count, k.sgpr_count,
              k.group_segment_fixed_size, ww, got, want);
      return 1;
    }
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Negative tests
//===----------------------------------------------------------------------===//

static uq_status_code_t load_code(const void *data, size_t size) {
  uq_code_object_t *co = (uq_code_object_t *)1;
  uq_status_t s = uq_code_object_load(data, size, &co);
  if (s == UQ_OK) {
    uq_code_object_destroy(co);
    return UQ_STATUS_OK;
  }
  // A failure leaves the out-parameter NULL and carries a message.
  uq_status_code_t code = uq_status_code(s);
  if (co != NULL || !uq_status_message(s)[0])
    code = UQ_STATUS_INTERNAL;
  uq_status_free(s);
  return code;
}

static int test_rejects_empty_and_tiny_buffers(void) {
  uint8_t one = 0x7f;
  UQ_EXPECT_EQ_INT(load_code(&one, 0), UQ_STATUS_DATA_LOSS);
  UQ_EXPECT_EQ_INT(load_code(&one, 1), UQ_STATUS_DATA_LOSS);
  UQ_EXPECT_EQ_INT(load_code(NULL, 0), UQ_STATUS_DATA_LOSS);
  UQ_EXPECT_EQ_INT(load_code(NULL, 16), UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_code_object_load(&one, 1, NULL),
                 UQ_STATUS_INVALID_ARGUMENT);
  uq_code_object_t *co = NULL;
  UQ_EXPECT_CODE(uq_code_object_load_file(INPUT("does_not_exist.hsaco"), &co),
                 UQ_STATUS_NOT_FOUND);
  UQ_EXPECT(co == NULL);
  UQ_EXPECT_CODE(uq_code_object_load_file(UQ_CODEOBJ_TEST_INPUTS, &co),
                 UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT(co == NULL);
  return 0;
}

// Every proper prefix of a good code object is truncated: DATA_LOSS.
static int test_rejects_every_truncation(void) {
  for (int i = 0; i < kGoodCount; ++i) {
    char path[512];
    hsaco_path(kGood[i], path, sizeof(path));
    blob_t b;
    UQ_EXPECT_EQ_INT(read_blob(path, &b), 0);
    UQ_EXPECT_EQ_INT(load_code(b.data, b.size), UQ_STATUS_OK);
    for (size_t n = 0; n < b.size; ++n) {
      // A fresh allocation of exactly n bytes, so ASan catches overreads.
      uint8_t *prefix = malloc(n ? n : 1);
      memcpy(prefix, b.data, n);
      uq_status_code_t code = load_code(prefix, n);
      free(prefix);
      if (code != UQ_STATUS_DATA_LOSS) {
        fprintf(stderr, "%s truncated to %zu bytes: %s\n", kGood[i], n,
                uq_status_code_name(code));
        free(b.data);
        return 1;
      }
    }
    free(b.data);
  }
  return 0;
}

static void put16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}
static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    p[i] = (uint8_t)(v >> (8 * i));
}
static uint64_t get64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = v << 8 | p[i];
  return v;
}

typedef struct patch_s {
  const char *what;
  enum { kAbs, kPhdrLoad, kShdrSymtab, kShdrNote } base;
  uint32_t offset;
  int width; // 1, 2, 4 or 8
  uint64_t value;
  uq_status_code_t code;
} patch_t;

// File offset of the first program header of `type`, or of section `name`'s
// header, from the oracle's numbers.
static uint64_t patch_base(const blob_t *b, const oracle_t *o, int base) {
  uint64_t phoff = get64(b->data + 32), shoff = get64(b->data + 40);
  if (base == kPhdrLoad) {
    for (uint64_t i = 0;; ++i) {
      const uint8_t *ph = b->data + phoff + i * 56;
      if (ph[0] == 1 && get64(ph + 32) > 0)
        return phoff + i * 56;
    }
  }
  if (base == kShdrSymtab || base == kShdrNote) {
    const char *name = base == kShdrSymtab ? ".symtab" : ".note";
    const oracle_section_t *s = oracle_section(o, name);
    if (s)
      return shoff + (uint64_t)s->index * 64;
  }
  return 0;
}

static int test_rejects_header_corruption(void) {
  static const patch_t patches[] = {
      {"magic", kAbs, 1, 1, 'X', UQ_STATUS_DATA_LOSS},
      {"ELFCLASS32", kAbs, 4, 1, 1, UQ_STATUS_INVALID_ARGUMENT},
      {"big-endian", kAbs, 5, 1, 2, UQ_STATUS_INVALID_ARGUMENT},
      {"EI_VERSION", kAbs, 6, 1, 0, UQ_STATUS_DATA_LOSS},
      {"OS ABI SYSV", kAbs, 7, 1, 0, UQ_STATUS_INVALID_ARGUMENT},
      {"ABI version v4", kAbs, 8, 1, 2, UQ_STATUS_INVALID_ARGUMENT},
      {"ABI version 9", kAbs, 8, 1, 9, UQ_STATUS_INVALID_ARGUMENT},
      {"ET_REL", kAbs, 16, 2, 1, UQ_STATUS_INVALID_ARGUMENT},
      {"EM_X86_64", kAbs, 18, 2, 62, UQ_STATUS_INVALID_ARGUMENT},
      {"mach gfx942", kAbs, 48, 1, 0x4c, UQ_STATUS_UNIMPLEMENTED},
      {"mach none", kAbs, 48, 1, 0, UQ_STATUS_UNIMPLEMENTED},
      {"e_phoff past end", kAbs, 32, 8, 1u << 30, UQ_STATUS_DATA_LOSS},
      {"e_phoff overflow", kAbs, 32, 8, ~0ull - 8, UQ_STATUS_DATA_LOSS},
      {"e_phentsize", kAbs, 54, 2, 32, UQ_STATUS_DATA_LOSS},
      {"e_phnum 0", kAbs, 56, 2, 0, UQ_STATUS_DATA_LOSS},
      {"e_phnum huge", kAbs, 56, 2, 0xffff, UQ_STATUS_DATA_LOSS},
      {"e_shoff overflow", kAbs, 40, 8, ~0ull - 63, UQ_STATUS_DATA_LOSS},
      {"e_shentsize", kAbs, 58, 2, 40, UQ_STATUS_DATA_LOSS},
      {"e_shnum 0", kAbs, 60, 2, 0, UQ_STATUS_DATA_LOSS},
      {"e_shnum huge", kAbs, 60, 2, 0xffff, UQ_STATUS_DATA_LOSS},
      {"e_ehsize", kAbs, 52, 2, 12, UQ_STATUS_DATA_LOSS},
      {"p_offset overflow", kPhdrLoad, 8, 8, ~0ull - 4, UQ_STATUS_DATA_LOSS},
      {"p_filesz past end", kPhdrLoad, 32, 8, 1u << 30, UQ_STATUS_DATA_LOSS},
      {"p_memsz < p_filesz", kPhdrLoad, 40, 8, 1, UQ_STATUS_DATA_LOSS},
      {"p_memsz huge", kPhdrLoad, 40, 8, 1ull << 40, UQ_STATUS_DATA_LOSS},
      {"p_vaddr+p_memsz wraps", kPhdrLoad, 16, 8, ~0ull - 16,
       UQ_STATUS_DATA_LOSS},
      {"symtab offset overflow", kShdrSymtab, 24, 8, ~0ull - 8,
       UQ_STATUS_DATA_LOSS},
      {"symtab size past end", kShdrSymtab, 32, 8, 1ull << 33,
       UQ_STATUS_DATA_LOSS},
      {"symtab entsize", kShdrSymtab, 56, 8, 16, UQ_STATUS_DATA_LOSS},
      {"symtab link out of range", kShdrSymtab, 40, 4, 999,
       UQ_STATUS_DATA_LOSS},
      {"symtab link to itself", kShdrSymtab, 40, 4, 0, UQ_STATUS_DATA_LOSS},
  };
  char path[512];
  hsaco_path("copy_v6", path, sizeof(path));
  blob_t b;
  UQ_EXPECT_EQ_INT(read_blob(path, &b), 0);
  oracle_t *o = read_oracle("copy_v6");
  UQ_EXPECT(o != NULL);
  int failed = 0;
  uint8_t *copy = malloc(b.size);
  for (size_t i = 0; i < sizeof(patches) / sizeof(patches[0]); ++i) {
    const patch_t *p = &patches[i];
    memcpy(copy, b.data, b.size);
    uint64_t at = patch_base(&b, o, p->base) + p->offset;
    if (p->base == kShdrSymtab && p->offset == 40 && p->value == 0)
      put32(copy + at, oracle_section(o, ".symtab")->index);
    else if (p->width == 1)
      copy[at] = (uint8_t)p->value;
    else if (p->width == 2)
      put16(copy + at, (uint16_t)p->value);
    else if (p->width == 4)
      put32(copy + at, (uint32_t)p->value);
    else
      put64(copy + at, p->value);
    uq_status_code_t code = load_code(copy, b.size);
    if (code != p->code) {
      fprintf(stderr, "%s: expected %s, got %s\n", p->what,
              uq_status_code_name(p->code), uq_status_code_name(code));
      failed = 1;
    }
  }
  free(copy);
  free(o);
  free(b.data);
  return failed;
}

// An x86-64 ELF (this very test executable) is another machine.
static int test_rejects_x86_64_elf(void) {
  blob_t b;
  UQ_EXPECT_EQ_INT(read_blob("/proc/self/exe", &b), 0);
  uq_status_code_t code = load_code(b.data, b.size);
  free(b.data);
  UQ_EXPECT_EQ_INT(code, UQ_STATUS_INVALID_ARGUMENT);
  return 0;
}

static int test_rejects_gfx942(void) {
  uq_code_object_t *co = NULL;
  UQ_EXPECT_CODE(uq_code_object_load_file(INPUT("copy_gfx942.hsaco"), &co),
                 UQ_STATUS_UNIMPLEMENTED);
  UQ_EXPECT(co == NULL);
  return 0;
}

static int test_rejects_bad_metadata_variants(void) {
  static const char *const variants[] = {
      "bad_missing_symbol", "bad_arg_range", "bad_big_int",
      "bad_wave_size",      "bad_long_name", "bad_no_metadata",
  };
  for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); ++i) {
    char path[512];
    hsaco_path(variants[i], path, sizeof(path));
    uq_code_object_t *co = NULL;
    uq_status_t s = uq_code_object_load_file(path, &co);
    uq_status_code_t code = uq_status_consume_code(s);
    if (code != UQ_STATUS_DATA_LOSS || co != NULL) {
      fprintf(stderr, "%s: expected DATA_LOSS, got %s\n", variants[i],
              uq_status_code_name(code));
      return 1;
    }
  }
  return 0;
}

// Finds `needle` (n bytes) in the blob starting at `from`; SIZE_MAX if none.
static size_t find_bytes(const blob_t *b, size_t from, const void *needle,
                         size_t n) {
  for (size_t i = from; i + n <= b->size; ++i)
    if (memcmp(b->data + i, needle, n) == 0)
      return i;
  return SIZE_MAX;
}

// Edits inside the note, the symbol table and the descriptor of copy_v6.
static int test_rejects_note_and_symbol_corruption(void) {
  char path[512];
  hsaco_path("copy_v6", path, sizeof(path));
  blob_t b;
  UQ_EXPECT_EQ_INT(read_blob(path, &b), 0);
  oracle_t *o = read_oracle("copy_v6");
  UQ_EXPECT(o != NULL);
  const oracle_section_t *note = oracle_section(o, ".note");
  const oracle_symbol_t *kd = oracle_symbol(o, ".symtab", "copy_kernel.kd");
  const oracle_symbol_t *dkd = oracle_symbol(o, ".dynsym", "copy_kernel.kd");
  const oracle_section_t *symtab = oracle_section(o, ".symtab");
  const oracle_section_t *dynsym = oracle_section(o, ".dynsym");
  const oracle_section_t *rodata = oracle_section(o, ".rodata");
  UQ_EXPECT(note && kd && dkd && symtab && dynsym && rodata);
  uint8_t *c = malloc(b.size);
  int failed = 0;
  struct {
    const char *what;
    uq_status_code_t code;
  } cases[] = {
      {"note type 33", UQ_STATUS_DATA_LOSS},
      {"note owner AMDGPX", UQ_STATUS_DATA_LOSS},
      {"note namesz huge", UQ_STATUS_DATA_LOSS},
      {"note descsz huge", UQ_STATUS_DATA_LOSS},
      {"msgpack garbage 0xc1", UQ_STATUS_DATA_LOSS},
      {"msgpack array32 of 2^32-1", UQ_STATUS_DATA_LOSS},
      {"msgpack map32 of 2^32-1", UQ_STATUS_DATA_LOSS},
      {"msgpack root not a map", UQ_STATUS_DATA_LOSS},
      {"descriptor symbols renamed", UQ_STATUS_DATA_LOSS},
      {"descriptor symbol FUNC", UQ_STATUS_DATA_LOSS},
      {"descriptor symbol size 32", UQ_STATUS_DATA_LOSS},
      {"descriptor symbol undefined", UQ_STATUS_DATA_LOSS},
      {"descriptor value past image", UQ_STATUS_DATA_LOSS},
      {"descriptor value wraps", UQ_STATUS_DATA_LOSS},
      {"symbol name offset huge", UQ_STATUS_DATA_LOSS},
      {"entry offset past image", UQ_STATUS_DATA_LOSS},
      {"entry offset before image", UQ_STATUS_DATA_LOSS},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    memcpy(c, b.data, b.size);
    uint64_t n = note->offset, desc = n + 12 + 8; // "AMDGPU\0" padded to 8
    uint64_t s1 = symtab->offset + kd->index * 24;
    uint64_t s2 = dynsym->offset + dkd->index * 24;
    uint64_t kd_file = rodata->offset + (kd->value - rodata->address);
    switch (i) {
    case 0:
      put32(c + n + 8, 33);
      break;
    case 1:
      c[n + 12 + 5] = 'X';
      break;
    case 2:
      put32(c + n, 0xffffffffu);
      break;
    case 3:
      put32(c + n + 4, 0xfffffff0u);
      break;
    case 4:
      c[desc] = 0xc1;
      break;
    case 5:
      c[desc] = 0xdd;
      put32(c + desc + 1, 0xffffffffu);
      break;
    case 6:
      c[desc] = 0xdf;
      put32(c + desc + 1, 0xffffffffu);
      break;
    case 7:
      c[desc] = 0x93;
      break; // fixarray of 3 where a map was
    case 8: {
      size_t at = 0;
      while ((at = find_bytes(&(blob_t){c, b.size}, at, "copy_kernel.kd",
                              15)) != SIZE_MAX)
        c[at++] = 'k';
      break;
    }
    case 9:
      c[s1 + 4] = (c[s1 + 4] & 0xf0) | 2;
      c[s2 + 4] = c[s1 + 4];
      break;
    case 10:
      put64(c + s1 + 16, 32);
      put64(c + s2 + 16, 32);
      break;
    case 11:
      put16(c + s1 + 6, 0);
      put16(c + s2 + 6, 0);
      break;
    case 12:
      put64(c + s1 + 8, 1u << 20);
      put64(c + s2 + 8, 1u << 20);
      break;
    case 13:
      put64(c + s1 + 8, ~0ull - 8);
      put64(c + s2 + 8, ~0ull - 8);
      break;
    case 14:
      put32(c + s1, 0x7fffffffu);
      put32(c + s2, 0x7fffffffu);
      break;
    case 15:
      put64(c + kd_file + 16, 1ull << 40);
      break;
    case 16:
      put64(c + kd_file + 16, (uint64_t) - (int64_t)(kd->value + 4));
      break;
    }
    uq_status_code_t code = load_code(c, b.size);
    if (code != cases[i].code) {
      fprintf(stderr, "%s: expected %s, got %s\n", cases[i].what,
              uq_status_code_name(cases[i].code), uq_status_code_name(code));
      failed = 1;
    }
  }
  free(c);
  free(o);
  free(b.data);
  return failed;
}

// A small MessagePack writer, independent of msgpack-c, for building
// metadata notes with one field broken at a time.
typedef struct mp_s {
  uint8_t buf[2048];
  size_t n;
} mp_t;
static void mp_byte(mp_t *m, uint8_t b) {
  if (m->n < sizeof(m->buf))
    m->buf[m->n++] = b;
}
static void mp_be(mp_t *m, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i)
    mp_byte(m, (uint8_t)(v >> (8 * i)));
}
static void mp_map(mp_t *m, uint32_t n) { mp_byte(m, (uint8_t)(0x80 | n)); }
static void mp_arr(mp_t *m, uint32_t n) { mp_byte(m, (uint8_t)(0x90 | n)); }
static void mp_strn(mp_t *m, const char *s, size_t len) {
  if (len < 32) {
    mp_byte(m, (uint8_t)(0xa0 | len));
  } else {
    mp_byte(m, 0xd9);
    mp_byte(m, (uint8_t)len);
  }
  for (size_t i = 0; i < len; ++i)
    mp_byte(m, (uint8_t)s[i]);
}
static void mp_str(mp_t *m, const char *s) { mp_strn(m, s, strlen(s)); }
// Unsigned integers in the shortest form, as LLVM writes them.
static void mp_uint(mp_t *m, uint64_t v) {
  if (v < 128) {
    mp_byte(m, (uint8_t)v);
  } else if (v < 65536) {
    mp_byte(m, 0xcd);
    mp_be(m, v, 2);
  } else {
    mp_byte(m, 0xce);
    mp_be(m, v, 4);
  }
}
// The widest form (uint64), which LLVM never writes.
static void mp_u64(mp_t *m, uint64_t v) {
  mp_byte(m, 0xcf);
  mp_be(m, v, 8);
}

enum {
  kMetaOk,
  kMetaVersion2,
  kMetaNoVersion,
  kMetaTargetInt,
  kMetaKernelsMap,
  kMetaKernelInt,
  kMetaNameInt,
  kMetaNameNul,
  kMetaNoSymbol,
  kMetaSgprNegative,
  kMetaVgprFloat,
  kMetaReqdTwo,
  kMetaReqdZero,
  kMetaArgsMap,
  kMetaArgInt,
  kMetaArgNoKind,
  kMetaArgKindLong,
  kMetaRootArray,
  kMetaNoKernels,
  kMetaCount,
};

// Writes the copy kernel's metadata with mutation `which` applied.
static void build_metadata(int which, mp_t *m) {
  m->n = 0;
  if (which == kMetaRootArray) {
    mp_arr(m, 0);
    return;
  }
  mp_map(m, which == kMetaNoVersion ? 2 : 3);
  if (which != kMetaNoVersion) {
    mp_str(m, "amdhsa.version");
    mp_arr(m, 2);
    mp_uint(m, which == kMetaVersion2 ? 2 : 1);
    mp_uint(m, 2);
  }
  mp_str(m, "amdhsa.target");
  if (which == kMetaTargetInt)
    mp_uint(m, 950);
  else
    mp_str(m, "amdgcn-amd-amdhsa--gfx950");
  mp_str(m, "amdhsa.kernels");
  if (which == kMetaKernelsMap) {
    mp_map(m, 0);
    return;
  }
  if (which == kMetaNoKernels) {
    mp_arr(m, 0);
    return;
  }
  mp_arr(m, 1);
  if (which == kMetaKernelInt) {
    mp_uint(m, 1);
    return;
  }
  // The long value_kind case leaves out .reqd_workgroup_size to stay within
  // the original note's length.
  mp_map(m, which == kMetaNoSymbol || which == kMetaArgKindLong ? 11 : 12);
  mp_str(m, ".name");
  if (which == kMetaNameInt)
    mp_uint(m, 7);
  else if (which == kMetaNameNul)
    mp_strn(m, "copy\0kernel", 11);
  else
    mp_str(m, "copy_kernel");
  if (which != kMetaNoSymbol) {
    mp_str(m, ".symbol");
    mp_str(m, "copy_kernel.kd");
  }
  static const char *const keys[] = {".kernarg_segment_size",
                                     ".kernarg_segment_align",
                                     ".group_segment_fixed_size",
                                     ".private_segment_fixed_size",
                                     ".wavefront_size",
                                     ".sgpr_count",
                                     ".vgpr_count",
                                     ".max_flat_workgroup_size"};
  static const uint64_t values[] = {16, 8, 256, 0, 64, 14, 3, 256};
  for (int i = 0; i < 8; ++i) {
    mp_str(m, keys[i]);
    if (which == kMetaSgprNegative && i == 5)
      mp_byte(m, 0xff); // negative fixint -1
    else if (which == kMetaVgprFloat && i == 6) {
      mp_byte(m, 0xca);
      mp_be(m, 0x40400000u, 4); // 3.0f
    } else if (i == 2)
      mp_u64(m, values[i]);
    else
      mp_uint(m, values[i]);
  }
  if (which != kMetaArgKindLong) {
    mp_str(m, ".reqd_workgroup_size");
    mp_arr(m, which == kMetaReqdTwo ? 2 : 3);
    mp_uint(m, which == kMetaReqdZero ? 0 : 64);
    mp_uint(m, 1);
    if (which != kMetaReqdTwo)
      mp_uint(m, 1);
  }
  mp_str(m, ".args");
  if (which == kMetaArgsMap) {
    mp_map(m, 0);
    return;
  }
  mp_arr(m, 2);
  for (int a = 0; a < 2; ++a) {
    if (which == kMetaArgInt && a == 1) {
      mp_uint(m, 5);
      continue;
    }
    mp_map(m, which == kMetaArgNoKind && a == 1 ? 3 : 4);
    mp_str(m, ".name");
    mp_str(m, a ? "out" : "in");
    mp_str(m, ".offset");
    mp_uint(m, 8u * (unsigned)a);
    mp_str(m, ".size");
    mp_uint(m, 8);
    if (which == kMetaArgNoKind && a == 1)
      continue;
    mp_str(m, ".value_kind");
    mp_str(m, which == kMetaArgKindLong && a == 1
                  ? "x23456789_123456789_123456789_123456789_12345678"
                  : "global_buffer");
  }
}

// Replaces copy_v6's metadata note payload with each mutation, padded to the
// same length, so the note headers stay valid and only the MessagePack
// changes: a control that loads, one broken field per other case.
static int test_rejects_malformed_metadata_fields(void) {
  char path[512];
  hsaco_path("copy_v6", path, sizeof(path));
  blob_t b;
  UQ_EXPECT_EQ_INT(read_blob(path, &b), 0);
  oracle_t *o = read_oracle("copy_v6");
  UQ_EXPECT(o != NULL);
  const oracle_section_t *note = oracle_section(o, ".note");
  UQ_EXPECT(note != NULL);
  uint64_t desc = note->offset + 20;
  uint32_t descsz = (uint32_t)b.data[note->offset + 4] |
                    (uint32_t)b.data[note->offset + 5] << 8;
  uint8_t *c = malloc(b.size);
  int failed = 0;
  for (int which = 0; which < kMetaCount; ++which) {
    mp_t m;
    build_metadata(which, &m);
    memcpy(c, b.data, b.size);
    // Filler: the root map gets one more key ("~") whose str16 value takes
    // up the bytes left, so descsz and the note layout stay unchanged.
    size_t filler = descsz - m.n - 2 - 3;
    if (m.n + 5 > descsz) {
      fprintf(stderr, "metadata %d does not fit (%zu > %u)\n", which, m.n,
              descsz);
      failed = 1;
      break;
    }
    // One more root map entry, or two more root array elements.
    m.buf[0] += which == kMetaRootArray ? 2 : 1;
    memcpy(c + desc, m.buf, m.n);
    uint8_t *p = c + desc + m.n;
    *p++ = 0xa1;
    *p++ = '~';
    *p++ = 0xda;
    *p++ = (uint8_t)(filler >> 8);
    *p++ = (uint8_t)filler;
    memset(p, 'f', filler);
    uq_code_object_t *co = NULL;
    uq_status_t s = uq_code_object_load(c, b.size, &co);
    uq_status_code_t want = which == kMetaOk || which == kMetaNoKernels
                                ? UQ_STATUS_OK
                                : UQ_STATUS_DATA_LOSS;
    uq_status_code_t got = uq_status_code(s);
    if (got != want) {
      fprintf(stderr, "metadata mutation %d: expected %s, got %s (%s)\n", which,
              uq_status_code_name(want), uq_status_code_name(got),
              uq_status_message(s));
      failed = 1;
    } else if (which == kMetaOk) {
      // The same values the note was built with, read from uint64 forms.
      const uq_kernel_info_t *k = uq_code_object_kernel_at(co, 0);
      failed |= k == NULL || k->group_segment_fixed_size != 256 ||
                k->reqd_workgroup_size[0] != 64 || k->arg_count != 2 ||
                k->args[1].offset != 8 || strcmp(k->args[1].name, "out") != 0;
    } else if (which == kMetaNoKernels) {
      failed |= uq_code_object_kernel_count(co) != 0;
    }
    uq_status_free(s);
    uq_code_object_destroy(co);
  }
  free(c);
  free(o);
  free(b.data);
  return failed;
}

// Random byte corruption of every good code object: the reader must either
// load it (then every pointer it hands out stays inside the image) or
// answer with one of the documented codes. Never a crash or a sanitizer
// report.
static int test_random_corruption(void) {
  seed_rng("random_corruption");
  for (int i = 0; i < kGoodCount; ++i) {
    char path[512];
    hsaco_path(kGood[i], path, sizeof(path));
    blob_t b;
    UQ_EXPECT_EQ_INT(read_blob(path, &b), 0);
    uint8_t *c = malloc(b.size);
    for (int iter = 0; iter < 3000; ++iter) {
      memcpy(c, b.data, b.size);
      int flips = 1 + (int)(rng_u32() % 8);
      for (int f = 0; f < flips; ++f) {
        // Half the flips land in the first 0x300 bytes (headers, note).
        size_t at = rng_u32() % 2
                        ? rng_u32() % (b.size < 0x300 ? b.size : 0x300)
                        : rng_u32() % b.size;
        c[at] ^= (uint8_t)(1u << (rng_u32() % 8));
      }
      uq_code_object_t *co = NULL;
      uq_status_t s = uq_code_object_load(c, b.size, &co);
      uq_status_code_t code = uq_status_consume_code(s);
      if (code == UQ_STATUS_OK) {
        size_t image_size;
        (void)uq_code_object_image(co, &image_size);
        for (size_t k = 0; k < uq_code_object_kernel_count(co); ++k) {
          const uq_kernel_info_t *ki = uq_code_object_kernel_at(co, k);
          UQ_EXPECT(ki->descriptor_vaddr + 64 <= image_size);
          UQ_EXPECT(ki->entry_vaddr < image_size);
          for (uint32_t a = 0; a < ki->arg_count; ++a)
            UQ_EXPECT((uint64_t)ki->args[a].offset + ki->args[a].size <=
                      ki->kernarg_segment_size);
        }
        uq_code_object_destroy(co);
      } else if (code != UQ_STATUS_DATA_LOSS &&
                 code != UQ_STATUS_INVALID_ARGUMENT &&
                 code != UQ_STATUS_UNIMPLEMENTED) {
        fprintf(stderr, "%s iteration %d: unexpected %s\n", kGood[i], iter,
                uq_status_code_name(code));
        free(c);
        free(b.data);
        return 1;
      }
    }
    free(c);
    free(b.data);
  }
  return 0;
}

// The descriptor decoder against bytes placed by hand at AMDGPUUsage's
// offsets, on random values.
static int test_descriptor_decode_offsets(void) {
  seed_rng("descriptor_decode");
  for (int i = 0; i < 1000; ++i) {
    uint8_t raw[64];
    for (int j = 0; j < 64; ++j)
      raw[j] = (uint8_t)rng_u32();
    uq_kernel_descriptor_t kd;
    uq_kernel_descriptor_decode(raw, &kd);
    UQ_EXPECT(memcmp(kd.raw, raw, 64) == 0);
    uint32_t w[16];
    for (int j = 0; j < 16; ++j)
      w[j] = (uint32_t)raw[4 * j] | (uint32_t)raw[4 * j + 1] << 8 |
             (uint32_t)raw[4 * j + 2] << 16 | (uint32_t)raw[4 * j + 3] << 24;
    UQ_EXPECT_EQ_HEX(kd.group_segment_fixed_size, w[0]);
    UQ_EXPECT_EQ_HEX(kd.private_segment_fixed_size, w[1]);
    UQ_EXPECT_EQ_HEX(kd.kernarg_size, w[2]);
    UQ_EXPECT_EQ_HEX((uint64_t)kd.kernel_code_entry_byte_offset,
                     (uint64_t)w[4] | (uint64_t)w[5] << 32);
    UQ_EXPECT_EQ_HEX(kd.compute_pgm_rsrc3, w[11]);
    UQ_EXPECT_EQ_HEX(kd.compute_pgm_rsrc1, w[12]);
    UQ_EXPECT_EQ_HEX(kd.compute_pgm_rsrc2, w[13]);
    UQ_EXPECT_EQ_HEX(kd.kernel_code_properties, w[14] & 0xffff);
    UQ_EXPECT_EQ_HEX(kd.kernarg_preload, w[14] >> 16);
  }
  return 0;
}

static const uq_test_case_t kTests[] = {
    {"fields_match_readelf_and_objdump", test_fields_match_readelf_and_objdump},
    {"image_matches_segments", test_image_matches_segments},
    {"find_kernel_not_found", test_find_kernel_not_found},
    {"manifest_matches_oracle", test_manifest_matches_oracle},
    {"manifest_write_error", test_manifest_write_error},
    {"occupancy_matches_placement", test_occupancy_matches_placement},
    {"descriptor_decode_offsets", test_descriptor_decode_offsets},
    {"rejects_empty_and_tiny_buffers", test_rejects_empty_and_tiny_buffers},
    {"rejects_every_truncation", test_rejects_every_truncation},
    {"rejects_header_corruption", test_rejects_header_corruption},
    {"rejects_x86_64_elf", test_rejects_x86_64_elf},
    {"rejects_gfx942", test_rejects_gfx942},
    {"rejects_bad_metadata_variants", test_rejects_bad_metadata_variants},
    {"rejects_note_and_symbol_corruption",
     test_rejects_note_and_symbol_corruption},
    {"rejects_malformed_metadata_fields",
     test_rejects_malformed_metadata_fields},
    {"random_corruption", test_random_corruption},
    {0, 0},
};

int main(int argc, char **argv) { return uq_test_main(argc, argv, kTests); }
