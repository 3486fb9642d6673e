// Teams: the table, the predefined teams, queries, destruction and team contexts.
// Splits are in team_split.cpp.
#include "gio_config.h"  // GIO_PLATFORM_{CUDA,HIP,HOST}: the #if branches below
#include <algorithm>
#include <cstdio>

#include "host/bootstrap/bootstrap.h"
#include "host/coll/coll.h"
#include "host/log.h"
#include "host/runtime.h"
#include "host/transport/transport.h"
#include "runtime/coll_stream.h"

namespace gio {

// Every pair of members reaches each other by loads and stores (p2p; a team of one trivially): the
// condition for the LL protocol in kernels, computed from the gathered matrix so that every member
// agrees.
bool group_all_p2p(const runtime& r, const std::vector<int>& members) {
  const std::vector<uint8_t>& m = r.coll->transports;
  if (m.empty()) return false;  // transports not connected yet: coll_transports sets it later
  for (int a : members)
    for (int b : members)
      if (a != b && !transport_by_id(m[(size_t)a * r.n_pes + b]).load_store) return false;
  return true;
}

uint32_t team_ll_max(const runtime& r) { return (uint32_t)std::min<uint64_t>(r.cfg.GIO_COLL_LL_MAX, UINT32_MAX); }

namespace {

// The descriptor part of this PE's slot, never the counters peers may be incrementing right now,
// nor the local words a kernel's last collective left.
void publish_slot(runtime& r, int slot) {
  const team& t = r.coll->teams[slot];
  gio_team_v1 d{};
  d.magic = t.live ? GIO_TEAM_MAGIC : 0;
  d.my_pe = t.my_pe;
  d.n_pes = (int32_t)t.members.size();
  d.all_p2p = t.live && group_all_p2p(r, t.members);
  for (size_t i = 0; i < t.members.size(); ++i) d.members[i] = (uint8_t)t.members[i];
  d.ll_max = team_ll_max(r);
  gio_team_v1* s = &r.coll->table[slot];
  gpu::copy(s, &d, offsetof(gio_team_v1, sync), "shmem_team");
  gpu::copy(s->members, d.members, sizeof d.members, "shmem_team");
  gpu::copy(&s->ll_max, &d.ll_max, sizeof d.ll_max, "shmem_team");
}

// A destroyed team's LL words (flags of its calls) and call count, so the slot's next team starts
// from zero on every member. Safe after the destroy's sync: each member waited for every LL word
// sent to it before leaving its last collective, so nothing of the old team is still on the way.
void clear_ll(runtime& r, int slot) {
  static const std::vector<uint8_t> zeros(2u * GIO_TEAM_LL_WORDS * 8u, 0);
  gpu::copy(r.coll->area + (size_t)slot * GIO_TEAM_COLL_BYTES, zeros.data(), zeros.size(), "shmem_team_destroy");
  const uint32_t zero = 0;
  gpu::copy(&r.coll->table[slot].ll_seq, &zero, sizeof zero, "shmem_team_destroy");
}

}  // namespace

void team_install(runtime& r, int slot, std::vector<int> members, const shmem_team_config_t* config, long mask) {
  team t;
  t.live = true;
  t.my_pe = (int)(std::find(members.begin(), members.end(), r.my_pe) - members.begin());
  t.members = std::move(members);
  if (config && (mask & SHMEM_TEAM_NUM_CONTEXTS)) t.config.num_contexts = config->num_contexts;
  t.config_mask = mask;
  {
    std::lock_guard<std::mutex> g(r.coll->lock);
    r.coll->teams[slot] = std::move(t);
  }
  publish_slot(r, slot);
}

// The push reductions' area (runtime/coll_stream.h), taken at init so it has the same offset on
// every PE without a collective allocation in the middle of a stream call. 64 MiB by default on
// GPUs: at 4 members and 132 work-groups that is 4 slots of 42 KiB per (work-group, source), about
// what a work-group moves per source in the time a flag takes to cross the link a few times, so
// a producer rarely waits for a slot; it is 6 % of the default 1 GiB heap, and at most 1/16 of any.
// Every PE must take the same area (or none), or the heap's later blocks would not be symmetric.
static void push_area_init(runtime& r, coll_state& c) {
  uint64_t scratch = 0;
  if (r.cfg.GIO_COLL_REDUCE != "pull" && r.n_pes >= 2 && r.n_pes <= kPushMaxPes) {
    scratch = r.cfg.GIO_COLL_REDUCE_SCRATCH;
    if (scratch && (scratch < 4096 || scratch > r.heap_size / 2))
      fatal(GIO_ERR_ARG, "shmem_init", "GIO_COLL_REDUCE_SCRATCH=%llu is outside [4K, half the heap (%llu)]",
            (unsigned long long)scratch, (unsigned long long)(r.heap_size / 2));
    // auto: none in a heap under 2 MiB, where the flags alone would pass 1/16 of it.
    if (!scratch) scratch = r.heap_size / 16 < kPushDataOffset ? 0 : std::min<uint64_t>(64ull << 20, r.heap_size / 16);
    scratch = scratch / 256 * 256;
  }
  uint64_t lo, hi;
  boot::minmax_u64(scratch, &lo, &hi, "shmem_init (push reduction scratch)");
  if (lo != hi)
    fatal(GIO_ERR_COLLECTIVE, "shmem_init",
          "the push reductions' scratch differs between PEs (from %llu to %llu bytes; 0 = none): set the same "
          "GIO_COLL_REDUCE and GIO_COLL_REDUCE_SCRATCH everywhere",
          (unsigned long long)lo, (unsigned long long)hi);
  if (!scratch) return;
  auto off = r.alloc->alloc(kPushDataOffset + scratch, GIO_HEAP_MIN_ALIGN);
  if (!off)
    fatal(GIO_ERR_ARG, "shmem_init", "GIO_COLL_REDUCE_SCRATCH=%llu does not fit the symmetric heap (%llu bytes)",
          (unsigned long long)scratch, (unsigned long long)r.heap_size);
  c.push_area = r.heap + *off;
  c.push_scratch = scratch;
  // Flags start below every call's number; the slots need no clearing.
  const std::vector<uint8_t> zeros(kPushDataOffset, 0);
  gpu::copy(c.push_area, zeros.data(), zeros.size(), "shmem_init");
}

void coll_init(runtime& r) {
  r.coll.reset(new coll_state);
  coll_state& c = *r.coll;
  // The first block of the heap, taken before any user allocation: the same offset everywhere, and
  // one a kernel can compute (GIO_HEAP_TEAM_TABLE).
  auto off = r.alloc->alloc(sizeof(gio_team_v1) * GIO_MAX_TEAMS, GIO_HEAP_MIN_ALIGN);
  if (!off || *off != GIO_HEAP_TEAM_TABLE)
    fatal(GIO_ERR_INIT, "shmem_init", "the team table did not get heap offset %u (got %lld)", GIO_HEAP_TEAM_TABLE,
          off ? (long long)*off : -1ll);
  c.table = (gio_team_v1*)(r.heap + *off);
  // Then every slot's LL area and scratch, likewise at a fixed offset (GIO_HEAP_TEAM_COLL).
  auto area = r.alloc->alloc((size_t)GIO_TEAM_COLL_BYTES * GIO_MAX_TEAMS, GIO_HEAP_MIN_ALIGN);
  if (!area || *area != GIO_HEAP_TEAM_COLL)
    fatal(GIO_ERR_INIT, "shmem_init", "the teams' collective area did not get heap offset %u (got %lld)",
          GIO_HEAP_TEAM_COLL, area ? (long long)*area : -1ll);
  c.area = r.heap + *area;
  // GPU heaps start with whatever the allocator left: counters, consumed counts and LL flags must
  // start at zero. No peer signals before the barrier that ends shmem_init.
  {
    const size_t bytes = (size_t)(*area - *off) + (size_t)GIO_TEAM_COLL_BYTES * GIO_MAX_TEAMS;
    const std::vector<uint8_t> zeros(bytes, 0);
    gpu::copy(c.table, zeros.data(), bytes, "shmem_init");
  }
  c.ctx_team.assign(GIO_MAX_CTX, GIO_TEAM_SLOT_WORLD);
  push_area_init(r, c);
  // The host world barriers' arrival count: every PE takes it next, so its offset is the same on all.
  auto arrivals = r.alloc->alloc(sizeof(uint64_t), GIO_HEAP_MIN_ALIGN);
  if (!arrivals) fatal(GIO_ERR_NOMEM, "shmem_init", "no room in the symmetric heap for the barrier arrival count");
  c.arrivals = (uint64_t*)(r.heap + *arrivals);
  const uint64_t zero = 0;
  gpu::copy(c.arrivals, &zero, sizeof zero, "shmem_init");

  std::vector<int> world(r.n_pes), shared;
  for (int pe = 0; pe < r.n_pes; ++pe) world[pe] = pe;
  // GIO_NODE_PER_PE=1 plays every PE on a node of its own: no peer shares its memory.
  for (int pe = 0; pe < r.n_pes; ++pe)
    if (pe == r.my_pe || (!r.cfg.GIO_NODE_PER_PE && boot::node_of(pe) == boot::node_of(r.my_pe))) shared.push_back(pe);
  shmem_team_config_t cfg{(int)r.cfg.GIO_NUM_CONTEXTS};
  team_install(r, GIO_TEAM_SLOT_WORLD, world, &cfg, SHMEM_TEAM_NUM_CONTEXTS);
  team_install(r, GIO_TEAM_SLOT_SHARED, shared, &cfg, SHMEM_TEAM_NUM_CONTEXTS);
  // Every PE has a GPU (the emulated one on the host platform), so the device world is the world;
  // a team of its own all the same, an atomicity domain apart (GPU Auxiliary Specification).
  const shmem_team_config_t dcfg{(int)r.cfg.SHMEM_DEVICE_MAX_CTX};
  team_install(r, GIO_TEAM_SLOT_DEVICE_WORLD, world, &dcfg, SHMEM_TEAM_NUM_CONTEXTS);
}

// SHMEM_DEVICE_TEAM_SHARED: the PEs of this node whose GPU heaps are mutually load/store reachable
// (shmem_ptr non-null between every pair), known once the transports have mapped the peers. Where
// any PE of the job misses a node peer's GPU heap, every PE's team is itself alone: a membership all
// PEs agree on without knowing the others' mappings.
static void device_shared_install(runtime& r) {
  const team& node = r.coll->teams[GIO_TEAM_SLOT_SHARED];
  uint64_t all = 1;
  for (int pe : node.members)
    if (pe != r.my_pe) all &= transport_of(r, pe).ptr && transport_of(r, pe).ptr(r, GIO_HEAP_RESERVED, pe) != nullptr;
  uint64_t lo, hi;
  boot::minmax_u64(all, &lo, &hi, "shmem_init (SHMEM_DEVICE_TEAM_SHARED)");
  std::vector<int> members = lo ? node.members : std::vector<int>{r.my_pe};
  const shmem_team_config_t dcfg{(int)r.cfg.SHMEM_DEVICE_MAX_CTX};
  team_install(r, GIO_TEAM_SLOT_DEVICE_SHARED, std::move(members), &dcfg, SHMEM_TEAM_NUM_CONTEXTS);
}

void coll_fini(runtime& r) { r.coll.reset(); }

void coll_transports(runtime& r) {
  std::vector<uint8_t> mine(r.n_pes), all((size_t)r.n_pes * r.n_pes);
  for (int pe = 0; pe < r.n_pes; ++pe) mine[pe] = (uint8_t)r.peers[pe].transport;
  boot::allgather(mine.data(), all.data(), mine.size(), "shmem_init (transports)");
  r.coll->transports = std::move(all);
  device_shared_install(r);
  for (int s = 0; s < GIO_MAX_TEAMS; ++s)
    if (r.coll->teams[s].live) publish_slot(r, s);
}

std::string team_name(int slot) {
  if (slot == GIO_TEAM_SLOT_WORLD) return "SHMEM_TEAM_WORLD";
  if (slot == GIO_TEAM_SLOT_SHARED) return "SHMEM_TEAM_SHARED";
  if (slot == GIO_TEAM_SLOT_DEVICE_WORLD) return "SHMEM_DEVICE_TEAM_WORLD";
  if (slot == GIO_TEAM_SLOT_DEVICE_SHARED) return "SHMEM_DEVICE_TEAM_SHARED";
  char h[64];
  snprintf(h, sizeof h, "team %p (slot %d)", (void*)gio_team_handle(slot), slot);
  return h;
}

// A handle that names a live team of this PE; anything else stops the job (the spec leaves it undefined).
team& team_checked(runtime& r, const char* routine, int t) {
  if (t < 0) fatal(GIO_ERR_ARG, routine, "team is SHMEM_TEAM_INVALID (a failed split, or a PE outside the new team)");
  if (t >= GIO_MAX_TEAMS)
    fatal(GIO_ERR_ARG, routine, "team handle is past GIO's %d team slots: no team handle (uninitialized or "
          "overwritten?)", GIO_MAX_TEAMS);
  if (!r.coll->teams[t].live)
    fatal(GIO_ERR_ARG, routine, "team handle %p (slot %d) is not a team of this PE (never created, or destroyed)",
          (void*)gio_team_handle(t), t);
  return r.coll->teams[t];
}

group team_group(runtime& r, const char* routine, shmem_team_t handle) {
  const int t = gio_team_slot(handle);
  group g;
  g.routine = routine;
#if defined(GIO_PLATFORM_HOST)
  if (host::in_kernel()) fatal(GIO_ERR_ARG, routine, "called in a kernel: GIO's collectives are host-only for now");
#endif
  std::lock_guard<std::mutex> l(r.coll->lock);
  const team& tm = team_checked(r, routine, t);
  g.members = tm.members;
  g.me = tm.my_pe;
  g.sync = r.coll->table[t].sync;
  g.count = &r.coll->table[t].count;
  g.consumed = r.coll->table[t].consumed;
  g.what = team_name(t);
  return g;
}

int team_ctx_world_pe(runtime& r, const char* routine, gio_ctx_v1* ctx, int pe) {
  if (!ctx) return pe;
  std::lock_guard<std::mutex> l(r.coll->lock);
  const int t = r.coll->ctx_team[ctx->index];
  if (t == GIO_TEAM_SLOT_WORLD) return pe;
  const team& tm = r.coll->teams[t];
  if (pe < 0 || pe >= (int)tm.members.size())
    fatal(GIO_ERR_ARG, routine, "target PE %d is out of range [0, %d) of the context's %s", pe,
          (int)tm.members.size(), team_name(t).c_str());
  return tm.members[pe];
}

}  // namespace gio

