"""The calls a serving engine makes, with vLLM's argument names and shapes.

    attention = uqrt.UnifiedAttention()          # auto backend
    attention(query, kv_cache, block_table, seq_lens, query_start_loc,
              scale, output, max_query_len, max_seq_len, sinks,
              sliding_window)                    # one layer, one step
    attention.store(key, value, kv_cache, slot_mapping)

`ultraquant_unified_attention(...)` and `store(...)` do the same on a
default instance (auto backend, made on first use).

Arguments are torch tensors (CUDA tensors run on torch's current stream of
their device; bf16 travels as an int16 view, which this module takes) or
numpy arrays (host and sim backends; bf16 as uint16/int16). The
activations (query, output, key, value) are bf16 (torch bfloat16/int16,
numpy uint16/int16) or, since 0.9, f16 (torch/numpy float16): the query's
dtype (the key's for store) picks the plan's; the output must have the
query's dtype, the value the key's. Shapes:
query [T, Hq, D] (any token and head strides: a fused QKV view works),
kv_cache uint8 [num_blocks, block_size, Hk, padded_slot], block_table int32
[B, max_blocks_per_seq], seq_lens int32 [B] (new tokens included),
query_start_loc int32 [B + 1], output [T, Hq, D], sinks float32 [Hq] or
None, sliding_window an int (None or 0: none); key and value [T, Hk, D],
slot_mapping int64 [T].

A call finds the plan of its shape (dtype, head counts, head dim, cache
geometry, strides, softmax scale, window) and stream, and makes one the first time,
sized for at least that call's sequences, tokens and longest query
(growing by powers of two, capped at libuqrt's limits). Making a plan
allocates device memory: warm every shape up on the stream you will
capture on, with the largest counts it will see, before capturing CUDA
graphs; a captured call then only launches (a call that would have to make
a plan while its stream captures raises instead).

Threads and streams: any number of Python threads may share an instance
(or the module's default one) and call it at once. Each (shape, stream)
has its own plan, so kernels on two CUDA streams never share a workspace;
calls on one stream (and every call on the host and sim backends, which
have no streams) take turns on that plan's lock. A plan outgrown while
another thread runs it is closed when that run returns. An empty step
(no query token or no sequence) returns at once.
"""

import math
import numbers
import threading

import numpy as np

from . import torch_ops
from ._status import Error, StatusCode, invalid
from .rotation import check_pit
from .runtime import Context

try:  # optional: numpy arrays serve the host and sim backends without it
    import torch
except ImportError:  # pragma: no cover - depends on the machine
    torch = None


def _is_torch(x):
    return torch is not None and isinstance(x, torch.Tensor)


def _arg(x):
    """What Plan's buffer checks take: CUDA tensors as they are (read
    directly), CPU tensors as the numpy arrays over the same memory (bf16
    as int16: numpy has no bf16; float16 as numpy float16)."""
    if _is_torch(x) and not x.is_cuda:
        if x.dtype == torch.bfloat16:
            x = x.view(torch.int16)
        return x.numpy()
    return x


def _activation_dtype(x, name):
    """The plan dtype of an activation tensor or array: "f16" for float16,
    "bf16" for bfloat16 (and its 16-bit integer views); anything else is
    INVALID_ARGUMENT naming the argument."""
    if _is_torch(x):
        if x.dtype == torch.float16:
            return "f16"
        if x.dtype in (torch.bfloat16, torch.int16) or (
                x.dtype == getattr(torch, "uint16", None)):
            return "bf16"
        got = x.dtype
    elif isinstance(x, np.ndarray):
        if x.dtype == np.float16:
            return "f16"
        if x.dtype in (np.uint16, np.int16):
            return "bf16"
        got = x.dtype
    else:
        raise invalid(f"{name}: expected a torch tensor or numpy array, got "
                      f"{type(x).__name__}")
    raise invalid(f"{name}: dtype {got} is not an activation dtype (bf16: "
                  f"torch.bfloat16, int16 or numpy uint16/int16; f16: "
                  f"float16)")


