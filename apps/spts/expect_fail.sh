#!/usr/bin/env bash
# expect_fail.sh CMD...: CMD is an spts run that must FAIL its check -- exit code 1 with "FAIL" in
# its report. Success, a crash, a GIO abort (17) or a timeout fail this test.
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [[ $rc -eq 1 ]] && grep -q ": FAIL$" <<<"$out"; then
  echo "expect_fail: the check caught the perturbed component, as it must"
  exit 0
fi
echo "expect_fail: expected exit code 1 and a FAIL report, got exit code $rc" >&2
exit 1
