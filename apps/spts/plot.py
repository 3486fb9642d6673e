#!/usr/bin/env python3
"""GFLOP/s-per-matrix and scaling plots, or a markdown table, from spts JSON lines.

usage: plot.py FILE.jsonl [FILE.jsonl ...] [-o outdir] [--kind strong|weak] [--table]

Plots (matplotlib, Agg):
  spts_gflops.png  GFLOP/s of the 1-PE runs, one group of bars per input and order, one bar per
                   variant (single, gio at 1 PE, levelset, cusparse/rocsparse);
  spts_strong.png  solve time and parallel efficiency against PEs at a fixed input, one line per
                   variant and input; efficiency is the run's own (vs `single` on one PE, measured
                   in the same run), else the variant's 1-PE time / (PEs x time);
  spts_weak.png    solve time and weak efficiency (1-PE time / time, same variant and rows per PE)
                   against PEs, one line per variant, input kind and rows per PE.
--table prints a markdown table of every run instead (as docs/performance.md shows them): input, order,
type, rows, nnz, levels, variant, PEs, median solve (ms), GFLOP/s and speedup vs the vendor
(the run's own vendor reference, else the same input's cusparse run), and the scaling kind where
some run has one.

A run's scaling kind is its "scaling" field (scaling.sh writes it), else --kind, else the file
name (one containing "strong" or "weak", as scaling.sh's strong.jsonl and weak.jsonl); runs of no
kind are in the GFLOP/s plot and the table only. Runs whose check failed are left out (counted on
stderr); of runs repeated with the same configuration the last one counts.
"""
import argparse
import collections
import json
import math
import os
import sys

VARIANTS = ["single", "gio", "levelset", "cusparse", "ikn"]


def variant_rank(v):
    return VARIANTS.index(v) if v in VARIANTS else len(VARIANTS)


def load(paths, kind):
    rows, bad = [], 0
    for path in paths:
        name = os.path.basename(path)
        file_kind = kind or ("strong" if "strong" in name else "weak" if "weak" in name else None)
        with open(path) as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    r = json.loads(line)
                except json.JSONDecodeError as e:
                    sys.exit(f"plot.py: {path}:{n}: not a JSON line ({e})")
                if r.get("app") != "spts":
                    continue
                if r.get("check") != "pass":
                    bad += 1
                    continue
                if not r.get("scaling") and file_kind:
                    r["scaling"] = file_kind
                rows.append(r)
    if bad:
        print(f"plot.py: left out {bad} run(s) whose check failed", file=sys.stderr)
    return rows


def config(r):
    """What makes two runs the same experiment (a re-run replaces the earlier one)."""
    return (r.get("scaling"), r["input"], r["order"], r["type"], r["variant"], r.get("exchange"),
            r.get("kernel"), r.get("balance"), r["pes"])


def latest(rows):
    out = collections.OrderedDict()
    for r in rows:
        out[config(r)] = r
    return list(out.values())


def gen_kind(r):
    """"road:rows=14000000" -> "road"; a file name stays whole."""
    return r["input"].split(":", 1)[0]


def label(r):
    return f"{r['input']} {r['order']}"


def variant_label(r):
    v = r["variant"]
    if v == "cusparse" and r.get("vendor") and r["vendor"] != "cusparse":
        return r["vendor"]  # rocsparse on hip
    return f"{v} ({r['exchange']})" if v in ("gio", "ikn") and r.get("exchange") not in (None, "signal") else v


def vendor_speedup(r, rows):
    """The run's own vendor reference, else the same input's vendor run at 1 PE."""
    if r.get("speedup_vendor") is not None:
        return r["speedup_vendor"]
    if r["variant"] == "cusparse":
        return 1.0
    for v in rows:
        if (v["variant"] == "cusparse" and v["pes"] == 1 and v["input"] == r["input"]
                and v["order"] == r["order"] and v["type"] == r["type"] and v.get("median_s")):
            return v["median_s"] / r["median_s"] if r.get("median_s") else None
    return None


def fmt(v, spec):
    return "–" if v is None or (isinstance(v, float) and math.isnan(v)) else format(v, spec)


def table(rows):
    rows = sorted(latest(rows), key=lambda r: (r["input"], r["order"], r["type"], r["pes"],
                                               variant_rank(r["variant"]), r.get("exchange") or "",
                                               r.get("scaling") or ""))
    vendors = sorted({r["vendor"] for r in rows if r.get("vendor")}) or ["cusparse"]
    head = ["input", "order", "type", "rows", "nnz", "levels", "variant", "PEs", "median (ms)", "GFLOP/s",
            f"speedup vs {'/'.join(vendors)}"]
    tagged = any(r.get("scaling") for r in rows)
    if tagged:
        head.append("scaling")
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for r in rows:
        ms = r["median_s"] * 1e3 if r.get("median_s") is not None else None
        cells = [r["input"], r["order"], r["type"], str(r["rows"]), str(r["nnz"]), str(r["levels"]),
                 variant_label(r), str(r["pes"]), fmt(ms, ".3f"), fmt(r.get("gflops"), ".2f"),
                 fmt(vendor_speedup(r, rows), ".2f")]
        if tagged:
            cells.append(r.get("scaling") or "")
        print("| " + " | ".join(cells) + " |")
    return 0


