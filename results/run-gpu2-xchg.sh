#!/usr/bin/env bash
# spts on 2 GPUs: the signal and atomic exchanges side by side (results/run-gpu2-xchg.sh OUTDIR).
set -uo pipefail
out=${1:?OUTDIR}; mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0
B=${GIO_BUILD:-/tmp/gio-cuda}
nvidia-smi -L > "$out/device.txt"
(cmake -S . -B $B -G Ninja -DGIO_PLATFORM=cuda && ninja -C $B spts) > "$out/build.log" 2>&1 || tail -20 "$out/build.log"
X() { echo "giorun -n $NP spts $*" >> "$out/commands.txt"
      timeout 120 $B/bin/giorun -n $NP $B/bin/spts --type float --reps 10 --no-refs --json "$out/exchange.jsonl" "$@" 2>&1 | grep -E "^spts|solve |check" ; }
NP=2
for g in "road:rows=14000000 random" "grid2d:rows=16000000 random" "rmat:rows=4000000,deg=6 natural" "grid2d:rows=4000000 natural" "road:rows=8000000 random"; do
  set -- $g
  for x in signal atomic; do X --variant gio --exchange $x --gen $1 --order $2; done
done
NP=1 X --variant gio --exchange atomic --gen road:rows=14000000 --order random
