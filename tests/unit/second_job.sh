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
echo alone > "$dir/earlier/done"
wait "$earlier" || { echo "second_job: the earlier job failed"; exit 1; }

"$prog" victim "$prov" "$dir/now" &
victim=$!
"$prog" intruder "$prov" "$dir/now" "$dir/earlier/key"
rc=$?
[[ -e "$dir/now/done" ]] || echo 1 > "$dir/now/done"  # the intruder stopped early: let the victim check
wait "$victim" || rc=1
exit $rc
