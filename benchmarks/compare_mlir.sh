#!/usr/bin/env bash
# Side-by-side comparison of kildall-opt with MLIR's own dataflow framework
# (mlir-opt-16 from Debian's mlir-16-tools) on the same generated files.
#
#   benchmarks/compare_mlir.sh [build-dir]        (default: build/release)
#
# Environment: SHAPES="dag cfg const"  SIZES="1000 10000 100000 1000000"  RUNS=3
#              LAYOUTS="split single" (split: functions of 10,000 ops; single: the
#              whole size in one function, labelled <shape>-single; sizes up
#              to 10,000 are one function either way and measured once)
#              FACTS_MAX=100000 (largest size whose facts are compared)
#              WORK=<dir for the generated files> (default: a temporary directory)
#
# For each shape and size it runs `kildall-opt --sccp` and `mlir-opt-16 --sccp`
# alternately RUNS times (then the same with --int-range-optimizations), and
# prints median whole-process CPU time (user+sys), median pass time (the
# pass's row of --timing / --mlir-timing, wall), peak memory (max RSS) and the
# ratios. It then checks that both found the same facts: the ops proven
# constant, the dead blocks, and the arith.cmpi folded by the range pass.
# Needs: a build with the targets kildall-opt and mlir_program_generator,
# python3 and GNU time (/usr/bin/time). Without mlir-opt-16 it says so and
# exits 0.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
kildall_opt=$build/examples/kildall-opt/kildall-opt
generator=$build/benchmarks/mlir_program_generator
mlir_opt=${MLIR_OPT:-mlir-opt-16}
SHAPES=${SHAPES:-"dag cfg const"}
SIZES=${SIZES:-"1000 10000 100000 1000000"}
RUNS=${RUNS:-3}
LAYOUTS=${LAYOUTS:-"split single"}
FACTS_MAX=${FACTS_MAX:-100000}

for layout in $LAYOUTS; do
  if [[ $layout != split && $layout != single ]]; then
    echo "compare_mlir.sh: unknown layout '$layout' in LAYOUTS (split, single)" >&2
    exit 2
  fi
done

if ! command -v "$mlir_opt" > /dev/null 2>&1; then
  echo "compare_mlir.sh: $mlir_opt is not installed: skipping the comparison (apt-get install mlir-16-tools)"
  exit 0
fi
for tool in "$kildall_opt" "$generator"; do
  if [[ ! -x $tool ]]; then
    echo "compare_mlir.sh: $tool not built (cmake --build $build --target kildall-opt mlir_program_generator)" >&2
    exit 1
  fi
done
if [[ ! -x /usr/bin/time ]]; then
  echo "compare_mlir.sh: GNU time (/usr/bin/time) is needed" >&2
  exit 1
fi

work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
measurements=$work/measurements.tsv
: > "$measurements"
echo "compare_mlir.sh: files in $work; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "kildall-opt: $kildall_opt"
echo "mlir-opt:    $(command -v "$mlir_opt") ($("$mlir_opt" --version | grep -o 'LLVM version [0-9.]*'))"

# run <tool-label> <pass-label> <timing-row-regex> <command...>: one measured run, appended to the TSV.
run() {
  local tool=$1 pass=$2 row=$3 shape=$4 size=$5
  shift 5
  local tfile=$work/time.txt efile=$work/stderr.txt
  /usr/bin/time -f "%U %S %M" -o "$tfile" "$@" 2> "$efile" > /dev/null
  local pass_seconds
  pass_seconds=$(grep -E "\(.*%\)  ($row)\$" "$efile" | awk '{s += $1} END {printf "%.6f", s}')
  read -r user sys rss < "$tfile"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$shape" "$size" "$tool" "$pass" \
    "$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.3f", u + s}')" "$pass_seconds" "$rss" >> "$measurements"
}

for layout in $LAYOUTS; do
  for generated in $SHAPES; do
    for size in $SIZES; do
      if [[ $layout == single ]]; then
        ((size > 10000)) || continue  # already one function in the split layout
        shape=$generated-single per_function=$size
      else
        shape=$generated per_function=10000
      fi
      file=$work/$shape.$size.mlir
      "$generator" "$generated" "$size" 1 "$per_function" > "$file"
      for pass in sccp int-range-optimizations; do
        for ((r = 0; r < RUNS; ++r)); do
          run kildall "$pass" 'SCCP|IntRangeOptimizations' "$shape" "$size" \
            "$kildall_opt" --"$pass" --timing "$file" -o "$work/out.kildall.mlir"
          run mlir "$pass" 'SCCP|ArithIntRangeOpts|IntRangeOptimizations' "$shape" "$size" \
            "$mlir_opt" --mlir-disable-threading --"$pass" --mlir-timing "$file" -o "$work/out.mlir.mlir"
        done
      done
      if ((size <= FACTS_MAX)); then
        "$kildall_opt" --dump-analysis=sccp "$file" -o "$work/$shape.$size.kildall.dump"
        "$kildall_opt" --sccp "$file" -o "$work/$shape.$size.kildall.sccp.mlir"
        "$kildall_opt" --int-range-optimizations "$file" -o "$work/$shape.$size.kildall.range.mlir"
        "$mlir_opt" --sccp --mlir-print-debuginfo --mlir-print-local-scope "$file" \
          -o "$work/$shape.$size.mlir.sccp.mlir"
        "$mlir_opt" --int-range-optimizations --mlir-print-debuginfo --mlir-print-local-scope "$file" \
          -o "$work/$shape.$size.mlir.range.mlir"
      fi
      echo "  measured $shape $size (load average $(cut -d' ' -f1 /proc/loadavg))"
    done
  done
done

echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$root/benchmarks/compare_mlir_report.py" "$measurements" "$work" "$FACTS_MAX"
