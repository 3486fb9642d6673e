#!/usr/bin/env bash
# Deep (many-level) and shallow inputs on one GPU: the sync-free solve renumbered by level and in
# L's own order against cuSPARSE SpSV, the limits it runs into, and the distributed solve (several
# PEs sharing the GPU) for correctness; float, JSON lines in OUT/spts.jsonl, each run's report in
# OUT/log.txt.
# Usage: apps/spts/measure_deep.sh [-b build] [-o OUT] [-r reps] [-c cache] [-p parts] [-t limit_s]
#   parts (default "deep shallow limits dist"):
#   deep     grid2d and grid3d at 4M and 16M rows, natural order: single, cusparse, gio at 1 PE,
#            single with --renumber tiles
#   shallow  grid2d/grid3d random order, road and rmat (16M) both orders, banded (1M, a chain):
#            cusparse, then single with --renumber level and with none
#   limits   one dependency hop through L2 (a chain, --chunk-deps global, a row per hop), one
#            through shared memory (the same chain, --chunk-deps shared), the grid's per-level cost
#            with --chunk-deps global, --backoff and --poll-batch 1, grid3d with smaller work-groups
#   dist     gio at 2 and 4 PEs on the one GPU, renumbered by level, deep inputs (correctness:
#            the PEs' kernels time-slice the GPU, so their times are not the solve's)
#   prep     preprocessing against cuSPARSE's analysis: grid2d and grid3d at 4M and 16M rows,
#            natural order; single in level order and in tiles with the analysis on the device
#            (--analysis compare: checked against the host's, outside prep) and on the host, and
#            cuSPARSE in the first run; each grid also with 2 and 8 rows a thread of the levels
#            kernel (--analysis-rows; 1 in the runs before), and solved in L's order (--renumber
#            none): the levels kernel's counterpart, a sync-free pass over the same dependencies
#            in the same order, with a value instead of a level. Each run's prep line is its
#            preprocessing, uploads included; its prep - uploads line is what compares with
#            cuSPARSE's prep, and its device line has the analysis's phases.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build="$here/../../build"
out=spts_deep
reps=3
cache=""
parts="deep shallow limits dist"  # prep runs only when named
limit=300  # seconds per spts run
while [[ $# -gt 0 ]]; do
  case "$1" in
    -b) build="$2"; shift 2 ;;
    -o) out="$2"; shift 2 ;;
    -r) reps="$2"; shift 2 ;;
    -c) cache="$2"; shift 2 ;;
    -p) parts="$2"; shift 2 ;;
    -t) limit="$2"; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "measure_deep.sh: unknown option $1 (see -h)" >&2; exit 2 ;;
  esac
done
bin="$build/bin/spts"
[[ -x "$bin" ]] || { echo "measure_deep.sh: build $bin first (or pass -b)" >&2; exit 2; }
mkdir -p "$out"
json="$out/spts.jsonl"
log="$out/log.txt"
cargs=()
[[ -n "$cache" ]] && { mkdir -p "$cache"; cargs=(--cache "$cache"); }
failed=0
# run NP ARGS...: one spts run, its report appended to the log.
run() {
  local np=$1 one rc
  shift
  one=$(mktemp)
  echo "== -n $np $*" | tee -a "$log"
  timeout "$limit" "$build/bin/giorun" -n "$np" "$bin" --type float --json "$json" "${cargs[@]}" "$@" >"$one" 2>&1
  rc=$?
  cat "$one" >>"$log"
  grep -E "^spts |^  device|^  (prep|solve|check) " "$one" | sed 's/^/   /'
  if [[ $rc -ne 0 ]]; then
    failed=1
    echo "   FAILED (exit $rc)" | tee -a "$log"
  fi
  rm -f "$one"
}
for part in $parts; do
  case $part in
    deep)
      for g in grid2d:rows=4000000 grid2d:rows=16000000 grid3d:rows=4000000 grid3d:rows=16000000; do
        run 1 --variant single,cusparse,gio --gen "$g" --reps "$reps"
        run 1 --variant single --renumber tiles --gen "$g" --reps "$reps" --no-refs
      done ;;
    shallow)
      for go in grid2d:rows=4000000/random grid2d:rows=16000000/random grid3d:rows=16000000/random \
                road:rows=16000000/natural road:rows=16000000/random rmat:rows=16000000,deg=6/natural \
                rmat:rows=16000000,deg=6/random; do
        g=${go%/*} ord=${go#*/}
        run 1 --variant cusparse --gen "$g" --order "$ord" --reps "$reps" --no-refs
        for rn in level none; do run 1 --variant single --renumber $rn --gen "$g" --order "$ord" --reps "$reps" --no-refs; done
      done
      run 1 --variant single,cusparse --gen banded:rows=1000000 --reps 1 ;;
    limits)
      # A chain of 200k rows, each depending on the one before: the time per row is one hop.
      run 1 --variant single --gen banded:rows=200000,band=1 --chunk-deps global --block 32 --reps "$reps" --no-refs
      run 1 --variant single --gen banded:rows=200000,band=1 --chunk-deps shared --reps "$reps" --no-refs
      run 1 --variant cusparse --gen banded:rows=200000,band=1 --reps "$reps" --no-refs
      run 1 --variant single --gen grid2d:rows=4000000 --chunk-deps global --reps "$reps" --no-refs
      for ns in 100 400; do run 1 --variant single --gen grid2d:rows=4000000 --backoff $ns --reps "$reps" --no-refs; done
      for bl in 64 128; do run 1 --variant single --gen grid3d:rows=16000000 --block $bl --reps "$reps" --no-refs; done
      for g in grid2d:rows=4000000 grid3d:rows=16000000; do
        run 1 --variant single --gen $g --poll-batch 1 --reps "$reps" --no-refs
      done ;;
    dist)
      for np in 2 4; do
        for g in grid2d:n=128 grid3d:n=24 banded:n=3000,band=2; do
          run $np --variant gio --renumber level --gen "$g" --reps 2 --no-refs --timeout 30
        done
        run $np --variant gio --renumber level --gen road:rows=50000 --order random --reps 2 --no-refs --timeout 30
      done ;;
    prep)
      for g in grid2d:rows=4000000 grid2d:rows=16000000 grid3d:rows=4000000 grid3d:rows=16000000; do
        run 1 --variant single,cusparse --renumber level --analysis compare --gen "$g" --reps "$reps" --no-refs
        run 1 --variant single --renumber level --analysis host --gen "$g" --reps "$reps" --no-refs
        run 1 --variant single --renumber tiles --analysis compare --gen "$g" --reps "$reps" --no-refs
        run 1 --variant single --renumber tiles --analysis host --gen "$g" --reps "$reps" --no-refs
      done
      for g in grid2d:rows=4000000 grid2d:rows=16000000 grid3d:rows=4000000 grid3d:rows=16000000; do
        run 1 --variant single --renumber none --gen "$g" --reps "$reps" --no-refs
        for k in 2 8; do
          run 1 --variant single --renumber tiles --analysis-rows $k --gen "$g" --reps "$reps" --no-refs
        done
      done ;;
    *) echo "measure_deep.sh: unknown part $part" >&2; exit 2 ;;
  esac
done
exit $failed
