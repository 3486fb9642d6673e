#!/usr/bin/env python3
"""Draw gio-bench strided results (Pearson's cube benchmark).

  strided_plot.py out/gio-strided.jsonl [more.jsonl] --out out/   -> strided_bw.png, strided_rows.png

strided_bw.png: bandwidth (GB/s, median) of every method at every shape x*y*z of the region, shapes
ordered by row length x, then rows y; one line per (method, transport, work-groups). The contiguous
`bound` is the ceiling. strided_rows.png: for each row length x, the best and worst shape of each
method against x (log2 axis), which is how the block length alone decides the cost.
"""
import argparse
import collections
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {"per_block": "o-", "gio": "s-", "pack_put": "v-", "memcpy3d": "^-", "bound": "k--"}


def load(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                if line.strip():
                    try:
                        r = json.loads(line)
                    except ValueError as e:
                        sys.exit("%s:%d: %s" % (path, n, e))
                    if r.get("bench") == "strided":
                        rows.append(r)
    if not rows:
        sys.exit("no strided lines in %s" % ", ".join(paths))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--out", default=".")
    args = ap.parse_args()
    rows = load(args.files)
    series = collections.defaultdict(dict)  # (method, transport, wgs) -> {(x, y, z): GB/s}
    for r in rows:
        series[(r["method"], r["transport"], r["work_groups"])][(r["x"], r["y"], r["z"])] = r["GBps"]
    shapes = sorted({s for v in series.values() for s in v})
    first = rows[0]
    title = "%s: %d B region of a %d^3 B cube, %s" % (first["device"], first["bytes"], first["cube"],
                                                        "self" if first["pair"][0] == first["pair"][1] else "2 PEs")

    fig, ax = plt.subplots(figsize=(max(8, len(shapes) * 0.18), 5))
    for (method, transport, wgs), v in sorted(series.items()):
        xs = [i for i, s in enumerate(shapes) if s in v]
        ax.plot(xs, [v[shapes[i]] for i in xs], STYLE.get(method, ".-"), markersize=3,
                label="%s (%s, %d wgs)" % (method, transport, wgs))
    ax.set_xticks(range(len(shapes)))
    ax.set_xticklabels(["%dx%dx%d" % s for s in shapes], rotation=90, fontsize=6)
    ax.set_yscale("log")
    ax.set_xlabel("shape x*y*z (x = contiguous bytes per row)")
    ax.set_ylabel("GB/s")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "strided_bw.png"), dpi=120)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 5))
    for (method, transport, wgs), v in sorted(series.items()):
        by_x = collections.defaultdict(list)
        for (x, _, _), bw in v.items():
            by_x[x].append(bw)
        xs = sorted(by_x)
        line, = ax.plot(xs, [max(by_x[x]) for x in xs], STYLE.get(method, ".-"), markersize=3,
                        label="%s (%s, %d wgs)" % (method, transport, wgs))
        ax.fill_between(xs, [min(by_x[x]) for x in xs], [max(by_x[x]) for x in xs], color=line.get_color(), alpha=0.15)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("contiguous bytes per row (x)")
    ax.set_ylabel("GB/s (line: best shape, band: worst to best)")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "strided_rows.png"), dpi=120)
    plt.close(fig)
    print("wrote strided_bw.png, strided_rows.png in %s" % args.out)


if __name__ == "__main__":
    main()
