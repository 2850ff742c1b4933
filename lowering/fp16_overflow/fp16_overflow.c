// FP16_OVFL on the code objects and listings the pipeline emits.
#include "lowering/fp16_overflow/fp16_overflow.h"

#include <string.h>

enum {
  kEhdrSize = 64,
  kPhdrSize = 56,
  kShdrSize = 64,
  kSymSize = 24,
  kPtLoad = 1,
  kShtSymtab = 2,
  kRsrc1Offset = 48,       // compute_pgm_rsrc1 in the 64-byte descriptor
  kFp16OvflBit = 1u << 26, // FP16_OVFL (GFX9+)
};

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}
static uint64_t rd64(const uint8_t *p) {
  return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}
static bool in_range(uint64_t offset, uint64_t length, uint64_t size) {
  return offset <= size && length <= size - offset;
}

// The file offset of virtual address `vaddr` (with `length` bytes behind it
// inside the same segment's file image), or UINT64_MAX.
static uint64_t file_offset(const uint8_t *data, size_t size, uint64_t vaddr,
                            uint64_t length) {
  uint64_t phoff = rd64(data + 32);
  uint16_t phnum = rd16(data + 56);
  if (rd16(data + 54) != kPhdrSize ||
      !in_range(phoff, (uint64_t)phnum * kPhdrSize, size))
    return UINT64_MAX;
  for (uint16_t i = 0; i < phnum; ++i) {
    const uint8_t *ph = data + phoff + (uint64_t)i * kPhdrSize;
    if (rd32(ph) != kPtLoad)
      continue;
    uint64_t offset = rd64(ph + 8), start = rd64(ph + 16);
    uint64_t filesz = rd64(ph + 32);
    if (vaddr >= start && in_range(vaddr - start, length, filesz) &&
        in_range(offset + (vaddr - start), length, size))
      return offset + (vaddr - start);
  }
  return UINT64_MAX;
}

int uq_code_object_set_fp16_overflow(uint8_t *data, size_t size) {
  if (!data || size < kEhdrSize ||
      memcmp(data,
             "\x7f"
             "ELF",
             4) != 0 ||
      data[4] != 2 /* ELFCLASS64 */)
    return -1;
  uint64_t shoff = rd64(data + 40);
  uint16_t shnum = rd16(data + 60);
  if (rd16(data + 58) != kShdrSize ||
      !in_range(shoff, (uint64_t)shnum * kShdrSize, size))
    return -1;
  int set = 0;
  for (uint16_t s = 0; s < shnum; ++s) {
    const uint8_t *sh = data + shoff + (uint64_t)s * kShdrSize;
    if (rd32(sh + 4) != kShtSymtab)
      continue;
    uint32_t link = rd32(sh + 40);
    uint64_t sym_off = rd64(sh + 24), sym_size = rd64(sh + 32);
    if (link >= shnum || !in_range(sym_off, sym_size, size))
      return -1;
    const uint8_t *strtab = data + shoff + (uint64_t)link * kShdrSize;
    uint64_t str_off = rd64(strtab + 24), str_size = rd64(strtab + 32);
    if (!in_range(str_off, str_size, size))
      return -1;
    for (uint64_t e = 0; e + kSymSize <= sym_size; e += kSymSize) {
      const uint8_t *sym = data + sym_off + e;
      uint32_t name = rd32(sym);
      if (name >= str_size)
        return -1;
      const char *text = (const char *)data + str_off + name;
      const char *nul = memchr(text, 0, (size_t)(str_size - name));
      if (!nul)
        return -1; // unterminated name
      size_t length = (size_t)(nul - text);
      if (length < 3 || strcmp(text + length - 3, ".kd") != 0)
        continue;
      uint64_t at = file_offset(data, size, rd64(sym + 8), 64);
      if (at == UINT64_MAX)
        return -1;
      uint32_t rsrc1 = rd32(data + at + kRsrc1Offset) | kFp16OvflBit;
      for (int b = 0; b < 4; ++b)
        data[at + kRsrc1Offset + b] = (uint8_t)(rsrc1 >> (8 * b));
      ++set;
    }
  }
  return set;
}

int uq_listing_set_fp16_overflow(uint8_t *text, size_t size) {
  static const char directive[] = ".amdhsa_fp16_overflow 0";
  const size_t length = sizeof(directive) - 1;
  int set = 0;
  for (size_t i = 0; i + length <= size; ++i) {
    if (memcmp(text + i, directive, length) == 0) {
      text[i + length - 1] = '1';
      ++set;
      i += length - 1;
    }
  }
  return set;
}
