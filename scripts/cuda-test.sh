#!/usr/bin/env bash
# The CUDA tests, on a machine with an NVIDIA Hopper GPU (compute capability
# 9.0), through libuqrt's CUDA backend and the sm_90a cubins embedded in it:
#   runtime_cuda_test         backend selection and errors
#   runtime_cuda_device_test  every QG 1-16, block sizes 16-256, padded
#                             slots, fused-QKV and padded-output strides,
#                             sliding windows with 0xFF before them, sinks,
#                             large queries (E4M3 saturation), ragged and
#                             >= 128k-token contexts, garbage spare blocks,
#                             against the host kernel-faithful reference;
#                             a run captured into a CUDA graph
#   runtime_cuda_views_test   query and output views with an element stride
#                             (the view kernel), bit for bit the contiguous
#                             run, nothing outside the view written
#   runtime_cuda_store_test   the sm_90a store kernel (D 64, 128, 256)
#                             byte for byte against the host encoder:
#                             random, heavy-tailed and adversarial values,
#                             skipped, repeated and past-the-cache slots,
#                             fused strides, poison outside the slots kept
#                             and varlen runs (verify chunks, a mixed step,
#                             a captured varlen run)
#   uq-run --backend=cuda     whole decode and varlen steps against the host
#                             oracles (scripts/wgmma-quick.sh: the
#                             warpgroup-MMA kernel's shapes)
#   test/gpu/torch_varlen.py  uqrt.store and ultraquant_unified_attention on
#                             torch CUDA tensors, eager and captured in
#                             torch.cuda.graph (skips without torch)
#   test/gpu/torch_streams.py two threads on two streams through one
#                             serving object, outputs equal to serial
#   test/gpu/torch_compile.py the custom ops under torch.compile(fullgraph)
#                             and in a CUDA graph, equal to eager; no host
#                             sync; vLLM's PiT checked once
# Needs only the CUDA driver there (libuqrt links libc/libm): build here,
# carry the build tree's binaries and libuqrt.so.
# The steps run side by side, UQ_CUDA_TEST_JOBS at a time (default: the
# machine's cores, nproc; runtime_cuda_device_test as one process per
# case: its host references take minutes on one core; on a 16-core H100
# machine 14 at a time ran the whole script in 129 s), each into its own
# log; the logs are printed in the steps' order as they finish, with each
# step's seconds and exit status.
# usage: scripts/cuda-test.sh [BUILD_DIR]   (default: build)
#   UQ_TEST_SEED=N replays a run; UQ_CUDA_TEST_FROM=TEXT skips the steps
#   before the first whose command line contains TEXT (resumes a run that a
#   time limit cut); UQ_CUDA_TEST_LOGS=DIR keeps the logs there.
set -euo pipefail
build=${1:-build}
export UQ_TEST_SEED=${UQ_TEST_SEED:-$(date +%s)}
echo "seed: UQ_TEST_SEED=$UQ_TEST_SEED"
from=${UQ_CUDA_TEST_FROM:-}
logs=${UQ_CUDA_TEST_LOGS:-$(mktemp -d)}
mkdir -p "$logs"
steps=0 shown=0 status=0
# Prints the finished logs from the first not yet shown, in order.
show() {
  while ((shown < steps)) && [[ -e $logs/$shown.rc ]]; do
    cat "$logs/$shown.cmd" "$logs/$shown.log"
    local rc
    rc=$(cat "$logs/$shown.rc")
    if ((rc == 77)); then
      echo "(skipped)"
    elif ((rc != 0)); then
      echo "(exit $rc)"
      status=1
    fi
    shown=$((shown + 1))
  done
}
run() {
  if [[ -n $from ]]; then
    [[ "$*" == *"$from"* ]] || return 0
    from=
  fi
  while (($(jobs -rp | wc -l) >= ${UQ_CUDA_TEST_JOBS:-$(nproc)})); do
    wait -n || true
    show
  done
  local n=$steps
  echo "== $*" >"$logs/$n.cmd"
  (
    start=$SECONDS
    rc=0
    "$@" >"$logs/$n.log" 2>&1 || rc=$?
    echo "($((SECONDS - start))s)" >>"$logs/$n.log"
    echo $rc >"$logs/$n.rc"
  ) &
  steps=$((steps + 1))
}
device_test=$build/test/unit/runtime/runtime_cuda_device_test
run "$build/test/unit/runtime/runtime_cuda_test"
cases=$("$device_test" --list 2>/dev/null) || cases=
# a binary that cannot list its cases runs whole, and says why it failed
[[ -n $cases ]] || run "$device_test"
for case in $cases; do
  run "$device_test" "$case"
