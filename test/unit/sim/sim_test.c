// The simulator end to end: real gfx950 code objects (kernels/sim_kernels.s)
// run through the public API, every result checked against a C computation
// written here from the ISA's definitions (not from the simulator's code).
#define _POSIX_C_SOURCE 200809L // setenv
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "codeobj/codeobj.h"
#include "sim/sim.h"
#include "sim/sim_fixture.h"
#include "tools/common/file_util.h"
#include "uq_test.h"

static unsigned g_seed;
static uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static float u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static uq_status_t fixture_open(fixture_t *f) {
  return fixture_open_path(f, UQ_SIM_TEST_HSACO);
}

// Runs `kernel` with in = `in` (in_size bytes), out = out_size bytes of
// 0xCD, n, m; copies out back into `out`.
static uq_status_t run(fixture_t *f, const char *kernel, const void *in,
                       size_t in_size, void *out, size_t out_size, uint32_t n,
                       uint32_t m, const uint32_t grid[3],
                       const uint32_t block[3], uq_sim_counters_t *cnt) {
  uint64_t din, dout;
  UQ_RETURN_IF_ERROR(uq_sim_alloc(f->sim, in_size, &din), "in");
  UQ_RETURN_IF_ERROR(uq_sim_alloc(f->sim, out_size, &dout), "out");
  UQ_RETURN_IF_ERROR(uq_sim_write(f->sim, din, in, in_size), "in");
  uint8_t args[24];
  memcpy(args, &din, 8);
  memcpy(args + 8, &dout, 8);
  memcpy(args + 16, &n, 4);
  memcpy(args + 20, &m, 4);
  uq_sim_launch_t L = {{grid[0], grid[1], grid[2]},
                       {block[0], block[1], block[2]},
                       args,
                       sizeof(args),
                       0,
                       0,
                       0};
  uq_status_t st = uq_sim_launch(f->sim, f->prog, kernel, &L, cnt);
  if (!st)
    st = uq_sim_read(f->sim, dout, out, out_size);
  uq_status_free(uq_sim_free(f->sim, din));
  uq_status_free(uq_sim_free(f->sim, dout));
  return st;
}
static const uint32_t one[3] = {1, 1, 1}, wave[3] = {64, 1, 1};

// ---------------------------------------------------------------------------
// Oracles.

static uint16_t bf16_rne(float f) {
  uint32_t u = f2u(f);
  if (isnan(f))
    return (uint16_t)((u >> 16) | 0x40);
  uint32_t r = u + 0x7FFF + ((u >> 16) & 1);
  return (uint16_t)(r >> 16);
}
static float fp4_value(unsigned code) {
  static const float v[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  return (code & 8) ? -v[code & 7] : v[code & 7];
}
static double e4m3_value(unsigned b) {
  int s = (b >> 7) & 1, e = (b >> 3) & 15, m = b & 7;
  if ((b & 0x7F) == 0x7F) // OCP E4M3 (e4m3fn): S.1111.111 is the only NaN
    return NAN;
  double v = e == 0 ? ldexp(m / 8.0, -6) : ldexp(1 + m / 8.0, e - 7);
  return s ? -v : v;
}
// E4M3 encoding by nearest value (ties to even code); past the rounding
// limit (|x| > 464: 464 itself ties to 448, the even code) it gives 448 or
// NaN by `clamp`.
static unsigned e4m3_encode(float x, int clamp) {
  unsigned sign = x < 0 ? 0x80 : 0;
  double a = fabs((double)x);
  if (isnan(x))
    return 0x7F | sign;
  if (a > 464.0)
    return clamp ? (0x7E | sign) : (0x7F | sign);
  unsigned best = 0;
  double bd = 1e300;
  for (unsigned c = 0; c < 0x7F; ++c) {
    double d = fabs(a - e4m3_value(c));
    if (d < bd || (d == bd && (c & 1) == 0 && (best & 1))) {
      bd = d;
      best = c;
    }
  }
  return best | sign;
}
static uint16_t h16(_Float16 h) {
  uint16_t b;
  memcpy(&b, &h, 2);
  return b;
}
static float f16f(uint16_t b) {
  _Float16 h;
  memcpy(&h, &b, 2);
  return (float)h;
}
// f32 -> f16 rounding toward zero (finite inputs within the f16 range).
static uint16_t f16_rtz(float x) {
  uint16_t b = h16((_Float16)x);
  if (fabsf(f16f(b)) > fabsf(x))
    --b; // one step toward zero in magnitude
  return b;
}
// Two fp16 bit patterns (the low halves) are the same value: equal bits,
// or both NaN (the payload of a converted NaN is not specified).
static int f16_same(uint32_t x, uint32_t y) {
  x &= 0xFFFF;
  y &= 0xFFFF;
  return x == y || ((x & 0x7FFF) > 0x7C00 && (y & 0x7FFF) > 0x7C00);
}
static uint32_t perm_byte(uint64_t x, unsigned sel) {
  sel &= 0xFF;
  if (sel <= 7)
    return (uint32_t)(x >> (8 * sel)) & 0xFF;
  if (sel <= 11) // sign of byte 1, 3, 5, 7 replicated
    return ((x >> (8 * (2 * (sel - 8) + 1) + 7)) & 1) ? 0xFF : 0;
  return sel == 12 ? 0 : 0xFF;
}
static int ulp_close(float got, double want, int ulps) {
  if (isnan(want))
    return isnan(got);
  if (isinf(want))
    return got == (float)want;
  float w = (float)want;
  double ulp = fabs(nextafterf(w, INFINITY) - w);
  return fabs((double)got - want) <= ulps * ulp;
}

// ---------------------------------------------------------------------------
// Tests.

static int test_valu(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  enum { NOUT = 118 };
  uint32_t in[8][64], out[NOUT][64];
  for (int l = 0; l < 64; ++l) {
    for (int k = 0; k < 3; ++k)
      in[k][l] = rnd();
    for (int k = 3; k < 7; ++k)
      in[k][l] = f2u(rndf(-100, 100));
    in[7][l] = (uint32_t)((int32_t)(rnd() % 41) - 20);
  }
  uq_sim_counters_t cnt;
  UQ_EXPECT_OK(run(&f, "valu_ops", in, sizeof(in), out, sizeof(out), 0, 0, one,
                   wave, &cnt));
  uint32_t *A = in[0], *B = in[1], *C = in[2];
  float fa[64], fb[64], fc[64], fd[64];
  for (int l = 0; l < 64; ++l) {
    fa[l] = u2f(in[3][l]);
    fb[l] = u2f(in[4][l]);
    fc[l] = u2f(in[5][l]);
    fd[l] = u2f(in[6][l]);
  }
  int32_t *S = (int32_t *)in[7];
  int bad = 0;
  for (int l = 0; l < 64; ++l) {
    uint32_t a = A[l], b = B[l], c = C[l];
    uint32_t e[NOUT];
    memset(e, 0, sizeof(e));
    e[0] = a + b;
    e[1] = a - b;
    e[2] = a * b;
    e[3] = (uint32_t)(((uint64_t)a * b) >> 32);
    e[4] = (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32);
    e[5] = a << (b & 31);
    e[6] = a >> (b & 31);
    e[7] = (uint32_t)((int32_t)a >> (b & 31));
    e[8] = a & b;
    e[9] = a | b;
    e[10] = a ^ b;
    {
      unsigned off = b & 31, w = c & 31;
      e[11] = w ? (a >> off) & ((1u << w) - 1) : 0;
      // Signed: arithmetic shift, then sign-extend from bit w-1.
      int64_t v = (int64_t)(int32_t)a >> off;
      uint64_t field = (uint64_t)v & ((1ull << w) - 1);
      if (w && (field >> (w - 1)) & 1)
        field |= ~((1ull << w) - 1);
      e[12] = w ? (uint32_t)field : 0;
    }
    e[13] = (a & b) | (~a & c);
    e[14] = (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31));
    e[15] = (uint32_t)((((uint64_t)a << 32) | b) >> (8 * (c & 3)));
    {
      uint64_t x = ((uint64_t)a << 32) | b;
      e[16] = perm_byte(x, c) | perm_byte(x, c >> 8) << 8 |
              perm_byte(x, c >> 16) << 16 | perm_byte(x, c >> 24) << 24;
    }
    e[17] = (a << 3) + c;
    e[18] = a + b + c;
    e[19] = (a << 5) | c;
    e[20] = (a & b) | c;
    e[21] = a | b | c;
    e[22] = (a ^ b) + c;
    e[23] = f2u(fa[l] + fb[l]);
    e[24] = f2u(fa[l] * fb[l]);
    e[25] = f2u(fmaf(fa[l], fb[l], fc[l]));
    e[26] = f2u(fmaf(-fa[l], fabsf(fb[l]), fc[l]));
    e[27] = f2u(fa[l] > fb[l] ? fa[l] : fb[l]);
    e[28] = f2u(fa[l] < fb[l] ? fa[l] : fb[l]);
    {
      float x = fa[l], y = fb[l], z = fc[l];
      float lo = x < y ? x : y, hi = x < y ? y : x;
      e[29] = f2u(z < lo ? lo : z > hi ? hi : z);
    }
    e[30] = f2u(fa[l] - fb[l]);
    e[31] = f2u((float)(int32_t)a);
    e[32] = (uint32_t)(int32_t)truncf(fa[l]);
    e[33] = f2u((float)a);
    {
      float s = fa[l] + fb[l];
      e[34] = f2u(s < 0 ? 0.0f : s > 1 ? 1.0f : s);
    }
    e[35] = f2u(fa[l] * fb[l] * 2.0f);
    e[36] = (int32_t)a > (int32_t)b ? a : c;
    e[37] = c + b + (uint32_t)(((uint64_t)a + b) >> 32);
    e[38] = (uint32_t)l;
    e[39] = (uint32_t)__builtin_popcount(a) + b;
    e[40] = f2u(fmaf(fa[l], fc[l], fb[l]));
    e[41] = f2u(fmaf(fb[l], fd[l], fa[l]));
    e[42] = f2u(fb[l] * -fc[l]);
    e[43] = f2u(fa[l] * fd[l]);
    {
      uint64_t add = (uint64_t)in[3][l] << 32 | c;
      uint64_t r = (uint64_t)a * b + add;
      e[44] = (uint32_t)r;
      e[45] = (uint32_t)(r >> 32);
      uint64_t x = ((uint64_t)b << 32 | a) << (S[l] & 63);
      e[46] = (uint32_t)x;
      e[47] = (uint32_t)(x >> 32);
    }
    e[48] = A[7];
    {
      int32_t x = (int32_t)a, y = (int32_t)b, z = (int32_t)c;
      int32_t mx = x > y ? x : y;
      e[49] = (uint32_t)(mx > z ? mx : z);
      uint32_t mn = a < b ? a : b;
      e[50] = mn < c ? mn : c;
      int32_t v[3] = {x, y, z};
      for (int i = 0; i < 3; ++i) // sort to take the middle
        for (int j = i + 1; j < 3; ++j)
          if (v[j] < v[i]) {
            int32_t t = v[i];
            v[i] = v[j];
            v[j] = t;
          }
      e[51] = (uint32_t)v[1];
    }
    e[52] = bf16_rne(fa[l]) | (uint32_t)bf16_rne(fb[l]) << 16;
    int row = l & ~15, r = l & 15;
    e[54] = r == 0 ? 0 : A[l - 1];
    e[55] = r < 14 ? A[l + 2] : c;
    e[56] = A[l ^ 1];
    e[57] = f2u(fa[row + ((r - 3) & 15)] + fb[l]);
    e[58] = (l >> 4) & 1 ? A[row - 1] : c;
    e[59] = (((l >> 2) & 3) == 0 || ((l >> 2) & 3) == 2) ? A[row + 15 - r] : c;
    {
      _Float16 h = (_Float16)fa[l];
      uint16_t hb;
      memcpy(&hb, &h, 2);
      e[60] = hb; // the high half is zeroed by the VOP1 form
    }
    e[61] = ((a >> 8) & 0xFF) << 16;
    e[62] = fa[l] < fb[l];
    e[63] = a < b;
    e[64] = A[21];
    e[65] = f2u(ldexpf(fa[l], S[l]));
    e[66] = f2u(fmaf(fa[l], fb[l], fc[l]));
    e[67] = b - a;
    e[68] = fa[l] <= 0 ? 0 : (uint32_t)fa[l];
    e[70] = c - b - (a < b);
    e[71] = f2u((float)((a >> 16) & 0xFF));
    {
      unsigned byte = (a >> 8) & 0xFF;
      int ex = (int)((f2u(fa[l]) >> 23) & 0xFF) - 127;
      float lo = ldexpf(fp4_value(byte & 15), ex);
      float hi = ldexpf(fp4_value(byte >> 4), ex);
      e[72] = bf16_rne(lo) | (uint32_t)bf16_rne(hi) << 16;
    }
    {
      // v_permlane16_swap: odd rows of vdst (a) <-> even rows of src0 (b);
      // v_permlane32_swap: rows 2,3 of vdst <-> rows 0,1 of src0.
      int rw = (l >> 4) & 3;
      e[73] = (rw & 1) ? B[l - 16] : a;
      e[74] = (rw & 1) ? b : A[l + 16];
      e[75] = rw >= 2 ? B[l - 32] : a;
      e[76] = rw >= 2 ? b : A[l + 32];
      uint64_t x = ((uint64_t)b << 32 | a) << 3;
      x += (uint64_t)in[3][l] << 32 | c;
      e[77] = (uint32_t)x;
      e[78] = (uint32_t)(x >> 32);
      unsigned byte = a >> 24;
      int ex = (int)((f2u(fa[l]) >> 23) & 0xFF) - 127;
      e[79] = bf16_rne(ldexpf(fp4_value(byte & 15), ex)) |
              (uint32_t)bf16_rne(ldexpf(fp4_value(byte >> 4), ex)) << 16;
    }
    e[80] = f2u(fa[l] + fc[l]);
    e[81] = f2u(fb[l] + fd[l]);
    e[82] = f2u((float)e4m3_value(a & 0xFF));
    e[83] = f2u((float)e4m3_value((a >> 8) & 0xFF));
    {
      float m = fa[l] > fb[l] ? fa[l] : fb[l];
      e[84] = f2u(m > fc[l] ? m : fc[l]);
    }
    e[85] = (a & 0xFFFFFF) * (b & 0xFFFFFF) + c;
    e[86] = a < b ? a : b;
    e[87] = fa[l] != 1.0f;
    e[88] = fa[l] < fb[l] || fa[l] > fb[l];
    e[89] = f2u(fa[l] / fb[l]);
    e[90] = a;
    e[91] = b;
    e[92] = a > b;
    e[93] = a > b;
    e[94] = !(a > b);
    e[95] = 1;
    {
      uint16_t p0 = f16_rtz(fa[l]), p1 = f16_rtz(fb[l]);
      uint16_t q0 = f16_rtz(fc[l]), q1 = f16_rtz(fd[l]);
      e[99] = p0 | (uint32_t)p1 << 16;
      e[100] = q0 | (uint32_t)q1 << 16;
      e[101] = h16((_Float16)(f16f(p0) + f16f(q0))) |
               (uint32_t)h16((_Float16)(f16f(p1) + f16f(q1))) << 16;
      e[102] = h16((_Float16)(f16f(p1) * f16f(q0))) |
               (uint32_t)h16((_Float16)(f16f(p0) * f16f(q1))) << 16;
      e[103] = h16((_Float16)(f16f(p0) + f16f(q0)));
      e[104] = f2u(f16f(p0));
      e[105] = f2u(f16f(p1));
      e[106] = p1 | (uint32_t)q0 << 16;
    }
    {
      uint32_t rv = 0;
      for (int i = 0; i < 32; ++i)
        rv |= ((a >> i) & 1) << (31 - i);
      e[107] = rv;
    }
    e[108] = a ? (uint32_t)__builtin_clz(a) : 0xFFFFFFFFu;
    e[109] = a ? (uint32_t)__builtin_ctz(a) : 0xFFFFFFFFu;
    e[110] = (a & 0xFFFFFF) * (b & 0xFFFFFF);
    e[111] = (uint32_t)(((uint64_t)(a & 0xFFFFFF) * (b & 0xFFFFFF)) >> 32);
    {
      uint32_t v[3] = {a, b, c};
      for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j)
          if (v[j] < v[i]) {
            uint32_t tt = v[i];
            v[i] = v[j];
            v[j] = tt;
          }
      e[112] = v[1];
    }
    e[113] = f2u((float)(a & 0xFF));
    e[114] = f2u(fb[l] - fa[l]);
    e[115] = (int32_t)a > (int32_t)b ? a : b;
    e[116] = h16((_Float16)fa[l]) | (uint32_t)h16((_Float16)fb[l]) << 16;
    e[117] = h16((_Float16)u2f(a)) | (uint32_t)h16((_Float16)u2f(b)) << 16;
    e[97] = A[row + 5];
    e[98] = A[(l + 1) & 63];
    for (int k = 0; k < NOUT; ++k) {
      int ok;
      if (k == 53)
        ok = ulp_close(u2f(out[k][l]), exp2((double)fa[l]), 1);
      else if (k == 69)
        ok = ulp_close(u2f(out[k][l]), 1.0 / (double)fa[l], 1);
      else if (k == 96)
        ok = ulp_close(u2f(out[k][l]), 1.0 / (double)fb[l], 1);
      else if (k == 82 || k == 83) // E4M3 NaN codes: any NaN
        ok = out[k][l] == e[k] || (isnan(u2f(out[k][l])) && isnan(u2f(e[k])));
      else if (k == 117) // each half: equal, or both fp16 NaNs
        ok = f16_same(out[k][l], e[k]) && f16_same(out[k][l] >> 16, e[k] >> 16);
      else
        ok = out[k][l] == e[k];
      if (!ok && bad++ < 10)
        fprintf(stderr, "valu op %d lane %d: got 0x%08x want 0x%08x\n", k, l,
                out[k][l], e[k]);
    }
  }
  UQ_EXPECT_EQ_INT(bad, 0);
  UQ_EXPECT(cnt.by_class[UQ_SIM_CLASS_VALU] > 80);
  UQ_EXPECT_EQ_INT(cnt.global_bytes_written, (uint64_t)NOUT * 256);
  UQ_EXPECT_EQ_INT(cnt.global_bytes_read, 8 * 256);
  UQ_EXPECT_EQ_INT(cnt.scalar_bytes_read, 24);
  // Distinct lines: the 2 KiB of inputs (allocations are 128-byte aligned)
  // and the kernel arguments' one line, read twice (s_load_dwordx4 and x2).
  UQ_EXPECT_EQ_INT(cnt.global_lines_read, 8 * 256 / 128 + 1);
  fixture_close(&f);
  return 0;
}

