#!/usr/bin/env bash
# Builds the softnic WQE fuzzer (libFuzzer + ASan + UBSan, clang++-14) and runs it for N seconds
# (default 60) from a seed corpus of valid WQEs of every kind. A crash leaves its input under
# $GIO_FUZZ_ARTIFACTS (default ./softnic-fuzz-artifacts); replay it with `softnic_fuzz <file>`.
# Usage: tests/fuzz/run.sh [seconds]
set -euo pipefail
secs=${1:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
cxx=${GIO_FUZZ_CXX:-clang++-14}
artifacts=${GIO_FUZZ_ARTIFACTS:-$PWD/softnic-fuzz-artifacts}
work=$(mktemp -d "${TMPDIR:-/tmp}/gio-softnic-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

# softnic_exec.cpp is pure (no platform, no gio_config.h): the repository root is the only include.
"$cxx" -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -I"$root" "$root/tests/fuzz/softnic_fuzz.cpp" "$root/host/gda/softnic_exec.cpp" -o "$work/softnic_fuzz"

mkdir -p "$work/corpus" "$artifacts"
GIO_FUZZ_WRITE_SEEDS="$work/corpus" "$work/softnic_fuzz"
echo "softnic fuzz: $(ls "$work/corpus" | wc -l) seeds, ${secs} s"
rc=0
"$work/softnic_fuzz" -max_total_time="$secs" -max_len=80 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" "$work/corpus" || rc=$?
rmdir "$artifacts" 2>/dev/null || true  # keep the directory only when it holds a finding
if [[ $rc -ne 0 ]]; then
  echo "softnic fuzz: FAILED (exit $rc); reproducer(s) in $artifacts" >&2
fi
exit $rc
