#!/usr/bin/env bash
# The one-GPU table: every generator at 1M, 4M and 16M rows (banded, a chain with as
# many levels as rows: 1M only), natural and random order; single, cusparse, gio at 1 PE and
# levelset on each, float, as JSON lines for plot.py.
# Usage: apps/spts/measure.sh [-o out.jsonl] [-b build] [-s "1000000 4000000 16000000"]
#          [-k "grid2d grid3d road rmat banded"] [-t float|double] [-r reps] [-- spts flags]
# Each input is generated once per invocation of spts (--variant single,cusparse,gio,levelset).
# No ikn: at 1 PE it has no peer to reach through the proxy, so it would time gio again
# (scaling.sh runs it on several PEs).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=spts_1gpu.jsonl
build="$here/../../build"
sizes="1000000 4000000 16000000"
kinds="grid2d grid3d road rmat banded"
type=float
reps=5
while [[ $# -gt 0 ]]; do
  case "$1" in
    -o) out="$2"; shift 2 ;;
    -b) build="$2"; shift 2 ;;
    -s) sizes="$2"; shift 2 ;;
    -k) kinds="$2"; shift 2 ;;
    -t) type="$2"; shift 2 ;;
    -r) reps="$2"; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    --) shift; break ;;
    *) echo "measure.sh: unknown option $1 (see -h)" >&2; exit 2 ;;
  esac
done
extra=("$@")
bin="$build/bin/spts"
[[ -x "$bin" ]] || { echo "measure.sh: build $bin first (or pass -b)" >&2; exit 2; }
failed=0
for kind in $kinds; do
  for rows in $sizes; do
    gen="$kind:rows=$rows"
    r=$reps variants=single,cusparse,gio,levelset
    case $kind in
      rmat) gen="$gen,deg=6" ;;
      banded) [[ $rows -gt 1000000 ]] && continue; r=1 ;;  # a chain: levelset launches n kernels
    esac
    for ord in natural random; do
      echo "== $gen $ord"
      "$build/bin/giorun" -n 1 "$bin" --variant $variants --gen "$gen" --order $ord --type $type \
        --reps $r --json "$out" "${extra[@]}" | grep -E "^spts |solve |GFLOP|vs |check" || failed=1
    done
  done
done
exit $failed
