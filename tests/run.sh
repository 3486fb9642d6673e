#!/usr/bin/env bash
# The test command (what .ci/run calls): from a fresh clone,
#  1. builds the host platform (CPU emulation) and runs the whole suite at 2 and 4 PEs (then, as
#     a separate step, the `tools` tests of the report scripts);
#  2. compiles the cuda platform (sm_90) with every test, app and example (and the NVSHMEM twin);
#  3. builds the host platform with ASan+UBSan (build-asan) and with TSan (build-tsan, clang++-14)
#     and runs the unit and platform tests and the 2-PE functional suite over p2p and gda under each
#     (and over the proxy under ASan);
#  4. compiles the cuda platform (sm_90) with every test, app and example (and the NVSHMEM twin);
#  5. compiles the hip platform (gfx90a, gfx940) with every test, app and example.
# After each platform's build, tests/install/check.sh installs it and builds a standard HIP +
# OpenSHMEM program against the install (ctest's install.package on host, which also runs it).
# Environment: JOBS (build parallelism), GIO_SKIP_CUDA=1 / GIO_SKIP_HIP=1 to skip a compile check,
# GIO_SKIP_SANITIZERS=1 to skip step 3, GIO_SKIP_DRIVER=1 to skip driver-patches/build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
jobs=${JOBS:-$(nproc)}

need() { command -v "$1" >/dev/null 2>&1; }
if ! need mpirun || ! need cmake || ! need ninja || ! dpkg -s libboost-context-dev >/dev/null 2>&1; then
  bash tests/deps.sh
fi

step() { printf '\n==== %s ====\n' "$*"; }
took() { printf -- '---- %s: %d s\n' "$1" $((SECONDS - $2)); }

step "host platform: build"
cmake -S . -B build -G Ninja -DGIO_PLATFORM=host >/dev/null
ninja -C build -j "$jobs"
step "host platform: test suite (2 and 4 PEs)"
(cd build && ctest -LE "tools|driver" --output-on-failure --timeout 900)
step "tools: the report scripts on committed results (not GIO tests)"
(cd build && ctest -L tools --output-on-failure)
# driver-patches/build.sh: installs Debian's linux-source-6.1, linux-config-6.1 and 6.1 headers if
# missing, applies the amdgpu patch, compiles what it touches, checks the uapi contract and builds
# gio_iomem (93 s cold on 2 busy cores, 10 s warm; plus the packages' download).
if [[ "${GIO_SKIP_DRIVER:-0}" != 1 ]]; then
  step "driver-patches: apply and compile against Debian's linux-source-6.1"
  t0=$SECONDS
  (cd build && ctest -L driver --output-on-failure)
  took "driver-patches" $t0
fi

# Sanitizer builds: tests only (no apps), functional tests at 2 PEs, over p2p and gda and with
# every PE its own node (host posting to every peer through the softnic). Not run there: the fault
# suite (it checks messages and exit codes, not memory), fuzz.softnic (its own ASan build),
# func.test_stress.gda.full.np2 (the 100000-operation stress: 90 s plain; the 2000-operation
# stress cases run) and the disabled lockstep case.
# Under TSan that is every thread GIO has: the emulator's work-group threads and their fibers, the
# softnic thread against device fibers (doorbell records, CQ polling) and the host's drain, host
# threads (test_host_threads), and a PE's operations on itself. It fits the TSan step's share of
# CI (about 10 minutes on 2 cores; measured on a shared 2-core machine: build 118 s at -j1, tests
# 186-342 s): test_rma moves at most 64 KiB + 1 there (tests/func/gio_test.h), the rest runs as
# in the plain suite. TSan cannot see across processes: a PE's heap written by
# another PE's softnic or kernel is not checked.
# Under ASan also the proxy over shm at 2 PEs (not test_signal: 52 s there), whose thread serves
# peers' requests and copies staged chunks. Not under TSan: a peer's request reaches the proxy
# thread through another process, so TSan sees no order between, say, shmem_calloc's zeroing by
# the main thread and the proxy's atomic on those bytes after the barrier (tried: 18 of 28 cases
# reported such pairs).
san_tests='^(unit|platform)\.|^func\.test_[a-z0-9_]+\.(p2p|gda|gda_node_per_pe)\.np2$'
asan_tests="$san_tests|^func\.test_([a-z0-9_]+)\.proxy\.np2\$"
sanitized() {  # sanitized <build dir> <GIO_SANITIZE value> <test regex> [cmake options]
  local dir=$1 san=$2 tests=$3 t0=$SECONDS
  shift 3
  step "host platform with $san: build ($dir)"
  cmake -S . -B "$dir" -G Ninja -DGIO_PLATFORM=host "-DGIO_SANITIZE=$san" -DGIO_BUILD_APPS=OFF -DGIO_TEST_PES=2 \
    "$@" >/dev/null
  ninja -C "$dir" -j "$jobs"
  took "$dir build" $t0
  t0=$SECONDS
  step "host platform with $san: unit, platform and 2-PE functional tests"
  (cd "$dir" && ctest -R "$tests" -E '^func\.test_(signal|stress)\.proxy\.' --output-on-failure --timeout 900)
  took "$dir tests" $t0
}
if [[ "${GIO_SKIP_SANITIZERS:-0}" != 1 ]]; then
  sanitized build-asan address,undefined "$asan_tests"
  # clang's TSan runtime: GCC 12's makes each fiber switch 25-35x dearer and dies past 8128
  # fibers (cmake/GIOSanitize.cmake); test_amo over gda took 695 s under it, 17 s under clang's.
  sanitized build-tsan thread "$san_tests" -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14
fi

if [[ "${GIO_SKIP_CUDA:-0}" != 1 ]]; then
  if need nvcc || [[ -x /usr/local/cuda/bin/nvcc ]]; then
    step "cuda platform: compile everything for sm_90"
    export PATH="$PATH:/usr/local/cuda/bin"
    cmake -S . -B build-cuda -G Ninja -DGIO_PLATFORM=cuda -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
    ninja -C build-cuda -j "$jobs"
    step "cuda platform: the installed package (oshc++, find_package, pkg-config; compile only)"
    tests/install/check.sh build-cuda
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
  step "hip platform: the installed package (oshc++, find_package, pkg-config; compile only)"
  HCC_AMDGPU_TARGET=${archs//;/,} tests/install/check.sh build-hip
fi
step "all tests passed, all platforms compiled"
