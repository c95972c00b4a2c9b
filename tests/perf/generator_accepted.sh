#!/bin/sh
# generator_accepted.sh <generator> <tool> <kildall|mlir> <work-dir>
# Generates each program shape at 1,000 ops and checks that <tool> parses and
# verifies it (and runs --sccp and --int-range-optimizations on it). For
# `mlir`, <tool> is looked up on PATH; when absent, the test is skipped (77).
set -eu
generator=$1 tool=$2 mode=$3 work=$4
if [ "$mode" = mlir ] && ! command -v "$tool" > /dev/null 2>&1; then
  echo "SKIP: $tool is not installed (Debian mlir-16-tools); MLIR's acceptance not checked"
  exit 77
fi
mkdir -p "$work"
for shape in dag cfg const; do
  "$generator" "$shape" 1000 7 > "$work/$shape.mlir"
  for pass in "" --sccp --int-range-optimizations; do
    if [ "$mode" = mlir ]; then
      "$tool" --mlir-disable-threading $pass "$work/$shape.mlir" -o "$work/$shape.out.mlir"
    else
      "$tool" $pass "$work/$shape.mlir" -o "$work/$shape.out.mlir"
    fi
  done
  echo "$shape: accepted by $tool"
done
