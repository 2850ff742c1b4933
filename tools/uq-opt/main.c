// uq-opt: mlir-opt for this project. Reads MLIR, runs uq and upstream passes
// by name, prints the result.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/context.h"
#include "lowering/passes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tools/common/file_util.h"
#include "tools/common/kernel_source.h"
#include "tools/common/stdout_check.h"

static void usage(FILE *out) {
  fprintf(
      out,
      "usage: uq-opt [options] [INPUT]\n"
      "\n"
      "Reads MLIR from INPUT (default '-', stdin; a folder of .mlir files,\n"
      "such as kernels/, is read as one module), runs passes, prints the\n"
      "result to -o (default '-', stdout).\n"
      "\n"
      "options:\n"
      "  -o FILE                 output file (written only on success)\n"
      "  --pass-pipeline=TEXT    a pipeline, e.g. "
      "'builtin.module(uq-specialize{qg=8},canonicalize)'\n"
      "  --PASS[=OPTIONS]        append PASS (uq or upstream) to the "
      "pipeline\n"
      "  --split-input-file      process '// -----' chunks separately\n"
      "  --mlir-print-op-generic print the generic op form\n"
      "  --mlir-print-debuginfo  print each op's source location\n"
      "  --help                  this text\n"
      "\n"
      "uq passes:\n");
  for (const uq_pass_def_t *const *p = uq_passes; *p; ++p)
    fprintf(out, "  --%-22s %s%s%s%s\n", (*p)->argument, (*p)->description,
            (*p)->options_help ? " (options: " : "",
            (*p)->options_help ? (*p)->options_help : "",
            (*p)->options_help ? ")" : "");
  fprintf(out,
          "\nEvery upstream MLIR pass is accepted by its mlir-opt name.\n");
}

// How the output prints (bits of the `generic` arguments below).
enum { kPrintGeneric = 1, kPrintLocations = 2 };

typedef struct buffer_s {
  char *data;
  size_t size, capacity;
  int failed;
} buffer_t;

static void append(buffer_t *b, const char *data, size_t size) {
  if (b->failed)
    return;
  if (b->size + size + 1 > b->capacity) {
    size_t capacity = (b->size + size + 1) * 2;
    char *grown = realloc(b->data, capacity);
    if (!grown) {
      b->failed = 1;
      return;
    }
    b->data = grown;
    b->capacity = capacity;
  }
  memcpy(b->data + b->size, data, size);
  b->size += size;
  b->data[b->size] = 0;
}

static void append_callback(MlirStringRef text, void *user_data) {
  append(user_data, text.data, text.length);
}

// Verifies `op` (parsed in `context`), runs the pipeline on it and appends
// its printed form to `out`; destroys `op` and `context`.
static int process_op(MlirContext context, uq_diagnostics_t *diagnostics,
                      MlirOperation op, const char *pipeline, int generic,
                      buffer_t *out) {
  int rc = 0;
  if (mlirOperationIsNull(op)) {
    rc = 1; // the parser reported the error through the handler
  } else if (!mlirOperationVerify(op)) {
    rc = 1;
  } else if (pipeline && *pipeline) {
    MlirPassManager pm = mlirPassManagerCreateOnOperation(
        context, mlirIdentifierStr(mlirOperationGetName(op)));
    mlirPassManagerEnableVerifier(pm, true);
    char error[512] = "";
    if (!uq_pipeline_parse(mlirPassManagerGetAsOpPassManager(pm), pipeline,
                           error, sizeof(error))) {
      // A pipeline anchored on another op than this input's top level.
      fprintf(stderr, "uq-opt: error: %s\n", error);
      rc = 1;
    } else if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, op))) {
      if (diagnostics->errors == 0)
        fprintf(stderr, "uq-opt: error: pass pipeline failed\n");
      rc = 1;
    }
    mlirPassManagerDestroy(pm);
  }
  if (rc == 0) {
    MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
    if (generic & kPrintGeneric)
      mlirOpPrintingFlagsPrintGenericOpForm(flags);
    if (generic & kPrintLocations)
      mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
    mlirOperationPrintWithFlags(op, flags, append_callback, out);
    mlirOpPrintingFlagsDestroy(flags);
    append(out, "\n", 1);
  }
  if (!mlirOperationIsNull(op))
    mlirOperationDestroy(op);
  mlirContextDestroy(context);
  return rc;
}

