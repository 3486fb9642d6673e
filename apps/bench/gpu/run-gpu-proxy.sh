#!/usr/bin/env bash
# One GPU (H200 or H100): the cuda suite over the proxy transport, and
# put latency over p2p, gda (softnic) and proxy in the same run. Run from the repo root with the
# libfabric headers in $LIBFABRIC_INCLUDE (default .carry/fabric/include: Debian's libfabric-dev
# 1.17, for machines that have the runtime library only).
#   apps/bench/gpu/run-gpu-proxy.sh OUTDIR [parts...]   parts: build suite rest lat self post timeslice probe bw
set -uo pipefail
out=${1:?usage: run-gpu-proxy.sh OUTDIR [parts...]}; shift
parts=${*:-build suite lat self post timeslice probe bw}
mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0
B=${GIO_BUILD:-/tmp/gio-cuda}
run() { echo "$*" >> "$out/commands.txt"; timeout "${T:-120}" "$@"; }
has() { [[ " $parts " == *" $1 "* ]] && echo "$(date +%T) $1" >> "$out/times.txt"; }
echo "${GIO_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}" > "$out/commit.txt"
nvidia-smi -L > "$out/device.txt"
fab=$(ls /usr/lib/x86_64-linux-gnu/libfabric.so* 2>/dev/null | head -1)
if has build; then
  cmake -S . -B $B -G Ninja -DGIO_PLATFORM=cuda -DGIO_TEST_PES="1;2" -DGIO_FABRIC_INCLUDE=${LIBFABRIC_INCLUDE:-$PWD/.carry/fabric/include} \
    -DGIO_FABRIC=$fab > "$out/build.log" 2>&1
  ninja -C $B -k 0 >> "$out/build.log" 2>&1 || grep -E "error|FAILED" "$out/build.log" | head -20
  grep -E "libfabric|proxy" "$out/build.log" | head -3
  (fi_info -l 2>&1 || true) | head -20 > "$out/fi_info.txt"
fi
if has suite; then  # the suite over the proxy (GPU heaps are staged) at 1 and 2 PEs on the one GPU
  (cd $B && GIO_TIMEOUT_MS=30000 T=${ST:-400} run ctest -R "\.proxy(_tcp)?\.np" -E "stress" --timeout 120 -j2 --output-on-failure) > "$out/ctest-proxy.log" 2>&1
  tail -15 "$out/ctest-proxy.log"
fi
if has rest; then  # the rest of the suite over the proxy at 2 PEs (test_amo and test_stress apart)
  (cd $B && GIO_TIMEOUT_MS=30000 T=${ST:-560} run ctest -R "func\.test_(signal|sync|wait|wave_post)\.proxy(_tcp|_staged)?\.np2" \
    -j2 --output-on-failure) > "$out/ctest-proxy-rest.log" 2>&1
  tail -20 "$out/ctest-proxy-rest.log"
fi
if has self; then  # put_nbi + quiet at 1 PE to its own heap through each transport: no second process on the GPU
  for tr in p2p gda proxy; do
    GIO_TRANSPORT=$tr T=150 run $B/bin/giorun -n 1 $B/bin/gio-bench put_latency --pair 0,0 --scope thread --min-size 8 \
      --max-size 4M --step 8 --iters ${LI:-200} --warmup 20 --reps 3 --json "$out/self-$tr.jsonl" > "$out/self-$tr.txt" 2>&1
    echo "self $tr rc=$?"; grep -v "^#" "$out/self-$tr.txt" | tail -9
  done
fi
if has post; then  # GPU cycles to post a gda WQE and a proxy command; the proxy's GPU-host handoff
  T=120 run $B/bin/giorun -n 1 $B/bin/gio-gda-post --json "$out/post.jsonl" > "$out/gda-post.txt" 2>&1; echo "gda-post rc=$?"
  T=120 run $B/bin/giorun -n 1 $B/bin/gio-proxy-post --json "$out/post.jsonl" > "$out/proxy-post.txt" 2>&1
  echo "proxy-post rc=$?"; cat "$out/gda-post.txt" "$out/proxy-post.txt" | grep -E "thread|wave|wg|clock|#"
fi
if has timeslice; then  # small host-to-device copies and kernel launches while another process holds the GPU
  nvcc -O2 -std=c++17 apps/bench/probes/copy_timeslice.cu -o /tmp/copy_timeslice && T=120 run /tmp/copy_timeslice \
    > "$out/probe-timeslice.txt" 2>&1; cat "$out/probe-timeslice.txt"
fi
if has lat; then  # put latency, 8 B to 4 MiB, thread scope, 2 PEs on one GPU, each transport in turn
  for tr in p2p gda proxy; do
    GIO_TRANSPORT=$tr T=150 run $B/bin/giorun -n 2 $B/bin/gio-bench put_latency --scope thread --min-size 8 --max-size 4M \
      --step 8 --iters ${LI:-200} --warmup 20 --reps 3 --json "$out/lat-$tr.jsonl" > "$out/lat-$tr.txt" 2>&1
    echo "$tr rc=$?"; tail -10 "$out/lat-$tr.txt"
  done
fi
if has probe; then  # the limits: libfabric host to host with the staged protocol, and the copy engines
  for prov in shm "tcp;ofi_rxm"; do
    T=200 run $B/bin/giorun -n 2 $B/bin/gio-fabric-probe --provider "$prov" --depth ${PROBE_DEPTH:-1,4,16} --min-size 64K --max-size 4M \
      --bytes 512M --json "$out/probe-${prov%%;*}.jsonl" > "$out/probe-${prov%%;*}.txt" 2>&1
    echo "probe $prov rc=$?"; cat "$out/probe-${prov%%;*}.txt"
  done
  nvcc -O2 -std=c++17 apps/bench/probes/pinned_copy_bw.cu -o /tmp/pinned_copy_bw && T=60 run /tmp/pinned_copy_bw 1024 \
    > "$out/probe-copy.txt" 2>&1; cat "$out/probe-copy.txt"
fi
if has bw; then  # one staged put of each size (one thread, GPU heap to GPU heap), chunk x depth grid
  for cfg in ${BW_CFG:-64K:1 256K:1 256K:4 1M:1 1M:4 1M:8 4M:2 4M:4}; do
    c=${cfg%%:*}; d=${cfg##*:}
    for prov in ${BW_PROV:-shm}; do
      tag=$prov-$c-$d
      GIO_TRANSPORT=proxy GIO_PROXY_PROVIDER=$([ $prov = tcp ] && echo "tcp;ofi_rxm" || echo $prov) GIO_PROXY_CHUNK=$c \
        GIO_PROXY_DEPTH=$d GIO_SYMMETRIC_SIZE=1G T=120 run $B/bin/giorun -n 2 $B/bin/gio-bench bw --scope thread --wgs 1 \
        --threads 1 --min-size 64K --max-size 256M --step 4 --iters ${BI:-4} --warmup 1 --reps 3 \
        --json "$out/bw-$tag.jsonl" > "$out/bw-$tag.txt" 2>&1
      echo "bw $tag rc=$?"; grep -vE "^#" "$out/bw-$tag.txt" | tail -6
    done
  done
fi
