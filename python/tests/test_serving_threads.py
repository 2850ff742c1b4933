"""The serving layer under concurrent callers and at the edges of a step:

- threads sharing one UnifiedAttention (and the module's default instance)
  on steps of 3 to 33 sequences over one cache, so that plans are outgrown
  while other threads run them: every output against the exact reference,
  poisoned first, so a race shows as a wrong, foreign or unwritten row;
- a decode step padded to more rows than sequences, an empty step, the
  plan size past 32,768 sequences, and the arguments checked by type.

UQ_THREADS (default 8) and UQ_THREAD_CALLS (default 100 a thread) scale the
thread tests; `UQ_THREAD_CALLS=500 pytest -k threads` is the 8 x 500 run.
"""

import os
import threading

import numpy as np
import pytest

import uqrt
from conftest import random_bf16
from test_varlen import POISON, assert_close_bf16

THREADS = int(os.environ.get("UQ_THREADS", "8"))
CALLS = int(os.environ.get("UQ_THREAD_CALLS", "100"))
HK, QG, D, BLOCK, WIDTH = 2, 4, 64, 16, 6  # WIDTH: block-table columns


@pytest.fixture(params=["host", "sim"])
def ctx(request):
    with uqrt.Context(request.param) as c:
        yield c


class SharedCache:
    """One paged cache that every step's sequences read (so every step has
    the same plan key: same cache, same table width, same strides)."""

    def __init__(self, rng, max_seqs=33):
        self.num_blocks = max_seqs * WIDTH
        self.cache = uqrt.new_cache(self.num_blocks, BLOCK, HK, head_dim=D)
        slots = np.arange(self.num_blocks * BLOCK, dtype=np.int64)
        uqrt.cache_write(self.cache, random_bf16(rng, (slots.size, HK, D)),
                         random_bf16(rng, (slots.size, HK, D)), slots,
                         head_dim=D)

    def step(self, rng, batch, max_q_len=4):
        """`batch` sequences of random lengths and q_lens over random
        blocks, with their exact outputs."""
        tables = rng.permutation(self.num_blocks)[:batch * WIDTH].reshape(
            batch, WIDTH).astype(np.int32)
        lens = rng.integers(1, WIDTH * BLOCK + 1, batch).astype(np.int32)
        q_lens = np.minimum(rng.integers(1, max_q_len + 1, batch), lens)
        qsl = np.concatenate([[0], np.cumsum(q_lens)]).astype(np.int32)
        query = random_bf16(rng, (int(qsl[-1]), HK * QG, D))
        want = uqrt.reference_decode_exact(query, self.cache, tables, lens, QG,
                                           head_dim=D, query_start_loc=qsl)
        return dict(query=query, tables=tables, lens=lens, qsl=qsl,
                    want=want)


def call(attention, cache, step):
    out = np.full(step["query"].shape, POISON, np.uint16)
    attention(step["query"], cache.cache, step["tables"], step["lens"],
              step["qsl"], D ** -0.5, out)
    return out


def hammer(worker_steps, run):
    """Runs each worker's steps CALLS times round robin on its own thread;
    returns the failures (exceptions and wrong outputs), never raising in a
    thread."""
    failures = []

    def worker(steps):
        try:
            for i in range(CALLS):
                step = steps[i % len(steps)]
                out = run(step)
                try:
                    assert_close_bf16(out, step["want"])
                except AssertionError as e:
                    failures.append(f"call {i}: {e}")
                    return
        except Exception as e:  # noqa: BLE001 - reported below
            failures.append(f"{type(e).__name__}: {e}")

    threads = [threading.Thread(target=worker, args=(steps,))
               for steps in worker_steps]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return failures


def test_threads_share_one_instance(ctx, rng):
    # Thread 0 repeats a 3-sequence step while the others bring steps of
    # 4, 5, 9, 17 and 33 sequences: the plan is outgrown under thread 0's
    # runs (a use after free before plans were counted).
    cache = SharedCache(rng)
    sizes = [3, 4, 5, 9, 17, 33, 7, 2]
    worker_steps = [[cache.step(rng, sizes[w % len(sizes)]),
                     cache.step(rng, sizes[(w + 3) % len(sizes)])]
                    for w in range(THREADS)]
    worker_steps[0] = [cache.step(rng, 3)]
    attention = uqrt.UnifiedAttention(context=ctx)
    failures = hammer(worker_steps, lambda s: call(attention, cache, s))
    attention.close()
    assert not failures, failures[:3]


def test_threads_share_the_default_instance(rng, monkeypatch):
    # ultraquant_unified_attention's default instance, made by the first of
    # the threads to call (auto backend: the simulator here).
    import uqrt.serving as serving
    monkeypatch.setattr(serving, "_default", None)
    cache = SharedCache(rng, max_seqs=8)
    worker_steps = [[cache.step(rng, 1 + w % 8)] for w in range(THREADS)]

    def run(step):
        out = np.full(step["query"].shape, POISON, np.uint16)
        uqrt.ultraquant_unified_attention(step["query"], cache.cache,
                                          step["tables"], step["lens"],
                                          step["qsl"], D ** -0.5, out)
        return out

    failures = hammer(worker_steps, run)
    serving._default.close()
    assert not failures, failures[:3]


