// kernels/ -> gfx950 code objects and NVIDIA cubins.
#include "lowering/pipeline.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/builder.h"
#include "lowering/fp16_overflow/fp16_overflow.h"
#include "lowering/pass.h"
#include "lowering/passes.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Pass.h"
#include "uq/variant.h"

static bool append_variant(uq_variant_t **variants, size_t *count,
                           const uq_variant_t *v) {
  uq_variant_t *grown = realloc(*variants, sizeof(**variants) * (*count + 1));
  if (!grown)
    return false;
  grown[*count] = *v;
  *variants = grown;
  ++*count;
  return true;
}

static void print_to_buffer(MlirStringRef text, void *user_data) {
  char *buffer = user_data;
  size_t used = strlen(buffer);
  snprintf(buffer + used, 256 - used, "%.*s", (int)text.length, text.data);
}

// The gpu.module's target attributes (#rocdl.target<chip = "gfx950">,
// #nvvm.target<chip = "sm_90a">, ...): their number (0 when the module names
// none: gfx950, the chip these modules were first written for) and the chip
// of the one at `index`.
static intptr_t target_count(MlirOperation op) {
  MlirAttribute targets = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("targets"));
  if (mlirAttributeIsNull(targets) || !mlirAttributeIsAArray(targets))
    return 0;
  return mlirArrayAttrGetNumElements(targets);
}

static void module_target(MlirOperation op, intptr_t index, char *out,
                          size_t size) {
  snprintf(out, size, "gfx950");
  if (index >= target_count(op))
    return;
  MlirAttribute targets = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("targets"));
  char text[256] = "";
  mlirAttributePrint(mlirArrayAttrGetElement(targets, index), print_to_buffer,
                     text);
  const char *chip = strstr(text, "chip = \"");
  if (!chip)
    return;
  chip += 8;
  const char *end = strchr(chip, '"');
  if (end)
    snprintf(out, size, "%.*s", (int)(end - chip), chip);
}

// The tag naming a module's second and later targets in variant keys and
// kernel names: the chip without '_' and without the letters after its
// number ("sm_90a" -> "sm90", as in @uq_decode_sm90).
static void target_tag(const char *chip, char *out, size_t size) {
  size_t n = 0;
  for (const char *c = chip; *c && n + 1 < size; ++c)
    if (*c != '_')
      out[n++] = *c;
  size_t m = n; // drop the feature letters after the number
  while (m > 0 && out[m - 1] >= 'a' && out[m - 1] <= 'z')
    --m;
  if (m > 0 && out[m - 1] >= '0' && out[m - 1] <= '9')
    n = m;
  out[n] = 0;
}

// Appends "NAME=VALUE" to a comma-separated list of parameter bindings.
static void append_binding(char *bindings, size_t size, MlirStringRef name,
                           int64_t value) {
  size_t used = strlen(bindings);
  snprintf(bindings + used, size - used, "%s%.*s=%" PRId64, used ? "," : "",
           (int)name.length, name.data, value);
}

// Appends "NAME=VALUE" for every integer entry of `dict` to `bindings`.
static bool append_bindings(MlirOperation op, MlirAttribute dict,
                            char *bindings, size_t size) {
  if (!mlirAttributeIsADictionary(dict)) {
    uq_emit_error(op, "uq.target_params must be an array of dictionaries, "
                      "one per target");
    return false;
  }
  for (intptr_t e = 0; e < mlirDictionaryAttrGetNumElements(dict); ++e) {
    MlirNamedAttribute entry = mlirDictionaryAttrGetElement(dict, e);
    if (!mlirAttributeIsAInteger(entry.attribute)) {
      uq_emit_error(op, "uq.target_params values must be integers");
      return false;
    }
    append_binding(bindings, size, mlirIdentifierStr(entry.name),
                   mlirIntegerAttrGetValueInt(entry.attribute));
  }
  return true;
}

bool uq_variant_is_nvidia(const uq_variant_t *variant) {
  return strncmp(variant->target, "sm_", 3) == 0;
}

