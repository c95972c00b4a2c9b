#!/usr/bin/env python3
"""Enforces the dependency rules of docs/architecture.md on the include graph.

Scans every header under include/kildall/ for #include lines and checks:
  0. support/ (std-only internals such as the huge-page array allocator,
     which every part but lp/ may use) includes nothing else of kildall;
  1. graph/ and lattice/ include nothing else of kildall but themselves and
     support/ (graphs and lattices know nothing of each other or of solvers);
  2. solver/ includes only graph/, lattice/ and solver/ (no IR, no MILP);
  3. lp/ includes only lp/ (the MILP builder stands alone);
  4. only lp/glpk.hpp includes <glpk.h>, only lp/eigen.hpp includes Eigen, and
     no header outside lp/ and noisy/ reaches lp/glpk.hpp (GLPK is GPL);
  5. ir/ includes no noisy/ and no lp/ (dialects plug into the IR from
     outside), and of noisy/ only the IR adapters include ir/;
  5c. pass/ (the generic pass manager) includes only support/ and pass/,
     and no Boost; ir/ and noisy/ may include it, the core may not;
  5b. rewrite/ (the generic pattern-rewrite library) includes only
     support/ and rewrite/: it knows no IR, solver or MILP; and graph/,
     lattice/, solver/ include no rewrite/ (ALLOWED says both);
  6. the core umbrella kildall.hpp includes only graph/, lattice/, solver/ and
     version.hpp; lp.hpp only lp/ (so not the GPL backend);
  7. the core (graph/, lattice/, solver/, rewrite/, kildall.hpp) includes no Boost
     header but in graph/boost.hpp, the opt-in bridge to Boost's property
     vocabulary (Boost's graph headers cost a second of parsing per TU).
  8. nor any of the heavy standard headers in HEAVY_STANDARD_HEADERS
     (`<ranges>` alone is a fifth of a second per TU); lattice/laws.hpp,
     the law-checking kit outside kildall.hpp, may (it draws random values).
Violations are printed as `path:line: rule: the include` and make the exit
status 1. `--self-test` runs the checker on a synthetic tree with one
violation of each rule (and five conforming headers) and fails unless
exactly the violations are caught.

Usage: check_layering.py <project-root> | --self-test
"""
import pathlib
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')

# part -> the kildall parts it may include (None: anything)
ALLOWED = {
    "support": {"support"},
    "graph": {"support", "graph"},
    "lattice": {"support", "lattice"},
    "solver": {"support", "graph", "lattice", "solver"},
    "rewrite": {"support", "rewrite"},
    "pass": {"support", "pass"},
    "lp": {"lp"},
    "ir": {"support", "graph", "lattice", "solver", "rewrite", "pass", "ir", "version.hpp"},
    "noisy": {"support", "graph", "lattice", "solver", "rewrite", "pass", "lp", "ir", "noisy", "kildall.hpp", "lp.hpp", "ir.hpp"},
    "kildall.hpp": {"graph", "lattice", "solver", "version.hpp"},
    "lp.hpp": {"lp"},
    "ir.hpp": {"ir"},
    "noisy.hpp": {"noisy"},
}

# noisy/ headers that adapt the reference IR; every other noisy/ header is
# generic over any graph and may not include ir/.
NOISY_IR_ADAPTERS = {"noisy/ir_dialect.hpp", "noisy/kildall_opt_plugin.hpp"}

# The parts that make up the core, and the one core header that may include Boost.
CORE_PARTS = {"support", "graph", "lattice", "solver", "rewrite", "kildall.hpp"}
BOOST_BRIDGE = "graph/boost.hpp"
# Parts that include no Boost header: the core, and the pass manager (which may
# use the heavy standard headers, e.g. <functional> for its pass factories).
NO_BOOST_PARTS = CORE_PARTS | {"pass"}

# Standard headers the core keeps out for compile time, and the one core
# header (not in the kildall.hpp umbrella) that may include them.
HEAVY_STANDARD_HEADERS = {"ranges", "sstream", "iostream", "fstream", "regex", "random", "format", "functional"}
HEAVY_STANDARD_EXEMPT = "lattice/laws.hpp"


def part_of_include(name):
    """The kildall part an include names (`kildall/solver/x.hpp` -> solver), or None."""
    if not name.startswith("kildall/"):
        return None
    rest = name[len("kildall/"):]
    return rest.split("/", 1)[0]


