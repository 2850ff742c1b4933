#!/usr/bin/env bash
# Fails when a C/C++ source of the project is not formatted by the root
# .clang-format (LLVM style). Exit 77 (a skip) when clang-format is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check-format: no clang-format" >&2; exit 77; }
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.c' '*.h' '*.cpp')
else
  mapfile -t files < <(find . -path './build*' -prune -o \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) -print)
fi
clang-format --dry-run --Werror "${files[@]}"
echo "check-format: ${#files[@]} files formatted"
