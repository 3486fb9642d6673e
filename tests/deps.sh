#!/usr/bin/env bash
# Installs what building and testing GIO needs on a Debian/Ubuntu machine (CI starts clean).
# Idempotent: skips what is already there. Needs root (or sudo) for apt.
# Each missing package is looked up first (apt-cache policy) and only those this distribution has are
# installed, so one that it lacks cannot stop the others: Debian 12 packages hipcc and
# librocsparse-dev, Ubuntu 24.04 neither. Without them the hip platform is not compile-checked
# (tests/run.sh's table says "skipped: no hipcc"); any other package missing is an error (exit 1),
# after the rest are installed. tests/deps_decisions.sh checks these choices with apt faked.
set -uo pipefail
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
pkgs=(cmake ninja-build g++ pkg-config openmpi-bin libopenmpi-dev libboost-context-dev libgtest-dev
      libibverbs-dev rdma-core libfabric-dev python3 python3-pip)
# clang 14 and its sanitizer/libFuzzer runtime for the softnic fuzzer (tests/fuzz/).
pkgs+=(clang-14 libclang-rt-14-dev)
# PMIx client library: the PMIx bootstrap (host/bootstrap/pmix.cpp) and its tests.
pkgs+=(libpmix-dev)
# Optional: hipcc (the hip platform's compile check) and rocSPARSE (spts's vendor reference on
# hip, apps/spts/run_vendor.cpp, compiled and linked, never run here).
optional=(hipcc librocsparse-dev)
pkgs+=("${optional[@]}")

installed() { [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]; }
# available PKG: the package sources have a version of it to install.
available() {
  local cand
  cand=$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
  [[ -n $cand && $cand != "(none)" ]]
}
is_optional() { local o; for o in "${optional[@]}"; do [[ $o == "$1" ]] && return 0; done; return 1; }

missing=()
for p in "${pkgs[@]}"; do installed "$p" || missing+=("$p"); done
status=0
if [[ ${#missing[@]} -gt 0 ]]; then
  $SUDO apt-get update -q || echo "deps: apt-get update failed; looking the packages up in the lists there are" >&2
  install=() absent=()
  for p in "${missing[@]}"; do
    if available "$p"; then install+=("$p"); else absent+=("$p"); fi
  done
  for p in "${absent[@]}"; do
    if [[ $p == hipcc ]]; then
      echo "deps: hipcc is not in this distribution's packages: skipping the hip platform (tests/run.sh skips its compile check)"
    elif is_optional "$p"; then
      echo "deps: $p is not in this distribution's packages: skipped (optional)"
    else
      echo "deps: ERROR: $p is not in this distribution's packages, and GIO's build or tests need it" >&2
      status=1
    fi
  done
  if [[ ${#install[@]} -gt 0 ]]; then
    echo "deps: installing ${install[*]}"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${install[@]}" || {
      echo "deps: ERROR: apt-get install failed" >&2
      status=1
    }
  fi
fi
# matplotlib for the plot scripts; NVSHMEM's headers and libraries to compile the comparison build.
# nvdisasm: tests/sass/check_scope_sync.py reads the cuda build's machine code. The check is quiet:
# a fresh machine has no nvidia package at all, which find_spec reports by raising.
python3 - <<'PY' || python3 -m pip install -q matplotlib nvidia-nvshmem-cu13 nvidia-cuda-nvdisasm || status=1
import importlib.util, os, sys
def spec(name):
    try:
        return importlib.util.find_spec(name)
    except ImportError:
        return None
cu13 = spec("nvidia.cu13")
dis = cu13 and any(os.path.exists(os.path.join(d, "bin", "nvdisasm")) for d in cu13.submodule_search_locations)
sys.exit(0 if spec("matplotlib") and spec("nvidia.nvshmem") and dis else 1)
PY
exit $status
