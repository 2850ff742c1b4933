#!/usr/bin/env bash
# One device call on a lent H100/H200 over a bundle of binaries built here
# (the device machine has no compiler stack): build-gpu/v holds this tree's
# libuqrt (runtime/libuqrt.so.0), CUDA tests (test/) and uq-run and
# uq-bench-cuda (tools/), build-gpu/old a baseline libuqrt, build-gpu/ov a
# candidate one, build-gpu/wgmma-quick.sh scripts/wgmma-quick.sh. In order,
# most needed first: the views and store CUDA tests, fp16 steps against the
# host reference, the wgmma kernel's quick cases with v and ov, prefill,
# decode (old against v, bf16 and fp16) and verify figures, the torch
# serving test and the host cost per call (scripts/host-cost.py).
# usage: here, scripts/gpu-bundle-check.sh --make BUILD OLD_LIB [OV_LIB]
#        fills build-gpu/ (OV_LIB defaults to BUILD's libuqrt); then, on the
#        device machine from the repository root with build-gpu carried,
#        scripts/gpu-bundle-check.sh
R=$PWD
G=$R/build-gpu
V=$G/v
if [[ ${1:-} == --make ]]; then
  set -euo pipefail
  build=$2 old=$3 ov=${4:-$2/runtime/libuqrt.so.0}
  rm -rf "$G" && mkdir -p "$V/runtime" "$V/test" "$V/tools" "$G/old" "$G/ov"
  cp -L "$build/runtime/libuqrt.so.0" "$V/runtime/"
  for t in runtime_cuda_views_test runtime_cuda_store_test; do
    cp "$build/test/unit/runtime/$t" "$V/test/"
  done
  cp "$build/tools/uq-run/uq-run" "$build/tools/uq-bench-cuda/uq-bench-cuda" \
    "$V/tools/"
  cp -L "$old" "$G/old/libuqrt.so.0"
  cp -L "$ov" "$G/ov/libuqrt.so.0"
  cp "$R/scripts/wgmma-quick.sh" "$G/"
  du -sh "$G"
  exit 0
fi
log=${OUT:-/tmp}/gpu-bundle-check.txt
exec > >(tee "$log") 2>&1
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
export LD_LIBRARY_PATH=$V/runtime UQRT_LIBRARY=$V/runtime/libuqrt.so.0
export UQ_TEST_SEED=${UQ_TEST_SEED:-$(date +%s)}
echo "seed $UQ_TEST_SEED"
SECONDS=0
t() { echo "== $1"; timeout $2 $V/test/$1 2>&1 | grep -E "^\[|passed|failed|FAIL|SKIP|over tol" | grep -v "^\[  ok\]" | tail -8; }
t runtime_cuda_views_test 60
t runtime_cuda_store_test 40
run() { echo "== $*"; timeout 40 $V/tools/uq-run --backend=cuda "$@" 2>&1 | grep -E "variant|vs faithful|result|error" | cut -c1-100 | paste - - - ; }
echo "=== fp16"
run --dtype=f16 --seed=3
run --dtype=f16 --seed=4 --head-dim=128 --qg=16 --sinks --sliding-window=700
run --dtype=f16 --seed=6 --query-len=4 --qg=16 --kv-heads=1
run --dtype=f16 --seed=7 --query-len=512 --qg=8 --kv-heads=1 --seq-lens=4096
echo "(${SECONDS}s)"
quick() { cd "$G"; RUN=$V/tools/uq-run LIB=$1 timeout 90 bash ./wgmma-quick.sh | grep -E "^==|over tol|result|error" | cut -c1-100 | paste - - - | cut -c1-190; cd "$R"; }
echo "=== wgmma quick (main)"; quick $V/runtime
echo "=== wgmma quick (ov)"; quick $G/ov
echo "(${SECONDS}s)"
B=$V/tools/uq-bench-cuda
row() { awk -v tag="$1" '/^device-to-device copy:/ {c=$3} $1 ~ /^[0-9]+$/ {r = r sprintf(" %s/%s/%s/%s %s %s %s %s |", $1,$2,$3,$4,$5,$8,$10,$11)} END {printf "%s (copy %s):%s\n", tag, c, r}'; }
echo "=== prefill D256"
timeout 30 $B --query-len=2048 --shape=1,34816,1,8 --replays=10 | row "new bf16"
LD_LIBRARY_PATH=$G/ov timeout 30 $B --query-len=2048 --shape=1,34816,1,8 --replays=10 | row "ov bf16"
timeout 30 $B --query-len=2048 --shape=1,34816,1,8 --replays=10 --dtype=f16 | row "new f16"
echo "=== decode"
LD_LIBRARY_PATH=$G/old timeout 40 $B --replays=100 | row "old bf16"
timeout 40 $B --replays=100 | row "new bf16"
timeout 40 $B --replays=100 --dtype=f16 | row "new f16"
echo "=== verify q4"
timeout 40 $B --query-len=4 --replays=50 | row "new bf16"
timeout 40 $B --query-len=4 --replays=50 --dtype=f16 | row "new f16"
echo "(${SECONDS}s)"
echo "=== torch"
PYTHONPATH=$R/python:$R/test/gpu timeout 90 python3 $R/test/gpu/torch_varlen.py 2>&1 | tail -7
PYTHONPATH=$R/python:$R/test/gpu timeout 60 python3 $R/scripts/host-cost.py --calls=1000 2>&1 | head -9
echo "(${SECONDS}s)"
echo "(${SECONDS}s)"
