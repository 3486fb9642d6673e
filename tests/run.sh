#!/usr/bin/env bash
# The test command (what .ci/run calls): from a fresh clone,
#  1. builds the host platform (CPU emulation) and runs the whole suite at 2 and 4 PEs (the `lint`
#     tests among them: tests/history/check_history.py and tests/api/api_index.py --check);
#  2. applies the driver patches and compiles them against Debian's linux-source-6.1;
#  3. builds the host platform with ASan+UBSan (build-asan) and with TSan (build-tsan, clang++-14)
#     and runs the unit and platform tests and the 2-PE functional suite over p2p and gda under each
#     (and over the proxy under ASan);
#  4. compiles the cuda platform (sm_90) with every test, app and example (and the NVSHMEM twin),
#     and checks the machine code of the cooperative scopes: their syncs after a one-lane post and
#     their loops of calls, and one thread's small put in its inline form (tests/sass/check_scope_sync.py,
#     check_put_loop.py, check_call_branch.py, check_thread_put.py);
#  5. compiles the hip platform (gfx90a) with every test, app and example, and the kernels that
#     reach every part of the device API again for gfx940.
# The builds of steps 3-5 compile in a background queue beside the tests of steps 1-3 (idle CPU
# priority: "The background queue" below); each step that needs one of them waits for it.
# Every step runs, whatever an earlier one did (a step whose prerequisite failed is marked skipped);
# each prints its time ("---- step: N s"), and the end prints a table of step, result and time and
# exits non-zero if any step failed. The whole must stay under 45 minutes on CI's 2 cores.
# After each platform's build, tests/install/check.sh installs it and builds a standard HIP +
# OpenSHMEM program against the install (ctest's install.package on host, which also runs it).
# Environment: JOBS (build parallelism), GIO_SKIP_CUDA=1 / GIO_SKIP_HIP=1 to skip a compile check,
# GIO_SKIP_SANITIZERS=1 to skip step 3, GIO_SKIP_DRIVER=1 to skip driver-patches/build.sh.
# GIO_RUN_DRY=1 runs no step's commands (each passes at once) but makes every decision (what runs,
# what is skipped and why) and prints the table; with it GIO_RUN_DRY_FAIL=REGEX makes the steps whose
# names match fail (tests/run_dry.sh, ctest's tests.run_dry, checks the table and the exit status).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
jobs=${JOBS:-$(nproc)}
dry=${GIO_RUN_DRY:-0}

need() { command -v "$1" >/dev/null 2>&1; }
if [[ $dry != 1 ]] && { ! need mpirun || ! need cmake || ! need ninja || ! dpkg -s libboost-context-dev >/dev/null 2>&1; }; then
  bash tests/deps.sh || echo "run.sh: tests/deps.sh failed; the steps that need what it could not install will fail" >&2
fi

# Steps. `run_step NAME FUNCTION [PREREQUISITE]` runs FUNCTION in a subshell with `set -e` (its first
# failing command ends the step, not the script) unless the step named PREREQUISITE did not pass;
# `skip_step NAME REASON` records a step that does not apply here, `fail_step NAME REASON` one that
# cannot run. The table at the end lists them.
step_names=() step_results=() step_secs=()
in_bg=0 bg_res="" bg_log="" bg_n=0 logdir=""
record() {
  step_names+=("$1"); step_results+=("$2"); step_secs+=("$3")
  # In the background queue the result also goes to the main script, which records it in its turn.
  if ((in_bg)); then printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$bg_log" >&"$bg_res"; fi
}
result_of() {  # result_of NAME: the recorded result of a step ("" if none)
  local i
  for i in "${!step_names[@]}"; do [[ ${step_names[$i]} == "$1" ]] && { echo "${step_results[$i]}"; return; }; done
}
step_output() {  # in the background queue, each step's output goes to a log of its own (build-logs/)
  if ((in_bg)) && [[ $dry != 1 ]]; then
    bg_n=$((bg_n + 1))
    bg_log="$logdir/$bg_n.log"
    exec >"$bg_log" 2>&1
  fi
}
run_step() {
  local name=$1 fn=$2 pre=${3:-} t0=$SECONDS rc
  step_output
  if [[ -n $pre && $(result_of "$pre") != passed ]]; then
    printf '\n==== %s: skipped (%s did not pass) ====\n' "$name" "$pre"
    record "$name" "skipped: prerequisite failed" 0
    return
  fi
  printf '\n==== %s ====\n' "$name"
  if [[ $dry == 1 ]]; then
    rc=0
    if [[ -n ${GIO_RUN_DRY_FAIL:-} && $name =~ $GIO_RUN_DRY_FAIL ]]; then rc=1; fi
  else
    (set -e; "$fn")
    rc=$?
  fi
  printf -- '---- %s: %d s\n' "$name" $((SECONDS - t0))
  if ((rc == 0)); then record "$name" passed $((SECONDS - t0)); else record "$name" "FAILED: exit status $rc" $((SECONDS - t0)); fi
}
skip_step() {
  step_output
  printf '\n==== %s: skipped: %s ====\n' "$1" "$2"
  record "$1" "skipped: $2" 0
}
fail_step() {
  step_output
  printf '\n==== %s: FAILED: %s ====\n' "$1" "$2" >&2
  record "$1" "FAILED: $2" 0
}

