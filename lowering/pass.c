// External-pass plumbing shared by the uq passes.
#include "lowering/pass.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/Diagnostics.h"
#include "mlir-c/Support.h"

// Every uq pass instance carries its definition and its parsed options.
typedef struct uq_pass_instance_s {
  const uq_pass_def_t *def;
  void *state;
} uq_pass_instance_t;

static void pass_construct(void *user_data) { (void)user_data; }

static void pass_destruct(void *user_data) {
  uq_pass_instance_t *instance = user_data;
  if (instance->def->destroy_state)
    instance->def->destroy_state(instance->state);
  free(instance);
}

static void *pass_clone(void *user_data) {
  const uq_pass_instance_t *instance = user_data;
  uq_pass_instance_t *copy = calloc(1, sizeof(*copy));
  if (!copy)
    return NULL;
  copy->def = instance->def;
  copy->state = instance->def->clone_state
                    ? instance->def->clone_state(instance->state)
                    : NULL;
  return copy;
}

static void pass_run(MlirOperation op, MlirExternalPass pass, void *user_data) {
  uq_pass_instance_t *instance = user_data;
  if (!instance->def->run(op, instance->state))
    mlirExternalPassSignalFailure(pass);
}

// One type id per definition: the definition's own address is stable and,
// being a struct of pointers, 8-byte aligned as mlirTypeIDCreate requires.
MlirPass uq_pass_create(const uq_pass_def_t *def, const char *options,
                        char *error, size_t error_size) {
  MlirPass null_pass = {NULL};
  uq_pass_instance_t *instance = calloc(1, sizeof(*instance));
  if (!instance) {
    snprintf(error, error_size, "out of memory");
    return null_pass;
  }
  instance->def = def;
  if (def->create_state) {
    error[0] = 0;
    instance->state =
        def->create_state(options ? options : "", error, error_size);
    if (!instance->state) {
      free(instance);
      return null_pass;
    }
  } else if (options && *options) {
    snprintf(error, error_size, "pass '%s' takes no options", def->argument);
    free(instance);
    return null_pass;
  }
  MlirExternalPassCallbacks callbacks = {pass_construct, pass_destruct, NULL,
                                         pass_clone, pass_run};
  return mlirCreateExternalPass(
      mlirTypeIDCreate(def), mlirStringRefCreateFromCString(def->argument),
      mlirStringRefCreateFromCString(def->argument),
      mlirStringRefCreateFromCString(def->description),
      mlirStringRefCreate("", 0), 0, NULL, callbacks, instance);
}

typedef struct collected_s {
  MlirOperation *ops;
  size_t count, capacity;
  bool (*filter)(MlirOperation);
  bool oom;
} collected_t;

static MlirWalkResult collect_op(MlirOperation op, void *user_data) {
  collected_t *c = user_data;
  if (c->filter && !c->filter(op))
    return MlirWalkResultAdvance;
  if (c->count == c->capacity) {
    size_t capacity = c->capacity ? c->capacity * 2 : 64;
    MlirOperation *ops = realloc(c->ops, capacity * sizeof(*ops));
    if (!ops) {
      c->oom = true;
      return MlirWalkResultInterrupt;
    }
    c->ops = ops;
    c->capacity = capacity;
  }
  c->ops[c->count++] = op;
  return MlirWalkResultAdvance;
}

bool uq_walk_collect(MlirOperation root, bool (*filter)(MlirOperation),
                     uq_op_visitor_t visit, void *user_data) {
  collected_t c = {NULL, 0, 0, filter, false};
  mlirOperationWalk(root, collect_op, &c, MlirWalkPostOrder);
  bool ok = !c.oom;
  if (c.oom)
    uq_emit_error(root, "out of memory while walking the IR");
  for (size_t i = 0; ok && i < c.count; ++i) {
    if (mlirOperationEqual(c.ops[i], root))
      continue;
    ok = visit(c.ops[i], user_data);
  }
  free(c.ops);
  return ok;
}

void uq_emit_error(MlirOperation op, const char *format, ...) {
  char message[512];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  mlirEmitError(mlirOperationGetLocation(op), message);
}
