#!/usr/bin/env bash
# On an H100/H200: the wheel built here (scripts/test-wheel.sh leaves it in
# dist/), installed with pip into a scratch directory, then `python -m uqrt`
# and the torch GPU tests through the installed package, with no build tree
# and no LLVM on the machine.
# usage: scripts/cuda-wheel-test.sh [WHEEL]   (default: dist/uqrt-*.whl)
set -uo pipefail
cd "$(dirname "$0")/.."
wheel=${1:-$(ls dist/uqrt-*.whl | head -1)}
site=$(mktemp -d)
python3 -m pip install -q --no-deps --no-index --target "$site" "$wheel" ||
  exit 1
status=0
run() {
  echo "== $*"
  env -u UQRT_LIBRARY PYTHONPATH="$site" "$@" || {
    rc=$?
    ((rc == 77)) && echo "(skipped)" || status=1
  }
}
run python3 -m uqrt
for script in torch_varlen.py torch_streams.py torch_compile.py; do
  run python3 "test/gpu/$script"
done
exit $status
