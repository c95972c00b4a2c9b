#!/usr/bin/env python3
"""Tests of check_doc_snippets.py on small made-up projects (standard library only).

Usage: check_doc_snippets_test.py  (exit status 0 when every case passes)
"""
import pathlib
import subprocess
import sys
import tempfile

SCRIPT = pathlib.Path(__file__).resolve().parent / "check_doc_snippets.py"

SOURCE = """// a compiled test
#include <x.hpp>
TEST_CASE("t") {
    int a = 1;   // one
    int b = a;

    CHECK(b == 1);
}
"""


def run(files):
    """Writes `files` (path -> text) into a fresh project and runs the checker on it."""
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        for name, text in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        done = subprocess.run([sys.executable, str(SCRIPT), str(root)], capture_output=True, text=True)
        return done.returncode, done.stdout


CASES = [
    # (name, files, expected exit status, text expected in the output)
    ("verbatim block, indentation and blank lines differ",
     {"README.md": "# x\n```cpp\nint a = 1;   // one\n\n  int b = a;\nCHECK(b == 1);\n```\n",
      "tests/a_test.cpp": SOURCE}, 0, "1 C++ blocks checked, 1 found"),
    ("a changed line is missing",
     {"README.md": "```cpp\nint a = 2;   // one\n```\n", "tests/a_test.cpp": SOURCE}, 1,
     "README.md:2: C++ block not found in any compiled source: int a = 2;"),
    ("lines must be consecutive",
     {"README.md": "```cpp\nint a = 1;   // one\nCHECK(b == 1);\n```\n", "tests/a_test.cpp": SOURCE}, 1,
     "1 missing"),
    ("other spellings of C++ are checked too",
     {"docs/p.md": "```C++\nnot compiled();\n```\n\n```cxx {.numberLines}\nnor this();\n```\n",
      "README.md": "", "tests/a_test.cpp": SOURCE}, 1, "2 C++ blocks checked, 0 found"),
    ("text, sh and unlabelled fences are not C++",
     {"docs/p.md": "```text\nstruct P { ... };\n```\n```sh\nmake\n```\n```\noutput\n```\n",
      "README.md": "", "tests/a_test.cpp": SOURCE}, 0, "0 C++ blocks checked"),
    ("a longer fence may contain a shorter one",
     {"README.md": "````cpp\nint a = 1;   // one\n```\n````\n", "tests/a_test.cpp": SOURCE}, 1, "1 missing"),
    ("a block may not span two source files",
     {"README.md": "```cpp\n}\n// a compiled test\n```\n", "tests/a_test.cpp": SOURCE,
      "tests/b_test.cpp": SOURCE}, 1, "1 missing"),
    ("sources outside tests/, examples/, benchmarks/ do not count",
     {"README.md": "```cpp\nint a = 1;   // one\n```\n", "include/a.hpp": SOURCE}, 1, "1 missing"),
    ("examples and benchmarks count",
     {"README.md": "```cpp\nint a = 1;   // one\n```\n", "benchmarks/b.cpp": SOURCE}, 0, "1 found"),
    ("an unterminated fence is an error",
     {"README.md": "```cpp\nint a = 1;\n", "tests/a_test.cpp": SOURCE}, 2, "unterminated code fence"),
]


def main():
    failures = 0
    for name, files, status, needle in CASES:
        got_status, output = run(files)
        if got_status != status or needle not in output:
            failures += 1
            print(f"FAILED: {name}: exit {got_status} (want {status}), output:\n{output}")
        else:
            print(f"ok: {name}")
    print(f"{len(CASES) - failures} of {len(CASES)} cases passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
