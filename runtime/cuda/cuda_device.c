// The CUDA backend: device memory, cubin modules and kernel launches through
// the dlopen'ed CUDA driver, on the device's primary context. Launches pass
// the packed argument block with CU_LAUNCH_PARAM_BUFFER_POINTER, so nothing
// is allocated or synchronized per launch and a run can be captured into a
// CUDA graph on the caller's stream.
#include "runtime/api/device.h"

#include <stdio.h>
#include <string.h>

#include "runtime/cuda/cuda_symbols.h"

typedef struct uq_cuda_device_s {
  uq_rt_device_t base; // first: the checked cast below relies on it
  uq_cuda_symbols_t syms;
  CUdevice device;
  CUcontext context; // primary context, retained
  int shared_optin;  // most shared memory a block may opt in to
  int sm_count;
  // Launches that wait for the stream's earlier work themselves
  // (uq_rt_launch_t.waits_for_previous) overlap it: drivers from CUDA 12.3,
  // which keep programmatic dependencies in captured graphs.
  int programmatic;
} uq_cuda_device_t;

static const uq_rt_device_vtable_t cuda_vtable;

static uq_cuda_device_t *cuda_cast(uq_rt_device_t *device) {
  return device->vtable == &cuda_vtable ? (uq_cuda_device_t *)device : NULL;
}

// The current context is per host thread: a context made on one thread and
// used on another makes its own current before every call.
static uq_status_t cuda_select(uq_cuda_device_t *device) {
  return UQ_CUDA_CALL(&device->syms, cuCtxSetCurrent, (device->context));
}

static void cuda_destroy(uq_rt_device_t *base) {
  uq_cuda_device_t *device = cuda_cast(base);
  if (!device)
    return;
  if (device->context)
    device->syms.cuDevicePrimaryCtxRelease(device->device);
  uq_cuda_symbols_deinitialize(&device->syms);
  uq_rt_free(&base->allocator, device);
}

static uq_status_t cuda_alloc(uq_rt_device_t *base, size_t size,
                              uint64_t *out_address) {
  uq_cuda_device_t *device = cuda_cast(base);
  CUdeviceptr ptr = 0;
  UQ_RETURN_IF_ERROR(cuda_select(device), "allocating");
  UQ_RETURN_IF_ERROR(UQ_CUDA_CALL(&device->syms, cuMemAlloc, (&ptr, size)),
                     "allocating %zu bytes", size);
  *out_address = ptr;
  return UQ_OK;
}

static uq_status_t cuda_free(uq_rt_device_t *base, uint64_t address) {
  uq_cuda_device_t *device = cuda_cast(base);
  UQ_RETURN_IF_ERROR(cuda_select(device), "freeing");
  return UQ_CUDA_CALL(&device->syms, cuMemFree, (address));
}

static uq_status_t cuda_upload(uq_rt_device_t *base, uint64_t dst,
                               const void *src, size_t size) {
  uq_cuda_device_t *device = cuda_cast(base);
  UQ_RETURN_IF_ERROR(cuda_select(device), "uploading");
  return UQ_CUDA_CALL(&device->syms, cuMemcpyHtoD, (dst, src, size));
}

static uq_status_t cuda_download(uq_rt_device_t *base, void *dst, uint64_t src,
                                 size_t size) {
  uq_cuda_device_t *device = cuda_cast(base);
  UQ_RETURN_IF_ERROR(cuda_select(device), "downloading");
  return UQ_CUDA_CALL(&device->syms, cuMemcpyDtoH, (dst, src, size));
}

static uq_status_t cuda_synchronize(uq_rt_device_t *base, uq_stream_t *stream) {
  uq_cuda_device_t *device = cuda_cast(base);
  UQ_RETURN_IF_ERROR(cuda_select(device), "synchronizing");
  return UQ_CUDA_CALL(&device->syms, cuStreamSynchronize, ((CUstream)stream));
}

static uq_status_t cuda_module_load(uq_rt_device_t *base, const void *data,
                                    size_t size, void **out_module) {
  (void)size; // a cubin carries its own size
  uq_cuda_device_t *device = cuda_cast(base);
  CUmodule module = NULL;
  UQ_RETURN_IF_ERROR(cuda_select(device), "loading a module");
  UQ_RETURN_IF_ERROR(
      UQ_CUDA_CALL(&device->syms, cuModuleLoadData, (&module, data)),
      "loading a %zu-byte cubin", size);
  *out_module = module;
  return UQ_OK;
}

static void cuda_module_unload(uq_rt_device_t *base, void *module) {
  uq_cuda_device_t *device = cuda_cast(base);
  if (!device || !module)
    return;
  uq_status_free(cuda_select(device));
  device->syms.cuModuleUnload((CUmodule)module);
}

