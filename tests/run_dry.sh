#!/usr/bin/env bash
# run_dry.sh RUN_SH: tests/run.sh's bookkeeping, with no step's commands run (GIO_RUN_DRY=1). PATH
# holds only what run.sh needs outside its steps, with or without a hipcc. Expected:
#  - a failing step (GIO_RUN_DRY_FAIL) does not stop the steps after it: each one runs, those that
#    need it are "skipped: prerequisite failed", and the exit status is 1 with the count named;
#  - with no hipcc the hip platform is "skipped: no hipcc" (not a failure), with one it runs;
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
if grep -q "FAILED" <<<"$out"; then echo "run_dry.sh: FAIL: a FAILED line with no failing step"; fail=1; fi
if grep -q "command not found" <<<"$all$out"; then echo "run_dry.sh: FAIL: run.sh ran a command that is not there"; fail=1; fi
if [[ $fail -ne 0 ]]; then printf -- '--- with a failing step:\n%s\n--- with none:\n%s\n' "$all" "$out"; exit 1; fi
echo "run_dry.sh: passed (a failed step's table and exit status; hip skipped without hipcc)"
