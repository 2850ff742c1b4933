#!/usr/bin/env bash
# One device call's worth of checks on an H100/H200: the CUDA tests
# (scripts/cuda-test.sh), then uq-bench-cuda's decode shapes, its verify
# shapes (--query-len=4) and the prefill chunk (--query-len=2048 on a
# 34816-token context), each beside the copy kernel; the host cost of a
# Python call through the torch op and through ctypes (scripts/host-cost.py).
# usage: scripts/cuda-check.sh [BUILD_DIR]   (default: build)
set -uo pipefail
build=${1:-build}
bench=$build/tools/uq-bench-cuda/uq-bench-cuda
status=0
"$(dirname "$0")/cuda-test.sh" "$build" || status=1
echo "== decode"
"$bench" || status=1
echo "== verify"
"$bench" --query-len=4 || status=1
echo "== prefill"
"$bench" --query-len=2048 --shape=1,34816,1,8 --replays=20 || status=1
echo "== host cost"
PYTHONPATH="$(dirname "$0")/../python" UQRT_LIBRARY="$build/runtime/libuqrt.so" \
  python3 "$(dirname "$0")/host-cost.py"
rc=$?
((rc == 0 || rc == 77)) || status=1
exit $status
