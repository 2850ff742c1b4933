// The host backend's device: "device memory" is host memory from the
// context's allocator and a device address is the host pointer. Decode runs
// the host reference (host_decode.c), not a code object.
#include "runtime/api/device.h"

#include <stdio.h>
#include <string.h>

static const uq_rt_device_vtable_t host_vtable;

static void host_destroy(uq_rt_device_t *device) {
  if (device && device->vtable == &host_vtable)
    uq_rt_free(&device->allocator, device);
}

static uq_status_t host_alloc(uq_rt_device_t *device, size_t size,
                              uint64_t *out_address) {
  void *ptr = uq_rt_alloc(&device->allocator, size);
  if (!ptr)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "out of host memory for %zu bytes", size);
  *out_address = (uint64_t)(uintptr_t)ptr;
  return UQ_OK;
}

static uq_status_t host_free(uq_rt_device_t *device, uint64_t address) {
  uq_rt_free(&device->allocator, (void *)(uintptr_t)address);
  return UQ_OK;
}

static uq_status_t host_upload(uq_rt_device_t *device, uint64_t dst,
                               const void *src, size_t size) {
  (void)device;
  memcpy((void *)(uintptr_t)dst, src, size);
  return UQ_OK;
}

static uq_status_t host_download(uq_rt_device_t *device, void *dst,
                                 uint64_t src, size_t size) {
  (void)device;
  memcpy(dst, (const void *)(uintptr_t)src, size);
  return UQ_OK;
}

static uq_status_t host_synchronize(uq_rt_device_t *device,
                                    uq_stream_t *stream) {
  (void)device;
  (void)stream;
  return UQ_OK;
}

static const uq_rt_device_vtable_t host_vtable = {
    .destroy = host_destroy,
    .alloc = host_alloc,
    .free = host_free,
    .upload = host_upload,
    .download = host_download,
    .synchronize = host_synchronize,
};

uq_status_t uq_host_device_create(const uq_allocator_t *allocator,
                                  uq_rt_device_t **out_device) {
  *out_device = NULL;
  uq_rt_device_t *device = uq_rt_calloc(allocator, sizeof(*device));
  if (!device)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "out of memory for the host device");
  device->vtable = &host_vtable;
  device->kind = UQ_BACKEND_HOST;
  device->allocator = *allocator;
  snprintf(device->description, sizeof(device->description),
           "host kernel-faithful reference");
  *out_device = device;
  return UQ_OK;
}
