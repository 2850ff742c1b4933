"""Finds and loads libuqrt.so and declares the C API with ctypes.

The library is looked up in this order:
  1. $UQRT_LIBRARY: a path to libuqrt.so (or any name dlopen accepts);
  2. the package's own copy, uqrt/_lib/libuqrt.so (an installed wheel);
  3. the install tree: PREFIX/lib*/libuqrt.so.0 when this package is
     installed as PREFIX/lib*/python3/site-packages/uqrt;
  4. the build tree: build/runtime/libuqrt.so next to this source checkout;
  5. the dynamic loader's own search (LD_LIBRARY_PATH, ld.so.cache).
"""

import ctypes
import os
import pathlib

import numpy as np

from ._status import Error, StatusCode

# The head dims the format and the host backend take; Context.variants()
# lists the ones each target's kernels serve.
HEAD_DIMS = (32, 64, 128, 256, 512)
# As messages name them (libuqrt's UQ_HEAD_DIMS_TEXT).
HEAD_DIMS_TEXT = (", ".join(map(str, HEAD_DIMS[:-1])) +
                  f" or {HEAD_DIMS[-1]}")
HEAD_DIM = 256  # the default head dim
SLOT_CONTENT_BYTES = 272  # D + D/16 content bytes of a slot, at D = 256

c_status = ctypes.c_void_p
c_device_ptr = ctypes.c_uint64

# ctypes keeps the low bits of an integer too large for its C type
# (2**32 + 1 becomes 1 in a uint32_t) and raises bare TypeErrors for the
# wrong kind of value: every value handed to C goes through to_c instead,
# from the checked structures and the checked library functions below.
_INTEGER_CODES = "bBhHiIlLqQ"


def _integer_range(ctype):
    bits = 8 * ctypes.sizeof(ctype)
    if ctype(-1).value == -1:
        return f"int{bits}", -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return f"uint{bits}", 0, (1 << bits) - 1


def _integer(value, name, type_name, lo, hi):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise Error(StatusCode.INVALID_ARGUMENT,
                    f"{name} must be an integer, got {value!r}")
    if not lo <= int(value) <= hi:
        raise Error(StatusCode.INVALID_ARGUMENT,
                    f"{name} = {value} does not fit its C type {type_name} "
                    f"({lo}..{hi})")
    return int(value)


def to_c(ctype, value, name):
    """`value` checked for a C parameter or field of type `ctype` named
    `name`: an integer in the type's range, a real number for a float, an
    address in 0..2**64 - 1 when an integer is given for a pointer, bytes
    (or None) for a string; anything else raises uqrt.Error
    INVALID_ARGUMENT naming it. ctypes objects (handles, byref) pass."""
    code = getattr(ctype, "_type_", None)
    if not isinstance(code, str) or isinstance(value, ctypes._SimpleCData):
        return value  # a structure, array or pointer type; a ctypes value
    if code in _INTEGER_CODES:
        return _integer(value, name, *_integer_range(ctype))
    if code == "P":  # void *: an address, or whatever ctypes passes as one
        if isinstance(value, (int, np.integer)):
            return _integer(value, name, "pointer", 0, 2**64 - 1)
        return value
    if code in "fd":
        if isinstance(value, bool) or not isinstance(
                value, (int, float, np.integer, np.floating)):
            raise Error(StatusCode.INVALID_ARGUMENT,
                        f"{name} must be a number, got {value!r}")
        return float(value)
    if code == "z" and value is not None and not isinstance(value, bytes):
        raise Error(StatusCode.INVALID_ARGUMENT,
                    f"{name} must be a string, got {value!r}")
    return value


def c_string(value, name):
    """A str (or bytes) for a `const char *` parameter, as bytes; None
    stays None; anything else, or a string with a NUL inside (C would stop
    at it), raises uqrt.Error INVALID_ARGUMENT naming it."""
    if value is None:
        return None
    if isinstance(value, str):
        value = value.encode()
    if not isinstance(value, bytes):
        raise Error(StatusCode.INVALID_ARGUMENT,
                    f"{name} must be a string, got {value!r}")
    if b"\0" in value:
        raise Error(StatusCode.INVALID_ARGUMENT,
                    f"{name} {value!r} contains a NUL byte")
    return value


