// Reads a kernel source file or folder into one module.
#define _XOPEN_SOURCE 700 // stat, opendir
#include "tools/common/kernel_source.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lowering/builder.h"
#include "lowering/link/link.h"
#include "lowering/pass.h"
#include "mlir-c/BuiltinAttributes.h"
#include "tools/common/file_util.h"

bool uq_kernel_source_is_folder(const char *path) {
  struct stat info;
  return strcmp(path, "-") != 0 && stat(path, &info) == 0 &&
         S_ISDIR(info.st_mode);
}

typedef struct paths_s {
  char **items;
  size_t count, capacity;
  bool failed;
} paths_t;

static void add_path(paths_t *paths, const char *folder, const char *name) {
  if (paths->count == paths->capacity) {
    size_t capacity = paths->capacity ? 2 * paths->capacity : 16;
    char **grown = realloc(paths->items, capacity * sizeof(*grown));
    if (!grown) {
      paths->failed = true;
      return;
    }
    paths->items = grown;
    paths->capacity = capacity;
  }
  size_t size = strlen(folder) + strlen(name) + 2;
  char *path = malloc(size);
  if (!path) {
    paths->failed = true;
    return;
  }
  snprintf(path, size, "%s/%s", folder, name);
  paths->items[paths->count++] = path;
}

static bool ends_with(const char *text, const char *suffix) {
  size_t n = strlen(text), m = strlen(suffix);
  return n >= m && strcmp(text + n - m, suffix) == 0;
}

// The .mlir files below `folder` (hidden entries skipped), appended to
// `paths`; false after printing why a folder does not list.
static bool list_sources(const char *folder, paths_t *paths, int depth,
                         FILE *stream, const char *tool) {
  if (depth > 8) {
    fprintf(stream, "%s: error: '%s': kernel folders nest deeper than 8\n",
            tool, folder);
    return false;
  }
  DIR *dir = opendir(folder);
  if (!dir) {
    fprintf(stream, "%s: error: cannot open folder '%s': %s\n", tool, folder,
            strerror(errno));
    return false;
  }
  bool ok = true;
  for (struct dirent *entry = readdir(dir); ok && entry; entry = readdir(dir)) {
    if (entry->d_name[0] == '.')
      continue;
    size_t before = paths->count;
    add_path(paths, folder, entry->d_name);
    if (paths->failed || paths->count == before)
      break;
    struct stat info;
    char *path = paths->items[paths->count - 1];
    if (stat(path, &info) != 0 ||
        !(S_ISDIR(info.st_mode) || ends_with(path, ".mlir"))) {
      free(path); // not a source: a README, a link to nothing
      --paths->count;
    } else if (S_ISDIR(info.st_mode)) {
      --paths->count;
      ok = list_sources(path, paths, depth + 1, stream, tool);
      free(path);
    }
  }
  closedir(dir);
  if (paths->failed) {
    fprintf(stream, "%s: error: out of memory listing '%s'\n", tool, folder);
    return false;
  }
  return ok;
}

static int by_path(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static MlirOperation parse_file(MlirContext context,
                                uq_diagnostics_t *diagnostics, const char *path,
                                const char *tool) {
  char *text = NULL;
  size_t size = 0;
  uq_status_t status = uq_file_read(path, &text, &size);
  if (status) {
    fprintf(diagnostics->stream, "%s: error: %s\n", tool,
            uq_status_message(status));
    uq_status_free(status);
    return (MlirOperation){NULL};
  }
  MlirOperation op = uq_parse_source(context, diagnostics, text, size,
                                     strcmp(path, "-") ? path : "<stdin>");
  free(text);
  return op;
}

// A file of the folder may declare (func.func without a body) a helper
// that another file defines, as a C file declares a function: at the merge
// each top-level declaration meets its definition (the same function type)
// and goes. False after reporting a declaration nothing defines or whose
// type differs.
static bool resolve_declarations(MlirOperation module) {
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirStringRef type_name = mlirStringRefCreateFromCString("function_type");
  bool ok = true;
  MlirOperation op = mlirBlockGetFirstOperation(top);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (uq_op_named(op, "func.func") && uq_link_is_declaration(op)) {
      MlirStringRef name = uq_symbol_name(op);
      MlirOperation definition = uq_link_find_definition(top, name);
      if (mlirOperationIsNull(definition)) {
        uq_emit_error(op,
                      "@%.*s is declared, but no file of the kernel "
                      "folder defines it",
                      (int)name.length, name.data);
        ok = false;
      } else if (!mlirAttributeEqual(
                     mlirOperationGetAttributeByName(op, type_name),
                     mlirOperationGetAttributeByName(definition, type_name))) {
        uq_emit_error(op,
                      "@%.*s is declared with another type than its "
                      "definition's",
                      (int)name.length, name.data);
        ok = false;
      } else {
        mlirOperationDestroy(op);
      }
    }
    op = next;
  }
  return ok;
}

// Moves the top-level ops of `from` to the end of `into` and destroys it.
static void merge_into(MlirOperation into, MlirOperation from) {
  MlirBlock target = mlirRegionGetFirstBlock(mlirOperationGetRegion(into, 0));
  MlirBlock source = mlirRegionGetFirstBlock(mlirOperationGetRegion(from, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(source);
       !mlirOperationIsNull(op); op = mlirBlockGetFirstOperation(source)) {
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(target, op);
  }
  MlirStringRef container =
      mlirStringRefCreateFromCString("gpu.container_module");
  MlirAttribute unit = mlirOperationGetAttributeByName(from, container);
  if (!mlirAttributeIsNull(unit))
    mlirOperationSetAttributeByName(into, container, unit);
  mlirOperationDestroy(from);
}

MlirOperation uq_kernel_source_parse(MlirContext context,
                                     uq_diagnostics_t *diagnostics,
                                     const char *path, const char *tool) {
  MlirOperation merged = {NULL};
  if (!uq_kernel_source_is_folder(path))
    return parse_file(context, diagnostics, path, tool);
  paths_t paths = {NULL, 0, 0, false};
  if (!list_sources(path, &paths, 0, diagnostics->stream, tool))
    goto done;
  if (paths.count == 0) {
    fprintf(diagnostics->stream, "%s: error: folder '%s' holds no .mlir file\n",
            tool, path);
    goto done;
  }
  qsort(paths.items, paths.count, sizeof(*paths.items), by_path);
  for (size_t i = 0; i < paths.count; ++i) {
    MlirOperation op = parse_file(context, diagnostics, paths.items[i], tool);
    if (mlirOperationIsNull(op)) {
      if (!mlirOperationIsNull(merged))
        mlirOperationDestroy(merged);
      merged = op;
      goto done;
    }
    if (mlirOperationIsNull(merged))
      merged = op;
    else
      merge_into(merged, op);
  }
  if (!resolve_declarations(merged)) {
    mlirOperationDestroy(merged);
    merged = (MlirOperation){NULL};
  }
done:
  for (size_t i = 0; i < paths.count; ++i)
    free(paths.items[i]);
  free(paths.items);
  return merged;
}
