"""The host API of uq/format.h, uq/reference.h and uq/policy.h over numpy:
bf16 conversions, the rotation, the UltraQuant encoder, the paged-cache
writer and reader, the exact reference decode and the launch policy.

bf16 arrays are numpy uint16 (or int16) holding the bit patterns; since
0.9 slot_encode, cache_write and reference_decode_exact also take numpy
float16 (fp16 activations) where they take bf16. Head dims
D = 32, 64, 128, 256 and 512: the vector functions (wht, slot_encode,
slot_decode) take D from their argument's length; the cache functions take
head_dim (default 256), since a cache's padded slot does not say it.
"""

import math

import ctypes

import numpy as np

from . import _buffers
from ._library import (HEAD_DIM, HEAD_DIMS_TEXT, CacheLayout, DecodeProblem,
                       KvTokens, check, head_dim_check, lib,
                       slot_content_bytes, slot_stride)
from ._status import invalid

FP8_OVERFLOW = {"saturate": 0, "nan": 1}


def bf16_from_float(x):
    """float32 array -> bf16 bits (uint16), round to nearest even; NaN stays
    NaN (quiet), overflow gives inf: uq_float_to_bf16 elementwise."""
    try:
        f = np.ascontiguousarray(x, dtype=np.float32)
    except (TypeError, ValueError) as e:
        raise invalid(f"x: expected numbers convertible to float32 ({e})") \
            from None
    u = f.view(np.uint32)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    quiet_nan = ((u >> 16) | 0x0040).astype(np.uint16)
    return np.where(np.isnan(u.view(np.float32)), quiet_nan, rounded)


def float_from_bf16(bits):
    """bf16 bits (uint16/int16) -> float32, exact."""
    b = np.asarray(bits)
    if b.dtype not in (np.uint16, np.int16):
        raise invalid(f"bf16 bits must be uint16 or int16, got {b.dtype}")
    return (b.astype(np.uint16).astype(np.uint32) << 16).view(np.float32)


def _vector(x, name, dtype, length):
    a = np.ascontiguousarray(x)
    if a.dtype != dtype or a.shape != (length,):
        raise invalid(f"{name}: expected {np.dtype(dtype).name} [{length}], "
                      f"got {a.dtype.name} {list(a.shape)}")
    return a


def _head_dim_of(x, name, dtype):
    """D from a vector of D elements (dtype), checked."""
    a = np.asarray(x)
    if a.dtype != dtype or a.ndim != 1:
        raise invalid(f"{name}: expected {np.dtype(dtype).name} [D] (D = "
                      f"{HEAD_DIMS_TEXT}), got {a.dtype.name} "
                      f"{list(a.shape)}")
    return head_dim_check(a.shape[0], f"{name}'s length")


def wht(x):
    """The fp32 Walsh-Hadamard butterfly of uq_wht, times 1/sqrt(D) rounded
    to f32, on a float32 [D] vector (returns a new array)."""
    d = _head_dim_of(x, "x", np.float32)
    out = _vector(x, "x", np.float32, d).copy()
    check(lib.uq_wht(d, out.ctypes.data))
    return out


def wht256(x):
    """wht() of a float32 [256] vector."""
    return wht(_vector(x, "x", np.float32, 256))


def slot_encode(k_bf16, v_bf16):
    """One (token, kv head) slot of k, v bf16 [D] (or both numpy float16):
    D + D/16 bytes (K rotated, then encoded)."""
    if np.asarray(k_bf16).dtype == np.float16:
        d = _head_dim_of(k_bf16, "k", np.float16)
        k = _vector(k_bf16, "k", np.float16, d)
        v = _vector(v_bf16, "v", np.float16, d)
        slot = np.zeros(slot_content_bytes(d), np.uint8)
        check(lib.uq_slot_encode_dtype(d, 1, k.ctypes.data, v.ctypes.data,
                                       slot.ctypes.data))
        return slot
    d = _head_dim_of(k_bf16, "k", np.uint16)
    k = _vector(k_bf16, "k", np.uint16, d)
    v = _vector(v_bf16, "v", np.uint16, d)
    slot = np.zeros(slot_content_bytes(d), np.uint8)
    check(lib.uq_slot_encode(d, k.ctypes.data, v.ctypes.data,
                             slot.ctypes.data))
    return slot


