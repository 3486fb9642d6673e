#!/usr/bin/env python3
"""Issues 18 and 19's GPU targets, checked against one run directory of results/run-gpu.sh.

Usage: results/goals.py RUN_DIR [--markdown]

Reads every *.jsonl in RUN_DIR (gio-bench / gio-bench-nvshmem / gio-bench-nccl lines, gio-gda-post
lines, jacobi2d lines) and prints one row per target: what GIO measured, NVSHMEM's number where there is one, the
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
    # Issue 19: p2p between two GPUs, one thread.
    out = []
    for label, metric, size, goal in (("8 B put+signal ping-pong, half round trip", "pingpong_half_rtt", 8, 1.75),
                                      ("8 B put_nbi + quiet, one thread", "put_nbi_quiet", 8, 1.0),
                                      ("4 KiB put+signal ping-pong, half round trip", "pingpong_half_rtt", 4096, 2.0)):
        key = dict(bench="put_latency", transport="p2p", scope="thread", bytes=size, work_groups=1, metric=metric)
        g, n = one(rows, impl="gio", **key), one(rows, impl="nvshmem", **key)
        out.append((label, fmt(g, "µs"), fmt(n, "µs"), f"≤ {goal} µs", verdict(g, goal, "low")))
    return out


def bandwidth_rows(rows):
    # Issue 19: work-group-scope put bandwidth at 256 MiB at 8, 32 and 132 work-groups.
    out = []
    for impl in ("gio", "nvshmem"):
        bw = pick(rows, bench="bw", impl=impl, scope="wg", metric="bw_uni")
        if not bw:
            continue
        top = max(r["bytes"] for r in bw)
        for r in sorted(pick(bw, bytes=top), key=lambda r: r["work_groups"]):
            if impl == "gio":
                ok = verdict(r["median"], 360, "high") if r["work_groups"] >= 8 else "—"
                out.append((f"put bandwidth, wg scope, {top >> 20} MiB, {r['work_groups']} work-groups",
                            fmt(r["median"], "GB/s"), "", "≥ 360 GB/s at 8, 32, 132", ok))
            else:
                out.append((f"  NVSHMEM, {r['work_groups']} CTAs", "", fmt(r["median"], "GB/s"), "", ""))
    if not out:
        out.append(("put bandwidth, wg scope", "not run", "", "≥ 360 GB/s at 8, 32, 132", "—"))
    return out


def callcost_rows(rows):
    # Issue 18: cycles per put_nbi call at wave and work-group scope at most NVSHMEM's, 8 B..4 KiB;
    # the row gives the worst size (largest GIO / NVSHMEM).
    out = []
    for scope in ("wave", "wg"):
        worst = None
        for r in pick(rows, bench="callcost", impl="gio", scope=scope, metric="put_nbi_call", pes=2):
            n = one(rows, bench="callcost", impl="nvshmem", scope=scope, metric="put_nbi_call", pes=2,
                    bytes=r["bytes"])
            if n and (worst is None or r["median"] / n > worst[0]):
                worst = (r["median"] / n, r["bytes"], r["median"], n)
        label = f"put_nbi cycles per call, {scope} scope: worst GIO / NVSHMEM"
        if worst is None:
            out.append((label, "not run", "", "≤ 1× at every size", "—"))
        else:
            out.append((label, f"{worst[0]:.2f}× at {worst[1]} B ({worst[2]:.0f})", f"{worst[3]:.0f}",
                        "≤ 1× at every size", verdict(worst[0], 1.0, "low")))
    return out


def msgrate_rows(rows):
    # Issue 19: 8-byte message rate at each scope at least NVSHMEM's (one direction, most work-groups).
    out = []
    for scope in ("thread", "wave", "wg"):
        g = pick(rows, bench="msgrate", impl="gio", scope=scope, metric="msgrate_uni")
        if not g:
            continue
        wgs = max(r["work_groups"] for r in g)
        gv = one(g, work_groups=wgs)
        nv = one(rows, bench="msgrate", impl="nvshmem", scope=scope, metric="msgrate_uni", work_groups=wgs)
        ratio = gv / nv if nv else None
        out.append((f"8 B message rate, {scope} scope, {wgs} work-groups", fmt(gv, "Mmsg/s"), fmt(nv, "Mmsg/s"),
                    "≥ NVSHMEM", verdict(ratio, 1.0, "high")))
    if not out:
        out.append(("8 B message rate", "not run", "", "≥ NVSHMEM", "—"))
    return out


def gda_rows(rows):
    # Issue 18, rings in device memory: one lane's post, a full wave's per WQE, template against full.
    out = []
    dev = dict(bench="gda_post_cost", queue_mem="device", build="template", work_groups=1)
    lane = one(rows, scope="thread", **dev)
    out.append(("gda post, one lane, device rings (cycles)", fmt(lane, "cycles"), "", "≤ 2,500",
                verdict(lane, 2500, "low")))
    wave = one(rows, scope="wave", **dev)
    out.append(("gda post, full wave, device rings (cycles per WQE)", fmt(wave, "cycles"), "", "≤ 300",
                verdict(wave, 300, "low")))
    full = one(rows, bench="gda_post_cost", queue_mem="device", build="full", work_groups=1, scope="wave")
    ratio = full / wave if full and wave else None
    out.append(("gda post, full wave, device rings: full / template",
                "not run" if ratio is None else f"{ratio:.2f}× ({wave:.0f} vs {full:.0f} cycles)", "", "≥ 1.5×",
                verdict(ratio, 1.5, "high")))
    return out


def jacobi_rows(rows):
    jac = pick(rows, app="jacobi2d", check="pass", type="float")  # the issues' default precision

    def best(variant, nx, ny, pes):
        got = pick(jac, variant=variant, nx=nx, ny=ny, pes=pes)
        return min(got, key=lambda r: r["total_s"]) if got else None

    def t(variant, nx, ny, pes):
        r = best(variant, nx, ny, pes)
        return r["total_s"] if r else None

    out = []
    r1 = best("gio", 16384, 16384, 1)
    g1 = r1["total_s"] if r1 else None
    out.append(("Jacobi2D gio, 16384², 1 GPU", fmt(g1, "s"), "", "≤ 0.60 s", verdict(g1, 0.60, "low")))
    roof = r1["roofline_s"] / g1 if r1 and r1.get("roofline_s") else None
    out.append(("Jacobi2D gio, 16384², 1 GPU: share of the roofline",
                "not run" if roof is None else f"{roof:.1%}", "", "≥ 90%", verdict(roof, 0.90, "high")))
    g2 = t("gio", 16384, 16384, 2)
    out.append(("Jacobi2D gio, 16384², 2 GPUs", fmt(g2, "s"), "0.91 s (NVIDIA's NVSHMEM variant)", "≤ 0.31 s",
                verdict(g2, 0.31, "low")))
    eff = g1 / (2 * g2) if g1 and g2 else None
    out.append(("Jacobi2D gio, 16384², 2-GPU efficiency vs our 1 GPU",
                "not run" if eff is None else f"{eff:.1%}", "", "≥ 95%", verdict(eff, 0.95, "high")))
    # gio no slower than any other variant of the same run shape (size and PEs)
    shapes = sorted({(r["nx"], r["ny"], r["pes"]) for r in jac if r["variant"] == "gio"})
    worst = None
    for nx, ny, pes in shapes:
        g = t("gio", nx, ny, pes)
        others = [r["total_s"] for r in jac if (r["nx"], r["ny"], r["pes"]) == (nx, ny, pes) and r["variant"] != "gio"]
        if others and (worst is None or g / min(others) > worst[0]):
            worst = (g / min(others), nx, ny, pes)
    out.append(("Jacobi2D: gio time / fastest other variant, worst shape",
                "not run" if worst is None else f"{worst[0]:.2f}× ({worst[1]}×{worst[2]}, {worst[3]} PE)", "",
                "≤ 1× at every size", verdict(worst[0] if worst else None, 1.0, "low")))
    return out


def coll_latency_rows(rows):
    # Issue 19: 8 B barrier, broadcast and all-reduce latency at most NVSHMEM's, per PE count: the
    # device collectives at work-group scope, both libraries (the bench's barrier row is a team sync
    # in both). µs per call of the slowest PE.
    out = []
    for op, name, size in (("barrier", "barrier (team sync)", 0), ("broadcast", "broadcast", 8),
                           ("reduce", "all-reduce", 8)):
        for n_pes in sorted({r["n_pes"] for r in pick(rows, bench="coll", op=op, scope="wg")}):
            key = dict(bench="coll", op=op, scope="wg", n_pes=n_pes, bytes=size)
            g = [r["us"] for r in pick(rows, impl="gio", **key)]
            nv = [r["us"] for r in pick(rows, impl="nvshmem", **key)]
            g, nv = (min(g) if g else None), (min(nv) if nv else None)
            ok = "—" if g is None or nv is None else ("met" if g <= nv else "not met")
            out.append((f"8 B {name}, work-group scope, {n_pes} PEs", fmt(g, "µs"), fmt(nv, "µs"), "≤ NVSHMEM", ok))
    return out


def coll_rows(rows):
    # Issue 19: all-reduce, all-gather and all-to-all bus bandwidth at 256 MiB at least 90 % of NCCL's,
    # per PE count; GIO's best scope (the stream collectives, or work-group scope in kernels).
    out = []
    for op, name in (("reduce", "all-reduce"), ("fcollect", "all-gather"), ("alltoall", "all-to-all")):
        for n_pes in sorted({r["n_pes"] for r in pick(rows, bench="coll", op=op)}):
            def best(impl):
                bw = [r["busbw"] for r in pick(rows, bench="coll", impl=impl, op=op, n_pes=n_pes, bytes=256 << 20)
                      if r.get("busbw")]
                return max(bw) if bw else None
            g, nccl, nv = best("gio"), best("nccl"), best("nvshmem")
            ratio = g / nccl if g and nccl else None
            out.append((f"{name} bus bandwidth, 256 MiB, {n_pes} PEs: GIO / NCCL",
                        "not run" if ratio is None else f"{ratio:.0%} ({g:.3g} / {nccl:.3g} GB/s)",
                        fmt(nv, "GB/s"), "≥ 90% of NCCL", verdict(ratio, 0.9, "high")))
    if not out:
        out.append(("collective bus bandwidth, 256 MiB: GIO / NCCL", "not run", "", "≥ 90% of NCCL", "—"))
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1 or not os.path.isdir(args[0]):
        sys.exit(__doc__.strip().splitlines()[2])
    rows = load(args[0])
    table = (latency_rows(rows) + bandwidth_rows(rows) + callcost_rows(rows) + msgrate_rows(rows) + gda_rows(rows) +
             jacobi_rows(rows) + coll_latency_rows(rows) + coll_rows(rows))
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
