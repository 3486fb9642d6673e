#!/usr/bin/env bash
# check.sh BUILD_DIR: installs BUILD_DIR into a scratch prefix, moves the prefix (the package must
# work wherever it lies), and builds hello_hip.cpp, a standard HIP + OpenSHMEM program, against it
# three ways a user would: oshc++ (compile, then link the object alone; and with -Wall -Wextra,
# where GIO's headers must raise no warning), find_package(GIO) with
# gio_kernel_sources, and pkg-config; ring.hip (a .hip file) through oshc++ and CMake; hello.c
# through oshcc, also as build systems call it (OSHCC naming the wrapper itself); complex_c_types.cpp
# (C++ with C's complex types) and chevrons.cu (<<<...>>> launches) through oshc++; and the wrappers
# must refuse GIO_CC/GIO_CXX naming a wrapper. On the host platform the installed gio-info runs,
# and each program runs on 2 PEs under oshrun; on cuda and hip this is a compile check (tests/run.sh
# runs it after those builds).
# GIO_CHECK_PREFIX=DIR checks a copy of an install made by hand instead of installing BUILD_DIR.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gio-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
step() { printf -- '-- install check: %s\n' "$*"; }

if [[ -n ${GIO_CHECK_PREFIX:-} ]]; then cp -a "$GIO_CHECK_PREFIX" "$work/staged"; else cmake --install "$build" --prefix "$work/staged" >/dev/null; fi
mv "$work/staged" "$work/prefix"
prefix=$work/prefix
pcdir=$(dirname "$(find "$prefix" -name gio.pc | head -1)")
export PKG_CONFIG_PATH=$pcdir
platform=$(pkg-config --variable=platform gio)
kernel_cxx=$(pkg-config --variable=kernel_cxx gio)
step "$platform platform, installed at $prefix"
for hdr in shmem.h shmemx.h shmemg.h; do
  [[ -f $prefix/include/$hdr ]] || { echo "install check: $prefix/include/$hdr is missing" >&2; exit 1; }
done
for tool in oshcc oshc++ oshrun giorun gio-info; do
  [[ -x $prefix/bin/$tool ]] || { echo "install check: $prefix/bin/$tool is missing" >&2; exit 1; }
done
case "$platform" in
  hip) [[ ! -e $prefix/include/gio/hip ]] || { echo "install check: GIO's hip/ must not be installed on hip" >&2; exit 1; } ;;
  *) [[ -f $prefix/include/gio/hip/hip_runtime.h ]] || { echo "install check: hip/hip_runtime.h missing" >&2; exit 1; } ;;
esac
cd "$work"

step "oshc++ -show"
"$prefix/bin/oshc++" -show -O2 "$src/hello_hip.cpp" -o hello_oshcxx | tee show.txt
grep -q -- "-lgio" show.txt && grep -q -- "$prefix/include" show.txt

step "oshc++: compile, then link the object"
"$prefix/bin/oshc++" -O2 -c "$src/hello_hip.cpp" -o hello.o
"$prefix/bin/oshc++" hello.o -o hello_oshcxx

step "oshc++ and oshcc with -Wall -Wextra: no warning from GIO's headers"
"$prefix/bin/oshc++" -Wall -Wextra -O2 -c "$src/hello_hip.cpp" -o warn.o 2> warn.txt
"$prefix/bin/oshcc" -Wall -Wextra -O2 -c "$src/hello.c" -o warn_c.o 2>> warn.txt
if grep -F "$prefix/include/" warn.txt | grep -q "warning:"; then
  cat warn.txt >&2
  echo "install check: GIO's installed headers raise the compiler warnings above" >&2
  exit 1
fi

step "oshc++ on a .hip file: compile, then link; and in one command"
"$prefix/bin/oshc++" -O2 -c "$src/ring.hip" -o ring.o
[[ -s ring.o ]] || { echo "install check: oshc++ -c ring.hip wrote no object" >&2; exit 1; }
"$prefix/bin/oshc++" ring.o -o ring_oshcxx
"$prefix/bin/oshc++" -O2 "$src/ring.hip" -o ring_direct

step "find_package(GIO) + gio_kernel_sources"
cmake_args=(-G Ninja "-DCMAKE_PREFIX_PATH=$prefix" -DCMAKE_BUILD_TYPE=Release)
[[ $platform == hip ]] && cmake_args+=("-DCMAKE_CXX_COMPILER=$kernel_cxx")
cmake -S "$src" -B cmake-build "${cmake_args[@]}" >/dev/null
ninja -C cmake-build >/dev/null

step "pkg-config: the kernel compiler with kernel_cflags and --cflags, then c++ with --libs"
# shellcheck disable=SC2046  # pkg-config prints flags to split
"$kernel_cxx" $(pkg-config --variable=kernel_cflags gio) $(pkg-config --cflags gio) -O2 -c "$src/hello_hip.cpp" \
  -o hello_pc.o
