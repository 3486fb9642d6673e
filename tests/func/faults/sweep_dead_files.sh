#!/usr/bin/env bash
# sweep_dead_files.sh GIO_INFO: a PE killed outright during init (SIGKILL: no handler runs) leaves
# its heap, default heap and globals files in GIO_HOST_SHM_DIR; the next GIO process (here gio-info, a 1-PE job)
# must remove those of processes that no longer exist, and keep those of live processes and names
# that are not GIO's (host/heap/shm_file.h).
set -u
info=${1:?usage: sweep_dead_files.sh GIO_INFO}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
ns=$(stat -L -c %i /proc/self/ns/pid)
sleep 0 & dead=$!; wait $dead   # a PID that no longer exists
dead_files=("gio-heap-$ns-$dead-0123456789abcdef" "gio-cpuheap-$ns-$dead-0123456789abcdef"
            "gio-globals-$ns-$dead-fedcba9876543210")
kept=("gio-heap-$ns-$$-0123456789abcdef" "gio-cpuheap-$ns-$$-0123456789abcdef" "gio-globals-$((ns + 1))-$dead-0123456789abcdef" "gio-notes-$ns-$dead-0123456789abcdef")
for f in "${dead_files[@]}" "${kept[@]}"; do echo x > "$dir/$f"; done
out=$(GIO_HOST_SHM_DIR=$dir GIO_DEBUG=1 "$info" 2>&1); rc=$?
fail=0
[[ $rc -eq 0 ]] || { echo "sweep_dead_files: gio-info exited $rc"; fail=1; }
for f in "${dead_files[@]}"; do [[ ! -e $dir/$f ]] || { echo "sweep_dead_files: FAIL: $f (a dead process's) is still there"; fail=1; }; done
for f in "${kept[@]}"; do [[ -e $dir/$f ]] || { echo "sweep_dead_files: FAIL: $f (not a dead process of this namespace, or not GIO's) was removed"; fail=1; }; done
left=$(ls "$dir" | grep -vxF -f <(printf '%s\n' "${kept[@]}"))
[[ -z $left ]] || { echo "sweep_dead_files: FAIL: gio-info left files of its own: $left"; fail=1; }
if [[ $fail -ne 0 ]]; then printf -- '--- gio-info:\n%s\n' "$out" | head -40; exit 1; fi
echo "sweep_dead_files: passed (3 files of a dead process removed, 4 others kept)"
