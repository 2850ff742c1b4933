#!/bin/sh
# Regenerates the committed gfx950 code objects in this directory from their
# OpenCL C sources with clang (another compiler than uq's own pipeline; the
# kernels call AMDGPU builtins directly, so no device library is needed).
# CI does not run this; it runs the committed objects (foreign_test.c).
#   test/foreign/build.sh [clang]          (default: clang-22)
# --check rebuilds into a temporary directory and fails when an object
# differs from the committed one.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
check=0
if [ "${1:-}" = "--check" ]; then
  check=1
  shift
fi
clang=${1:-clang-22}
out=$dir
if [ $check = 1 ]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
flags="-x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx950 -O3 -nogpulib
  -Wno-everything"
for src in softmax dequant_fp4 mfma_scale short_math spin; do
  extra=
  # Correctly rounded f32 division: the v_div_scale/fmas/fixup sequence.
  [ $src = softmax ] && extra=-cl-fp32-correctly-rounded-divide-sqrt
  # shellcheck disable=SC2086
  "$clang" $flags $extra "$dir/$src.cl" -o "$out/$src.hsaco"
done
if [ $check = 1 ]; then
  for src in softmax dequant_fp4 mfma_scale short_math spin; do
    cmp -s "$out/$src.hsaco" "$dir/$src.hsaco" ||
      { echo "build.sh: $src.hsaco is out of date; run test/foreign/build.sh" >&2; exit 1; }
  done
fi