// Processes one chunk of input in a fresh context. `line_offset` lines of
// padding keep diagnostics' line numbers those of the whole file.
static int process_chunk(const char *input_name, const char *chunk,
                         size_t length, int line_offset, const char *pipeline,
                         int generic, int allow_unregistered, buffer_t *out) {
  uq_diagnostics_t diagnostics = {stderr, 0, 0, false};
  MlirContext context = uq_context_create(&diagnostics);
  if (mlirContextIsNull(context))
    return 1;
  mlirContextSetAllowUnregisteredDialects(context, allow_unregistered != 0);
  char *padded = malloc(length + (size_t)line_offset + 1);
  if (!padded) {
    fprintf(stderr, "uq-opt: error: out of memory\n");
    mlirContextDestroy(context);
    return 1;
  }
  memset(padded, '\n', (size_t)line_offset);
  memcpy(padded + line_offset, chunk, length);
  padded[length + (size_t)line_offset] = 0;
  MlirOperation op = uq_parse_source(context, &diagnostics, padded,
                                     length + (size_t)line_offset, input_name);
  free(padded);
  return process_op(context, &diagnostics, op, pipeline, generic, out);
}

// A folder of kernel sources (kernels/), merged into one module.
static int process_folder(const char *folder, const char *pipeline, int generic,
                          int allow_unregistered, buffer_t *out) {
  uq_diagnostics_t diagnostics = {stderr, 0, 0, false};
  MlirContext context = uq_context_create(&diagnostics);
  if (mlirContextIsNull(context))
    return 1;
  mlirContextSetAllowUnregisteredDialects(context, allow_unregistered != 0);
  MlirOperation op =
      uq_kernel_source_parse(context, &diagnostics, folder, "uq-opt");
  return process_op(context, &diagnostics, op, pipeline, generic, out);
}

// Reports a malformed pipeline before any input is read, as mlir-opt does.
static int check_pipeline(const char *pipeline) {
  uq_diagnostics_t diagnostics = {stderr, 0, 0, false};
  MlirContext context = uq_context_create(&diagnostics);
  if (mlirContextIsNull(context))
    return 0;
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      context, mlirStringRefCreateFromCString("builtin.module"));
  char error[512] = "";
  int ok = uq_pipeline_parse(mlirPassManagerGetAsOpPassManager(pm), pipeline,
                             error, sizeof(error));
  if (!ok)
    fprintf(stderr, "uq-opt: error: %s\n", error);
  mlirPassManagerDestroy(pm);
  mlirContextDestroy(context);
  return ok;
}

// Writes the output on success; frees it.
static int finish(int rc, const char *output, buffer_t *out) {
  if (out->failed) {
    fprintf(stderr, "uq-opt: error: out of memory\n");
    rc = 1;
  }
  if (rc == 0) {
    uq_status_t status =
        uq_file_write_atomic(output, out->data ? out->data : "", out->size);
    if (status) {
      fprintf(stderr, "uq-opt: error: %s\n", uq_status_message(status));
      uq_status_free(status);
      rc = 1;
    }
  }
  free(out->data);
  return rc;
}

