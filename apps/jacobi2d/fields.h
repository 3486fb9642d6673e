// Everything one PE's run touches: the two symmetric field buffers (with halos), the halo and
// norm signals, and the device-side counters; allocated once, reset before every run.
#pragma once
#include <shmem.h>

#include <cstddef>

#include "domain.h"
#include "options.h"

namespace jacobi {

// How kernels are launched on this device for this problem.
struct launch_shape {
  int vec = 1;       // columns per thread (16-byte loads when the row length allows)
  int block = 64;    // threads per work-group
  int nseg = 1;      // segments per row: ceil(nx / (vec * block))
  int wgs = 1;       // work-groups of a full-row launch
};

// Columns per thread: a 16-byte vector when every row starts 16-byte aligned, else 1.
inline int vec_for(int nx, size_t elem) {
  const int v = (int)(JACOBI_VEC_BYTES / elem);
  return nx % v == 0 ? v : 1;
}

// Symmetric heap bytes that hold this problem's buffers, signals, norm slots and result table at
// any PE count (the count is known only after shmem_init, so the field is bounded by 1 PE's).
size_t heap_bytes_bound(const options& o);

template <typename T>
struct fields {
  domain d;
  launch_shape shape;
  sweep_plan plan;            // all rows of this PE
  int nccheck = 1;
  T* a[2] = {nullptr, nullptr};  // symmetric, (max_chunk + 2) * nx each; a[k % 2] feeds iteration k
  halo_exchange ex;
  norm_slots norm;
  grid_barrier* bar = nullptr;            // device
  neighbour_sync nbr;                     // device: the persistent kernel's lists (deps.h) and counters
  unsigned long long* wait_ns = nullptr;  // device: halo waits of the last run

  // Collective (an exhausted symmetric heap stops the job with GIO's message).
  void alloc(const options& o, const domain& dom, const launch_shape& s);
  // Collective: the initial field, zero signals and counters on every PE; ends with a barrier,
  // so no PE starts putting into a neighbour that is still resetting.
  void reset();
  void release();
  // Test only (--inject-stall, set before alloc): on PE 0, work-group 0 of the persistent kernel
  // waits for a work-group that does not exist (neighbour sync), and the grid barrier's first
  // group can never fill (grid sync): the waits must time out with their messages. Host-side
  // only, so the kernels are the ones every run uses.
  bool stall = false;
  // Test only (--inject-error): PE 0's top halo value in the middle column, which iteration 0
  // reads, becomes 1 -- as if one halo element had been delivered wrong. Call after reset().
  void perturb_halo();
  // Local rows 1..chunk of the buffer iteration `iters` left its result in.
  void copy_rows_out(int iters, T* host) const;
};

}  // namespace jacobi
