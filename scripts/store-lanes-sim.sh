#!/usr/bin/env bash
# The cache store's sm_90a lane layout, checked on the gfx950 simulator:
# kernels/store.mlir is one source for both targets, and only its `lanes`
# parameter (64 on gfx950, 32 on sm_90a) sets how many 4-element pieces a
# lane holds (D = 512 on 32 lanes: four, rotated across them in the lane;
# D = 32: V's codes at the odd byte 17). This builds the gfx950 store from
# a copy of kernels/ with 32 lanes (the rest of a 64-lane wave idle),
# links runtime_cuda_store_test with that table and runs it with --sim:
# every head dim byte for byte against the host encoder. No GPU needed.
# usage: scripts/store-lanes-sim.sh [BUILD_DIR [CC [FLAGS]]]
#        (default: build, cc; FLAGS: the build's sanitizer flags, ctest's
#        runtime_store_lanes_sim_test passes them)
set -euo pipefail
build=$(realpath "${1:-build}")
cc=${2:-cc}
read -r -a cflags <<<"${3:-}"
root=$(realpath "$(dirname "$0")/..")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$root/kernels" "$work/kernels"
python3 - "$work/kernels/store.mlir" <<'EOF'
import sys
path = sys.argv[1]
text = open(path).read()
edits = [
    # 32 lanes on both targets; a 64-thread workgroup on gfx950, whose
    # upper 32 threads store nothing
    ("uq.target_params = [{lanes = 64}, {lanes = 32}]",
     "uq.target_params = [{lanes = 32, threads = 64}, {lanes = 32, threads = 32}]"),
    ('attributes {uq.block_size = "lanes"}', 'attributes {uq.block_size = "threads"}'),
    ("      %valid = arith.andi %nonneg, %inside : i1",
     "      %valid0 = arith.andi %nonneg, %inside : i1\n"
     "      %in_lanes = arith.cmpi ult, %lane, %lanes : i32\n"
     "      %valid = arith.andi %valid0, %in_lanes : i1"),
]
for old, new in edits:
    if text.count(old) != 1:
        sys.exit(f"store-lanes-sim: kernels/store.mlir no longer has {old!r}")
    text = text.replace(old, new)
open(path, "w").write(text)
EOF
# the stores, and the decode and reduce records the test relabels
variants=()
for v in store_d32 store_d64 store_d128 store_d256 store_d512 \
  decode_d256_rows16 reduce_d256; do
  variants+=(--variant=$v)
done
"$build/tools/uq-compile/uq-compile" "$work/kernels" --target=gfx950 \
  "${variants[@]}" -o "$work" --embed-c="$work/table.c" --quiet
includes=(-I"$root" -I"$root/test/unit" -I"$root/runtime/include"
  -I"$root/base/include")
"$cc" -std=c17 -O1 "${cflags[@]}" "${includes[@]}" -c "$work/table.c" \
  -o "$work/table.o"
"$cc" -std=c17 -O1 "${cflags[@]}" "${includes[@]}" \
  -c "$root/test/unit/runtime/cuda_store_test.c" -o "$work/store_test.o"
"$cc" "${cflags[@]}" "$work/store_test.o" "$work/table.o" \
  -o "$work/store_test" -Wl,-rpath,"$build/runtime" \
  "$build/runtime/libuqrt.so" -lm
"$work/store_test" --sim
