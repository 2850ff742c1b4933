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
numpy arrays (host and sim backends; bf16 as uint16/int16). Shapes:
query [T, Hq, D] (any token and head strides: a fused QKV view works),
kv_cache uint8 [num_blocks, block_size, Hk, padded_slot], block_table int32
[B, max_blocks_per_seq], seq_lens int32 [B] (new tokens included),
query_start_loc int32 [B + 1], output [T, Hq, D], sinks float32 [Hq] or
None, sliding_window an int (None or 0: none); key and value [T, Hk, D],
slot_mapping int64 [T].

A call finds the plan of its shape (head counts, head dim, cache geometry,
strides, softmax scale, window) and makes one the first time, sized for at
least that call's sequences, tokens and longest query (growing by powers
of two). Making a plan allocates device memory: warm every shape up, with
the largest counts it will see, before capturing CUDA graphs; a captured
call then only launches.
"""

import numpy as np

from ._status import invalid
from .runtime import Context

try:  # optional: numpy arrays serve the host and sim backends without it
    import torch
except ImportError:  # pragma: no cover - depends on the machine
    torch = None


def _is_torch(x):
    return torch is not None and isinstance(x, torch.Tensor)


def _arg(x):
    """What Plan's buffer checks take: bf16 tensors as int16 views (the CUDA
    array interface refuses bf16), CPU tensors as the numpy arrays over the
    same memory."""
    if _is_torch(x):
        if x.dtype == torch.bfloat16:
            x = x.view(torch.int16)
        if not x.is_cuda:
            return x.numpy()
    return x


def _element_strides(x):
    if _is_torch(x):
        return tuple(x.stride())
    if isinstance(x, np.ndarray):
        return tuple(s // x.itemsize for s in x.strides)
    raise invalid(f"expected a torch tensor or numpy array, got "
                  f"{type(x).__name__}")


def _stream(x):
    if _is_torch(x) and x.is_cuda:
        return torch.cuda.current_stream(x.device).cuda_stream
    return None


def _dims(x, name, count):
    shape = tuple(x.shape)
    if len(shape) != count:
        raise invalid(f"{name}: expected {count} dimensions, got shape "
                      f"{shape}")
    return tuple(int(e) for e in shape)


def _grow(have, need):
    """The capacity to make a plan with: `need` rounded up to a power of two
    (so a growing batch remakes its plan O(log) times), at least `have`."""
    size = 1
    while size < need:
        size *= 2
    return max(size, have)


class UnifiedAttention:
    """Plans for vLLM-shaped calls on one context, made on first use."""

    def __init__(self, backend="auto", context=None):
        self.context = context if context is not None else Context(backend)
        self._owns_context = context is None
        self._plans = {}  # shape key -> (plan, (batch, tokens, query len))

    def close(self):
        for plan, _ in self._plans.values():
            plan.close()
        self._plans = {}
        if self._owns_context:
            self.context.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _plan(self, key, config, need):
        """The plan of `key`, remade when `need` (batch, tokens, query len)
        passes what it was made for."""
        plan, have = self._plans.get(key, (None, (0, 0, 0)))
        if plan is not None and all(n <= h for n, h in zip(need, have)):
            return plan
        size = tuple(_grow(h, n) for h, n in zip(have, need))
        new = self.context.plan(max_batch=size[0], max_num_tokens=size[1],
                                max_query_len=size[2],
                                max_store_tokens=size[1], **config)
        if plan is not None:
            plan.close()
        self._plans[key] = (new, size)
        return new

    def __call__(self, query, kv_cache, block_table, seq_lens, query_start_loc,
                 scale, output=None, max_query_len=None, max_seq_len=None,
                 sinks=None, sliding_window=None):
        """Varlen attention over the cache for every sequence's new query
        tokens (uq_plan_run_varlen); returns `output` (made like `query`
        when None). max_query_len (vLLM's host-side longest q_len) picks
        the kernels: None takes the longest of a numpy query_start_loc, or
        the token count on a GPU. max_seq_len is accepted and unused: the
        kernels' walk follows the block table's width, so a graph captured
        once serves every length."""
        del max_seq_len  # the block table's width sizes the walk
        t, hq, d = _dims(query, "query", 3)
        num_blocks, block_size, hk, padded_slot = _dims(kv_cache, "kv_cache",
                                                        4)
        b, max_blocks = _dims(block_table, "block_table", 2)
        if hk < 1 or hq % hk:
            raise invalid(f"query heads {hq} are not a multiple of the "
                          f"cache's {hk} kv heads")
        if output is None:
            output = (torch.empty_like(query) if _is_torch(query) else
                      np.empty_like(query))
        window = int(sliding_window) if sliding_window else 0
        qs, os_ = _element_strides(query), _element_strides(output)
        if qs[2] != 1 or os_[2] != 1:
            raise invalid("query and output need a contiguous head dim")
        config = dict(num_kv_heads=hk, query_group=hq // hk, head_dim=d,
                      block_size=block_size, padded_slot=padded_slot,
                      num_blocks=num_blocks, max_blocks_per_seq=max_blocks,
                      softmax_scale=float(scale), sliding_window=window,
                      query_strides=qs[:2], output_strides=os_[:2])
        key = ("attention",) + tuple(sorted(config.items()))
        qsl = _arg(query_start_loc)
        if max_query_len is None:
            if isinstance(qsl, np.ndarray) and qsl.size >= 2:
                max_query_len = int(np.diff(qsl.astype(np.int64)).max())
            else:
                max_query_len = t
        max_query_len = max(1, int(max_query_len))
        plan = self._plan(key, config, (b, t, max_query_len))
        plan.run_varlen(_arg(query), _arg(kv_cache), _arg(block_table),
                        _arg(seq_lens), qsl, _arg(output),
                        sinks=_arg(sinks) if sinks is not None else None,
                        num_seqs=b, num_tokens=t,
                        max_query_len=max_query_len, stream=_stream(query))
        return output

    def store(self, key, value, kv_cache, slot_mapping):
        """Encodes new tokens' K and V into their cache slots (uq_plan_store:
        byte for byte uqrt.cache_write; slot_mapping[t] < 0 skips token t)."""
        t, hk, d = _dims(key, "key", 3)
        num_blocks, block_size, cache_hk, padded_slot = _dims(kv_cache,
                                                              "kv_cache", 4)
        if cache_hk != hk:
            raise invalid(f"key has {hk} kv heads, the cache {cache_hk}")
        ks, vs = _element_strides(key), _element_strides(value)
        config = dict(num_kv_heads=hk, query_group=1, head_dim=d,
                      block_size=block_size, padded_slot=padded_slot,
                      num_blocks=num_blocks, max_blocks_per_seq=1,
                      key_strides=ks[:2], value_strides=vs[:2])
        plan = self._plan(("store",) + tuple(sorted(config.items())), config,
                          (1, max(t, 1), 1))
        plan.store(_arg(key), _arg(value), _arg(slot_mapping), _arg(kv_cache),
                   num_tokens=t, stream=_stream(key))


_default = None


def _instance():
    global _default
    if _default is None:
        _default = UnifiedAttention()
    return _default


def ultraquant_unified_attention(query, kv_cache, block_table, seq_lens,
                                 query_start_loc, scale, output=None,
                                 max_query_len=None, max_seq_len=None,
                                 sinks=None, sliding_window=None):
    """UnifiedAttention.__call__ on the default instance (auto backend)."""
    return _instance()(query, kv_cache, block_table, seq_lens,
                       query_start_loc, scale, output, max_query_len,
                       max_seq_len, sinks, sliding_window)


def store(key, value, kv_cache, slot_mapping):
    """UnifiedAttention.store on the default instance (auto backend)."""
    _instance().store(key, value, kv_cache, slot_mapping)


__all__ = ["UnifiedAttention", "ultraquant_unified_attention", "store"]
