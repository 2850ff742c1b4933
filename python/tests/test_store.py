"""Plan.store against the host encoder (uqrt.cache_write), byte for byte,
on the host and sim backends and every head dim; a whole serving step
(store, then decode); bad input raises and writes nothing."""

import numpy as np
import pytest

import uqrt
from conftest import Problem, assert_close_bf16, random_bf16


@pytest.fixture(params=["host", "sim"])
def ctx(request):
    with uqrt.Context(request.param) as c:
        yield c


def poisoned_cache(blocks, block, hk, padded=None, d=256):
    cache = uqrt.new_cache(blocks, block, hk, padded, head_dim=d)
    cache.reshape(-1)[:] = (np.arange(cache.size) * 7 ^ 0xA5).astype(np.uint8)
    return cache


def test_store_matches_cache_write(ctx, rng, head_dim):
    blocks, block, hk, hq, t, d = 4, 16, 2, 16, 11, head_dim
    padded = uqrt.slot_stride(d) + 4
    # key and value are views of a fused QKV tensor [T, Hq + 2 Hk, D].
    fused = random_bf16(rng, (t, hq + 2 * hk, d), 4.0)
    fused[2, hq, :32] = uqrt.bf16_from_float(np.float32(np.inf))  # zero group
    key, value = fused[:, hq:hq + hk], fused[:, hq + hk:]
    slots = rng.choice(blocks * block, t, replace=False).astype(np.int64)
    slots[[3, 7]] = -1
    slots[9] = slots[8]  # a repeated slot: the later token's data
    key[9], value[9] = key[8], value[8]
    want = poisoned_cache(blocks, block, hk, padded, d)
    got = want.copy()
    uqrt.cache_write(want, key, value, slots, head_dim=d)
    stride = ((hq + 2 * hk) * d, d)
    with ctx.plan(num_kv_heads=hk, query_group=8, block_size=block,
                  num_blocks=blocks, max_blocks_per_seq=blocks, head_dim=d,
                  padded_slot=padded, max_store_tokens=16, key_strides=stride,
                  value_strides=stride) as plan:
        plan.store(key, value, slots, got)
        np.testing.assert_array_equal(got, want)
        if ctx.backend == "sim":
            assert plan.last_store_counters()["workgroups"] == t * hk


def test_serving_step(ctx, rng, head_dim):
    # Each step stores every sequence's new token, then decodes with it.
    p = Problem(rng, batch=2, kv_heads=1, max_seq=40, d=head_dim)
    cap = p.blocks_per_seq * p.block
    with p.plan(ctx) as plan:
        for step in range(3):
            grow = p.lens < cap
            pos = p.lens.astype(np.int64)
            slots = np.where(grow, p.tables[np.arange(p.batch),
                                            np.minimum(pos, cap - 1) //
                                            p.block].astype(np.int64) *
                             p.block + pos % p.block, -1)
            k = random_bf16(rng, (p.batch, 1, head_dim))
            v = random_bf16(rng, (p.batch, 1, head_dim))
            want = p.cache.copy()
            uqrt.cache_write(want, k, v, slots, head_dim=head_dim)
            plan.store(k, v, slots, p.cache)
            np.testing.assert_array_equal(p.cache, want)
            p.lens = p.lens + grow.astype(np.int32)
            p.query = random_bf16(rng, p.query.shape)
            out = np.zeros((p.batch, p.hq, head_dim), np.uint16)
            plan.run(p.query, p.cache, p.tables, p.lens, out)
            assert_close_bf16(out, p.exact())


BAD = {
    "slot_past_cache": (lambda a: a["slot_mapping"].__setitem__(1, 64),
                        uqrt.StatusCode.OUT_OF_RANGE),
    "float_key": (lambda a: a.update(key=a["key"].astype(np.float32)),
                  uqrt.StatusCode.INVALID_ARGUMENT),
    "int32_slots": (lambda a: a.update(
        slot_mapping=a["slot_mapping"].astype(np.int32)),
        uqrt.StatusCode.INVALID_ARGUMENT),
    "value_tokens": (lambda a: a.update(value=a["value"][:2]),
                     uqrt.StatusCode.INVALID_ARGUMENT),
    "key_strided": (lambda a: a.update(key=np.repeat(a["key"], 2, 0)[::2]),
                    uqrt.StatusCode.INVALID_ARGUMENT),
    "readonly_cache": (lambda a: a["kv_cache"].setflags(write=False),
                       uqrt.StatusCode.INVALID_ARGUMENT),
    "too_many_tokens": (lambda a: a.update(
        key=np.zeros((5,) + a["key"].shape[1:], np.uint16),
        value=np.zeros((5,) + a["key"].shape[1:], np.uint16),
        slot_mapping=np.arange(5, dtype=np.int64)),
        uqrt.StatusCode.INVALID_ARGUMENT),
    "key_head_dim": (lambda a: a.update(
        key=a["key"][:, :, :a["key"].shape[2] // 2].copy()),
                     uqrt.StatusCode.INVALID_ARGUMENT),
    "value_head_dim": (lambda a: a.update(
        value=np.concatenate([a["value"]] * 2, axis=2)),
        uqrt.StatusCode.INVALID_ARGUMENT),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_store_rejects_and_writes_nothing(ctx, rng, case, head_dim):
    cache = poisoned_cache(4, 16, 2, d=head_dim)
    before = cache.copy()
    args = dict(key=random_bf16(rng, (3, 2, head_dim)),
                value=random_bf16(rng, (3, 2, head_dim)),
                slot_mapping=np.array([0, 5, 63], np.int64), kv_cache=cache)
    mutate, code = BAD[case]
    mutate(args)
    with ctx.plan(num_kv_heads=2, query_group=8, block_size=16, num_blocks=4,
                  max_blocks_per_seq=4, max_batch=4,
                  head_dim=head_dim) as plan:
        with pytest.raises(uqrt.Error) as e:
            plan.store(**args)
    assert e.value.code == code, e.value
    np.testing.assert_array_equal(cache, before)


def test_store_nothing(ctx):
    cache = poisoned_cache(2, 16, 1)
    before = cache.copy()
    empty = np.zeros((0, 1, 256), np.uint16)
    with ctx.plan(num_kv_heads=1, query_group=8, block_size=16, num_blocks=2,
                  max_blocks_per_seq=2) as plan:
        plan.store(empty, empty, np.zeros(0, np.int64), cache)
    np.testing.assert_array_equal(cache, before)
