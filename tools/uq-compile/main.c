// uq-compile: kernels/ (or any input) -> one code object per variant
// (gfx950 HSACO, or an NVIDIA cubin for a gpu.module with an #nvvm.target),
// a manifest per code object read back from the object itself (AMDHSA note
// or .nv.info), and optionally a C source embedding them for the runtime.
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codeobj/codeobj.h"
#include "lowering/context.h"
#include "lowering/pipeline.h"
#include "tools/common/file_util.h"
#include "tools/common/kernel_source.h"
#include "tools/common/stdout_check.h"
#include "tools/uq-compile/embed.h"

#ifndef UQ_DEFAULT_TOOLKIT_DIR
#define UQ_DEFAULT_TOOLKIT_DIR ""
#endif
// The CUDA toolkit found at configure time ("" when none: NVIDIA variants
// are then left out unless --cuda=DIR names one).
#ifndef UQ_DEFAULT_CUDA_DIR
#define UQ_DEFAULT_CUDA_DIR ""
#endif

enum { kMaxSelected = 64 };

static void usage(FILE *out) {
  fprintf(out,
          "usage: uq-compile [options] INPUT\n"
          "\n"
          "Compiles every kernel variant declared in INPUT, an MLIR file or a\n"
          "folder of them (kernels/: merged, then linked by uq-link), each\n"
          "gpu.module times its `uq.variants`, to a code object for the\n"
          "module's target:\n"
          "a gfx950 HSACO (#rocdl.target) or an sm_90a cubin (#nvvm.target).\n"
          "\n"
          "options:\n"
          "  -o DIR            write DIR/<variant>.hsaco and "
          "DIR/<variant>.json,\n"
          "                    or DIR/<variant>.cubin\n"
          "                    (at least one of -o and --embed-c)\n"
          "  --variant=KEY     only this variant (repeatable), e.g. "
          "decode_d256_rows8\n"
          "  --target=CHIP     only the variants for gfx950 or sm_90a "
          "(repeatable;\n"
          "                    default: every target; sm_90a needs a CUDA "
          "toolkit)\n"
          "  --embed-c=FILE    also write a C source embedding the "
          "code objects\n"
          "                    as typed records (uq/variant.h)\n"
          "  --emit=hsaco|isa  code objects (default) or assembly "
          "(DIR/<variant>.s, .ptx)\n"
          "  --toolkit=DIR     directory whose llvm/bin/ld.lld is lld-22\n"
          "  --cuda=DIR        CUDA toolkit (DIR/bin/ptxas) for the sm_90a "
          "variants\n"
          "  --held            also the held variants (an entry's held = 1:\n"
          "                    compiled but not yet checked on their "
          "hardware),\n"
          "                    for a candidate library\n"
          "  --list            print the variants and exit\n"
          "  --print-pipeline  print each variant's pass pipeline\n"
          "  --quiet           do not print the summary table\n"
          "  --help            this text\n");
}

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int fail(const char *format, ...) __attribute__((format(printf, 1, 2)));

static int fail(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "uq-compile: error: ");
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
  return 1;
}

static int fail_status(uq_status_t status) {
  fprintf(stderr, "uq-compile: error: %s\n", uq_status_message(status));
  uq_status_free(status);
  return 1;
}

static uq_status_t write_manifest(uq_file_batch_t *batch, const char *path,
                                  const uq_kernel_info_t *kernel,
                                  const char *variant) {
  char *text = NULL;
  size_t length = 0;
  FILE *out = open_memstream(&text, &length);
  if (!out)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  uq_status_t status = uq_kernel_write_manifest_json(kernel, variant, out);
  fputc('\n', out);
  fclose(out);
  if (status == UQ_OK)
    status = uq_file_batch_stage(batch, path, text, length);
  free(text);
  return status;
}

// A variant key becomes a file name (DIR/<key>.hsaco) and a C string: only
// a plain identifier may, so `gpu.module @"../x"` cannot write outside -o.
static bool plain_identifier(const char *name) {
  if (!((*name >= 'A' && *name <= 'Z') || (*name >= 'a' && *name <= 'z') ||
        *name == '_'))
    return false;
  for (const char *c = name + 1; *c; ++c)
    if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
          (*c >= '0' && *c <= '9') || *c == '_'))
      return false;
  return true;
}

