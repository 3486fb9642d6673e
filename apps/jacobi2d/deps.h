// Which work-groups of the persistent kernel must wait for which (its neighbour synchronization).
//
// In one iteration a unit (one row of one segment) reads the units above and below it in its
// segment and, through its edge columns, the same row of the segments left and right. So before
// iteration k a work-group needs only the work-groups owning those units to have finished k-1:
// they wrote what it reads (buffer k%2), and they have read what it is about to overwrite
// (buffer (k+1)%2, which they read at k-1). The relation is symmetric, so the same list covers
// both. No work-group can then be more than one iteration ahead of a neighbour, which is all the
// double buffering needs; work-groups far apart drift freely, where a grid barrier made all of
// them wait for the slowest every iteration.
#pragma once
#include <vector>

#include "domain.h"

namespace jacobi {

// The lists, per work-group b: deps[offsets[b] .. offsets[b+1]) (itself excluded, each once).
struct wg_deps_host {
  std::vector<int> offsets;
  std::vector<int> deps;
};

// For a launch of `wgs` work-groups over plan `p` (sweep() with interior_range's shares).
wg_deps_host build_deps(const sweep_plan& p, int wgs);

// Calls f(segment, local row) for each unit work-group b computes, in the order sweep() does:
// its boundary units (dealt round-robin), then its interior range.
template <typename F>
void for_each_unit(const sweep_plan& p, int wgs, int b, F f) {
  const int nb = (int)boundary_units(p), rows = p.chunk - 2;
  for (int j = b; j < nb; j += wgs) f(j % p.nseg, p.chunk == 1 || j < p.nseg ? 1 : p.chunk);
  int i, e;
  interior_range(p, wgs, b, &i, &e);
  for (int u = i; u < e; ++u) f(u / rows, 2 + u % rows);
}

}  // namespace jacobi
