"""Shared fixtures: a seeded generator (UQ_TEST_SEED, printed, replayable)
and small problems built through the package's own encoder."""

import os
import time

import numpy as np
import pytest

import uqrt


@pytest.fixture(params=uqrt.HEAD_DIMS, ids=lambda d: f"d{d}")
def head_dim(request):
    """Every supported head dim D."""
    return request.param


@pytest.fixture
def rng(request):
    seed = int(os.environ.get("UQ_TEST_SEED", "0"), 0) or time.time_ns() % 2**32
    print(f"seed: UQ_TEST_SEED={seed} ({request.node.name})")
    return np.random.default_rng(seed)


def random_bf16(rng, shape, scale=1.0):
    return uqrt.bf16_from_float(rng.standard_normal(shape).astype(np.float32) *
                                np.float32(scale))


class Problem:
    """B sequences over a shuffled paged cache of head dim d, encoded with
    cache_write."""

    def __init__(self, rng, batch=2, kv_heads=2, qg=8, block=16, max_seq=70,
                 spare=2, d=256):
        self.batch, self.kv_heads, self.qg, self.block = batch, kv_heads, qg, block
        self.d = d
        self.hq = kv_heads * qg
        self.blocks_per_seq = -(-max_seq // block)
        self.num_blocks = batch * self.blocks_per_seq + spare
        self.cache = uqrt.new_cache(self.num_blocks, block, kv_heads,
                                    head_dim=d)
        order = rng.permutation(self.num_blocks).astype(np.int32)
        self.tables = order[:batch * self.blocks_per_seq].reshape(
            batch, self.blocks_per_seq).copy()
        self.lens = rng.integers(1, max_seq + 1, batch).astype(np.int32)
        self.lens[-1] = max_seq
        for b in range(batch):
            n = int(self.lens[b])
            t = np.arange(n)
            slots = (self.tables[b, t // block].astype(np.int64) * block +
                     t % block)
            k = random_bf16(rng, (n, kv_heads, d))
            v = random_bf16(rng, (n, kv_heads, d))
            uqrt.cache_write(self.cache, k, v, slots, head_dim=d)
        self.query = random_bf16(rng, (batch, self.hq, d))

    def plan(self, ctx, **extra):
        return ctx.plan(num_kv_heads=self.kv_heads, query_group=self.qg,
                        block_size=self.block, num_blocks=self.num_blocks,
                        max_blocks_per_seq=self.blocks_per_seq,
                        max_batch=self.batch, head_dim=self.d, **extra)

    def exact(self, **extra):
        return uqrt.reference_decode_exact(self.query, self.cache, self.tables,
                                           self.lens, self.qg,
                                           head_dim=self.d, **extra)


def assert_close_bf16(got, want, row_ulps=1):
    """The plan runs the kernel-faithful order (fp32 online softmax, bf16 P,
    bf16 partials), the reference float64 with one final rounding: allow a
    few bf16 ulps of the element plus `row_ulps` of the row's scale (one as
    uq-run; varlen steps take two, test_varlen.py)."""
    g = uqrt.float_from_bf16(got).astype(np.float64)
    w = uqrt.float_from_bf16(want).astype(np.float64)
    row_max = np.abs(w).max(axis=-1, keepdims=True)
    bad = np.abs(g - w) > 2.0**-6 * np.abs(w) + row_ulps * 2.0**-8 * row_max
    assert not bad.any(), (f"{bad.sum()} entries outside tolerance, first at "
                           f"{np.argwhere(bad)[0]}")
    assert np.isfinite(g).all()