using namespace gio;

extern "C" int gio_host_team_my_pe(shmem_team_t handle) {
  runtime& r = rt_checked("shmem_team_my_pe");
  const int t = gio_team_slot(handle);
  if (t < 0) return -1;
  std::lock_guard<std::mutex> l(r.coll->lock);
  return team_checked(r, "shmem_team_my_pe", t).my_pe;
}

extern "C" int gio_host_team_n_pes(shmem_team_t handle) {
  runtime& r = rt_checked("shmem_team_n_pes");
  const int t = gio_team_slot(handle);
  if (t < 0) return -1;
  std::lock_guard<std::mutex> l(r.coll->lock);
  return (int)team_checked(r, "shmem_team_n_pes", t).members.size();
}

extern "C" int shmem_team_get_config(shmem_team_t handle, long mask, shmem_team_config_t* config) {
  runtime& r = rt_checked("shmem_team_get_config");
  const int t = gio_team_slot(handle);
  if (t < 0) return -1;
  std::lock_guard<std::mutex> l(r.coll->lock);
  const team& tm = team_checked(r, "shmem_team_get_config", t);
  if (!config) fatal(GIO_ERR_ARG, "shmem_team_get_config", "config is a null pointer");
  if (mask & SHMEM_TEAM_NUM_CONTEXTS) config->num_contexts = tm.config.num_contexts;
  return 0;
}

