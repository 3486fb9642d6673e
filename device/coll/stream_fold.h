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

template <typename T, typename Op>
GIO_DFN void reduce(int t, T* dest, const T* source, size_t nreduce) {
  using E = typename rval<T>::type;  // complex numbers as two parts: the fold is device code
  constexpr size_t K = 16 / sizeof(E);
  struct alignas(16) vec {
    E e[K];
  };
  const gio_device_state_v1& st = GIO_DSTATE;
  const gio_team_v1& tm = team_table(st)[t];
  const int n = tm.n_pes, me = tm.my_pe;
  const unsigned g = plat::wg_id(), groups = gridDim.x;
  const unsigned lane = plat::wg_thread(), lanes = plat::wg_size();
  // Every member's heap base, looked up once per work-group instead of once per load.
  __shared__ uint8_t* base[GIO_MAX_PES];
  for (int i = (int)lane; i < n; i += (int)lanes) base[i] = i == me ? st.heap_base : st.peer_base[tm.members[i]];
  __syncthreads();
  const size_t soff = (size_t)((const uint8_t*)source - st.heap_base);
  const size_t doff = (size_t)((uint8_t*)dest - st.heap_base);
  auto src = [&](int i) { return (const E*)(base[i] + soff); };
  auto dst = [&](int i) { return (E*)(base[i] + doff); };
  auto fold_one = [&](size_t e) {
    E acc = src(0)[e];
    for (int i = 1; i < n; ++i) acc = fold<T, Op>(acc, src(i)[e]);
    for (int k = 1; k <= n; ++k) dst((me + k) % n)[e] = acc;
  };
  size_t lo, hi, plo, phi;
  // Vectors start where the source is 16-byte aligned (the same offset in every member's heap);
  // a type whose elements cannot reach that boundary (a 16-byte complex at an 8-byte address)
  // folds element by element.
  const size_t hb = (16 - ((uintptr_t)source & 15)) & 15;
  if (hb % sizeof(E)) {
    share(nreduce, (unsigned)me, (unsigned)n, plo, phi);
    share(phi - plo, g, groups, lo, hi);
    for (size_t e = plo + lo + lane; e < plo + hi; e += lanes) fold_one(e);
    stores_done();
    return;
  }
  const size_t h = hb / sizeof(E) < nreduce ? hb / sizeof(E) : nreduce;
  const size_t nv = (nreduce - h) / K, tail = h + nv * K;
  if (me == 0 && g == 0)
    for (size_t e = lane; e < h; e += lanes) fold_one(e);
  if (me == n - 1 && g + 1 == groups)
    for (size_t e = tail + lane; e < nreduce; e += lanes) fold_one(e);
  share(nv, (unsigned)me, (unsigned)n, plo, phi);
  share(phi - plo, g, groups, lo, hi);
  lo += plo, hi += plo;
  // A dest at another alignment than the source takes element stores.
  const bool dvec = (((uintptr_t)dest - (uintptr_t)source) & 15) == 0;
  auto sv = [&](int i) { return (const vec*)(src(i) + h); };
  auto put = [&](int i, size_t v, const vec& x) {
    if (dvec) {
      ((vec*)(dst(i) + h))[v] = x;
    } else {
      E* d = dst(i) + h + v * K;
      GIO_UNROLL
      for (size_t j = 0; j < K; ++j) d[j] = x.e[j];
    }
  };
  constexpr unsigned U = 4;
  size_t v = lo + lane;
  for (; v + (size_t)(U - 1) * lanes < hi; v += (size_t)U * lanes) {
    vec acc[U], x[U];
    GIO_UNROLL
    for (unsigned u = 0; u < U; ++u) acc[u] = sv(0)[v + u * lanes];
    for (int i = 1; i < n; ++i) {
      GIO_UNROLL
      for (unsigned u = 0; u < U; ++u) x[u] = sv(i)[v + u * lanes];
      GIO_UNROLL
      for (unsigned u = 0; u < U; ++u)
        GIO_UNROLL
        for (size_t j = 0; j < K; ++j) acc[u].e[j] = fold<T, Op>(acc[u].e[j], x[u].e[j]);
    }
    for (int k = 1; k <= n; ++k) {
      GIO_UNROLL
      for (unsigned u = 0; u < U; ++u) put((me + k) % n, v + u * lanes, acc[u]);
    }
  }
  for (; v < hi; v += lanes) {
    vec acc = sv(0)[v];
    for (int i = 1; i < n; ++i) {
      const vec x = sv(i)[v];
      GIO_UNROLL
      for (size_t j = 0; j < K; ++j) acc.e[j] = fold<T, Op>(acc.e[j], x.e[j]);
    }
    for (int k = 1; k <= n; ++k) put((me + k) % n, v, acc);
  }
  stores_done();
}

}  // namespace stream
}  // namespace dev
}  // namespace gio
#endif
