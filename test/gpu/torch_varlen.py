"""uqrt's serving calls on torch CUDA tensors, as vLLM makes them (run on an
H100/H200 by scripts/cuda-test.sh; skips, exit 77, without torch or a GPU):

- uqrt.store of a step's new tokens from fused QKV views, byte for byte
  uqrt.cache_write;
- uqrt.ultraquant_unified_attention over a mixed step (decodes, a verify
  chunk, a first chunk, a long chunk) with sinks, a sliding window and a
  softmax scale, against the exact causal reference (uqrt's host oracle);
- the same step through a query view storage[..., ::2] into every other
  element of a wider output (the plan's view kernel), nothing else written;
- both captured in torch.cuda.graph (on the stream they were warmed up
  on) and replayed on new query, K and V
  contents and new sequence lengths within the captured shapes: the replays
  must match the oracle too (no host read, no allocation in a run).

usage: python3 test/gpu/torch_varlen.py   (PYTHONPATH=python, UQRT_LIBRARY)
"""

import sys

import numpy as np
from gpu_common import bf16, dev, rng, to_torch, torch, within_tolerance

import uqrt

HK, QG, D, BLOCK = 2, 8, 256, 16
HQ = HK * QG
SCALE, WINDOW = 0.06, 700


def close(got, want, what):
    ok, err, bad = within_tolerance(got, want)
    print(f"  {what}: max|err| {err:.3g}, {bad} outside tolerance -> "
          f"{'ok' if ok else 'FAIL'}")
    return ok


