#!/usr/bin/env bash
# Instructions, first-level data misses and mispredicted branches per op of SCCP
# and the integer-range analysis (views included) on one generated `cfg`
# function, counted by cachegrind: half the difference between 3 runs and 1 run
# of the analysis in one process. Deterministic, so it compares commits where
# wall time is noisy. Instructions inside memset are also given apart (see
# `count`); the mispredictions are those of cachegrind's simple predictor (no
# global history), an upper bound on a modern core's, for comparing commits.
#   benchmarks/analysis_instructions.sh [build dir (default build/release)] [ops...]
# Needs valgrind and the target analysis_instructions (release preset).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
shift || true
sizes=("${@:-10000 1000000}")
bin="$build/benchmarks/analysis_instructions"
command -v valgrind >/dev/null || { echo "analysis_instructions.sh: valgrind not installed" >&2; exit 2; }
[[ -x "$bin" ]] || { echo "analysis_instructions.sh: $bin not built (cmake --build $build --target analysis_instructions)" >&2; exit 2; }
count() {  # analysis ops runs -> "instructions d1-misses mispredicts memset-instructions"
  local out
  out=$(mktemp)
  valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --cachegrind-out-file="$out" "$bin" "$1" "$2" "$3" 2>&1 >/dev/null |
    awk '/ I +refs:/ {gsub(",", "", $4); i = $4} / D1 +misses:/ {gsub(",", "", $4); d = $4}
         / Mispredicts:/ {gsub(",", "", $3); b = $3} END {printf "%s %s %s ", i, d, b}'
  # glibc's memset stores large blocks with `rep stosb`, which cachegrind counts as one
  # instruction per byte: reported apart, so that zero-filled arrays do not pass for work.
  cg_annotate "$out" 2>/dev/null | awk '/:__memset/ && $1 ~ /^[0-9,]+$/ {gsub(",", "", $1); m += $1} END {print m + 0}'
  rm -f "$out"
}
echo "| analysis | ops | instructions / op | of which in memset | D1 misses / op | mispredicted branches / op |"
echo "|---|---|---|---|---|---|"
for analysis in sccp int-range; do
  for ops in ${sizes[*]}; do
    read -r i1 d1 b1 m1 <<< "$(count "$analysis" "$ops" 1)"
    read -r i3 d3 b3 m3 <<< "$(count "$analysis" "$ops" 3)"
    awk -v a="$analysis" -v n="$ops" -v i1="$i1" -v i3="$i3" -v d1="$d1" -v d3="$d3" -v m1="$m1" -v m3="$m3" \
      -v b1="$b1" -v b3="$b3" \
      'BEGIN {printf "| %s | %d | %.0f | %.0f | %.2f | %.2f |\n", a, n, (i3 - i1) / 2 / n, (m3 - m1) / 2 / n, (d3 - d1) / 2 / n, (b3 - b1) / 2 / n}'
  done
done
