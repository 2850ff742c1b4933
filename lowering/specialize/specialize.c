// uq-specialize: parameters -> constants, checked against declared variants.
#include "lowering/specialize/specialize.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialect/uq_dialect.h"
#include "lowering/builder.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

enum { kMaxBindings = 16, kMaxName = 32 };

typedef struct binding_s {
  char name[kMaxName];
  int64_t value;
} binding_t;

typedef struct specialize_state_s {
  binding_t bindings[kMaxBindings];
  int count;
} specialize_state_t;

static void *create_state(const char *options, char *error, size_t error_size) {
  specialize_state_t *state = calloc(1, sizeof(*state));
  if (!state) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  const char *p = options;
  while (*p) {
    while (*p == ' ' || *p == ',')
      ++p;
    if (!*p)
      break;
    const char *name = p;
    while (isalnum((unsigned char)*p) || *p == '_')
      ++p;
    size_t length = (size_t)(p - name);
    if (length == 0 || length >= kMaxName || *p != '=') {
      snprintf(error, error_size,
               "uq-specialize: expected NAME=VALUE, got '%s'", name);
      free(state);
      return NULL;
    }
    if (state->count == kMaxBindings) {
      snprintf(error, error_size, "uq-specialize: more than %d parameters",
               kMaxBindings);
      free(state);
      return NULL;
    }
    binding_t *binding = &state->bindings[state->count++];
    memcpy(binding->name, name, length);
    binding->name[length] = 0;
    ++p;
    char *end = NULL;
    errno = 0;
    long long value = strtoll(p, &end, 10);
    if (end == p || errno != 0 || (*end && *end != ' ' && *end != ',')) {
      snprintf(error, error_size,
               "uq-specialize: parameter '%s' needs an integer value",
               binding->name);
      free(state);
      return NULL;
    }
    binding->value = value;
    p = end;
  }
  return state;
}

static void *clone_state(const void *state) {
  specialize_state_t *copy = malloc(sizeof(*copy));
  if (copy)
    memcpy(copy, state, sizeof(*copy));
  return copy;
}

static const binding_t *find_binding(const specialize_state_t *state,
                                     MlirStringRef name) {
  for (int i = 0; i < state->count; ++i)
    if (strlen(state->bindings[i].name) == name.length &&
        strncmp(state->bindings[i].name, name.data, name.length) == 0)
      return &state->bindings[i];
  return NULL;
}

static void print_to_buffer(MlirStringRef text, void *user_data) {
  char *buffer = user_data;
  size_t used = strlen(buffer);
  size_t room = 400 - used - 1;
  size_t n = text.length < room ? text.length : room;
  memcpy(buffer + used, text.data, n);
  buffer[used + n] = 0;
}

// A module's declared variants must contain the binding (restricted to the
// keys each variant names).
static bool check_variants(MlirOperation module,
                           const specialize_state_t *state, bool report) {
  MlirAttribute variants = mlirOperationGetAttributeByName(
      module, mlirStringRefCreateFromCString("uq.variants"));
  if (mlirAttributeIsNull(variants))
    return true;
  if (!mlirAttributeIsAArray(variants)) {
    uq_emit_error(module, "uq.variants must be an array of dictionaries");
    return false;
  }
  intptr_t count = mlirArrayAttrGetNumElements(variants);
  for (intptr_t i = 0; i < count; ++i) {
    MlirAttribute variant = mlirArrayAttrGetElement(variants, i);
    if (!mlirAttributeIsADictionary(variant)) {
      uq_emit_error(module, "uq.variants must be an array of dictionaries");
      return false;
    }
    bool match = true;
    intptr_t entries = mlirDictionaryAttrGetNumElements(variant);
    for (intptr_t e = 0; e < entries && match; ++e) {
      MlirNamedAttribute entry = mlirDictionaryAttrGetElement(variant, e);
      MlirStringRef key = mlirIdentifierStr(entry.name);
      if ((key.length == 6 && strncmp(key.data, "target", 6) == 0) ||
          (key.length == 4 && strncmp(key.data, "held", 4) == 0))
        continue; // which target builds it and whether it is held: not
                  // bindings
      const binding_t *binding = find_binding(state, key);
      match = binding && mlirAttributeIsAInteger(entry.attribute) &&
              mlirIntegerAttrGetValueInt(entry.attribute) == binding->value;
    }
    if (match)
      return true;
  }
  if (!report)
    return false;
  char requested[128] = "";
  for (int i = 0; i < state->count; ++i) {
    size_t used = strlen(requested);
    snprintf(requested + used, sizeof(requested) - used, "%s%s=%" PRId64,
             i ? " " : "", state->bindings[i].name, state->bindings[i].value);
  }
  char declared[400] = "";
  mlirAttributePrint(variants, print_to_buffer, declared);
  uq_emit_error(module, "unsupported variant {%s}: this module supports %s",
                requested, declared);
  return false;
}

static bool is_gpu_module(MlirOperation op) {
  return uq_op_named(op, "gpu.module");
}

static bool is_param(MlirOperation op) { return uq_param_match(op, NULL); }

