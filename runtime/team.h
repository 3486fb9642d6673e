// Teams in symmetric memory: the table host collectives use today and kernels can read later.
//
// A team handle (shmem_team_t, pointer-sized) carries, plus one (gio_team_slot below), a slot of a
// table of GIO_MAX_TEAMS slots that sits at the same heap offset on every PE (GIO_HEAP_TEAM_TABLE:
// the first block shmem_init takes from the heap, so no device-state field is needed to find it). A slot index means the same team on every member: a
// split picks the lowest slot free on every PE of the parent. Teams with disjoint members (the rows
// of a 2-D split) share one slot index, each on its own PEs.
//
// Each slot carries the team's descriptor (written by its PE at creation, read locally) and the
// words other members write during collectives: dissemination-sync counters that only ever grow by
// one per signal, so a team can be reused, destroyed and its slot given to a new team without
// resetting anything a late peer might still increment.
#pragma once
#include "runtime/api/types.h"  // shmem_team_t, SHMEM_TEAM_*
#include "runtime/contract.h"   // GIO_HEAP_RESERVED
#include "runtime/defs.h"

#define GIO_TEAM_MAGIC 0x47544d31u  // "GTM1": the slot holds a live team on this PE

// How a team syncs, which host and kernels must agree on since they share the counters below.
// Teams of 3 to GIO_TEAM_SYNC_ONE_ROUND_MAX members: one round, every member adds 1 to counter 0
// of every other and waits until its counter 0 holds n-1 more than it has consumed. It is a
// barrier although the counts are cumulative and a fast member's next sync adds to them early:
// a member signals for sync s+1 only after leaving sync s, which needs every member to have
// arrived at s; so while one member has yet to arrive, a PE has at most (n-2)*s + (s-1) of the
// s*(n-1) signals it needs. One hop instead of ceil(log2 n) dependent ones (4 PEs on 4xH200:
// 4.59 us for the two rounds against NVSHMEM's 2.26). Other sizes (2, where both are the same,
// and large teams, where n-1 serial signals cost more than the rounds) use dissemination.
#define GIO_TEAM_SYNC_ONE_ROUND_MAX 8
GIO_HOST_DEVICE inline bool gio_team_sync_one_round(int n) { return n > 2 && n <= GIO_TEAM_SYNC_ONE_ROUND_MAX; }
#define GIO_MAX_TEAMS 64            // live teams at once per PE, the predefined four included
#define GIO_TEAM_ROUNDS 8           // dissemination rounds for GIO_MAX_PES PEs: ceil(log2(256))
#define GIO_TEAM_SCRATCH 16         // words for the team-creation agreement (two 8-word halves)
#define GIO_HEAP_TEAM_TABLE GIO_HEAP_RESERVED  // heap offset of gio_team_v1[GIO_MAX_TEAMS]
#define GIO_TEAM_SLOT_WORLD 0                  // SHMEM_TEAM_WORLD's slot
#define GIO_TEAM_SLOT_SHARED 1                 // SHMEM_TEAM_SHARED's slot
#define GIO_TEAM_SLOT_DEVICE_WORLD 2           // SHMEM_DEVICE_TEAM_WORLD's slot
#define GIO_TEAM_SLOT_DEVICE_SHARED 3          // SHMEM_DEVICE_TEAM_SHARED's slot
#define GIO_TEAM_SLOTS_PREDEFINED 4            // slots below this are predefined teams
#define GIO_TEAM_SLOT_NONE GIO_MAX_TEAMS       // what gio_team_slot gives a value no handle can hold

// Handle <-> slot. Host and kernels take the slot at the routine's entry and work on an int from
// there (one subtraction and compare per collective call). SHMEM_TEAM_INVALID (a null handle) is
// slot -1; a value past the table (an uninitialized or overwritten handle) GIO_TEAM_SLOT_NONE, which
// no live team has, so the routine's check names it rather than reading past the table.
GIO_HOST_DEVICE inline int gio_team_slot(shmem_team_t team) {
  const uintptr_t v = (uintptr_t)team;
  return v <= GIO_MAX_TEAMS ? (int)v - 1 : GIO_TEAM_SLOT_NONE;
}
GIO_HOST_DEVICE inline shmem_team_t gio_team_handle(int slot) { return (shmem_team_t)(uintptr_t)(slot + 1); }

