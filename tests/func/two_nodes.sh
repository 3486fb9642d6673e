#!/usr/bin/env bash
# two_nodes.sh PES_PER_NODE program [args...]: runs a GIO program on two emulated nodes of this
# machine, PES_PER_NODE PEs on each, the way a two-node cluster would run it.
#
# Each node is a network namespace with its own hostname, its own /dev/shm and two interfaces on
# bridges in a private parent namespace: mpi0 for Open MPI and gio0 for GIO's proxy (libfabric
# tcp, GIO_PROXY_IFACE=gio0). The nodes share no memory mapping; those links are their only way to
# each other. mpirun runs in the parent and starts one Open MPI daemon per node through a launch
# agent (this script, called as "agent NODE cmd..."), as it would over ssh. Within a node, PEs
# still map each other (p2p).
#
# After the run it checks that the PEs really crossed GIO's link: each node's gio0 must have
# carried at least GIO_TWO_NODES_MIN_BYTES (default 1024: more than the
# links' own chatter, ARP and IPv6 neighbour discovery, about 100 bytes) in each direction.
#
# Needs unprivileged user namespaces (unshare -r); where the kernel refuses them it says so and
# exits 77 (ctest: skipped). Nothing leaves this machine: the namespaces have no route out.
set -euo pipefail
self=$(readlink -f "$0")
skip=77

if [[ "${1:-}" == agent ]]; then
  # agent NODE cmd...: Open MPI's launch agent (plm_rsh_agent), run by mpirun in the parent
  # namespace. The node gets its hostname and a /dev/shm of its own, as a separate machine has.
  node=$2
  shift 2
  exec nsenter --net="/run/netns/$node" -- unshare --uts --mount --propagation private -- \
    sh -c 'hostname "$0" && mount -t tmpfs -o mode=1777 none /dev/shm && exec sh -c "$*"' "$node" "$@"
fi

if [[ "${1:-}" == inside ]]; then
  # inside PES_PER_NODE program...: in the private parent namespace (uid 0 there only).
  shift
  ppn=$1
  shift
  mount -t tmpfs none /run
  mkdir -p /run/netns
  ip link set lo up
  # Two links, as clusters often have: mpi0 (10.76.0.0/24) for Open MPI's launch and bootstrap,
  # gio0 (10.77.0.0/24) for GIO's proxy, so gio0's counters count GIO's traffic alone.
  for net in mpi0:76 gio0:77; do
    ip link add "br${net#*:}" type bridge
    ip addr add "10.${net#*:}.0.254/24" dev "br${net#*:}"
    ip link set "br${net#*:}" up
  done
  i=0
  for node in nodeA nodeB; do
    i=$((i + 1))
    ip netns add "$node"
    ip -n "$node" link set lo up
    for net in mpi0:76 gio0:77; do
      ip link add "up${net#*:}.$i" type veth peer name "${net%:*}" netns "$node"
      ip link set "up${net#*:}.$i" master "br${net#*:}" up
      ip -n "$node" addr add "10.${net#*:}.0.$i/24" dev "${net%:*}"
      ip -n "$node" link set "${net%:*}" up
    done
  done
  declare -A before
  for node in nodeA nodeB; do
    for d in tx rx; do before[$node.$d]=$(ip netns exec "$node" cat /sys/class/net/gio0/statistics/${d}_bytes); done
  done
  export OMPI_MCA_plm_rsh_agent="$self agent"
  export OMPI_MCA_oob_tcp_if_include=10.76.0.0/24
  export OMPI_MCA_btl_tcp_if_include=10.76.0.0/24
  export OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader,tcp}
  export OMPI_MCA_btl_vader_single_copy_mechanism=none
  export OMPI_MCA_rmaps_base_oversubscribe=1
  export OMPI_MCA_orte_keep_fqdn_hostnames=1
  export PMIX_MCA_gds=hash
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export GIO_PROXY_IFACE=${GIO_PROXY_IFACE:-gio0}
  # The agent runs here, so each daemon, and the PEs it starts, inherit this environment (GIO_*
  # included), as a shared home and the same module loads would give on a cluster.
  rc=0
  mpirun --oversubscribe --bind-to none --host "nodeA:$ppn,nodeB:$ppn" -n $((2 * ppn)) "$@" || rc=$?
  if [[ $rc -ne 0 ]]; then
    echo "two_nodes: the program exited with status $rc" >&2
    exit "$rc"
  fi
  min=${GIO_TWO_NODES_MIN_BYTES:-1024}
  for node in nodeA nodeB; do
    for d in tx rx; do
      now=$(ip netns exec "$node" cat /sys/class/net/gio0/statistics/${d}_bytes)
      moved=$((now - ${before[$node.$d]}))
      echo "two_nodes: $node gio0 $d $moved bytes"
      if [[ $moved -lt $min ]]; then
        echo "two_nodes: FAILED: $node's link carried $moved bytes ($d), fewer than $min: the PEs did not talk over it" >&2
        exit 1
      fi
    done
  done
  exit 0
fi

if [[ $# -lt 2 ]]; then
  echo "usage: two_nodes.sh PES_PER_NODE program [args...]" >&2
  exit 2
fi
for tool in unshare nsenter ip mpirun; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "two_nodes: SKIPPED: $tool is not installed" >&2
    exit $skip
  fi
done
# What the setup needs, tried first: namespaces, a tmpfs mount and a veth pair inside them.
if ! unshare --user --map-root-user --net --mount --propagation private -- \
     sh -c 'mount -t tmpfs none /run && ip link add gio-a type veth peer name gio-b' 2>/dev/null; then
  echo "two_nodes: SKIPPED: this machine refuses unprivileged user and network namespaces, or a mount or" \
       "a veth pair in them (unshare -rnm)" >&2
  exit $skip
fi
exec unshare --user --map-root-user --net --mount --propagation private -- "$self" inside "$@"
