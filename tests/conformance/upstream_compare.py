#!/usr/bin/env python3
"""Measure kildall-opt against MLIR's own upstream lit tests (issue 19), case by case.

usage: upstream_compare.py <kildall-opt> <upstream-dir> [--mlir-opt PATH] [--verbose] [--list-cases]

<upstream-dir> is searched recursively for `*.mlir`. The measurement uses local copies of
these files of llvm/llvm-project (the layout under <upstream-dir> does not matter, only the
file names do):
  mlir/test/Transforms/sccp.mlir, sccp-structured.mlir, sccp-callgraph.mlir
  mlir/test/Dialect/Arith/int-range-interface.mlir, int-range-opts.mlir,
      unsigned-when-equivalent.mlir
  mlir/test/Dialect/Index/int-range-inference.mlir
  mlir/test/Interfaces/InferIntRangeInterface/*.mlir
  mlir/test/Analysis/DataFlow/test-dead-code-analysis.mlir
They are reference inputs for measurement only, under LLVM's licence: they are NOT in this
tree and must not be committed. Fetch them into a scratch directory (e.g. /tmp/upstream/files,
keeping the mlir/test/... paths) and point this script at it.

Cases. Each file is split at its `// -----` lines; each part is cut into cases: one case is one
top-level `func.func` definition together with the part's declarations (bodiless functions and
other top-level ops such as `"live.user"() ...`) and the functions it calls, transitively. An
unnamed top-level `module { ... }` is unwrapped; a named module is one case of its own, nested in
an unnamed `module { ... }` when it was written in one (so the case reads a nested module).
Cases using the `test` dialect (`test.` ops, or `"test.` generic ops) are excluded and counted
separately (MLIR's test dialect is not in mlir-opt-16 and not in kildall).

The pass, per file: `--sccp` for `sccp*.mlir` and the dead-code file;
`--arith-unsigned-when-equivalent` for `unsigned-when-equivalent.mlir` (its RUN line);
`--int-range-optimizations` for the others. Both tools run with `--allow-unregistered-dialect`,
as the upstream RUN lines do.

Per case:
  (a) kildall-opt reads it (parse + verify), or the first line of its error;
  (b) it prints back identically through mlir-opt-16: `mlir-opt-16 --allow-unregistered-dialect`
      on kildall-opt's plain print gives exactly the text `mlir-opt-16
      --allow-unregistered-dialect` gives on the original case (the first difference is shown);
  (c) after the pass, per function, the constants and the ops left (run_conformance.summary:
      constants as (value, type), op counts, cf.br + cf.cond_br counted as one "branch" kind)
      are compared and the case is classed as: identical; kildall leaves fewer ops; differ only
      in kind (as many ops, other kinds or other constants); MLIR leaves fewer ops. A case with
      several functions takes the worst class of its functions (MLIR fewer > kildall fewer >
      kind). Cases mlir-opt-16 rejects are counted as such and not compared.
Without mlir-opt-16 (Debian mlir-16-tools; `KILDALL_WITH_MLIR=1 scripts/setup.sh`) only (a) is
measured. `--list-cases` only prints the cases (no tool is run). `--verbose` adds, for every
case that is not identical, the per-function summary differences and the print difference.

Exit status: 0 whatever the measurement says; 1 if kildall-opt crashed (killed by a signal) or
timed out on a case; 2 on a usage error. mlir-opt-16's own crashes (it dies of SIGFPE on
int-range-interface's @zero_trip_loop, the bug that test was added for) are listed, not failed.
Python standard library only.
"""

import collections
import concurrent.futures
import difflib
import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # importing run_conformance leaves no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_conformance import functions, summary  # noqa: E402

TIMEOUT = 120

SPLIT_MARKER = re.compile(r'^[ \t]*// -----[ \t]*$', re.M)
# A line that begins a new top-level entity (at bracket depth 0).
ITEM_START = re.compile(r'(?:func\.func\b|func\b|module\b|"|%|[#!][\w$.-]+\s*=|[A-Za-z_][\w$]*\.[\w$.]+)')
FUNC_NAME = re.compile(r'func\.func\s+(?:(?:private|nested|public)\s+)?@([\w$.\-]+)')
CALLEE = re.compile(r'\bcall\s+@([\w$.\-]+)')
TEST_DIALECT = re.compile(r'(?<![\w.$@%#^])"?test\.[A-Za-z_]')


