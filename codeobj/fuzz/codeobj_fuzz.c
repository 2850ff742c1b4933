// libFuzzer entry for the code-object reader: load, walk every kernel, write
// its manifest to /dev/null, destroy. Any crash, leak, sanitizer report or
// unbounded allocation is a bug in codeobj/.
#include <stdio.h>

#include "codeobj/codeobj.h"

static FILE *g_null;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!g_null)
    g_null = fopen("/dev/null", "w");
  uq_code_object_t *co = NULL;
  uq_status_t status = uq_code_object_load(data, size, &co);
  if (status) {
    // Every failure must carry a code and a message.
    if (uq_status_code(status) == UQ_STATUS_OK || !uq_status_message(status)[0])
      __builtin_trap();
    uq_status_free(status);
    return 0;
  }
  size_t image_size = 0;
  const uint8_t *image = uq_code_object_image(co, &image_size);
  (void)uq_code_object_target(co);
  (void)uq_code_object_version(co);
  volatile uint8_t sink = 0;
  for (size_t i = 0; i < uq_code_object_kernel_count(co); ++i) {
    const uq_kernel_info_t *k = uq_code_object_kernel_at(co, i);
    const uq_kernel_info_t *found = NULL;
    uq_status_free(uq_code_object_find_kernel(co, k->name, &found));
    for (uint32_t a = 0; a < k->arg_count; ++a)
      sink ^= (uint8_t)(k->args[a].offset + k->args[a].value_kind[0]);
    // The descriptor and entry must lie inside the image.
    sink ^= image[k->descriptor_vaddr + 63] ^ image[k->entry_vaddr];
    (void)uq_kernel_occupancy(k, 1 + (uint32_t)(i % 16));
    if (g_null)
      uq_status_free(uq_kernel_write_manifest_json(k, "fuzz", g_null));
  }
  (void)image_size;
  uq_code_object_destroy(co);
  return 0;
}
