#!/usr/bin/env python3
"""One-screen summary of the main job (apps/run.sh): its JSON lines in OUTDIR.

Usage: summary.py OUTDIR. Prints put latency and one put's cost against a raw store, Jacobi2D's
time per variant against its roofline, SpTS's solve against the 1-PE solve and the vendor's.
Exits 1 when a run's check failed or a program left no result. summary.py --self-test checks
that: a complete passing set exits 0, a failed check or a missing program exits 1.
"""
import json
import sys
from pathlib import Path


def rows(path):
    if not path.exists():
        return []
    return [json.loads(l) for l in path.read_text().splitlines() if l.startswith("{")]


def main():
    out = Path(sys.argv[1])
    bad = []
    lat, cost = rows(out / "latency.jsonl"), rows(out / "callcost.jsonl")
    jac, spts = rows(out / "jacobi.jsonl"), rows(out / "spts.jsonl")
    device = next((r["device"] for r in lat + cost + jac + spts if "device" in r), "?")
    print(f"\n==== GIO main job: summary ({device}) ====")

    print("\nput latency, thread scope, p2p (us; median)")
    print(f"  {'bytes':>7} {'ping-pong half round trip':>26} {'put_nbi + quiet':>16}")
    by = {}
    for r in lat:
        by.setdefault(r["bytes"], {})[r["metric"]] = r["median"]
    for b in sorted(by):
        m = by[b]
        print(f"  {b:>7} {m.get('pingpong_half_rtt', float('nan')):>26.3f} {m.get('put_nbi_quiet', float('nan')):>16.3f}")
    if not lat:
        bad.append("put latency: no result")

    print("\none put_nbi call against a raw store of the same bytes, thread scope (cycles; median)")
    print(f"  {'bytes':>7} {'put_nbi':>10} {'raw store':>10} {'ratio':>7}")
    cc = {}
    for r in cost:
        cc.setdefault(r["bytes"], {})[r["metric"]] = r["median"]
    for b in sorted(cc):
        p, s = cc[b].get("put_nbi_call"), cc[b].get("raw_store_call")
        ratio = f"{p / s:7.2f}" if p and s else "      -"
        print(f"  {b:>7} {p or float('nan'):>10.0f} {s or float('nan'):>10.0f} {ratio}")
    if not cost:
        bad.append("callcost: no result")

    print("\nJacobi2D (s for all iterations; roofline: the memory-bound time of the same sweeps)")
    for r in jac:
        print(f"  {r['variant']:<15} {r['nx']}x{r['ny']} {r['pes']} PEs  {r['total_s']:.4f} s"
              f"  roofline {r['roofline_s']:.4f} s  check {r['check']}")
        if r["check"] != "pass":
            bad.append(f"Jacobi2D {r['variant']}: check {r['check']}")
    if not jac:
        bad.append("Jacobi2D: no result")

    print("\nSpTS, float (median solve, ms; preprocessing apart)")
    for r in spts:
        vs = ""
        if r.get("speedup_vendor"):
            vs = f"  {r['speedup_vendor']:.2f}x the vendor's solve"
        elif r["variant"] == "gio" and r.get("single_s"):
            vs = f"  {r['speedup_single']:.2f}x the 1-PE solve"
        print(f"  {r['variant']:<9} {r['input']:<20} {r['order']:<8} {r['pes']} PEs  "
              f"{r['median_s'] * 1e3:9.3f} ms  levels {r['levels']}{vs}  check {r['check']}")
        if r["check"] != "pass":
            bad.append(f"SpTS {r['variant']} {r['input']} {r['order']}: check {r['check']}")
    if not spts:
        bad.append("SpTS: no result")

    for b in bad:
        print(f"FAILED: {b}")
    return 1 if bad else 0


def self_test():
    import contextlib
    import io
    import tempfile
    dev = {"device": "test", "bytes": 8, "median": 1.0}
    files = {
        "latency.jsonl": [dict(dev, metric="pingpong_half_rtt"), dict(dev, metric="put_nbi_quiet")],
        "callcost.jsonl": [dict(dev, metric="put_nbi_call"), dict(dev, metric="raw_store_call")],
        "jacobi.jsonl": [{"variant": "gio", "nx": 8, "ny": 8, "pes": 2, "total_s": 1.0, "roofline_s": 0.5,
                          "check": "pass"}],
        "spts.jsonl": [{"variant": "gio", "input": "grid2d", "order": "natural", "pes": 2, "median_s": 1e-3,
                        "levels": 3, "single_s": 1e-3, "speedup_single": 1.0, "check": "pass"}],
    }

    def run(mutate):
        with tempfile.TemporaryDirectory() as d:
            fs = json.loads(json.dumps(files))
            mutate(fs)
            for name, rs in fs.items():
                Path(d, name).write_text("".join(json.dumps(r) + "\n" for r in rs))
            sys.argv = ["summary.py", d]
            with contextlib.redirect_stdout(io.StringIO()):
                return main()

    assert run(lambda fs: None) == 0, "a passing set must exit 0"
    assert run(lambda fs: fs["jacobi.jsonl"][0].update(check="fail")) == 1, "a failed check must exit 1"
    assert run(lambda fs: fs.pop("spts.jsonl")) == 1, "a missing program must exit 1"
    print("summary.py self-test: passed")
    return 0


if __name__ == "__main__":
    sys.exit(self_test() if sys.argv[1:] == ["--self-test"] else main())
