"""Host cost of one serving call on a CUDA GPU: microseconds per eager
uqrt.ultraquant_unified_attention call through the custom op and through
the ctypes path it wraps (one decode token, a tiny cache: the kernels take
a few microseconds, the host the rest), then a cProfile of the ctypes
path's top functions. Needs torch with CUDA.

usage: python3 scripts/serving-overhead.py   (PYTHONPATH/UQRT_LIBRARY as
       the GPU tests, or an installed wheel)
"""
import cProfile
import pstats
import time

import torch

import uqrt
from uqrt import serving

HK, QG, D, BLOCK = 2, 8, 128, 16
HQ = HK * QG
dev = torch.device("cuda")
cache = torch.zeros((16, BLOCK, HK, D + D // 16), dtype=torch.uint8, device=dev)
bt = torch.arange(16, dtype=torch.int32, device=dev).reshape(1, 16)
lens = torch.tensor([200], dtype=torch.int32, device=dev)
qsl = torch.tensor([0, 1], dtype=torch.int32, device=dev)
q = torch.randn((1, HQ, D), device=dev).to(torch.bfloat16)
out = torch.empty_like(q)
inst = serving._instance()


def f():
    inst(q, cache, bt, lens, qsl, D ** -0.5, out, max_query_len=1)


def g():
    uqrt.ultraquant_unified_attention(q, cache, bt, lens, qsl, D ** -0.5, out,
                                      max_query_len=1)


for fn in (f, g):
    for _ in range(100):
        fn()
torch.cuda.synchronize()
for name, fn in (("ctypes", f), ("op", g), ("ctypes", f), ("op", g)):
    t = time.perf_counter()
    for _ in range(3000):
        fn()
    torch.cuda.synchronize()
    print(f"{name}: {(time.perf_counter() - t) / 3000 * 1e6:.1f} us/call")
profile = cProfile.Profile()
profile.enable()
for _ in range(1000):
    f()
profile.disable()
pstats.Stats(profile).sort_stats("tottime").print_stats(14)
