#!/usr/bin/env bash
# Session 25, call D (nvidia-h200-x2): cd44348 (S::agree: the wave votes, the work-group does not).
# The func tests that make cooperative or one-lane puts and gets, built alone (the whole tree takes
# longer than this call has), run at 2 PEs over p2p, then over gda and the proxy until the cap; one
# message-rate run at wave and wg scope before them.
# Usage, from the repo root: GIO_COMMIT=cd44348 callD.sh OUT
set -uo pipefail
out=${1:?}
end=$(( $(date +%s) + ${CALL_S:-500} ))  # the whole call's deadline: the ctest runs share what the build leaves
left() { echo $(( end - $(date +%s) - $1 )); }
T="test_rma test_gda_wave test_coll_device test_strided test_wave_post test_signal test_local_buffers test_ctx test_team
   test_sync test_amo test_wait test_coll test_heap test_c_api"
GIO_TARGETS="gio-bench $T" results/run-gpu.sh "$out" build
B=build-gpu/bin
GIO_NUM_CONTEXTS=132 timeout 60 $B/giorun -n 2 $B/gio-bench msgrate --scope wave,wg --wgs 132 --iters 1000 \
  --json "$out/msgrate-gio.jsonl" > "$out/msgrate-gio.txt" 2>&1
re=$(echo $T | sed 's/ /|/g')
p=$(( $(left 0) * 6 / 10 ))
( cd build-gpu && timeout $((p + 10)) ctest -R "func\.($re)\.p2p\.np2" --timeout 60 --stop-time "$(date -d "+$p seconds" +%H:%M:%S)" ) \
  > "$out/ctest-p2p.log" 2>&1
g=$(left 15)
( cd build-gpu && timeout $((g + 10)) ctest -R "func\.($re)\.(gda|proxy)\.np2" --timeout 60 --stop-time "$(date -d "+$g seconds" +%H:%M:%S)" ) \
  > "$out/ctest-gda-proxy.log" 2>&1
cat "$out/times.txt"; grep "^msgrate" "$out/msgrate-gio.txt"; tail -4 "$out/ctest-p2p.log"; grep -E "tests passed|Failed|Timeout|\*\*\*" "$out"/ctest-*.log | head -30
