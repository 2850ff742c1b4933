"""fp16 activations (since 0.9) from Python on the host backend: Plan(dtype=
"f16") and UnifiedAttention on numpy float16 (store, then varlen attention)
against the exact reference in fp16; fp16 and bf16 of the same values store
the same cache bytes; the dtype refusals. (The sim, hip and cuda kernels
take fp16 through their own side; their cases come with it.)"""

import numpy as np
import pytest

import uqrt
from uqrt import StatusCode

D, HK, QG, BLOCK = 64, 2, 4, 16
HQ = HK * QG


def assert_close_f16(got, want):
    """The host runs the kernel-faithful order (bf16 P and partials), the
    exact reference float64, each rounded to fp16 at the end: the bf16
    tolerance of the bf16 tests (a few bf16 ulps of the element, two at the
    row's scale) holds, fp16's own rounding being finer than bf16's."""
    assert got.dtype == np.float16 and want.dtype == np.float16
    g, w = got.astype(np.float64), want.astype(np.float64)
    row_max = np.abs(w).max(axis=-1, keepdims=True)
    bad = np.abs(g - w) > 2.0**-6 * np.abs(w) + 2 * 2.0**-8 * row_max
    assert not bad.any(), (f"{bad.sum()} entries outside tolerance, first at "
                           f"{np.argwhere(bad)[0]}")
    assert np.isfinite(g).all()


def both_dtypes(rng, shape):
    """Values both fp16 and bf16 hold exactly (8 significant bits, fp16's
    normal range), as (float16, bf16 bits)."""
    m = rng.integers(128, 256, shape).astype(np.float32)
    x = np.ldexp(m, rng.integers(-16, -5, shape)) * rng.choice([-1, 1], shape)
    x = x.astype(np.float32)
    h, b = x.astype(np.float16), uqrt.bf16_from_float(x)
    assert (h.astype(np.float32) == uqrt.float_from_bf16(b)).all()
    return h, b


