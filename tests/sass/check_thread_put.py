#!/usr/bin/env python3
"""Machine-code check that one thread's small put keeps its inline form (device/dispatch/dispatch.h
put, device/core/copy.h copy_thread_small). Compiles thread_put.cu for sm_90 and disassembles it.
In each kernel that puts a constant 8, 16, 32, 64 or 128 bytes from one thread:
  - no local memory (STL, LDL): no stack frame on the path;
  - no call but to the error reports, the posting transports (gda::put, proxy::put) and the
    overlapping copies of the general path (move_here, copy_overlapping): the copy itself is not out
    of line;
  - the inline form: one straight run (no branch, call, label or convergence barrier inside it) of
    n / w loads of the widest word w (16 bytes, or 8 for 8 bytes), every one before the first of
    its n / w stores.
The kernel of a run-time size (gio-bench callcost's form) must hold the 128-byte form (8 loads of
16 bytes, then 8 stores) and no other call than those and the general path's (put_out: the
checks with their reports and the switch, for a peer that is not p2p or any failed check); local
memory is not checked there. A loop of such puts (k_thread_put_loop) must make one call at most
besides the reports and the memmove form, read nothing from local memory inside the loop, and hold
the general p2p copy inline: a straight run of 16 loads of 16 bytes before their 16 stores (the
lone thread's batch, device/core/copy.h copy_words) and the bulk-copy engine's copy (UBLKCP); behind
a call, a p2p put of 256 B to 4 KiB cost about 700 cycles more (dispatch.h put says why).
Before any of it, the check must refuse thread_put.cu's three k_refuse_* kernels (a copy by a call,
by a loop, through local memory) and its three k_refuse_loop_* loops (the copy by a call, a second
call, a local-memory read), each for its reason, so a check that no longer can fail fails.
Out of line or in a loop, 32-128 B thread puts cost 837-843 cycles against 437-751 for NVSHMEM's on
an H200 (gio-bench callcost --scope thread, apps/bench/gpu/run-gpu-smallput.sh).

Usage: check_thread_put.py BUILD_DIR   (a configured cuda build: its include/ holds the generated
headers). Needs nvcc and nvdisasm (PyPI: nvidia-cuda-nvdisasm)."""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from check_put_loop import loops  # noqa: E402
from check_scope_sync import ROOT, disassemble, functions, instruction  # noqa: E402

LOCAL = re.compile(r"^(@!?U?P\w+\s+)?(STL|LDL)\b")
LOCAL_LOAD = re.compile(r"^(@!?U?P\w+\s+)?LDL\b")
CALL = re.compile(r"\bCALL\.\S+\s+`\((\S+)\)")
# What a put may still call: the failure reports (out of line by design), the transports whose
# post is out of line (dispatch.h put_switch), and the memmove forms of a put whose source overlaps
# its destination on this PE (move_here for gda and the proxy, p2p's copy_overlapping), which only
# the general path past the small form reaches (the small form loads everything before it stores).
# The general path (put_out: the checks with their reports, then the switch) takes what no inline
# copy does: a peer that is not p2p, or a failed check; only a run-time size reaches it.
ALLOWED_CALL = re.compile(r"(fail_|check_pe_slow|no_transport|3gda3put|5proxy3put|9move_here|16copy_overlapping|"
                          r"7put_out)")
# Calls off a loop's way: the reports of a failure and the memmove of an overlapping put.
COLD_CALL = re.compile(r"(fail_|check_pe_slow|no_transport|16copy_overlapping)")
# Instructions that end a straight run (a branch only where it is unconditional or goes back: ptxas
# may turn the predicate of the last store into a forward branch over it).
CUT = re.compile(r"^(@!?U?P\w+\s+)?(BRX|JMP|CALL|RET|EXIT|BSSY|BSYNC|BREAK|WARPSYNC|BAR)\b")
BRANCH = re.compile(r"^(@!?U?P\w+\s+)?BRA\S*\s+(.*`\((\.L_x_\d+)\))?")
EXIT_IF = re.compile(r"^@!?U?P\w+\s+EXIT\b")
SUFFIX = {16: r"\.128", 8: r"\.64"}


def access(text, kind, width):
    """True when `text` is a load (kind "LD") or store ("ST") of `width` bytes, global or generic."""
    return re.match(r"^(@!?U?P\w+\s+)?%s(G)?\.E(\.\w+)*%s\s" % (kind, SUFFIX[width]), text) is not None


def straight_runs(body):
    """The body cut into straight runs of instruction texts: the instructions one path runs in turn.
    A label does not cut a run (a path that jumps in there does not change what the path falling
    through runs), nor does a predicated EXIT (ptxas may end the kernel ahead of the last store
    instead of predicating that store), as a forward conditional branch does not."""
    runs, cur, seen = [], [], set()
    for line in body:
        m = re.match(r"^(\.L_x_\d+):", line)
        if m:
            seen.add(m.group(1))
            continue
        text = instruction(line)
        b = BRANCH.match(text)
        if EXIT_IF.match(text):
            continue
        if CUT.match(text) or (b and (not b.group(1) or not b.group(3) or b.group(3) in seen)):
            runs.append(cur)
            cur = []
            continue
        cur.append(text)
    runs.append(cur)
    return runs


