#!/usr/bin/env bash
# session 22 call A: the wave check's targets built (timed), the wave check over gda/proxy, per-call cost,
# gda posting, then the rest of the cuda tree for as long as the call allows
set -u
export GIO_COMMIT=${GIO_COMMIT:?}
O=$OUT/a; mkdir -p $O
nproc > $O/nproc.txt
s=$(date +%s)
GIO_TARGETS="test_rma test_coll_device gio-bench gio-bench-nvshmem gio-gda-post" timeout 330 results/run-gpu.sh $O build
echo "targets build rc=$? $(( $(date +%s) - s )) s" >> $O/times.txt
timeout 170 results/run-gpu.sh $O wavecheck > $O/wavecheck-summary.txt 2>&1
echo "wavecheck done $(( $(date +%s) - s )) s" >> $O/times.txt
GIO_BUILD=$PWD/build-gpu timeout 70 results/run-gpu1.sh $O/cc callcost > /dev/null 2>&1
GIO_BUILD=$PWD/build-gpu timeout 40 results/run-gpu1.sh $O/cc post > /dev/null 2>&1
echo "callcost+post done $(( $(date +%s) - s )) s" >> $O/times.txt
left=$(( 560 - ($(date +%s) - s) ))
(( left > 20 )) && timeout $left ninja -C build-gpu -k 0 > $O/build-rest.log 2>&1
echo "rest build rc=$? end $(( $(date +%s) - s )) s" >> $O/times.txt
tar czf $OUT/a.tgz -C $OUT a
cat $O/times.txt $O/wavecheck-summary.txt
