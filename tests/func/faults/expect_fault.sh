#!/usr/bin/env bash
# expect_fault.sh [--code N] <regex> <command...>
# Passes only if the command exits non-zero (exactly N with --code; --code 0 for a case that must
# succeed) and its combined stdout+stderr has a line matching the extended regex. ctest's
# PASS_REGULAR_EXPRESSION alone would ignore the exit status.
set -u
want=nonzero
if [[ "${1:-}" == "--code" ]]; then want="$2"; shift 2; fi
if [[ $# -lt 2 ]]; then echo "usage: expect_fault.sh [--code N] <regex> <command...>" >&2; exit 2; fi
regex="$1"
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
echo "---- expect_fault: exit status $rc (want $want)"
ok=1
if [[ "$want" == nonzero ]]; then
  [[ $rc -ne 0 ]] || { echo "FAIL: the command exited 0: the fault was not reported"; ok=0; }
elif [[ $rc -ne $want ]]; then
  echo "FAIL: exit status $rc, expected $want"; ok=0
fi
if ! grep -Eq -- "$regex" <<<"$out"; then
  echo "FAIL: no line of the output matches: $regex"; ok=0
fi
[[ $ok -eq 1 ]] && echo "PASS" && exit 0
exit 1
