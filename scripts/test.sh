#!/usr/bin/env bash
# Runs every test: the C unit tests, the Python tests and the lit suite, in a
# normal build and in an AddressSanitizer + UndefinedBehaviorSanitizer build;
# then the thread tests (runtime_threads_test) in a ThreadSanitizer build;
# then the wheel: built with pip, installed in a clean virtual environment
# and the Python tests run against it (scripts/test-wheel.sh).
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

# ThreadSanitizer: libuqrt, the simulator module and the thread test only
# (100 calls a thread: TSan runs them ~30x slower; any report fails it).
echo "== tsan build (build-tsan)"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DUQ_ENABLE_TSAN=ON >/dev/null
cmake --build build-tsan -j "$jobs" --target runtime_threads_test uqrt_sim
echo "== tsan tests"
UQ_THREAD_CALLS=100 TSAN_OPTIONS="halt_on_error=1" \
  ctest --test-dir build-tsan -R '^runtime_threads_test$' --output-on-failure

echo "== wheel (scripts/test-wheel.sh)"
./scripts/test-wheel.sh