// The variants of one target (index `t` of `targets`, 0 when the module
// names none) of gpu.module `op`. The first target's keys are the module's
// stem and entries ("store_d256"); a later target's carry its tag
// ("store_sm90_d256"), and so do its kernel names. The target's
// uq.target_params entry (parallel to the module's targets) adds bindings
// that are not part of the key: what differs between targets, e.g. the
// lanes of a wave or warp. Returns false with a diagnostic, or *oom.
static bool list_target_variants(MlirOperation op, intptr_t t, intptr_t targets,
                                 uq_variant_t **out_variants, size_t *out_count,
                                 bool *oom) {
  MlirStringRef name = uq_symbol_name(op);
  // An empty name would leave the keys only their suffixes ("_qg8"), and
  // its StringRef has no data to compare (a NULL pointer).
  if (name.length == 0) {
    uq_emit_error(op, "gpu.module has an empty symbol name");
    return false;
  }
  uq_variant_t base;
  if (name.length >= sizeof(base.module)) {
    uq_emit_error(op, "gpu.module name of %zu bytes is longer than %zu",
                  name.length, sizeof(base.module) - 1);
    return false;
  }
  memset(&base, 0, sizeof(base));
  snprintf(base.module, sizeof(base.module), "%.*s", (int)name.length,
           name.data);
  module_target(op, t, base.target, sizeof(base.target));
  base.target_index = t;
  base.target_count = (int32_t)targets;
  snprintf(base.stem, sizeof(base.stem), "%.50s",
           strncmp(base.module, "uq_", 3) == 0 ? base.module + 3 : base.module);
  if (t > 0) {
    char tag[16];
    target_tag(base.target, tag, sizeof(tag));
    size_t used = strlen(base.stem);
    snprintf(base.stem + used, sizeof(base.stem) - used, "_%s", tag);
    snprintf(base.suffix, sizeof(base.suffix), "_%s", tag);
  }
  MlirAttribute params = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("uq.target_params"));
  if (!mlirAttributeIsNull(params)) {
    if (!mlirAttributeIsAArray(params) ||
        mlirArrayAttrGetNumElements(params) != (targets ? targets : 1)) {
      uq_emit_error(op, "uq.target_params must be an array of dictionaries, "
                        "one per target");
      return false;
    }
    if (!append_bindings(op, mlirArrayAttrGetElement(params, t), base.bindings,
                         sizeof(base.bindings)))
      return false;
  }
  const char *stem = base.stem;
  MlirAttribute variants = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("uq.variants"));
  if (mlirAttributeIsNull(variants)) {
    snprintf(base.key, sizeof(base.key), "%.63s", stem);
    *oom = !append_variant(out_variants, out_count, &base);
    return !*oom;
  }
  if (!mlirAttributeIsAArray(variants)) {
    uq_emit_error(op, "uq.variants must be an array of dictionaries");
    return false;
  }
  // Optional, parallel to uq.variants: attributes each variant's kernels
  // get (a dictionary per entry: the register budget of a variant, e.g.
  // rocdl.waves_per_eu on gfx950, nvvm.minctasm on sm_90a).
  MlirAttribute kernel_attrs = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("uq.kernel_attrs"));
  if (!mlirAttributeIsNull(kernel_attrs) &&
      (!mlirAttributeIsAArray(kernel_attrs) ||
       mlirArrayAttrGetNumElements(kernel_attrs) !=
           mlirArrayAttrGetNumElements(variants))) {
    uq_emit_error(op, "uq.kernel_attrs must be an array of dictionaries, "
                      "one per entry of uq.variants");
    return false;
  }
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(variants); ++i) {
    MlirAttribute dict = mlirArrayAttrGetElement(variants, i);
    if (!mlirAttributeIsADictionary(dict)) {
      uq_emit_error(op, "uq.variants must be an array of dictionaries");
      return false;
    }
    // An entry's optional `target` (an index into the module's targets)
    // builds it for that target alone: a head dim one target's other
    // kernels do not serve yet. Its optional `held = 1` marks it held
    // (uq_variant_t.held).
    MlirAttribute only = mlirDictionaryAttrGetElementByName(
        dict, mlirStringRefCreateFromCString("target"));
    if (!mlirAttributeIsNull(only)) {
      if (!mlirAttributeIsAInteger(only) ||
          mlirIntegerAttrGetValueInt(only) < 0 ||
          mlirIntegerAttrGetValueInt(only) >= (targets ? targets : 1)) {
        uq_emit_error(op, "uq.variants target must index the module's "
                          "targets");
        return false;
      }
      if (mlirIntegerAttrGetValueInt(only) != t)
        continue;
    }
    uq_variant_t v = base;
    snprintf(v.key, sizeof(v.key), "%.63s", stem);
    if (!mlirAttributeIsNull(kernel_attrs)) {
      v.kernel_attrs = mlirArrayAttrGetElement(kernel_attrs, i);
      if (!mlirAttributeIsADictionary(v.kernel_attrs)) {
        uq_emit_error(op, "uq.kernel_attrs must be an array of dictionaries, "
                          "one per entry of uq.variants");
        return false;
      }
    }
    for (intptr_t e = 0; e < mlirDictionaryAttrGetNumElements(dict); ++e) {
      MlirNamedAttribute entry = mlirDictionaryAttrGetElement(dict, e);
      if (!mlirAttributeIsAInteger(entry.attribute)) {
        uq_emit_error(op, "uq.variants values must be integers");
        return false;
      }
      MlirStringRef key = mlirIdentifierStr(entry.name);
      int64_t value = mlirIntegerAttrGetValueInt(entry.attribute);
      if (key.length == 6 && strncmp(key.data, "target", 6) == 0)
        continue; // which target builds the entry, checked above
      if (key.length == 4 && strncmp(key.data, "held", 4) == 0) {
        if (value != 0 && value != 1) {
          uq_emit_error(op, "uq.variants held must be 0 or 1");
          return false;
        }
        v.held = value == 1;
        continue;
      }
      if (value < 0 || value > 4096) {
        uq_emit_error(op, "uq.variants value %" PRId64 " is out of range",
                      value);
        return false;
      }
      if (key.length == 1 && key.data[0] == 'd')
        v.head_dim = (uint32_t)value;
      else if (key.length == 6 && strncmp(key.data, "qg_max", 6) == 0) {
        v.qg_max = (uint32_t)value;
        // bound; named after the other keys, and only where it is not
        // what `rows` implies (keys fit uq_plan_info_t.variant)
        append_binding(v.bindings, sizeof(v.bindings), key, value);
        continue;
      } else if (key.length == 4 && strncmp(key.data, "rows", 4) == 0)
        v.rows = (uint32_t)value;
      else if (key.length == 8 && strncmp(key.data, "min_rows", 8) == 0) {
        // what the plan gives the kernel, not how it is built: bound (the
        // module's entry names it) but no part of the kernel's name
        v.min_rows = (uint32_t)value;
        append_binding(v.bindings, sizeof(v.bindings), key, value);
        continue;
      }
      size_t used;
      used = strlen(v.key);
      snprintf(v.key + used, sizeof(v.key) - used, "_%.*s%" PRId64,
               (int)key.length, key.data, value);
      used = strlen(v.suffix);
      snprintf(v.suffix + used, sizeof(v.suffix) - used, "_%.*s%" PRId64,
               (int)key.length, key.data, value);
      append_binding(v.bindings, sizeof(v.bindings), key, value);
    }
    // A decode of `rows` query rows serves query groups up to 16 (one MFMA
    // row tile of heads) and up to its rows; one of `qg_max` holds qg_max.
    uint32_t implied_qg_max = v.rows < 16 ? v.rows : 16;
    if (v.qg_max && (!v.rows || v.qg_max != implied_qg_max)) {
      size_t used = strlen(v.key);
      snprintf(v.key + used, sizeof(v.key) - used, "_qg_max%" PRIu32, v.qg_max);
      used = strlen(v.suffix);
      snprintf(v.suffix + used, sizeof(v.suffix) - used, "_qg_max%" PRIu32,
               v.qg_max);
    }
    if (v.rows && !v.qg_max)
      v.qg_max = implied_qg_max;
    if (v.qg_max && !v.rows)
      v.rows = v.qg_max;
    if (strlen(v.key) > UQ_VARIANT_KEY_MAX) {
      uq_emit_error(op,
                    "variant key '%s' is %zu characters; the runtime's "
                    "records hold at most %d (uq/variant.h "
                    "UQ_VARIANT_KEY_MAX)",
                    v.key, strlen(v.key), UQ_VARIANT_KEY_MAX);
      return false;
    }
    if (!append_variant(out_variants, out_count, &v)) {
      *oom = true;
      return false;
    }
  }
  return true;
}

