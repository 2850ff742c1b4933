"""Finds and loads libuqrt.so and declares the C API with ctypes.

The library is looked up in this order:
  1. $UQRT_LIBRARY: a path to libuqrt.so (or any name dlopen accepts);
  2. the install tree: PREFIX/lib*/libuqrt.so.0 when this package is
     installed as PREFIX/lib*/python3/site-packages/uqrt;
  3. the build tree: build/runtime/libuqrt.so next to this source checkout;
  4. the dynamic loader's own search (LD_LIBRARY_PATH, ld.so.cache).
"""

import ctypes
import os
import pathlib

import numpy as np

from ._status import Error, StatusCode

HEAD_DIMS = (64, 128, 256)  # the head dims the format and kernels support
HEAD_DIM = 256  # the default head dim
SLOT_CONTENT_BYTES = 272  # D + D/16 content bytes of a slot, at D = 256

c_status = ctypes.c_void_p
c_device_ptr = ctypes.c_uint64


class AllocatorStruct(ctypes.Structure):
    _fields_ = [("self", ctypes.c_void_p), ("alloc", ctypes.c_void_p),
                ("free", ctypes.c_void_p)]


class ContextOptions(ctypes.Structure):
    _fields_ = [("backend", ctypes.c_int), ("flags", ctypes.c_uint32),
                ("hip_device", ctypes.c_int32),
                ("hip_library", ctypes.c_char_p),
                ("cuda_device", ctypes.c_int32),
                ("cuda_library", ctypes.c_char_p),
                ("allocator", ctypes.c_void_p),
                ("code_objects", ctypes.c_void_p),
                ("code_object_count", ctypes.c_size_t)]


class DecodeConfig(ctypes.Structure):
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
                ("max_num_tokens", ctypes.c_uint32)]


class LaunchWalk(ctypes.Structure):
    _fields_ = [("num_partitions", ctypes.c_int32),
                ("groups_per_partition", ctypes.c_int32),
                ("group_tiles", ctypes.c_int32)]


class VarlenShape(ctypes.Structure):
    _fields_ = [("variant", ctypes.c_char * 32),
                ("block_tokens", ctypes.c_uint32),
                ("num_blocks", ctypes.c_uint32),
                ("walk", LaunchWalk)]


class PlanInfo(ctypes.Structure):
    _fields_ = [("variant", ctypes.c_char * 32),
                ("max_partitions", ctypes.c_uint32),
                # Since 0.4, in what was padding.
                ("merge_max_partitions", ctypes.c_uint32),
                ("workspace_bytes", ctypes.c_uint64),
                ("e4m3_saturates", ctypes.c_uint32),
                ("decode_lds_bytes", ctypes.c_uint32)]


class KernelCounters(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint64) for name in (
        "wave_instructions", "mfma_instructions", "global_bytes_read",
        "global_bytes_written", "lds_bytes_read", "lds_bytes_written",
        "workgroups", "global_lines_read", "vmem_inflight_peak")]


class CacheLayout(ctypes.Structure):
    _fields_ = [("num_blocks", ctypes.c_int64), ("block_size", ctypes.c_int32),
                ("num_kv_heads", ctypes.c_int32),
                ("padded_slot", ctypes.c_int32),
                ("head_dim", ctypes.c_int32)]


class KvTokens(ctypes.Structure):
    _fields_ = [("key", ctypes.c_void_p), ("key_stride_token", ctypes.c_int64),
                ("key_stride_head", ctypes.c_int64),
                ("value", ctypes.c_void_p),
                ("value_stride_token", ctypes.c_int64),
                ("value_stride_head", ctypes.c_int64),
                ("slot_mapping", ctypes.c_void_p),
                ("num_tokens", ctypes.c_int64)]


class DecodeProblem(ctypes.Structure):
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
                ("query_start_loc", ctypes.c_void_p)]


def _candidates():
    env = os.environ.get("UQRT_LIBRARY")
    if env:
        return [env]
    here = pathlib.Path(__file__).resolve().parent
    found = []
    # PREFIX/lib*/python3/site-packages/uqrt -> PREFIX/lib*/libuqrt.so.0
    if len(here.parents) > 2:
        found.append(str(here.parents[2] / "libuqrt.so.0"))
    repo = here.parents[1]
    found += [str(repo / "build" / "runtime" / "libuqrt.so"),
              "libuqrt.so.0", "libuqrt.so"]
    return found


