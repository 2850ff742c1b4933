"""What the torch GPU scripts share: the skip (exit 77) without torch or a
CUDA device, the seeded generator (UQ_TEST_SEED, printed), random bf16 data,
numpy -> CUDA tensors and the CUDA backend's tolerance against the exact
reference. Imported first by each script (they run as
`python3 test/gpu/<script>.py`, so this folder is on the path)."""

import os
import sys

import numpy as np

try:
    import torch
except ImportError:
    print("SKIP: no torch")
    sys.exit(77)
if not torch.cuda.is_available():
    print("SKIP: no CUDA device")
    sys.exit(77)

import uqrt  # noqa: E402

seed = int(os.environ.get("UQ_TEST_SEED", "1")) % 2**32
rng = np.random.default_rng(seed)
print(f"seed: UQ_TEST_SEED={seed}")
dev = torch.device("cuda")


def bf16(shape, scale=1.0):
    """Random N(0, scale^2) values as bf16 bit patterns (uint16)."""
    return uqrt.bf16_from_float(
        (rng.standard_normal(shape) * scale).astype(np.float32))


def to_torch(a):
    """A numpy array on the GPU; bf16 (uint16) as torch.bfloat16."""
    t = torch.from_numpy(np.ascontiguousarray(a)).to(dev)
    return t.view(torch.bfloat16) if a.dtype == np.uint16 else t


def within_tolerance(got, want):
    """(ok, max |error|, entries outside): the kernels' order against the
    float64 exact reference, two bf16 ulps at the row's scale on cuda (as
    uq_problem_use_backend); a non-finite output fails."""
    g = uqrt.float_from_bf16(got).astype(np.float64)
    w = uqrt.float_from_bf16(want).astype(np.float64)
    row = np.abs(w).max(axis=-1, keepdims=True)
    bad = np.abs(g - w) > 2.0**-6 * np.abs(w) + 2.0**-7 * row
    ok = bool(not bad.any() and np.isfinite(g).all())
    return ok, float(np.abs(g - w).max()), int(bad.sum())