def slot_decode(slot):
    """(k_rot, v) float32 [D] each of a slot of D + D/16 bytes, with the
    host's UE8M0 rule."""
    n = np.asarray(slot).shape[-1] if np.ndim(slot) == 1 else 0
    if n % 17:
        raise invalid(f"slot: expected uint8 [D + D/16] (34, 68, 136, 272 "
                      f"or 544), got {list(np.shape(slot))}")
    d = head_dim_check(n // 17 * 16, "slot's head dim")
    s = _vector(slot, "slot", np.uint8, slot_content_bytes(d))
    k = np.empty(d, np.float32)
    v = np.empty(d, np.float32)
    check(lib.uq_slot_decode(d, s.ctypes.data, k.ctypes.data, v.ctypes.data))
    return k, v


def group_encode(x):
    """One group of 32 float32: (16 code bytes, UE8M0 scale byte)."""
    g = _vector(x, "x", np.float32, 32)
    codes = np.zeros(16, np.uint8)
    scale = ctypes.c_uint8()
    lib.uq_group_encode(g.ctypes.data, codes.ctypes.data, ctypes.byref(scale))
    return codes, scale.value


def _layout(cache, head_dim):
    if not isinstance(cache, np.ndarray) or cache.ndim != 4:
        raise invalid("cache: expected a uint8 numpy array [num_blocks, "
                      "block_size, num_kv_heads, padded_slot]")
    layout = CacheLayout(*cache.shape, head_dim_check(head_dim))
    _buffers.host(cache, "cache", "u8", cache.shape)
    return layout


def new_cache(num_blocks, block_size, num_kv_heads, padded_slot=None, fill=0,
              head_dim=HEAD_DIM):
    """A zero (or `fill`) cache of a validated layout; padded_slot defaults
    to the slot's D + D/16 content bytes."""
    if padded_slot is None:
        padded_slot = slot_stride(head_dim)
    layout = CacheLayout(num_blocks, block_size, num_kv_heads, padded_slot,
                         head_dim_check(head_dim))
    size = ctypes.c_size_t()
    check(lib.uq_cache_layout_size(ctypes.byref(layout), ctypes.byref(size)))
    return np.full((num_blocks, block_size, num_kv_heads, padded_slot), fill,
                   np.uint8)


def _tokens(key, value, slot_mapping, num_kv_heads, head_dim):
    mapping = _buffers.host(slot_mapping, "slot_mapping", "i64",
                            (_buffers.first_dim(slot_mapping, "slot_mapping"),))
    t = mapping.array.shape[0]
    # The dtype is the key's: numpy float16 is f16, anything else is
    # checked as bf16 bits; the value must match.
    dtype = ("f16" if isinstance(key, np.ndarray) and key.dtype == np.float16
             else "bf16")
    bufs, element_strides = [], []
    for name, arr in (("key", key), ("value", value)):
        if not isinstance(arr, np.ndarray) or arr.ndim != 3:
            raise invalid(f"{name}: expected bf16 bits [num_tokens, "
                          f"num_kv_heads, {head_dim}] (uint16, or float16 "
                          f"for f16)")
        if arr.size == 0:
            # numpy gives empty arrays any strides (often 0): nothing is
            # read, so take the dense ones
            strides = (num_kv_heads * head_dim, head_dim, 1)
        elif arr.strides[2] != 2 or any(s % 2 for s in arr.strides):
            raise invalid(f"{name}: the head dim must be contiguous and "
                          f"strides whole elements")
        else:
            strides = (arr.strides[0] // 2, arr.strides[1] // 2, 1)
        bufs.append(_buffers.host(arr, name, dtype,
                                  (t, num_kv_heads, head_dim), strides))
        element_strides.append(strides)
    (k, v), (ks, vs) = bufs, element_strides
    tokens = KvTokens(k.address, ks[0], ks[1], v.address, vs[0], vs[1],
                      mapping.address, t, _buffers.ACTIVATION_DTYPES[dtype])
    return tokens, (key, value, slot_mapping)


def cache_write(cache, key, value, slot_mapping, head_dim=HEAD_DIM):
    """uq_cache_write: encodes key/value bf16 [T, Hk, D] (or numpy float16,
    both; any element
    strides, head dim contiguous) into the slots of slot_mapping int64 [T]
    (negative: skip). Checks everything first: on error the cache is
    unchanged."""
    layout = _layout(cache, head_dim)
    if not cache.flags.writeable:
        raise invalid("cache: array is read-only")
    tokens, keep = _tokens(key, value, slot_mapping, layout.num_kv_heads,
                           layout.head_dim)
    check(lib.uq_cache_write(ctypes.byref(layout), cache.ctypes.data,
                             cache.nbytes, ctypes.byref(tokens)))
    del keep


def cache_read_slot(cache, block, offset, kv_head, head_dim=HEAD_DIM):
    """(k_rot, v) float32 [D] of one slot, host UE8M0 rule."""
    layout = _layout(cache, head_dim)
    k = np.empty(layout.head_dim, np.float32)
    v = np.empty(layout.head_dim, np.float32)
    check(lib.uq_cache_read_slot(ctypes.byref(layout), cache.ctypes.data,
                                 cache.nbytes, block, offset, kv_head,
                                 k.ctypes.data, v.ctypes.data))
    return k, v


def reference_decode_exact(query, cache, block_tables, seq_lens, query_group,
                           softmax_scale=None, sliding_window=0,
                           sinks=None, q_overflow="saturate",
                           head_dim=HEAD_DIM, query_start_loc=None):
    """The exact (float64) reference decode: bf16 output [B, Hq, D] of
    query bf16 [B, Hq, D] (float16 output of a numpy float16 query, since
    0.9); softmax_scale defaults to 1/sqrt(D), as a
    plan's. With query_start_loc (int32 [B + 1], varlen attention) the
    query and output are [T, Hq, D] over the T = query_start_loc[B] query
    tokens, each the last of its sequence's tokens, causal."""
    layout = _layout(cache, head_dim)
    d = layout.head_dim
    if softmax_scale is None:
        softmax_scale = 1.0 / math.sqrt(d)
    if q_overflow not in FP8_OVERFLOW:
        raise invalid(f"q_overflow must be one of {', '.join(FP8_OVERFLOW)}")
    tables = np.asarray(block_tables)
    b = _buffers.first_dim(tables, "block_tables")
    if tables.ndim != 2:
        raise invalid("block_tables: expected int32 [B, max_blocks_per_seq]")
    hq = layout.num_kv_heads * query_group
    rows, qsl = b, None
    if query_start_loc is not None:
        qsl = _buffers.host(query_start_loc, "query_start_loc", "i32", (b + 1,))
        rows = int(query_start_loc[b])
        if rows < 0:
            raise invalid(f"query_start_loc[{b}] = {rows} is negative")
    f16 = isinstance(query, np.ndarray) and query.dtype == np.float16
    q = _buffers.host(query, "query", "f16" if f16 else "bf16", (rows, hq, d))
    t = _buffers.host(block_tables, "block_tables", "i32", tables.shape)
    lens = _buffers.host(seq_lens, "seq_lens", "i32", (b,))
    s = (_buffers.host(sinks, "sinks", "f32", (hq,)).address
         if sinks is not None else None)
    out = np.zeros((rows, hq, d), np.float16 if f16 else np.uint16)
    problem = DecodeProblem(
        num_seqs=b, query_group=query_group, cache=layout,
        max_blocks_per_seq=tables.shape[1], softmax_scale=softmax_scale,
        q_overflow=FP8_OVERFLOW[q_overflow], query=q.address,
        query_stride_seq=hq * d, query_stride_head=d,
        kv_cache=cache.ctypes.data, block_tables=t.address,
        seq_lens=lens.address, output=out.ctypes.data,
        output_stride_seq=hq * d, output_stride_head=d,
        sliding_window=sliding_window, sinks=s,
        query_start_loc=qsl.address if qsl is not None else None,
        dtype=1 if f16 else 0)
    check(lib.uq_reference_decode_exact(ctypes.byref(problem)))
    return out


def launch_policy(num_seqs, max_blocks_per_seq, block_size, max_kv_splits=0,
                  sliding_window=0, head_dim=HEAD_DIM):
    """(partitions, tile-groups per partition) of uq_launch_policy_window."""
    out = (ctypes.c_int32 * 2)()
    check(lib.uq_launch_policy_window(num_seqs, max_blocks_per_seq,
                                      block_size, head_dim_check(head_dim),
                                      max_kv_splits,
                                      sliding_window, ctypes.byref(out)))
    return out[0], out[1]


__all__ = ["bf16_from_float", "float_from_bf16", "wht", "wht256",
           "slot_encode",
           "slot_decode", "group_encode", "new_cache", "cache_write",
           "cache_read_slot", "reference_decode_exact", "launch_policy"]
