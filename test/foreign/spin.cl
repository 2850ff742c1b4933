// Waits until another thread of the host sets *flag (device memory), then
// writes how many times it looked: a launch that lasts until the host says
// so (foreign_test.c's concurrency test). Arguments: flag, out.
__kernel void spin_until_flag(__global volatile uint *flag,
                              __global uint *out) {
  uint n = 0;
  while (flag[0] == 0)
    ++n;
  if (__builtin_amdgcn_workitem_id_x() == 0)
    out[0] = n;
}
