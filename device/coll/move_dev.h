// Device collectives that move data without combining it: broadcast, fcollect, collect, alltoall(s).
//
// Small messages on all-p2p teams: the LL protocol (ll.h), one hop and no sync. Otherwise each
// member pushes what it owns into the others' dest with the transport's puts (direct stores over
// p2p, spread over the scope's lanes), then quiet and a team sync (team_complete). No sync is
// needed first: the spec requires every dest to be ready before any member calls. Members start
// with the member after themselves, so not everyone writes to member 0 first.
#pragma once
#include "device/coll/ll.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {

[[noreturn]] GIO_DEVICE_NOINLINE void fail_coll_arg(const char* rt, const char* what, long long v, int t) {
  GIO_DEV_FATAL(rt, "%s %lld is out of range for team %d", what, v, t);
}
[[noreturn]] GIO_DEVICE_NOINLINE void fail_overflow(const char* rt, unsigned long long a, unsigned long long b) {
  GIO_DEV_FATAL(rt, "%llu elements of %llu bytes overflow a size_t", a, b);
}
GIO_DEVICE_INLINE size_t coll_bytes(const char* rt, size_t n, size_t elem) {
  if (elem && n > (size_t)-1 / elem) fail_overflow(rt, n, elem);
  return n * elem;
}
GIO_DEVICE_INLINE void check_local(const char* rt, const void* p, size_t bytes) {
  if (bytes) check_sym(rt, p, bytes, GIO_DSTATE.my_pe);
}

// Moves n bytes to member i's dest (this PE's own dest without a transport).
template <typename S>
GIO_DEVICE_NOINLINE void push(const char* rt, const gio_team_v1& tm, int i, void* dest, const void* src, size_t n) {
  const gio_device_state_v1& st = GIO_DSTATE;
  if (!n) return;
  if (i == tm.my_pe)
    p2p::copy<S>(st, dest, src, n);
  else
    put<S>(rt, nullptr, dest, src, n, tm.members[i]);
}

template <typename S>
GIO_DEVICE_INLINE unsigned long long* ll_remote(const gio_device_state_v1& st, int t, const gio_team_v1& tm, int member,
                                      uint32_t seq, int sender) {
  return (unsigned long long*)p2p::remote(st, ll_region(team_ll(st, t), seq, sender, tm.n_pes), tm.members[member]);
}

template <typename S>
GIO_DEVICE_NOINLINE int broadcast(const char* rt, shmem_team_t team, void* dest, const void* source, size_t nelems, size_t elem, int root) {
  const int t = gio_team_slot(team);
  gio_team_v1& tm = team_checked(rt, t);
  const gio_device_state_v1& st = GIO_DSTATE;
  const size_t bytes = coll_bytes(rt, nelems, elem);
  if (root < 0 || root >= tm.n_pes) fail_coll_arg(rt, "PE_root", root, t);
  check_local(rt, dest, bytes);
  check_local(rt, source, bytes);
  const int n = tm.n_pes, me = tm.my_pe;
  if (ll_fits(tm, bytes)) {
    const uint32_t seq = ll_begin<S>(st, t, tm);
    if (seq) {
      // The root sends the data; every other member sends each member a token word, so that every
      // member hears from every other in this call (see ll.h).
      for (int k = 1; k < n; ++k) {
        const int i = (me + k) % n;
        ll_send<S>(ll_remote<S>(st, t, tm, i, seq, me), (const uint8_t*)source, me == root ? bytes : 0, seq);
      }
      if (me == root) {
        if (dest != source) p2p::copy<S>(st, dest, source, bytes);
      } else {
        ll_recv<S>(rt, (uint8_t*)dest, ll_region(team_ll(st, t), seq, root, n), bytes, seq, t, root);
      }
      for (int i = 0; i < n; ++i)
        if (i != me && i != root) {
          uint8_t none;
          ll_recv<S>(rt, &none, ll_region(team_ll(st, t), seq, i, n), 0, seq, t, i);
        }
      S::sync();
      return 0;
    }
  }
  S::sync();
  if (me == root)
    for (int k = 1; k <= n; ++k) {
      const int i = (root + k) % n;
      if (i != root || dest != source) push<S>(rt, tm, i, dest, source, bytes);
    }
  team_complete<S>(rt, t, tm);
  return 0;
}