def plot_gflops(plt, rows, path):
    rows = [r for r in latest(rows) if r["pes"] == 1 and r.get("gflops") is not None]
    if not rows:
        return False
    groups = sorted({(r["input"], r["order"], r["type"]) for r in rows})
    variants = sorted({variant_label(r) for r in rows}, key=lambda v: (variant_rank(v.split()[0]), v))
    width = 0.8 / len(variants)
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(groups)), 4.5))
    for k, v in enumerate(variants):
        ys = []
        for g in groups:
            hit = [r["gflops"] for r in rows
                   if (r["input"], r["order"], r["type"]) == g and variant_label(r) == v]
            ys.append(hit[-1] if hit else 0)
        ax.bar([i + (k - (len(variants) - 1) / 2) * width for i in range(len(groups))], ys, width, label=v)
    ax.set_xticks(range(len(groups)))
    types = {g[2] for g in groups}
    ax.set_xticklabels([f"{i}\n{o}" + (f" {t}" if len(types) > 1 else "") for i, o, t in groups], fontsize=7)
    ax.set(ylabel="GFLOP/s (2 nnz / median solve)", title=f"SpTS on one GPU ({', '.join(sorted(types))})")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def per_pe_rows(r):
    """scaling.sh's requested rows per PE, else the generated rows / PEs to 3 digits."""
    if r.get("per_pe_rows"):
        return int(r["per_pe_rows"])
    v = r["rows"] / r["pes"]
    return int(float(f"{v:.3g}"))


def short(n):
    return f"{n / 1e6:g}M" if n >= 1e6 else f"{n / 1e3:g}K" if n >= 1e3 else str(n)


def plot_scaling(plt, rows, kind, path):
    from matplotlib.ticker import FormatStrFormatter

    rows = [r for r in latest(rows) if r.get("scaling") == kind and r.get("median_s")]
    if not rows:
        return False
    lines = collections.defaultdict(list)  # one line per variant, input (strong) or size per PE (weak)
    for r in rows:
        what = label(r) if kind == "strong" else f"{gen_kind(r)} {r['order']} {short(per_pe_rows(r))}/PE"
        lines[(variant_label(r), what, r["type"])].append(r)
    types = {r["type"] for r in rows}
    fig, (ax_t, ax_e) = plt.subplots(1, 2, figsize=(12, 4.5))
    for k in sorted(lines, key=lambda k: (variant_rank(k[0].split()[0]), k)):
        pts = sorted(lines[k], key=lambda r: r["pes"])
        one = next((r["median_s"] for r in pts if r["pes"] == 1), None)
        effs = []
        for r in pts:
            if kind == "strong" and r.get("efficiency") is not None:
                effs.append(100 * r["efficiency"])
            elif one is not None:
                effs.append(100 * one / (r["median_s"] * (r["pes"] if kind == "strong" else 1)))
            else:
                effs.append(float("nan"))
        name = f"{k[0]} {k[1]}" + (f" {k[2]}" if len(types) > 1 else "")
        ax_t.plot([r["pes"] for r in pts], [1e3 * r["median_s"] for r in pts], marker="o", label=name)
        ax_e.plot([r["pes"] for r in pts], effs, marker="o", label=name)
    title = "strong scaling (fixed input)" if kind == "strong" else "weak scaling (fixed rows per PE)"
    ax_t.set(xlabel="PEs", ylabel="median solve (ms)", title=f"SpTS {title}", yscale="log")
    ax_e.set(xlabel="PEs", ylabel="parallel efficiency (%)",
             title="vs single on 1 PE" if kind == "strong" else "1-PE time / time")
    for axis in (ax_t.yaxis,):  # plain numbers on the log axis, not 1.2x10^-1
        axis.set_major_formatter(FormatStrFormatter("%g"))
        axis.set_minor_formatter(FormatStrFormatter("%g"))
    for ax in (ax_t, ax_e):
        ax.set_xticks(sorted({r["pes"] for r in rows}))
        ax.grid(alpha=0.3)
    ax_e.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("jsonl", nargs="+")
    ap.add_argument("-o", "--outdir", default=".")
    ap.add_argument("--kind", choices=["strong", "weak"], help="scaling kind of untagged runs")
    ap.add_argument("--table", action="store_true", help="print a markdown table instead of plotting")
    a = ap.parse_args()
    rows = load(a.jsonl, a.kind)
    if not rows:
        print("plot.py: no passing spts runs in " + ", ".join(a.jsonl), file=sys.stderr)
        return 1
    if a.table:
        return table(rows)

    import matplotlib  # only the plots need it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(a.outdir, exist_ok=True)
    wrote = []
    for name, fn in (("spts_gflops.png", lambda p: plot_gflops(plt, rows, p)),
                     ("spts_strong.png", lambda p: plot_scaling(plt, rows, "strong", p)),
                     ("spts_weak.png", lambda p: plot_scaling(plt, rows, "weak", p))):
        path = os.path.join(a.outdir, name)
        if fn(path):
            wrote.append(path)
    if not wrote:
        print("plot.py: nothing to plot (no 1-PE runs, no scaling runs)", file=sys.stderr)
        return 1
    print("\n".join(wrote))
    return 0


if __name__ == "__main__":
    sys.exit(main())
