// The simulator's program and launch API: code objects through the codeobj
// reader, kernels found by name, launches checked against the metadata.
#include <stdlib.h>
#include <string.h>

#include "codeobj/codeobj.h"
#include "sim/internal.h"
#include "sim/sim.h"

struct uq_sim_program_s {
  uq_code_object_t *code_object;
  uq_sim_decoder_t *decoder;
};

uq_status_t uq_sim_program_load(uq_sim_t *sim, const void *data, size_t size,
                                uq_sim_program_t **out_program) {
  if (!out_program)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "out_program is NULL");
  *out_program = NULL;
  if (!sim || !data)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "NULL argument");
  uq_sim_program_t *p = calloc(1, sizeof(*p));
  if (!p)
    return UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  uq_status_t st = uq_code_object_load(data, size, &p->code_object);
  if (st) {
    free(p);
    return st;
  }
  size_t image_size = 0;
  const uint8_t *image = uq_code_object_image(p->code_object, &image_size);
  st = uq_sim_decoder_create(image, image_size, &p->decoder);
  if (st) {
    uq_sim_program_destroy(p);
    return st;
  }
  *out_program = p;
  return UQ_OK;
}

void uq_sim_program_destroy(uq_sim_program_t *program) {
  if (!program)
    return;
  uq_sim_decoder_destroy(program->decoder);
  uq_code_object_destroy(program->code_object);
  free(program);
}

const struct uq_code_object_s *
uq_sim_program_code_object(const uq_sim_program_t *program) {
  return program ? program->code_object : NULL;
}

// The descriptor fields the wave's initial state is built from, checked
// against what the simulator models: the user SGPR count must be the one the
// enabled user SGPRs and preloaded arguments imply (the simulator places
// workgroup ids after it), and wave32, dynamic stacks and trap handlers are
// not modelled. The simulator's arithmetic rounds to nearest even and keeps
// denormals (FLOAT_ROUND_MODE 0, FLOAT_DENORM_MODE 3 for f32 and f16/f64,
// LLVM's default): a kernel that asks for another rounding or for flushed
// denormals is refused rather than run with answers its hardware would not
// give.
static uq_status_t check_descriptor(const uq_kernel_descriptor_t *d) {
  static const uint8_t sgprs[7] = {4, 2, 2, 2, 2, 2, 1};
  uint32_t implied = uq_kd_kernarg_preload_length(d);
  for (int i = 0; i < 7; ++i)
    if (d->kernel_code_properties & (1u << i))
      implied += sgprs[i];
  if (uq_kd_user_sgpr_count(d) != implied)
    return UQ_MAKE_STATUS(UQ_STATUS_DATA_LOSS,
                          "kernel descriptor: USER_SGPR_COUNT %u, but the "
                          "enabled user SGPRs and preloaded arguments take %u",
                          uq_kd_user_sgpr_count(d), implied);
  uint32_t round_mode = (d->compute_pgm_rsrc1 >> 12) & 0xF;
  uint32_t denorm_mode = (d->compute_pgm_rsrc1 >> 16) & 0xF;
  if (round_mode != 0 || denorm_mode != 0xF)
    return UQ_MAKE_STATUS(UQ_STATUS_UNIMPLEMENTED,
                          "kernel descriptor: FLOAT_ROUND_MODE 0x%x, "
                          "FLOAT_DENORM_MODE 0x%x; only round-to-nearest-even "
                          "with denormals kept (0x0, 0xf) is modelled",
                          round_mode, denorm_mode);
  if (d->compute_pgm_rsrc2 & (1u << 6))
    return UQ_MAKE_STATUS(UQ_STATUS_UNIMPLEMENTED,
                          "kernel descriptor: ENABLE_TRAP_HANDLER is set; no "
                          "trap handler is modelled");
  if (uq_kd_has_property(d, UQ_KD_WAVEFRONT_SIZE32))
    return UQ_MAKE_STATUS(UQ_STATUS_UNIMPLEMENTED,
                          "kernel descriptor: wave32; only wave64 is modelled");
  if (uq_kd_has_property(d, UQ_KD_USES_DYNAMIC_STACK))
    return UQ_MAKE_STATUS(UQ_STATUS_UNIMPLEMENTED,
                          "kernel descriptor: dynamic stack; no scratch is "
                          "modelled");
  return UQ_OK;
}

uq_status_t uq_sim_launch(uq_sim_t *sim, const uq_sim_program_t *program,
                          const char *kernel_name,
                          const uq_sim_launch_t *launch,
                          uq_sim_counters_t *out_counters) {
  if (!sim || !program || !kernel_name || !launch)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT, "NULL argument");
  const uq_kernel_info_t *ki = NULL;
  UQ_RETURN_IF_ERROR(
      uq_code_object_find_kernel(program->code_object, kernel_name, &ki),
      "launching '%s'", kernel_name);
  if (launch->kernarg_size != ki->kernarg_segment_size)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "kernel '%s' takes %u bytes of kernel arguments, "
                          "got %zu",
                          kernel_name, ki->kernarg_segment_size,
                          launch->kernarg_size);
  if (launch->kernarg_size && !launch->kernargs)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "kernel arguments are NULL");
  if (ki->wavefront_size && ki->wavefront_size != 64)
    return UQ_MAKE_STATUS(UQ_STATUS_UNIMPLEMENTED,
                          "kernel '%s' uses wave size %u; only 64 is modelled",
                          kernel_name, ki->wavefront_size);
  uint64_t items = (uint64_t)launch->workgroup[0] * launch->workgroup[1] *
                   launch->workgroup[2];
  if (ki->max_flat_workgroup_size && items > ki->max_flat_workgroup_size)
    return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                          "workgroup of %llu work-items exceeds the kernel's "
                          "maximum of %u",
                          (unsigned long long)items,
                          ki->max_flat_workgroup_size);
  for (int i = 0; i < 3; ++i) {
    if (ki->reqd_workgroup_size[i] &&
        ki->reqd_workgroup_size[i] != launch->workgroup[i])
      return UQ_MAKE_STATUS(UQ_STATUS_INVALID_ARGUMENT,
                            "kernel '%s' requires workgroup size %u in "
                            "dimension %d, got %u",
                            kernel_name, ki->reqd_workgroup_size[i], i,
                            launch->workgroup[i]);
  }
  const uq_kernel_descriptor_t *d = &ki->descriptor;
  UQ_RETURN_IF_ERROR(check_descriptor(d), "kernel '%s'", kernel_name);
  uq_sim_kernel_setup_t setup = {
      .entry = ki->entry_vaddr,
      .rsrc1 = d->compute_pgm_rsrc1,
      .rsrc2 = d->compute_pgm_rsrc2,
      .rsrc3 = d->compute_pgm_rsrc3,
      .code_properties = d->kernel_code_properties,
      .kernarg_preload = d->kernarg_preload,
      .group_segment_size = ki->group_segment_fixed_size,
      .private_segment_size = ki->private_segment_fixed_size,
      .kernarg_size = ki->kernarg_segment_size,
  };
  uq_sim_counters_t counters;
  uq_status_t st =
      uq_sim_execute(sim, program->decoder, &setup, launch, &counters);
  if (st)
    return uq_status_annotate(st, "kernel '%s'", kernel_name);
  if (out_counters)
    *out_counters = counters;
  return UQ_OK;
}
