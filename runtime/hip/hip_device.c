// The HIP backend: device memory, code-object modules and kernel launches
// through the dlopen'ed HIP runtime. Launches pass the packed kernel
// arguments with HIP_LAUNCH_PARAM_BUFFER_POINTER, so nothing is allocated per
// launch and the launch can be captured into a HIP graph.
#include "runtime/api/device.h"

#include <stdio.h>
#include <string.h>

#include "runtime/hip/hip_symbols.h"

typedef struct uq_hip_device_s {
  uq_rt_device_t base; // first: the checked cast below relies on it
  uq_hip_symbols_t syms;
  int ordinal;
} uq_hip_device_t;

static const uq_rt_device_vtable_t hip_vtable;

static uq_hip_device_t *hip_cast(uq_rt_device_t *device) {
  return device->vtable == &hip_vtable ? (uq_hip_device_t *)device : NULL;
}

// HIP's current device is per host thread: a context made on one thread and
// used on another selects its device again before any call that depends on
// it (launches go to the module's device and need nothing).
static uq_status_t hip_select(uq_hip_device_t *device) {
  return UQ_HIP_CALL(&device->syms, hipSetDevice, (device->ordinal));
}

static void hip_destroy(uq_rt_device_t *base) {
  uq_hip_device_t *device = hip_cast(base);
  if (!device)
    return;
  uq_hip_symbols_deinitialize(&device->syms);
  uq_rt_free(&base->allocator, device);
}

static uq_status_t hip_alloc(uq_rt_device_t *base, size_t size,
                             uint64_t *out_address) {
  uq_hip_device_t *device = hip_cast(base);
  void *ptr = NULL;
  UQ_RETURN_IF_ERROR(hip_select(device), "allocating");
  UQ_RETURN_IF_ERROR(UQ_HIP_CALL(&device->syms, hipMalloc, (&ptr, size)),
                     "allocating %zu bytes", size);
  *out_address = (uint64_t)(uintptr_t)ptr;
  return UQ_OK;
}

static uq_status_t hip_free(uq_rt_device_t *base, uint64_t address) {
  uq_hip_device_t *device = hip_cast(base);
  return UQ_HIP_CALL(&device->syms, hipFree, ((void *)(uintptr_t)address));
}

static uq_status_t hip_upload(uq_rt_device_t *base, uint64_t dst,
                              const void *src, size_t size) {
  uq_hip_device_t *device = hip_cast(base);
  UQ_RETURN_IF_ERROR(hip_select(device), "uploading");
  return UQ_HIP_CALL(
      &device->syms, hipMemcpy,
      ((void *)(uintptr_t)dst, src, size, hipMemcpyHostToDevice));
}

static uq_status_t hip_download(uq_rt_device_t *base, void *dst, uint64_t src,
                                size_t size) {
  uq_hip_device_t *device = hip_cast(base);
  UQ_RETURN_IF_ERROR(hip_select(device), "downloading");
  return UQ_HIP_CALL(
      &device->syms, hipMemcpy,
      (dst, (const void *)(uintptr_t)src, size, hipMemcpyDeviceToHost));
}

static uq_status_t hip_synchronize(uq_rt_device_t *base, uq_stream_t *stream) {
  uq_hip_device_t *device = hip_cast(base);
  // A NULL stream is the calling thread's current device's: select ours.
  UQ_RETURN_IF_ERROR(hip_select(device), "synchronizing");
  return UQ_HIP_CALL(&device->syms, hipStreamSynchronize,
                     ((hipStream_t)stream));
}

static uq_status_t hip_module_load(uq_rt_device_t *base, const void *data,
                                   size_t size, void **out_module) {
  (void)size; // the ELF header carries it
  uq_hip_device_t *device = hip_cast(base);
  hipModule_t module = NULL;
  UQ_RETURN_IF_ERROR(hip_select(device), "loading a code object");
  UQ_RETURN_IF_ERROR(
      UQ_HIP_CALL(&device->syms, hipModuleLoadData, (&module, data)),
      "loading a %zu-byte code object", size);
  *out_module = module;
  return UQ_OK;
}