extern "C" int gio_host_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team) {
  runtime& r = rt_checked("shmem_team_translate_pe");
  const int src = gio_team_slot(src_team), dest = gio_team_slot(dest_team);
  if (src < 0 || dest < 0) return -1;
  std::lock_guard<std::mutex> l(r.coll->lock);
  const team& s = team_checked(r, "shmem_team_translate_pe", src);
  const team& d = team_checked(r, "shmem_team_translate_pe", dest);
  if (src_pe < 0 || src_pe >= (int)s.members.size()) return -1;
  auto it = std::find(d.members.begin(), d.members.end(), s.members[src_pe]);
  return it == d.members.end() ? -1 : (int)(it - d.members.begin());
}

extern "C" int gio_host_team_sync(shmem_team_t t) {
  runtime& r = rt_checked("shmem_team_sync");
  group_sync(r, team_group(r, "shmem_team_sync", t));
  return 0;
}

extern "C" void shmem_team_destroy(shmem_team_t handle) {
  const char* routine = "shmem_team_destroy";
  runtime& r = rt_checked(routine);
  const int t = gio_team_slot(handle);
  if (t < 0) return;
  if (t >= 0 && t < GIO_TEAM_SLOTS_PREDEFINED)
    fatal(GIO_ERR_ARG, routine, "%s is predefined and cannot be destroyed", team_name(t).c_str());
  // Every member is past its last collective on the team before any member frees the slot: a
  // later team on the slot then finds the words as the last collective left them.
  group_sync(r, team_group(r, routine, handle));
  {
    std::lock_guard<std::mutex> cl(r.ctx_lock);
    std::lock_guard<std::mutex> l(r.coll->lock);
    for (gio_ctx_v1& c : r.host_ctx)
      if (c.in_use && r.coll->ctx_team[c.index] == t && (c.options & SHMEM_CTX_PRIVATE))
        fatal(GIO_ERR_ARG, routine, "context %p of %s was created with SHMEM_CTX_PRIVATE and is still live: "
              "destroy it before the team", (void*)&c, team_name(t).c_str());
    // Shareable contexts of the team go with it.
    for (gio_ctx_v1& c : r.host_ctx)
      if (c.in_use && r.coll->ctx_team[c.index] == t) {
        c.in_use = 0;
        r.coll->ctx_team[c.index] = GIO_TEAM_SLOT_WORLD;
      }
    r.coll->teams[t] = team{};
  }
  // Its device contexts likewise (their options live in the GPU heap: a private one is not told apart).
  for (size_t k = 0; k < r.dev_ctx_team.size(); ++k) {
    bool of_team;
    {
      std::lock_guard<std::mutex> cl(r.ctx_lock);
      of_team = r.dev_ctx_team[k] == t;
    }
    if (of_team) dev_ctx_destroy(r, routine, (int)k);
  }
  publish_slot(r, t);
  clear_ll(r, t);
}

