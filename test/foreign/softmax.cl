// Row softmax in f32: one 64-lane wave per row of n floats (any n >= 1).
// The row maximum and the sum of exponentials are wave reductions, written
// two ways so both lane-exchange paths run: DPP row shifts inside each row of
// 16 lanes, then ds_bpermute across rows. The division is correctly rounded
// (built with -cl-fp32-correctly-rounded-divide-sqrt).
//
// Arguments: in, out (n floats per row, rows = number of workgroups), n.

static float lane_read(float v, int from) {
  return __builtin_bit_cast(
      float, __builtin_amdgcn_ds_bpermute(from << 2, __builtin_bit_cast(int, v)));
}

// DPP row_shr:k (0x110 + k) with bound_ctrl: a lane whose source is outside
// its row of 16 reads 0, so the max reduction keeps its own value there.
#define SHR(v, k)                                                              \
  __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(                       \
                                __builtin_bit_cast(int, v),                    \
                                __builtin_bit_cast(int, v), 0x110 + (k), 0xF,  \
                                0xF, false))

static float wave_max(float v) {
  v = __builtin_fmaxf(v, SHR(v, 1));
  v = __builtin_fmaxf(v, SHR(v, 2));
  v = __builtin_fmaxf(v, SHR(v, 4));
  v = __builtin_fmaxf(v, SHR(v, 8)); // lane 15 of each row holds the row's maximum
  int lane = (int)__builtin_amdgcn_workitem_id_x();
  float r0 = lane_read(v, 15), r1 = lane_read(v, 31), r2 = lane_read(v, 47),
        r3 = lane_read(v, 63);
  (void)lane;
  return __builtin_fmaxf(__builtin_fmaxf(r0, r1), __builtin_fmaxf(r2, r3));
}

static float wave_sum(float v) {
  int lane = (int)__builtin_amdgcn_workitem_id_x();
  for (int d = 32; d >= 1; d >>= 1)
    v += lane_read(v, lane ^ d);
  return v;
}

__kernel void softmax_rows(__global const float *restrict in,
                           __global float *restrict out, uint n) {
  uint lane = __builtin_amdgcn_workitem_id_x();
  uint row = __builtin_amdgcn_workgroup_id_x();
  __global const float *x = in + (ulong)row * n;
  __global float *y = out + (ulong)row * n;
  float m = -INFINITY;
  for (uint i = lane; i < n; i += 64)
    m = __builtin_fmaxf(m, x[i]);
  m = wave_max(m);
  float s = 0.0f;
  for (uint i = lane; i < n; i += 64)
    s += __builtin_expf(x[i] - m);
  s = wave_sum(s);
  for (uint i = lane; i < n; i += 64)
    y[i] = __builtin_expf(x[i] - m) / s;
}
