#!/usr/bin/env bash
# Compile-time cost of the header-only core: the median wall and CPU time (of
# 5 runs) to compile one translation unit that includes <kildall/kildall.hpp>
# and runs one analysis (examples/first_analysis/main.cpp), with the flags the
# default preset uses. Usage: benchmarks/compile_time.sh [compiler]
set -euo pipefail
cd "$(dirname "$0")/.."
cxx="${1:-c++}"
build=build/default
[[ -f "$build/include/kildall/version.hpp" ]] || cmake --preset default >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
times=()
for i in 1 2 3 4 5; do
  /usr/bin/time -f "%e %U %S" -o "$out/t$i" \
    "$cxx" -std=c++20 -O2 -g -Iinclude -I"$build/include" -c examples/first_analysis/main.cpp -o "$out/main.o"
  times+=("$(cat "$out/t$i")")
done
median() { sort -n | sed -n 3p; }
wall=$(printf '%s\n' "${times[@]}" | awk '{ print $1 }' | median)
cpu=$(printf '%s\n' "${times[@]}" | awk '{ printf "%.2f\n", $2 + $3 }' | median)
echo "compile time (median of 5): ${wall} s wall, ${cpu} s CPU"
