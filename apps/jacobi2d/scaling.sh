#!/usr/bin/env bash
# Weak and strong scaling of every jacobi2d variant, as JSON lines (one per run) for plot.py.
#   weak:   per-PE 1K^2, 2K^2, 4K^2 and 16K^2 (nx = side, ny = side x PEs)
#   strong: 16384^2 in total
# Usage: apps/jacobi2d/scaling.sh [-o results.jsonl] [-p "1 2"] [-b build] [-v "variants"]
#          [-t float|double] [-i iterations] [-s "weak sides"] [-S strong side] [-- jacobi2d flags]
# Runs through build/bin/giorun (Open MPI, --bind-to none). A run whose check fails is recorded
# with "check":"fail" and reported at the end; the script then exits 1.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=jacobi2d_scaling.jsonl
pes="1 2"
build="$here/../../build"
variants="gio gio-launch interk interk-overlap ikn"
type=float
iters=1000
weak_sides="1024 2048 4096 16384"
strong_side=16384
while [[ $# -gt 0 ]]; do
  case "$1" in
    -o) out="$2"; shift 2 ;;
    -p) pes="$2"; shift 2 ;;
    -b) build="$2"; shift 2 ;;
    -v) variants="$2"; shift 2 ;;
    -t) type="$2"; shift 2 ;;
    -i) iters="$2"; shift 2 ;;
    -s) weak_sides="$2"; shift 2 ;;
    -S) strong_side="$2"; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    --) shift; break ;;
    *) echo "scaling.sh: unknown option $1 (see -h)" >&2; exit 2 ;;
  esac
done
extra=("$@")
giorun="$build/bin/giorun"
bin="$build/bin/jacobi2d"
[[ -x "$giorun" && -x "$bin" ]] || { echo "scaling.sh: build $bin first (or pass -b)" >&2; exit 2; }

failed=0
run() {  # run NP NX NY SCALING VARIANT
  local np=$1 nx=$2 ny=$3 kind=$4 v=$5
  echo "== $kind  $v  ${nx}x${ny}  $np PE(s)" >&2
  local tmp
  tmp=$(mktemp)
  if ! "$giorun" -n "$np" "$bin" --variant "$v" --type "$type" --nx "$nx" --ny "$ny" --iters "$iters" \
       --json "$tmp" "${extra[@]}" >&2; then
    echo "scaling.sh: FAILED: $kind $v ${nx}x${ny} on $np PEs" >&2
    failed=1
  fi
  # Tag each line with the experiment it belongs to, so plot.py can tell weak from strong.
  sed "s/^{/{\"scaling\":\"$kind\",/" "$tmp" >> "$out"
  rm -f "$tmp"
}

for v in $variants; do
  for np in $pes; do
    for side in $weak_sides; do
      run "$np" "$side" $((side * np)) weak "$v"
    done
    run "$np" "$strong_side" "$strong_side" strong "$v"
  done
done
echo "scaling.sh: results appended to $out" >&2
exit $failed
