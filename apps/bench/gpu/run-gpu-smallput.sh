#!/usr/bin/env bash
# One GPU (H200 or H100), 2 PEs sharing it over p2p: the small-put and one-lane gda post numbers.
#   apps/bench/gpu/run-gpu-smallput.sh BUILD_DIR OUTDIR [parts...]
#   parts (default: build callcost msgrate post; also: profile)
# Run from the repo root. Builds gio-bench, its NVSHMEM twin (NVSHMEM from $NVSHMEM_HOME or the
# nvidia-nvshmem-cu13 wheel python3 imports, as apps/bench/CMakeLists.txt looks) and gio-gda-post
# in BUILD_DIR, then:
#   callcost - cycles per putmem_nbi call, thread / wave / work-group scope, 8 B..4 KiB, GIO and
#              NVSHMEM, with the raw stores of the same scope (raw_store_call) and, at thread
#              scope, one thread's 16-byte-word copy (raw_vec_call: the floor of a thread's put);
#   msgrate  - 8-byte puts per second from 132 work-groups at thread scope (and wave, work-group),
#              GIO and NVSHMEM;
#   post     - gio-gda-post: the gda post at thread, wave and work-group scope, and its step
#              probe (path6 is the one-lane floor);
#   profile  - (not in the default) Nsight Compute's per-instruction source counters (warp stall
#              samples, instructions executed) of the thread- and wave-scope callcost kernels at
#              8 and 32 bytes, GIO and NVSHMEM: profile-<impl>-<scope>-<bytes>.csv, where the
#              cycles of one small put go.
# Logs, JSON lines and summary.txt go to OUTDIR; commands.txt lists every command run. The runs
# take about 3 minutes on an H200 after the build.
set -uo pipefail
B=${1:?usage: run-gpu-smallput.sh BUILD_DIR OUTDIR [parts...]}
out=${2:?usage: run-gpu-smallput.sh BUILD_DIR OUTDIR [parts...]}
shift 2
parts=${*:-build callcost msgrate post}
mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0
nv=${NVSHMEM_HOME:+$NVSHMEM_HOME/lib}
[[ -n $nv ]] || nv=$(python3 -c 'import nvidia.nvshmem as m; print(list(m.__path__)[0] + "/lib")' 2>/dev/null)
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:$nv
run() { echo "$*" >> "$out/commands.txt"; timeout "${T:-120}" "$@"; }
has() { [[ " $parts " == *" $1 "* ]] && echo "$(date +%T) $1" >> "$out/times.txt"; }
echo "${GIO_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}" > "$out/commit.txt"
nvidia-smi -L > "$out/device.txt" 2>&1
bin() { local b=$B/bin/gio-bench; [[ $1 == nvshmem ]] && b=$B/bin/gio-bench-nvshmem; [[ -x $b ]] && echo "$b"; }

if has build; then
  cmake -S . -B "$B" -G Ninja -DGIO_PLATFORM=cuda -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    > "$out/build.log" 2>&1
  ninja -C "$B" -k 0 gio-bench gio-bench-nvshmem gio-gda-post >> "$out/build.log" 2>&1 ||
    grep -E "error|FAILED" "$out/build.log" | head -20
  for impl in gio nvshmem; do bin $impl > /dev/null || echo "build: no gio-bench for $impl (see build.log)"; done
fi
if has callcost; then  # PE 0 puts to PE 1 on the same GPU; 1000 calls back to back, 5 reps
  for impl in gio nvshmem; do
    b=$(bin $impl) || continue
    GIO_TRANSPORT=p2p T=150 run "$B/bin/giorun" -n 2 "$b" callcost --scope thread,wave,wg --min-size 8 --max-size 4K \
      --json "$out/callcost-$impl.jsonl" > "$out/callcost-$impl.txt" 2>&1
    echo "callcost $impl rc=$?"
  done
