// The context: allocator, backend device, the code-object table and the
// mutex that makes a context safe to share between threads.
#include "runtime/api/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/embedded.h"

static void *system_alloc(void *self, size_t size) {
  (void)self;
  return malloc(size);
}
static void system_free(void *self, void *ptr) {
  (void)self;
  free(ptr);
}

uq_status_t uq_runtime_version(uint32_t *out_major, uint32_t *out_minor) {
  if (!out_major || !out_minor)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_runtime_version: NULL output");
  *out_major = UQRT_VERSION_MAJOR;
  *out_minor = UQRT_VERSION_MINOR;
  return UQ_OK;
}

const char *uq_backend_name(uq_backend_t backend) {
  switch (backend) {
  case UQ_BACKEND_AUTO:
    return "auto";
  case UQ_BACKEND_HIP:
    return "hip";
  case UQ_BACKEND_SIM:
    return "sim";
  case UQ_BACKEND_HOST:
    return "host";
  case UQ_BACKEND_CUDA:
    return "cuda";
  }
  return "unknown";
}

uq_status_t uq_backend_parse(const char *name, size_t length,
                             uq_backend_t *out_backend) {
  if (!out_backend)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_backend_parse: NULL output");
  *out_backend = UQ_BACKEND_AUTO;
  if (!name)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "NULL backend name");
  static const uq_backend_t all[] = {UQ_BACKEND_AUTO, UQ_BACKEND_HIP,
                                     UQ_BACKEND_SIM, UQ_BACKEND_HOST,
                                     UQ_BACKEND_CUDA};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) {
    const char *candidate = uq_backend_name(all[i]);
    if (strlen(candidate) == length && memcmp(candidate, name, length) == 0) {
      *out_backend = all[i];
      return UQ_OK;
    }
  }
  return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                        "unknown backend '%.*s' (expected auto, hip, sim, "
                        "host or cuda)",
                        (int)(length > 64 ? 64 : length), name);
}

void uq_context_options_initialize(uq_context_options_t *out_options) {
  if (out_options)
    memset(out_options, 0, sizeof(*out_options));
}

void uq_context_destroy(uq_context_t *context) {
  if (!context)
    return;
  uq_allocator_t allocator = context->allocator;
  for (size_t i = 0; i < context->object_count; ++i) {
    uq_rt_object_t *object = &context->objects[i];
    if (object->module && context->device &&
        context->device->vtable->module_unload)
      context->device->vtable->module_unload(context->device, object->module);
    uq_code_object_destroy(object->parsed);
  }
  uq_rt_free(&allocator, context->objects);
  if (context->device)
    context->device->vtable->destroy(context->device);
  if (context->mutex_initialized)
    pthread_mutex_destroy(&context->mutex);
  uq_rt_free(&allocator, context);
}

// A record's stated resources and argument layout must be the code object's
// (0 / NULL: not stated).
static uq_status_t check_record(const uq_variant_record_t *r,
                                const uq_kernel_info_t *k) {
  struct {
    const char *what;
    uint32_t stated, actual;
  } facts[] = {
      {"LDS bytes", r->lds_bytes, k->group_segment_fixed_size},
      {"VGPRs", r->vgpr_count, k->vgpr_count},
      {"AGPRs", r->agpr_count, k->agpr_count},
      {"SGPRs", r->sgpr_count, k->sgpr_count},
      {"scratch bytes", r->scratch_bytes, k->private_segment_fixed_size},
  };
  for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); ++i)
    if (facts[i].stated && facts[i].stated != facts[i].actual)
      return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                            "record states %u %s, the code object %u",
                            facts[i].stated, facts[i].what, facts[i].actual);
  if (!r->args)
    return UQ_OK;
  uint32_t explicit_args = 0;
  for (uint32_t a = 0; a < k->arg_count; ++a) {
    if (k->args[a].kind == UQ_KERNARG_HIDDEN)
      continue;
    if (explicit_args < r->arg_count &&
        (r->args[explicit_args].offset != k->args[a].offset ||
         r->args[explicit_args].size != k->args[a].size))
      return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                            "record's argument %u (offset %u, size %u) is "
                            "not the code object's (offset %u, size %u)",
                            explicit_args, r->args[explicit_args].offset,
                            r->args[explicit_args].size, k->args[a].offset,
                            k->args[a].size);
    ++explicit_args;
  }
  if (explicit_args != r->arg_count)
    return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                          "record states %u arguments, the code object has %u",
                          r->arg_count, explicit_args);
  return UQ_OK;
}

