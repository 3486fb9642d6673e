#!/usr/bin/env bash
# The main job: build GIO for the GPUs present (NVIDIA -> cuda; otherwise the CPU emulation) and
# run the hello example, where PEs exchange data from inside kernels and print what they received.
# Usage: apps/run.sh [PEs]   (default: one PE per GPU, at least 2)
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
build=build; [[ $platform == host ]] || build=build-$platform
echo "GIO main job: platform $platform, $np PEs"
cmake -S . -B "$build" -G Ninja -DGIO_PLATFORM=$platform >/dev/null
ninja -C "$build" hello gio-info >/dev/null
exec "$build/bin/giorun" -n "$np" "$build/bin/hello"
