#!/usr/bin/env bash
# A/B timing of sm_90a kernel changes on an H100/H200: runs the build's
# uq-bench-cuda against two or more libuqrt copies in turn (LIB_DIR holds a
# libuqrt.so.0), ROUNDS times round-robin in one process tree, so that
# clock and thermal drift fall on every copy alike, and prints per copy and
# round the copy bandwidth and each shape's us/step and % of copy.
# A copy with edited kernels comes from a second build tree:
#   cmake -S . -B build-b -DUQ_KERNEL_SOURCE_DIR=edited-kernels/
#   cmake --build build-b --target uqrt        # build-b/runtime/libuqrt.so.0
# usage: scripts/sm90-ab.sh [-r ROUNDS] BUILD_DIR LIB_DIR... [-- BENCH_ARGS]
#   BUILD_DIR: where tools/uq-bench-cuda/uq-bench-cuda is; BENCH_ARGS go to
#   every uq-bench-cuda run (e.g. --head-dim=128, --shape=64,4096,2,8).
set -euo pipefail
rounds=2
if [[ ${1:-} == -r ]]; then
  rounds=$2
  shift 2
fi
(($# >= 2)) || {
  echo "usage: $0 [-r ROUNDS] BUILD_DIR LIB_DIR... [-- BENCH_ARGS]" >&2
  exit 2
}
bench=$1/tools/uq-bench-cuda/uq-bench-cuda
shift
libs=()
while (($#)) && [[ $1 != -- ]]; do
  libs+=("$1")
  shift
done
(($#)) && shift
[[ -x $bench ]] || { echo "$0: no $bench" >&2; exit 2; }
for lib in "${libs[@]}"; do
  [[ -f $lib/libuqrt.so.0 ]] || { echo "$0: no $lib/libuqrt.so.0" >&2; exit 2; }
done
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for ((round = 1; round <= rounds; ++round)); do
  for lib in "${libs[@]}"; do
    LD_LIBRARY_PATH=$lib "$bench" "$@" >"$out" 2>&1 || {
      echo "$0: $lib: uq-bench-cuda failed:" >&2
      cat "$out" >&2
      exit 1
    }
    # the table's rows start with B; columns 8 and 10 are us/step and % copy
    awk -v lib="$lib" -v round="$round" '
      /^device-to-device copy:/ { copy = $3 " GB/s" }
      $1 ~ /^[0-9]+$/ { row = row sprintf(" %s/%s/%s/%s %s %s |", $1, $2, $3, $4, $8, $10) }
      END { printf "%s round %d (copy %s):%s\n", lib, round, copy, row }' "$out"
  done
done
