#!/usr/bin/env bash
# no_shm_leftovers.sh command...: runs the command and passes its exit status on, unless it left
# a libfabric shm region of GIO's in /dev/shm ("gio-<PID namespace>-<PID>-<random>", of a
# process that no longer exists and that was not there before): then it names them and exits 98.
# A job that aborts, or whose PEs are killed, must leave nothing there (host/proxy/fabric.h).
set -u
ns=$(stat -L -c %i /proc/self/ns/pid)
regions() { ls /dev/shm 2>/dev/null | grep -E "^gio-$ns-[0-9]+-[0-9a-f]{16}\$" | sort; }
before=$(regions)
"$@"
rc=$?
left=()
for f in $(comm -13 <(printf '%s\n' "$before") <(regions)); do
  pid=${f#gio-$ns-}
  pid=${pid%%-*}
  kill -0 "$pid" 2>/dev/null || left+=("$f")
done
if [[ ${#left[@]} -gt 0 ]]; then
  echo "no_shm_leftovers: FAILED: the job (exit status $rc) left ${#left[@]} shm region(s) of exited processes in /dev/shm: ${left[*]}"
  for f in "${left[@]}"; do rm -f "/dev/shm/$f"; done
  exit 98
fi
exit "$rc"
