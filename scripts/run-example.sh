#!/usr/bin/env bash
# The main job: builds what it needs and runs kildall on a shipped example.
# Idempotent; installs missing Debian packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default --target custom_graph_example >/dev/null
build/default/examples/custom_graph/custom_graph_example
