#!/usr/bin/env bash
# One GPU (H100 or H200): the cuda suite of the OpenSHMEM additions (the
# C API, host waits, locks, non-blocking AMOs, strided RMA, symmetric globals, the PMIx bootstrap)
# and their fault cases, the install check, and gio-bench strided (Pearson's cube) with its bound in
# the same run. Several PEs share the one GPU: correctness only. Run from the repo root with the
# libfabric headers in $LIBFABRIC_INCLUDE (default .carry/fabric/include), as run-gpu-coll.sh.
#   apps/bench/gpu/run-gpu-api.sh OUTDIR [parts...]   parts: build suite faults install bench
set -uo pipefail
out=${1:?usage: run-gpu-api.sh OUTDIR [parts...]}; shift
parts=${*:-build suite faults bench}
mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0
B=${GIO_BUILD:-/tmp/gio-cuda}
run() { echo "$*" >> "$out/commands.txt"; timeout "${T:-120}" "$@"; }
has() { [[ " $parts " == *" $1 "* ]] && echo "$(date +%T) $1" >> "$out/times.txt"; }
echo "${GIO_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}" > "$out/commit.txt"
nvidia-smi -L > "$out/device.txt"
fab=$(ls /usr/lib/x86_64-linux-gnu/libfabric.so* 2>/dev/null | head -1)
tests=${TESTS:-test_c_api test_host_wait test_lock test_amo_nbi test_strided test_globals}
if has build; then  # only what this script runs
  cmake -S . -B $B -G Ninja -DGIO_PLATFORM=cuda -DGIO_TEST_PES="2;4" -DGIO_FABRIC_INCLUDE=${LIBFABRIC_INCLUDE:-$PWD/.carry/fabric/include} \
    -DGIO_FABRIC=$fab > "$out/build.log" 2>&1
  ninja -C $B -k 0 ${TARGETS:-gio gio-info $tests test_amo test_coll fault gio-bench} >> "$out/build.log" 2>&1 ||
    grep -E "error|FAILED" "$out/build.log" | head -20
  tail -1 "$out/build.log"
fi
if has suite; then  # every transport; several PEs share the GPU
  re=$(echo $tests | tr ' ' '|')
  (cd $B && GIO_TIMEOUT_MS=30000 T=${ST:-500} run ctest -R "func\.($re)\.${SEL:-}" -E "${EXCL:-two_nodes}" --timeout 150 -j1 \
    --output-on-failure) > "$out/ctest-api${SEL:+-$SEL}.log" 2>&1
  grep -E "tests passed|Failed|Timeout|Not Run" "$out/ctest-api${SEL:+-$SEL}.log" | tail -20
fi
if has boot; then
  (cd $B && T=200 run ctest -L bootstrap -j1 --output-on-failure) > "$out/ctest-bootstrap.log" 2>&1
  grep -E "tests passed|Failed" "$out/ctest-bootstrap.log" | tail -8
fi
if has faults; then
  (cd $B && T=300 run ctest -R "fault\.(dev_)?(lock|strided|iput|iget|subarray|host_wait|wait|hints|globals|nbi|c_)" -j1 \
    --output-on-failure) > "$out/ctest-faults.log" 2>&1
  grep -E "tests passed|Failed" "$out/ctest-faults.log" | tail -8
fi
if has install; then  # the installed package: oshc++, find_package, pkg-config, oshcc (C11)
  T=300 run tests/install/check.sh $B > "$out/install.log" 2>&1; echo "install rc=$?"
fi
if has bench; then  # one PE into its own second cube; bound = the same bytes as one contiguous put
  GIO_SYMMETRIC_SIZE=3G GIO_TRANSPORT=p2p T=${BT:-300} run $B/bin/giorun -n 1 $B/bin/gio-bench strided \
    --json "$out/gio-strided.jsonl" > "$out/gio-strided.csv" 2>&1
  echo "strided rc=$?"
  python3 apps/bench/smoke_test.py --check "$out/gio-strided.jsonl" --sub strided > /dev/null || echo "check failed"
fi
