"""The host API (encoder, cache writer/reader, references, policy) against
independent numpy computations, for every head dim."""

import ctypes

import numpy as np
import pytest

import uqrt
from uqrt._library import lib
from conftest import random_bf16

FP4 = np.array([0, .5, 1, 1.5, 2, 3, 4, 6, -0., -.5, -1, -1.5, -2, -3, -4, -6])


def hadamard(d):
    h = np.array([[1.0]])
    while h.shape[0] < d:
        h = np.block([[h, h], [h, -h]])
    return h / np.sqrt(d)


def e4m3(x):
    """Round normal float64 values to E4M3 (3 mantissa bits, ties to even)."""
    m, e = np.frexp(x)
    return np.ldexp(np.round(m * 16) / 16, e)


def numpy_slot_decode(slot):
    """Independent decode of a D + D/16-byte slot (nibbles, UE8M0 bytes):
    K codes [0, D/2), K scales [.., D/2 + D/32), V codes, V scales."""
    d = len(slot) // 17 * 16
    g = d // 32

    def part(codes, scales):
        c = codes.reshape(g, 16)
        nib = np.stack([c & 15, c >> 4], axis=-1).reshape(g, 32)
        sc = np.where(scales == 0, 0.0, 2.0 ** (scales.astype(float) - 127))
        return (FP4[nib] * sc[:, None]).reshape(d)
    k_end = d // 2 + g
    return (part(slot[:d // 2], slot[d // 2:k_end]),
            part(slot[k_end:k_end + d // 2], slot[k_end + d // 2:]))


def test_bf16_matches_library(rng):
    x = np.concatenate([rng.standard_normal(1000).astype(np.float32) *
                        np.float32(1e3),
                        np.array([0, -0., np.inf, -np.inf, np.nan, 3.4e38,
                                  1e-40, 1.00390625, 1.01171875], np.float32)])
    got = uqrt.bf16_from_float(x)
    want = np.array([lib.uq_float_to_bf16(float(v)) for v in x], np.uint16)
    np.testing.assert_array_equal(got, want)
    back = uqrt.float_from_bf16(got[:1000])
    assert np.all(np.abs(back - x[:1000]) <= np.abs(x[:1000]) * 2.0**-8)


def test_wht_is_the_normalized_hadamard(rng, head_dim):
    x = rng.standard_normal(head_dim).astype(np.float32)
    got = uqrt.wht(x)
    np.testing.assert_allclose(got, hadamard(head_dim) @ x.astype(np.float64),
                               rtol=0, atol=1e-5 * np.abs(x).sum())
    np.testing.assert_allclose(uqrt.wht(got), x, atol=1e-5)
    # The f32 scale: a one-hot rotates to +-uq_wht_scale(D) exactly.
    e0 = np.zeros(head_dim, np.float32)
    e0[0] = 1
    assert np.all(uqrt.wht(e0) == np.float32(1 / np.sqrt(head_dim)))
    if head_dim == 256:
        np.testing.assert_array_equal(uqrt.wht256(x), got)


def test_group_encode_known_values():
    # absmax 6: s = 0.936, exp 0 (byte 127), codes are the values themselves.
    x = np.zeros(32, np.float32)
    x[0], x[1], x[2], x[3] = 6, -0.75, 0.75, -6
    codes, scale = uqrt.group_encode(x)
    assert scale == 127
    assert codes[0] == (7 | (10 << 4))  # 6, -0.75 -> -1 (tie toward -inf)
    assert codes[1] == (1 | (15 << 4))  # 0.75 -> 0.5, -6
    assert uqrt.group_encode(np.zeros(32, np.float32))[1] == 0
    x[5] = np.nan  # a non-finite group is a zero group
    codes, scale = uqrt.group_encode(x)
    assert scale == 0 and not codes.any()


def test_slot_encode_decode(rng, head_dim):
    d = head_dim
    k, v = random_bf16(rng, d), random_bf16(rng, d, 10.0)
    slot = uqrt.slot_encode(k, v)
    assert slot.shape == (uqrt.slot_content_bytes(d),) == (d + d // 16,)
    k_rot, v_dec = uqrt.slot_decode(slot)
    nk, nv = numpy_slot_decode(slot)
    np.testing.assert_array_equal(k_rot, nk)
    np.testing.assert_array_equal(v_dec, nv)
    # The quantization error per group: absmax / 2^exp lies in [4.5, 9.1]
    # (s = 0.156 absmax rounded to a power of two within sqrt 2), so values
    # clipped at level 6 lose at most 3.1 of 9.1 units and the others half a
    # step (<= 1 unit): under 0.34 of the group's absmax either way.
    kr = (hadamard(d) @
          uqrt.float_from_bf16(k).astype(np.float64)).reshape(d // 32, 32)
    err = np.abs(k_rot.reshape(d // 32, 32) - kr).max(axis=1)
    assert np.all(err <= 0.34 * np.abs(kr).max(axis=1))


def test_cache_write_strided_skips_and_untouched_bytes(rng, head_dim):
    d, content = head_dim, uqrt.slot_content_bytes(head_dim)
    blocks, block, hk, padded = 5, 16, 3, uqrt.slot_stride(d) + 16
    cache = uqrt.new_cache(blocks, block, hk, padded, fill=0xA5, head_dim=d)
    poison = cache.copy()
    t = 9
    # A fused QKV-like tensor: per token [q heads..., k heads, v heads].
    fused = random_bf16(rng, (t, 4 + 2 * hk, d), 3.0)
    key, value = fused[:, 4:4 + hk], fused[:, 4 + hk:]
    slots = rng.choice(blocks * block, t, replace=False).astype(np.int64)
    slots[3] = -1  # skipped (padding)
    uqrt.cache_write(cache, key, value, slots, head_dim=d)
    flat, before = cache.reshape(-1, hk, padded), poison.reshape(-1, hk, padded)
    written = np.zeros(blocks * block, bool)
    for i, s in enumerate(slots):
        if s < 0:
            continue
        written[s] = True
        for h in range(hk):
            want = uqrt.slot_encode(key[i, h].copy(), value[i, h].copy())
            np.testing.assert_array_equal(flat[s, h, :content], want)
    np.testing.assert_array_equal(flat[written][:, :, content:],
                                  before[written][:, :, content:])
    np.testing.assert_array_equal(flat[~written], before[~written])
    k_rot, v = uqrt.cache_read_slot(cache, slots[0] // block,
                                    slots[0] % block, 1, head_dim=d)
    nk, nv = numpy_slot_decode(flat[slots[0], 1, :content])
    np.testing.assert_array_equal(k_rot, nk)
    np.testing.assert_array_equal(v, nv)


def test_cache_write_unaligned_views(rng, head_dim):
    """bf16 views that start at an odd byte (numpy allows them) encode as
    their aligned copies do: the encoder reads bf16 with memcpy (issue 29:
    a misaligned load under UBSan)."""
    d, t, hk = head_dim, 3, 2
    key, value = (random_bf16(rng, (t, hk, d), 2.0) for _ in range(2))
    def odd(a):
        raw = np.zeros(a.nbytes + 1, np.uint8)
        view = raw[1:].view(np.uint16).reshape(a.shape)
        view[...] = a
        assert not view.flags.aligned
        return view
    slots = np.arange(t, dtype=np.int64)
    want = uqrt.new_cache(1, 16, hk, head_dim=d)
    got = want.copy()
    uqrt.cache_write(want, key, value, slots, head_dim=d)
    uqrt.cache_write(got, odd(key), odd(value), slots, head_dim=d)
    np.testing.assert_array_equal(got, want)


def test_cache_write_unaligned_slot_mapping(rng):
    """The slot mapping is read in place: at an odd address it is refused
    with a clear error, never a misaligned load."""
    key = random_bf16(rng, (1, 1, 256), 1.0)
    raw = np.zeros(9, np.uint8)
    slots = raw[1:].view(np.int64)
    cache = uqrt.new_cache(1, 16, 1)
    with pytest.raises(uqrt.Error, match="slot_mapping at .* is not 8-byte "
                                         "aligned"):
        uqrt.cache_write(cache, key, key, slots)


def test_cache_write_no_tokens(head_dim):
    """A step with no new tokens (a first chunk's empty context) writes
    nothing, whatever strides numpy gave the empty arrays (often 0)."""
    cache = uqrt.new_cache(2, 16, 2, fill=0x5A, head_dim=head_dim)
    before = cache.copy()
    empty = uqrt.bf16_from_float(np.zeros((0, 2, head_dim), np.float32))
    uqrt.cache_write(cache, empty, empty, np.zeros(0, np.int64),
                     head_dim=head_dim)
    np.testing.assert_array_equal(cache, before)


@pytest.mark.parametrize("case", ["slot_past_cache", "float_key", "short_map",
                                  "int32_map", "key_shape", "key_head_dim",
                                  "bad_layout"])
def test_cache_write_rejects_and_writes_nothing(rng, case, head_dim):
    d = head_dim
    cache = uqrt.new_cache(2, 16, 2, fill=0x5A, head_dim=d)
    before = cache.copy()
    key, value = random_bf16(rng, (3, 2, d)), random_bf16(rng, (3, 2, d))
    slots = np.array([0, 5, 31], np.int64)
    code = uqrt.StatusCode.INVALID_ARGUMENT
    if case == "slot_past_cache":
        slots[2], code = 32, uqrt.StatusCode.OUT_OF_RANGE
    elif case == "float_key":
        key = key.astype(np.float32)
    elif case == "short_map":
        slots = slots[:2]
    elif case == "int32_map":
        slots = slots.astype(np.int32)
    elif case == "key_shape":
        key = key[:, :1]
    elif case == "key_head_dim":
        key = key[:, :, :d // 2].copy()
    elif case == "bad_layout":  # a slot shorter than D + D/16
        cache = np.zeros((2, 16, 2, uqrt.slot_content_bytes(d) - 4), np.uint8)
        before = cache.copy()
    with pytest.raises(uqrt.Error) as e:
        uqrt.cache_write(cache, key, value, slots, head_dim=d)
    assert e.value.code == code, e.value
    np.testing.assert_array_equal(cache, before)


def test_reference_exact_against_numpy(rng, head_dim):
    # A one-hot query c e_j rotates to +-c uq_wht_scale(D), rounded to E4M3
    # (exact at D 64 and 256), so the float64 numpy attention over the
    # decoded cache is an independent oracle.
    p_blocks, block, hk, qg, n, d = 3, 16, 1, 8, 37, head_dim
    cache = uqrt.new_cache(p_blocks, block, hk, head_dim=d)
    k, v = random_bf16(rng, (n, hk, d)), random_bf16(rng, (n, hk, d))
    tables = np.array([[2, 0, 1]], np.int32)
    slots = tables[0, np.arange(n) // block].astype(np.int64) * block + \
        np.arange(n) % block
    uqrt.cache_write(cache, k, v, slots, head_dim=d)
    query = np.zeros((1, qg, d), np.uint16)
    cols = rng.integers(0, d, qg)
    query[0, np.arange(qg), cols] = uqrt.bf16_from_float(np.float32(4.0))
    got = uqrt.reference_decode_exact(query, cache, tables,
                                      np.array([n], np.int32), qg, head_dim=d)
    slot_values = [uqrt.cache_read_slot(cache, s // block, s % block, 0,
                                        head_dim=d) for s in slots]
    kr = np.stack([kv[0] for kv in slot_values]).astype(np.float64)
    vv = np.stack([kv[1] for kv in slot_values]).astype(np.float64)
    q_mag = e4m3(float(np.float32(4.0) * np.float32(1 / np.sqrt(d))))
    scale = float(np.float32(1 / np.sqrt(d)))
    for r in range(qg):
        q_rot = np.sign(hadamard(d)[:, cols[r]]) * q_mag
        x = kr @ q_rot * scale
        p = np.exp(x - x.max())
        want = (p @ vv) / p.sum()
        g = uqrt.float_from_bf16(got[0, r]).astype(np.float64)
        assert np.all(np.abs(g - want) <= np.abs(want) * 2.0**-8 + 1e-30)


def test_reference_rejects_bad_input(rng, head_dim):
    d = head_dim
    cache = uqrt.new_cache(2, 16, 1, head_dim=d)
    tables = np.array([[0, 1]], np.int32)
    with pytest.raises(uqrt.Error) as e:
        uqrt.reference_decode_exact(random_bf16(rng, (1, 8, d)), cache,
                                    tables, np.array([33], np.int32), 8,
                                    head_dim=d)
    assert e.value.code == uqrt.StatusCode.OUT_OF_RANGE
    for query in (np.zeros((1, 8, d), np.float32),  # dtype
                  np.zeros((1, 8, d // 2), np.uint16)):  # head dim
        with pytest.raises(uqrt.Error) as e:
            uqrt.reference_decode_exact(query, cache, tables,
                                        np.array([3], np.int32), 8,
                                        head_dim=d)
        assert e.value.code == uqrt.StatusCode.INVALID_ARGUMENT


def test_launch_policy(head_dim):
    p, t = uqrt.launch_policy(4, 64, 64, head_dim=head_dim)
    assert p >= 2 and p * t * 256 >= 64 * 64
    with pytest.raises(uqrt.Error) as e:
        uqrt.launch_policy(4, 64, 24)
    assert e.value.code == uqrt.StatusCode.INVALID_ARGUMENT


def test_format_entry_points_reject_bad_input():
    bad_calls = [
        lambda: uqrt.wht256(np.zeros(256, np.float64)),
        lambda: uqrt.wht256(np.zeros(255, np.float32)),
        lambda: uqrt.slot_encode(np.zeros(256, np.float32),
                                 np.zeros(256, np.uint16)),
        lambda: uqrt.slot_decode(np.zeros(271, np.uint8)),
        lambda: uqrt.group_encode(np.zeros(31, np.float32)),
        lambda: uqrt.float_from_bf16(np.zeros(4, np.float32)),
        lambda: uqrt.new_cache(0, 16, 1),
        lambda: uqrt.new_cache(1, 16, 1, padded_slot=274),
        lambda: uqrt.cache_write(np.zeros((2, 16, 1, 272), np.int8),
                                 np.zeros((1, 1, 256), np.uint16),
                                 np.zeros((1, 1, 256), np.uint16),
                                 np.zeros(1, np.int64)),
        lambda: uqrt.launch_policy(0, 4, 16),
        lambda: uqrt.reference_decode_exact(
            np.zeros((1, 8, 256), np.uint16), uqrt.new_cache(1, 16, 1),
            np.zeros((1, 1), np.int32), np.zeros(1, np.int32), 8,
            q_overflow="wrap"),
    ]
    for i, call in enumerate(bad_calls):
        with pytest.raises(uqrt.Error) as e:
            call()
        assert e.value.code == uqrt.StatusCode.INVALID_ARGUMENT, (i, e.value)


def test_unsupported_head_dims_name_the_supported_set():
    unsupported = [
        lambda: uqrt.wht(np.zeros(96, np.float32)),
        lambda: uqrt.slot_encode(np.zeros(1024, np.uint16),
                                 np.zeros(1024, np.uint16)),
        lambda: uqrt.slot_decode(np.zeros(102, np.uint8)),  # D = 96
        lambda: uqrt.slot_content_bytes(16),
        lambda: uqrt.new_cache(1, 16, 1, padded_slot=1088, head_dim=1024),
        lambda: uqrt.cache_write(uqrt.new_cache(1, 16, 1), np.zeros(
            (1, 1, 96), np.uint16), np.zeros((1, 1, 96), np.uint16),
            np.zeros(1, np.int64), head_dim=96),
        lambda: uqrt.launch_policy(4, 64, 64, head_dim=80),
    ]
    for i, call in enumerate(unsupported):
        with pytest.raises(uqrt.Error) as e:
            call()
        assert e.value.code == uqrt.StatusCode.UNIMPLEMENTED, (i, e.value)
        assert "32, 64, 128, 256 or 512" in e.value.message, (i, e.value)
    with pytest.raises(uqrt.Error) as e:
        uqrt.new_cache(1, 16, 1, head_dim="256")
    assert e.value.code == uqrt.StatusCode.INVALID_ARGUMENT


def test_cache_read_slot_rejects_out_of_range(head_dim):
    cache = uqrt.new_cache(2, 16, 2, head_dim=head_dim)
    for block, offset, head in [(2, 0, 0), (0, 16, 0), (0, 0, 2), (-1, 0, 0)]:
        with pytest.raises(uqrt.Error) as e:
            uqrt.cache_read_slot(cache, block, offset, head, head_dim=head_dim)
        assert e.value.code == uqrt.StatusCode.OUT_OF_RANGE
