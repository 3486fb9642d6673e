// Teams in kernels: finding a team's slot from its handle, the queries, and the team sync every
// device collective ends with.
//
// A handle carries a slot of the team table at GIO_HEAP_TEAM_TABLE of this PE's heap
// (runtime/team.h: gio_team_slot, taken once at each routine's entry); the host wrote the slot
// before any kernel could hold the handle, so plain loads read it. The sync counts signals like the
// host's (host/coll/sync.cpp) with the same counters and the same consumed words, so host and
// kernel collectives on one team may follow each other.
#pragma once
#include "device/dispatch/dispatch.h"
#include "runtime/api/types.h"  // shmem_team_t, SHMEM_TEAM_*
#include "runtime/team.h"


#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {

GIO_DEVICE_INLINE gio_team_v1* team_table(const gio_device_state_v1& st) {
  return (gio_team_v1*)(st.heap_base + GIO_HEAP_TEAM_TABLE);
}
// The slot's LL area (two halves of GIO_TEAM_LL_WORDS) and its local scratch, in this PE's heap.
GIO_DEVICE_INLINE uint64_t* team_ll(const gio_device_state_v1& st, int t) {
  return (uint64_t*)(st.heap_base + GIO_HEAP_TEAM_COLL + (size_t)t * GIO_TEAM_COLL_BYTES);
}
GIO_DEVICE_INLINE uint8_t* team_scratch(const gio_device_state_v1& st, int t) {
  return (uint8_t*)team_ll(st, t) + 2u * GIO_TEAM_LL_WORDS * 8u;
}

[[noreturn]] GIO_DEVICE_NOINLINE void fail_team(const char* rt, int t) {
  if (t < 0) GIO_DEV_FATAL(rt, "team is SHMEM_TEAM_INVALID (a failed split, or a PE outside the new team)");
  if (t >= GIO_MAX_TEAMS)
    GIO_DEV_FATAL(rt, "team handle is past GIO's %d team slots: no team handle (uninitialized or overwritten?)",
                  GIO_MAX_TEAMS);
  GIO_DEV_FATAL(rt, "team handle 0x%llx (slot %d) is not a team of this PE (never created, or destroyed)",
                (unsigned long long)t + 1, t);
}

GIO_DEVICE_INLINE bool team_live(const gio_device_state_v1& st, int t) {
  return (unsigned)t < GIO_MAX_TEAMS && team_table(st)[t].magic == GIO_TEAM_MAGIC;
}
// The live team behind a handle, or a fatal error naming the routine.
GIO_DEVICE_INLINE gio_team_v1& team_checked(const char* rt, int t) {
  const gio_device_state_v1& st = state_checked(rt);
  if (!team_live(st, t)) fail_team(rt, t);
  return team_table(st)[t];
}

// Waits until round `round`'s counter reaches `need`. A timeout names the PE waited for (`from`),
// or, where one counter gathers a signal from each other member (from < 0), how many: the counter
// then says how many are missing, not whose.
GIO_DEVICE_INLINE void team_sync_wait(const char* rt, int t, gio_team_v1& tm, int round, uint64_t need, int from) {
  uint64_t seen = 0;
  bounded_wait([&] { return (seen = plat::atomic_load_acquire(&tm.sync[round])) >= need; },
               [&](unsigned long long ms) {
                 if (from >= 0)
                   GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u) waited %llu ms in the sync of team %d, "
                                 "round %d, for PE %d: counter %p is %llu, needs >= %llu\n",
                                 rt, GIO_DSTATE.my_pe, plat::wg_id(), ms, t, round, from, (void*)&tm.sync[round],
                                 (unsigned long long)seen, (unsigned long long)need);
                 else
                   GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u) waited %llu ms in the sync of team %d, "
                                 "round %d, for a signal from each of the other %d members: counter %p is %llu, "
                                 "needs >= %llu\n",
                                 rt, GIO_DSTATE.my_pe, plat::wg_id(), ms, t, round, tm.n_pes - 1,
                                 (void*)&tm.sync[round], (unsigned long long)seen, (unsigned long long)need);
               });
  tm.consumed[round] = need;
}

