#!/usr/bin/env python3
"""Per-pair summary of a multi-GPU gio-bench run (apps/bench/gpu/run-gpu.sh's `pairs` part): one row per
measured pair of PEs, GIO next to NVSHMEM, as a markdown table on stdout and pairs.png.
  pairs.py RUN_DIR   (reads RUN_DIR/{gio,nvshmem}-pairs-{put_latency,bw}.jsonl)"""
import argparse
import json
import os
import sys

# (column title, bench, metric, scope, bytes or None for the largest, work-groups)
COLUMNS = [
    ("8 B ping-pong ½RTT (µs)", "put_latency", "pingpong_half_rtt", "thread", 8, 1),
    ("8 B put_nbi+quiet (µs)", "put_latency", "put_nbi_quiet", "thread", 8, 1),
    ("4 KiB ping-pong ½RTT (µs)", "put_latency", "pingpong_half_rtt", "thread", 4096, 1),
    ("bw 32 WGs (GB/s)", "bw", "bw_uni", "wg", None, 32),
    ("bw 132 WGs (GB/s)", "bw", "bw_uni", "wg", None, 132),
]
IMPLS = ("gio", "nvshmem")


def load(run_dir):
    rows = []
    for impl in IMPLS:
        for bench in ("put_latency", "bw"):
            path = os.path.join(run_dir, "%s-pairs-%s.jsonl" % (impl, bench))
            if os.path.exists(path):
                with open(path) as f:
                    rows += [json.loads(l) for l in f if l.strip()]
    return rows


def value(rows, impl, pair, col):
    _, bench, metric, scope, nbytes, wgs = col
    got = [r for r in rows if r["impl"] == impl and tuple(r["pair"]) == pair and r["bench"] == bench and
           r["metric"] == metric and r["scope"] == scope and r["work_groups"] == wgs]
    if nbytes is not None:
        got = [r for r in got if r["bytes"] == nbytes]
    elif got:
        top = max(r["bytes"] for r in got)
        got = [r for r in got if r["bytes"] == top]
    return got[0]["median"] if got else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run_dir")
    args = ap.parse_args()
    rows = load(args.run_dir)
    if not rows:
        print("pairs.py: no *-pairs-*.jsonl in %s" % args.run_dir, file=sys.stderr)
        return 1
    pairs = sorted({tuple(r["pair"]) for r in rows})
    fmt = lambda v: "—" if v is None else "%.3g" % v
    print("| pair | " + " | ".join("%s GIO / NVSHMEM" % c[0] for c in COLUMNS) + " |")
    print("|---" * (len(COLUMNS) + 1) + "|")
    for p in pairs:
        cells = ["%s / %s" % (fmt(value(rows, "gio", p, c)), fmt(value(rows, "nvshmem", p, c))) for c in COLUMNS]
        print("| %d↔%d | " % p + " | ".join(cells) + " |")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("pairs.py: matplotlib missing, no plot", file=sys.stderr)
        return 0
    fig, axes = plt.subplots(1, len(COLUMNS), figsize=(4 * len(COLUMNS), 3.6))
    labels = ["%d↔%d" % p for p in pairs]
    for ax, col in zip(axes, COLUMNS):
        for k, impl in enumerate(IMPLS):
            vals = [value(rows, impl, p, col) for p in pairs]
            xs = [i + (k - 0.5) * 0.4 for i in range(len(pairs))]
            ax.bar([x for x, v in zip(xs, vals) if v is not None], [v for v in vals if v is not None], 0.4,
                   label=impl)
        ax.set_xticks(range(len(pairs)))
        ax.set_xticklabels(labels)
        ax.set_title(col[0], fontsize=9)
        ax.set_xlabel("PE pair (one GPU each)")
    axes[0].legend()
    dev = rows[0].get("device", "")
    fig.suptitle("gio-bench per GPU pair, %d PEs, %s, commit %s" % (rows[0]["pes"], dev, rows[0]["commit"]))
    fig.tight_layout()
    fig.savefig(os.path.join(args.run_dir, "pairs.png"), dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
