// Seeded random numbers for the inputs, written out here rather than taken from <random>: the
// standard distributions differ between standard libraries, and the inputs must be the same
// matrix for the same seed wherever the app is built.
#pragma once
#include <cstdint>

namespace spts {

// splitmix64's finaliser: a bijective mix of 64 bits.
inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// A value that depends only on (seed, a, b): per-edge and per-row values drawn this way do not
// depend on the order in which they are generated, so a reordered matrix keeps its values.
inline uint64_t hash3(uint64_t seed, uint64_t a, uint64_t b) {
  return mix64(mix64(seed ^ 0x9e3779b97f4a7c15ull) ^ mix64(a * 0x9e3779b97f4a7c15ull + b));
}

// [0, 1) with 53 random bits.
inline double unit_double(uint64_t r) { return (double)(r >> 11) * 0x1.0p-53; }

// splitmix64 as a stream.
struct splitmix64 {
  uint64_t s;
  explicit splitmix64(uint64_t seed) : s(seed) {}
  uint64_t next() { return mix64(s += 0x9e3779b97f4a7c15ull); }
  // [0, bound) by Lemire's multiply-shift (bias below bound / 2^64, far under anything measured).
  uint64_t below(uint64_t bound) { return (uint64_t)(((unsigned __int128)next() * bound) >> 64); }
  double uniform() { return unit_double(next()); }
};

// The off-diagonal value of edge {a, b} of a generated graph: in [-1, -0.1], symmetric in a, b.
inline double edge_value(uint64_t seed, int32_t a, int32_t b) {
  if (a > b) { int32_t t = a; a = b; b = t; }
  return -1.0 + 0.9 * unit_double(hash3(seed, (uint64_t)a, (uint64_t)b));
}

}  // namespace spts
