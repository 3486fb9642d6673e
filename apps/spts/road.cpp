// The road generator's points: a 2D random geometric graph in the unit square, the radius set so
// that the expected mean degree, boundary included, is the one asked for.
#include <algorithm>
#include <cmath>

#include "gen.h"
#include "prng.h"

namespace spts {

namespace {

// The radius r at which a point's expected number of neighbours among n-1 others uniform in the
// unit square is deg: E[area of the r-disc inside the square] = pi r^2 - 8/3 r^3 + r^4 / 2 for
// r <= 1 (the edges and corners cut off), increasing on [0, 1]. Beyond what r = 1 reaches, every
// pair is joined (r = sqrt 2).
double road_radius(int32_t n, double deg) {
  const double pi = 3.14159265358979323846;
  auto area = [&](double r) { return pi * r * r - 8.0 / 3.0 * r * r * r + r * r * r * r / 2; };
  if (n <= 1) return 0;
  double target = deg / (n - 1);
  if (target >= area(1.0)) return std::sqrt(2.0);
  double lo = 0, hi = 1;
  for (int it = 0; it < 100; ++it) {
    double mid = (lo + hi) / 2;
    (area(mid) < target ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace

road_graph::road_graph(int32_t n, double deg, uint64_t seed) : n_(n), r_(road_radius(n, deg)) {
  const double unit = 2147483648.0;  // 2^31 lattice points per side
  double rr = std::floor(std::min(r_, std::sqrt(2.0)) * unit);
  r2_ = (uint64_t)rr * (uint64_t)rr;
  // Buckets at least r wide, so every neighbour is in the same or an adjacent bucket; no more
  // than about 2n of them, so a small radius does not cost memory.
  double per_side = r_ > 0 ? std::floor(1.0 / r_) : 1.0;
  per_side = std::min(per_side, std::floor(std::sqrt(2.0 * n)));
  g_ = (int32_t)std::max(1.0, std::min(per_side, 46340.0));
  const uint64_t g = (uint64_t)g_;
  auto bucket = [&](uint32_t x, uint32_t y) {
    return (int64_t)((y * g) >> 31) * g_ + (int64_t)((x * g) >> 31);
  };

  // Two passes over the same random stream, counting then placing, so the points are stored only
  // in their final (bucket) order. The placing pass writes each bucket downwards from its end,
  // which leaves start_[b+1] at bucket b's beginning; one shift then gives the starts.
  start_.assign((size_t)g * g + 1, 0);
  x_.resize((size_t)n);
  y_.resize((size_t)n);
  const uint64_t stream = mix64(seed ^ 0x726f6164ull);  // "road"
  splitmix64 rng(stream);
  for (int32_t i = 0; i < n; ++i) {
    uint32_t x = (uint32_t)(rng.next() >> 33), y = (uint32_t)(rng.next() >> 33);
    ++start_[bucket(x, y) + 1];
  }
  for (size_t b = 1; b < start_.size(); ++b) start_[b] += start_[b - 1];
  rng = splitmix64(stream);
  for (int32_t i = 0; i < n; ++i) {
    uint32_t x = (uint32_t)(rng.next() >> 33), y = (uint32_t)(rng.next() >> 33);
    int32_t k = --start_[bucket(x, y) + 1];
    x_[k] = x;
    y_[k] = y;
  }
  for (size_t b = 0; b + 1 < start_.size(); ++b) start_[b] = start_[b + 1];
  start_.back() = n;
}

}  // namespace spts
