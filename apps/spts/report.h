// Reporting a run (PE 0): a table on stdout and one JSON line per run (--json).
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "matrix.h"
#include "options.h"
#include "runs.h"

namespace spts {

struct run_record {
  const options* o = nullptr;
  std::string input;       // "grid2d:n=1024" or the file name
  std::string device;
  int npes = 1;
  int32_t rows = 0;
  int64_t nnz = 0;
  int32_t levels = 0;
  int64_t critical_path = 0;
  double input_s = 0;      // reading or generating L on the host
  solve_times times;       // the slowest PE's per repetition
  // References on PE 0's device, median solve time (NaN when not run or not available):
  // `single` on the whole matrix, and the vendor's solve (cusparse/rocsparse).
  double single_s = NAN, vendor_s = NAN;
  double rel_error = 0;    // worst over PEs
  int32_t worst_row = -1;
  bool pass = false;
};

// Median/min/max of the solve times; GFLOP/s = 2 nnz / median.
struct summary {
  double median_s, min_s, max_s, gflops;
};
summary summarize(const std::vector<double>& solve_s, int64_t nnz);
// Prints the table; appends the JSON line when o.json is set. False when the JSON file failed.
bool report(const run_record& r);

}  // namespace spts
