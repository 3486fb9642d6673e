// The stream reductions on teams with a member pair that is not p2p, and small ones (the LL
// protocol): the one-work-group device reduction (device/coll/reduce_dev.h), which works over
// every transport and synchronizes by itself, launched on the stream.
#include "runtime/api/coll_stream.h"

#include "device/coll/stream_kinds.h"

namespace gio {
namespace stream_launch {
namespace {
// dev::reduce without its p2p branch, which never runs here (large calls on all-p2p teams take
// the multi-work-group fold), so its 16-deep unrolled loop is not compiled for 48 pairs. Small
// calls on all-p2p teams take LL; the rest gather and push through the transport.
template <typename T, typename Op>
__global__ void k_reduce_wg(int t, T* dest, const T* source, size_t nreduce, bool small) {
  using S = dev::scope_wg;
  const char* rt = "shmemx_reduce_on_stream";
  gio_team_v1& tm = dev::team_checked(rt, t);
  if (small) {
    const uint32_t seq = dev::ll_begin<S>(GIO_DSTATE, t, tm);
    if (seq) return dev::reduce_ll<S, T, Op>(rt, t, tm, seq, dest, source, nreduce);
  }
  S::sync();
  if (S::lane() == 0) dev::team_sync_rounds(rt, t, tm);  // every member's source is ready
  S::sync();
  dev::reduce_any<S, T, Op>(rt, t, tm, dest, source, nreduce);
  dev::team_complete<S>(rt, t, tm);
}
}  // namespace

const char* reduce_wg(const stream_coll& c, hipStream_t s) {
  const bool known = with_pair(c.kind, c.rop, [&](auto tt, auto ot) {
    using T = typename decltype(tt)::type;
    using Op = typename decltype(ot)::type;
    hipLaunchKernelGGL((k_reduce_wg<T, Op>), dim3(1), dim3(kWgThreads), 0, s, c.team, (T*)c.dest,
                       (const T*)c.source, c.nreduce, c.small);
  });
  return known ? launched("launching the reduction kernel") : "no reduction kernel for this type and operation";
}

}  // namespace stream_launch
}  // namespace gio
