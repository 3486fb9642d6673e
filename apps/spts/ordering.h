// Seeded random permutations for the symmetric reordering. Internal to the inputs library.
#pragma once
#include <cstdint>
#include <vector>

namespace spts {

// p[old] = new: a uniformly random permutation of 0..n-1 (Fisher-Yates on splitmix64), the same
// for the same (n, seed) on every build.
std::vector<int32_t> random_permutation(int32_t n, uint64_t seed);

}  // namespace spts
