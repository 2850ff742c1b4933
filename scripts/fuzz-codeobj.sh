#!/bin/sh
# Fuzzes the code-object reader (codeobj/) with libFuzzer for SECONDS
# (default 60) over the seed corpus in test/unit/codeobj/corpus/, in its own
# clang-22 build directory. A benchmark-style command, not a test: it prints
# libFuzzer's figures and exits non-zero when the fuzzer finds a crash
# (the reproducer is left in build-fuzz-codeobj/artifacts/).
#
#   scripts/fuzz-codeobj.sh [SECONDS]
set -eu
seconds=${1:-60}
case $seconds in
  ''|*[!0-9]*) echo "fuzz-codeobj.sh: error: SECONDS must be a number, got '$seconds'" >&2; exit 1 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
build=${UQ_FUZZ_BUILD_DIR:-$root/build-fuzz-codeobj}
llvm=/usr/lib/llvm-22/bin
corpus=$root/test/unit/codeobj/corpus
if [ ! -x "$llvm/clang" ]; then
  echo "fuzz-codeobj.sh: error: $llvm/clang not found (scripts/install-deps.sh)" >&2
  exit 1
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=$llvm/clang CXX=$llvm/clang++ cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DUQ_BUILD_FUZZERS=ON >/dev/null
fi
cmake --build "$build" --target codeobj_fuzz -j2
# New inputs go to a scratch directory; the committed corpus stays as is.
work=$build/corpus
mkdir -p "$work" "$build/artifacts"
cd "$build"
exec ./codeobj/fuzz/codeobj_fuzz -max_total_time="$seconds" -print_final_stats=1 \
  -max_len=65536 -rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10 \
  -dict="$root/codeobj/fuzz/codeobj.dict" -artifact_prefix="$build/artifacts/" \
  "$work" "$corpus"
