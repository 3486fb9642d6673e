#!/usr/bin/env bash
# driver-patches/build.sh on a machine where Debian's kernel packages cannot be installed (the GPU
# machines: Ubuntu, no package source that has linux-source-6.1): dpkg-query knows none of them and
# apt-get cannot locate them (both faked on PATH). Expected: the test is skipped (exit 77) with the
# missing packages named, unless GIO_DRIVER_REQUIRED=1 (tests/run.sh's driver step), where it fails.
set -uo pipefail
build=${1:?usage: unavailable.sh DRIVER_PATCHES_BUILD_SH}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
printf '#!/bin/sh\nexit 1\n' > "$tmp/bin/dpkg-query"
printf '#!/bin/sh\necho "E: Unable to locate package linux-source-6.1"\nexit 100\n' > "$tmp/bin/apt-get"
printf '#!/bin/sh\necho 0\n' > "$tmp/bin/id"
chmod +x "$tmp/bin"/*
fail=0
out=$(env -u GIO_DRIVER_REQUIRED PATH="$tmp/bin:$PATH" GIO_KSRC_TARBALL="$tmp/none.tar.xz" "$build" --src "$tmp/w" 2>&1); rc=$?
if [ $rc -ne 77 ]; then echo "unavailable.sh: without GIO_DRIVER_REQUIRED build.sh exited $rc, want 77 (skip)"; fail=1; fi
if ! grep -q "SKIPPED.*linux-source-6.1" <<<"$out"; then echo "unavailable.sh: no SKIPPED line naming linux-source-6.1"; fail=1; fi
if grep -q "command not found" <<<"$out"; then echo "unavailable.sh: build.sh ran a command that is not there"; fail=1; fi
out2=$(PATH="$tmp/bin:$PATH" GIO_DRIVER_REQUIRED=1 GIO_KSRC_TARBALL="$tmp/none.tar.xz" "$build" --src "$tmp/w" 2>&1); rc2=$?
if [ $rc2 -ne 1 ]; then echo "unavailable.sh: with GIO_DRIVER_REQUIRED=1 build.sh exited $rc2, want 1"; fail=1; fi
if ! grep -q "apt-get install failed" <<<"$out2"; then echo "unavailable.sh: with GIO_DRIVER_REQUIRED=1 no 'apt-get install failed'"; fail=1; fi
if [ $fail -ne 0 ]; then printf -- '--- output without GIO_DRIVER_REQUIRED:\n%s\n--- with:\n%s\n' "$out" "$out2"; exit 1; fi
echo "unavailable.sh: skipped (77) without GIO_DRIVER_REQUIRED, failed (1) with it"