def _same_dtype(x, name, dtype, of):
    """INVALID_ARGUMENT unless `x` (named `name`) has the plan's `dtype`,
    which `of` set."""
    got = _activation_dtype(x, name)
    if got != dtype:
        raise invalid(f"{name}: dtype {x.dtype} ({got}) differs from the "
                      f"{of}'s ({dtype})")


def _element_strides(x):
    if _is_torch(x):
        return tuple(x.stride())
    if isinstance(x, np.ndarray):
        return tuple(s // x.itemsize for s in x.strides)
    raise invalid(f"expected a torch tensor or numpy array, got "
                  f"{type(x).__name__}")


# torch's current raw stream of a device index, without making a Stream
# object per call (a private binding; the public call where it is gone).
_raw_stream = getattr(getattr(torch, "_C", None), "_cuda_getCurrentRawStream",
                      None)


def _stream(x):
    if _is_torch(x) and x.is_cuda:
        if _raw_stream is not None:
            return _raw_stream(x.get_device())
        return torch.cuda.current_stream(x.device).cuda_stream
    return None


def _dims(x, name, count):
    shape = tuple(x.shape)
    if len(shape) != count:
        raise invalid(f"{name}: expected {count} dimensions, got shape "
                      f"{shape}")
    return tuple(int(e) for e in shape)


# libuqrt's limits on a plan's sizes (uq_decode_config_t): a plan grows
# by powers of two up to these, never past them.
_MAX_BATCH = 65535
_MAX_TOKENS = 1 << 24
_MAX_QUERY_LEN = 65536
_LIMITS = (_MAX_BATCH, _MAX_TOKENS, _MAX_QUERY_LEN)


def _grow(have, need, top):
    """The capacity to make a plan with: `need` rounded up to a power of two
    (so a growing batch remakes its plan O(log) times) and capped at `top`
    (libuqrt names a `need` past it), at least `have`."""
    size = 1
    while size < need:
        size *= 2
    return max(min(size, max(top, need)), have)


def _integer(value, name, low, allow_none=False):
    """`value` as an int >= low: Python and numpy integers only (no bools,
    floats or strings, which would convert silently)."""
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (numbers.Integral, np.integer)):
        raise invalid(f"{name} must be an int, got {value!r}")
    if value < low:
        raise invalid(f"{name} must be >= {low}, got {value}")
    return int(value)


def _scale(value):
    """The softmax scale: a finite real > 0, or None for 1/sqrt(head_dim)
    (libuqrt's 0)."""
    if value is None:
        return 0.0
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (numbers.Real, np.floating, np.integer)):
        raise invalid(f"scale must be a real number > 0 or None "
                      f"(1/sqrt(head_dim)), got {value!r}")
    value = float(value)
    if not math.isfinite(value) or value <= 0.0:
        raise invalid(f"scale must be finite and > 0 (None: 1/sqrt(head_dim)),"
                      f" got {value!r}")
    return value


def _capturing(x):
    return (_is_torch(x) and x.is_cuda and
            torch.cuda.is_current_stream_capturing())


class _Entry:
    """A plan of the serving layer, the sizes it was made for, the calls
    using it now, and whether a larger plan has replaced it."""

    def __init__(self, plan, size):
        self.plan, self.size, self.users, self.retired = plan, size, 0, False


