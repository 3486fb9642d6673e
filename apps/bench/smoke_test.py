#!/usr/bin/env python3
"""CI smoke test for one gio-bench subcommand: run it at 2 PEs with --quick and check every JSON
line (parses, required keys, sane values, the expected metrics present). Also usable on results:
  smoke_test.py --check FILE.jsonl [--sub put_latency] [--transport p2p]
With --pairs DIR: put_latency and bw at 4 PEs measuring pairs 1,3 and 0,2, then pairs.py.
With --self: put_latency at 1 PE with --pair 0,0 (put_nbi_quiet to its own heap through the
transport), and loggop --pair 0,0 refused.
--sub coll: the collectives' lines, whose shape differs (op, n_pes, us, algbw, busbw; no pair);
--check FILE --sub coll checks gio-bench-nvshmem's and gio-bench-nccl's files too.
--sub strided: the strided lines (method, x, y, z, us, GBps) at 2 PEs and at 1 PE (into itself), then
strided_plot.py draws them."""
import argparse
import collections
import json
import math
import os
import subprocess
import sys

REQUIRED = ["bench", "transport", "scope", "bytes", "work_groups", "metric", "median", "min", "max",
            "unit", "device", "commit", "date", "impl", "pes", "pair"]
# Metrics each run must produce. bw/msgrate also run with --bidir.
EXPECTED = {
    "put_latency": {"pingpong_half_rtt", "put_nbi_quiet", "interk_half_rtt", "interk_empty"},
    "bw": {"bw_uni"},
    "msgrate": {"msgrate_uni"},
    "loggop": {"prtt_1_0", "prtt_n_0", "prtt_n_d", "o", "L", "g", "G", "S"},
    # raw_store_call, overhead and raw_vec_call only where the target is load/store mapped (check_file
    # adds them).
    "callcost": {"put_nbi_call"},
}
BIDIR = {"bw": "bw_bidir", "msgrate": "msgrate_bidir"}
# Differences and fit coefficients may be <= 0 when noise dominates; they must only be finite.
SIGNED = {"o", "g", "G", "overhead"}

COLL_REQUIRED = ["bench", "impl", "transport", "op", "scope", "bytes", "bytes_is", "algbw_bytes", "n_pes",
                 "threads", "iters", "us", "us_min", "us_max", "algbw", "busbw", "device", "commit", "date"]
COLL_OPS = {"barrier", "broadcast", "fcollect", "alltoall", "reduce"}
COLL_BW_MIN = 4096  # coll_spec.h's kCollBwMinBytes


def coll_bus_factor(op, n):
    """nccl-tests' busbw / algbw (coll_spec.cpp)."""
    return {"reduce": 2.0 * (n - 1) / n, "fcollect": (n - 1) / n, "alltoall": (n - 1) / n,
            "broadcast": 1.0}[op]


