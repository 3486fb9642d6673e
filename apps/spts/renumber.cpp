// renumber_by_level: levels (one pass in row order), a counting sort by level, the split of every
// level over the PEs, and the permuted copy of L (rows in parallel over host threads);
// renumber_in_blocks: the same sort inside each PE's block of L's rows.
#include "renumber.h"

#include <algorithm>
#include <thread>

namespace spts {

namespace {
// level[i] = 1 + the largest level of row i's off-diagonal columns; L is lower triangular, so a
// row's dependencies are final when the row is reached. Returns the number of levels.
int32_t row_levels(const csr& l, std::vector<int32_t>* level) {
  level->assign((size_t)l.n, 0);
  int32_t top = -1;
  for (int32_t i = 0; i < l.n; ++i) {
    int32_t lv = 0;
    for (int32_t k = l.row_ptr[i]; k < l.row_ptr[i + 1] - 1; ++k) lv = std::max(lv, (*level)[l.col[k]] + 1);
    (*level)[i] = lv;
    top = std::max(top, lv);
  }
  return top + 1;
}
}  // namespace

tiling tile_order(const csr& l, int32_t width, int32_t depth) {
  if (width < 1 || depth < 1)
    throw input_error("tile_order: width and depth must be at least 1 (got " + std::to_string(width) + ", " +
                      std::to_string(depth) + ")");
  const int32_t n = l.n;
  tiling t;
  std::vector<int32_t> lo;  // level-order index
  t.levels = level_order(l, &lo);
  const int32_t nlev = t.levels;
  std::vector<int32_t> by_lo((size_t)n), level((size_t)n), start((size_t)nlev + 1, 0);
  for (int32_t i = 0; i < n; ++i) by_lo[lo[i]] = i;
  // Levels again (level_order's are gone): in level order they ascend, so a level starts where the
  // row's level differs from the one before.
  {
    int32_t v = 0;
    for (int32_t k = 0; k < n; ++k) {
      const int32_t i = by_lo[k];
      int32_t lv = 0;
      for (int32_t e = l.row_ptr[i]; e < l.row_ptr[i + 1] - 1; ++e) lv = std::max(lv, level[l.col[e]] + 1);
      level[i] = lv;
      while (v < lv) start[++v] = k;
    }
    while (v < nlev) start[++v] = n;
  }
  const auto pos = [&](int32_t i) { return lo[i] - start[level[i]]; };
  const int64_t nb = (nlev + (int64_t)depth - 1) / depth;
  t.bands = nb;
  std::vector<char> asc((size_t)nb, 1), desc((size_t)nb, 1);
  for (int32_t i = 0; i < n; ++i) {
    const int32_t b = level[i] / depth, j = pos(i) / width;
    for (int32_t e = l.row_ptr[i]; e < l.row_ptr[i + 1] - 1; ++e) {
      const int32_t c = l.col[e];
      if (level[c] / depth != b) continue;
      const int32_t jc = pos(c) / width;
      if (jc > j) asc[b] = 0;
      if (jc < j) desc[b] = 0;
    }
  }
  t.new_of.assign((size_t)n, -1);
  std::vector<int32_t> ends;  // one past each group (a tile, a one-level piece), in order
  int32_t next = 0;
  for (int64_t b = 0; b < nb; ++b) {
    const int32_t l0 = (int32_t)(b * depth), l1 = (int32_t)std::min<int64_t>(nlev, (b + 1) * depth);
    if (asc[b] || desc[b]) {
      ++t.tiled_bands;
      int32_t wmax = 0;
      for (int32_t v = l0; v < l1; ++v) wmax = std::max(wmax, start[v + 1] - start[v]);
      const int32_t tiles = (wmax + width - 1) / width;
      for (int32_t q = 0; q < tiles; ++q) {
        const int32_t j = asc[b] ? q : tiles - 1 - q;
        for (int32_t v = l0; v < l1; ++v)
          for (int32_t p = j * width; p < std::min((j + 1) * width, start[v + 1] - start[v]); ++p)
            t.new_of[by_lo[start[v] + p]] = next++;
        if (ends.empty() ? next > 0 : next != ends.back()) ends.push_back(next);
      }
    } else {
      const int32_t rows = width * depth;
      for (int32_t v = l0; v < l1; ++v)
        for (int32_t p = 0; p < start[v + 1] - start[v]; p += rows) {
          for (int32_t q = p; q < std::min(p + rows, start[v + 1] - start[v]); ++q)
            t.new_of[by_lo[start[v] + q]] = next++;
          ends.push_back(next);
        }
    }
  }
  // Consecutive groups share a chunk while they fit (narrow levels, a chain): still every
  // dependency earlier in the chunk or in an earlier one.
  const int32_t cap = width * depth;
  t.chunk_start.push_back(0);
  int32_t prev = 0;
  for (int32_t e : ends) {
    if (e - t.chunk_start.back() > cap) t.chunk_start.push_back(prev);
    prev = e;
  }
  if (t.chunk_start.back() != n) t.chunk_start.push_back(n);
  return t;
}

int32_t level_order(const csr& l, std::vector<int32_t>* new_of) {
  const int32_t n = l.n;
  std::vector<int32_t>& level = *new_of;  // the levels first, then overwritten by the new index
  const int32_t top = row_levels(l, &level) - 1;
  std::vector<int32_t> at((size_t)top + 2, 0);
  for (int32_t i = 0; i < n; ++i) ++at[level[i] + 1];
  for (int32_t v = 0; v <= top; ++v) at[v + 1] += at[v];
  for (int32_t i = 0; i < n; ++i) level[i] = at[level[i]]++;
  return top + 1;
}

namespace {
// The permuted copy: row nw is old row r->old_of[nw], its columns mapped through new_of and sorted,
// the diagonal last (rows in parallel over host threads).
void permuted_copy(const csr& l, const std::vector<int32_t>& new_of, int threads, renumbering* r) {
  const int32_t n = l.n;
  csr& o = r->l;
  o.n = n;
  o.row_ptr.assign((size_t)n + 1, 0);
  for (int32_t nw = 0; nw < n; ++nw) {
    const int32_t old = r->old_of[nw];
    o.row_ptr[nw + 1] = o.row_ptr[nw] + (l.row_ptr[old + 1] - l.row_ptr[old]);
  }
  o.col.resize((size_t)l.nnz());
  o.val.resize((size_t)l.nnz());
  if (threads <= 0) threads = (int)std::min(16u, std::max(1u, std::thread::hardware_concurrency()));
  const auto copy_rows = [&](int32_t lo, int32_t hi) {
    for (int32_t nw = lo; nw < hi; ++nw) {
      const int32_t old = r->old_of[nw];
      const int32_t s = l.row_ptr[old], e = l.row_ptr[old + 1] - 1;  // e: the diagonal
      int32_t* c = &o.col[o.row_ptr[nw]];
      double* v = &o.val[o.row_ptr[nw]];
      const int32_t m = e - s;
      if (m > 32) {  // a long row (power law): sort (column, value) pairs
        std::vector<std::pair<int32_t, double>> pairs((size_t)m);
        for (int32_t k = 0; k < m; ++k) pairs[k] = {new_of[l.col[s + k]], l.val[s + k]};
        std::sort(pairs.begin(), pairs.end());
        for (int32_t k = 0; k < m; ++k) c[k] = pairs[k].first, v[k] = pairs[k].second;
      }
      for (int32_t k = 0; k < (m > 32 ? 0 : m); ++k) {  // insertion sort: rows are short
        const int32_t cc = new_of[l.col[s + k]];
        const double vv = l.val[s + k];
        int32_t j = k;
        for (; j > 0 && c[j - 1] > cc; --j) c[j] = c[j - 1], v[j] = v[j - 1];
        c[j] = cc;
        v[j] = vv;
      }
      c[m] = nw;
      v[m] = l.val[e];
    }
  };
  if (threads == 1 || n < (1 << 16)) {
    copy_rows(0, n);
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back(copy_rows, (int32_t)((int64_t)n * t / threads), (int32_t)((int64_t)n * (t + 1) / threads));
    for (auto& th : pool) th.join();
  }
}
}  // namespace

renumbering renumber_by_level(const csr& l, int npes, int threads) {
  if (npes < 1) throw input_error("renumber_by_level: npes must be at least 1 (got " + std::to_string(npes) + ")");
  const int32_t n = l.n;
  renumbering r;
  std::vector<int32_t> level;
  const int32_t nlev = row_levels(l, &level);
  r.levels = nlev;
  // Rows by level, ascending original index within a level (a stable counting sort).
  std::vector<int32_t> start((size_t)nlev + 1, 0);
  for (int32_t i = 0; i < n; ++i) ++start[level[i] + 1];
  for (int32_t v = 0; v < nlev; ++v) start[v + 1] += start[v];
  std::vector<int32_t> by_level((size_t)n);
  {
    std::vector<int32_t> at(start.begin(), start.end() - 1);
    for (int32_t i = 0; i < n; ++i) by_level[at[level[i]]++] = i;
  }
  // PE q takes positions [w q / P, w (q + 1) / P) of a level of w >= P rows. Levels narrower than
  // P go whole to one PE, in runs: the k-th of N narrow levels to PE k P / N, so a chain (banded,
  // a grid's corners) crosses PEs P - 1 times and its rows are shared evenly.
  int64_t narrow = 0;
  for (int32_t v = 0; v < nlev; ++v) narrow += start[v + 1] - start[v] < npes;
  int64_t narrow_seen = 0;
  std::vector<int32_t> narrow_pe((size_t)nlev, -1);
  for (int32_t v = 0; v < nlev; ++v)
    if (start[v + 1] - start[v] < npes) narrow_pe[v] = (int32_t)(narrow_seen++ * npes / narrow);
  const auto part = [&](int32_t v, int q) -> int32_t {  // the first position of PE q in level v
    const int64_t w = start[v + 1] - start[v];
    if (narrow_pe[v] >= 0) return q <= narrow_pe[v] ? 0 : (int32_t)w;
    return (int32_t)(w * q / npes);
  };
  r.bounds.assign((size_t)npes + 1, 0);
  for (int32_t v = 0; v < nlev; ++v)
    for (int q = 0; q < npes; ++q) r.bounds[q + 1] += part(v, q + 1) - part(v, q);
  for (int q = 0; q < npes; ++q) r.bounds[q + 1] += r.bounds[q];
  std::vector<int32_t> new_of((size_t)n);
  r.old_of.resize((size_t)n);
  {
    std::vector<int32_t> next(r.bounds.begin(), r.bounds.end() - 1);
    for (int32_t v = 0; v < nlev; ++v) {
      for (int q = 0; q < npes; ++q)
        for (int32_t pos = part(v, q); pos < part(v, q + 1); ++pos) {
          const int32_t old = by_level[start[v] + pos], nw = next[q]++;
          new_of[old] = nw;
          r.old_of[nw] = old;
        }
    }
  }
  std::vector<int32_t>().swap(level);
  std::vector<int32_t>().swap(by_level);
  permuted_copy(l, new_of, threads, &r);
  return r;
}

renumbering renumber_in_blocks(const csr& l, const std::vector<int32_t>& blocks, int threads) {
  const int32_t n = l.n;
  const int npes = (int)blocks.size() - 1;
  bool ok = npes >= 1 && blocks.front() == 0 && blocks.back() == n;
  for (int q = 0; ok && q < npes; ++q) ok = blocks[q] <= blocks[q + 1];
  if (!ok)
    throw input_error("renumber_in_blocks: the blocks must run from 0 to " + std::to_string(n) +
                      " without going back (" + std::to_string(blocks.size()) + " boundaries)");
  renumbering r;
  std::vector<int32_t> level;
  r.levels = row_levels(l, &level);
  r.bounds = blocks;
  // A stable counting sort by level inside each block.
  std::vector<int32_t> new_of((size_t)n);
  r.old_of.resize((size_t)n);
  std::vector<int32_t> at((size_t)r.levels + 1);
  for (int q = 0; q < npes; ++q) {
    std::fill(at.begin(), at.end(), 0);
    for (int32_t i = blocks[q]; i < blocks[q + 1]; ++i) ++at[level[i] + 1];
    at[0] = blocks[q];
    for (int32_t v = 0; v < r.levels; ++v) at[v + 1] += at[v];
    for (int32_t i = blocks[q]; i < blocks[q + 1]; ++i) {
      const int32_t nw = at[level[i]]++;
      new_of[i] = nw;
      r.old_of[nw] = i;
    }
  }
  std::vector<int32_t>().swap(level);
  permuted_copy(l, new_of, threads, &r);
  return r;
}

}  // namespace spts
