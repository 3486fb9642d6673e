// The data kernels' bodies of the stream collectives (shmemx_*_on_stream) on all-p2p teams: every
// work-group of the grid moves a contiguous slice of every transfer with 16-byte loads and stores
// straight through the peers' mapped heaps. One work-group tops out near one SM's copy rate
// (22-33 GB/s busbw at 256 MiB, gio-bench coll --scope stream on 4 H200s); a link takes about 347 GB/s
// only from 8 or more work-groups storing 16-byte vectors.
//
// No synchronization here: the launcher (stream_launch.cpp) runs a team sync before the data
// kernel (every member has reached the collective on its stream, so its dest is free and its
// source ready) and one after it (every store into this PE's dest has landed). Each thread ends
// with a system-scope fence, so its stores to peers are visible before the exit sync's signal.
#pragma once
#include "device/coll/reduce_dev.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
namespace stream {

// Part p of `parts` equal shares of n units: [lo, hi).
GIO_DEVICE_INLINE void share(size_t n, unsigned p, unsigned parts, size_t& lo, size_t& hi) {
  lo = n * p / parts;
  hi = n * (p + 1) / parts;
}

// Work-group g's slice of an n-byte copy. Slices are cut at 16-byte boundaries of d, so each one
// after the first starts where d is vector-aligned; copy_bytes then takes 16-byte words wherever
// s shares d's alignment (symmetric buffers mostly do), narrower words otherwise, and copies the
// slice's head and tail bytes itself.
GIO_DEVICE_INLINE void copy_slice(uint8_t* d, const uint8_t* s, size_t n, unsigned g, unsigned groups) {
  size_t head = (16 - ((uintptr_t)d & 15)) & 15;
  if (head > n) head = n;
  size_t lo, hi;
  share((n - head) / 16, g, groups, lo, hi);
  const size_t b = g == 0 ? 0 : head + lo * 16;
  const size_t e = g + 1 == groups ? n : head + hi * 16;
  if (e > b) copy_bytes<scope_wg>(d + b, s + b, e - b);
}

// Where member i's copy of a symmetric address lies, as this PE maps it.
GIO_DEVICE_INLINE uint8_t* member_addr(const gio_device_state_v1& st, const gio_team_v1& tm, int i, const void* sym) {
  return i == tm.my_pe ? (uint8_t*)sym : p2p::remote(st, sym, tm.members[i]);
}

// Stores to peers are weakly ordered: each thread makes its own visible system-wide before the
// kernel ends and the exit sync's signal (a release of its one thread only) goes out.
GIO_DEVICE_INLINE void stores_done() { plat::fence_system(); }

// Block `me` of every member i's dest gets `bytes` from source + i * stride: fcollect's stride is
// 0 (this PE's block to everyone), alltoall's `bytes` (block i to member i). Work-group g starts
// with the member g + 1 after this one, so the work-groups spread over the links at every moment
// instead of all storing to one peer at a time.
GIO_DEVICE_INLINE void push_blocks(int t, uint8_t* dest, const uint8_t* source, size_t bytes, size_t stride) {
  const gio_device_state_v1& st = GIO_DSTATE;
  const gio_team_v1& tm = team_table(st)[t];
  const int n = tm.n_pes, me = tm.my_pe;
  const unsigned g = plat::wg_id(), groups = gridDim.x;
  for (int k = 0; k < n; ++k) {
    const int i = (int)((me + 1 + g + (unsigned)k) % (unsigned)n);
    copy_slice(member_addr(st, tm, i, dest) + (size_t)me * bytes, source + (size_t)i * stride, bytes, g, groups);
  }
  stores_done();
}

// Member j's share of a broadcast: [lo, hi) of `bytes`, cut at multiples of 16 so every share
// keeps the buffers' alignment.
GIO_DEVICE_INLINE void bcast_share(size_t bytes, int j, int n, size_t& lo, size_t& hi) {
  lo = j == 0 ? 0 : bytes * (size_t)j / (size_t)n / 16 * 16;
  hi = j + 1 == n ? bytes : bytes * (size_t)(j + 1) / (size_t)n / 16 * 16;
}

// A broadcast in two pulls, each PE writing only its own dest. Phase 0: member j copies share j
// from the root's source. Phase 1 (after a team sync): member j copies every other share i from
// member i's dest. The root's links carry the data about once instead of n - 1 times, as a
// scatter and an all-gather do. On 2 members phase 0 alone pulls everything: the second pull
// only adds a sync there (4 H200s, 256 MiB: two pulls 213 GB/s at 4 PEs against 120 for one,
// but 323 against 348 at 2; gio-bench coll --scope stream).
GIO_DEVICE_INLINE void broadcast(int t, uint8_t* dest, const uint8_t* source, size_t bytes, int root, int phase) {
  const gio_device_state_v1& st = GIO_DSTATE;
  const gio_team_v1& tm = team_table(st)[t];
  const int n = tm.n_pes, me = tm.my_pe;
  const unsigned g = plat::wg_id(), groups = gridDim.x;
  size_t lo, hi;
  if (phase == 0) {
    if (n > 2) bcast_share(bytes, me, n, lo, hi);
    else lo = 0, hi = bytes;
    const uint8_t* from = member_addr(st, tm, root, source);
    if (from != dest) copy_slice(dest + lo, from + lo, hi - lo, g, groups);
  } else {
    for (int k = 0; k < n; ++k) {
      const int i = (int)((me + 1 + g + (unsigned)k) % (unsigned)n);
      if (i == me) continue;
      bcast_share(bytes, i, n, lo, hi);
      copy_slice(dest + lo, member_addr(st, tm, i, dest) + lo, hi - lo, g, groups);
    }
  }
  stores_done();
}

}  // namespace stream
}  // namespace dev
}  // namespace gio
#endif
