#!/usr/bin/env bash
# The GPU measurements behind docs/performance.md: run from the repo root on a machine with 2 H200
# (2 PEs) or 4 H200 (the parts marked 4). Usage: apps/bench/gpu/run-gpu.sh OUTDIR [parts...]
#   parts: build tests gdatests gdadiag bench latency quicklat bw nvshmem gda jacobi jacobi-lite
#          probe floorprobe syncprobe fullgpu bwprobe msgprobe sass scopelat rates loggop msgrate bulk coll;
#          on 4 GPUs: tests4 jacobi4 pairs spts4 xchg4 lat3 coll4 suite3 stress lock;
#          rows4 ikn4 (spts, 2 and 4 GPUs);
#          one GPU of any: strip fullsig (needs 2) jacobi1 ncu; jacobi2 jsync (2 GPUs); four (4 GPUs);
#          msgratebase (2 GPUs: message rate and call cost against the commits in GIO_BASE, default 26b8bfe,
#          and this tree with each patch in GIO_PATCHES),
#          ldcprobe (2 GPUs: message rate with a constant-bank load on the address path),
#          warpprobe (a lone lane's warp instructions against the others' __syncwarp), wavecheck (2 PEs:
#          wave-scope calls over gda and the proxy, and synccheck)
#   (default: build tests bench nvshmem gda jacobi). Each part's start time goes to OUTDIR/times.txt.
#   GIO_TARGETS="gio-bench spts ..." builds only those targets (the whole tree takes minutes).
# Every command it runs is echoed into OUTDIR/commands.txt.
set -uo pipefail
out=${1:?usage: run-gpu.sh OUTDIR [parts...]}; shift
parts=${*:-build tests bench nvshmem gda jacobi}
mkdir -p "$out"
B=build-gpu/bin
# 4G: one PE at 16384^2 holds two 1 GiB fields.
export GIO_SYMMETRIC_SIZE=4G NVSHMEM_SYMMETRIC_SIZE=4G NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0
# NVSHMEM's libraries for gio-bench-nvshmem: $NVSHMEM_HOME/lib, else the nvidia-nvshmem-cu13 wheel
# that python3 imports (the same places apps/bench/CMakeLists.txt looks).
nv=${NVSHMEM_HOME:+$NVSHMEM_HOME/lib}
[[ -n $nv ]] || nv=$(python3 -c 'import nvidia.nvshmem as m; print(list(m.__path__)[0] + "/lib")' 2>/dev/null)
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:$nv
run() { echo "$*" >> "$out/commands.txt"; timeout "${T:-120}" "$@"; }
# ctest --stop-time for a ctest under `timeout S`: 15 s before the kill, so ctest itself ends the
# cases still running and prints its summary (killed by `timeout`, its buffered output is lost).
stop_in() { date -d "+$(($1 - 15)) seconds" +%H:%M:%S; }
has() { [[ " $parts " == *" $1 "* ]] && echo "$(date +%T) $1" >> "$out/times.txt"; }
# gio-bench, or its NVSHMEM twin when that was built (fails otherwise): bench_bin gio|nvshmem
bench_bin() { local b=$B/gio-bench; [[ $1 == nvshmem ]] && b=$B/gio-bench-nvshmem; [[ -x $b ]] && echo "$b"; }
# The device's copy of .git can be stale: pass GIO_COMMIT=$(git rev-parse --short HEAD) from here
# (commit.txt, and gio-bench's and jacobi2d's JSON lines through apps/commit.cmake).
echo "${GIO_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}" > "$out/commit.txt"
nvidia-smi -L > "$out/device.txt"; nvidia-smi topo -m > "$out/topo.txt" 2>&1

# The proxy transport needs libfabric's headers. Where the machine has libfabric.so but not its
# headers, point LIBFABRIC_INCLUDE at a copy of Debian's libfabric-dev 1.17 include/ directory
# (default .carry/fabric/include, git-ignored).
fab=$(ls /usr/lib/x86_64-linux-gnu/libfabric.so* 2>/dev/null | head -1)
fabflags=()
[[ -d ${LIBFABRIC_INCLUDE:-.carry/fabric/include} && -n $fab ]] && fabflags=(-DGIO_FABRIC_INCLUDE=${LIBFABRIC_INCLUDE:-$PWD/.carry/fabric/include} -DGIO_FABRIC=$fab)
if has build; then
  cmake -S . -B build-gpu -G Ninja -DGIO_PLATFORM=cuda -DGIO_TEST_PES="${GIO_TEST_PES:-2}" "${fabflags[@]}" > "$out/build.log" 2>&1
  # GIO_TARGETS: build only these (the whole tree takes 6-8 min on a fresh 4xH200).
  ninja -C build-gpu -k 0 ${GIO_TARGETS:-} >> "$out/build.log" 2>&1 || grep -E "error|FAILED" "$out/build.log" | head -20
fi
if has probe; then  # ordering primitives over NVLink (apps/bench/probes/nvlink_ordering.cu)
  mkdir -p build-gpu && nvcc -O2 -arch=sm_90 -std=c++17 apps/bench/probes/nvlink_ordering.cu -o build-gpu/nvlink_ordering 2>> "$out/build.log" &&
    run build-gpu/nvlink_ordering > "$out/nvlink_ordering.txt" 2>&1
  cat "$out/nvlink_ordering.txt"
fi
if has bwprobe; then  # SM stores against the bulk-copy engine (TMA) into the peer (apps/bench/probes/nvlink_bw.cu)
  mkdir -p build-gpu && nvcc -O2 -arch=sm_90 -std=c++17 apps/bench/probes/nvlink_bw.cu -o build-gpu/nvlink_bw 2>> "$out/build.log" &&
    T=90 run build-gpu/nvlink_bw > "$out/nvlink_bw.txt" 2>&1
  cat "$out/nvlink_bw.txt"
