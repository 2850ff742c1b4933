#!/usr/bin/env bash
# Every benchmark, each printing its own figures (none of them is a test):
#   compile  uq-compile wall time per variant and for the whole set
#   format   UltraQuant format accuracy vs unquantized attention; encoder speed
#   sim      simulated wave-instructions per second on a decode-sized launch
#   kernels  per variant: global bytes read per token per KV head, VALU/LDS/
#            MFMA instructions per 16-token tile (simulator counters)
#   run      host cost of one uq_plan_run call (null launches)
#   varlen   varlen verify chunks on the simulator against separate decodes
#            (scripts/bench-varlen-sim.sh: instructions per query token,
#            distinct KV bytes, bytes in flight)
#   cuda     on an H100/H200 (skips elsewhere): the issue-9 shapes through
#            libuqrt's CUDA backend at D 256 and 128, us/step, KV GB/s and %
#            of copy bandwidth
#   fuzz     the code-object loader fuzzer for 60 s (needs clang; see
#            scripts/fuzz-codeobj.sh), then the simulator's full mutation
#            sweep of every shipped code object (scripts/fuzz-sim.sh)
# Usage: scripts/bench.sh [NAME...]   (default: all but fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
if [[ ! -x $build/tools/uq-compile/uq-compile ]]; then
  ./scripts/install-deps.sh
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$build" -j "$(nproc)"
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(free -g | awk '/Mem:/ {print $2}') GiB"
names=("$@")
((${#names[@]})) || names=(compile format sim kernels run varlen)
for name in "${names[@]}"; do
  echo "== $name"
  case $name in
  compile) BUILD_DIR=$build ./scripts/bench-compile.sh ;;
  format) "$build/tools/uq-bench-format/uq-bench-format" ;;
  sim)
    "$build/tools/uq-bench-sim/uq-bench-sim"
    "$build/tools/uq-bench-sim/uq-bench-sim" --decode "$build/kernels/decode_d256_rows8.hsaco"
    ;;
  kernels) UQ_KERNEL_DIR="$build/kernels" "$build/test/unit/kernels/uq_kernels_sim_bench" 32768 ;;
  run)
    "$build/tools/uq-bench-run/uq-bench-run" --batch=1
    "$build/tools/uq-bench-run/uq-bench-run" --batch=4 --embedded
    ;;
  varlen) ./scripts/bench-varlen-sim.sh "$build" ;;
  cuda)
    for d in 256 128; do
      "$build/tools/uq-bench-cuda/uq-bench-cuda" --head-dim=$d || [[ $? == 77 ]]
    done
    ;;
  fuzz) ./scripts/fuzz-codeobj.sh 60 && ./scripts/fuzz-sim.sh ;;
  *) echo "bench: unknown benchmark '$name'" >&2; exit 1 ;;
  esac
done
