"""The query rotation a caller may pass as vLLM's `PiT`.

uq's cache format rotates K (at store) and Q (at attention) by the
Sylvester Hadamard matrix of size D normalized by 1/sqrt(D), vLLM's default
rotation; the kernels apply it as a butterfly and take no matrix. A caller
that hands over its PiT gets it checked against that matrix: the same
matrix is accepted, any other is refused by name (uq has no other rotation
and must not ignore one silently).

A torch tensor is checked once (its values are copied to the host, which
synchronizes): the verdict is kept for that tensor object until it is
modified in place (torch's version counter). A numpy array is checked on
every call (a host comparison, no device).
"""

import threading
import weakref

import numpy as np

from ._status import Error, StatusCode, invalid

try:  # optional: numpy PiTs serve the host and sim backends without it
    import torch
except ImportError:  # pragma: no cover - depends on the machine
    torch = None

# Verified torch PiTs: id -> (weak reference, version, head dim).
_verified = {}
_verified_lock = threading.Lock()


def hadamard(head_dim):
    """The normalized Sylvester Hadamard matrix of size head_dim (a power
    of two), float64: H = H^T, H H^T = I."""
    h = np.ones((1, 1))
    while h.shape[0] < head_dim:
        h = np.block([[h, h], [h, -h]])
    return h / np.sqrt(head_dim)


def _tolerance(dtype_name, head_dim):
    """How far an entry may sit from +-1/sqrt(D): half an ulp of a 16-bit
    float's 8 (bf16) or 11 (fp16) significant bits, a few float32 ulps
    otherwise. Any other orthogonal matrix differs by far more."""
    bits = {"bfloat16": 8, "float16": 11}.get(dtype_name, 22)
    return 2.0 ** -bits / np.sqrt(head_dim)


def _check_values(values, dtype_name, head_dim):
    if values.shape != (head_dim, head_dim):
        raise invalid(f"PiT: shape {tuple(values.shape)}, expected "
                      f"({head_dim}, {head_dim}) for head dim {head_dim}")
    if not np.isfinite(values).all():
        raise invalid("PiT: holds non-finite values; uq's rotation is the "
                      "normalized Hadamard")
    error = float(np.abs(values - hadamard(head_dim)).max())
    if error > _tolerance(dtype_name, head_dim):
        raise invalid(f"PiT: not the normalized Sylvester Hadamard of size "
                      f"{head_dim} (max |PiT - H| = {error:.3g}), the only "
                      f"rotation uq's cache format has")


def _is_torch(x):
    return torch is not None and isinstance(x, torch.Tensor)


def check_pit(pit, head_dim):
    """None, or `pit` (torch tensor or numpy array, [D, D]) equal to the
    normalized Hadamard of size head_dim; raises INVALID_ARGUMENT naming
    PiT otherwise."""
    if pit is None:
        return
    if not _is_torch(pit):
        if not isinstance(pit, np.ndarray):
            raise invalid(f"PiT: expected a torch tensor or numpy array, got "
                          f"{type(pit).__name__}")
        _check_values(np.asarray(pit, np.float64), pit.dtype.name, head_dim)
        return
    key = id(pit)
    with _verified_lock:
        seen = _verified.get(key)
    if (seen is not None and seen[0]() is pit and seen[1] == pit._version and
            seen[2] == head_dim):
        return
    if pit.is_cuda and torch.cuda.is_current_stream_capturing():
        raise Error(StatusCode.FAILED_PRECONDITION,
                    "PiT: checking a new PiT reads it on the host, which a "
                    "capturing stream forbids: call once with it before "
                    "capture")
    dtype_name = str(pit.dtype).replace("torch.", "")
    _check_values(pit.detach().to("cpu", torch.float64).numpy(), dtype_name,
                  head_dim)
    with _verified_lock:
        _verified[key] = (weakref.ref(pit, lambda _, k=key: _forget(k)),
                          pit._version, head_dim)


def _forget(key):
    with _verified_lock:
        _verified.pop(key, None)
