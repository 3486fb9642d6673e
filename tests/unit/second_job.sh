#!/usr/bin/env bash
# second_job.sh PROGRAM PROVIDER: an earlier job registers a heap and ends; then a job registers
# one and another process (a second job on the machine) tries to write into it with the earlier
# job's key, GIO's old fixed key and small numbers (proxy_second_job.cpp). Exit 0 when every
# guess was refused, the control write with the real key landed, and nothing else did.
set -u
prog=$1 prov=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/earlier" "$dir/now"

"$prog" victim "$prov" "$dir/earlier" &
earlier=$!
for _ in $(seq 600); do [[ -e "$dir/earlier/key" ]] && break; sleep 0.1; done
# Whole or not at all (as the programs publish): the victim reads the file as soon as it exists.
echo alone > "$dir/earlier/done.tmp" && mv "$dir/earlier/done.tmp" "$dir/earlier/done"
wait "$earlier" || { echo "second_job: the earlier job failed"; exit 1; }

"$prog" victim "$prov" "$dir/now" &
victim=$!
"$prog" intruder "$prov" "$dir/now" "$dir/earlier/key"
rc=$?
# The intruder stopped early: let the victim check.
[[ -e "$dir/now/done" ]] || { echo 1 > "$dir/now/done.tmp" && mv "$dir/now/done.tmp" "$dir/now/done"; }
wait "$victim" || rc=1
exit $rc
