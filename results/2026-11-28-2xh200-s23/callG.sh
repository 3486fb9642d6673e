#!/usr/bin/env bash
# session 23 call G: after check_pe's one-branch fast path: build the tree; per-call cost and message
# rate against NVSHMEM (same run); Jacobi2D 16384^2 on one GPU; then func/fault/app tests at 2 PEs
set -u
export GIO_COMMIT=${GIO_COMMIT:?}
O=$OUT/g; mkdir -p $O
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0 PATH=$PATH:/usr/local/cuda/bin GIO_SYMMETRIC_SIZE=4G NVSHMEM_SYMMETRIC_SIZE=4G
nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nvshmem/lib; export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:$nv
fab=$(ls /usr/lib/x86_64-linux-gnu/libfabric.so* | head -1)
s=$(date +%s); t() { echo "$1 $(( $(date +%s) - s )) s" >> $O/times.txt; }
nvidia-smi -L > $O/device.txt; echo $GIO_COMMIT > $O/commit.txt
B=build-gpu/bin
cmake -S . -B build-gpu -G Ninja -DGIO_PLATFORM=cuda -DGIO_TEST_PES=2 -DGIO_FABRIC_INCLUDE=$PWD/.carry/fabric/include -DGIO_FABRIC=$fab > $O/build.log 2>&1
ninja -C build-gpu gio-bench gio-bench-nvshmem jacobi2d >> $O/build.log 2>&1; t "bench build rc=$?"
( ninja -C build-gpu -j24 -k 0 > $O/build-rest.log 2>&1; t "rest build rc=$?" ) &
rest=$!
for impl in gio nvshmem; do
  bin=$B/gio-bench; [[ $impl == nvshmem ]] && bin=$B/gio-bench-nvshmem
  echo "giorun -n 2 $bin callcost" >> $O/commands.txt
  GIO_TRANSPORT=p2p timeout 60 $B/giorun -n 2 $bin callcost --json $O/callcost-$impl.jsonl > $O/callcost-$impl.txt 2>&1
done
t callcost
wait $rest
for impl in gio nvshmem; do
  bin=$B/gio-bench; [[ $impl == nvshmem ]] && bin=$B/gio-bench-nvshmem
  echo "GIO_NUM_CONTEXTS=132 giorun -n 2 $bin msgrate --wgs 1,32,132" >> $O/commands.txt
  GIO_NUM_CONTEXTS=132 timeout 60 $B/giorun -n 2 $bin msgrate --wgs 1,32,132 --json $O/msgrate-$impl.jsonl > $O/msgrate-$impl.txt 2>&1
done
t msgrate
for v in gio interk-overlap; do
  echo "CUDA_VISIBLE_DEVICES=0 giorun -n 1 jacobi2d --variant $v" >> $O/commands.txt
  CUDA_VISIBLE_DEVICES=0 timeout 60 $B/giorun -n 1 $B/jacobi2d --variant $v --json $O/jacobi1.jsonl >> $O/jacobi1.txt 2>&1
done
t jacobi
left=$(( 555 - ($(date +%s) - s) ))
echo "ctest -E 'stress|fuzz|gda|test_(strided|sync|team|wait|wave_post|rma|coll_device|signal)\.' -j4, $left s" >> $O/commands.txt
(cd build-gpu && timeout $left ctest -E "stress|fuzz|\.gda\.|test_(strided|sync|team|wait|wave_post|rma|coll_device|signal)\." -j4 --timeout 120 --output-on-failure \
   --stop-time $(date -d "+$((left - 10)) seconds" +%H:%M:%S)) > $O/ctest.log 2>&1
t ctest
tar czf $OUT/g.tgz -C $OUT g
cat $O/times.txt; grep -h put_nbi_call $O/callcost-*.txt | grep -E "wave|wg"; grep -h "total  \|roofline  " $O/jacobi1.txt; grep -h "^msgrate" $O/msgrate-*.txt
grep -E "tests passed|\*\*\*|Not Run|Failed  |Timeout" $O/ctest.log | head -20
