// A context's device memory and streams: allocation, copies and
// synchronization through its device, each under the context mutex.
#include "runtime/api/internal.h"

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