bool uq_variants_list(MlirModule module, uq_variant_t **out_variants,
                      size_t *out_count) {
  *out_variants = NULL;
  *out_count = 0;
  bool oom = false;
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!uq_op_named(op, "gpu.module"))
      continue;
    intptr_t targets = target_count(op);
    for (intptr_t t = 0; t < (targets ? targets : 1); ++t)
      if (!list_target_variants(op, t, targets, out_variants, out_count, &oom))
        goto fail;
  }
  return true;
fail:
  if (oom)
    mlirEmitError(mlirOperationGetLocation(mlirModuleGetOperation(module)),
                  "out of memory");
  free(*out_variants);
  *out_variants = NULL;
  *out_count = 0;
  return false;
}

void uq_pipeline_text(const uq_variant_t *variant,
                      const uq_compile_options_t *options, char *out,
                      size_t size) {
  if (uq_variant_is_nvidia(variant)) {
    // The same front half (uq-inline only for the helpers marked
    // uq.inline: those whose constants the loops' bounds need, and the
    // kernels' own steps, which then compile as if written inline; LLVM
    // inlines the other sm_90a helpers after their loops are unrolled, which
    // kept the QG <= 8 decode at D = 256 within 128 registers when it was built
    // for 4 CTAs per SM), and uq-verify-unrolled (no register array left
    // indexed at run time); then the upstream NVVM path, ptxas from the CUDA
    // toolkit for the cubin (format=isa gives the PTX). The module's
    // #nvvm.target carries chip, PTX version and O.
    snprintf(out, size,
             "builtin.module("
             "uq-link,uq-specialize{%s},uq-evaluate-globals,uq-inline{marked},"
             "canonicalize,"
             "uq-unroll-loops,canonicalize,"
             "uq-unroll-loops,canonicalize,cse,uq-verify-unrolled,"
             "lower-affine,convert-scf-to-cf,"
             "gpu.module(convert-vector-to-llvm),"
             "gpu.module(convert-gpu-to-nvvm{"
             "use-bare-ptr-memref-call-conv=true}),"
             "reconcile-unrealized-casts,"
             "gpu-module-to-binary{format=%s toolkit=%s})",
             variant->bindings, options->emit_isa ? "isa" : "bin",
             options->cuda_dir ? options->cuda_dir : "");
    return;
  }
  // Link the kernel library's step helpers into each gpu.module (uq-link,
  // first in both pipelines), specialize, inline the helpers, then fold the
  // parameter through the IR
  // so compile-time loop bounds become constants, unroll them (twice: an inner
  // loop's bounds may depend on an outer induction variable), check that no
  // register array is left indexed at run time, lower our ops,
  // then the upstream gfx950 path. The gpu.modules carry their own
  // #rocdl.target (chip and optimization level), so none is attached here.
  snprintf(
      out, size,
      "builtin.module("
      "uq-link,uq-specialize{%s},uq-evaluate-globals,uq-inline,canonicalize,"
      "uq-unroll-loops,canonicalize,"
      "uq-unroll-loops,canonicalize,cse,uq-verify-unrolled,convert-uq-to-rocdl,"
      "gpu.module(convert-amdgpu-to-rocdl{chipset=%s}),"
      "lower-affine,convert-scf-to-cf,"
      "gpu.module(convert-vector-to-llvm),"
      "gpu.module(convert-gpu-to-rocdl{chipset=%s "
      "use-bare-ptr-memref-call-conv=true}),"
      "reconcile-unrealized-casts,"
      "gpu-module-to-binary{format=%s toolkit=%s})",
      variant->bindings, options->chip, options->chip,
      options->emit_isa ? "isa" : "bin", options->toolkit_dir);
}

