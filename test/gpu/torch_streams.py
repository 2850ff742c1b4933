"""One serving object, two CUDA streams, two threads (run on an H100/H200 by
scripts/cuda-test.sh; skips, exit 77, without torch or a GPU).

Each thread issues its own steps on its own stream through the module's
default instance (uqrt.ultraquant_unified_attention), with no
synchronization between the streams: decodes and verify steps long enough
that the partitions go through the plan's workspace. Every output must
equal, bit for bit, the same step run alone before (the serving layer's
plans are per (shape, stream), made for the same sizes, so they walk
alike), and that serial output must match the exact reference.

usage: python3 test/gpu/torch_streams.py   (PYTHONPATH=python, UQRT_LIBRARY)
       UQ_STREAM_CALLS=N calls a thread (default 200)
"""

import os
import sys
import threading

import numpy as np
from gpu_common import bf16, rng, to_torch, torch, within_tolerance

import uqrt

CALLS = int(os.environ.get("UQ_STREAM_CALLS", "200"))

HK, QG, D, BLOCK = 2, 8, 256, 16
HQ = HK * QG


def as_u16(t):
    return t.view(torch.int16).cpu().numpy().view(np.uint16)


def close(got, want):
    return within_tolerance(got, want)[0]


def main():
    b, n = 4, 16384  # 4 sequences of up to 16k tokens: many partitions
    blocks_per_seq = n // BLOCK
    num_blocks = b * blocks_per_seq
    tables = rng.permutation(num_blocks).astype(np.int32).reshape(
        b, blocks_per_seq)
    host_cache = uqrt.new_cache(num_blocks, BLOCK, HK, head_dim=D)
    slots = np.arange(num_blocks * BLOCK, dtype=np.int64)
    uqrt.cache_write(host_cache, bf16((slots.size, HK, D)),
                     bf16((slots.size, HK, D)), slots, head_dim=D)
    cache, block_table = to_torch(host_cache), to_torch(tables)

    # Two steps a thread: a decode (q_len 1) and a verify (q_len 4).
    steps = []
    for q_len in (1, 4, 1, 4):
        lens = rng.integers(n // 2, n + 1, b).astype(np.int32)
        qsl = np.arange(0, b * q_len + 1, q_len, dtype=np.int32)
        query = bf16((b * q_len, HQ, D))
        want = uqrt.reference_decode_exact(query, host_cache, tables, lens,
                                           QG, head_dim=D,
                                           query_start_loc=qsl)
        steps.append(dict(query=to_torch(query), lens=to_torch(lens),
                          qsl=to_torch(qsl), q_len=q_len, want=want))

    def run(step, out):
        uqrt.ultraquant_unified_attention(
            step["query"], cache, block_table, step["lens"], step["qsl"],
            D ** -0.5, out, max_query_len=step["q_len"])

    streams = [torch.cuda.Stream(), torch.cuda.Stream()]
    mine = [steps[0:2], steps[2:4]]
    ok = True
    # Alone, on each thread's stream (this makes its plans, too).
    for stream, own in zip(streams, mine):
        with torch.cuda.stream(stream):
            for step in own:
                step["serial"] = torch.empty_like(step["query"])
                run(step, step["serial"])
        stream.synchronize()
        for step in own:
            good = close(as_u16(step["serial"]), step["want"])
            print(f"  serial q_len {step['q_len']}: "
                  f"{'ok' if good else 'FAIL'} against the exact reference")
            ok &= good

    # Together: every call writes its own output, compared at the end.
    outputs = [[], []]

    def worker(w):
        with torch.cuda.stream(streams[w]):
            for i in range(CALLS):
                step = mine[w][i % 2]
                out = torch.full_like(step["query"], float("nan"))
                run(step, out)
                outputs[w].append((step, out))

    threads = [threading.Thread(target=worker, args=(w,)) for w in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    torch.cuda.synchronize()
    wrong = sum(not torch.equal(out.view(torch.int16),
                                step["serial"].view(torch.int16))
                for w in (0, 1) for step, out in outputs[w])
    print(f"  2 threads x {CALLS} calls on 2 streams: {wrong} outputs differ "
          f"from the serial run")
    ok &= wrong == 0 and all(len(o) == CALLS for o in outputs)
    print("torch streams: " + ("ok" if ok else "FAIL"))
    return 0 if ok else 1


sys.exit(main())