// A file holds several gpu.modules with their own variant sets (decode,
// reduce, store, other targets): a binding specializes every module whose set
// contains it and leaves the others as they are. It is an error only when no
// module declaring variants accepts it (reported at the first such module).
typedef struct module_scan_s {
  const specialize_state_t *state;
  MlirOperation first_declaring;
  int declaring;
  int matched;
} module_scan_t;

static bool declares_variants(MlirOperation module) {
  return !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      module, mlirStringRefCreateFromCString("uq.variants")));
}

static bool scan_module(MlirOperation module, void *user_data) {
  module_scan_t *scan = user_data;
  if (!declares_variants(module))
    return true;
  if (scan->declaring++ == 0)
    scan->first_declaring = module;
  scan->matched += check_variants(module, scan->state, false);
  return true;
}

static bool replace_param(MlirOperation op, void *user_data) {
  const specialize_state_t *state = user_data;
  MlirStringRef name;
  uq_param_match(op, &name);
  const binding_t *binding = find_binding(state, name);
  if (!binding) {
    uq_emit_error(op,
                  "uq.param \"%.*s\" has no value: run uq-specialize{%.*s=N}",
                  (int)name.length, name.data, (int)name.length, name.data);
    return false;
  }
  uq_builder_t b = uq_builder_before(op);
  MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
  MlirNamedAttribute value = uq_named_attr(
      b.context, "value", mlirIntegerAttrGet(type, binding->value));
  MlirValue constant =
      uq_build_value(&b, "arith.constant", 0, NULL, type, 1, &value);
  uq_replace_op(op, 1, &constant);
  return true;
}

// The gpu.module around `op`, or a null operation.
static MlirOperation enclosing_gpu_module(MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(op);
       !mlirOperationIsNull(p); p = mlirOperationGetParentOperation(p))
    if (is_gpu_module(p))
      return p;
  return (MlirOperation){NULL};
}

static bool specialize_param(MlirOperation op, void *user_data) {
  const specialize_state_t *state = user_data;
  MlirOperation module = enclosing_gpu_module(op);
  if (!mlirOperationIsNull(module) && declares_variants(module) &&
      !check_variants(module, state, false))
    return true; // another module's variant: left as it is
  return replace_param(op, user_data);
}

// A kernel whose workgroup is a parameter (the lanes of a wave or warp,
// which differ by target) names it in `uq.block_size`; the bound value
// becomes its known_block_size [value, 1, 1], which the GPU lowerings turn
// into the target's launch bound.
static bool is_sized_kernel(MlirOperation op) {
  return uq_op_named(op, "gpu.func") &&
         !mlirAttributeIsNull(mlirOperationGetAttributeByName(
             op, mlirStringRefCreateFromCString("uq.block_size")));
}

static bool set_block_size(MlirOperation op, void *user_data) {
  const specialize_state_t *state = user_data;
  MlirAttribute name = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("uq.block_size"));
  if (!mlirAttributeIsAString(name)) {
    uq_emit_error(op, "uq.block_size must name a parameter");
    return false;
  }
  MlirStringRef param = mlirStringAttrGetValue(name);
  const binding_t *binding = find_binding(state, param);
  if (!binding || binding->value < 1 || binding->value > 1024) {
    uq_emit_error(op,
                  "uq.block_size \"%.*s\" needs a value in 1..1024: run "
                  "uq-specialize{%.*s=N}",
                  (int)param.length, param.data, (int)param.length, param.data);
    return false;
  }
  int32_t size[3] = {(int32_t)binding->value, 1, 1};
  mlirOperationSetAttributeByName(
      op, mlirStringRefCreateFromCString("known_block_size"),
      mlirDenseI32ArrayGet(mlirOperationGetContext(op), 3, size));
  mlirOperationRemoveAttributeByName(
      op, mlirStringRefCreateFromCString("uq.block_size"));
  return true;
}

static bool specialize_block_size(MlirOperation op, void *user_data) {
  MlirOperation module = enclosing_gpu_module(op);
  if (!mlirOperationIsNull(module) && declares_variants(module) &&
      !check_variants(module, user_data, false))
    return true; // another module's variant: left as it is
  return set_block_size(op, user_data);
}

static bool run(MlirOperation root, void *state) {
  if (is_gpu_module(root))
    return check_variants(root, state, true) &&
           uq_walk_collect(root, is_param, replace_param, state) &&
           uq_walk_collect(root, is_sized_kernel, set_block_size, state);
  module_scan_t scan = {state, {NULL}, 0, 0};
  if (!uq_walk_collect(root, is_gpu_module, scan_module, &scan))
    return false;
  if (scan.declaring > 0 && scan.matched == 0)
    return check_variants(scan.first_declaring, state, true);
  return uq_walk_collect(root, is_param, specialize_param, state) &&
         uq_walk_collect(root, is_sized_kernel, specialize_block_size, state);
}

const uq_pass_def_t uq_specialize_pass = {
    "uq-specialize",
    "Replace uq.param ops with the constants of one kernel variant",
    "NAME=VALUE[,NAME=VALUE...]",
    create_state,
    clone_state,
    free,
    run,
};
