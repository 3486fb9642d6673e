// The stream collectives' launcher and their sync and data-moving kernels. Part of libgio, built by
// the kernel compiler; the entry points that check the arguments are host/coll/stream_api.cpp.
//
// Order on the stream, all-p2p teams above the LL size:
//   1. team sync (one work-group): every member has reached this collective on its own stream,
//      so what ran before it there (the last reader of its dest, the writer of its source) is done;
//   2. the data kernel (stream_dev.h, stream_fold.h, stream_push.h): G work-groups store
//      straight into the members' dests, each thread ending with a system-scope fence (a
//      broadcast: two kernels with a team sync between them);
//   3. team sync: every member's stores into this PE's dest are visible once it returns, and no
//      member reads this PE's source any more, so the next work on the stream may touch both.
// Small messages on all-p2p teams take the one-work-group device collective alone: its LL
// protocol carries data and flag in one word into the team slot's own buffers, never into a
// dest, so it needs neither sync (device/coll/ll.h says why its buffers are safe to reuse). At
// that size the three launches above would be all latency, and a multi-work-group copy gains
// nothing. Teams with a member pair that is not p2p take the one-work-group device collective
// (the transport's puts and gets) in one kernel that runs the entry sync first where it pushes
// into peers' dests; it ends with quiet and a team sync of its own.
#include "runtime/api/coll_stream.h"

#include <type_traits>

#include "device/coll/stream_dev.h"
#include "device/coll/stream_kinds.h"

// The public headers name the stream without the platform's headers (C programs); it must be the
// very type the platform's runtime takes.
static_assert(std::is_same<gio_stream_t, hipStream_t>::value, "gio_stream_t is the platform's stream type");

