// Test helpers for the inputs' tests: the CSR invariants of matrix.h and a dense copy.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "matrix.h"

namespace spts {

// row_ptr from 0 to nnz, every row non-empty, off-diagonal columns strictly ascending and below
// the row, the diagonal last.
inline ::testing::AssertionResult csr_ok(const csr& l) {
  auto bad = [](const std::string& s) { return ::testing::AssertionFailure() << s; };
  if (l.n < 0 || l.row_ptr.size() != (size_t)l.n + 1) return bad("row_ptr size");
  if (l.row_ptr[0] != 0) return bad("row_ptr[0] != 0");
  if (l.col.size() != (size_t)l.nnz() || l.val.size() != (size_t)l.nnz()) return bad("nnz size");
  for (int32_t i = 0; i < l.n; ++i) {
    int32_t b = l.row_ptr[i], e = l.row_ptr[i + 1];
    if (e <= b) return bad("row " + std::to_string(i) + " has no diagonal slot");
    if (l.col[e - 1] != i) return bad("row " + std::to_string(i) + ": diagonal not last");
    for (int32_t k = b; k < e - 1; ++k) {
      if (l.col[k] < 0 || l.col[k] >= i)
        return bad("row " + std::to_string(i) + ": column " + std::to_string(l.col[k]));
      if (k > b && l.col[k] <= l.col[k - 1])
        return bad("row " + std::to_string(i) + ": columns not strictly ascending");
    }
  }
  return ::testing::AssertionSuccess();
}

inline std::vector<std::vector<double>> dense(const csr& l) {
  std::vector<std::vector<double>> a(l.n, std::vector<double>(l.n, 0.0));
  for (int32_t i = 0; i < l.n; ++i)
    for (int32_t k = l.row_ptr[i]; k < l.row_ptr[i + 1]; ++k) a[i][l.col[k]] += l.val[k];
  return a;
}

}  // namespace spts