def test_plan_is_closed_after_its_run(ctx, rng):
    # An outgrown plan is closed by the last call that was running it.
    cache = SharedCache(rng, max_seqs=9)
    attention = uqrt.UnifiedAttention(context=ctx)
    small, large = cache.step(rng, 2), cache.step(rng, 9)
    call(attention, cache, small)
    (entry,) = attention._plans.values()
    call(attention, cache, large)
    (grown,) = attention._plans.values()
    assert grown is not entry and entry.retired and entry.users == 0
    assert entry.plan._handle is None and grown.plan._handle is not None
    attention.close()


def test_padded_decode_step(ctx, rng):
    # 3 decodes in 9 rows (a CUDA graph's padded token count): rows 3..8
    # are not written.
    cache = SharedCache(rng, max_seqs=3)
    step = cache.step(rng, 3, max_q_len=1)
    query = np.zeros((9, HK * QG, D), np.uint16)
    query[:3] = step["query"]
    out = np.full(query.shape, POISON, np.uint16)
    with uqrt.UnifiedAttention(context=ctx) as attention:
        attention(query, cache.cache, step["tables"], step["lens"],
                  step["qsl"], D ** -0.5, out, max_query_len=1)
    assert_close_bf16(out[:3], step["want"])
    assert (out[3:] == POISON).all()


def test_empty_step(ctx, rng):
    cache = SharedCache(rng, max_seqs=2)
    step = cache.step(rng, 2)
    with uqrt.UnifiedAttention(context=ctx) as attention:
        empty = np.zeros((0, HK * QG, D), np.uint16)
        got = attention(empty, cache.cache, step["tables"], step["lens"],
                        step["qsl"], D ** -0.5)
        assert got.shape == empty.shape
        out = np.full(step["query"].shape, POISON, np.uint16)
        attention(step["query"], cache.cache, step["tables"][:0],
                  step["lens"][:0], step["qsl"][:1], D ** -0.5, out)
        assert (out == POISON).all()
        attention.store(np.zeros((0, HK, D), np.uint16),
                        np.zeros((0, HK, D), np.uint16), cache.cache,
                        np.zeros(0, np.int64))


def test_sizes_capped_at_the_limits(rng):
    # 40,000 sequences: the plan grows to libuqrt's 65,535, not to the next
    # power of two (65,536 was refused), on the host backend.
    batch, hq = 40000, 1
    cache = uqrt.new_cache(1, BLOCK, 1, head_dim=D)
    slots = np.arange(BLOCK, dtype=np.int64)
    uqrt.cache_write(cache, random_bf16(rng, (BLOCK, 1, D)),
                     random_bf16(rng, (BLOCK, 1, D)), slots, head_dim=D)
    tables = np.zeros((batch, 1), np.int32)
    lens = rng.integers(1, BLOCK + 1, batch).astype(np.int32)
    qsl = np.arange(batch + 1, dtype=np.int32)
    query = random_bf16(rng, (batch, hq, D))
    with uqrt.Context("host") as ctx, uqrt.UnifiedAttention(
            context=ctx) as attention:
        out = attention(query, cache, tables, lens, qsl, None)
        (entry,) = attention._plans.values()
        assert entry.size[0] == 65535
    rows = rng.choice(batch, 64, replace=False)
    want = uqrt.reference_decode_exact(query[rows], cache, tables[rows],
                                       lens[rows], 1, head_dim=D)
    assert_close_bf16(out[rows], want)


@pytest.mark.parametrize("name, value, message", [
    ("scale", "0.1", "scale must be a real number"),
    ("scale", True, "scale must be a real number"),
    ("scale", 0, "scale must be finite and > 0"),
    ("scale", -0.1, "scale must be finite and > 0"),
    ("scale", float("nan"), "scale must be finite and > 0"),
    ("sliding_window", True, "sliding_window must be an int"),
    ("sliding_window", 2.5, "sliding_window must be an int"),
    ("sliding_window", "3", "sliding_window must be an int"),
    ("sliding_window", -1, "sliding_window must be >= 0"),
    ("max_query_len", 0, "max_query_len must be >= 1"),
    ("max_query_len", -2, "max_query_len must be >= 0"),
    ("max_query_len", True, "max_query_len must be an int"),
])
def test_arguments_checked_by_type(ctx, rng, name, value, message):
    cache = SharedCache(rng, max_seqs=2)
    step = cache.step(rng, 2)
    args = dict(scale=D ** -0.5)
    args[name] = value
    out = np.full(step["query"].shape, POISON, np.uint16)
    with uqrt.UnifiedAttention(context=ctx) as attention:
        with pytest.raises(uqrt.Error) as e:
            attention(step["query"], cache.cache, step["tables"],
                      step["lens"], step["qsl"], output=out, **args)
    assert e.value.code == uqrt.StatusCode.INVALID_ARGUMENT
    assert message in e.value.message
    assert (out == POISON).all()


def test_scale_none_is_one_over_sqrt_d(ctx, rng):
    cache = SharedCache(rng, max_seqs=2)
    step = cache.step(rng, 2)
    with uqrt.UnifiedAttention(context=ctx) as attention:
        a = attention(step["query"], cache.cache, step["tables"],
                      step["lens"], step["qsl"], None)
        b = attention(step["query"], cache.cache, step["tables"],
                      step["lens"], step["qsl"], np.float32(D ** -0.5))
    assert (a == b).all()
    assert_close_bf16(a, step["want"])
