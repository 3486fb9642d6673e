#!/usr/bin/env bash
# deps_decisions.sh DEPS_SH: tests/deps.sh's choices with dpkg-query, apt-cache, apt-get, id and
# python3's pip faked on PATH (nothing is installed). The fakes read two lists: the packages
# installed and the packages the sources have; apt-get, like the real one, refuses a whole install
# that names a package it cannot locate. Cases:
#  - Ubuntu 24.04 (no hipcc, no librocsparse-dev): the rest installed in one apt-get, a line saying
#    the hip platform is skipped, exit 0;
#  - Debian 12 (all there, cmake already installed): everything but cmake installed, hipcc too;
#  - a required package missing from the sources: an ERROR naming it, the rest installed, exit 1;
#  - everything installed: no apt-get at all;
#  - a GPU image without network (apt-get update fails, no lists) whose cmake, ninja and mpirun
#    come from outside dpkg: those are not asked for, and each missing library gets an ERROR that
#    says the archive was not reached, not that the distribution lacks it.
# PATH holds the fakes and only the tools deps.sh uses, so the machine's own cmake or mpirun does
# not count as installed.
# In every case the Python check runs isolated (no nvidia package), must print no traceback, and
# asks pip for the Python packages.
set -uo pipefail
deps=${1:?usage: deps_decisions.sh DEPS_SH}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bin=$tmp/bin
mkdir -p "$bin"
py=$(command -v python3)
cat > "$bin/dpkg-query" <<F
#!/bin/sh
# dpkg-query -W -f=FORMAT PKG
pkg=\$3
grep -qx "\$pkg" "$tmp/installed" && { printf 'install ok installed'; exit 0; }
echo "dpkg-query: no packages found matching \$pkg" >&2; exit 1
F
cat > "$bin/apt-cache" <<F
#!/bin/sh
# apt-cache policy PKG
[ "\$1" = policy ] || exit 1
grep -qx "\$2" "$tmp/available" || exit 0
printf '%s:\n  Installed: (none)\n  Candidate: 1.0-1\n' "\$2"
F
cat > "$bin/apt-get" <<F
#!/bin/sh
echo "apt-get \$*" >> "$tmp/log"
[ "\$1" = update ] && { [ -e "$tmp/offline" ] && exit 100; exit 0; }
for p in "\$@"; do
  case "\$p" in -*|install) continue ;; esac
  grep -qx "\$p" "$tmp/available" || { echo "E: Unable to locate package \$p"; exit 100; }
done
F
cat > "$bin/python3" <<F
#!/bin/sh
[ "\$1" = - ] && exec "$py" -I -S -
echo "python3 \$*" >> "$tmp/log"
F
cat > "$bin/pip-fails" <<F
#!/bin/sh
[ "\$1" = - ] && exec "$py" -I -S -
echo "python3 \$*" >> "$tmp/log"
[ "\$2" = pip ] && exit 1
exit 0
F
printf '#!/bin/sh\necho 0\n' > "$bin/id"
chmod +x "$bin"/*
for t in bash sed grep cat tr; do ln -s "$(command -v "$t")" "$bin/$t"; done

all="cmake ninja-build g++ pkg-config openmpi-bin libopenmpi-dev libboost-context-dev libgtest-dev libibverbs-dev
rdma-core libfabric-dev python3 python3-pip clang-14 libclang-rt-14-dev libpmix-dev hipcc librocsparse-dev"
fail=0
run() {  # run NAME INSTALLED AVAILABLE: runs deps.sh; sets out, rc, log
  name=$1
  tr ' ' '\n' <<<"$2" | grep . > "$tmp/installed"
  tr ' \n' '\n\n' <<<"$3" | grep . > "$tmp/available"
  : > "$tmp/log"
  out=$(PATH="$bin" bash "$deps" 2>&1); rc=$?
  log=$(cat "$tmp/log")
  if grep -q Traceback <<<"$out"; then echo "deps_decisions: $name: FAIL: a Python traceback"; fail=1; fi
  grep -q "^python3 -m pip install .*matplotlib" <<<"$log" || { echo "deps_decisions: $name: FAIL: pip not asked for matplotlib"; fail=1; }
}
expect() {  # expect DESCRIPTION COMMAND...
  local d=$1; shift
  "$@" || { echo "deps_decisions: $name: FAIL: $d"; printf -- '--- output:\n%s\n--- apt-get and pip:\n%s\n' "$out" "$log"; fail=1; }
}
installs() { grep -Eq "^apt-get install .* $1( |\$)" <<<"$log"; }
status() { [[ $rc -eq $1 ]]; }

run ubuntu-24.04 "" "$(sed 's/ hipcc librocsparse-dev//' <<<"$all")"
expect "exit status $rc, want 0" status 0
expect "libpmix-dev not installed" installs libpmix-dev
expect "one apt-get install" [ "$(grep -c '^apt-get install' <<<"$log")" -eq 1 ]
expect "hipcc asked of apt-get install" bash -c '! grep -q "^apt-get install.*hipcc" <<<"$1"' _ "$log"
expect "no line saying the hip platform is skipped" grep -q "hipcc is not in this distribution's packages: skipping the hip platform" <<<"$out"
expect "no line saying librocsparse-dev is skipped" grep -q "librocsparse-dev is not in this distribution's packages: skipped" <<<"$out"

run debian-12 "cmake" "$all"
expect "exit status $rc, want 0" status 0
expect "hipcc not installed" installs hipcc
expect "cmake installed again" bash -c '! grep -q "^apt-get install.* cmake" <<<"$1"' _ "$log"

run no-pmix "" "$(sed 's/ libpmix-dev//' <<<"$all")"
expect "exit status $rc, want 1" status 1
expect "no ERROR naming libpmix-dev" grep -q "ERROR: libpmix-dev is not in this distribution's packages" <<<"$out"
expect "the rest not installed" installs libfabric-dev

run all-installed "$all" "$all"
expect "exit status $rc, want 0" status 0
expect "apt-get called" bash -c '! grep -q "^apt-get" <<<"$1"' _ "$log"

# The GPU image: nothing from dpkg, no network, cmake/ninja/mpirun/g++/python3 on PATH, pip failing.
touch "$tmp/offline"
for t in cmake ninja mpirun g++ pkg-config; do printf '#!/bin/sh\nexit 0\n' > "$bin/$t"; chmod +x "$bin/$t"; done
mv "$bin/python3" "$bin/python3-ok"; cp "$bin/pip-fails" "$bin/python3"
run gpu-image-offline "" ""
expect "exit status $rc, want 1" status 1
expect "cmake asked for" bash -c '! grep -Eq "ERROR: (cmake|ninja-build|openmpi-bin|g\+\+) " <<<"$1"' _ "$out"
expect "no ERROR saying the archive was not reached for libboost-context-dev" \
  grep -q "ERROR: libboost-context-dev is needed, and apt has no candidate for it: apt-get update could not reach" <<<"$out"
expect "blames the distribution" bash -c '! grep -q "is not in this distribution" <<<"$1"' _ "$out"
expect "no ERROR naming what pip could not install" grep -q "ERROR: pip could not install matplotlib" <<<"$out"
rm -f "$tmp/offline"; mv "$bin/python3-ok" "$bin/python3"

[[ $fail -eq 0 ]] || exit 1
echo "deps_decisions: passed (Ubuntu 24.04, Debian 12, a required package absent, nothing to install, a GPU image offline)"
