// gio and gio-launch: the kernels exchange halos themselves (putmem_signal per work-group segment,
// signal waits before the boundary rows) and reduce the norm across PEs with puts; the host only
// launches -- once (gio, persistent) or once per iteration (gio-launch).
#include <algorithm>

#include "hip_check.h"
#include "kernels.h"
#include "resident.h"
#include "runs.h"
#include "timer.h"

namespace jacobi {

namespace {

// The last check's global norm (the kernels reduce each check when they publish the next one).
__global__ void norm_finish(norm_slots n, int c) {
  if (threadIdx.x == 0 && blockIdx.x == 0) norm_consume(n, c);
}

template <typename T, int V>
int resident_v(variant v, int block) {
  if (persistent_kernel(v)) return resident(persistent<T, V>, block);
  return resident(step<T, V, true>, block);
}

template <typename T, int V>
run_result device_run(fields<T>& f, const options& o, int iters, bool comm, bool perturb) {
  run_result r;
  f.reset();
  if (perturb) f.perturb_halo();
  const int nchecks = (iters + f.nccheck - 1) / f.nccheck;
  const wait_clock clk{comm ? f.wait_ns : nullptr};
  const dim3 grid(f.shape.wgs), block(f.shape.block);
  const double t0 = now_s();
  if (persistent_kernel(o.var)) {
    hipLaunchKernelGGL(HIP_KERNEL_NAME(persistent<T, V>), grid, block, 0, 0, f.plan, f.a[0], f.a[1],
                       f.ex, (int)comm, iters, f.nccheck, f.norm, (int)o.grid_sync, f.bar, f.nbr,
                       (unsigned long long)(o.timeout_s * 1e9), clk);
  } else {
    for (int k = 0; k < iters; ++k) {
      const int check = k % f.nccheck == 0 ? k / f.nccheck : -1;
      hipLaunchKernelGGL(HIP_KERNEL_NAME(step<T, V, true>), grid, block, 0, 0, f.plan, f.a[k & 1],
                         f.a[(k + 1) & 1], f.ex, (int)comm, k, f.norm, check, 1, clk);
    }
  }
  if (comm) hipLaunchKernelGGL(norm_finish, dim3(1), dim3(1), 0, 0, f.norm, nchecks - 1);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  r.total_s = now_s() - t0;

  unsigned long long wait_ns = 0;
  HIP_CHECK(hipMemcpy(&wait_ns, f.wait_ns, sizeof wait_ns, hipMemcpyDeviceToHost));
  const long long waiters = std::min<long long>(f.shape.wgs, boundary_units(f.plan));
  r.sync_s = waiters > 0 ? (double)wait_ns * 1e-9 / (double)waiters : 0;
  r.norms.resize(nchecks);
  HIP_CHECK(hipMemcpy(r.norms.data(), f.norm.global, nchecks * sizeof(double), hipMemcpyDeviceToHost));
  shmem_barrier_all();  // every PE's last puts have landed before anyone resets
  return r;
}

}  // namespace

template <typename T>
int resident_wgs_device(variant v, int vec, int block) {
  return vec == 1 ? resident_v<T, 1>(v, block) : resident_v<T, JACOBI_VEC_BYTES / sizeof(T)>(v, block);
}

template <typename T>
run_result run_device_initiated(fields<T>& f, const options& o, int iters, bool comm, bool perturb) {
  if (f.shape.vec == 1) return device_run<T, 1>(f, o, iters, comm, perturb);
  return device_run<T, JACOBI_VEC_BYTES / sizeof(T)>(f, o, iters, comm, perturb);
}

template int resident_wgs_device<float>(variant, int, int);
template int resident_wgs_device<double>(variant, int, int);
template run_result run_device_initiated<float>(fields<float>&, const options&, int, bool, bool);
template run_result run_device_initiated<double>(fields<double>&, const options&, int, bool, bool);

}  // namespace jacobi
