// Block-scaled matrix tiles through the gfx950 scaled MFMAs: D = A * B^T
// with A in FP8 E4M3 and B in FP4 E2M1 (per-32-element UE8M0 scales on both),
// accumulated over two K steps, in both shapes: 16x16 tiles with K = 128 per
// instruction, 32x32 tiles with K = 64 per instruction. One wave per tile.
//
// Memory layouts (all row-major, as a host would pack them):
//   a       [M][K] bytes, E4M3
//   b       [N][K/2] bytes, E2M1, element k of a row in byte k/2, low nibble
//           first
//   sa, sb  [M][K/32], [N][K/32] bytes, UE8M0
//   d       [M][N] floats
// with K = 256 (16x16) or 128 (32x32).
//
// Lane layout (CDNA4 ISA, "Dense Matrix Layouts: 8-bit and Smaller"): with G
// lane groups (4 for 16x16x128, 2 for 32x32x64; group g = l / 16 or l / 32),
// lane l holds row l % 16 (l % 32) of A or column of B. An FP4 operand holds
// K elements [32g, 32g + 32) in its first four registers; an FP8 operand
// holds two runs of 16: K [16g, 16g + 16) in registers 0-3 and
// [16(G + g), 16(G + g) + 16) in registers 4-7. The scale lane l passes is
// that of its row (column) and K block g (elements [32g, 32g + 32)), whatever
// the data layout. D: 16x16 lane l register r is row 4 * (l / 16) + r,
// column l % 16; 32x32 lane l register r is row 8 * (r / 4) + 4 * (l / 32) +
// r % 4, column l % 32.

typedef int v8i __attribute__((ext_vector_type(8)));
typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v16f __attribute__((ext_vector_type(16)));

// 2 x 16 E4M3 bytes (runs at p and q) and 32 E2M1 nibbles (16 bytes; the
// upper four registers of an FP4 operand are unused).
static v8i load_fp8(__global const uint *p, __global const uint *q) {
  v8i v;
  for (int j = 0; j < 4; ++j) {
    v[j] = (int)p[j];
    v[4 + j] = (int)q[j];
  }
  return v;
}
static v8i load_fp4(__global const uint *p) {
  v8i v = 0;
  for (int j = 0; j < 4; ++j)
    v[j] = (int)p[j];
  return v;
}

__kernel void mfma_scale_16x16(__global const uchar *restrict a,
                               __global const uchar *restrict b,
                               __global const uchar *restrict sa,
                               __global const uchar *restrict sb,
                               __global float *restrict d) {
  const int K = 256;
  uint l = __builtin_amdgcn_workitem_id_x();
  uint row = l % 16, kb = l / 16;
  v4f acc = 0;
  for (int step = 0; step < 2; ++step) {
    int k0 = step * 128 + 32 * (int)kb;
    __global const uchar *ar = a + row * K + step * 128 + 16 * kb;
    v8i av = load_fp8((__global const uint *)ar,
                      (__global const uint *)(ar + 64));
    v8i bv = load_fp4((__global const uint *)(b + row * (K / 2) + k0 / 2));
    int sca = sa[row * (K / 32) + k0 / 32];
    int scb = sb[row * (K / 32) + k0 / 32];
    // cbsz 0: A is E4M3; blgp 4: B is E2M1; the scale is byte 0 (op_sel 0).
    acc = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(av, bv, acc, 0, 4,
                                                           0, sca, 0, scb);
  }
  for (int r = 0; r < 4; ++r)
    d[(4 * kb + r) * 16 + row] = acc[r];
}

__kernel void mfma_scale_32x32(__global const uchar *restrict a,
                               __global const uchar *restrict b,
                               __global const uchar *restrict sa,
                               __global const uchar *restrict sb,
                               __global float *restrict d) {
  const int K = 128;
  uint l = __builtin_amdgcn_workitem_id_x();
  uint row = l % 32, kb = l / 32;
  v16f acc = 0;
  for (int step = 0; step < 2; ++step) {
    int k0 = step * 64 + 32 * (int)kb;
    __global const uchar *ar = a + row * K + step * 64 + 16 * kb;
    v8i av = load_fp8((__global const uint *)ar,
                      (__global const uint *)(ar + 32));
    v8i bv = load_fp4((__global const uint *)(b + row * (K / 2) + k0 / 2));
    // The scales come in byte 1 of a register (op_sel 1) to check the
    // selection.
    int sca = (int)sa[row * (K / 32) + k0 / 32] << 8;
    int scb = (int)sb[row * (K / 32) + k0 / 32] << 8;
    acc = __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4(av, bv, acc, 0, 4,
                                                          1, sca, 1, scb);
  }
  for (int r = 0; r < 16; ++r)
    d[(8 * (r / 4) + 4 * kb + r % 4) * 32 + row] = acc[r];
}
