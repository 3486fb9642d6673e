// The level-ordered renumbering of the sync-free solve: a symmetric permutation P L P^T that puts
// each PE's rows in one contiguous block and, inside it, sorts them by level (ascending original
// index within a level). Every level is split over the PEs in contiguous parts, so every PE has
// work at every level that has at least as many rows as there are PEs; narrower levels go whole
// to one PE, runs of them to each PE in turn (renumber.cpp).
// At one PE the result is lower triangular (a row's dependencies are on lower levels). At several
// it is not, but each PE's own dependencies still come before it in its block, which is what the
// kernels' progress argument needs; dependencies on other PEs arrive from their kernels.
// Plain host C++ (inputs library): every PE computes the same renumbering from the whole L.
#pragma once
#include <cstdint>
#include <vector>

#include "matrix.h"

namespace spts {

struct renumbering {
  csr l;                          // the renumbered L: off-diagonals ascending, the diagonal last
  std::vector<int32_t> bounds;    // npes + 1 boundaries of the PEs' blocks in the new numbering
  std::vector<int32_t> old_of;    // new index -> original row
  int32_t levels = 0;
};

// threads: host threads for the permuted copy (0: std::thread::hardware_concurrency, at most 16).
renumbering renumber_by_level(const csr& l, int npes, int threads = 0);

// The one-PE renumbering without the copy (the device makes it, renumber_dev.h): (*new_of)[old] is
// the row's new index (by level, ascending original index within a level). Three sequential passes
// over L. Returns the number of levels.
int32_t level_order(const csr& l, std::vector<int32_t>* new_of);

}  // namespace spts