static int test_salu(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  enum { NOUT = 60 };
  uint32_t in[8], out[NOUT][64];
  for (int i = 0; i < 8; ++i)
    in[i] = rnd();
  uq_sim_counters_t cnt;
  UQ_EXPECT_OK(run(&f, "salu_ops", in, sizeof(in), out, sizeof(out), 0, 0, one,
                   wave, &cnt));
  uint32_t x = in[0], y = in[1], z = in[2], w = in[3];
  uint32_t e[NOUT];
  e[0] = x + y;
  e[1] = (uint32_t)(((uint64_t)x + y) >> 32);
  e[2] = x - y;
  e[3] = x * y;
  e[4] = (uint32_t)(((uint64_t)x * y) >> 32);
  e[5] = (uint32_t)(((int64_t)(int32_t)x * (int32_t)y) >> 32);
  e[6] = x << (y & 31);
  e[7] = x >> (y & 31);
  e[8] = (uint32_t)((int32_t)x >> (y & 31));
  e[9] = x & y;
  e[10] = x | y;
  e[11] = x ^ y;
  e[12] = x & ~y;
  e[13] = x | ~y;
  e[14] = ~x;
  e[15] = ~(x & y);
  e[16] = ~(x ^ y);
  {
    unsigned off = y & 31, wd = (y >> 16) & 31;
    e[17] = wd ? (x >> off) & ((1u << wd) - 1) : 0;
    int64_t v = (int64_t)(int32_t)x >> off;
    uint64_t fld = (uint64_t)v & ((1ull << wd) - 1);
    if (wd && (fld >> (wd - 1)) & 1)
      fld |= ~((1ull << wd) - 1);
    e[18] = wd ? (uint32_t)fld : 0;
  }
  {
    uint32_t r = 0;
    for (int i = 0; i < 32; ++i)
      if ((x >> i) & 1)
        r |= 1u << (31 - i);
    e[19] = r;
  }
  e[20] = x ? (uint32_t)__builtin_ctz(x) : 0xFFFFFFFFu;
  e[21] = (uint32_t)__builtin_popcount(x);
  e[22] = (int32_t)x < (int32_t)y ? x : y;
  e[23] = x > y ? x : y;
  e[24] = (int32_t)x < (int32_t)y ? z : w;
  e[25] = (x << 2) + y;
  e[26] = (x & 0xFFFF) | (y << 16);
  e[27] = (x & 0xFFFF) | (y & 0xFFFF0000u);
  e[28] = (x >> 16) | (y & 0xFFFF0000u);
  {
    uint64_t v = ((uint64_t)y << 32 | x) << (z & 63);
    e[29] = (uint32_t)v;
    e[30] = (uint32_t)(v >> 32);
    int64_t s = (int64_t)((uint64_t)y << 32 | x) >> (z & 63);
    e[31] = (uint32_t)s;
    e[32] = (uint32_t)((uint64_t)s >> 32);
  }
  e[33] = (uint32_t)(((1ull << (x & 31)) - 1) << (y & 31));
  e[34] = (uint32_t)(int32_t)(int8_t)(x & 0xFF);
  e[35] = (int32_t)x < 0 ? 0u - x : x;
  e[36] = (uint32_t)(int32_t)(int16_t)0x8765;
  e[37] = x + 0x1234;
  {
    uint64_t s = ((uint64_t)y << 32 | x) + ((uint64_t)w << 32 | z);
    e[38] = (uint32_t)s;
    e[39] = (uint32_t)(s >> 32);
  }
  e[40] = (x >> (y & 31)) & 1;
  {
    int64_t d = (int64_t)(int32_t)x - (int32_t)y;
    e[41] = (uint32_t)(d < 0 ? -d : d);
  }
  e[42] = (int32_t)x > (int32_t)y ? x : y;
  e[43] = x < y ? x : y;
  e[44] = x * 0x12345u;
  e[45] = x - y;
  e[46] = x + y;
  e[47] = z - w - (x < y);
  e[48] = (x << 4) + y;
  e[49] = ((x >> (y & 31)) & 1) == 0;
  e[50] = x | z;
  e[51] = y | w;
  e[52] = 0;
  e[53] = (x != z || y != w) ? 0xFFFFFFFFu : 0;
  e[54] = x >= y ? z : w;
  e[55] = (int32_t)x > (int32_t)y ? z : w;
  e[56] = (int32_t)x <= (int32_t)y ? z : w;
  e[57] = x < y ? 1 : 2;
  e[58] = x > y ? 3 : 4;
  e[59] = (x & 0x100) ? 5 : 6;
  int bad = 0;
  for (int k = 0; k < NOUT; ++k)
    for (int l = 0; l < 64; ++l)
      if (out[k][l] != e[k] && bad++ < 10)
        fprintf(stderr, "salu op %d lane %d: got 0x%08x want 0x%08x\n", k, l,
                out[k][l], e[k]);
  UQ_EXPECT_EQ_INT(bad, 0);
  UQ_EXPECT(cnt.by_class[UQ_SIM_CLASS_SALU] > 60);
  UQ_EXPECT_EQ_INT(cnt.scalar_bytes_read, 24 + 32);
  fixture_close(&f);
  return 0;
}

static int test_control_flow(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  // A partial wave (50 work-items): lanes 50..63 must not store.
  for (int rep = 0; rep < 3; ++rep) {
    uint32_t items = rep == 0 ? 64 : rep == 1 ? 50 : 1;
    uint32_t in[64], out[64];
    for (int l = 0; l < 64; ++l)
      in[l] = rnd() % 1000;
    uint32_t block[3] = {items, 1, 1};
    UQ_EXPECT_OK(run(&f, "control_flow", in, sizeof(in), out, sizeof(out), 0, 0,
                     one, block, NULL));
    for (uint32_t l = 0; l < 64; ++l) {
      uint32_t x = in[l], y = 0;
      if (x & 1) {
        y = (x & 2) ? x * 3 : x + 7;
      } else {
        for (uint32_t i = 0; i < (x & 7); ++i)
          y += i * x;
      }
      if (l >= items)
        y = 0xCDCDCDCDu;
      if (out[l] != y)
        UQ_TEST_FAIL_("items %u lane %u: x %u got %u want %u", items, l, x,
                      out[l], y);
    }
  }
  fixture_close(&f);
  return 0;
}