def _declare(lib):
    P, V = ctypes.POINTER, ctypes.c_void_p
    u32, i32, i64, sz = (ctypes.c_uint32, ctypes.c_int32, ctypes.c_int64,
                         ctypes.c_size_t)
    signatures = {
        "uq_status_code": (ctypes.c_int, [c_status]),
        "uq_status_message": (ctypes.c_char_p, [c_status]),
        "uq_status_free": (None, [c_status]),
        "uq_runtime_version": (c_status, [P(u32), P(u32)]),
        "uq_backend_name": (ctypes.c_char_p, [ctypes.c_int]),
        "uq_context_options_initialize": (None, [P(ContextOptions)]),
        "uq_context_create": (c_status, [P(ContextOptions), P(V)]),
        "uq_context_destroy": (None, [V]),
        "uq_context_backend": (c_status, [V, P(ctypes.c_int)]),
        "uq_context_describe": (c_status, [V, P(ctypes.c_char_p)]),
        "uq_context_alloc": (c_status, [V, sz, P(c_device_ptr)]),
        "uq_context_free": (c_status, [V, c_device_ptr]),
        "uq_context_upload": (c_status, [V, c_device_ptr, V, sz]),
        "uq_context_download": (c_status, [V, V, c_device_ptr, sz]),
        "uq_context_synchronize": (c_status, [V, V]),
        "uq_plan_create": (c_status, [V, P(DecodeConfig), P(V)]),
        "uq_plan_destroy": (None, [V]),
        "uq_plan_query_info": (c_status, [V, P(PlanInfo)]),
        "uq_plan_launch_shape": (c_status, [V, u32, P(u32), P(u32)]),
        "uq_plan_launch_walk": (c_status, [V, u32, P(LaunchWalk)]),
        "uq_plan_run": (c_status, [V, u32] + [c_device_ptr] * 5 + [V]),
        "uq_plan_run_with_sinks": (c_status,
                                   [V, u32] + [c_device_ptr] * 6 + [V]),
        "uq_plan_last_counters": (c_status,
                                  [V, P(KernelCounters), P(KernelCounters)]),
        "uq_float_to_bf16": (ctypes.c_uint16, [ctypes.c_float]),
        "uq_bf16_to_float": (ctypes.c_float, [ctypes.c_uint16]),
        "uq_head_dim_check": (c_status, [i64]),
        "uq_wht": (c_status, [i32, V]),
        "uq_slot_encode": (c_status, [i32, V, V, V]),
        "uq_slot_decode": (c_status, [i32, V, V, V]),
        "uq_group_encode": (None, [V, V, V]),
        "uq_cache_layout_size": (c_status, [P(CacheLayout), P(sz)]),
        "uq_cache_write": (c_status, [P(CacheLayout), V, sz, P(KvTokens)]),
        "uq_cache_read_slot": (c_status,
                               [P(CacheLayout), V, sz, i64, i32, i32, V, V]),
        "uq_reference_decode_exact": (c_status, [P(DecodeProblem)]),
        "uq_launch_policy_window": (c_status,
                                    [i32] * 6 + [P(i32 * 2)]),
    }
    for name, (restype, argtypes) in signatures.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    # Since 0.6: varlen attention (absent from older libraries).
    if hasattr(lib, "uq_plan_run_varlen"):
        lib.uq_plan_run_varlen.restype = c_status
        lib.uq_plan_run_varlen.argtypes = ([V, u32, u32, u32] +
                                           [c_device_ptr] * 7 + [V])
        lib.uq_plan_varlen_shape.restype = c_status
        lib.uq_plan_varlen_shape.argtypes = [V, u32, u32, u32, P(VarlenShape)]
    # Since 0.3: the store entry points (absent from older libraries).
    if hasattr(lib, "uq_plan_store"):
        lib.uq_plan_store.restype = c_status
        lib.uq_plan_store.argtypes = [V, u32] + [c_device_ptr] * 4 + [V]
        lib.uq_plan_last_store_counters.restype = c_status
        lib.uq_plan_last_store_counters.argtypes = [V, P(KernelCounters)]
    return lib


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
                    f"{name} must be an integer (64, 128 or 256), got "
                    f"{head_dim!r}")
    if not -2**63 <= int(head_dim) < 2**63:
        raise Error(StatusCode.UNIMPLEMENTED,
                    f"{name} {head_dim} is not supported (64, 128 or 256)")
    check(lib.uq_head_dim_check(int(head_dim)))
    return int(head_dim)


def slot_content_bytes(head_dim=HEAD_DIM):
    """D + D/16: the content bytes of one (token, kv head) slot."""
    d = head_dim_check(head_dim)
    return d + d // 16


def check(status):
    """Raises uqrt.Error for a failed status (and frees it)."""
    if status:
        code = lib.uq_status_code(status)
        message = (lib.uq_status_message(status) or b"").decode(
            "utf-8", "replace")
        lib.uq_status_free(status)
        raise Error(code, message)
