#!/usr/bin/env bash
# session 22 call D: the func tests (p2p, proxy at 2 PEs; ctest -j4 under the new GPU lock) and wave
# put_nbi per-call cost with one piece of the call removed in each variant build
set -u
export GIO_COMMIT=${GIO_COMMIT:?}
O=$OUT/d; mkdir -p $O
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0 PATH=$PATH:/usr/local/cuda/bin
nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nvshmem/lib; export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:$nv
git apply .carry/exp.patch && echo "exp.patch applied (hooks inert without -D)" > $O/notes.txt
fab=$(ls /usr/lib/x86_64-linux-gnu/libfabric.so* | head -1)
ff=(-DGIO_FABRIC_INCLUDE=$PWD/.carry/fabric/include -DGIO_FABRIC=$fab)
s=$(date +%s)
FT="gio-bench gio-bench-nvshmem test_amo test_amo_host test_amo_nbi test_c_api test_coll test_coll_device test_coll_stream test_coll_stream_reduce test_ctx test_gda_wave test_globals test_heap test_host_completion test_host_threads test_host_transport test_host_wait test_local_buffers test_lock test_rma test_signal test_stress test_strided test_sync test_team test_wait test_wave_post"
( cmake -S . -B build-gpu -G Ninja -DGIO_PLATFORM=cuda -DGIO_TEST_PES=2 "${ff[@]}" > $O/build.log 2>&1 &&
  timeout 330 ninja -C build-gpu -k 0 $FT >> $O/build.log 2>&1; echo "main build rc=$? $(( $(date +%s) - s )) s" >> $O/times.txt ) &
for v in NOCHECK GO NOSYNC_IN NOSYNC_OUT; do
  ( cmake -S . -B build-$v -G Ninja -DGIO_PLATFORM=cuda -DGIO_BUILD_TESTS=OFF "-DCMAKE_CUDA_FLAGS=-DGIO_EXP_$v" > $O/build-$v.log 2>&1 &&
    timeout 330 ninja -C build-$v -j4 gio-bench >> $O/build-$v.log 2>&1; echo "$v build rc=$? $(( $(date +%s) - s )) s" >> $O/times.txt ) &
done
wait
for v in gpu NOCHECK GO NOSYNC_IN NOSYNC_OUT; do
  B=build-$v/bin; [[ -x $B/gio-bench ]] || continue
  GIO_TRANSPORT=p2p timeout 40 $B/giorun -n 2 $B/gio-bench callcost --scope wave,wg --json $O/cc-$v.jsonl > $O/cc-$v.txt 2>&1
done
timeout 40 build-gpu/bin/giorun -n 2 build-gpu/bin/gio-bench-nvshmem callcost --scope wave,wg --json $O/cc-nvshmem.jsonl > $O/cc-nvshmem.txt 2>&1
for f in $O/cc-*.txt; do echo "== $f"; grep put_nbi_call $f | awk '{print $3, $5, $6}' | tr '\n' ';'; echo; done > $O/cc-summary.txt
echo "callcost done $(( $(date +%s) - s )) s" >> $O/times.txt
left=$(( 470 - ($(date +%s) - s) ))
(cd build-gpu && timeout $left ctest -R "^func\.[a-z_]+\.(p2p|proxy|proxy_staged|proxy_tcp)\.np2$" -E stress -j4 --timeout 120 --output-on-failure \
   --stop-time $(date -d "+$((left - 10)) seconds" +%H:%M:%S)) > $O/ctest-func.log 2>&1
echo "ctest end $(( $(date +%s) - s )) s" >> $O/times.txt
tar czf $OUT/d.tgz -C $OUT d
cat $O/times.txt $O/cc-summary.txt; grep -E "tests passed|\*\*\*|Not Run" $O/ctest-func.log | head -20