extern "C" int shmem_team_create_ctx(shmem_team_t handle, long options, shmem_ctx_t* ctx) {
  const char* routine = "shmem_team_create_ctx";
  runtime& r = rt_checked(routine);
  const int t = gio_team_slot(handle);
  if (t < 0) {
    *ctx = SHMEM_CTX_INVALID;
    return 1;
  }
  {
    std::lock_guard<std::mutex> l(r.coll->lock);
    team_checked(r, routine, t);
  }
  if (options & SHMEM_DEVICE_CTX) return dev_ctx_create(r, routine, options, t, ctx);
  const int rc = gio_host_ctx_create(options, ctx);
  if (rc) return rc;
  std::lock_guard<std::mutex> l(r.coll->lock);
  r.coll->ctx_team[(*ctx)->index] = t;
  return 0;
}

extern "C" int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t* t) {
  const char* routine = "shmem_ctx_get_team";
  runtime& r = rt_checked(routine);
  if (!t) fatal(GIO_ERR_ARG, routine, "team is a null pointer");
  if (ctx == SHMEM_CTX_INVALID) {
    *t = SHMEM_TEAM_INVALID;
    return 1;
  }
  if (ctx == SHMEM_CTX_DEFAULT) {
    *t = SHMEM_TEAM_WORLD;
    return 0;
  }
  bool live = false;
  {
    std::lock_guard<std::mutex> cl(r.ctx_lock);
    for (const gio_ctx_v1& c : r.host_ctx) live |= &c == ctx && c.in_use;
    const int k = dev_ctx_slot(r, ctx);
    if (k >= 0) {
      if (r.dev_ctx_team[k] < 0) fatal(GIO_ERR_ARG, routine, "device context %p was destroyed", (void*)ctx);
      *t = gio_team_handle(r.dev_ctx_team[k]);
      return 0;
    }
  }
  if (!live) fatal(GIO_ERR_ARG, routine, "context %p is not a live host context", (void*)ctx);
  std::lock_guard<std::mutex> l(r.coll->lock);
  *t = gio_team_handle(r.coll->ctx_team[ctx->index]);
  return 0;
}
