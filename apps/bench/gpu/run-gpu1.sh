#!/usr/bin/env bash
# The one-GPU checks (H200 or H100): run from the repo root.
#   apps/bench/gpu/run-gpu1.sh OUTDIR [parts...]   parts: build p2p gda1 gda2 sanitizer post callcost
# callcost: cycles per put_nbi call at each scope, 8 B..4 KiB, against raw stores in the
# same kernel, GIO and NVSHMEM, PE 0 putting to PE 1 on the same GPU and to itself.
# PEs share the one GPU (p2p over CUDA IPC works; gda atomics through the softnic time-slice between
# processes, so the gda suite runs at 1 PE, plus the new gda cases at 2 PEs).
set -uo pipefail
out=${1:?usage: run-gpu1.sh OUTDIR [parts...]}; shift
parts=${*:-build p2p gda1 gda2 sanitizer post}
mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0
B=${GIO_BUILD:-/tmp/gio-cuda}
run() { echo "$*" >> "$out/commands.txt"; timeout "${T:-120}" "$@"; }
has() { [[ " $parts " == *" $1 "* ]] && echo "$(date +%T) $1" >> "$out/times.txt"; }
echo "${GIO_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}" > "$out/commit.txt"
nvidia-smi -L > "$out/device.txt"
if has build; then
  cmake -S . -B $B -G Ninja -DGIO_PLATFORM=cuda -DGIO_TEST_PES="1;2" > "$out/build.log" 2>&1
  ninja -C $B -k 0 >> "$out/build.log" 2>&1 || grep -E "error|FAILED" "$out/build.log" | head -20
fi
if has p2p; then  # the cuda suite over p2p at 1 and 2 PEs (no gda, stress or fuzz)
  (cd $B && T=${PT:-330} run ctest -E "stress|fuzz|gda|tools" --timeout 120 -j3 --output-on-failure) > "$out/ctest-p2p.log" 2>&1
  tail -12 "$out/ctest-p2p.log"
fi
if has gda1; then  # the gda suite at 1 PE, one test at a time (two processes on one GPU time-slice the softnic's atomic kernels)
  (cd $B && GIO_TIMEOUT_MS=20000 T=${G1T:-200} run ctest -R "gda.*np1" -E "stress|fuzz" --timeout 100 -j1 --output-on-failure) > "$out/ctest-gda1.log" 2>&1
  tail -12 "$out/ctest-gda1.log"
fi
if has gda2; then  # the new gda cases at 2 PEs on one GPU
  (cd $B && GIO_TIMEOUT_MS=30000 T=${G2T:-240} run ctest -R "${G2R:-(local_buffers|gda_wave|host_completion|host_).*gda.np2}" --timeout 120 -j1 --output-on-failure) > "$out/ctest-gda2.log" 2>&1
  tail -12 "$out/ctest-gda2.log"
fi
if has sanitizer; then  # compute-sanitizer memcheck and racecheck over the p2p RMA paths (1 PE: 2 PEs over IPC are not supported by it)
  for tool in memcheck racecheck; do
    for t in ${SAN_TESTS:-test_local_buffers test_rma}; do
      GIO_TRANSPORT=p2p T=150 run compute-sanitizer --tool $tool --error-exitcode 9 $B/bin/$t > "$out/san-$tool-$t.txt" 2>&1
      echo "$tool $t rc=$?" >> "$out/sanitizer.txt"
    done
  done
  cat "$out/sanitizer.txt"; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" "$out"/san-*.txt
fi
if has callcost; then
  for impl in gio nvshmem; do
    bin=$B/bin/gio-bench; [[ $impl == nvshmem ]] && bin=$B/bin/gio-bench-nvshmem
    [[ -x $bin ]] || { echo "callcost: $bin not built" >> "$out/callcost-$impl.txt"; continue; }
    GIO_TRANSPORT=p2p run $B/bin/giorun -n 2 "$bin" callcost --json "$out/callcost-$impl.jsonl" > "$out/callcost-$impl.txt" 2>&1
    GIO_TRANSPORT=p2p run $B/bin/giorun -n 1 "$bin" callcost --json "$out/callcost-$impl-self.jsonl" > "$out/callcost-$impl-self.txt" 2>&1
    cat "$out/callcost-$impl.txt" "$out/callcost-$impl-self.txt"
  done
fi
if has post; then
  run $B/bin/gio-gda-post --json "$out/gda_post.jsonl" > "$out/gda_post.txt" 2>&1; cat "$out/gda_post.txt"
fi