static int test_lds_barrier(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  enum { WG = 3 };
  static uint32_t in[WG][256], out[WG][4][256];
  for (int g = 0; g < WG; ++g)
    for (int t = 0; t < 256; ++t)
      in[g][t] = rnd();
  uq_sim_counters_t cnt;
  uint32_t grid[3] = {WG, 1, 1}, block[3] = {256, 1, 1};
  UQ_EXPECT_OK(run(&f, "lds_barrier", in, sizeof(in), out, sizeof(out), 0, 0,
                   grid, block, &cnt));
  for (int g = 0; g < WG; ++g) {
    for (int t = 0; t < 256; ++t) {
      UQ_EXPECT_EQ_HEX(out[g][0][t], in[g][255 - t]);
      UQ_EXPECT_EQ_HEX(out[g][1][t], in[g][t ^ 1]);
      UQ_EXPECT_EQ_HEX(out[g][2][t], in[g][255 - (t ^ 1)]);
    }
  }
  UQ_EXPECT_EQ_INT(cnt.workgroups, WG);
  UQ_EXPECT_EQ_INT(cnt.waves, 4 * WG);
  UQ_EXPECT_EQ_INT(cnt.lds_high_water, 3072);
  UQ_EXPECT_EQ_INT(cnt.lds_bytes_written, (uint64_t)WG * 256 * (4 + 8));
  UQ_EXPECT_EQ_INT(cnt.lds_bytes_read, (uint64_t)WG * 256 * (4 + 8));
  UQ_EXPECT_EQ_INT(cnt.by_class[UQ_SIM_CLASS_OTHER] >= (uint64_t)WG * 4 * 2, 1);
  fixture_close(&f);
  return 0;
}

static int test_buffer_oob(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  for (int rep = 0; rep < 4; ++rep) {
    uint32_t in[128], out[10][64];
    for (int i = 0; i < 128; ++i)
      in[i] = rnd();
    // num_records in bytes, not always a multiple of 4.
    uint32_t n = rnd() % 300, m = rnd() % 300;
    UQ_EXPECT_OK(run(&f, "buffer_oob", in, sizeof(in), out, sizeof(out), n, m,
                     one, wave, NULL));
    for (uint32_t l = 0; l < 64; ++l) {
      // Raw buffer rule: offset (vgpr + inst offset, not soffset) >= n -> 0.
      UQ_EXPECT_EQ_HEX(out[0][l], 4 * l < n ? in[l] : 0);
      UQ_EXPECT_EQ_HEX(out[1][l], 8 * l < n ? in[2 * l] : 0);
      UQ_EXPECT_EQ_HEX(out[2][l], 8 * l + 4 < n ? in[2 * l + 1] : 0);
      UQ_EXPECT_EQ_HEX(out[3][l], 4 * l < n ? in[l + 1] : 0);
      UQ_EXPECT_EQ_HEX(out[4][l], 4 * l + 8 < n ? in[l + 2] : 0);
      // dwordx4: each component is range-checked on its own.
      for (uint32_t i = 0; i < 4; ++i)
        UQ_EXPECT_EQ_HEX(out[5 + i][l], 16 * l + 4 * i < n ? in[4 * l + i] : 0);
      // The store went through a descriptor over out's row 0 with m bytes.
      (void)m;
    }
  }
  fixture_close(&f);
  return 0;
}

static int test_buffer_store_oob(void) {
  // buffer_oob's final store writes in[l] at out + 4l through a buffer of m
  // bytes after the loads' rows were stored: rows 0..8 were moved by ST, so
  // the store lands in row 9 (out + 9*256).
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  uint32_t in[128], out[10][64];
  for (int i = 0; i < 128; ++i)
    in[i] = rnd();
  uint32_t m = 100 + rnd() % 100;
  UQ_EXPECT_OK(run(&f, "buffer_oob", in, sizeof(in), out, sizeof(out), 256, m,
                   one, wave, NULL));
  for (uint32_t l = 0; l < 64; ++l)
    UQ_EXPECT_EQ_HEX(out[9][l], 4 * l < m ? in[l] : 0xCDCDCDCDu);
  fixture_close(&f);
  return 0;
}

static int test_global_oob(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  uint32_t in[64], out[64];
  memset(in, 0, sizeof(in));
  uq_status_t st = run(&f, "global_oob", in, sizeof(in), out, sizeof(out),
                       sizeof(in), 0, one, wave, NULL);
  UQ_EXPECT_EQ_INT(uq_status_code(st), UQ_STATUS_OUT_OF_RANGE);
  UQ_EXPECT(strstr(uq_status_message(st), "global_load_dword") != NULL);
  uq_status_free(st);
  // In bounds (n = 0) the same kernel runs.
  UQ_EXPECT_OK(run(&f, "global_oob", in, sizeof(in), out, sizeof(out), 0, 0,
                   one, wave, NULL));
  fixture_close(&f);
  return 0;
}

static float bf16f(uint16_t h) { return u2f((uint32_t)h << 16); }

static int test_mfma_bf16(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  // in: A (64 lanes x 2 dwords), B (same), C (64 x 4 f32).
  uint32_t in[128 + 128 + 256];
  uint32_t *ra = in, *rb = in + 128, *rc = in + 256;
  for (int i = 0; i < 256; ++i)
    in[i] = bf16_rne(rndf(-4, 4)) | (uint32_t)bf16_rne(rndf(-4, 4)) << 16;
  for (int i = 0; i < 256; ++i)
    rc[i] = f2u(rndf(-10, 10));
  uint32_t out[8][64];
  uq_sim_counters_t cnt;
  UQ_EXPECT_OK(run(&f, "mfma_bf16", in, sizeof(in), out, sizeof(out), 0, 0, one,
                   wave, &cnt));
  // A[i][k] sits in lane i + 16*(k/4), bf16 k%4; B[k][j] in lane j + 16*(k/4).
  double A[16][16], B[16][16];
  for (int l = 0; l < 64; ++l) {
    for (int e = 0; e < 4; ++e) {
      int k = 4 * (l >> 4) + e;
      A[l & 15][k] = bf16f((uint16_t)(ra[2 * l + e / 2] >> (16 * (e & 1))));
      B[k][l & 15] = bf16f((uint16_t)(rb[2 * l + e / 2] >> (16 * (e & 1))));
    }
  }
  for (int l = 0; l < 64; ++l) {
    for (int r = 0; r < 4; ++r) {
      int i = 4 * (l >> 4) + r, j = l & 15;
      double s = 0, mag = 0;
      for (int k = 0; k < 16; ++k) {
        s += A[i][k] * B[k][j];
        mag += fabs(A[i][k] * B[k][j]);
      }
      double cval = u2f(rc[4 * l + r]);
      double tol = 1e-6 * (mag + fabs(cval)) + 1e-30;
      UQ_EXPECT_NEAR(u2f(out[4 + r][l]), s, tol);
      UQ_EXPECT_NEAR(u2f(out[r][l]), s + cval, tol);
    }
  }
  UQ_EXPECT_EQ_INT(cnt.by_class[UQ_SIM_CLASS_MFMA], 2);
  fixture_close(&f);
  return 0;
}

// v_mfma_f32_32x32x16_bf16 (CDNA4 dense layout, two lane groups g = l / 32):
// lane l holds A[l % 32][8g + e] and B[8g + e][l % 32] in bf16 e (register
// e / 2, high half when e is odd); C and D register r of lane l is element
// [8 * (r / 4) + 4g + r % 4][l % 32].
static int test_mfma_bf16_32x32(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  // in: A (64 lanes x 4 dwords), B (same), C (64 x 16 f32).
  static uint32_t in[256 + 256 + 1024];
  uint32_t *ra = in, *rb = in + 256, *rc = in + 512;
  for (int i = 0; i < 512; ++i)
    in[i] = bf16_rne(rndf(-4, 4)) | (uint32_t)bf16_rne(rndf(-4, 4)) << 16;
  for (int i = 0; i < 1024; ++i)
    rc[i] = f2u(rndf(-10, 10));
  static uint32_t out[32][64];
  uq_sim_counters_t cnt;
  UQ_EXPECT_OK(run(&f, "mfma_bf16_32x32", in, sizeof(in), out, sizeof(out), 0,
                   0, one, wave, &cnt));
  double A[32][16], B[16][32];
  for (int l = 0; l < 64; ++l) {
    for (int e = 0; e < 8; ++e) {
      int k = 8 * (l >> 5) + e;
      A[l & 31][k] = bf16f((uint16_t)(ra[4 * l + e / 2] >> (16 * (e & 1))));
      B[k][l & 31] = bf16f((uint16_t)(rb[4 * l + e / 2] >> (16 * (e & 1))));
    }
  }
  for (int l = 0; l < 64; ++l) {
    for (int r = 0; r < 16; ++r) {
      int i = 8 * (r >> 2) + 4 * (l >> 5) + (r & 3), j = l & 31;
      double s = 0, mag = 0;
      for (int k = 0; k < 16; ++k) {
        s += A[i][k] * B[k][j];
        mag += fabs(A[i][k] * B[k][j]);
      }
      double cval = u2f(rc[16 * l + r]);
      double tol = 1e-6 * (mag + fabs(cval)) + 1e-30;
      UQ_EXPECT_NEAR(u2f(out[16 + r][l]), s, tol);
      UQ_EXPECT_NEAR(u2f(out[r][l]), s + cval, tol);
    }
  }
  UQ_EXPECT_EQ_INT(cnt.by_class[UQ_SIM_CLASS_MFMA], 2);
  fixture_close(&f);
  return 0;
}

// The K index of byte/nibble t of lane group j for a format (docs/design.md,
// "Scaled MFMA K order", and the CDNA4 ISA guide's operand tables).
static int k_of(int fmt, int j, int t) {
  if (fmt == 4)
    return 32 * j + t;
  return t < 16 ? 16 * j + t : 64 + 16 * j + (t - 16);
}
static double elem(int fmt, const uint8_t *bytes, int t) {
  if (fmt == 4)
    return fp4_value((bytes[t / 2] >> (4 * (t & 1))) & 15);
  return e4m3_value(bytes[t]);
}

static int test_mfma_scale(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  static uint8_t in[4608];
  memset(in, 0, sizeof(in));
  for (int i = 0; i < 1024; ++i)
    in[i] = (uint8_t)rnd();
  for (int i = 1024; i < 3072; ++i) {
    uint8_t b = (uint8_t)rnd();
    if ((b & 0x7F) == 0x7F) // no NaN codes
      b ^= 1;
    in[i] = b;
  }
  for (int i = 0; i < 256; ++i) {
    float c = rndf(-50, 50);
    memcpy(in + 3072 + 4 * i, &c, 4);
  }
  for (int i = 0; i < 128; ++i) {
    uint32_t s = 0;
    for (int b = 0; b < 4; ++b)
      s |= (uint32_t)(118 + rnd() % 20) << (8 * b);
    memcpy(in + 4096 + 4 * i, &s, 4);
  }
  uint32_t out[12][64];
  UQ_EXPECT_OK(run(&f, "mfma_scale", in, sizeof(in), out, sizeof(out), 0, 0,
                   one, wave, NULL));
  // Three products: (fmt A, fmt B, data A, data B, byte A, byte B).
  struct {
    int fa, fb, da, db, sela, selb;
  } cases[3] = {
      {4, 0, 0, 1024, 1, 3}, // op_sel:[1,1] op_sel_hi:[0,1]
      {0, 0, 1024, 1024, 0, 0},
      {4, 4, 0, 0, 2, 1}, // op_sel:[0,1] op_sel_hi:[1,0]
  };
  for (int c = 0; c < 3; ++c) {
    double A[16][128], Bm[128][16];
    int stride_a = cases[c].fa == 4 ? 16 : 32,
        stride_b = cases[c].fb == 4 ? 16 : 32;
    for (int l = 0; l < 64; ++l) {
      int tn = cases[c].fa == 4 ? 32 : 32; // 32 elements per lane either way
      for (int t = 0; t < tn; ++t) {
        A[l & 15][k_of(cases[c].fa, l >> 4, t)] =
            elem(cases[c].fa, in + cases[c].da + stride_a * l, t);
        Bm[k_of(cases[c].fb, l >> 4, t)][l & 15] =
            elem(cases[c].fb, in + cases[c].db + stride_b * l, t);
      }
    }
    for (int l = 0; l < 64; ++l) {
      for (int r = 0; r < 4; ++r) {
        int i = 4 * (l >> 4) + r, j = l & 15;
        double s = 0, mag = 0;
        for (int blk = 0; blk < 4; ++blk) {
          int sa = in[4096 + 4 * (16 * blk + i) + cases[c].sela];
          int sb = in[4352 + 4 * (16 * blk + j) + cases[c].selb];
          double d = 0;
          for (int k = 32 * blk; k < 32 * blk + 32; ++k)
            d += A[i][k] * Bm[k][j];
          s += ldexp(d, sa - 127 + sb - 127);
          mag += fabs(ldexp(d, sa - 127 + sb - 127));
        }
        float cv;
        memcpy(&cv, in + 3072 + 16 * l + 4 * r, 4);
        double want = s + cv, tol = 1e-6 * (mag + fabs(cv)) + 1e-30;
        float got = u2f(out[4 * c + r][l]);
        if (!(fabs(got - want) <= tol))
          UQ_TEST_FAIL_("case %d lane %d reg %d: got %.9g want %.9g", c, l, r,
                        got, want);
      }
    }
  }
  fixture_close(&f);
  return 0;
}

