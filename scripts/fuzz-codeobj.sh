#!/bin/sh
# Fuzzes the code-object reader (codeobj/) with libFuzzer for SECONDS
# (default 60), in its own clang-22 build directory. A benchmark-style
# command, not a test: it prints libFuzzer's figures and exits non-zero when
# the fuzzer finds a crash (the reproducer is left in
# build-fuzz-codeobj/artifacts/; keep it as a regression input in
# test/unit/codeobj/corpus/, which codeobj_corpus_test loads).
#
#   scripts/fuzz-codeobj.sh [SECONDS] [hsaco|cubin]
#
# hsaco (default): codeobj_fuzz over test/unit/codeobj/corpus/.
# cubin: cubin_fuzz (EM_CUDA stamped into every input) over the cubins a
# normal build made (build/kernels/*.cubin and the reader's ptxas probe;
# UQ_SEED_BUILD_DIR names another build) plus the committed corpus. The
# cubins are too large to commit as seeds; a build has them anyway.
set -eu
seconds=${1:-60}
kind=${2:-hsaco}
case $seconds in
  ''|*[!0-9]*) echo "fuzz-codeobj.sh: error: SECONDS must be a number, got '$seconds'" >&2; exit 1 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
build=${UQ_FUZZ_BUILD_DIR:-$root/build-fuzz-codeobj}
llvm=/usr/lib/llvm-22/bin
corpus=$root/test/unit/codeobj/corpus
case $kind in
  hsaco) target=codeobj_fuzz dict=codeobj.dict max_len=65536 seeds= ;;
  cubin)
    target=cubin_fuzz dict=cubin.dict max_len=131072
    from=${UQ_SEED_BUILD_DIR:-$root/build}
    seeds=$build/seeds-cubin
    mkdir -p "$seeds"
    for f in "$from"/kernels/*.cubin "$from"/test/unit/codeobj/inputs/*.cubin; do
      [ -f "$f" ] && cp "$f" "$seeds/"
    done
    if [ -z "$(ls "$seeds")" ]; then
      echo "fuzz-codeobj.sh: error: no cubins under $from (build it first: the README's build with CUDA)" >&2
      exit 1
    fi ;;
  *) echo "fuzz-codeobj.sh: error: the kind is hsaco or cubin, got '$kind'" >&2; exit 1 ;;
esac
if [ ! -x "$llvm/clang" ]; then
  echo "fuzz-codeobj.sh: error: $llvm/clang not found (scripts/install-deps.sh)" >&2
  exit 1
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=$llvm/clang CXX=$llvm/clang++ cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DUQ_BUILD_FUZZERS=ON >/dev/null
fi
cmake --build "$build" --target "$target" -j2
# New inputs go to a scratch directory per target; the committed corpus
# stays as is.
work=$build/corpus-$kind
mkdir -p "$work" "$build/artifacts"
cd "$build"
# shellcheck disable=SC2086 # $seeds is one directory or nothing
exec ./codeobj/fuzz/$target -max_total_time="$seconds" -print_final_stats=1 \
  -max_len=$max_len -rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10 \
  -dict="$root/codeobj/fuzz/$dict" -artifact_prefix="$build/artifacts/$kind-" \
  "$work" $seeds "$corpus"
