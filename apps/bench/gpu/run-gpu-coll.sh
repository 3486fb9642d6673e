#!/usr/bin/env bash
# One GPU (H100 or H200): the cuda suite of teams and collectives (host
# and kernels) and their fault cases, and gio-bench coll at one PE beside the NVSHMEM twin and
# NCCL in the same run. Several PEs on one GPU are for correctness only: the GPU time-slices
# processes (a ~2 ms floor per step), so the bench's latencies are taken at 1 PE. Run from the
# repo root with the libfabric headers in $LIBFABRIC_INCLUDE (default .carry/fabric/include), as run-gpu-proxy.sh.
#   apps/bench/gpu/run-gpu-coll.sh OUTDIR [parts...]   parts: build suite faults bench bench2
set -uo pipefail
out=${1:?usage: run-gpu-coll.sh OUTDIR [parts...]}; shift
parts=${*:-build suite faults bench}
mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0
B=${GIO_BUILD:-/tmp/gio-cuda}
run() { echo "$*" >> "$out/commands.txt"; timeout "${T:-120}" "$@"; }
has() { [[ " $parts " == *" $1 "* ]] && echo "$(date +%T) $1" >> "$out/times.txt"; }
echo "${GIO_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}" > "$out/commit.txt"
nvidia-smi -L > "$out/device.txt"
fab=$(ls /usr/lib/x86_64-linux-gnu/libfabric.so* 2>/dev/null | head -1)
if has build; then  # only what this script runs
  cmake -S . -B $B -G Ninja -DGIO_PLATFORM=cuda -DGIO_TEST_PES="1;2" -DGIO_FABRIC_INCLUDE=${LIBFABRIC_INCLUDE:-$PWD/.carry/fabric/include} \
    -DGIO_FABRIC=$fab > "$out/build.log" 2>&1
  ninja -C $B -k 0 ${TARGETS:-gio gio-info test_coll test_team test_coll_device fault gio-bench gio-bench-nvshmem \
    gio-bench-nccl} >> "$out/build.log" 2>&1 || grep -E "error|FAILED" "$out/build.log" | head -20
  tail -1 "$out/build.log"
fi
if has suite; then  # every transport; several PEs share the GPU
  (cd $B && GIO_TIMEOUT_MS=30000 T=${ST:-400} run ctest -R "func\.test_(coll|team|coll_device)\." --timeout 150 -j1 \
    --output-on-failure) > "$out/ctest-coll.log" 2>&1
  grep -E "tests passed|Failed|Timeout|Not Run" "$out/ctest-coll.log" | tail -20
fi
if has faults; then
  (cd $B && T=200 run ctest -R "fault\.(dev_)?(coll|team)" -j1 --output-on-failure) > "$out/ctest-faults.log" 2>&1
  grep -E "tests passed|Failed" "$out/ctest-faults.log" | tail -8
fi
if has bench; then  # one PE: the per-call cost and local bandwidth of each library's collectives
  for impl in gio nvshmem; do
    bin=$B/bin/gio-bench; [ $impl = nvshmem ] && bin=$B/bin/gio-bench-nvshmem
    GIO_SYMMETRIC_SIZE=2G NVSHMEM_SYMMETRIC_SIZE=2G T=${BT:-150} run $B/bin/giorun -n 1 $bin coll --scopes wave,wg \
      --max-size ${MAXS:-256M} --json "$out/$impl-coll-1pe.jsonl" > "$out/$impl-coll-1pe.txt" 2>&1
    echo "$impl wave,wg rc=$?"
    GIO_SYMMETRIC_SIZE=2G NVSHMEM_SYMMETRIC_SIZE=2G T=${BT:-150} run $B/bin/giorun -n 1 $bin coll --scopes thread \
      --max-size 1M --json "$out/$impl-coll-1pe-thread.jsonl" > "$out/$impl-coll-1pe-thread.txt" 2>&1
    echo "$impl thread rc=$?"
  done
  T=150 run $B/bin/giorun -n 1 $B/bin/gio-bench-nccl coll --max-size ${MAXS:-256M} --json "$out/nccl-coll-1pe.jsonl" \
    > "$out/nccl-coll-1pe.txt" 2>&1
  echo "nccl rc=$?"
  for f in "$out"/*-coll-1pe*.jsonl; do python3 apps/bench/smoke_test.py --check "$f" --sub coll > /dev/null || echo "check failed: $f"; done
fi
if has bench2; then  # two PEs on the one GPU: every result checked; the times are the time slices'
  GIO_SYMMETRIC_SIZE=2G T=150 run $B/bin/giorun -n 2 $B/bin/gio-bench coll --max-size 1M --iters 20 \
    --json "$out/gio-coll-2pe.jsonl" > "$out/gio-coll-2pe.txt" 2>&1
  echo "gio 2 PEs rc=$?"
fi
