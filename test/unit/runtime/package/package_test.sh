#!/bin/sh
# Installs the uqrt component into a scratch prefix, checks that the library
# exports every function its installed headers declare, then builds and runs
# a consumer (encode a cache, decode it, check it) through pkg-config and
# through find_package(uqrt).
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
flags=$(pkg-config --cflags --libs uqrt)
echo "pkg-config: $flags"
"$cc" -std=c17 -Wall -Wextra $extra -o "$scratch/consumer-pc" "$source/consumer.c" $flags -lm
LD_LIBRARY_PATH="$libdir" "$scratch/consumer-pc"
cmake -S "$source" -B "$scratch/cmake" -DCMAKE_PREFIX_PATH="$scratch/prefix" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$extra" \
  -DCMAKE_EXE_LINKER_FLAGS="$extra" >/dev/null
cmake --build "$scratch/cmake" >/dev/null
LD_LIBRARY_PATH="$libdir" "$scratch/cmake/consumer"
