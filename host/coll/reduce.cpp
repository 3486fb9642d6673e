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

}  // namespace gio
