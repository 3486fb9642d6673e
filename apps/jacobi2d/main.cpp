// jacobi2d: 2D 5-point Jacobi with rows split over PEs, five ways of exchanging halos (see
// README.md). Every run is checked against a 1-PE reference of the same problem.
#include <shmem.h>
#include <shmemg.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fields.h"
#include "hip_check.h"
#include "ikn.h"
#include "options.h"
#include "report.h"
#include "runs.h"

using namespace jacobi;

namespace {

constexpr int kStats = sizeof(pe_stats) / sizeof(double);

// Every PE's stats to every PE (host puts into a symmetric table, then a barrier).
std::vector<pe_stats> all_gather(const pe_stats& mine, double* table, int me, int npes) {
  for (int pe = 0; pe < npes; ++pe) shmem_putmem(table + (size_t)me * kStats, &mine, sizeof mine, pe);
  shmem_barrier_all();
  std::vector<pe_stats> all(npes);
  HIP_CHECK(hipMemcpy(all.data(), table, npes * sizeof(pe_stats), hipMemcpyDeviceToHost));
  return all;
}

// Returns the process exit code.
template <typename T>
int run(const options& o) {
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  auto fail = [&](const std::string& why) {
    if (me == 0) std::fprintf(stderr, "jacobi2d: %s\n", why.c_str());
    return 2;
  };
  if (o.ny - 2 < npes) return fail("--ny must give every PE a row: ny - 2 >= number of PEs");
  const domain d = make_domain(o.nx, o.ny, npes, me);

  int dev = 0;
  hipDeviceProp_t prop;
  HIP_CHECK(hipGetDevice(&dev));
  HIP_CHECK(hipGetDeviceProperties(&prop, dev));
#if defined(GIO_PLATFORM_HOST)
  // Each emulated work-group is an OS thread of fibers: few, small work-groups run fastest.
  const int default_block = 64, host_cap = 4;
#else
  const int default_block = 256, host_cap = 1 << 30;
#endif
  launch_shape s;
  s.vec = vec_for(o.nx, sizeof(T));
  s.block = o.block ? o.block : default_block;
  if (s.block % prop.warpSize || s.block > JACOBI_MAX_BLOCK)
    return fail("--block must be a multiple of the wave size (" + std::to_string(prop.warpSize) +
                ") and at most " + std::to_string(JACOBI_MAX_BLOCK));
  s.nseg = (o.nx / s.vec + s.block - 1) / s.block;
  const long long units = (long long)d.chunk * s.nseg;
  launch_shape ref_shape = s;
  ref_shape.wgs = o.wgs ? o.wgs : std::min(resident_wgs_host<T>(o.var, s.vec, s.block), host_cap);
  const int resident = device_initiated(o.var) ? resident_wgs_device<T>(o.var, s.vec, s.block)
                                               : resident_wgs_host<T>(o.var, s.vec, s.block);
  if (persistent_kernel(o.var) && o.wgs > resident)
    return fail("--wgs " + std::to_string(o.wgs) + " is more than the " + std::to_string(resident) +
                " work-groups the persistent kernel can keep resident");
  s.wgs = o.wgs ? o.wgs : std::min(resident, host_cap);
  s.wgs = (int)std::max(1ll, std::min<long long>(s.wgs, units));  // no idle work-groups
  if (persistent_kernel(o.var) && o.grid_sync && s.wgs > kBarrierGroup * kBarrierGroups)
    return fail(std::to_string(s.wgs) + " work-groups are more than the persistent kernel's grid barrier counts (" +
                std::to_string(kBarrierGroup * kBarrierGroups) + "); pass a smaller --wgs or a larger --block");

  fields<T> f;
  f.stall = o.inject_stall;
  f.alloc(o, d, s);
  double* table = (double*)shmemg_malloc((size_t)npes * kStats * sizeof(double));

  // The reference: a warm-up, then the timed run whose result every PE checks its rows against.
  const int warm = std::min(o.warmup, o.iters);
  std::vector<T> ref_rows;
  if (warm) run_reference<T>(o, d, ref_shape, warm, nullptr);
  const reference_result ref = run_reference<T>(o, d, ref_shape, o.iters, &ref_rows);

  auto variant_run = [&](int iters, bool comm, bool perturb) {
    return device_initiated(o.var) ? run_device_initiated<T>(f, o, iters, comm, perturb)
                                   : run_host_driven<T>(f, o, iters, comm, perturb);
  };
  if (warm) variant_run(warm, true, false);
  const run_result compute = variant_run(o.iters, false, false);
  const run_result r = variant_run(o.iters, true, o.inject_error);

  std::vector<T> rows((size_t)d.chunk * d.nx);
  f.copy_rows_out(o.iters, rows.data());
  const double roof = run_roofline<T>(f, o.iters, host_cap);  // after the copy-out: it overwrites the fields
  pe_stats mine;
  mine.total_s = r.total_s;
  mine.compute_s = compute.total_s;
  mine.sync_s = r.sync_s;
  mine.comm_s = device_initiated(o.var) ? std::max(0.0, r.total_s - compute.total_s - r.sync_s) : r.comm_s;
  mine.ref_s = ref.total_s;
  mine.roof_s = roof;
  mine.max_diff = max_abs_diff(rows, ref_rows);
  mine.norm_diff = max_rel_diff(r.norms, ref.norms);
  mine.norm = r.norms.back();
  mine.ref_norm = ref.norms.back();

  // PE 0 reports the slowest PE's times and the worst PE's differences.
  const std::vector<pe_stats> all = all_gather(mine, table, me, npes);
  pe_stats worst = all[0];
  for (const pe_stats& p : all) {
    worst.total_s = std::max(worst.total_s, p.total_s);
    worst.compute_s = std::max(worst.compute_s, p.compute_s);
    worst.comm_s = std::max(worst.comm_s, p.comm_s);
    worst.sync_s = std::max(worst.sync_s, p.sync_s);
    worst.ref_s = std::max(worst.ref_s, p.ref_s);
    worst.roof_s = std::max(worst.roof_s, p.roof_s);
    if (!(p.max_diff <= worst.max_diff)) worst.max_diff = p.max_diff;
    if (!(p.norm_diff <= worst.norm_diff)) worst.norm_diff = p.norm_diff;
  }
  const tolerance tol = tolerance_for(o.dbl);
  const bool pass = worst.max_diff <= tol.field && worst.norm_diff <= tol.norm;
  bool reported = true;
  if (me == 0) {
    const run_info info{&o, npes, prop.name, s.vec, s.block, s.wgs};
    reported = report(info, worst);
  }
  shmemg_free(table);
  f.release();
  return pass && reported ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  bool help = false;
  if (!parse_options(argc, argv, &o, &help)) return 2;
  if (help) {
    print_usage(argv[0]);
    return 0;
  }
  // Size the symmetric heap for this problem before shmem_init reads its configuration; a
  // GIO_SYMMETRIC_SIZE the user set wins (setenv does not overwrite it).
  setenv("GIO_SYMMETRIC_SIZE", std::to_string(heap_bytes_bound(o)).c_str(), 0);
  if (o.var == variant::ikn && !gio_app::ikn_select_proxy("jacobi2d")) return 2;
  shmem_init_thread(SHMEM_THREAD_SINGLE | SHMEM_DEVICE_KERNEL_INIT, nullptr);
  if (o.var == variant::ikn) gio_app::ikn_check_peers("jacobi2d");
  const int rc = o.dbl ? run<double>(o) : run<float>(o);
  shmem_finalize();
  return rc;
}
