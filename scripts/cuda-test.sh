#!/usr/bin/env bash
# The CUDA tests, on a machine with an NVIDIA Hopper GPU (sm_90a): the
# decode + reduce cubins against the host oracles over QG 6/8/16, block
# sizes 16..256, padded slots (4- and 8-byte copy paths), fused-QKV and
# padded-output strides, sliding windows, sinks, E4M3 saturation, ragged and
# >= 128k-token contexts, unwritten (0xFF) cache blocks, and both launch
# policies. Needs only the CUDA driver there: build here, carry
# BUILD/tools/uq-bench-cuda/uq-bench-cuda and BUILD/kernels/*.cubin.
# usage: scripts/cuda-test.sh [BUILD_DIR]   (default: build)
#   UQ_BENCH_CUDA=PATH UQ_KERNEL_DIR=DIR override the two locations;
#   UQ_TEST_SEED=N replays a run.
set -euo pipefail
build=${1:-build}
tool=${UQ_BENCH_CUDA:-$build/tools/uq-bench-cuda/uq-bench-cuda}
kernels=${UQ_KERNEL_DIR:-$build/kernels}
echo "== uq-bench-cuda --check --long ($kernels)"
"$tool" "--kernels=$kernels" --check --long
