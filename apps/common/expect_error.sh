#!/usr/bin/env bash
# expect_error.sh CODE REGEX CMD...: CMD is an app run that must refuse to start: exit code CODE
# and a message matching REGEX (grep -E). Success, another exit code or another message fail this
# test, so it cannot pass on a run that went ahead or died for a different reason.
code=$1 regex=$2
shift 2
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [[ $rc -eq $code ]] && grep -qE -- "$regex" <<<"$out"; then
  echo "expect_error: exit code $rc and the message, as expected"
  exit 0
fi
echo "expect_error: expected exit code $code and a message matching '$regex', got exit code $rc" >&2
exit 1
