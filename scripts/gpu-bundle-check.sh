#!/usr/bin/env bash
# One device call on a lent H100/H200 over a bundle of binaries built here
# (the device machine has no compiler stack). build-gpu/v mirrors a build
# tree: runtime/libuqrt.so, the CUDA tests under test/unit/runtime, uq-run
# and uq-bench-cuda under tools/; build-gpu/old holds a baseline libuqrt for
# the decode A/B. In order, most needed first:
#   1. scripts/cuda-test.sh over build-gpu/v (every CUDA test, the uq-run
#      steps against the host oracles, the torch tests), and beside it the
#      extra libraries' checks (below);
#   2. the extras' A/Bs against old and new (scripts/sm90-ab.sh);
#   3. uq-bench-cuda: prefill, decode (old against new, bf16 and fp16),
#      verify; scripts/varlen-peers.py (torch SDPA on the same shapes);
#   4. scripts/host-cost.py (host cost per call of the Python paths), then,
#      when dist/ holds a wheel (carried too), scripts/cuda-wheel-test.sh.
# usage: here, scripts/gpu-bundle-check.sh --make BUILD OLD_LIB [NAME=LIB..]
#        fills build-gpu/; then, on the device machine from the repository
#        root with build-gpu carried, scripts/gpu-bundle-check.sh
#        Each NAME=LIB (a libuqrt.so.0 built from other kernels, e.g. a
#        branch's, or a build tree: its libuqrt and its store test, whose
#        own table holds that build's stores, e.g. one configured with
#        -DUQ_HELD_VARIANTS=ON) goes to build-gpu/ab/NAME: the run checks
#        it with scripts/wgmma-quick.sh and runtime_cuda_device_test's
#        varlen and held_head_dims cases (unless NAME starts with timing-:
#        an ablation, wrong outputs by design) and the store test, and
#        times the prefill chunk at D 256, 128 and 64 and the verify steps
#        with it, old and new in one scripts/sm90-ab.sh each.
#        UQ_EXTRA_HEAD_DIMS="D.." adds uq-run steps at those dims, with
#        main's library and each extra, and, with UQ_BENCH, uq-bench-cuda
#        and scripts/varlen-peers.py at them with each extra.
R=$PWD
G=$R/build-gpu
V=$G/v
if [[ ${1:-} == --make ]]; then
  set -euo pipefail
  build=$2 old=$(realpath "$3") && cp -L "$old" /tmp/uq-old-libuqrt.so.0
  extra=("${@:4}")
  rm -rf "$G"
  mkdir -p "$V/runtime" "$V/test/unit/runtime" "$V/tools/uq-run" \
    "$V/tools/uq-bench-cuda" "$G/old"
  cp -L "$build/runtime/libuqrt.so.0" "$V/runtime/libuqrt.so.0"
  cp -L "$build/runtime/libuqrt.so.0" "$V/runtime/libuqrt.so"
  for t in runtime_cuda_test runtime_cuda_device_test runtime_cuda_store_test \
    runtime_cuda_views_test; do
    cp "$build/test/unit/runtime/$t" "$V/test/unit/runtime/"
  done
  cp "$build/tools/uq-run/uq-run" "$V/tools/uq-run/"
  cp "$build/tools/uq-bench-cuda/uq-bench-cuda" "$V/tools/uq-bench-cuda/"
  mv /tmp/uq-old-libuqrt.so.0 "$G/old/libuqrt.so.0"
  for e in "${extra[@]}"; do
    [[ $e == *=* ]] || { echo "$0: expected NAME=LIB, got '$e'" >&2; exit 2; }
    mkdir -p "$G/ab/${e%%=*}"
    if [[ -d ${e#*=} ]]; then
      cp -L "${e#*=}/runtime/libuqrt.so.0" "$G/ab/${e%%=*}/libuqrt.so.0"
      cp "${e#*=}/test/unit/runtime/runtime_cuda_store_test" "$G/ab/${e%%=*}/"
    else
      cp -L "${e#*=}" "$G/ab/${e%%=*}/libuqrt.so.0"
    fi
  done
  du -sh "$G"
  exit 0
fi
log=${OUT:-/tmp}/gpu-bundle-check.txt
exec > >(tee "$log") 2>&1
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
export LD_LIBRARY_PATH=$V/runtime
export UQ_TEST_SEED=${UQ_TEST_SEED:-$(date +%s)}
SECONDS=0
# UQ_CUDA_TEST_LIMIT: seconds for cuda-test.sh (0 skips it, for a call
# that runs it alone); UQ_CUDA_TEST_FROM resumes it (scripts/cuda-test.sh).
# UQ_AB: the extras' A/Bs, "prefill,verify" (default) or one of them;
# UQ_AB_VERIFY_DIMS: head dims besides 256 for the verify A/B ("128 64");
# UQ_AB_PREFILL_DIMS: the prefill A/B's head dims ("256 128 64");
# UQ_AB_OLD=0 leaves the old library out of them (new against the extras).
# UQ_BENCH=0 ends the run after the A/Bs.
UQ_AB=${UQ_AB:-prefill,verify}
export UQRT_LIBRARY=$V/runtime/libuqrt.so
# scripts/wgmma-quick.sh with the libuqrt in $1
quick() {
  RUN=$V/tools/uq-run/uq-run LIB=$1 timeout 150 bash "$R/scripts/wgmma-quick.sh" |
    grep -E "^==|over tol|result|error" | cut -c1-100 | paste - - - | cut -c1-190
}
# A canary for each extra library (an unproven kernel may hang, and a hang
# would burn every later timeout): one wgmma chunk and one verify step a
# head dim, 20 s each; a library that times out is dropped from the run.
for lib in "$G"/ab/*/; do
  [[ -e $lib/libuqrt.so.0 ]] || continue
  for d in 256 128 64; do
    for q in "--query-len=256 --qg=8" "--query-len=4 --qg=16"; do
      LD_LIBRARY_PATH=$lib timeout 20 "$V/tools/uq-run/uq-run" --backend=cuda \
        --seed=5 --head-dim=$d $q --kv-heads=1 --seq-lens=2000 >/dev/null 2>&1
      [[ $? == 124 ]] || continue
      echo "=== $(basename "$lib") hung at D $d ($q): dropped" && rm -rf "$lib" && continue 3
    done
  done
done
# cuda-test.sh and each extra library's checks (scripts/wgmma-quick.sh and
# runtime_cuda_device_test's varlen cases; its decode cases run kernels
# the extras share with main) side by side, none of them timed; a
# library named timing-* (an ablation, wrong outputs by design) is not
# checked. Their logs print in that order once all are done.
checks=$(mktemp -d) pids=()
if [[ ${UQ_CUDA_TEST_LIMIT:-330} != 0 ]]; then
  (
    echo "=== scripts/cuda-test.sh ${UQ_CUDA_TEST_FROM:+from $UQ_CUDA_TEST_FROM}"
    start=$SECONDS
    timeout ${UQ_CUDA_TEST_LIMIT:-330} bash "$R/scripts/cuda-test.sh" "$V" 2>&1 |
      grep -E "^==|^seed|passed|failed|FAIL|skip|over tol|error|Error|result:|^ok|ok$|^\([0-9]+s\)|^\(exit" |
      grep -v "^\[  ok\]" | cut -c1-160
    echo "cuda-test.sh rc ${PIPESTATUS[0]} ($((SECONDS - start))s)"
  ) >"$checks/0" 2>&1 &
  pids+=($!)
fi
for lib in "$G"/ab/*/; do
  name=$(basename "$lib")
  [[ -e $lib/libuqrt.so.0 && $name != timing-* ]] || continue
  (
    echo "=== wgmma-quick with $name"
    quick "$lib"
  ) >"$checks/$name.1" 2>&1 &
  pids+=($!)
  (
    echo "=== runtime_cuda_device_test varlen, held_head_dims with $name"
    LD_LIBRARY_PATH=$lib timeout 150 "$V/test/unit/runtime/runtime_cuda_device_test" varlen held_head_dims 2>&1 |
      grep -E "FAIL|SKIP|passed|failed|error" | cut -c1-160
    if [[ -x $lib/runtime_cuda_store_test ]]; then
      echo "=== its runtime_cuda_store_test"
      LD_LIBRARY_PATH=$lib timeout 60 "$lib/runtime_cuda_store_test" 2>&1 |
        grep -E "FAIL|skip|passed|failed|error" | cut -c1-160
    fi
  ) >"$checks/$name.2" 2>&1 &
  pids+=($!)
done
# (the pids: a bare wait would wait for the tee above too)
wait "${pids[@]}"
cat "$checks"/* 2>/dev/null
rm -rf "$checks"
echo "(${SECONDS}s)"
if [[ ${UQ_CUDA_TEST_LIMIT:-330} == 0 ]]; then
  # without cuda-test.sh: main's own wgmma-quick
  echo "=== wgmma-quick"
  quick "$V/runtime"
fi
run() { echo "== $*"; timeout 40 $V/tools/uq-run/uq-run --backend=cuda "$@" 2>&1 | grep -E "variant|vs faithful|result|error" | cut -c1-100 | paste - - - ; }
for lib in "$V/runtime" "$G"/ab/*/; do
  [[ -e $lib/libuqrt.so.0 && $(basename "$lib") != timing-* ]] || continue
  for d in ${UQ_EXTRA_HEAD_DIMS:-}; do
    echo "=== head dim $d with $lib"
    # (D 512 has no QG 16 decode: its step says so by name)
    LD_LIBRARY_PATH=$lib run --head-dim=$d --seed=8
    LD_LIBRARY_PATH=$lib run --head-dim=$d --seed=9 --qg=16 --sinks --sliding-window=700
    LD_LIBRARY_PATH=$lib run --head-dim=$d --seed=12 --qg=3 --sinks --sliding-window=700
    LD_LIBRARY_PATH=$lib run --head-dim=$d --seed=10 --query-len=4 --qg=8 --dtype=f16
    LD_LIBRARY_PATH=$lib run --head-dim=$d --seed=11 --query-len=300 --qg=4 --kv-heads=1 --seq-lens=2000
  done
done
if compgen -G "$G/ab/*/libuqrt.so.0" >/dev/null; then
  prefill_dims="" verify_dims="" old=$G/old
  [[ ${UQ_AB_OLD:-1} == 0 ]] && old=""
  [[ $UQ_AB == *prefill* ]] && prefill_dims=${UQ_AB_PREFILL_DIMS:-256 128 64}
  [[ $UQ_AB == *verify* ]] && verify_dims="256 ${UQ_AB_VERIFY_DIMS:-}"
  for d in $prefill_dims; do
    echo "=== prefill chunk D $d: old, new, ${G}/ab/*"
    timeout 120 bash "$R/scripts/sm90-ab.sh" -r 2 "$V" $old "$V/runtime" "$G"/ab/*/ -- \
      --query-len=2048 --shape=1,34816,1,8 --replays=10 --head-dim=$d
  done
  for d in $verify_dims; do
    echo "=== verify q_len 4 D $d (uq-bench-cuda's shapes): old, new, ${G}/ab/*"
    timeout 120 bash "$R/scripts/sm90-ab.sh" -r 2 "$V" $old "$V/runtime" "$G"/ab/*/ -- \
      --query-len=4 --replays=50 --head-dim=$d
  done
  echo "(${SECONDS}s)"
fi
[[ ${UQ_BENCH:-1} == 0 ]] && exit 0
B=$V/tools/uq-bench-cuda/uq-bench-cuda
row() { awk -v tag="$1" '/^device-to-device copy:/ {c=$3} $1 ~ /^[0-9]+$/ {r = r sprintf(" %s/%s/%s/%s %s %s %s %s |", $1,$2,$3,$4,$5,$8,$10,$11)} END {printf "%s (copy %s):%s\n", tag, c, r}'; }
echo "=== prefill D256"
timeout 30 $B --query-len=2048 --shape=1,34816,1,8 --replays=10 | row "bf16"
timeout 30 $B --query-len=2048 --shape=1,34816,1,8 --replays=10 --dtype=f16 | row "f16"
echo "=== decode"
LD_LIBRARY_PATH=$G/old timeout 40 $B --replays=100 | row "old bf16"
timeout 40 $B --replays=100 | row "new bf16"
timeout 40 $B --replays=100 --dtype=f16 | row "new f16"
LD_LIBRARY_PATH=$G/old timeout 40 $B --replays=100 | row "old bf16"
echo "=== verify q4"
timeout 40 $B --query-len=4 --replays=50 | row "bf16"
timeout 40 $B --query-len=4 --replays=50 --dtype=f16 | row "f16"
echo "(${SECONDS}s)"
# the extra head dims with each extra library, then torch SDPA on the same
# shapes once (it does not depend on the library)
for d in ${UQ_EXTRA_HEAD_DIMS:-}; do
  for lib in "$G"/ab/*/; do
    [[ -e $lib/libuqrt.so.0 ]] || continue
    echo "=== D $d with $(basename "$lib"): decode, verify q4"
    LD_LIBRARY_PATH=$lib timeout 40 $B --replays=100 --head-dim=$d | row "decode"
    LD_LIBRARY_PATH=$lib timeout 40 $B --query-len=4 --replays=50 --head-dim=$d | row "verify"
  done
  echo "=== D $d: torch SDPA peers"
  timeout 150 python3 $R/scripts/varlen-peers.py --replays=20 --head-dim=$d 2>&1 | grep -v "^$"
done
echo "=== host cost"
PYTHONPATH=$R/python:$R/test/gpu timeout 90 python3 $R/scripts/host-cost.py --calls=2000 2>&1 | head -10
echo "=== torch SDPA peers"
timeout 150 python3 $R/scripts/varlen-peers.py --replays=20 2>&1 | grep -v "^$"
echo "(${SECONDS}s)"
if compgen -G "$R/dist/uqrt-*.whl" >/dev/null; then
  echo "=== the wheel (scripts/cuda-wheel-test.sh)"
  timeout 240 bash "$R/scripts/cuda-wheel-test.sh" 2>&1 | grep -vE "^\[  ok\]|^$" | tail -25
  echo "wheel rc ${PIPESTATUS[0]} (${SECONDS}s)"
fi