fi
if has msgrate; then  # 8 B from 132 work-groups (one context each), thread scope first
  for impl in gio nvshmem; do
    b=$(bin $impl) || continue
    GIO_NUM_CONTEXTS=132 GIO_TRANSPORT=p2p T=90 run "$B/bin/giorun" -n 2 "$b" msgrate --scope thread,wave,wg --wgs 132 \
      --min-size 8 --max-size 8 --json "$out/msgrate-$impl.jsonl" > "$out/msgrate-$impl.txt" 2>&1
    echo "msgrate $impl rc=$?"
  done
fi
if has post; then  # one process; no NIC consumes these queues (apps/gda_post)
  T=120 run "$B/bin/gio-gda-post" --json "$out/gda_post.jsonl" > "$out/gda_post.txt" 2>&1
  echo "gda-post rc=$?"
fi

if has profile; then  # one k_callcost launch per run, thread scope; ncu serializes and replays it
  for impl in gio nvshmem; do
    b=$(bin $impl) || continue
    for sc in thread wave; do
      for n in 8 32; do
        GIO_TRANSPORT=p2p T=300 run "$B/bin/giorun" -n 2 ncu --target-processes all -k regex:k_callcost -c 1 \
          --section SourceCounters --section WarpStateStats --page source --print-source sass --csv \
          "$b" callcost --scope $sc --min-size $n --max-size $n --reps 3 > "$out/profile-$impl-$sc-$n.csv" 2> "$out/profile-$impl-$sc-$n.log"
        echo "profile $impl $sc $n B rc=$?"
      done
    done
  done
fi

# One table of what the goals compare: thread-scope call cost against NVSHMEM's and the floors,
# wave and work-group call costs, message rates, and the gda post against its probe.
python3 - "$out" > "$out/summary.txt" 2>&1 <<'EOF'
import json, os, sys
out = sys.argv[1]
def rows(name):
    p = os.path.join(out, name)
    if not os.path.exists(p):
        return []
    return [json.loads(l) for l in open(p) if l.strip().startswith("{")]
cc = {}
for impl in ("gio", "nvshmem"):
    for r in rows("callcost-%s.jsonl" % impl):
        cc[(impl, r["scope"], r["metric"], r["bytes"])] = r["median"]
sizes = sorted({k[3] for k in cc})
for scope in ("thread", "wave", "wg"):
    print("callcost %s scope, cycles per call (median)" % scope)
    cols = [("gio", "put_nbi_call"), ("nvshmem", "put_nbi_call"), ("gio", "raw_store_call")]
    if scope == "thread":
        cols.append(("gio", "raw_vec_call"))
    print("  %8s" % "bytes" + "".join("%18s" % ("%s %s" % (i, m.replace("_call", ""))) for i, m in cols) + "   gio<=nvshmem")
    for n in sizes:
        vals = [cc.get((i, scope, m, n)) for i, m in cols]
        ok = vals[0] is not None and vals[1] is not None and vals[0] <= vals[1]
        print("  %8d" % n + "".join("%18s" % ("-" if v is None else "%.0f" % v) for v in vals) + "   %s" % ("yes" if ok else "NO"))
for impl in ("gio", "nvshmem"):
    for r in rows("msgrate-%s.jsonl" % impl):
        print("msgrate %-8s %-6s %4d WGs %5d B: %s %s" % (impl, r["scope"], r["work_groups"], r["bytes"], r["median"], r["unit"]))
for r in rows("gda_post.jsonl"):
    if r["bench"] == "gda_post_cost" and r["build"] == "template":
        print("gda post %-10s %-6s %3d WGs: %8.0f cycles/post (%.0f per call)" % (
            r["queue_mem"], r["scope"], r["work_groups"], r["median"], r["cycles_per_call"]))
    elif r["bench"] == "gda_post_probe" and r["step"].startswith("path6"):
        print("gda probe %-10s %s: %.0f cycles" % (r["queue_mem"], r["step"], r["median"]))
EOF
cat "$out/summary.txt"