done
run "$build/test/unit/runtime/runtime_cuda_store_test"
run "$build/test/unit/runtime/runtime_cuda_views_test"
uq_run=$build/tools/uq-run/uq-run
run "$uq_run" --backend=cuda --seed="$UQ_TEST_SEED"
run "$uq_run" --backend=cuda --qg=6 --block-size=64 --fused-qkv --sinks --seed="$UQ_TEST_SEED"
run "$uq_run" --backend=cuda --qg=16 --batch=2 --kv-heads=1 --max-seq=131072 --seed="$UQ_TEST_SEED"
run "$uq_run" --backend=cuda --qg=5 --sliding-window=700 --padded-slot=304 --seed="$UQ_TEST_SEED"
run "$uq_run" --backend=cuda --steps=8 --seed="$UQ_TEST_SEED"
run "$uq_run" --backend=cuda --head-dim=128 --qg=8 --seed="$UQ_TEST_SEED"
run "$uq_run" --backend=cuda --head-dim=128 --qg=16 --sinks --fused-qkv --seed="$UQ_TEST_SEED"
run "$uq_run" --backend=cuda --head-dim=64 --qg=8 --seed="$UQ_TEST_SEED"
run "$uq_run" --backend=cuda --head-dim=64 --qg=16 --sinks --fused-qkv --seed="$UQ_TEST_SEED"
run "$uq_run" --backend=cuda --query-len=4 --qg=8 --seed="$UQ_TEST_SEED"
run "$uq_run" --backend=cuda --query-len=7 --qg=3 --sliding-window=500 --sinks --seed="$UQ_TEST_SEED"
run "$uq_run" --backend=cuda --head-dim=64 --query-len=16 --qg=4 --sliding-window=300 --seed="$UQ_TEST_SEED"
run "$uq_run" --backend=cuda --query-len=3 --qg=16 --batch=5 --kv-heads=1 --max-seq=20000 --fused-qkv --seed="$UQ_TEST_SEED"
# the warpgroup-MMA kernel's varlen shapes (verify steps, chunks, a mixed
# step; both walks, partials and the output written in the kernel)
run env RUN="$uq_run" LIB="$build/runtime" SEED="$UQ_TEST_SEED" \
  bash "$(dirname "$0")/wgmma-quick.sh"
# fp16 activations: the store byte for byte the host encoder every step,
# decode, verify and the wgmma chunks at D 256 and 64
run "$uq_run" --backend=cuda --dtype=f16 --steps=4 --seed="$UQ_TEST_SEED"
run "$uq_run" --backend=cuda --dtype=f16 --head-dim=128 --qg=16 --sinks --fused-qkv --seed="$UQ_TEST_SEED"
run "$uq_run" --backend=cuda --dtype=f16 --query-len=4 --qg=16 --kv-heads=1 --seed="$UQ_TEST_SEED"
run "$uq_run" --backend=cuda --dtype=f16 --query-len=512 --qg=8 --kv-heads=1 --seq-lens=4096 --seed="$UQ_TEST_SEED"
run "$uq_run" --backend=cuda --dtype=f16 --head-dim=64 --query-len=300 --qg=4 --kv-heads=1 --seq-lens=2000 --sliding-window=700 --seed="$UQ_TEST_SEED"
for script in torch_varlen.py torch_streams.py torch_compile.py; do
  run env PYTHONPATH="$(dirname "$0")/../python" \
    UQRT_LIBRARY="$build/runtime/libuqrt.so" \
    python3 "$(dirname "$0")/../test/gpu/$script"
done
wait
show
exit $status
