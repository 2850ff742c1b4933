// The sim backend: the same code objects the GPU runs, executed by the gfx950
// simulator (sim/sim.h). Device addresses are simulator addresses. The
// simulator locks its own shared state, so launches run without the
// context's mutex (module loads still take it).
#include "runtime/api/device.h"

#include <stdio.h>
#include <string.h>

#include "sim/sim.h"

typedef struct uq_sim_device_s {
  uq_rt_device_t base; // first: the checked cast relies on it
  uq_sim_t *sim;
  int null_launch;
} uq_sim_device_t;

// A kernel of a loaded program: what function_get hands out.
typedef struct uq_sim_function_s {
  const uq_sim_program_t *program;
  char name[128];
} uq_sim_function_t;

// A loaded program and the functions looked up in it.
typedef struct uq_sim_module_s {
  uq_sim_program_t *program;
  uq_sim_function_t functions[4];
  size_t function_count;
} uq_sim_module_t;

static const uq_rt_device_vtable_t sim_vtable;

static uq_sim_device_t *sim_cast(uq_rt_device_t *device) {
  return device->vtable == &sim_vtable ? (uq_sim_device_t *)device : NULL;
}

static void sim_destroy(uq_rt_device_t *base) {
  uq_sim_device_t *device = sim_cast(base);
  if (!device)
    return;
  uq_sim_destroy(device->sim);
  uq_rt_free(&base->allocator, device);
}

static uq_status_t sim_alloc(uq_rt_device_t *base, size_t size,
                             uint64_t *out_address) {
  return uq_sim_alloc(sim_cast(base)->sim, size, out_address);
}

// The simulator's NOT_FOUND is the context's INVALID_ARGUMENT, as the host
// backend says it: the caller passed a pointer it does not own.
static uq_status_t sim_free(uq_rt_device_t *base, uint64_t address) {
  uq_status_t status = uq_sim_free(sim_cast(base)->sim, address);
  if (uq_status_code(status) != UQ_STATUS_NOT_FOUND)
    return status;
  uq_status_t refused =
      UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                     "uq_context_free: %s (never allocated, freed already, "
                     "or inside one)",
                     uq_status_message(status));
  uq_status_free(status);
  return refused;
}

static uq_status_t sim_check_range(uq_rt_device_t *base, uint64_t address,
                                   uint64_t size) {
  return uq_sim_check_range(sim_cast(base)->sim, address, size);
}

static uq_status_t sim_upload(uq_rt_device_t *base, uint64_t dst,
                              const void *src, size_t size) {
  return uq_sim_write(sim_cast(base)->sim, dst, src, size);
}

static uq_status_t sim_download(uq_rt_device_t *base, void *dst, uint64_t src,
                                size_t size) {
  return uq_sim_read(sim_cast(base)->sim, src, dst, size);
}

static uq_status_t sim_synchronize(uq_rt_device_t *base, uq_stream_t *stream) {
  (void)base; // launches complete before uq_sim_launch returns
  (void)stream;
  return UQ_OK;
}

static uq_status_t sim_module_load(uq_rt_device_t *base, const void *data,
                                   size_t size, void **out_module) {
  uq_sim_device_t *device = sim_cast(base);
  uq_sim_module_t *module = uq_rt_calloc(&base->allocator, sizeof(*module));
  if (!module)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "out of memory for a sim module");
  uq_status_t status =
      uq_sim_program_load(device->sim, data, size, &module->program);
  if (status != UQ_OK) {
    uq_rt_free(&base->allocator, module);
    return status;
  }
  *out_module = module;
  return UQ_OK;
}

static void sim_module_unload(uq_rt_device_t *base, void *opaque) {
  uq_sim_module_t *module = opaque;
  if (!module)
    return;
  uq_sim_program_destroy(module->program);
  uq_rt_free(&base->allocator, module);
}

