// Symmetric reordering: a seeded random permutation P applied as P A P^T, of which L is the lower
// triangle. A random order cuts a mesh's long dependency chains (grid2d: 2R-1 levels) to a few
// dozen levels.
#include "ordering.h"

#include <algorithm>
#include <numeric>

#include "lower.h"
#include "matrix.h"
#include "prng.h"

namespace spts {

std::vector<int32_t> random_permutation(int32_t n, uint64_t seed) {
  std::vector<int32_t> p((size_t)std::max<int32_t>(n, 0));
  std::iota(p.begin(), p.end(), 0);
  splitmix64 rng(mix64(seed ^ 0x6f72646572ull));  // a stream apart from the generators' ("order")
  for (int32_t i = n - 1; i > 0; --i) std::swap(p[i], p[rng.below((uint64_t)i + 1)]);
  return p;
}

csr reorder(const csr& l, order o, uint64_t seed) {
  if (o == order::natural) return l;
  std::vector<int32_t> p = random_permutation(l.n, seed);
  // Entry (i, j) of L stands for both (i, j) and (j, i) of the symmetric completion; after the
  // permutation the lower triangle keeps the one whose row is the larger new index.
  csr r = lower_from_entries(
      l.n,
      [&](auto&& fn) {
        for (int32_t i = 0; i < l.n; ++i) {
          int32_t pi = p[i];
          for (int32_t k = l.row_ptr[i]; k < l.row_ptr[i + 1] - 1; ++k) {
            int32_t pj = p[l.col[k]];
            if (pi > pj) fn(pi, pj, l.val[k]);
            else fn(pj, pi, l.val[k]);
          }
        }
      },
      "reorder");
  for (int32_t i = 0; i < l.n; ++i) r.val[r.row_ptr[p[i] + 1] - 1] = l.val[l.row_ptr[i + 1] - 1];
  return r;
}

}  // namespace spts
