#!/usr/bin/env bash
# Installs what building and testing GIO needs on a Debian/Ubuntu machine (CI starts clean).
# Idempotent: skips what is already there. Needs root (or sudo) for apt.
set -euo pipefail
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
pkgs=(cmake ninja-build g++ pkg-config openmpi-bin libopenmpi-dev libboost-context-dev libgtest-dev
      libibverbs-dev rdma-core libfabric-dev python3 python3-pip)
# clang 14 and its sanitizer/libFuzzer runtime for the softnic fuzzer (tests/fuzz/).
pkgs+=(clang-14 libclang-rt-14-dev)
# PMIx client library: the PMIx bootstrap (host/bootstrap/pmix.cpp) and its tests.
pkgs+=(libpmix-dev)
# Debian ships hipcc (compile-only here); Ubuntu's equivalent package has the same name. rocSPARSE:
# spts's vendor reference on hip (apps/spts/run_vendor.cpp), compiled and linked, never run here.
pkgs+=(hipcc librocsparse-dev)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "deps: installing ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
# matplotlib for the plot scripts; NVSHMEM's headers and libraries to compile the comparison build.
# nvdisasm: tests/sass/check_scope_sync.py reads the cuda build's machine code.
python3 - <<'PY' || python3 -m pip install -q matplotlib nvidia-nvshmem-cu13 nvidia-cuda-nvdisasm
import importlib.util, os, sys
cu13 = importlib.util.find_spec("nvidia.cu13")
dis = cu13 and any(os.path.exists(os.path.join(d, "bin", "nvdisasm")) for d in cu13.submodule_search_locations)
sys.exit(0 if importlib.util.find_spec("matplotlib") and importlib.util.find_spec("nvidia.nvshmem") and dis else 1)
PY
