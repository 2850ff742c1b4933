#!/usr/bin/env bash
# On an H100/H200: uq-run --backend=cuda over the varlen shapes the
# warpgroup-MMA sm_90a kernel (kernels/attention_sm90.mlir) serves, each
# against the host's kernel-faithful reference: uniform weights (the PV
# path alone), QG 1 blocks of 64 and 128 tokens, a token that attends one
# position, a verify step at QG 16 (partials), a 512-token chunk, a mixed
# step with windows and sinks, chunks of 128 rows or more at D 128 and 64
# (the producer-warpgroup kernel; the 64-token D 64 cases above are decode
# blocks: under min_rows), 128-row verify steps split into many
# partitions at D 128 and 64 (its partials), and verify steps of 64 to 127
# rows (q_len 4 and 7 at QG 16, 13 tokens at QG 5: the 64-row blocks).
# scripts/cuda-test.sh runs it.
# Exits 1 if a case does not end in "result ok".
# usage: [LIB=DIR] [RUN=UQ_RUN] [SEED=N] scripts/wgmma-quick.sh   (DIR
#   holds libuqrt.so.0, default build/runtime; UQ_RUN default
#   build/tools/uq-run/uq-run; SEED default 7)
export LD_LIBRARY_PATH=${LIB:-$PWD/build/runtime}
run=${RUN:-build/tools/uq-run/uq-run}
status=0
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
  "--head-dim=64 --query-len=64 --qg=16 --dtype=f16 --seq-lens=1000" \
  "--head-dim=128 --query-len=8 --qg=16 --kv-heads=2 --batch=3 --seq-lens=20000,777,5000 --sinks" \
  "--head-dim=64 --query-len=16 --qg=8 --kv-heads=1 --batch=2 --seq-lens=40000,129 --fused-qkv" \
  "--head-dim=128 --query-len=4 --qg=16 --kv-heads=2 --batch=3 --seq-lens=9000,70,3000 --sinks" \
  "--head-dim=64 --query-len=4 --qg=16 --batch=2 --sliding-window=500 --fused-qkv" \
  "--head-dim=128 --query-len=13 --qg=5 --kv-heads=1 --batch=2 --seq-lens=3000,40 --sinks --sliding-window=300" \
  "--query-len=7 --qg=16 --kv-heads=1 --batch=2 --seq-lens=20000,9 --dtype=f16"; do
  echo "== $args"
  # shellcheck disable=SC2086
  out=$(timeout 60 "$run" --backend=cuda --seed="${SEED:-7}" $args 2>&1)
  grep -E "variant|vs faithful|result|error" <<<"$out"
  grep -qE "^result +ok" <<<"$out" || status=1
done
exit $status
