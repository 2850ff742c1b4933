"""Context and Plan: the decode (and store) plan of uq/uqrt.h from Python.

On the host and sim backends each call copies the arrays it reads into
the context's memory and the arrays it writes back out (staging buffers
allocated per call, outside the C run path): the simulator has its own
memory, and the host backend takes only pointers it allocated (it checks
every run's buffers against its allocations). On GPU
backends (hip, and cuda where the library has it) buffers are device
pointers or __cuda_array_interface__ objects and nothing is copied.

Threads: a Context may be shared by any number of threads. A Plan serves one
call at a time: calls from several threads take turns on the plan's lock
(libuqrt itself would refuse the second with FAILED_PRECONDITION), and
close() waits for a call in flight. On a GPU a plan's kernels are ordered
only by their stream: runs of one plan on two streams race on its
workspace, so use a plan per stream (uqrt.UnifiedAttention does).
"""

import ctypes
import threading

import numpy as np

from . import _buffers
from ._library import (HEAD_DIM, ContextOptions, DecodeConfig,
                       KernelCounters, LaunchWalk, PlanInfo, VariantRecord,
                       VarlenShape,
                       c_device_ptr, c_string, check, lib, slot_stride)
from ._status import Error, StatusCode, invalid

BACKENDS = {"auto": 0, "hip": 1, "sim": 2, "host": 3, "cuda": 4}
_HOST_BACKENDS = ("host", "sim")


def _backend_name(code):
    return lib.uq_backend_name(code).decode()


