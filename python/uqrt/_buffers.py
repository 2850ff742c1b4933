"""Checks a buffer argument against what the C call will read or write.

Host and sim backends take numpy arrays; GPU backends take raw device
pointers (ints, unchecked: the caller vouches for them) or any object with
__cuda_array_interface__ (cupy, numba), checked like a numpy array, or
torch CUDA tensors, read directly (dtype, shape, stride, data_ptr: a
fraction of the cost of building torch's __cuda_array_interface__, which
also refuses bf16). bf16 data travels as 16-bit integers elsewhere: numpy
has no bf16. f16 (since 0.9) is numpy's and torch's float16.
"""

import numpy as np

from ._status import invalid

try:  # optional: torch tensors are read without __cuda_array_interface__
    import torch
except ImportError:  # pragma: no cover - depends on the machine
    torch = None

# Accepted element types per logical dtype, as numpy / __cuda_array_interface__
# type strings (little-endian; '|' for one byte).
DTYPES = {
    "bf16": ("<u2", "<i2"),
    "f16": ("<f2",),
    "u8": ("|u1", "<u1"),
    "i32": ("<i4",),
    "i64": ("<i8",),
    "f32": ("<f4",),
}
ITEMSIZE = {"bf16": 2, "f16": 2, "u8": 1, "i32": 4, "i64": 8, "f32": 4}
# The activation dtypes a plan takes, and their uq_dtype_t values.
ACTIVATION_DTYPES = {"bf16": 0, "f16": 1}
# The same per torch dtype (an int16 view of bf16 data stays accepted).
TORCH_TYPESTR = {} if torch is None else {
    torch.bfloat16: "<u2", torch.int16: "<i2", torch.uint8: "|u1",
    torch.int32: "<i4", torch.int64: "<i8", torch.float32: "<f4",
    torch.float16: "<f2",
}


class Buffer:
    """A checked argument: its address, the bytes from it the call touches,
    and the numpy array behind it (None on a GPU)."""

    def __init__(self, address, span, array=None):
        self.address, self.span, self.array = address, span, array


def _check_layout(name, typestr, shape, byte_strides, dtype, want_shape,
                  want_strides):
    if typestr not in DTYPES[dtype]:
        raise invalid(f"{name}: dtype {typestr} is not {dtype} "
                      f"(accepted: {', '.join(DTYPES[dtype])})")
    if tuple(shape) != tuple(want_shape):
        raise invalid(f"{name}: shape {tuple(shape)}, expected "
                      f"{tuple(want_shape)}")
    item = ITEMSIZE[dtype]
    if any(extent == 0 for extent in shape):
        return 0  # nothing is read or written: strides do not matter
    if want_strides is None:  # C-contiguous
        want_strides, step = [], 1
        for extent in reversed(want_shape):
            want_strides.insert(0, step)
            step *= extent
    for axis, (extent, got, want) in enumerate(
            zip(shape, byte_strides, want_strides)):
        if extent > 1 and got != want * item:
            raise invalid(f"{name}: stride {got / item:g} elements on axis "
                          f"{axis}, expected {want}")
    return sum((e - 1) * s for e, s in zip(shape, byte_strides)) + item


def host(obj, name, dtype, shape, strides=None, writable=False):
    """A numpy argument. `strides` in elements (None: C-contiguous)."""
    if not isinstance(obj, np.ndarray):
        raise invalid(f"{name}: expected a numpy array on this backend, got "
                      f"{type(obj).__name__}")
    if writable and not obj.flags.writeable:
        raise invalid(f"{name}: array is read-only")
    span = _check_layout(name, obj.dtype.str, obj.shape, obj.strides, dtype,
                         shape, strides)
    return Buffer(obj.ctypes.data, span, obj)


def device(obj, name, dtype, shape, strides=None, writable=False):
    """A GPU argument: an int pointer or a __cuda_array_interface__ object."""
    if isinstance(obj, (int, np.integer)) and not isinstance(obj, bool):
        if obj <= 0:
            raise invalid(f"{name}: device pointer {obj} is null or negative")
        return Buffer(int(obj), None)
    if torch is not None and isinstance(obj, torch.Tensor):
        return _torch_tensor(obj, name, dtype, shape, strides)
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is None:
        raise invalid(f"{name}: expected a device pointer (int) or an object "
                      f"with __cuda_array_interface__, got "
                      f"{type(obj).__name__}")
    address, readonly = cai["data"]
    if writable and readonly:
        raise invalid(f"{name}: device array is read-only")
    item = ITEMSIZE[dtype]
    byte_strides = cai.get("strides")
    if byte_strides is None:
        byte_strides, step = [], item
        for extent in reversed(cai["shape"]):
            byte_strides.insert(0, step)
            step *= extent
    span = _check_layout(name, cai["typestr"], cai["shape"], byte_strides,
                         dtype, shape, strides)
    if not address and span:
        raise invalid(f"{name}: device array has a null data pointer")
    return Buffer(int(address), span)


def _torch_tensor(obj, name, dtype, shape, strides):
    if not obj.is_cuda:
        raise invalid(f"{name}: a CPU tensor on a GPU backend (pass "
                      f"tensor.cuda(), or a numpy array on host/sim)")
    typestr = TORCH_TYPESTR.get(obj.dtype)
    if typestr is None:
        raise invalid(f"{name}: dtype {obj.dtype} is not {dtype} (accepted: "
                      f"{', '.join(DTYPES[dtype])})")
    item = obj.element_size()
    byte_strides = [s * item for s in obj.stride()]
    span = _check_layout(name, typestr, obj.shape, byte_strides, dtype, shape,
                         strides)
    address = obj.data_ptr()
    if not address and span:
        raise invalid(f"{name}: device array has a null data pointer")
    return Buffer(address, span)


def first_dim(obj, name):
    """The leading extent of an array-like argument (batch, token count)."""
    if isinstance(obj, np.ndarray) or (torch is not None and
                                       isinstance(obj, torch.Tensor)):
        shape = obj.shape
    elif hasattr(obj, "__cuda_array_interface__"):
        shape = obj.__cuda_array_interface__["shape"]
    else:
        raise invalid(f"{name}: pass the count explicitly with raw pointers")
    if not shape:
        raise invalid(f"{name}: expected an array, got a scalar")
    return int(shape[0])
