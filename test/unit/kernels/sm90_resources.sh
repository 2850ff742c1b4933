#!/usr/bin/env bash
# The sm_90a variants' resources, from ptxas itself: compiles each variant's
# PTX (uq-compile --emit=isa) with the toolkit's ptxas -v, prints registers
# and shared memory, and fails on any spill, stack frame or local memory
# (a register array indexed at run time would show here first). A
# kernel's dynamic shared memory is the uq_dynamic_shared_bytes constant
# its PTX states (the decode's, from kernels/sm90a.mlir's @uq_sm90_shared_bytes).
# usage: sm90_resources.sh UQ_COMPILE KERNELS_MLIR CUDA_DIR
set -euo pipefail
compile=$1 source=$2 cuda=$3
if [[ ! -x $cuda/bin/ptxas ]]; then
  echo "skip: no ptxas under '$cuda'"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$compile" --quiet --target=sm_90a "--cuda=$cuda" --emit=isa "$source" -o "$work"
status=0
for ptx in "$work"/*.ptx; do
  variant=$(basename "$ptx" .ptx)
  report=$("$cuda/bin/ptxas" -arch=sm_90a -v "$ptx" -o "$work/$variant.cubin" 2>&1)
  registers=$(grep -o 'Used [0-9]* registers' <<<"$report" | head -1)
  dynamic=$(sed -n 's/.*uq_dynamic_shared_bytes = \([0-9]*\);.*/\1/p' "$ptx")
  echo "$variant: $registers, $(grep -o "[0-9]* bytes smem" <<<"$report" | head -1) static shared, ${dynamic:-0} bytes dynamic"
  if grep -E '[1-9][0-9]* bytes (stack frame|spill stores|spill loads)' <<<"$report"; then
    echo "$variant: spills or stack frame" >&2
    status=1
  fi
  if grep -E 'bytes lmem' <<<"$report" | grep -vq ' 0 bytes lmem'; then
    echo "$variant: local memory" >&2
    status=1
  fi
done
exit $status