class Context:
    """A libuqrt context: `Context("sim")`, `Context()` (auto: hip on a
    gfx950 GPU, cuda on a compute capability 9.0 GPU, else the simulator).
    Close it (or use `with`) after its plans."""

    def __init__(self, backend="auto", hip_device=0, hip_library=None,
                 cuda_device=0, cuda_library=None):
        if not isinstance(backend, str) or backend not in BACKENDS:
            raise invalid(f"unknown backend {backend!r} "
                          f"(one of {', '.join(BACKENDS)})")
        options = ContextOptions()
        lib.uq_context_options_initialize(ctypes.byref(options))
        options.backend = BACKENDS[backend]
        options.hip_device = hip_device
        # Kept on self: options holds only a pointer to the bytes.
        self._hip_library = c_string(hip_library, "hip_library")
        options.hip_library = self._hip_library
        options.cuda_device = cuda_device
        self._cuda_library = c_string(cuda_library, "cuda_library")
        options.cuda_library = self._cuda_library
        handle = ctypes.c_void_p()
        check(lib.uq_context_create(ctypes.byref(options),
                                    ctypes.byref(handle)))
        self._handle = handle
        self._plans = []
        self._plans_lock = threading.Lock()
        kind = ctypes.c_int()
        check(lib.uq_context_backend(handle, ctypes.byref(kind)))
        self.backend = _backend_name(kind.value)
        text = ctypes.c_char_p()
        check(lib.uq_context_describe(handle, ctypes.byref(text)))
        self.description = text.value.decode()

    @property
    def handle(self):
        if not self._handle:
            raise Error(StatusCode.FAILED_PRECONDITION, "context is closed")
        return self._handle

    def close(self):
        """Destroys the context and every plan made from it (each after
        its call in flight, if any)."""
        with self._plans_lock:
            plans, self._plans = self._plans, []
        for plan in plans:
            plan.close()
        if self._handle:
            lib.uq_context_destroy(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def plan(self, **config):
        """A decode plan; see Plan for the arguments."""
        return Plan(self, **config)

    def variants(self):
        """The code objects the context was made with: one dict a record
        (variant, kind, target, head_dim, qg_max, rows, size)."""
        if not hasattr(lib, "uq_context_variant"):
            raise Error(StatusCode.UNIMPLEMENTED,
                        "the loaded libuqrt predates uq_context_variant (0.7)")
        count = ctypes.c_size_t()
        check(lib.uq_context_variant_count(self.handle, ctypes.byref(count)))
        kinds = {1: "decode", 2: "reduce", 3: "store", 4: "view"}
        out = []
        for i in range(count.value):
            record = ctypes.POINTER(VariantRecord)()
            check(lib.uq_context_variant(self.handle, i, ctypes.byref(record)))
            r = record.contents
            out.append({"variant": r.variant.decode(),
                        "kind": kinds.get(r.kind, str(r.kind)),
                        "target": (r.target or b"gfx950").decode(),
                        "head_dim": r.head_dim, "qg_max": r.qg_max,
                        "rows": r.rows or r.qg_max, "size": r.size})
        return out

    def synchronize(self, stream=None):
        check(lib.uq_context_synchronize(self.handle, stream))


class _Staging:
    """Host- and sim-backend copies of numpy buffers for one call."""

    def __init__(self, context):
        self.context, self.allocations, self.outputs = context, [], []

    def put(self, buffer, writes=False):
        if buffer.span == 0:
            return 0
        address = c_device_ptr()
        check(lib.uq_context_alloc(self.context.handle, buffer.span,
                                   ctypes.byref(address)))
        self.allocations.append(address.value)
        check(lib.uq_context_upload(self.context.handle, address.value,
                                    buffer.address, buffer.span))
        if writes:
            self.outputs.append((buffer, address.value))
        return address.value

    def copy_back(self):
        for buffer, address in self.outputs:
            check(lib.uq_context_download(self.context.handle, buffer.address,
                                          address, buffer.span))

    def free(self):
        for address in self.allocations:
            status = lib.uq_context_free(self.context.handle, address)
            if status:
                lib.uq_status_free(status)
        self.allocations = []


def _strides3(strides):
    """(seq, head) or (seq, head, element) as three strides (element 1:
    contiguous)."""
    strides = tuple(strides)
    if len(strides) == 2:
        return strides + (1,)
    if len(strides) != 3:
        raise ValueError(f"strides {strides}: need (seq, head) or "
                         f"(seq, head, element)")
    return strides


def _counters(c):
    return {name: getattr(c, name) for name, _ in KernelCounters._fields_}


class Plan:
    """uq_plan_t: everything fixed for its life is given here, checked once.

    dtype: "bf16" (default) or "f16" (since 0.9), the activations' dtype:
    of query, output, key and value (bf16 as uint16/int16 numpy or torch
    bfloat16/int16; f16 as numpy float16 or torch float16).

    Shapes (D = head_dim: 32, 64, 128, 256 or 512; the sim and GPU backends
    need a kernel for it, Context.variants()): query [batch, Hq, D] (dtype)
    (Hq = num_kv_heads * query_group), kv_cache uint8 [num_blocks,
    block_size, num_kv_heads, padded_slot] (padded_slot None: D + D/16
    rounded up to 4 bytes, uqrt.slot_stride),
    block_tables int32 [batch, max_blocks_per_seq], seq_lens int32 [batch],
    output [batch, Hq, D] (dtype), sinks float32 [Hq]. query_strides /
    output_strides: (seq, head) or, since 0.10, (seq, head, element) in
    elements (None: contiguous), e.g. a fused QKV tensor's query view or
    a view with a head-dim step (copied through the plan's dense rows on
    the device). For store(): key and value (dtype)
    [tokens, num_kv_heads, D] with key_strides / value_strides (token,
    head) in elements (None: contiguous), at most max_store_tokens tokens
    (0: max_batch), slot_mapping int64 [tokens]. For run_varlen():
    query and output [num_tokens, Hq, D] (the strides' seq step tokens),
    query_start_loc int32 [num_seqs + 1]; max_query_len (0: 1) and
    max_num_tokens (0: max_batch * max_query_len) bound its calls.
    """

    def __init__(self, context, *, num_kv_heads, query_group, block_size,
                 num_blocks, max_blocks_per_seq, max_batch=1,
                 head_dim=HEAD_DIM, padded_slot=None,
                 max_kv_splits=0, softmax_scale=0.0, query_strides=None,
                 output_strides=None, sliding_window=0, max_store_tokens=0,
                 key_strides=None, value_strides=None, max_query_len=0,
                 max_num_tokens=0, dtype="bf16"):
        if dtype not in _buffers.ACTIVATION_DTYPES:
            raise invalid(f"dtype {dtype!r}: activations must be 'bf16' or "
                          f"'f16'")
        config = DecodeConfig()
        config.query_dtype = config.output_dtype = (
            _buffers.ACTIVATION_DTYPES[dtype])
        if padded_slot is None:
            padded_slot = slot_stride(head_dim)
        try:
            config.num_kv_heads, config.query_group = num_kv_heads, query_group
            config.head_dim, config.block_size = head_dim, block_size
            config.padded_slot, config.num_blocks = padded_slot, num_blocks
            config.max_blocks_per_seq, config.max_batch = (max_blocks_per_seq,
                                                           max_batch)
            config.max_kv_splits = max_kv_splits
            config.softmax_scale = softmax_scale
            config.sliding_window = sliding_window
            if query_strides is not None:
                (config.query_stride_seq, config.query_stride_head,
                 config.query_stride_elem) = _strides3(query_strides)
            if output_strides is not None:
                (config.output_stride_seq, config.output_stride_head,
                 config.output_stride_elem) = _strides3(output_strides)
            config.max_store_tokens = max_store_tokens
            config.max_query_len = max_query_len
            config.max_num_tokens = max_num_tokens
            if key_strides is not None:
                config.key_stride_token, config.key_stride_head = key_strides
            if value_strides is not None:
                (config.value_stride_token,
                 config.value_stride_head) = value_strides
        except (TypeError, ValueError) as e:  # e.g. a stride that is no pair
            raise invalid(f"plan configuration: {e}") from None
        handle = ctypes.c_void_p()
        check(lib.uq_plan_create(context.handle, ctypes.byref(config),
                                 ctypes.byref(handle)))
        self._handle, self.context = handle, context
        # Held for each call on the plan (and by close): libuqrt's plan
        # serves one call at a time.
        self._lock = threading.Lock()
        with context._plans_lock:
            context._plans.append(self)
        self.dtype = dtype
        self.num_kv_heads, self.query_group = num_kv_heads, query_group
        self.num_query_heads = num_kv_heads * query_group
        self.head_dim, self.block_size = head_dim, block_size
        self.padded_slot, self.num_blocks = padded_slot, num_blocks
        self.max_blocks_per_seq, self.max_batch = max_blocks_per_seq, max_batch
        hq = self.num_query_heads
        self.query_strides = _strides3(query_strides or (hq * head_dim,
                                                         head_dim))
        self.output_strides = _strides3(output_strides or (hq * head_dim,
                                                           head_dim))
        row = num_kv_heads * head_dim
        self.key_strides = tuple(key_strides or (row, head_dim))
        self.value_strides = tuple(value_strides or (row, head_dim))
        self.max_store_tokens = max_store_tokens or max_batch
        self.max_query_len = max_query_len or 1
        self.max_num_tokens = (max_num_tokens or
                               min(max_batch * self.max_query_len, 1 << 24))

    def close(self):
        """Destroys the plan, after the call in flight on another thread
        (if any) returns."""
        with self._lock:
            if self._handle:
                lib.uq_plan_destroy(self._handle)
                self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def handle(self):
        if not self._handle or not self.context._handle:
            raise Error(StatusCode.FAILED_PRECONDITION, "plan is closed")
        return self._handle

    def _query(self, fn, *args):
        """check(fn(handle, *args)) under the plan's lock (close() waits)."""
        with self._lock:
            check(fn(self.handle, *args))

    @property
    def info(self):
        info = PlanInfo()
        self._query(lib.uq_plan_query_info, ctypes.byref(info))
        return {"variant": info.variant.decode(),
                "max_partitions": info.max_partitions,
                "merge_max_partitions": info.merge_max_partitions,
                "workspace_bytes": info.workspace_bytes,
                "e4m3_saturates": bool(info.e4m3_saturates),
                "decode_lds_bytes": info.decode_lds_bytes}

    def launch_shape(self, batch):
        """(partitions, tile-groups per partition) of a run with `batch`."""
        p, t = ctypes.c_uint32(), ctypes.c_uint32()
        self._query(lib.uq_plan_launch_shape, batch, ctypes.byref(p),
                    ctypes.byref(t))
        return p.value, t.value

    def launch_walk(self, batch):
        """The walk of a run with `batch` (uq_plan_launch_walk): partitions,
        groups per partition, 16-token tiles per group."""
        w = LaunchWalk()
        self._query(lib.uq_plan_launch_walk, batch, ctypes.byref(w))
        return {"num_partitions": w.num_partitions,
                "groups_per_partition": w.groups_per_partition,
                "group_tiles": w.group_tiles}

    def last_store_counters(self):
        """The simulator's counters of the last store launch."""
        self._need_store()
        c = KernelCounters()
        self._query(lib.uq_plan_last_store_counters, ctypes.byref(c))
        return _counters(c)

    def last_counters(self):
        """The simulator's counters of the last run: (decode, reduce)."""
        d, r = KernelCounters(), KernelCounters()
        self._query(lib.uq_plan_last_counters, ctypes.byref(d),
                    ctypes.byref(r))
        return _counters(d), _counters(r)

    # ---- buffers -----------------------------------------------------------

    def _on_host(self):
        return self.context.backend in _HOST_BACKENDS

    def _buffer(self, obj, name, dtype, shape, strides=None, writable=False):
        check_fn = _buffers.host if self._on_host() else _buffers.device
        return check_fn(obj, name, dtype, shape, strides, writable)

    def _count(self, obj, name, given):
        if given is not None:
            return given
        return _buffers.first_dim(obj, name)

    def _cache_shape(self):
        return (self.num_blocks, self.block_size, self.num_kv_heads,
                self.padded_slot)

    def _call(self, fn, buffers, writes, stream):
        """Calls fn(handle, *addresses, stream) under the plan's lock with
        buffers staged as the backend needs; `writes` marks the buffers the
        call writes."""
        with self._lock:
            handle = self.handle  # after the lock: close() cannot intervene
            if not self._on_host():
                check(fn(handle, *[b.address for b in buffers], stream))
                return
            staging = _Staging(self.context)
            try:
                addresses = [staging.put(b, w)
                             for b, w in zip(buffers, writes)]
                check(fn(handle, *addresses, stream))
                staging.copy_back()
            finally:
                staging.free()

    # ---- decode ------------------------------------------------------------

    def _decode_buffers(self, query, kv_cache, block_tables, seq_lens, output,
                        batch):
        batch = self._count(query, "query", batch)
        if not isinstance(batch, int) or not 1 <= batch <= self.max_batch:
            raise invalid(f"batch {batch} outside 1..{self.max_batch}")
        hq, d = self.num_query_heads, self.head_dim
        return batch, [
            self._buffer(query, "query", self.dtype, (batch, hq, d),
                         self.query_strides),
            self._buffer(kv_cache, "kv_cache", "u8", self._cache_shape()),
            self._buffer(block_tables, "block_tables", "i32",
                         (batch, self.max_blocks_per_seq)),
            self._buffer(seq_lens, "seq_lens", "i32", (batch,)),
        ], self._buffer(output, "output", self.dtype, (batch, hq, d),
                        self.output_strides, writable=True)

    def run(self, query, kv_cache, block_tables, seq_lens, output, *,
            batch=None, stream=None):
        """One decode step (decode + partition reduce) into `output`."""
        batch, inputs, out = self._decode_buffers(query, kv_cache,
                                                  block_tables, seq_lens,
                                                  output, batch)
        self._call(lambda h, q, c, t, l, o, s: lib.uq_plan_run(
            h, batch, q, c, t, l, o, s), inputs + [out],
            [False] * 4 + [True], stream)

    def run_with_sinks(self, query, kv_cache, block_tables, seq_lens, sinks,
                       output, *, batch=None, stream=None):
        """run() with attention sinks: float32 [Hq] logits (-inf: none)."""
        batch, inputs, out = self._decode_buffers(query, kv_cache,
                                                  block_tables, seq_lens,
                                                  output, batch)
        sink = self._buffer(sinks, "sinks", "f32", (self.num_query_heads,))
        self._call(lambda h, q, c, t, l, k, o, s: lib.uq_plan_run_with_sinks(
            h, batch, q, c, t, l, k, o, s), inputs + [sink, out],
            [False] * 5 + [True], stream)

    # ---- varlen ------------------------------------------------------------

    @staticmethod
    def _need_varlen():
        if not hasattr(lib, "uq_plan_run_varlen"):
            raise Error(StatusCode.UNIMPLEMENTED,
                        "the loaded libuqrt predates varlen attention (0.6)")

    def varlen_shape(self, num_seqs, num_tokens, max_query_len):
        """How a varlen run of that host shape launches
        (uq_plan_varlen_shape): variant, block_tokens, num_blocks, walk."""
        self._need_varlen()
        v = VarlenShape()
        self._query(lib.uq_plan_varlen_shape, num_seqs, num_tokens,
                    max_query_len, ctypes.byref(v))
        w = v.walk
        return {"variant": v.variant.decode(), "block_tokens": v.block_tokens,
                "num_blocks": v.num_blocks,
                "walk": {"num_partitions": w.num_partitions,
                         "groups_per_partition": w.groups_per_partition,
                         "group_tiles": w.group_tiles}}

    def run_varlen(self, query, kv_cache, block_tables, seq_lens,
                   query_start_loc, output, *, sinks=None, num_seqs=None,
                   num_tokens=None, max_query_len=None, stream=None):
        """Varlen attention (uq_plan_run_varlen): every sequence's new query
        tokens, causal over its cache. num_seqs and num_tokens default to
        query_start_loc's and query's leading extents; max_query_len (the
        longest q_len, a host-side fact) defaults to the longest of a numpy
        query_start_loc, and on a GPU to the plan's max_query_len."""
        self._need_varlen()
        if num_seqs is None:
            num_seqs = self._count(query_start_loc, "query_start_loc",
                                   None) - 1
        t = self._count(query, "query", num_tokens)
        if max_query_len is None:
            if isinstance(query_start_loc, np.ndarray) and num_seqs >= 1:
                lens = np.diff(np.asarray(query_start_loc[:num_seqs + 1],
                                          np.int64))
                max_query_len = max(1, int(lens.max()) if lens.size else 1)
            else:
                max_query_len = self.max_query_len
        for name, value, top in (("num_seqs", num_seqs, self.max_batch),
                                 ("num_tokens", t, self.max_num_tokens),
                                 ("max_query_len", max_query_len,
                                  self.max_query_len)):
            if not isinstance(value, (int, np.integer)) or not (
                    1 <= value <= top):
                raise invalid(f"{name} {value!r} outside 1..{top}")
        num_seqs, t, max_query_len = int(num_seqs), int(t), int(max_query_len)
        hq, d = self.num_query_heads, self.head_dim
        buffers = [
            self._buffer(query, "query", self.dtype, (t, hq, d),
                         self.query_strides),
            self._buffer(kv_cache, "kv_cache", "u8", self._cache_shape()),
            self._buffer(block_tables, "block_tables", "i32",
                         (num_seqs, self.max_blocks_per_seq)),
            self._buffer(seq_lens, "seq_lens", "i32", (num_seqs,)),
            self._buffer(query_start_loc, "query_start_loc", "i32",
                         (num_seqs + 1,)),
        ]
        sink = (self._buffer(sinks, "sinks", "f32", (hq,))
                if sinks is not None else None)
        out = self._buffer(output, "output", self.dtype, (t, hq, d),
                           self.output_strides, writable=True)
        if sink is None:
            self._call(lambda h, q, c, b, l, s0, o, s: lib.uq_plan_run_varlen(
                h, num_seqs, t, max_query_len, q, c, b, l, s0, 0, o, s),
                buffers + [out], [False] * 5 + [True], stream)
        else:
            self._call(lambda h, q, c, b, l, s0, k, o, s: lib.uq_plan_run_varlen(
                h, num_seqs, t, max_query_len, q, c, b, l, s0, k, o, s),
                buffers + [sink, out], [False] * 6 + [True], stream)

    # ---- store -------------------------------------------------------------

    @staticmethod
    def _need_store():
        if not hasattr(lib, "uq_plan_store"):
            raise Error(StatusCode.UNIMPLEMENTED,
                        "the loaded libuqrt predates the store API (0.3)")

    def store(self, key, value, slot_mapping, kv_cache, *, num_tokens=None,
              stream=None):
        """Encodes new tokens' K and V into their cache slots (the store
        kernel; the host encoder on the host backend): byte for byte
        uqrt.cache_write. slot_mapping[t] < 0 skips token t. On host/sim a
        slot past the cache raises OUT_OF_RANGE and writes nothing."""
        self._need_store()
        t = self._count(slot_mapping, "slot_mapping", num_tokens)
        if not isinstance(t, int) or not 0 <= t <= self.max_store_tokens:
            raise invalid(f"{t} tokens outside 0..{self.max_store_tokens} "
                          f"(max_store_tokens)")
        hk, d = self.num_kv_heads, self.head_dim
        buffers = [
            self._buffer(key, "key", self.dtype, (t, hk, d), (*self.key_strides, 1)),
            self._buffer(value, "value", self.dtype, (t, hk, d),
                         (*self.value_strides, 1)),
            self._buffer(slot_mapping, "slot_mapping", "i64", (t,)),
            self._buffer(kv_cache, "kv_cache", "u8", self._cache_shape(),
                         writable=True),
        ]
        if t == 0:
            return
        self._call(lambda h, k, v, m, c, s: lib.uq_plan_store(
            h, t, k, v, m, c, s), buffers, [False] * 3 + [True], stream)
