// The data kernel of the stream reductions on all-p2p teams: a two-shot all-reduce in one pass.
// Member j owns share j of the elements; each of its work-groups takes a slice of that share,
// loads the slice from every member's source through the mapped heaps (16-byte vectors, several
// per lane in flight: a load from a peer takes about a microsecond over NVLink, and one
// outstanding load per lane held the one-work-group reduction to 1.2 GB/s), folds them in member
// order 0..n-1 and stores the result into every member's dest. So each PE reads and writes about
// 2 (n-1)/n of the vector over its links, every element is computed by one lane of one member
// (dest == source is safe), and every PE gets the bits the host and kernel reductions give.
// Synchronization: the launcher's team syncs around the kernel (stream_dev.h).
#pragma once
#include "device/coll/stream_dev.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
namespace stream {

// What both reduction kernels (this pull and the push, stream_push.h) see of a call: every
// member's source and dest as this PE maps them, through a table of the members' heap bases in
// shared memory (looked up once per work-group, not once per load); the 16-byte vectors, which
// start where the source is 16-byte aligned (the same offset in every member's heap); the fold of
// one element outside them; and a vector's store into a member's dest.
template <typename T, typename Op>
struct fold_view {
  using E = typename rval<T>::type;  // complex numbers as two parts: the fold is device code
  static constexpr size_t K = 16 / sizeof(E);
  struct alignas(16) vec {
    E e[K];
  };
  uint8_t* const* base;
  size_t soff, doff;
  size_t h, nv, tail;  // elements before the vectors, vectors, the first element after them
  int n, me;
  bool dvec;  // dest has the source's alignment: vector stores (else element stores)

  // A type whose elements cannot reach the source's 16-byte boundary (a 16-byte complex at an
  // 8-byte address) has no vectors: the pull folds it element by element.
  static GIO_DEVICE_INLINE bool has_vectors(const T* source) { return head_bytes(source) % sizeof(E) == 0; }
  static GIO_DEVICE_INLINE size_t head_bytes(const T* source) { return (16 - ((uintptr_t)source & 15)) & 15; }

  // Every lane of the work-group calls this; `table` is a __shared__ array of at least n entries.
  GIO_DEVICE_INLINE fold_view(uint8_t** table, const gio_device_state_v1& st, const gio_team_v1& tm, T* dest, const T* source,
                    size_t nreduce)
      : base(table), soff((size_t)((const uint8_t*)source - st.heap_base)),
        doff((size_t)((uint8_t*)dest - st.heap_base)), n(tm.n_pes), me(tm.my_pe),
        dvec((((uintptr_t)dest - (uintptr_t)source) & 15) == 0) {
    for (int i = (int)plat::wg_thread(); i < n; i += (int)plat::wg_size())
      table[i] = i == me ? st.heap_base : st.peer_base[tm.members[i]];
    __syncthreads();
    const size_t hb = head_bytes(source) / sizeof(E);
    h = hb < nreduce ? hb : nreduce;
    nv = (nreduce - h) / K;
    tail = h + nv * K;
  }
  GIO_DEVICE_INLINE const E* src(int i) const { return (const E*)(base[i] + soff); }
  GIO_DEVICE_INLINE E* dst(int i) const { return (E*)(base[i] + doff); }
  GIO_DEVICE_INLINE const vec* sv(int i) const { return (const vec*)(src(i) + h); }
  // Element e: one lane loads it from every member, folds in member order, stores it everywhere.
  GIO_DEVICE_INLINE void fold_one(size_t e) const {
    E acc = src(0)[e];
    for (int i = 1; i < n; ++i) acc = fold<T, Op>(acc, src(i)[e]);
    for (int k = 1; k <= n; ++k) dst((me + k) % n)[e] = acc;
  }
  // The elements before the first vector (member 0's work-group 0) and after the last (member
  // n - 1's last work-group).
  GIO_DEVICE_INLINE void fold_edges(unsigned g, unsigned groups, size_t nreduce) const {
    const unsigned lane = plat::wg_thread(), lanes = plat::wg_size();
    if (me == 0 && g == 0)
      for (size_t e = lane; e < h; e += lanes) fold_one(e);
    if (me == n - 1 && g + 1 == groups)
      for (size_t e = tail + lane; e < nreduce; e += lanes) fold_one(e);
  }
  // Vector v (counted from h) of member i's dest.
  GIO_DEVICE_INLINE void put(int i, size_t v, const vec& x) const {
    if (dvec) {
      ((vec*)(dst(i) + h))[v] = x;
    } else {
      E* d = dst(i) + h + v * K;
      GIO_UNROLL
      for (size_t j = 0; j < K; ++j) d[j] = x.e[j];
    }
  }
};

template <typename T, typename Op>
GIO_DEVICE_INLINE void reduce(int t, T* dest, const T* source, size_t nreduce) {
  using F = fold_view<T, Op>;
  using vec = typename F::vec;
  constexpr size_t K = F::K;
  const gio_device_state_v1& st = GIO_DSTATE;
  const gio_team_v1& tm = team_table(st)[t];
  const int n = tm.n_pes, me = tm.my_pe;
  const unsigned g = plat::wg_id(), groups = gridDim.x;
  const unsigned lane = plat::wg_thread(), lanes = plat::wg_size();
  __shared__ uint8_t* base[GIO_MAX_PES];
  const F f(base, st, tm, dest, source, nreduce);
  size_t lo, hi, plo, phi;
  if (!F::has_vectors(source)) {
    share(nreduce, (unsigned)me, (unsigned)n, plo, phi);
    share(phi - plo, g, groups, lo, hi);
    for (size_t e = plo + lo + lane; e < plo + hi; e += lanes) f.fold_one(e);
    stores_done();
    return;
  }
  f.fold_edges(g, groups, nreduce);
  share(f.nv, (unsigned)me, (unsigned)n, plo, phi);
  share(phi - plo, g, groups, lo, hi);
  lo += plo, hi += plo;
  constexpr unsigned U = 4;
  size_t v = lo + lane;
  for (; v + (size_t)(U - 1) * lanes < hi; v += (size_t)U * lanes) {
    vec acc[U], x[U];
    GIO_UNROLL
    for (unsigned u = 0; u < U; ++u) acc[u] = f.sv(0)[v + u * lanes];
    for (int i = 1; i < n; ++i) {
      GIO_UNROLL
      for (unsigned u = 0; u < U; ++u) x[u] = f.sv(i)[v + u * lanes];
      GIO_UNROLL
      for (unsigned u = 0; u < U; ++u)
        GIO_UNROLL
        for (size_t j = 0; j < K; ++j) acc[u].e[j] = fold<T, Op>(acc[u].e[j], x[u].e[j]);
    }
    for (int k = 1; k <= n; ++k) {
      GIO_UNROLL
      for (unsigned u = 0; u < U; ++u) f.put((me + k) % n, v + u * lanes, acc[u]);
    }
  }
  for (; v < hi; v += lanes) {
    vec acc = f.sv(0)[v];
    for (int i = 1; i < n; ++i) {
      const vec x = f.sv(i)[v];
      GIO_UNROLL
      for (size_t j = 0; j < K; ++j) acc.e[j] = fold<T, Op>(acc.e[j], x.e[j]);
    }
    for (int k = 1; k <= n; ++k) f.put((me + k) % n, v, acc);
  }
  stores_done();
}

}  // namespace stream
}  // namespace dev
}  // namespace gio
#endif
