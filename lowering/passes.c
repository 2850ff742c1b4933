// The uq pass table and the mixed uq/upstream pipeline parser.
#include "lowering/passes.h"

#include <stdio.h>
#include <string.h>

#include "lowering/evaluate_globals/evaluate_globals.h"
#include "lowering/inline/inline.h"
#include "lowering/link/link.h"
#include "lowering/specialize/specialize.h"
#include "lowering/unroll/unroll.h"
#include "lowering/uq_to_rocdl/uq_to_rocdl.h"
#include "lowering/verify_unrolled/verify_unrolled.h"

const uq_pass_def_t *const uq_passes[] = {
    &uq_link_pass,
    &uq_specialize_pass,
    &uq_evaluate_globals_pass,
    &uq_inline_pass,
    &uq_unroll_pass,
    &uq_to_rocdl_pass,
    &uq_verify_unrolled_pass,
    NULL,
};

const uq_pass_def_t *uq_pass_lookup(const char *name, size_t length) {
  for (const uq_pass_def_t *const *p = uq_passes; *p; ++p)
    if (strlen((*p)->argument) == length &&
        strncmp((*p)->argument, name, length) == 0)
      return *p;
  return NULL;
}

typedef struct parse_error_s {
  char *text;
  size_t size;
} parse_error_t;

static void collect_error(MlirStringRef message, void *user_data) {
  parse_error_t *error = user_data;
  size_t used = strlen(error->text);
  if (used + 1 >= error->size)
    return;
  size_t room = error->size - used - 1;
  size_t n = message.length < room ? message.length : room;
  // Keep the reason on one line.
  for (size_t i = 0; i < n; ++i)
    error->text[used + i] = message.data[i] == '\n' ? ' ' : message.data[i];
  error->text[used + n] = 0;
}

static void trim(const char **begin, const char **end) {
  while (*begin < *end && (**begin == ' ' || **begin == '\n'))
    ++*begin;
  while (*end > *begin && ((*end)[-1] == ' ' || (*end)[-1] == '\n'))
    --*end;
}

static bool parse_elements(MlirOpPassManager pm, const char *begin,
                           const char *end, char *error, size_t error_size);

// One element: `name`, `name{options}` or `anchor(elements)`.
static bool parse_element(MlirOpPassManager pm, const char *begin,
                          const char *end, char *error, size_t error_size) {
  trim(&begin, &end);
  if (begin == end) {
    snprintf(error, error_size, "empty element in pass pipeline");
    return false;
  }
  const char *name_end = begin;
  while (name_end < end && *name_end != '{' && *name_end != '(')
    ++name_end;
  size_t name_length = (size_t)(name_end - begin);
  if (name_end < end && *name_end == '(') {
    if (end[-1] != ')') {
      snprintf(error, error_size, "unbalanced '(' in pass pipeline");
      return false;
    }
    MlirOpPassManager nested = mlirOpPassManagerGetNestedUnder(
        pm, mlirStringRefCreate(begin, name_length));
    return parse_elements(nested, name_end + 1, end - 1, error, error_size);
  }
  const uq_pass_def_t *def = uq_pass_lookup(begin, name_length);
  if (def) {
    char options[256] = "";
    if (name_end < end) {
      if (end[-1] != '}' || (size_t)(end - name_end - 2) >= sizeof(options)) {
        snprintf(error, error_size, "malformed options for '%s'",
                 def->argument);
        return false;
      }
      memcpy(options, name_end + 1, (size_t)(end - name_end - 2));
      options[end - name_end - 2] = 0;
    }
    MlirPass pass = uq_pass_create(def, options, error, error_size);
    if (!pass.ptr)
      return false;
    mlirOpPassManagerAddOwnedPass(pm, pass);
    return true;
  }
  error[0] = 0;
  parse_error_t collected = {error, error_size};
  MlirLogicalResult result = mlirOpPassManagerAddPipeline(
      pm, mlirStringRefCreate(begin, (size_t)(end - begin)), collect_error,
      &collected);
  if (mlirLogicalResultIsFailure(result)) {
    if (!error[0] || strstr(error, "does not refer to a registered pass"))
      snprintf(error, error_size, "unknown pass '%.*s'", (int)name_length,
               begin);
    return false;
  }
  return true;
}

static bool parse_elements(MlirOpPassManager pm, const char *begin,
                           const char *end, char *error, size_t error_size) {
  int depth = 0;
  const char *start = begin;
  for (const char *p = begin; p <= end; ++p) {
    if (p == end || (*p == ',' && depth == 0)) {
      const char *b = start, *e = p;
      trim(&b, &e);
      if (b != e && !parse_element(pm, b, e, error, error_size))
        return false;
      start = p + 1;
      continue;
    }
    if (*p == '(' || *p == '{')
      ++depth;
    else if (*p == ')' || *p == '}')
      --depth;
    if (depth < 0) {
      snprintf(error, error_size, "unbalanced brackets in pass pipeline");
      return false;
    }
  }
  if (depth != 0) {
    snprintf(error, error_size, "unbalanced brackets in pass pipeline");
    return false;
  }
  return true;
}

bool uq_pipeline_parse(MlirOpPassManager pm, const char *text, char *error,
                       size_t error_size) {
  const char *begin = text, *end = text + strlen(text);
  trim(&begin, &end);
  static const char anchor[] = "builtin.module(";
  if ((size_t)(end - begin) > sizeof(anchor) &&
      strncmp(begin, anchor, sizeof(anchor) - 1) == 0 && end[-1] == ')') {
    // Only strip when the anchor's parenthesis closes at the very end.
    int depth = 0;
    const char *p = begin + sizeof(anchor) - 2;
    for (; p < end; ++p) {
      depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
      if (depth == 0)
        break;
    }
    if (p == end - 1) {
      begin += sizeof(anchor) - 1;
      --end;
    }
  }
  return parse_elements(pm, begin, end, error, error_size);
}