linker=c++
[[ $platform == hip ]] && linker=$kernel_cxx
# shellcheck disable=SC2046
"$linker" hello_pc.o -o hello_pc $(pkg-config --libs gio)

progs=(hello_oshcxx cmake-build/hello_cmake hello_pc ring_oshcxx ring_direct cmake-build/ring_cmake)
# A C11 program through oshcc: shmem.h from C, libgio's C symbols. Build systems that know
# OpenSHMEM wrappers (shmem4py) call it with OSHCC naming the wrapper itself: GIO's wrappers read
# GIO_CC and GIO_CXX, so that must build too (bounded: a wrapper calling itself never ends).
OSHCC=$prefix/bin/oshcc OSHCXX=$prefix/bin/oshc++ timeout 120 "$prefix/bin/oshcc" -std=c11 -Wall -Wextra -pedantic -Werror \
  -O2 -o hello_c "$src/hello.c" -lm
progs+=(hello_c)
step "oshc++ on C++ written with C's complex types (<complex.h>, _Complex, creal)"
"$prefix/bin/oshc++" -O2 -o hello_complex "$src/complex_c_types.cpp"
progs+=(hello_complex)
step "oshc++ on CUDA-syntax kernel launches (<<<...>>>)"
"$prefix/bin/oshc++" -O2 -o hello_chevrons "$src/chevrons.cu"
"$prefix/bin/oshc++" -O2 -c "$src/chevrons.cu" -o chevrons.o
[[ -s chevrons.o ]] || { echo "install check: oshc++ -c chevrons.cu wrote no object" >&2; exit 1; }
progs+=(hello_chevrons)

step "GIO_CC / GIO_CXX naming a wrapper: refused"
refused() {  # refused REGEX COMMAND...: the command must fail within 20 s, saying REGEX
  local out rc
  rc=0
  out=$(timeout 20 "${@:2}" 2>&1) || rc=$?
  if [[ $rc -eq 0 || $rc -eq 124 ]] || ! grep -Eq -- "$1" <<<"$out"; then
    echo "install check: $* exited $rc, want a refusal matching: $1" >&2; printf '%s\n' "$out" >&2; return 1
  fi
  printf '%s\n' "$out"
}
refused "oshcc: GIO_CC=.*oshcc is this wrapper" env GIO_CC="$prefix/bin/oshcc" "$prefix/bin/oshcc" -c "$src/hello.c" -o x.o
# A loop through another program: a "compiler" that runs oshcc again.
printf '#!/bin/sh\nexec "%s" "$@"\n' "$prefix/bin/oshcc" > cc-loop && chmod +x cc-loop
refused "oshcc: called from the compiler that .*oshcc runs: GIO_CC or GIO_CXX names a GIO wrapper" \
  env GIO_CC="$work/cc-loop" "$prefix/bin/oshcc" -c "$src/hello.c" -o x.o

if [[ $platform == host ]]; then
  step "oshc++ on a <<<...>>> launch gio-chevrons cannot rewrite: refused at its line, no object"
  printf '__global__ void k(int x) {}\nint main() {\n  k<<<1>>>(2);\n}\n' > bad_count.cu
  refused "bad_count.cu:3: gio-chevrons: a launch takes 2 to 4 configuration values .*, not 1" \
    "$prefix/bin/oshc++" -c bad_count.cu -o bad_count.o
  printf '__global__ void k() {}\nint main() {\n\n  k<<<1, 1>>>;\n}\n' > bad_args.cu
  refused "bad_args.cu:4: gio-chevrons: a <<<...>>> launch it cannot read" "$prefix/bin/oshc++" -c bad_args.cu -o bad_args.o
  [[ ! -e bad_count.o && ! -e bad_args.o ]] || { echo "install check: a refused launch left an object" >&2; exit 1; }
fi

if [[ $platform != host ]]; then
  step "built ${progs[*]} (compile check: no $platform device here)"
  exit 0
fi
step "the installed gio-info runs (it finds libgio from where it lies)"
out=$("$prefix/bin/gio-info" 2>&1) || { printf '%s\n' "$out"; echo "install check: the installed gio-info failed" >&2; exit 1; }
grep -q "GIO" <<<"$out" || { printf '%s\n' "$out"; echo "install check: gio-info printed nothing of GIO's" >&2; exit 1; }
for p in "${progs[@]}"; do
  step "oshrun -n 2 $p"
  out=$(GIO_TIMEOUT_MS=60000 "$prefix/bin/oshrun" -n 2 "./$p" 2>&1) || { printf '%s\n' "$out"; exit 1; }
  printf '%s\n' "$out"
  for pe in 0 1; do
    grep -Eq "^hello_(hip|c|ring|complex|chevrons): PE $pe of 2: ok$" <<<"$out" || { echo "install check: PE $pe of $p not ok" >&2; exit 1; }
  done
done
step "passed"
