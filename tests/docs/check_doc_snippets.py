#!/usr/bin/env python3
"""Every C++ code block in the documentation is compiled code.

For each fenced C++ block (info string ```cpp, ```c++, ```cxx or ```cc, any
case, optionally followed by attributes) in README.md and docs/*.md, checks
that its text appears verbatim (as a run of whole lines, leading and trailing
whitespace and blank lines ignored) in one source file that the test suite
compiles: tests/**, examples/** or benchmarks/**. A block that is not found is
reported as file:line with its first line, and the check fails.

A block that is deliberately not compiled C++ says so with another fence
language (```text for an interface listing, ```sh, ```cmake, ```mlir, or no
language for program output); there is no other way to opt out.

Usage: check_doc_snippets.py <project-root>
Exit status: 0 when every block is found, 1 when some are missing, 2 on
malformed input (an unterminated fence, no documentation found).
"""
import pathlib
import re
import sys

CPP_LANGUAGES = {"cpp", "c++", "cxx", "cc"}
SOURCE_FOLDERS = ("tests", "examples", "benchmarks")
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cc", ".cxx", ".ipp")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*([^`\s]*)")


class MalformedDoc(Exception):
    pass


def fenced_blocks(path):
    """Yields (line number of the first content line, language, lines) of each fenced block."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        fence, language = opening.group(1), opening.group(2).lower()
        start = i + 1
        j = start
        # The closing fence uses the same character, at least as many of them, and nothing else.
        while j < len(lines):
            stripped = lines[j].strip()
            if stripped and set(stripped) == {fence[0]} and len(stripped) >= len(fence):
                break
            j += 1
        if j == len(lines):
            raise MalformedDoc(f"{path}:{i + 1}: unterminated code fence {fence}{language}")
        yield start + 1, language, lines[start:j]
        i = j + 1


def normalized(lines):
    return [line.strip() for line in lines if line.strip()]


def as_text(lines):
    return "\n" + "\n".join(lines) + "\n"


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    docs = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    docs = [d for d in docs if d.is_file()]
    if not docs:
        print(f"no README.md or docs/*.md under {root}")
        return 2
    sources = []
    for folder in SOURCE_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in SOURCE_SUFFIXES and path.is_file():
                text = path.read_text(encoding="utf-8", errors="replace")
                sources.append(as_text(normalized(text.splitlines())))
    checked = 0
    missing = []
    try:
        for doc in docs:
            for line, language, block in fenced_blocks(doc):
                if language not in CPP_LANGUAGES:
                    continue
                body = normalized(block)
                if not body:
                    continue
                checked += 1
                wanted = as_text(body)
                if not any(wanted in source for source in sources):
                    missing.append(f"{doc.relative_to(root)}:{line}: C++ block not found in any compiled "
                                   f"source: {body[0]}")
    except MalformedDoc as error:
        print(error)
        return 2
    for m in missing:
        print(m)
    print(f"{checked} C++ blocks checked, {checked - len(missing)} found in compiled sources, "
          f"{len(missing)} missing")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
