// Device reductions (shmem_TYPE_OP_reduce in kernels). Every member ends with the same bits: each
// element is folded in member order 0, 1, ..., n-1 (as the host's reductions do), wherever it is
// computed.
//
// - LL (small, all-p2p teams): every member sends its whole source to every other member as LL
//   words and folds all of them itself. One hop.
// - p2p (all-p2p teams): after a sync (every source is ready), member j folds its chunk j of the
//   elements by loading every member's source through the mapped heaps and stores the result into
//   every member's dest; quiet and a sync end it. Each element is read and written by one lane of
//   one member, so dest == source is safe.
// - any transport: the same chunks, gathered piece by piece into the slot's scratch with gets,
//   folded there, and pushed to every member with puts.
#pragma once
#include <complex>
#include <type_traits>

#include "device/coll/move_dev.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {

// Integer sums and products wrap, computed in an unsigned type at least as wide as int (no signed
// overflow, no promotion of short operands to int).
template <typename T, bool = std::is_integral<T>::value>
struct rwide {
  using type = T;
};
template <typename T>
struct rwide<T, true> {
  using type = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
};
template <typename T>
struct rcomplex : std::false_type {};
template <typename R>
struct rcomplex<std::complex<R>> : std::true_type {
  using part = R;
};

struct rop_and { template <typename T> static GIO_DEVICE_INLINE T f(T a, T b) { return (T)(a & b); } };
struct rop_or { template <typename T> static GIO_DEVICE_INLINE T f(T a, T b) { return (T)(a | b); } };
struct rop_xor { template <typename T> static GIO_DEVICE_INLINE T f(T a, T b) { return (T)(a ^ b); } };
struct rop_max { template <typename T> static GIO_DEVICE_INLINE T f(T a, T b) { return a < b ? b : a; } };
struct rop_min { template <typename T> static GIO_DEVICE_INLINE T f(T a, T b) { return b < a ? b : a; } };
struct rop_sum {
  template <typename T>
  static GIO_DEVICE_INLINE T f(T a, T b) {
    using W = typename rwide<T>::type;
    return (T)((W)a + (W)b);
  }
  template <typename R>
  static GIO_DEVICE_INLINE void cx(R* a, const R* b) {
    a[0] += b[0];
    a[1] += b[1];
  }
};
struct rop_prod {
  template <typename T>
  static GIO_DEVICE_INLINE T f(T a, T b) {
    using W = typename rwide<T>::type;
    return (T)((W)a * (W)b);
  }
  template <typename R>
  static GIO_DEVICE_INLINE void cx(R* a, const R* b) {
    const R re = a[0] * b[0] - a[1] * b[1], im = a[0] * b[1] + a[1] * b[0];
    a[0] = re;
    a[1] = im;
  }
};

// An element as the fold sees it: the type itself, or a complex number as its two parts
// (std::complex's operators are host code). Same size and alignment as T, so T* may be read as V*.
template <typename T, bool = rcomplex<T>::value>
struct rval {
  using type = T;
};
template <typename T>
struct rval<T, true> {
  struct type {
    typename rcomplex<T>::part v[2];
  };
};

template <typename T, typename Op, typename V = typename rval<T>::type>
GIO_DEVICE_INLINE V fold(V a, V b) {
  if constexpr (rcomplex<T>::value) {
    Op::cx(a.v, b.v);
    return a;
  } else {
    return Op::template f<T>(a, b);
  }
}

template <typename S, typename T, typename Op>
GIO_DEVICE_INLINE void reduce_ll(const char* rt, int t, gio_team_v1& tm, uint32_t seq, T* dest, const T* source, size_t nreduce) {
  using V = typename rval<T>::type;
  const gio_device_state_v1& st = GIO_DSTATE;
  const int n = tm.n_pes, me = tm.my_pe;
  const size_t bytes = nreduce * sizeof(T);
  for (int k = 1; k < n; ++k)
    ll_send<S>(ll_remote<S>(st, t, tm, (me + k) % n, seq, me), (const uint8_t*)source, bytes, seq);
  S::sync();  // every lane has sent its words of source before any lane writes dest (may be source)
  for (size_t e = S::lane(); e < nreduce; e += S::lanes()) {
    V acc;
    for (int i = 0; i < n; ++i) {
      V x;
      if (i == me)
        x = ((const V*)source)[e];
      else
        ll_read(rt, (uint8_t*)&x, ll_region(team_ll(st, t), seq, i, n), e * sizeof(T), sizeof(T), seq, t, i);
      acc = i ? fold<T, Op>(acc, x) : x;
    }
    ((V*)dest)[e] = acc;
  }
  S::sync();
}

