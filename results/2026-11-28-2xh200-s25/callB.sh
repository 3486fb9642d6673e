#!/usr/bin/env bash
# Session 25, call B (nvidia-h200-x2): why b4bca12 and head+checks-first-oldpe, whose k_stream<b_wave>
# machine code is the same but for register numbers (built and compared here), differ by 20 % in
# wave message rate (call a: 4,241-4,247 against 3,539). Nsight Compute on the 132 work-group, 1000
# iteration wave msgrate kernel of head, b4bca12 and oldpe; and the device-side fault tests at head.
# Usage, from the repo root: callB.sh OUT
set -uo pipefail
out=${1:?}; mkdir -p "$out"
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0 GIO_TIMEOUT_MS=300000
fab=$(ls /usr/lib/x86_64-linux-gnu/libfabric.so* | head -1)
P=results/2026-11-28-4xh200-s24/variants/checks-first-oldpe.patch
rm -rf /tmp/gio-oldpe && mkdir -p /tmp/gio-oldpe && tar -c --exclude='./build*' --exclude=./.git . | tar -x -C /tmp/gio-oldpe &&
  patch -d /tmp/gio-oldpe -sp1 < $P
( cmake -S . -B build-gpu -G Ninja -DGIO_PLATFORM=cuda -DGIO_TEST_PES=2 -DGIO_FABRIC_INCLUDE=$PWD/.carry/fabric/include \
    -DGIO_FABRIC=$fab && ninja -C build-gpu gio-bench fault fault_contract ) > "$out/build-head.log" 2>&1 &
( git worktree add -f /tmp/gio-b4 b4bca12 && cmake -S /tmp/gio-b4 -B /tmp/build-b4 -G Ninja -DGIO_PLATFORM=cuda \
    -DGIO_BUILD_TESTS=OFF && GIO_COMMIT=b4bca12 ninja -C /tmp/build-b4 gio-bench ) > "$out/build-b4.log" 2>&1 &
( cmake -S /tmp/gio-oldpe -B /tmp/build-oldpe -G Ninja -DGIO_PLATFORM=cuda -DGIO_BUILD_TESTS=OFF &&
    GIO_COMMIT=${GIO_COMMIT:-head}+oldpe ninja -C /tmp/build-oldpe gio-bench ) > "$out/build-oldpe.log" 2>&1 &
wait
date +%T > "$out/times.txt"
R=build-gpu/bin/giorun
for b in head:build-gpu b4:/tmp/build-b4 oldpe:/tmp/build-oldpe; do
  n=${b%%:*}; d=${b#*:}
  echo "$d/bin/gio-bench msgrate --scope wave --wgs 132 --iters 1000" >> "$out/commands.txt"
  timeout 60 $R -n 2 $d/bin/gio-bench msgrate --scope wave --wgs 132 --iters 1000 > "$out/rate-$n.txt" 2>&1
  timeout 240 $R -n 2 ncu --target-processes all -k regex:k_stream --launch-skip 1 -c 1 \
    --section SpeedOfLight --section SchedulerStats --section WarpStateStats --section InstructionStats \
    --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis --section SourceCounters \
    -o /tmp/ncu-$n -f $d/bin/gio-bench msgrate --scope wave --wgs 132 --iters 1000 --reps 3 > "$out/ncu-run-$n.txt" 2>&1
  ncu -i /tmp/ncu-$n.ncu-rep --print-details all > "$out/ncu-$n.txt" 2>&1
  ncu -i /tmp/ncu-$n.ncu-rep --page raw --csv > "$out/ncu-raw-$n.csv" 2>&1
  cp /tmp/ncu-$n.ncu-rep "$out/" 2>/dev/null
  date +%T >> "$out/times.txt"
done
( cd build-gpu && timeout 200 ctest -R "fault\.dev" --timeout 60 --stop-time "$(date -d '+185 seconds' +%H:%M:%S)" ) > "$out/ctest-fault-dev.log" 2>&1
tail -5 "$out/ctest-fault-dev.log"; grep -h "wave" "$out"/rate-*.txt
