// The dependency analysis of L, its split over PEs, the right-hand side and the check.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "matrix.h"
#include "prng.h"

namespace spts {

// L is lower triangular, so every row's dependencies come before it: one pass in row order.
analysis analyze(const csr& l) {
  analysis a;
  a.level.assign((size_t)l.n, 0);
  std::vector<int64_t> path((size_t)l.n, 0);  // the heaviest chain ending at the row, in nnz
  int32_t top = -1;
  for (int32_t i = 0; i < l.n; ++i) {
    int32_t lv = 0;
    int64_t before = 0;
    for (int32_t k = l.row_ptr[i]; k < l.row_ptr[i + 1] - 1; ++k) {
      lv = std::max(lv, a.level[l.col[k]] + 1);
      before = std::max(before, path[l.col[k]]);
    }
    a.level[i] = lv;
    path[i] = before + (l.row_ptr[i + 1] - l.row_ptr[i]);
    top = std::max(top, lv);
    a.critical_path = std::max(a.critical_path, path[i]);
  }
  a.levels = top + 1;
  return a;
}

std::vector<int32_t> partition(const csr& l, int npes, bool by_nnz) {
  if (npes < 1)
    throw input_error("partition: npes must be at least 1 (got " + std::to_string(npes) + ")");
  const int32_t n = l.n;
  std::vector<int32_t> b((size_t)npes + 1, 0);
  b[npes] = n;
  for (int k = 1; k < npes; ++k) {
    int32_t cut;
    if (!by_nnz) {
      cut = (int32_t)((int64_t)n * k / npes);
    } else {
      // The row boundary nearest to the k-th share of the nonzeros.
      int64_t target = l.nnz() * k / npes;
      auto it = std::lower_bound(l.row_ptr.begin(), l.row_ptr.end(), target);
      cut = (int32_t)(it - l.row_ptr.begin());
      if (cut > 0 && target - l.row_ptr[cut - 1] < l.row_ptr[cut] - target) --cut;
      // At least one row per PE where there are enough rows, never backwards.
      if (n >= npes) cut = std::min(std::max(cut, b[k - 1] + 1), n - (npes - k));
      else cut = std::min(std::max(cut, b[k - 1]), n);
    }
    b[k] = cut;
  }
  return b;
}

std::vector<double> make_x_ref(int32_t n, uint64_t seed) {
  std::vector<double> x((size_t)std::max<int32_t>(n, 0));
  for (int32_t i = 0; i < n; ++i)  // 0x785f726566: "x_ref", a stream apart from the edges'
    x[i] = 0.5 + unit_double(hash3(seed, 0x785f726566ull, (uint64_t)i));
  return x;
}

std::vector<double> multiply(const csr& l, const std::vector<double>& x) {
  if ((int64_t)x.size() != l.n)
    throw std::invalid_argument("multiply: x has " + std::to_string(x.size()) + " entries, L has " +
                                std::to_string(l.n) + " rows");
  std::vector<double> b((size_t)l.n);
  for (int32_t i = 0; i < l.n; ++i) {
    double s = 0;
    for (int32_t k = l.row_ptr[i]; k < l.row_ptr[i + 1]; ++k) s += l.val[k] * x[l.col[k]];
    b[i] = s;
  }
  return b;
}

// NaN in x makes rel_error NaN (and worst_row the first NaN row): a check `!(err <= tol)` fails
// on it, while `err > tol` would not.
template <typename T>
error_report relative_error(const std::vector<T>& x, const std::vector<double>& x_ref,
                            int32_t begin, int32_t end) {
  if (begin < 0 || end < begin || (size_t)end > x_ref.size() || x.size() < (size_t)(end - begin))
    throw std::invalid_argument("relative_error: rows [" + std::to_string(begin) + ", " +
                                std::to_string(end) + ") do not fit x (" +
                                std::to_string(x.size()) + ") and x_ref (" +
                                std::to_string(x_ref.size()) + ")");
  double scale = 0;
  for (double v : x_ref) scale = std::max(scale, std::fabs(v));
  if (scale == 0) scale = 1;  // an all-zero x_ref: the absolute error
  error_report r;
  for (int32_t i = begin; i < end; ++i) {
    double e = std::fabs((double)x[i - begin] - x_ref[i]) / scale;
    if (std::isnan(e)) return error_report{e, i};
    if (r.worst_row < 0 || e > r.rel_error) r = error_report{e, i};
  }
  return r;
}

error_report relative_error_at(const std::vector<double>& x, const std::vector<double>& x_ref,
                               const std::vector<int32_t>& rows) {
  if (x.size() < rows.size())
    throw std::invalid_argument("relative_error_at: " + std::to_string(rows.size()) + " rows, x has " +
                                std::to_string(x.size()));
  double scale = 0;
  for (double v : x_ref) scale = std::max(scale, std::fabs(v));
  if (scale == 0) scale = 1;
  error_report r;
  for (size_t k = 0; k < rows.size(); ++k) {
    const int32_t i = rows[k];
    if (i < 0 || (size_t)i >= x_ref.size())
      throw std::invalid_argument("relative_error_at: row " + std::to_string(i) + " out of range [0, " +
                                  std::to_string(x_ref.size()) + ")");
    const double e = std::fabs(x[k] - x_ref[i]) / scale;
    if (std::isnan(e)) return error_report{e, i};
    if (r.worst_row < 0 || e > r.rel_error) r = error_report{e, i};
  }
  return r;
}

template error_report relative_error<float>(const std::vector<float>&, const std::vector<double>&,
                                            int32_t, int32_t);
template error_report relative_error<double>(const std::vector<double>&,
                                             const std::vector<double>&, int32_t, int32_t);

}  // namespace spts
