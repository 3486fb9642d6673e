// The memory roofline of a sweep, measured in the same run: a copy of this PE's field
// into the other field, `iters` times, with 16-byte loads. A sweep must read one
// field and write the other once, so no Jacobi kernel over these fields can beat this copy; the
// report gives the variant's total against it.
#include <algorithm>

#include "hip_check.h"
#include "resident.h"
#include "runs.h"
#include "stencil.h"
#include "timer.h"

namespace jacobi {

namespace {

template <typename T, int V>
__global__ void copy_sweep(const T* __restrict__ src, T* __restrict__ dst, size_t packs) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < packs; i += stride)
    reinterpret_cast<pack<T, V>*>(dst)[i] = load_pack<T, V>(src + i * V);
}

template <typename T, int V>
double roofline_v(T* a0, T* a1, size_t elems, int iters, int cap) {
  const int block = 256;
  const int wgs = std::min(resident(copy_sweep<T, V>, block), cap);  // the copy at its own full occupancy
  const size_t packs = elems / V;
  T* a[2] = {a0, a1};
  hipLaunchKernelGGL(HIP_KERNEL_NAME(copy_sweep<T, V>), dim3(wgs), dim3(block), 0, 0, a[0], a[1], packs);  // warm-up
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  const double t0 = now_s();
  for (int k = 0; k < iters; ++k)
    hipLaunchKernelGGL(HIP_KERNEL_NAME(copy_sweep<T, V>), dim3(wgs), dim3(block), 0, 0, a[k & 1], a[(k + 1) & 1], packs);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  return now_s() - t0;
}

}  // namespace

// One fixed yardstick for every build and variant: 16-byte copies (the widest single load on
// both vendors' GPUs) at the copy kernel's own full occupancy, not the variants' vector width and
// grid. A 32-byte-per-thread copy at the stencil's grid was slower (0.559 against 0.535 s at
// 16384^2 on H200), and the roofline is the best plain copy, whatever the sweep does.
template <typename T>
double run_roofline(fields<T>& f, int iters, int cap) {
  // The rows a sweep reads and writes, ghost rows included: the same bytes as the variants' buffers.
  const size_t elems = (size_t)(f.d.chunk + 2) * f.d.nx;
  constexpr int V = 16 / sizeof(T);
  if (elems % V) return roofline_v<T, 1>(f.a[0], f.a[1], elems, iters, cap);
  return roofline_v<T, V>(f.a[0], f.a[1], elems, iters, cap);
}

template double run_roofline<float>(fields<float>&, int, int);
template double run_roofline<double>(fields<double>&, int, int);

}  // namespace jacobi
