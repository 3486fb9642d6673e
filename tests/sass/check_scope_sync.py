#!/usr/bin/env python3
"""Machine-code check of the cooperative scopes' syncs after a one-lane post (device/dispatch/dispatch.h,
lane_done). Compiles scope_sync.cu for sm_90 and disassembles it: in every copy of
put_switch_out/get_switch_out at wave scope, each call into gda or proxy put/get must be followed
by a WARPSYNC before the function returns (a BAR.SYNC at work-group scope). Without it the lanes
that did not post leave while lane 0 still waits (a wave-scope reduce over the proxy then folds
data its get has not yet delivered; func.test_coll_device over gda and the proxy on GPUs).

Usage: check_scope_sync.py BUILD_DIR   (a configured cuda build: its include/ holds the generated
headers). Needs nvcc and nvdisasm (PyPI: nvidia-cuda-nvdisasm)."""
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def nvdisasm():
    found = shutil.which("nvdisasm")
    if found:
        return found
    spec = importlib.util.find_spec("nvidia.cu13")
    for d in (spec.submodule_search_locations if spec else []):
        p = os.path.join(d, "bin", "nvdisasm")
        if os.access(p, os.X_OK):
            return p
    sys.exit("check_scope_sync: nvdisasm not found (pip install nvidia-cuda-nvdisasm)")


def functions(text, labels=False):
    """{label: [instruction lines]} for every function body in nvdisasm -c output; with labels, the
    body keeps its .L_x_N label lines too (for finding branch targets)."""
    out, name = {}, None
    for line in text.splitlines():
        m = re.match(r"^(\$?[_A-Za-z0-9$.]+):\s*$", line)
        if m and not m.group(1).startswith(".L_x") and not m.group(1).startswith(".text"):
            name = m.group(1)
            out[name] = []
        elif name and ("/*" in line or (labels and re.match(r"^\.L_x_\d+:", line))):
            out[name].append(line)
    return out


def instruction(line):
    """The instruction text of a disassembled line, without its /*address*/."""
    return line.split("*/", 1)[1].strip() if "*/" in line else line.strip()


def disassemble(source, build, flags=()):
    """nvdisasm -c of tests/sass/<source> compiled for sm_90 against the cuda build `build`."""
    with tempfile.TemporaryDirectory() as tmp:
        cubin = os.path.join(tmp, "out.cubin")
        subprocess.run(["nvcc", "-I" + ROOT, "-I" + os.path.join(ROOT, "device", "include"),
                        "-I" + os.path.join(build, "include"), *flags, "-DNDEBUG", "-arch=sm_90", "-std=c++17",
                        "-cubin", os.path.join(HERE, source), "-o", cubin], check=True)
        return subprocess.run([nvdisasm(), "-c", cubin], check=True, capture_output=True, text=True).stdout


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build-cuda")
    text = disassemble("scope_sync.cu", build)
    want = {"scope_wave": "WARPSYNC", "scope_wg": "BAR.SYNC"}
    call = re.compile(r"CALL\.\S+\s+`\(\S*_ZN3gio3dev(3gda|5proxy)3(get|put)E")
    checked, bad = 0, []
    for name, body in functions(text).items():
        m = re.search(r"(get|put)_switch_outINS0_\d+(scope_wave|scope_wg)E", name)
        if not m:
            continue
        for i, line in enumerate(body):
            if not call.search(line):
                continue
            checked += 1
            tail = []
            for later in body[i + 1:]:
                tail.append(later)
                if "RET" in later or "EXIT" in later:
                    break
            if not any(want[m.group(2)] in t for t in tail):
                bad.append("%s: %s" % (name.split("$")[-1], instruction(line)))
    if checked < 8:  # {get, put} x {wave, wg} x {gda, proxy}
        sys.exit("check_scope_sync: found %d transport calls in the switches, expected 8 or more "
                 "(did the names change?)" % checked)
    if bad:
        print("check_scope_sync FAILED: no %s before the return after these one-lane posts:" % "/".join(want.values()))
        for b in bad:
            print("  " + b)
        sys.exit(1)
    print("check_scope_sync: %d one-lane transport calls, each followed by the scope's sync" % checked)


if __name__ == "__main__":
    main()
