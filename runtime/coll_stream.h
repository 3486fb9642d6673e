// Stream-ordered collectives (shmemx_*_on_stream): what libgio's entry points
// (host/coll/stream_api.cpp, which check the arguments) hand the launchers that enqueue their
// kernels (device/coll/stream_launch.cpp and the reduction files beside it; compiled into libgio by the kernel
// compiler, since only they may include the device API). Both halves live in one libgio build,
// so this is a plain C++ interface, not a versioned layout.
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace gio {

enum class stream_op : int { sync, barrier, broadcast, fcollect, alltoall, reduce };

// The push reduction's symmetric area (SHMEM_TEAM_WORLD's; device/coll/stream_push.h says how it
// is used): GIO_COLL_REDUCE_SCRATCH bytes of chunk slots after two flag tables, ready[g][i]
// (written by member i into this PE's table once a chunk of work-group g's slot from i is full)
// and credit[g][j] (written by member j once it has folded a chunk this PE sent it). Only
// SHMEM_TEAM_WORLD pushes: one area per team slot would cost GIO_MAX_TEAMS times the scratch, and
// a collective on one team at a time is what keeps the area to one call. Other teams pull.
constexpr int kPushMaxPes = 8;            // members a push reduction takes (one NVLink/xGMI node)
constexpr unsigned kPushMaxGroups = 1024;  // work-groups of one push kernel (flag rows)
constexpr unsigned kPushDepth = 4;         // chunk slots per (work-group, source) ring
constexpr unsigned kPushAhead = 2;         // chunks a producer runs ahead of its own fold (1..depth-1)
constexpr size_t kPushFlagBytes = (size_t)kPushMaxGroups * kPushMaxPes * 8;  // one table
constexpr size_t kPushDataOffset = 2 * kPushFlagBytes;  // the chunk slots start here
static_assert(kPushAhead >= 1 && kPushAhead < kPushDepth, "a producer waits for no chunk of its own round");
static_assert(kPushDataOffset % 256 == 0, "chunk slots start vector-aligned");

// Reduction operands as the kernels fold them. Bitwise operations and wrapping sums and products
// give the same bits for a signed and an unsigned integer of one size, so only max and min need
// the signed kinds: 48 (kind, op) kernels serve the 1.5 table's 165 routines.
enum class stream_kind : int { u8, u16, u32, u64, i8, i16, i32, i64, f32, f64, c32, c64 };
enum class stream_rop : int { and_, or_, xor_, max, min, sum, prod };

struct stream_coll {
  stream_op op = stream_op::sync;
  int team = 0;        // the team's slot (runtime/team.h: gio_team_slot)
  int n_pes = 1;       // the team's members
  void* dest = nullptr;
  const void* source = nullptr;
  size_t bytes = 0;    // move: one block (broadcast: the buffer); reduce: the whole vector
  size_t nreduce = 0;  // reduce: elements
  int root = 0;        // broadcast: the root's number in the team
  stream_kind kind = stream_kind::u8;
  stream_rop rop = stream_rop::sum;
  // How: the team's every member pair is p2p (so the multi-work-group kernels may load and store
  // through the mapped heaps), and the message is small enough for the LL protocol, where the
  // one-work-group device collective alone is the fastest (see stream_launch.cpp).
  bool all_p2p = false;
  bool small = false;
  unsigned work_groups = 0;  // GIO_COLL_WORK_GROUPS; 0 = the GPU's multiprocessors (host: 4)
  // reduce: the push kernel may run (GIO_COLL_REDUCE, the team is SHMEM_TEAM_WORLD with an area);
  // the launcher still pulls where the scratch cannot hold a useful chunk.
  bool push = false;
  void* push_area = nullptr;  // this PE's copy of the area (flags, then push_scratch bytes)
  size_t push_scratch = 0;
  uint64_t push_seq = 0;      // this call's number among the world's push reductions (from 1)
};

// Enqueues the collective on `stream` (the platform's hipStream_t / cudaStream_t; nullptr: the
// default stream); returns at once on GPUs (the host platform runs launches to completion).
// Returns nullptr, or what failed (the platform's words; the caller stops the job with them: the
// device half has no logger).
const char* stream_coll_launch(const stream_coll& c, void* stream);

}  // namespace gio