// Block `me` of every member's dest gets this PE's source.
template <typename S>
GIO_DEVICE_NOINLINE int fcollect(const char* rt, shmem_team_t team, void* dest, const void* source, size_t nelems, size_t elem) {
  const int t = gio_team_slot(team);
  gio_team_v1& tm = team_checked(rt, t);
  const gio_device_state_v1& st = GIO_DSTATE;
  const int n = tm.n_pes, me = tm.my_pe;
  const size_t bytes = coll_bytes(rt, nelems, elem);
  check_local(rt, source, bytes);
  check_local(rt, dest, coll_bytes(rt, bytes, (size_t)n));
  uint8_t* d = (uint8_t*)dest;
  if (ll_fits(tm, bytes)) {
    const uint32_t seq = ll_begin<S>(st, t, tm);
    if (seq) {
      for (int k = 1; k < n; ++k)
        ll_send<S>(ll_remote<S>(st, t, tm, (me + k) % n, seq, me), (const uint8_t*)source, bytes, seq);
      p2p::copy<S>(st, d + (size_t)me * bytes, source, bytes);
      for (int k = 1; k < n; ++k) {
        const int i = (me + k) % n;
        ll_recv<S>(rt, d + (size_t)i * bytes, ll_region(team_ll(st, t), seq, i, n), bytes, seq, t, i);
      }
      S::sync();
      return 0;
    }
  }
  S::sync();
  for (int k = 1; k <= n; ++k) push<S>(rt, tm, (me + k) % n, d + (size_t)me * bytes, source, bytes);
  team_complete<S>(rt, t, tm);
  return 0;
}

// Block i of this PE's source goes to block `me` of member i's dest.
template <typename S>
GIO_DEVICE_NOINLINE int alltoall(const char* rt, shmem_team_t team, void* dest, const void* source, size_t nelems, size_t elem) {
  const int t = gio_team_slot(team);
  gio_team_v1& tm = team_checked(rt, t);
  const gio_device_state_v1& st = GIO_DSTATE;
  const int n = tm.n_pes, me = tm.my_pe;
  const size_t bytes = coll_bytes(rt, nelems, elem);
  check_local(rt, source, coll_bytes(rt, bytes, (size_t)n));
  check_local(rt, dest, coll_bytes(rt, bytes, (size_t)n));
  uint8_t* d = (uint8_t*)dest;
  const uint8_t* s = (const uint8_t*)source;
  if (ll_fits(tm, bytes)) {
    const uint32_t seq = ll_begin<S>(st, t, tm);
    if (seq) {
      for (int k = 1; k < n; ++k) {
        const int i = (me + k) % n;
        ll_send<S>(ll_remote<S>(st, t, tm, i, seq, me), s + (size_t)i * bytes, bytes, seq);
      }
      p2p::copy<S>(st, d + (size_t)me * bytes, s + (size_t)me * bytes, bytes);
      for (int k = 1; k < n; ++k) {
        const int i = (me + k) % n;
        ll_recv<S>(rt, d + (size_t)i * bytes, ll_region(team_ll(st, t), seq, i, n), bytes, seq, t, i);
      }
      S::sync();
      return 0;
    }
  }
  S::sync();
  for (int k = 1; k <= n; ++k) {
    const int i = (me + k) % n;
    push<S>(rt, tm, i, d + (size_t)me * bytes, s + (size_t)i * bytes, bytes);
  }
  team_complete<S>(rt, t, tm);
  return 0;
}

