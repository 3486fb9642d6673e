// Device scans (OpenSHMEM 1.6 shmem_TYPE_sum_inscan / _exscan in kernels). Member k's dest holds
// the fold of members 0..k's sources (inclusive) or 0..k-1's (exclusive; member 0 gets zeros, the
// sum's identity), folded in member order as the host's scans and the reductions do, so the last
// member's inclusive result has the bits of the reduction.
//
// Over every transport alike: after a sync (every source is ready) each member gets the pieces of
// the earlier members' sources into its team scratch (a half for the accumulator, a half for the
// incoming piece), folds them, and after a second sync (every member has read that piece of every
// source) copies the piece into its own dest, so dest == source is safe. A member reads k sources,
// which suits the small teams kernels use; a log-step scan would move less for large ones.
#pragma once
#include "device/coll/reduce_dev.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {

template <typename S, typename T, typename Op, bool Inclusive>
GIO_DEVICE_NOINLINE int scan(const char* rt, shmem_team_t team, T* dest, const T* source, size_t nelems) {
  using V = typename rval<T>::type;
  const gio_device_state_v1& st = GIO_DSTATE;
  const int t = gio_team_slot(team);
  gio_team_v1& tm = team_checked(rt, t);
  const size_t bytes = coll_bytes(rt, nelems, sizeof(T));
  check_local(rt, dest, bytes);
  check_local(rt, source, bytes);
  const uint8_t *d = (const uint8_t*)dest, *s = (const uint8_t*)source;
  if (d != s && d < s + bytes && s < d + bytes) fail_overlap(rt, dest, source, bytes);
  const int last = Inclusive ? tm.my_pe : tm.my_pe - 1;
  V* acc = (V*)team_scratch(st, t);
  V* in = (V*)(team_scratch(st, t) + GIO_TEAM_SCRATCH_BYTES / 2);
  const size_t piece = (GIO_TEAM_SCRATCH_BYTES / 2) / sizeof(T);
  S::sync();
  if (S::lane() == 0) team_sync_rounds(rt, t, tm);  // every member's source is ready
  S::sync();
  for (size_t p = 0; p < nelems; p += piece) {
    const size_t cnt = nelems - p < piece ? nelems - p : piece, b = cnt * sizeof(T);
    if (last >= 0) {
      fetch<S>(rt, tm, 0, acc, source + p, b);
      for (int i = 1; i <= last; ++i) {
        S::sync();
        fetch<S>(rt, tm, i, in, source + p, b);
        S::sync();
        for (size_t e = S::lane(); e < cnt; e += S::lanes()) acc[e] = fold<T, Op>(acc[e], in[e]);
      }
    } else {
      for (size_t e = S::lane(); e < cnt; e += S::lanes()) acc[e] = V{};
    }
    S::sync();
    if (S::lane() == 0) team_sync_rounds(rt, t, tm);  // every member has read this piece everywhere
    S::sync();
    p2p::copy<S>(st, dest + p, acc, b);
    S::sync();
  }
  team_complete<S>(rt, t, tm);
  return 0;
}

}  // namespace dev
}  // namespace gio
#endif
