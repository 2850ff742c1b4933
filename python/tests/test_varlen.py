"""Varlen attention from Python: Plan.run_varlen and the vLLM-shaped
UnifiedAttention (ultraquant_unified_attention's arguments) on the host and
sim backends against the exact causal reference; a serving step of store
then attention on fused QKV views; bad query_start_loc raises and writes
nothing. (On the H200, scripts/cuda-test.sh runs the same calls on torch
CUDA tensors, inside torch.cuda.graph capture: test/gpu/torch_varlen.py.)"""

import numpy as np
import pytest

import conftest
import uqrt
from conftest import random_bf16

POISON = 0x7FC1  # a NaN bf16 no run writes


def assert_close_bf16(got, want):
    """Kernel-faithful order (fp32 online softmax, bf16 P, bf16 partials)
    against the float64 exact reference: a few bf16 ulps of the element
    plus two at the row's scale. Two, not conftest's one: an element that
    cancels to near zero carries the roundings of partials at the row's
    magnitude (the partial's and bf16(p)'s, up to half an ulp each), and a
    varlen step has many rows (1 in 400 of these problems passed one ulp:
    0.0021 against 2^-8 x 0.44 = 0.0017 at D 64)."""
    conftest.assert_close_bf16(got, want, row_ulps=2)


@pytest.fixture(params=["host", "sim"])
def ctx(request):
    with uqrt.Context(request.param) as c:
        yield c


