"""uqrt: libuqrt (UltraQuant 4-bit KV-cache decode attention) from Python.

Pure Python over ctypes: no compiled extension, no build step. The shared
library is found through $UQRT_LIBRARY, the install tree, the build tree
(build/runtime/libuqrt.so) or the loader's path, in that order.

    import uqrt
    with uqrt.Context("sim") as ctx:
        plan = ctx.plan(num_kv_heads=2, query_group=8, block_size=16,
                        num_blocks=64, max_blocks_per_seq=8, max_batch=4)
        plan.run(query, kv_cache, block_tables, seq_lens, output)

A serving engine calls uqrt.ultraquant_unified_attention(...) and
uqrt.store(...) (vLLM's argument names and shapes; torch tensors on a GPU,
numpy on the host and sim backends): see uqrt.serving.

Head dims 32, 64, 128, 256 and 512 (HEAD_DIMS): Plan and the cache
functions take head_dim (default 256), the vector functions read it from
their argument; Context.variants() lists the head dims each target's kernels
serve (the host backend serves every one).
"""

from ._library import (HEAD_DIM, HEAD_DIMS, SLOT_CONTENT_BYTES,
                       slot_content_bytes, slot_stride)
from ._library import path as library_path
from ._status import Error, StatusCode
from .format import (bf16_from_float, cache_read_slot, cache_write,
                     float_from_bf16, group_encode, launch_policy, new_cache,
                     reference_decode_exact, slot_decode, slot_encode, wht,
                     wht256)
from .rotation import hadamard
from .runtime import Context, Plan
from .serving import UnifiedAttention, store, ultraquant_unified_attention


def runtime_version():
    """(major, minor) of the loaded library."""
    import ctypes

    from ._library import check, lib
    major, minor = ctypes.c_uint32(), ctypes.c_uint32()
    check(lib.uq_runtime_version(ctypes.byref(major), ctypes.byref(minor)))
    return major.value, minor.value


# The package is the library's: one version, uq/uqrt.h's (a wheel is built
# with it, and a source checkout loads its own build).
__version__ = "{}.{}.0".format(*runtime_version())


__all__ = ["Context", "Plan", "Error", "StatusCode", "HEAD_DIM", "HEAD_DIMS",
           "hadamard",
           "SLOT_CONTENT_BYTES", "slot_content_bytes", "slot_stride",
           "library_path",
           "runtime_version", "bf16_from_float", "float_from_bf16", "wht",
           "wht256", "slot_encode", "slot_decode", "group_encode",
           "new_cache", "cache_write", "cache_read_slot",
           "reference_decode_exact", "launch_policy", "UnifiedAttention",
           "ultraquant_unified_attention", "store", "__version__"]