# ---------------------------------------------------------------- splitting

def unquoted(text):
    """(index, character) of each character of `text` outside string literals (their quotes excluded)."""
    in_string = False
    i = 0
    while i < len(text):
        c = text[i]
        if in_string:
            if c == '\\':
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        else:
            yield i, c
        i += 1


def strip_comment(line):
    """The line without its `//` comment (a `//` inside a string literal is kept)."""
    for i, c in unquoted(line):
        if c == '/' and line.startswith('//', i):
            return line[:i]
    return line


def strip_comments(text):
    """The text with every comment blanked out by spaces (so offsets into it are offsets into `text`)."""
    out = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip('\n')
        code = strip_comment(body)
        out.append(code + ' ' * (len(body) - len(code)) + line[len(body):])
    return ''.join(out)


def bracket_delta(code):
    """Net ({[ minus )}] of a comment-free line, outside string literals."""
    return sum(1 if c in '({[' else -1 for _, c in unquoted(code) if c in '({[)}]')


def top_brace_groups(code):
    """(start, end) of each `{...}` at depth 0 of a comment-free text (end: index after `}`)."""
    groups = []
    depth = 0
    start = None
    for i, c in unquoted(code):
        if c in '({[':
            if depth == 0 and c == '{':
                start = i
            depth += 1
        elif c in ')}]':
            depth -= 1
            if depth == 0 and c == '}' and start is not None:
                groups.append((start, i + 1))
                start = None
    return groups


class Item:
    """One top-level entity of a part: a function (definition or declaration), a named module, or another op."""

    def __init__(self, text):
        self.text = text
        self.code = strip_comments(text)
        stripped = self.code.lstrip()
        self.name = None
        self.calls = set()
        self.in_wrapper = False  # written inside an unnamed `module { ... }`
        if stripped.startswith('func.func'):
            match = FUNC_NAME.match(stripped)
            self.name = match.group(1) if match else '?'
            groups = top_brace_groups(self.code)
            body = groups and not self.code[:groups[-1][0]].rstrip().endswith('attributes')
            self.kind = 'function' if body else 'declaration'
            self.calls = set(CALLEE.findall(self.code))
        elif stripped.startswith('module'):
            named = re.match(r'module\s+@([\w$.\-]+)', stripped)
            self.kind = 'module' if named else 'wrapper'
            self.name = named.group(1) if named else None
        else:
            self.kind = 'other'


def top_level_items(text):
    """The top-level entities of a part's text, in order; unnamed `module { ... }` wrappers are unwrapped."""
    items = []
    lines = []
    depth = 0
    for line in text.splitlines(keepends=True):
        code = strip_comment(line.rstrip('\n')).strip()
        if depth == 0:
            if not code:
                continue                       # blank or comment line between entities
            if ITEM_START.match(code) or not lines:
                if lines:
                    items.append(Item(''.join(lines)))
                lines = []
        lines.append(line)
        depth = max(0, depth + bracket_delta(code))
    if lines:
        items.append(Item(''.join(lines)))
    result = []
    for item in items:
        if item.kind == 'wrapper':
            groups = top_brace_groups(item.code)
            if groups:
                # Comments are blanked, not removed: offsets into the code are offsets into the text.
                start, end = groups[-1]
                inner = top_level_items(item.text[start + 1:end - 1])
                for sub in inner:
                    sub.in_wrapper = True
                result.extend(inner)
                continue
        result.append(item)
    return result


Case = collections.namedtuple('Case', 'name function text test_dialect')


def uses_test_dialect(text):
    return bool(TEST_DIALECT.search(strip_comments(text)))


