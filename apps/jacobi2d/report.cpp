// The report: what each number means is printed beside it (and in README.md).
#include "report.h"

#include "json.h"

#include <cmath>
#include <cstdio>
#include <ctime>

#include "app_commit.h"  // GIO_APP_COMMIT, regenerated at every build

namespace jacobi {

template <typename T>
double max_abs_diff(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return INFINITY;
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double d = std::fabs((double)a[i] - (double)b[i]);
    if (!(d <= m)) m = d;  // NaN wins
  }
  return m;
}
template double max_abs_diff<float>(const std::vector<float>&, const std::vector<float>&);
template double max_abs_diff<double>(const std::vector<double>&, const std::vector<double>&);

double max_rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return INFINITY;
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double d = std::fabs(a[i] - b[i]) / std::fmax(std::fabs(b[i]), 1e-300);
    if (!(d <= m)) m = d;
  }
  return m;
}

namespace {

using gio_app::json_string;
using gio_app::utc_now;

}  // namespace

bool report(const run_info& info, const pe_stats& s) {
  const options& o = *info.o;
  const tolerance tol = tolerance_for(o.dbl);
  const bool pass = s.max_diff <= tol.field && s.norm_diff <= tol.norm;
  const double per_iter_us = s.total_s / o.iters * 1e6;
  const double speedup = s.ref_s / s.total_s;
  const double efficiency = speedup / info.npes;
  const bool dev = device_initiated(o.var);
  const char* type = o.dbl ? "double" : "float";

  std::printf("jacobi2d  %s  %s  %d x %d  %d PE%s  %d iterations  norm every %d\n", variant_name(o.var),
              type, o.nx, o.ny, info.npes, info.npes > 1 ? "s" : "", o.iters, o.nccheck);
  std::printf("  device %s; %d columns/thread, %d threads x %d work-groups%s\n", info.device.c_str(),
              info.vec, info.block, info.wgs,
              persistent_kernel(o.var) ? (o.grid_sync ? "; grid barrier" : "; neighbour sync") : "");
  std::printf("  total            %10.4f s   %.2f us/iteration\n", s.total_s, per_iter_us);
  std::printf("  compute          %10.4f s   the same kernels and launches with no halo exchange and no\n"
              "                                  cross-PE norm (compute-only run)\n",
              s.compute_s);
  if (dev) {
    std::printf("  communication    %10.4f s   total - compute - synchronization: the kernels' puts,\n"
                "                                  signals and cross-PE norm\n",
                s.comm_s);
    std::printf("  synchronization  %10.4f s   mean time a boundary work-group waited for a neighbour's\n"
                "                                  halo signal\n",
                s.sync_s);
  } else {
    const char* ov = o.var == variant::interk_overlap ? ", overlapped with the interior kernel" : "";
    std::printf("  communication    %10.4f s   host time in halo and norm puts%s\n", s.comm_s, ov);
    std::printf("  synchronization  %10.4f s   host time in shmem_quiet + shmem_sync_all%s\n", s.sync_s, ov);
  }
  std::printf("  1-PE reference   %10.4f s   speedup %.2f, parallel efficiency %.1f %%\n", s.ref_s, speedup,
              efficiency * 100);
  std::printf("  roofline         %10.4f s   the same sweeps as plain copies of each PE's field (one read,\n"
              "                                  one write): total runs at %.1f %% of it\n",
              s.roof_s, s.roof_s / s.total_s * 100);
  std::printf("  check            max |diff| %.3g (tolerance %.0e), final norm %.9e (reference %.9e, "
              "max relative diff %.2g, tolerance %.0e): %s\n",
              s.max_diff, tol.field, s.norm, s.ref_norm, s.norm_diff, tol.norm, pass ? "PASS" : "FAIL");
  std::fflush(stdout);

  if (!o.json.empty()) {
    FILE* f = std::fopen(o.json.c_str(), "a");
    if (!f) {
      std::perror(("jacobi2d: " + o.json).c_str());
      return false;
    }
    auto num = gio_app::json_num;
    std::fprintf(f,
                 "{\"app\":\"jacobi2d\",\"variant\":\"%s\",\"type\":\"%s\",\"nx\":%d,\"ny\":%d,\"pes\":%d,"
                 "\"iters\":%d,\"nccheck\":%d,\"sync\":\"%s\",\"total_s\":%s,\"per_iter_us\":%s,\"compute_s\":%s,"
                 "\"comm_s\":%s,\"sync_s\":%s,\"ref_1pe_s\":%s,\"roofline_s\":%s,\"speedup\":%s,\"efficiency\":%s,"
                 "\"max_diff\":%s,\"norm\":%s,\"check\":\"%s\",\"device\":%s,\"commit\":\"%s\","
                 "\"date\":\"%s\"}\n",
                 variant_name(o.var), type, o.nx, o.ny, info.npes, o.iters, o.nccheck,
                 !persistent_kernel(o.var) ? "launch" : o.grid_sync ? "grid" : "neighbours", num(s.total_s).c_str(),
                 num(per_iter_us).c_str(), num(s.compute_s).c_str(), num(s.comm_s).c_str(),
                 num(s.sync_s).c_str(), num(s.ref_s).c_str(), num(s.roof_s).c_str(), num(speedup).c_str(), num(efficiency).c_str(),
                 num(s.max_diff).c_str(), num(s.norm).c_str(), pass ? "pass" : "fail",
                 json_string(info.device).c_str(), GIO_APP_COMMIT, utc_now().c_str());
    std::fclose(f);
  }
  return pass;
}

}  // namespace jacobi
