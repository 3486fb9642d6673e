// The memory roofline of a sweep, measured in the same run (issue 18): a copy of this PE's field
// into the other field, `iters` times, with the variants' 16-byte loads. A sweep must read one
// field and write the other once, so no Jacobi kernel over these fields can beat this copy; the
// report gives the variant's total against it.
#include "hip_check.h"
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
double roofline_v(T* a0, T* a1, size_t elems, int iters, int wgs, int block) {
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

template <typename T>
double run_roofline(fields<T>& f, int iters, int wgs) {
  // The rows a sweep reads and writes, ghost rows included: the same bytes as the variants' buffers.
  const size_t elems = (size_t)(f.d.chunk + 2) * f.d.nx;
  if (f.shape.vec == 1) return roofline_v<T, 1>(f.a[0], f.a[1], elems, iters, wgs, f.shape.block);
  return roofline_v<T, JACOBI_VEC_BYTES / sizeof(T)>(f.a[0], f.a[1], elems, iters, wgs, f.shape.block);
}

template double run_roofline<float>(fields<float>&, int, int);
template double run_roofline<double>(fields<double>&, int, int);

}  // namespace jacobi