def split_cases(text, label):
    """The cases of one upstream file (see the module docstring)."""
    cases = []
    parts = SPLIT_MARKER.split(text)
    for index, part in enumerate(parts):
        items = top_level_items(part)
        defined = {item.name: item for item in items if item.kind == 'function'}
        shared = [item for item in items if item.kind in ('declaration', 'other')]
        where = '%s#%d' % (label, index) if len(parts) > 1 else label
        for item in items:
            if item.kind == 'module':
                body = [item] + shared
                name = 'module @%s' % item.name
            elif item.kind == 'function':
                wanted = {item.name}
                todo = [item]
                while todo:
                    for callee in sorted(todo.pop().calls):
                        if callee in defined and callee not in wanted:
                            wanted.add(callee)
                            todo.append(defined[callee])
                body = [i for i in items if i in shared or (i.kind == 'function' and i.name in wanted)]
                name = '@' + item.name
            else:
                continue
            case_text = ''.join(i.text if i.text.endswith('\n') else i.text + '\n' for i in body)
            if item.kind == 'module' and item.in_wrapper:
                case_text = 'module {\n' + case_text + '}\n'
            cases.append(Case('%s %s' % (where, name), name, case_text, uses_test_dialect(case_text)))
    return cases


def pass_for(path, text):
    base = os.path.basename(path)
    run_lines = ' '.join(re.findall(r'//\s*RUN:(.*)', text))
    if 'unsigned-when-equivalent' in base or 'arith-unsigned-when-equivalent' in run_lines:
        return '--arith-unsigned-when-equivalent'
    if base.startswith('sccp') or 'dead-code' in base:
        return '--sccp'
    return '--int-range-optimizations'


# ---------------------------------------------------------------- running

Run = collections.namedtuple('Run', 'ok stdout stderr crashed')


def run(command, stdin):
    try:
        done = subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return Run(False, '', 'timed out after %d s' % TIMEOUT, '%s: timed out' % os.path.basename(command[0]))
    crashed = None
    if done.returncode < 0:
        crashed = '%s: killed by signal %d' % (os.path.basename(command[0]), -done.returncode)
    return Run(done.returncode == 0, done.stdout, done.stderr, crashed)


def first_error(result):
    if result.crashed:
        return 'CRASHED (%s)' % result.crashed
    for line in result.stderr.splitlines():
        if line.strip():
            return line.strip()
    return 'exit status non-zero, no message'


def first_difference(expected, actual):
    """(line number, expected line, actual line) of the first difference of two texts."""
    a, b = expected.splitlines(), actual.splitlines()
    for n, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return n + 1, x, y
    n = min(len(a), len(b))
    return n + 1, a[n] if n < len(a) else '<end>', b[n] if n < len(b) else '<end>'


CLASSES = ('identical', 'kildall-fewer', 'kind-only', 'mlir-fewer')


def compare(ours, theirs):
    """The class of a case and its per-function differences, from both tools' pass outputs."""
    mine, their = functions(ours), functions(theirs)
    differences = []
    worst = 'identical'
    rank = {'identical': 0, 'kind-only': 1, 'kildall-fewer': 2, 'mlir-fewer': 3}
    for fn in sorted(set(mine) | set(their)):
        a = summary(mine.get(fn, ''))
        b = summary(their.get(fn, ''))
        if a == b and (fn in mine) == (fn in their):
            continue
        ka, kb = sum(a[1].values()), sum(b[1].values())
        cls = 'kildall-fewer' if ka < kb else 'mlir-fewer' if kb < ka else 'kind-only'
        if rank[cls] > rank[worst]:
            worst = cls
        differences.append((fn, cls, a, b, fn in mine, fn in their))
    return worst, differences


def describe(differences):
    lines = []
    for fn, cls, a, b, in_mine, in_their in differences:
        if not in_mine or not in_their:
            lines.append('@%s: only in %s' % (fn, 'kildall' if in_mine else 'mlir-opt-16'))
            continue
        parts = []
        only_k, only_m = sorted(a[0] - b[0]), sorted(b[0] - a[0])
        if only_k or only_m:
            parts.append('constants only kildall %s, only mlir %s' % (
                [' : '.join(x for x in c if x) for c in only_k], [' : '.join(x for x in c if x) for c in only_m]))
        ops = sorted(set(a[1]) | set(b[1]))
        diff_ops = ['%s %d vs %d' % (op, a[1][op], b[1][op]) for op in ops if a[1][op] != b[1][op]]
        if diff_ops:
            parts.append('ops (kildall vs mlir) ' + ', '.join(diff_ops))
        lines.append('@%s [%s]: %s' % (fn, cls, '; '.join(parts) if parts else 'same summary'))
    return lines


