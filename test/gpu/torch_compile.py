"""uqrt's custom ops under torch.compile and CUDA graphs (run on an
H100/H200 by scripts/cuda-test.sh and scripts/cuda-wheel-test.sh; skips,
exit 77, without torch, a GPU or torch custom ops):

- a model step (store the new tokens' K and V from a fused QKV tensor, then
  attention for their queries, then an elementwise op) compiles with
  torch.compile(fullgraph=True) and gives the eager step's output bit for
  bit (same stream, same plans);
- the compiled step captured in a CUDA graph replays on new contents equal
  to eager;
- an eager step under torch.cuda.set_sync_debug_mode("error"): no host
  synchronization inside the ops;
- vLLM's PiT (the Hadamard) checked on the host once per tensor, no
  synchronization on later calls; another rotation refused;
(the host cost of a call through the op against ctypes is a benchmark:
scripts/host-cost.py).

usage: python3 test/gpu/torch_compile.py   (PYTHONPATH, UQRT_LIBRARY as the
       other GPU scripts, or an installed wheel)
"""

import sys

import numpy as np
from gpu_common import bf16, dev, rng, to_torch, torch

import uqrt
from uqrt import torch_ops

if not torch_ops.registered():
    print(f"SKIP: {torch_ops.why_not()}")
    sys.exit(77)

HK, QG, D, BLOCK = 2, 8, 128, 16
HQ = HK * QG
SCALE = D ** -0.5


def step_inputs(b=4, n=4096, q_lens=(1, 1, 4, 4)):
    blocks_per_seq = n // BLOCK
    num_blocks = b * blocks_per_seq
    tables = rng.permutation(num_blocks).astype(np.int32).reshape(
        b, blocks_per_seq)
    cache = uqrt.new_cache(num_blocks, BLOCK, HK, head_dim=D)
    slots = np.arange(num_blocks * BLOCK, dtype=np.int64)
    uqrt.cache_write(cache, bf16((slots.size, HK, D)),
                     bf16((slots.size, HK, D)), slots, head_dim=D)
    lens = rng.integers(n // 2, n + 1, b).astype(np.int32)
    qsl = np.concatenate([[0], np.cumsum(q_lens)]).astype(np.int32)
    new = np.array([int(tables[s, t // BLOCK]) * BLOCK + t % BLOCK
                    for s in range(b)
                    for t in range(lens[s] - q_lens[s], lens[s])], np.int64)
    t = int(qsl[-1])
    return dict(qkv=to_torch(bf16((t, HQ + 2 * HK, D))), cache=to_torch(cache),
                block_table=to_torch(tables), seq_lens=to_torch(lens),
                qsl=to_torch(qsl), slots=to_torch(new),
                max_query_len=int(max(q_lens)))


def model_step(qkv, cache, block_table, seq_lens, qsl, slots, output,
               max_query_len):
    query, key, value = qkv[:, :HQ], qkv[:, HQ:HQ + HK], qkv[:, HQ + HK:]
    uqrt.store(key, value, cache, slots)
    uqrt.ultraquant_unified_attention(query, cache, block_table, seq_lens,
                                      qsl, SCALE, output,
                                      max_query_len=max_query_len)
    return output * 2.0


def run(fn, x, output):
    return fn(x["qkv"], x["cache"], x["block_table"], x["seq_lens"], x["qsl"],
              x["slots"], output, x["max_query_len"])


def bits(t):
    return t.view(torch.int16) if t.dtype == torch.bfloat16 else t


def no_sync(call, what):
    """Runs call() under torch.cuda.set_sync_debug_mode("error"): whether it
    kept the host unsynchronized (printed as `what`, or FAIL)."""
    torch.cuda.set_sync_debug_mode("error")
    try:
        call()
        print(f"  {what}")
        return True
    except RuntimeError as e:
        print(f"  FAIL: {what} ({e})")
        return False
    finally:
        torch.cuda.set_sync_debug_mode(0)


def main():
    ok = True
    x = step_inputs()
    t = x["qkv"].shape[0]
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    output = torch.empty((t, HQ, D), dtype=torch.bfloat16, device=dev)
    compiled = torch.compile(model_step, fullgraph=True)
    with torch.cuda.stream(stream):
        eager = run(model_step, x, output).clone()  # makes the plans
        ok &= no_sync(lambda: run(model_step, x, output),
                      "sync debug mode: no host synchronization in the ops")
        got = run(compiled, x, output).clone()
    torch.cuda.synchronize()
    same = torch.equal(bits(got), bits(eager))
    print(f"  torch.compile(fullgraph=True): "
          f"{'equal to eager' if same else 'DIFFERS from eager'}")
    ok &= same

    # vLLM's PiT: the Hadamard is read on the host once per tensor, then
    # taken with no synchronization; any other matrix raises by name.
    pit = torch.tensor(uqrt.hadamard(D), dtype=torch.bfloat16, device=dev)
    query = x["qkv"][:, :HQ]
    pit_args = (query, x["cache"], x["block_table"], x["seq_lens"], x["qsl"],
                SCALE, output)
    with torch.cuda.stream(stream):
        uqrt.ultraquant_unified_attention(*pit_args, PiT=pit)
        ok &= no_sync(
            lambda: uqrt.ultraquant_unified_attention(*pit_args, PiT=pit),
            "PiT: the Hadamard checked once, no sync after")
        try:
            uqrt.ultraquant_unified_attention(*pit_args, PiT=pit.T.flip(0))
            print("  PiT: FAIL, another rotation was accepted")
            ok = False
        except uqrt.Error as e:
            print(f"  PiT: another rotation refused ({e})")
    torch.cuda.synchronize()

    # The compiled step in a CUDA graph, replayed on new query, K and V.
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, stream=stream):
        captured = run(compiled, x, output)
    for replay in range(2):
        x["qkv"].copy_(to_torch(bf16(tuple(x["qkv"].shape))))
        graph.replay()
        torch.cuda.synchronize()
        got = captured.clone()
        with torch.cuda.stream(stream):
            want = run(model_step, x, output).clone()
        torch.cuda.synchronize()
        same = torch.equal(bits(got), bits(want))
        print(f"  graph replay {replay}: "
              f"{'equal to eager' if same else 'DIFFERS from eager'}")
        ok &= same

    print("torch compile: " + ("ok" if ok else "FAIL"))
    return 0 if ok else 1


sys.exit(main())
