"""Context and Plan on the host and sim backends against the exact
reference; every bad input raises uqrt.Error and writes nothing."""

import os
import subprocess
import sys

import numpy as np
import pytest

import uqrt
from uqrt import _buffers
from conftest import Problem, assert_close_bf16, random_bf16

POISON = 0x7FC1  # a NaN bf16 no run writes


@pytest.fixture(params=["host", "sim"])
def ctx(request):
    with uqrt.Context(request.param) as c:
        yield c


def test_context_backends():
    with uqrt.Context("host") as c:
        assert c.backend == "host" and c.description
    with pytest.raises(uqrt.Error) as e:
        uqrt.Context("tpu")
    assert e.value.code == uqrt.StatusCode.INVALID_ARGUMENT
    # No GPU here: an explicit hip request is UNAVAILABLE and says why.
    if not os.path.exists("/dev/kfd"):
        with pytest.raises(uqrt.Error) as e:
            uqrt.Context("hip", hip_library="libamdhip64-missing.so")
        assert e.value.code == uqrt.StatusCode.UNAVAILABLE
        assert e.value.message
    # A missing CUDA driver is UNAVAILABLE naming the library tried.
    with pytest.raises(uqrt.Error) as e:
        uqrt.Context("cuda", cuda_library="/nonexistent/libcuda.so.1")
    assert e.value.code == uqrt.StatusCode.UNAVAILABLE
    assert "/nonexistent/libcuda.so.1" in e.value.message


def test_version():
    assert uqrt.runtime_version()[0] == 0


def test_run_matches_reference(ctx, rng, head_dim):
    p = Problem(rng, d=head_dim)
    with p.plan(ctx) as plan:
        info = plan.info
        assert info["variant"].startswith(f"decode_d{head_dim}_")
        parts, tgpp = plan.launch_shape(p.batch)
        assert parts * tgpp * 256 >= p.lens.max()
        # the seed's walk of tile-groups (a CUDA plan may walk tiles)
        assert plan.launch_walk(p.batch) == {
            "num_partitions": parts, "groups_per_partition": tgpp,
            "group_tiles": 16}
        # the fields around 0.4's merge_max_partitions read where C wrote
        # them (a gfx950 decode with P = 1 writes the output itself: 0.8)
        assert info["merge_max_partitions"] == 1
        assert info["max_partitions"] >= parts
        assert info["workspace_bytes"] >= parts * p.batch * p.hq * head_dim * 2
        assert info["e4m3_saturates"]
        out = np.full((p.batch, p.hq, head_dim), POISON, np.uint16)
        plan.run(p.query, p.cache, p.tables, p.lens, out)
        assert_close_bf16(out, p.exact())


def test_run_fused_query_and_padded_output(ctx, rng, head_dim):
    d = head_dim
    p = Problem(rng, batch=2, kv_heads=1, qg=8, max_seq=40, d=d)
    # Query rows inside a fused QKV tensor [B, Hq + 2 Hk, D]; output rows
    # D + 44 elements apart with gaps that must stay untouched.
    fused = random_bf16(rng, (p.batch, p.hq + 2 * p.kv_heads, d))
    fused[:, :p.hq] = p.query
    out_store = np.full((p.batch, p.hq, d + 44), POISON, np.uint16)
    out = out_store[:, :, :d]
    with p.plan(ctx, query_strides=((p.hq + 2) * d, d),
                output_strides=(p.hq * (d + 44), d + 44)) as plan:
        plan.run(fused[:, :p.hq], p.cache, p.tables, p.lens, out)
    assert_close_bf16(out, p.exact())
    assert np.all(out_store[:, :, d:] == POISON)


def test_run_with_sinks(ctx, rng, head_dim):
    p = Problem(rng, batch=1, kv_heads=1, max_seq=33, d=head_dim)
    sinks = rng.normal(0, 2, p.hq).astype(np.float32)
    sinks[::5] = -np.inf
    with p.plan(ctx) as plan:
        out = np.full((1, p.hq, head_dim), POISON, np.uint16)
        plan.run_with_sinks(p.query, p.cache, p.tables, p.lens, sinks, out)
    assert_close_bf16(out, p.exact(sinks=sinks))


def test_counters(ctx, rng):
    p = Problem(rng, batch=1, kv_heads=1, max_seq=20)
    with p.plan(ctx) as plan:
        out = np.zeros((1, p.hq, 256), np.uint16)
        plan.run(p.query, p.cache, p.tables, p.lens, out)
        if ctx.backend == "sim":
            decode, reduce = plan.last_counters()
            assert decode["wave_instructions"] > 0
            assert reduce["global_bytes_written"] >= p.hq * 256 * 2
        else:
            with pytest.raises(uqrt.Error) as e:
                plan.last_counters()
            assert e.value.code == uqrt.StatusCode.UNIMPLEMENTED


