#!/usr/bin/env python3
"""The peers of uq-bench-cuda --query-len on an H100/H200, on the same
shapes: torch SDPA in bf16 on a bf16 cache (the attention without
quantization), each backend that takes the inputs (flash, cuDNN,
efficient; the fastest is the reference), the route vLLM takes for
prefill chunks (dequantize the chunk's UltraQuant cache to bf16 with torch
ops, rotate the query, then the fastest SDPA backend; the prefill shape
only) and, given its source, vLLM's Triton UltraQuant unified attention.
Prints us per step and the causal attention's TFLOP/s, the causal mask
aligned to the end of the keys (query i of L sees keys <= N - L + i).

usage: scripts/varlen-peers.py [--vllm=DIR] [--replays=N] [--head-dim=D]
  --vllm=DIR  a vLLM source tree (its vllm/ package importable from DIR);
              without it, or when it does not import here, the Triton
              column says why and is skipped. Nothing is fetched.
  --head-dim=D  the head dim of every shape (default 256; uq-bench-cuda's
              --head-dim runs uq on the same shapes).

Shapes (B, N, Hk, QG, L): the verify steps of uq-bench-cuda --query-len=4
(L = 4 query tokens, the last of each sequence's N) and the prefill chunk
(L = 2048 on a 32k context: N = 34816), D = 256 unless --head-dim says.
"""

import argparse
import gc
import math
import sys
import warnings

try:
    import torch
except ImportError:
    print("skip: no torch")
    sys.exit(77)

SHAPES = [(16, 65536, 1, 8, 4), (16, 65536, 1, 16, 4),
          (16, 131072, 1, 8, 4), (16, 131072, 1, 16, 4),
          (1, 32768 + 2048, 1, 8, 2048)]
D = 256  # --head-dim


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


def sdpa_inputs(b, n, hk, qg, l):
    dev = torch.device("cuda")
    q = torch.randn(b, hk * qg, l, D, dtype=torch.bfloat16, device=dev)
    k = torch.randn(b, hk, n, D, dtype=torch.bfloat16, device=dev)
    v = torch.randn(b, hk, n, D, dtype=torch.bfloat16, device=dev)
    return q, k, v


FORMS = ("gqa, causal bias", "kv repeated, causal bias",
         "kv repeated, boolean mask")


def sdpa_form(how, q, k, v, l, n, mask=None):
    """SDPA's arguments in form `how` (FORMS): GQA and the bottom-right
    causal mask natively (enable_gqa, CausalBias), or the kv heads repeated
    and an explicit boolean mask (`mask`, made here when None)."""
    from torch.nn.attention.bias import causal_lower_right
    rep = q.shape[1] // k.shape[1]
    if how.startswith("kv repeated"):
        k, v = k.repeat_interleave(rep, 1), v.repeat_interleave(rep, 1)
    if how.endswith("boolean mask"):
        if mask is None:
            mask = torch.ones(l, n, dtype=torch.bool,
                              device=q.device).tril(n - l)
        return q, k, v, mask, False
    return q, k, v, causal_lower_right(l, n), how.startswith("gqa")


def sdpa_call(backend, q, k, v, l, n):
    """SDPA restricted to one backend, in the first of FORMS it takes.
    Returns (callable, form) or raises what the last form raised."""
    from torch.nn.attention import sdpa_kernel
    f = torch.nn.functional.scaled_dot_product_attention
    error = None
    for how in FORMS:
        try:
            qq, kk, vv, mask, gqa = sdpa_form(how, q, k, v, l, n)

            def step(qq=qq, kk=kk, vv=vv, mask=mask, gqa=gqa):
                with sdpa_kernel(backend):
                    return f(qq, kk, vv, attn_mask=mask, enable_gqa=gqa)
            step()
            torch.cuda.synchronize()
            # a kept exception's traceback holds this frame, whose locals
            # hold the form's tensors: a cycle only the collector breaks
            error = None
            return step, how
        except Exception as e:  # the next form, or the backend is n/a
            error = e
            torch.cuda.empty_cache()
    raise error