// Keeps element `index` of the array attribute `name` of `op`, if any.
static void keep_one(MlirOperation op, const char *name, intptr_t index) {
  MlirStringRef ref = mlirStringRefCreateFromCString(name);
  MlirAttribute array = mlirOperationGetAttributeByName(op, ref);
  if (mlirAttributeIsNull(array) || !mlirAttributeIsAArray(array) ||
      index >= mlirArrayAttrGetNumElements(array))
    return;
  MlirAttribute element = mlirArrayAttrGetElement(array, index);
  mlirOperationSetAttributeByName(
      op, ref, mlirArrayAttrGet(mlirOperationGetContext(op), 1, &element));
}

// Keeps only the variant's gpu.module in the clone, with only the variant's
// target (gpu-module-to-binary builds one object per target), and gives its
// kernels the variant suffix, so each code object names its variant.
static void prune_and_rename(MlirOperation clone, const uq_variant_t *variant) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(clone, 0));
  MlirOperation op = mlirBlockGetFirstOperation(body);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (uq_op_named(op, "gpu.module")) {
      MlirStringRef name = uq_symbol_name(op);
      if (strlen(variant->module) != name.length ||
          (name.length &&
           memcmp(variant->module, name.data, name.length) != 0)) {
        mlirOperationDestroy(op);
        op = next;
        continue;
      }
      if (variant->target_count > 1) {
        keep_one(op, "targets", variant->target_index);
        keep_one(op, "uq.target_params", variant->target_index);
      }
      if (variant->suffix[0]) {
        MlirBlock inner =
            mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
        for (MlirOperation f = mlirBlockGetFirstOperation(inner);
             !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
          if (!uq_op_named(f, "gpu.func") ||
              mlirAttributeIsNull(mlirOperationGetAttributeByName(
                  f, mlirStringRefCreateFromCString("gpu.kernel"))))
            continue;
          for (intptr_t a = 0;
               !mlirAttributeIsNull(variant->kernel_attrs) &&
               a < mlirDictionaryAttrGetNumElements(variant->kernel_attrs);
               ++a) {
            MlirNamedAttribute attr =
                mlirDictionaryAttrGetElement(variant->kernel_attrs, a);
            mlirOperationSetAttributeByName(f, mlirIdentifierStr(attr.name),
                                            attr.attribute);
          }
          MlirStringRef fname = uq_symbol_name(f);
          char renamed[192];
          snprintf(renamed, sizeof(renamed), "%.*s%s", (int)fname.length,
                   fname.data, variant->suffix);
          mlirOperationSetAttributeByName(
              f, mlirStringRefCreateFromCString("sym_name"),
              mlirStringAttrGet(mlirOperationGetContext(f),
                                mlirStringRefCreateFromCString(renamed)));
        }
      }
    }
    op = next;
  }
}