int main(int argc, char **argv) {
  uq_tool_check_stdout_at_exit("uq-opt");
  const char *input = "-", *output = "-";
  int split = 0, generic = 0, have_input = 0, allow_unregistered = 0;
  buffer_t pipeline = {0};
  const char *explicit_pipeline = NULL;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(arg, "-o") == 0) {
      if (++i == argc) {
        fprintf(stderr, "uq-opt: error: -o needs a file name\n");
        return 1;
      }
      output = argv[i];
    } else if (strncmp(arg, "--pass-pipeline=", 16) == 0) {
      explicit_pipeline = arg + 16;
    } else if (strcmp(arg, "--split-input-file") == 0) {
      split = 1;
    } else if (strcmp(arg, "--mlir-print-op-generic") == 0) {
      generic |= kPrintGeneric;
    } else if (strcmp(arg, "--mlir-print-debuginfo") == 0) {
      generic |= kPrintLocations;
    } else if (strcmp(arg, "--allow-unregistered-dialect") == 0) {
      allow_unregistered = 1;
    } else if (strncmp(arg, "--", 2) == 0 && arg[2]) {
      // A pass by name: --name or --name=options.
      const char *name = arg + 2;
      const char *eq = strchr(name, '=');
      size_t name_length = eq ? (size_t)(eq - name) : strlen(name);
      if (pipeline.size)
        append(&pipeline, ",", 1);
      append(&pipeline, name, name_length);
      if (eq) {
        append(&pipeline, "{", 1);
        append(&pipeline, eq + 1, strlen(eq + 1));
        append(&pipeline, "}", 1);
      }
    } else if (arg[0] == '-' && arg[1]) {
      fprintf(stderr, "uq-opt: error: unknown flag '%s' (see --help)\n", arg);
      free(pipeline.data);
      return 1;
    } else {
      if (have_input) {
        fprintf(stderr, "uq-opt: error: more than one input file ('%s')\n",
                arg);
        free(pipeline.data);
        return 1;
      }
      input = arg;
      have_input = 1;
    }
  }
  if (explicit_pipeline && pipeline.size) {
    fprintf(stderr, "uq-opt: error: use either --pass-pipeline or pass "
                    "flags, not both\n");
    free(pipeline.data);
    return 1;
  }
  const char *pipeline_text = explicit_pipeline ? explicit_pipeline
                              : pipeline.data   ? pipeline.data
                                                : "";
  uq_register_upstream_passes();
  if (*pipeline_text && !check_pipeline(pipeline_text)) {
    free(pipeline.data);
    return 1;
  }

  if (uq_kernel_source_is_folder(input)) {
    if (split) {
      fprintf(stderr,
              "uq-opt: error: --split-input-file takes a file, not "
              "the folder '%s'\n",
              input);
      free(pipeline.data);
      return 1;
    }
    buffer_t out = {0};
    int rc =
        process_folder(input, pipeline_text, generic, allow_unregistered, &out);
    free(pipeline.data);
    return finish(rc, output, &out);
  }
  char *text = NULL;
  size_t size = 0;
  uq_status_t status = uq_file_read(input, &text, &size);
  if (status) {
    fprintf(stderr, "uq-opt: error: %s\n", uq_status_message(status));
    uq_status_free(status);
    free(pipeline.data);
    return 1;
  }
  const char *display_name = strcmp(input, "-") == 0 ? "<stdin>" : input;
  buffer_t out = {0};
  int rc = 0;
  if (!split) {
    rc = process_chunk(display_name, text, size, 0, pipeline_text, generic,
                       allow_unregistered, &out);
  } else {
    // Chunks are separated by lines that are exactly "// -----".
    const char *chunk = text;
    int chunk_line = 0, line = 0;
    for (const char *p = text;; ++p) {
      int at_end = *p == 0;
      int separator = (p == text || p[-1] == '\n') &&
                      strncmp(p, "// -----", 8) == 0 &&
                      (p[8] == '\n' || p[8] == 0);
      if (at_end || separator) {
        if (out.size)
          append(&out, "// -----\n", 9);
        rc |=
            process_chunk(display_name, chunk, (size_t)(p - chunk), chunk_line,
                          pipeline_text, generic, allow_unregistered, &out);
        if (at_end)
          break;
        p += 8;
        chunk = p;
        chunk_line = line;
      }
      if (*p == '\n')
        ++line;
      if (*p == 0)
        break;
    }
  }
  free(text);
  free(pipeline.data);
  return finish(rc, output, &out);
}