// One round over the mapped heaps (every member p2p, 2 to 8 members), with the counts of the
// general path below. Everything the round needs from the slot is read before the fence, so those
// reads (trips to L2: the last sync's acquire polls dropped this SM's L1 copies) overlap the
// fence's drain instead of following each other; and one system-scope release fence covers every
// member's signal, where the general path fences per signal (4xH200, apps/bench/probes/sync_floor.cu:
// one fence and three adds 1.68 us a sync, a release on each add 3.41 us). The adds return nothing.
static_assert(GIO_TEAM_SYNC_ONE_ROUND_MAX <= 8, "team_sync_p2p reads a team's members as one 8-byte word");
GIO_DEVICE_INLINE void team_sync_p2p(const char* rt, int t, gio_team_v1& tm, int n, int me) {
  const gio_device_state_v1& st = GIO_DSTATE;
  uint64_t members;  // the first 8 world PEs of the team: eight loads of one line, all in flight
  memcpy(&members, tm.members, sizeof members);
  const uint64_t need = tm.consumed[0] + (uint64_t)(n - 1);
  plat::fence_release_system();
  for (int k = 1, i = me + 1; k < n; ++k, ++i) {
    if (i == n) i = 0;
    const int pe = (int)((members >> (8 * i)) & 0xff);
    plat::red_add_system((unsigned long long*)p2p::remote(st, &tm.sync[0], pe), 1ull);
  }
  team_sync_wait(rt, t, tm, 0, need, n == 2 ? (int)((members >> (8 * (1 - me))) & 0xff) : -1);
}

// Signals the member `dist` ahead in each round and waits for the one `dist` behind; the signal is
// an ADD that releases this thread's earlier stores (and, after a scope sync, its scope's).
// Out of line, as is every transport-facing step of the collectives below: inlined into each
// typed routine at each scope, the gda and proxy paths made a file using many of them take
// minutes to compile for a GPU.
// Teams of 3 to 8 members take one round instead (runtime/team.h says why it is a barrier).
GIO_DEVICE_NOINLINE void team_sync_rounds(const char* rt, int t, gio_team_v1& tm) {
  const int n = tm.n_pes, me = tm.my_pe;
  const bool one = gio_team_sync_one_round(n);
  if (tm.all_p2p && (one || n == 2)) {
    team_sync_p2p(rt, t, tm, n, me);
    return;
  }
  int round = 0;
  for (int dist = 1; dist < n; dist <<= 1, ++round) {
    for (int k = dist; k < (one ? n : dist + 1); ++k)
      signal_raw(rt, nullptr, &tm.sync[round], 1, 1 /* SHMEM_SIGNAL_ADD */, tm.members[(me + k) % n]);
    team_sync_wait(rt, t, tm, round, tm.consumed[round] + (one ? n - 1 : 1),
                   one ? -1 : (int)tm.members[(me - dist % n + n) % n]);
    if (one) break;
  }
}

// shmem_team_sync: every member has entered once it returns (no RMA completion, as the spec says).
template <typename S>
GIO_DEVICE_INLINE int team_sync(const char* rt, shmem_team_t team) {
  const int t = gio_team_slot(team);
  gio_team_v1& tm = team_checked(rt, t);
  S::sync();
  if (S::lane() == 0) team_sync_rounds(rt, t, tm);
  S::sync();
  return 0;
}

// The end of every generic collective: this scope's puts complete (quiet), then the team syncs, so
// each member's dest holds everything sent to it when the call returns anywhere.
GIO_DEVICE_NOINLINE void team_quiet_sync(const char* rt, int t, gio_team_v1& tm) {
  quiet(rt, nullptr);
  team_sync_rounds(rt, t, tm);
}
template <typename S>
GIO_DEVICE_INLINE void team_complete(const char* rt, int t, gio_team_v1& tm) {
  S::sync();
  if (S::lane() == 0) team_quiet_sync(rt, t, tm);
  S::sync();
}

GIO_DEVICE_INLINE int team_my_pe(shmem_team_t team) {
  const int t = gio_team_slot(team);
  const gio_device_state_v1& st = state_checked("shmem_team_my_pe");
  return team_live(st, t) ? team_table(st)[t].my_pe : -1;
}
GIO_DEVICE_INLINE int team_n_pes(shmem_team_t team) {
  const int t = gio_team_slot(team);
  const gio_device_state_v1& st = state_checked("shmem_team_n_pes");
  return team_live(st, t) ? team_table(st)[t].n_pes : -1;
}
// -1 for an invalid team, a PE outside the source team, or one that is not in the dest team.
GIO_DEVICE_INLINE int team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team) {
  const int src = gio_team_slot(src_team), dest = gio_team_slot(dest_team);
  const gio_device_state_v1& st = state_checked("shmem_team_translate_pe");
  if (!team_live(st, src) || !team_live(st, dest)) return -1;
  const gio_team_v1& s = team_table(st)[src];
  const gio_team_v1& d = team_table(st)[dest];
  if (src_pe < 0 || src_pe >= s.n_pes) return -1;
  const int world = s.members[src_pe];
  for (int i = 0; i < d.n_pes; ++i)
    if (d.members[i] == world) return i;
  return -1;
}

}  // namespace dev
}  // namespace gio
#endif
