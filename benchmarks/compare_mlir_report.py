#!/usr/bin/env python3
"""Report of benchmarks/compare_mlir.sh (python3 standard library only).

    compare_mlir_report.py <measurements.tsv> <work-dir> <facts-max>

Prints the timing/memory table (medians) and the fact comparison between
kildall-opt and mlir-opt-16 on the same generated files.

Facts are compared by source line (the generator writes one op per line):
  * kildall: `--dump-analysis=sccp` gives each value's state by name;
  * MLIR: the `--sccp` output printed with `--mlir-print-debuginfo` keeps the
    source location of every op it did not fold; an arith op of the input that
    is gone from the output was proven constant (SCCP erases an op when all of
    its results are replaced by constants).
Dead blocks: blocks unreachable from the entry in each tool's `--sccp` output
(kildall turns a decided `cf.cond_br` into `cf.br`; MLIR keeps the
`cf.cond_br` with a constant condition, which is followed on its one edge).
Range pass: the `arith.cmpi` lines folded by each tool's
`--int-range-optimizations`.
"""
import collections
import re
import statistics
import sys

OP_LINE = re.compile(r"^\s*(%[\w]+) = (arith\.\w+) (.*?) : ")
LOC = re.compile(r'loc\("[^"]*":(\d+):\d+\)')
BLOCK = re.compile(r"^\s*(\^[\w]+)")
FUNC = re.compile(r"func\.func @(\w+)")


def read_measurements(path):
    rows = collections.defaultdict(list)
    for line in open(path):
        shape, size, tool, pass_, cpu, pass_s, rss = line.rstrip("\n").split("\t")
        rows[(shape, int(size), pass_, tool)].append((float(cpu), float(pass_s), int(rss)))
    return rows


