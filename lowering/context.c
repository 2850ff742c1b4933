// Context creation and the diagnostic printer shared by the tools.
#include "lowering/context.h"

#include <stdlib.h>
#include <string.h>

#include "dialect/uq_dialect.h"
#include "lowering/builder.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/RegisterEverything.h"

static const char *severity_name(MlirDiagnosticSeverity severity) {
  switch (severity) {
  case MlirDiagnosticError:
    return "error";
  case MlirDiagnosticWarning:
    return "warning";
  case MlirDiagnosticNote:
    return "note";
  default:
    return "remark";
  }
}

static void print_to_stream(MlirStringRef text, void *user_data) {
  fwrite(text.data, 1, text.length, (FILE *)user_data);
}

// Finds a file:line:col inside fused/call-site/name locations.
static bool file_location(MlirLocation location, MlirStringRef *file,
                          unsigned *line, unsigned *column) {
  if (mlirLocationIsAFileLineColRange(location)) {
    *file =
        mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(location));
    *line = (unsigned)mlirLocationFileLineColRangeGetStartLine(location);
    *column = (unsigned)mlirLocationFileLineColRangeGetStartColumn(location);
    return true;
  }
  if (mlirLocationIsACallSite(location))
    return file_location(mlirLocationCallSiteGetCaller(location), file, line,
                         column);
  if (mlirLocationIsAName(location))
    return file_location(mlirLocationNameGetChildLoc(location), file, line,
                         column);
  if (mlirLocationIsAFused(location)) {
    unsigned n = mlirLocationFusedGetNumLocations(location);
    if (n > 0) {
      MlirLocation inner[16];
      if (n > 16)
        n = 16;
      mlirLocationFusedGetLocations(location, inner);
      for (unsigned i = 0; i < n; ++i)
        if (file_location(inner[i], file, line, column))
          return true;
    }
  }
  return false;
}

static bool is_ir_dump_note(MlirDiagnostic diagnostic);

static void print_diagnostic(MlirDiagnostic diagnostic, uq_diagnostics_t *sink,
                             bool nested) {
  if (nested && is_ir_dump_note(diagnostic))
    return;
  MlirDiagnosticSeverity severity = mlirDiagnosticGetSeverity(diagnostic);
  if (severity == MlirDiagnosticError && !nested)
    ++sink->errors;
  MlirStringRef file;
  unsigned line, column;
  if (file_location(mlirDiagnosticGetLocation(diagnostic), &file, &line,
                    &column))
    fprintf(sink->stream, "%.*s:%u:%u: ", (int)file.length, file.data,
            line + (unsigned)sink->line_bias, column);
  fprintf(sink->stream, "%s: ", severity_name(severity));
  mlirDiagnosticPrint(diagnostic, print_to_stream, sink->stream);
  fputc('\n', sink->stream);
  intptr_t notes = mlirDiagnosticGetNumNotes(diagnostic);
  for (intptr_t i = 0; i < notes; ++i)
    print_diagnostic(mlirDiagnosticGetNote(diagnostic, i), sink, true);
}

static void find_text(MlirStringRef text, void *user_data) {
  bool *found = user_data;
  static const char needle[] = "see current operation";
  if (text.length >= sizeof(needle) - 1 &&
      strncmp(text.data, needle, sizeof(needle) - 1) == 0)
    *found = true;
}

// The pass manager attaches the whole failing module as a note ("see
// current operation"): thousands of lines for a kernel. The error line and
// its location already say what failed, so that note is dropped.
static bool is_ir_dump_note(MlirDiagnostic diagnostic) {
  bool found = false;
  mlirDiagnosticPrint(diagnostic, find_text, &found);
  return found;
}

static MlirLogicalResult handle_diagnostic(MlirDiagnostic diagnostic,
                                           void *user_data) {
  uq_diagnostics_t *sink = user_data;
  if (sink->muted)
    return mlirLogicalResultSuccess();
  print_diagnostic(diagnostic, sink, false);
  return mlirLogicalResultSuccess();
}

void uq_register_upstream_passes(void) { mlirRegisterAllPasses(); }

