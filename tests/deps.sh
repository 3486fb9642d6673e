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
# Packages whose program may come from elsewhere (a cmake from pip, an image's own Open MPI): with
# the program on PATH the package is not asked for.
declare -A program_of=([cmake]=cmake [ninja-build]=ninja [g++]=g++ [pkg-config]=pkg-config [openmpi-bin]=mpirun
                       [python3]=python3 [clang-14]=clang-14)
present() { installed "$1" || { [[ -n ${program_of[$1]:-} ]] && command -v "${program_of[$1]}" >/dev/null 2>&1; }; }
# available PKG: the package sources have a version of it to install.
available() {
  local cand
  cand=$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
  [[ -n $cand && $cand != "(none)" ]]
}
is_optional() { local o; for o in "${optional[@]}"; do [[ $o == "$1" ]] && return 0; done; return 1; }

missing=()
for p in "${pkgs[@]}"; do present "$p" || missing+=("$p"); done
status=0
if [[ ${#missing[@]} -gt 0 ]]; then
  lists=fresh
  $SUDO apt-get update -q || {
    lists=stale
    echo "deps: apt-get update failed; looking the packages up in the lists there are" >&2
  }
  install=() absent=()
  for p in "${missing[@]}"; do
    if available "$p"; then install+=("$p"); else absent+=("$p"); fi
  done
  # Without fresh lists "no candidate" may only mean that the archive was not reached (a machine
  # without network): the messages say so rather than blame the distribution.
  why="is not in this distribution's packages"
  [[ $lists == stale ]] && why="has no candidate (apt-get update could not reach the package archive)"
  for p in "${absent[@]}"; do
    if [[ $p == hipcc ]]; then
      echo "deps: hipcc $why: skipping the hip platform (tests/run.sh skips its compile check)"
    elif is_optional "$p"; then
      echo "deps: $p $why: skipped (optional)"
    elif [[ $lists == stale ]]; then
      echo "deps: ERROR: $p is needed, and apt has no candidate for it: apt-get update could not reach the" \
           "package archive (offline?); install $p by hand, or run tests/deps.sh where the archive is reachable" >&2
      status=1
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
pip_install() {
  python3 -m pip install -q matplotlib nvidia-nvshmem-cu13 nvidia-cuda-nvdisasm && return 0
  echo "deps: ERROR: pip could not install matplotlib, nvidia-nvshmem-cu13 and nvidia-cuda-nvdisasm (offline?): the" \
       "plots, the NVSHMEM comparison build and the machine-code checks need them" >&2
  return 1
}
python3 - <<'PY' || pip_install || status=1
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