// Every key a plain identifier that fits its buffer untruncated, and no two
// alike (a second {qg = 8} would silently replace the first's files).
static int check_variant_keys(const uq_variant_t *variants, size_t count) {
  for (size_t v = 0; v < count; ++v) {
    const char *key = variants[v].key;
    if (strlen(key) + 1 >= sizeof(variants[v].key))
      return fail("variant name '%s...' of gpu.module '%s' is too long", key,
                  variants[v].module);
    if (!plain_identifier(key))
      return fail("variant name '%s' of gpu.module '%s' is not a plain "
                  "identifier ([A-Za-z_][A-Za-z0-9_]*): it would be a file "
                  "name",
                  key, variants[v].module);
    for (size_t w = 0; w < v; ++w)
      if (strcmp(variants[w].key, key) == 0)
        return fail("variant '%s' is declared twice (gpu.module '%s')", key,
                    variants[v].module);
  }
  return 0;
}

typedef struct compiled_s {
  uq_variant_t variant;
  uint8_t *data;
  size_t size;
  char kernel[136];
  uq_variant_record_t record; // strings and data point into this entry
  uq_variant_arg_t args[32];
} compiled_t;

// The record kind of a gpu.module stem: its first word ("decode" for
// @uq_decode and @uq_decode_sm90; the target is the module's own).
static uq_variant_kind_t kind_of(const char *stem) {
  static const struct {
    const char *word;
    uq_variant_kind_t kind;
  } kinds[] = {{"decode", UQ_VARIANT_KIND_DECODE},
               {"reduce", UQ_VARIANT_KIND_REDUCE},
               {"store", UQ_VARIANT_KIND_STORE},
               {"view", UQ_VARIANT_KIND_VIEW}};
  size_t length = strcspn(stem, "_");
  for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); ++i)
    if (strlen(kinds[i].word) == length &&
        strncmp(stem, kinds[i].word, length) == 0)
      return kinds[i].kind;
  return UQ_VARIANT_KIND_NONE;
}

// Every variant of a kind the runtime loads (decode, reduce, store, view) is
// one it can select (uq/variant.h): a decode built for qg_max 17 or 64, or any
// kernel for head dim 96, would be embedded and never served, or served for
// query groups it was not built for. Checked before anything is compiled.
static int check_variant_set(const uq_variant_t *variants, size_t count) {
  for (size_t v = 0; v < count; ++v) {
    const uq_variant_t *x = &variants[v];
    uq_variant_kind_t kind = kind_of(x->stem);
    if (kind == UQ_VARIANT_KIND_NONE)
      continue; // a test module: uq-compile builds it, nothing selects it
    if (!uq_variant_head_dim_selectable(x->head_dim))
      return fail("variant '%s': head dim d = %u is not one the runtime "
                  "selects (" UQ_HEAD_DIMS_TEXT ")",
                  x->key, x->head_dim);
    if (kind == UQ_VARIANT_KIND_DECODE &&
        !uq_variant_qg_max_selectable(x->qg_max))
      return fail("variant '%s': qg_max = %u is outside 1..%d, the query "
                  "groups the runtime selects decode records for",
                  x->key, x->qg_max, UQ_VARIANT_MAX_QUERY_GROUP);
  }
  return 0;
}

// The typed record of a compiled variant, from the variant's declaration and
// the code object's own metadata (read back, not taken from the IR).
static bool fill_record(compiled_t *c, const uq_kernel_info_t *kernel) {
  uq_variant_record_t *r = &c->record;
  if (kernel->arg_count > sizeof(c->args) / sizeof(c->args[0]))
    return false;
  memset(r, 0, sizeof(*r));
  r->variant = c->variant.key;
  r->kernel = c->kernel;
  r->data = c->data;
  r->size = c->size;
  r->kind = kind_of(c->variant.stem);
  r->target = c->variant.target;
  r->head_dim = c->variant.head_dim;
  r->qg_max = c->variant.qg_max;
  r->rows = c->variant.rows;
  r->min_rows = c->variant.min_rows;
  r->lds_bytes = kernel->group_segment_fixed_size;
  r->vgpr_count = kernel->vgpr_count;
  r->agpr_count = kernel->agpr_count;
  r->sgpr_count = kernel->sgpr_count;
  r->scratch_bytes = kernel->private_segment_fixed_size;
  r->arg_count = 0;
  for (uint32_t a = 0; a < kernel->arg_count; ++a) {
    if (kernel->args[a].kind == UQ_KERNARG_HIDDEN)
      continue;
    c->args[r->arg_count].offset = kernel->args[a].offset;
    c->args[r->arg_count].size = kernel->args[a].size;
    ++r->arg_count;
  }
  r->args = c->args;
  return true;
}

