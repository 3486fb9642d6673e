// The timed solves. Every variant solves this PE's rows [row0, row1) of L x = b and returns its
// part of x (in double) with its times; the caller checks x against x_ref.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "matrix.h"
#include "options.h"

namespace spts {

// The parts of a one-PE renumbered sync-free run's prep (NaN where the run has no such part):
// the uploads, which the vendor's prep does not count (it is timed with L already on the device),
// the analysis and its phases (analysis_dev.h; device analysis only), and the permuted copy.
struct prep_parts {
  double upload_s = NAN, analysis_s = NAN, copy_s = NAN;
  double setup_s = NAN, levels_s = NAN, sort_s = NAN, order_s = NAN, tiles_s = NAN;
};

struct solve_times {
  double prep_s = 0;               // analysis/preprocessing on the device (once, not per solve)
  prep_parts prep;                 // its parts
  std::vector<double> solve_s;     // every timed repetition
  std::string detail;              // e.g. "thread kernel, 4 work-groups x 64", "cusparseSpSV CSR"
  const char* exchange = nullptr;  // gio, ikn: the exchange the solve used (--exchange auto resolved)
  std::vector<double> ready_s;     // --probe-remote-ready: the probe's repetitions (this PE's times)
  bool by_level = false;           // the sync-free solve ran renumbered by level (--renumber)
  bool renumbered = false;         // x is in a renumbered order: entry k is original row rows[k]
  std::vector<int32_t> rows;       // (a PE may have none); otherwise x holds rows [row0, row1)
  bool analysis_differs = false;   // --analysis compare: the device's levels, order or chunks are not the host's
};

struct problem {
  const csr* l = nullptr;              // the whole L (every PE holds it)
  const std::vector<double>* b = nullptr;  // the whole b = L x_ref
  std::vector<int32_t> bounds;         // npes + 1 row boundaries
  int32_t levels = 0;                  // L's levels (analyze), for --renumber auto
  int me = 0, npes = 1;
  int32_t row0() const { return bounds[me]; }
  int32_t row1() const { return bounds[me + 1]; }
};

// gio (distributed sync-free over GIO) and single (the sync-free solve on one PE, no GIO calls).
template <typename T>
solve_times run_syncfree(const problem& p, const options& o, std::vector<double>* x);
// Level scheduling: one kernel per level, host exchange between levels.
template <typename T>
solve_times run_levelset(const problem& p, const options& o, std::vector<double>* x);
// cusparseSpSV (cuda) / rocsparse_spsv (hip), one PE. Returns false with *why set where the
// platform has none (the host platform).
bool vendor_available(std::string* why);
template <typename T>
solve_times run_vendor(const problem& p, const options& o, std::vector<double>* x);

}  // namespace spts