static int test_lds_lanes(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  uint32_t in[128], out[10][64];
  for (int i = 0; i < 128; ++i)
    in[i] = rnd();
  UQ_EXPECT_OK(run(&f, "lds_lanes", in, sizeof(in), out, sizeof(out), 0, 0, one,
                   wave, NULL));
  uint16_t raw[64][4];
  for (int l = 0; l < 64; ++l) {
    int src = (5 * l) & 63; // lane l read the 8 bytes lane src stored
    memcpy(raw[l], &in[2 * src], 8);
  }
  for (int l = 0; l < 64; ++l) {
    // Within each 16-lane group, lane j's element i is element (j & 3) of
    // what lane 4i + (j >> 2) of the group read.
    int g = l & ~15, j = l & 15;
    uint16_t want[4];
    for (int i = 0; i < 4; ++i)
      want[i] = raw[g + 4 * i + (j >> 2)][j & 3];
    uint32_t w0 = want[0] | (uint32_t)want[1] << 16,
             w1 = want[2] | (uint32_t)want[3] << 16;
    UQ_EXPECT_EQ_HEX(out[0][l], w0);
    UQ_EXPECT_EQ_HEX(out[1][l], w1);
    uint32_t *v2 = in; // lane l's v2 is in[2l]
    int half = l & 32, li = l & 31;
    UQ_EXPECT_EQ_HEX(out[2][l], v2[2 * (half + (li ^ 1))]);
    UQ_EXPECT_EQ_HEX(out[3][l], v2[2 * (half + ((li & 0x10) | 3))]);
    UQ_EXPECT_EQ_HEX(out[4][l], v2[2 * ((l & ~3) | (3 - (l & 3)))]);
    UQ_EXPECT_EQ_HEX(out[5][l], v2[2 * ((7 * l + 3) & 63)]);
    // ds_permute: lane l sends its value to lane (7l + 3) & 63 (a bijection).
    UQ_EXPECT_EQ_HEX(out[6][(7 * l + 3) & 63], v2[2 * l]);
    // ds_read2st64_b32 offset1:1 reads 8l and 8l + 64 * 4, where lane j's 8
    // bytes sit at 8j (lanes >= 32 read past what was written).
    UQ_EXPECT_EQ_HEX(out[7][l], in[2 * l]);
    if (l < 32)
      UQ_EXPECT_EQ_HEX(out[8][l], in[2 * l + 64]);
  }
  fixture_close(&f);
  return 0;
}

static int test_ids(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  static uint32_t in[1], out[2][12][64];
  uint32_t grid[3] = {2, 3, 2}, block[3] = {8, 4, 2};
  uq_sim_counters_t cnt;
  UQ_EXPECT_OK(run(&f, "ids", in, sizeof(in), out, sizeof(out), 0, 0, grid,
                   block, &cnt));
  for (uint32_t z = 0; z < 2; ++z)
    for (uint32_t y = 0; y < 3; ++y)
      for (uint32_t x = 0; x < 2; ++x) {
        uint32_t lin = x + 2 * y + 6 * z;
        for (uint32_t t = 0; t < 64; ++t) {
          uint32_t tx = t % 8, ty = (t / 8) % 4, tz = t / 32;
          UQ_EXPECT_EQ_HEX(out[0][lin][t], tx | ty << 10 | tz << 20);
          UQ_EXPECT_EQ_HEX(out[1][lin][t], x | y << 8 | z << 16);
        }
      }
  UQ_EXPECT_EQ_INT(cnt.workgroups, 12);
  fixture_close(&f);
  return 0;
}

static int test_fp8_overflow(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  const char *kernels[3] = {"fp8_clamp", "fp8_nan", "fp8_setreg"};
  const int clamp[3] = {1, 0, 1};
  for (int k = 0; k < 3; ++k) {
    uint32_t in[128], out[64];
    float v[128];
    for (int i = 0; i < 128; ++i) {
      float x = rndf(-1200, 1200);
      if (rnd() % 3 == 0)
        x = rndf(-10, 10);
      else if (rnd() % 4 == 0)
        x = rndf(440, 470) * (rnd() % 2 ? 1 : -1); // around the overflow edge
      if (i < 2)
        x = i ? -464.0f : 464.0f; // the tie at the limit rounds to 448
      v[i] = x;
      in[i] = f2u(x);
    }
    UQ_EXPECT_OK(run(&f, kernels[k], in, sizeof(in), out, sizeof(out), 0, 0,
                     one, wave, NULL));
    for (int l = 0; l < 64; ++l) {
      float a = v[l], b = v[64 + l];
      uint32_t want = e4m3_encode(a, clamp[k]) | e4m3_encode(b, clamp[k]) << 8 |
                      e4m3_encode(b, clamp[k]) << 16 |
                      e4m3_encode(a, clamp[k]) << 24;
      if (out[l] != want)
        UQ_TEST_FAIL_("%s lane %d (%g, %g): got 0x%08x want 0x%08x", kernels[k],
                      l, a, b, out[l], want);
    }
  }
  fixture_close(&f);
  return 0;
}

static int test_misc(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  uint32_t in[128], out[23][64];
  for (int i = 0; i < 128; ++i)
    in[i] = rnd();
  uint32_t grid[3] = {3, 1, 1}, block[3] = {64, 1, 1};
  // Three workgroups all store to the same rows: the values do not depend
  // on the workgroup.
  UQ_EXPECT_OK(run(&f, "misc", in, sizeof(in), out, sizeof(out), 0, 0, grid,
                   block, NULL));
  uint8_t bytes[256];
  memcpy(bytes, in, 256);
  for (int l = 0; l < 64; ++l) {
    UQ_EXPECT_EQ_HEX(out[0][l], 64u | 1u << 16);
    UQ_EXPECT_EQ_HEX(out[1][l], 3 * 64);
    UQ_EXPECT_EQ_HEX(out[2][l], in[2]);
    UQ_EXPECT_EQ_HEX(out[3][l], in[3]);
    UQ_EXPECT_EQ_HEX(out[4][l], 0);
    UQ_EXPECT_EQ_HEX(out[5][l], in[64 + l]);
    UQ_EXPECT_EQ_HEX(out[6][l], bytes[l + 1]);
    UQ_EXPECT_EQ_HEX(out[7][l], (uint32_t)(int32_t)(int16_t)(in[l] >> 16));
    if (l < 16)
      UQ_EXPECT_EQ_HEX(out[8][l], (in[4 * l] & 0xFF) |
                                      (in[4 * l + 1] & 0xFF) << 8 |
                                      (in[4 * l + 2] & 0xFF) << 16 |
                                      (in[4 * l + 3] & 0xFF) << 24);
    UQ_EXPECT_EQ_HEX(out[9][l], in[l] & 0xFFFF);
    UQ_EXPECT_EQ_HEX(out[10][l], l == 0 ? in[0] : in[l - 1]);
    UQ_EXPECT_EQ_HEX(out[11][l], l >= 32 ? in[31] : 0);
    UQ_EXPECT_EQ_HEX(out[12][l], (in[l] & 1) ? in[l] : 7);
    UQ_EXPECT_EQ_HEX(out[13][l], 1);
    UQ_EXPECT_EQ_HEX(out[14][l], 3);
    UQ_EXPECT_EQ_HEX(out[15][l], in[l ^ 1]);
    UQ_EXPECT_EQ_HEX(out[16][l], ~in[l ^ 1]);
    UQ_EXPECT_EQ_HEX(out[17][l], (uint32_t)(l ^ 1));
    UQ_EXPECT_EQ_HEX(out[18][l], 3 * 64);
    UQ_EXPECT_EQ_HEX(out[19][l], in[l] >> 16);
    UQ_EXPECT_EQ_HEX(out[20][l], (in[l] & 0xFFFF) | 0xCDCD0000u);
    int j = 64 * (l >> 5) + l % 32 * 2; // rows 21, 22 as one 128-dword run
    UQ_EXPECT_EQ_HEX(out[21 + j / 64][j % 64], in[l]);
    UQ_EXPECT_EQ_HEX(out[21 + (j + 1) / 64][(j + 1) % 64], ~in[l]);
  }
  fixture_close(&f);
  return 0;
}

static int test_preload(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  uint32_t in[64], out[64];
  for (int i = 0; i < 64; ++i)
    in[i] = rnd();
  UQ_EXPECT_OK(run(&f, "preload", in, sizeof(in), out, sizeof(out), 0, 0, one,
                   wave, NULL));
  for (int l = 0; l < 64; ++l)
    UQ_EXPECT_EQ_HEX(out[l], in[l] + 1);
  fixture_close(&f);
  return 0;
}

static int test_endless(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  uint32_t in[1] = {0}, out[1];
  setenv("UQ_SIM_MAX_WAVE_INSTRUCTIONS", "100000", 1);
  uq_status_t st = run(&f, "endless", in, sizeof(in), out, sizeof(out), 0, 0,
                       one, wave, NULL);
  unsetenv("UQ_SIM_MAX_WAVE_INSTRUCTIONS");
  UQ_EXPECT_EQ_INT(uq_status_code(st), UQ_STATUS_RESOURCE_EXHAUSTED);
  UQ_EXPECT(strstr(uq_status_message(st), "s_branch") != NULL);
  uq_status_free(st);
  // The launch's budget stops it first, naming the kernel and the count.
  uint64_t din = 0, dout = 0;
  UQ_EXPECT_OK(uq_sim_alloc(f.sim, 4, &din));
  UQ_EXPECT_OK(uq_sim_alloc(f.sim, 4, &dout));
  uint8_t args[24] = {0};
  memcpy(args, &din, 8);
  memcpy(args + 8, &dout, 8);
  uq_sim_launch_t L = {{1, 1, 1}, {64, 1, 1}, args, 24, 0, 5000, 0};
  st = uq_sim_launch(f.sim, f.prog, "endless", &L, NULL);
  UQ_EXPECT_EQ_INT(uq_status_code(st), UQ_STATUS_RESOURCE_EXHAUSTED);
  UQ_EXPECT(strstr(uq_status_message(st), "budget of 5000") != NULL);
  UQ_EXPECT(strstr(uq_status_message(st), "endless") != NULL);
  uq_status_free(st);
  // With the work stated (loop_trips 3), the wave's cap follows it: 4 x the
  // image's instruction slots x (3 + 1), not 2^30 (issue 29: a corrupt
  // decode looped for two minutes).
  size_t image_size = 0;
  (void)uq_code_object_image(uq_sim_program_code_object(f.prog), &image_size);
  char want[96];
  snprintf(want, sizeof(want), "ran past its cap of %llu wave-instructions",
           (unsigned long long)(4 * (image_size / 4) * 4));
  uq_sim_launch_t T = {{1, 1, 1}, {64, 1, 1}, args, 24, 0, 0, 3};
  st = uq_sim_launch(f.sim, f.prog, "endless", &T, NULL);
  UQ_EXPECT_EQ_INT(uq_status_code(st), UQ_STATUS_RESOURCE_EXHAUSTED);
  UQ_EXPECT(strstr(uq_status_message(st), want) != NULL);
  uq_status_free(st);
  uq_status_free(uq_sim_free(f.sim, din));
  uq_status_free(uq_sim_free(f.sim, dout));
  fixture_close(&f);
  return 0;
}

