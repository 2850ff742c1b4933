#!/usr/bin/env python3
"""Host cost of one eager attention call on an H100/H200, in microseconds
per call (the GPU work is one decode token over 256 cached tokens, far
shorter than the host work, so the loop measures the host):

  op          uqrt.ultraquant_unified_attention, what vLLM calls: eager on
              plain tensors it runs the op's implementation without the
              dispatcher (uqrt.torch_ops.eager_direct)
  op direct   torch.ops.uqrt.unified_attention itself, through the
              dispatcher (what a compiled graph or a dispatch mode runs)
  ctypes      UnifiedAttention.__call__ (no torch op)
  plan        Plan.run_varlen on the same plan (buffer checks + the C call)
  C only      uq_plan_run_varlen through ctypes with ints (the C run and
              its kernel launches: the floor)

then the functions the ctypes path spends its time in (cProfile, top 12).

usage: PYTHONPATH=python UQRT_LIBRARY=build/runtime/libuqrt.so \
       python3 scripts/host-cost.py [--calls=N]
"""

import argparse
import cProfile
import pstats
import sys
import time

import os

import numpy as np

# The GPU scripts' preamble: skips (77) without torch or a CUDA device.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "test", "gpu"))
from gpu_common import dev, torch  # noqa: E402

import uqrt  # noqa: E402
from uqrt import serving, torch_ops  # noqa: E402
from uqrt._library import check, lib  # noqa: E402

HK, QG, D, BLOCK, N = 2, 8, 128, 16, 256


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=2000)
    calls = parser.parse_args().calls
    rng = np.random.default_rng(1)
    blocks = N // BLOCK
    cache = uqrt.new_cache(blocks, BLOCK, HK, head_dim=D)
    uqrt.cache_write(cache, uqrt.bf16_from_float(
        rng.standard_normal((N, HK, D)).astype(np.float32)),
        uqrt.bf16_from_float(rng.standard_normal((N, HK, D)).astype(
            np.float32)), np.arange(N, dtype=np.int64), head_dim=D)
    query = torch.randn((1, HK * QG, D), device=dev).to(torch.bfloat16)
    out = torch.empty_like(query)
    args = (query, torch.from_numpy(cache).to(dev),
            torch.arange(blocks, dtype=torch.int32, device=dev)[None],
            torch.tensor([N], dtype=torch.int32, device=dev),
            torch.tensor([0, 1], dtype=torch.int32, device=dev))
    scale = D ** -0.5
    direct = serving._instance()
    direct(*args, scale, out, max_query_len=1)  # makes the plan
    entry = next(iter(direct._plans.values()))
    plan = entry.plan
    stream = torch.cuda.current_stream().cuda_stream
    pointers = [a.data_ptr() for a in args] + [out.data_ptr()]

    def c_only():
        check(lib.uq_plan_run_varlen(plan.handle, 1, 1, 1, pointers[0],
                                     pointers[1], pointers[2], pointers[3],
                                     pointers[4], 0, pointers[5], stream))

    paths = {
        "op": lambda: uqrt.ultraquant_unified_attention(
            *args, scale, out, max_query_len=1),
        "ctypes": lambda: direct(*args, scale, out, max_query_len=1),
        # the serving layer's own view of the tensors (bf16 as int16)
        "plan": lambda: plan.run_varlen(*[serving._arg(a) for a in args],
                                        serving._arg(out), num_seqs=1,
                                        num_tokens=1, max_query_len=1,
                                        stream=stream),
        "C only": c_only,
    }
    if torch_ops.registered():
        paths["op direct"] = lambda: torch_ops.unified_attention(
            *args, out, scale, 1, None, 0)
    else:
        print(f"(no torch op: {torch_ops.why_not()})")
        del paths["op"]

    def per_call(fn):
        for _ in range(100):
            fn()
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
        return (time.perf_counter() - start) / calls * 1e6

    print(f"host cost per eager call ({torch.cuda.get_device_name()}, "
          f"{calls} calls; D {D}, QG {QG}, one token over {N}):")
    # Five interleaved rounds (every path once a round, so a slow spell of
    # the host falls on all of them), the best round of each: the host is
    # noisy.
    rounds = [{name: per_call(fn) for name, fn in paths.items()}
              for _ in range(5)]
    best = {name: min(r[name] for r in rounds) for name in paths}
    for name, us in best.items():
        print(f"  {name:<10} {us:7.1f} us")
    if "op" in best:
        print(f"  op / ctypes: {best['op'] / best['ctypes']:.2f}x")

    profile = cProfile.Profile()
    profile.enable()
    for _ in range(calls):
        paths["ctypes"]()
    profile.disable()
    torch.cuda.synchronize()
    pstats.Stats(profile).sort_stats("tottime").print_stats(12)
    return 0


sys.exit(main())