struct gio_team_v1 {
  uint32_t magic;    // GIO_TEAM_MAGIC while live on this PE, 0 otherwise
  int32_t my_pe;     // this PE's number in the team
  int32_t n_pes;
  uint8_t all_p2p;   // every member reaches every other over p2p: kernels may use the LL protocol
  uint8_t rsvd0[3];
  // sync[r]: signals received in dissemination round r (one-round syncs: counter 0 alone), summed
  // over the team's lifetime (and the slot's earlier teams); the local side waits for the signals
  // of one sync more than it has consumed.
  uint64_t sync[GIO_TEAM_ROUNDS];
  uint64_t count;    // collect: this PE's contribution in bytes, read by the other members
  uint64_t scratch[GIO_TEAM_SCRATCH];
  uint8_t members[GIO_MAX_PES];  // world PE of team PE i
  // Local words, read and written only by this PE (host collectives and kernels alike, one
  // collective on a team at a time): sync signals consumed per round, which outlive the slot's
  // team because the counters above only grow; and the LL protocol's call count, which names the
  // flag value and the buffer half of the next LL collective (reset with the LL area at destroy).
  uint64_t consumed[GIO_TEAM_ROUNDS];
  uint32_t ll_seq;
  uint32_t ll_max;   // largest LL collective in bytes this PE sends to one member (GIO_COLL_LL_MAX)
  uint64_t rsvd1[4];
};

// Per slot, after the table: the LL protocol's receive area (two halves, alternating between
// consecutive LL calls) and scratch the generic reduction gathers into. Only peers of the slot's
// live team write its LL area, so a team never sees another's words.
#define GIO_TEAM_LL_WORDS 512u        // 8-byte words per half: 4 data bytes + a 4-byte flag each
#define GIO_TEAM_SCRATCH_BYTES 4096u  // two 2 KiB halves: an accumulator and an incoming piece
#define GIO_TEAM_COLL_BYTES (2u * GIO_TEAM_LL_WORDS * 8u + GIO_TEAM_SCRATCH_BYTES)

// True when a collective sending `bytes` to each member may take the LL protocol on a team of
// n_pes (device/coll/ll.h): every member pair p2p, within ll_max, and within one sender's share of
// a half. Kernels decide with it, and so does the host launcher of the stream collectives, whose
// sync kernels must be left out exactly when the kernel takes LL.
GIO_HOST_DEVICE inline bool gio_team_ll_fits(bool all_p2p, int n_pes, uint32_t ll_max, size_t bytes) {
  return all_p2p && n_pes > 1 && bytes <= ll_max && (bytes + 3) / 4 <= GIO_TEAM_LL_WORDS / (unsigned)n_pes;
}
#define GIO_HEAP_TEAM_COLL (GIO_HEAP_TEAM_TABLE + GIO_MAX_TEAMS * 576u)  // GIO_MAX_TEAMS x GIO_TEAM_COLL_BYTES

#ifdef __cplusplus
static_assert(sizeof(shmem_team_t) == sizeof(void*), "a team handle is pointer-sized (runtime/api/types.h)");
static_assert(GIO_MAX_PES <= 256, "gio_team_v1::members holds a world PE in one byte");
static_assert((1 << GIO_TEAM_ROUNDS) >= GIO_MAX_PES, "enough dissemination rounds for every PE");
static_assert(GIO_MAX_TEAMS <= 64, "a split agrees on free slots through one 64-bit mask");
static_assert(offsetof(gio_team_v1, sync) == 16, "gio_team_v1 layout");
static_assert(offsetof(gio_team_v1, count) == 80, "gio_team_v1 layout");
static_assert(offsetof(gio_team_v1, members) == 216, "gio_team_v1 layout");
static_assert(offsetof(gio_team_v1, consumed) == 472, "gio_team_v1 layout");
static_assert(offsetof(gio_team_v1, ll_seq) == 536, "gio_team_v1 layout");
static_assert(sizeof(gio_team_v1) == 576, "gio_team_v1 layout (GIO_HEAP_TEAM_COLL assumes it)");
static_assert(sizeof(gio_team_v1) % 8 == 0, "sync words stay 8-byte aligned in the table");
static_assert(GIO_HEAP_TEAM_COLL % 256 == 0, "the LL area starts heap-aligned");
#endif
