#!/usr/bin/env bash
# Installs the Debian packages the build and tests need. Idempotent: packages
# already present are skipped, and apt is not touched when nothing is missing.
set -euo pipefail

packages=(
  cmake ninja-build python3
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools lld-22 clang-22
  libclang-rt-22-dev libamdhip64-dev pkg-config clang-format
  python3-numpy python3-pytest python3-pip python3-venv
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO=sudo; fi
echo "install-deps: installing ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
