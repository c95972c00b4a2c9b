#!/usr/bin/env bash
# Runs kildall's whole test suite: installs what is missing, configures,
# builds and runs CTest. Usage: scripts/test.sh [preset]   (default | asan)
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
# One compiler cache for every clone of the repository on this machine.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
bash scripts/setup.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
ctest --preset "$preset"
