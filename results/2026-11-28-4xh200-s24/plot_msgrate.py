#!/usr/bin/env python3
"""Bars of the 8 B wave-scope message rate at 132 work-groups (1000 iterations): call E's commits
(e/msgrate.txt) and call D's builds (d/msgrate-*.txt and d/others/msgrate-*.txt: the mean of its two 1000-iteration runs).
Usage: plot_msgrate.py [DIR] (this folder by default) -> DIR/msgrate_wave.png"""
import glob
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROW = re.compile(r"^msgrate\s+msgrate_uni\s+wave\s+132\s+8\s+(\S+)")


def commits(path):
    out, name = [], None
    for line in open(path):
        if line.startswith("== "):
            name = line.split()[1]
        m = ROW.match(line)
        if m and name:
            out.append((name, float(m.group(1))))
    return out


def builds(d):
    out = []
    for f in sorted(glob.glob(os.path.join(d, "msgrate-*.txt")) + glob.glob(os.path.join(d, "others", "msgrate-*.txt"))):
        rates, iters = [], None
        for line in open(f):
            m = re.search(r"iters=(\d+)", line)
            if m:
                iters = int(m.group(1))
            m = ROW.match(line)
            if m and iters == 1000:
                rates.append(float(m.group(1)))
        if rates:
            out.append((os.path.basename(f)[8:-4], sum(rates) / len(rates)))
    return out


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    panels = [("call E: commits from 26b8bfe to 3e8553f (head)", commits(os.path.join(d, "e", "msgrate.txt"))),
              ("call D: head, head with a patch, 26b8bfe (base), NVSHMEM", builds(os.path.join(d, "d")))]
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
    for ax, (title, rows) in zip(axes, panels):
        ax.bar([r[0] for r in rows], [r[1] for r in rows], color="tab:blue")
        for i, (_, v) in enumerate(rows):
            ax.text(i, v, "%.0f" % v, ha="center", va="bottom", fontsize=8)
        ax.set_title(title, fontsize=9)
        ax.set_ylabel("million 8 B puts/s (wave scope, 132 work-groups)")
        ax.tick_params(axis="x", labelrotation=30, labelsize=8)
    fig.tight_layout()
    out = os.path.join(d, "msgrate_wave.png")
    fig.savefig(out, dpi=110)
    print("wrote", out)


if __name__ == "__main__":
    main()