// Strided: element e of block i of the source (stride sst) goes to element e of block `me` of
// member i's dest (stride dst); the gaps, which the caller owns, are never written. Over p2p each
// lane stores elements straight into the peer's heap; elsewhere one put per element.
template <typename S>
GIO_DEVICE_NOINLINE int alltoalls(const char* rt, shmem_team_t team, void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst,
                      size_t nelems, size_t elem) {
  const int t = gio_team_slot(team);
  gio_team_v1& tm = team_checked(rt, t);
  const gio_device_state_v1& st = GIO_DSTATE;
  const int n = tm.n_pes, me = tm.my_pe;
  if (dst < 1) fail_coll_arg(rt, "dst", dst, t);
  if (sst < 1) fail_coll_arg(rt, "sst", sst, t);
  const size_t last = coll_bytes(rt, nelems, (size_t)n);
  if (last) {
    check_local(rt, source, coll_bytes(rt, coll_bytes(rt, last - 1, (size_t)sst) + 1, elem));
    check_local(rt, dest, coll_bytes(rt, coll_bytes(rt, last - 1, (size_t)dst) + 1, elem));
  }
  S::sync();
  for (int k = 1; k <= n && nelems; ++k) {
    const int i = (me + k) % n;
    const int pe = tm.members[i];
    const uint8_t* blk = (const uint8_t*)source + (size_t)i * nelems * (size_t)sst * elem;
    uint8_t* out = (uint8_t*)dest + (size_t)me * nelems * (size_t)dst * elem;
    const bool direct = i == me || st.peer_transport[pe] == GIO_TRANSPORT_P2P;
    if (direct) {
      uint8_t* rout = i == me ? out : p2p::remote(st, out, pe);
      for (size_t e = S::lane(); e < nelems; e += S::lanes())
        memcpy(rout + e * (size_t)dst * elem, blk + e * (size_t)sst * elem, elem);
    } else if (S::lane() == 0) {
      for (size_t e = 0; e < nelems; ++e)
        put<scope_thread>(rt, nullptr, out + e * (size_t)dst * elem, blk + e * (size_t)sst * elem, elem, pe);
    }
  }
  team_complete<S>(rt, t, tm);
  return 0;
}

// Members contribute different amounts: each publishes its size in its slot's count word, the team
// syncs, and each reads the sizes of the members before it to find where its block goes. A second
// sync (in team_complete) keeps the counts until every member has read them.
template <typename S>
GIO_DEVICE_NOINLINE int collect(const char* rt, shmem_team_t team, void* dest, const void* source, size_t nelems, size_t elem) {
  const int t = gio_team_slot(team);
  gio_team_v1& tm = team_checked(rt, t);
  const gio_device_state_v1& st = GIO_DSTATE;
  const int n = tm.n_pes, me = tm.my_pe;
  const size_t bytes = coll_bytes(rt, nelems, elem);
  check_local(rt, source, bytes);
  uint64_t* at = (uint64_t*)team_scratch(st, t);  // local: where this PE's block starts, for every lane
  S::sync();
  if (S::lane() == 0) {
    tm.count = bytes;
    team_sync_rounds(rt, t, tm);  // releases the count word with the sync's signal
    uint64_t off = 0;
    for (int i = 0; i < me; ++i) {
      const int pe = tm.members[i];
      if (st.peer_transport[pe] == GIO_TRANSPORT_P2P)
        off += plat::atomic_load_acquire((const uint64_t*)p2p::remote(st, &tm.count, pe));
      else {
        uint64_t theirs = 0;
        get<scope_thread>(rt, nullptr, &theirs, &tm.count, sizeof theirs, pe);
        off += theirs;
      }
    }
    *at = off;
  }
  S::sync();
  const uint64_t off = *at;
  check_local(rt, (uint8_t*)dest + off, bytes);
  for (int k = 1; k <= n; ++k) push<S>(rt, tm, (me + k) % n, (uint8_t*)dest + off, source, bytes);
  team_complete<S>(rt, t, tm);
  return 0;
}

}  // namespace dev
}  // namespace gio
#endif
