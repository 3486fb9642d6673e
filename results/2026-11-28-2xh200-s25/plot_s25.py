#!/usr/bin/env python3
"""Session 25's figure: left, the 8 B message rate at 132 work-groups and 1000 iterations, wave and
work-group scope, for every build of calls a, c and d (the mean of a build's 1000-iteration runs;
NVSHMEM from c); right, Nsight Compute's stall reasons per issued instruction for call b's three
builds of k_stream<b_wave> (b/ncu-raw-*.csv).
Usage: plot_s25.py [DIR] (this folder by default) -> DIR/s25.png"""
import csv
import glob
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROW = re.compile(r"^msgrate\s+msgrate_uni\s+(wave|wg)\s+132\s+8\s+(\S+)")
LABEL = {"gio": "this tree", "nvshmem": "NVSHMEM"}


def rates(path):
    """{scope: mean of the 1000-iteration medians} of one msgrate .txt (runs of 100 are skipped)."""
    got, iters = {}, None
    for line in open(path):
        m = re.search(r"iters=(\d+)", line)
        if m:
            iters = int(m.group(1))
        m = ROW.match(line)
        if m and iters == 1000:
            got.setdefault(m.group(1), []).append(float(m.group(2)))
    return {k: sum(v) / len(v) for k, v in got.items()}


def bars(d):
    out = []  # (label, {scope: rate})
    for call, tree in (("a", "26a8756"), ("c", "7815045"), ("d", "cd44348")):
        files = sorted(glob.glob(os.path.join(d, call, "msgrate*-*.txt")) +
                       glob.glob(os.path.join(d, call, "others", "msgrate*-*.txt")))
        for f in files:
            name = re.sub(r"^msgrate(base)?-", "", os.path.basename(f)[:-4])
            if name == "nvshmem" and call != "c":
                continue
            label = "%s: %s" % (call, LABEL.get(name, name).replace("this tree", tree))
            r = rates(f)
            if r:
                out.append((label, r))
    return out


def stalls(d):
    rows = {}
    for n in ("b4", "oldpe", "head"):
        r = list(csv.reader(open(os.path.join(d, "b", "ncu-raw-%s.csv" % n))))
        at = next(i for i, x in enumerate(r) if x and x[0] == "ID")
        rows[n] = dict(zip(r[at], r[at + 2]))
    key = re.compile(r"smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio")
    names = sorted({key.match(k).group(1) for k in rows["b4"] if key.match(k)})
    val = {n: {s: float(rows[n]["smsp__average_warps_issue_stalled_%s_per_issue_active.ratio" % s] or 0)
               for s in names} for n in rows}
    keep = [s for s in names if max(val[n][s] for n in val) >= 0.05]
    return val, keep


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(14, 5), gridspec_kw={"width_ratios": [2.2, 1]})
    rows = bars(d)
    x = range(len(rows))
    wave = [r.get("wave", 0) for _, r in rows]
    ax.bar(x, wave, color="tab:blue", label="wave scope")
    for i, v in enumerate(wave):
        ax.text(i, v, "%.0f" % v, ha="center", va="bottom", fontsize=7)
    wg = [r.get("wg", 0) for _, r in rows]
    if any(wg):
        ax2 = ax.twinx()
        ax2.plot([i for i, v in enumerate(wg) if v], [v for v in wg if v], "o", color="tab:orange",
                 label="work-group scope (right axis)")
        ax2.set_ylabel("work-group scope, million/s", fontsize=8)
        ax2.set_ylim(0, 600)
        ax2.legend(loc="upper right", fontsize=8)
    ax.set_xticks(list(x))
    ax.set_xticklabels([lab for lab, _ in rows], rotation=35, ha="right", fontsize=7)
    ax.set_ylabel("million 8 B puts/s, wave scope")
    ax.set_title("8 B message rate, 132 work-groups, 1000 iterations (calls a, c, d)", fontsize=9)
    val, keep = stalls(d)
    names = list(val)
    shown = {"b4": "b4bca12", "oldpe": "26a8756 +\nchecks-first-oldpe", "head": "26a8756"}
    bottom = [0.0] * len(names)
    for s in keep:
        h = [val[n][s] for n in names]
        bx.bar([shown[n] for n in names], h, bottom=bottom, label=s)
        bottom = [b + v for b, v in zip(bottom, h)]
    bx.set_ylabel("warp cycles per issued instruction")
    bx.set_title("k_stream<b_wave> stalls (Nsight Compute, call b)", fontsize=9)
    bx.legend(fontsize=7, loc="upper left", ncol=2)
    fig.tight_layout()
    out = os.path.join(d, "s25.png")
    fig.savefig(out, dpi=110)
    print("wrote", out)


if __name__ == "__main__":
    main()
