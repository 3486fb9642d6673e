#!/usr/bin/env bash
# Strong and weak scaling of the distributed spts variants, as JSON lines for plot.py.
#   strong: each fixed input (-s) at every PE count                  -> OUTDIR/strong.jsonl
#   weak:   each generator (-g) at -w rows per PE, so rows = w x PEs -> OUTDIR/weak.jsonl
# Usage: apps/spts/scaling.sh [-o outdir] [-p "1 2 4"] [-b build] [-v "gio levelset ikn"] [-t float|double]
#          [-s "GEN@ORDER ..."] [-g "KIND[:params]@ORDER ..."] [-w rows per PE] [-r reps] [-n]
#          [-- spts flags]
#   defaults: -s "road:rows=14000000@random grid2d:rows=16000000@natural"
#             -g "road@random grid2d@natural" -w 4000000 -t float -r 10
#   -n prints the runs without running them.
# Every line is tagged "scaling":"strong"|"weak" (weak ones also "per_pe_rows"), so the files may
# be merged; plot.py also takes the kind from a file name holding "strong" or "weak". Strong runs
# time `single` and the vendor solve on PE 0 too (efficiency vs single on 1 PE); weak runs pass
# --no-refs (their efficiency is the variant's own 1-PE time / time). Runs through
# build/bin/giorun (Open MPI). A run whose check fails is recorded with "check":"fail" and
# reported at the end; the script then exits 1.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
outdir=spts_scaling
pes="1 2 4"
build="$here/../../build"
variants="gio levelset ikn"
type=float
strong="road:rows=14000000@random grid2d:rows=16000000@natural"
weak="road@random grid2d@natural"
per_pe=4000000
reps=10
dry=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    -o) outdir="$2"; shift 2 ;;
    -p) pes="$2"; shift 2 ;;
    -b) build="$2"; shift 2 ;;
    -v) variants="$2"; shift 2 ;;
    -t) type="$2"; shift 2 ;;
    -s) strong="$2"; shift 2 ;;
    -g) weak="$2"; shift 2 ;;
    -w) per_pe="$2"; shift 2 ;;
    -r) reps="$2"; shift 2 ;;
    -n) dry=1; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    --) shift; break ;;
    *) echo "scaling.sh: unknown option $1 (see -h)" >&2; exit 2 ;;
  esac
done
extra=("$@")
giorun="$build/bin/giorun"
bin="$build/bin/spts"
if [[ $dry -eq 0 ]]; then
  [[ -x "$giorun" && -x "$bin" ]] || { echo "scaling.sh: build $bin first (or pass -b)" >&2; exit 2; }
  mkdir -p "$outdir" || exit 2
fi
die() { echo "scaling.sh: $*" >&2; exit 2; }
[[ "$per_pe" =~ ^[1-9][0-9]*$ ]] || die "-w wants a positive row count, got '$per_pe'"
for item in $strong $weak; do
  [[ $item == *@* ]] || die "'$item' wants GEN@ORDER (e.g. road:rows=1000000@random)"
done

failed=0
run() {  # run KIND NP GEN ORDER VARIANT TAG [spts flags...]
  local kind=$1 np=$2 gen=$3 order=$4 v=$5 tag=$6
  shift 6
  local cmd=("$giorun" -n "$np" "$bin" --variant "$v" --type "$type" --gen "$gen" --order "$order"
             --reps "$reps" "$@" "${extra[@]}")
  if [[ $dry -eq 1 ]]; then
    echo "$kind: ${cmd[*]}"
    return
  fi
  echo "== $kind  $v  $gen $order  $np PE(s)" >&2
  local tmp
  tmp=$(mktemp)
  if ! "${cmd[@]}" --json "$tmp" >&2; then
    echo "scaling.sh: FAILED: $kind $v $gen $order on $np PEs" >&2
    failed=1
  fi
  # The app has no tag option: mark each line with its experiment here.
  sed "s/^{/{$tag/" "$tmp" >> "$outdir/$kind.jsonl"
  rm -f "$tmp"
}

for v in $variants; do
  for np in $pes; do
    for item in $strong; do
      run strong "$np" "${item%@*}" "${item##*@}" "$v" '"scaling":"strong",'
    done
    for item in $weak; do
      gen=${item%@*}
      rows=$((per_pe * np))
      # KIND -> KIND:rows=N; KIND:params -> KIND:params,rows=N
      if [[ $gen == *:* ]]; then gen="$gen,rows=$rows"; else gen="$gen:rows=$rows"; fi
      run weak "$np" "$gen" "${item##*@}" "$v" "\"scaling\":\"weak\",\"per_pe_rows\":$per_pe," --no-refs
    done
  done
done
[[ $dry -eq 1 ]] || echo "scaling.sh: results appended to $outdir/strong.jsonl and $outdir/weak.jsonl" >&2
exit $failed
