#!/usr/bin/env bash
# Staged puts through the shm inboxes on one GPU: one thread's put
# of 1 MiB to 256 MiB between 2 PEs over the proxy, per chunk:depth, with the limits measured in
# the same run (libfabric host to host, the copy engines). Run from the repo root after
# `apps/bench/gpu/run-gpu-proxy.sh OUT build` (same build dir); libfabric headers as there.
#   apps/bench/gpu/run-gpu-inbox.sh OUTDIR [chunk:depth ...]
# Env: PROV=shm|tcp, INBOX=1|0 (GIO_PROXY_SHM_INBOX).
set -uo pipefail
out=${1:?usage: run-gpu-inbox.sh OUTDIR [chunk:depth ...]}; shift
mkdir -p "$out"
B=${GIO_BUILD:-/tmp/gio-cuda}
prov=${PROV:-shm}
for cfg in ${*:-1M:2 1M:4 2M:4 4M:4}; do
  c=${cfg%%:*}; d=${cfg##*:}; tag=$prov-$c-$d-inbox${INBOX:-1}
  GIO_PROXY_SHM_INBOX=${INBOX:-1} GIO_TRANSPORT=proxy GIO_PROXY_PROVIDER=$([ "$prov" = tcp ] && echo "tcp;ofi_rxm" || echo shm) \
    GIO_PROXY_CHUNK=$c GIO_PROXY_DEPTH=$d GIO_SYMMETRIC_SIZE=1G timeout 100 $B/bin/giorun -n 2 $B/bin/gio-bench bw \
    --scope thread --wgs 1 --threads 1 --min-size 1M --max-size 256M --step 4 --iters 4 --warmup 1 --reps 3 \
    --json "$out/bw-$tag.jsonl" > "$out/bw-$tag.txt" 2>&1
  echo "bw $tag rc=$?"; grep -vE "^#" "$out/bw-$tag.txt" | tail -5
done
for p in shm "tcp;ofi_rxm"; do
  timeout 120 $B/bin/giorun -n 2 $B/bin/gio-fabric-probe --provider "$p" --depth 1,2,4 --min-size 256K --max-size 4M \
    --bytes 512M > "$out/probe-${p%%;*}.txt" 2>&1
done
nvcc -O2 -std=c++17 apps/bench/probes/pinned_copy_bw.cu -o /tmp/pinned_copy_bw && /tmp/pinned_copy_bw 1024 > "$out/probe-copy.txt" 2>&1
cat "$out"/probe-*.txt
