// FP4 (E2M1) dequantization with UE8M0 block scales, written with 16-bit and
// byte arithmetic: each work-item takes one byte of packed codes (two
// elements, low nibble first), the byte scale of its block of 32 elements,
// and writes the two values as bf16 bit patterns built with ushort shifts,
// masks and selects, plus value * scale + bias in f16 arithmetic (the f16
// outputs are planar, element 2i at [i] and 2i+1 at [n/2 + i], so loads and
// stores move single halves of registers).
//
// bf16 of code c (sign s = c >> 3, e = (c >> 1) & 3, m = c & 1) times
// 2^(scale - 127): zero for e == 0, m == 0; 0.5 * 2^(scale-127) for e == 0,
// m == 1; else 2^(e - 1 + scale - 127) * (1 + m / 2). The scale byte is
// kept in [100, 154] by the caller, so every result is a normal bf16; the
// f16 path is checked for scales in [117, 137] (the product stays normal and
// finite in f16).
//
// Arguments: codes (n/2 bytes), scales (n/32 bytes), out_bf16 (n ushorts),
// bias (n halves, planar), out_f16 (n halves, planar; pairs mirrored within
// each workgroup: work-item t of workgroup g writes pair g*64 + 63 - t), n (a
// multiple of 128; one work-item per pair, 64 per workgroup).

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

static ushort fp4_bf16(ushort c, ushort scale) {
  ushort sign = (ushort)((c & 8) << 12);
  ushort e = (ushort)((c >> 1) & 3);
  ushort m = (ushort)(c & 1);
  ushort exp_normal = (ushort)(e - 1 + scale);
  ushort exp_half = (ushort)(scale - 1);
  ushort bits = e ? (ushort)((exp_normal << 7) | (m << 6))
                  : (m ? (ushort)(exp_half << 7) : (ushort)0);
  return (ushort)(sign | bits);
}

static half fp4_half(uchar c) {
  const half mag[8] = {0.0h, 0.5h, 1.0h, 1.5h, 2.0h, 3.0h, 4.0h, 6.0h};
  half v = mag[c & 7];
  return (c & 8) ? -v : v;
}

__kernel void dequant_fp4(__global const uchar *restrict codes,
                          __global const uchar *restrict scales,
                          __global ushort *restrict out_bf16,
                          __global const half *restrict bias,
                          __global half *restrict out_f16, uint n) {
  uint i = __builtin_amdgcn_workgroup_id_x() * 64 +
           __builtin_amdgcn_workitem_id_x();
  uchar b = codes[i];
  uchar s = scales[i / 16];
  ushort lo = fp4_bf16((ushort)(b & 15), (ushort)s);
  ushort hi = fp4_bf16((ushort)(b >> 4), (ushort)s);
  out_bf16[2 * i] = lo;
  out_bf16[2 * i + 1] = hi;
  // f16: value * scale + bias, the pair staged through LDS as 16-bit
  // halves and written back mirrored within the workgroup's 64 pairs.
  half sc = (half)__builtin_ldexpf(1.0f, (int)s - 127);
  uint half_n = n / 2;
  half2 f = (half2)(fp4_half(b & 15), fp4_half(b >> 4)) * sc +
            (half2)(bias[i], bias[half_n + i]);
  __local half tile[128];
  uint lane = __builtin_amdgcn_workitem_id_x();
  tile[lane] = f.x;
  tile[64 + lane] = f.y;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  half2 r = (half2)(tile[lane], tile[64 + lane]);
  uint mirror = i - lane + 63 - lane;
  out_f16[mirror] = r.x;
  out_f16[half_n + mirror] = r.y;
}