# The background queue. Compile-only steps (the sanitizer builds, the cuda and hip compile checks)
# run one after another in a queue of their own, beside the test steps, at idle priority
# (SCHED_IDLE: chrt --idle; nice 19 where that is refused): they take only the CPU time the tests
# leave (PEs waiting for each other, process starts, timeouts running out), and none when a test
# wants it. The host suite's other tests left 22 % of the two cores idle (631 s; /proc/stat's idle
# every 5 s), the fuzzer and the one-core signal test half of them. bg_collect NAME waits for the
# queue to finish that step, prints its output and records it, so the table lists the steps in the
# order they always had, each with its own time (the background steps' times overlap the others').
# While the main script waits for the queue it has nothing else to run, so the queue's processes
# are raised to the normal policy until the wait ends: on a machine shared with other work an idle
# queue would otherwise wait for that work too. The processes it starts after that inherit the
# policy of the one that starts them (ninja, the step's shell).
bg_fd="" bg_open=0 bg_pid=""
bg_policy() {  # bg_policy idle|other: the queue's processes (its shell and every descendant)
  [[ $dry == 1 || -z $bg_pid ]] && return 0
  local todo=("$bg_pid") p kids
  while ((${#todo[@]} > 0)); do
    p=${todo[0]}
    todo=("${todo[@]:1}")
    chrt "--$1" -p 0 "$p" >/dev/null 2>&1 || true
    kids=$(ps -o pid= --ppid "$p" 2>/dev/null) || true
    for p in $kids; do todo+=("$p"); done
  done
}
bg_start() {  # bg_start FUNCTION: FUNCTION's steps, in the background queue
  if [[ $dry != 1 ]]; then logdir="$root/build-logs"; mkdir -p "$logdir"; fi
  exec {bg_fd}< <(
    in_bg=1
    exec {bg_res}>&1
    if [[ $dry == 1 ]]; then
      exec >/dev/null 2>&1
    else
      exec >"$logdir/queue.log" 2>&1
      chrt --idle -p 0 "$BASHPID" || renice -n 19 -p "$BASHPID" || true
    fi
    "$1"
    printf -- '--end--\n' >&"$bg_res"
  )
  bg_pid=$!
  bg_open=1
}
bg_collect() {  # bg_collect [NAME]: the queue's steps up to NAME (all of them without one), waited for
  local n r s log t0=$SECONDS
  bg_policy other
  while ((bg_open)) && IFS=$'\t' read -r -u "$bg_fd" n r s log; do
    if [[ $n == --end-- ]]; then break; fi
    if [[ $dry == 1 ]]; then
      printf '\n==== %s ====\n---- %s: %d s\n' "$n" "$n" "$s"
    elif [[ -n $log && -f $log ]]; then
      cat "$log"
    fi
    printf -- '---- (background) %s: %s, %d s; waited %d s for it\n' "$n" "$r" "$s" $((SECONDS - t0))
    record "$n" "$r" "$s"
    if [[ -n ${1:-} && $n == "$1" ]]; then
      bg_policy idle
      return
    fi
  done
  bg_open=0
  if [[ -n ${1:-} ]]; then record "$1" "FAILED: the background queue ended before it" 0; fi
}

# Build types (CI's time, on 2 cores). Debug info is most of a compile here: -g doubled nvcc's time
# on a gio-bench file (68 s against 37 s) and cost GCC 40 % on test_amo.cpp, and UBSan at -O2 is
# dear. So: the suite's build at -O2 without -g; the sanitizer builds at -O1 with line tables
# (-g1: reports keep file:line), half the compile of -O2 -g (test_amo.cpp under ASan+UBSan: 31 s
# against 71 s); the cuda build, which only proves that everything compiles, at -O0 on host and
# nvcc's --Ofast-compile=max on device (the GPU machine builds with the default RelWithDebInfo); hip
# at -O2 without -g (its comment below says why not -O0). A user's build keeps RelWithDebInfo
# (CMakeLists.txt). ptxas is most of the cuda build: test_coll_device.cpp took 351 s at
# -Xcicc=-O0 -Xptxas=-O0 (325 s of it ptxas, 6.8 GB), over 10 minutes at nvcc's default device
# optimization, and 25 s at --Ofast-compile=max, which still runs cicc and ptxas over every kernel.
opt() {  # opt <flags for C, C++ (and CUDA)>
  printf '%s\n' -DCMAKE_BUILD_TYPE=Release "-DCMAKE_C_FLAGS_RELEASE=$1 -DNDEBUG" "-DCMAKE_CXX_FLAGS_RELEASE=$1 -DNDEBUG"
}
mapfile -t suite_opt < <(opt -O2)
mapfile -t san_opt < <(opt "-O1 -g1")
mapfile -t check_opt < <(opt -O0)
mapfile -t hip_opt < <(opt -O2)

host_build() {
  cmake -S . -B build -G Ninja -DGIO_PLATFORM=host "${suite_opt[@]}" >/dev/null
  ninja -C build -j "$jobs"
}
# ctest -j counts each test's PROCESSORS (one per PE), so at twice the cores two 2-PE tests share
# them. That nearly halves the fault, app and bench tests, which mostly start PEs and wait (on 2
# cores: fault 157 -> 77 s, app + bench 136 -> 82 s). The others run one at a time: their PEs spin,
# and two of them starve each other's proxy thread (func.test_amo.proxy_tcp.np2: 21 s alone, 72 s
# beside another test; the whole suite at -j4 took 1061 s, against 1100-1600 s one at a time).
light='^(fault|app|bench)\.'
host_light() { cd build && ctest -LE driver -R "$light" -j $((2 * jobs)) --output-on-failure --timeout 900; }
host_rest() { cd build && ctest -LE driver -E "$light" --output-on-failure --timeout 900; }
# driver-patches/build.sh: installs Debian's linux-source-6.1, linux-config-6.1 and 6.1 headers if
# missing, applies the amdgpu patch, compiles what it touches, checks the uapi contract and builds
# gio_iomem (93 s cold on 2 busy cores, 10 s warm; plus the packages' download).
# Required here: where the packages cannot be installed, build.sh would otherwise exit 77 (skip).
driver() { cd build && GIO_DRIVER_REQUIRED=1 ctest -L driver --output-on-failure; }

# Sanitizer builds: the programs of the tests they run (no apps, no fault programs), functional
# tests at 2 PEs, over p2p and gda and with every PE its own node (host posting to every peer
# through the softnic). Not run there: the fault suite (it checks messages and exit codes, not
# memory), fuzz.softnic (its own ASan build), func.test_stress.gda.full.np2 (the long
# stress; the 2000-operation stress cases run) and the disabled lockstep case.
# Under TSan that is every thread GIO has: the emulator's work-group threads and their fibers, the
# softnic thread against device fibers (doorbell records, CQ polling) and the host's drain, host
# threads (test_host_threads), and a PE's operations on itself. It fits the TSan step's share of
# CI (about 10 minutes on 2 cores; on a 2-core machine: build 118 s with JOBS=1 on a shared one,
# tests 257 s (tsan_run) on an idle one): test_rma moves at most 64 KiB + 1 there
# (tests/func/gio_test.h) and test_signal's rings make 25 round trips a work-group
# (tests/func/CMakeLists.txt, GIO_SAN_ARGS_test_signal); the rest runs as in the plain suite. TSan
# cannot see across processes: a PE's heap written by another PE's softnic or kernel is not checked.
# Under ASan also the proxy over shm at 2 PEs (not test_signal: 52 s there), whose thread serves
# peers' requests and copies staged chunks. Not under TSan: a peer's request reaches the proxy
# thread through another process, so TSan sees no order between, say, shmem_calloc's zeroing by
# the main thread and the proxy's atomic on those bytes after the barrier (tried: 18 of 28 cases
# reported such pairs).
san_tests='^(unit|platform)\.|^func\.test_[a-z0-9_]+\.(p2p|gda|gda_node_per_pe)\.np2$'
asan_tests="$san_tests|^func\.test_([a-z0-9_]+)\.proxy\.np2\$"
san_skip='^func\.test_(signal|stress)\.proxy\.'
san_build() {  # san_build <build dir> <GIO_SANITIZE value> <test regex> [cmake options]
  local dir=$1 san=$2 tests=$3
  shift 3
  cmake -S . -B "$dir" -G Ninja -DGIO_PLATFORM=host "-DGIO_SANITIZE=$san" -DGIO_BUILD_APPS=OFF -DGIO_TEST_PES=2 \
    "${san_opt[@]}" "$@" >/dev/null
  # Only the programs these tests run (not the fault programs or the libfabric probe, which no test
  # here runs): ctest picks the tests, their add_test lines name the programs (ctest's own JSON
  # leaves out a command whose program is not built yet), and ninja builds libgio with them.
  local abs targets=() p
  abs=$(cd "$dir" && pwd)
  for p in $(cd "$dir" && ctest --show-only=json-v1 -R "$tests" -E "$san_skip" | python3 -c 'import json, os, re, sys
root, names, progs = sys.argv[1], {t["name"] for t in json.load(sys.stdin)["tests"]}, set()
for d, _, files in os.walk(root):
    if "CTestTestfile.cmake" in files:
        for line in open(os.path.join(d, "CTestTestfile.cmake")):
            m = re.match(r"add_test\(\[=\[(.*?)\]=\] (.*)\)$", line.strip())
            if m and m.group(1) in names:
                progs.update(w for w in re.findall(r"\"([^\"]*)\"", m.group(2)) if w.startswith(root + "/"))
print("\n".join(sorted(progs)))' "$abs"); do
    p=${p#"$abs"/}
    if ninja -C "$dir" -t query "$p" >/dev/null 2>&1; then targets+=("$p"); fi  # not giorun (configured)
  done
  ((${#targets[@]} > 0)) || { echo "no test programs found for $dir" >&2; return 1; }
  ninja -C "$dir" -j "$jobs" "${targets[@]}"
}
san_tests() {  # san_tests <build dir> <test regex>
  cd "$1" && ctest -R "$2" -E "$san_skip" --output-on-failure --timeout 900
}
asan_build() { san_build build-asan address,undefined "$asan_tests"; }
asan_run() { san_tests build-asan "$asan_tests"; }
# clang's TSan runtime: GCC 12's makes each fiber switch 25-35x dearer and dies past 8128
# fibers (cmake/GIOSanitize.cmake); test_amo over gda took 695 s under it, 17 s under clang's.
# At most 64 work-groups of a launch run at once under TSan (GIO_HOST_MAX_WG, 512 elsewhere):
# each work-item is a fiber, and TSan keeps a trace per fiber. test_signal's full-GPU case
# launches as many work-groups as run at once (512 x 64 work-items) and held 4.2 GB per PE for
# 30 s; on CI that failed TSan's mmap (ENOMEM). At 64: 1.4 GB, 17 ms.
tsan_build() { san_build build-tsan thread "$san_tests" -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14; }
tsan_run() { export GIO_HOST_MAX_WG=64; san_tests build-tsan "$san_tests"; }

cuda_build() {
  export PATH="$PATH:/usr/local/cuda/bin"
  cmake -S . -B build-cuda -G Ninja -DGIO_PLATFORM=cuda -DCMAKE_CUDA_ARCHITECTURES=90 "${check_opt[@]}" \
    "-DCMAKE_CUDA_FLAGS_RELEASE=-O0 --Ofast-compile=max -DNDEBUG" >/dev/null
  ninja -C build-cuda -j "$jobs"
}
sass_scope_sync() { python3 tests/sass/check_scope_sync.py build-cuda; }
sass_put_loop() { python3 tests/sass/check_put_loop.py build-cuda; }
sass_call_branch() { python3 tests/sass/check_call_branch.py build-cuda; }
sass_thread_put() { python3 tests/sass/check_thread_put.py build-cuda; }
cuda_install() { export PATH="$PATH:/usr/local/cuda/bin"; tests/install/check.sh build-cuda; }
cuda_steps() {
  local cuda="cuda platform: compile everything for sm_90"
  if [[ "${GIO_SKIP_CUDA:-0}" == 1 ]]; then
    skip_step "cuda platform" "GIO_SKIP_CUDA=1"
  elif need nvcc || [[ -x /usr/local/cuda/bin/nvcc ]]; then
    run_step "$cuda" cuda_build
    run_step "cuda platform: the scopes' syncs after a one-lane post, in the machine code (tests/sass)" sass_scope_sync "$cuda"
    run_step "cuda platform: a loop of cooperative puts keeps the peer's state out of the loop (tests/sass)" sass_put_loop "$cuda"
    run_step "cuda platform: a loop of wave puts skips the out-of-line call with no convergence-barrier work (tests/sass)" \
      sass_call_branch "$cuda"
    run_step "cuda platform: one thread's put of 8-128 bytes is inline: no call, no stack frame (tests/sass)" \
      sass_thread_put "$cuda"
    run_step "cuda platform: the installed package (oshc++, find_package, pkg-config; compile only)" cuda_install "$cuda"
  else
    # CI must compile the cuda platform: a machine without nvcc fails this step (GIO_SKIP_CUDA=1 skips it).
    fail_step "$cuda" "nvcc not found"
  fi
}

# hip: everything for gfx90a at -O2 without -g. The whole build took 964 CPU-s against 1205 at the
# default RelWithDebInfo (-O2 -g) as HIP throughout (`/usr/bin/time ninja -C build-hip -j1` on a
# 2-core machine, user + sys); the files without kernels, C++ there (cmake/GIOPlatform.cmake), 160 s
# of it against 269 s (their edges in build-hip/.ninja_log). Not at -O0: Debian's clang 15 AMDGPU
# backend fails there on put_latency.cpp ("Cannot scavenge register without an emergency spill slot").
# Then the kernels that reach every part of the device API (RMA, atomics, signals, collectives, the
# apps' kernels and the AMD builtins of platform.h and spts) again for gfx940. Both archs for every file doubled the device passes
# (put_latency.cpp: 23 s against 13 s), and no GIO source branches on the arch.
hip_build() {
  CXX=hipcc cmake -S . -B build-hip -G Ninja -DGIO_PLATFORM=hip -DGIO_HIP_ARCHS=gfx90a "${hip_opt[@]}" >/dev/null
  # hipcc asks rocm_agent_enumerator for the GPUs of this machine (none: a traceback per plain C++
  # file) unless the targets are named.
  HCC_AMDGPU_TARGET=gfx90a ninja -C build-hip -j "$jobs"
}
gfx940() {  # gfx940 <object>: ninja's gfx90a compile of that object, again for gfx940
  local obj=$1 cmd
  cmd=$(ninja -C build-hip -t commands "$obj" | tail -1)
  [[ $cmd == *--offload-arch=gfx90a* ]] || { echo "hip gfx940 check: no compile command for $obj" >&2; return 1; }
  # The same command for gfx940's device pass alone (its host pass would repeat the gfx90a
  # build's: host code does not see the arch; 20-27 % of a compile's CPU time; -fPIE goes
  # unused there), its object and no depfile elsewhere (ninja's stay as they are).
  cmd=$(sed -E -e 's/--offload-arch=gfx90a/--offload-arch=gfx940 --offload-device-only -Wno-unused-command-line-argument/' -e 's/ -MD -MT [^ ]+ -MF [^ ]+//' \
    -e "s# -o [^ ]+ # -o gfx940/$(basename "$obj") #" <<<"$cmd")
  (cd build-hip && HCC_AMDGPU_TARGET=gfx940 bash -c "$cmd") || { echo "hip gfx940 check: $obj FAILED" >&2; return 1; }
  echo "gfx940: $obj"
}
hip_gfx940() {
  mkdir -p build-hip/gfx940
  # $jobs compiles at a time, each one clang process (one by one, `/usr/bin/time` of each command,
  # the nine took 169 CPU-s, 195 with -g: test_rma.cpp 50 s, coll_device_jobs_thread.cpp 25 s;
  # test_coll_device's collectives by scope are in its coll_device_jobs_*.cpp); every one's exit
  # status is checked.
  local running=0 failed=0 obj
  for obj in tests/func/CMakeFiles/test_rma.dir/test_rma.cpp.o tests/func/CMakeFiles/test_amo.dir/test_amo.cpp.o \
             tests/func/CMakeFiles/test_signal.dir/test_signal.cpp.o \
             tests/func/CMakeFiles/test_coll_device.dir/test_coll_device.cpp.o \
             tests/func/CMakeFiles/test_coll_device.dir/coll_device_jobs_thread.cpp.o \
             tests/func/CMakeFiles/test_coll_device.dir/coll_device_jobs_wave.cpp.o \
             tests/func/CMakeFiles/test_coll_device.dir/coll_device_jobs_wg.cpp.o \
             apps/spts/CMakeFiles/spts.dir/run_syncfree.cpp.o apps/jacobi2d/CMakeFiles/jacobi2d.dir/run_gio.cpp.o; do
    if ((running >= jobs)); then
      wait -n || failed=1
      running=$((running - 1))
    fi
    gfx940 "$obj" &
    running=$((running + 1))
  done
  while ((running > 0)); do
    wait -n || failed=1
    running=$((running - 1))
  done
  ((failed == 0))
}
hip_install() { HCC_AMDGPU_TARGET=gfx90a tests/install/check.sh build-hip; }
hip_steps() {
  local hip="hip platform: compile everything for gfx90a"
  if [[ "${GIO_SKIP_HIP:-0}" == 1 ]]; then
    skip_step "hip platform" "GIO_SKIP_HIP=1"
  elif ! need hipcc; then
    # Debian packages hipcc; Ubuntu 24.04 does not (tests/deps.sh says so when it installs).
    skip_step "hip platform" "no hipcc"
  else
    run_step "$hip" hip_build
    run_step "hip platform: the device API's kernels for gfx940" hip_gfx940 "$hip"
    run_step "hip platform: the installed package (oshc++, find_package, pkg-config; compile only)" hip_install "$hip"
  fi
}

# The order. The background queue starts first, with the sanitizer builds at its head: build-asan
# compiles beside the host suite's tests and build-tsan beside the ASan tests; the cuda and hip
# compile checks take what the TSan tests leave, then the whole machine. Each test step that needs
# a background build waits for it (its "waited N s" line).
asan_b="host platform with address,undefined: build (build-asan)"
tsan_b="host platform with thread: build (build-tsan)"
sanitizers=1
if [[ "${GIO_SKIP_SANITIZERS:-0}" == 1 ]]; then sanitizers=0; fi
background() {
  if ((sanitizers)); then
    run_step "$asan_b" asan_build
    run_step "$tsan_b" tsan_build
  fi
  cuda_steps
  hip_steps
}
bg_start background
run_step "host platform: build" host_build
run_step "host platform: fault, app and bench tests (2 and 4 PEs)" host_light "host platform: build"
run_step "host platform: the other tests (2 and 4 PEs)" host_rest "host platform: build"
if [[ "${GIO_SKIP_DRIVER:-0}" != 1 ]]; then
  run_step "driver-patches: apply and compile against Debian's linux-source-6.1" driver "host platform: build"
else
  skip_step "driver-patches" "GIO_SKIP_DRIVER=1"
fi
if ((sanitizers)); then
  bg_collect "$asan_b"
  run_step "host platform with address,undefined: unit, platform and 2-PE functional tests" asan_run "$asan_b"
  bg_collect "$tsan_b"
  run_step "host platform with thread: unit, platform and 2-PE functional tests" tsan_run "$tsan_b"
else
  skip_step "host platform with sanitizers" "GIO_SKIP_SANITIZERS=1"
fi
bg_collect

# The table: every step, its result and its time; the exit status says whether any failed.
failed=0
printf '\n==== summary (%d s in all) ====\n' "$SECONDS"
for i in "${!step_names[@]}"; do
  printf '%-30s %6d s  %s\n' "${step_results[$i]}" "${step_secs[$i]}" "${step_names[$i]}"
  [[ ${step_results[$i]} == FAILED* ]] && failed=$((failed + 1))
done
if ((failed > 0)); then
  printf '%d of %d steps FAILED\n' "$failed" "${#step_names[@]}"
  exit 1
fi
echo "every step that ran passed"
