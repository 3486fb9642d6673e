// Distributed locks: shmem_set_lock, shmem_test_lock, shmem_clear_lock, host and device.
//
// An MCS queue lock (runtime/lock.h has the layout): the tail is the user's `long` on PE 0; each
// waiter claims a queue node in its own PE's reserved heap, swaps itself into the tail, links
// itself behind its predecessor and spins on its own node, a local word. FIFO: waiters are served
// in the order their swaps reached the tail, from any mix of PEs, work-groups and host threads.
// In kernels the standard names are thread scope: one thread per work-group calls, and the
// work-group holds the lock (the clear must come from the same work-group); shmemx_*_lock_wg and
// _wave (below) are the cooperative forms.
//
// Memory ordering. set_lock (and a successful test_lock) acquires: it returns after the previous
// holder's release, and this caller's later operations are ordered after that. clear_lock releases:
// it first quiets the default context, so every put, AMO and signal the holder issued there is
// complete at its target before the next holder is granted the lock (a holder's puts on another
// context are its own to quiet). Over gda and the proxy a put is complete only at quiet, which is
// why the hand-off needs one; over p2p the quiet is a system fence.
#pragma once
#include "device/dispatch/dispatch.h"
#include "device/core/scope.h"
#include "runtime/lock.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
namespace lock {

typedef unsigned long long u64;

GIO_DEVICE_INLINE gio_lock_node_v1* nodes(const gio_device_state_v1& st) {
  return (gio_lock_node_v1*)(st.heap_base + GIO_HEAP_RSVD_LOCK_NODES);
}
GIO_DEVICE_INLINE u64 me_tag() { return ((u64)plat::wg_id() + 1) << 8 | GIO_LOCK_HOLDER_WG; }

[[noreturn]] GIO_DEVICE_NOINLINE void fail_nodes(const char* rt, const void* lk) {
  GIO_DEV_FATAL(rt, "no free lock queue node for lock %p: all %u of this PE are taken (at most %u work-groups and "
                "host threads of one PE may hold or wait for locks at once)", lk, GIO_LOCK_NODES, GIO_LOCK_NODES);
}
[[noreturn]] GIO_DEVICE_NOINLINE void fail_word(const char* rt, const void* lk, u64 seen) {
  GIO_DEV_FATAL(rt, "lock %p holds 0x%llx on PE 0, which is no GIO lock queue entry (a lock must be 0 on every PE "
                "before its first use, and only the lock routines may write it)", lk, seen);
}
[[noreturn]] GIO_DEVICE_NOINLINE void fail_not_held(const char* rt, const void* lk) {
  GIO_DEV_FATAL(rt, "lock %p is not held by this work-group (no queue node of this PE holds it for work-group %u)",
                lk, plat::wg_id());
}

// The lock word must be a symmetric, 8-byte aligned long (its PE 0 copy is the tail).
GIO_DEVICE_INLINE void check(const char* rt, const long* lk) {
  state_checked(rt);
  check_sym(rt, lk, sizeof(long), 0);
  check_align(rt, lk, sizeof(long), 0);
}

// A free node of this PE, claimed for the lock at heap offset `off`; the search starts at a spot
// of this work-group's so concurrent claimers rarely collide.
GIO_DEVICE_INLINE uint32_t claim_start() { return (plat::wg_id() * 7u + plat::wg_thread()) % GIO_LOCK_NODES; }
GIO_DEVICE_INLINE uint32_t claim(const char* rt, const gio_device_state_v1& st, const long* lk, u64 off) {
  gio_lock_node_v1* n = nodes(st);
  const uint32_t start = claim_start();
  for (uint32_t k = 0; k < GIO_LOCK_NODES; ++k) {
    const uint32_t i = (start + k) % GIO_LOCK_NODES;
    u64* c = (u64*)&n[i].claim;
    if (plat::atomic_load_acquire(c) == 0 && plat::atomic_cas(c, 0ull, off) == 0) {
      plat::store_relaxed_system((u64*)&n[i].next, 0);
      plat::store_relaxed_system((u64*)&n[i].granted, 0);
      plat::store_relaxed_system((u64*)&n[i].holder, 0);
      plat::fence_release_system();  // reset before any peer can learn of the node (the swap)
      return i;
    }
  }
  fail_nodes(rt, lk);
}
GIO_DEVICE_INLINE void release(gio_lock_node_v1* n) {
  plat::store_relaxed_system((u64*)&n->holder, 0);
  plat::store_release_system((u64*)&n->claim, 0);
}

// A remote write of an 8-byte node word: a signal (release, then the store or atomic); nothing is
// fetched back, so over gda it is one inline put with no round trip.
GIO_DEVICE_INLINE void node_set(const char* rt, uint64_t* word, u64 v, int pe) { signal_raw(rt, nullptr, word, v, 0, pe); }

// Enqueue node `i` (claimed) and wait until it is granted the lock.
GIO_DEVICE_INLINE void acquire(const char* rt, const gio_device_state_v1& st, long* lk, uint32_t i) {
  gio_lock_node_v1* n = nodes(st) + i;
  const u64 me = gio_lock_enc(st.my_pe, i);
  const u64 prev = amo_raw<u64>(rt, nullptr, GIO_AMO_SWAP, (u64*)lk, me, 0, 0);
  if (prev) {
    const int ppe = gio_lock_pe(prev);
    const uint32_t pi = gio_lock_node(prev);
    if (ppe < 0 || ppe >= st.n_pes || pi >= GIO_LOCK_NODES) fail_word(rt, lk, prev);
    node_set(rt, &nodes(st)[pi].next, me, ppe);
    bounded_wait([&] { return plat::atomic_load_acquire((u64*)&n->granted) != 0; },
                 [&](unsigned long long ms) {
                   GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u, thread %u) waited %llu ms for lock %p: "
                                 "queued (node %u) behind PE %d's node %u, which never handed the lock on\n",
                                 rt, st.my_pe, plat::wg_id(), plat::wg_thread(), ms, (void*)lk, i, ppe, pi);
                 });
  }
  plat::store_relaxed_system((u64*)&n->holder, me_tag());
  plat::fence_system();  // acquire: nothing of the critical section moves above the grant
}

