#!/usr/bin/env python3
"""Machine-code check that a loop of cooperative puts or gets does not reload the runtime state on
every call (device/dispatch/dispatch.h, put and get). Compiles put_loop.cu for sm_90 and disassembles
it: inside each kernel's loop there must be no load from the constant bank that holds the state
(c[0x3]: the peer's transport, its mapping, the heap base, the state's magic and version words).
When those loads sat behind the argument checks' branches, ptxas loaded them again on every
call, and the checks cost 120 of a wave put's 392 cycles on an H200 (gio-bench callcost,
docs/performance.md); the head words are checked by check_pe in one compare with the PE's.
The *_ctx kernels call through a context given as an argument: a context the host made from a team
numbers PEs in that team, and only such a context's call may read its PE through it (dispatch.h,
put_team), or every context's loop reloads the peer's state.

Usage: check_put_loop.py BUILD_DIR   (a configured cuda build: its include/ holds the generated
headers). Needs nvcc and nvdisasm (PyPI: nvidia-cuda-nvdisasm)."""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from check_scope_sync import ROOT, disassemble, functions, instruction  # noqa: E402

STATE_LOAD = re.compile(r"\bU?LDC(\.\S+)?\s+\S+,\s+c\[0x3\]\[([^\]]+)\]")
KERNELS = ("k_put_wave", "k_put_wg", "k_get_wave", "k_get_wg", "k_put_wave_ctx", "k_put_wg_ctx", "k_get_wave_ctx",
           "k_get_wg_ctx")


def loops(body):
    """(start, end) index pairs of the loops before the first unpredicated EXIT: a branch back to a
    label above."""
    labels, out = {}, []
    for i, line in enumerate(body):
        if re.search(r"\*/\s+EXIT", line):  # the body's end (a predicated EXIT is the empty loop's)
            break
        m = re.search(r"(\.L_x_\d+):", line)
        if m:
            labels[m.group(1)] = i
        m = re.search(r"BRA\S*\s+`\((\.L_x_\d+)\)", line)
        if m and m.group(1) in labels:
            out.append((labels[m.group(1)], i))
    return out


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build-cuda")
    text = disassemble("put_loop.cu", build, ["-O2"])
    found, bad = [], []
    for name, body in functions(text, labels=True).items():
        # The kernels themselves, not the functions ptxas emits for them ("<kernel>$<callee>").
        kernel = next((k for k in KERNELS if re.fullmatch(r"_Z%d%s\w*" % (len(k), k), name)), None)
        if not kernel:
            continue
        regions = loops(body)
        if not regions:
            bad.append("%s: no loop found" % kernel)
            continue
        found.append(kernel)
        for a, b in regions:
            for line in body[a:b + 1]:
                m = STATE_LOAD.search(line)
                if m:
                    bad.append("%s: %s" % (kernel, instruction(line)))
    missing = set(KERNELS) - set(found)
    if missing and not bad:
        sys.exit("check_put_loop: kernels not found: %s (did the names change?)" % ", ".join(sorted(missing)))
    if bad:
        print("check_put_loop FAILED: the runtime state is loaded inside the loop of calls:")
        for b in bad:
            print("  " + b)
        sys.exit(1)
    print("check_put_loop: %d kernels, no state load inside their loops of cooperative calls" % len(found))


if __name__ == "__main__":
    main()
