// Little-endian field reads and bounds checks shared by the ELF readers
// (codeobj.c for HSACO, cubin.c for CUDA cubins). Internal to codeobj/.
#ifndef UQ_CODEOBJ_LE_BYTES_H_
#define UQ_CODEOBJ_LE_BYTES_H_

#include <stdint.h>

static inline uint16_t rd16(const uint8_t *p) {
  return (uint16_t)(p[0] | (uint16_t)p[1] << 8);
}
static inline uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}
static inline uint64_t rd64(const uint8_t *p) {
  return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

// [offset, offset + length) lies within [0, size).
static inline int range_ok(uint64_t offset, uint64_t length, uint64_t size) {
  return offset <= size && length <= size - offset;
}

#endif // UQ_CODEOBJ_LE_BYTES_H_
