// gfx950 simulator math: the cross-lane maps of ds_swizzle_b32 and
// ds_read_b64_tr_b16.
#include "sim/math.h"

static int reverse5(int x) {
  int r = 0;
  for (int b = 0; b < 5; ++b)
    r |= ((x >> b) & 1) << (4 - b);
  return r;
}

static int popcount5(int x) {
  int n = 0;
  for (int b = 0; b < 5; ++b)
    n += (x >> b) & 1;
  return n;
}

// The four modes of the CDNA4 ISA guide's DS_SWIZZLE_B32 pseudocode, tried
// in its order: FFT (offset >= 0xE000), rotate (>= 0xC000), quad permute
// (bit 15 set), bitmask (bit 15 clear). Every mode stays inside the lane's
// 32-lane half. A source lane whose EXEC bit is clear gives 0; that test is
// the caller's, so every valid offset yields a lane here.
int uq_sim_ds_swizzle_src_lane(uint32_t offset16, int lane) {
  if (lane < 0 || lane > 63)
    return -1;
  uint32_t off = offset16 & 0xFFFFu;
  int half = lane & 0x20;
  int i = lane & 0x1F;
  if (off >= 0xE000u) {
    int mask = (int)(off & 0x1Fu);
    int j = reverse5(i) >> popcount5(mask);
    j |= i & mask;
    return half | j;
  }
  if (off >= 0xC000u) {
    // The guide's examples (rotate left by 1: lane 31 reads lane 0) show the
    // rotation wraps inside the 32-lane half.
    int rotate = (int)((off >> 5) & 0x1Fu);
    int mask = (int)(off & 0x1Fu);
    if (off & 0x400u)
      rotate = -rotate;
    int j = ((i & mask) | ((i + rotate) & ~mask)) & 0x1F;
    return half | j;
  }
  if (off & 0x8000u) {
    int sel = (int)((off >> (2 * (lane & 3))) & 3u);
    return (lane & ~3) | sel;
  }
  int and_mask = (int)(off & 0x1Fu);
  int or_mask = (int)((off >> 5) & 0x1Fu);
  int xor_mask = (int)((off >> 10) & 0x1Fu);
  return half | (((i & and_mask) | or_mask) ^ xor_mask);
}

// Per 16-lane group, the 16 lanes x 4 halfwords read from LDS are
// transposed: lane j's halfword i is halfword (j & 3) of what lane
// 4 * i + (j >> 2) of the same group read (docs/design.md,
// "ds_read_b64_tr_b16"; the seed reads row l >> 2, columns 4 * (l & 3).. of
// a row-major tile so that lane j ends up with column j of rows 0..3).
void uq_sim_ds_read_b64_tr_b16(const uint64_t raw[64], uint64_t out[64]) {
  // Lanes 4q..4q+3 of a group transpose the 4x4 halfwords of the words
  // lanes q, 4 + q, 8 + q, 12 + q read: constant shifts only.
  for (int base = 0; base < 64; base += 16) {
    for (int q = 0; q < 4; ++q) {
      uint64_t s0 = raw[base + q], s1 = raw[base + 4 + q],
               s2 = raw[base + 8 + q], s3 = raw[base + 12 + q];
      for (int h = 0; h < 4; ++h) {
        int sh = 16 * h;
        out[base + 4 * q + h] =
            ((s0 >> sh) & 0xFFFFu) | ((s1 >> sh) & 0xFFFFu) << 16 |
            ((s2 >> sh) & 0xFFFFu) << 32 | ((s3 >> sh) & 0xFFFFu) << 48;
      }
    }
  }
}
