#!/usr/bin/env bash
# The main job: build everything, then run UltraQuant decode end to end
# through libuqrt (uq-run) on the best backend available. Extra arguments go
# to uq-run (see `build/tools/uq-run/uq-run --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)"
exec build/tools/uq-run/uq-run "$@"
