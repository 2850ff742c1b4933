// Device memory of the simulator: allocations in a flat 64-bit address
// space (not host pointers), found by binary search with a last-hit cache.
#define _GNU_SOURCE // MAP_ANONYMOUS, MAP_NORESERVE, memfd_create
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim/internal.h"
#include "sim/sim.h"

// Allocations start high so that a host pointer or a small integer used as
// an address faults, and are spaced so that running off the end faults too.
#define UQ_SIM_MEMORY_BASE 0x100000000ull
#define UQ_SIM_MEMORY_GUARD 0x10000ull

uq_status_t uq_sim_create(uq_sim_t **out_sim) {
  if (!out_sim)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "out_sim is NULL");
  *out_sim = NULL;
  uq_sim_t *sim = calloc(1, sizeof(*sim));
  if (!sim)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "cannot allocate the simulator");
  sim->next_base = UQ_SIM_MEMORY_BASE;
  if (pthread_mutex_init(&sim->lock, NULL) != 0) {
    free(sim);
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "cannot create the simulator's lock");
  }
  *out_sim = sim;
  return UQ_OK;
}

static void release(const uq_sim_alloc_t *a) {
  if (a->mapped)
    munmap(a->data, a->size);
  else
    free(a->data);
}

void uq_sim_destroy(uq_sim_t *sim) {
  if (!sim)
    return;
  for (size_t i = 0; i < sim->alloc_count; ++i)
    release(&sim->allocs[i]);
  free(sim->allocs);
  pthread_mutex_destroy(&sim->lock);
  free(sim);
}

// A big allocation is sparse and still poisoned: one chunk of 0xCD bytes in
// a memory file, mapped copy-on-write over every chunk of the range. Reads
// of unwritten memory see 0xCD as in a small allocation, while only the
// chunk and the pages a kernel writes cost memory. The chunk grows with the
// allocation to keep the mappings few (at most 8192). Without memfd the
// range is plain anonymous memory (reads zero).
static uint8_t *map_poisoned(size_t size) {
  size_t chunk = (size_t)2 << 20;
  while (size / chunk > 8192)
    chunk *= 2;
  uint8_t *base = mmap(NULL, size, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED)
    return NULL;
  int fd = memfd_create("uq-sim-poison", MFD_CLOEXEC);
  uint8_t *fill = MAP_FAILED;
  if (fd >= 0 && ftruncate(fd, (off_t)chunk) == 0)
    fill = mmap(NULL, chunk, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (fill != MAP_FAILED) {
    memset(fill, 0xCD, chunk);
    munmap(fill, chunk);
    for (size_t off = 0; off < size; off += chunk) {
      size_t n = size - off < chunk ? size - off : chunk;
      if (mmap(base + off, n, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_FIXED | MAP_NORESERVE, fd, 0) == MAP_FAILED)
        break; // the rest stays anonymous (zero)
    }
  }
  if (fd >= 0)
    close(fd); // the mappings keep the file
  return base;
}

uq_status_t uq_sim_alloc(uq_sim_t *sim, size_t size, uint64_t *out_address) {
  if (!sim || !out_address)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "NULL argument");
  *out_address = 0;
  if (size == 0)
    size = 1; // distinct addresses for empty buffers
  if (size > (1ull << 40))
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "allocation of %zu bytes is too large", size);
  int mapped = size >= UQ_SIM_SPARSE_BYTES;
  uint8_t *data;
  if (mapped) {
    data = map_poisoned(size);
  } else {
    data = malloc(size);
    if (data)
      memset(data, 0xCD, size);
  }
  if (!data)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "cannot allocate %zu bytes of device memory", size);
  pthread_mutex_lock(&sim->lock);
  if (sim->alloc_count == sim->alloc_capacity) {
    size_t cap = sim->alloc_capacity ? 2 * sim->alloc_capacity : 16;
    uq_sim_alloc_t *a = realloc(sim->allocs, cap * sizeof(*a));
    if (!a) {
      pthread_mutex_unlock(&sim->lock);
      release(&(uq_sim_alloc_t){0, size, data, mapped});
      return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                            "cannot grow the allocation table");
    }
    sim->allocs = a;
    sim->alloc_capacity = cap;
  }
  // Bases only grow, so appending keeps the table sorted.
  uint64_t base = sim->next_base;
  sim->next_base = (base + size + UQ_SIM_MEMORY_GUARD + 0xFFFF) & ~0xFFFFull;
  sim->allocs[sim->alloc_count++] = (uq_sim_alloc_t){base, size, data, mapped};
  pthread_mutex_unlock(&sim->lock);
  *out_address = base;
  return UQ_OK;
}

