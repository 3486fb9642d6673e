#!/usr/bin/env python3
"""Machine-code check that a loop of wave-scope puts skips the out-of-line call with a branch and
nothing more (device/dispatch/dispatch.h put, device/core/scope.h scope_wave::agree). Compiles
gio-bench's apps/bench/stream.cpp for sm_90 (its k_stream<b_wave> loop is the message-rate
benchmark: a realistic caller, 196 registers, where tests/sass/put_loop.cu's small loops did not
show this) and disassembles it. Between the end of the inline copy (its BSYNC) and the branch that
jumps over the call to put_switch_out<scope_wave>, there must be no convergence-barrier
instruction (BSSY, BMOV). With a per-lane predicate, ptxas opened a convergence region there and
saved its barrier (BMOV) on every call, taken or not: 2.7x the branch-resolving stalls and 3,363
against 4,006-4,010 million 8-byte puts/s at 132 work-groups on 2 H200 (gio-bench msgrate --scope
wave --wgs 132 --iters 1000; docs/performance.md).

Usage: check_call_branch.py BUILD_DIR   (a configured cuda build: its include/ holds the generated
headers). Needs nvcc and nvdisasm (PyPI: nvidia-cuda-nvdisasm)."""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from check_scope_sync import ROOT, disassemble, functions, instruction  # noqa: E402

CALL = re.compile(r"CALL\.\S+\s+`\(\S*7put_outINS0_10scope_waveE")
COND_BRA = re.compile(r"@!?U?P\d\s+BRA\s+`\((\.L_x_\d+)\)")
LABEL = re.compile(r"^(\.L_x_\d+):")


def check(body):
    """The fast path's barrier instructions before each call's skip branch: [] when clean; None
    when no call was found."""
    where = {}
    for i, line in enumerate(body):
        m = LABEL.match(line)
        if m:
            where[m.group(1)] = i
    bad, calls = [], 0
    for i, line in enumerate(body):
        if not CALL.search(line):
            continue
        calls += 1
        skip = None
        for j in range(i - 1, -1, -1):  # the nearest conditional branch above that lands past the call
            m = COND_BRA.search(body[j])
            if m and where.get(m.group(1), -1) > i:
                skip = j
                break
        if skip is None:
            bad.append("no branch skips the call at: " + instruction(line))
            continue
        for j in range(skip - 1, -1, -1):  # back to the inline copy's end
            text = instruction(body[j])
            if text.startswith("BSYNC"):
                break
            if re.match(r"(BSSY|BMOV)", text):
                bad.append("%s  (before the skip branch %s)" % (text, instruction(body[skip])))
    return bad if calls else None


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build-cuda")
    text = disassemble(os.path.join("..", "..", "apps", "bench", "stream.cpp"), build, ["-O2", "-x", "cu"])
    kernel = [b for n, b in functions(text, labels=True).items() if re.fullmatch(r"\S*k_streamI6b_waveE\S*", n)
              and "$" not in n]
    if len(kernel) != 1:
        sys.exit("check_call_branch: k_stream<b_wave> not found once in stream.cpp (did the names change?)")
    bad = check(kernel[0])
    if bad is None:
        sys.exit("check_call_branch: no call to put_switch_out<scope_wave> in k_stream<b_wave> (inlined?)")
    if bad:
        print("check_call_branch FAILED: convergence-barrier work on the inline path of the wave put:")
        for b in bad:
            print("  " + b)
        sys.exit(1)
    print("check_call_branch: k_stream<b_wave> reaches its put's skip branch with no BSSY or BMOV")


if __name__ == "__main__":
    main()