def test_plan_rejects_bad_config(ctx):
    cases = [dict(block_size=24), dict(num_blocks=0), dict(max_batch=-1),
             dict(query_strides=(10, 10)), dict(head_dim="64"),
             dict(head_dim=128, padded_slot=132)]
    for bad in cases:
        config = dict(num_kv_heads=1, query_group=8, block_size=16,
                      num_blocks=4, max_blocks_per_seq=4, max_batch=2)
        config.update(bad)
        with pytest.raises(uqrt.Error) as e:
            ctx.plan(**config)
        assert e.value.code == uqrt.StatusCode.INVALID_ARGUMENT, bad
    for d in (96, 1024):  # no format: UNIMPLEMENTED, naming the supported set
        with pytest.raises(uqrt.Error) as e:
            ctx.plan(num_kv_heads=1, query_group=8, block_size=16,
                     num_blocks=4, max_blocks_per_seq=4, head_dim=d)
        assert e.value.code == uqrt.StatusCode.UNIMPLEMENTED, d
        assert "32, 64, 128, 256 or 512" in e.value.message


BAD_RUNS = {
    "float_query": lambda a: a.update(query=a["query"].astype(np.float32)),
    "query_shape": lambda a: a.update(query=a["query"][:, :4]),
    "query_strided": lambda a: a.update(
        query=np.repeat(a["query"], 2, axis=2)[:, :, ::2]),
    "cache_shape": lambda a: a.update(kv_cache=a["kv_cache"][:-1]),
    "tables_int64": lambda a: a.update(
        block_tables=a["block_tables"].astype(np.int64)),
    "lens_batch": lambda a: a.update(seq_lens=a["seq_lens"][:1]),
    "output_readonly": lambda a: a["output"].setflags(write=False),
    "output_list": lambda a: a.update(output=[0] * 8),
    "len_past_table": lambda a: a["seq_lens"].__setitem__(0, 10**6),
    "block_past_cache": lambda a: a["block_tables"].__setitem__((0, 0), 999),
}


@pytest.mark.parametrize("case", sorted(BAD_RUNS))
def test_run_rejects_and_writes_nothing(ctx, rng, case):
    p = Problem(rng, batch=2, kv_heads=1, max_seq=30)
    args = dict(query=p.query, kv_cache=p.cache, block_tables=p.tables.copy(),
                seq_lens=p.lens.copy(),
                output=np.full((2, p.hq, 256), POISON, np.uint16))
    BAD_RUNS[case](args)
    want = (uqrt.StatusCode.OUT_OF_RANGE if case in ("len_past_table",
                                                     "block_past_cache")
            else uqrt.StatusCode.INVALID_ARGUMENT)
    with p.plan(ctx) as plan:
        with pytest.raises(uqrt.Error) as e:
            plan.run(**args)
    assert e.value.code == want, e.value
    out = args["output"]
    if isinstance(out, np.ndarray):
        assert np.all(out == POISON)


def test_closed_objects(rng):
    ctx = uqrt.Context("host")
    plan = ctx.plan(num_kv_heads=1, query_group=8, block_size=16, num_blocks=2,
                    max_blocks_per_seq=2)
    ctx.close()
    with pytest.raises(uqrt.Error) as e:
        plan.launch_shape(1)
    assert e.value.code == uqrt.StatusCode.FAILED_PRECONDITION


class FakeDeviceArray:
    """A __cuda_array_interface__ producer without a GPU (as torch/cupy
    describe their tensors)."""

    def __init__(self, shape, typestr, strides=None, readonly=False,
                 ptr=0x7000_0000):
        self.__cuda_array_interface__ = dict(
            shape=shape, typestr=typestr, strides=strides, version=3,
            data=(ptr, readonly))