// Looks the kernel up and lets it use every byte of shared memory a block
// may opt in to beyond its static shared memory (the default is 48 KiB of
// dynamic shared memory; the sm_90a decode kernels take more), once here so
// that a launch needs no attribute call.
static uq_status_t cuda_function_get(uq_rt_device_t *base, void *module,
                                     const char *name, void **out_function) {
  uq_cuda_device_t *device = cuda_cast(base);
  CUfunction function = NULL;
  UQ_RETURN_IF_ERROR(cuda_select(device), "looking up %s", name);
  UQ_RETURN_IF_ERROR(UQ_CUDA_CALL(&device->syms, cuModuleGetFunction,
                                  (&function, (CUmodule)module, name)),
                     "looking up %s", name);
  int static_shared = 0;
  UQ_RETURN_IF_ERROR(
      UQ_CUDA_CALL(
          &device->syms, cuFuncGetAttribute,
          (&static_shared, UQ_CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function)),
      "%s", name);
  if (device->shared_optin > static_shared)
    UQ_RETURN_IF_ERROR(
        UQ_CUDA_CALL(&device->syms, cuFuncSetAttribute,
                     (function,
                      UQ_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                      device->shared_optin - static_shared)),
        "raising %s's dynamic shared memory to %d bytes", name,
        device->shared_optin - static_shared);
  *out_function = function;
  return UQ_OK;
}

// cuLaunchKernelEx's configuration for `launch`: clusters of `cluster_z`
// workgroups in z when it has them, and programmatic stream serialization
// when it waits for the stream's earlier work itself and `programmatic`
// (the driver takes it). `attributes` holds up to two.
static uq_cu_launch_config_t
launch_config(const uq_rt_launch_t *launch, uq_stream_t *stream,
              int programmatic, uq_cu_launch_attribute_t *attributes) {
  unsigned count = 0;
  if (launch->cluster_z > 1)
    attributes[count++] = (uq_cu_launch_attribute_t){
        .id = UQ_CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
        .value.cluster_dim = {1, 1, launch->cluster_z},
    };
  if (programmatic && launch->waits_for_previous)
    attributes[count++] = (uq_cu_launch_attribute_t){
        .id = UQ_CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION,
        .value.programmatic_stream_serialization_allowed = 1,
    };
  return (uq_cu_launch_config_t){
      .grid_dim = {launch->grid[0], launch->grid[1], launch->grid[2]},
      .block_dim = {launch->workgroup[0], launch->workgroup[1],
                    launch->workgroup[2]},
      .shared_mem_bytes = launch->dynamic_lds,
      .stream = (CUstream)stream,
      .attrs = attributes,
      .num_attrs = count,
  };
}

static uq_status_t cuda_launch(uq_rt_device_t *base,
                               const uq_rt_launch_t *launch,
                               uq_stream_t *stream,
                               uq_kernel_counters_t *out_counters,
                               int *out_counted) {
  (void)out_counters;
  *out_counted = 0;
  uq_cuda_device_t *device = cuda_cast(base);
  UQ_RETURN_IF_ERROR(cuda_select(device), "launching");
  size_t size = launch->kernarg_size;
  void *extra[] = {UQ_CU_LAUNCH_PARAM_BUFFER_POINTER, (void *)launch->kernargs,
                   UQ_CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   UQ_CU_LAUNCH_PARAM_END};
  uq_cu_launch_attribute_t attributes[2];
  uq_cu_launch_config_t config =
      launch_config(launch, stream, device->programmatic, attributes);
  return UQ_CUDA_CALL(&device->syms, cuLaunchKernelEx,
                      (&config, (CUfunction)launch->function, NULL, extra));
}

static uq_status_t cuda_occupancy(uq_rt_device_t *base, void *function,
                                  uint32_t threads, uint32_t dynamic_lds,
                                  uint32_t *out_compute_units,
                                  uint32_t *out_workgroups_per_cu) {
  uq_cuda_device_t *device = cuda_cast(base);
  int per_sm = 0;
  UQ_RETURN_IF_ERROR(cuda_select(device), "occupancy");
  UQ_RETURN_IF_ERROR(
      UQ_CUDA_CALL(
          &device->syms, cuOccupancyMaxActiveBlocksPerMultiprocessor,
          (&per_sm, (CUfunction)function, (int)threads, (size_t)dynamic_lds)),
      "occupancy of %u threads with %u bytes of dynamic shared memory", threads,
      dynamic_lds);
  if (per_sm < 1)
    return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                          "a workgroup of %u threads with %u bytes of dynamic "
                          "shared memory does not fit an SM",
                          threads, dynamic_lds);
  *out_compute_units = (uint32_t)device->sm_count;
  *out_workgroups_per_cu = (uint32_t)per_sm;
  return UQ_OK;
}

