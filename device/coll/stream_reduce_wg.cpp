// The stream reductions on teams with a member pair that is not p2p, and small ones (the LL
// protocol): the one-work-group device reduction (device/coll/reduce_dev.h), which works over
// every transport and synchronizes by itself, launched on the stream.
#include <shmem.h>

#include "device/coll/stream_kinds.h"

namespace gio {
namespace stream_launch {
namespace {
template <typename T, typename Op>
__global__ void k_reduce_wg(int t, T* dest, const T* source, size_t nreduce) {
  dev::reduce<dev::scope_wg, T, Op>("shmemx_reduce_on_stream", t, dest, source, nreduce);
}
}  // namespace

const char* reduce_wg(const stream_coll& c, hipStream_t s) {
  const bool known = with_pair(c.kind, c.rop, [&](auto tt, auto ot) {
    using T = typename decltype(tt)::type;
    using Op = typename decltype(ot)::type;
    hipLaunchKernelGGL((k_reduce_wg<T, Op>), dim3(1), dim3(kWgThreads), 0, s, c.team, (T*)c.dest,
                       (const T*)c.source, c.nreduce);
  });
  return known ? launched("launching the reduction kernel") : "no reduction kernel for this type and operation";
}

}  // namespace stream_launch
}  // namespace gio