fi
if has syncprobe; then  # a one-round team sync by ordering form on 2 and 4 GPUs (apps/bench/probes/sync_floor.cu)
  mkdir -p build-gpu && nvcc -O2 -arch=sm_90 -std=c++17 apps/bench/probes/sync_floor.cu -o build-gpu/sync_floor 2>> "$out/build.log" &&
    T=60 run build-gpu/sync_floor > "$out/sync_floor.txt" 2>&1
  cat "$out/sync_floor.txt"
fi
if has msgprobe; then  # 8-byte store rate by issuer scope, with and without scope syncs (apps/bench/probes/msgrate_scopes.cu)
  mkdir -p build-gpu && nvcc -O2 -arch=sm_90 -std=c++17 apps/bench/probes/msgrate_scopes.cu -o build-gpu/msgrate_scopes 2>> "$out/build.log" &&
    T=60 run build-gpu/msgrate_scopes > "$out/msgrate_scopes.txt" 2>&1
  cat "$out/msgrate_scopes.txt"
fi
if has floorprobe; then  # ping-pong floors: how the waiter polls, and 4 KiB from one thread (apps/bench/probes/pingpong_floor.cu)
  mkdir -p build-gpu && nvcc -O2 -arch=sm_90 -std=c++17 apps/bench/probes/pingpong_floor.cu -o build-gpu/pingpong_floor 2>> "$out/build.log" &&
    T=60 run build-gpu/pingpong_floor > "$out/pingpong_floor.txt" 2>&1
  cat "$out/pingpong_floor.txt"
fi
if has ldcprobe; then  # 8 B message rate with a constant-bank load on the store's address path (apps/bench/probes/ldc_under_load.cu)
  mkdir -p build-gpu && nvcc -O2 -arch=sm_90 -std=c++17 apps/bench/probes/ldc_under_load.cu -o build-gpu/ldc_under_load 2>> "$out/build.log" &&
    T=60 run build-gpu/ldc_under_load > "$out/ldc_under_load.txt" 2>&1 &&
    cuobjdump -sass build-gpu/ldc_under_load | grep -E "Function|LDC|LDG" >> "$out/ldc_under_load.txt"
  head -8 "$out/ldc_under_load.txt"
