// The kernels. Every variant runs the same strip() update, so all of them -- and the 1-PE
// reference -- produce bit-identical fields; only the norm's summation order differs.
#pragma once
#include <math.h>
#include <shmem.h>

#include "domain.h"
#include "sweep.h"

namespace jacobi {

// At most JACOBI_MAX_BLOCK threads and at least JACOBI_MIN_WGS (4) work-groups per multiprocessor:
// 64 registers on sm_90, which 32-byte rows two rows ahead need (only the out-of-line exchange
// calls spill around themselves). At 5 per SM (48 registers) with 32-byte rows the persistent
// kernel ran 0.700 s against 0.632 s at 16384^2 on H200 (jacobi2d --variant gio, one GPU).

// Both buffers of local rows 0..rows-1 (global rows row0..): zero inside, sin on the outer columns.
template <typename T>
__global__ void init_field(T* a0, T* a1, int nx, int rows, int row0, int ny) {
  const size_t n = (size_t)nx * rows;
  const double two_pi = 6.283185307179586476925286766559;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const int x = (int)(i % nx), r = (int)(i / nx);
    const T v = (x == 0 || x == nx - 1) ? (T)sin(two_pi * (row0 + r) / (ny - 1)) : T(0);
    a0[i] = v;
    a1[i] = v;
  }
}

// One iteration (or, with boundary/interior in the plan, part of one). EX compiles in the
// device-initiated exchange: with use_ex the boundary work-groups exchange halos themselves
// (gio-launch), and `publish` makes the last work-group to finish hand the PE's norm to every PE,
// so no host step is needed between launches. Without EX (interk, the reference) none of that
// code is built.
template <typename T, int V, bool EX>
__global__ void __launch_bounds__(JACOBI_MAX_BLOCK, JACOBI_MIN_WGS) step(sweep_plan p, const T* a, T* an, halo_exchange ex,
                                             int use_ex, int k, norm_slots n, int check,
                                             int publish, wait_clock clk) {
  const double s = sweep<T, V, EX>(p, a, an, use_ex ? &ex : nullptr, k, clk);
  if (check < 0) return;
  block_add(s, n.local + check);
  if (EX && publish && threadIdx.x == 0) {
    __threadfence();  // our share of local[check] before our ticket
    if (atomicAdd(n.done + check, 1u) == gridDim.x - 1) {
      __threadfence();
      norm_publish(n, check, use_ex != 0);
    }
  }
}

// gio: every iteration in one launch. Interior rows need the rows other work-groups computed:
// with `grid` a grid barrier separates iterations on this PE; without, each work-group waits only
// for the work-groups it shares rows with (neighbour_wait, deps.h). The signals order them across
// PEs. The norm of a check goes out from the last work-group to add to it.
template <typename T, int V>
__global__ void __launch_bounds__(JACOBI_MAX_BLOCK, JACOBI_MIN_WGS) persistent(sweep_plan p, T* a0, T* a1, halo_exchange ex,
                                                   int use_ex, int iters, int nccheck, norm_slots n,
                                                   int grid, grid_barrier* bar, neighbour_sync nbr,
                                                   unsigned long long timeout_ns, wait_clock clk) {
  for (int k = 0; k < iters; ++k) {
    const T* a = (k & 1) ? a1 : a0;
    T* an = (k & 1) ? a0 : a1;
    if (!grid && k > 0) neighbour_wait(nbr, k, timeout_ns);
    const double s = sweep<T, V, true>(p, a, an, use_ex ? &ex : nullptr, k, clk);
    const bool check = k % nccheck == 0;
    const int c = k / nccheck;
    if (check) block_add(s, n.local + c);
    if (grid) {
      grid_sync(bar, timeout_ns);
      if (check && blockIdx.x == 0 && threadIdx.x == 0) norm_publish(n, c, use_ex != 0);
    } else {
      neighbour_arrive(nbr, k);  // before the norm: the neighbours need not wait for its puts
      if (check && threadIdx.x == 0) {
        __threadfence();  // our share of local[c] before our ticket
        if (atomicAdd(n.done + c, 1u) == gridDim.x - 1) {
          __threadfence();
          norm_publish(n, c, use_ex != 0);
        }
      }
    }
  }
}

}  // namespace jacobi
