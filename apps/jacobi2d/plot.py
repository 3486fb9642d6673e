#!/usr/bin/env python3
"""Weak- and strong-scaling plots from jacobi2d JSON lines (scaling.sh's output).

usage: plot.py results.jsonl [-o outdir]

Writes jacobi2d_weak.png (time per iteration and parallel efficiency against PEs, one line per
variant and per-PE size) and jacobi2d_strong.png (total time and efficiency against PEs, one
line per variant). Efficiency is the run's own: the 1-PE reference of the same problem divided
by PEs x the run's time. Runs whose check failed are left out (and counted on stderr). Lines
without a "scaling" tag are classed by shape: ny == nx * pes is weak, else strong.
"""
import argparse
import collections
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

VARIANTS = ["gio", "gio-launch", "interk", "interk-overlap", "ikn"]


def load(path):
    rows, bad = [], 0
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            r = json.loads(line)
            if r.get("app") != "jacobi2d":
                continue
            if r.get("check") != "pass":
                bad += 1
                continue
            if "scaling" not in r:
                r["scaling"] = "weak" if r["ny"] == r["nx"] * r["pes"] and r["pes"] > 1 else "strong"
            rows.append(r)
    if bad:
        print(f"plot.py: left out {bad} run(s) whose check failed", file=sys.stderr)
    return rows


def latest(rows, key):
    """The last run of each configuration (a re-run replaces an earlier one)."""
    out = collections.OrderedDict()
    for r in rows:
        out[key(r)] = r
    return list(out.values())


def plot_weak(rows, path):
    rows = latest([r for r in rows if r["scaling"] == "weak"],
                  lambda r: (r["variant"], r["type"], r["nx"], r["pes"]))
    if not rows:
        return False
    fig, (ax_t, ax_e) = plt.subplots(1, 2, figsize=(12, 4.5))
    for v in VARIANTS:
        for side in sorted({r["nx"] for r in rows if r["variant"] == v}):
            pts = sorted((r["pes"], r["per_iter_us"], r["efficiency"]) for r in rows
                         if r["variant"] == v and r["nx"] == side)
            size = f"{side // 1024}K" if side % 1024 == 0 else str(side)
            label = f"{v} {size}\u00b2/PE"
            ax_t.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
            ax_e.plot([p[0] for p in pts], [100 * p[2] for p in pts], marker="o", label=label)
    ax_t.set(xlabel="PEs", ylabel="time per iteration (\u00b5s)", title="Jacobi2D weak scaling",
             yscale="log")
    ax_e.set(xlabel="PEs", ylabel="parallel efficiency (%)", title="efficiency vs 1-PE reference")
    for ax in (ax_t, ax_e):
        ax.set_xticks(sorted({r["pes"] for r in rows}))
        ax.grid(alpha=0.3)
    ax_e.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def plot_strong(rows, path):
    rows = latest([r for r in rows if r["scaling"] == "strong"],
                  lambda r: (r["variant"], r["type"], r["nx"], r["ny"], r["pes"]))
    if not rows:
        return False
    fig, (ax_t, ax_e) = plt.subplots(1, 2, figsize=(12, 4.5))
    for v in VARIANTS:
        pts = sorted((r["pes"], r["total_s"], r["efficiency"]) for r in rows if r["variant"] == v)
        if not pts:
            continue
        ax_t.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=v)
        ax_e.plot([p[0] for p in pts], [100 * p[2] for p in pts], marker="o", label=v)
    sizes = sorted({(r["nx"], r["ny"]) for r in rows})
    shape = ", ".join(f"{nx}x{ny}" for nx, ny in sizes)
    ax_t.set(xlabel="PEs", ylabel="total time (s)", title=f"Jacobi2D strong scaling ({shape})")
    ax_e.set(xlabel="PEs", ylabel="parallel efficiency (%)", title="efficiency vs 1-PE reference")
    for ax in (ax_t, ax_e):
        ax.set_xticks(sorted({r["pes"] for r in rows}))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("jsonl")
    ap.add_argument("-o", "--outdir", default=".")
    a = ap.parse_args()
    rows = load(a.jsonl)
    os.makedirs(a.outdir, exist_ok=True)
    wrote = []
    for name, fn in (("jacobi2d_weak.png", plot_weak), ("jacobi2d_strong.png", plot_strong)):
        path = os.path.join(a.outdir, name)
        if fn(rows, path):
            wrote.append(path)
    if not wrote:
        print("plot.py: no passing jacobi2d runs to plot", file=sys.stderr)
        return 1
    print("\n".join(wrote))
    return 0


if __name__ == "__main__":
    sys.exit(main())
