#!/usr/bin/env bash
# no_shm_leftovers.sh command...: runs the command and passes its exit status on, unless it left
# a file of GIO's ("gio-*") in /dev/shm that was not there before and whose process no longer
# exists: then it names them, removes them and exits 98. GIO's names carry their process
# ("gio-[<role>-]<PID namespace>-<PID>-<random>": libfabric shm regions, host/proxy/shm_names.h;
# the host platform's heaps and the globals files, host/heap/shm_file.h); a name without one counts
# as left behind when no live process maps it. A job that aborts, or whose PEs mpirun stops, must
# leave nothing there.
set -u
ns=$(stat -L -c %i /proc/self/ns/pid)
files() { ls /dev/shm 2>/dev/null | grep -E '^gio-' | sort; }
before=$(files)
"$@"
rc=$?
left=()
for f in $(comm -13 <(printf '%s\n' "$before") <(files)); do
  if [[ $f =~ ^gio-([a-z]+-)?$ns-([0-9]+)-[0-9a-f]{16}$ ]]; then
    kill -0 "${BASH_REMATCH[2]}" 2>/dev/null || left+=("$f")
  elif ! grep -qsF "/dev/shm/$f" /proc/[0-9]*/maps; then
    left+=("$f")
  fi
done
if [[ ${#left[@]} -gt 0 ]]; then
  echo "no_shm_leftovers: FAILED: the job (exit status $rc) left ${#left[@]} file(s) of exited processes in /dev/shm: ${left[*]}"
  for f in "${left[@]}"; do rm -f "/dev/shm/$f"; done
  exit 98
fi
exit "$rc"