class Step:
    """Sequences' cached tokens (in the host cache) and this step's new
    ones, whose K and V the step stores."""

    def __init__(self, cached, q_lens, blocks_per_seq, num_blocks, tables):
        self.cached = np.asarray(cached)
        self.q_lens = np.asarray(q_lens)
        self.lens = (self.cached + self.q_lens).astype(np.int32)
        self.qsl = np.concatenate([[0], np.cumsum(self.q_lens)]).astype(
            np.int32)
        self.tokens = int(self.qsl[-1])
        self.tables = tables
        # the step's fused QKV rows [T, Hq + 2 Hk, D]
        self.qkv = bf16((self.tokens, HQ + 2 * HK, D))
        slot = lambda b, t: int(tables[b, t // BLOCK]) * BLOCK + t % BLOCK
        self.slots = np.array([slot(b, int(self.cached[b]) + i)
                               for b in range(len(q_lens))
                               for i in range(int(self.q_lens[b]))], np.int64)


def main():
    ok = True
    b, max_seq = 6, 4096
    blocks_per_seq = max_seq // BLOCK
    num_blocks = b * blocks_per_seq + 4
    tables = rng.permutation(num_blocks)[:b * blocks_per_seq].astype(
        np.int32).reshape(b, blocks_per_seq)
    # decodes, a verify of 4, a first chunk (context 0), a long chunk
    cached = [900, 3000, 60, 2500, 0, 2000]
    q_lens = [1, 1, 4, 1, 300, 1000]
    host_cache = uqrt.new_cache(num_blocks, BLOCK, HK, head_dim=D)
    host_cache[:] = 0xFF  # unwritten slots are poison
    for s in range(b):
        n = cached[s]
        t = np.arange(n)
        uqrt.cache_write(host_cache, bf16((n, HK, D)), bf16((n, HK, D)),
                         tables[s, t // BLOCK].astype(np.int64) * BLOCK +
                         t % BLOCK, head_dim=D)
    sinks = (rng.standard_normal(HQ) * 2).astype(np.float32)
    step = Step(cached, q_lens, blocks_per_seq, num_blocks, tables)

    cache = to_torch(host_cache)
    qkv = to_torch(step.qkv)
    query, key, value = qkv[:, :HQ], qkv[:, HQ:HQ + HK], qkv[:, HQ + HK:]
    block_table, seq_lens = to_torch(tables), to_torch(step.lens)
    qsl, slots = to_torch(step.qsl), to_torch(step.slots)
    sinks_t = to_torch(sinks)
    output = torch.empty((step.tokens, HQ, D), dtype=torch.bfloat16,
                         device=dev)

    def serve():
        uqrt.store(key, value, cache, slots)
        uqrt.ultraquant_unified_attention(
            query, cache, block_table, seq_lens, qsl, SCALE, output,
            max_query_len=int(max(q_lens)), max_seq_len=max_seq,
            sinks=sinks_t, sliding_window=WINDOW)

    def oracle(step_host, cache_host):
        keys = step_host.qkv[:, HQ:HQ + HK]
        values = step_host.qkv[:, HQ + HK:]
        want_cache = cache_host.copy()
        uqrt.cache_write(want_cache, keys, values, step_host.slots,
                         head_dim=D)
        q = np.ascontiguousarray(step_host.qkv[:, :HQ])
        want = uqrt.reference_decode_exact(
            q, want_cache, tables, step_host.lens, QG, softmax_scale=SCALE,
            sliding_window=WINDOW, sinks=sinks, head_dim=D,
            query_start_loc=step_host.qsl)
        return want_cache, want

    # Eager, on the stream the graph is captured on: the serving layer keeps
    # a plan per (shape, stream), so this warms up the plans the capture
    # uses (vLLM runs and captures on one stream likewise).
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        serve()
    torch.cuda.synchronize()
    want_cache, want = oracle(step, host_cache)
    got_cache = cache.cpu().numpy()
    stored = bool((got_cache == want_cache).all())
    print(f"  store: cache {'equals' if stored else 'DIFFERS from'} "
          f"cache_write byte for byte")
    ok &= stored
    ok &= close(output.view(torch.int16).cpu().numpy().view(np.uint16), want,
                "eager mixed step")
    # The same step through views with a head-dim step (a query
    # storage[..., ::2], the output into every other element of a wider
    # tensor): gathered and scattered on the device; the other elements
    # keep their NaN.
    wide_q = torch.repeat_interleave(query, 2, dim=2)
    wide_out = torch.full((step.tokens, HQ, 2 * D), float("nan"),
                          dtype=torch.bfloat16, device=dev)
    with torch.cuda.stream(stream):
        uqrt.ultraquant_unified_attention(
            wide_q[..., ::2], cache, block_table, seq_lens, qsl, SCALE,
            wide_out[..., 1::2], max_query_len=int(max(q_lens)),
            max_seq_len=max_seq, sinks=sinks_t, sliding_window=WINDOW)
    torch.cuda.synchronize()
    strided = wide_out[..., 1::2].contiguous()
    ok &= close(strided.view(torch.int16).cpu().numpy().view(np.uint16), want,
                "eager step, strided query and output views")
    untouched = bool(torch.isnan(wide_out[..., ::2]).all())
    print(f"  strided views: elements outside the output view "
          f"{'untouched' if untouched else 'WRITTEN'}")
    ok &= untouched

    # Captured once, replayed on a new step of the same shapes: other
    # contents, other lengths (one more token of context each).
    cache.copy_(to_torch(host_cache))
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=stream):
        serve()
    for replay in range(2):
        cached2 = [c + replay + 1 for c in cached]
        cached2[4] = 0  # still a first chunk
        step2 = Step(cached2, q_lens, blocks_per_seq, num_blocks, tables)
        base = host_cache.copy()
        for s in range(b):  # the extra context tokens
            for tpos in range(cached[s], cached2[s]):
                uqrt.cache_write(base, bf16((1, HK, D)), bf16((1, HK, D)),
                                 np.array([int(tables[s, tpos // BLOCK]) *
                                           BLOCK + tpos % BLOCK], np.int64),
                                 head_dim=D)
        cache.copy_(to_torch(base))
        qkv.copy_(to_torch(step2.qkv))
        seq_lens.copy_(to_torch(step2.lens))
        slots.copy_(to_torch(step2.slots))
        output.fill_(float("nan"))
        graph.replay()
        torch.cuda.synchronize()
        want_cache, want = oracle(step2, base)
        stored = bool((cache.cpu().numpy() == want_cache).all())
        print(f"  replay {replay}: store {'ok' if stored else 'DIFFERS'}")
        ok &= stored
        ok &= close(output.view(torch.int16).cpu().numpy().view(np.uint16),
                    want, f"replay {replay}")
    print("torch varlen: " + ("ok" if ok else "FAIL"))
    return 0 if ok else 1


sys.exit(main())
