#!/usr/bin/env bash
# session 24 call D (2 GPUs): the wave message-rate regression. gio-bench built from this tree (head),
# from this tree with each patch in variants/ (k1: one inline word per lane at wave scope, as before
# b4bca12; stg: the inline copy's stores as global stores; split: puts that fit one word per lane
# take the one-word copy; split+stg), from 26b8bfe (base, session 17's 3,650) and NVSHMEM's twin;
# then 8 B message rate at wave and work-group scope and the per-call cost, all in this one call.
set -u
export GIO_COMMIT=${GIO_COMMIT:?}
O=$OUT/d; mkdir -p $O
V=results/2026-11-28-4xh200-s24/variants
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0 PATH=$PATH:/usr/local/cuda/bin GIO_SYMMETRIC_SIZE=4G NVSHMEM_SYMMETRIC_SIZE=4G
nv=/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nvshmem/lib; export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:$nv
s=$(date +%s); t() { echo "$1 $(( $(date +%s) - s )) s" >> $O/times.txt; }
nvidia-smi -L > $O/device.txt; echo $GIO_COMMIT > $O/commit.txt
B=build-gpu/bin
( cmake -S . -B build-gpu -G Ninja -DGIO_PLATFORM=cuda -DGIO_BUILD_TESTS=OFF && ninja -C build-gpu gio-bench gio-bench-nvshmem ) > $O/build-head.log 2>&1 &
for v in k1 stg split splitstg; do
  mkdir -p /tmp/gio-$v
  tar -c --exclude=./build-gpu --exclude=./.git --exclude=./results . | tar -x -C /tmp/gio-$v
  case $v in splitstg) p="split stg" ;; *) p=$v ;; esac
  for q in $p; do patch -d /tmp/gio-$v -sp1 < $V/$q.patch || echo "patch $q failed" >> $O/build-$v.log; done
  ( cmake -S /tmp/gio-$v -B /tmp/build-$v -G Ninja -DGIO_PLATFORM=cuda -DGIO_BUILD_TESTS=OFF && ninja -C /tmp/build-$v gio-bench ) >> $O/build-$v.log 2>&1 &
done
( rm -rf /tmp/gio-base && git worktree add -f /tmp/gio-base 26b8bfe &&
  cmake -S /tmp/gio-base -B /tmp/build-base -G Ninja -DGIO_PLATFORM=cuda -DGIO_BUILD_TESTS=OFF && ninja -C /tmp/build-base gio-bench ) > $O/build-base.log 2>&1 &
wait; t build
bin() { case $1 in head) echo $B/gio-bench ;; nvshmem) echo $B/gio-bench-nvshmem ;; *) echo /tmp/build-$1/bin/gio-bench ;; esac; }
impls="head k1 stg split splitstg base nvshmem"
for rep in 1 2; do
  for impl in $impls; do
    b=$(bin $impl); [[ -x $b ]] || { echo "$impl: no binary" >> $O/times.txt; continue; }
    for it in 100 1000; do
      echo "GIO_NUM_CONTEXTS=132 giorun -n 2 $b msgrate --scope wave,wg --wgs 32,132 --iters $it" >> $O/commands.txt
      GIO_NUM_CONTEXTS=132 timeout 60 $B/giorun -n 2 $b msgrate --scope wave,wg --wgs 32,132 --iters $it \
        --json $O/msgrate-$impl.jsonl >> $O/msgrate-$impl.txt 2>&1
    done
  done
done
t msgrate
for impl in $impls; do
  b=$(bin $impl); [[ -x $b ]] || continue
  echo "giorun -n 2 $b callcost --scope wave,wg" >> $O/commands.txt
  timeout 60 $B/giorun -n 2 $b callcost --scope wave,wg --json $O/callcost-$impl.jsonl > $O/callcost-$impl.txt 2>&1
done
t callcost
tar czf $OUT/d.tgz -C $OUT d
cat $O/times.txt
for impl in $impls; do echo "== $impl"; grep -h "^msgrate" $O/msgrate-$impl.txt | awk '{print $3, $4, $7}' | sort | awk '{k=$1" "$2; a[k]=a[k]" "$3} END {for (k in a) print k":"a[k]}' | sort; done
for impl in $impls; do echo "== $impl"; grep -h "put_nbi_call" $O/callcost-$impl.txt | awk '{print $3, $5, $6}' | tr '\n' ';'; echo; done
