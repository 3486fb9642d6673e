#!/usr/bin/env bash
# spts on 2 GPUs (nvidia-h200-x2), from the repo root.
#   apps/spts/run-gpu2.sh OUTDIR [scaling|xchg]
#   scaling: signal vs queue exchange with gio and
#           levelset at 2 PEs, then apps/spts/scaling.sh at 1 and 2 PEs
#   xchg:   signal vs atomic exchange at 2 PEs
set -uo pipefail
out=${1:?OUTDIR}; part=${2:-scaling}; mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0
B=${GIO_BUILD:-/tmp/gio-cuda}
nvidia-smi -L > "$out/device.txt"
(cmake -S . -B $B -G Ninja -DGIO_PLATFORM=cuda && ninja -C $B spts) > "$out/build.log" 2>&1 || tail -20 "$out/build.log"
NP=2
X() { echo "giorun -n $NP spts $*" >> "$out/commands.txt"
      timeout 120 $B/bin/giorun -n $NP $B/bin/spts --type float --reps 10 --json "$out/exchange.jsonl" "$@" 2>&1 | grep -E "^spts|solve |check|vs single" ; }
inputs=("road:rows=14000000 random" "grid2d:rows=16000000 random" "rmat:rows=4000000,deg=6 natural" "grid2d:rows=4000000 natural")
if [[ $part == xchg ]]; then
  for g in "${inputs[@]}" "road:rows=8000000 random"; do
    set -- $g
    for x in signal atomic; do X --variant gio --exchange $x --no-refs --gen $1 --order $2; done
  done
  NP=1 X --variant gio --exchange atomic --no-refs --gen road:rows=14000000 --order random
  exit 0
fi
for g in "${inputs[@]}"; do
  set -- $g
  X --variant gio,levelset --gen $1 --order $2
  X --variant gio --exchange queue --no-refs --gen $1 --order $2
done
echo "apps/spts/scaling.sh -b $B -o $out -p \"1 2\"" >> "$out/commands.txt"
timeout ${ST:-330} apps/spts/scaling.sh -b $B -o "$out" -p "1 2" 2>&1 | grep -E "^==|FAILED|solve |efficiency" | tail -60
