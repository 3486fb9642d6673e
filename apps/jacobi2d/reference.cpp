// The 1-PE reference: the whole domain on this PE's device with the same step kernel, the
// periodic ghost rows refreshed by device copies, no communication. Its time is the 1-PE
// baseline for speedup and efficiency; its field and norms are what every run is checked against.
#include <cmath>

#include "hip_check.h"
#include "kernels.h"
#include "runs.h"
#include "timer.h"

namespace jacobi {

namespace {

template <typename T, int V>
reference_result reference_v(const options& o, const domain& d, const launch_shape& s, int iters,
                             std::vector<T>* rows) {
  reference_result r;
  const size_t w = (size_t)d.nx, n = w * d.ny;
  const int nchecks = (iters + o.nccheck - 1) / o.nccheck;
  T* a[2];
  norm_slots norm;
  HIP_CHECK(hipMalloc(&a[0], n * sizeof(T)));
  HIP_CHECK(hipMalloc(&a[1], n * sizeof(T)));
  HIP_CHECK(hipMalloc(&norm.local, nchecks * sizeof(double)));
  HIP_CHECK(hipMemset(norm.local, 0, nchecks * sizeof(double)));
  hipLaunchKernelGGL(init_field<T>, dim3(256), dim3(256), 0, 0, a[0], a[1], d.nx, d.ny, 0, d.ny);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());

  sweep_plan p;
  p.nx = d.nx;
  p.chunk = d.ny - 2;
  p.nseg = s.nseg;
  p.boundary = p.interior = 1;
  const long long units = boundary_units(p) + interior_units(p);
  const int g = (int)(units < s.wgs ? units : s.wgs);
  const double t0 = now_s();
  for (int k = 0; k < iters; ++k) {
    T* an = a[(k + 1) & 1];
    const int check = k % o.nccheck == 0 ? k / o.nccheck : -1;
    hipLaunchKernelGGL(HIP_KERNEL_NAME(step<T, V, false>), dim3(g), dim3(s.block), 0, 0, p, a[k & 1], an,
                       halo_exchange(), 0, k, norm, check, 0, wait_clock());
    // Periodic in y: ghost row 0 is row ny-2, ghost row ny-1 is row 1.
    HIP_CHECK(hipMemcpyAsync(an, an + (d.ny - 2) * w, w * sizeof(T), hipMemcpyDeviceToDevice, 0));
    HIP_CHECK(hipMemcpyAsync(an + (d.ny - 1) * w, an + w, w * sizeof(T), hipMemcpyDeviceToDevice, 0));
  }
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  r.total_s = now_s() - t0;

  std::vector<double> local(nchecks);
  HIP_CHECK(hipMemcpy(local.data(), norm.local, nchecks * sizeof(double), hipMemcpyDeviceToHost));
  for (double v : local) r.norms.push_back(std::sqrt(v));
  if (rows) {
    rows->resize((size_t)d.chunk * w);
    HIP_CHECK(hipMemcpy(rows->data(), a[iters & 1] + (size_t)d.first_row * w,
                        rows->size() * sizeof(T), hipMemcpyDeviceToHost));
  }
  HIP_CHECK(hipFree(norm.local));
  HIP_CHECK(hipFree(a[1]));
  HIP_CHECK(hipFree(a[0]));
  return r;
}

}  // namespace

template <typename T>
reference_result run_reference(const options& o, const domain& d, const launch_shape& s, int iters,
                               std::vector<T>* rows) {
  if (s.vec == 1) return reference_v<T, 1>(o, d, s, iters, rows);
  return reference_v<T, JACOBI_VEC_BYTES / sizeof(T)>(o, d, s, iters, rows);
}

template reference_result run_reference<float>(const options&, const domain&, const launch_shape&,
                                               int, std::vector<float>*);
template reference_result run_reference<double>(const options&, const domain&, const launch_shape&,
                                                int, std::vector<double>*);

}  // namespace jacobi