static int test_unimplemented(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  uint32_t in[64] = {0}, out[64];
  uq_status_t st = run(&f, "unimplemented", in, sizeof(in), out, sizeof(out), 0,
                       0, one, wave, NULL);
  UQ_EXPECT_EQ_INT(uq_status_code(st), UQ_STATUS_UNIMPLEMENTED);
  UQ_EXPECT(strstr(uq_status_message(st), "v_sin_f32") != NULL);
  UQ_EXPECT(strstr(uq_status_message(st), "0x") != NULL);
  uq_status_free(st);
  fixture_close(&f);
  return 0;
}

// A descriptor asking for a floating-point mode the simulator does not
// model (here f32 denormals flushed) is UNIMPLEMENTED, naming the field.
static int test_float_mode_refused(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  uint32_t in[64] = {0}, out[64];
  uq_status_t st = run(&f, "flush_denormals", in, sizeof(in), out, sizeof(out),
                       0, 0, one, wave, NULL);
  UQ_EXPECT_EQ_INT(uq_status_code(st), UQ_STATUS_UNIMPLEMENTED);
  UQ_EXPECT(strstr(uq_status_message(st), "FLOAT_DENORM_MODE 0xc") != NULL);
  uq_status_free(st);
  fixture_close(&f);
  return 0;
}

static int test_launch_errors(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  uint8_t args[32] = {0};
  uq_sim_launch_t L = {{1, 1, 1}, {64, 1, 1}, args, 24, 0, 0, 0};
  // Unknown kernel.
  UQ_EXPECT_CODE(uq_sim_launch(f.sim, f.prog, "no_such_kernel", &L, NULL),
                 UQ_STATUS_NOT_FOUND);
  // Kernarg blob of the wrong size.
  L.kernarg_size = 16;
  UQ_EXPECT_CODE(uq_sim_launch(f.sim, f.prog, "valu_ops", &L, NULL),
                 UQ_STATUS_INVALID_ARGUMENT);
  L.kernarg_size = 32;
  UQ_EXPECT_CODE(uq_sim_launch(f.sim, f.prog, "valu_ops", &L, NULL),
                 UQ_STATUS_INVALID_ARGUMENT);
  // Bad shapes: empty grid, too many waves, too much LDS.
  L.kernarg_size = 24;
  L.grid[0] = 0;
  UQ_EXPECT_CODE(uq_sim_launch(f.sim, f.prog, "valu_ops", &L, NULL),
                 UQ_STATUS_INVALID_ARGUMENT);
  L.grid[0] = 1;
  L.workgroup[0] = 2048;
  UQ_EXPECT_CODE(uq_sim_launch(f.sim, f.prog, "valu_ops", &L, NULL),
                 UQ_STATUS_INVALID_ARGUMENT);
  L.workgroup[0] = 64;
  L.dynamic_lds = 200 * 1024;
  UQ_EXPECT_CODE(uq_sim_launch(f.sim, f.prog, "valu_ops", &L, NULL),
                 UQ_STATUS_RESOURCE_EXHAUSTED);
  // Kernel arguments pointing nowhere: the first load faults.
  L.dynamic_lds = 0;
  UQ_EXPECT_CODE(uq_sim_launch(f.sim, f.prog, "valu_ops", &L, NULL),
                 UQ_STATUS_OUT_OF_RANGE);
  UQ_EXPECT(uq_sim_program_code_object(f.prog) != NULL);
  fixture_close(&f);
  return 0;
}

// 16-bit integer ops, v_bitop3 and SDWA compares, from the ISA's
// definitions: 16-bit results zero the VGPR's high half (gfx9) unless SDWA
// or op_sel place them; shifts take S0[3:0]; bitop3 result bit i is table
// bit (S0[i] << 2 | S1[i] << 1 | S2[i]), written out here as the logic each
// table stands for.
static int test_int16(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  enum { NOUT = 28 };
  uint32_t in[3][64], out[NOUT][64];
  for (int l = 0; l < 64; ++l)
    for (int k = 0; k < 3; ++k)
      in[k][l] = rnd();
  // Edge cases in a few lanes: wrap, equal halves, shifts of 15 and 16+.
  in[0][0] = 0xFFFF, in[1][0] = 1;
  in[0][1] = 0x8000, in[1][1] = 0x7FFF;
  in[0][2] = 0x12345678, in[1][2] = 0x5678 | 15u << 0;
  in[0][3] = 0xABCD8001, in[1][3] = 0x10;
  in[0][4] = 0x00FF00FF, in[1][4] = 0x00FF00FF;
  UQ_EXPECT_OK(run(&f, "int16_ops", in, sizeof(in), out, sizeof(out), 0, 0, one,
                   wave, NULL));
  int bad = 0;
  for (int l = 0; l < 64; ++l) {
    uint32_t a = in[0][l], b = in[1][l], c = in[2][l];
    uint16_t a16 = (uint16_t)a, b16 = (uint16_t)b, c16 = (uint16_t)c;
    int16_t as = (int16_t)a16, bs = (int16_t)b16;
    uint32_t e[NOUT];
    e[0] = (uint16_t)(a16 + b16);
    e[1] = (uint16_t)(a16 - b16);
    e[2] = (uint16_t)(b16 - a16);
    e[3] = (uint16_t)(a16 * b16);
    e[4] = (uint16_t)(a16 << (b & 15));
    e[5] = (uint16_t)(a16 >> (b & 15));
    e[6] = (uint16_t)(as >> (b & 15));
    e[7] = a16 > b16 ? a16 : b16;
    e[8] = (uint16_t)(as > bs ? as : bs);
    e[9] = a16 < b16 ? a16 : b16;
    e[10] = (uint16_t)(as < bs ? as : bs);
    e[11] = (uint16_t)(as + bs);
    e[12] = (uint16_t)(as - bs);
    e[13] = (uint16_t)(a16 * b16 + c16);
    e[14] = (uint16_t)(as * bs + (int16_t)c16);
    e[15] = (uint32_t)a16 * b16 + c;
    e[16] = (uint32_t)((int32_t)as * bs) + c;
    e[17] = (a & c) ^ b;
    e[18] = (a & b) | (a & c) | (b & c);
    e[19] = (uint16_t)(a ^ b ^ c);
    e[20] = (a & 0x0ff0f00fu) | (~a & c);
    e[21] = (c & 0xFFFF) | (uint32_t)(uint16_t)(((a >> 8) & 0xFF) * (b >> 16))
                               << 16;
    e[22] = (uint16_t)(0xab * a16);
    e[23] = (c & 0xFFFF) | (uint32_t)(uint16_t)((a >> 16) * (b >> 16) + c16)
                               << 16;
    e[24] = ((a >> 8) & 0xFF) != (b & 0xFF);
    e[25] = (int16_t)(a >> 16) > bs;
    e[26] = (int8_t)(a & 0xFF) < (int8_t)((b >> 16) & 0xFF);
    e[27] = (uint16_t)(a16 << 3);
    for (int k = 0; k < NOUT; ++k) {
      if (out[k][l] != e[k] && bad++ < 10)
        fprintf(stderr,
                "int16 op %d lane %d (a 0x%08x b 0x%08x c 0x%08x): "
                "got 0x%08x want 0x%08x\n",
                k, l, a, b, c, out[k][l], e[k]);
    }
  }
  fixture_close(&f);
  return bad ? 1 : 0;
}

// D16 loads and stores: 16 bits of the VGPR move (bytes zero- or
// sign-extended to 16), the other half is kept.
static int test_d16(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  enum { NOUT = 16 };
  uint32_t in[3][64], out[NOUT][64];
  for (int l = 0; l < 64; ++l)
    for (int k = 0; k < 3; ++k)
      in[k][l] = rnd();
  in[0][0] = 0x80FF7F01; // sign bits set and clear in every byte
  UQ_EXPECT_OK(run(&f, "d16_mem", in, sizeof(in), out, sizeof(out), 0, 0, one,
                   wave, NULL));
  int bad = 0;
  for (int l = 0; l < 64; ++l) {
    uint32_t a = in[0][l], c = in[2][l];
    uint32_t lo = c & 0xFFFF0000u, hi = c & 0xFFFFu; // what each form keeps
    uint32_t b0 = a & 0xFF, b1 = (a >> 8) & 0xFF, b2 = (a >> 16) & 0xFF,
             b3 = a >> 24;
    uint32_t e[NOUT];
    e[0] = lo | b0;
    e[1] = hi | (uint32_t)(uint16_t)(int8_t)b1 << 16;
    e[2] = hi | (a & 0xFFFF0000u);
    e[3] = lo | a >> 16;
    e[4] = lo | (uint16_t)(int8_t)b3;
    e[5] = hi | b2 << 16;
    e[6] = lo | a >> 16;
    e[7] = (c & 0xFFFFFF00u) | b2;
    e[8] = lo | a >> 16;
    e[9] = (c & 0xFFFFFF00u) | b2;
    e[10] = hi | b1 << 16;
    e[11] = lo | b2;
    e[12] = lo | (uint16_t)(int8_t)b3;
    e[13] = hi | (uint32_t)(uint16_t)(int8_t)b0 << 16;
    e[14] = lo | a >> 16;
    e[15] = hi | a << 16;
    for (int k = 0; k < NOUT; ++k) {
      if (out[k][l] != e[k] && bad++ < 10)
        fprintf(stderr,
                "d16 case %d lane %d (a 0x%08x c 0x%08x): got 0x%08x "
                "want 0x%08x\n",
                k, l, a, c, out[k][l], e[k]);
    }
  }
  fixture_close(&f);
  return bad ? 1 : 0;
}

// Every VOPC compare from its definition: the float conditions (the n*
// forms and u are true on NaN), the integer ones on signed and unsigned
// 16/32/64-bit values, v_cmp_class; v_cmpx writes the same mask to EXEC.
static int fcond(int c, float x, float y) {
  int un = isnan(x) || isnan(y);
  switch (c) {
  case 0:
    return 0;
  case 1:
    return x < y;
  case 2:
    return x == y;
  case 3:
    return x <= y;
  case 4:
    return x > y;
  case 5:
    return !un && x != y;
  case 6:
    return x >= y;
  case 7:
    return !un;
  case 8:
    return un;
  case 9:
    return un || x < y;
  case 10:
    return un || x == y;
  case 11:
    return un || x <= y;
  case 12:
    return un || x > y;
  case 13:
    return un || x != y;
  case 14:
    return un || x >= y;
  default:
    return 1;
  }
}
static int icond(int c, int lt, int eq) {
  int gt = !lt && !eq;
  const int r[8] = {0, lt, eq, lt || eq, gt, !eq, gt || eq, 1};
  return r[c];
}
static int fclass_of(float x, uint32_t mask) {
  int bit;
  if (isnan(x))
    bit = (f2u(x) & 0x400000) ? 1 : 0; // quiet 1, signaling 0
  else if (isinf(x))
    bit = x < 0 ? 2 : 9;
  else if (x == 0)
    bit = signbit(x) ? 5 : 6;
  else if (fabsf(x) < 0x1p-126f)
    bit = x < 0 ? 4 : 7;
  else
    bit = x < 0 ? 3 : 8;
  return (mask >> bit) & 1;
}