static bool extract_binary(MlirOperation root, uint8_t **out_data,
                           size_t *out_size) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(root, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!uq_op_named(op, "gpu.binary"))
      continue;
    MlirAttribute objects = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("objects"));
    if (mlirAttributeIsNull(objects) || !mlirAttributeIsAArray(objects) ||
        mlirArrayAttrGetNumElements(objects) != 1)
      return false;
    MlirAttribute object = mlirArrayAttrGetElement(objects, 0);
    if (!mlirAttributeIsAGPUObjectAttr(object))
      return false;
    MlirStringRef bytes = mlirGPUObjectAttrGetObject(object);
    *out_data = malloc(bytes.length ? bytes.length : 1);
    if (!*out_data)
      return false;
    memcpy(*out_data, bytes.data, bytes.length);
    *out_size = bytes.length;
    return true;
  }
  return false;
}

bool uq_compile_variant(MlirModule module, const uq_variant_t *variant,
                        const uq_compile_options_t *options, uint8_t **out_data,
                        size_t *out_size, char *error, size_t error_size) {
  *out_data = NULL;
  *out_size = 0;
  MlirOperation clone = mlirOperationClone(mlirModuleGetOperation(module));
  prune_and_rename(clone, variant);

  MlirContext context = mlirOperationGetContext(clone);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      context, mlirStringRefCreateFromCString("builtin.module"));
  mlirPassManagerEnableVerifier(pm, true);
  char pipeline[2048];
  uq_pipeline_text(variant, options, pipeline, sizeof(pipeline));
  bool ok = uq_pipeline_parse(mlirPassManagerGetAsOpPassManager(pm), pipeline,
                              error, error_size);
  if (ok) {
    ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, clone));
    if (!ok)
      snprintf(error, error_size, "lowering variant '%s' failed", variant->key);
  }
  if (ok && !extract_binary(clone, out_data, out_size)) {
    snprintf(error, error_size, "variant '%s' produced no code object",
             variant->key);
    ok = false;
  }
  // Every gfx950 kernel saturates E4M3 conversions (FP16_OVFL): no LLVM
  // attribute sets the bit, so it is set on what LLVM emitted.
  if (ok && !uq_variant_is_nvidia(variant)) {
    int set = options->emit_isa
                  ? uq_listing_set_fp16_overflow(*out_data, *out_size)
                  : uq_code_object_set_fp16_overflow(*out_data, *out_size);
    if (set <= 0) {
      snprintf(error, error_size,
               "variant '%s': no kernel descriptor to set FP16_OVFL in",
               variant->key);
      free(*out_data);
      *out_data = NULL;
      *out_size = 0;
      ok = false;
    }
  }
  mlirPassManagerDestroy(pm);
  mlirOperationDestroy(clone);
  return ok;
}
