// The entry point of libuqrt_sim.so, the module libuqrt loads for the sim
// backend (device.h says why it is separate). The module exports this one
// function (sim_module.map); everything else in it is local.
#include "runtime/api/device.h"

__attribute__((visibility("default"))) uq_status_t
uq_sim_module_create_device(uint32_t abi, size_t vtable_size,
                            const uq_allocator_t *allocator, uint32_t flags,
                            uq_rt_device_t **out_device);

uq_status_t uq_sim_module_create_device(uint32_t abi, size_t vtable_size,
                                        const uq_allocator_t *allocator,
                                        uint32_t flags,
                                        uq_rt_device_t **out_device) {
  if (!out_device || !allocator)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "uq_sim_module_create_device: NULL argument");
  *out_device = NULL;
  if (abi != UQ_SIM_MODULE_ABI || vtable_size != sizeof(uq_rt_device_vtable_t))
    return UQ_MAKE_STATUS(UQ_STATUS_FAILED_PRECONDITION,
                          "the simulator module has backend ABI %u (%zu-byte "
                          "vtable) but libuqrt expects %u (%zu bytes): install "
                          "the libuqrt_sim.so built with this libuqrt",
                          UQ_SIM_MODULE_ABI, sizeof(uq_rt_device_vtable_t), abi,
                          vtable_size);
  return uq_sim_device_create(allocator, flags, out_device);
}
