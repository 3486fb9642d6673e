// Building L in CSR from unordered strictly-lower entries (the reader's, a generator's, a
// reordering's): count per row, scatter, then sort each row, sum duplicates and append the
// diagonal. Internal to the inputs library.
#pragma once
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "matrix.h"

namespace spts {

// Sorts each row's off-diagonals [row_ptr[i], row_ptr[i+1]-1) by column, sums duplicates and
// compacts the rows; the last slot of each row becomes the diagonal (column i, value 0).
void finish_rows(csr& l);

// each(fn) calls fn(row, col, value) for every strictly lower entry (n > row > col >= 0), in any
// order, duplicates allowed. It is called twice (count, then fill) and must give the same entries
// both times. Too many nonzeros for 32-bit indices -> input_error prefixed with `where`.
template <class Each>
csr lower_from_entries(int32_t n, Each&& each, const std::string& where) {
  csr l;
  l.n = n;
  l.row_ptr.assign((size_t)n + 1, 0);
  int32_t* rp = l.row_ptr.data();
  each([&](int32_t r, int32_t c, double) {
    if (r < 0 || r >= n || c < 0 || c >= r)
      throw std::logic_error("lower_from_entries: entry (" + std::to_string(r) + ", " +
                             std::to_string(c) + ") is not strictly lower in " + std::to_string(n) +
                             " rows");
    ++rp[r + 1];
  });
  // Row i's off-diagonals go to [start_i, start_i + count_i), its diagonal right after. rp[i+1]
  // becomes the END of row i's off-diagonals and the fill writes downwards from it, so after the
  // fill rp[i+1] is row i's start and one shift gives the CSR row pointers: no cursor array.
  int64_t total = 0;
  for (int32_t i = 0; i < n; ++i) {
    total += rp[i + 1];
    if (total + n > std::numeric_limits<int32_t>::max())
      throw input_error(where + ": L has more than 2^31-1 nonzeros (" + std::to_string(n) +
                        " rows), too many for 32-bit indices");
    rp[i + 1] = (int32_t)(total + i);
  }
  total += n;
  l.col.resize((size_t)total);
  l.val.resize((size_t)total);
  int32_t* col = l.col.data();
  double* val = l.val.data();
  each([&](int32_t r, int32_t c, double v) {
    int32_t k = --rp[r + 1];
    col[k] = c;
    val[k] = v;
  });
  for (int32_t i = 0; i < n; ++i) rp[i] = rp[i + 1];
  rp[n] = (int32_t)total;
  finish_rows(l);
  return l;
}

}  // namespace spts
