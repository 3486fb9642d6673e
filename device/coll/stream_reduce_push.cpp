// The stream reductions' push kernel on SHMEM_TEAM_WORLD (stream_push.h), one per (kind, operation)
// pair, and its plan: how many work-groups and how large a chunk the area's scratch gives them.
// Apart from the pull kernels (stream_reduce.cpp) so the sets of 48 kernels compile in parallel.
#include "runtime/api/coll_stream.h"

#include "device/coll/stream_kinds.h"
#include "device/coll/stream_push.h"

namespace gio {
namespace stream_launch {
namespace {
// 512 lanes need at most 128 registers each: without the bound ptxas gave some pairs 250, and the
// launch would fail.
template <typename T, typename Op>
__global__ void __launch_bounds__(kDataThreads) k_push(int t, T* dest, const T* source, size_t nreduce, uint8_t* area, size_t chunk, uint64_t seq) {
  dev::stream::reduce_push<T, Op>(t, dest, source, nreduce, area, chunk, seq);
}

// A chunk below 256 bytes would make the rounds all flags; fewer work-groups get bigger chunks.
constexpr size_t kMinChunkVectors = 16;

// Work-groups and chunk (16-byte vectors) for a push of c, at most `groups` work-groups; false when
// the scratch cannot hold a chunk per slot or a slice would need more chunks than a flag counts.
bool plan(const stream_coll& c, unsigned groups, unsigned& g, size_t& chunk) {
  const size_t slots = (size_t)(c.n_pes - 1) * kPushDepth;        // per work-group
  const size_t room = c.push_scratch / 16 / slots;                 // vectors per chunk, summed over groups
  g = groups < kPushMaxGroups ? groups : kPushMaxGroups;
  if (room / g < kMinChunkVectors) g = room / kMinChunkVectors > 0 ? (unsigned)(room / kMinChunkVectors) : 1u;
  chunk = room / g;
  if (!chunk) return false;
  const size_t slice = (c.bytes / 16 / (size_t)c.n_pes + 1) / g + 1;  // vectors, at most
  return (slice + chunk - 1) / chunk < (1ull << dev::stream::kPushCountBits) - kPushDepth;
}
}  // namespace

const char* reduce_push(const stream_coll& c, hipStream_t s, unsigned groups) {
  unsigned g;
  size_t chunk;
  if (!plan(c, groups, g, chunk)) return reduce_fold(c, s, groups);
  const bool known = with_pair(c.kind, c.rop, [&](auto tt, auto ot) {
    using T = typename decltype(tt)::type;
    using Op = typename decltype(ot)::type;
    hipLaunchKernelGGL((k_push<T, Op>), dim3(g), dim3(kDataThreads), 0, s, c.team, (T*)c.dest, (const T*)c.source,
                       c.nreduce, (uint8_t*)c.push_area, chunk, c.push_seq);
  });
  return known ? launched("launching the push reduction kernel") : "no reduction kernel for this type and operation";
}

}  // namespace stream_launch
}  // namespace gio
