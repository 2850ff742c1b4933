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
registered (torch >= 2.4, imported with uqrt) and the call needs the
dispatcher: under torch.compile, under a dispatch or function mode (fake
tensors, functionalization), or on a tensor subclass. A plain eager call
on plain tensors runs the ops' implementation directly (the same Python
function the dispatcher would call back), since the dispatcher's round trip
into Python costs more host time than the rest of the call (docs/python.md,
"Host cost"). Neither synchronizes the host: every size the kernels need is
the tensors' shape or an argument. They are defined with
torch.library.Library, not custom_op, whose own Python layers cost more per
call still.
"""

OPS = ("uqrt::unified_attention", "uqrt::store")

try:
    import torch
except ImportError:  # pragma: no cover - depends on the machine
    torch = None

_why_not = None
if torch is None:
    _why_not = "torch is not installed"
elif not hasattr(getattr(torch, "library", None), "register_fake"):
    _why_not = f"torch {torch.__version__} has no torch.library.register_fake"


def registered():
    """Whether torch.ops.uqrt.* exist in this process."""
    return _why_not is None


def why_not():
    return _why_not or ""


_is_compiling = getattr(getattr(torch, "compiler", None), "is_compiling",
                        None)


def compiling():
    """Whether torch.compile is tracing the caller (torch >= 2.3)."""
    return bool(_is_compiling and _is_compiling())


_dispatch_stack = getattr(getattr(torch, "_C", None),
                          "_len_torch_dispatch_stack", None)
_function_mode = getattr(getattr(torch, "_C", None),
                         "_is_torch_function_mode_enabled", None)
_direct_checks = _dispatch_stack is not None and _function_mode is not None


def eager_direct(tensor):
    """Whether a call on `tensor` may skip the dispatcher: eager, no torch
    dispatch or function mode active, and a plain torch.Tensor (a
    FakeTensor or FunctionalTensor is a subclass). Where torch lacks the
    checks, no."""
    # is_compiling first: torch.compile folds it to True while tracing, so
    # the tracer never meets the dispatch-state calls after it.
    return (not (_is_compiling and _is_compiling()) and
            type(tensor) is torch.Tensor and _direct_checks and
            not _dispatch_stack() and not _function_mode())


def dispatched(x):
    """Whether a serving call on `x` goes through torch.ops.uqrt.*: a torch
    tensor, the ops registered, and not eager_direct. One call on the
    per-call path."""
    return (_why_not is None and isinstance(x, torch.Tensor) and
            not eager_direct(x))


# The schemas: (a!) marks the tensor each op writes, so a compiled graph
# orders it like any in-place op.
SCHEMAS = {
    "unified_attention": (
        "(Tensor query, Tensor kv_cache, Tensor block_table, "
        "Tensor seq_lens, Tensor query_start_loc, Tensor(a!) output, "
        "float? scale, int? max_query_len, Tensor? sinks, "
        "int sliding_window) -> ()"),
    "store": ("(Tensor key, Tensor value, Tensor(a!) kv_cache, "
              "Tensor slot_mapping) -> ()"),
}


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
    """The fake (meta) implementation: the ops write in place and return
    nothing, so tracing needs no shapes from them."""
    return None


_library = None  # the torch.library.Library holding the ops


def _register():
    """Defines the ops on torch's dispatcher directly: a Python kernel per
    device type and a fake one. torch.library.custom_op would add its own
    Python layers to every call (tens of microseconds on a step that
    launches two kernels); these ops cost one dispatch."""
    global _library, unified_attention, store
    library = torch.library.Library("uqrt", "FRAGMENT")
    for name, fn in (("unified_attention", _unified_attention),
                     ("store", _store)):
        library.define(name + SCHEMAS[name])
        for key in ("CUDA", "CPU"):
            library.impl(name, fn, key)
        torch.library.register_fake("uqrt::" + name, _nothing, lib=library)
    _library = library
    unified_attention = torch.ops.uqrt.unified_attention.default
    store = torch.ops.uqrt.store.default


unified_attention = store = None  # the ops (OpOverloads) once registered
if _why_not is None:
    try:
        _register()
    except Exception as e:  # a torch that refuses: the ctypes path serves
        _why_not = (f"registering the ops with torch {torch.__version__} "
                    f"failed ({type(e).__name__}: {e})")
        unified_attention = store = None
