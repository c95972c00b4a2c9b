#!/usr/bin/env bash
# Runs kildall's whole test suite: installs what is missing, configures,
# builds and runs CTest. Usage: scripts/test.sh [preset]   (default | asan)
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
bash scripts/setup.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
ctest --preset "$preset"
