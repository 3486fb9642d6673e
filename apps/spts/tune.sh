#!/usr/bin/env bash
# Backoff, block size and kernel sweep of spts's sync-free kernel (`single`) on one GPU, and a
# diagnostic run of the warp kernel's queue exchange over gda.
#   apps/spts/tune.sh OUTDIR BUILD [backoff|wgs|rows]   (wgs: only at d9e9bb0, see below)
set -uo pipefail
out=${1:?OUTDIR}; B=${2:-/tmp/gio-cuda}; part=${3:-backoff}
mkdir -p "$out"
S() { echo "spts $*" >> "$out/commands.txt"; timeout 120 $B/bin/giorun -n 1 $B/bin/spts --variant single --no-refs --type float --reps 3 --json "$out/tune.jsonl" "$@" 2>&1 | grep -E "^spts|solve |check" ; }
if [[ $part == rows ]]; then  # rows entering the device by level (default) or in natural order
  for g in grid2d:rows=4000000 grid3d:rows=4000000 rmat:rows=4000000,deg=6 road:rows=4000000; do
    for r in level natural; do S --gen $g --rows $r; done
  done
  for r in level natural; do S --gen grid2d:rows=4000000 --order random --rows $r; done
  for r in level natural; do S --gen banded:rows=1000000 --rows $r --reps 1 --warmup 0; done
  exit 0
fi
if [[ $part == wgs ]]; then  # the persistent grid's size: measured at d9e9bb0, then dropped
  echo "spts-tune.sh: --wgs (the persistent grid) is no longer an option of spts" >&2
  exit 2
fi
for bo in 0 200 1000 4000; do S --gen grid2d:rows=4000000 --backoff $bo; done
for b in 64 128; do S --gen grid2d:rows=4000000 --backoff 1000 --block $b; done
for bo in 0 200 1000 4000; do S --gen grid3d:rows=4000000 --backoff $bo; done
for k in thread warp; do for bo in 0 1000; do S --gen rmat:rows=4000000,deg=6 --kernel $k --backoff $bo; done; done
for bo in 0 1000 4000; do S --gen road:rows=4000000 --order random --backoff $bo; done
for bo in 0 1000; do S --gen grid2d:rows=4000000 --order random --backoff $bo; done
for bo in 0 1000; do S --gen banded:rows=1000000 --backoff $bo --reps 1 --warmup 0; done
echo "== warp queue over gda, 2 PEs on one GPU"
GIO_TRANSPORT=gda timeout 60 $B/bin/giorun -n 2 $B/bin/spts --variant gio --kernel warp --exchange queue --gen grid3d:n=8 --reps 1 --no-refs --timeout 15 2>&1 | tail -12
