// uq-link: the kernel library's step helpers copied into the gpu.modules
// that declare them.
#include "lowering/link/link.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/builder.h"
#include "mlir-c/BuiltinAttributes.h"

static bool same(MlirStringRef a, MlirStringRef b) {
  return a.length == b.length && memcmp(a.data, b.data, a.length) == 0;
}

bool uq_link_is_declaration(MlirOperation function) {
  return mlirBlockIsNull(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(function, 0)));
}

static MlirBlock body_of(MlirOperation op) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
}

// The func.func named `name` directly in `body` (with a body only when
// `definition`), or a null operation.
static MlirOperation find_function(MlirBlock body, MlirStringRef name,
                                   bool definition) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (uq_op_named(op, "func.func") && same(uq_symbol_name(op), name) &&
        !(definition && uq_link_is_declaration(op)))
      return op;
  return (MlirOperation){NULL};
}

MlirOperation uq_link_find_definition(MlirBlock block, MlirStringRef name) {
  return find_function(block, name, true);
}

static MlirAttribute function_type(MlirOperation function) {
  return mlirOperationGetAttributeByName(
      function, mlirStringRefCreateFromCString("function_type"));
}

typedef struct text_s {
  char data[256];
  size_t used;
} text_t;

static void append_text(MlirStringRef piece, void *user_data) {
  text_t *text = user_data;
  size_t room = sizeof(text->data) - 1 - text->used;
  size_t n = piece.length < room ? piece.length : room;
  memcpy(text->data + text->used, piece.data, n);
  text->used += n;
  text->data[text->used] = 0;
}

// One gpu.module being linked against the library (the top-level block).
typedef struct linker_s {
  MlirBlock module_body;
  MlirBlock library;
} linker_t;

static bool copy_in(linker_t *linker, MlirOperation definition,
                    MlirOperation before);

static bool is_call(MlirOperation op) { return uq_op_named(op, "func.call"); }

// A call in a copied helper: its callee comes from the library unless the
// gpu.module has it (defined, or declared and linked in its own turn).
static bool bring_callee(MlirOperation call, void *user_data) {
  linker_t *linker = user_data;
  MlirAttribute callee = mlirOperationGetAttributeByName(
      call, mlirStringRefCreateFromCString("callee"));
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee))
    return true;
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  if (!mlirOperationIsNull(find_function(linker->module_body, name, false)))
    return true;
  MlirOperation definition = find_function(linker->library, name, true);
  if (mlirOperationIsNull(definition))
    return true; // the verifier names a call to nothing
  return copy_in(linker, definition,
                 mlirBlockGetFirstOperation(linker->module_body));
}

// A private copy of `definition` before `before`, and what it calls.
static bool copy_in(linker_t *linker, MlirOperation definition,
                    MlirOperation before) {
  MlirOperation copy = mlirOperationClone(definition);
  MlirContext context = mlirOperationGetContext(copy);
  mlirOperationSetAttributeByName(
      copy, mlirStringRefCreateFromCString("sym_visibility"),
      mlirStringAttrGet(context, mlirStringRefCreateFromCString("private")));
  mlirBlockInsertOwnedOperationBefore(linker->module_body, before, copy);
  return uq_walk_collect(copy, is_call, bring_callee, linker);
}

static bool link_declaration(linker_t *linker, MlirOperation declaration,
                             MlirOperation module) {
  MlirStringRef name = uq_symbol_name(declaration);
  MlirOperation definition = find_function(linker->library, name, true);
  if (mlirOperationIsNull(definition)) {
    MlirStringRef module_name = uq_symbol_name(module);
    uq_emit_error(declaration,
                  "uq-link: @%.*s is declared in gpu.module @%.*s, but the "
                  "kernel library (the top-level func.func definitions) has "
                  "no @%.*s",
                  (int)name.length, name.data, (int)module_name.length,
                  module_name.data, (int)name.length, name.data);
    return false;
  }
  if (!mlirAttributeEqual(function_type(declaration),
                          function_type(definition))) {
    text_t declared = {{0}, 0}, defined = {{0}, 0};
    mlirAttributePrint(function_type(declaration), append_text, &declared);
    mlirAttributePrint(function_type(definition), append_text, &defined);
    uq_emit_error(declaration,
                  "uq-link: @%.*s is declared as %s, but the kernel library "
                  "defines it as %s",
                  (int)name.length, name.data, declared.data, defined.data);
    return false;
  }
  if (!copy_in(linker, definition, declaration))
    return false;
  mlirOperationDestroy(declaration);
  return true;
}

static bool link_module(MlirOperation module, MlirBlock library) {
  linker_t linker = {body_of(module), library};
  // The declarations first: linking adds functions to the block.
  size_t count = 0, capacity = 0;
  MlirOperation *declarations = NULL;
  for (MlirOperation op = mlirBlockGetFirstOperation(linker.module_body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!uq_op_named(op, "func.func") || !uq_link_is_declaration(op))
      continue;
    if (count == capacity) {
      capacity = capacity ? 2 * capacity : 16;
      MlirOperation *grown =
          realloc(declarations, capacity * sizeof(*declarations));
      if (!grown) {
        free(declarations);
        uq_emit_error(module, "uq-link: out of memory");
        return false;
      }
      declarations = grown;
    }
    declarations[count++] = op;
  }
  bool ok = true;
  for (size_t i = 0; ok && i < count; ++i)
    ok = link_declaration(&linker, declarations[i], module);
  free(declarations);
  return ok;
}

static bool run(MlirOperation root, void *state) {
  (void)state;
  if (!uq_op_named(root, "builtin.module")) {
    uq_emit_error(root, "uq-link: runs on a builtin.module");
    return false;
  }
  MlirBlock top = body_of(root);
  for (MlirOperation op = mlirBlockGetFirstOperation(top);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (uq_op_named(op, "gpu.module") && !link_module(op, top))
      return false;
  // The library has served: erase it.
  MlirOperation op = mlirBlockGetFirstOperation(top);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (uq_op_named(op, "func.func"))
      mlirOperationDestroy(op);
    op = next;
  }
  return true;
}

const uq_pass_def_t uq_link_pass = {
    "uq-link",
    "Copy the top-level step helpers each gpu.module declares into it",
    NULL,
    NULL,
    NULL,
    NULL,
    run,
};