static int test_vcmp(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  enum { NOUT = 2 * 64 + 2 };
  static const float fs[] = {-1.0f, 0.0f,     -0.0f,     1.0f,     2.0f,
                             NAN,   INFINITY, -INFINITY, 0x1p-130f};
  static const uint32_t is[] = {
      0, 1, 0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0x8000, 0xFFFF, 5, 0x10005};
  static const uint32_t his[] = {0, 1, 0xFFFFFFFFu, 0x80000000u};
  uint32_t in[6][64], out[NOUT][64];
  for (int l = 0; l < 64; ++l) {
    in[0][l] = is[rnd() % 9];
    in[1][l] = l < 8 ? in[0][l] : is[rnd() % 9] ^ (rnd() % 4 == 0 ? rnd() : 0);
    in[2][l] = his[rnd() % 4];
    in[3][l] = rnd() % 2 ? in[2][l] : his[rnd() % 4];
    in[4][l] = f2u(fs[rnd() % 9]);
    in[5][l] = l < 8 ? in[4][l] : f2u(fs[rnd() % 9]);
  }
  UQ_EXPECT_OK(run(&f, "vcmp_all", in, sizeof(in), out, sizeof(out), 0, 0, one,
                   wave, NULL));
  int bad = 0;
  for (int l = 0; l < 64; ++l) {
    uint32_t a = in[0][l], b = in[1][l];
    uint64_t a64 = (uint64_t)in[2][l] << 32 | a,
             b64 = (uint64_t)in[3][l] << 32 | b;
    float x = u2f(in[4][l]), y = u2f(in[5][l]);
    uint32_t e[64];
    int k = 0;
    for (int c = 0; c < 16; ++c)
      e[k++] = (uint32_t)fcond(c, x, y);
    for (int c = 0; c < 8; ++c)
      e[k++] = (uint32_t)icond(c, (int32_t)a < (int32_t)b, a == b);
    for (int c = 0; c < 8; ++c)
      e[k++] = (uint32_t)icond(c, a < b, a == b);
    for (int c = 0; c < 8; ++c)
      e[k++] = (uint32_t)icond(c, (int64_t)a64 < (int64_t)b64, a64 == b64);
    for (int c = 0; c < 8; ++c)
      e[k++] = (uint32_t)icond(c, a64 < b64, a64 == b64);
    for (int c = 0; c < 8; ++c)
      e[k++] = (uint32_t)icond(c, (int16_t)a < (int16_t)b,
                               (uint16_t)a == (uint16_t)b);
    for (int c = 0; c < 8; ++c)
      e[k++] = (uint32_t)icond(c, (uint16_t)a < (uint16_t)b,
                               (uint16_t)a == (uint16_t)b);
    for (int j = 0; j < NOUT; ++j) {
      uint32_t want = j < 128 ? e[j % 64] : (uint32_t)fclass_of(x, b);
      if (out[j][l] != want && bad++ < 10)
        fprintf(stderr, "vcmp %s %d lane %d: got %u want %u\n",
                j < 64    ? "cmp"
                : j < 128 ? "cmpx"
                          : "class",
                j % 64, l, out[j][l], want);
    }
  }
  fixture_close(&f);
  return bad ? 1 : 0;
}

// A float result against the oracle's: NaN matches any NaN (hardware may
// quiet a signaling NaN or keep its payload), anything else bit for bit.
static int f32_match(uint32_t got, uint32_t want) {
  if (isnan(u2f(want)))
    return isnan(u2f(got));
  return got == want;
}
static int f16_isnan(uint16_t h) {
  return (h & 0x7C00) == 0x7C00 && (h & 0x3FF);
}
static int f16_match(uint16_t got, uint16_t want) {
  if (f16_isnan(want))
    return f16_isnan(got);
  return got == want;
}
// neg/abs on a 16-bit value: the sign is its bit 15.
static uint16_t mod16(uint16_t h, int neg, int abs) {
  if (abs)
    h &= 0x7FFF;
  if (neg)
    h ^= 0x8000;
  return h;
}
// Halves with the ISA guide's edge cases: both zeros, the smallest and
// largest subnormals, the smallest normal, the largest finite, infinities,
// quiet and signaling NaNs of both signs, +-1.
static const uint16_t kF16Edges[] = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x83FF, 0x0400, 0x7BFF,
    0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0xFE01, 0x7D01, 0x3C00, 0xBC00};
static const uint16_t kBf16Edges[] = {
    0x0000, 0x8000, 0x0001, 0x807F, 0x0080, 0x7F7F, 0xFF7F, 0x7F80,
    0xFF80, 0x7FC0, 0xFFC1, 0x7F81, 0x3F80, 0xBF80, 0x4049, 0xC0A0};
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
static uint32_t edge_pair(const uint16_t *t, size_t n) {
  return t[rnd() % n] | (uint32_t)t[rnd() % n] << 16;
}

// v_cvt_f32_f16, v_cvt_f32_bf16 and v_pack_b32_f16 with neg/abs: the
// modifiers flip or clear the sign of the 16-bit source (the half SDWA or
// op_sel selects), never bit 31 of the register; conversions are exact.
static int test_f16_mods(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  enum { NOUT = 15 };
  uint32_t in[3][64], out[NOUT][64];
  for (int l = 0; l < 64; ++l) {
    int edge = l < 40;
    in[0][l] = edge ? edge_pair(kF16Edges, NELEM(kF16Edges)) : rnd();
    in[1][l] = edge ? edge_pair(kF16Edges, NELEM(kF16Edges)) : rnd();
    in[2][l] = edge ? edge_pair(kBf16Edges, NELEM(kBf16Edges)) : rnd();
  }
  UQ_EXPECT_OK(run(&f, "f16_mods", in, sizeof(in), out, sizeof(out), 0, 0, one,
                   wave, NULL));
  int bad = 0;
  for (int l = 0; l < 64; ++l) {
    uint32_t a = in[0][l], b = in[1][l], h = in[2][l];
    uint16_t alo = (uint16_t)a, ahi = (uint16_t)(a >> 16), blo = (uint16_t)b,
             bhi = (uint16_t)(b >> 16), hlo = (uint16_t)h,
             hhi = (uint16_t)(h >> 16);
#define CVT16(x) f2u(f16f(x))
#define CVTBF(x) ((uint32_t)(x) << 16)
    uint32_t e[NOUT];
    e[0] = CVT16(mod16(alo, 1, 0));
    e[1] = CVT16(mod16(alo, 0, 1));
    e[2] = CVT16(mod16(alo, 1, 1));
    e[3] = CVT16(mod16(ahi, 1, 0));
    e[4] = CVT16(mod16(ahi, 0, 1));
    e[5] = CVTBF(mod16(hlo, 1, 0));
    e[6] = CVTBF(mod16(hlo, 0, 1));
    e[7] = CVTBF(mod16(hlo, 1, 1));
    e[8] = CVTBF(mod16(hhi, 1, 0));
    e[9] = CVTBF(mod16(hhi, 1, 1));
    e[10] = mod16(alo, 1, 0) | (uint32_t)mod16(blo, 0, 1) << 16;
    e[11] = mod16(ahi, 0, 1) | (uint32_t)mod16(bhi, 1, 0) << 16;
    e[12] = mod16(alo, 1, 1) | (uint32_t)mod16(bhi, 1, 0) << 16;
    e[13] = CVT16(alo);
    e[14] = CVTBF(hlo);
#undef CVT16
#undef CVTBF
    for (int k = 0; k < NOUT; ++k) {
      uint32_t g = out[k][l];
      int ok = k >= 10 && k <= 12
                   ? f16_match((uint16_t)g, (uint16_t)e[k]) &&
                         f16_match((uint16_t)(g >> 16), (uint16_t)(e[k] >> 16))
                   : f32_match(g, e[k]);
      if (!ok && bad++ < 10)
        fprintf(stderr,
                "f16_mods case %d lane %d (a 0x%08x b 0x%08x h 0x%08x): got "
                "0x%08x want 0x%08x\n",
                k, l, a, b, h, g, e[k]);
    }
  }
  fixture_close(&f);
  return bad ? 1 : 0;
}

// The clamp bit on an f16 result: [0, 1], NaN to 0 (MODE.DX10_CLAMP, set by
// default), -0 to +0 (max(-0, +0) is +0).
static uint16_t clamp01(double x) {
  uint16_t r = h16((_Float16)x);
  if (f16_isnan(r) || (r & 0x8000) || r == 0)
    return 0;
  return r > 0x3C00 ? 0x3C00 : r;
}
static int f16_issnan(uint16_t h) { return f16_isnan(h) && !(h & 0x200); }
// v_max_f16/v_min_f16 in IEEE mode (the default): a signaling NaN input
// gives a NaN, one quiet NaN gives the other operand.
static double maxnum16(uint16_t x, uint16_t y, int is_max) {
  if (f16_issnan(x) || f16_issnan(y))
    return NAN;
  double a = f16f(x), b = f16f(y);
  return is_max ? fmax(a, b) : fmin(a, b);
}
static uint32_t sat16u(int64_t v) {
  return (uint32_t)(v < 0 ? 0 : v > 0xFFFF ? 0xFFFF : v);
}
static uint32_t sat16i(int64_t v) {
  return (uint16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v);
}
// A moderate f16 (magnitude 2^-6 .. 4): sums and FMAs of these are exact in
// double, so rounding the double result once gives the f16 result.
static uint16_t f16_moderate(void) {
  return (uint16_t)((rnd() & 1) << 15 | (9 + rnd() % 8) << 10 |
                    (rnd() & 0x3FF));
}

static int test_clamp16(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  enum { NOUT = 31 };
  uint32_t in[6][64], out[NOUT][64];
  // Integer edges: sums and products past both ends of u16 and i16.
  static const uint32_t ia[] = {0xFFFF, 0x7FFF, 0x8000, 0x0000,
                                0x8000, 0x7FFF, 0x00FF, 0x0001};
  static const uint32_t ib[] = {0x0001, 0x0001, 0x0001, 0x0001,
                                0x8000, 0x7FFF, 0x0101, 0xFFFF};
  for (int l = 0; l < 64; ++l) {
    for (int k = 0; k < 3; ++k) {
      if (l < 8)
        in[k][l] = k == 0   ? ia[l] | ib[7 - l] << 16
                   : k == 1 ? ib[l] | ia[7 - l] << 16
                            : rnd();
      else if (l < 24)
        in[k][l] = edge_pair(kF16Edges, NELEM(kF16Edges));
      else if (l < 48)
        in[k][l] = f16_moderate() | (uint32_t)f16_moderate() << 16;
      else
        in[k][l] = rnd();
    }
    for (int k = 3; k < 6; ++k)
      in[k][l] = l < 8 ? edge_pair(kF16Edges, NELEM(kF16Edges))
                       : f16_moderate() | (uint32_t)f16_moderate() << 16;
  }
  UQ_EXPECT_OK(run(&f, "clamp16", in, sizeof(in), out, sizeof(out), 0, 0, one,
                   wave, NULL));
  int bad = 0;
  for (int l = 0; l < 64; ++l) {
    uint16_t x[6][2]; // [source][half]
    for (int k = 0; k < 6; ++k)
      x[k][0] = (uint16_t)in[k][l], x[k][1] = (uint16_t)(in[k][l] >> 16);
    uint32_t e[NOUT], p[NOUT][2];
    double A = f16f(x[0][0]), B = f16f(x[1][0]);
    e[0] = clamp01(A + B);
    e[1] = clamp01(A - B);
    e[2] = clamp01(A * B);
    e[3] = clamp01(maxnum16(x[0][0], x[1][0], 1));
    e[4] = clamp01(maxnum16(x[0][0], x[1][0], 0));
    e[5] = clamp01(fma(f16f(x[3][0]), f16f(x[4][0]), f16f(x[5][0])));
    for (int h = 0; h < 2; ++h) {
      uint16_t a = x[0][h], b = x[1][h], c = x[2][h];
      int32_t as = (int16_t)a, bs = (int16_t)b, cs = (int16_t)c;
      double fa = f16f(a), fb = f16f(b);
      p[6][h] = clamp01(fa + fb);
      p[7][h] = clamp01(fa * fb);
      p[8][h] = clamp01(fma(f16f(x[3][h]), f16f(x[4][h]), f16f(x[5][h])));
      p[9][h] = clamp01(maxnum16(a, b, 1));
      p[30][h] = clamp01(maxnum16(a, b, 0));
      p[17][h] = sat16u((int64_t)a + b);
      p[18][h] = sat16u((int64_t)a - b);
      p[19][h] = (uint16_t)(as + bs);
      p[20][h] = sat16i((int64_t)as + bs);
      p[21][h] = sat16i((int64_t)as - bs);
      p[22][h] = (uint16_t)((uint32_t)a * b + c);
      p[23][h] = sat16u((int64_t)a * b + c);
      p[24][h] = (uint16_t)(as * bs + cs);
      p[25][h] = sat16i((int64_t)as * bs + cs);
      p[26][h] = a > b ? a : b;
      p[27][h] = a < b ? a : b;
    }
    uint16_t a = x[0][0], b = x[1][0], c = x[2][0];
    int32_t as = (int16_t)a, bs = (int16_t)b, cs = (int16_t)c;
    e[10] = sat16u((int64_t)a + b);
    e[11] = sat16u((int64_t)a - b);
    e[12] = sat16u((int64_t)b - a);
    e[13] = sat16i((int64_t)as + bs);
    e[14] = sat16i((int64_t)as - bs);
    e[15] = sat16u((int64_t)a * b + c);
    e[16] = sat16i((int64_t)as * bs + cs);
    // op_sel picks each source's half for the low result, op_sel_hi for
    // the high one.
    p[28][0] = x[0][1] > x[1][0] ? x[0][1] : x[1][0];
    p[28][1] = x[0][0] > x[1][1] ? x[0][0] : x[1][1];
    p[29][0] = x[0][0] < x[1][1] ? x[0][0] : x[1][1];
    p[29][1] = x[0][1] < x[1][1] ? x[0][1] : x[1][1];
    for (int k = 6; k < NOUT; ++k)
      if (k <= 9 || k >= 17)
        e[k] = p[k][0] | p[k][1] << 16;
    for (int k = 0; k < NOUT; ++k) {
      if (out[k][l] != e[k] && bad++ < 10)
        fprintf(stderr,
                "clamp16 case %d lane %d (a 0x%08x b 0x%08x c 0x%08x): got "
                "0x%08x want 0x%08x\n",
                k, l, in[0][l], in[1][l], in[2][l], out[k][l], e[k]);
    }
  }
  fixture_close(&f);
  return bad ? 1 : 0;
}