// Parses every code object of the table, checks its record against it and
// the kernel arguments of decode and reduce against kernel_abi.h, so a stale
// or foreign object fails here with a clear message instead of faulting at
// the first launch.
static uq_status_t parse_objects(uq_context_t *context,
                                 const uq_code_object_source_t *sources,
                                 size_t count) {
  if (count == 0)
    return UQ_OK;
  if (count > SIZE_MAX / sizeof(*context->objects))
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "code_object_count %zu is too large", count);
  context->objects =
      uq_rt_calloc(&context->allocator, count * sizeof(*context->objects));
  if (!context->objects)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "out of memory for the code-object table");
  for (size_t i = 0; i < count; ++i) {
    const uq_code_object_source_t *source = &sources[i];
    uq_rt_object_t *object = &context->objects[i];
    if (!source->variant || !source->kernel || !source->data)
      return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                            "code object %zu: NULL variant, kernel or data", i);
    if (strlen(source->variant) > UQ_VARIANT_KEY_MAX)
      return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                            "code object %zu: variant key '%.40s...' is "
                            "longer than UQ_VARIANT_KEY_MAX (%d)",
                            i, source->variant, UQ_VARIANT_KEY_MAX);
    if (source->kind != UQ_VARIANT_KIND_DECODE &&
        source->kind != UQ_VARIANT_KIND_REDUCE &&
        source->kind != UQ_VARIANT_KIND_STORE &&
        source->kind != UQ_VARIANT_KIND_VIEW)
      return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                            "code object %zu (%s): kind %d is not decode, "
                            "reduce, store or view",
                            i, source->variant, (int)source->kind);
    if (source->head_dim == 0 ||
        (source->kind == UQ_VARIANT_KIND_DECODE && source->qg_max == 0))
      return UQ_MAKE_STATUS(
          UQ_STATUS_INVALID_ARGUMENT,
          "code object %zu (%s): the record needs head_dim%s", i,
          source->variant,
          source->kind == UQ_VARIANT_KIND_DECODE ? " and qg_max" : "");
    // Records the runtime could never select, or would select for query
    // groups their kernels were not built for (uq/variant.h).
    if (!uq_variant_head_dim_selectable(source->head_dim))
      return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                            "code object %zu (%s): head_dim %u is not one "
                            "the runtime selects (" UQ_HEAD_DIMS_TEXT ")",
                            i, source->variant, source->head_dim);
    if (source->kind == UQ_VARIANT_KIND_DECODE &&
        !uq_variant_qg_max_selectable(source->qg_max))
      return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                            "code object %zu (%s): qg_max %u is outside "
                            "1..%d, the query groups a plan can ask for",
                            i, source->variant, source->qg_max,
                            UQ_VARIANT_MAX_QUERY_GROUP);
    if (source->kind == UQ_VARIANT_KIND_DECODE && source->rows &&
        source->rows < source->qg_max)
      return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                            "code object %zu (%s): rows %u is below qg_max %u "
                            "(a block holds at least one token's heads)",
                            i, source->variant, source->rows, source->qg_max);
    object->source = *source;
    ++context->object_count;
    UQ_RETURN_IF_ERROR(
        uq_code_object_load(source->data, source->size, &object->parsed),
        "code object for variant %s", source->variant);
    UQ_RETURN_IF_ERROR(uq_code_object_find_kernel(
                           object->parsed, source->kernel, &object->kernel),
                       "code object for variant %s", source->variant);
    UQ_RETURN_IF_ERROR(check_record(source, object->kernel), "variant %s",
                       source->variant);
    uq_rt_arg_layout_t layout;
    if (source->kind == UQ_VARIANT_KIND_DECODE) {
      UQ_RETURN_IF_ERROR(uq_rt_arg_layout_build(object->kernel,
                                                uq_rt_decode_arg_specs,
                                                UQ_DECODE_ARG_COUNT, &layout),
                         "variant %s", source->variant);
    } else if (source->kind == UQ_VARIANT_KIND_REDUCE) {
      UQ_RETURN_IF_ERROR(uq_rt_arg_layout_build(object->kernel,
                                                uq_rt_reduce_arg_specs,
                                                UQ_REDUCE_ARG_COUNT, &layout),
                         "variant %s", source->variant);
    } else if (source->kind == UQ_VARIANT_KIND_STORE) {
      UQ_RETURN_IF_ERROR(uq_rt_arg_layout_build(object->kernel,
                                                uq_rt_store_arg_specs,
                                                UQ_STORE_ARG_COUNT, &layout),
                         "variant %s", source->variant);
    } else {
      UQ_RETURN_IF_ERROR(uq_rt_arg_layout_build(object->kernel,
                                                uq_rt_view_arg_specs,
                                                UQ_VIEW_ARG_COUNT, &layout),
                         "variant %s", source->variant);
    }
  }
  return UQ_OK;
}

