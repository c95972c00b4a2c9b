#!/usr/bin/env bash
# Regenerates the pictures of the docs and README from the tools' own output:
#   docs/pictures/noisy_branching_{before,after}.svg
#     `kildall-opt --dot=values --dump-analysis=noise` on the article's
#     branching example, before and after `--noisy-reduce-noise` (noise per
#     value; the inserted reduce_noise is filled), rendered by Graphviz.
# The scaling plots (docs/performance_mlir_*.svg) come from
# benchmarks/plot_compare_mlir.py over benchmarks/compare_mlir.sh's output.
# Usage: scripts/make-pictures.sh   (needs graphviz: apt-get install graphviz)
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
bash scripts/setup.sh
command -v dot >/dev/null || { echo "make-pictures: Graphviz 'dot' not found (apt-get install graphviz)" >&2; exit 1; }
cmake --preset default >/dev/null
cmake --build --preset default --target kildall-opt >/dev/null
opt=build/default/examples/kildall-opt/kildall-opt
example=examples/noisy/single_insertion_branching.mlir
mkdir -p docs/pictures
"$opt" --dot=values --dump-analysis=noise "$example" | dot -Tsvg -o docs/pictures/noisy_branching_before.svg
"$opt" --noisy-reduce-noise --dot=values --dump-analysis=noise "$example" 2>/dev/null |
  dot -Tsvg -o docs/pictures/noisy_branching_after.svg
echo "wrote docs/pictures/noisy_branching_before.svg docs/pictures/noisy_branching_after.svg"