class UnifiedAttention:
    """Plans for vLLM-shaped calls on one context, made on first use; safe
    to share between threads (see the module's docstring)."""

    def __init__(self, backend="auto", context=None):
        self.context = context if context is not None else Context(backend)
        self._owns_context = context is None
        self._plans = {}  # (shape key, stream) -> _Entry
        self._lock = threading.Lock()

    def close(self):
        """Closes every plan (each after its call in flight) and the context
        if this instance made it."""
        with self._lock:
            entries, self._plans = list(self._plans.values()), {}
        for entry in entries:
            entry.plan.close()
        if self._owns_context:
            self.context.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _acquire(self, key, config, need, probe):
        """The entry of `key`, remade when `need` (batch, tokens, query len)
        passes what it was made for, counted as in use until _release."""
        with self._lock:
            entry = self._plans.get(key)
            if entry is None or any(n > h for n, h in zip(need, entry.size)):
                if _capturing(probe):
                    raise Error(StatusCode.FAILED_PRECONDITION,
                                "no plan of this shape and size on the "
                                "capturing stream, and making one allocates:"
                                " run the call once on that stream, with "
                                "the largest counts it will see, before "
                                "capture")
                have = entry.size if entry else (0, 0, 0)
                size = tuple(_grow(h, n, top)
                             for h, n, top in zip(have, need, _LIMITS))
                plan = self.context.plan(max_batch=size[0],
                                         max_num_tokens=size[1],
                                         max_query_len=size[2],
                                         max_store_tokens=size[1], **config)
                if entry is not None:
                    entry.retired = True
                    if entry.users == 0:
                        entry.plan.close()
                entry = self._plans[key] = _Entry(plan, size)
            entry.users += 1
            return entry

    def _release(self, entry):
        with self._lock:
            entry.users -= 1
            close = entry.retired and entry.users == 0
        if close:
            entry.plan.close()

    def __call__(self, query, kv_cache, block_table, seq_lens, query_start_loc,
                 scale, output=None, max_query_len=None, max_seq_len=None,
                 sinks=None, sliding_window=None, PiT=None):
        """Varlen attention over the cache for every sequence's new query
        tokens (uq_plan_run_varlen); returns `output` (made like `query`
        when None). scale: the softmax scale, a real > 0, or None for
        1/sqrt(head_dim). max_query_len (vLLM's host-side longest q_len)
        picks the kernels: None takes the longest of a numpy
        query_start_loc, or the token count on a GPU. max_seq_len is
        accepted and unused: the kernels' walk follows the block table's
        width, so a graph captured once serves every length. sliding_window:
        an int, None or 0 for none. PiT (vLLM's rotation matrix): None, or
        the normalized Hadamard of the head dim, the only rotation of uq's
        cache format (checked once per torch tensor; any other raises)."""
        del max_seq_len  # the block table's width sizes the walk
        t, hq, d = _dims(query, "query", 3)
        dtype = _activation_dtype(query, "query")
        check_pit(PiT, d)
        num_blocks, block_size, hk, padded_slot = _dims(kv_cache, "kv_cache",
                                                        4)
        b, max_blocks = _dims(block_table, "block_table", 2)
        scale = _scale(scale)
        window = _integer(sliding_window, "sliding_window", 0,
                          allow_none=True) or 0
        max_query_len = _integer(max_query_len, "max_query_len", 0,
                                 allow_none=True)
        if hk < 1 or hq % hk:
            raise invalid(f"query heads {hq} are not a multiple of the "
                          f"cache's {hk} kv heads")
        if output is None:
            output = (torch.empty_like(query) if _is_torch(query) else
                      np.empty_like(query))
        else:  # the kernels write the output in the query's dtype
            _same_dtype(output, "output", dtype, "query")
        if t == 0 or b == 0:
            return output  # an empty step: no row to attend or write
        qsl = _arg(query_start_loc)
        if max_query_len is None:
            if isinstance(qsl, np.ndarray) and qsl.size >= 2:
                max_query_len = int(np.diff(qsl.astype(np.int64)).max())
            else:
                max_query_len = t
        if max_query_len < 1:
            raise invalid(f"max_query_len must be >= 1 for a step of {t} "
                          f"tokens, got {max_query_len}")
        # A head dim with a step (a view such as q[..., ::2]) is copied
        # through the plan's dense rows on the device (uq_decode_config_t
        # query_stride_elem).
        qs, os_ = _element_strides(query), _element_strides(output)
        stream = _stream(query)
        config = dict(num_kv_heads=hk, query_group=hq // hk, head_dim=d,
                      block_size=block_size, padded_slot=padded_slot,
                      num_blocks=num_blocks, max_blocks_per_seq=max_blocks,
                      softmax_scale=scale, sliding_window=window,
                      query_strides=qs, output_strides=os_,
                      dtype=dtype)
        # The values in the dict literal's fixed order: cheaper per call
        # than sorting its items.
        key = ("attention", stream) + tuple(config.values())
        entry = self._acquire(key, config, (b, t, max_query_len), query)
        try:
            entry.plan.run_varlen(
                _arg(query), _arg(kv_cache), _arg(block_table),
                _arg(seq_lens), qsl, _arg(output),
                sinks=_arg(sinks) if sinks is not None else None,
                num_seqs=b, num_tokens=t, max_query_len=max_query_len,
                stream=stream)
        finally:
            self._release(entry)
        return output

    def store(self, key, value, kv_cache, slot_mapping):
        """Encodes new tokens' K and V into their cache slots (uq_plan_store:
        byte for byte uqrt.cache_write; slot_mapping[t] < 0 skips token t)."""
        t, hk, d = _dims(key, "key", 3)
        dtype = _activation_dtype(key, "key")
        _same_dtype(value, "value", dtype, "key")
        num_blocks, block_size, cache_hk, padded_slot = _dims(kv_cache,
                                                              "kv_cache", 4)
        if cache_hk != hk:
            raise invalid(f"key has {hk} kv heads, the cache {cache_hk}")
        if t == 0:
            return  # nothing to store
        ks, vs = _element_strides(key), _element_strides(value)
        stream = _stream(key)
        config = dict(num_kv_heads=hk, query_group=1, head_dim=d,
                      block_size=block_size, padded_slot=padded_slot,
                      num_blocks=num_blocks, max_blocks_per_seq=1,
                      key_strides=ks[:2], value_strides=vs[:2], dtype=dtype)
        entry = self._acquire(("store", stream) + tuple(config.values()),
                              config, (1, t, 1), key)
        try:
            entry.plan.store(_arg(key), _arg(value), _arg(slot_mapping),
                             _arg(kv_cache), num_tokens=t, stream=stream)
        finally:
            self._release(entry)


