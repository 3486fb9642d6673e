// Checking a run against the reference, and reporting it (stdout and JSON lines, PE 0).
#pragma once
#include <string>
#include <vector>

#include "options.h"

namespace jacobi {

// One PE's numbers; PE 0 reports the maximum over PEs of each (the norms agree on every PE).
struct pe_stats {
  double total_s, compute_s, comm_s, sync_s, ref_s;
  double roof_s;     // the same sweeps as plain copies of this PE's fields (roofline.cpp)
  double max_diff;   // max |field - reference| over this PE's rows
  double norm_diff;  // max relative difference of the norms over all checks
  double norm, ref_norm;
};

struct tolerance {
  double field, norm;
};
inline tolerance tolerance_for(bool dbl) { return dbl ? tolerance{1e-12, 1e-10} : tolerance{1e-5, 1e-4}; }

template <typename T>
double max_abs_diff(const std::vector<T>& a, const std::vector<T>& b);
double max_rel_diff(const std::vector<double>& a, const std::vector<double>& b);

struct run_info {
  const options* o;
  int npes;
  std::string device;
  int vec, block, wgs;
};

// Prints the report; appends the JSON line when o.json is set. Returns true when the check passed.
bool report(const run_info& info, const pe_stats& s);

}  // namespace jacobi