def test_device_buffers_checked():
    ok = _buffers.device(FakeDeviceArray((2, 8, 256), "<i2"), "query", "bf16",
                         (2, 8, 256))
    assert ok.address == 0x7000_0000 and ok.span == 2 * 8 * 256 * 2
    assert _buffers.device(12345, "query", "bf16", (2, 8, 256)).address == 12345
    bad = [
        (FakeDeviceArray((2, 8, 256), "<f4"), "dtype"),
        (FakeDeviceArray((2, 8, 128), "<i2"), "shape"),
        (FakeDeviceArray((2, 8, 256), "<i2", strides=(8192, 1024, 2)),
         "stride"),
        (FakeDeviceArray((2, 8, 256), "<i2", readonly=True), "read-only"),
        (0, "null"),
        ("0x1000", "device pointer"),
    ]
    for obj, words in bad:
        with pytest.raises(uqrt.Error) as e:
            _buffers.device(obj, "query", "bf16", (2, 8, 256), writable=True)
        assert e.value.code == uqrt.StatusCode.INVALID_ARGUMENT
        assert words in e.value.message, e.value.message


def test_library_override():
    env = dict(os.environ, UQRT_LIBRARY="/nonexistent/libuqrt.so")
    r = subprocess.run([sys.executable, "-c", "import uqrt"], env=env,
                       capture_output=True, text=True,
                       cwd=os.path.dirname(os.path.dirname(uqrt.__file__)))
    assert r.returncode != 0
    assert "UNAVAILABLE" in r.stderr and "/nonexistent/libuqrt.so" in r.stderr


