#!/usr/bin/env python3
"""The peers of uq-bench-cuda --query-len on an H100/H200, on the same
shapes, for the issue-27 table: torch SDPA in bf16 (a bf16 cache: the
attention without quantization) and, given its source, vLLM's Triton
UltraQuant unified attention on an UltraQuant cache. Prints us per step and
the causal attention's TFLOP/s for each shape and peer.

usage: scripts/varlen-peers.py [--vllm=DIR] [--replays=N]
  --vllm=DIR  a vLLM source tree (its vllm/ package importable from DIR);
              without it, or when it does not import here, the Triton
              column says why and is skipped. Nothing is fetched.

Shapes (B, N, Hk, QG, L): the verify steps of uq-bench-cuda --query-len=4
(L = 4 query tokens, the last of each sequence's N) and the prefill chunk
(L = 2048 on a 32k context: N = 34816), D = 256.
"""

import argparse
import math
import sys

try:
    import torch
except ImportError:
    print("skip: no torch")
    sys.exit(77)

SHAPES = [(16, 65536, 1, 8, 4), (16, 65536, 1, 16, 4),
          (16, 131072, 1, 8, 4), (16, 131072, 1, 16, 4),
          (1, 32768 + 2048, 1, 8, 2048)]
D = 256


def causal_flops(b, n, hk, qg, l):
    # token i of a sequence attends n - l + i + 1 positions; 2 x 2 D FLOPs
    attended = l * (n - l) + l * (l + 1) / 2
    return 4.0 * D * attended * b * hk * qg


def time_us(fn, replays):
    """us per call: CUDA graph replays timed with events."""
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        for _ in range(3):
            fn()
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=stream):
        fn()
    start, stop = (torch.cuda.Event(enable_timing=True) for _ in range(2))
    for _ in range(3):
        graph.replay()
    start.record()
    for _ in range(replays):
        graph.replay()
    stop.record()
    torch.cuda.synchronize()
    return start.elapsed_time(stop) * 1e3 / replays


def sdpa_step(b, n, hk, qg, l):
    """Each sequence's L queries over its N bf16 keys, causal from the
    bottom right (query i sees keys <= N - L + i), GQA."""
    from torch.nn.attention.bias import causal_lower_right
    dev = torch.device("cuda")
    q = torch.randn(b, hk * qg, l, D, dtype=torch.bfloat16, device=dev)
    k = torch.randn(b, hk, n, D, dtype=torch.bfloat16, device=dev)
    v = torch.randn(b, hk, n, D, dtype=torch.bfloat16, device=dev)
    bias = causal_lower_right(l, n)
    f = torch.nn.functional.scaled_dot_product_attention
    return lambda: f(q, k, v, attn_mask=bias, enable_gqa=True)


def triton_step(module, b, n, hk, qg, l):
    """vLLM's ultraquant_unified_attention on a random UltraQuant cache of
    the shape (block size 16)."""
    dev = torch.device("cuda")
    slot = D + D // 16
    blocks_per_seq = n // 16
    cache = torch.randint(0, 256, (b * blocks_per_seq, 16, hk, slot),
                          dtype=torch.uint8, device=dev)
    # UE8M0 scale bytes near 2^0 (K's after its D / 2 codes, V's after its
    # own), so the outputs are finite (a random 255 is 2^128); the timing
    # does not depend on the values
    for scales in (slice(D // 2, D // 2 + D // 32), slice(slot - D // 32, slot)):
        cache[..., scales] = torch.randint(120, 131, cache[..., scales].shape,
                                           dtype=torch.uint8, device=dev)
    tables = torch.arange(b * blocks_per_seq, dtype=torch.int32,
                          device=dev).view(b, blocks_per_seq)
    lens = torch.full((b,), n, dtype=torch.int32, device=dev)
    qsl = torch.arange(0, (b + 1) * l, l, dtype=torch.int32, device=dev)
    query = torch.randn(b * l, hk * qg, D, dtype=torch.bfloat16, device=dev)
    out = torch.empty_like(query)
    f = module.ultraquant_unified_attention
    return lambda: f(query, cache, tables, lens, qsl, 1 / math.sqrt(D),
                     output=out, max_query_len=l, max_seq_len=n)


def load_triton(path):
    if not path:
        return None, "no --vllm source given"
    sys.path.insert(0, path)
    try:
        from vllm.v1.attention.ops.ultraquant import \
            triton_unified_attention as module
        return module, None
    except Exception as e:  # any import failure: the column is skipped
        return None, f"{type(e).__name__}: {e}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vllm")
    ap.add_argument("--replays", type=int, default=50)
    a = ap.parse_args()
    if not torch.cuda.is_available():
        print("skip: no CUDA device")
        return 77
    print(torch.cuda.get_device_name(), "torch", torch.__version__)
    triton, why = load_triton(a.vllm)
    if why:
        print(f"vLLM Triton UltraQuant: skipped ({why})")
    print(f"{'B':>3} {'N':>7} {'Hk':>2} {'QG':>2} {'L':>5} "
          f"{'sdpa us':>10} {'TFLOP/s':>8} {'triton us':>10} {'TFLOP/s':>8}")
    for b, n, hk, qg, l in SHAPES:
        flops = causal_flops(b, n, hk, qg, l)
        us = time_us(sdpa_step(b, n, hk, qg, l), a.replays)
        row = f"{b:3d} {n:7d} {hk:2d} {qg:2d} {l:5d} {us:10.1f} " \
              f"{flops / us / 1e6:8.1f}"
        if triton:
            try:
                tu = time_us(triton_step(triton, b, n, hk, qg, l), a.replays)
                row += f" {tu:10.1f} {flops / tu / 1e6:8.1f}"
            except Exception as e:
                row += f" (triton failed: {type(e).__name__}: {e})"
        print(row)
        torch.cuda.empty_cache()
    return 0


sys.exit(main())