// v_mfma_f32_32x32x64_f8f6f4 against a host dot product. Lane layout (CDNA4
// ISA, dense 8-bit-and-smaller layouts, two lane groups g = l / 32): lane l
// holds row (column) l % 32; an FP8 operand holds K [16g, 16g + 16) in its
// first 16 bytes and [32 + 16g, 32 + 16g + 16) in the next 16; an FP4
// operand holds K [32g, 32g + 32), low nibble first. C and D: lane l
// register r is row 8 * (r / 4) + 4 * g + r % 4, column l % 32. The
// 16x16x128 form on the same FP8 registers: four lane groups g = l / 16,
// row (column) l % 16, K [16g, 16g + 16) then [64 + 16g, 64 + 16g + 16); D
// lane l register r is row 4 * g + r, column l % 16.
static int test_mfma_32x32(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  static uint8_t in[9216];
  for (int i = 0; i < 4096; ++i) {
    uint8_t v = (uint8_t)rnd();
    in[i] = (v & 0x7F) == 0x7F ? v ^ 1 : v; // no NaN codes
  }
  for (int i = 4096; i < 5120; ++i)
    in[i] = (uint8_t)rnd();
  for (int i = 0; i < 1024; ++i) {
    float c = rndf(-50, 50);
    memcpy(in + 5120 + 4 * i, &c, 4);
  }
  static uint32_t out[36][64];
  UQ_EXPECT_OK(run(&f, "mfma_32x32", in, sizeof(in), out, sizeof(out), 0, 0,
                   one, wave, NULL));
  static double A[32][64], B8[64][32], B4[64][32];
  for (int l = 0; l < 64; ++l) {
    int rc = l % 32, g = l / 32;
    for (int t = 0; t < 32; ++t) {
      int k8 = t < 16 ? 16 * g + t : 32 + 16 * g + (t - 16);
      A[rc][k8] = e4m3_value(in[32 * l + t]);
      B8[k8][rc] = e4m3_value(in[2048 + 32 * l + t]);
      B4[32 * g + t][rc] =
          fp4_value((in[4096 + 16 * l + t / 2] >> (4 * (t & 1))) & 15);
    }
  }
  static double A16[16][128], B16[128][16];
  for (int l = 0; l < 64; ++l) {
    int rc = l % 16, g = l / 16;
    for (int t = 0; t < 32; ++t) {
      int k = t < 16 ? 16 * g + t : 64 + 16 * g + (t - 16);
      A16[rc][k] = e4m3_value(in[32 * l + t]);
      B16[k][rc] = e4m3_value(in[2048 + 32 * l + t]);
    }
  }
  int bad = 0;
  for (int l = 0; l < 64; ++l) {
    for (int r = 0; r < 4; ++r) {
      int i = 4 * (l / 16) + r, j = l % 16;
      double s = 0, m = 0;
      for (int k = 0; k < 128; ++k) {
        s += A16[i][k] * B16[k][j];
        m += fabs(A16[i][k] * B16[k][j]);
      }
      float got = u2f(out[32 + r][l]);
      if (!(fabs(got - s) <= 1e-6 * m + 1e-30) && bad++ < 10)
        fprintf(stderr, "16x16x128 lane %d reg %d: got %.9g want %.9g\n", l, r,
                got, s);
    }
  }
  for (int l = 0; l < 64; ++l) {
    for (int r = 0; r < 16; ++r) {
      int i = 8 * (r / 4) + 4 * (l / 32) + r % 4, j = l % 32;
      double s8 = 0, m8 = 0, s4 = 0, m4 = 0;
      for (int k = 0; k < 64; ++k) {
        s8 += A[i][k] * B8[k][j];
        m8 += fabs(A[i][k] * B8[k][j]);
        s4 += A[i][k] * B4[k][j];
        m4 += fabs(A[i][k] * B4[k][j]);
      }
      float cv;
      memcpy(&cv, in + 5120 + 64 * l + 4 * r, 4);
      double w8 = s8 + cv, t8 = 1e-6 * (m8 + fabs(cv)) + 1e-30;
      double t4 = 1e-6 * m4 + 1e-30;
      float g8 = u2f(out[r][l]), g4 = u2f(out[16 + r][l]);
      if (!(fabs(g8 - w8) <= t8) && bad++ < 10)
        fprintf(stderr, "fp8 x fp8 lane %d reg %d: got %.9g want %.9g\n", l, r,
                g8, w8);
      if (!(fabs(g4 - s4) <= t4) && bad++ < 10)
        fprintf(stderr, "fp8 x fp4 lane %d reg %d: got %.9g want %.9g\n", l, r,
                g4, s4);
    }
  }
  fixture_close(&f);
  return bad ? 1 : 0;
}

// More VALU arithmetic, each from the ISA's definition: byte conversions,
// rounding conversions, fract (capped below 1), frexp, legacy multiply (0
// times anything is 0), 24-bit multiplies, 64-bit shifts by S0[5:0], borrow
// chains, three-input min/max, bfm, saturating packs, v_pk_mov_b32 op_sel,
// v_writelane.
static int32_t sext24(uint32_t x) { return (int32_t)(x << 8) >> 8; }
static int test_valu_more(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  enum { NOUT = 42 };
  uint32_t in[7][64], out[NOUT][64];
  for (int l = 0; l < 64; ++l) {
    for (int k = 0; k < 3; ++k)
      in[k][l] = rnd();
    for (int k = 3; k < 6; ++k)
      in[k][l] = f2u(rndf(-100, 100));
    in[6][l] = (uint32_t)((int32_t)(rnd() % 41) - 20);
  }
  static const float edge[] = {0.0f, -2.5f, 2.5f, -1e-9f, 1.0f, -0.5f, 0.5f};
  for (int l = 0; l < 7; ++l)
    in[3][l] = f2u(edge[l]);
  in[4][0] = f2u(1e30f);                              // legacy: 0 * 1e30 is 0
  in[0][1] = 0xFFFFFFFFu, in[0][2] = 0, in[0][3] = 1; // ffbh: -1, 0, 1
  in[1][1] = 0x00012345u, in[1][2] = 0xFFFF0000u;     // pack: both clamps
  UQ_EXPECT_OK(run(&f, "valu_more", in, sizeof(in), out, sizeof(out), 0, 0, one,
                   wave, NULL));
  int bad = 0;
  for (int l = 0; l < 64; ++l) {
    uint32_t a = in[0][l], b = in[1][l], c = in[2][l];
    float fa = u2f(in[3][l]), fb = u2f(in[4][l]), fc = u2f(in[5][l]);
    int32_t s = (int32_t)in[6][l];
    uint32_t e[NOUT];
    int ex;
    e[0] = f2u((float)((a >> 8) & 0xFF));
    e[1] = f2u((float)(a >> 24));
    e[2] = (uint32_t)(int32_t)floor((double)fa + 0.5);
    e[3] = (uint32_t)(int32_t)floor(fa);
    e[4] = f2u(fminf((float)((double)fa - floor(fa)), 0x1.fffffep-1f));
    e[5] = f2u(truncf(fa));
    e[6] = f2u(ceilf(fa));
    e[7] = f2u(floorf(fa));
    e[8] = e[9] = e[10] = 0; // checked to 1 ULP below
    uint32_t y = (int32_t)a < 0 ? ~a : a;
    e[11] = y ? (uint32_t)__builtin_clz(y) : 0xFFFFFFFFu;
    e[12] = f2u(frexpf(fa, &ex));
    e[13] = (uint32_t)ex;
    e[14] = f2u(fa * fb);
    int64_t p24 = (int64_t)sext24(a) * sext24(b);
    e[15] = (uint32_t)p24;
    e[16] = (uint32_t)((uint64_t)p24 >> 32);
    e[17] = (uint32_t)((int32_t)a < (int32_t)b ? (int32_t)a : (int32_t)b);
    e[18] = a > b ? a : b;
    e[19] = f2u(fmaf(fa, u2f(0x40490fdb), fb));
    e[20] = f2u(fmaf(fa, fb, u2f(0xc0490fdb)));
    e[21] = b - a;
    uint32_t borrow = a > b;
    e[22] = a - c - borrow;
    e[23] = (uint64_t)c + borrow > a;
    uint64_t ab = (uint64_t)b << 32 | a;
    uint64_t sr = ab >> (s & 63);
    int64_t sa = (int64_t)ab >> (s & 63);
    e[24] = (uint32_t)sr, e[25] = (uint32_t)(sr >> 32);
    e[26] = (uint32_t)sa, e[27] = (uint32_t)((uint64_t)sa >> 32);
    e[28] = (uint32_t)p24 + c;
    e[29] = f2u(fminf(fminf(fa, fb), fc));
    int32_t m3 = (int32_t)a < (int32_t)b ? (int32_t)a : (int32_t)b;
    e[30] = (uint32_t)((int32_t)c < m3 ? (int32_t)c : m3);
    uint32_t x3 = a > b ? a : b;
    e[31] = c > x3 ? c : x3;
    uint64_t m64 = (uint64_t)((int64_t)(int32_t)a * (int32_t)b) +
                   ((uint64_t)in[3][l] << 32 | c);
    e[32] = (uint32_t)m64, e[33] = (uint32_t)(m64 >> 32);
    e[34] = (a + b) << (s & 31);
    e[35] = ((1u << (s & 31)) - 1) << (b & 31);
    e[36] = (a > 0xFFFF ? 0xFFFF : a) | (b > 0xFFFF ? 0xFFFF : b) << 16;
    int32_t ia = (int32_t)a, ib = (int32_t)b;
    ia = ia > 32767 ? 32767 : ia < -32768 ? -32768 : ia;
    ib = ib > 32767 ? 32767 : ib < -32768 ? -32768 : ib;
    e[37] = (uint16_t)ia | (uint32_t)(uint16_t)ib << 16;
    e[38] = b, e[39] = c;
    e[40] = l == 5 ? in[1][0] : a;
    e[41] = f2u(s == 0 ? 0.0f : s > 0 ? INFINITY : -INFINITY);
    for (int k = 0; k < NOUT; ++k) {
      uint32_t g = out[k][l];
      int ok;
      if (k == 8)
        ok = ulp_close(u2f(g), log2(fabs((double)fa)), 1);
      else if (k == 9)
        ok = ulp_close(u2f(g), 1 / sqrt(fabs((double)fa)), 1);
      else if (k == 10)
        ok = ulp_close(u2f(g), sqrt(fabs((double)fa)), 1);
      else if (k == 14 || k == 41) // a zero of either sign
        ok = u2f(g) == u2f(e[k]) && !isnan(u2f(g));
      else
        ok = g == e[k];
      if (!ok && bad++ < 10)
        fprintf(stderr,
                "valu_more case %d lane %d (a 0x%08x b 0x%08x c 0x%08x fa %a "
                "fb %a s %d): got 0x%08x want 0x%08x\n",
                k, l, a, b, c, fa, fb, s, g, e[k]);
    }
  }
  fixture_close(&f);
  return bad ? 1 : 0;
}