_default = None
_default_lock = threading.Lock()


def _instance():
    global _default
    default = _default  # made once: no lock on the per-call path
    if default is not None:
        return default
    with _default_lock:
        if _default is None:
            _default = UnifiedAttention()
        return _default


def ultraquant_unified_attention(query, kv_cache, block_table, seq_lens,
                                 query_start_loc, scale, output=None,
                                 max_query_len=None, max_seq_len=None,
                                 sinks=None, sliding_window=None, PiT=None):
    """UnifiedAttention.__call__ on the default instance (auto backend),
    shared by every thread of the process. On torch tensors it goes
    through the custom op torch.ops.uqrt.unified_attention (uqrt.torch_ops)
    where torch has custom ops, so torch.compile and CUDA graphs hold it
    (a plain eager call runs the op's implementation without the
    dispatcher: torch_ops.eager_direct)."""
    if torch_ops.dispatched(query):
        del max_seq_len  # the block table's width sizes the walk
        if torch_ops.compiling():
            if PiT is not None:
                raise invalid("PiT: pass None under torch.compile (uq's "
                              "rotation is the normalized Hadamard; a traced "
                              "tensor's values cannot be checked)")
        else:
            # Named errors before the op's schema sees the values (a traced
            # call leaves them to the op, which checks them as it runs).
            check_pit(PiT, int(query.shape[-1]))
            scale = _scale(scale) or None
            sliding_window = _integer(sliding_window, "sliding_window", 0,
                                      allow_none=True)
            max_query_len = _integer(max_query_len, "max_query_len", 0,
                                     allow_none=True)
        window = 0 if sliding_window is None else sliding_window
        if output is None:
            output = torch.empty_like(query)
        torch_ops.unified_attention(query, kv_cache, block_table, seq_lens,
                                    query_start_loc, output, scale,
                                    max_query_len, sinks, window)
        return output
    return _instance()(query, kv_cache, block_table, seq_lens,
                       query_start_loc, scale, output, max_query_len,
                       max_seq_len, sinks, sliding_window, PiT)


def store(key, value, kv_cache, slot_mapping):
    """UnifiedAttention.store on the default instance (auto backend); on
    torch tensors through torch.ops.uqrt.store where torch has custom
    ops and the call needs the dispatcher (torch_ops.eager_direct)."""
    if torch_ops.dispatched(key):
        torch_ops.store(key, value, kv_cache, slot_mapping)
        return
    _instance().store(key, value, kv_cache, slot_mapping)


__all__ = ["UnifiedAttention", "ultraquant_unified_attention", "store"]
