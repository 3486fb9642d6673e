#!/usr/bin/env bash
# expect_fail.sh CMD...: CMD is an app run that must FAIL its own check (a test of the check, with
# an injected error): exit code 1 and a report line ending in ": FAIL". Success, a crash, a GIO
# abort (17) or a timeout fail this test.
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [[ $rc -eq 1 ]] && grep -q ": FAIL$" <<<"$out"; then
  echo "expect_fail: the check caught the injected error, as it must"
  exit 0
fi
echo "expect_fail: expected exit code 1 and a FAIL report, got exit code $rc" >&2
exit 1
