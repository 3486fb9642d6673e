// The push form of the stream reductions' data kernel on SHMEM_TEAM_WORLD (GIO_COLL_REDUCE): the
// same two-shot all-reduce as the pull (stream_fold.h: member j owns share j, work-group g a slice
// of it, the fold runs in member order 0..n-1), but every byte crosses a link as a store. The pull
// loads each share from the peers' sources, and a remote load is a round trip: 4 H200s at 256 MiB
// gave 288 GB/s busbw against NCCL's 340, while the kernels that only store (fcollect, alltoall)
// reach 325-329.
//
// Work-group g of member i stores its source's part of slice g of member j's share into a ring of
// kPushDepth chunk slots that j keeps for (g, i) in its push area, then raises ready[g][i] in j's
// flags; j's work-group g folds the chunk from its own memory (its own part from its source) and
// stores the result into every member's dest, then raises credit[g][j] in i's flags, which frees
// the slot for i's chunk kPushDepth later. Flags hold (call number << 24) + chunks, so they only
// grow across calls and none is ever reset (runtime/coll_stream.h, host/coll/stream_api.cpp).
//
// Rounds: in round r a work-group fills chunk r of every member's slice (if any remains), folds
// chunk r - kPushAhead of its own (if any), then raises the ready and credit flags of both, one
// release fence for all. Chunk r's slot last held chunk r - kPushDepth, whose credit came at the end
// of round r - kPushDepth + kPushAhead < r; chunk r - kPushAhead was raised at the end of round
// r - kPushAhead < r. So a work-group's round r waits only for other members' same work-group to
// finish earlier rounds, and work-group g waits for nobody but work-group g of the other members:
// with work-groups dispatched in index order (GPUs and the host platform do), the lowest
// unfinished work-group is resident on every member that has not finished it, so the grid needs no
// co-residency. Every wait is bounded (GIO_TIMEOUT_MS) and says whom it waited for.
//
// dest == source is safe: member i reads chunk c of its source before it raises the flag that lets
// j fold chunk c, and j's result for chunk c is the only store into it. The head and tail elements
// outside the vectors, and sources whose elements cannot reach a 16-byte boundary, go as in the
// pull (they are its code). The launcher's team syncs around the kernel keep the slots of one call
// from the next: every consumer has finished before any producer starts the next call.
#pragma once
#include "device/coll/stream_fold.h"
#include "runtime/coll_stream.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
namespace stream {

constexpr unsigned kPushCountBits = 24;  // a flag's chunk count; the call number above it

// A flag store after the caller's release fence: a relaxed system-scope store on GPUs; on the host
// platform a release store, the form ThreadSanitizer models (it ignores standalone fences).
GIO_DEVICE_INLINE void push_flag_store(uint64_t* p, uint64_t v) {
#if defined(GIO_PLATFORM_HOST)
  plat::store_release_system((unsigned long long*)p, v);
#else
  plat::store_relaxed_system((unsigned long long*)p, v);
#endif
}

template <typename T, typename Op>
GIO_DEVICE_INLINE void reduce_push(int t, T* dest, const T* source, size_t nreduce, uint8_t* area, size_t chunk,
                         uint64_t seq) {
  using F = fold_view<T, Op>;
  using vec = typename F::vec;
  constexpr size_t K = F::K;
  if (!F::has_vectors(source)) return reduce<T, Op>(t, dest, source, nreduce);  // element by element: pull
  const gio_device_state_v1& st = GIO_DSTATE;
  const gio_team_v1& tm = team_table(st)[t];
  const int n = tm.n_pes, me = tm.my_pe;
  const unsigned g = plat::wg_id(), groups = gridDim.x;
  const unsigned lane = plat::wg_thread(), lanes = plat::wg_size();
  __shared__ uint8_t* base[kPushMaxPes];
  const F f(base, st, tm, dest, source, nreduce);
  const size_t aoff = (size_t)(area - st.heap_base);
  // Member m's flags and slots, as this PE maps them.
  auto ready = [&](int m, int i) { return (uint64_t*)(base[m] + aoff) + (size_t)g * kPushMaxPes + i; };
  auto credit = [&](int m, int j) {
    return (uint64_t*)(base[m] + aoff + kPushFlagBytes) + (size_t)g * kPushMaxPes + j;
  };
  // The slot of member m that holds chunk c from member i.
  auto slot = [&](int m, int i, size_t c) {
    const size_t d = (size_t)((i - m - 1 + n) % n);  // 0..n-2: the sources other than m
    return (vec*)(base[m] + aoff + kPushDataOffset) + (((size_t)g * (n - 1) + d) * kPushDepth + c % kPushDepth) * chunk;
  };
  // Head and tail elements: one lane each loads them from every member, as the pull does.
  f.fold_edges(g, groups, nreduce);

  // Slice g of every member's share (vectors from h) and its chunks, in shared memory: indexed by
  // member, per-lane arrays would live in local memory (a stack frame) and cost registers.
  __shared__ size_t lo[kPushMaxPes], len[kPushMaxPes], chunks[kPushMaxPes];
  __shared__ const void* part[kPushMaxPes];  // this round's parts of the fold, by member
  for (int j = (int)lane; j < n; j += (int)lanes) {
    size_t plo, phi, a, b;
    share(f.nv, (unsigned)j, (unsigned)n, plo, phi);
    share(phi - plo, g, groups, a, b);
    lo[j] = plo + a, len[j] = b - a, chunks[j] = (b - a + chunk - 1) / chunk;
  }
  __syncthreads();
  size_t most = 0;
  for (int j = 0; j < n; ++j) most = chunks[j] > most ? chunks[j] : most;
  const vec* mine = (const vec*)(source + f.h);
  const uint64_t call = (uint64_t)seq << kPushCountBits;
  constexpr unsigned U = 4;

  // A timeout names the member and PE waited for, the flag and what it needed.
  auto wait_flag = [&](const uint64_t* f, uint64_t need, int who, const char* what, size_t c) {
    uint64_t seen = 0;
    bounded_wait([&] { return (seen = plat::atomic_load_acquire(f)) >= need; },
                 [&](unsigned long long ms) {
                   GIO_DEV_PRINT("GIO timeout: shmemx_reduce_on_stream (push) on PE %d (work-group %u of %u) waited "
                                 "%llu ms for member %d (PE %d) %s chunk %llu of call %llu: flag %p is %llu:%llu, "
                                 "needs %llu:%llu (call:chunks; every member must run the same work-groups: "
                                 "GIO_COLL_WORK_GROUPS, GIO_COLL_REDUCE, GIO_COLL_REDUCE_SCRATCH)\n",
                                 st.my_pe, g, groups, ms, who, (int)tm.members[who], what, (unsigned long long)c,
                                 (unsigned long long)seq, (const void*)f, (unsigned long long)(seen >> kPushCountBits),
                                 (unsigned long long)(seen & ((1ull << kPushCountBits) - 1)), (unsigned long long)seq,
                                 (unsigned long long)(need & ((1ull << kPushCountBits) - 1)));
                 });
  };

  for (size_t r = 0; r < most + kPushAhead; ++r) {
    const bool produce = r < most;
    const bool consume = r >= kPushAhead && r - kPushAhead < chunks[me];
    if (!produce && !consume) continue;
    const size_t k = r - kPushAhead;  // the chunk folded this round
    for (int i = (int)lane; i < n && consume; i += (int)lanes)
      part[i] = i == me ? (const void*)(mine + lo[me] + k * chunk) : (const void*)slot(me, i, k);
    if (lane == 0) {
      for (int j = 0; j < n && produce && r >= kPushDepth; ++j)
        if (j != me && r < chunks[j]) wait_flag(credit(me, j), call + (r - kPushDepth + 1), j, "to free the slot of", r);
      for (int i = 0; i < n && consume; ++i)
        if (i != me) wait_flag(ready(me, i), call + k + 1, i, "to fill", k);
    }
    __syncthreads();
    if (produce) {
      // Chunk r of slice g of member j's share, from this PE's source into j's slot.
      for (int q = 0; q < n; ++q) {
        const int j = (int)((me + 1 + g + (unsigned)q) % (unsigned)n);
        if (j == me || r >= chunks[j]) continue;
        const size_t c0 = r * chunk, m = len[j] - c0 < chunk ? len[j] - c0 : chunk;
        // Both sides are 16-byte aligned: the cooperative copy's 16-byte words, U in flight per lane.
        copy_words<word16, U, true>((uint8_t*)slot(j, me, r), (const uint8_t*)(mine + lo[j] + c0), m * sizeof(vec),
                                    lane, lanes);
      }
    }
    if (consume) {
      // Chunk k of this PE's slice: members' parts in order 0..n-1, this PE's from its source.
      const size_t c0 = k * chunk, m = len[me] - c0 < chunk ? len[me] - c0 : chunk;
      auto from = [&](int i) { return (const vec*)part[i]; };
      for (size_t b = lane; b < m; b += (size_t)U * lanes) {
        vec acc[U], x[U];
        GIO_UNROLL
        for (unsigned u = 0; u < U; ++u)
          if (b + u * lanes < m) acc[u] = from(0)[b + u * lanes];
        for (int i = 1; i < n; ++i) {
          GIO_UNROLL
          for (unsigned u = 0; u < U; ++u)
            if (b + u * lanes < m) x[u] = from(i)[b + u * lanes];
          GIO_UNROLL
          for (unsigned u = 0; u < U; ++u) {
            if (b + u * lanes >= m) continue;
            GIO_UNROLL
            for (size_t e = 0; e < K; ++e) acc[u].e[e] = fold<T, Op>(acc[u].e[e], x[u].e[e]);
          }
        }
        for (int q = 1; q <= n; ++q) {
          GIO_UNROLL
          for (unsigned u = 0; u < U; ++u)
            if (b + u * lanes < m) f.put((me + q) % n, lo[me] + c0 + b + u * lanes, acc[u]);
        }
      }
    }
    // Every lane's stores into the slots and loads from this PE's slots are done (the barrier);
    // lane 0's release fence orders them, cumulatively, before the flags.
    __syncthreads();
    if (lane == 0) {
      plat::fence_release_system();
      for (int j = 0; j < n && produce; ++j)
        if (j != me && r < chunks[j]) push_flag_store(ready(j, me), call + r + 1);
      for (int i = 0; i < n && consume; ++i)
        if (i != me) push_flag_store(credit(i, me), call + k + 1);
    }
  }
  stores_done();
}

}  // namespace stream
}  // namespace dev
}  // namespace gio
#endif
