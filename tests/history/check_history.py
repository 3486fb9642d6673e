#!/usr/bin/env python3
"""Fails on words that narrate how GIO was made, naming file:line for each.

The product describes the software: a comment that justifies a choice names the benchmark
command and the test that guards it, not the work session, the issue, the device call or the
dated folder a measurement once lived in. Git keeps that history.

  check_history.py [--root DIR] [--skip PREFIX ...]   check the tracked files under DIR
  check_history.py --self-test                        prove that the check can fail

Files are the ones `git ls-files` lists (every file under DIR when DIR is not a git work tree).
Binary files and the few files that must hold the patterns (this script) are not read.
Exit status: 0 clean, 1 a violation was found, 2 usage error.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

# Each rule: (name, compiled pattern). Kept as plain regular expressions so a reader sees exactly
# what fails.
RULES = [
    ("work session", re.compile(
        r"\bsessions?\s+\d+|\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth"
        r"|\d+(?:st|nd|rd|th)|previous|earlier|last|this|that)\s+(?:work\s+)?session\b", re.I)),
    ("issue number", re.compile(r"\bissue\s+#?\d+|\bissues\s+#?\d+\s*(?:,|and|-)\s*#?\d+", re.I)),
    # The tracker's issue named without its number ("the size", "as the issue asks").
    ("issue", re.compile(r"\b(?:the|this|that)\s+issue(?:'s)?\b(?!\s+(?:a|an|the|its|one|many|every)\b)", re.I)),
    # Device-call letters ("call b", "calls a, c and d", "callD.sh"). "call a" alone is an
    # English article, so the letter a counts only before punctuation or another call letter.
    ("device call letter", re.compile(
        r"\bcalls?\s+[b-h](?![\w.])|\bcalls?\s+[b-h]'s\b"
        r"|\bcalls?\s+a(?=\s*(?:[),;:']|$)|\s+(?:and|or)\s+[a-h]\b)"
        r"|\bcall[A-H]\.sh\b")),
    ("run tag", re.compile(r"\(s\d{1,2}\)|\bs\d{1,2}'s\b|(?<=[a-z0-9])[_-]s\d{1,2}\b(?![-.]\d)|\bs\d{1,2}/")),
    ("dated result folder", re.compile(r"\b20\d\d-[01]\d-[0-3]\d-[A-Za-z0-9]")),
    ("results folder", re.compile(r"\bresults/20")),
]

# Files that must contain the patterns themselves.
SELF = {"tests/history/check_history.py"}
BINARY_EXT = {".png", ".jpg", ".pdf", ".gz", ".xz", ".zip", ".so", ".a", ".o", ".bin"}


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                             capture_output=True).stdout.decode()
        return [f for f in out.split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if x != ".git" and not x.startswith("build")]
            for n in names:
                files.append(os.path.relpath(os.path.join(d, n), root))
        return sorted(files)


def violations_in_text(text):
    """(line number, rule name, matched text) for every violation in text."""
    found = []
    for no, line in enumerate(text.splitlines(), 1):
        for name, rx in RULES:
            m = rx.search(line)
            if m:
                found.append((no, name, m.group(0).strip()))
    return found


def check(root, skip):
    bad = 0
    for rel in tracked_files(root):
        if rel in SELF or any(rel.startswith(p) for p in skip):
            continue
        if os.path.splitext(rel)[1].lower() in BINARY_EXT:
            continue
        path = os.path.join(root, rel)
        if not os.path.isfile(path) or os.path.islink(path):
            continue
        with open(path, "rb") as f:
            data = f.read()
        if b"\0" in data[:8192]:
            continue
        for no, name, text in violations_in_text(data.decode("utf-8", "replace")):
            print(f"{rel}:{no}: {name}: '{text}'")
            bad += 1
    if bad:
        print(f"check_history: {bad} line(s) narrate the making; say what the code does and name "
              "the benchmark command or test that guards a choice", file=sys.stderr)
    return 1 if bad else 0


def self_test():
    """Every rule must fire on a violating line and stay quiet on ordinary prose, and a tree
    holding a violating file must fail with its file:line."""
    bad_lines = ["// measured in session 19", "the ninth session's 2.4 ms", "since the 12th session", "fixed for issue 12", "see issue #7",
                 "issues 18 and 19 asked", "the issue's 64 x 100000", "as the issue asks", "call b's stall reasons", "calls a, c and d",
                 "callD.sh d", "the ceilings (s18)", "s25's plot", "plot_s25.py",
                 "results/2026-11-28-2xh200-s25/", "in 2026-11-27-4xh200-s18 we saw"]
    good_lines = ["call a routine from a kernel", "each thread issues puts", "call each kernel", "the thread may issue a put", "that issue a put",
                  "an OpenSHMEM call on PE 1", "gio-bench msgrate --wgs 1,32,132",
                  "date=2026-11-28T14:24:25Z", "sizes 2 to 16", "-s 2048 -S 16384"]
    ok = True
    for line in bad_lines:
        if not violations_in_text(line):
            print(f"self-test: not caught: {line!r}")
            ok = False
    for line in good_lines:
        if violations_in_text(line):
            print(f"self-test: false alarm: {line!r} -> {violations_in_text(line)}")
            ok = False
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "clean.md"), "w") as f:
            f.write("GIO moves data from kernels.\n")
        if check(d, []) != 0:
            print("self-test: a clean tree failed")
            ok = False
        with open(os.path.join(d, "note.cpp"), "w") as f:
            f.write("int x;\n// tuned in session 7\n")
        import io
        import contextlib
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
            rc = check(d, [])
        if rc != 1 or "note.cpp:2: work session" not in buf.getvalue():
            print(f"self-test: a violating tree gave rc {rc} and {buf.getvalue()!r}")
            ok = False
    print("self-test: " + ("passed" if ok else "FAILED"))
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    ap.add_argument("--skip", nargs="*", default=[], help="path prefixes left out")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    return check(os.path.abspath(a.root), a.skip)


if __name__ == "__main__":
    sys.exit(main())