def timing_table(rows):
    keys = sorted({(s, n, p) for (s, n, p, _) in rows}, key=lambda k: (k[2], k[0], k[1]))
    print()
    print("| shape | ops | pass | kildall CPU s | MLIR CPU s | ratio | kildall pass s | MLIR pass s | ratio |"
          " kildall pass ns/op | MLIR pass ns/op | kildall peak MB | MLIR peak MB | memory ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for shape, size, pass_ in keys:
        k = rows.get((shape, size, pass_, "kildall"))
        m = rows.get((shape, size, pass_, "mlir"))
        if not k or not m:
            continue
        med = lambda runs, i: statistics.median(r[i] for r in runs)
        kc, mc = med(k, 0), med(m, 0)
        kp, mp = med(k, 1), med(m, 1)
        kr, mr = med(k, 2) / 1024, med(m, 2) / 1024
        ratio = lambda a, b: f"{b / a:.1f}x" if a > 0 else "-"
        print(f"| {shape} | {size:.0e} | {pass_} | {kc:.3f} | {mc:.3f} | {ratio(kc, mc)} | {kp:.4f} | {mp:.4f} |"
              f" {ratio(kp, mp)} | {1e9 * kp / size:.0f} | {1e9 * mp / size:.0f} | {kr:.0f} | {mr:.0f} |"
              f" {ratio(kr, mr)} |")


def source_ops(path):
    """line -> (function, name, op, operand text) for every arith op with a result."""
    ops, func = {}, None
    for number, line in enumerate(open(path), 1):
        f = FUNC.search(line)
        if f:
            func = f.group(1)
            continue
        m = OP_LINE.match(line)
        if m:
            ops[number] = (func, m.group(1), m.group(2), m.group(3))
    return ops


def kildall_constants(dump_path):
    """(function, name) -> state text for every value with a constant state."""
    states, func = {}, None
    for line in open(dump_path):
        if line.startswith("// @"):
            func = line[4:].strip()
            continue
        name, _, state = line.strip().partition(" = ")
        if state not in ("overdefined", "uninitialized"):
            states[(func, name)] = state
    return states


def surviving_lines(mlir_path):
    """Source lines of the non-constant ops left in an MLIR output printed with debug locations."""
    lines = set()
    for line in open(mlir_path):
        if "arith.constant" in line or " = arith." not in line:
            continue
        m = LOC.search(line)
        if m:
            lines.add(int(m.group(1)))
    return lines


def dead_blocks(path):
    """(function, block index) of every block unreachable from the entry."""
    dead, func, blocks, edges, constants = set(), None, [], {}, {}
    current = 0

    def finish():
        if func is None:
            return
        index = {label: i for i, label in enumerate(blocks)}
        seen, stack = {0}, [0]
        while stack:
            b = stack.pop()
            for label in edges.get(b, []):
                t = index[label]
                if t not in seen:
                    seen.add(t)
                    stack.append(t)
        dead.update((func, i) for i in range(len(blocks)) if i not in seen)

    for line in open(path):
        f = FUNC.search(line)
        if f:
            finish()
            func, blocks, edges, constants, current = f.group(1), ["<entry>"], {}, {}, 0
            continue
        b = BLOCK.match(line)
        if b:
            blocks.append(b.group(1))
            current = len(blocks) - 1
            continue
        c = re.match(r"^\s*(%[\w-]+) = arith\.constant (true|false)", line)
        if c:
            constants[c.group(1)] = c.group(2) == "true"
        c = re.match(r"^\s*(%[\w-]+) = arith\.constant (-?\d+) : i1", line)
        if c:
            constants[c.group(1)] = int(c.group(2)) != 0
        code = LOC.sub("", line)
        if "cf.cond_br" in code:
            m = re.search(r"cf\.cond_br (%[\w-]+), (\^\w+).*?, (\^\w+)", code)
            cond, t, e = m.group(1), m.group(2), m.group(3)
            taken = [t, e] if cond not in constants else ([t] if constants[cond] else [e])
            edges.setdefault(current, []).extend(taken)
        elif "cf.br " in code:
            edges.setdefault(current, []).append(re.search(r"cf\.br (\^\w+)", code).group(1))
    finish()
    return dead


def classify(line, ops, kildall, mlir_only_lines, block_args, defs):
    func, name, op, operands = ops[line]
    args = [a.strip() for a in operands.split(",")]
    if op == "arith.subi" and len(args) == 2 and args[0] == args[1]:
        return "arith.subi x, x = 0 (MLIR folder)"
    if op == "arith.cmpi" and len(args) == 3 and args[1] == args[2]:
        return "arith.cmpi pred, x, x (MLIR folder)"
    if op == "arith.muli" and any(kildall.get((func, a)) == "0" for a in args):
        return "arith.muli x, 0 = 0 (MLIR folder)"
    if op in ("arith.addi", "arith.subi") and len(args) == 2:
        for i, a in enumerate(args):
            d = defs.get((func, a))
            if d and d[0] in ("arith.addi", "arith.subi") and args[1 - i] in d[1]:
                return ("addi/subi reassociation, e.g. (a + b) - b = a (MLIR folder; where kildall disagrees, `a` is"
                        " loop-carried and MLIR 16 keeps a stale state, see docs/performance.md)")
    if any((func, a) in mlir_only_lines for a in args):
        return "uses a value only MLIR proved constant"
    if any((func, a) in block_args for a in args):
        return "uses a block argument (not visible in MLIR's output)"
    return "other"


def classify_kildall_only(line, ops, kildall, kildall_only_names, block_args, defs):
    func, name, op, operands = ops[line]
    args = [a.strip() for a in operands.split(",")]
    if op in ("arith.muli", "arith.andi") and any(kildall.get((func, a)) == "0" for a in args):
        return ("kildall only: x * 0 with the 0 on the left or known only to SCCP (MLIR 16's folder matches"
                " an arith.constant op on the right)")
    if op in ("arith.addi", "arith.subi") and len(args) == 2:
        for i, a in enumerate(args):
            d = defs.get((func, a))
            if d and d[0] in ("arith.addi", "arith.subi") and args[1 - i] in d[1]:
                return "kildall only: add/sub identity in an operand order MLIR 16's folders do not match, e.g. (b + a) - b"
    if any((func, a) in kildall_only_names for a in args):
        return "kildall only: uses a value only kildall proved constant"
    if any((func, a) in block_args for a in args):
        return "kildall only: uses a block argument (MLIR left it overdefined)"
    return "kildall only: " + op


def facts(work, shapes_sizes):
    print()
    print("Facts (same file, both tools):")
    print()
    print("| shape | ops | ops proven constant: both | kildall only | MLIR only | dead blocks: both | kildall only |"
          " MLIR only | cmpi folded by ranges: both | kildall only | MLIR only |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    reasons = collections.Counter()
    for shape, size in shapes_sizes:
        base = f"{work}/{shape}.{size}"
        src = f"{work}/{shape}.{size}.mlir"
        ops = source_ops(src)
        kildall = kildall_constants(base + ".kildall.dump")
        mlir_alive = surviving_lines(base + ".mlir.sccp.mlir")
        arith_lines = [l for l, (_, _, op, _) in ops.items() if op != "arith.constant"]
        k_const = {l for l in arith_lines if (ops[l][0], ops[l][1]) in kildall}
        m_const = {l for l in arith_lines if l not in mlir_alive}
        block_args = set()
        func = None
        for line in open(src):
            f = FUNC.search(line)
            if f:
                func = f.group(1)
            if BLOCK.match(line):
                block_args.update((func, a) for a in re.findall(r"(%\w+):", line))
        mlir_only_names = set()
        defs = {(f, n): (op, [a.strip() for a in text.split(",")]) for (f, n, op, text) in ops.values()}
        for l in sorted(m_const - k_const):
            reasons[classify(l, ops, kildall, mlir_only_names, block_args, defs)] += 1
            mlir_only_names.add((ops[l][0], ops[l][1]))
        kildall_only_names = set()
        for l in sorted(k_const - m_const):
            reasons[classify_kildall_only(l, ops, kildall, kildall_only_names, block_args, defs)] += 1
            kildall_only_names.add((ops[l][0], ops[l][1]))
        kd, md = dead_blocks(base + ".kildall.sccp.mlir"), dead_blocks(base + ".mlir.sccp.mlir")
        cmpi = [l for l in arith_lines if ops[l][2] == "arith.cmpi"]
        k_range_out = open(base + ".kildall.range.mlir").read()
        k_alive = set()
        func = None
        for line in k_range_out.splitlines():
            f = FUNC.search(line)
            if f:
                func = f.group(1)
            m = re.match(r"^\s*(%\w+) = arith\.cmpi", line)
            if m:
                k_alive.add((func, m.group(1)))
        k_fold = {l for l in cmpi if (ops[l][0], ops[l][1]) not in k_alive}
        m_range_alive = surviving_lines(base + ".mlir.range.mlir")
        m_fold = {l for l in cmpi if l not in m_range_alive}
        print(f"| {shape} | {size:.0e} | {len(k_const & m_const)} | {len(k_const - m_const)} | {len(m_const - k_const)} |"
              f" {len(kd & md)} | {len(kd - md)} | {len(md - kd)} | {len(k_fold & m_fold)} | {len(k_fold - m_fold)} |"
              f" {len(m_fold - k_fold)} |")
    if reasons:
        print()
        print("Differences in ops proven constant, by cause:")
        for reason, count in reasons.most_common():
            print(f"  {count:8d}  {reason}")


def main():
    rows = read_measurements(sys.argv[1])
    timing_table(rows)
    facts_max = int(sys.argv[3])
    shapes_sizes = sorted({(s, n) for (s, n, _, _) in rows if n <= facts_max})
    facts(sys.argv[2], shapes_sizes)


if __name__ == "__main__":
    main()
