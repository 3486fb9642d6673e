// A generator spec checked and turned into numbers, and the generators' graphs. Internal to the
// inputs library (generators.cpp, gen_spec.cpp, road.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "matrix.h"

namespace spts {

enum class gen_kind { grid2d, grid3d, road, rmat, banded };

struct gen_params {
  gen_kind kind = gen_kind::grid2d;
  int64_t size = 0;  // grid2d, grid3d: R; road, banded: rows; rmat: scale
  double deg = 0;    // road, rmat: mean degree asked for
  int64_t band = 0;  // banded
  uint64_t seed = 1;
  int32_t rows = 0;  // vertices of the graph
};

// Checks kind, keys and values (input_error naming the kind, key and value) and fills in the
// defaults and the `rows` alias.
gen_params resolve(const gen_spec& g);

// The road graph: points uniform in the unit square on a 2^31 x 2^31 integer lattice (exact,
// platform-independent distances), numbered in row-major order of square buckets at least the
// radius wide, so natural order has locality; an edge joins points closer than the radius.
class road_graph {
 public:
  road_graph(int32_t n, double deg, uint64_t seed);
  int32_t rows() const { return n_; }
  // fn(a, b) once per edge; the neighbour search runs again on each call.
  template <class Fn>
  void each_edge(Fn&& fn) const;

 private:
  int32_t n_;
  double r_;
  uint64_t r2_;  // squared radius in lattice units
  int32_t g_;    // buckets per side
  std::vector<uint32_t> x_, y_;
  std::vector<int32_t> start_;  // g*g + 1: bucket b holds points [start_[b], start_[b+1])
};

template <class Fn>
void road_graph::each_edge(Fn&& fn) const {
  auto close = [&](int32_t a, int32_t b) {
    int64_t dx = (int64_t)x_[a] - x_[b], dy = (int64_t)y_[a] - y_[b];
    return (uint64_t)(dx * dx) + (uint64_t)(dy * dy) < r2_;
  };
  // Each pair once: within the bucket, then the four buckets after it in a raster scan's sense.
  static const int dxs[4] = {1, -1, 0, 1}, dys[4] = {0, 1, 1, 1};
  for (int32_t cy = 0; cy < g_; ++cy) {
    for (int32_t cx = 0; cx < g_; ++cx) {
      int64_t c = (int64_t)cy * g_ + cx;
      for (int32_t a = start_[c]; a < start_[c + 1]; ++a) {
        for (int32_t b = a + 1; b < start_[c + 1]; ++b)
          if (close(a, b)) fn(a, b);
        for (int k = 0; k < 4; ++k) {
          int32_t nx = cx + dxs[k], ny = cy + dys[k];
          if (nx < 0 || nx >= g_ || ny >= g_) continue;
          int64_t d = (int64_t)ny * g_ + nx;
          for (int32_t b = start_[d]; b < start_[d + 1]; ++b)
            if (close(a, b)) fn(a, b);
        }
      }
    }
  }
}

// RMAT edges (a, b, c, d) = (.57, .19, .19, .05) on 2^scale vertices: round(2^scale * deg / 2)
// draws, self-loops dropped, duplicates removed; each as (min << 32 | max), ascending.
std::vector<uint64_t> rmat_edges(int scale, double deg, uint64_t seed);

}  // namespace spts
