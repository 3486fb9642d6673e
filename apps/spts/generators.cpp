// generate: a generator's graph, optionally in random order, to L with seeded off-diagonals in
// [-1, -0.1] and the diagonal per diag_mode. The grids and the band are enumerated on the fly,
// road and rmat from their own state (road.cpp, rmat_edges below).
#include <algorithm>

#include "gen.h"
#include "lower.h"
#include "matrix.h"
#include "ordering.h"
#include "prng.h"

namespace spts {

namespace {

// each(fn) calls fn(u, v) once per undirected edge (u != v, original numbering). The value of an
// edge depends only on its original ends, so the random order permutes the same matrix.
template <class EachEdge>
csr build(const gen_params& p, const std::string& where, EachEdge&& each, order o, diag_mode d) {
  std::vector<int32_t> perm;
  if (o == order::random) perm = random_permutation(p.rows, p.seed);
  const bool permute = !perm.empty();
  csr l = lower_from_entries(
      p.rows,
      [&](auto&& fn) {
        each([&](int32_t u, int32_t v) {
          double val = edge_value(p.seed, u, v);
          if (permute) u = perm[u], v = perm[v];
          if (u > v) fn(u, v, val);
          else fn(v, u, val);
        });
      },
      where);
  set_diagonal(l, d);
  return l;
}

}  // namespace

std::vector<uint64_t> rmat_edges(int scale, double deg, uint64_t seed) {
  const int64_t n = int64_t(1) << scale;
  const int64_t draws = (int64_t)((double)n * deg / 2 + 0.5);
  // Quadrant thresholds in 32-bit fixed point; one 64-bit draw picks two levels' quadrants.
  const uint32_t ta = (uint32_t)(0.57 * 4294967296.0), tb = (uint32_t)(0.76 * 4294967296.0),
                 tc = (uint32_t)(0.95 * 4294967296.0);
  splitmix64 rng(mix64(seed ^ 0x726d6174ull));  // "rmat"
  std::vector<uint64_t> keys;
  keys.reserve((size_t)draws);
  for (int64_t e = 0; e < draws; ++e) {
    uint64_t u = 0, v = 0, r = 0;
    for (int lv = 0; lv < scale; ++lv) {
      if (lv % 2 == 0) r = rng.next();
      uint32_t q = (uint32_t)(lv % 2 == 0 ? r : r >> 32);
      u = u << 1 | (q >= tb);                 // c, d: lower half
      v = v << 1 | ((q >= ta && q < tb) || q >= tc);  // b, d: right half
    }
    if (u == v) continue;
    keys.push_back(u < v ? u << 32 | v : v << 32 | u);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  keys.shrink_to_fit();
  return keys;
}

csr generate(const gen_spec& g, order o, diag_mode d) {
  const gen_params p = resolve(g);
  if (d == diag_mode::given)
    throw input_error("generator " + g.kind +
                      ": diag_mode given needs a file's diagonal; use unit or dominant");
  const std::string where = "generator " + g.kind;
  const int32_t R = (int32_t)p.size;
  switch (p.kind) {
    case gen_kind::grid2d:
      return build(p, where, [&](auto&& fn) {
        for (int32_t y = 0; y < R; ++y)
          for (int32_t x = 0; x < R; ++x) {
            int32_t v = y * R + x;
            if (x + 1 < R) fn(v, v + 1);
            if (y + 1 < R) fn(v, v + R);
          }
      }, o, d);
    case gen_kind::grid3d:
      return build(p, where, [&](auto&& fn) {
        for (int32_t z = 0; z < R; ++z)
          for (int32_t y = 0; y < R; ++y)
            for (int32_t x = 0; x < R; ++x) {
              int32_t v = (z * R + y) * R + x;
              if (x + 1 < R) fn(v, v + 1);
              if (y + 1 < R) fn(v, v + R);
              if (z + 1 < R) fn(v, v + R * R);
            }
      }, o, d);
    case gen_kind::banded:
      return build(p, where, [&](auto&& fn) {
        for (int32_t i = 1; i < p.rows; ++i)
          for (int64_t k = 1; k <= p.band && k <= i; ++k) fn(i, i - (int32_t)k);
      }, o, d);
    case gen_kind::road: {
      road_graph road(p.rows, p.deg, p.seed);
      return build(p, where, [&](auto&& fn) { road.each_edge(fn); }, o, d);
    }
    case gen_kind::rmat: {
      std::vector<uint64_t> keys = rmat_edges((int)p.size, p.deg, p.seed);
      return build(p, where, [&](auto&& fn) {
        for (uint64_t k : keys) fn((int32_t)(k >> 32), (int32_t)(k & 0xffffffffu));
      }, o, d);
    }
  }
  throw input_error(where + ": unknown kind");
}

}  // namespace spts
