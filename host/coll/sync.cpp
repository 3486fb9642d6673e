// The synchronization every host collective is built on, and the copies they move data with.
//
// Sync: dissemination over counters. In round k a PE adds 1 to counter k of the member 2^k ahead
// of it and waits until its own counter k holds one signal more than it has consumed; ceil(log2 n)
// rounds. Teams of 3 to 8 take one round: every member adds 1 to counter 0 of every other and waits
// for n-1 signals more than it has consumed (gio_team_sync_one_round in runtime/team.h: kernels
// sync on the same counters and must choose alike). The member writing counter k of a PE is always the same one, and a signal is counted,
// never overwritten, so a fast member already in the next sync adds to the count instead of
// erasing one not yet seen. Counting needs no reset, so a team slot needs no cleaning between teams,
// and a 1.4 pSync is returned to SHMEM_SYNC_VALUE by subtracting each consumed signal again.
#include "gio_config.h"  // GIO_PLATFORM_{CUDA,HIP,HOST}: the #if branches below
#include <sched.h>

#include <chrono>

#include "host/backoff.h"
#include "host/coll/coll.h"
#include "host/log.h"
#include "host/runtime.h"
#include "host/transport/transport.h"

namespace gio {

namespace {

// Collectives reach members through their transports' tables directly, not through the public
// host RMA entry points (host/rma.cpp): a group already holds world PEs, and the teams then never
// call back into the RMA layer that calls them for team contexts. Each operation has completed
// when it returns, so a signal sent after a put is never seen before the put's data.
void move_to(runtime& r, const group& g, int pe, void* sym_dst, const void* src, size_t n) {
  const uint64_t off = host_sym_offset(r, g.routine, sym_dst, n, pe);
  if (n) transport_for(r, g.routine, off, pe).put(r, g.routine, off, src, n, pe);
}
void move_from(runtime& r, const group& g, int pe, void* dst, const void* sym_src, size_t n) {
  const uint64_t off = host_sym_offset(r, g.routine, sym_src, n, pe);
  if (n) transport_for(r, g.routine, off, pe).get(r, g.routine, dst, off, n, pe);
}
void signal_add(runtime& r, const group& g, uint64_t* sym_word, int pe) {
  const uint64_t off = host_sym_offset(r, g.routine, sym_word, sizeof(uint64_t), pe);
  transport_for(r, g.routine, off, pe).amo(r, g.routine, GIO_AMO_FETCH_ADD, off, 1, 0, sizeof(uint64_t), pe);
}

// On GPUs a copy (a copy engine, no SM: a kernel holding every SM cannot stall the poll); on the
// host platform an atomic load, as the softnic and proxy threads of this process update the word
// with atomics.
uint64_t load_local(const group& g, uint64_t* word) {
  // A pSync among the program's globals is host memory on every platform (host/heap/globals.h).
  if (in_host_regions(rt(), word)) return cpu_amo(word, GIO_AMO_FETCH, 0, 0, sizeof(uint64_t), g.routine);
#if defined(GIO_PLATFORM_HOST)
  return gpu::amo(word, GIO_AMO_FETCH, 0, 0, sizeof(uint64_t), g.routine);
#else
  uint64_t v = 0;
  gpu::copy(&v, word, sizeof v, g.routine);
  return v;
#endif
}

// Bounded like every GIO wait; the message says which round, which member and what was seen.
// from < 0: one round, waiting for every other member.
void wait_round(runtime& r, const group& g, int round, int from, uint64_t need) {
  using clk = std::chrono::steady_clock;
  const clk::time_point t0 = clk::now();
  const uint64_t limit_ms = r.cfg.GIO_TIMEOUT_MS;
  backoff pace;  // a peer's signal may be this process's proxy thread's to apply (host/backoff.h)
  for (unsigned spins = 0;; ++spins) {
    const uint64_t seen = load_local(g, g.sync + round);
    if (seen >= need) return;
    pace.pause();
    if (limit_ms && (spins & 63) == 0) {
      const long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(clk::now() - t0).count();
      if ((uint64_t)ms > limit_ms && from < 0)
        fatal(GIO_ERR_TIMEOUT, g.routine,
              "timed out after %lld ms (GIO_TIMEOUT_MS=%llu) in the sync of %s, one round, waiting for the other %d "
              "members: counter %p is %llu, needs >= %llu",
              ms, (unsigned long long)limit_ms, g.what.c_str(), g.size() - 1, (void*)(g.sync + round),
              (unsigned long long)seen, (unsigned long long)need);
      if ((uint64_t)ms > limit_ms)
        fatal(GIO_ERR_TIMEOUT, g.routine,
              "timed out after %lld ms (GIO_TIMEOUT_MS=%llu) in the sync of %s, round %d, waiting for PE %d (PE %d "
              "of the group): counter %p is %llu, needs >= %llu",
              ms, (unsigned long long)limit_ms, g.what.c_str(), round, g.pe(from), from, (void*)(g.sync + round),
              (unsigned long long)seen, (unsigned long long)need);
    }
  }
}

}  // namespace

void group_sync(runtime& r, const group& g) {
  const int n = g.size();
  // The slot's consumed counts live in the heap, next to the counters (kernels sync with them too).
  uint64_t consumed[GIO_TEAM_ROUNDS];
  if (g.consumed) local_read(r, g, consumed, g.consumed, sizeof consumed);
  const bool one = gio_team_sync_one_round(n);
  const uint64_t per_sync = one ? (uint64_t)(n - 1) : 1;  // signals one sync brings to a counter
  int round = 0;
  for (int dist = 1; dist < n; dist <<= 1, ++round) {
    for (int k = dist; k < (one ? n : dist + 1); ++k)
      signal_add(r, g, g.sync + round, g.pe((g.me + k) % n));
    const uint64_t need = g.consumed ? consumed[round] + per_sync : per_sync;
    wait_round(r, g, round, one ? -1 : (g.me - dist + n) % n, need);
    if (g.consumed)
      consumed[round] = need;
    else if (in_host_regions(r, g.sync + round))
      cpu_amo(g.sync + round, GIO_AMO_FETCH_ADD, (uint64_t)-per_sync, 0, sizeof(uint64_t), g.routine);
    else
      gpu::amo(g.sync + round, GIO_AMO_FETCH_ADD, (uint64_t)-per_sync, 0, sizeof(uint64_t), g.routine);
    if (one) {
      ++round;
      break;
    }
  }
  if (g.consumed && round) local_write(r, g, g.consumed, consumed, sizeof consumed);
}

size_t coll_bytes(const group& g, size_t nelems, size_t elem) {
  if (elem && nelems > SIZE_MAX / elem)
    fatal(GIO_ERR_ARG, g.routine, "%zu elements of %zu bytes overflow a size_t", nelems, elem);
  return nelems * elem;
}

void coll_check_sym(runtime& r, const group& g, const char* name, const void* p, size_t bytes) {
  const uint8_t* a = (const uint8_t*)p;
  uint64_t seg_off;
  if (segment_offset(r, p, bytes, &seg_off)) return;   // a global or static of the program
  if (cpu_heap_offset(r, p, bytes, &seg_off)) return;  // the default heap
  const bool in_heap =
      a >= r.heap + GIO_HEAP_RESERVED && a < r.heap + r.heap_size && bytes <= (size_t)(r.heap + r.heap_size - a);
  const std::string heaps = symmetric_ranges(r);
  if (bytes && !in_heap && r.seg.size)
    fatal(GIO_ERR_ARG, g.routine, "%s [%p, +%zu bytes) is not within %s or the program's data segment [%p, %p)", name,
          p, bytes, heaps.c_str(), (void*)r.seg.base, (void*)(r.seg.base + r.seg.size));
  if (bytes && !in_heap)
    fatal(GIO_ERR_ARG, g.routine, "%s [%p, +%zu bytes) is not within %s", name, p, bytes, heaps.c_str());
}

void coll_check_member(const group& g, const char* name, int pe) {
  if (pe < 0 || pe >= g.size())
    fatal(GIO_ERR_ARG, g.routine, "%s %d is out of range [0, %d) of %s", name, pe, g.size(), g.what.c_str());
}

// A PE's own heap needs no transport: the platform's copy reaches it (device memory on GPUs).
void local_read(runtime&, const group& g, void* dst, const void* sym, size_t n) {
  if (n) gpu::copy(dst, sym, n, g.routine);
}
void local_write(runtime&, const group& g, void* sym, const void* src, size_t n) {
  if (n) gpu::copy(sym, src, n, g.routine);
}

void put_to(runtime& r, const group& g, int member, void* sym_dst, const void* src, size_t n) {
  const int pe = g.pe(member);
  if (pe == r.my_pe)
    local_write(r, g, sym_dst, src, n);
  else
    move_to(r, g, pe, sym_dst, src, n);
}

void get_from(runtime& r, const group& g, int member, void* dst, const void* sym_src, size_t n) {
  const int pe = g.pe(member);
  if (pe == r.my_pe)
    local_read(r, g, dst, sym_src, n);
  else
    move_from(r, g, pe, dst, sym_src, n);
}

}  // namespace gio