// Caller holds sim->lock.
static ptrdiff_t uq_sim_memory_find(uq_sim_t *sim, uint64_t address) {
  size_t hint = __atomic_load_n(&sim->last_hit, __ATOMIC_RELAXED);
  if (hint < sim->alloc_count) {
    const uq_sim_alloc_t *a = &sim->allocs[hint];
    if (address >= a->base && address - a->base < a->size)
      return (ptrdiff_t)hint;
  }
  size_t lo = 0, hi = sim->alloc_count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (sim->allocs[mid].base <= address)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0)
    return -1;
  const uq_sim_alloc_t *a = &sim->allocs[lo - 1];
  if (address - a->base >= a->size)
    return -1;
  __atomic_store_n(&sim->last_hit, lo - 1, __ATOMIC_RELAXED);
  return (ptrdiff_t)(lo - 1);
}

// Caller holds sim->lock.
static uint8_t *uq_sim_memory_lookup(uq_sim_t *sim, uint64_t address,
                                     uint64_t size) {
  ptrdiff_t i = uq_sim_memory_find(sim, address);
  if (i < 0)
    return NULL;
  const uq_sim_alloc_t *a = &sim->allocs[i];
  uint64_t off = address - a->base;
  if (size > a->size - off)
    return NULL;
  return a->data + off;
}

int uq_sim_memory_find_alloc(uq_sim_t *sim, uint64_t address, uint64_t size,
                             uq_sim_alloc_t *out) {
  pthread_mutex_lock(&sim->lock);
  int found = uq_sim_memory_lookup(sim, address, size) != NULL;
  if (found)
    *out = sim->allocs[__atomic_load_n(&sim->last_hit, __ATOMIC_RELAXED)];
  pthread_mutex_unlock(&sim->lock);
  return found;
}

uq_status_t uq_sim_free(uq_sim_t *sim, uint64_t address) {
  if (!sim)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "sim is NULL");
  pthread_mutex_lock(&sim->lock);
  ptrdiff_t i = uq_sim_memory_find(sim, address);
  if (i < 0 || sim->allocs[i].base != address) {
    pthread_mutex_unlock(&sim->lock);
    return UQ_MAKE_STATUS(UQ_STATUS_NOT_FOUND,
                          "0x%llx is not the start of an allocation",
                          (unsigned long long)address);
  }
  uq_sim_alloc_t gone = sim->allocs[i];
  memmove(&sim->allocs[i], &sim->allocs[i + 1],
          (sim->alloc_count - (size_t)i - 1) * sizeof(uq_sim_alloc_t));
  --sim->alloc_count;
  __atomic_store_n(&sim->last_hit, 0, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&sim->lock);
  release(&gone);
  return UQ_OK;
}

uq_status_t uq_sim_write(uq_sim_t *sim, uint64_t address, const void *data,
                         size_t size) {
  if (!sim || (!data && size))
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "NULL argument");
  if (size == 0)
    return UQ_OK;
  pthread_mutex_lock(&sim->lock);
  uint8_t *p = uq_sim_memory_lookup(sim, address, size);
  if (p)
    memcpy(p, data, size);
  pthread_mutex_unlock(&sim->lock);
  if (!p)
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "write of %zu bytes at 0x%llx is outside every "
                          "allocation",
                          size, (unsigned long long)address);
  return UQ_OK;
}

uq_status_t uq_sim_read(uq_sim_t *sim, uint64_t address, void *data,
                        size_t size) {
  if (!sim || (!data && size))
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "NULL argument");
  if (size == 0)
    return UQ_OK;
  pthread_mutex_lock(&sim->lock);
  const uint8_t *p = uq_sim_memory_lookup(sim, address, size);
  if (p)
    memcpy(data, p, size);
  pthread_mutex_unlock(&sim->lock);
  if (!p)
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "read of %zu bytes at 0x%llx is outside every "
                          "allocation",
                          size, (unsigned long long)address);
  return UQ_OK;
}

uq_status_t uq_sim_check_range(uq_sim_t *sim, uint64_t address, uint64_t size) {
  if (!sim)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "sim is NULL");
  pthread_mutex_lock(&sim->lock);
  int inside = uq_sim_memory_lookup(sim, address, size ? size : 1) != NULL;
  pthread_mutex_unlock(&sim->lock);
  if (!inside)
    return UQ_MAKE_STATUS(UQ_STATUS_OUT_OF_RANGE,
                          "%llu bytes at 0x%llx are outside every allocation",
                          (unsigned long long)size,
                          (unsigned long long)address);
  return UQ_OK;
}