static uq_status_t sim_function_get(uq_rt_device_t *base, void *opaque,
                                    const char *name, void **out_function) {
  (void)base;
  uq_sim_module_t *module = opaque;
  for (size_t i = 0; i < module->function_count; ++i) {
    if (strcmp(module->functions[i].name, name) == 0) {
      *out_function = &module->functions[i];
      return UQ_OK;
    }
  }
  if (module->function_count ==
      sizeof(module->functions) / sizeof(module->functions[0]))
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "too many kernels looked up in one sim module");
  if (strlen(name) >= sizeof(module->functions[0].name))
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "kernel name too long: %s", name);
  uq_sim_function_t *function = &module->functions[module->function_count++];
  function->program = module->program;
  snprintf(function->name, sizeof(function->name), "%s", name);
  *out_function = function;
  return UQ_OK;
}

static uq_status_t sim_launch(uq_rt_device_t *base,
                              const uq_rt_launch_t *launch, uq_stream_t *stream,
                              uq_kernel_counters_t *out_counters,
                              int *out_counted) {
  (void)stream;
  *out_counted = 0;
  uq_sim_device_t *device = sim_cast(base);
  if (device->null_launch)
    return UQ_OK;
  const uq_sim_function_t *function = launch->function;
  uq_sim_launch_t sim_launch_args;
  memset(&sim_launch_args, 0, sizeof(sim_launch_args));
  memcpy(sim_launch_args.grid, launch->grid, sizeof(launch->grid));
  memcpy(sim_launch_args.workgroup, launch->workgroup,
         sizeof(launch->workgroup));
  sim_launch_args.kernargs = launch->kernargs;
  sim_launch_args.kernarg_size = launch->kernarg_size;
  sim_launch_args.dynamic_lds = launch->dynamic_lds;
  sim_launch_args.loop_trips = launch->loop_trips;
  uq_sim_counters_t counters;
  memset(&counters, 0, sizeof(counters));
  UQ_RETURN_IF_ERROR(uq_sim_launch(device->sim, function->program,
                                   function->name, &sim_launch_args,
                                   out_counters ? &counters : NULL),
                     "running %s on the simulator", function->name);
  if (out_counters) {
    out_counters->wave_instructions = counters.wave_instructions;
    out_counters->mfma_instructions = counters.by_class[UQ_SIM_CLASS_MFMA];
    out_counters->global_bytes_read = counters.global_bytes_read;
    out_counters->global_bytes_written = counters.global_bytes_written;
    out_counters->lds_bytes_read = counters.lds_bytes_read;
    out_counters->lds_bytes_written = counters.lds_bytes_written;
    out_counters->workgroups = counters.workgroups;
    out_counters->global_lines_read = counters.global_lines_read;
    out_counters->vmem_inflight_peak = counters.vmem_inflight_peak;
    *out_counted = 1;
  }
  return UQ_OK;
}

static const uq_rt_device_vtable_t sim_vtable = {
    .destroy = sim_destroy,
    .alloc = sim_alloc,
    .free = sim_free,
    .upload = sim_upload,
    .download = sim_download,
    .synchronize = sim_synchronize,
    .module_load = sim_module_load,
    .module_unload = sim_module_unload,
    .function_get = sim_function_get,
    .launch = sim_launch,
    .check_range = sim_check_range,
    // The simulator's allocation table and decoders take their own locks;
    // a launch holds none while it runs (sim/internal.h).
    .concurrent_launch = 1,
    .counts_instructions = 1,
};

uq_status_t uq_sim_device_create(const uq_allocator_t *allocator,
                                 uint32_t flags, uq_rt_device_t **out_device) {
  *out_device = NULL;
  uq_sim_device_t *device = uq_rt_calloc(allocator, sizeof(*device));
  if (!device)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED,
                          "out of memory for the sim device");
  device->base.vtable = &sim_vtable;
  device->base.kind = UQ_BACKEND_SIM;
  device->base.allocator = *allocator;
  device->null_launch = (flags & UQ_CONTEXT_FLAG_NULL_LAUNCH) != 0;
  uq_status_t status = uq_sim_create(&device->sim);
  if (status != UQ_OK) {
    sim_destroy(&device->base);
    return uq_status_annotate(status, "creating the simulator");
  }
  snprintf(device->base.description, sizeof(device->base.description),
           "gfx950 simulator%s", device->null_launch ? " (null launches)" : "");
  *out_device = &device->base;
  return UQ_OK;
}
