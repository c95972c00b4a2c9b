#!/usr/bin/env bash
# Builds the libFuzzer targets (the `fuzz` CMake preset: clang 16, ASan +
# UBSan + libFuzzer) and runs each for a bounded time over a copy of its seed
# corpus in build/fuzz/runs/<target>/ (tests/ is never written to). Fails
# if any target crashes, hangs (-timeout), leaks or runs out of memory; the
# failing input is left in build/fuzz/runs/<target>/artifacts/.
#
#   scripts/fuzz.sh [seconds-per-target]      (default 20)
#   KILDALL_FUZZ_TARGETS="ir_parser solver" scripts/fuzz.sh 60   (a subset)
#   KILDALL_FUZZ_SEED=1 scripts/fuzz.sh 10   (libFuzzer's random seed fixed, as CI runs it)
#
# Prints, per target: executions, executions per second and the final corpus
# size. Reproduce a crash with `build/fuzz/tests/fuzz/fuzz_<target> <file>`
# or, without clang, `build/<dir>/tests/fuzz/test_fuzz_<target> <file>`.
set -euo pipefail

seconds="${1:-20}"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=true  # one compiler cache for every clone
KILDALL_WITH_FUZZ=1 bash scripts/setup.sh
targets=(${KILDALL_FUZZ_TARGETS:-ir_parser kildall_opt lp_format mps_format lattice solver})

start=$(date +%s)
cmake --preset fuzz > /dev/null
cmake --build --preset fuzz
built=$(date +%s)
echo "fuzz: build took $((built - start)) s"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
runs="build/fuzz/runs"
failed=()
printf '%-12s %12s %10s %8s  %s\n' target executions exec/s corpus result
for t in "${targets[@]}"; do
  dir="$runs/$t"
  rm -rf "$dir"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp tests/fuzz/corpus/"$t"/* "$dir/corpus/"
  result=ok
  if ! "build/fuzz/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 -max_len=4096 \
      ${KILDALL_FUZZ_SEED:+-seed="$KILDALL_FUZZ_SEED"} \
      -print_final_stats=1 -artifact_prefix="$dir/artifacts/" "$dir/corpus" > "$dir/log.txt" 2>&1; then
    result="FAILED (see $dir/log.txt)"
    failed+=("$t")
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log.txt" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log.txt" | tail -1)
  printf '%-12s %12s %10s %8s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "$(ls "$dir/corpus" | wc -l)" "$result"
done
echo "fuzz: $((seconds)) s per target, total wall time $(( $(date +%s) - start )) s"
if ((${#failed[@]})); then
  echo "fuzz: crashes in: ${failed[*]}" >&2
  for t in "${failed[@]}"; do
    echo "---- $t ----" >&2
    grep -E -A25 'ERROR|kildall fuzz failure|deadly signal|timeout|out-of-memory' "$runs/$t/log.txt" | head -60 >&2 || true
  done
  exit 1
fi
