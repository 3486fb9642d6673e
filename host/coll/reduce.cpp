// Reductions: reduce-scatter by gets, then allgather by puts.
//
// The nreduce elements are cut into one chunk per member. After a first sync (every source is
// ready), member j gets chunk j of every member's source, folds them in member order and puts the
// result into chunk j of every member's dest; a second sync ends it. Each PE moves about 2 * nreduce
// elements whatever the group size, and every PE gets bit-identical results (one member computes
// each chunk, in one fixed order). In place (dest == source) is safe: member j writes chunk j only
// after it has read chunk j everywhere, and no other member reads chunk j.
#include <vector>

#include "host/coll/coll.h"
#include "host/runtime.h"

namespace gio {

void coll_reduce(runtime& r, const group& g, void* dest, const void* source, size_t nreduce, size_t elem,
                 combine_fn combine) {
  const int n = g.size();
  group_sync(r, g);
  const size_t lo = nreduce * (size_t)g.me / n, hi = nreduce * (size_t)(g.me + 1) / n;
  const size_t bytes = (hi - lo) * elem;
  if (bytes) {
    std::vector<uint8_t> acc(bytes), in(bytes);
    const uint8_t* src = (const uint8_t*)source + lo * elem;
    get_from(r, g, 0, acc.data(), src, bytes);
    for (int i = 1; i < n; ++i) {
      get_from(r, g, i, in.data(), src, bytes);
      combine(acc.data(), in.data(), hi - lo);
    }
    for (int k = 1; k <= n; ++k) put_to(r, g, (g.me + k) % n, (uint8_t*)dest + lo * elem, acc.data(), bytes);
  }
  group_sync(r, g);
}

// Scans: after a sync (every source is ready), each member gets the sources of the members before
// it (and its own, inclusive) and folds them in member order, so a result has the same bits as the
// reduction of those members would; a second sync (every member has read every source it needs)
// comes before any dest is written, so dest == source is safe.
void coll_scan(runtime& r, const group& g, void* dest, const void* source, size_t nelems, size_t elem,
               combine_fn combine, bool inclusive) {
  group_sync(r, g);
  const size_t bytes = nelems * elem;
  std::vector<uint8_t> acc(bytes, 0), in(bytes);
  const int last = inclusive ? g.me : g.me - 1;
  if (bytes && last >= 0) {
    get_from(r, g, 0, acc.data(), source, bytes);
    for (int i = 1; i <= last; ++i) {
      get_from(r, g, i, in.data(), source, bytes);
      combine(acc.data(), in.data(), nelems);
    }
  }
  group_sync(r, g);
  if (bytes) put_to(r, g, g.me, dest, acc.data(), bytes);
}

}  // namespace gio
