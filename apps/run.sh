#!/usr/bin/env bash
# The main job: build GIO for the GPUs present (NVIDIA -> cuda; otherwise the CPU emulation), then
# run, each checked, the programs GIO is for and print a one-screen summary:
#   1. hello: PEs exchange data from inside kernels and print what they received;
#   2. put latency (gio-bench put_latency) and one put's cost against a raw store of the same bytes
#      (gio-bench callcost), thread scope;
#   3. Jacobi2D, every variant (device-initiated halos, kernel-boundary halos), against the 1-PE
#      reference of the same problem;
#   4. SpTS (sync-free sparse triangular solve) on one PE and on all, against cuSPARSE on cuda.
# On the CPU emulation the sizes are small (the whole job takes a few minutes on 2 cores, most of
# it the build); on GPUs they are sizes that mean something there. Exits non-zero if any check
# fails. Usage: apps/run.sh [PEs]   (default: hello on one PE per GPU and at least 2; the timed
# programs on one PE per GPU, so that no two PEs time-slice one GPU, and 2 PEs on the CPU emulation)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
platform=host
ngpu=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && command -v nvcc >/dev/null 2>&1; then
  platform=cuda
  ngpu=$(nvidia-smi -L | grep -c '^GPU')
fi
if ! command -v mpirun >/dev/null 2>&1 || { [[ $platform == host ]] && ! dpkg -s libboost-context-dev >/dev/null 2>&1; }; then
  bash tests/deps.sh
fi
np=${1:-$(( ngpu > 2 ? ngpu : 2 ))}
# PEs sharing a GPU take turns on it (the GPU time-slices between processes), so a timed solve or
# stencil there measures the turns; the timed programs run one PE per GPU unless told otherwise.
tp=${1:-$(( ngpu > 0 ? ngpu : 2 ))}
build=build; [[ $platform == host ]] || build=build-$platform
out=$build/main-job
mkdir -p "$out"
rm -f "$out"/*.jsonl
log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*"; }

log "GIO main job: platform $platform, $np PEs ($tp for Jacobi2D and SpTS); logs in $out"
log "building hello, gio-info, gio-bench, jacobi2d and spts"
cmake -S . -B "$build" -G Ninja -DGIO_PLATFORM=$platform >/dev/null
ninja -C "$build" hello gio-info gio-bench jacobi2d spts > "$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; echo "main job: the build failed (see $out/build.log)" >&2; exit 1; }
run=("$build/bin/giorun" -n "$np")
timed=("$build/bin/giorun" -n "$tp")
failed=()
step() {  # step NAME LOG COMMAND...: runs it, says how it went
  local name=$1 logf=$out/$2; shift 2
  log "$name"
  if "$@" > "$logf" 2>&1; then return 0; fi
  tail -15 "$logf"
  failed+=("$name (see $logf)")
}

step "hello: PEs exchange data from inside kernels" hello.txt "${run[@]}" "$build/bin/hello"
grep -m4 . "$out/hello.txt" | sed 's/^/  /' || true

if [[ $platform == host ]]; then
  bench=(--quick); jac=(--nx 512 --ny 512 --iters 100); spts_gen=(grid2d:rows=40000 road:rows=40000)
  spts_reps=3
else
  bench=(); jac=(--nx 16384 --ny 16384 --iters 1000); spts_gen=(grid2d:rows=4000000 road:rows=4000000)
  spts_reps=5
fi
# Two PEs on one GPU take turns on it: a ping-pong's half round trip is then the GPU's time slice
# between the two processes (milliseconds, against microseconds between two GPUs), so there
# the latency runs the quick sizes and counts, and says what its number is.
lat=("${bench[@]}")
if [[ $platform != host && $ngpu -lt 2 ]]; then
  lat=(--quick)
  log "one GPU: the 2 PEs of the latency take turns on it, so its ping-pong measures their time slices"
fi
step "put latency, thread scope, 2 PEs" latency.txt "$build/bin/giorun" -n 2 "$build/bin/gio-bench" put_latency \
  --scope thread "${lat[@]}" --json "$out/latency.jsonl"
step "one put's cost against a raw store, thread scope, 2 PEs" callcost.txt "$build/bin/giorun" -n 2 \
  "$build/bin/gio-bench" callcost --scope thread "${bench[@]}" --json "$out/callcost.jsonl"
for v in gio gio-launch interk interk-overlap; do
  step "Jacobi2D $v, $tp PEs" "jacobi-$v.txt" "${timed[@]}" "$build/bin/jacobi2d" --variant "$v" "${jac[@]}" \
    --json "$out/jacobi.jsonl"
done
variants=single,gio
[[ $platform == cuda ]] && variants=single,cusparse,gio
for g in "${spts_gen[@]}"; do
  for order in natural random; do
    step "SpTS $g, $order order ($variants), $tp PEs" "spts-${g%%:*}-$order.txt" "${timed[@]}" "$build/bin/spts" \
      --variant "$variants" --gen "$g" --order "$order" --type float --reps "$spts_reps" --json "$out/spts.jsonl"
  done
done

python3 apps/summary.py "$out" || failed+=("the summary found a failed check")
if [[ ${#failed[@]} -gt 0 ]]; then
  printf 'main job: FAILED: %s\n' "${failed[@]}" >&2
  exit 1
fi
log "main job: every check passed"