def check_coll_file(path, transport=None):
    """Every coll line well formed; every op of the run at every scope and size it measured."""
    errors = []
    points = {}  # (impl, op, scope) -> sizes
    with open(path) as f:
        lines = [l for l in f if l.strip()]
    if not lines:
        return ["%s: no JSON lines" % path]
    for n, line in enumerate(lines, 1):
        where = "%s:%d" % (path, n)
        try:
            r = json.loads(line)
        except ValueError as e:
            errors.append("%s: does not parse: %s" % (where, e))
            continue
        missing = [k for k in COLL_REQUIRED if k not in r]
        if missing:
            errors.append("%s: missing %s" % (where, ", ".join(missing)))
            continue
        op, b, npes = r["op"], r["bytes"], r["n_pes"]
        if r["bench"] != "coll" or op not in COLL_OPS or r["impl"] not in ("gio", "nvshmem", "nccl"):
            errors.append("%s: bench %r op %r impl %r" % (where, r["bench"], op, r["impl"]))
            continue
        if transport and r["transport"] != transport:
            errors.append("%s: transport %r, expected %r" % (where, r["transport"], transport))
        for k in ("transport", "device", "commit", "date", "scope"):
            if not isinstance(r[k], str) or not r[k]:
                errors.append("%s: %s is empty" % (where, k))
        if r["bytes_is"] != "per_pe" or not isinstance(npes, int) or npes < 1:
            errors.append("%s: bytes_is %r, n_pes %r" % (where, r["bytes_is"], npes))
            continue
        if not isinstance(b, int) or (b != 0 if op == "barrier" else (b <= 0 or b % 4)):
            errors.append("%s: %s of %r bytes" % (where, op, b))
            continue
        if r["algbw_bytes"] != (b * npes if op in ("fcollect", "alltoall") else b):
            errors.append("%s: algbw_bytes %r for %s of %d B at %d PEs" % (where, r["algbw_bytes"], op, b, npes))
        if not isinstance(r["iters"], int) or r["iters"] < 1 or not isinstance(r["threads"], int):
            errors.append("%s: iters %r threads %r" % (where, r["iters"], r["threads"]))
        vals = [r["us_min"], r["us"], r["us_max"]]
        if not all(isinstance(v, (int, float)) and math.isfinite(v) and v > 0 for v in vals):
            errors.append("%s: latency not positive and finite: %r" % (where, vals))
            continue
        if not vals[0] <= vals[1] <= vals[2]:
            errors.append("%s: not us_min <= us <= us_max: %r" % (where, vals))
        if op == "barrier" or b < COLL_BW_MIN:
            if r["algbw"] is not None or r["busbw"] is not None:
                errors.append("%s: bandwidth given below %d B: %r %r" % (where, COLL_BW_MIN, r["algbw"], r["busbw"]))
        else:
            want = r["algbw_bytes"] / (r["us"] * 1e3)
            if not isinstance(r["algbw"], (int, float)) or abs(r["algbw"] - want) > 1e-6 * want:
                errors.append("%s: algbw %r, algbw_bytes / us gives %r" % (where, r["algbw"], want))
            elif not isinstance(r["busbw"], (int, float)) or \
                    abs(r["busbw"] - r["algbw"] * coll_bus_factor(op, npes)) > 1e-6 * want:
                errors.append("%s: busbw %r is not algbw %r x %s's factor" % (where, r["busbw"], r["algbw"], op))
        points.setdefault((r["impl"], op, r["scope"]), set()).add(b)
    # Every op runs the same sizes at every scope (barrier: 0 B only).
    sizes = {}
    for (impl, op, scope), got in points.items():
        if op != "barrier":
            sizes.setdefault(impl, set()).update(got)
    for (impl, op, scope), got in sorted(points.items()):
        if op != "barrier" and got != sizes[impl]:
            errors.append("%s: %s %s %s measured %s of sizes %s" % (path, impl, op, scope, sorted(got),
                                                                    sorted(sizes[impl])))
    impls = {k[0] for k in points}
    for impl in impls:
        ops = {k[1] for k in points if k[0] == impl}
        want = COLL_OPS - {"barrier"} if impl == "nccl" else COLL_OPS  # NCCL has no barrier
        if ops != want:
            errors.append("%s: %s measured %s, expected %s" % (path, impl, sorted(ops), sorted(want)))
    if not any(k[1] != "barrier" and max(v) >= COLL_BW_MIN for k, v in points.items()):
        errors.append("%s: no size of %d B or more: no bandwidth checked" % (path, COLL_BW_MIN))
    return errors


def check_coll(args):
    """coll at 2 PEs (--quick), its lines checked; bad --ops and --pair refused."""
    errors = run(args, [], args.json)
    if errors:
        return errors
    errors = check_coll_file(args.json, args.transport)
    for extra, msg in ((["--ops", "reduce,allscatter"], "bad value"), (["--pair", "0,1"], "no --pair")):
        cmd = [args.giorun, "-n", "2", args.bench, "coll", "--quick"] + extra
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
        if p.returncode != 2 or msg not in p.stderr:
            errors.append("%s: exit %d (want 2) and stderr %r (want %r)" % (" ".join(cmd), p.returncode,
                                                                         p.stderr[-300:], msg))
    return errors


STRIDED_REQUIRED = ["bench", "impl", "transport", "method", "x", "y", "z", "cube", "bytes", "work_groups",
                    "threads", "iters", "us", "us_min", "us_max", "GBps", "device", "commit", "date", "pes", "pair"]
STRIDED_METHODS = {"per_block", "gio", "pack_put", "bound"}  # + memcpy3d on GPUs, where the peer is mapped


