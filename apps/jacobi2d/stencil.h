// The 5-point Jacobi update of a vertical strip, and the work-group reduction of the norm.
//
// Each thread owns VEC adjacent columns (JACOBI_VEC_BYTES of a row, 32, when the row length allows
// it) and walks down the strip's rows, keeping the row above and its own row in registers, so
// every value is loaded once per strip. The left and right neighbours come from the adjacent lanes
// by shuffle; only the wave's edge lanes load them. The rows below are loaded D rows ahead
// (JACOBI_PREFETCH, domain.h). On H200 at 16384^2 (apps/jacobi2d/strip_probe.cu, against a
// 16-byte copy of the same fields): a sweep with 16-byte rows reached 86-89 % of the copy at any
// depth and launch bound, 32-byte rows 92-93 %; in the app's kernels, whose exchange calls change
// the register allocation, 32 bytes two rows ahead made gio 0.632 s against 0.755 s.
#pragma once
#include <shmem.h>

#include "domain.h"

namespace jacobi {

template <typename T, int V>
struct alignas(sizeof(T) * V) pack {
  T v[V];
};

template <typename T, int V>
GIO_DEVICE_INLINE pack<T, V> load_pack(const T* p) {
  return *reinterpret_cast<const pack<T, V>*>(p);
}

// Full-wave shuffles (the work-group size is a multiple of the wave size).
template <typename T>
GIO_DEVICE_INLINE T shfl_up(T v, int d) {
#if defined(GIO_PLATFORM_HIP)
  return __shfl_up(v, d);
#else
  return __shfl_up_sync(0xffffffffu, v, d);
#endif
}
template <typename T>
GIO_DEVICE_INLINE T shfl_down(T v, int d) {
#if defined(GIO_PLATFORM_HIP)
  return __shfl_down(v, d);
#else
  return __shfl_down_sync(0xffffffffu, v, d);
#endif
}

// Computes local rows r0..r1 of segment `seg` from `a` into `an`; every thread of the work-group
// calls it with the same arguments. Returns this thread's sum of squared updates.
template <typename T, int V, int D = JACOBI_PREFETCH>
GIO_DEVICE_INLINE double strip(const T* __restrict__ a, T* __restrict__ an, int nx, int seg, int r0, int r1) {
  static_assert(D >= 1, "at least the next row is loaded ahead");
  typedef pack<T, V> P;
  const int lane = (int)(threadIdx.x % warpSize);
  const int x0 = (seg * (int)blockDim.x + (int)threadIdx.x) * V;
  const bool on = x0 < nx;
  const bool load_left = lane == 0 && on && x0 > 0;
  const bool load_right = lane == warpSize - 1 && x0 + V < nx;
  P zero;
  for (int i = 0; i < V; ++i) zero.v[i] = T(0);
  const size_t w = (size_t)nx;
  P up = on ? load_pack<T, V>(a + (size_t)(r0 - 1) * w + x0) : zero;
  P c = on ? load_pack<T, V>(a + (size_t)r0 * w + x0) : zero;
  // ahead[j] is row r+1+j; rows up to r1+1 (the halo or the next strip's first row) exist.
  P ahead[D];
#pragma unroll
  for (int j = 0; j < D; ++j)
    ahead[j] = on && r0 + j <= r1 ? load_pack<T, V>(a + (size_t)(r0 + 1 + j) * w + x0) : zero;
  double norm = 0;
  for (int r = r0; r <= r1; ++r) {
    const T* row = a + (size_t)r * w;
    const P dn = ahead[0];
#pragma unroll
    for (int j = 0; j + 1 < D; ++j) ahead[j] = ahead[j + 1];
    if (on && r + D <= r1) ahead[D - 1] = load_pack<T, V>(row + (size_t)(1 + D) * w + x0);  // in flight while we compute
    T left = shfl_up(c.v[V - 1], 1);
    T right = shfl_down(c.v[0], 1);
    if (load_left) left = row[x0 - 1];
    if (load_right) right = row[x0 + V];
    P o;
    T s = T(0);
    for (int i = 0; i < V; ++i) {
      const T l = i == 0 ? left : c.v[i - 1];
      const T rt = i == V - 1 ? right : c.v[i + 1];
      T val = (rt + l + dn.v[i] + up.v[i]) * T(0.25);
      const int x = x0 + i;
      if (x == 0 || x == nx - 1) val = c.v[i];  // fixed boundary columns
      const T d = val - c.v[i];
      s += d * d;
      o.v[i] = val;
    }
    if (on) *reinterpret_cast<P*>(an + (size_t)r * w + x0) = o;
    norm += (double)s;
    up = c;
    c = dn;
  }
  return norm;
}

// Adds the work-group's sum of v to *target: shuffles within each wave, one value per wave
// through shared memory, one atomic per work-group.
GIO_DEVICE_INLINE void block_add(double v, double* target) {
  __shared__ double wave_sum[32];
  for (int o = warpSize / 2; o > 0; o >>= 1) v += shfl_down(v, o);
  const unsigned lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  if (lane == 0) wave_sum[wave] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    double s = 0;
    const unsigned waves = (blockDim.x + warpSize - 1) / warpSize;
    for (unsigned i = 0; i < waves; ++i) s += wave_sum[i];
    atomicAdd(target, s);
  }
  __syncthreads();  // wave_sum is reused by the next call
}

}  // namespace jacobi