template <typename S, typename T, typename Op>
GIO_DEVICE_INLINE void reduce_p2p(gio_team_v1& tm, T* dest, const T* source, size_t nreduce) {
  using V = typename rval<T>::type;
  const gio_device_state_v1& st = GIO_DSTATE;
  const int n = tm.n_pes, me = tm.my_pe;
  const size_t lo = nreduce * (size_t)me / n, hi = nreduce * (size_t)(me + 1) / n;
  // Member i's source and dest as this PE maps them (the heap maps linearly).
  auto src_of = [&](int i) { return i == me ? (const V*)source : (const V*)p2p::remote(st, source, tm.members[i]); };
  auto dst_of = [&](int i) { return i == me ? (V*)dest : (V*)p2p::remote(st, dest, tm.members[i]); };
  // A load from a peer's heap takes about a microsecond over NVLink. Folding one element per lane
  // per member waited for each load in turn and held a work-group to 1.2 GB/s at 256 MiB
  // (gio-bench coll --scope stream on 4 H200s); here a lane loads kUnroll elements of a member before it
  // folds any, so kUnroll loads of each lane are in flight at once. Elements stay in member order.
  constexpr size_t kUnroll = 16;
  const size_t lanes = S::lanes(), step = kUnroll * lanes;
  size_t e0 = lo + S::lane();
  for (; e0 + (kUnroll - 1) * lanes < hi; e0 += step) {
    V acc[kUnroll], x[kUnroll];
    const V* s0 = src_of(0);
    GIO_UNROLL
    for (size_t u = 0; u < kUnroll; ++u) acc[u] = s0[e0 + u * lanes];
    for (int i = 1; i < n; ++i) {
      const V* si = src_of(i);
      GIO_UNROLL
      for (size_t u = 0; u < kUnroll; ++u) x[u] = si[e0 + u * lanes];
      GIO_UNROLL
      for (size_t u = 0; u < kUnroll; ++u) acc[u] = fold<T, Op>(acc[u], x[u]);
    }
    for (int k = 1; k <= n; ++k) {
      V* out = dst_of((me + k) % n);
      GIO_UNROLL
      for (size_t u = 0; u < kUnroll; ++u) out[e0 + u * lanes] = acc[u];
    }
  }
  for (size_t e = e0; e < hi; e += lanes) {
    V acc = src_of(0)[e];
    for (int i = 1; i < n; ++i) acc = fold<T, Op>(acc, src_of(i)[e]);
    for (int k = 1; k <= n; ++k) dst_of((me + k) % n)[e] = acc;
  }
}

// Copies n bytes of member i's `sym` into this PE's heap buffer `to`.
template <typename S>
GIO_DEVICE_NOINLINE void fetch(const char* rt, const gio_team_v1& tm, int i, void* to, const void* sym, size_t n) {
  if (i == tm.my_pe)
    p2p::copy<S>(GIO_DSTATE, to, sym, n);
  else
    get<S>(rt, nullptr, to, sym, n, tm.members[i]);
}

template <typename S, typename T, typename Op>
GIO_DEVICE_INLINE void reduce_any(const char* rt, int t, gio_team_v1& tm, T* dest, const T* source, size_t nreduce) {
  using V = typename rval<T>::type;
  const int n = tm.n_pes, me = tm.my_pe;
  V* acc = (V*)team_scratch(GIO_DSTATE, t);
  V* in = (V*)(team_scratch(GIO_DSTATE, t) + GIO_TEAM_SCRATCH_BYTES / 2);
  const size_t piece = (GIO_TEAM_SCRATCH_BYTES / 2) / sizeof(T);
  const size_t lo = nreduce * (size_t)me / n, hi = nreduce * (size_t)(me + 1) / n;
  for (size_t p = lo; p < hi; p += piece) {
    const size_t cnt = hi - p < piece ? hi - p : piece, b = cnt * sizeof(T);
    S::sync();
    fetch<S>(rt, tm, 0, acc, source + p, b);
    for (int i = 1; i < n; ++i) {
      S::sync();
      fetch<S>(rt, tm, i, in, source + p, b);
      S::sync();
      for (size_t e = S::lane(); e < cnt; e += S::lanes()) acc[e] = fold<T, Op>(acc[e], in[e]);
    }
    S::sync();
    for (int k = 1; k <= n; ++k) push<S>(rt, tm, (me + k) % n, dest + p, acc, b);
  }
}

[[noreturn]] GIO_DEVICE_NOINLINE void fail_overlap(const char* rt, const void* d, const void* s, unsigned long long bytes) {
  GIO_DEV_FATAL(rt, "dest %p and source %p overlap without being the same (%llu bytes each)", d, s, bytes);
}

template <typename S, typename T, typename Op>
GIO_DEVICE_NOINLINE int reduce(const char* rt, shmem_team_t team, T* dest, const T* source, size_t nreduce) {
  const int t = gio_team_slot(team);
  gio_team_v1& tm = team_checked(rt, t);
  const size_t bytes = coll_bytes(rt, nreduce, sizeof(T));
  check_local(rt, dest, bytes);
  check_local(rt, source, bytes);
  const uint8_t *d = (const uint8_t*)dest, *s = (const uint8_t*)source;
  if (d != s && d < s + bytes && s < d + bytes) fail_overlap(rt, dest, source, bytes);
  if (ll_fits(tm, bytes)) {
    const uint32_t seq = ll_begin<S>(GIO_DSTATE, t, tm);
    if (seq) {
      reduce_ll<S, T, Op>(rt, t, tm, seq, dest, source, nreduce);
      return 0;
    }
  }
  S::sync();
  if (S::lane() == 0) team_sync_rounds(rt, t, tm);  // every member's source is ready
  S::sync();
  if (tm.all_p2p)
    reduce_p2p<S, T, Op>(tm, dest, source, nreduce);
  else
    reduce_any<S, T, Op>(rt, t, tm, dest, source, nreduce);
  team_complete<S>(rt, t, tm);
  return 0;
}

}  // namespace dev
}  // namespace gio
#endif
