// interk and interk-overlap: kernels compute, the host moves the halos between launches with
// host-side puts followed by quiet + sync_all, and gathers the norm sums the same way.
//  interk:          kernel (all rows) -> host exchange -> next kernel.
//  interk-overlap:  boundary rows on a high-priority stream, interior rows on a low-priority one;
//                   the host exchanges the boundary rows while the interior kernel runs.
// Both streams are non-blocking, so the host's copies (on the default stream) never wait for the
// interior kernel.
#include <algorithm>
#include <cmath>

#include "hip_check.h"
#include "kernels.h"
#include "resident.h"
#include "runs.h"
#include "timer.h"

namespace jacobi {

namespace {

// The norm of check c on the host: our sum goes into every PE's slot c with host puts; after the
// next quiet + sync_all every PE's slot c is complete.
template <typename T>
struct host_norm {
  const fields<T>& f;
  std::vector<double>& out;
  void put(int c) const {
    double v = 0;
    HIP_CHECK(hipMemcpy(&v, f.norm.local + c, sizeof v, hipMemcpyDeviceToHost));
    for (int pe = 0; pe < f.d.npes; ++pe)
      shmem_putmem(f.norm.parts + (size_t)c * f.d.npes + f.d.me, &v, sizeof v, pe);
  }
  void complete(int c) const {
    std::vector<double> parts(f.d.npes);
    HIP_CHECK(hipMemcpy(parts.data(), f.norm.parts + (size_t)c * f.d.npes, f.d.npes * sizeof(double),
                        hipMemcpyDeviceToHost));
    double s = 0;
    for (double p : parts) s += p;  // PE order: the same sum everywhere
    out[c] = std::sqrt(s);
  }
};

template <typename T>
void put_halos(const fields<T>& f, T* an) {
  const size_t w = (size_t)f.d.nx, bytes = w * sizeof(T);
  shmem_putmem(an + (size_t)(f.d.prev_chunk + 1) * w, an + w, bytes, f.d.prev);  // row 1 -> its bottom halo
  shmem_putmem(an, an + (size_t)f.d.chunk * w, bytes, f.d.next);                  // last row -> its top halo
}

template <typename T, int V>
run_result host_run(fields<T>& f, const options& o, int iters, bool comm, bool perturb) {
  run_result r;
  f.reset();
  if (perturb) f.perturb_halo();
  const bool overlap = o.var == variant::interk_overlap;
  const int nchecks = (iters + f.nccheck - 1) / f.nccheck;
  r.norms.assign(nchecks, 0.0);
  const host_norm<T> norm{f, r.norms};
  int lo_prio = 0, hi_prio = 0;
  HIP_CHECK(hipDeviceGetStreamPriorityRange(&lo_prio, &hi_prio));
  hipStream_t hi, lo;
  HIP_CHECK(hipStreamCreateWithPriority(&hi, hipStreamNonBlocking, hi_prio));
  HIP_CHECK(hipStreamCreateWithPriority(&lo, hipStreamNonBlocking, lo_prio));
  sweep_plan edge = f.plan, inner = f.plan;
  edge.interior = 0;
  inner.boundary = 0;
  const int g_all = f.shape.wgs;
  const int g_edge = (int)std::min<long long>(g_all, boundary_units(edge));
  const long long inner_units = interior_units(inner);
  const int g_inner = (int)std::max<long long>(1, std::min<long long>(g_all, inner_units));
  const dim3 block(f.shape.block);
  const halo_exchange none;
  const wait_clock no_clock;
  int pending = -1;  // interk-overlap: a check whose sum is ready but not yet sent

  const double t0 = now_s();
  for (int k = 0; k < iters; ++k) {
    const T* a = f.a[k & 1];
    T* an = f.a[(k + 1) & 1];
    const int check = k % f.nccheck == 0 ? k / f.nccheck : -1;
    if (!overlap) {
      hipLaunchKernelGGL(HIP_KERNEL_NAME(step<T, V, false>), dim3(g_all), block, 0, lo, f.plan, a, an, none, 0,
                         k, f.norm, check, 0, no_clock);
      HIP_CHECK(hipGetLastError());
      HIP_CHECK(hipStreamSynchronize(lo));
    } else {
      hipLaunchKernelGGL(HIP_KERNEL_NAME(step<T, V, false>), dim3(g_edge), block, 0, hi, edge, a, an, none, 0,
                         k, f.norm, check, 0, no_clock);
      if (inner_units > 0)
        hipLaunchKernelGGL(HIP_KERNEL_NAME(step<T, V, false>), dim3(g_inner), block, 0, lo, inner, a, an, none,
                           0, k, f.norm, check, 0, no_clock);
      HIP_CHECK(hipGetLastError());
      HIP_CHECK(hipStreamSynchronize(hi));
    }
    if (comm) {
      const double c0 = now_s();
      // interk: this iteration's sum is final now; interk-overlap: the previous check's is.
      const int send = overlap ? pending : check;
      if (send >= 0) norm.put(send);
      put_halos(f, an);
      const double c1 = now_s();
      shmem_quiet();
      shmem_sync_all();
      const double c2 = now_s();
      if (send >= 0) norm.complete(send);
      r.comm_s += (c1 - c0) + (now_s() - c2);
      r.sync_s += c2 - c1;
    }
    if (overlap) {
      HIP_CHECK(hipStreamSynchronize(lo));
      pending = check;  // an earlier pending sum went out in this iteration's exchange
    }
  }
  if (comm && overlap && pending >= 0) {
    norm.put(pending);
    shmem_quiet();
    shmem_sync_all();
    norm.complete(pending);
  }
  HIP_CHECK(hipDeviceSynchronize());
  r.total_s = now_s() - t0;

  if (!comm) {
    std::vector<double> local(nchecks);
    HIP_CHECK(hipMemcpy(local.data(), f.norm.local, nchecks * sizeof(double), hipMemcpyDeviceToHost));
    for (int c = 0; c < nchecks; ++c) r.norms[c] = std::sqrt(local[c]);
  }
  HIP_CHECK(hipStreamDestroy(hi));
  HIP_CHECK(hipStreamDestroy(lo));
  shmem_barrier_all();
  return r;
}

}  // namespace

template <typename T>
int resident_wgs_host(variant, int vec, int block) {
  return vec == 1 ? resident(step<T, 1, false>, block) : resident(step<T, JACOBI_VEC_BYTES / sizeof(T), false>, block);
}

template <typename T>
run_result run_host_driven(fields<T>& f, const options& o, int iters, bool comm, bool perturb) {
  if (f.shape.vec == 1) return host_run<T, 1>(f, o, iters, comm, perturb);
  return host_run<T, JACOBI_VEC_BYTES / sizeof(T)>(f, o, iters, comm, perturb);
}

template int resident_wgs_host<float>(variant, int, int);
template int resident_wgs_host<double>(variant, int, int);
template run_result run_host_driven<float>(fields<float>&, const options&, int, bool, bool);
template run_result run_host_driven<double>(fields<double>&, const options&, int, bool, bool);

}  // namespace jacobi
