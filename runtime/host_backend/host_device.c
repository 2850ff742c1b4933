// The host backend's device: "device memory" is host memory from the
// context's allocator and a device address is the host pointer. Decode runs
// the host reference (host_decode.c), not a code object.
//
// The device keeps a table of its live allocations, as the simulator does,
// so that a pointer it never gave out, one freed already or one inside an
// allocation is refused by free, and every copy and every run argument is
// checked to lie inside one allocation (check_range) before memory is
// touched: the reference would otherwise read and write wherever a
// caller's number points.
#include "runtime/api/device.h"
#include "runtime/host_backend/host_decode.h"

#include <stdio.h>
#include <string.h>

// One live allocation: [base, base + size).
typedef struct host_block_s {
  uint64_t base, size;
} host_block_t;

typedef struct uq_host_device_s {
  uq_rt_device_t base;  // first: the checked cast relies on it
  host_block_t *blocks; // sorted by base; the context's mutex guards it
  size_t count, capacity;
} uq_host_device_t;

static const uq_rt_device_vtable_t host_vtable;

static uq_host_device_t *host_cast(uq_rt_device_t *device) {
  return device && device->vtable == &host_vtable ? (uq_host_device_t *)device
                                                  : NULL;
}

// The index of the first block whose base is above `address`.
static size_t upper_bound(const uq_host_device_t *d, uint64_t address) {
  size_t lo = 0, hi = d->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (d->blocks[mid].base <= address)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// The block holding all of [address, address + size), or NULL.
static const host_block_t *find_block(const uq_host_device_t *d,
                                      uint64_t address, uint64_t size) {
  size_t i = upper_bound(d, address);
  if (i == 0)
    return NULL;
  const host_block_t *b = &d->blocks[i - 1];
  uint64_t offset = address - b->base;
  if (offset >= b->size || size > b->size - offset)
    return NULL;
  return b;
}

static void host_destroy(uq_rt_device_t *base) {
  uq_host_device_t *d = host_cast(base);
  if (!d)
    return;
  // Memory the caller never freed goes with the context, as on the sim.
  for (size_t i = 0; i < d->count; ++i)
    uq_rt_free(&base->allocator, (void *)(uintptr_t)d->blocks[i].base);
  uq_rt_free(&base->allocator, d->blocks);
  uq_rt_free(&base->allocator, d);
}

// Room for one more block (the allocator has no realloc).
static int reserve_block(uq_host_device_t *d) {
  if (d->count < d->capacity)
    return 1;
  size_t capacity = d->capacity ? 2 * d->capacity : 16;
  if (capacity > SIZE_MAX / sizeof(host_block_t))
    return 0;
  host_block_t *grown =
      uq_rt_alloc(&d->base.allocator, capacity * sizeof(host_block_t));
  if (!grown)
    return 0;
  if (d->count)
    memcpy(grown, d->blocks, d->count * sizeof(host_block_t));
  uq_rt_free(&d->base.allocator, d->blocks);
  d->blocks = grown;
  d->capacity = capacity;
  return 1;
}

static uq_status_t host_alloc(uq_rt_device_t *base, size_t size,
                              uint64_t *out_address) {
  uq_host_device_t *d = host_cast(base);
  if (!reserve_block(d))
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "out of host memory for the allocation table");
  void *ptr = uq_rt_alloc(&base->allocator, size);
  if (!ptr)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "out of host memory for %zu bytes", size);
  uint64_t address = (uint64_t)(uintptr_t)ptr;
  size_t i = upper_bound(d, address);
  memmove(&d->blocks[i + 1], &d->blocks[i],
          (d->count - i) * sizeof(host_block_t));
  d->blocks[i] = (host_block_t){address, size};
  ++d->count;
  *out_address = address;
  return UQ_OK;
}

static uq_status_t host_free(uq_rt_device_t *base, uint64_t address) {
  uq_host_device_t *d = host_cast(base);
  size_t i = upper_bound(d, address);
  if (i == 0 || d->blocks[i - 1].base != address)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_context_free: 0x%llx is not the start of an "
                          "allocation (never allocated, freed already, or "
                          "inside one)",
                          (unsigned long long)address);
  memmove(&d->blocks[i - 1], &d->blocks[i],
          (d->count - i) * sizeof(host_block_t));
  --d->count;
  uq_rt_free(&base->allocator, (void *)(uintptr_t)address);
  return UQ_OK;
}

static uq_status_t host_check_range(uq_rt_device_t *base, uint64_t address,
                                    uint64_t size) {
  if (find_block(host_cast(base), address, size ? size : 1))
    return UQ_OK;
  return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                        "%llu bytes at 0x%llx are outside every allocation",
                        (unsigned long long)size, (unsigned long long)address);
}

static uq_status_t host_upload(uq_rt_device_t *device, uint64_t dst,
                               const void *src, size_t size) {
  if (!find_block(host_cast(device), dst, size))
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "write of %zu bytes at 0x%llx is outside every "
                          "allocation",
                          size, (unsigned long long)dst);
  memcpy((void *)(uintptr_t)dst, src, size);
  return UQ_OK;
}

static uq_status_t host_download(uq_rt_device_t *device, void *dst,
                                 uint64_t src, size_t size) {
  if (!find_block(host_cast(device), src, size))
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "read of %zu bytes at 0x%llx is outside every "
                          "allocation",
                          size, (unsigned long long)src);
  memcpy(dst, (const void *)(uintptr_t)src, size);
  return UQ_OK;
}

static uq_status_t host_synchronize(uq_rt_device_t *device,
                                    uq_stream_t *stream) {
  (void)device;
  (void)stream;
  return UQ_OK;
}

static uq_status_t host_run_decode(uq_rt_device_t *device,
                                   const uq_rt_decode_args_t *args) {
  (void)device;
  return uq_host_decode(args);
}

// The host encoder on host memory: device addresses are host pointers.
static uq_status_t host_run_store(uq_rt_device_t *device,
                                  const uq_rt_store_args_t *a) {
  (void)device;
  uq_kv_tokens_t tokens = {.key = (const uint16_t *)(uintptr_t)a->key,
                           .key_stride_token = a->key_stride_token,
                           .key_stride_head = a->key_stride_head,
                           .value = (const uint16_t *)(uintptr_t)a->value,
                           .value_stride_token = a->value_stride_token,
                           .value_stride_head = a->value_stride_head,
                           .slot_mapping =
                               (const int64_t *)(uintptr_t)a->slot_mapping,
                           .num_tokens = a->num_tokens,
                           .dtype = a->dtype};
  return uq_cache_write(&a->layout, (uint8_t *)(uintptr_t)a->kv_cache,
                        a->cache_bytes, &tokens);
}

static const uq_rt_device_vtable_t host_vtable = {
    .destroy = host_destroy,
    .alloc = host_alloc,
    .free = host_free,
    .upload = host_upload,
    .download = host_download,
    .synchronize = host_synchronize,
    .check_range = host_check_range,
    .run_decode = host_run_decode,
    .run_store = host_run_store,
};

uq_status_t uq_host_device_create(const uq_allocator_t *allocator,
                                  uq_rt_device_t **out_device) {
  *out_device = NULL;
  uq_host_device_t *device = uq_rt_calloc(allocator, sizeof(*device));
  if (!device)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "out of memory for the host device");
  device->base.vtable = &host_vtable;
  device->base.kind = UQ_BACKEND_HOST;
  device->base.allocator = *allocator;
  snprintf(device->base.description, sizeof(device->base.description),
           "host kernel-faithful reference");
  *out_device = &device->base;
  return UQ_OK;
}