MlirContext uq_context_create(uq_diagnostics_t *diagnostics) {
  if (!diagnostics->stream)
    diagnostics->stream = stderr;
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterAllLLVMTranslations(context);
  // Load every dialect so passes may create ops of any of them.
  mlirContextLoadAllAvailableDialects(context);
  mlirContextAttachDiagnosticHandler(context, handle_diagnostic, diagnostics,
                                     NULL);
  if (mlirLogicalResultIsFailure(uq_dialect_load(context))) {
    fprintf(diagnostics->stream,
            "error: the uq dialect definition failed to load\n");
    mlirContextDestroy(context);
    return (MlirContext){NULL};
  }
  return context;
}

size_t uq_source_nesting_depth(const char *text, size_t length) {
  // One counter per bracket kind, each clamped at 0, so a stray closer (the
  // '>' of '>=') cannot hide the depth of another kind. '->' is no closer.
  static const char open[] = "{([<", close[] = "})]>";
  size_t depth[4] = {0, 0, 0, 0}, deepest = 0;
  for (size_t i = 0; i < length; ++i) {
    char c = text[i];
    if (c == '"') { // a string: skip to its closing quote
      for (++i; i < length && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if (c == '/' && i + 1 < length && text[i + 1] == '/') { // a comment
      while (i < length && text[i] != '\n')
        ++i;
      continue;
    }
    for (int k = 0; k < 4; ++k) {
      if (c == open[k]) {
        ++depth[k];
      } else if (c == close[k] && depth[k] > 0 &&
                 !(c == '>' && i > 0 && text[i - 1] == '-')) {
        --depth[k];
      }
    }
    size_t total = depth[0] + depth[1] + depth[2] + depth[3];
    if (total > deepest)
      deepest = total;
  }
  return deepest;
}

MlirOperation uq_parse_source(MlirContext context,
                              uq_diagnostics_t *diagnostics, const char *text,
                              size_t length, const char *source_name) {
  MlirStringRef name = mlirStringRefCreateFromCString(source_name);
  // MLIR's parser recurses once per nesting level and overflows the stack
  // somewhere past 2,000 levels (10,000 nested modules crash mlir-opt):
  // refuse deep input before parsing, with a limit far above real kernels.
  size_t depth = uq_source_nesting_depth(text, length);
  if (depth > UQ_MAX_SOURCE_NESTING) {
    fprintf(diagnostics->stream,
            "%s: error: input nests %zu levels of brackets deep, more than "
            "the limit of %d (refused before parsing)\n",
            source_name, depth, UQ_MAX_SOURCE_NESTING);
    ++diagnostics->errors;
    return (MlirOperation){NULL};
  }
  // First as a single top-level op; quietly, since a file of several ops
  // fails here and is handled by the wrapped parse below.
  bool was_muted = diagnostics->muted;
  diagnostics->muted = true;
  MlirOperation op = mlirOperationCreateParse(
      context, mlirStringRefCreate(text, length), name);
  diagnostics->muted = was_muted;
  if (!mlirOperationIsNull(op)) {
    if (uq_op_named(op, "builtin.module"))
      return op;
    MlirModule module = mlirModuleCreateEmpty(mlirOperationGetLocation(op));
    mlirBlockAppendOwnedOperation(mlirModuleGetBody(module), op);
    return mlirModuleGetOperation(module);
  }
  // Several top-level ops (or an error): wrap them in a module. The wrapper
  // takes the first line, so lines are reported one lower.
  static const char prefix[] = "module {\n";
  char *wrapped = malloc(length + sizeof(prefix) + 2);
  if (!wrapped)
    return op;
  memcpy(wrapped, prefix, sizeof(prefix) - 1);
  memcpy(wrapped + sizeof(prefix) - 1, text, length);
  memcpy(wrapped + sizeof(prefix) - 1 + length, "\n}", 2);
  diagnostics->line_bias -= 1;
  op = mlirOperationCreateParse(
      context, mlirStringRefCreate(wrapped, length + sizeof(prefix) + 1), name);
  diagnostics->line_bias += 1;
  free(wrapped);
  return op;
}
