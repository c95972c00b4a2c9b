#!/usr/bin/env bash
# The issue-7 table: kildall's lazy-cut optimizer and the article's
# formulation (the model kildall-opt --emit-lp writes) solved by glpsol under
# the same time limit, side by side, as a Markdown table on stdout.
#
#   benchmarks/noisy_scale/glpsol_side_by_side.sh BENCHMARK [TIME_LIMIT] [FILTER]
#
# BENCHMARK   the noisy_scale_benchmark binary (Release build)
# TIME_LIMIT  seconds for glpsol per program (default 60, the benchmark's own limit)
# FILTER      --benchmark_filter regex (default: all cases)
# GLPSOL_LOG_DIR (environment, optional): keep glpsol's logs there, and reuse
#             a log already there instead of running glpsol again on that case.
set -euo pipefail
bin=${1:?usage: glpsol_side_by_side.sh BENCHMARK [TIME_LIMIT] [FILTER]}
limit=${2:-60}
filter=${3:-.}
command -v glpsol >/dev/null || { echo "glpsol not found (apt-get install glpk-utils)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
logs=${GLPSOL_LOG_DIR:-$work}
mkdir -p "$logs"
"$bin" --emit-lp="$work" --benchmark_filter="$filter" --benchmark_out="$work/lazy.json" \
  --benchmark_out_format=json >&2
for lp in "$work"/*.lp; do
  log="$logs/$(basename "${lp%.lp}").log"
  [ -s "$log" ] && continue
  echo "glpsol: $(basename "$lp")" >&2
  # glpsol's own limit; `timeout` only guards against a run that ignores it.
  timeout $((limit * 2 + 30)) glpsol --lp "$lp" --tmlim "$limit" >"$log" 2>&1 || true
done
python3 - "$work" "$limit" "$logs" <<'PY'
import json, os, re, sys
work, limit, logs = sys.argv[1], sys.argv[2], sys.argv[3]
runs = json.load(open(os.path.join(work, "lazy.json")))["benchmarks"]
def glpsol(case):
    path = os.path.join(logs, case + ".log")
    if not os.path.exists(path):
        return "-", "-", "-"
    text = open(path).read()
    used = re.findall(r"Time used:\s+([0-9.]+) secs", text)
    seconds = used[-1] if used else "?"
    if "INTEGER OPTIMAL SOLUTION FOUND" in text:
        value = re.findall(r"(?:mip =|>>>>>)\s+([-0-9.e+]+)", text)
        return ("optimal %g" % float(value[-1])) if value else "optimal", "0", seconds
    rows = re.findall(r"(?:mip =|>>>>>)\s+(not found yet|[-0-9.e+]+)\s+>=\s+(tree is empty|-inf|[-0-9.e+]+)", text)
    if not rows or rows[-1][0] == "not found yet":
        return "no solution", "-", seconds
    best, bound = rows[-1]
    gap = "-" if bound in ("-inf", "tree is empty") else "%.1f%%" % (100 * (float(best) - float(bound)) / float(best))
    return "%g" % float(best), gap, seconds
print("| program | ops | binaries | rows | first legal (s) | optimal at (s) | gap | inserted | greedy | glpsol (article model, %s s) | glpsol gap | glpsol time (s) |" % limit)
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|")
for r in runs:
    name = r["name"].removeprefix("BM_Lazy/").split("/iterations")[0]
    case = name.replace("/", "_")
    optimal = r["optimal_s"]
    g_best, g_gap, g_time = glpsol(case)
    print("| %s | %d | %d | %d | %.4f | %s | %.2f%% | %d | %d | %s | %s | %s |" % (
        name, r["ops"], r["binaries"], r["rows"], r["first_legal_s"],
        ("%.2f" % optimal) if optimal >= 0 else "not proven", 100 * r["gap"], r["inserted"], r["greedy"],
        g_best, g_gap, g_time))
PY
