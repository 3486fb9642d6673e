// Team creation: shmem_team_split_strided and shmem_team_split_2d.
//
// A split is one reduction over the parent team (on the parent's scratch words) that does two
// things: it checks that every PE passed the same arguments (max of each value and of its negation),
// and it ORs together the masks of slots each PE is using, so every PE picks the same lowest slots
// free on all of them. A new team's slot is then valid on each member without further talk; teams
// of one split with disjoint members (the rows of a 2-D split, say) share a slot index.
//
// One creation at a time per PE: two threads of a PE splitting two parents at once could pick the
// same slot, and making the second wait could deadlock against the other PEs' order, so the second
// stops with an error instead.
#include <algorithm>
#include <mutex>

#include "host/coll/coll.h"
#include "host/log.h"
#include "host/runtime.h"

using namespace gio;

namespace {

struct split_vote {
  uint64_t used;      // slots live on some PE (OR)
  int64_t hi[3];      // max of each argument
  int64_t neg_lo[3];  // max of each argument's negation, so -neg_lo is the min
};
static_assert(2 * sizeof(split_vote) <= sizeof(((gio_team_v1*)nullptr)->scratch), "a vote and its result fit");

void fold_vote(void* acc, const void* in, size_t n) {
  split_vote* a = (split_vote*)acc;
  const split_vote* b = (const split_vote*)in;
  for (size_t i = 0; i < n; ++i) {
    a[i].used |= b[i].used;
    for (int k = 0; k < 3; ++k) {
      a[i].hi[k] = std::max(a[i].hi[k], b[i].hi[k]);
      a[i].neg_lo[k] = std::max(a[i].neg_lo[k], b[i].neg_lo[k]);
    }
  }
}

// Agrees on `args` (named by `names`) over the parent `g` and picks `want` slots free on every PE of
// it. False when there are not enough: every PE of the parent gets the same answer.
bool agree(runtime& r, const group& g, shmem_team_t parent, const int64_t (&args)[3], const char* const (&names)[3],
           int want, int* slots) {
  split_vote v{};
  {
    std::lock_guard<std::mutex> l(r.coll->lock);
    for (int s = 0; s < GIO_MAX_TEAMS; ++s)
      if (r.coll->teams[s].live) v.used |= 1ull << s;
  }
  for (int k = 0; k < 3; ++k) {
    v.hi[k] = args[k];
    v.neg_lo[k] = -args[k];
  }
  uint64_t* scratch = r.coll->table[gio_team_slot(parent)].scratch;
  split_vote* result = (split_vote*)(scratch + GIO_TEAM_SCRATCH / 2);
  local_write(r, g, scratch, &v, sizeof v);
  coll_reduce(r, g, result, scratch, 1, sizeof v, fold_vote);
  split_vote all;
  local_read(r, g, &all, result, sizeof all);
  for (int k = 0; k < 3; ++k)
    if (all.hi[k] != -all.neg_lo[k])
      fatal(GIO_ERR_COLLECTIVE, g.routine, "the PEs of %s passed different %s: this PE %lld, all from %lld to %lld",
            g.what.c_str(), names[k], (long long)args[k], (long long)-all.neg_lo[k], (long long)all.hi[k]);
  int found = 0;
  for (int s = 0; s < GIO_MAX_TEAMS && found < want; ++s)
    if (!(all.used >> s & 1)) slots[found++] = s;
  if (found == want) return true;
  if (g.me == 0)
    info(0, "%s: no team slot left on some PE of %s: GIO keeps at most %d teams at once per PE "
         "(the four predefined ones included); destroy teams no longer used",
         g.routine, g.what.c_str(), GIO_MAX_TEAMS);
  return false;
}

std::unique_lock<std::mutex> creation(runtime& r, const char* routine) {
  std::unique_lock<std::mutex> l(r.coll->create_lock, std::try_to_lock);
  if (!l.owns_lock())
    fatal(GIO_ERR_ARG, routine, "another thread of this PE is creating a team: GIO creates one team at a time per PE");
  return l;
}

}  // namespace

extern "C" int shmem_team_split_strided(shmem_team_t parent, int start, int stride, int size,
                                        const shmem_team_config_t* config, long config_mask, shmem_team_t* new_team) {
  const char* routine = "shmem_team_split_strided";
  runtime& r = rt_checked(routine);
  if (!new_team) fatal(GIO_ERR_ARG, routine, "new_team is a null pointer");
  *new_team = SHMEM_TEAM_INVALID;
  if (parent == SHMEM_TEAM_INVALID) return 1;
  auto busy = creation(r, routine);
  const group g = team_group(r, routine, parent);
  int slot = -1;
  if (!agree(r, g, parent, {start, stride, size}, {"start", "stride", "size"}, 1, &slot)) return 1;
  // A valid triplet names `size` distinct PEs of the parent: all of start + i * stride in range.
  const int n = g.size();
  const int64_t last = (int64_t)start + (int64_t)stride * (size - 1);
  if (size < 1 || size > n || start < 0 || start >= n || last < 0 || last >= n || (stride == 0 && size > 1)) return 1;
  std::vector<int> members(size);
  bool mine = false;
  for (int i = 0; i < size; ++i) {
    members[i] = g.pe(start + stride * i);
    mine |= start + stride * i == g.me;
  }
  if (!mine) return 0;
  team_install(r, slot, members, config, config_mask);
  *new_team = gio_team_handle(slot);
  return 0;
}

extern "C" int shmem_team_split_2d(shmem_team_t parent, int xrange, const shmem_team_config_t* xaxis_config,
                                   long xaxis_mask, shmem_team_t* xaxis_team, const shmem_team_config_t* yaxis_config,
                                   long yaxis_mask, shmem_team_t* yaxis_team) {
  const char* routine = "shmem_team_split_2d";
  runtime& r = rt_checked(routine);
  if (!xaxis_team || !yaxis_team) fatal(GIO_ERR_ARG, routine, "xaxis_team or yaxis_team is a null pointer");
  *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
  if (parent == SHMEM_TEAM_INVALID) return 1;
  auto busy = creation(r, routine);
  const group g = team_group(r, routine, parent);
  int slots[2];
  if (!agree(r, g, parent, {xrange, 0, 0}, {"xrange", "-", "-"}, 2, slots)) return 1;
  if (xrange < 1) return 1;
  const int n = g.size(), xr = xrange < n ? xrange : n;
  const int x = g.me % xr, y = g.me / xr;
  std::vector<int> row, column;  // this PE's x-axis team (same y) and y-axis team (same x)
  for (int i = y * xr; i < n && i < (y + 1) * xr; ++i) row.push_back(g.pe(i));
  for (int i = x; i < n; i += xr) column.push_back(g.pe(i));
  team_install(r, slots[0], row, xaxis_config, xaxis_mask);
  team_install(r, slots[1], column, yaxis_config, yaxis_mask);
  *xaxis_team = gio_team_handle(slots[0]);
  *yaxis_team = gio_team_handle(slots[1]);
  return 0;
}
