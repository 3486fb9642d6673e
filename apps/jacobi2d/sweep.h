// One Jacobi iteration of a launch's share of the rows (see sweep_plan), with or without the
// device-initiated halo exchange, and the device halves of the norm reduction and of the persistent
// kernel's two ways of ordering iterations: the grid barrier and the neighbour synchronization.
#pragma once
#include <math.h>
#include <shmem.h>

#include "domain.h"
#include "stencil.h"

namespace jacobi {

// Work-group time spent waiting for neighbours' halos (summed over work-groups, ns).
struct wait_clock {
  unsigned long long* total_ns = nullptr;
};

// Kept out of line: the RMA and wait paths (argument checks, error reports) would otherwise be
// inlined into the stencil loop and cost it registers -- and occupancy -- on GPUs.
#if defined(GIO_PLATFORM_HOST)
#define JACOBI_OUT_OF_LINE inline __attribute__((noinline))
#else
#define JACOBI_OUT_OF_LINE inline __device__ __noinline__
#endif

// Thread 0: wait until the neighbours' values of segment `seg` feeding iteration k have landed.
JACOBI_OUT_OF_LINE void halo_wait(halo_exchange ex, int seg, bool top, bool bot, int k,
                                  unsigned long long* wait_ns) {
  const uint64_t t0 = wait_ns ? gio::plat::clock_ns() : 0;
  if (top) shmem_signal_wait_until(ex.sig_top + seg, SHMEM_CMP_GE, (uint64_t)k);
  if (bot) shmem_signal_wait_until(ex.sig_bot + seg, SHMEM_CMP_GE, (uint64_t)k);
  if (wait_ns) atomicAdd(wait_ns, (unsigned long long)(gio::plat::clock_ns() - t0));
}

// Whole work-group: one segment of one of our rows into a neighbour's halo, with a signal
// carrying the iteration the values feed. One call site per translation unit: each inlined copy of
// the put costs the HIP compiler tens of seconds.
JACOBI_OUT_OF_LINE void put_segment(void* dst, const void* src, size_t bytes, uint64_t* sig, int k,
                                    int pe) {
  shmemx_putmem_signal_wg(dst, src, bytes, sig, (uint64_t)k + 1, SHMEM_SIGNAL_SET, pe);
}

// Our row 1 becomes the previous PE's bottom halo, our last row the next PE's top halo.
template <typename T>
GIO_DEVICE_INLINE void halo_put(const halo_exchange& ex, T* an, int nx, int chunk, int seg, int seg_cols,
                      bool top, bool bot, int k) {
  const int xs = seg * seg_cols;
  const int xe = xs + seg_cols < nx ? xs + seg_cols : nx;
  const size_t bytes = (size_t)(xe - xs) * sizeof(T);
  const size_t w = (size_t)nx;
  if (top)
    put_segment(an + (size_t)(ex.prev_chunk + 1) * w + xs, an + w + xs, bytes, ex.sig_bot + seg, k,
                ex.prev);
  if (bot) put_segment(an + xs, an + (size_t)chunk * w + xs, bytes, ex.sig_top + seg, k, ex.next);
}

GIO_DEVICE_INLINE int imin(int x, int y) { return x < y ? x : y; }

// This work-group's share of one iteration; returns its thread's sum of squared updates.
// Boundary units first (waiting for the neighbours' values feeding each, and putting each result
// into the neighbour's halo with a signal), then one contiguous range of interior units. A single
// strip() call site keeps the kernel small.
//
// Why the halos need no extra double buffering: iteration k reads buffer k%2 (and its halos) and
// writes buffer (k+1)%2. Our put at iteration k lands in the neighbour's buffer (k+1)%2, whose halo
// the neighbour last read at iteration k-1 -- and we only put after waiting for the neighbour's
// signal k, which it sends after computing (so after reading) that same segment.
template <typename T, int V, bool EX>
GIO_DEVICE_INLINE double sweep(const sweep_plan& p, const T* a, T* an, const halo_exchange* ex, int k,
                     wait_clock clk) {
  const int G = (int)gridDim.x, b = (int)blockIdx.x;
  const int nb = (int)boundary_units(p);
  int i, e;
  interior_range(p, G, b, &i, &e);
  const int rows = p.chunk - 2;
  double s = 0;
  for (int j = b;; j += G) {
    int seg, r0, r1;
    bool top = false, bot = false;
    if (j < nb) {
      seg = j % p.nseg;
      top = p.chunk == 1 || j < p.nseg;
      bot = p.chunk == 1 || j >= p.nseg;
      r0 = r1 = top ? 1 : p.chunk;
    } else if (i < e) {
      seg = i / rows;
      r0 = 2 + i % rows;
      r1 = imin(rows + 1, r0 + (e - i) - 1);
      i += r1 - r0 + 1;
    } else {
      break;
    }
    const bool edge = EX && ex && (top || bot);
    if (edge) {
      if (threadIdx.x == 0) halo_wait(*ex, seg, top, bot, k, clk.total_ns);
      __syncthreads();
    }
    s += strip<T, V>(a, an, p.nx, seg, r0, r1);
    if (edge) halo_put<T>(*ex, an, p.nx, p.chunk, seg, (int)blockDim.x * V, top, bot, k);
  }
  return s;
}

// One thread: this PE's sum for check c goes to every other PE (put + signal set of its own
// flag: a set, not an add, so no NIC atomic is on the way -- they are the slow path of a real NIC
// and need a free SM on the software one); then the check before it, whose puts had a whole
// check interval to land, is reduced to its global norm.
JACOBI_OUT_OF_LINE void norm_consume(const norm_slots& n, int c) {
  uint64_t* flags = n.arrived + (size_t)c * n.npes;
  for (int pe = 0; pe < n.npes; ++pe)
    if (pe != n.me) shmem_signal_wait_until(flags + pe, SHMEM_CMP_GE, 1);
  double s = 0;
  const volatile double* parts = n.parts + (size_t)c * n.npes;
  for (int pe = 0; pe < n.npes; ++pe) s += parts[pe];  // PE order: the same sum everywhere
  n.global[c] = sqrt(s);
}
JACOBI_OUT_OF_LINE void norm_publish(const norm_slots& n, int c, bool comm) {
  const double v = *(const volatile double*)(n.local + c);
  if (!comm) {
    n.global[c] = sqrt(v);
    return;
  }
  double* mine = n.parts + (size_t)c * n.npes + n.me;
  *mine = v;  // our own part: this thread reads it back in norm_consume
  uint64_t* flag = n.arrived + (size_t)c * n.npes + n.me;
  for (int i = 1; i < n.npes; ++i) {
    const int pe = (n.me + i) % n.npes;
    shmem_putmem_signal(mine, mine, sizeof(double), flag, 1, SHMEM_SIGNAL_SET, pe);
  }
  if (c > 0) norm_consume(n, c - 1);
}

JACOBI_OUT_OF_LINE void barrier_timeout(uint64_t waited_ns, unsigned gen) {
  printf("jacobi2d: PE %d work-group %u waited %.1f s in the grid barrier (generation %u)\n",
         shmem_my_pe(), (unsigned)blockIdx.x, (double)waited_ns * 1e-9, gen);
  gio::dev::die(GIO_ERR_TIMEOUT);
}

// Barrier over the launch's work-groups (all must be resident), two levels (domain.h). One
// counter for every work-group, polled with system-scope acquire loads, held the persistent
// kernel's sweep at 77-80 % of a copy's bandwidth, two levels polled at device scope at 85-90 %
// (apps/jacobi2d/strip_probe.cu, H200), although each barrier alone took 2.3-2.5 us: what the
// old one cost was its effect on the sweep around it, not its own latency. The waiting spin is
// bounded: a work-group stuck on a neighbour that never signals is a bug report, not a hang.
// gio::plat::relax() lets the host emulator run the other work-groups.
GIO_DEVICE_INLINE void grid_sync(grid_barrier* g, unsigned long long timeout_ns) {
  __syncthreads();
  if (threadIdx.x == 0) {
    // Read before arriving: the generation cannot advance until this work-group has arrived.
    const unsigned gen = gio::plat::load_polled(&g->gen);
    const unsigned b = blockIdx.x, G = gridDim.x;
    const unsigned grp = b / kBarrierGroup, groups = (G + kBarrierGroup - 1) / kBarrierGroup;
    const unsigned members = G - grp * kBarrierGroup < kBarrierGroup ? G - grp * kBarrierGroup : kBarrierGroup;
    __threadfence();  // release this work-group's writes before it counts in
    bool last = false;
    if (atomicAdd(&g->group[grp][0], 1u) == members - 1) {
      // Reset before counting in on top: no member arrives again before `gen` advances.
      atomicExch(&g->group[grp][0], 0u);
      if (atomicAdd(&g->top, 1u) == groups - 1) {
        atomicExch(&g->top, 0u);
        __threadfence();
        atomicAdd(&g->gen, 1u);
        last = true;
      }
    }
    if (!last) {
      const uint64_t t0 = gio::plat::clock_ns();
      for (unsigned spins = 1; gio::plat::load_polled(&g->gen) == gen; ++spins) {
        gio::plat::relax();
        if ((spins & 1023) == 0 && gio::plat::clock_ns() - t0 > timeout_ns)
          barrier_timeout(gio::plat::clock_ns() - t0, gen);
      }
    }
    __threadfence();  // acquire: other work-groups' writes before ours from here on
  }
  __syncthreads();
}

JACOBI_OUT_OF_LINE void neighbour_timeout(uint64_t waited_ns, int dep, unsigned seen, int k) {
  printf("jacobi2d: PE %d work-group %u waited %.1f s for work-group %d to finish iteration %d (it has "
         "finished %u)\n",
         shmem_my_pe(), (unsigned)blockIdx.x, (double)waited_ns * 1e-9, dep, k - 1, seen);
  gio::dev::die(GIO_ERR_TIMEOUT);
}

// Before iteration k: every work-group this one reads from (or overwrites what it reads) has
// finished iteration k-1 (deps.h). One thread per neighbour polls its counter, then fences: the
// acquire that pairs with the neighbour's fence before its counter store, so its rows are read
// after they were written; the work-group barrier passes that on to every thread.
GIO_DEVICE_INLINE void neighbour_wait(const neighbour_sync& n, int k, unsigned long long timeout_ns) {
  const int b = (int)blockIdx.x;
  const int o1 = n.offsets[b + 1];
  for (int t = n.offsets[b] + (int)threadIdx.x; t < o1; t += (int)blockDim.x) {
    const int dep = n.deps[t];
    const unsigned* c = n.done + (size_t)dep * kDoneStride;
    if (gio::plat::load_polled(c) < (unsigned)k) {
      const uint64_t t0 = gio::plat::clock_ns();
      for (unsigned spins = 1; gio::plat::load_polled(c) < (unsigned)k; ++spins) {
        gio::plat::relax();
        if ((spins & 1023) == 0 && gio::plat::clock_ns() - t0 > timeout_ns)
          neighbour_timeout(gio::plat::clock_ns() - t0, dep, gio::plat::load_polled(c), k);
      }
    }
    __threadfence();
  }
  __syncthreads();
}

// After iteration k: every thread's stores of it (the work-group barrier) are released before the
// counter says so.
GIO_DEVICE_INLINE void neighbour_arrive(const neighbour_sync& n, int k) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicExch(n.done + (size_t)blockIdx.x * kDoneStride, (unsigned)(k + 1));
  }
}

}  // namespace jacobi