static void hip_module_unload(uq_rt_device_t *base, void *module) {
  uq_hip_device_t *device = hip_cast(base);
  if (module)
    uq_status_free(
        UQ_HIP_CALL(&device->syms, hipModuleUnload, ((hipModule_t)module)));
}

static uq_status_t hip_function_get(uq_rt_device_t *base, void *module,
                                    const char *name, void **out_function) {
  uq_hip_device_t *device = hip_cast(base);
  hipFunction_t function = NULL;
  UQ_RETURN_IF_ERROR(UQ_HIP_CALL(&device->syms, hipModuleGetFunction,
                                 (&function, (hipModule_t)module, name)),
                     "looking up kernel %s", name);
  *out_function = function;
  return UQ_OK;
}

static uq_status_t hip_launch(uq_rt_device_t *base,
                              const uq_rt_launch_t *launch, uq_stream_t *stream,
                              uq_kernel_counters_t *out_counters,
                              int *out_counted) {
  (void)out_counters;
  *out_counted = 0;
  uq_hip_device_t *device = hip_cast(base);
  UQ_RETURN_IF_ERROR(hip_select(device), "launching");
  size_t size = launch->kernarg_size;
  void *config[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, (void *)launch->kernargs,
                    HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
  return UQ_HIP_CALL(&device->syms, hipModuleLaunchKernel,
                     ((hipFunction_t)launch->function, launch->grid[0],
                      launch->grid[1], launch->grid[2], launch->workgroup[0],
                      launch->workgroup[1], launch->workgroup[2],
                      launch->dynamic_lds, (hipStream_t)stream, NULL, config));
}

static const uq_rt_device_vtable_t hip_vtable = {
    .destroy = hip_destroy,
    .alloc = hip_alloc,
    .free = hip_free,
    .upload = hip_upload,
    .download = hip_download,
    .synchronize = hip_synchronize,
    .module_load = hip_module_load,
    .module_unload = hip_module_unload,
    .function_get = hip_function_get,
    .launch = hip_launch,
};

uq_status_t uq_hip_device_create(const uq_allocator_t *allocator,
                                 const char *library, int32_t ordinal,
                                 uq_rt_device_t **out_device) {
  *out_device = NULL;
  uq_hip_device_t *device = uq_rt_calloc(allocator, sizeof(*device));
  if (!device)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "out of memory for the HIP device");
  device->base.vtable = &hip_vtable;
  device->base.kind = UQ_BACKEND_HIP;
  device->base.allocator = *allocator;
  device->ordinal = ordinal;
  uq_status_t status = uq_hip_symbols_initialize(library, &device->syms);
  int count = 0;
  if (status == UQ_OK)
    status = UQ_HIP_CALL(&device->syms, hipGetDeviceCount, (&count));
  if (status == UQ_OK && (ordinal < 0 || ordinal >= count))
    status = UQ_MAKE_STATUS(UQ_STATUS_UNAVAILABLE,
                            "HIP device %d does not exist (%d present)",
                            (int)ordinal, count);
  if (status == UQ_OK)
    status = UQ_HIP_CALL(&device->syms, hipSetDevice, (ordinal));
  if (status != UQ_OK) {
    hip_destroy(&device->base);
    return status;
  }
  int version = 0;
  if (device->syms.hipRuntimeGetVersion)
    uq_status_free(
        UQ_HIP_CALL(&device->syms, hipRuntimeGetVersion, (&version)));
  snprintf(device->base.description, sizeof(device->base.description),
           "HIP device %d of %d (HIP runtime %d)", (int)ordinal, count,
           version);
  *out_device = &device->base;
  return UQ_OK;
}