def measure(case, kopt, mlir_opt, flag):
    """Everything measured for one case: a dict."""
    r = {'case': case, 'crashes': [], 'mlir_crashes': [], 'notes': []}

    def go(command, stdin):
        result = run(command, stdin)
        if result.crashed:
            r['crashes' if command[0] == kopt else 'mlir_crashes'].append(result.crashed)
        return result

    printed = go([kopt, '--allow-unregistered-dialect', '-'], case.text)
    r['read'] = printed.ok
    if not printed.ok:
        r['read_error'] = first_error(printed)
    if not mlir_opt:
        return r
    original = go([mlir_opt, '--allow-unregistered-dialect', '-'], case.text)
    r['mlir_accepts'] = original.ok
    if not original.ok:
        r['mlir_error'] = first_error(original)
        return r
    if not printed.ok:
        return r
    again = go([mlir_opt, '--allow-unregistered-dialect', '-'], printed.stdout)
    if not again.ok:
        r['print_identical'] = False
        r['print_difference'] = "mlir-opt-16 rejects kildall-opt's print: " + first_error(again)
    else:
        r['print_identical'] = again.stdout == original.stdout
        if not r['print_identical']:
            n, x, y = first_difference(original.stdout, again.stdout)
            r['print_difference'] = 'line %d: mlir(original) %r vs mlir(kildall print) %r' % (n, x.strip(), y.strip())
            r['print_diff'] = list(difflib.unified_diff(original.stdout.splitlines(), again.stdout.splitlines(),
                                                        'mlir(original)', 'mlir(kildall print)', lineterm='', n=1))
    ours = go([kopt, '--allow-unregistered-dialect', flag, '-'], case.text)
    theirs = go([mlir_opt, '--allow-unregistered-dialect', flag, '-'], case.text)
    if not ours.ok:
        r['class'] = 'kildall-pass-fails'
        r['notes'].append('kildall-opt %s fails: %s' % (flag, first_error(ours)))
        return r
    if not theirs.ok:
        r['class'] = 'mlir-pass-fails'
        r['notes'].append('mlir-opt-16 %s fails: %s' % (flag, first_error(theirs)))
        return r
    check = go([mlir_opt, '--allow-unregistered-dialect', '-'], ours.stdout)
    if not check.ok:
        r['notes'].append("mlir-opt-16 rejects kildall-opt's %s output: %s" % (flag, first_error(check)))
    r['class'], r['differences'] = compare(ours.stdout, theirs.stdout)
    return r


# ---------------------------------------------------------------- report

COLUMNS = ('cases', 'test', 'considered', 'read', 'print-id', 'identical', 'kildall-fewer', 'kind-only',
           'mlir-fewer', 'mlir-rejects', 'mlir-pass-fails', 'kildall-pass-fails')


def tally(results):
    t = collections.Counter()
    for r in results:
        t['cases'] += 1
        if r['case'].test_dialect:
            t['test'] += 1
            continue
        t['considered'] += 1
        t['read'] += r['read']
        t['print-id'] += bool(r.get('print_identical'))
        if r.get('mlir_accepts') is False:
            t['mlir-rejects'] += 1
        if r.get('class'):
            t[r['class']] += 1
    return t


def status_line(r, mlir_opt):
    case = r['case']
    if case.test_dialect:
        return '  %-58s test dialect: excluded' % case.name
    fields = ['read' if r['read'] else 'NOT READ: ' + r['read_error']]
    if mlir_opt:
        if r.get('mlir_accepts') is False:
            fields.append('mlir-opt-16 REJECTS: ' + r['mlir_error'])
        elif r['read']:
            fields.append('print-identical' if r['print_identical'] else 'PRINT DIFFERS: ' + r['print_difference'])
            fields.append(r['class'])
    fields.extend(r['notes'])
    return '  %-58s %s' % (case.name, '; '.join(fields))


