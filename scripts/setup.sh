#!/usr/bin/env bash
# Installs the Debian packages kildall needs, once (idempotent: a no-op when
# everything is already installed). Runs apt as root, or through sudo.
set -euo pipefail

packages=(cmake ninja-build g++ python3 pkgconf ccache
          libboost-graph-dev libeigen3-dev libglpk-dev glpk-utils
          doctest-dev libbenchmark-dev)
# Optional peers (MLIR) are installed only on request: KILDALL_WITH_MLIR=1.
if [[ "${KILDALL_WITH_MLIR:-0}" == 1 ]]; then
  packages+=(mlir-16-tools libmlir-16-dev llvm-16-dev)
fi
# The libFuzzer build (scripts/fuzz.sh) needs clang 16 and its runtime:
# clang 14 cannot compile libstdc++ 12's <ranges>.
if [[ "${KILDALL_WITH_FUZZ:-0}" == 1 ]]; then
  packages+=(clang-16 libclang-rt-16-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

sudo=()
if [[ "$(id -u)" -ne 0 ]]; then sudo=(sudo); fi
echo "kildall setup: installing ${missing[*]}" >&2
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
