#!/usr/bin/env bash
# pmix_run.sh GIORUN N EXPECT PROGRAM [args]: runs PROGRAM on N PEs under giorun (Open MPI's mpirun,
# whose daemons serve PMIx to the processes they start) with GIO_DEBUG=1, and passes when it exits 0
# and every PE's init line names the bootstrap EXPECT ("pmix (set by GIO_BOOTSTRAP=pmix)", ...).
# GIO_BOOTSTRAP and anything else come from the environment ctest sets.
set -uo pipefail
giorun=$1 np=$2 expect=$3
shift 3
out=$(GIO_DEBUG=1 "$giorun" -n "$np" "$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [[ $rc -ne 0 ]]; then echo "pmix_run.sh: exit status $rc" >&2; exit 1; fi
seen=$(grep -c "^GIO: PE [0-9]*: .*; bootstrap $expect" <<<"$out")
if [[ $seen -ne $np ]]; then
  echo "pmix_run.sh: $seen of $np PEs report 'bootstrap $expect'" >&2
  exit 1
fi
echo "pmix_run.sh: all $np PEs bootstrapped over: $expect"