class Step:
    """A varlen step: `lens` cached tokens a sequence (stored through
    `attention.store` or cache_write), the last q_lens of them the query."""

    def __init__(self, rng, lens=(37, 5, 90), q_lens=(1, 5, 17)):
        self.lens = np.asarray(lens, np.int32)
        self.q_lens = np.asarray(q_lens, np.int32)
        self.b = len(lens)
        self.blocks_per_seq = -(-int(self.lens.max()) // BLOCK)
        self.num_blocks = self.b * self.blocks_per_seq + 1
        order = rng.permutation(self.num_blocks).astype(np.int32)
        self.tables = order[:self.b * self.blocks_per_seq].reshape(
            self.b, self.blocks_per_seq).copy()
        self.slots = np.concatenate([
            self.tables[s, np.arange(n) // BLOCK].astype(np.int64) * BLOCK +
            np.arange(n) % BLOCK for s, n in enumerate(self.lens)])
        self.qsl = np.concatenate([[0], np.cumsum(self.q_lens)]).astype(
            np.int32)
        self.tokens = int(self.qsl[-1])

    def cache(self):
        return uqrt.new_cache(self.num_blocks, BLOCK, HK, head_dim=D)


def test_unified_attention_f16_host():
    rng = np.random.default_rng(39)
    step = Step(rng)
    n = int(step.lens.sum())
    key = rng.standard_normal((n, HK, D)).astype(np.float16)
    value = rng.standard_normal((n, HK, D)).astype(np.float16)
    query = rng.standard_normal((step.tokens, HQ, D)).astype(np.float16)
    with uqrt.UnifiedAttention("host") as attention:
        cache = step.cache()
        attention.store(key, value, cache, step.slots)
        want_cache = step.cache()
        uqrt.cache_write(want_cache, key, value, step.slots, head_dim=D)
        assert (cache == want_cache).all()
        out = attention(query, cache, step.tables, step.lens, step.qsl, None)
        assert out.dtype == np.float16
        exact = uqrt.reference_decode_exact(query, cache, step.tables,
                                            step.lens, QG, head_dim=D,
                                            query_start_loc=step.qsl)
        assert exact.dtype == np.float16
        assert_close_f16(out, exact)
        # A bf16 step of the same shape is another plan (the dtype is part
        # of its key), and both keep working.
        query16 = uqrt.bf16_from_float(query.astype(np.float32))
        out_b = attention(query16, cache, step.tables, step.lens, step.qsl,
                          None)
        assert out_b.dtype == np.uint16
        again = attention(query, cache, step.tables, step.lens, step.qsl, None,
                          output=np.empty_like(query))
        assert (again == out).all()
        assert sum(k[0] == "attention" for k in attention._plans) == 2


def test_f16_and_bf16_of_the_same_values():
    """fp16 inputs convert to float exactly, so values both dtypes hold
    store the same bytes and attend to the same output up to the final
    rounding (fp16's finer than bf16's)."""
    rng = np.random.default_rng(40)
    step = Step(rng)
    n = int(step.lens.sum())
    kh, kb = both_dtypes(rng, (n, HK, D))
    vh, vb = both_dtypes(rng, (n, HK, D))
    qh, qb = both_dtypes(rng, (step.tokens, HQ, D))
    with uqrt.UnifiedAttention("host") as attention:
        cache_h, cache_b = step.cache(), step.cache()
        attention.store(kh, vh, cache_h, step.slots)
        attention.store(kb, vb, cache_b, step.slots)
        assert (cache_h == cache_b).all()
        out_h = attention(qh, cache_h, step.tables, step.lens, step.qsl, None)
        out_b = attention(qb, cache_b, step.tables, step.lens, step.qsl, None)
    h = out_h.astype(np.float64)
    b = uqrt.float_from_bf16(out_b).astype(np.float64)
    assert (np.abs(h - b) <= 2.0**-8 * np.abs(b) + 2.0**-11 * np.abs(h) +
            2.0**-25).all()


def test_plan_f16_host():
    rng = np.random.default_rng(41)
    step = Step(rng)
    n = int(step.lens.sum())
    cache = step.cache()
    uqrt.cache_write(cache,
                     rng.standard_normal((n, HK, D)).astype(np.float16),
                     rng.standard_normal((n, HK, D)).astype(np.float16),
                     step.slots, head_dim=D)
    query = rng.standard_normal((step.tokens, HQ, D)).astype(np.float16)
    with uqrt.Context("host") as ctx:
        plan = ctx.plan(num_kv_heads=HK, query_group=QG, block_size=BLOCK,
                        num_blocks=step.num_blocks,
                        max_blocks_per_seq=step.blocks_per_seq,
                        max_batch=step.b, head_dim=D,
                        max_query_len=int(step.q_lens.max()),
                        max_num_tokens=step.tokens, dtype="f16")
        out = np.full((step.tokens, HQ, D), np.nan, np.float16)
        plan.run_varlen(query, cache, step.tables, step.lens, step.qsl, out,
                        num_seqs=step.b)
        exact = uqrt.reference_decode_exact(query, cache, step.tables,
                                            step.lens, QG, head_dim=D,
                                            query_start_loc=step.qsl)
        assert_close_f16(out, exact)
        # The plan's buffers are checked against its dtype, both ways.
        with pytest.raises(uqrt.Error, match="query: dtype <u2 is not f16") \
                as e:
            plan.run_varlen(query.view(np.uint16), cache, step.tables,
                            step.lens, step.qsl, out, num_seqs=step.b)
        assert e.value.code == StatusCode.INVALID_ARGUMENT
        bf16_plan = ctx.plan(num_kv_heads=HK, query_group=QG,
                             block_size=BLOCK, num_blocks=step.num_blocks,
                             max_blocks_per_seq=step.blocks_per_seq,
                             max_batch=step.b, head_dim=D,
                             max_query_len=int(step.q_lens.max()),
                             max_num_tokens=step.tokens)
        with pytest.raises(uqrt.Error, match="query: dtype <f2 is not bf16"):
            bf16_plan.run_varlen(query, cache, step.tables, step.lens,
                                 step.qsl, out.view(np.uint16),
                                 num_seqs=step.b)


def test_dtype_refusals():
    rng = np.random.default_rng(42)
    step = Step(rng)
    cache = step.cache()
    q32 = np.zeros((step.tokens, HQ, D), np.float32)
    q16 = q32.astype(np.float16)
    with uqrt.Context("host") as ctx:
        with pytest.raises(uqrt.Error, match="dtype 'f32'") as e:
            ctx.plan(num_kv_heads=HK, query_group=QG, block_size=BLOCK,
                     num_blocks=4, max_blocks_per_seq=2, head_dim=D,
                     dtype="f32")
        assert e.value.code == StatusCode.INVALID_ARGUMENT
    with uqrt.UnifiedAttention("host") as attention:
        with pytest.raises(uqrt.Error, match="query: dtype float32 is not an "
                                             "activation dtype") as e:
            attention(q32, cache, step.tables, step.lens, step.qsl, None)
        assert e.value.code == StatusCode.INVALID_ARGUMENT
        with pytest.raises(uqrt.Error, match=r"output: dtype uint16 \(bf16\) "
                                             r"differs from the query's "
                                             r"\(f16\)"):
            attention(q16, cache, step.tables, step.lens, step.qsl, None,
                      output=np.zeros(q16.shape, np.uint16))
        kv = np.zeros((2, HK, D), np.float16)
        with pytest.raises(uqrt.Error, match=r"value: dtype uint16 \(bf16\) "
                                             r"differs from the key's"):
            attention.store(kv, kv.view(np.uint16), cache,
                            np.arange(2, dtype=np.int64))
        with pytest.raises(uqrt.Error, match="key: dtype float64"):
            attention.store(kv.astype(np.float64), kv, cache,
                            np.arange(2, dtype=np.int64))
        assert not attention._plans  # nothing was made for a refused call


def test_format_helpers_f16():
    """slot_encode and cache_write take float16 where they take bf16."""
    rng = np.random.default_rng(43)
    kh, kb = both_dtypes(rng, (D,))
    vh, vb = both_dtypes(rng, (D,))
    assert (uqrt.slot_encode(kh, vh) == uqrt.slot_encode(kb, vb)).all()
    cache = uqrt.new_cache(1, BLOCK, 1, head_dim=D)
    with pytest.raises(uqrt.Error, match="value: dtype <u2 is not f16"):
        uqrt.cache_write(cache, kh[None, None], vb[None, None],
                         np.zeros(1, np.int64), head_dim=D)
    uqrt.cache_write(cache, kh[None, None], vh[None, None],
                     np.zeros(1, np.int64), head_dim=D)
    assert (cache[0, 0, 0, :D + D // 16] == uqrt.slot_encode(kh, vh)).all()
