#!/usr/bin/env bash
# The main job: builds kildall-opt and runs the noisy reduce_noise optimizer on
# a shipped example.
# Idempotent; installs missing Debian packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default --target kildall-opt >/dev/null
# The article's branching program: kildall-opt places reduce_noise optimally
# (place_reduce_noise's default: fewest reductions, then as early as
# possible), prints the optimized module (the article's placement: one
# reduce_noise right after the mul) and verifies it with the noise analysis;
# the one-line summary goes to stderr.
build/default/examples/kildall-opt/kildall-opt --noisy-reduce-noise examples/noisy/single_insertion_branching.mlir
