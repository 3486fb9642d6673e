// Distributed locks (shmem_set_lock, shmem_test_lock, shmem_clear_lock): the queue nodes.
//
// GIO's lock is an MCS queue lock. The user's symmetric `long` on PE 0 is the queue's tail: 0 when
// the lock is free, else the queue node of the last waiter. A waiter claims one node in its own PE's
// reserved heap, swaps itself into the tail, links itself behind its predecessor (a remote write of
// the predecessor's `next`) and spins on its own node's `granted`, a local word: no waiter polls
// across the network, and waiters are served in the order their swaps reached the tail (FIFO).
// Many work-groups and host threads of one PE may wait for the same lock at once, so a PE's copy of
// the lock word cannot be its node (as in Sandia OpenSHMEM): each waiter claims a node of its own.
//
// The nodes sit at the same heap offset on every PE, so a node is named across PEs by (PE, index),
// encoded in the tail and in `next` as gio_lock_enc(). Remote writers reach them through the
// transports' atomics and signals like any symmetric word (the heap's key covers the reserved head).
#pragma once
#include "runtime/contract.h"

#define GIO_LOCK_NODES 512u                   // waiters of one PE at once, over all locks
#define GIO_HEAP_RSVD_LOCK_NODES 40960u       // gio_lock_node_v1[GIO_LOCK_NODES], in the reserved head

// Holder tags (gio_lock_node_v1::holder): who on this PE holds the lock through the node.
#define GIO_LOCK_HOLDER_HOST 1u               // low byte 1: a host thread, its id above
#define GIO_LOCK_HOLDER_WG 2u                 // low byte 2: a kernel work-group, its id + 1 above

struct gio_lock_node_v1 {
  // Heap offset of the lock this node queues for or holds; 0 = free. Claimed by a local
  // compare-swap (0 -> offset), released by a store of 0 once nothing remote writes the node.
  uint64_t claim;
  uint64_t next;     // the successor's gio_lock_enc(), written by the successor; 0 = none yet
  uint64_t granted;  // set to 1 by the predecessor when it hands the lock on
  uint64_t holder;   // GIO_LOCK_HOLDER_* tag while held (0 while waiting): clear finds its node so
};

// (pe, node) <-> the 8-byte words in the tail and in `next`; never 0.
GIO_HOST_DEVICE inline uint64_t gio_lock_enc(int pe, uint32_t node) {
  return ((uint64_t)(uint32_t)(pe + 1) << 32) | node;
}
GIO_HOST_DEVICE inline int gio_lock_pe(uint64_t e) { return (int)(e >> 32) - 1; }
GIO_HOST_DEVICE inline uint32_t gio_lock_node(uint64_t e) { return (uint32_t)e; }

#ifdef __cplusplus
static_assert(sizeof(gio_lock_node_v1) == 32, "gio_lock_node_v1 layout");
static_assert(offsetof(gio_lock_node_v1, granted) == 16, "gio_lock_node_v1 layout");
static_assert(GIO_HEAP_RSVD_LOCK_NODES >= GIO_HEAP_RSVD_CTX_TABLE + GIO_MAX_CTX * sizeof(gio_ctx_v1),
              "lock nodes after the context table");
static_assert(GIO_HEAP_RSVD_LOCK_NODES + GIO_LOCK_NODES * sizeof(gio_lock_node_v1) <= GIO_HEAP_RESERVED,
              "lock nodes inside the reserved heap");
static_assert(GIO_HEAP_RSVD_LOCK_NODES % 64 == 0, "lock nodes aligned");
#endif
