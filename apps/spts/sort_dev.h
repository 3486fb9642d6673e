// Prefix sums and the stable sort of the rows by level on the device (sort_dev.cpp), for the
// analysis (analysis_dev.h) and the permuted copy (renumber_dev.h). Work-groups of `block`
// threads, at most kMaxBlock (syncfree.h).
#pragma once
#include <cstdint>

namespace spts {

// In-place exclusive prefix sum of v[0..m) on the device (m < 2^31, the sum too): tiles summed,
// the tile sums scanned (recursively), each tile scanned with its offset. scratch:
// scan_scratch_words(m, block) words for the tile sums, or null (then allocated and freed here).
void scan_exclusive_dev(int32_t* v, int64_t m, int block, int32_t* scratch = nullptr);
int64_t scan_scratch_words(int64_t m, int block);

// (level, row) sorted by level, stably (ascending row within a level): the level order.
struct sorted_by_level {
  const int32_t* key;  // n levels, ascending (lev itself where there is a single level)
  const int32_t* row;  // the rows in that order
  int spare;           // key_buf[spare] and row_buf[spare] are not part of the result
};
// lev: each row's level, top the largest. key_buf and row_buf: two pairs of n words; scratch:
// sort_scratch_words(n, block) words. grid: work-groups of the grid-stride kernels.
sorted_by_level sort_by_level_dev(const int32_t* lev, int32_t n, int32_t top, int block, int grid,
                                  int32_t* const key_buf[2], int32_t* const row_buf[2], int32_t* scratch);
int64_t sort_scratch_words(int32_t n, int block);

}  // namespace spts
