#!/bin/sh
# Installs the uqrt component into a scratch prefix, checks that the library
# exports every function its installed headers declare, then builds and runs
# a consumer (encode a cache, decode it, check it) through pkg-config and
# through find_package(uqrt). libuqrt itself needs nothing beyond
# libc/libm/libdl/pthread (the simulator and its LLVM are the separate
# uqrt_sim component): its NEEDED entries are checked, and the sim backend is
# UNAVAILABLE until uqrt_sim is installed, and works after.
# usage: package_test.sh BUILD_DIR SOURCE_DIR SCRATCH_DIR C_COMPILER NM [FLAGS]
# FLAGS (e.g. the sanitizer flags of the build that made the library) are
# used to compile and link the consumers too.
set -eu
build=$1 source=$2 scratch=$3 cc=$4 nm=$5 extra=${6:-}
rm -rf "$scratch"
mkdir -p "$scratch"
cmake --install "$build" --component uqrt --prefix "$scratch/prefix" >/dev/null
libdir=$(ls -d "$scratch"/prefix/lib*/pkgconfig | head -1)
libdir=${libdir%/pkgconfig}
export PKG_CONFIG_PATH="$libdir/pkgconfig"
python3 "$source/exports_check.py" "$scratch/prefix/include" "$libdir/libuqrt.so" "$nm"
# Direct dependencies: the C runtime only (plus the sanitizer runtimes in a
# sanitizer build, which FLAGS names).
lib="$libdir/libuqrt.so"
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "libuqrt NEEDED:" $needed
for n in $needed; do
  case "$n" in
  libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | ld-linux*.so.*) ;;
  libasan.so.* | libubsan.so.* | libstdc++.so.* | libgcc_s.so.*)
    [ -n "$extra" ] || { echo "FAIL: libuqrt needs $n" >&2; exit 1; } ;;
  *) echo "FAIL: libuqrt needs $n" >&2; exit 1 ;;
  esac
done
if ldd "$lib" | grep -q "not found"; then
  ldd "$lib" >&2
  echo "FAIL: a dependency of libuqrt is not found" >&2
  exit 1
fi
[ ! -e "$libdir/libuqrt_sim.so" ] || { echo "FAIL: uqrt installs the sim module" >&2; exit 1; }
flags=$(pkg-config --cflags --libs uqrt)
echo "pkg-config: $flags"
"$cc" -std=c17 -Wall -Wextra $extra -o "$scratch/consumer-pc" "$source/consumer.c" $flags -lm
LD_LIBRARY_PATH="$libdir" "$scratch/consumer-pc"
cmake -S "$source" -B "$scratch/cmake" -DCMAKE_PREFIX_PATH="$scratch/prefix" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$extra" \
  -DCMAKE_EXE_LINKER_FLAGS="$extra" >/dev/null
cmake --build "$scratch/cmake" >/dev/null
LD_LIBRARY_PATH="$libdir" "$scratch/cmake/consumer"
# The sim backend: absent, then installed beside libuqrt.
"$cc" -std=c17 -Wall -Wextra $extra -o "$scratch/sim-check" "$source/sim_check.c" $flags
env -u UQ_SIM_MODULE LD_LIBRARY_PATH="$libdir" "$scratch/sim-check" sim-absent
cmake --install "$build" --component uqrt_sim --prefix "$scratch/prefix" >/dev/null
env -u UQ_SIM_MODULE LD_LIBRARY_PATH="$libdir" "$scratch/sim-check" sim-present
