// Loads the simulator backend from libuqrt_sim.so on demand, so that a
// server that runs on a GPU never needs the simulator's LLVM. Where the
// module is looked for, in order:
//   1. $UQ_SIM_MODULE, when set (a path; no fallback if it fails);
//   2. libuqrt_sim.so beside the libuqrt that is running (its install and
//      build directory);
//   3. libuqrt_sim.so through the dynamic loader's search path.
// The module is opened with RTLD_NODELETE and closed at once: it stays
// mapped for the process (LLVM does not support being unloaded), and no
// handle needs keeping anywhere.
#define _GNU_SOURCE // dladdr, RTLD_NODELETE
#include "runtime/api/device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/api/dynamic_library.h"

#define UQ_SIM_MODULE_NAME "libuqrt_sim.so"

// Opens `path`; on failure appends the reason to `tried`.
static void *open_module(const char *path, char *tried, size_t tried_size) {
  return uq_rt_dlopen_first(&path, 1, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE,
                            tried, tried_size);
}

// The directory libuqrt was loaded from, with a trailing '/', or "".
static void own_directory(char *out, size_t capacity) {
  out[0] = '\0';
  Dl_info info;
  if (!dladdr((void *)&uq_sim_device_load, &info) || !info.dli_fname)
    return;
  const char *slash = strrchr(info.dli_fname, '/');
  if (!slash || (size_t)(slash - info.dli_fname) + 2 > capacity)
    return;
  size_t length = (size_t)(slash - info.dli_fname) + 1;
  memcpy(out, info.dli_fname, length);
  out[length] = '\0';
}

uq_status_t uq_sim_device_load(const uq_allocator_t *allocator, uint32_t flags,
                               uq_rt_device_t **out_device) {
  *out_device = NULL;
  char tried[1024] = "";
  void *handle = NULL;
  const char *explicit_path = getenv("UQ_SIM_MODULE");
  if (explicit_path && *explicit_path) {
    handle = open_module(explicit_path, tried, sizeof(tried));
  } else {
    char path[4096];
    own_directory(path, sizeof(path) - sizeof(UQ_SIM_MODULE_NAME));
    if (path[0]) {
      strcat(path, UQ_SIM_MODULE_NAME);
      handle = open_module(path, tried, sizeof(tried));
    }
    if (!handle)
      handle = open_module(UQ_SIM_MODULE_NAME, tried, sizeof(tried));
  }
  if (!handle)
    return UQ_MAKE_STATUS(UQ_STATUS_UNAVAILABLE,
                          "the simulator module is not installed (%s); "
                          "install libuqrt_sim.so beside libuqrt (the "
                          "uqrt_sim component) or set UQ_SIM_MODULE",
                          tried);
  // POSIX: a function pointer round-trips through dlsym's void *.
  uq_sim_module_create_fn create;
  void *symbol = dlsym(handle, UQ_SIM_MODULE_ENTRY);
  memcpy(&create, &symbol, sizeof(create));
  dlclose(handle); // RTLD_NODELETE: stays mapped
  if (!symbol)
    return UQ_MAKE_STATUS(
        UQ_STATUS_UNAVAILABLE, "%s has no %s: not a uqrt simulator module",
        explicit_path && *explicit_path ? explicit_path : UQ_SIM_MODULE_NAME,
        UQ_SIM_MODULE_ENTRY);
  return create(UQ_SIM_MODULE_ABI, sizeof(uq_rt_device_vtable_t), allocator,
                flags, out_device);
}
