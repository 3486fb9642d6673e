// The stream reductions' data kernel on all-p2p teams (stream_fold.h), one per (kind, operation)
// pair. Apart from the one-work-group fallback (stream_reduce_wg.cpp) so the two sets of 48
// kernels compile in parallel.
#include "runtime/api/coll_stream.h"

#include "device/coll/stream_fold.h"
#include "device/coll/stream_kinds.h"

namespace gio {
namespace stream_launch {
namespace {
template <typename T, typename Op>
__global__ void k_fold(int t, T* dest, const T* source, size_t nreduce) {
  dev::stream::reduce<T, Op>(t, dest, source, nreduce);
}
}  // namespace

const char* reduce_fold(const stream_coll& c, hipStream_t s, unsigned groups) {
  const bool known = with_pair(c.kind, c.rop, [&](auto tt, auto ot) {
    using T = typename decltype(tt)::type;
    using Op = typename decltype(ot)::type;
    hipLaunchKernelGGL((k_fold<T, Op>), dim3(groups), dim3(kDataThreads), 0, s, c.team, (T*)c.dest,
                       (const T*)c.source, c.nreduce);
  });
  return known ? launched("launching the reduction kernel") : "no reduction kernel for this type and operation";
}

}  // namespace stream_launch
}  // namespace gio
