#!/usr/bin/env bash
# session 24 call E (2 GPUs): wave message rate at commits between 26b8bfe and HEAD. bisect/<commit>.tgz was
# `git archive <commit> CMakeLists.txt runtime device host apps cmake tests` of this repository (carried, not
# committed); driver-patches/ comes from the running tree. (Its first run, without that copy, built only
# 26b8bfe and head: e/ holds the second.)
set -u
O=$OUT/e; mkdir -p $O
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0 PATH=$PATH:/usr/local/cuda/bin GIO_SYMMETRIC_SIZE=4G
s=$(date +%s); t() { echo "$1 $(( $(date +%s) - s )) s" >> $O/times.txt; }
nvidia-smi -L > $O/device.txt
( cmake -S . -B build-gpu -G Ninja -DGIO_PLATFORM=cuda -DGIO_BUILD_TESTS=OFF && ninja -C build-gpu gio-bench ) > $O/build-head.log 2>&1 &
for c in $(ls bisect/*.tgz | xargs -n1 basename | sed 's/.tgz//'); do
  mkdir -p /tmp/src-$c && tar -xzf bisect/$c.tgz -C /tmp/src-$c && cp -r driver-patches /tmp/src-$c/
  ( cmake -S /tmp/src-$c -B /tmp/b-$c -G Ninja -DGIO_PLATFORM=cuda -DGIO_BUILD_TESTS=OFF && ninja -C /tmp/b-$c gio-bench ) > $O/build-$c.log 2>&1 &
done
( rm -rf /tmp/gio-base && git worktree add -f /tmp/gio-base 26b8bfe &&
  cmake -S /tmp/gio-base -B /tmp/b-26b8bfe -G Ninja -DGIO_PLATFORM=cuda -DGIO_BUILD_TESTS=OFF && ninja -C /tmp/b-26b8bfe gio-bench ) > $O/build-26b8bfe.log 2>&1 &
wait; t build
order="26b8bfe 6254a7f 6aa6e89 71a17c9 2591516 b4bca12 f2c0f0e head"
for rep in 1; do for c in $order; do
  b=/tmp/b-$c/bin/gio-bench; [[ $c == head ]] && b=build-gpu/bin/gio-bench
  [[ -x $b ]] || { echo "$c: no binary" >> $O/times.txt; continue; }
  echo "== $c" >> $O/msgrate.txt
  GIO_NUM_CONTEXTS=132 GIO_COMMIT=$c timeout 40 build-gpu/bin/giorun -n 2 $b msgrate --scope wave --wgs 132 --iters 1000 >> $O/msgrate.txt 2>&1
done; done
t msgrate
tar czf $OUT/e.tgz -C $OUT e
cat $O/times.txt; grep -E "^==|^msgrate" $O/msgrate.txt