static uq_status_t cuda_cluster_occupancy(uq_rt_device_t *base, void *function,
                                          uint32_t threads,
                                          uint32_t dynamic_lds,
                                          uint32_t cluster_z,
                                          uint32_t *out_clusters) {
  uq_cuda_device_t *device = cuda_cast(base);
  UQ_RETURN_IF_ERROR(cuda_select(device), "cluster occupancy");
  uq_rt_launch_t shape = {.grid = {1, 1, cluster_z},
                          .workgroup = {threads, 1, 1},
                          .dynamic_lds = dynamic_lds,
                          .cluster_z = cluster_z};
  uq_cu_launch_attribute_t attributes[2];
  uq_cu_launch_config_t config = launch_config(&shape, NULL, 0, attributes);
  int clusters = 0;
  UQ_RETURN_IF_ERROR(UQ_CUDA_CALL(&device->syms, cuOccupancyMaxActiveClusters,
                                  (&clusters, (CUfunction)function, &config)),
                     "clusters of %u workgroups of %u threads", cluster_z,
                     threads);
  *out_clusters = clusters > 0 ? (uint32_t)clusters : 0;
  return UQ_OK;
}

static const uq_rt_device_vtable_t cuda_vtable = {
    .destroy = cuda_destroy,
    .alloc = cuda_alloc,
    .free = cuda_free,
    .upload = cuda_upload,
    .download = cuda_download,
    .synchronize = cuda_synchronize,
    .module_load = cuda_module_load,
    .module_unload = cuda_module_unload,
    .function_get = cuda_function_get,
    .launch = cuda_launch,
    .occupancy = cuda_occupancy,
    .cluster_occupancy = cuda_cluster_occupancy,
};

uq_status_t uq_cuda_device_create(const uq_allocator_t *allocator,
                                  const char *library, int32_t ordinal,
                                  uq_rt_device_t **out_device) {
  *out_device = NULL;
  uq_cuda_device_t *device = uq_rt_calloc(allocator, sizeof(*device));
  if (!device)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "out of memory for the CUDA device");
  device->base.vtable = &cuda_vtable;
  device->base.kind = UQ_BACKEND_CUDA;
  device->base.allocator = *allocator;
  uq_cuda_symbols_t *syms = &device->syms;
  int count = 0, major = 0, minor = 0, sms = 0, version = 0;
  char name[128] = "";
  uq_status_t status = uq_cuda_symbols_initialize(library, syms);
  if (!status)
    status = UQ_CUDA_CALL(syms, cuInit, (0));
  if (!status)
    status = UQ_CUDA_CALL(syms, cuDriverGetVersion, (&version));
  if (!status)
    status = UQ_CUDA_CALL(syms, cuDeviceGetCount, (&count));
  if (!status && (ordinal < 0 || ordinal >= count))
    status =
        UQ_MAKE_STATUS(UQ_STATUS_UNAVAILABLE,
                       "CUDA device %d requested, %d present", ordinal, count);
  if (!status)
    status = UQ_CUDA_CALL(syms, cuDeviceGet, (&device->device, ordinal));
  if (!status)
    status =
        UQ_CUDA_CALL(syms, cuDeviceGetAttribute,
                     (&major, UQ_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                      device->device));
  if (!status)
    status =
        UQ_CUDA_CALL(syms, cuDeviceGetAttribute,
                     (&minor, UQ_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                      device->device));
  if (!status)
    status = UQ_CUDA_CALL(
        syms, cuDeviceGetAttribute,
        (&sms, UQ_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device->device));
  if (!status)
    status =
        UQ_CUDA_CALL(syms, cuDeviceGetAttribute,
                     (&device->shared_optin,
                      UQ_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                      device->device));
  if (!status)
    status = UQ_CUDA_CALL(syms, cuDeviceGetName,
                          (name, (int)sizeof(name), device->device));
  // The cubins are sm_90a: only compute capability 9.0 runs them.
  if (!status && (major != 9 || minor != 0))
    status = UQ_MAKE_STATUS(UQ_STATUS_UNAVAILABLE,
                            "CUDA device %d (%s) has compute capability "
                            "%d.%d; the kernels are built for sm_90a (9.0)",
                            ordinal, name, major, minor);
  if (!status)
    status = UQ_CUDA_CALL(syms, cuDevicePrimaryCtxRetain,
                          (&device->context, device->device));
  if (status) {
    cuda_destroy(&device->base);
    return status;
  }
  device->sm_count = sms > 0 ? sms : 1;
  device->programmatic = version >= 12030;
  snprintf(device->base.description, sizeof(device->base.description),
           "CUDA device %d: %s (sm_%d%d, %d SMs; driver %d.%d%s)", ordinal,
           name, major, minor, sms, version / 1000, version % 1000 / 10,
           device->programmatic ? ", programmatic launches" : "");
  *out_device = &device->base;
  return UQ_OK;
}