GIO_DEVICE_INLINE void set_lock(const char* rt, long* lk) {
  check(rt, lk);
  const gio_device_state_v1& st = GIO_DSTATE;
  acquire(rt, st, lk, claim(rt, st, lk, (u64)((uint8_t*)lk - st.heap_base)));
}

// 0 when this caller got the lock, 1 when someone held or waited for it (the spec's values).
GIO_DEVICE_INLINE int test_lock(const char* rt, long* lk) {
  check(rt, lk);
  const gio_device_state_v1& st = GIO_DSTATE;
  const uint32_t i = claim(rt, st, lk, (u64)((uint8_t*)lk - st.heap_base));
  gio_lock_node_v1* n = nodes(st) + i;
  const u64 me = gio_lock_enc(st.my_pe, i);
  if (amo_raw<u64>(rt, nullptr, GIO_AMO_CSWAP, (u64*)lk, me, 0, 0) != 0) {
    release(n);  // never published: no peer knows this node
    return 1;
  }
  plat::store_relaxed_system((u64*)&n->holder, me_tag());
  plat::fence_system();
  return 0;
}

GIO_DEVICE_INLINE void clear_lock(const char* rt, long* lk) {
  check(rt, lk);
  const gio_device_state_v1& st = GIO_DSTATE;
  const u64 off = (u64)((uint8_t*)lk - st.heap_base), tag = me_tag();
  gio_lock_node_v1* all = nodes(st);
  // This work-group's node: the search starts where its claim did (usually the node itself), with
  // plain loads that can be in flight together (an acquire load per node would cost a round trip
  // each); the words it compares were written by this work-group, or are not its node.
  const uint32_t start = claim_start();
  uint32_t i = GIO_LOCK_NODES;
  for (uint32_t k = 0; k < GIO_LOCK_NODES; ++k) {
    const uint32_t j = (start + k) % GIO_LOCK_NODES;
    if (plat::load_polled((const u64*)&all[j].claim) == off && plat::load_polled((const u64*)&all[j].holder) == tag) {
      i = j;
      break;
    }
  }
  if (i == GIO_LOCK_NODES) fail_not_held(rt, lk);
  gio_lock_node_v1* n = all + i;
  const u64 me = gio_lock_enc(st.my_pe, i);
  quiet(rt, nullptr);  // release: the critical section's operations are complete before the hand-off
  u64 next = plat::atomic_load_acquire((u64*)&n->next);
  if (!next) {
    // No successor linked yet: free the lock if the tail is still this node ...
    if (amo_raw<u64>(rt, nullptr, GIO_AMO_CSWAP, (u64*)lk, 0ull, me, 0) == me) {
      release(n);
      return;
    }
    // ... else a successor swapped itself in and is about to link: wait for it.
    bounded_wait([&] { return (next = plat::atomic_load_acquire((u64*)&n->next)) != 0; },
                 [&](unsigned long long ms) {
                   GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u, thread %u) waited %llu ms for lock %p: a "
                                 "successor took the tail from node %u but never linked itself behind it\n",
                                 rt, st.my_pe, plat::wg_id(), plat::wg_thread(), ms, (void*)lk, i);
                 });
  }
  const int spe = gio_lock_pe(next);
  const uint32_t si = gio_lock_node(next);
  if (spe < 0 || spe >= st.n_pes || si >= GIO_LOCK_NODES) fail_word(rt, lk, next);
  node_set(rt, &all[si].granted, 1, spe);
  release(n);  // the successor wrote `next` before waiting, the predecessor `granted` before: no write is left
}

}  // namespace lock
}  // namespace dev
}  // namespace gio
#endif

