"""uqrt's serving calls as PyTorch custom ops, so torch.compile and CUDA
graphs hold them:

    torch.ops.uqrt.unified_attention(query, kv_cache, block_table, seq_lens,
        query_start_loc, output, scale, max_query_len, sinks,
        sliding_window)                       # writes output
    torch.ops.uqrt.store(key, value, kv_cache, slot_mapping)   # writes
                                                               # kv_cache

Both run the module's default serving instance (uqrt.serving) on torch's
current stream, return nothing, and declare the tensor they write, so a
compiled graph orders them like any in-place op; their fake (meta)
implementations do nothing. uqrt.ultraquant_unified_attention and
uqrt.store call them whenever they get torch tensors and the ops are
registered (torch >= 2.4, imported with uqrt). Neither synchronizes the
host: every size the kernels need is the tensors' shape or an argument.
"""

from typing import Optional

OPS = ("uqrt::unified_attention", "uqrt::store")

try:
    import torch
except ImportError:  # pragma: no cover - depends on the machine
    torch = None

_why_not = None
if torch is None:
    _why_not = "torch is not installed"
elif not hasattr(getattr(torch, "library", None), "custom_op"):
    _why_not = f"torch {torch.__version__} has no torch.library.custom_op"


def registered():
    """Whether torch.ops.uqrt.* exist in this process."""
    return _why_not is None


def why_not():
    return _why_not or ""


def compiling():
    """Whether torch.compile is tracing the caller (torch >= 2.3)."""
    is_compiling = getattr(getattr(torch, "compiler", None), "is_compiling",
                           None)
    return bool(is_compiling and is_compiling())


def _register():
    """Defines the ops (module globals unified_attention and store)."""
    global unified_attention, store
    Tensor = torch.Tensor

    @torch.library.custom_op("uqrt::unified_attention",
                             mutates_args=("output",))
    def unified_attention(query: Tensor, kv_cache: Tensor, block_table: Tensor,
                          seq_lens: Tensor, query_start_loc: Tensor,
                          output: Tensor, scale: Optional[float],
                          max_query_len: Optional[int],
                          sinks: Optional[Tensor],
                          sliding_window: int) -> None:
        from . import serving
        serving._instance()(query, kv_cache, block_table, seq_lens,
                            query_start_loc, scale, output, max_query_len,
                            None, sinks, sliding_window)

    @unified_attention.register_fake
    def _unified_attention_fake(query, kv_cache, block_table, seq_lens,
                                query_start_loc, output, scale, max_query_len,
                                sinks, sliding_window):
        return None

    @torch.library.custom_op("uqrt::store", mutates_args=("kv_cache",))
    def store(key: Tensor, value: Tensor, kv_cache: Tensor,
              slot_mapping: Tensor) -> None:
        from . import serving
        serving._instance().store(key, value, kv_cache, slot_mapping)

    @store.register_fake
    def _store_fake(key, value, kv_cache, slot_mapping):
        return None


unified_attention = store = None  # the ops once registered
if _why_not is None:
    try:
        _register()
    except Exception as e:  # a torch that refuses: the ctypes path serves
        _why_not = (f"registering the ops with torch {torch.__version__} "
                    f"failed ({type(e).__name__}: {e})")
        unified_attention = store = None
