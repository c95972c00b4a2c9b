#!/usr/bin/env python3
"""Log-log SVG plot of time vs ops for kildall-opt and mlir-opt-16 (standard library only).

    plot_compare_mlir.py <measurements.tsv from compare_mlir.sh> <out.svg> [pass]

One line per (tool, shape, metric): the median whole-process CPU time (solid)
and the median pass time (dashed) of `pass` (default sccp) against the op
count, both axes logarithmic.
"""
import collections
import math
import statistics
import sys

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 760, 500, 70, 190, 30, 50
COLORS = {"kildall": ["#1f77b4", "#17becf", "#2ca02c"], "mlir": ["#d62728", "#ff7f0e", "#9467bd"]}


def main():
    path, out = sys.argv[1], sys.argv[2]
    wanted = sys.argv[3] if len(sys.argv) > 3 else "sccp"
    runs = collections.defaultdict(list)
    for line in open(path):
        shape, size, tool, pass_, cpu, pass_s, _ = line.rstrip("\n").split("\t")
        if pass_ == wanted:
            runs[(tool, shape, "process CPU")].append((int(size), float(cpu)))
            runs[(tool, shape, "pass")].append((int(size), float(pass_s)))
    series = {}
    for key, points in runs.items():
        by_size = collections.defaultdict(list)
        for size, t in points:
            by_size[size].append(t)
        series[key] = sorted((s, statistics.median(ts)) for s, ts in by_size.items() if statistics.median(ts) > 0)
    xs = [s for pts in series.values() for s, _ in pts]
    ys = [t for pts in series.values() for _, t in pts]
    x0, x1 = math.floor(math.log10(min(xs))), math.ceil(math.log10(max(xs)))
    y0, y1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    pw, ph = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    px = lambda x: LEFT + (math.log10(x) - x0) / max(x1 - x0, 1) * pw
    py = lambda y: TOP + ph - (math.log10(y) - y0) / max(y1 - y0, 1) * ph
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif"'
           f' font-size="12"><rect width="100%" height="100%" fill="white"/>',
           f'<text x="{LEFT}" y="18" font-size="14">{wanted}: time vs ops (log-log), median of runs;'
           f' solid = whole process CPU, dashed = pass</text>']
    for e in range(x0, x1 + 1):
        x = px(10 ** e)
        svg.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + ph}" stroke="#ddd"/>')
        svg.append(f'<text x="{x:.1f}" y="{TOP + ph + 18}" text-anchor="middle">1e{e}</text>')
    for e in range(y0, y1 + 1):
        y = py(10 ** e)
        svg.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + pw}" y2="{y:.1f}" stroke="#ddd"/>')
        svg.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">1e{e} s</text>')
    svg.append(f'<text x="{LEFT + pw / 2}" y="{HEIGHT - 10}" text-anchor="middle">ops</text>')
    legend_y = TOP
    shapes = sorted({shape for (_, shape, _) in series})
    for (tool, shape, metric), points in sorted(series.items()):
        color = COLORS[tool][shapes.index(shape) % 3]
        dash = ' stroke-dasharray="6,4"' if metric == "pass" else ""
        coords = " ".join(f"{px(s):.1f},{py(t):.1f}" for s, t in points)
        svg.append(f'<polyline points="{coords}" fill="none" stroke="{color}" stroke-width="2"{dash}/>')
        for s, t in points:
            svg.append(f'<circle cx="{px(s):.1f}" cy="{py(t):.1f}" r="3" fill="{color}"/>')
        lx = LEFT + pw + 12
        svg.append(f'<line x1="{lx}" y1="{legend_y + 6}" x2="{lx + 24}" y2="{legend_y + 6}" stroke="{color}"'
                   f' stroke-width="2"{dash}/>')
        svg.append(f'<text x="{lx + 30}" y="{legend_y + 10}">{tool} {shape} {metric}</text>')
        legend_y += 18
    svg.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()
