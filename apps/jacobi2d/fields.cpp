// Allocation and reset of a PE's run state.
#include "fields.h"

#include <shmemg.h>

#include <algorithm>

#include "deps.h"
#include "hip_check.h"
#include "kernels.h"

namespace jacobi {

namespace {
size_t round_up(size_t n, size_t a) { return (n + a - 1) / a * a; }
int checks_of(const options& o) { return (o.iters + o.nccheck - 1) / o.nccheck; }
}  // namespace

size_t heap_bytes_bound(const options& o) {
  const size_t elem = o.dbl ? sizeof(double) : sizeof(float);
  size_t b = 2 * round_up((size_t)o.ny * o.nx * elem, 256);    // both buffers, 1 PE holding all rows
  b += 2 * round_up((size_t)o.nx * sizeof(uint64_t), 256);      // halo signals (at most one per column)
  b += round_up((size_t)checks_of(o) * GIO_MAX_PES * sizeof(double), 256);
  b += round_up((size_t)checks_of(o) * sizeof(uint64_t), 256);
  b += round_up((size_t)GIO_MAX_PES * 64 * sizeof(double), 256);  // main's result table
  return b + (32u << 20);  // GIO's reserved area and allocator rounding, with room to spare
}

template <typename T>
void fields<T>::alloc(const options& o, const domain& dom, const launch_shape& s) {
  d = dom;
  shape = s;
  nccheck = o.nccheck;
  plan.nx = d.nx;
  plan.chunk = d.chunk;
  plan.nseg = s.nseg;
  plan.boundary = plan.interior = 1;
  const size_t rows = (size_t)d.max_chunk + 2;
  const int nchecks = checks_of(o);
  a[0] = (T*)shmemg_align(256, rows * d.nx * sizeof(T));
  a[1] = (T*)shmemg_align(256, rows * d.nx * sizeof(T));
  ex.sig_top = (uint64_t*)shmemg_malloc(s.nseg * sizeof(uint64_t));
  ex.sig_bot = (uint64_t*)shmemg_malloc(s.nseg * sizeof(uint64_t));
  norm.parts = (double*)shmemg_malloc((size_t)nchecks * d.npes * sizeof(double));
  norm.arrived = (uint64_t*)shmemg_malloc((size_t)nchecks * d.npes * sizeof(uint64_t));
  ex.prev = d.prev;
  ex.next = d.next;
  ex.prev_chunk = d.prev_chunk;
  norm.nchecks = nchecks;
  norm.npes = d.npes;
  norm.me = d.me;
  HIP_CHECK(hipMalloc(&norm.local, nchecks * sizeof(double)));
  HIP_CHECK(hipMalloc(&norm.done, nchecks * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&norm.global, nchecks * sizeof(double)));
  HIP_CHECK(hipMalloc(&bar, sizeof(grid_barrier)));
  wg_deps_host deps = build_deps(plan, s.wgs);
  if (stall && d.me == 0) {  // work-group 0 also waits for work-group s.wgs, whose counter nobody sets
    deps.deps.insert(deps.deps.begin() + deps.offsets[1], s.wgs);
    for (size_t b = 1; b < deps.offsets.size(); ++b) ++deps.offsets[b];
  }
  int *offsets = nullptr, *list = nullptr;
  HIP_CHECK(hipMalloc(&offsets, deps.offsets.size() * sizeof(int)));
  HIP_CHECK(hipMalloc(&list, std::max<size_t>(1, deps.deps.size()) * sizeof(int)));
  HIP_CHECK(hipMemcpy(offsets, deps.offsets.data(), deps.offsets.size() * sizeof(int), hipMemcpyHostToDevice));
  if (!deps.deps.empty())
    HIP_CHECK(hipMemcpy(list, deps.deps.data(), deps.deps.size() * sizeof(int), hipMemcpyHostToDevice));
  nbr.offsets = offsets;
  nbr.deps = list;
  HIP_CHECK(hipMalloc(&nbr.done, (size_t)(s.wgs + 1) * kDoneStride * sizeof(unsigned)));  // + --inject-stall's
  HIP_CHECK(hipMalloc(&wait_ns, sizeof(unsigned long long)));
}

template <typename T>
void fields<T>::reset() {
  const int n = norm.nchecks;
  hipLaunchKernelGGL(init_field<T>, dim3(256), dim3(256), 0, 0, a[0], a[1], d.nx, d.chunk + 2,
                     d.first_row - 1, d.ny);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipMemset(ex.sig_top, 0, shape.nseg * sizeof(uint64_t)));
  HIP_CHECK(hipMemset(ex.sig_bot, 0, shape.nseg * sizeof(uint64_t)));
  HIP_CHECK(hipMemset(norm.parts, 0, (size_t)n * d.npes * sizeof(double)));
  HIP_CHECK(hipMemset(norm.arrived, 0, (size_t)n * d.npes * sizeof(uint64_t)));
  HIP_CHECK(hipMemset(norm.local, 0, n * sizeof(double)));
  HIP_CHECK(hipMemset(norm.done, 0, n * sizeof(unsigned)));
  HIP_CHECK(hipMemset(norm.global, 0, n * sizeof(double)));
  HIP_CHECK(hipMemset(bar, 0, sizeof(grid_barrier)));
  HIP_CHECK(hipMemset(nbr.done, 0, (size_t)(shape.wgs + 1) * kDoneStride * sizeof(unsigned)));
  if (stall && d.me == 0) {  // the first group's counter past any count its members reach
    const unsigned never = 1u << 30;
    HIP_CHECK(hipMemcpy(&bar->group[0][0], &never, sizeof never, hipMemcpyHostToDevice));
  }
  HIP_CHECK(hipMemset(wait_ns, 0, sizeof(unsigned long long)));
  HIP_CHECK(hipDeviceSynchronize());
  shmem_barrier_all();
}

template <typename T>
void fields<T>::release() {
  HIP_CHECK(hipFree(wait_ns));
  HIP_CHECK(hipFree(nbr.done));
  HIP_CHECK(hipFree((void*)nbr.deps));
  HIP_CHECK(hipFree((void*)nbr.offsets));
  HIP_CHECK(hipFree(bar));
  HIP_CHECK(hipFree(norm.global));
  HIP_CHECK(hipFree(norm.done));
  HIP_CHECK(hipFree(norm.local));
  shmemg_free(norm.arrived);
  shmemg_free(norm.parts);
  shmemg_free(ex.sig_bot);
  shmemg_free(ex.sig_top);
  shmemg_free(a[1]);
  shmemg_free(a[0]);
}

template <typename T>
void fields<T>::perturb_halo() {
  if (d.me != 0) return;
  const T one = T(1);
  HIP_CHECK(hipMemcpy(a[0] + d.nx / 2, &one, sizeof one, hipMemcpyHostToDevice));
}

template <typename T>
void fields<T>::copy_rows_out(int iters, T* host) const {
  HIP_CHECK(hipMemcpy(host, a[iters % 2] + d.nx, (size_t)d.chunk * d.nx * sizeof(T),
                      hipMemcpyDeviceToHost));
}

template struct fields<float>;
template struct fields<double>;

}  // namespace jacobi
