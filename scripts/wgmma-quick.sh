#!/usr/bin/env bash
# On an H100/H200: uq-run --backend=cuda over the varlen shapes the
# two-warpgroup sm_90a kernel (kernels/attention_sm90.mlir) serves, each
# against the host's kernel-faithful reference: uniform weights (the PV
# path alone), QG 1 blocks of 64 and 128 tokens, a token that attends one
# position, a verify step at QG 16 (partials), a 512-token chunk, a mixed
# step with windows and sinks, and chunks of 128 rows or more at D 128 and
# 64 (the 64-token D 64 cases above are decode blocks: under min_rows).
# usage: [LIB=DIR] [RUN=UQ_RUN] scripts/wgmma-quick.sh   (DIR holds
#   libuqrt.so.0, default build/runtime; UQ_RUN default
#   build/tools/uq-run/uq-run)
export LD_LIBRARY_PATH=${LIB:-$PWD/build/runtime}
run=${RUN:-build/tools/uq-run/uq-run}
for args in \
  "--scale=0.000001 --query-len=64 --qg=1 --kv-heads=1 --seq-lens=100 --head-dim=64" \
  "--query-len=64 --qg=1 --kv-heads=1 --seq-lens=200 --head-dim=64" \
  "--query-len=128 --qg=1 --kv-heads=1 --seq-lens=300" \
  "--query-len=2 --qg=16 --kv-heads=1 --seq-lens=2" \
  "--query-len=4 --qg=16 --kv-heads=1" \
  "--head-dim=128 --query-len=5 --qg=8 --sinks" \
  "--query-len=512 --qg=8 --kv-heads=1 --seq-lens=4096" \
  "--mixed --batch=6 --max-seq=3000 --sinks --sliding-window=1000" \
  "--head-dim=128 --query-len=256 --qg=8 --kv-heads=1 --seq-lens=3000 --sinks --sliding-window=1000" \
  "--head-dim=64 --query-len=64 --qg=16 --dtype=f16 --seq-lens=1000"; do
  echo "== $args"
  # shellcheck disable=SC2086
  timeout 60 "$run" --backend=cuda --seed=7 $args 2>&1 |
    grep -E "variant|vs faithful|result|error"
done
