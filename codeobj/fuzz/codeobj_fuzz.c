// libFuzzer entry for the code-object reader: load, walk every kernel, write
// its manifest to /dev/null, destroy. Any crash, leak, sanitizer report or
// unbounded allocation is a bug in codeobj/.
//
// Built twice: codeobj_fuzz takes the input as it is (HSACO seeds), and
// cubin_fuzz (UQ_FUZZ_CUBIN) stamps EM_CUDA into the ELF header first, so
// every mutation of its cubin seeds reaches the cubin reader (cubin.c)
// instead of being refused as an unknown machine.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj/codeobj.h"
#include "codeobj/cubin.h"

static FILE *g_null;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

// What a parsed kernel promises its users: arguments inside the kernarg
// segment, the descriptor and entry inside the image.
static void check_kernel(const uq_code_object_t *co, size_t i,
                         const uint8_t *image, size_t image_size) {
  const uq_kernel_info_t *k = uq_code_object_kernel_at(co, i);
  const uq_kernel_info_t *found = NULL;
  uq_status_free(uq_code_object_find_kernel(co, k->name, &found));
  volatile uint8_t sink = 0;
  for (uint32_t a = 0; a < k->arg_count; ++a) {
    if ((uint64_t)k->args[a].offset + k->args[a].size > k->kernarg_segment_size)
      __builtin_trap();
    sink ^= (uint8_t)(k->args[a].offset + k->args[a].value_kind[0]);
  }
  if (k->descriptor_vaddr + 64 > image_size || k->entry_vaddr >= image_size)
    __builtin_trap();
  sink ^= image[k->descriptor_vaddr + 63] ^ image[k->entry_vaddr];
  (void)sink;
  (void)uq_kernel_occupancy(k, 1 + (uint32_t)(i % 16));
  if (g_null)
    uq_status_free(uq_kernel_write_manifest_json(k, "fuzz", g_null));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!g_null)
    g_null = fopen("/dev/null", "w");
#ifdef UQ_FUZZ_CUBIN
  // A copy of exactly `size` bytes, so ASan still sees reads past the end.
  uint8_t *copy = malloc(size ? size : 1);
  if (!copy)
    return 0;
  memcpy(copy, data, size);
  if (size >= 20) {
    copy[18] = UQ_ELF_MACHINE_CUDA & 0xff;
    copy[19] = UQ_ELF_MACHINE_CUDA >> 8;
  }
  data = copy;
#endif
  uq_code_object_t *co = NULL;
  uq_status_t status = uq_code_object_load(data, size, &co);
  if (status) {
    // Every failure must carry a code and a message.
    if (uq_status_code(status) == UQ_STATUS_OK || !uq_status_message(status)[0])
      __builtin_trap();
    uq_status_free(status);
  } else {
    size_t image_size = 0;
    const uint8_t *image = uq_code_object_image(co, &image_size);
    (void)uq_code_object_target(co);
    (void)uq_code_object_version(co);
    for (size_t i = 0; i < uq_code_object_kernel_count(co); ++i)
      check_kernel(co, i, image, image_size);
    uq_code_object_destroy(co);
  }
#ifdef UQ_FUZZ_CUBIN
  free(copy);
#endif
  return 0;
}
