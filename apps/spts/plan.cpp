// The exchange plan from the whole L: O(nnz) on every PE.
#include "plan.h"

#include <algorithm>

namespace spts {

std::vector<uint32_t> component_masks(const csr& l, const std::vector<int32_t>& bounds) {
  const int npes = (int)bounds.size() - 1;
  std::vector<uint32_t> mask((size_t)l.n, 0);
  for (int q = 0; q < npes; ++q)
    for (int32_t i = bounds[q]; i < bounds[q + 1]; ++i)
      for (int32_t k = l.row_ptr[i]; k < l.row_ptr[i + 1] - 1; ++k)
        if (l.col[k] < bounds[q] || l.col[k] >= bounds[q + 1]) mask[l.col[k]] |= 1u << q;  // another PE's row
  return mask;
}

exchange_plan make_exchange_plan(const csr& l, const std::vector<int32_t>& bounds, int me) {
  const int npes = (int)bounds.size() - 1;
  // Over all rows, not only ours: the queue layout needs every PE's counts.
  const std::vector<uint32_t> mask = component_masks(l, bounds);
  // cnt[p * npes + q]: components of p that q needs.
  std::vector<int64_t> cnt((size_t)npes * npes, 0);
  for (int p = 0; p < npes; ++p)
    for (int32_t j = bounds[p]; j < bounds[p + 1]; ++j)
      for (uint32_t m = mask[j]; m; m &= m - 1) ++cnt[(size_t)p * npes + __builtin_ctz(m)];

  exchange_plan x;
  x.send_mask.assign(mask.begin() + bounds[me], mask.begin() + bounds[me + 1]);
  x.recv_off.assign(npes, 0);
  x.recv_cnt.assign(npes, 0);
  x.send_off.assign(npes, 0);
  for (int q = 0; q < npes; ++q) {
    int64_t off = 0;
    for (int p = 0; p < npes; ++p) {
      if (q == me) {
        x.recv_off[p] = off;
        x.recv_cnt[p] = cnt[(size_t)p * npes + q];
      }
      if (p == me) x.send_off[q] = off;
      off += cnt[(size_t)p * npes + q];
    }
    x.area = std::max(x.area, off);
    x.sends += cnt[(size_t)me * npes + q];
  }
  return x;
}

}  // namespace spts