// Writes what the context's target has of `kind` to `out`, one entry a
// head dim in table order: "D 64 QG 1-16, D 256 QG 1-16" for decodes (the
// largest query group of the head dim), "D 64, D 256" for the others;
// empty when it has none. Short whatever the table's size: a record's
// name and rows are in uq_context_variant.
static void summarize_records(const uq_context_t *context,
                              uq_variant_kind_t kind, char *out, size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < context->object_count && used + 1 < size; ++i) {
    const uq_variant_record_t *r = &context->objects[i].source;
    if (r->kind != kind || strcmp(uq_rt_record_target(r), context->target))
      continue;
    uint32_t qg_max = r->qg_max;
    int seen = 0;
    for (size_t j = 0; j < context->object_count && !seen; ++j) {
      const uq_variant_record_t *o = &context->objects[j].source;
      if (o->kind != kind || o->head_dim != r->head_dim ||
          strcmp(uq_rt_record_target(o), context->target))
        continue;
      if (j < i)
        seen = 1; // listed with the head dim's first record
      else if (o->qg_max > qg_max)
        qg_max = o->qg_max;
    }
    if (seen)
      continue;
    if (kind == UQ_VARIANT_KIND_DECODE)
      snprintf(out + used, size - used, "%sD %u QG 1-%u", used ? ", " : "",
               r->head_dim, qg_max);
    else
      snprintf(out + used, size - used, "%sD %u", used ? ", " : "",
               r->head_dim);
    used = strlen(out);
  }
}

uq_status_t uq_rt_context_find_variant(uq_context_t *context,
                                       uq_variant_kind_t kind,
                                       uint32_t head_dim, uint32_t query_group,
                                       uint32_t rows,
                                       uq_rt_object_t **out_object) {
  *out_object = NULL;
  for (size_t i = 0; i < context->object_count; ++i) {
    const uq_variant_record_t *r = &context->objects[i].source;
    if (r->kind != kind || r->head_dim != head_dim ||
        strcmp(uq_rt_record_target(r), context->target) != 0)
      continue;
    if (kind != UQ_VARIANT_KIND_DECODE) {
      *out_object = &context->objects[i];
      break;
    }
    if (r->qg_max < query_group)
      continue;
    // The smallest block that holds `rows`, else the largest block; among
    // equal blocks the smallest qg_max.
    if (*out_object) {
      const uq_variant_record_t *b = &(*out_object)->source;
      uint32_t have = uq_rt_record_rows(b), cand = uq_rt_record_rows(r);
      int better = have < rows    ? cand > have
                   : cand != have ? cand >= rows && cand < have
                                  : r->qg_max < b->qg_max;
      if (!better)
        continue;
    }
    *out_object = &context->objects[i];
  }
  if (*out_object)
    return UQ_OK;
  // No kernel of this kind at all is a table without it (NOT_FOUND); a
  // table that has some but none for this shape does not cover the shape.
  uq_status_code_t code = UQ_STATUS_NOT_FOUND;
  for (size_t i = 0; i < context->object_count; ++i)
    if (context->objects[i].source.kind == kind)
      code = UQ_STATUS_UNIMPLEMENTED;
  const char *what = kind == UQ_VARIANT_KIND_DECODE   ? "decode"
                     : kind == UQ_VARIANT_KIND_REDUCE ? "reduce"
                     : kind == UQ_VARIANT_KIND_STORE  ? "store"
                                                      : "view";
  char query[48] = "";
  if (kind == UQ_VARIANT_KIND_DECODE)
    snprintf(query, sizeof(query), ", query_group %u", query_group);
  char has[160];
  summarize_records(context, kind, has, sizeof(has));
  if (!has[0])
    return UQ_MAKE_STATUS(code,
                          "no %s %s kernel for head_dim %u%s (the table has "
                          "no %s %s kernel)",
                          context->target, what, head_dim, query,
                          context->target, what);
  return UQ_MAKE_STATUS(code,
                        "no %s %s kernel for head_dim %u%s (the table's %s "
                        "%s kernels: %s)",
                        context->target, what, head_dim, query, context->target,
                        what, has);
}