def test_found_in_install_layout(tmp_path):
    # PREFIX/lib/python3/site-packages/uqrt finds PREFIX/lib/libuqrt.so.0
    # without UQRT_LIBRARY (what `cmake --install` lays out; a wheel's own
    # uqrt/_lib is left out of the copy).
    import shutil
    lib = tmp_path / "lib"
    site = lib / "python3" / "site-packages"
    shutil.copytree(os.path.dirname(uqrt.__file__), site / "uqrt",
                    ignore=shutil.ignore_patterns("__pycache__", "_lib"))
    os.symlink(os.path.realpath(uqrt.library_path), lib / "libuqrt.so.0")
    env = {k: v for k, v in os.environ.items()
           if k not in ("UQRT_LIBRARY", "PYTHONPATH")}
    env["PYTHONPATH"] = str(site)
    r = subprocess.run([sys.executable, "-c",
                        "import uqrt; print(uqrt.library_path)"], env=env,
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(lib / "libuqrt.so.0")


# A stand-in torch whose library API refuses to register ops (an old or
# odd build): importing uqrt must still work, report why the ops are off,
# and serve numpy calls.
_REFUSING_TORCH = """
__version__ = "0.0-refusing"
class Tensor: pass
bfloat16 = float16 = int16 = uint8 = int32 = int64 = float32 = object()
class library:
    register_fake = None
    class Library:
        def __init__(self, *args, **kwargs):
            raise RuntimeError("no custom ops in this build")
"""


def test_torch_that_refuses_ops(tmp_path, rng):
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "__init__.py").write_text(_REFUSING_TORCH)
    env = dict(os.environ, UQRT_LIBRARY=os.path.realpath(uqrt.library_path))
    env["PYTHONPATH"] = os.pathsep.join(
        [str(tmp_path), os.path.dirname(os.path.dirname(uqrt.__file__))])
    code = ("import numpy as np, uqrt\n"
            "from uqrt import torch_ops\n"
            "print(torch_ops.registered(), torch_ops.why_not())\n"
            "cache = uqrt.new_cache(2, 16, 1, head_dim=64)\n"
            "q = np.zeros((1, 2, 64), np.uint16)\n"
            "out = uqrt.UnifiedAttention('host')(q, cache, "
            "np.zeros((1, 2), np.int32), np.array([5], np.int32), "
            "np.array([0, 1], np.int32), None)\n"
            "print(out.shape)\n")
    r = subprocess.run([sys.executable, "-c", code], env=env,
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    first, second = r.stdout.strip().splitlines()
    assert first.startswith("False registering the ops with torch "
                            "0.0-refusing failed (RuntimeError: no custom "
                            "ops in this build)"), first
    assert second == "(1, 2, 64)"


def _small_plan(ctx, **extra):
    config = dict(num_kv_heads=1, query_group=8, block_size=16, num_blocks=4,
                  max_blocks_per_seq=4, max_batch=2)
    config.update(extra)
    return ctx.plan(**config)


def _exact_with_window(window):
    cache = uqrt.new_cache(1, 16, 1)
    return uqrt.reference_decode_exact(
        np.zeros((1, 8, 256), np.uint16), cache, np.zeros((1, 1), np.int32),
        np.ones(1, np.int32), 8, sliding_window=window)


# The hostile Python cases of issue 29: every integer reaches C through one
# check against its C type (ctypes kept the low bits: 2**64 + 2048 became
# 2048, 2**32 + 1 became 1), and the wrong kind of value is a uqrt.Error
# naming the argument, not a raw TypeError.
HOSTILE_ARGUMENTS = {
    "query_strides 2**64 + 2048": (
        lambda c: _small_plan(c, query_strides=(2**64 + 2048, 128)),
        "query_stride_seq = 18446744073709553664 does not fit its C type "
        "int64"),
    "sliding_window 2**32 + 1": (
        lambda c: _small_plan(c, sliding_window=2**32 + 1),
        "sliding_window = 4294967297 does not fit its C type uint32"),
    "max_batch -1": (lambda c: _small_plan(c, max_batch=-1),
                     "max_batch = -1 does not fit its C type uint32"),
    "softmax_scale 'a'": (lambda c: _small_plan(c, softmax_scale="a"),
                          "softmax_scale must be a number, got 'a'"),
    "num_blocks 4.0": (lambda c: _small_plan(c, num_blocks=4.0),
                       "num_blocks must be an integer, got 4.0"),
    "launch_shape batch 2**32 + 1": (
        lambda c: _small_plan(c).launch_shape(2**32 + 1),
        "uq_plan_launch_shape: batch = 4294967297 does not fit its C type "
        "uint32"),
    "cache_read_slot offset 2**32": (
        lambda c: uqrt.cache_read_slot(uqrt.new_cache(1, 16, 1), 0, 2**32, 0),
        "uq_cache_read_slot: offset = 4294967296 does not fit its C type "
        "int32"),
    "cache_read_slot block 2**64": (
        lambda c: uqrt.cache_read_slot(uqrt.new_cache(1, 16, 1), 2**64, 0, 0),
        "block = 18446744073709551616 does not fit its C type int64"),
    "launch_policy num_seqs 2**32 + 1": (
        lambda c: uqrt.launch_policy(2**32 + 1, 8, 16),
        "uq_launch_policy_window: num_seqs = 4294967297 does not fit its C "
        "type int32"),
    "reference sliding_window 2**32 + 1": (
        lambda c: _exact_with_window(2**32 + 1),
        "sliding_window = 4294967297 does not fit its C type int32"),
    "new_cache num_blocks 2**63": (
        lambda c: uqrt.new_cache(2**63, 16, 1),
        "num_blocks = 9223372036854775808 does not fit its C type int64"),
    "hip_library 5": (lambda c: uqrt.Context("host", hip_library=5),
                      "hip_library must be a string, got 5"),
    "cuda_library with a NUL": (
        lambda c: uqrt.Context("host", cuda_library="lib\0cuda.so"),
        "cuda_library b'lib\\x00cuda.so' contains a NUL byte"),
    "hip_device 2**31": (lambda c: uqrt.Context("host", hip_device=2**31),
                         "hip_device = 2147483648 does not fit its C type "
                         "int32"),
    "backend ['sim']": (lambda c: uqrt.Context(["sim"]),
                        "unknown backend ['sim']"),
    "bf16_from_float(['a'])": (lambda c: uqrt.bf16_from_float(["a"]),
                               "x: expected numbers convertible to float32"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_ARGUMENTS))
def test_hostile_arguments(case):
    call, fragment = HOSTILE_ARGUMENTS[case]
    with uqrt.Context("host") as c:
        with pytest.raises(uqrt.Error) as e:
            call(c)
    assert e.value.code == uqrt.StatusCode.INVALID_ARGUMENT, e.value
    assert fragment in e.value.message, e.value.message


def test_variants_list_the_table():
    with uqrt.Context("host") as ctx:
        records = ctx.variants()
    kinds = {r["kind"] for r in records}
    assert kinds == {"decode", "reduce", "store", "view"}
    for r in records:
        assert r["head_dim"] in uqrt.HEAD_DIMS and r["size"] > 0
        assert r["target"] in ("gfx950", "sm_90a")
        if r["kind"] == "decode":
            assert 1 <= r["qg_max"] <= 16 and r["rows"] >= r["qg_max"]


def test_environment_report():
    # `python -m uqrt`: the library, every backend (working or why not) and
    # the table; exit 0 when a backend works (host always does).
    r = subprocess.run([sys.executable, "-m", "uqrt"], capture_output=True,
                       text=True, env=dict(os.environ))
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert f"uqrt {uqrt.__version__}, libuqrt" in out
    assert f"library  {uqrt.library_path}" in out
    for name in ("hip", "cuda", "sim", "host", "auto"):
        assert f"\n  {name:<5} " in out
    assert "  host  ok: " in out
    with uqrt.Context("host") as ctx:
        count = len(ctx.variants())
    assert f"embedded code objects ({count})" in out