def check_strided_file(path, transport=None, pair=None):
    """Every line well formed; every method at every shape x * y * z = region of the cube."""
    errors, seen = [], collections.defaultdict(set)
    with open(path) as f:
        lines = [l for l in f if l.strip()]
    for n, line in enumerate(lines, 1):
        where = "%s:%d" % (path, n)
        try:
            r = json.loads(line)
        except ValueError as e:
            errors.append("%s: does not parse: %s" % (where, e))
            continue
        missing = [k for k in STRIDED_REQUIRED if k not in r]
        if missing:
            errors.append("%s: missing %s" % (where, ", ".join(missing)))
            continue
        if r["bench"] != "strided" or r["x"] * r["y"] * r["z"] != r["bytes"] or max(r["x"], r["y"], r["z"]) > r["cube"]:
            errors.append("%s: shape %rx%rx%r of %r bytes in cube %r" % (where, r["x"], r["y"], r["z"], r["bytes"], r["cube"]))
        if transport and r["transport"] != transport:
            errors.append("%s: transport %r, expected %r" % (where, r["transport"], transport))
        if pair and r["pair"] != pair:
            errors.append("%s: pair %r, expected %r" % (where, r["pair"], pair))
        vals = [r["us_min"], r["us"], r["us_max"], r["GBps"]]
        if not all(isinstance(v, (int, float)) and math.isfinite(v) and v > 0 for v in vals) or not vals[0] <= vals[1] <= vals[2]:
            errors.append("%s: us_min/us/us_max/GBps %r" % (where, vals))
        seen[r["method"]].add((r["x"], r["y"], r["z"]))
    if not STRIDED_METHODS <= set(seen):
        errors.append("%s: methods %s, expected at least %s" % (path, sorted(seen), sorted(STRIDED_METHODS)))
    shapes = set().union(*seen.values()) if seen else set()
    errors += ["%s: %s lacks %d shape(s)" % (path, m, len(shapes - s)) for m, s in seen.items() if s != shapes]
    return errors


def check_strided(args):
    errors = run(args, [], args.json)
    if not errors:
        errors = check_strided_file(args.json, args.transport, [0, 1])
    one = args.json.replace(".jsonl", "_self.jsonl")
    if not errors:
        errors = run(args, [], one, npes=1)
    if not errors:
        errors = check_strided_file(one, None, [0, 0])
    if not errors:
        out = os.path.dirname(os.path.abspath(args.json))
        p = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "strided_plot.py"), args.json,
                            "--out", out], timeout=args.timeout)
        if p.returncode != 0 or not os.path.exists(os.path.join(out, "strided_bw.png")):
            errors.append("strided_plot.py exited %d or wrote no strided_bw.png" % p.returncode)
    return errors


def check_file(path, sub, expected, transport=None, self_pair=False):
    errors = []
    if sub == "callcost" and transport == "p2p":  # the peer's heap is mapped: the probe must run
        expected = expected | {"raw_store_call", "overhead", "raw_vec_call"}
    seen = set()
    with open(path) as f:
        lines = [l for l in f if l.strip()]
    if not lines:
        return ["%s: no JSON lines" % path]
    for n, line in enumerate(lines, 1):
        where = "%s:%d" % (path, n)
        try:
            r = json.loads(line)
        except ValueError as e:
            errors.append("%s: does not parse: %s" % (where, e))
            continue
        missing = [k for k in REQUIRED if k not in r]
        if missing:
            errors.append("%s: missing %s" % (where, ", ".join(missing)))
            continue
        seen.add(r["metric"])
        if sub and r["bench"] != sub:
            errors.append("%s: bench %r, expected %r" % (where, r["bench"], sub))
        if transport and r["transport"] != transport:
            errors.append("%s: transport %r, expected %r" % (where, r["transport"], transport))
        if r["impl"] not in ("gio", "nvshmem"):
            errors.append("%s: impl %r" % (where, r["impl"]))
        for k in ("transport", "device", "commit", "date", "unit", "scope"):
            if not isinstance(r[k], str) or not r[k]:
                errors.append("%s: %s is empty" % (where, k))
        pair = r["pair"]
        if (not isinstance(pair, list) or len(pair) != 2 or (pair[0] == pair[1]) != self_pair or
                not all(isinstance(p, int) and 0 <= p < r["pes"] for p in pair)):
            errors.append("%s: pair %r with %r PEs" % (where, pair, r["pes"]))
        if not isinstance(r["bytes"], int) or r["bytes"] < 0:
            errors.append("%s: bytes %r" % (where, r["bytes"]))
        if not isinstance(r["work_groups"], int) or r["work_groups"] < 1:
            errors.append("%s: work_groups %r" % (where, r["work_groups"]))
        vals = [r["min"], r["median"], r["max"]]
        if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in vals):
            errors.append("%s: non-finite value in %r" % (where, vals))
            continue
        if not vals[0] <= vals[1] <= vals[2]:
            errors.append("%s: not min <= median <= max: %r" % (where, vals))
        if r["metric"] not in SIGNED and vals[0] <= 0:
            errors.append("%s: %s must be positive: %r" % (where, r["metric"], vals))
    for m in sorted(expected - seen):
        errors.append("%s: no %s measurement" % (path, m))
    return errors


