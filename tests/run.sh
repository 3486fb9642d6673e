#!/usr/bin/env bash
# The test command (what .ci/run calls): from a fresh clone,
#  1. builds the host platform (CPU emulation) and runs the whole suite at 2 and 4 PEs (then, as
#     a separate step, the `tools` tests of the report scripts);
#  2. compiles the cuda platform (sm_90) with every test, app and example (and the NVSHMEM twin);
#  3. compiles the hip platform (gfx90a, gfx940) with every test, app and example.
# Environment: JOBS (build parallelism), GIO_SKIP_CUDA=1 / GIO_SKIP_HIP=1 to skip a compile check.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
jobs=${JOBS:-$(nproc)}

need() { command -v "$1" >/dev/null 2>&1; }
if ! need mpirun || ! need cmake || ! need ninja || ! dpkg -s libboost-context-dev >/dev/null 2>&1; then
  bash tests/deps.sh
fi

step() { printf '\n==== %s ====\n' "$*"; }

step "host platform: build"
cmake -S . -B build -G Ninja -DGIO_PLATFORM=host >/dev/null
ninja -C build -j "$jobs"
step "host platform: test suite (2 and 4 PEs)"
(cd build && ctest -LE tools --output-on-failure --timeout 900)
step "tools: the report scripts on committed results (not GIO tests)"
(cd build && ctest -L tools --output-on-failure)

if [[ "${GIO_SKIP_CUDA:-0}" != 1 ]]; then
  if need nvcc || [[ -x /usr/local/cuda/bin/nvcc ]]; then
    step "cuda platform: compile everything for sm_90"
    export PATH="$PATH:/usr/local/cuda/bin"
    cmake -S . -B build-cuda -G Ninja -DGIO_PLATFORM=cuda -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
    ninja -C build-cuda -j "$jobs"
  else
    echo "cuda compile check FAILED: nvcc not found" >&2
    exit 1
  fi
fi

if [[ "${GIO_SKIP_HIP:-0}" != 1 ]]; then
  step "hip platform: compile everything for gfx90a and gfx940"
  archs="gfx90a;gfx940"
  CXX=hipcc cmake -S . -B build-hip -G Ninja -DGIO_PLATFORM=hip "-DGIO_HIP_ARCHS=$archs" >/dev/null
  # hipcc asks rocm_agent_enumerator for the GPUs of this machine (none: a traceback per plain C++
  # file) unless the targets are named.
  HCC_AMDGPU_TARGET=${archs//;/,} ninja -C build-hip -j "$jobs"
fi
step "all tests passed, all platforms compiled"