def main(argv):
    mlir_opt = None
    mlir_given = False
    verbose = list_only = False
    positional = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == '--mlir-opt' and i + 1 < len(argv):
            mlir_opt, mlir_given = argv[i + 1], True
            i += 1
        elif a.startswith('--mlir-opt='):
            mlir_opt, mlir_given = a.split('=', 1)[1], True
        elif a == '--verbose':
            verbose = True
        elif a == '--list-cases':
            list_only = True
        elif a.startswith('-') and a != '-':
            positional = None
            break
        else:
            positional.append(a)
        i += 1
    if positional is None or len(positional) != 2:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    kopt, upstream = positional
    if not mlir_given:
        mlir_opt = shutil.which('mlir-opt-16')
    paths = sorted(os.path.join(d, f) for d, _, fs in os.walk(upstream) for f in fs if f.endswith('.mlir'))
    if not paths:
        print('no .mlir file under %s (see the docstring: the upstream files are not in the tree)' % upstream,
              file=sys.stderr)
        return 2

    files = []
    for path in paths:
        with open(path, encoding='utf-8') as f:
            text = f.read()
        files.append((os.path.relpath(path, upstream), pass_for(path, text), split_cases(text, os.path.basename(path))))

    if list_only:
        for rel, flag, cases in files:
            print('%s (%s): %d cases' % (rel, flag, len(cases)))
            for case in cases:
                fns = [i.name for i in top_level_items(case.text) if i.kind == 'function']
                print('  %-58s %s%s' % (case.name, 'test dialect; ' if case.test_dialect else '',
                                        'functions ' + ' '.join('@' + f for f in fns)))
        return 0

    if not (os.path.isfile(kopt) and os.access(kopt, os.X_OK)):
        print('not an executable: %s' % kopt, file=sys.stderr)
        return 2
    if not mlir_opt:
        print('SKIPPED the mlir-opt-16 comparisons: mlir-opt-16 is not installed (Debian package mlir-16-tools)')
    print('kildall-opt: %s\nmlir-opt:    %s\nupstream:    %s' % (kopt, mlir_opt or '(none)', upstream))

    jobs = [(rel, flag, case) for rel, flag, cases in files for case in cases]
    workers = max(1, min(8, os.cpu_count() or 1))

    def work(job):
        rel, flag, case = job
        if case.test_dialect:
            return {'case': case, 'crashes': [], 'mlir_crashes': [], 'notes': [], 'read': False}
        return measure(case, kopt, mlir_opt, flag)

    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        results = list(pool.map(work, jobs))

    by_file = collections.OrderedDict((rel, []) for rel, _, _ in files)
    for (rel, _, _), r in zip(jobs, results):
        by_file[rel].append(r)
    crashes, mlir_crashes = [], []
    for rel, flag, _ in files:
        print('\n%s (%s)' % (rel, flag))
        for r in by_file[rel]:
            print(status_line(r, mlir_opt))
            crashes.extend('%s: %s' % (r['case'].name, c) for c in r['crashes'])
            mlir_crashes.extend('%s: %s' % (r['case'].name, c) for c in r['mlir_crashes'])
            if verbose and not r['case'].test_dialect:
                if r.get('class') not in (None, 'identical'):
                    for line in describe(r.get('differences', [])):
                        print('      ' + line)
                for line in r.get('print_diff', [])[:40]:
                    print('      | ' + line)

    names = {rel: os.path.basename(rel) for rel in by_file}
    width = max(len(n) for n in names.values()) + 2
    print('\nTotals. considered = cases - test dialect; print-id = prints back identically through'
          '\nmlir-opt-16; identical .. mlir-fewer: the pass on both, per case; mlir-rejects: mlir-opt-16'
          '\ndoes not read the case; *-pass-fails: the pass failed or crashed on a case both read.')
    short = {'considered': 'consid.', 'kildall-fewer': 'k-fewer', 'mlir-fewer': 'm-fewer',
             'mlir-rejects': 'm-rejects', 'mlir-pass-fails': 'm-pass-fail', 'kildall-pass-fails': 'k-pass-fail'}
    row = lambda label, values: '%-*s' % (width, label) + ''.join('%12s' % v for v in values)
    print(row('file', [short.get(c, c) for c in COLUMNS]))
    total = collections.Counter()
    for rel, rs in by_file.items():
        t = tally(rs)
        total.update(t)
        print(row(names[rel], [t[c] for c in COLUMNS]))
    print(row('TOTAL', [total[c] for c in COLUMNS]))
    if mlir_crashes:
        print('\nmlir-opt-16 crashed (its own bugs; not a failure of this run) (%d):' % len(mlir_crashes))
        for c in mlir_crashes:
            print('  ' + c)
    if crashes:
        print('\nkildall-opt CRASHED or timed out (%d):' % len(crashes))
        for c in crashes:
            print('  ' + c)
        return 1
    return 0

if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
