// Finishing L's rows (sorted columns, duplicates summed, diagonal last) and setting its diagonal.
#include "lower.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace spts {

namespace {
// Stable, so duplicates are summed in the order they were given (the same sum on every build).
void sort_row(int32_t* col, double* val, int32_t len,
              std::vector<std::pair<int32_t, double>>& tmp) {
  if (len <= 32) {
    for (int32_t a = 1; a < len; ++a) {
      int32_t c = col[a];
      double v = val[a];
      int32_t b = a;
      for (; b > 0 && col[b - 1] > c; --b) {
        col[b] = col[b - 1];
        val[b] = val[b - 1];
      }
      col[b] = c;
      val[b] = v;
    }
    return;
  }
  tmp.resize((size_t)len);
  for (int32_t a = 0; a < len; ++a) tmp[a] = {col[a], val[a]};
  std::stable_sort(tmp.begin(), tmp.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  for (int32_t a = 0; a < len; ++a) {
    col[a] = tmp[a].first;
    val[a] = tmp[a].second;
  }
}
}  // namespace

void finish_rows(csr& l) {
  std::vector<std::pair<int32_t, double>> tmp;
  int32_t* col = l.col.data();
  double* val = l.val.data();
  // Compaction writes at w <= the read position, so it can run in place.
  int64_t w = 0;
  int32_t begin = l.row_ptr[0];
  for (int32_t i = 0; i < l.n; ++i) {
    int32_t end = l.row_ptr[i + 1] - 1;  // the diagonal's slot
    sort_row(col + begin, val + begin, end - begin, tmp);
    for (int32_t k = begin; k < end; ++k) {
      if (k > begin && col[k] == col[w - 1]) {
        val[w - 1] += val[k];
      } else {
        col[w] = col[k];
        val[w] = val[k];
        ++w;
      }
    }
    col[w] = i;
    val[w] = 0;
    ++w;
    begin = l.row_ptr[i + 1];
    l.row_ptr[i + 1] = (int32_t)w;
  }
  l.col.resize((size_t)w);
  l.val.resize((size_t)w);
}

void set_diagonal(csr& l, diag_mode d) {
  if (d == diag_mode::given) return;
  for (int32_t i = 0; i < l.n; ++i) {
    int32_t diag = l.row_ptr[i + 1] - 1;
    double sum = 0;
    if (d == diag_mode::dominant)
      for (int32_t k = l.row_ptr[i]; k < diag; ++k) sum += std::fabs(l.val[k]);
    l.val[diag] = 1 + sum;
  }
}

}  // namespace spts
