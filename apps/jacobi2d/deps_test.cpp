// The persistent kernel's neighbour lists (deps.cpp) against a model of the kernel: work-groups
// run whole iterations in an order that only the lists constrain (random, greedy, or one favoured
// work-group running ahead), and every read is checked to find its unit at the iteration it must
// be: written by iteration k-1 and not yet overwritten by iteration k+1.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "deps.h"

namespace jacobi {
namespace {

struct shape {
  int nseg, chunk, wgs;
};

sweep_plan plan_of(const shape& s) {
  sweep_plan p;
  p.nx = 0;  // unused by the unit shares
  p.chunk = s.chunk;
  p.nseg = s.nseg;
  p.boundary = p.interior = 1;
  return p;
}

// Units of work-group b as (segment, row), in the order sweep() computes them.
std::vector<std::pair<int, int>> units_of(const sweep_plan& p, int wgs, int b) {
  std::vector<std::pair<int, int>> u;
  for_each_unit(p, wgs, b, [&](int s, int r) { u.push_back({s, r}); });
  return u;
}

enum class order { random, lowest, favour };

// Runs `iters` iterations of every work-group under `deps` and returns the first bad read ("" if
// none). With order::favour, work-group `favoured` runs whenever its list lets it and `slow` only
// when nothing else can.
std::string simulate(const shape& s, const wg_deps_host& deps, int iters, order ord, unsigned seed,
                     int favoured = 0, int slow = -1) {
  const sweep_plan p = plan_of(s);
  std::vector<std::vector<std::pair<int, int>>> units(s.wgs);
  std::vector<int> owner_of((size_t)s.nseg * (s.chunk + 2), -1);
  for (int b = 0; b < s.wgs; ++b) {
    units[b] = units_of(p, s.wgs, b);
    for (auto& u : units[b]) {
      int& o = owner_of[(size_t)u.first * (s.chunk + 2) + u.second];
      if (o != -1) return "unit owned twice";
      o = b;
    }
  }
  for (int x = 0; x < s.nseg; ++x)
    for (int r = 1; r <= s.chunk; ++r)
      if (owner_of[(size_t)x * (s.chunk + 2) + r] < 0) return "unit owned by nobody";
  std::vector<int> finished(s.wgs, 0);
  auto runnable = [&](int b) {
    if (finished[b] == iters) return false;
    for (int t = deps.offsets[b]; t < deps.offsets[b + 1]; ++t)
      if (finished[deps.deps[t]] < finished[b]) return false;
    return true;
  };
  std::mt19937 rng(seed);
  for (;;) {
    std::vector<int> ready;
    for (int b = 0; b < s.wgs; ++b)
      if (runnable(b)) ready.push_back(b);
    if (ready.empty()) break;
    int b = ready[0];
    if (ord == order::random) b = ready[rng() % ready.size()];
    if (ord == order::favour) {
      if (b == slow && ready.size() > 1) b = ready[1];
      if (runnable(favoured)) b = favoured;
    }
    const int k = finished[b];
    for (auto& u : units[b]) {
      const int nb[5][2] = {{u.first, u.second}, {u.first, u.second - 1}, {u.first, u.second + 1},
                            {u.first - 1, u.second}, {u.first + 1, u.second}};
      for (auto& n : nb) {
        if (n[0] < 0 || n[0] >= s.nseg || n[1] < 1 || n[1] > s.chunk) continue;  // halo or off the row
        const int o = owner_of[(size_t)n[0] * (s.chunk + 2) + n[1]];
        // Buffer k%2 holds iteration k-1's values of the unit from when its owner finished k-1
        // (finished >= k) until the owner's iteration k+1 overwrites them (finished == k+2).
        if (finished[o] < k || finished[o] > k + 1)
          return "work-group " + std::to_string(b) + " at iteration " + std::to_string(k) + " read segment " +
                 std::to_string(n[0]) + " row " + std::to_string(n[1]) + " of work-group " + std::to_string(o) +
                 ", which had finished " + std::to_string(finished[o]) + " iterations";
      }
    }
    ++finished[b];
  }
  for (int b = 0; b < s.wgs; ++b)
    if (finished[b] != iters) return "deadlock: work-group " + std::to_string(b) + " stopped at " + std::to_string(finished[b]);
  return "";
}

const shape kShapes[] = {
    {1, 1, 1},   {4, 1, 3},   {3, 2, 5},     {1, 254, 4},   {2, 257, 3},  {8, 30, 7},
    {4, 10, 40}, {64, 6, 100}, {5, 100, 499}, {8, 16384, 528}, {64, 4, 256},
};

TEST(JacobiDeps, EveryReadFindsItsIterationInAnyOrder) {
  for (const shape& s : kShapes) {
    const wg_deps_host d = build_deps(plan_of(s), s.wgs);
    ASSERT_EQ(d.offsets.size(), (size_t)s.wgs + 1);
    const int iters = s.nseg * s.chunk > 100000 ? 3 : 12;
    const std::string where = "nseg " + std::to_string(s.nseg) + " chunk " + std::to_string(s.chunk) + " wgs " +
                              std::to_string(s.wgs);
    EXPECT_EQ(simulate(s, d, iters, order::lowest, 0), "") << where;
    for (unsigned seed = 1; seed <= 3; ++seed) EXPECT_EQ(simulate(s, d, iters, order::random, seed), "") << where;
    for (int b : {0, s.wgs / 2, s.wgs - 1}) EXPECT_EQ(simulate(s, d, iters, order::favour, 0, b), "") << where;
  }
}

TEST(JacobiDeps, ListsHoldNoSelfAndNoRepeats) {
  for (const shape& s : kShapes) {
    const wg_deps_host d = build_deps(plan_of(s), s.wgs);
    for (int b = 0; b < s.wgs; ++b) {
      std::vector<int> seen(s.wgs, 0);
      for (int t = d.offsets[b]; t < d.offsets[b + 1]; ++t) {
        const int x = d.deps[t];
        ASSERT_TRUE(x >= 0 && x < s.wgs && x != b) << "work-group " << b << " lists " << x;
        ASSERT_EQ(seen[x]++, 0) << "work-group " << b << " lists " << x << " twice";
      }
    }
  }
}

// The model catches a list that misses one neighbour: the model is not vacuous.
TEST(JacobiDeps, AMissingNeighbourIsCaught) {
  int caught = 0, tried = 0;
  for (const shape& s : kShapes) {
    if (s.wgs < 2 || (long long)s.nseg * s.chunk > 100000) continue;
    const wg_deps_host full = build_deps(plan_of(s), s.wgs);
    for (int b = 0; b < s.wgs; b += std::max(1, s.wgs / 5)) {
      if (full.offsets[b] == full.offsets[b + 1]) continue;
      // Drop b's first neighbour, in both directions (the relation is symmetric, so the other
      // side's list alone would still hold b back).
      const int d = full.deps[full.offsets[b]];
      wg_deps_host cut;
      cut.offsets.push_back(0);
      for (int x = 0; x < s.wgs; ++x) {
        for (int t = full.offsets[x]; t < full.offsets[x + 1]; ++t)
          if (!((x == b && full.deps[t] == d) || (x == d && full.deps[t] == b))) cut.deps.push_back(full.deps[t]);
        cut.offsets.push_back((int)cut.deps.size());
      }
      ++tried;
      if (simulate(s, cut, 12, order::favour, 0, b, d) != "" || simulate(s, cut, 12, order::favour, 0, d, b) != "")
        ++caught;
    }
  }
  EXPECT_GT(tried, 10);
  EXPECT_EQ(caught, tried);
}

}  // namespace
}  // namespace jacobi
