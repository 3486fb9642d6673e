#!/usr/bin/env bash
# Session 25, call C (nvidia-h200-x2): plat::wave_uniform on the cooperative put/get's branch to its
# out-of-line call. Message rate and call cost at thread, wave and wg scope for this tree, for
# 26a8756 (its parent) and NVSHMEM, in one call; then the put/get tests at 2 PEs over p2p, gda and
# the proxy (the wave and wg puts' inline path, its out-of-line call, a partial last wave).
# Usage, from the repo root: GIO_COMMIT=<this commit> callC.sh OUT
set -uo pipefail
out=${1:?}
GIO_TARGETS="gio-bench gio-bench-nvshmem test_rma test_gda_wave test_coll_device test_strided test_wave_post test_signal" \
  MSG_SCOPES=thread,wave,wg GIO_BASE=26a8756 results/run-gpu.sh "$out" build msgratebase
( cd build-gpu && timeout 230 ctest -R "func\.(test_rma|test_gda_wave|test_coll_device|test_strided|test_wave_post|test_signal)\.(p2p|gda|proxy)\.np2" \
    --timeout 120 --stop-time "$(date -d '+215 seconds' +%H:%M:%S)" ) > "$out/ctest-c.log" 2>&1
tail -25 "$out/ctest-c.log"
