#!/usr/bin/env python3
"""kildall-opt's pass manager against mlir-opt-16's on the driver conventions.

Oracle: mlir-opt-16 itself. For each pipeline below (good and malformed, in
MLIR's textual grammar, naming passes both tools have: sccp,
int-range-optimizations), both tools either accept it and run it on the same
input, or both reject it; single-dash and double-dash flags likewise; an empty
input prints an empty module in both (mlir-opt-16 adds one blank line, which
kildall-opt leaves out of every output); --split-input-file gives the same
number of modules with the same function names, in the same order. Skipped with
a message when mlir-opt-16 is not installed.

Usage: run_pipeline_conformance.py <kildall-opt> <input.mlir> <split.mlir>
"""
import re
import shutil
import subprocess
import sys
import tempfile

PIPELINES = [
    ("builtin.module(func.func(sccp))", True),
    ("builtin.module(func.func(sccp,int-range-optimizations))", True),
    ("builtin.module(func.func(sccp),func.func(int-range-optimizations))", True),
    ("builtin.module(sccp)", True),                      # a function pass at module level
    ("func.func(sccp)", False),                          # the root anchor is required
    ("builtin.module(func.func(sccp)", False),           # unbalanced
    ("builtin.module(func.func(sccp)))", False),         # extra ')'
    ("builtin.module(func.func(not-a-pass))", False),    # unknown pass
    ("builtin.module(func.func(sccp{no-such-option=1}))", False),
    ("builtin.module(func.func(sccp,,sccp))", False),    # empty element
]
FLAGS = [["-sccp"], ["--sccp"], ["-int-range-optimizations"], ["--int-range-optimizations", "-sccp"],
         ["-no-such-pass"]]


def run(tool, args, stdin=None):
    return subprocess.run([tool] + args, input=stdin, capture_output=True, text=True, timeout=120)


def main():
    kildall, source, split = sys.argv[1:4]
    mlir = shutil.which("mlir-opt-16")
    if mlir is None:
        print("SKIPPED: mlir-opt-16 is not installed (Debian package mlir-16-tools)")
        return 0
    failures = []
    for pipeline, good in PIPELINES:
        k = run(kildall, ["--pass-pipeline=" + pipeline, source]).returncode == 0
        m = run(mlir, ["--pass-pipeline=" + pipeline, source]).returncode == 0
        if k != m or k != good:
            failures.append(f"pipeline {pipeline!r}: kildall-opt {'accepts' if k else 'rejects'}, "
                            f"mlir-opt-16 {'accepts' if m else 'rejects'}")
    for flags in FLAGS:
        k = run(kildall, flags + [source]).returncode == 0
        m = run(mlir, flags + [source]).returncode == 0
        if k != m:
            failures.append(f"flags {flags}: kildall-opt exit {'0' if k else '1'}, mlir-opt-16 differs")
    k_empty = run(kildall, ["-"], stdin="")
    m_empty = run(mlir, ["-"], stdin="")
    if k_empty.returncode != 0 or m_empty.returncode != 0 or k_empty.stdout.rstrip("\n") != m_empty.stdout.rstrip("\n"):
        failures.append(f"empty input: kildall-opt {k_empty.stdout!r}, mlir-opt-16 {m_empty.stdout!r}")
    names = lambda text: [re.findall(r"func\.func @([\w.$]+)", chunk) for chunk in re.split(r"(?m)^// -----$", text)]
    k_split = run(kildall, ["--split-input-file", split])
    m_split = run(mlir, ["--split-input-file", split])
    if names(k_split.stdout) != names(m_split.stdout):
        failures.append(f"--split-input-file: kildall-opt {names(k_split.stdout)}, mlir-opt-16 {names(m_split.stdout)}")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(PIPELINES)} pipelines, {len(FLAGS)} flag sets, empty input, split input: {len(failures)} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
