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

void *uq_rt_calloc(const uq_allocator_t *allocator, size_t size) {
  void *ptr = uq_rt_alloc(allocator, size);
  if (ptr)
    memset(ptr, 0, size);
  return ptr;
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
                                     UQ_BACKEND_SIM, UQ_BACKEND_HOST};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) {
    const char *candidate = uq_backend_name(all[i]);
    if (strlen(candidate) == length && memcmp(candidate, name, length) == 0) {
      *out_backend = all[i];
      return UQ_OK;
    }
  }
  return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                        "unknown backend '%.*s' (expected auto, hip, sim or "
                        "host)",
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

// Parses every code object of the table and checks the kernel arguments of
// decode and reduce against kernel_abi.h, so a stale or foreign object fails
// here with a clear message instead of faulting at the first launch.
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
    object->source = *source;
    ++context->object_count;
    UQ_RETURN_IF_ERROR(
        uq_code_object_load(source->data, source->size, &object->parsed),
        "code object for variant %s", source->variant);
    UQ_RETURN_IF_ERROR(uq_code_object_find_kernel(
                           object->parsed, source->kernel, &object->kernel),
                       "code object for variant %s", source->variant);
    uq_rt_arg_layout_t layout;
    if (strncmp(source->variant, "decode_", 7) == 0) {
      UQ_RETURN_IF_ERROR(uq_rt_arg_layout_build(object->kernel,
                                                uq_rt_decode_arg_specs,
                                                UQ_DECODE_ARG_COUNT, &layout),
                         "variant %s", source->variant);
    } else if (strcmp(source->variant, "reduce") == 0) {
      UQ_RETURN_IF_ERROR(uq_rt_arg_layout_build(object->kernel,
                                                uq_rt_reduce_arg_specs,
                                                UQ_REDUCE_ARG_COUNT, &layout),
                         "variant %s", source->variant);
    }
  }
  return UQ_OK;
}

uq_status_t uq_rt_context_find_object(uq_context_t *context,
                                      const char *variant,
                                      uq_rt_object_t **out_object) {
  *out_object = NULL;
  for (size_t i = 0; i < context->object_count; ++i) {
    if (strcmp(context->objects[i].source.variant, variant) == 0) {
      *out_object = &context->objects[i];
      return UQ_OK;
    }
  }
  return UQ_MAKE_STATUS(
      UQ_STATUS_NOT_FOUND, "no code object for variant %s (%zu embedded%s)",
      variant, context->object_count,
      context->object_count == 0 ? ": this libuqrt was built without kernels"
                                 : "");
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

// Auto: hip when a device opens and accepts our gfx950 code object (a
// device of another architecture rejects it), otherwise sim. The reason
// for not using hip is kept for uq_context_describe.
static uq_status_t create_auto_device(uq_context_t *context,
                                      const uq_context_options_t *options,
                                      char *why, size_t why_size) {
  uq_rt_device_t *hip = NULL;
  uq_status_t status = uq_hip_device_create(
      &context->allocator, options->hip_library, options->hip_device, &hip);
  if (status == UQ_OK && context->object_count > 0) {
    void *module = NULL;
    status = hip->vtable->module_load(hip, context->objects[0].source.data,
                                      context->objects[0].source.size, &module);
    if (status == UQ_OK)
      hip->vtable->module_unload(hip, module);
    else
      status = uq_status_annotate(status, "the device is not gfx950");
  } else if (status == UQ_OK) {
    status = UQ_MAKE_STATUS(UQ_STATUS_NOT_FOUND,
                            "no code objects to check the device with");
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
  context->backend = UQ_BACKEND_SIM;
  return uq_sim_device_create(&context->allocator, options->flags,
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
  if ((unsigned)options->backend > UQ_BACKEND_HOST)
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

  // The table: the caller's, or the one built into the library (the
  // embedded struct has the same fields in the same order).
  uq_status_t status;
  if (options->code_objects) {
    status = parse_objects(context, options->code_objects,
                           options->code_object_count);
  } else {
    size_t count = uq_embedded_code_object_count;
    uq_code_object_source_t *sources = NULL;
    status = UQ_OK;
    if (count) {
      sources = uq_rt_calloc(&allocator, count * sizeof(*sources));
      if (!sources)
        status = UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                                "out of memory for the code-object table");
      for (size_t i = 0; sources && i < count; ++i) {
        sources[i].variant = uq_embedded_code_objects[i].variant;
        sources[i].kernel = uq_embedded_code_objects[i].kernel;
        sources[i].data = uq_embedded_code_objects[i].data;
        sources[i].size = uq_embedded_code_objects[i].size;
      }
    }
    if (status == UQ_OK)
      status = parse_objects(context, sources, count);
    uq_rt_free(&allocator, sources);
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
    status = uq_sim_device_create(&allocator, options->flags, &context->device);
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

uq_status_t uq_context_describe(const uq_context_t *context,
                                const char **out_text) {
  if (!context || !out_text)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_context_describe: NULL argument");
  *out_text = context->description;
  return UQ_OK;
}

// Device memory: every call goes through the context mutex (the simulator
// is not thread-safe; HIP does not mind).
#define LOCKED(context, expr)                                                  \
  do {                                                                         \
    pthread_mutex_lock(&(context)->mutex);                                     \
    uq_status_t locked_status_ = (expr);                                       \
    pthread_mutex_unlock(&(context)->mutex);                                   \
    return locked_status_;                                                     \
  } while (0)

uq_status_t uq_context_alloc(uq_context_t *context, size_t size,
                             uq_device_ptr_t *out_ptr) {
  if (out_ptr)
    *out_ptr = 0;
  if (!context || !out_ptr)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_context_alloc: NULL argument");
  if (size == 0)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_context_alloc: size 0");
  LOCKED(context,
         context->device->vtable->alloc(context->device, size, out_ptr));
}

uq_status_t uq_context_free(uq_context_t *context, uq_device_ptr_t ptr) {
  if (!context)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_context_free: NULL context");
  if (!ptr)
    return UQ_OK;
  LOCKED(context, context->device->vtable->free(context->device, ptr));
}

uq_status_t uq_context_upload(uq_context_t *context, uq_device_ptr_t device_dst,
                              const void *host_src, size_t size) {
  if (!context || !device_dst || (!host_src && size))
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_context_upload: NULL argument");
  if (!size)
    return UQ_OK;
  LOCKED(context, context->device->vtable->upload(context->device, device_dst,
                                                  host_src, size));
}

uq_status_t uq_context_download(uq_context_t *context, void *host_dst,
                                uq_device_ptr_t device_src, size_t size) {
  if (!context || !device_src || (!host_dst && size))
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_context_download: NULL argument");
  if (!size)
    return UQ_OK;
  LOCKED(context, context->device->vtable->download(context->device, host_dst,
                                                    device_src, size));
}

uq_status_t uq_context_synchronize(uq_context_t *context, uq_stream_t *stream) {
  if (!context)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_context_synchronize: NULL context");
  return context->device->vtable->synchronize(context->device, stream);
}
