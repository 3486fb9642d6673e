#!/usr/bin/env bash
# run_dry.sh RUN_SH: tests/run.sh's bookkeeping, with no step's commands run (GIO_RUN_DRY=1). PATH
# holds only what run.sh needs outside its steps, with or without a hipcc. Expected:
#  - a failing step (GIO_RUN_DRY_FAIL) does not stop the steps after it: each one runs, those that
#    need it are "skipped: prerequisite failed", and the exit status is 1 with the count named;
#  - with no hipcc the hip platform is "skipped: no hipcc" (not a failure), with one it runs;
#  - the background queue's steps (the sanitizer builds, the cuda and hip checks) are in the table
#    in the steps' order, and a failed one skips the steps that need it, in the queue (hip's gfx940
#    pass) and in the main script (the ASan tests);
#  - every step passing exits 0.
set -uo pipefail
run=${1:?usage: run_dry.sh RUN_SH}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
for t in dirname nproc; do ln -s "$(command -v "$t")" "$tmp/bin/$t"; done
bash=$(command -v bash)
fail=0
check() {  # check DESCRIPTION REGEX: one line of $out must match REGEX
  grep -Eq -- "$2" <<<"$out" || { echo "run_dry.sh: FAIL: $1 (no line matches: $2)"; fail=1; }
}
dry() { env -i PATH="$tmp/bin" GIO_RUN_DRY=1 GIO_SKIP_CUDA=1 "$@" "$bash" "$run" 2>&1; }

out=$(dry GIO_RUN_DRY_FAIL='^host platform: build$'); rc=$?
[[ $rc -eq 1 ]] || { echo "run_dry.sh: FAIL: a failed step: exit status $rc, want 1"; fail=1; }
check "the failed step in the table" '^FAILED: exit status 1 +0 s  host platform: build$'
check "a step that needs it is skipped" '^skipped: prerequisite failed +0 s  host platform: the other tests'
check "a later step still runs" '^passed +0 s  host platform with thread: unit, platform and 2-PE functional tests$'
check "hip without hipcc" '^skipped: no hipcc +0 s  hip platform$'
check "cuda skipped by request" '^skipped: GIO_SKIP_CUDA=1 +0 s  cuda platform$'
check "the count of failed steps" '^1 of [0-9]+ steps FAILED$'
all=$out

printf '#!/bin/sh\nexit 0\n' > "$tmp/bin/hipcc"
chmod +x "$tmp/bin/hipcc"
out=$(dry); rc=$?
[[ $rc -eq 0 ]] || { echo "run_dry.sh: FAIL: every step passing: exit status $rc, want 0"; fail=1; }
check "hip with hipcc" '^passed +0 s  hip platform: compile everything for gfx90a$'
check "every step passed" '^every step that ran passed$'
# The table's order: the background steps where they always were.
want="host platform: build|host platform: fault, app and bench tests (2 and 4 PEs)|host platform: the other tests (2 and 4 PEs)"
want+="|driver-patches: apply and compile against Debian's linux-source-6.1"
want+="|host platform with address,undefined: build (build-asan)|host platform with address,undefined: unit, platform and 2-PE functional tests"
want+="|host platform with thread: build (build-tsan)|host platform with thread: unit, platform and 2-PE functional tests"
want+="|cuda platform|hip platform: compile everything for gfx90a|hip platform: the device API's kernels for gfx940"
want+="|hip platform: the installed package (oshc++, find_package, pkg-config; compile only)"
table=$(sed -n '/^==== summary/,$p' <<<"$out" | sed -n 's/^[a-zA-Z].* [0-9]* s  //p' | paste -sd'|')
[[ $table == "$want" ]] || { echo "run_dry.sh: FAIL: the table's steps, in order: $table"; fail=1; }
if grep -q "FAILED" <<<"$out"; then echo "run_dry.sh: FAIL: a FAILED line with no failing step"; fail=1; fi
all+=$out

out=$(dry GIO_RUN_DRY_FAIL='build-asan|gfx90a$'); rc=$?
[[ $rc -eq 1 ]] || { echo "run_dry.sh: FAIL: failed background steps: exit status $rc, want 1"; fail=1; }
check "a failed background build" '^FAILED: exit status 1 +0 s  host platform with address,undefined: build \(build-asan\)$'
check "its tests are skipped" '^skipped: prerequisite failed +0 s  host platform with address,undefined: unit, platform and 2-PE functional tests$'
check "the next background build still runs" '^passed +0 s  host platform with thread: build \(build-tsan\)$'
check "a failed step in the queue skips the next" '^skipped: prerequisite failed +0 s  hip platform: the device API.s kernels for gfx940$'
check "the count of failed steps" '^2 of [0-9]+ steps FAILED$'
if grep -q "command not found" <<<"$all$out"; then echo "run_dry.sh: FAIL: run.sh ran a command that is not there"; fail=1; fi
if [[ $fail -ne 0 ]]; then printf -- '--- with a failing step:\n%s\n--- with none:\n%s\n' "$all" "$out"; exit 1; fi
echo "run_dry.sh: passed (a failed step's table and exit status; hip skipped without hipcc)"