int main(int argc, char **argv) {
  uq_tool_check_stdout_at_exit("uq-compile");
  const char *input = NULL, *out_dir = NULL, *embed_path = NULL;
  const char *toolkit = UQ_DEFAULT_TOOLKIT_DIR;
  const char *cuda_dir = UQ_DEFAULT_CUDA_DIR;
  int want_gfx950 = 0, want_sm90 = 0;
  const char *selected[kMaxSelected];
  int selected_count = 0, list = 0, quiet = 0, emit_isa = 0, print_pipeline = 0;
  int held = 0;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(arg, "-o") == 0) {
      if (++i == argc)
        return fail("-o needs a directory");
      out_dir = argv[i];
    } else if (strncmp(arg, "--variant=", 10) == 0) {
      if (selected_count == kMaxSelected)
        return fail("too many --variant flags");
      selected[selected_count++] = arg + 10;
    } else if (strncmp(arg, "--embed-c=", 10) == 0) {
      embed_path = arg + 10;
    } else if (strncmp(arg, "--toolkit=", 10) == 0) {
      toolkit = arg + 10;
    } else if (strncmp(arg, "--cuda=", 7) == 0) {
      cuda_dir = arg + 7;
    } else if (strcmp(arg, "--target=gfx950") == 0) {
      want_gfx950 = 1;
    } else if (strcmp(arg, "--target=sm_90a") == 0) {
      want_sm90 = 1;
    } else if (strncmp(arg, "--target=", 9) == 0) {
      return fail("unknown target '%s' (gfx950 or sm_90a)", arg + 9);
    } else if (strcmp(arg, "--emit=hsaco") == 0) {
      emit_isa = 0;
    } else if (strcmp(arg, "--emit=isa") == 0) {
      emit_isa = 1;
    } else if (strcmp(arg, "--list") == 0) {
      list = 1;
    } else if (strcmp(arg, "--held") == 0) {
      held = 1;
    } else if (strcmp(arg, "--print-pipeline") == 0) {
      print_pipeline = 1;
    } else if (strcmp(arg, "--quiet") == 0) {
      quiet = 1;
    } else if (arg[0] == '-' && arg[1]) {
      return fail("unknown flag '%s' (see --help)", arg);
    } else if (input) {
      return fail("more than one input ('%s' and '%s')", input, arg);
    } else {
      input = arg;
    }
  }
  if (!input)
    return fail("no input file (see --help)");
  if (!list && !out_dir && !embed_path)
    return fail("no output: pass -o DIR and/or --embed-c=FILE");
  if (emit_isa && !out_dir)
    return fail("--emit=isa needs -o DIR");
  if (emit_isa && embed_path)
    return fail("--embed-c needs code objects, not --emit=isa");
  if (!want_gfx950 && !want_sm90) { // every target this build can make
    want_gfx950 = 1;
    want_sm90 = cuda_dir[0] != 0;
  }
  char ptxas[4096];
  snprintf(ptxas, sizeof(ptxas), "%s/bin/ptxas", cuda_dir);
  if (!list && want_sm90) {
    FILE *probe = cuda_dir[0] ? fopen(ptxas, "rb") : NULL;
    if (!probe)
      return fail("sm_90a needs a CUDA toolkit: no ptxas at '%s' (set "
                  "--cuda=DIR)",
                  ptxas);
    fclose(probe);
  }
  if (!list) {
    uq_status_t status = out_dir ? uq_directory_check(out_dir) : UQ_OK;
    if (status)
      return fail_status(status);
    char probe[4096];
    snprintf(probe, sizeof(probe), "%s/llvm/bin/ld.lld", toolkit);
    FILE *lld = want_gfx950 ? fopen(probe, "rb") : NULL;
    if (want_gfx950 && !lld)
      return fail("no linker at '%s' (set --toolkit=DIR)", probe);
    if (lld)
      fclose(lld);
  }

  double start = now_seconds();
  uq_register_upstream_passes();
  uq_diagnostics_t diagnostics = {stderr, 0, 0, false};
  MlirContext context = uq_context_create(&diagnostics);
  if (mlirContextIsNull(context))
    return 1;
  int rc = 0;
  uq_variant_t *variants = NULL;
  size_t variant_count = 0;
  compiled_t *compiled = NULL;
  size_t compiled_count = 0;
  uq_file_batch_t *batch = NULL;
  MlirOperation op =
      uq_kernel_source_parse(context, &diagnostics, input, "uq-compile");
  if (mlirOperationIsNull(op) || !mlirOperationVerify(op)) {
    rc = 1;
    goto done;
  }
  MlirModule module = mlirModuleFromOperation(op);
  if (!uq_variants_list(module, &variants, &variant_count)) {
    rc = 1;
    goto done;
  }
  if (variant_count == 0) {
    rc = fail("'%s' has no gpu.module to compile", input);
    goto done;
  }
  rc = check_variant_keys(variants, variant_count);
  if (!rc)
    rc = check_variant_set(variants, variant_count);
  if (rc)
    goto done;
  for (int s = 0; s < selected_count && !held; ++s)
    for (size_t v = 0; v < variant_count; ++v)
      if (variants[v].held && strcmp(variants[v].key, selected[s]) == 0) {
        rc = fail("variant '%s' is held (compiled but not yet checked on its "
                  "hardware): pass --held to build it",
                  selected[s]);
        goto done;
      }
  size_t held_left_out = 0;
  { // keep the requested targets' variants (the held ones on request)
    size_t kept = 0;
    for (size_t v = 0; v < variant_count; ++v) {
      if (!(uq_variant_is_nvidia(&variants[v]) ? want_sm90 : want_gfx950))
        continue;
      if (variants[v].held && !held)
        ++held_left_out;
      else
        variants[kept++] = variants[v];
    }
    variant_count = kept;
  }
  if (list) {
    // key, what it serves (head dim, query groups) and its parameters
    for (size_t v = 0; v < variant_count; ++v) {
      const uq_variant_t *x = &variants[v];
      char serves[64] = "";
      if (x->head_dim && x->qg_max && x->min_rows)
        snprintf(serves, sizeof(serves), "D %u, QG 1-%u, %u rows (runs >= %u)",
                 x->head_dim, x->qg_max, x->rows, x->min_rows);
      else if (x->head_dim && x->qg_max && x->rows > x->qg_max)
        snprintf(serves, sizeof(serves), "D %u, QG 1-%u, %u rows", x->head_dim,
                 x->qg_max, x->rows);
      else if (x->head_dim && x->qg_max)
        snprintf(serves, sizeof(serves), "D %u, QG 1-%u", x->head_dim,
                 x->qg_max);
      else if (x->head_dim)
        snprintf(serves, sizeof(serves), "D %u", x->head_dim);
      printf("%-22s %-24s %s%s\n", x->key, serves, x->bindings,
             x->held ? " (held)" : "");
    }
    if (held_left_out) // a comment line: the keys above are the set built
      printf("# and %zu held variant(s): --held lists them\n", held_left_out);
    goto done;
  }
  // Every requested variant must exist before anything is compiled.
  for (int s = 0; s < selected_count; ++s) {
    size_t v = 0;
    while (v < variant_count && strcmp(variants[v].key, selected[s]) != 0)
      ++v;
    if (v == variant_count) {
      char known[1024] = "";
      for (size_t k = 0; k < variant_count; ++k) {
        size_t used = strlen(known);
        snprintf(known + used, sizeof(known) - used, "%s%s", k ? ", " : "",
                 variants[k].key);
      }
      rc =
          fail("unknown variant '%s' (this input has: %s)", selected[s], known);
      goto done;
    }
  }
  compiled = calloc(variant_count, sizeof(*compiled));
  uq_status_t status = uq_file_batch_create(&batch);
  if (status) {
    rc = fail_status(status);
    goto done;
  }
  if (!compiled) {
    rc = fail("out of memory");
    goto done;
  }
  uq_compile_options_t options = {"gfx950", toolkit, emit_isa != 0, cuda_dir};
  if (!quiet)
    printf("%-22s %-26s %8s %5s %5s %5s %7s %7s %6s %6s %8s\n", "variant",
           "kernel", "bytes", "vgpr", "agpr", "sgpr", "lds", "scratch", "waves",
           "stages", "seconds");
  for (size_t v = 0; v < variant_count; ++v) {
    int wanted = selected_count == 0;
    for (int s = 0; s < selected_count; ++s)
      wanted |= strcmp(variants[v].key, selected[s]) == 0;
    if (!wanted)
      continue;
    if (print_pipeline) {
      char pipeline[2048];
      uq_pipeline_text(&variants[v], &options, pipeline, sizeof(pipeline));
      printf("%s: %s\n", variants[v].key, pipeline);
    }
    double t0 = now_seconds();
    compiled_t *c = &compiled[compiled_count];
    c->variant = variants[v];
    char error[512] = "";
    if (!uq_compile_variant(module, &variants[v], &options, &c->data, &c->size,
                            error, sizeof(error))) {
      rc = fail("%s", error);
      goto done;
    }
    ++compiled_count;
    double seconds = now_seconds() - t0;
    char path[4096];
    int nvidia = uq_variant_is_nvidia(&variants[v]);
    if (emit_isa) {
      // PTX or ISA text.
      snprintf(path, sizeof(path), "%s/%s.%s", out_dir, variants[v].key,
               nvidia ? "ptx" : "s");
      status =
          out_dir ? uq_file_batch_stage(batch, path, c->data, c->size) : UQ_OK;
      if (status) {
        rc = fail_status(status);
        goto done;
      }
      if (!quiet)
        printf("%-22s %-26s %8zu %5s %5s %5s %7s %7s %6s %8.3f\n",
               variants[v].key, "-", c->size, "-", "-", "-", "-", "-", "-",
               seconds);
      continue;
    }
    // The manifest is read back from the code object, not from the IR: the
    // AMDHSA note of a HSACO, the .nv.info attributes of a cubin.
    uq_code_object_t *code_object = NULL;
    status = uq_code_object_load(c->data, c->size, &code_object);
    if (status) {
      status = uq_status_annotate(status, "reading back variant '%s'",
                                  variants[v].key);
      rc = fail_status(status);
      goto done;
    }
    if (uq_code_object_kernel_count(code_object) != 1) {
      uq_code_object_destroy(code_object);
      rc = fail("variant '%s' must hold exactly one kernel", variants[v].key);
      goto done;
    }
    const uq_kernel_info_t *kernel = uq_code_object_kernel_at(code_object, 0);
    snprintf(c->kernel, sizeof(c->kernel), "%s", kernel->name);
    if (!fill_record(c, kernel)) {
      uq_code_object_destroy(code_object);
      rc = fail("variant '%s' has too many kernel arguments", variants[v].key);
      goto done;
    }
    status = UQ_OK;
    if (out_dir) {
      snprintf(path, sizeof(path), "%s/%s.%s", out_dir, variants[v].key,
               nvidia ? "cubin" : "hsaco");
      status = uq_file_batch_stage(batch, path, c->data, c->size);
    }
    if (status == UQ_OK && out_dir) {
      snprintf(path, sizeof(path), "%s/%s.json", out_dir, variants[v].key);
      status = write_manifest(batch, path, kernel, variants[v].key);
    }
    if (!quiet && status == UQ_OK) {
      char stages[16] = "-"; // stated by the sm_90a kernels that stage KV
      if (kernel->pipeline_stages)
        snprintf(stages, sizeof(stages), "%u", kernel->pipeline_stages);
      printf("%-22s %-26s %8zu %5u %5u %5u %7u %7u %6u %6s %8.3f\n",
             variants[v].key, kernel->name, c->size, kernel->vgpr_count,
             kernel->agpr_count, kernel->sgpr_count,
             kernel->group_segment_fixed_size + kernel->dynamic_shared_bytes,
             kernel->private_segment_fixed_size,
             uq_kernel_occupancy(kernel, uq_kernel_workgroup_waves(kernel)),
             stages, seconds);
    }
    uq_code_object_destroy(code_object);
    if (status) {
      rc = fail_status(status);
      goto done;
    }
  }
  if (embed_path) {
    uq_variant_record_t *records = calloc(compiled_count + 1, sizeof(*records));
    if (!records) {
      rc = fail("out of memory");
      goto done;
    }
    size_t embedded = 0; // every target's: the runtime matches by target
    for (size_t i = 0; i < compiled_count; ++i) {
      records[embedded] = compiled[i].record;
      if (records[embedded].kind == UQ_VARIANT_KIND_NONE) {
        free(records);
        rc = fail("variant '%s': module @%s is no kernel kind the runtime "
                  "knows (decode, reduce, store, view)",
                  compiled[i].variant.key, compiled[i].variant.module);
        goto done;
      }
      ++embedded;
    }
    status = uq_embed_write_c(batch, embed_path, records, embedded);
    free(records);
    if (status) {
      rc = fail_status(status);
      goto done;
    }
  }
  // Every output is staged: only now do they all appear.
  status = uq_file_batch_commit(batch);
  if (status) {
    rc = fail_status(status);
    goto done;
  }
  if (!quiet)
    printf("total: %zu variant(s) in %.3f s\n", compiled_count,
           now_seconds() - start);
done:
  uq_file_batch_destroy(batch);
  for (size_t i = 0; i < compiled_count; ++i)
    free(compiled[i].data);
  free(compiled);
  free(variants);
  if (!mlirOperationIsNull(op))
    mlirOperationDestroy(op);
  mlirContextDestroy(context);
  return rc;
}