class CheckedStructure(ctypes.Structure):
    """A C structure whose fields (set one by one or by the constructor)
    are checked by to_c against their C types."""

    def __setattr__(self, name, value):
        ctype = dict(type(self)._fields_).get(name)
        if ctype is not None:
            value = to_c(ctype, value, name)
        super().__setattr__(name, value)


class AllocatorStruct(CheckedStructure):
    _fields_ = [("self", ctypes.c_void_p), ("alloc", ctypes.c_void_p),
                ("free", ctypes.c_void_p)]


class ContextOptions(CheckedStructure):
    _fields_ = [("backend", ctypes.c_int), ("flags", ctypes.c_uint32),
                ("hip_device", ctypes.c_int32),
                ("hip_library", ctypes.c_char_p),
                ("cuda_device", ctypes.c_int32),
                ("cuda_library", ctypes.c_char_p),
                ("allocator", ctypes.c_void_p),
                ("code_objects", ctypes.c_void_p),
                ("code_object_count", ctypes.c_size_t)]


class DecodeConfig(CheckedStructure):
    _fields_ = [("num_kv_heads", ctypes.c_uint32),
                ("query_group", ctypes.c_uint32),
                ("head_dim", ctypes.c_uint32),
                ("block_size", ctypes.c_uint32),
                ("padded_slot", ctypes.c_uint32),
                ("max_blocks_per_seq", ctypes.c_uint32),
                ("num_blocks", ctypes.c_uint32),
                ("max_batch", ctypes.c_uint32),
                ("max_kv_splits", ctypes.c_uint32),
                ("softmax_scale", ctypes.c_float),
                ("query_stride_seq", ctypes.c_int64),
                ("query_stride_head", ctypes.c_int64),
                ("output_stride_seq", ctypes.c_int64),
                ("output_stride_head", ctypes.c_int64),
                ("query_dtype", ctypes.c_int),
                ("output_dtype", ctypes.c_int),
                ("sliding_window", ctypes.c_uint32),
                # Since 0.3 (uq_plan_store).
                ("max_store_tokens", ctypes.c_uint32),
                ("key_stride_token", ctypes.c_int64),
                ("key_stride_head", ctypes.c_int64),
                ("value_stride_token", ctypes.c_int64),
                ("value_stride_head", ctypes.c_int64),
                # Since 0.6 (uq_plan_run_varlen).
                ("max_query_len", ctypes.c_uint32),
                ("max_num_tokens", ctypes.c_uint32),
                # Since 0.10 (views with an element stride).
                ("query_stride_elem", ctypes.c_int64),
                ("output_stride_elem", ctypes.c_int64)]


class VariantRecord(ctypes.Structure):
    """uq_variant_record_t (uq/variant.h), as uq_context_variant lends it."""

    _fields_ = [("variant", ctypes.c_char_p),
                ("kernel", ctypes.c_char_p),
                ("data", ctypes.c_void_p),
                ("size", ctypes.c_size_t),
                ("kind", ctypes.c_int),
                ("target", ctypes.c_char_p),
                ("head_dim", ctypes.c_uint32),
                ("qg_max", ctypes.c_uint32),
                ("lds_bytes", ctypes.c_uint32),
                ("vgpr_count", ctypes.c_uint32),
                ("agpr_count", ctypes.c_uint32),
                ("sgpr_count", ctypes.c_uint32),
                ("scratch_bytes", ctypes.c_uint32),
                ("arg_count", ctypes.c_uint32),
                ("args", ctypes.c_void_p),
                ("rows", ctypes.c_uint32)]


class LaunchWalk(CheckedStructure):
    _fields_ = [("num_partitions", ctypes.c_int32),
                ("groups_per_partition", ctypes.c_int32),
                ("group_tiles", ctypes.c_int32)]


class VarlenShape(CheckedStructure):
    _fields_ = [("variant", ctypes.c_char * 32),
                ("block_tokens", ctypes.c_uint32),
                ("num_blocks", ctypes.c_uint32),
                ("walk", LaunchWalk)]


