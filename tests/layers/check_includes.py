#!/usr/bin/env python3
"""Checks that GIO's #include lines run one way: apps -> device -> runtime, host -> runtime.

Every tracked C/C++ source's #include lines are resolved the way the build resolves them (a quoted
name first beside the including file, then against the include roots CMake sets: the source root,
device/include for <shmem.h> and <shmemx.h>, apps/common for the apps) and the folder of the file
found is checked against the folder of the file that includes it:

  runtime/          the host<->device contract: runtime/ only
  host/             libgio: host/, runtime/ (and the patched drivers' uapi headers, the kernel ABI
                    libgio probes, as it would a vendor header)
  device/include/   the public headers: anything in device/, runtime/
  device/api/       the kernel API: device/ below it (coll, dispatch, transports, core, platform),
                    runtime/
  device/coll/      device collectives: coll, dispatch, the transports, core, platform, runtime/
  device/dispatch/  the switch on the transport id: the transports, core, platform, runtime/
  device/p2p|gda|proxy  a transport: its own folder, core, platform, runtime/ (never another
                    transport)
  device/core/      what every transport shares: core, platform, runtime/
  device/platform/  the platform layer: platform, runtime/ and vendor headers
  device/hip/       <hip/hip_runtime.h> off AMD: platform, runtime/
  apps/             device/, runtime/ (never host/)
  tests/            anything
Headers that are not in the tree (system, vendor, generated such as gio_config.h) are allowed
everywhere; a name that looks like a path into the tree but resolves to nothing is an error.

Usage: check_includes.py [ROOT]    exit 1 and one line per broken include (file:line: rule)
       check_includes.py --self-test   checks a small fixture tree with known violations
"""
import os
import re
import subprocess
import sys
import tempfile

SOURCE_EXT = (".h", ".hpp", ".c", ".cc", ".cpp", ".cu", ".cuh")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
TREE_TOPS = ("runtime/", "device/", "host/", "apps/", "tests/", "driver-patches/")
TRANSPORTS = ("p2p", "gda", "proxy")
SKIP_TOPS = ("results/",)  # measurement data and patches against old trees, not sources


def layer_of(path):
    """The layer a tree path belongs to, or None for files outside every layer."""
    parts = path.split("/")
    top = parts[0]
    if top in ("runtime", "host", "apps", "tests"):
        return top
    if top == "driver-patches":
        return "driver-uapi" if "uapi" in parts[1:-1] else "driver"
    if top == "device" and len(parts) > 2:
        sub = parts[1]
        if sub in TRANSPORTS:
            return "device/" + sub
        if sub in ("include", "api", "coll", "dispatch", "core", "platform", "hip"):
            return "device/" + sub
    return None


DEVICE_BELOW_API = {"device/coll", "device/dispatch", "device/core", "device/platform"} | {
    "device/" + t for t in TRANSPORTS
}
# Which layers each layer may include (besides headers outside the tree), and the rule's words.
ALLOWED = {
    "runtime": ({"runtime"}, "runtime/ includes only runtime/ (the contract stands alone)"),
    "host": ({"host", "runtime", "driver-uapi"}, "host/ includes only host/ and runtime/ (host -> runtime)"),
    "device/include": (
        {"device/include", "device/api", "runtime"} | DEVICE_BELOW_API,
        "device/include/ includes device/ and runtime/",
    ),
    "device/api": (
        {"device/api", "runtime"} | DEVICE_BELOW_API,
        "device/api/ includes device/ below it and runtime/ (never the public headers)",
    ),
    "device/coll": (
        {"device/coll", "device/dispatch", "device/core", "device/platform", "runtime"}
        | {"device/" + t for t in TRANSPORTS},
        "device/coll/ includes nothing from device/api/ (coll sits below the API)",
    ),
    "device/dispatch": (
        {"device/dispatch", "device/core", "device/platform", "runtime"} | {"device/" + t for t in TRANSPORTS},
        "device/dispatch/ includes only the transports, device/core/, device/platform/ and runtime/",
    ),
    "device/core": (
        {"device/core", "device/platform", "runtime"},
        "device/core/ includes only device/core/, device/platform/ and runtime/ (it sits below the transports)",
    ),
    "device/platform": (
        {"device/platform", "runtime"},
        "device/platform/ includes only device/platform/, runtime/ and vendor headers",
    ),
    "device/hip": ({"device/hip", "device/platform", "runtime"}, "device/hip/ includes only device/platform/ and runtime/"),
    "apps": (
        {"apps", "runtime", "device/include", "device/api", "device/hip"} | DEVICE_BELOW_API,
        "apps/ include device/ and runtime/, never host/ (apps -> device -> runtime)",
    ),
    "driver": ({"driver", "driver-uapi"}, "driver-patches/ include only driver-patches/"),
    "driver-uapi": ({"driver-uapi"}, "driver-patches/*/uapi/ include only uapi headers"),
}
for t in TRANSPORTS:
    ALLOWED["device/" + t] = (
        {"device/" + t, "device/core", "device/platform", "runtime"},
        "a transport (device/%s/) includes only its own folder, device/core/, device/platform/ and runtime/"
        " (never device/api/ or another transport)" % t,
    )


def resolve(root, files, src, quote, name):
    """The tree path an include names, or None if it is not in the tree."""
    cands = []
    if quote == '"':
        cands.append(os.path.normpath(os.path.join(os.path.dirname(src), name)))
    cands.append(os.path.normpath(name))
    cands.append(os.path.normpath(os.path.join("device/include", name)))
    if src.startswith("apps/"):
        cands.append(os.path.normpath(os.path.join("apps/common", name)))
    for c in cands:
        if c in files:
            return c
    return None