class Step:
    """A serving step over a paged cache: each sequence's cached tokens and
    q_len new ones (the last of its seq_len, already in the cache); query
    rows [T, Hq, D], T = sum of the q_lens."""

    def __init__(self, rng, q_lens, lens, kv_heads=2, qg=8, block=16, d=256,
                 fused=False):
        self.q_lens = np.asarray(q_lens, np.int32)
        self.lens = np.asarray(lens, np.int32)
        self.kv_heads, self.qg, self.block, self.d = kv_heads, qg, block, d
        self.hq = kv_heads * qg
        b = len(lens)
        self.blocks_per_seq = -(-int(self.lens.max()) // block)
        self.num_blocks = b * self.blocks_per_seq + 2
        self.cache = uqrt.new_cache(self.num_blocks, block, kv_heads,
                                    head_dim=d)
        order = rng.permutation(self.num_blocks).astype(np.int32)
        self.tables = order[:b * self.blocks_per_seq].reshape(
            b, self.blocks_per_seq).copy()
        for s in range(b):
            n = int(self.lens[s])
            t = np.arange(n)
            slots = (self.tables[s, t // block].astype(np.int64) * block +
                     t % block)
            uqrt.cache_write(self.cache, random_bf16(rng, (n, kv_heads, d)),
                             random_bf16(rng, (n, kv_heads, d)), slots,
                             head_dim=d)
        self.qsl = np.concatenate([[0], np.cumsum(self.q_lens)]).astype(
            np.int32)
        self.tokens = int(self.qsl[-1])
        if fused:  # the query a slice of a fused QKV tensor
            qkv = random_bf16(rng, (self.tokens, self.hq + 2 * kv_heads, d))
            self.query = qkv[:, :self.hq]
        else:
            self.query = random_bf16(rng, (self.tokens, self.hq, d))

    def exact(self, **extra):
        q = np.ascontiguousarray(self.query)
        return uqrt.reference_decode_exact(q, self.cache, self.tables,
                                           self.lens, self.qg, head_dim=self.d,
                                           query_start_loc=self.qsl, **extra)

    def plan(self, ctx, **extra):
        config = dict(num_kv_heads=self.kv_heads, query_group=self.qg,
                      block_size=self.block, num_blocks=self.num_blocks,
                      max_blocks_per_seq=self.blocks_per_seq,
                      max_batch=len(self.lens), head_dim=self.d,
                      max_query_len=int(self.q_lens.max()),
                      max_num_tokens=self.tokens)
        config.update(extra)
        return ctx.plan(**config)


def test_run_varlen_matches_reference(ctx, rng, head_dim):
    # decodes, a verify chunk, a first chunk (all tokens new), a long one
    s = Step(rng, [1, 4, 9, 40], [30, 50, 9, 90], d=head_dim)
    with s.plan(ctx) as plan:
        shape = plan.varlen_shape(4, s.tokens, int(s.q_lens.max()))
        # 40 tokens x QG 8 = 320 rows: the multi-wave blocks (min_rows 256;
        # D 32's largest block is 16 rows, D 512's 32)
        want = {32: "decode_d32_rows16", 512: "decode_d512_rows32"}.get(
            head_dim, f"decode_mw_d{head_dim}_")
        assert shape["variant"].startswith(want)
        assert shape["block_tokens"] >= 1 and shape["num_blocks"] >= 4
        out = np.full((s.tokens, s.hq, head_dim), POISON, np.uint16)
        plan.run_varlen(s.query, s.cache, s.tables, s.lens, s.qsl, out)
        assert_close_bf16(out, s.exact())


def test_unified_attention_vllm_arguments(ctx, rng):
    # vLLM's call: fused QKV query view, sinks, a sliding window, scale.
    s = Step(rng, [3, 1, 16], [40, 7, 70], fused=True)
    sinks = (rng.standard_normal(s.hq) * 2).astype(np.float32)
    scale = 0.07
    attention = uqrt.UnifiedAttention(context=ctx)
    out = np.full((s.tokens, s.hq, s.d), POISON, np.uint16)
    got = attention(s.query, s.cache, s.tables, s.lens, s.qsl, scale, out,
                    max_query_len=16, max_seq_len=70, sinks=sinks,
                    sliding_window=20)
    assert got is out
    assert_close_bf16(out, s.exact(softmax_scale=scale, sinks=sinks,
                                   sliding_window=20))
    # A later step of more sequences and tokens remakes the plan; max_query_len
    # omitted is read off the numpy query_start_loc.
    t = Step(rng, [2, 2, 2, 2, 5], [10, 20, 30, 40, 50], fused=True)
    out = attention(t.query, t.cache, t.tables, t.lens, t.qsl, scale)
    assert_close_bf16(out, t.exact(softmax_scale=scale))
    attention.close()


def test_unified_attention_strided_views(ctx, rng):
    # A query view with a head-dim step (storage[..., ::2]) and outputs in
    # a stepped and a transposed layout: gathered into and scattered from
    # the plan's dense rows on the device (since 0.10); elements outside
    # the output view keep their poison.
    s = Step(rng, [3, 1, 9], [40, 7, 30], d=128)
    storage = np.repeat(s.query, 2, axis=2)
    query = storage[..., ::2]
    assert query.strides[2] == 4
    attention = uqrt.UnifiedAttention(context=ctx)
    want = s.exact(softmax_scale=0.09)
    wide = np.full((s.tokens, s.hq, 2 * s.d), POISON, np.uint16)
    attention(query, s.cache, s.tables, s.lens, s.qsl, 0.09, wide[..., 1::2])
    assert_close_bf16(wide[..., 1::2], want)
    assert (wide[..., ::2] == POISON).all()
    transposed = np.full((s.tokens, s.d, s.hq), POISON, np.uint16)
    attention(query, s.cache, s.tables, s.lens, s.qsl, 0.09,
              transposed.transpose(0, 2, 1))
    assert_close_bf16(transposed.transpose(0, 2, 1), want)
    attention.close()


def test_serving_step_store_then_attention(ctx, rng):
    # One step: the new tokens' K and V stored from a fused QKV tensor, then
    # attention for their queries over the whole cache.
    hk, qg, d, block = 2, 4, 128, 16
    hq = hk * qg
    q_lens, cached = [4, 1, 6], [20, 33, 0]  # the last a first chunk
    lens = [c + q for c, q in zip(cached, q_lens)]
    s = Step(rng, q_lens, lens, kv_heads=hk, qg=qg, d=d)
    s.cache[:] = 0xFF  # nothing stored yet: unwritten slots are poison
    qkv = random_bf16(rng, (s.tokens, hq + 2 * hk, d))
    query, key, value = qkv[:, :hq], qkv[:, hq:hq + hk], qkv[:, hq + hk:]
    prefix = [(b, t) for b in range(3) for t in range(cached[b])]
    old_k = random_bf16(rng, (len(prefix), hk, d))
    old_v = random_bf16(rng, (len(prefix), hk, d))
    slot = lambda b, t: int(s.tables[b, t // block]) * block + t % block
    uqrt.cache_write(s.cache, old_k, old_v,
                     np.array([slot(b, t) for b, t in prefix], np.int64),
                     head_dim=d)
    new_slots = np.array([slot(b, cached[b] + i) for b in range(3)
                          for i in range(q_lens[b])], np.int64)
    attention = uqrt.UnifiedAttention(context=ctx)
    attention.store(key, value, s.cache, new_slots)
    s.query = query
    out = attention(query, s.cache, s.tables, s.lens, s.qsl, d ** -0.5)
    assert_close_bf16(out, s.exact())
    attention.close()


@pytest.mark.parametrize("case", ["decreasing", "past_seq_len", "negative"])
def test_run_varlen_rejects_bad_offsets(ctx, rng, case):
    s = Step(rng, [2, 3], [10, 3])
    qsl = {"decreasing": [0, 3, 2], "past_seq_len": [0, 1, 5],
           "negative": [-1, 1, 4]}[case]
    bad = np.array(qsl, np.int32)
    with s.plan(ctx, max_num_tokens=8) as plan:
        out = np.full((5, s.hq, s.d), POISON, np.uint16)
        with pytest.raises(uqrt.Error) as e:
            plan.run_varlen(s.query, s.cache, s.tables, s.lens, bad, out,
                            max_query_len=3)
        assert e.value.code == uqrt.StatusCode.INVALID_ARGUMENT
        assert "query_start_loc" in e.value.message
        assert (out == POISON).all()


def test_pit_the_hadamard_is_accepted_any_other_refused(ctx, rng, head_dim):
    # vLLM's PiT: its default (the normalized Sylvester Hadamard, in any
    # float dtype that holds it) changes nothing; another rotation, a wrong
    # shape or non-finite values raise by name and write nothing.
    s = Step(rng, [1, 4], [30, 50], d=head_dim)
    attention = uqrt.UnifiedAttention(context=ctx)
    plain = attention(s.query, s.cache, s.tables, s.lens, s.qsl, None)
    h = uqrt.hadamard(head_dim)
    assert np.allclose(h @ h.T, np.eye(head_dim)) and np.array_equal(h, h.T)
    for pit in (h, h.astype(np.float32), h.astype(np.float16)):
        got = attention(s.query, s.cache, s.tables, s.lens, s.qsl, None,
                        PiT=pit)
        assert np.array_equal(got, plain)
    q, _ = np.linalg.qr(rng.standard_normal((head_dim, head_dim)))
    flipped = h.copy()
    flipped[0, 0] = -flipped[0, 0]
    nan = h.copy()
    nan[3, 5] = np.nan
    for pit, words in ((q, "not the normalized Sylvester Hadamard"),
                       (flipped, "not the normalized Sylvester Hadamard"),
                       (h[:, :head_dim // 2], "shape"),
                       (nan, "non-finite"),
                       ([[1.0]], "expected a torch tensor or numpy array")):
        out = np.full((s.tokens, s.hq, head_dim), POISON, np.uint16)
        with pytest.raises(uqrt.Error) as e:
            attention(s.query, s.cache, s.tables, s.lens, s.qsl, None, out,
                      PiT=pit)
        assert e.value.code == uqrt.StatusCode.INVALID_ARGUMENT
        assert "PiT" in str(e.value) and words in str(e.value)
        assert (out == POISON).all()
    attention.close()
