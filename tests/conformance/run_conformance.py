#!/usr/bin/env python3
"""Conformance with mlir-opt-16 on upstream-style cases written in this project (issue 19, item 5).

usage: run_conformance.py <kildall-opt> <cases-dir>

Every `<cases-dir>/<name>.mlir` is one case, in the style of MLIR's own SCCP tests (one
construct per file: `scf` regions, attribute dictionaries, unregistered ops, ...). For each:
  - kildall-opt reads it (`--allow-unregistered-dialect`, as the upstream RUN lines) and
    prints it back; the printed module is read again and prints the same (a fixed point);
  - kildall-opt runs `--sccp` on it;
and, when `mlir-opt-16` is installed (Debian mlir-16-tools; skipped with a message otherwise):
  - mlir-opt-16 accepts both kildall-opt outputs;
  - per function, `mlir-opt-16 --sccp` and `kildall-opt --sccp` leave the same set of
    constants and the same ops (constants aside). The one difference allowed is kildall's own
    fold of a `cf.cond_br` on a constant into `cf.br` (MLIR leaves it to --canonicalize).
Python standard library only.
"""

import collections
import os
import re
import shutil
import subprocess
import sys

TIMEOUT = 60


def run(command, stdin=None):
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=TIMEOUT)


def functions(text):
    """Function name -> its text, for a printed module (one `func.func` per entry). Functions of
    one name in different (nested) modules are told apart by their order: `f`, `f#2`, ..."""
    parts = re.split(r'^\s*func\.func ', text, flags=re.M)[1:]
    result = {}
    for part in parts:
        name = re.search(r'@([\w$.]+)', part).group(1)
        key, n = name, 1
        while key in result:
            n += 1
            key = '%s#%d' % (name, n)
        result[key] = part
    return result


def summary(text):
    constants = set(re.findall(r'arith\.constant (?:\{[^}]*\} )?(-?\w+)(?: : (\w+))?', text))
    # The index dialect's constants (MLIR materializes its folds so) are the same facts.
    constants |= {(value, 'index') for value in re.findall(r'index\.constant (-?\w+)', text)}
    constants |= {(value, '') for value in re.findall(r'index\.bool\.constant (true|false)', text)}
    ops = collections.Counter(re.findall(r'(?:=\s*|^\s*)((?:arith|scf|cf|func|index)\.[\w.]+|return|"[\w.]+"(?=\())', text, re.M))
    for name in ('index.constant', 'index.bool.constant'):
        ops.pop(name, None)
    # mlir-opt elides the `func.` of func ops inside a function (`call`, `call_indirect`, `constant`).
    ops['func.call'] += len(re.findall(r'(?:=\s*|^\s*)call @', text, re.M))
    ops['func.call_indirect'] += len(re.findall(r'(?:=\s*|^\s*)call_indirect %', text, re.M))
    ops['func.constant'] += len(re.findall(r'=\s*constant (?:\{[^}]*\} )?@', text, re.M))
    for name in ('func.call_indirect', 'func.constant'):
        if ops[name] == 0:
            ops.pop(name, None)
    for name in ('arith.constant', 'func.call'):
        if ops[name] == 0 or name == 'arith.constant':
            ops.pop(name, None)
    # kildall folds a constant cf.cond_br into cf.br; count both as one branch.
    branches = ops.pop('cf.br', 0) + ops.pop('cf.cond_br', 0)
    if branches:
        ops['branch'] = branches
    return constants, ops


def main():
    kopt, cases = sys.argv[1], sys.argv[2]
    mlir_opt = shutil.which('mlir-opt-16') or shutil.which('mlir-opt')
    if not mlir_opt:
        print('SKIPPED the mlir-opt-16 comparisons: mlir-opt-16 is not installed (Debian package mlir-16-tools)')
    failures = 0
    names = sorted(n[:-5] for n in os.listdir(cases) if n.endswith('.mlir'))
    for name in names:
        path = os.path.join(cases, name + '.mlir')
        problems = []
        printed = run([kopt, '--allow-unregistered-dialect', path])
        if printed.returncode != 0:
            problems.append('kildall-opt does not read it: ' + printed.stderr.strip())
        else:
            again = run([kopt, '--allow-unregistered-dialect', '-'], printed.stdout)
            if again.returncode != 0 or again.stdout != printed.stdout:
                problems.append('printing is not a fixed point: ' + again.stderr.strip())
        ours = run([kopt, '--allow-unregistered-dialect', '--sccp', path])
        if ours.returncode != 0:
            problems.append('kildall-opt --sccp fails: ' + ours.stderr.strip())
        if mlir_opt and not problems:
            for label, text in (('printed', printed.stdout), ('--sccp', ours.stdout)):
                check = run([mlir_opt, '--allow-unregistered-dialect', '-'], text)
                if check.returncode != 0:
                    problems.append('mlir-opt-16 rejects kildall-opt\'s %s output: %s' % (label, check.stderr.strip()))
            theirs = run([mlir_opt, '--allow-unregistered-dialect', '--sccp', path])
            if theirs.returncode != 0:
                problems.append('mlir-opt-16 --sccp fails: ' + theirs.stderr.strip())
            else:
                mine, their = functions(ours.stdout), functions(theirs.stdout)
                if sorted(mine) != sorted(their):
                    problems.append('different functions: %s vs %s' % (sorted(mine), sorted(their)))
                for fn in sorted(set(mine) & set(their)):
                    a, b = summary(mine[fn]), summary(their[fn])
                    if a != b:
                        problems.append('@%s: kildall constants %s ops %s; mlir-opt-16 constants %s ops %s'
                                        % (fn, sorted(a[0]), dict(a[1]), sorted(b[0]), dict(b[1])))
        if problems:
            failures += 1
            print('FAIL %s:\n  %s' % (name, '\n  '.join(problems)))
    print('%d conformance cases, %d failed' % (len(names), failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
