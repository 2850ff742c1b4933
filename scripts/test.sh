#!/usr/bin/env bash
# Runs every test: the C unit tests and the lit suite, in a normal build and
# in an AddressSanitizer + UndefinedBehaviorSanitizer build.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh

jobs=$(nproc)
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$PWD/test/lsan.supp:print_suppressions=0"

for config in release asan; do
  dir=build
  flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
  if [[ $config == asan ]]; then
    dir=build-asan
    flags=(-DCMAKE_BUILD_TYPE=Debug -DUQ_ENABLE_SANITIZERS=ON)
  fi
  echo "== $config build ($dir)"
  cmake -S . -B "$dir" -G Ninja "${flags[@]}" >/dev/null
  cmake --build "$dir" -j "$jobs"
  echo "== $config tests"
  ctest --test-dir "$dir" --output-on-failure -j "$jobs"
done