class PlanInfo(CheckedStructure):
    _fields_ = [("variant", ctypes.c_char * 32),
                ("max_partitions", ctypes.c_uint32),
                # Since 0.4, in what was padding.
                ("merge_max_partitions", ctypes.c_uint32),
                ("workspace_bytes", ctypes.c_uint64),
                ("e4m3_saturates", ctypes.c_uint32),
                ("decode_lds_bytes", ctypes.c_uint32)]


class KernelCounters(CheckedStructure):
    _fields_ = [(name, ctypes.c_uint64) for name in (
        "wave_instructions", "mfma_instructions", "global_bytes_read",
        "global_bytes_written", "lds_bytes_read", "lds_bytes_written",
        "workgroups", "global_lines_read", "vmem_inflight_peak")]


class CacheLayout(CheckedStructure):
    _fields_ = [("num_blocks", ctypes.c_int64), ("block_size", ctypes.c_int32),
                ("num_kv_heads", ctypes.c_int32),
                ("padded_slot", ctypes.c_int32),
                ("head_dim", ctypes.c_int32)]


class KvTokens(CheckedStructure):
    _fields_ = [("key", ctypes.c_void_p), ("key_stride_token", ctypes.c_int64),
                ("key_stride_head", ctypes.c_int64),
                ("value", ctypes.c_void_p),
                ("value_stride_token", ctypes.c_int64),
                ("value_stride_head", ctypes.c_int64),
                ("slot_mapping", ctypes.c_void_p),
                ("num_tokens", ctypes.c_int64),
                # Since 0.9: uq_dtype_t of key and value (0 bf16, 1 f16).
                ("dtype", ctypes.c_int)]


class DecodeProblem(CheckedStructure):
    _fields_ = [("num_seqs", ctypes.c_int32), ("query_group", ctypes.c_int32),
                ("cache", CacheLayout),
                ("max_blocks_per_seq", ctypes.c_int32),
                ("softmax_scale", ctypes.c_float),
                ("q_overflow", ctypes.c_int),
                ("query", ctypes.c_void_p),
                ("query_stride_seq", ctypes.c_int64),
                ("query_stride_head", ctypes.c_int64),
                ("kv_cache", ctypes.c_void_p),
                ("block_tables", ctypes.c_void_p),
                ("seq_lens", ctypes.c_void_p),
                ("output", ctypes.c_void_p),
                ("output_stride_seq", ctypes.c_int64),
                ("output_stride_head", ctypes.c_int64),
                ("sliding_window", ctypes.c_int32),
                ("sinks", ctypes.c_void_p),
                # Since 0.6 (varlen attention).
                ("query_start_loc", ctypes.c_void_p),
                # Since 0.9: uq_dtype_t of query and output (0 bf16, 1 f16).
                ("dtype", ctypes.c_int)]


def _candidates():
    env = os.environ.get("UQRT_LIBRARY")
    if env:
        return [env]
    here = pathlib.Path(__file__).resolve().parent
    found = [str(here / "_lib" / "libuqrt.so")]
    # PREFIX/lib*/python3/site-packages/uqrt -> PREFIX/lib*/libuqrt.so.0
    if len(here.parents) > 2:
        found.append(str(here.parents[2] / "libuqrt.so.0"))
    repo = here.parents[1]
    found += [str(repo / "build" / "runtime" / "libuqrt.so"),
              "libuqrt.so.0", "libuqrt.so"]
    return found


class CheckedFunction:
    """A C function whose arguments are checked by to_c against its
    parameter types, each error naming the parameter."""

    def __init__(self, fn, name, params):
        self._fn, self.__name__ = fn, name
        self._params = list(zip(fn.argtypes, params.split()))
        if len(self._params) != len(fn.argtypes):
            raise Error(StatusCode.INTERNAL, f"{name}: parameter names do "
                        f"not match its {len(fn.argtypes)} parameters")

    def __call__(self, *args):
        return self._fn(*[to_c(ctype, value, f"{self.__name__}: {name}")
                          for (ctype, name), value in zip(self._params,
                                                          args)])


class CheckedLibrary:
    """libuqrt with every declared function checked (CheckedFunction);
    anything else is the CDLL's own attribute."""

    def __init__(self, cdll, functions):
        self._cdll, self._functions = cdll, functions

    def __getattr__(self, name):
        fn = self.__dict__.get("_functions", {}).get(name)
        return fn if fn is not None else getattr(self._cdll, name)