def check(root, files):
    """Broken includes as (file, line, message)."""
    fileset = set(files)
    out = []
    for src in sorted(files):
        if not src.endswith(SOURCE_EXT) or src.startswith(SKIP_TOPS):
            continue
        layer = layer_of(src)
        if layer is None or layer == "tests":
            continue
        allowed, rule = ALLOWED[layer]
        try:
            with open(os.path.join(root, src), encoding="utf-8", errors="replace") as f:
                lines = f.readlines()
        except OSError as e:
            out.append((src, 0, "cannot read: %s" % e))
            continue
        for no, text in enumerate(lines, 1):
            m = INCLUDE_RE.match(text)
            if not m:
                continue
            quote, name = m.group(1), m.group(2).strip()
            shown = ('"%s"' if quote == '"' else "<%s>") % name
            target = resolve(root, fileset, src, quote, name)
            if target is None:
                if name.startswith(TREE_TOPS):
                    out.append((src, no, "includes %s, which is no file of the tree" % shown))
                continue
            tl = layer_of(target)
            if tl in allowed:
                continue
            where = shown if target == name else "%s (%s)" % (shown, target)
            out.append((src, no, "includes %s: %s" % (where, rule)))
    return out


def tracked(root):
    try:
        r = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True)
        return [p for p in r.stdout.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        found = []
        for d, _, names in os.walk(root):
            for n in names:
                found.append(os.path.relpath(os.path.join(d, n), root).replace(os.sep, "/"))
        return found


def report(bad):
    for src, no, msg in bad:
        print("%s:%d: %s" % (src, no, msg))


# ---- self-test: a fixture tree with one violation of each rule and lines that must pass ----------
FIXTURE = {
    "runtime/a.h": '#include "runtime/b.h"\n#include <stdint.h>\n',
    "runtime/b.h": '#include "host/log.h"\n',  # 1: runtime -> host
    "runtime/api/x.h": '#include "gio_config.h"\n',
    "host/log.h": "\n",
    "host/init.cpp": '#include <shmem.h>\n#include "runtime/a.h"\n#include "host/log.h"\n',  # 2: host -> device
    "host/p.cpp": '#include "driver-patches/k/uapi/k.h"\n#include "device/platform/platform.h"\n',  # 3
    "driver-patches/k/uapi/k.h": "\n",
    "device/include/shmem.h": '#include "device/api/rma.h"\n#include "runtime/api/x.h"\n',
    "device/api/rma.h": '#include "device/dispatch/dispatch.h"\n',
    "device/dispatch/dispatch.h": '#include "device/p2p/p2p.h"\n#include "device/gda/gda.h"\n',
    "device/p2p/p2p.h": '#include "device/core/copy.h"\n#include "device/api/rma.h"\n',  # 4: transport -> api
    "device/gda/gda.h": '#include "device/p2p/p2p.h"\n#include "runtime/a.h"\n',  # 5: transport -> transport
    "device/core/copy.h": '#include "device/platform/platform.h"\n#include "device/dispatch/dispatch.h"\n',  # 6
    "device/coll/team.h": '#include "device/dispatch/dispatch.h"\n# include <shmem.h>\n',  # 7: coll -> include
    "device/platform/platform.h": '#include "device/platform/cuda/p.h"\n#include <cuda_runtime.h>\n',
    "device/platform/cuda/p.h": '#include "../../core/copy.h"\n',  # 8: platform -> core (relative)
    "apps/x/app.cpp": '#include <shmem.h>\n#include "cli.h"\n#include "host/log.h"\n',  # 9: apps -> host
    "apps/common/cli.h": "\n",
    "tests/t.cpp": '#include "host/log.h"\n#include "device/p2p/p2p.h"\n',
    "device/api/gone.h": '#include "device/api/missing.h"\n',  # 10: does not resolve
}
EXPECT = {
    ("runtime/b.h", 1),
    ("host/init.cpp", 1),
    ("host/p.cpp", 2),
    ("device/p2p/p2p.h", 2),
    ("device/gda/gda.h", 1),
    ("device/core/copy.h", 2),
    ("device/coll/team.h", 2),
    ("device/platform/cuda/p.h", 1),
    ("apps/x/app.cpp", 3),
    ("device/api/gone.h", 1),
}


def self_test():
    with tempfile.TemporaryDirectory() as root:
        for p, text in FIXTURE.items():
            os.makedirs(os.path.join(root, os.path.dirname(p)), exist_ok=True)
            with open(os.path.join(root, p), "w") as f:
                f.write(text)
        bad = check(root, list(FIXTURE))
    got = {(s, n) for s, n, _ in bad}
    report(bad)
    if got != EXPECT:
        print("self-test FAILED: missed %s, extra %s" % (sorted(EXPECT - got), sorted(got - EXPECT)))
        return 1
    print("self-test passed: %d violations found, as planted" % len(got))
    return 0


def main(argv):
    if len(argv) > 1 and argv[1] == "--self-test":
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    root = os.path.abspath(root)
    files = tracked(root)
    bad = check(root, files)
    report(bad)
    if bad:
        print("%d include(s) break the layer rules (tests/layers/check_includes.py says which may include what)" % len(bad))
        return 1
    print("includes run one way: %d sources checked" % sum(1 for f in files if f.endswith(SOURCE_EXT)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
