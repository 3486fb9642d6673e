#!/usr/bin/env bash
# The one-GPU runs of spts, from the repo root on the GPU machine:
#   apps/spts/run-gpu.sh OUTDIR [parts...]   parts: build tests suite measure
#   build:   the cuda tree in $GIO_BUILD (default /tmp/gio-cuda; outside the work tree, so it
#            survives between calls), GIO_TEST_PES="1;2"
#   tests:   ctest -L spts (the app's cases; PEs share the one GPU)
#   suite:   the cuda suite over p2p at 1 and 2 PEs (as apps/bench/gpu/run-gpu1.sh p2p)
#   measure: apps/spts/measure.sh with SIZES (default "1000000 4000000") and KINDS
set -uo pipefail
out=${1:?usage: run-gpu-spts.sh OUTDIR [parts...]}; shift
parts=${*:-build tests}
mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0
B=${GIO_BUILD:-/tmp/gio-cuda}
has() { [[ " $parts " == *" $1 "* ]] && echo "$(date +%T) $1" >> "$out/times.txt"; }
echo "${GIO_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}" > "$out/commit.txt"
nvidia-smi -L > "$out/device.txt"
if has build; then
  cmake -S . -B $B -G Ninja -DGIO_PLATFORM=cuda -DGIO_TEST_PES="1;2" > "$out/build.log" 2>&1
  ninja -C $B -k 0 ${TARGETS:-} >> "$out/build.log" 2>&1 || grep -E "error|FAILED" "$out/build.log" | head -20
fi
if has tests; then
  (cd $B && timeout ${TT:-400} ctest -L spts --timeout 120 -j${TJ:-4} --output-on-failure) > "$out/ctest-spts.log" 2>&1
  tail -15 "$out/ctest-spts.log"
fi
if has suite; then
  (cd $B && timeout ${PT:-330} ctest -E "stress|fuzz|gda|tools|spts" --timeout 120 -j3 --output-on-failure) > "$out/ctest-p2p.log" 2>&1
  tail -8 "$out/ctest-p2p.log"
fi
if has measure; then
  echo "apps/spts/measure.sh -b $B -o $out/spts_1gpu.jsonl -s \"${SIZES:-1000000 4000000}\" -k \"${KINDS:-grid2d grid3d road rmat banded}\"" >> "$out/commands.txt"
  timeout ${MT:-500} apps/spts/measure.sh -b $B -o "$out/spts_1gpu.jsonl" -s "${SIZES:-1000000 4000000}" \
    -k "${KINDS:-grid2d grid3d road rmat banded}" > "$out/measure.txt" 2>&1
  echo "measure rc=$?"; cat "$out/measure.txt" | grep -E "^==|solve|GFLOP|FAIL|error" | head -150
fi