uq_status_t uq_rt_context_load_object(uq_context_t *context,
                                      uq_rt_object_t *object) {
  uq_rt_device_t *device = context->device;
  if (!device->vtable->module_load)
    return UQ_OK; // the host backend runs no code objects
  pthread_mutex_lock(&context->mutex);
  uq_status_t status = UQ_OK;
  if (!object->module)
    status = device->vtable->module_load(device, object->source.data,
                                         object->source.size, &object->module);
  if (status == UQ_OK && !object->function)
    status = device->vtable->function_get(
        device, object->module, object->source.kernel, &object->function);
  pthread_mutex_unlock(&context->mutex);
  return uq_status_annotate(status, "loading variant %s",
                            object->source.variant);
}

uq_status_t uq_rt_context_check_buffer(uq_context_t *context, const char *what,
                                       uq_device_ptr_t address, uint64_t size) {
  uq_rt_device_t *device = context->device;
  if (!device->vtable->check_range)
    return UQ_OK;
  pthread_mutex_lock(&context->mutex);
  uq_status_t status = device->vtable->check_range(device, address, size);
  pthread_mutex_unlock(&context->mutex);
  if (status == UQ_OK)
    return UQ_OK;
  uq_status_free(status);
  return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                        "%s: the %llu bytes the call needs at 0x%llx are not "
                        "inside one allocation of this context (never "
                        "allocated, freed, or too small)",
                        what, (unsigned long long)size,
                        (unsigned long long)address);
}

uq_status_t uq_rt_context_launch(uq_context_t *context,
                                 const uq_rt_launch_t *launch,
                                 uq_stream_t *stream,
                                 uq_kernel_counters_t *out_counters,
                                 int *out_counted) {
  uq_rt_device_t *device = context->device;
  if (device->vtable->concurrent_launch)
    return device->vtable->launch(device, launch, stream, out_counters,
                                  out_counted);
  pthread_mutex_lock(&context->mutex);
  uq_status_t status =
      device->vtable->launch(device, launch, stream, out_counters, out_counted);
  pthread_mutex_unlock(&context->mutex);
  return status;
}

// Auto: hip when a device opens and accepts our gfx950 code object (a
// device of another architecture rejects it), otherwise sim. The reason
// for not using hip is kept for uq_context_describe.
static uq_status_t create_auto_device(uq_context_t *context,
                                      const uq_context_options_t *options,
                                      char *why, size_t why_size) {
  const uq_rt_object_t *gfx950 = NULL;
  for (size_t i = 0; i < context->object_count && !gfx950; ++i)
    if (strcmp(uq_rt_record_target(&context->objects[i].source), "gfx950") == 0)
      gfx950 = &context->objects[i];
  uq_rt_device_t *hip = NULL;
  uq_status_t status = uq_hip_device_create(
      &context->allocator, options->hip_library, options->hip_device, &hip);
  if (status == UQ_OK && gfx950) {
    void *module = NULL;
    status = hip->vtable->module_load(hip, gfx950->source.data,
                                      gfx950->source.size, &module);
    if (status == UQ_OK)
      hip->vtable->module_unload(hip, module);
    else
      status = uq_status_annotate(status, "the device is not gfx950");
  } else if (status == UQ_OK) {
    status = UQ_MAKE_STATUS(UQ_STATUS_NOT_FOUND,
                            "no gfx950 code objects to check the device with");
  }
  if (status == UQ_OK) {
    context->device = hip;
    context->backend = UQ_BACKEND_HIP;
    return UQ_OK;
  }
  snprintf(why, why_size, "hip not used: %s", uq_status_message(status));
  uq_status_free(status);
  if (hip)
    hip->vtable->destroy(hip);
  // CUDA: a compute capability 9.0 device, when the table has cubins.
  int has_cubins = 0;
  for (size_t i = 0; i < context->object_count; ++i)
    has_cubins |=
        strcmp(uq_rt_record_target(&context->objects[i].source), "sm_90a") == 0;
  if (has_cubins) {
    status = uq_cuda_device_create(&context->allocator, options->cuda_library,
                                   options->cuda_device, &context->device);
    if (status == UQ_OK) {
      context->backend = UQ_BACKEND_CUDA;
      return UQ_OK;
    }
  } else {
    status = UQ_MAKE_STATUS(UQ_STATUS_NOT_FOUND, "no sm_90a cubins embedded");
  }
  size_t used = strlen(why);
  snprintf(why + used, why_size - used, "; cuda not used: %s",
           uq_status_message(status));
  uq_status_free(status);
  context->backend = UQ_BACKEND_SIM;
  return uq_sim_device_load(&context->allocator, options->flags,
                            &context->device);
}