// Every PE must hold `lock` = 0 before its first use (symmetric, e.g. shmem_calloc'd).
GIO_HOST_DEVICE_INLINE void shmem_set_lock(long* lock) {
  GIO_DISPATCH_HOST_DEVICE(::gio::dev::lock::set_lock("shmem_set_lock", lock), gio_host_set_lock("shmem_set_lock", lock));
}
GIO_HOST_DEVICE_INLINE int shmem_test_lock(long* lock) {
  int r = 1;
  GIO_DISPATCH_HOST_DEVICE(r = ::gio::dev::lock::test_lock("shmem_test_lock", lock),
               r = gio_host_test_lock("shmem_test_lock", lock));
  return r;
}
GIO_HOST_DEVICE_INLINE void shmem_clear_lock(long* lock) {
  GIO_DISPATCH_HOST_DEVICE(::gio::dev::lock::clear_lock("shmem_clear_lock", lock), gio_host_clear_lock("shmem_clear_lock", lock));
}

#if GIO_KERNEL_COMPILER
// Cooperative forms (GIO extensions): every thread of the work-group (_wg) or wave (_wave) calls
// with the same lock, and the scope holds the lock. One lane queues for the scope; the sync before
// a clear puts every lane's critical-section operations before that lane's quiet (the default
// context's queues are the work-group's, so the quiet covers every lane's puts), and the sync
// after a set keeps every lane out of the critical section until the lock is held.
namespace gio {
namespace dev {
namespace lock {
template <typename S>
GIO_DEVICE_INLINE void set_scoped(const char* rt, long* lk) {
  S::sync();
  if (S::lane() == 0) set_lock(rt, lk);
  S::sync();
}
template <typename S>
GIO_DEVICE_INLINE void clear_scoped(const char* rt, long* lk) {
  S::sync();
  if (S::lane() == 0) clear_lock(rt, lk);
  S::sync();
}
}  // namespace lock
}  // namespace dev
}  // namespace gio

GIO_DEVICE_INLINE void shmemx_set_lock_wg(long* lock) {
  ::gio::dev::lock::set_scoped<::gio::dev::scope_wg>("shmemx_set_lock_wg", lock);
}
GIO_DEVICE_INLINE void shmemx_clear_lock_wg(long* lock) {
  ::gio::dev::lock::clear_scoped<::gio::dev::scope_wg>("shmemx_clear_lock_wg", lock);
}
GIO_DEVICE_INLINE int shmemx_test_lock_wg(long* lock) {
  __shared__ int got;
  ::gio::plat::wg_sync();
  if (::gio::plat::wg_thread() == 0) got = ::gio::dev::lock::test_lock("shmemx_test_lock_wg", lock);
  ::gio::plat::wg_sync();
  const int r = got;
  ::gio::plat::wg_sync();  // every lane has read `got` before a later call writes it
  return r;
}
GIO_DEVICE_INLINE void shmemx_set_lock_wave(long* lock) {
  ::gio::dev::lock::set_scoped<::gio::dev::scope_wave>("shmemx_set_lock_wave", lock);
}
GIO_DEVICE_INLINE void shmemx_clear_lock_wave(long* lock) {
  ::gio::dev::lock::clear_scoped<::gio::dev::scope_wave>("shmemx_clear_lock_wave", lock);
}
GIO_DEVICE_INLINE int shmemx_test_lock_wave(long* lock) {
  int r = 0;
  ::gio::plat::wave_sync();
  if (::gio::plat::wave_lane() == 0) r = ::gio::dev::lock::test_lock("shmemx_test_lock_wave", lock);
  return (int)::gio::plat::wave_shfl(::gio::plat::wave_active_mask(), (unsigned long long)r, 0);
}
#endif