def has_form(body, words, width):
    """A straight run with `words` loads of `width`, all before the first of its `words` stores."""
    for run in straight_runs(body):
        loads = [i for i, t in enumerate(run) if access(t, "LD", width)]
        stores = [i for i, t in enumerate(run) if access(t, "ST", width)]
        if len(loads) == words and len(stores) == words and loads[-1] < stores[0]:
            return True
    return False


def check(body, n, frame=True):
    """What keeps a kernel's put of n bytes from its inline form: [] when it has it."""
    bad = []
    for line in body:
        text = instruction(line)
        if frame and LOCAL.match(text):
            bad.append("local memory: " + text)
        m = CALL.search(text)
        if m and not ALLOWED_CALL.search(m.group(1)):
            bad.append("call: " + text)
    width = 16 if n % 16 == 0 else 8
    if not has_form(body, n // width, width):
        bad.append("no straight run of %d %d-byte loads before their %d stores" % (n // width, width, n // width))
    return bad


def check_loop(body):
    """What a loop of run-time-size thread puts must not hold, or must: more than one call besides
    the cold ones (COLD_CALL), a load from local memory (what lives across a call and does not fit
    the registers the callee leaves is kept on the stack, and read back on every call), and the
    general p2p copy inline (its 16-word batch and the bulk-copy engine's copy). [] when clean."""
    regions = loops(body)
    if not regions:
        return ["no loop found"]
    bad = []
    for a, b in regions:
        texts = [instruction(line) for line in body[a:b + 1]]
        calls = [t for t in texts if CALL.search(t) and not COLD_CALL.search(CALL.search(t).group(1))]
        if len(calls) > 1:
            bad.append("%d calls in the loop (one allowed): %s" % (len(calls), "; ".join(calls)))
        bad += ["local memory read in the loop: " + t for t in texts if LOCAL_LOAD.match(t)]
    if not any(has_form(body[a:b + 1], 16, 16) for a, b in regions):
        bad.append("general copy not inline: no straight run of 16 16-byte loads before their 16 stores in the loop")
    if not any(re.match(r"^(@!?U?P\w+\s+)?UBLKCP", instruction(line)) for a, b in regions for line in body[a:b + 1]):
        bad.append("bulk copy not inline: no UBLKCP in the loop")
    return bad


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build-cuda")
    text = disassemble("thread_put.cu", build, ["-O2"])
    bodies = {n: b for n, b in functions(text, labels=True).items() if not n.startswith("$")}

    def body(pattern):
        found = [b for n, b in bodies.items() if re.fullmatch(pattern, n)]
        if len(found) != 1:
            sys.exit("check_thread_put: kernel %s found %d times in thread_put.cu (did the names change?)"
                     % (pattern, len(found)))
        return found[0]

    # The self-test: each refused kernel moves 64 bytes in a form the check must reject.
    for name in ("k_refuse_call", "k_refuse_loop", "k_refuse_stack"):
        if not check(body(r"_Z%d%s\w*" % (len(name), name)), 64):
            sys.exit("check_thread_put: the check passed %s, whose copy is not inline: it cannot fail" % name)
    # ... and each refused loop for its own reason.
    for name, reason in (("k_refuse_loop_out", "general copy not inline"), ("k_refuse_loop_calls", "calls in the loop"),
                         ("k_refuse_loop_stack", "local memory read")):
        found = check_loop(body(r"_Z%d%s\w*" % (len(name), name)))
        if not any(reason in b for b in found):
            sys.exit("check_thread_put: the loop check did not refuse %s for '%s' (it said: %s): it cannot fail"
                     % (name, reason, "; ".join(found) or "nothing"))
    bad = []
    for n in (8, 16, 32, 64, 128):
        bad += ["k_thread_put<%d>: %s" % (n, b) for b in check(body(r"_Z12k_thread_putILi%dEEvPcPKci" % n), n)]
    bad += ["k_thread_put_var: " + b for b in check(body(r"_Z\d+k_thread_put_var\w*"), 128, frame=False)]
    bad += ["k_thread_put_loop: " + b for b in check_loop(body(r"_Z\d+k_thread_put_loop\w*"))]
    if bad:
        print("check_thread_put FAILED: a thread-scope put is not in its inline form:")
        for b in bad:
            print("  " + b)
        sys.exit(1)
    print("check_thread_put: thread puts of 8..128 B (constant and run-time sizes) inline, no frame, no call; "
          "a loop of them one call, no local-memory read and the general p2p copy inline; "
          "the 3 refused forms and the 3 refused loops refused")


if __name__ == "__main__":
    main()