def check(include_root):
    violations = []
    kildall = include_root / "kildall"
    for path in sorted(kildall.rglob("*.hpp")):
        rel = path.relative_to(kildall)
        part = rel.parts[0]
        allowed = ALLOWED.get(part)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            m = INCLUDE.match(line)
            if not m:
                continue
            name = m.group(1)
            where = f"include/kildall/{rel.as_posix()}:{number}"
            target = part_of_include(name)
            if allowed is not None and target is not None and target not in allowed:
                violations.append(f"{where}: {part} may not include {target}: #include <{name}>")
            if part == "noisy" and target == "ir" and rel.as_posix() not in NOISY_IR_ADAPTERS:
                violations.append(f"{where}: the generic noisy model may not include ir "
                                  f"(only {', '.join(sorted(NOISY_IR_ADAPTERS))}): #include <{name}>")
            if name in ("glpk.h",) and rel.as_posix() != "lp/glpk.hpp":
                violations.append(f"{where}: only lp/glpk.hpp may include GLPK: #include <{name}>")
            if name.startswith("Eigen/") and rel.as_posix() != "lp/eigen.hpp":
                violations.append(f"{where}: only lp/eigen.hpp may include Eigen: #include <{name}>")
            if (name.startswith("boost/") and part in NO_BOOST_PARTS
                    and rel.as_posix() != BOOST_BRIDGE):
                violations.append(f"{where}: the core includes no Boost header "
                                  f"(only {BOOST_BRIDGE}): #include <{name}>")
            if (name in HEAVY_STANDARD_HEADERS and part in CORE_PARTS
                    and rel.as_posix() != HEAVY_STANDARD_EXEMPT):
                violations.append(f"{where}: the core keeps heavy standard headers out "
                                  f"(compile time): #include <{name}>")
            if name == "kildall/lp/glpk.hpp" and part not in ("lp", "noisy"):
                violations.append(f"{where}: GPL backend reached from {part}: #include <{name}>")
    return violations


def self_test():
    bad = {
        "graph/a.hpp": "#include <kildall/lattice/flat.hpp>\n",
        "support/k.hpp": "#include <kildall/graph/concepts.hpp>\n",
        "lp/l.hpp": "#include <kildall/support/large_array_allocator.hpp>\n",
        "lattice/b.hpp": "#include <kildall/graph/concepts.hpp>\n",
        "solver/c.hpp": "#include <kildall/ir/module.hpp>\n",
        "lp/d.hpp": "#include <kildall/solver/sparse.hpp>\n",
        "lp/e.hpp": "#include <glpk.h>\n",
        "lp/f.hpp": "#include <Eigen/Dense>\n",
        "ir/g.hpp": "#include <kildall/noisy/noise_model.hpp>\n",
        "kildall.hpp": "#include <kildall/lp/model.hpp>\n",
        "lp.hpp": "#include <kildall/lp/glpk.hpp>\n",
        "noisy/h.hpp": "#include <kildall/ir/module.hpp>\n",
        "noisy/ir_dialect.hpp": "#include <kildall/ir/module.hpp>\n#include <kildall/lp/glpk.hpp>\n",
        "solver/i.hpp": "#include <boost/graph/graph_traits.hpp>\n",
        "lattice/j.hpp": "#include <ranges>\n",
        "lattice/laws.hpp": "#include <random>\n#include <sstream>\n",
        "rewrite/m.hpp": "#include <kildall/ir/module.hpp>\n",
        "rewrite/n.hpp": "#include <kildall/solver/sparse.hpp>\n",
        "rewrite/o.hpp": "#include <functional>\n",
        "rewrite/p.hpp": "#include <boost/graph/graph_traits.hpp>\n",
        "solver/q.hpp": "#include <kildall/rewrite/greedy_driver.hpp>\n",
        "pass/r.hpp": "#include <kildall/ir/module.hpp>\n",
        "pass/s.hpp": "#include <boost/graph/graph_traits.hpp>\n",
        "rewrite/t.hpp": "#include <kildall/pass/pass.hpp>\n",
        "pass/ok.hpp": "#include <kildall/support/large_array_allocator.hpp>\n#include <functional>\n",
        "rewrite/ok.hpp": "#include <kildall/support/large_array_allocator.hpp>\n#include <variant>\n",
        "solver/ok.hpp": "#include <kildall/graph/concepts.hpp>\n#include <vector>\n",
        "graph/boost.hpp": "#include <boost/graph/properties.hpp>\n",
    }
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        for rel, text in bad.items():
            path = root / "kildall" / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        found = check(root)
    caught = {v.split(":", 1)[0] for v in found}
    expected = {f"include/kildall/{rel}" for rel in bad if not rel.endswith(("ok.hpp", "ir_dialect.hpp", "graph/boost.hpp", "laws.hpp"))}
    for v in found:
        print("caught:", v)
    if caught != expected:
        print("self-test FAILED: expected violations in", sorted(expected), "caught", sorted(caught))
        return 1
    print(f"self-test: all {len(expected)} planted violations caught, the conforming header passed")
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--self-test":
        return self_test()
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    violations = check(root / "include")
    for v in violations:
        print(v)
    headers = len(list((root / "include" / "kildall").rglob("*.hpp")))
    print(f"{headers} headers checked, {len(violations)} dependency-rule violations")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
