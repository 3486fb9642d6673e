#!/usr/bin/env bash
# Per-call cost, message rate and Jacobi2D on one GPU for two GIO source trees in one run: the tree
# this script sits in ("head") and another one ("base"), built alike, with NVSHMEM's twin of
# gio-bench as the anchor measured in the same run. Two PEs share the GPU for gio-bench; Jacobi2D
# runs on one PE at 16384^2 with its roofline.
# Usage: apps/bench/compare_builds.sh BASE_SRC OUTDIR
#   BASE_SRC  another GIO source tree, e.g. made by `git archive <commit> | tar -x -C DIR`
#   OUTDIR    JSON lines (callcost-*.jsonl, msgrate-*.jsonl, jacobi-*.jsonl), logs, summary.txt
# Environment: GIO_NVSHMEM_ROOT (NVSHMEM's include/ and lib/; else apps/bench/CMakeLists.txt looks
# for it), GIO_FABRIC_INCLUDE and GIO_FABRIC (libfabric headers and library for the proxy),
# REPS (runs of each measurement, default 2), JOBS (build parallelism, default nproc).
set -uo pipefail
base_src=$(cd "${1:?usage: compare_builds.sh BASE_SRC OUTDIR}" && pwd)
out=${2:?usage: compare_builds.sh BASE_SRC OUTDIR}
head_src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
reps=${REPS:-2}
jobs=${JOBS:-$(nproc)}
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0 GIO_SYMMETRIC_SIZE=${GIO_SYMMETRIC_SIZE:-4G}
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-4G}
nvidia-smi -L > "$out/device.txt" 2>&1

cmake_extra=()
[[ -n ${GIO_NVSHMEM_ROOT:-} ]] && cmake_extra+=("-DGIO_NVSHMEM_ROOT=$GIO_NVSHMEM_ROOT")
[[ -n ${GIO_FABRIC_INCLUDE:-} && -n ${GIO_FABRIC:-} ]] &&
  cmake_extra+=("-DGIO_FABRIC_INCLUDE=$GIO_FABRIC_INCLUDE" "-DGIO_FABRIC=$GIO_FABRIC")

build() {  # build NAME SRC TARGETS...: configures SRC into /tmp/gio-build-cmp-NAME
  local name=$1 src=$2; shift 2
  local dir=/tmp/gio-build-cmp-$name
  cmake -S "$src" -B "$dir" -G Ninja -DGIO_PLATFORM=cuda -DGIO_BUILD_TESTS=OFF \
    "${cmake_extra[@]}" > "$out/build-$name.log" 2>&1 &&
    ninja -C "$dir" -j "$jobs" "$@" >> "$out/build-$name.log" 2>&1 ||
    { echo "compare_builds: $name failed to build (see build-$name.log)" >&2; tail -20 "$out/build-$name.log" >&2; return 1; }
}
# The two builds run side by side: each is mostly one long compile per file.
build base "$base_src" gio-bench jacobi2d & b=$!
build head "$head_src" gio-bench gio-bench-nvshmem jacobi2d || exit 1
wait $b || exit 1
nvlib=$(sed -n 's/^GIO_BENCH_NVSHMEM_DIR:[A-Z]*=//p' /tmp/gio-build-cmp-head/CMakeCache.txt)
[[ -n $nvlib ]] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$nvlib/lib

run() { echo "$*" >> "$out/commands.txt"; timeout "${T:-120}" "$@"; }
for rep in $(seq "$reps"); do
  for impl in base head nvshmem; do
    dir=/tmp/gio-build-cmp-$impl bin=gio-bench
    [[ $impl == nvshmem ]] && dir=/tmp/gio-build-cmp-head bin=gio-bench-nvshmem
    [[ -x $dir/bin/$bin ]] || continue
    T=120 run "$dir/bin/giorun" -n 2 "$dir/bin/$bin" callcost --scope thread,wave,wg \
      --json "$out/callcost-$impl.jsonl" >> "$out/callcost-$impl.txt" 2>&1
    GIO_NUM_CONTEXTS=132 T=120 run "$dir/bin/giorun" -n 2 "$dir/bin/$bin" msgrate --scope thread,wave,wg \
      --wgs 1,32,132 --json "$out/msgrate-$impl.jsonl" >> "$out/msgrate-$impl.txt" 2>&1
  done
  for impl in base head; do
    dir=/tmp/gio-build-cmp-$impl
    for v in gio gio-launch interk interk-overlap; do
      T=90 run "$dir/bin/giorun" -n 1 "$dir/bin/jacobi2d" --variant "$v" --nx 16384 --ny 16384 \
        --json "$out/jacobi-$impl.jsonl" >> "$out/jacobi-$impl.txt" 2>&1
    done
  done
done
python3 "$head_src/apps/bench/compare_builds.py" "$out" | tee "$out/summary.txt"
