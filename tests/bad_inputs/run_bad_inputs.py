#!/usr/bin/env python3
"""Runs kildall-opt on every malformed or hostile input of the catalogue.

usage: run_bad_inputs.py <kildall-opt> <cases-dir> <work-dir> [--only NAME] [--list]

Every `<cases-dir>/<name>.err` is one case: the exact expected stderr. Its input
is `<cases-dir>/<name>.mlir` when that file exists, otherwise the generator
`<name>` below writes it (inputs too large or too odd to keep in the source
tree, paths that must not exist, outputs that cannot be written). For each case
the runner checks:
  - exit code 1 (a crash, sanitizer report, signal or hang is a failure),
  - nothing on stdout,
  - stderr equal to the .err file,
  - the `-o` output file: for every other case (even position in the sorted
    list) it is pre-created with a sentinel and must still hold it; for the
    others it must not have been created.
Passes cycle over the cases, so the error paths are taken with --sccp,
--int-range-optimizations, --dump-analysis and --dot as well.
Python standard library only.
"""

import os
import shutil
import subprocess
import sys

SENTINEL = b"sentinel: a failed run must leave this file alone\n"
PASS_VARIANTS = [[], ["--sccp"], ["--int-range-optimizations"], ["--dump-analysis=int-range"],
                 ["--dot"], ["--sccp", "--int-range-optimizations"]]
TIMEOUT_SECONDS = 60
TEN_MB = 10 * 1024 * 1024
VALID = b"func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}\n"


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


# Generators: each writes what it needs into `work` and returns
# (argument naming the input, bytes for stdin or None, output path or None),
# optionally followed by a list of options put before the input (a bad
# command line). The output path is relative to `work`; None means "out.mlir".

def gen_long_line_10mb_identifier(work):
    write(os.path.join(work, "input.mlir"), b"a" * TEN_MB + b"\n")
    return "input.mlir", None, None


def gen_long_line_10mb_value_name(work):
    write(os.path.join(work, "input.mlir"),
          b"func.func @f(%a: i32) -> i32 { %x = arith.addi %a, %b" + b"c" * TEN_MB +
          b" : i32 return %x : i32 }\n")
    return "input.mlir", None, None


def gen_long_line_10mb_op_name(work):
    write(os.path.join(work, "input.mlir"),
          b"func.func @f(%a: i32) -> i32 { %x = arith.frob" + b"b" * TEN_MB + b" %a : i32 return %x : i32 }\n")
    return "input.mlir", None, None


def gen_long_line_10mb_ops(work):
    # One 10 MB line of valid ops; the error is at its very end.
    ops = []
    size = 0
    i = 0
    while size < TEN_MB:
        op = "%%v%d = arith.xori %%a, %%a : i32 " % i
        ops.append(op)
        size += len(op)
        i += 1
    write(os.path.join(work, "input.mlir"),
          ("func.func @f(%a: i32) -> i32 { " + "".join(ops) + "return %nope : i32 }\n").encode())
    return "input.mlir", None, None


def gen_long_line_10mb_comment_then_eof(work):
    write(os.path.join(work, "input.mlir"),
          b"func.func @f(%a: i32) -> i32 { // " + b"x" * TEN_MB)
    return "input.mlir", None, None


def gen_deeply_nested_modules(work):
    write(os.path.join(work, "input.mlir"), b"module { " * 1_000_000 + b"}" * 1_000_000 + b"\n")
    return "input.mlir", None, None


def gen_deeply_nested_braces(work):
    write(os.path.join(work, "input.mlir"),
          b"func.func @f() " + b"{" * 1_000_000 + b"}" * 1_000_000 + b"\n")
    return "input.mlir", None, None


def gen_many_blocks_without_terminator(work):
    lines = [b"func.func @f(%a: i32) -> i32 {", b"  cf.br ^bb1"]
    for i in range(1, 200_000):
        lines.append(b"^bb%d:" % i)
        lines.append(b"  cf.br ^bb%d" % (i + 1))
    lines.append(b"^bb200000:")
    lines.append(b"  %x = arith.addi %a, %a : i32")
    lines.append(b"}")
    write(os.path.join(work, "input.mlir"), b"\n".join(lines) + b"\n")
    return "input.mlir", None, None