uq_status_t uq_context_create(const uq_context_options_t *options,
                              uq_context_t **out_context) {
  if (!out_context)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_context_create: NULL out_context");
  *out_context = NULL;
  uq_context_options_t defaults;
  uq_context_options_initialize(&defaults);
  if (!options)
    options = &defaults;
  uq_allocator_t allocator = {NULL, system_alloc, system_free};
  if (options->allocator) {
    if (!options->allocator->alloc || !options->allocator->free)
      return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                            "allocator without alloc or free");
    allocator = *options->allocator;
  }
  if ((unsigned)options->backend > UQ_BACKEND_CUDA)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "unknown backend %d",
                          (int)options->backend);
  if (options->flags & ~(uint32_t)UQ_CONTEXT_FLAG_NULL_LAUNCH)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "unknown context flags 0x%x", options->flags);
  if (options->code_object_count && !options->code_objects)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "code_object_count %zu with NULL code_objects",
                          options->code_object_count);

  uq_context_t *context = uq_rt_calloc(&allocator, sizeof(*context));
  if (!context)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "out of memory for a context");
  context->allocator = allocator;
  context->flags = options->flags;
  if (pthread_mutex_init(&context->mutex, NULL) != 0) {
    uq_context_destroy(context);
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "cannot create the context mutex");
  }
  context->mutex_initialized = 1;

  // The table: the caller's records, or the ones built into the library.
  uq_status_t status;
  if (options->code_objects) {
    status = parse_objects(context, options->code_objects,
                           options->code_object_count);
  } else {
    status =
        parse_objects(context, uq_embedded_variants, uq_embedded_variant_count);
  }
  if (status != UQ_OK) {
    uq_context_destroy(context);
    return status;
  }

  char why[400] = "";
  switch (options->backend) {
  case UQ_BACKEND_AUTO:
    status = create_auto_device(context, options, why, sizeof(why));
    break;
  case UQ_BACKEND_HIP:
    context->backend = UQ_BACKEND_HIP;
    status = uq_hip_device_create(&allocator, options->hip_library,
                                  options->hip_device, &context->device);
    break;
  case UQ_BACKEND_SIM:
    context->backend = UQ_BACKEND_SIM;
    status = uq_sim_device_load(&allocator, options->flags, &context->device);
    break;
  case UQ_BACKEND_CUDA:
    context->backend = UQ_BACKEND_CUDA;
    status = uq_cuda_device_create(&allocator, options->cuda_library,
                                   options->cuda_device, &context->device);
    break;
  case UQ_BACKEND_HOST:
    context->backend = UQ_BACKEND_HOST;
    status = uq_host_device_create(&allocator, &context->device);
    break;
  }
  if (status != UQ_OK) {
    uq_context_destroy(context);
    return uq_status_annotate(status, "backend %s is unavailable",
                              uq_backend_name(options->backend));
  }
  context->target = context->backend == UQ_BACKEND_CUDA ? "sm_90a" : "gfx950";
  snprintf(context->description, sizeof(context->description),
           "%s: %s%s%s; %zu code objects", uq_backend_name(context->backend),
           context->device->description, *why ? "; " : "", why,
           context->object_count);
  *out_context = context;
  return UQ_OK;
}

uq_status_t uq_context_backend(const uq_context_t *context,
                               uq_backend_t *out_backend) {
  if (!context || !out_backend)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_context_backend: NULL argument");
  *out_backend = context->backend;
  return UQ_OK;
}

uq_status_t uq_context_variant_count(const uq_context_t *context,
                                     size_t *out_count) {
  if (out_count)
    *out_count = 0;
  if (!context || !out_count)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_context_variant_count: NULL argument");
  *out_count = context->object_count;
  return UQ_OK;
}

uq_status_t uq_context_variant(const uq_context_t *context, size_t index,
                               const uq_variant_record_t **out_record) {
  if (out_record)
    *out_record = NULL;
  if (!context || !out_record)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_context_variant: NULL argument");
  if (index >= context->object_count)
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "uq_context_variant: index %zu, the context has %zu "
                          "code objects",
                          index, context->object_count);
  *out_record = &context->objects[index].source;
  return UQ_OK;
}

uq_status_t uq_context_describe(const uq_context_t *context,
                                const char **out_text) {
  if (!context || !out_text)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_context_describe: NULL argument");
  *out_text = context->description;
  return UQ_OK;
}
