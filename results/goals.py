#!/usr/bin/env python3
"""The issues' GPU targets, checked against one run directory of results/run-gpu.sh.

Usage: results/goals.py RUN_DIR [--markdown]

Reads every *.jsonl in RUN_DIR (gio-bench / gio-bench-nvshmem lines, gio-gda-post lines, jacobi2d
lines) and prints one row per target: what GIO measured, NVSHMEM's number where there is one, the
goal, and whether it is met. A target with no data says so ("not run"); nothing is guessed.
Exit status 0 whatever the verdicts: this reports, it does not gate.
"""
import glob
import json
import os
import sys


def load(run_dir):
    rows = []
    for path in sorted(glob.glob(os.path.join(run_dir, "*.jsonl"))):
        with open(path) as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    r = json.loads(line)
                except json.JSONDecodeError as e:
                    sys.exit(f"goals.py: {path}:{n}: not JSON ({e})")
                # The targets are for PEs 0 and 1; a 4-GPU run measures every pair (lines before
                # the pair was recorded are 2-PE runs of 0 and 1).
                if r.get("pair", [0, 1]) == [0, 1]:
                    rows.append(r)
    return rows


def pick(rows, **want):
    return [r for r in rows if all(r.get(k) == v for k, v in want.items())]


def one(rows, **want):
    got = pick(rows, **want)
    return got[0]["median"] if got else None


def fmt(v, unit):
    return "not run" if v is None else f"{v:.3g} {unit}"


def verdict(v, goal, better):
    if v is None:
        return "—"
    return "met" if (v <= goal if better == "low" else v >= goal) else "not met"


def latency_rows(rows):
    out = []
    for label, metric, size, goal in (("8 B put+signal ping-pong, half round trip", "pingpong_half_rtt", 8, 0.8),
                                      ("8 B put_nbi + quiet, one thread", "put_nbi_quiet", 8, 0.9),
                                      ("4 KiB put+signal ping-pong, half round trip", "pingpong_half_rtt", 4096, 3.0)):
        key = dict(bench="put_latency", transport="p2p", scope="thread", bytes=size, work_groups=1, metric=metric)
        g, n = one(rows, impl="gio", **key), one(rows, impl="nvshmem", **key)
        out.append((label, fmt(g, "µs"), fmt(n, "µs"), f"≤ {goal} µs", verdict(g, goal, "low")))
    return out


def bandwidth_rows(rows):
    out = []
    for impl in ("gio", "nvshmem"):
        bw = pick(rows, bench="bw", impl=impl, scope="wg", metric="bw_uni")
        if not bw:
            continue
        top = max(r["bytes"] for r in bw)
        for r in sorted(pick(bw, bytes=top), key=lambda r: r["work_groups"]):
            if impl == "gio":
                ok = verdict(r["median"], 385, "high") if r["work_groups"] >= 8 else "—"
                out.append((f"put bandwidth, wg scope, {top >> 20} MiB, {r['work_groups']} work-groups",
                            fmt(r["median"], "GB/s"), "", "≥ 385 GB/s at ≥ 8", ok))
            else:
                out.append((f"  NVSHMEM, {r['work_groups']} CTAs", "", fmt(r["median"], "GB/s"), "", ""))
    if not out:
        out.append(("put bandwidth, wg scope", "not run", "", "≥ 385 GB/s at ≥ 8", "—"))
    return out


def gda_rows(rows):
    out = []
    post = pick(rows, bench="gda_post_cost")
    for r in post:
        if r.get("build") != "template":
            continue
        same = dict(bench="gda_post_cost", queue_mem=r["queue_mem"], scope=r["scope"], work_groups=r["work_groups"])
        full = one(rows, build="full", **same)
        ded = one(rows, build="dedicated", **same)
        ratio = full / r["median"] if full else None
        extra = f" (dedicated {ded:.0f})" if ded else ""
        out.append((f"gda post, {r['queue_mem']} rings, {r['scope']}, {r['work_groups']} WG: full/template",
                    "not run" if ratio is None else f"{ratio:.2f}× ({r['median']:.0f} vs {full:.0f} cycles){extra}",
                    "", "≥ 2×", verdict(ratio, 2.0, "high")))
    if not out:
        out.append(("gda post: full/template", "not run", "", "≥ 2×", "—"))
    return out


def jacobi_rows(rows):
    jac = pick(rows, app="jacobi2d", check="pass", type="float")  # the default precision

    def t(variant, nx, ny, pes):
        got = pick(jac, variant=variant, nx=nx, ny=ny, pes=pes)
        return min(r["total_s"] for r in got) if got else None

    out = []
    g2 = t("gio", 16384, 16384, 2)
    out.append(("Jacobi2D gio, 16384², 2 GPUs", fmt(g2, "s"), "0.91 s (NVIDIA's NVSHMEM variant)", "≤ 0.45 s",
                verdict(g2, 0.45, "low")))
    g1 = t("gio", 16384, 16384, 1)
    eff = g1 / (2 * g2) if g1 and g2 else None
    out.append(("Jacobi2D gio, 16384², 2-GPU efficiency vs our 1 GPU",
                "not run" if eff is None else f"{eff:.1%}", "", "≥ 95%", verdict(eff, 0.95, "high")))
    # weak scaling at 2K² per PE on 2 PEs: rows split, so the grid is 2048 wide and 4096 tall
    gw, iw, ow = t("gio", 2048, 4096, 2), t("interk", 2048, 4096, 2), t("interk-overlap", 2048, 4096, 2)
    sp = iw / gw if gw and iw else None
    out.append(("Jacobi2D 2K² per PE, 2 GPUs: interk time / gio time",
                "not run" if sp is None else f"{sp:.2f}× ({gw:.3g} s vs {iw:.3g} s)", "", "≥ 1.4×",
                verdict(sp, 1.4, "high")))
    so = ow / gw if gw and ow else None
    out.append(("Jacobi2D 2K² per PE, 2 GPUs: interk-overlap time / gio time",
                "not run" if so is None else f"{so:.2f}×", "", "≥ 1×", verdict(so, 1.0, "high")))
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1 or not os.path.isdir(args[0]):
        sys.exit(__doc__.strip().splitlines()[2])
    rows = load(args[0])
    table = latency_rows(rows) + bandwidth_rows(rows) + gda_rows(rows) + jacobi_rows(rows)
    head = ("target", "GIO", "NVSHMEM", "goal", "verdict")
    if "--markdown" in sys.argv:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for row in table:
            print("| " + " | ".join(row) + " |")
    else:
        w = [max(len(r[i]) for r in table + [head]) for i in range(len(head))]
        for row in [head] + table:
            print("  ".join(c.ljust(w[i]) for i, c in enumerate(row)).rstrip())


if __name__ == "__main__":
    main()
