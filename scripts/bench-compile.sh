#!/usr/bin/env bash
# Benchmark: wall time of uq-compile per kernel variant (one process each,
# as a build runs it) and for the whole variant set (one process).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
compile="$build/tools/uq-compile/uq-compile"
[[ -x $compile ]] || { echo "bench-compile: build first ($compile missing)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
printf '%-22s %10s\n' variant wall_s
# --list prints the key first, then what the variant serves
for variant in $("$compile" kernels --list | awk '{print $1}'); do
  start=$EPOCHREALTIME
  "$compile" kernels -o "$out" --variant="$variant" --quiet
  end=$EPOCHREALTIME
  awk -v v="$variant" -v s="$start" -v e="$end" 'BEGIN { printf "%-22s %10.3f\n", v, e - s }'
done
start=$EPOCHREALTIME
"$compile" kernels -o "$out" --quiet
end=$EPOCHREALTIME
awk -v s="$start" -v e="$end" 'BEGIN { printf "%-22s %10.3f\n", "all", e - s }'
