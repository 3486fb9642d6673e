#!/usr/bin/env python3
"""Summary table of compare_builds.sh's JSON lines: base against head (and NVSHMEM) per benchmark.

Usage: compare_builds.py OUTDIR  -- prints markdown tables: callcost (cycles per put_nbi call,
median of the runs' medians), msgrate (Mmsg/s) and jacobi2d 16384^2 (total seconds, roofline).
Exits 1 when a head value is more than 2 % worse than base's.
"""
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path


def load(path):
    rows = []
    if path.exists():
        for line in path.read_text().splitlines():
            line = line.strip()
            if line.startswith("{"):
                rows.append(json.loads(line))
    return rows


def medians(rows, key, metric_key, metric, value="median"):
    acc = defaultdict(list)
    for r in rows:
        if r.get(metric_key) == metric:
            acc[key(r)].append(r[value])
    return {k: statistics.median(v) for k, v in acc.items()}


def table(title, unit, data, lower_is_better):
    keys = sorted(set().union(*[d.keys() for d in data.values()]))
    impls = [i for i in ("base", "head", "nvshmem") if data.get(i)]
    if not impls:
        print(f"\n### {title}: no data")
        return []
    print(f"\n### {title} ({unit})\n")
    print("| case | " + " | ".join(impls) + " | head/base |")
    print("|---|" + "---|" * (len(impls) + 1))
    worse = []
    for k in keys:
        vals = [data[i].get(k) for i in impls]
        b, h = data.get("base", {}).get(k), data.get("head", {}).get(k)
        ratio = h / b if b and h else None
        cells = ["%.4g" % v if v is not None else "-" for v in vals]
        print(f"| {' '.join(map(str, k)) if isinstance(k, tuple) else k} | " + " | ".join(cells) + f" | {'%.3f' % ratio if ratio else '-'} |")
        if ratio and ((ratio > 1.02) if lower_is_better else (ratio < 0.98)):
            worse.append((title, k, ratio))
    return worse


def main():
    out = Path(sys.argv[1])
    worse = []
    cc = {i: medians(load(out / f"callcost-{i}.jsonl"), lambda r: (r['scope'], r['bytes'], "B"),
                     "metric", "put_nbi_call") for i in ("base", "head", "nvshmem")}
    worse += table("callcost: cycles per putmem_nbi call", "cycles", cc, True)
    mr = {i: medians(load(out / f"msgrate-{i}.jsonl"), lambda r: (r['scope'], r['work_groups'], "wg"),
                     "bench", "msgrate") for i in ("base", "head", "nvshmem")}
    worse += table("msgrate: 8 B messages", "Mmsg/s", mr, False)
    jac = {i: medians([r for r in load(out / f"jacobi-{i}.jsonl") if r.get("check") == "pass"],
                      lambda r: r["variant"], "app", "jacobi2d", "total_s") for i in ("base", "head")}
    worse += table("jacobi2d 16384^2, 1 PE, 1000 iterations", "s", jac, True)
    roof = [r["roofline_s"] for r in load(out / "jacobi-head.jsonl") if "roofline_s" in r]
    if roof:
        print(f"\nroofline (head's runs): {statistics.median(roof):.4f} s")
    for title, k, ratio in worse:
        print(f"worse than base by more than 2 %: {title}: {k}: {ratio:.3f}")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