namespace gio {
namespace stream_launch {
namespace {

// Routine names for device messages (timeouts): a string the kernel can read.
GIO_DEVICE_INLINE const char* op_name(stream_op op) {
  switch (op) {
    case stream_op::barrier: return "shmemx_barrier_on_stream";
    case stream_op::broadcast: return "shmemx_broadcastmem_on_stream";
    case stream_op::fcollect: return "shmemx_fcollectmem_on_stream";
    case stream_op::alltoall: return "shmemx_alltoallmem_on_stream";
    case stream_op::reduce: return "shmemx_reduce_on_stream";
    default: return "shmemx_team_sync_on_stream";
  }
}

// barrier: this PE's earlier operations complete (quiet), then the sync. A plain sync otherwise.
__global__ void k_sync(int t, stream_op op) {
  const char* rt = op_name(op);
  gio_team_v1& tm = dev::team_checked(rt, t);
  if (op == stream_op::barrier)
    dev::team_complete<dev::scope_wg>(rt, t, tm);
  else
    dev::team_sync<dev::scope_wg>(rt, gio_team_handle(t));
}

__global__ void k_move(int t, stream_op op, uint8_t* dest, const uint8_t* source, size_t bytes, int root,
                       int phase) {
  if (op == stream_op::fcollect)
    dev::stream::push_blocks(t, dest, source, bytes, 0);
  else if (op == stream_op::alltoall)
    dev::stream::push_blocks(t, dest, source, bytes, bytes);
  else
    dev::stream::broadcast(t, dest, source, bytes, root, phase);
}

// `entry_sync`: the team sync that makes every dest ready (see stream_coll_launch) runs first, in
// this kernel: a second launch behind a kernel that waits on the softnic or the proxy can wait for
// that kernel (a launch that must grow the context's stack blocks until the running kernels end)
// while the softnic's or proxy's own atomic kernel waits behind it.
__global__ void k_move_wg(int t, stream_op op, void* dest, const void* source, size_t bytes, int root,
                          bool entry_sync) {
  const char* rt = op_name(op);
  if (entry_sync) dev::team_sync<dev::scope_wg>(rt, gio_team_handle(t));
  if (op == stream_op::fcollect)
    dev::fcollect<dev::scope_wg>(rt, gio_team_handle(t), dest, source, bytes, 1);
  else if (op == stream_op::alltoall)
    dev::alltoall<dev::scope_wg>(rt, gio_team_handle(t), dest, source, bytes, 1);
  else
    dev::broadcast<dev::scope_wg>(rt, gio_team_handle(t), dest, source, bytes, 1, root);
}

// GIO_COLL_WORK_GROUPS=auto: one work-group per multiprocessor, as the copy needs them all to fill
// the links; the host platform's work-groups are OS threads, and CI has two cores.
unsigned auto_groups() {
#if defined(GIO_PLATFORM_HOST)
  return 4;
#else
  static const unsigned sms = [] {
    int dev = 0;
    hipDeviceProp_t p;
    if (hipGetDevice(&dev) != hipSuccess || hipGetDeviceProperties(&p, dev) != hipSuccess) return 1u;
    return p.multiProcessorCount > 0 ? (unsigned)p.multiProcessorCount : 1u;
  }();
  return sms;
#endif
}

// Below 16 KiB a work-group's slice is a few loads per lane: fewer work-groups then, so a mid-size
// call does not pay for a full grid that has nothing to move.
unsigned groups_for(const stream_coll& c, size_t moved) {
  constexpr size_t kMinSlice = 16u << 10;
  const unsigned most = c.work_groups ? c.work_groups : auto_groups();
  const size_t want = (moved + kMinSlice - 1) / kMinSlice;
  return want < 1 ? 1u : want < most ? (unsigned)want : most;
}

const char* sync(int t, stream_op op, hipStream_t s) {
  hipLaunchKernelGGL(k_sync, dim3(1), dim3(kWgThreads), 0, s, t, op);
  return launched("launching the sync kernel");
}

}  // namespace
}  // namespace stream_launch

const char* stream_coll_launch(const stream_coll& c, void* stream) {
  using namespace stream_launch;
  const hipStream_t s = (hipStream_t)stream;
  const char* err = nullptr;
  if (c.op == stream_op::sync || c.op == stream_op::barrier) return sync(c.team, c.op, s);
  if (!c.all_p2p || c.small) {
    // The device collective's generic path pushes without a sync first (the spec has every dest
    // ready at the call); on a stream that readiness is the entry sync's, which the same kernel
    // runs first (k_move_wg). Its reduction syncs first by itself, and LL writes no dest.
    if (c.op == stream_op::reduce) return reduce_wg(c, s);
    hipLaunchKernelGGL(k_move_wg, dim3(1), dim3(kWgThreads), 0, s, c.team, c.op, c.dest, c.source, c.bytes, c.root,
                       !c.small);
    return launched("launching the collective kernel");
  }
  if ((err = sync(c.team, c.op, s))) return err;
  if (c.op == stream_op::reduce) {
    const unsigned groups = groups_for(c, 2 * c.bytes);
    err = c.push ? reduce_push(c, s, groups) : reduce_fold(c, s, groups);
  } else {
    // A broadcast's second pull reads what the first left in the other members' dests: a team
    // sync between them. Two members take the whole buffer in the first (stream_dev.h).
    const int phases = c.op == stream_op::broadcast && c.n_pes > 2 ? 2 : 1;
    const size_t moved = c.op == stream_op::broadcast ? c.bytes : c.bytes * (size_t)c.n_pes;
    for (int ph = 0; ph < phases && !err; ++ph) {
      if (ph && (err = sync(c.team, c.op, s))) break;
      hipLaunchKernelGGL(k_move, dim3(groups_for(c, moved)), dim3(kDataThreads), 0, s, c.team, c.op,
                         (uint8_t*)c.dest, (const uint8_t*)c.source, c.bytes, c.root, ph);
      err = launched("launching the data kernel");
    }
  }
  return err ? err : sync(c.team, c.op, s);
}

}  // namespace gio