def gen_nonexistent_input_path(work):
    return "no/such/dir/input.mlir", None, None


def gen_directory_as_input(work):
    os.mkdir(os.path.join(work, "a_directory"))
    return "a_directory", None, None


def gen_output_in_missing_directory(work):
    write(os.path.join(work, "input.mlir"), VALID)
    return "input.mlir", None, "no/such/dir/out.mlir"


def gen_output_is_directory(work):
    write(os.path.join(work, "input.mlir"), VALID)
    os.mkdir(os.path.join(work, "out_dir"))
    return "input.mlir", None, "out_dir"


def gen_stdin_undefined_value(work):
    return "-", b"func.func @f(%a: i32) -> i32 {\n  return %b : i32\n}\n", None


def gen_huge_pages_unknown_choice(work):
    write(os.path.join(work, "input.mlir"), VALID)
    return "input.mlir", None, None, ["--huge-pages=sometimes"]


GENERATORS = {name[len("gen_"):]: f for name, f in globals().items() if name.startswith("gen_")}


def run_case(opt, cases, work_root, name, position):
    work = os.path.join(work_root, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    mlir = os.path.join(cases, name + ".mlir")
    stdin_data = None
    output = "out.mlir"
    options = []
    if os.path.exists(mlir):
        shutil.copyfile(mlir, os.path.join(work, name + ".mlir"))
        input_arg = name + ".mlir"
    elif name in GENERATORS:
        input_arg, stdin_data, custom_output, *rest = GENERATORS[name](work)
        options = rest[0] if rest else []
        if custom_output:
            output = custom_output
    else:
        return ["no input: neither %s nor a generator named '%s'" % (mlir, name)]
    with open(os.path.join(cases, name + ".err"), "rb") as f:
        expected = f.read()
    output_path = os.path.join(work, output)
    preseed = position % 2 == 0 and not os.path.exists(output_path) and os.path.isdir(os.path.dirname(output_path))
    if preseed:
        write(output_path, SENTINEL)
    args = [opt] + PASS_VARIANTS[position % len(PASS_VARIANTS)] + options + [input_arg, "-o", output]
    try:
        proc = subprocess.run(args, cwd=work, input=stdin_data if stdin_data is not None else b"",
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        return ["timed out after %d s (a hang)" % TIMEOUT_SECONDS]
    problems = []
    shown_err = proc.stderr[:2000].decode("utf-8", "backslashreplace")
    if proc.returncode != 1:
        problems.append("exit code %d, expected 1" % proc.returncode)
    if proc.stdout:
        problems.append("wrote %d bytes to stdout" % len(proc.stdout))
    if proc.stderr != expected:
        problems.append("stderr differs\n  got:      %r\n  expected: %r" %
                        (shown_err, expected.decode("utf-8", "backslashreplace")))
    if preseed:
        with open(output_path, "rb") as f:
            if f.read() != SENTINEL:
                problems.append("the pre-existing output file was changed")
    elif os.path.isfile(output_path) and output == "out.mlir":
        problems.append("the output file was created")
    if not problems:
        shutil.rmtree(work, ignore_errors=True)  # keep failures for inspection only
    return problems


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    opt, cases, work_root = (os.path.abspath(a) for a in sys.argv[1:4])
    names = sorted(f[:-4] for f in os.listdir(cases) if f.endswith(".err"))
    if "--list" in sys.argv:
        print("\n".join(names))
        return 0
    if "--only" in sys.argv:
        only = sys.argv[sys.argv.index("--only") + 1]
        selected = [(i, n) for i, n in enumerate(names) if n == only]
    else:
        selected = list(enumerate(names))
    orphans = sorted(f[:-5] for f in os.listdir(cases) if f.endswith(".mlir") and f[:-5] not in names)
    failures = 0
    for name in orphans:
        print("FAIL %s: input without an expected .err file" % name)
        failures += 1
    os.makedirs(work_root, exist_ok=True)
    for position, name in selected:
        problems = run_case(opt, cases, work_root, name, position)
        if problems:
            failures += 1
            print("FAIL %s:\n  %s" % (name, "\n  ".join(problems)))
    print("%d bad inputs tried, %d failed" % (len(selected), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
