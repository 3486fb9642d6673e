// The persistent kernel's neighbour lists (deps.h), from the same unit shares sweep() walks.
#include "deps.h"

namespace jacobi {

namespace {

// Units by (segment, local row); rows 0 and chunk+1 are halos (no unit: the signals order them).
struct unit_map {
  const sweep_plan& p;
  int wgs;
  std::vector<int> interior_owner;  // [seg * (chunk-2) + row-2]

  unit_map(const sweep_plan& plan, int g) : p(plan), wgs(g) {
    interior_owner.assign((size_t)interior_units(p), -1);
    for (int b = 0; b < wgs; ++b) {
      int i, e;
      interior_range(p, wgs, b, &i, &e);
      for (int u = i; u < e; ++u) interior_owner[(size_t)u] = b;
    }
  }
  // Owner of row r of segment s; -1 for a halo row or a segment off the row's end.
  int owner(int s, int r) const {
    if (s < 0 || s >= p.nseg || r < 1 || r > p.chunk) return -1;
    if (r == 1) return s % wgs;                                          // boundary unit s
    if (r == p.chunk) return (p.chunk == 1 ? s : p.nseg + s) % wgs;     // (chunk 1: rows 1 and chunk are one)
    return interior_owner[(size_t)s * (p.chunk - 2) + (r - 2)];
  }
};

}  // namespace

wg_deps_host build_deps(const sweep_plan& p, int wgs) {
  const unit_map m(p, wgs);
  wg_deps_host d;
  d.offsets.push_back(0);
  std::vector<int> seen((size_t)wgs, -1);
  for (int b = 0; b < wgs; ++b) {
    auto add_reads_of = [&](int s, int r) {
      const int nbrs[4][2] = {{s, r - 1}, {s, r + 1}, {s - 1, r}, {s + 1, r}};
      for (const auto& n : nbrs) {
        const int o = m.owner(n[0], n[1]);
        if (o >= 0 && o != b && seen[(size_t)o] != b) {
          seen[(size_t)o] = b;
          d.deps.push_back(o);
        }
      }
    };
    for_each_unit(p, wgs, b, add_reads_of);
    d.offsets.push_back((int)d.deps.size());
  }
  return d;
}

}  // namespace jacobi
