// barrier_all / sync_all. In kernels these are work-group collectives (every thread of one
// work-group per PE calls them; _wave and _thread forms let a smaller group stand for the PE).
//
// Algorithm: on up to GIO_TEAM_SYNC_ONE_ROUND_MAX PEs that all map each other, the world team's
// one-round sync (device/coll/team_dev.h). Otherwise dissemination over the reserved flags at the
// head of every heap: in round k the PE writes this barrier's epoch into flag k of PE
// (me + 2^k) % n and waits for its own flag k to reach the epoch; ceil(log2 n) rounds. Flags only
// grow, so a fast peer already in the next barrier (epoch + 1) cannot be missed: the wait is ">=".
#pragma once
#include "device/dispatch/dispatch.h"
#include "device/coll/team_dev.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {

GIO_DEVICE_INLINE void sync_pes(const char* rt) {
  const gio_device_state_v1& st = state_checked(rt);
  const int n = st.n_pes, me = st.my_pe;
  // Every PE mapped by every other (the host agreed on it for SHMEM_TEAM_WORLD, so all PEs take
  // the same branch): the world team's one-round sync, one hop where the rounds take log2 n.
  gio_team_v1& world = team_table(st)[GIO_TEAM_SLOT_WORLD];
  if (n >= 2 && n <= GIO_TEAM_SYNC_ONE_ROUND_MAX && world.all_p2p) {
    team_sync_p2p(rt, GIO_TEAM_SLOT_WORLD, world, n, me);
    return;
  }
  uint64_t* flags = (uint64_t*)(st.heap_base + GIO_HEAP_RSVD_BARRIER_FLAGS);
  uint64_t* epoch_p = (uint64_t*)(st.heap_base + GIO_HEAP_RSVD_BARRIER_EPOCH);
  const uint64_t epoch = *epoch_p + 1;
  *epoch_p = epoch;
  int round = 0;
  for (int dist = 1; dist < n; dist <<= 1, ++round) {
    const int to = (me + dist) % n;
    const int from = (me - dist % n + n) % n;
    // A signal releases: this PE's earlier stores are visible before the peer sees the flag.
    signal_raw(rt, nullptr, flags + round, epoch, 0 /* SHMEM_SIGNAL_SET */, to);
    uint64_t seen = 0;
    bounded_wait([&] { return (seen = plat::atomic_load_acquire(flags + round)) >= epoch; },
                 [&](unsigned long long ms) {
                   GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u) waited %llu ms in barrier "
                                 "round %d for PE %d: flag %p is %llu, needs >= %llu\n",
                                 rt, me, plat::wg_id(), ms, round, from, (void*)(flags + round),
                                 (unsigned long long)seen, (unsigned long long)epoch);
                 });
  }
}

template <typename S>
GIO_DEVICE_INLINE void barrier(const char* rt, bool with_quiet) {
  S::sync();
  if (S::lane() == 0) {
    if (with_quiet) quiet(rt, nullptr);
    sync_pes(rt);
  }
  S::sync();
}

}  // namespace dev
}  // namespace gio
#endif

GIO_HOST_DEVICE_INLINE void shmem_barrier_all(void) {
  GIO_DISPATCH_HOST_DEVICE(::gio::dev::barrier<::gio::dev::scope_wg>("shmem_barrier_all", true),
               gio_host_barrier_all());
}
GIO_HOST_DEVICE_INLINE void shmem_sync_all(void) {
  GIO_DISPATCH_HOST_DEVICE(::gio::dev::barrier<::gio::dev::scope_wg>("shmem_sync_all", false), gio_host_sync_all());
}
