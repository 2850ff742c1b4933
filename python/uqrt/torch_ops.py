"""uqrt's serving calls as PyTorch custom ops, so torch.compile and CUDA
graphs hold them:

    torch.ops.uqrt.unified_attention(query, kv_cache, block_table, seq_lens,
        query_start_loc, output, scale, max_query_len, sinks,
        sliding_window)                       # writes output
    torch.ops.uqrt.store(key, value, kv_cache, slot_mapping)   # writes
                                                               # kv_cache

Both run the module's default serving instance (uqrt.serving) on torch's
current stream, return nothing, and declare the tensor they write
(`Tensor(a!)` in the schema), so a compiled graph orders them like any
in-place op; their fake (meta) implementations do nothing.
uqrt.ultraquant_unified_attention and uqrt.store call them whenever they
get torch tensors and the ops are registered (torch >= 2.4, imported with
uqrt). Neither synchronizes the host: every size the kernels need is the
tensors' shape or an argument.

The ops are defined with torch.library.Library (schema, one
CompositeExplicitAutograd kernel, register_fake), not the
torch.library.custom_op decorator: the decorator wraps every eager call in
Python-level autograd and mutation bookkeeping that costs more than the
attention's own host work, and these ops have no gradient.
"""

OPS = ("uqrt::unified_attention", "uqrt::store")

_SCHEMAS = {
    "unified_attention":
        "unified_attention(Tensor query, Tensor kv_cache, Tensor block_table,"
        " Tensor seq_lens, Tensor query_start_loc, Tensor(a!) output,"
        " float? scale, int? max_query_len, Tensor? sinks,"
        " int sliding_window) -> ()",
    "store":
        "store(Tensor key, Tensor value, Tensor(a!) kv_cache,"
        " Tensor slot_mapping) -> ()",
}

try:
    import torch
except ImportError:  # pragma: no cover - depends on the machine
    torch = None

_why_not = None
if torch is None:
    _why_not = "torch is not installed"
elif not hasattr(getattr(torch, "library", None), "register_fake"):
    _why_not = (f"torch {torch.__version__} has no torch.library.register_fake"
                f" (torch >= 2.4)")


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


def _unified_attention(query, kv_cache, block_table, seq_lens,
                       query_start_loc, output, scale, max_query_len, sinks,
                       sliding_window):
    from . import serving
    serving._instance()(query, kv_cache, block_table, seq_lens,
                        query_start_loc, scale, output, max_query_len, None,
                        sinks, sliding_window)


def _store(key, value, kv_cache, slot_mapping):
    from . import serving
    serving._instance().store(key, value, kv_cache, slot_mapping)


def _nothing(*args):
    return None


def _register():
    # Kept for the process's life: the ops live as long as their library.
    global _library, unified_attention, store
    _library = torch.library.Library("uqrt", "DEF")
    for name, kernel in (("unified_attention", _unified_attention),
                         ("store", _store)):
        _library.define(_SCHEMAS[name])
        _library.impl(name, kernel, "CompositeExplicitAutograd")
        torch.library.register_fake(f"uqrt::{name}", _nothing, lib=_library)
    unified_attention = torch.ops.uqrt.unified_attention.default
    store = torch.ops.uqrt.store.default


_library = None
unified_attention = store = None  # the ops' OpOverloads once registered
if _why_not is None:
    try:
        _register()
    except Exception as e:  # a torch that refuses: the ctypes path serves
        _why_not = f"registering the ops with torch {torch.__version__} " \
                   f"failed ({type(e).__name__}: {e})"
        unified_attention = store = None
