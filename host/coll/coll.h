// Host collectives: teams, the group a collective runs over, and the algorithms' building blocks.
//
// Every collective runs over a `group`: a team (its slot in the symmetric team table) or a 1.4
// active set (its pSync). Data and signals move with the host API's own one-sided operations
// (gio_host_putmem/getmem/amo), so a collective works over whatever transport reaches each peer,
// and each of those calls has completed when it returns: a signal sent after a put is never seen
// before the put's data.
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include <cstring>

#include "gio_config.h"
#if defined(GIO_PLATFORM_HOST)
#include "runtime/emu_api.h"  // host::in_kernel
#endif
#include "runtime/host_entry.h"
#include "runtime/api/c/shmem_c.h"
#include "runtime/api/coll_stream.h"

#include "runtime/team.h"

namespace gio {

struct runtime;

// One live team as this PE sees it.
struct team {
  bool live = false;
  std::vector<int> members;  // world PE of each team PE
  int my_pe = -1;            // this PE's number in the team
  shmem_team_config_t config{};
  long config_mask = 0;
};

struct coll_state {
  gio_team_v1* table = nullptr;  // symmetric: GIO_MAX_TEAMS slots at GIO_HEAP_TEAM_TABLE
  uint8_t* area = nullptr;       // symmetric: GIO_MAX_TEAMS x GIO_TEAM_COLL_BYTES at GIO_HEAP_TEAM_COLL
  team teams[GIO_MAX_TEAMS];
  // Every PE's transport to every PE (row = source), gathered once transports are up: a team may
  // use the LL protocol in kernels only if every member pair is p2p, and all members must agree.
  std::vector<uint8_t> transports;
  std::mutex lock;          // teams[] and ctx_team against concurrent queries, creation and destruction
  std::mutex create_lock;   // one team creation at a time on this PE (see team_split.cpp)
  std::vector<int> ctx_team;  // team slot of each host context (by gio_ctx_v1::index)
  // The push reductions' area on SHMEM_TEAM_WORLD (runtime/coll_stream.h): flags, then
  // push_scratch bytes of chunk slots; nullptr where no push can run (GIO_COLL_REDUCE=pull, 1 PE,
  // more than kPushMaxPes). push_seq numbers the calls, the same on every PE since every member
  // makes the world's collectives in one order; flags carry it, so none is reset between calls.
  uint8_t* push_area = nullptr;
  size_t push_scratch = 0;
  uint64_t push_seq = 0;
  // Symmetric: this PE's count of host world barriers entered (host/coll/arrivals.h).
  uint64_t* arrivals = nullptr;
};

// What one collective call runs over.
struct group {
  const char* routine;       // the public name, for messages
  std::string what;          // "team 3", "active set (PE_start 0, logPE_stride 1, PE_size 2)"
  std::vector<int> members;  // world PE of each group PE
  int me = 0;                // this PE's number in the group
  uint64_t* sync = nullptr;  // symmetric: GIO_TEAM_ROUNDS dissemination counters
  uint64_t* count = nullptr; // symmetric: this PE's collect contribution (bytes)
  // Team: the slot's counts of signals already consumed per round (symmetric heap, local words:
  // the counters keep growing, and kernels on the team count with them). Active set: nullptr, and
  // each consumed signal is subtracted again, so pSync is back to SHMEM_SYNC_VALUE once the call
  // returns.
  uint64_t* consumed = nullptr;
  int size() const { return (int)members.size(); }
  int pe(int i) const { return members[i]; }
};

// The group of a team handle; a handle that is not a live team here is a fatal error.
group team_group(runtime& r, const char* routine, shmem_team_t t);
// The group of a 1.4 active set; a triplet that is not an active set containing this PE, or a pSync
// outside the symmetric heap, is a fatal error.
group active_set_group(runtime& r, const char* routine, int PE_start, int logPE_stride, int PE_size, long* pSync);

// The team or active set a collective was called on, turned into its group once the runtime is known.
struct coll_over {
  shmem_team_t team_handle = SHMEM_TEAM_INVALID;
  bool active_set = false;
  int start = 0, log_stride = 0, size = 0;
  long* psync = nullptr;
  static coll_over team(shmem_team_t t) {
    coll_over o;
    o.team_handle = t;
    return o;
  }
  static coll_over set(int start, int log_stride, int size, long* psync) {
    coll_over o;
    o.active_set = true;
    o.start = start;
    o.log_stride = log_stride;
    o.size = size;
    o.psync = psync;
    return o;
  }
  group group_of(runtime& r, const char* routine) const {
    return active_set ? active_set_group(r, routine, start, log_stride, size, psync)
                      : team_group(r, routine, team_handle);
  }
};

// shmem_init / shmem_finalize: the team table, SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED.
void coll_init(runtime& r);
void coll_fini(runtime& r);
// Once transports are connected: gathers every PE's transports and marks the teams whose members
// all reach each other over p2p (all_p2p in the slot).
void coll_transports(runtime& r);

// Every pair of the members (world PEs) reaches each other over p2p, as the gathered transports say.
bool group_all_p2p(const runtime& r, const std::vector<int>& members);
// The team slots' ll_max: GIO_COLL_LL_MAX, clamped to the slot's 32-bit field.
uint32_t team_ll_max(const runtime& r);

// "SHMEM_TEAM_WORLD", "SHMEM_TEAM_SHARED" or "team <handle> (slot <slot>)" of a slot, for messages.
std::string team_name(int slot);
// The live team in a handle's slot (gio_team_slot), or a fatal error naming the routine. Caller
// holds coll_state::lock.
team& team_checked(runtime& r, const char* routine, int slot);
// Makes `slot` this PE's team of `members` (world PEs in team order; this PE among them).
void team_install(runtime& r, int slot, std::vector<int> members, const shmem_team_config_t* config, long mask);

// Dissemination sync over the group: returns once every member has entered it.
void group_sync(runtime& r, const group& g);

// nelems * elem, or a fatal error when it overflows.
size_t coll_bytes(const group& g, size_t nelems, size_t elem);
// A fatal error unless [p, p + bytes) lies in this PE's symmetric heap (`name`: "dest", "source").
void coll_check_sym(runtime& r, const group& g, const char* name, const void* p, size_t bytes);
// A fatal error unless 0 <= pe < the group's size (`name`: "PE_root").
void coll_check_member(const group& g, const char* name, int pe);

// This PE's own heap (local loads and stores, no transport), and copies to and from a member.
void local_read(runtime& r, const group& g, void* dst, const void* sym, size_t n);
void local_write(runtime& r, const group& g, void* sym, const void* src, size_t n);
void put_to(runtime& r, const group& g, int member, void* sym_dst, const void* src, size_t n);
void get_from(runtime& r, const group& g, int member, void* dst, const void* sym_src, size_t n);

// The data movers (host/coll/move.cpp), sizes in bytes. `root_too`: a team broadcast also writes
// the root's dest; the active-set one does not.
void coll_broadcast(runtime& r, const group& g, void* dest, const void* source, size_t bytes, int root,
                    bool root_too);
void coll_collect(runtime& r, const group& g, void* dest, const void* source, size_t bytes);
void coll_fcollect(runtime& r, const group& g, void* dest, const void* source, size_t bytes);
void coll_alltoall(runtime& r, const group& g, void* dest, const void* source, size_t bytes);
void coll_alltoalls(runtime& r, const group& g, void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst,
                    size_t nelems, size_t elem);

// Reductions (host/coll/reduce.cpp): `combine` folds n elements of `in` into `acc`.
typedef void (*combine_fn)(void* acc, const void* in, size_t n);
void coll_reduce(runtime& r, const group& g, void* dest, const void* source, size_t nreduce, size_t elem,
                 combine_fn combine);
// Scans (1.6): member k's dest is the fold of members 0..k's sources (inclusive) or 0..k-1's
// (exclusive; the first member's dest is all zero bits, the sum's identity).
void coll_scan(runtime& r, const group& g, void* dest, const void* source, size_t nelems, size_t elem,
               combine_fn combine, bool inclusive);

// The world PE a host context's operation on `pe` goes to (team contexts number PEs in their team).
int team_ctx_world_pe(runtime& r, const char* routine, gio_ctx_v1* ctx, int pe);

}  // namespace gio