def run(args, extra, path, sub=None, npes=2):
    if os.path.exists(path):
        os.remove(path)
    cmd = [args.giorun, "-n", str(npes), args.bench, sub or args.sub, "--quick", "--json", path] + extra
    print("+", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, timeout=args.timeout)
    if p.returncode != 0:
        return ["%s exited with %d" % (" ".join(cmd), p.returncode)]
    return []


def check_pairs(args):
    """4 PEs, two pairs measured apart: every line names its pair, and pairs.py tabulates both."""
    errors = []
    os.makedirs(args.pairs, exist_ok=True)
    for sub in ("put_latency", "bw"):
        lines = []
        for pair in ((1, 3), (0, 2)):
            path = os.path.join(args.pairs, "gio-pairs-%s.jsonl.%d%d" % (sub, *pair))
            extra = ["--pair", "%d,%d" % pair, "--scope", "thread" if sub == "put_latency" else "wg"]
            errors += run(args, extra, path, sub=sub, npes=4)
            if errors:
                return errors
            errors += check_file(path, sub, EXPECTED[sub], args.transport)
            with open(path) as f:
                got = [json.loads(l) for l in f if l.strip()]
            errors += ["%s: pair %r, asked for %r" % (path, r["pair"], list(pair)) for r in got
                       if r["pair"] != list(pair) or r["pes"] != 4]
            lines += got
            os.remove(path)
        with open(os.path.join(args.pairs, "gio-pairs-%s.jsonl" % sub), "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in lines)
    table = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "pairs.py"), args.pairs],
                           capture_output=True, text=True, timeout=args.timeout)
    print(table.stdout, table.stderr, flush=True)
    rows = [l for l in table.stdout.splitlines() if l.startswith("| ") and "↔" in l]
    if table.returncode != 0 or [r.split("|")[1].strip() for r in rows] != ["0↔2", "1↔3"]:
        errors.append("pairs.py: expected rows 0↔2 and 1↔3, got %r (exit %d)" % (rows, table.returncode))
    return errors


def check_self(args):
    """One PE targeting itself: only put_nbi_quiet, every line naming pair [0, 0]; loggop refuses."""
    errors = run(args, ["--pair", "0,0", "--scope", "thread"], args.json, sub="put_latency", npes=1)
    if errors:
        return errors
    errors = check_file(args.json, "put_latency", {"put_nbi_quiet"}, args.transport, self_pair=True)
    with open(args.json) as f:
        metrics = {json.loads(l)["metric"] for l in f if l.strip()}
    if metrics != {"put_nbi_quiet"}:
        errors.append("%s: --pair 0,0 measured %s; only put_nbi_quiet has no peer" % (args.json, sorted(metrics)))
    cmd = [args.giorun, "-n", "1", args.bench, "loggop", "--quick", "--pair", "0,0"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    if p.returncode != 2 or "is for put_latency, strided and callcost only" not in p.stderr:
        errors.append("%s: exit %d (want 2) and stderr %r (want the put_latency-only refusal)" %
                      (" ".join(cmd), p.returncode, p.stderr[-300:]))
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--giorun")
    ap.add_argument("--bench")
    ap.add_argument("--sub")
    ap.add_argument("--json")
    ap.add_argument("--transport", help="the transport every line must record")
    ap.add_argument("--check", help="only check this JSON-lines file")
    ap.add_argument("--timeout", type=int, default=100)
    ap.add_argument("--pairs", help="directory: run put_latency and bw at 4 PEs on two pairs, then pairs.py")
    ap.add_argument("--self", action="store_true", help="put_latency at 1 PE targeting itself (--pair 0,0)")
    args = ap.parse_args()
    if args.self:
        errors = check_self(args)
    elif args.pairs:
        errors = check_pairs(args)
    elif args.check and args.sub == "coll":
        errors = check_coll_file(args.check, args.transport)
    elif args.check and args.sub == "strided":
        errors = check_strided_file(args.check, args.transport)
    elif args.check:
        errors = check_file(args.check, args.sub, EXPECTED.get(args.sub, set()), args.transport)
    elif args.sub == "coll":
        errors = check_coll(args)
    elif args.sub == "strided":
        errors = check_strided(args)
    else:
        errors = run(args, [], args.json)
        if not errors:
            errors = check_file(args.json, args.sub, EXPECTED[args.sub], args.transport)
        if not errors and args.sub in BIDIR:
            path = args.json.replace(".jsonl", "_bidir.jsonl")
            errors = run(args, ["--bidir"], path)
            if not errors:
                errors = check_file(path, args.sub, {BIDIR[args.sub]}, args.transport)
    for e in errors:
        print("FAIL:", e)
    print("OK" if not errors else "%d problem(s)" % len(errors))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