fi
if has sass; then  # the machine code of gio-bench's streaming kernels, GIO and NVSHMEM (cuobjdump)
  for impl in gio nvshmem; do
    bin=$(bench_bin $impl) && cuobjdump -sass "$bin" > "$out/$impl-bench.sass" 2>&1
  done
  gzip -f "$out"/*.sass
fi
if has fullgpu; then  # can the softnic's copies and atomic kernels run while a kernel holds every SM?
  mkdir -p build-gpu && nvcc -O2 -arch=sm_90 -std=c++17 apps/bench/probes/copy_under_full_gpu.cu -o build-gpu/copy_under_full_gpu 2>> "$out/build.log" &&
    T=60 run build-gpu/copy_under_full_gpu > "$out/copy_under_full_gpu.txt" 2>&1
  cat "$out/copy_under_full_gpu.txt"
fi
if has tests; then  # everything but gda (gdatests) and the long stress/fuzz runs
  (cd build-gpu && T=400 run ctest -E "stress|fuzz|gda" --timeout 120 -j4) > "$out/ctest.log" 2>&1
  tail -15 "$out/ctest.log"
fi
if has gdatests; then
  # One at a time: every np2 case runs on GPUs 0 and 1, and concurrent cases' spinning kernels
  # would time-slice against the softnic's atomic kernels.
  (cd build-gpu && GIO_TIMEOUT_MS=20000 T=${GT:-200} run ctest -R "gda" -E "stress|fuzz|np4" --timeout 60 -j1 --output-on-failure --stop-time "$(stop_in ${GT:-200})") > "$out/ctest-gda.log" 2>&1
  tail -12 "$out/ctest-gda.log"
fi
if has tests4; then  # the functional suite at 4 PEs, one GPU each (build with GIO_TEST_PES="2;4")
  (cd build-gpu && T=${T4:-300} run ctest -R "np4" -E "${T4SKIP:-stress|fuzz}" --timeout 90 -j1 --output-on-failure --stop-time "$(stop_in ${T4:-300})") > "$out/ctest-np4.log" 2>&1
  tail -25 "$out/ctest-np4.log"
fi
if has jacobi4 && [[ -x $B/jacobi2d ]]; then  # weak (2K^2, 16K^2 per GPU) and strong (16384^2) at 1, 2, 4 GPUs
  T=${JT:-480} run apps/jacobi2d/scaling.sh -b build-gpu -p "1 2 4" -s "2048 16384" -S 16384 -o "$out/jacobi4.jsonl" > "$out/jacobi4.txt" 2>&1
  echo "scaling rc=$?" >> "$out/jacobi4.txt"
  grep -E "FAIL|rc=" "$out/jacobi4.txt" | head -20
  python3 apps/jacobi2d/plot.py "$out/jacobi4.jsonl" --outdir "$out" > /dev/null 2>&1 || true
fi
if has pairs; then  # put latency and bandwidth between every pair of the 4 GPUs, GIO and NVSHMEM
  for impl in gio nvshmem; do
    bin=$(bench_bin $impl) || continue
    for p in 0,1 0,2 0,3 1,2 1,3 2,3; do
      T=60 run $B/giorun -n 4 $bin put_latency --pair $p --scope thread --wgs 1 --max-size 4K --step 8 \
        --json "$out/$impl-pairs-put_latency.jsonl.$p" > "$out/$impl-pairs-lat-$p.txt" 2>&1
      GIO_NUM_CONTEXTS=132 T=60 run $B/giorun -n 4 $bin bw --pair $p --scope wg --wgs 32,132 --min-size 256M \
        --max-size 256M --json "$out/$impl-pairs-bw.jsonl.$p" > "$out/$impl-pairs-bw-$p.txt" 2>&1
    done
    cat "$out/$impl"-pairs-put_latency.jsonl.* > "$out/$impl-pairs-put_latency.jsonl" 2>/dev/null
    cat "$out/$impl"-pairs-bw.jsonl.* > "$out/$impl-pairs-bw.jsonl" 2>/dev/null
    rm -f "$out/$impl"-pairs-*.jsonl.*
  done
  python3 apps/bench/pairs.py "$out" > "$out/pairs.txt" 2>&1; cat "$out/pairs.txt"
fi
if has gdadiag; then  # the Jacobi2D gda case alone, with a short timeout and its own output
  GIO_TRANSPORT=gda GIO_TIMEOUT_MS=10000 T=40 run $B/giorun -n 2 $B/jacobi2d --variant gio --nx 256 --ny 256 \
    --iters 20 > "$out/jacobi-gda.txt" 2>&1; echo "rc=$?" >> "$out/jacobi-gda.txt"
  GIO_TRANSPORT=gda GIO_TIMEOUT_MS=10000 T=40 run $B/giorun -n 2 $B/jacobi2d --variant gio-launch --nx 256 --ny 256 \
    --iters 20 --nccheck 1000 > "$out/jacobi-gda-nonorm.txt" 2>&1; echo "rc=$?" >> "$out/jacobi-gda-nonorm.txt"
  tail -5 "$out/jacobi-gda.txt" "$out/jacobi-gda-nonorm.txt"
fi
if has latency; then
  # (the full sweep of both binaries outlasted 120 s before: give each 240 s)
  T=240 run $B/giorun -n 2 $B/gio-bench put_latency --wgs 1,64 --json "$out/gio-p2p-put_latency.jsonl" > "$out/gio-p2p-put_latency.txt" 2>&1
  [[ -x $B/gio-bench-nvshmem ]] && T=240 run $B/giorun -n 2 $B/gio-bench-nvshmem put_latency --wgs 1,64 --json "$out/nvshmem-put_latency.jsonl" > "$out/nvshmem-put_latency.txt" 2>&1
fi
if has quicklat; then  # the three latency targets only: thread scope, one work-group, up to 4 KiB
  for impl in gio nvshmem; do
    bin=$(bench_bin $impl) && T=90 run $B/giorun -n 2 $bin put_latency --scope thread --wgs 1 --max-size 4K \
      --json "$out/$impl-quicklat.jsonl" > "$out/$impl-quicklat.txt" 2>&1
    head -40 "$out/$impl-quicklat.txt"
  done
fi
if has scopelat; then  # thread and work-group scope, 1 and 64 work-groups at once, up to 4 KiB
  for impl in gio nvshmem; do
    bin=$(bench_bin $impl) && T=60 run $B/giorun -n 2 $bin put_latency --scope thread,wg --wgs 1,64 --max-size 4K --step 8 \
      --json "$out/$impl-scopelat.jsonl" > "$out/$impl-scopelat.txt" 2>&1
  done
fi
if has bw; then
  bwflags="--wgs 8,32,132 --scope wg --min-size 1M --step 4"
  GIO_NUM_CONTEXTS=132 T=90 run $B/giorun -n 2 $B/gio-bench bw $bwflags --json "$out/gio-p2p-bw.jsonl" > "$out/gio-p2p-bw.txt" 2>&1
  [[ -x $B/gio-bench-nvshmem ]] && T=90 run $B/giorun -n 2 $B/gio-bench-nvshmem bw $bwflags --json "$out/nvshmem-bw.jsonl" > "$out/nvshmem-bw.txt" 2>&1
  tail -n 25 "$out/gio-p2p-bw.txt" "$out/nvshmem-bw.txt"
fi
if has jacobi-lite && [[ -x $B/jacobi2d ]]; then
  T=240 run apps/jacobi2d/scaling.sh -b build-gpu -s "2048" -S 16384 -o "$out/jacobi.jsonl" > "$out/jacobi.txt" 2>&1
  grep -E "^jacobi2d |  total|1-PE reference|FAIL" "$out/jacobi.txt" | head -80
fi
if has bench; then
  for t in p2p gda; do
    GIO_TRANSPORT=$t run $B/giorun -n 2 $B/gio-bench put_latency --wgs 1,8,64 --json "$out/gio-$t-put_latency.jsonl" > "$out/gio-$t-put_latency.txt" 2>&1
  done
  GIO_NUM_CONTEXTS=132 run $B/giorun -n 2 $B/gio-bench bw --wgs 8,32,132 --scope wg --json "$out/gio-p2p-bw.jsonl" > "$out/gio-p2p-bw.txt" 2>&1
  GIO_NUM_CONTEXTS=132 run $B/giorun -n 2 $B/gio-bench msgrate --wgs 1,32,132 --json "$out/gio-p2p-msgrate.jsonl" > "$out/gio-p2p-msgrate.txt" 2>&1
  run $B/giorun -n 2 $B/gio-bench loggop --json "$out/gio-p2p-loggop.jsonl" > "$out/gio-p2p-loggop.txt" 2>&1
fi
if has nvshmem && [[ -x $B/gio-bench-nvshmem ]]; then
  run $B/giorun -n 2 $B/gio-bench-nvshmem put_latency --wgs 1,8,64 --json "$out/nvshmem-put_latency.jsonl" > "$out/nvshmem-put_latency.txt" 2>&1
  run $B/giorun -n 2 $B/gio-bench-nvshmem bw --wgs 8,32,132 --scope wg --json "$out/nvshmem-bw.jsonl" > "$out/nvshmem-bw.txt" 2>&1
  run $B/giorun -n 2 $B/gio-bench-nvshmem msgrate --wgs 1,32,132 --json "$out/nvshmem-msgrate.jsonl" > "$out/nvshmem-msgrate.txt" 2>&1
  run $B/giorun -n 2 $B/gio-bench-nvshmem loggop --json "$out/nvshmem-loggop.jsonl" > "$out/nvshmem-loggop.txt" 2>&1
fi
if has rates; then  # bandwidth both ways and LogGOP(S), GIO (p2p, and gda for LogGOP) and NVSHMEM (message rate: msgrate)
  for impl in gio nvshmem; do
    bin=$(bench_bin $impl) || continue
    GIO_NUM_CONTEXTS=132 T=60 run $B/giorun -n 2 $bin bw --bidir --scope wg --wgs 8,32,132 --min-size 64K --max-size 256M \
      --step 16 --json "$out/$impl-bidir-bw.jsonl" > "$out/$impl-bidir-bw.txt" 2>&1
    T=120 run $B/giorun -n 2 $bin loggop --json "$out/$impl-loggop.jsonl" > "$out/$impl-loggop.txt" 2>&1
  done
  GIO_TRANSPORT=gda T=60 run $B/giorun -n 2 $B/gio-bench loggop --json "$out/gio-gda-loggop.jsonl" > "$out/gio-gda-loggop.txt" 2>&1
  tail -n 12 "$out"/*-loggop.txt; grep -h "bw_bidir" "$out"/*-bidir-bw.txt | tail -30
fi
if has loggop; then  # LogGOP(S): GIO over p2p and gda, NVSHMEM
  for impl in gio nvshmem; do
    bin=$(bench_bin $impl) && T=150 run $B/giorun -n 2 $bin loggop --json "$out/$impl-loggop.jsonl" > "$out/$impl-loggop.txt" 2>&1
  done
  GIO_TRANSPORT=gda T=60 run $B/giorun -n 2 $B/gio-bench loggop --json "$out/gio-gda-loggop.jsonl" > "$out/gio-gda-loggop.txt" 2>&1
  tail -n 12 "$out"/*-loggop.txt
fi
if has coll; then  # collectives over NP PEs (default 2), bytes per PE: GIO, NVSHMEM, and NCCL from the host
  np=${NP:-2}
  heap=$(( np * 512 + 1024 ))M  # alltoall's source and dest: 2 x NP x 256 MiB, and room to spare
  for impl in gio nvshmem; do
    bin=$(bench_bin $impl) && GIO_SYMMETRIC_SIZE=$heap NVSHMEM_SYMMETRIC_SIZE=$heap T=600 run $B/giorun -n "$np" $bin coll --json "$out/$impl-coll.jsonl" > "$out/$impl-coll.txt" 2>&1
  done
  [[ -x $B/gio-bench-nccl ]] &&
    T=300 run $B/giorun -n "$np" $B/gio-bench-nccl coll --json "$out/nccl-coll.jsonl" > "$out/nccl-coll.txt" 2>&1
  for f in "$out"/*-coll.jsonl; do python3 apps/bench/smoke_test.py --check "$f" --sub coll; done
  python3 apps/bench/plot.py "$out"/*-coll.jsonl --out "$out"
fi
if has bulk; then  # one thread's puts with the bulk-copy engine off (0) and from 256 B and 1 KiB on (GIO_P2P_BULK_MIN)
  for m in 0 256 1K; do
    GIO_P2P_BULK_MIN=$m T=60 run $B/giorun -n 2 $B/gio-bench put_latency --scope thread --wgs 1 --min-size 64 --max-size 64K \
      --json "$out/gio-bulk$m-put_latency.jsonl" > "$out/gio-bulk$m-put_latency.txt" 2>&1
    GIO_P2P_BULK_MIN=$m T=60 run $B/giorun -n 2 $B/gio-bench bw --scope thread --wgs 1 --min-size 4K --max-size 4M --step 4 \
      --json "$out/gio-bulk$m-bw.jsonl" > "$out/gio-bulk$m-bw.txt" 2>&1
  done
  grep -h "pingpong\|put_nbi_quiet" "$out"/gio-bulk*-put_latency.txt | head -80; grep -h "^bw" "$out"/gio-bulk*-bw.txt
fi
if has msgratebase; then  # message rate and per-call cost: this tree against other builds and NVSHMEM, one call
  # GIO_BASE: commits, each built from a worktree (default 26b8bfe);
  # GIO_PATCHES: patch files, each applied to a copy of this tree.
  # MSG_SCOPES (default wave). The builds run side by side; a build that fails is named in its log and skipped.
  # Their JSON lines carry <commit> and <this tree's commit>+<patch name> (apps/commit.cmake reads GIO_COMMIT).
  # The trees and their builds live under /tmp; every copy of this tree is taken before any build starts.
  builds=()
  for f in ${GIO_PATCHES:-}; do
    v=$(basename "$f" .patch); builds+=("patch-$v")
    rm -rf /tmp/gio-$v /tmp/build-patch-$v && mkdir -p /tmp/gio-$v &&
      tar -c --exclude='./build*' --exclude=./.git . | tar -x -C /tmp/gio-$v && patch -d /tmp/gio-$v -sp1 < "$f" ||
      echo "patch $v: copy or patch failed" > "$out/build-patch-$v.log"
  done
  for c in ${GIO_BASE:-26b8bfe}; do
    builds+=("base-$c")
    ( rm -rf /tmp/gio-$c /tmp/build-base-$c && git worktree add -f /tmp/gio-$c "$c" &&
      cmake -S /tmp/gio-$c -B /tmp/build-base-$c -G Ninja -DGIO_PLATFORM=cuda -DGIO_BUILD_TESTS=OFF &&
      GIO_COMMIT=$c ninja -C /tmp/build-base-$c gio-bench || echo "base $c: build failed" ) > "$out/build-base-$c.log" 2>&1 &
  done
  for f in ${GIO_PATCHES:-}; do
    v=$(basename "$f" .patch)
    [[ -s $out/build-patch-$v.log ]] && continue
    ( cmake -S /tmp/gio-$v -B /tmp/build-patch-$v -G Ninja -DGIO_PLATFORM=cuda -DGIO_BUILD_TESTS=OFF &&
      GIO_COMMIT="$(cat "$out/commit.txt")+$v" ninja -C /tmp/build-patch-$v gio-bench || echo "patch $v: build failed" ) \
      > "$out/build-patch-$v.log" 2>&1 &
  done
  wait
  for rep in 1 2; do
    for impl in gio "${builds[@]}" nvshmem; do
      # Other builds' output goes to others/, so the folder's own *.jsonl are this tree's.
      dir=$out
      case $impl in base-*|patch-*) bin=/tmp/build-$impl/bin/gio-bench dir=$out/others ;; *) bin=$(bench_bin $impl) ;; esac
      [[ -x $bin ]] || continue
      mkdir -p "$dir"
      for it in 100 1000; do  # (--json rewrites its file: the .jsonl keeps the last run, the .txt every run)
        GIO_NUM_CONTEXTS=132 T=60 run $B/giorun -n 2 $bin msgrate --scope ${MSG_SCOPES:-wave} --wgs 32,132 --iters $it \
          --json "$dir/msgratebase-$impl.jsonl" >> "$dir/msgratebase-$impl.txt" 2>&1
      done
      [[ $rep == 1 ]] && T=60 run $B/giorun -n 2 $bin callcost --scope ${MSG_SCOPES:-wave} \
        --json "$dir/callcost-$impl.jsonl" > "$dir/callcost-$impl.txt" 2>&1
    done
  done
  for f in "$out"/msgratebase-*.txt "$out"/others/msgratebase-*.txt; do [[ -f $f ]] && echo "== $f" && grep -h "^msgrate" "$f"; done
  grep -H "put_nbi_call" "$out"/callcost-*.txt "$out"/others/callcost-*.txt 2>/dev/null
fi
if has msgrate; then  # 8-byte message rate, one direction and both, GIO and NVSHMEM
  for impl in gio nvshmem; do
    bin=$(bench_bin $impl) || continue
    GIO_NUM_CONTEXTS=132 T=60 run $B/giorun -n 2 $bin msgrate --wgs 1,32,132 --json "$out/$impl-msgrate-uni.jsonl" \
      > "$out/$impl-msgrate-uni.txt" 2>&1
    GIO_NUM_CONTEXTS=132 T=60 run $B/giorun -n 2 $bin msgrate --bidir --wgs 1,32,132 --json "$out/$impl-msgrate.jsonl" \
      > "$out/$impl-msgrate.txt" 2>&1
  done
  grep -h "^msgrate" "$out"/*-msgrate*.txt
fi
if has gda; then
  run $B/gio-gda-post --json "$out/gda_post.jsonl" > "$out/gda_post.txt" 2>&1
  GIO_TRANSPORT=gda run $B/giorun -n 2 $B/test_stress --gio_stress_ops=3000 > "$out/gda_stress.txt" 2>&1
fi
if has jacobi && [[ -x $B/jacobi2d ]]; then
  T=500 run apps/jacobi2d/scaling.sh -b build-gpu -o "$out/jacobi.jsonl" > "$out/jacobi.txt" 2>&1
fi
if has strip; then  # Jacobi2D's sweep against a copy by rows loaded ahead, one GPU (apps/jacobi2d/strip_probe.cu)
  nvcc -O2 -arch=sm_90 -std=c++17 -I. -Idevice/include -Ibuild-gpu/include -Iapps/jacobi2d apps/jacobi2d/strip_probe.cu \
    -o build-gpu/jacobi_strip -Lbuild-gpu/lib -lgio -Xlinker -rpath="$PWD/build-gpu/lib" 2>> "$out/build.log" &&
    CUDA_VISIBLE_DEVICES=0 T=120 run build-gpu/jacobi_strip > "$out/jacobi_strip.txt" 2>&1
  cat "$out/jacobi_strip.txt"
fi
if has fullsig; then  # test_signal's kernel holding every SM over gda and the proxy: 2 GPUs, then both PEs on GPU 0
  for t in gda proxy; do
    for vis in 0,1 0; do
      CUDA_VISIBLE_DEVICES=$vis GIO_TRANSPORT=$t GIO_TIMEOUT_MS=20000 T=60 run $B/giorun -n 2 $B/test_signal \
        --gtest_filter='*HoldingEvery*' > "$out/fullsig-$t-gpus$vis.txt" 2>&1
      echo "after  $t gpus $vis rc=$? $(grep -c '\[  PASSED  \]' "$out/fullsig-$t-gpus$vis.txt") passed" >> "$out/fullsig.txt"
    done
  done
  cat "$out/fullsig.txt"
fi
if has jacobi1 && [[ -x $B/jacobi2d ]]; then  # one GPU; 16384^2 every variant with the roofline, then 1K..8K
  # Each J1CONFIGS entry BYTES:MINWGS:PREFETCH sets JACOBI_VEC_BYTES, JACOBI_MIN_WGS and
  # JACOBI_PREFETCH (domain.h) for one build of jacobi2d (bin/jacobi2d-BYTES-MINWGS-PREFETCH); the
  # build whose gio is fastest at 16384^2 becomes bin/jacobi2d for the sizes and later parts.
  cp apps/jacobi2d/domain.h /tmp/domain.h.tree
  : > "$out/jacobi1.txt"
  best=; best_t=
  for c in ${J1CONFIGS:-16:5:1 16:5:2 32:4:1 32:4:2 32:5:1}; do
    IFS=: read -r vb mw pf <<<"$c"
    sed -e "s/^#define JACOBI_VEC_BYTES [0-9]*$/#define JACOBI_VEC_BYTES $vb/" -e "s/^#define JACOBI_MIN_WGS [0-9]*$/#define JACOBI_MIN_WGS $mw/" \
        -e "s/^#define JACOBI_PREFETCH [0-9]*$/#define JACOBI_PREFETCH $pf/" /tmp/domain.h.tree > apps/jacobi2d/domain.h
    ninja -C build-gpu jacobi2d >> "$out/build.log" 2>&1 || { echo "config $c: build failed" >> "$out/jacobi1.txt"; continue; }
    cp $B/jacobi2d $B/jacobi2d-$vb-$mw-$pf
    for v in gio gio-launch interk interk-overlap; do
      echo "== config $c variant $v" >> "$out/jacobi1.txt"
      CUDA_VISIBLE_DEVICES=0 T=60 run $B/giorun -n 1 $B/jacobi2d-$vb-$mw-$pf --variant $v --json "$out/jacobi1-$vb-$mw-$pf.jsonl" >> "$out/jacobi1.txt" 2>&1
    done
    t=$(python3 -c "import json,sys; print(min([json.loads(l)['total_s'] for l in open(sys.argv[1]) if json.loads(l)['variant']=='gio'] or [99]))" "$out/jacobi1-$vb-$mw-$pf.jsonl" 2>/dev/null)
    echo "config $c: gio $t s" | tee -a "$out/jacobi1-best.txt"
    if [[ -n $t ]] && { [[ -z $best_t ]] || python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)" "$t" "$best_t"; }; then
      best=$vb-$mw-$pf; best_t=$t
    fi
  done
  cp /tmp/domain.h.tree apps/jacobi2d/domain.h
  echo "best: $best ($best_t s)" | tee -a "$out/jacobi1-best.txt"
  [[ -n $best ]] && cp $B/jacobi2d-$best $B/jacobi2d
  CUDA_VISIBLE_DEVICES=0 T=${J1T:-240} run apps/jacobi2d/scaling.sh -b build-gpu -p 1 -s "1024 2048 4096 8192" -S 16384 \
    -v "gio gio-launch interk interk-overlap" -o "$out/jacobi1-sizes.jsonl" > "$out/jacobi1-sizes.txt" 2>&1
  python3 - "$out" <<'PY'
import json, sys, glob
for f in sorted(glob.glob(sys.argv[1] + "/jacobi1*.jsonl")):
    for l in open(f):
        r = json.loads(l)
        print(f.split("/")[-1], r["variant"], r["nx"], "total %.4f roofline %.4f compute %.4f" % (r["total_s"], r["roofline_s"], r["compute_s"]), r["check"])
PY
fi
if has jsync && [[ -x $B/jacobi2d ]]; then  # the persistent kernel's neighbour sync against its grid barrier, same run
  # One GPU: 16384^2 (and 8192^2) gio both ways beside gio-launch and interk-overlap, twice each;
  # two GPUs: 16384^2 strong, gio both ways. Every line carries the roofline of its own run.
  for rep in 1 2; do
    for side in 16384 8192; do
      for v in "gio --sync neighbours" "gio --sync grid" "gio-launch" "interk-overlap"; do
        CUDA_VISIBLE_DEVICES=0 T=60 run $B/giorun -n 1 $B/jacobi2d --variant $v --nx $side --ny $side \
          --json "$out/jsync1.jsonl" >> "$out/jsync1.txt" 2>&1
      done
    done
  done
  if [[ $(nvidia-smi -L | wc -l) -ge 2 ]]; then
    for rep in 1 2; do
      for v in "gio --sync neighbours" "gio --sync grid" "gio-launch" "interk-overlap"; do
        T=60 run $B/giorun -n 2 $B/jacobi2d --variant $v --json "$out/jsync2.jsonl" >> "$out/jsync2.txt" 2>&1
      done
    done
  fi
  python3 - "$out" <<'PY'
import json, sys, glob
for f in sorted(glob.glob(sys.argv[1] + "/jsync*.jsonl")):
    for l in open(f):
        r = json.loads(l)
        print(f.split("/")[-1], r["variant"], r.get("sync", "-"), r["nx"], r["pes"],
              "total %.4f roofline %.4f compute %.4f" % (r["total_s"], r["roofline_s"], r["compute_s"]), r["check"])
PY
fi
if has rows4; then  # spts road random at 2 and 4 PEs: the row orders the sync-free kernels may take (weak 14M per PE, strong 14M)
  mkdir -p /tmp/spts-cache
  for np in ${RNP:-2 4}; do for r in natural level senders; do
    for rows in 14000000 $((np * 14000000)); do
      T=90 run $B/giorun -n $np $B/spts --variant gio --rows $r --no-refs --type float --reps 5 --cache /tmp/spts-cache ${RPROBE:-} \
        --gen road:rows=$rows --order random --json "$out/spts-rows.jsonl" 2>&1 | grep -E "solve |check" | head -2
    done
  done; done
fi
if has ikn4; then  # spts gio against ikn (the proxy) at 2 and 4 PEs: road 14M natural, road 1M random
  mkdir -p /tmp/spts-cache
  for np in 2 4; do for v in gio ikn; do for g in road:rows=14000000@natural road:rows=1000000@random; do
    T=${IT:-90} run $B/giorun -n $np $B/spts --variant $v --no-refs --type float --reps 3 --cache /tmp/spts-cache \
      --gen "${g%@*}" --order "${g#*@}" --timeout 60 --json "$out/spts-ikn.jsonl" > "$out/ikn.tmp" 2>&1
    echo "np=$np $v $g rc=$?"; grep -E "solve |check" "$out/ikn.tmp" | head -2; cat "$out/ikn.tmp" >> "$out/spts-ikn.log"
  done; done; done
fi
if has four; then  # 4 GPUs in one call: Jacobi2D at 4 PEs; spts strong (road 14M random) and weak (14M road rows per PE, both orders) at 1, 2, 4
  T=${JT:-200} run apps/jacobi2d/scaling.sh -b build-gpu -p 4 -s "2048 16384" -S 16384 -v "gio gio-launch interk interk-overlap" \
    -o "$out/jacobi4.jsonl" > "$out/jacobi4.txt" 2>&1
  echo "jacobi rc=$?" >> "$out/jacobi4.txt"
  mkdir -p /tmp/spts-cache
  T=${ST:-280} run apps/spts/scaling.sh -b build-gpu -o "$out/spts" -p "1 2 4" -v "gio,levelset" -r 5 -s "road:rows=14000000@random" \
    -g "road@natural road@random" -w 14000000 -- --cache /tmp/spts-cache ${SPTS_EXTRA:-} > "$out/spts4.txt" 2>&1
  echo "spts rc=$?" >> "$out/spts4.txt"
  python3 - "$out" <<'PY'
import json, sys, glob
for f in sorted(glob.glob(sys.argv[1] + "/jacobi4.jsonl")):
    for l in open(f):
        r = json.loads(l)
        print("jacobi", r["variant"], r.get("sync", "-"), r["nx"], r["ny"], r["pes"], "total %.4f roof %.4f" % (r["total_s"], r["roofline_s"]), r["check"])
for f in sorted(glob.glob(sys.argv[1] + "/spts/*.jsonl")):
    for l in open(f):
        r = json.loads(l)
        print("spts", r.get("scaling"), r["variant"], r.get("exchange"), r["input"], r["order"], r["pes"], "median %.3f ms" % (r["median_s"] * 1e3), r["check"])
PY
fi
if has jacobi2 && [[ -x $B/jacobi2d ]]; then  # 2 GPUs: strong 16384^2, weak 2K^2 and 16K^2 per GPU; ikn last
  T=${J2T:-300} run apps/jacobi2d/scaling.sh -b build-gpu -p 2 -s "2048 16384" -S 16384 -v "gio gio-launch interk interk-overlap" \
    -o "$out/jacobi2.jsonl" > "$out/jacobi2.txt" 2>&1
  echo "scaling rc=$?" >> "$out/jacobi2.txt"
  for side in 16384 2048; do  # ikn (every peer through the proxy), its output whole
    GIO_TIMEOUT_MS=20000 T=90 run $B/giorun -n 2 $B/jacobi2d --variant ikn --nx $side --ny $side --json "$out/jacobi2-ikn.jsonl" \
      > "$out/jacobi2-ikn-$side.txt" 2>&1
    echo "ikn $side rc=$?" >> "$out/jacobi2.txt"
  done
  grep -E "rc=|total " "$out/jacobi2.txt" "$out"/jacobi2-ikn-*.txt | head -30
fi
if has ncu && [[ -x $B/jacobi2d ]]; then  # Nsight Compute on one interk step and one persistent kernel, 16384^2, one GPU
  for v in interk gio; do
    CUDA_VISIBLE_DEVICES=0 T=150 run ncu --target-processes all -k regex:'step|persistent' -c 1 --section SpeedOfLight \
      --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
      $B/giorun -n 1 $B/jacobi2d --variant $v --iters 20 --warmup 0 > "$out/ncu-$v.txt" 2>&1
  done
  grep -E "Memory Throughput|DRAM Throughput|Achieved Occupancy|Registers Per|Theoretical Occupancy|Duration|L2 Hit" "$out"/ncu-*.txt
fi
if has lock; then  # test_lock and test_host_threads over gda and the proxy: one GPU per PE, then both PEs on GPU 0
  for gpus in all 0; do
    ( [[ $gpus == 0 ]] && export CUDA_VISIBLE_DEVICES=0
      cd build-gpu && T=300 run ctest -R "func\.test_(lock|host_threads)\.(gda|proxy|proxy_staged)\.np2" --timeout 140 -j1 \
        --output-on-failure ) > "$out/ctest-lock-gpus$gpus.log" 2>&1
    tail -8 "$out/ctest-lock-gpus$gpus.log"
  done
fi
if has spts4; then  # spts strong (every generator, 8M+ rows, both orders) and weak (14M road rows per GPU)
  # Inputs are generated once into /tmp/spts-cache (generating took 0.6-7.3 s a run, the solves ms).
  mkdir -p /tmp/spts-cache
  sg="road:rows=14000000@random road:rows=14000000@natural grid2d:rows=16000000@natural grid2d:rows=16000000@random"
  sg+=" grid3d:n=208@natural grid3d:n=208@random rmat:scale=23,deg=6@natural rmat:scale=23,deg=6@random"
  sg+=" banded:rows=8000000@natural banded:rows=8000000@random"
  T=${ST:-420} run apps/spts/scaling.sh -b build-gpu -o "$out/spts" -p "1 2 4" -v "gio,levelset ikn" -r 5 \
    -s "${SPTS_STRONG:-$sg}" -g "${SPTS_WEAK:-road@random}" -w 14000000 -- --cache /tmp/spts-cache ${SPTS_EXTRA:-} \
    > "$out/spts4.txt" 2>&1
  echo "scaling rc=$?" >> "$out/spts4.txt"
  grep -E "FAILED|rc=" "$out/spts4.txt" | head
  python3 apps/spts/plot.py "$out"/spts/*.jsonl --outdir "$out/spts" > /dev/null 2>&1 || true
fi
if has xchg4; then  # spts: the signal and atomic exchanges at 2 and 4 PEs (road 14M random)
  for np in ${XNP:-2 4}; do for x in ${XCHG:-signal atomic}; do
    T=90 run $B/giorun -n $np $B/spts --variant gio --exchange $x --no-refs --type float --reps 10 \
      --gen road:rows=14000000 --order random --json "$out/spts-xchg.jsonl" 2>&1 | grep -E "solve |check" | head -4
  done; done
fi
if has lat3; then  # the latency targets over p2p, gda and the proxy, the NVSHMEM twin in the same call; bandwidth 256 MiB
  for t in p2p gda proxy; do
    GIO_TRANSPORT=$t T=90 run $B/giorun -n 2 $B/gio-bench put_latency --scope thread --wgs 1 --max-size 4K \
      --json "$out/gio-$t-quicklat.jsonl" > "$out/gio-$t-quicklat.txt" 2>&1
  done
  bin=$(bench_bin nvshmem) && T=90 run $B/giorun -n 2 $bin put_latency --scope thread --wgs 1 --max-size 4K \
    --json "$out/nvshmem-quicklat.jsonl" > "$out/nvshmem-quicklat.txt" 2>&1
  for impl in gio nvshmem; do
    bin=$(bench_bin $impl) && GIO_NUM_CONTEXTS=132 T=90 run $B/giorun -n 2 $bin bw --scope wg --wgs 8,32,132 \
      --min-size 256M --max-size 256M --json "$out/$impl-bw256.jsonl" > "$out/$impl-bw256.txt" 2>&1
  done
  grep -h -E "pingpong|put_nbi_quiet" "$out"/*-quicklat.txt | grep -E " (8|4096) " | head -40; grep -h "^bw" "$out"/*-bw256.txt
fi
if has coll4; then  # collectives at 2 and 4 PEs: GIO and NVSHMEM (work-group scope in kernels, and the
  # stream collectives *_on_stream from the host), NCCL; up to 256 MiB
  for np in ${CNP:-2 4}; do
    heap=$(( np * 512 + 1024 ))M
    for impl in gio nvshmem; do
      bin=$(bench_bin $impl) && GIO_SYMMETRIC_SIZE=$heap NVSHMEM_SYMMETRIC_SIZE=$heap T=${CT:-150} run $B/giorun -n $np $bin coll \
        --scopes ${CSCOPES:-wg,stream} ${COLL_ARGS:-} --json "$out/$impl-coll-np$np.jsonl" > "$out/$impl-coll-np$np.txt" 2>&1
    done
    # CREDUCE="pull push": GIO's again with each GIO_COLL_REDUCE (the stream all-reduce's kernel; the
    # run above is auto), into gio-<value>-coll-np<N>.*, for an A/B on one machine.
    for red in ${CREDUCE:-}; do
      GIO_COLL_REDUCE=$red GIO_SYMMETRIC_SIZE=$heap T=${CT:-150} run $B/giorun -n $np $B/gio-bench coll \
        --scopes ${CSCOPES:-wg,stream} ${COLL_ARGS:-} --json "$out/gio-$red-coll-np$np.jsonl" > "$out/gio-$red-coll-np$np.txt" 2>&1
    done
    [[ -x $B/gio-bench-nccl ]] && T=120 run $B/giorun -n $np $B/gio-bench-nccl coll ${COLL_ARGS:-} --json "$out/nccl-coll-np$np.jsonl" \
      > "$out/nccl-coll-np$np.txt" 2>&1
  done
  tail -n 4 "$out"/*-coll-np*.txt
  grep -H " 268435456 " "$out"/*-coll-np*.txt  # 256 MiB, every scope
fi
if has suite3; then  # the cuda suite at 2 and 4 PEs (one GPU each) over p2p and the proxy, then gda one case at a time
  (cd build-gpu && GIO_TIMEOUT_MS=30000 T=${ST3:-300} run ctest -R "\.(p2p|proxy|proxy_tcp|proxy_staged)\.np[24]" \
     -E "stress|fuzz" --timeout 120 -j4 --output-on-failure --stop-time "$(stop_in ${ST3:-300})") > "$out/ctest-suite3.log" 2>&1
  tail -12 "$out/ctest-suite3.log"
  (cd build-gpu && GIO_TIMEOUT_MS=30000 T=${GT3:-240} run ctest -R "\.gda\.np[24]" -E "stress|fuzz" --timeout 120 -j1 \
     --output-on-failure --stop-time "$(stop_in ${GT3:-240})") > "$out/ctest-gda3.log" 2>&1
  tail -12 "$out/ctest-gda3.log"
fi
if has warpprobe; then  # does a lone lane's one-lane warp instruction release the others' __syncwarp? (apps/bench/probes/warpsync_alone.cu)
  mkdir -p build-gpu && nvcc -O2 -arch=sm_90 -std=c++17 apps/bench/probes/warpsync_alone.cu -o build-gpu/warpsync_alone 2>> "$out/build.log" &&
    T=60 run build-gpu/warpsync_alone > "$out/warpsync_alone.txt" 2>&1
  cat "$out/warpsync_alone.txt"
fi
if has wavecheck; then  # wave-scope calls over gda and the proxy, every lane checking (lanes must not read before lane 0's operation completed)
  for tr in gda proxy; do
    GIO_TRANSPORT=$tr T=120 run $B/giorun -n 2 $B/test_rma --gtest_filter='RmaCooperative.BlockingCalls*' > "$out/wave-rma-$tr.txt" 2>&1
    GIO_TRANSPORT=$tr T=180 run $B/giorun -n 2 $B/test_coll_device --gtest_filter='*wave*:*Wave*' > "$out/wave-coll-$tr.txt" 2>&1
    echo "$tr rc=$?"; grep -hE "PASSED|FAILED  \]" "$out/wave-rma-$tr.txt" "$out/wave-coll-$tr.txt" | sort | uniq -c | head -8
  done
  # compute-sanitizer's synccheck reports warp barriers whose masks do not match (one PE of two).
  GIO_TRANSPORT=proxy T=240 run $B/giorun -n 2 compute-sanitizer --tool synccheck --print-limit 20 $B/test_coll_device \
    --gtest_filter='*FiftyBackToBackMixed/wave' > "$out/wave-synccheck.txt" 2>&1
  grep -E "ERROR SUMMARY|Barrier error" "$out/wave-synccheck.txt" | sort | uniq -c | head
fi
if has stress; then  # 64 work-groups x 100000 operations each over gda, one GPU per PE
  GIO_TRANSPORT=gda T=${SS:-240} run $B/giorun -n 2 $B/test_stress --gio_stress_ops=100000 --gio_stress_wgs=64 > "$out/gda_stress_full.txt" 2>&1
  echo "rc=$?" >> "$out/gda_stress_full.txt"; tail -4 "$out/gda_stress_full.txt"
fi
python3 apps/bench/plot.py "$out"/*put_latency.jsonl "$out"/*bw.jsonl --out "$out" > /dev/null 2>&1 || true
