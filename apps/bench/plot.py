#!/usr/bin/env python3
"""Draw gio-bench results: latency-vs-size and bandwidth-vs-size PNGs from JSON-lines files.

  plot.py out/*.jsonl --out out/        -> latency.png, bandwidth.png,
                                                   coll_latency.png, coll_busbw.png

One panel per metric (pingpong_half_rtt, put_nbi_quiet, interk_*; bw_uni, bw_bidir), one line per
(impl, transport, scope, work_groups), log-log axes; the line is the median, the band min..max.
coll (gio-bench, gio-bench-nvshmem and gio-bench-nccl lines together): one panel per op, one line
per (impl, transport, scope), against bytes per PE; the barrier, which has no size, as bars.
"""
import argparse
import collections
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LATENCY_METRICS = ["pingpong_half_rtt", "put_nbi_quiet", "interk_half_rtt", "interk_empty"]
BW_METRICS = ["bw_uni", "bw_bidir"]
COLL_OPS = ["broadcast", "fcollect", "alltoall", "reduce"]
MARKERS = {"thread": "o", "wave": "s", "wg": "^", "host": "x"}


def load(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rows.append(json.loads(line))
                except ValueError as e:
                    sys.exit("%s:%d: %s" % (path, n, e))
    return rows


def series(rows, bench, metric):
    """(impl, transport, scope, work_groups) -> sorted [(bytes, median, min, max)]"""
    out = collections.defaultdict(list)
    for r in rows:
        if r.get("bench") == bench and r.get("metric") == metric and r.get("bytes", 0) > 0:
            key = (r["impl"], r["transport"], r["scope"], r["work_groups"])
            out[key].append((r["bytes"], r["median"], r["min"], r["max"]))
    return {k: sorted(v) for k, v in sorted(out.items())}


def size_label(b):
    for unit, div in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= div and b % div == 0:
            return "%d %s" % (b // div, unit)
    return "%d B" % b


def size_axis(ax, xs, xlabel="message size (bytes)"):
    """Log2 x axis labelled in B/KiB/MiB over the sizes measured (after the lines are drawn)."""
    ax.set_xscale("log", base=2)
    ax.set_xlabel(xlabel)
    ax.grid(True, which="both", alpha=0.3)
    ticks = [t for t in ax.get_xticks() if min(xs) <= t <= max(xs)]
    ax.set_xticks(ticks)
    ax.set_xticklabels([size_label(int(t)) for t in ticks], rotation=45, fontsize=7)


def coll_series(rows, op, field):
    """(impl, transport, scope, n_pes) -> sorted [(bytes, value, low, high)]; low/high only for us.
    Values <= 0 are left out: busbw is 0 at one PE, and the axes are logarithmic."""
    out = collections.defaultdict(list)
    for r in rows:
        if r.get("bench") == "coll" and r.get("op") == op and (r.get(field) or 0) > 0 and r["bytes"] > 0:
            lo, hi = (r["us_min"], r["us_max"]) if field == "us" else (r[field], r[field])
            out[(r["impl"], r["transport"], r["scope"], r["n_pes"])].append((r["bytes"], r[field], lo, hi))
    return {k: sorted(v) for k, v in sorted(out.items())}


def draw_coll(rows, field, ylabel, path, title, with_barrier):
    """One panel per op; NVSHMEM dashed, NCCL dotted, GIO solid (as in draw)."""
    ops = [op for op in COLL_OPS if coll_series(rows, op, field)]
    barrier = [r for r in rows if r.get("bench") == "coll" and r.get("op") == "barrier"] if with_barrier else []
    panels = ops + (["barrier"] if barrier else [])
    if not panels:
        return False
    cols = min(2, len(panels))
    nrows = int(math.ceil(len(panels) / cols))
    fig, axes = plt.subplots(nrows, cols, figsize=(7.5 * cols, 5 * nrows), squeeze=False)
    colors = plt.get_cmap("tab10").colors  # few lines per panel: tell them apart at a glance
    styles = {"nvshmem": "--", "nccl": ":"}
    for ax, op in zip(axes.flat, panels):
        if op == "barrier":
            bars = sorted({(r["impl"], r["transport"], r["scope"], r["n_pes"]): r for r in barrier}.items())
            labels = ["%s/%s\n%s n=%d" % k for k, _ in bars]
            ax.bar(range(len(bars)), [r["us"] for _, r in bars],
                   yerr=[[r["us"] - r["us_min"] for _, r in bars], [r["us_max"] - r["us"] for _, r in bars]],
                   color=[colors[i % len(colors)] for i in range(len(bars))], capsize=3)
            ax.set_xticks(range(len(bars)))
            ax.set_xticklabels(labels, fontsize=7)
            ax.set_ylabel("latency (us)")
            ax.set_title("barrier (team sync)")
            ax.grid(True, axis="y", alpha=0.3)
            continue
        ser = coll_series(rows, op, field)
        for i, ((impl, transport, scope, npes), pts) in enumerate(ser.items()):
            x = [p[0] for p in pts]
            (line,) = ax.plot(x, [p[1] for p in pts], styles.get(impl, "-"), color=colors[i % len(colors)],
                              marker=MARKERS.get(scope, "o"), ms=3,
                              label="%s/%s %s n=%d" % (impl, transport, scope, npes))
            if field == "us":
                ax.fill_between(x, [p[2] for p in pts], [p[3] for p in pts], color=line.get_color(),
                                alpha=0.15, linewidth=0)
        ax.set_yscale("log")
        ax.set_title(op)
        ax.set_ylabel(ylabel)
        size_axis(ax, [p[0] for pts in ser.values() for p in pts], "bytes per PE")
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print("wrote", path)
    return True


def draw(rows, bench, metrics, ylabel, path, title):
    present = [m for m in metrics if series(rows, bench, m)]
    if not present:
        return False
    cols = min(2, len(present))
    nrows = int(math.ceil(len(present) / cols))
    fig, axes = plt.subplots(nrows, cols, figsize=(7.5 * cols, 5 * nrows), squeeze=False)
    for ax, metric in zip(axes.flat, present):
        colors = plt.get_cmap("tab20").colors
        markers = MARKERS
        for i, ((impl, transport, scope, wgs), pts) in enumerate(series(rows, bench, metric).items()):
            x = [p[0] for p in pts]
            label = "%s/%s %s wgs=%d" % (impl, transport, scope, wgs)
            style = "--" if impl == "nvshmem" else "-"
            (line,) = ax.plot(x, [p[1] for p in pts], style, color=colors[i % len(colors)],
                              marker=markers.get(scope, "o"), ms=3, label=label)
            ax.fill_between(x, [p[2] for p in pts], [p[3] for p in pts], color=line.get_color(),
                            alpha=0.15, linewidth=0)
        ax.set_yscale("log")
        ax.set_title(metric)
        ax.set_ylabel(ylabel)
        size_axis(ax, [p[0] for pts in series(rows, bench, metric).values() for p in pts])
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(present):]:
        ax.set_visible(False)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print("wrote", path)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="gio-bench --json files")
    ap.add_argument("--out", default=".", help="folder for the PNGs")
    args = ap.parse_args()
    rows = load(args.files)
    os.makedirs(args.out, exist_ok=True)
    meta = sorted({"%s @ %s (%s)" % (r.get("device"), r.get("commit"), r.get("date", "")[:10]) for r in rows})
    title = "; ".join(meta[:2]) + (" ..." if len(meta) > 2 else "")
    any_ = draw(rows, "put_latency", LATENCY_METRICS, "latency (us)",
                os.path.join(args.out, "latency.png"), "put latency: " + title)
    any_ |= draw(rows, "bw", BW_METRICS, "bandwidth (GB/s)",
                 os.path.join(args.out, "bandwidth.png"), "put bandwidth: " + title)
    any_ |= draw_coll(rows, "us", "latency (us)", os.path.join(args.out, "coll_latency.png"),
                      "collectives, latency per op: " + title, True)
    any_ |= draw_coll(rows, "busbw", "bus bandwidth (GB/s, nccl-tests' definition)",
                      os.path.join(args.out, "coll_busbw.png"), "collectives, bus bandwidth: " + title, False)
    if not any_:
        sys.exit("no put_latency, bw or coll measurements in " + ", ".join(args.files))


if __name__ == "__main__":
    main()
