// 16-bit integer arithmetic as OpenCL C defines it: per element i of x and y
// (ushort arrays) and a shift amount s[i] in [0, 32) (a byte), eight
// results, each a ushort:
//   r0 = x * y                       (mod 2^16)
//   r1 = x << s, r2 = x >> s         (shift modulo 16: OpenCL uses the low
//   r3 = (short)x >> s                four bits of the amount of a 16-bit
//                                     vector element shift)
//   r4 = add_sat(x, y) unsigned, r5 = sub_sat(x, y) unsigned
//   r6 = max((short)x, (short)y) - min((short)x, (short)y) (mod 2^16)
//   r7 = (x & y) | (~x & (y ^ 0x5A5A))    (a bit select)
// short_math takes elements in pairs as ushort2/short2 vectors, so 16-bit
// vector shifts keep OpenCL's modulo rule (the compiler uses packed forms);
// short_math_scalar computes the same list one element per work-item on
// scalars, where C's promotion to int applies instead: the shifts see the
// whole amount (x << 20 is 0 after truncation, (short)x >> 20 is 0 or
// 0xFFFF). Arguments: x, y (n ushorts), s (n bytes), out (8 * n ushorts,
// result j of element i at [j * n + i]), n (even).

typedef ushort us2 __attribute__((ext_vector_type(2)));
typedef short ss2 __attribute__((ext_vector_type(2)));

__kernel void short_math(__global const ushort *restrict x,
                         __global const ushort *restrict y,
                         __global const uchar *restrict s,
                         __global ushort *restrict out, uint n) {
  uint p = __builtin_amdgcn_workgroup_id_x() * 64 +
           __builtin_amdgcn_workitem_id_x();
  if (2 * p >= n)
    return;
  uint i = 2 * p;
  us2 a = (us2)(x[i], x[i + 1]);
  us2 b = (us2)(y[i], y[i + 1]);
  us2 sh = (us2)(s[i], s[i + 1]);
  us2 r[8];
  r[0] = a * b;
  r[1] = a << sh;
  r[2] = a >> sh;
  r[3] = __builtin_bit_cast(us2, __builtin_bit_cast(ss2, a) >> __builtin_bit_cast(ss2, sh));
  r[4] = __builtin_elementwise_add_sat(a, b);
  r[5] = __builtin_elementwise_sub_sat(a, b);
  ss2 sa = __builtin_bit_cast(ss2, a), sb = __builtin_bit_cast(ss2, b);
  r[6] = __builtin_bit_cast(us2, (ss2)(__builtin_elementwise_max(sa, sb) -
                                       __builtin_elementwise_min(sa, sb)));
  r[7] = (a & b) | (~a & (b ^ (us2)0x5A5A));
  for (int j = 0; j < 8; ++j) {
    out[j * n + i] = r[j].x;
    out[j * n + i + 1] = r[j].y;
  }
}

__kernel void short_math_scalar(__global const ushort *restrict x,
                                __global const ushort *restrict y,
                                __global const uchar *restrict s,
                                __global ushort *restrict out, uint n) {
  uint i = __builtin_amdgcn_workgroup_id_x() * 64 +
           __builtin_amdgcn_workitem_id_x();
  if (i >= n)
    return;
  ushort a = x[i], b = y[i];
  uchar sh = s[i];
  ushort r[8];
  r[0] = (ushort)(a * b);
  r[1] = (ushort)((uint)a << sh);
  r[2] = (ushort)(a >> sh);
  r[3] = (ushort)((short)a >> sh);
  r[4] = __builtin_elementwise_add_sat(a, b);
  r[5] = __builtin_elementwise_sub_sat(a, b);
  short sa = (short)a, sb = (short)b;
  r[6] = (ushort)(short)(__builtin_elementwise_max(sa, sb) -
                         __builtin_elementwise_min(sa, sb));
  r[7] = (ushort)((a & b) | (~a & (b ^ 0x5A5A)));
  for (int j = 0; j < 8; ++j)
    out[j * n + i] = r[j];
}
