#!/usr/bin/env bash
# expect_fault.sh [--code N] [--also REGEX]... [--none REGEX]... [--within S] [--skip N] <regex> <command...>
# Passes only if the command exits non-zero (exactly N with --code; --code 0 for a case that must
# succeed), its combined stdout+stderr has a line matching the extended regex (and one matching
# each --also regex), and, with --within, it ended within S seconds. ctest's
# PASS_REGULAR_EXPRESSION alone would ignore the exit status. With --skip N, a command that exits N
# (it could not run here, e.g. tests/func/two_nodes.sh without namespaces) makes this exit N too,
# for ctest's SKIP_RETURN_CODE. With --none REGEX, no line may match REGEX.
set -u
want=nonzero
also=()
none=()
within=0
skip=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --code) want="$2"; shift 2 ;;
    --also) also+=("$2"); shift 2 ;;
    --none) none+=("$2"); shift 2 ;;
    --within) within="$2"; shift 2 ;;
    --skip) skip="$2"; shift 2 ;;
    *) break ;;
  esac
done
if [[ $# -lt 2 ]]; then echo "usage: expect_fault.sh [--code N] [--also REGEX]... [--none REGEX]... [--within S] <regex> <command...>" >&2; exit 2; fi
regex="$1"
shift
t0=$SECONDS
out=$("$@" 2>&1)
rc=$?
took=$((SECONDS - t0))
printf '%s\n' "$out"
if [[ -n "$skip" && $rc -eq $skip ]]; then echo "---- expect_fault: skipped (exit status $rc)"; exit "$rc"; fi
echo "---- expect_fault: exit status $rc (want $want), ${took} s"
ok=1
if [[ "$within" != 0 && $took -gt $within ]]; then
  echo "FAIL: took ${took} s, more than ${within} s"; ok=0
fi
for r in "${also[@]}"; do
  grep -Eq -- "$r" <<<"$out" || { echo "FAIL: no line of the output matches: $r"; ok=0; }
done
for r in "${none[@]}"; do
  ! grep -Eq -- "$r" <<<"$out" || { echo "FAIL: a line of the output matches: $r"; ok=0; }
done
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
