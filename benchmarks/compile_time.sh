#!/usr/bin/env bash
# Compile-time cost of the header-only core: CPU time (user + system; the
# minimum and the median of 5 runs) to compile one translation unit that
# includes the whole core and runs one analysis
# (benchmarks/compile_time/own_graph_analysis.cpp: <kildall/kildall.hpp>, a
# compiler's own CFG, reaching definitions with the dense solver and
# verify_fixpoint), at -O0, -O2 and -O2 -g (the default preset's flags); and,
# for comparison, the same analysis on a Boost.Graph adjacency_list
# (examples/getting_started/first_analysis.cpp) and the standard headers the
# core includes; and the own-CFG TU with the core precompiled
# (`target_precompile_headers`). CPU time, not wall time: the figure should
# not depend on what else the machine runs.
#   benchmarks/compile_time.sh [compiler] [git revision]
# With a revision (e.g. one before a header change), the own-CFG TU is also
# compiled against that revision's include/ for a side-by-side figure.
set -euo pipefail
cd "$(dirname "$0")/.."
cxx="${1:-c++}"
against="${2:-}"
build=build/default
inc=include  # the kildall headers measure() compiles against
[[ -f "$build/include/kildall/version.hpp" ]] || cmake --preset default >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The standard headers the core includes, as one translation unit (not the
# law-checking kit lattice/laws.hpp, which <kildall/kildall.hpp> leaves out).
grep -rh --exclude=laws.hpp --exclude=environment.hpp --exclude=successor_list.hpp '^#include <[a-z_]*>' include/kildall/graph include/kildall/lattice include/kildall/solver include/kildall/kildall.hpp |
  sort -u > "$out/std_headers.cpp"

measure() {  # measure <label> <compiler arguments...>
  local label=$1
  shift
  local times=()
  for i in 1 2 3 4 5; do
    /usr/bin/time -f "%U %S" -o "$out/t" "$cxx" -std=c++20 -I"$inc" -I"$build/include" "$@" -o "$out/x.o"
    times+=("$(awk '{ printf "%.2f", $1 + $2 }' "$out/t")")
  done
  printf '%s\n' "${times[@]}" | sort -n |
    awk -v label="$label" '{ t[NR] = $1 } END { printf "%-58s min %5.2f s   median %5.2f s\n", label, t[1], t[3] }'
}

own=benchmarks/compile_time/own_graph_analysis.cpp
boost=examples/getting_started/first_analysis.cpp
# One untimed compile first, so that the first figure is not the one that
# reads the headers from disk.
"$cxx" -std=c++20 -I"$inc" -I"$build/include" -fsyntax-only "$own"
measure "own CFG + core + one analysis, -O0" -O0 -c "$own"
measure "own CFG + core + one analysis, -O2" -O2 -c "$own"
measure "own CFG + core + one analysis, -O2 -g" -O2 -g -c "$own"
measure "own CFG + core + one analysis, parse only" -fsyntax-only "$own"
measure "Boost adjacency_list + core + one analysis, -O0" -O0 -c "$boost"
measure "Boost adjacency_list + core + one analysis, -O2" -O2 -c "$boost"
measure "the standard headers the core includes, parse only" -fsyntax-only "$out/std_headers.cpp"

# The core as a precompiled header, built with the flags of the TU that uses it.
mkdir -p "$out/pch"
echo '#include <kildall/kildall.hpp>' > "$out/pch/kildall_pch.hpp"
for level in -O0 -O2; do
  "$cxx" -std=c++20 "$level" -I"$inc" -I"$build/include" -x c++-header "$out/pch/kildall_pch.hpp" -o "$out/pch/kildall_pch.hpp.gch"
  measure "own CFG + core precompiled + one analysis, $level" "$level" -Werror=invalid-pch -I"$out/pch" -include kildall_pch.hpp -c "$own"
done

if [[ -n "$against" ]]; then
  mkdir -p "$out/against"
  git archive "$against" include | tar -x -C "$out/against"
  inc="$out/against/include"
  measure "own CFG + core at $against + one analysis, parse only" -fsyntax-only "$own"
  measure "own CFG + core at $against + one analysis, -O0" -O0 -c "$own"
  measure "own CFG + core at $against + one analysis, -O2" -O2 -c "$own"
fi
