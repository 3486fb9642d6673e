#!/usr/bin/env bash
# Issue 14 on one GPU (nvidia-h200 / nvidia-h100-x1): the cuda suite over the proxy transport, and
# put latency over p2p, gda (softnic) and proxy in the same run. Run from the repo root with the
# libfabric headers carried (.carry/fabric/include: Debian's libfabric-dev 1.17; the image has
# the runtime library only).
#   results/run-gpu-proxy.sh OUTDIR [parts...]   parts: build suite lat
set -uo pipefail
out=${1:?usage: run-gpu-proxy.sh OUTDIR [parts...]}; shift
parts=${*:-build suite lat}
mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0
B=${GIO_BUILD:-/tmp/gio-cuda}
run() { echo "$*" >> "$out/commands.txt"; timeout "${T:-120}" "$@"; }
has() { [[ " $parts " == *" $1 "* ]] && echo "$(date +%T) $1" >> "$out/times.txt"; }
echo "${GIO_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}" > "$out/commit.txt"
nvidia-smi -L > "$out/device.txt"
fab=$(ls /usr/lib/x86_64-linux-gnu/libfabric.so* 2>/dev/null | head -1)
if has build; then
  cmake -S . -B $B -G Ninja -DGIO_PLATFORM=cuda -DGIO_TEST_PES="1;2" -DGIO_FABRIC_INCLUDE=$PWD/.carry/fabric/include \
    -DGIO_FABRIC=$fab > "$out/build.log" 2>&1
  ninja -C $B -k 0 >> "$out/build.log" 2>&1 || grep -E "error|FAILED" "$out/build.log" | head -20
  grep -E "libfabric|proxy" "$out/build.log" | head -3
  (fi_info -l 2>&1 || true) | head -20 > "$out/fi_info.txt"
fi
if has suite; then  # the suite over the proxy (GPU heaps are staged) at 1 and 2 PEs on the one GPU
  (cd $B && GIO_TIMEOUT_MS=30000 T=${ST:-400} run ctest -R "\.proxy(_tcp)?\.np" -E "stress" --timeout 120 -j2 --output-on-failure) > "$out/ctest-proxy.log" 2>&1
  tail -15 "$out/ctest-proxy.log"
fi
if has lat; then  # put latency, 8 B to 4 MiB, thread scope, 2 PEs on one GPU, each transport in turn
  for tr in p2p gda proxy; do
    GIO_TRANSPORT=$tr T=150 run $B/bin/giorun -n 2 $B/bin/gio-bench put_latency --scope thread --min-size 8 --max-size 4M \
      --step 8 --iters ${LI:-200} --warmup 20 --reps 3 --json "$out/lat-$tr.jsonl" > "$out/lat-$tr.txt" 2>&1
    echo "$tr rc=$?"; tail -10 "$out/lat-$tr.txt"
  done
fi
