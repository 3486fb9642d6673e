#!/usr/bin/env python3
"""README.md's first program is apps/examples/ring.cpp, word for word, so the program a reader
copies is the one CI builds and runs (ctest app.ring.np2). Exit 1 naming the first differing line."""
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
readme = open(os.path.join(here, "..", "..", "README.md")).read()
blocks = re.findall(r"```cpp\n(.*?)```", readme, re.S)
ring = open(os.path.join(here, "ring.cpp")).read()
if not blocks:
    sys.exit("README.md: no ```cpp block (its first program, apps/examples/ring.cpp)")
a, b = blocks[0].splitlines(), ring.splitlines()
for i in range(max(len(a), len(b))):
    x = a[i] if i < len(a) else "<end>"
    y = b[i] if i < len(b) else "<end>"
    if x != y:
        sys.exit(f"README.md's first program differs from apps/examples/ring.cpp at line {i + 1}:\n"
                 f"  README: {x}\n  ring.cpp: {y}")
print("README.md's first program is apps/examples/ring.cpp")
