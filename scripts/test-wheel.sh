#!/usr/bin/env bash
# The Python package as a user installs it: `pip wheel .` (the PEP 517
# build in pyproject.toml), the wheel's library checked to need only the C
# runtime, installed into a clean virtual environment (system site packages
# for numpy and pytest: these machines reach no package index), then
# `python -m uqrt` and the Python tests against the installed package, not
# the build tree.
# usage: scripts/test-wheel.sh [WHEEL_DIR]   (default: dist)
#   PYTHON: the interpreter (default: Debian's /usr/bin/python3, whose numpy,
#   pytest, pip and venv install-deps.sh installs)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
python=${PYTHON:-/usr/bin/python3}
dist=${1:-dist}
rm -rf "$dist" && mkdir -p "$dist"
"$python" -m pip wheel . --no-build-isolation --no-deps -w "$dist" -q
wheel=$(ls "$dist"/uqrt-*.whl)
echo "wheel: $wheel"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$python" -m zipfile -e "$wheel" "$scratch/unpacked"
needed=$(readelf -d "$scratch/unpacked/uqrt/_lib/libuqrt.so" |
  sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
echo "libuqrt NEEDED: $needed"
for n in $needed; do
  case "$n" in
  libc.so.* | libm.so.* | libdl.so.* | libpthread.so.*) ;;
  *) echo "FAIL: the wheel's libuqrt needs $n" >&2; exit 1 ;;
  esac
done
"$python" -m venv --system-site-packages "$scratch/venv"
"$scratch/venv/bin/python" -m pip install -q --no-deps --no-index "$wheel"
cd "$scratch" # away from the checkout: `import uqrt` is the installed one
env -u PYTHONPATH -u UQRT_LIBRARY "$scratch/venv/bin/python" - <<PY
import uqrt
assert uqrt.__file__.startswith("$scratch/venv/"), uqrt.__file__
assert uqrt.library_path.startswith("$scratch/venv/"), uqrt.library_path
assert "$wheel".split("/")[-1].startswith(f"uqrt-{uqrt.__version__}-")
print(f"installed uqrt {uqrt.__version__} from {uqrt.library_path}")
PY
env -u PYTHONPATH -u UQRT_LIBRARY "$scratch/venv/bin/python" -m uqrt
env -u PYTHONPATH -u UQRT_LIBRARY PYTHONDONTWRITEBYTECODE=1 \
  "$scratch/venv/bin/python" -m pytest -q -p no:cacheprovider \
  "$OLDPWD/python/tests"
