// The problem and how it is cut up: rows over PEs, and each PE's rows over work-groups.
//
// Global grid (NVIDIA's multi-gpu-programming-models layout): ny rows x nx columns. Rows 1..ny-2
// are computed; rows 0 and ny-1 are periodic ghosts (copies of rows ny-2 and 1). Columns 0 and
// nx-1 hold the fixed boundary sin(2*pi*y/(ny-1)), y the global row; everything else starts at 0.
// Each PE owns `chunk` consecutive computed rows and stores them as local rows 1..chunk, with
// local rows 0 and chunk+1 as halos that the neighbours fill.
#pragma once
#include <shmem.h>

// Largest work-group the kernels are compiled for (see kernels.h).
#define JACOBI_MAX_BLOCK 256
// Rows each thread's strip loads ahead of the one it computes (stencil.h).
#ifndef JACOBI_PREFETCH
#define JACOBI_PREFETCH 2
#endif
// Bytes of a row each thread loads and stores at once when the row length allows it (fields.h
// vec_for), and the work-groups per multiprocessor the kernels' launch bounds ask for (kernels.h).
#ifndef JACOBI_VEC_BYTES
#define JACOBI_VEC_BYTES 32
#endif
#ifndef JACOBI_MIN_WGS
#define JACOBI_MIN_WGS 4
#endif

namespace jacobi {

struct domain {
  int nx = 0, ny = 0;
  int npes = 1, me = 0;
  int chunk = 0;       // rows this PE computes
  int first_row = 0;   // global row of local row 1
  int max_chunk = 0;   // largest chunk of any PE: the symmetric buffers' size
  int prev = 0, next = 0;
  int prev_chunk = 0;  // the previous PE's chunk: its bottom halo is its local row prev_chunk+1
};

// Rows of PE `pe`: (ny-2)/npes each, the last (ny-2)%npes PEs one more (NVIDIA's split).
inline int chunk_of(int ny, int npes, int pe) {
  const int low = (ny - 2) / npes;
  const int n_low = npes * low + npes - (ny - 2);
  return pe < n_low ? low : low + 1;
}
inline int first_row_of(int ny, int npes, int pe) {
  const int low = (ny - 2) / npes;
  const int n_low = npes * low + npes - (ny - 2);
  return pe < n_low ? pe * low + 1 : n_low * low + (pe - n_low) * (low + 1) + 1;
}

inline domain make_domain(int nx, int ny, int npes, int me) {
  domain d;
  d.nx = nx;
  d.ny = ny;
  d.npes = npes;
  d.me = me;
  d.chunk = chunk_of(ny, npes, me);
  d.first_row = first_row_of(ny, npes, me);
  d.max_chunk = chunk_of(ny, npes, npes - 1);
  d.prev = (me + npes - 1) % npes;
  d.next = (me + 1) % npes;
  d.prev_chunk = chunk_of(ny, npes, d.prev);
  return d;
}

// What one launch computes. A row is cut into segments of blockDim.x * VEC columns; a "unit" is
// one row of one segment. Boundary units (rows 1 and chunk) come first and are dealt round-robin;
// the interior units (rows 2..chunk-1) are numbered down each segment's column and given to
// work-groups as contiguous, equal ranges, so each work-group walks long vertical strips and
// reuses the rows it already holds. Every work-group gets the same number of units (+-1).
struct sweep_plan {
  int nx = 0, chunk = 0;
  int nseg = 0;        // segments per row
  int boundary = 0;    // this launch computes rows 1 and chunk
  int interior = 0;    // this launch computes rows 2..chunk-1
};

GIO_HOST_DEVICE inline long long boundary_units(const sweep_plan& p) {
  return p.boundary ? (p.chunk == 1 ? p.nseg : 2ll * p.nseg) : 0;
}
GIO_HOST_DEVICE inline long long interior_units(const sweep_plan& p) {
  return p.interior && p.chunk > 2 ? (long long)(p.chunk - 2) * p.nseg : 0;
}

// How a launch of G work-groups shares the units: boundary unit j goes to work-group j % G
// (dealt round-robin, so they start first), and work-group b gets the interior units [*i, *e)
// (numbered seg * (chunk - 2) + row - 2), a contiguous range chosen so that every work-group has
// the same number of units in all (+-1). sweep() walks exactly this; deps.cpp derives from it which
// work-groups read each other's units.
GIO_HOST_DEVICE inline void interior_range(const sweep_plan& p, int G, int b, int* i, int* e) {
  const int nb = (int)boundary_units(p), U = nb + (int)interior_units(p);
  const int lo = b < U % G ? b : U % G, lo_b = b < nb % G ? b : nb % G;
  // Units before this work-group, minus the boundary units among them (U >= nb keeps it >= 0).
  *i = b * (U / G) + lo - b * (nb / G) - lo_b;
  *e = *i + U / G + (b < U % G) - nb / G - (b < nb % G);
}

// The device-initiated halo exchange. sig_top[s] on a PE counts which iteration's values of its
// top halo, segment s, have landed (the previous PE writes it); sig_bot[s] likewise for the
// bottom halo. Both symmetric.
struct halo_exchange {
  uint64_t* sig_top = nullptr;
  uint64_t* sig_bot = nullptr;
  int prev = 0, next = 0, prev_chunk = 0;
};

// Residual norm bookkeeping, one slot per check (check c = iteration c * nccheck).
struct norm_slots {
  int nchecks = 0, npes = 1, me = 0;
  double* local = nullptr;       // device: this PE's sum of squared updates
  unsigned* done = nullptr;      // device: work-groups that added to local[c] (one-launch variants)
  double* parts = nullptr;       // symmetric [nchecks][npes]: every PE's sum, by its puts
  uint64_t* arrived = nullptr;   // symmetric [nchecks][npes]: 1 once that PE's sum has landed
  double* global = nullptr;      // device: sqrt of the sum over PEs
};

// A grid-wide barrier's state (device memory, zeroed before a run).
// The persistent kernel's grid barrier (sweep.h grid_sync), two levels: work-groups count in on
// one of `groups` counters, kBarrierGroup work-groups each, every counter on its own 128-byte line
// so their atomics proceed side by side in L2; the last of each group counts in on `top`, and the
// last of those advances `gen`, which the others poll.
constexpr int kBarrierGroup = 32;
constexpr int kBarrierGroups = 256;  // up to 8192 work-groups (main.cpp checks the grid)
struct grid_barrier {
  unsigned top;
  unsigned gen;
  unsigned pad[30];
  unsigned group[kBarrierGroups][32];
};

// The persistent kernel's neighbour synchronization (deps.h): work-group b waits before iteration k
// until done[d * kDoneStride] >= k for each d of deps[offsets[b] .. offsets[b+1]), and sets its own
// counter to k+1 once iteration k is written. Device memory, zeroed before a run.
constexpr int kDoneStride = 32;  // each counter on its own 128-byte line: polls of one never queue behind another's stores
struct neighbour_sync {
  const int* offsets = nullptr;
  const int* deps = nullptr;
  unsigned* done = nullptr;
};

}  // namespace jacobi