def _declare(lib):
    P, V = ctypes.POINTER, ctypes.c_void_p
    u32, i32, i64, sz = (ctypes.c_uint32, ctypes.c_int32, ctypes.c_int64,
                         ctypes.c_size_t)
    ptr = c_device_ptr
    # name: (result, parameter types, parameter names as uq/*.h says them)
    signatures = {
        "uq_status_code": (ctypes.c_int, [c_status], "status"),
        "uq_status_message": (ctypes.c_char_p, [c_status], "status"),
        "uq_status_free": (None, [c_status], "status"),
        "uq_runtime_version": (c_status, [P(u32), P(u32)], "major minor"),
        "uq_backend_name": (ctypes.c_char_p, [ctypes.c_int], "backend"),
        "uq_context_options_initialize": (None, [P(ContextOptions)],
                                          "options"),
        "uq_context_create": (c_status, [P(ContextOptions), P(V)],
                              "options out_context"),
        "uq_context_destroy": (None, [V], "context"),
        "uq_context_backend": (c_status, [V, P(ctypes.c_int)],
                               "context out_backend"),
        "uq_context_describe": (c_status, [V, P(ctypes.c_char_p)],
                                "context out_text"),
        # Since 0.7: the context's table.
        "uq_context_variant_count": (c_status, [V, P(sz)],
                                     "context out_count"),
        "uq_context_variant": (c_status, [V, sz, P(P(VariantRecord))],
                               "context index out_record"),
        "uq_context_alloc": (c_status, [V, sz, P(ptr)],
                             "context size out_ptr"),
        "uq_context_free": (c_status, [V, ptr], "context ptr"),
        "uq_context_upload": (c_status, [V, ptr, V, sz],
                              "context device_dst host_src size"),
        "uq_context_download": (c_status, [V, V, ptr, sz],
                                "context host_dst device_src size"),
        "uq_context_synchronize": (c_status, [V, V], "context stream"),
        "uq_plan_create": (c_status, [V, P(DecodeConfig), P(V)],
                           "context config out_plan"),
        "uq_plan_destroy": (None, [V], "plan"),
        "uq_plan_query_info": (c_status, [V, P(PlanInfo)], "plan out_info"),
        "uq_plan_launch_shape": (c_status, [V, u32, P(u32), P(u32)],
                                 "plan batch out_partitions out_tgpp"),
        "uq_plan_launch_walk": (c_status, [V, u32, P(LaunchWalk)],
                                "plan batch out_walk"),
        "uq_plan_run": (c_status, [V, u32] + [ptr] * 5 + [V],
                        "plan batch query kv_cache block_tables seq_lens "
                        "output stream"),
        "uq_plan_run_with_sinks": (c_status, [V, u32] + [ptr] * 6 + [V],
                                   "plan batch query kv_cache block_tables "
                                   "seq_lens sinks output stream"),
        "uq_plan_last_counters": (c_status,
                                  [V, P(KernelCounters), P(KernelCounters)],
                                  "plan out_decode out_reduce"),
        "uq_float_to_bf16": (ctypes.c_uint16, [ctypes.c_float], "value"),
        "uq_bf16_to_float": (ctypes.c_float, [ctypes.c_uint16], "bits"),
        "uq_head_dim_check": (c_status, [i64], "head_dim"),
        "uq_wht": (c_status, [i32, V], "head_dim x"),
        "uq_slot_encode": (c_status, [i32, V, V, V],
                           "head_dim k_bf16 v_bf16 out_slot"),
        # Since 0.9 (fp16 activations).
        "uq_slot_encode_dtype": (c_status, [i32, ctypes.c_int, V, V, V],
                                 "head_dim dtype k v out_slot"),
        "uq_float_to_f16": (ctypes.c_uint16, [ctypes.c_float], "value"),
        "uq_f16_to_float": (ctypes.c_float, [ctypes.c_uint16], "bits"),
        "uq_slot_decode": (c_status, [i32, V, V, V],
                           "head_dim slot out_k_rot out_v"),
        "uq_group_encode": (None, [V, V, V], "x out_codes out_scale"),
        "uq_cache_layout_size": (c_status, [P(CacheLayout), P(sz)],
                                 "layout out_size"),
        "uq_cache_write": (c_status, [P(CacheLayout), V, sz, P(KvTokens)],
                           "layout cache cache_size tokens"),
        "uq_cache_read_slot": (c_status,
                               [P(CacheLayout), V, sz, i64, i32, i32, V, V],
                               "layout cache cache_size block offset kv_head "
                               "out_k_rot out_v"),
        "uq_reference_decode_exact": (c_status, [P(DecodeProblem)],
                                      "problem"),
        "uq_launch_policy_window": (c_status, [i32] * 6 + [P(i32 * 2)],
                                    "num_seqs max_blocks_per_seq block_size "
                                    "head_dim max_kv_splits sliding_window "
                                    "out"),
        # Since 0.3: the store entry points (absent from older libraries).
        "uq_plan_store": (c_status, [V, u32] + [ptr] * 4 + [V],
                          "plan num_tokens key value slot_mapping kv_cache "
                          "stream"),
        "uq_plan_last_store_counters": (c_status, [V, P(KernelCounters)],
                                        "plan out_store"),
        # Since 0.6: varlen attention (absent from older libraries).
        "uq_plan_run_varlen": (c_status, [V, u32, u32, u32] + [ptr] * 7 + [V],
                               "plan num_seqs num_tokens max_query_len query "
                               "kv_cache block_tables seq_lens "
                               "query_start_loc sinks output stream"),
        "uq_plan_varlen_shape": (c_status, [V, u32, u32, u32, P(VarlenShape)],
                                 "plan num_seqs num_tokens max_query_len "
                                 "out_shape"),
    }
    optional = ("uq_plan_store", "uq_plan_last_store_counters",
                "uq_plan_run_varlen", "uq_plan_varlen_shape",
                "uq_context_variant_count", "uq_context_variant",
                "uq_slot_encode_dtype", "uq_float_to_f16", "uq_f16_to_float")
    functions = {}
    for name, (restype, argtypes, params) in signatures.items():
        if name in optional and not hasattr(lib, name):
            continue
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
        functions[name] = CheckedFunction(fn, name, params)
    return CheckedLibrary(lib, functions)


