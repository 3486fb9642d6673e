#!/usr/bin/env bash
# expect_output.sh REGEX CMD...: CMD must succeed (exit 0) and print a line matching REGEX (grep -E).
# For a run whose output states a choice the app made (e.g. spts's resolved --exchange auto): a
# run that fails, or that made another choice, fails this test.
regex=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [[ $rc -eq 0 ]] && grep -qE -- "$regex" <<<"$out"; then
  echo "expect_output: exit code 0 and a line matching '$regex', as expected"
  exit 0
fi
echo "expect_output: expected exit code 0 and a line matching '$regex', got exit code $rc" >&2
exit 1