// Loads, stores and LDS ops of every width from byte arithmetic on the
// input: zero/sign extension of bytes and shorts, D16 halves (the other
// half kept), two-address LDS forms (offsets in elements, ST64 in 64
// elements), LDS atomics; stores leave the bytes they do not cover alone.
static int test_mem_more(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  enum { NROW = 62, NBLK = 11 };
  static uint8_t in[1536], out[NROW * 256 + NBLK * 1024];
  for (int i = 0; i < 1024; ++i)
    in[i] = (uint8_t)rnd();
  for (int i = 0; i < 128; ++i) {
    float v = rndf(-10, 10);
    memcpy(in + 1024 + 4 * i, &v, 4);
  }
  UQ_EXPECT_OK(run(&f, "mem_more", in, sizeof(in), out, sizeof(out), sizeof(in),
                   0, one, wave, NULL));
  const uint8_t *X = in;
#define U8(o) ((uint32_t)X[o])
#define S8(o) ((uint32_t)(int32_t)(int8_t)X[o])
#define U16(o) ((uint32_t)X[o] | (uint32_t)X[(o) + 1] << 8)
#define S16(o) ((uint32_t)(int32_t)(int16_t)U16(o))
#define U32(o) (U16(o) | U16((o) + 2) << 16)
#define LO(v) (0xA5A50000u | ((v)&0xFFFF))
#define HI(v) (0xC3C3u | (v) << 16)
  int bad = 0;
  for (int l = 0; l < 64; ++l) {
    int q = 16 * l;
    uint32_t e[NROW];
    e[0] = U32(q), e[1] = U32(q + 4), e[2] = U32(q + 8);
    e[3] = U8(l), e[4] = S8(64 + l), e[5] = U16(2 * l), e[6] = S16(128 + 2 * l);
    e[7] = U32(q + 4), e[8] = U32(q + 8), e[9] = U32(q + 12);
    e[10] = S16(256 + 2 * l);
    e[11] = U32(q), e[12] = U32(q + 4);
    e[13] = U32(q), e[14] = U32(q + 4), e[15] = U32(q + 8);
    for (int k = 0; k < 4; ++k)
      e[16 + k] = U32(q + 4 * k);
    e[20] = U8(q + 3), e[21] = S8(q + 5), e[22] = U16(q + 6);
    e[23] = S16(q + 10);
    e[24] = LO(U8(l)), e[25] = HI(U8(64 + l)), e[26] = LO(S8(128 + l));
    e[27] = HI(S8(192 + l) & 0xFFFF), e[28] = LO(U16(256 + 2 * l));
    e[29] = HI(U16(384 + 2 * l));
    e[30] = LO(U8(q + 1)), e[31] = HI(U8(q + 2)), e[32] = LO(S8(q + 7));
    e[33] = HI(S8(q + 9) & 0xFFFF), e[34] = LO(U16(q + 12));
    e[35] = HI(U16(q + 14));
    e[36] = U32(q), e[37] = U32(q + 4), e[38] = U32(q + 8);
    e[39] = S8(l);
    e[40] = U32(4 * l + 4), e[41] = U32(4 * l + 68);
    e[42] = U32(8 * l), e[43] = U32(8 * l + 4), e[44] = U32(8 * l + 24);
    e[45] = U32(8 * l + 28);
    e[46] = U32(8 * l), e[47] = U32(8 * l + 4), e[48] = U32(8 * l + 512);
    e[49] = U32(8 * l + 516);
    e[50] = U32(q), e[51] = U32(q + 8);
    e[52] = U32(q), e[53] = U32(q + 4);
    e[54] = U32(q), e[55] = U32(q + 4), e[56] = U32(q + 8);
    e[57] = U32(q + 12);
    e[58] = U32(q) + U32(q + 4);
    float F = u2f(U32(1024 + 4 * l)), G = u2f(U32(1280 + 4 * l));
    e[59] = f2u(fmaxf(F, G)), e[60] = f2u(fminf(F, G)), e[61] = f2u(F + G);
    for (int k = 0; k < NROW; ++k) {
      uint32_t g;
      memcpy(&g, out + 256 * k + 4 * l, 4);
      if (g != e[k] && bad++ < 10)
        fprintf(stderr, "mem_more row %d lane %d: got 0x%08x want 0x%08x\n", k,
                l, g, e[k]);
    }
    // The store blocks: slot = 16 bytes of lane l in each 1 KiB block.
    uint8_t want[NBLK][16];
    memset(want, 0xCD, sizeof(want));
    memcpy(want[0], X + q, 8);
    memcpy(want[1], X + q, 12);
    memcpy(want[2], X + q, 16);
    want[3][0] = X[q];
    memcpy(want[3] + 4, X + q, 2);
    want[3][8] = X[q + 2];
    memcpy(want[3] + 12, X + q + 2, 2);
    memcpy(want[4], X + q, 12);
    memcpy(want[5], X + q, 16);
    want[6][0] = X[q + 4];
    memcpy(want[7], X + q, 4);
    memcpy(want[7] + 4, X + q + 4, 2);
    want[7][8] = X[q + 8];
    want[7][9] = X[q + 10];
    memcpy(want[7] + 12, X + q + 14, 2);
    memcpy(want[8], X + q, 8);
    memcpy(want[9], X + q, 12);
    memcpy(want[10], X + q, 16);
    for (int b = 0; b < NBLK; ++b) {
      const uint8_t *got = out + NROW * 256 + 1024 * b + q;
      for (int i = 0; i < 16; ++i)
        if (got[i] != want[b][i] && bad++ < 10)
          fprintf(stderr,
                  "mem_more store block %d lane %d byte %d: got 0x%02x want "
                  "0x%02x\n",
                  b, l, i, got[i], want[b][i]);
    }
  }
#undef U8
#undef S8
#undef U16
#undef S16
#undef U32
#undef LO
#undef HI
  fixture_close(&f);
  return bad ? 1 : 0;
}

// More scalar ops from their ISA definitions: conditional moves, 64-bit
// logic and bit counts, bfm/bfe on 64 bits (offset S1[5:0], width
// S1[22:16]), cmpk (a signed or zero-extended 16-bit immediate), compares,
// bit tests, MODE through setreg/getreg, wide scalar loads, a call through
// s_swappc_b64, and every saveexec/wrexec form from a full EXEC.
static int test_salu_more(void) {
  fixture_t f;
  UQ_EXPECT_OK(fixture_open(&f));
  enum { NROW = 131 };
  uint32_t in[64], out[NROW][64];
  for (int i = 0; i < 64; ++i)
    in[i] = rnd();
  // Equal operands half the time, so compares see both outcomes.
  if (rnd() & 1)
    in[1] = in[0];
  if (rnd() & 1)
    in[2] = in[0], in[3] = in[1];
  in[4] = rnd() % 64;
  in[5] = rnd() % 64;
  in[6] = rnd() % 64 | (rnd() % 64) << 16;
  static const uint32_t k19[] = {0xFFFF8010u, 0x8010, 0x8011, 0xFFFF800Fu,
                                 0x7FFF};
  in[7] = k19[rnd() % 5];
  UQ_EXPECT_OK(run(&f, "salu_more", in, sizeof(in), out, sizeof(out), 0, 0, one,
                   wave, NULL));
  uint32_t a = in[0], b = in[1], sh = in[4], sh2 = in[5], ctl = in[6];
  uint64_t A = (uint64_t)in[1] << 32 | in[0], B = (uint64_t)in[3] << 32 | in[2];
  uint32_t e[NROW];
  int k = 0;
#define E64(v) (e[k++] = (uint32_t)(v), e[k++] = (uint32_t)((v) >> 32))
  e[k++] = in[2];
  e[k++] = a;
  E64(B);
  E64(~A);
  e[k++] = (uint32_t)__builtin_popcountll(A);
  e[k++] = A ? (uint32_t)__builtin_ctzll(A) : 0xFFFFFFFFu;
  e[k++] = 0xFFFFFFFFu;
  e[k++] = a ? (uint32_t)__builtin_clz(a) : 0xFFFFFFFFu;
  e[k++] = 0xFFFFFFFFu;
  e[k++] = (uint32_t)(int32_t)(int16_t)a;
  E64(A | ~B);
  E64(~(A & B));
  e[k++] = ~(a | b);
  E64(~(A | B));
  E64(~(A ^ B));
  E64(A >> (sh & 63));
  E64(((1ull << (sh & 63)) - 1) << (sh2 & 63));
  unsigned off = ctl & 63, w = (ctl >> 16) & 127;
  uint64_t fu = w == 0 ? 0 : (A >> off) & (w >= 64 ? ~0ull : (1ull << w) - 1);
  uint64_t fi = w == 0 || w >= 64
                    ? fu
                    : (uint64_t)((int64_t)(fu << (64 - w)) >> (64 - w));
  E64(fu);
  E64(fi);
  e[k++] = (a << 1) + b;
  e[k++] = (a << 3) + b;
  e[k++] = 0xFFFF8001u;
  e[k++] = a * (uint32_t)-13;
  int32_t si = (int32_t)in[7], ki = (int16_t)0x8010;
  uint32_t su = in[7], ku = 0x8010;
  int ci[6] = {si == ki, si != ki, si > ki, si >= ki, si < ki, si <= ki};
  int cu[6] = {su == ku, su != ku, su > ku, su >= ku, su < ku, su <= ku};
  for (int i = 0; i < 6; ++i)
    e[k++] = (uint32_t)ci[i];
  for (int i = 0; i < 6; ++i)
    e[k++] = (uint32_t)cu[i];
  e[k++] = (int32_t)a == (int32_t)b;
  e[k++] = (int32_t)a != (int32_t)b;
  e[k++] = (int32_t)a >= (int32_t)b;
  e[k++] = a == b;
  e[k++] = a != b;
  e[k++] = a <= b;
  e[k++] = A == B;
  e[k++] = !((A >> (sh & 63)) & 1);
  e[k++] = (A >> (sh & 63)) & 1;
  e[k++] = a & ~(1u << (sh & 31));
  e[k++] = a | 1u << (sh & 31);
  e[k++] = 5;
  e[k++] = 0; // the kernel's descriptor: round to nearest even
  for (int i = 0; i < 16; ++i)
    e[k++] = in[i];
  for (int i = 0; i < 4; ++i)
    e[k++] = in[4 + i];
  for (int i = 0; i < 8; ++i)
    e[k++] = in[8 + i];
  for (int i = 0; i < 16; ++i)
    e[k++] = in[16 + i];
  e[k++] = 7;
  // saveexec: D = the old EXEC (all lanes), EXEC = f(S0, EXEC); wrexec:
  // D = the new EXEC.
  const uint64_t X = ~0ull;
  uint64_t nx[9] = {A ^ X,  A | ~X, ~(A & X), ~(A | X), ~(A ^ X),
                    ~A & X, ~A | X, ~A & X,   A & ~X};
  for (int i = 0; i < 9; ++i) {
    e[k++] = i < 7 ? 0xFFFFFFFFu : (uint32_t)nx[i];
    E64(nx[i]);
  }
#undef E64
  UQ_EXPECT_EQ_INT(k, NROW - 1);
  int bad = 0;
  for (int l = 0; l < 64; ++l) {
    e[NROW - 1] = (uint32_t)l;
    for (int r = 0; r < NROW; ++r)
      if (out[r][l] != e[r] && bad++ < 10)
        fprintf(stderr,
                "salu_more row %d lane %d: got 0x%08x want 0x%08x (a 0x%08x "
                "b 0x%08x c 0x%08x d 0x%08x s16 %u s17 %u s18 0x%x s19 "
                "0x%x)\n",
                r, l, out[r][l], e[r], in[0], in[1], in[2], in[3], in[4], in[5],
                in[6], in[7]);
  }
  fixture_close(&f);
  return bad ? 1 : 0;
}

static const uq_test_case_t tests[] = {
    {"valu", test_valu},
    {"int16", test_int16},
    {"d16", test_d16},
    {"vcmp", test_vcmp},
    {"f16_mods", test_f16_mods},
    {"clamp16", test_clamp16},
    {"mfma_32x32", test_mfma_32x32},
    {"valu_more", test_valu_more},
    {"mem_more", test_mem_more},
    {"salu_more", test_salu_more},
    {"salu", test_salu},
    {"control_flow", test_control_flow},
    {"lds_barrier", test_lds_barrier},
    {"buffer_oob", test_buffer_oob},
    {"buffer_store_oob", test_buffer_store_oob},
    {"global_oob", test_global_oob},
    {"mfma_bf16", test_mfma_bf16},
    {"mfma_bf16_32x32", test_mfma_bf16_32x32},
    {"mfma_scale", test_mfma_scale},
    {"lds_lanes", test_lds_lanes},
    {"ids", test_ids},
    {"fp8_overflow", test_fp8_overflow},
    {"misc", test_misc},
    {"preload", test_preload},
    {"endless", test_endless},
    {"unimplemented", test_unimplemented},
    {"float_mode_refused", test_float_mode_refused},
    {"launch_errors", test_launch_errors},
    {0, 0},
};

int main(int argc, char **argv) {
  g_seed = (unsigned)uq_test_seed();
  rng_state = g_seed ? g_seed : 1;
  return uq_test_main(argc, argv, tests);
}