def _load():
    errors = []
    for candidate in _candidates():
        try:
            return _declare(ctypes.CDLL(candidate)), candidate
        except OSError as e:
            errors.append(f"{candidate}: {e}")
        except AttributeError as e:
            errors.append(f"{candidate}: missing symbol ({e})")
    raise Error(StatusCode.UNAVAILABLE,
                "cannot load libuqrt (set UQRT_LIBRARY to its path); tried " +
                "; ".join(errors))


lib, path = _load()


def head_dim_check(head_dim, name="head_dim"):
    """The head dim as an int, or uqrt.Error: INVALID_ARGUMENT for a
    non-integer, UNIMPLEMENTED naming the supported set for an unsupported
    one (the library's uq_head_dim_check)."""
    if isinstance(head_dim, bool) or not isinstance(head_dim,
                                                    (int, np.integer)):
        raise Error(StatusCode.INVALID_ARGUMENT,
                    f"{name} must be an integer ({HEAD_DIMS_TEXT}), got "
                    f"{head_dim!r}")
    if not -2**63 <= int(head_dim) < 2**63:
        raise Error(StatusCode.UNIMPLEMENTED,
                    f"{name} {head_dim} is not supported ({HEAD_DIMS_TEXT})")
    check(lib.uq_head_dim_check(int(head_dim)))
    return int(head_dim)


def slot_content_bytes(head_dim=HEAD_DIM):
    """D + D/16: the content bytes of one (token, kv head) slot."""
    d = head_dim_check(head_dim)
    return d + d // 16


def slot_stride(head_dim=HEAD_DIM):
    """The smallest padded_slot: the content rounded up to 4 bytes (D = 32:
    36; every other head dim's content is a multiple of 4)."""
    return -(-slot_content_bytes(head_dim) // 4) * 4


def check(status):
    """Raises uqrt.Error for a failed status (and frees it)."""
    if status:
        code = lib.uq_status_code(status)
        message = (lib.uq_status_message(status) or b"").decode(
            "utf-8", "replace")
        lib.uq_status_free(status)
        raise Error(code, message)