def random_cache(b, n, hk):
    """A random UltraQuant cache of the shape (block size 16) whose UE8M0
    scale bytes sit near 2^0 (K's after its D / 2 codes, V's after its own),
    so that outputs stay finite (a random 255 is 2^128); the timing does not
    depend on the values. Returns (cache, block tables)."""
    dev = torch.device("cuda")
    slot = D + D // 16
    blocks_per_seq = n // 16
    cache = torch.randint(0, 256, (b * blocks_per_seq, 16, hk, slot),
                          dtype=torch.uint8, device=dev)
    for scales in (slice(D // 2, D // 2 + D // 32), slice(slot - D // 32, slot)):
        cache[..., scales] = torch.randint(120, 131, cache[..., scales].shape,
                                           dtype=torch.uint8, device=dev)
    tables = torch.arange(b * blocks_per_seq, dtype=torch.int32,
                          device=dev).view(b, blocks_per_seq)
    return cache, tables


def dequant_sdpa_step(backend, how, b, n, hk, qg, l):
    """vLLM's route for a prefill chunk on an UltraQuant cache: gather the
    sequences' blocks, decode K (rotated basis) and V to bf16 (E2M1 code
    from a table, low nibble first, x 2^(scale - 127): exact in bf16),
    rotate the query by the normalized Hadamard, then SDPA on `backend` in
    form `how`. Torch ops, several passes over the decoded tensors: a fused
    dequant kernel would take at least the copy time of the cache read and
    the bf16 K and V written."""
    from torch.nn.attention import sdpa_kernel
    dev = torch.device("cuda")
    cache, tables = random_cache(b, n, hk)
    e2m1 = torch.tensor([0, .5, 1, 1.5, 2, 3, 4, 6, -0., -.5, -1, -1.5, -2, -3,
                         -4, -6], dtype=torch.bfloat16, device=dev)
    h = torch.ones(1, 1, dtype=torch.float64)
    while h.shape[0] < D:
        h = torch.cat([torch.cat([h, h], 1), torch.cat([h, -h], 1)], 0)
    hadamard = (h / math.sqrt(D)).to(torch.bfloat16).to(dev)
    q = torch.randn(b, hk * qg, l, D, dtype=torch.bfloat16, device=dev)
    mask = torch.ones(l, n, dtype=torch.bool, device=dev).tril(n - l)
    rows = tables.view(-1).long()
    g = D // 32

    def decode(codes, scales):
        lo, hi = (codes & 15).int(), (codes >> 4).int()
        x = e2m1[torch.stack((lo, hi), -1).view(b, n, hk, g, 32)]
        s = torch.exp2(scales.float() - 127).to(torch.bfloat16)
        return (x * s[..., None]).view(b, n, hk, D).transpose(1, 2)

    def step():
        s = cache[rows].view(b, n, hk, D + D // 16)
        k = decode(s[..., :D // 2], s[..., D // 2:D // 2 + g])
        v = decode(s[..., D // 2 + g:D + g], s[..., D + g:])
        qq, kk, vv, m, gqa = sdpa_form(how, q @ hadamard, k, v, l, n, mask)
        with sdpa_kernel(backend):
            return torch.nn.functional.scaled_dot_product_attention(
                qq, kk, vv, attn_mask=m, enable_gqa=gqa)
    return step


def triton_step(module, b, n, hk, qg, l):
    """vLLM's ultraquant_unified_attention on a random UltraQuant cache of
    the shape (block size 16)."""
    dev = torch.device("cuda")
    cache, tables = random_cache(b, n, hk)
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
    ap.add_argument("--head-dim", type=int, default=256,
                    choices=(32, 64, 128, 256, 512))
    a = ap.parse_args()
    global D
    D = a.head_dim
    if not torch.cuda.is_available():
        print("skip: no CUDA device")
        return 77
    # A backend that refuses a form says why in a warning; the table says
    # which form each took, or n/a.
    warnings.filterwarnings("ignore", category=UserWarning)
    from torch.nn.attention import SDPBackend
    backends = [("flash", SDPBackend.FLASH_ATTENTION),
                ("cudnn", SDPBackend.CUDNN_ATTENTION),
                ("efficient", SDPBackend.EFFICIENT_ATTENTION)]
    print(torch.cuda.get_device_name(), "torch", torch.__version__, "D", D)
    triton, why = load_triton(a.vllm)
    if why:
        print(f"vLLM Triton UltraQuant: skipped ({why})")
    print("us per step (TFLOP/s of the causal attention); n/a: the backend "
          "refused every form of the inputs")
    for b, n, hk, qg, l in SHAPES:
        flops = causal_flops(b, n, hk, qg, l)
        cell = lambda us: f"{us:8.1f} us ({flops / us / 1e6:5.1f})"  # noqa: E731
        print(f"B {b} N {n} Hk {hk} QG {qg} L {l}:")
        best = None
        q, k, v = sdpa_inputs(b, n, hk, qg, l)
        for name, backend in backends:
            try:
                step, how = sdpa_call(backend, q, k, v, l, n)
                us = time_us(step, a.replays)
                del step  # its repeated kv heads, where the form has them
                print(f"  sdpa {name:<9} {cell(us)}  [{how}]")
                if best is None or us < best[1]:
                    best = (name, us, backend, how)
            except Exception as e:
                print(f"  sdpa {name:<9} n/a ({type(e).__name__}: "
                      f"{str(e).splitlines()[0][:90] if str(e) else ''})")
            torch.cuda.empty_cache()
        del q, k, v
        gc.collect()  # whatever a refused form's exception still holds
        torch.cuda.empty_cache()
        if best:
            print(f"  sdpa best      {cell(best[1])}  [{best[0]}]")
        if best and l > 4:
            try:
                us = time_us(dequant_sdpa_step(best[2], best[3], b, n, hk,
                                               qg, l), a.replays)
                print(f"  dequant + sdpa {cell(us)}  [torch ops, then "
                      f"{best[0]}]")
            except Exception as e:
                print(f"  dequant + sdpa failed ({type(e).__name__}: {e})")
            torch.cuda.empty_cache()
        if triton:
            try:
                us = time_us(triton_step(triton, b, n, hk, qg, l), a.replays)
                print(f"  vLLM triton    {cell(us)}")
            except Exception as e:
                print(f"  vLLM triton failed ({type(e).__name__}: {e})")
            torch.cuda.empty_cache()
    return 0


sys.exit(main())
