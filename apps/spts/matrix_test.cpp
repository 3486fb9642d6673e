// The generators, the reordering, the analysis, the partition and the check of spts's inputs
// (the Matrix Market reader: mtx_reader_test.cpp).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <limits>
#include <string>

#include "csr_cache.h"
#include "csr_check.h"
#include "gen.h"
#include "matrix.h"
#include "ordering.h"
#include "renumber.h"

namespace spts {
namespace {

csr gen(const std::string& spec, order o = order::natural, diag_mode d = diag_mode::dominant) {
  return generate(parse_gen(spec), o, d);
}

bool same(const csr& a, const csr& b) {
  return a.n == b.n && a.row_ptr == b.row_ptr && a.col == b.col && a.val == b.val;
}

// Off-diagonals in [-1, -0.1] (each edge once: a summed duplicate would likely leave the range)
// and the diagonal per d.
::testing::AssertionResult values_ok(const csr& l, diag_mode d) {
  for (int32_t i = 0; i < l.n; ++i) {
    double sum = 0;
    int32_t diag = l.row_ptr[i + 1] - 1;
    for (int32_t k = l.row_ptr[i]; k < diag; ++k) {
      if (!(l.val[k] >= -1 && l.val[k] <= -0.1))
        return ::testing::AssertionFailure() << "row " << i << " value " << l.val[k];
      sum += std::fabs(l.val[k]);
    }
    double want = d == diag_mode::unit ? 1 : 1 + sum;
    if (l.val[diag] != want)
      return ::testing::AssertionFailure() << "row " << i << " diagonal " << l.val[diag];
  }
  return ::testing::AssertionSuccess();
}

TEST(Generate, SmallSizesExact) {
  csr g2 = gen("grid2d:n=4");
  EXPECT_EQ(g2.n, 16);
  EXPECT_EQ(g2.nnz(), 16 + 24);
  EXPECT_EQ(analyze(g2).levels, 7);
  csr g3 = gen("grid3d:n=3");
  EXPECT_EQ(g3.n, 27);
  EXPECT_EQ(g3.nnz(), 27 + 54);  // 3 directions x 9 lines x 2 edges
  EXPECT_EQ(analyze(g3).levels, 7);
  csr b = gen("banded:n=10,band=3");
  EXPECT_EQ(b.n, 10);
  EXPECT_EQ(b.nnz(), 10 + (0 + 1 + 2 + 3 * 7));
  EXPECT_EQ(analyze(b).levels, 10);
  EXPECT_EQ(gen("rmat:scale=8").n, 256);
  EXPECT_EQ(gen("road:rows=777").n, 777);
}

TEST(Generate, RowsAlias) {
  EXPECT_EQ(gen("grid2d:rows=10000").n, 10000);
  EXPECT_EQ(gen("grid2d:rows=10100").n, 10000);  // the nearest R, 100
  EXPECT_EQ(gen("grid3d:rows=1000").n, 1000);
  EXPECT_EQ(gen("rmat:rows=1000").n, 1024);
  EXPECT_EQ(gen("banded:rows=7").n, 7);
}

TEST(Generate, LevelsOfNaturalAndRandomOrder) {
  for (int r : {1, 2, 17, 50})
    EXPECT_EQ(analyze(gen("grid2d:n=" + std::to_string(r))).levels, 2 * r - 1);
  for (int n : {1, 5, 300})
    EXPECT_EQ(analyze(gen("banded:n=" + std::to_string(n) + ",band=2")).levels, n);
  int natural = analyze(gen("grid2d:n=64")).levels;
  int random = analyze(gen("grid2d:n=64", order::random)).levels;
  EXPECT_EQ(natural, 127);
  EXPECT_LT(random, natural / 3) << random;
  // A chain's critical path is all of its nonzeros.
  EXPECT_EQ(analyze(gen("banded:n=40,band=1")).critical_path, 79);
}

const char* k_specs[] = {"grid2d:n=20", "grid3d:n=7", "road:rows=5000", "road:rows=3000,deg=6",
                         "rmat:scale=11", "rmat:scale=9,deg=20", "banded:n=200,band=5"};

TEST(Generate, InvariantsAndValuesEveryKindAndOrder) {
  for (const char* s : k_specs)
    for (order o : {order::natural, order::random})
      for (diag_mode d : {diag_mode::dominant, diag_mode::unit}) {
        csr l = gen(s, o, d);
        EXPECT_TRUE(csr_ok(l)) << s;
        EXPECT_TRUE(values_ok(l, d)) << s;
      }
}

TEST(Generate, DeterministicPerSeed) {
  for (const char* s : k_specs)
    for (order o : {order::natural, order::random}) {
      std::string spec = s;
      EXPECT_TRUE(same(gen(spec + ",seed=3", o), gen(spec + ",seed=3", o))) << s;
      EXPECT_FALSE(same(gen(spec + ",seed=3", o), gen(spec + ",seed=4", o))) << s;
    }
  // Different structure, not only values, for the random kinds.
  EXPECT_NE(gen("road:rows=5000,seed=1").col, gen("road:rows=5000,seed=2").col);
  EXPECT_NE(gen("rmat:scale=10,seed=1").col, gen("rmat:scale=10,seed=2").col);
  EXPECT_NE(gen("grid2d:n=20,seed=1", order::random).col,
            gen("grid2d:n=20,seed=2", order::random).col);
}

TEST(Generate, RandomOrderIsTheReorderedNaturalMatrix) {
  for (const char* s : {"grid2d:n=30,seed=5", "road:rows=4000,seed=9", "rmat:scale=10,seed=2"}) {
    gen_spec g = parse_gen(s);
    csr l = reorder(generate(g, order::natural, diag_mode::unit), order::random, g.seed);
    set_diagonal(l, diag_mode::dominant);
    EXPECT_TRUE(same(l, generate(g, order::random, diag_mode::dominant))) << s;
  }
}

TEST(Generate, RoadMeanDegreeAndLocality) {
  for (double deg : {2.5, 6.0}) {
    csr l = gen("road:rows=100000,deg=" + std::to_string(deg));
    double mean = 2.0 * (double)(l.nnz() - l.n) / l.n;
    EXPECT_NEAR(mean, deg, 0.1 * deg);
  }
  // Spatial order: a row's dependencies are near it; in random order they are anywhere.
  auto mean_distance = [](const csr& l) {
    double s = 0;
    for (int32_t i = 0; i < l.n; ++i)
      for (int32_t k = l.row_ptr[i]; k < l.row_ptr[i + 1] - 1; ++k) s += i - l.col[k];
    return s / (double)(l.nnz() - l.n);
  };
  EXPECT_LT(mean_distance(gen("road:rows=100000")), 100000 / 50.0);
  EXPECT_GT(mean_distance(gen("road:rows=100000", order::random)), 100000 / 5.0);
}

TEST(Generate, RmatEdgesUniqueWithoutSelfLoops) {
  std::vector<uint64_t> e = rmat_edges(12, 16, 1);
  ASSERT_FALSE(e.empty());
  for (size_t k = 0; k < e.size(); ++k) {
    EXPECT_LT(e[k] >> 32, e[k] & 0xffffffffu) << "self-loop or unordered edge";
    if (k) {
      EXPECT_LT(e[k - 1], e[k]) << "duplicate";
    }
  }
  // Power law: duplicates dropped, so fewer edges than drawn, and a hub far above the mean.
  EXPECT_LT(e.size(), size_t(4096 * 8));
  std::vector<int> degree(4096, 0);
  for (uint64_t k : e) ++degree[k >> 32], ++degree[k & 0xffffffffu];
  EXPECT_GT(*std::max_element(degree.begin(), degree.end()), 20 * 2 * (int)e.size() / 4096);
}

TEST(Generate, GivenDiagonalRejected) {
  EXPECT_THROW(generate(parse_gen("grid2d:n=3"), order::natural, diag_mode::given), input_error);
}

TEST(ParseGen, Spec) {
  gen_spec g = parse_gen("road:rows=1000000,deg=2.5,seed=7");
  EXPECT_EQ(g.kind, "road");
  EXPECT_EQ(g.seed, 7u);
  ASSERT_EQ(g.params.size(), 2u);
  EXPECT_EQ(g.params[0], (std::pair<std::string, std::string>("rows", "1000000")));
  EXPECT_EQ(g.params[1], (std::pair<std::string, std::string>("deg", "2.5")));
  EXPECT_EQ(parse_gen("grid2d").params.size(), 0u);
  EXPECT_EQ(parse_gen("grid2d").seed, 1u);
}

TEST(ParseGen, Rejects) {
  auto expect_error = [](const std::string& text, const std::string& reason) {
    try {
      parse_gen(text);
      ADD_FAILURE() << text << ": no input_error";
    } catch (const input_error& e) {
      EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << text << ": " << e.what();
    }
  };
  expect_error("torus:n=3", "unknown kind 'torus'");
  expect_error("grid2d:m=3", "unknown key 'm'");
  expect_error("road:n=3", "unknown key 'n'");
  expect_error("grid2d:n=abc", "n=abc must be an integer in [1, 46340]");
  expect_error("grid2d:n=0", "n=0 must be an integer");
  expect_error("grid2d:n=46341", "n=46341 must be an integer");
  expect_error("grid2d:rows=2147483647", "more than 2^31-1");
  expect_error("grid3d:n=1291", "n=1291 must be an integer in [1, 1290]");
  expect_error("rmat:scale=31", "scale=31 must be an integer in [1, 30]");
  expect_error("rmat:scale=30,deg=8", "more than 2^31-1 edges");
  expect_error("road:deg=-1", "deg=-1 must be a number");
  expect_error("road:deg=2.5x", "deg=2.5x must be a number");
  expect_error("grid2d:n", "'n' is not key=value");
  expect_error("grid2d:n=3,", "'' is not key=value");
  expect_error("grid2d:n=3,n=4", "n given twice");
  expect_error("grid2d:n=3,rows=9", "rows given twice (or with its alias)");
  expect_error("road:rows=10,seed=x", "seed=x must be an unsigned 64-bit integer");
  expect_error("road:seed=1,seed=2", "seed given twice");
  expect_error("banded:n=100000,band=100000", "more than 2^31-1 nonzeros");
}

TEST(Reorder, IsASymmetricPermutation) {
  csr l = gen("grid2d:n=6,seed=4", order::natural, diag_mode::dominant);
  EXPECT_TRUE(same(reorder(l, order::natural, 3), l));
  csr r = reorder(l, order::random, 3);
  ASSERT_TRUE(csr_ok(r));
  std::vector<int32_t> p = random_permutation(l.n, 3);
  std::vector<int32_t> seen(p);
  std::sort(seen.begin(), seen.end());
  for (int32_t i = 0; i < l.n; ++i) ASSERT_EQ(seen[i], i) << "not a permutation";
  EXPECT_NE(p, random_permutation(l.n, 4));
  // Entry (i, j) of L is (p[i], p[j]) or (p[j], p[i]) of the reordered L, whichever is lower.
  auto a = dense(l), b = dense(r);
  int64_t moved = 0;
  for (int32_t i = 0; i < l.n; ++i)
    for (int32_t j = 0; j <= i; ++j) {
      int32_t u = std::max(p[i], p[j]), v = std::min(p[i], p[j]);
      EXPECT_EQ(b[u][v], a[i][j]) << i << "," << j;
      moved += a[i][j] != 0 && u != i;
    }
  EXPECT_EQ(r.nnz(), l.nnz());
  EXPECT_GT(moved, 0);
}

// The renumbering tests' cases: every kind in both orders, split over 1 to 4 PEs; fn(l, an, npes).
template <typename Fn>
void each_renumber_case(Fn fn) {
  for (const char* spec : {"grid2d:n=9", "grid3d:n=5", "road:rows=300", "rmat:scale=7", "banded:n=40,band=3"})
    for (order o : {order::natural, order::random})
      for (int npes : {1, 2, 3, 4}) {
        SCOPED_TRACE(std::string(spec) + " npes " + std::to_string(npes) + (o == order::random ? " random" : ""));
        const csr l = gen(spec, o);
        fn(l, analyze(l), npes);
        if (::testing::Test::HasFatalFailure()) return;
      }
}

// renumber_by_level: the same matrix under the permutation; every row's off-diagonals ascending
// with the diagonal last; each PE's own dependencies before the row in its block; at one PE lower
// triangular with levels ascending; every level of at least npes rows split over all PEs.
TEST(Renumber, LevelOrderSplitOverPes) {
  each_renumber_case([](const csr& l, const analysis& an, int npes) {
    const renumbering r = renumber_by_level(l, npes, 2);
    ASSERT_EQ(r.levels, an.levels);
    ASSERT_EQ((int)r.bounds.size(), npes + 1);
    ASSERT_EQ(r.bounds[0], 0);
    ASSERT_EQ(r.bounds[npes], l.n);
    std::vector<int32_t> new_of(l.n, -1);
    for (int32_t nw = 0; nw < l.n; ++nw) {
      ASSERT_EQ(new_of[r.old_of[nw]], -1) << "not a permutation";
      new_of[r.old_of[nw]] = nw;
    }
    auto a = dense(l);
    ASSERT_EQ(r.l.nnz(), l.nnz());
    std::vector<std::vector<int>> at_level(an.levels, std::vector<int>(npes, 0));
    for (int q = 0; q < npes; ++q)
      for (int32_t nw = r.bounds[q]; nw < r.bounds[q + 1]; ++nw) {
        const int32_t old = r.old_of[nw], e = r.l.row_ptr[nw + 1] - 1;
        ++at_level[an.level[old]][q];
        ASSERT_EQ(r.l.col[e], nw) << "diagonal last";
        ASSERT_EQ(r.l.val[e], a[old][old]);
        for (int32_t k = r.l.row_ptr[nw]; k < e; ++k) {
          const int32_t c = r.l.col[k];
          if (k > r.l.row_ptr[nw]) ASSERT_LT(r.l.col[k - 1], c) << "columns ascending";
          ASSERT_EQ(r.l.val[k], a[old][r.old_of[c]]);
          ASSERT_LT(an.level[r.old_of[c]], an.level[old]);
          if (c >= r.bounds[q] && c < r.bounds[q + 1]) ASSERT_LT(c, nw) << "own dependency after the row";
          if (npes == 1) ASSERT_LT(c, nw);
        }
      }
    for (int32_t v = 0; v < an.levels; ++v) {
      int w = 0;
      for (int q = 0; q < npes; ++q) w += at_level[v][q];
      if (w >= npes)
        for (int q = 0; q < npes; ++q) EXPECT_GE(at_level[v][q], w / npes) << "level " << v << " PE " << q;
    }
    // Narrow levels (a chain) are shared out in runs: every PE has rows.
    for (int q = 0; q < npes; ++q) EXPECT_GT(r.bounds[q + 1] - r.bounds[q], 0) << "PE " << q;
    // level_order (the device copy's order) is the one-PE renumbering's.
    if (npes == 1) {
      std::vector<int32_t> new_of_1;
      EXPECT_EQ(level_order(l, &new_of_1), an.levels);
      EXPECT_EQ(new_of_1, new_of);
    }
    // At one PE, levels ascend with the new index.
    if (npes == 1)
      for (int32_t nw = 1; nw < l.n; ++nw)
        ASSERT_LE(an.level[r.old_of[nw - 1]], an.level[r.old_of[nw]]);
  });
}

// renumber_in_blocks: each PE keeps its block of L's rows, ordered by level (ascending original
// index within a level), so the renumbered L is lower triangular at every PE count; the same
// matrix under the permutation, off-diagonals ascending, the diagonal last.
TEST(Renumber, LevelOrderInsideEachBlock) {
  each_renumber_case([](const csr& l, const analysis& an, int npes) {
    const std::vector<int32_t> blocks = partition(l, npes, false);
    const renumbering r = renumber_in_blocks(l, blocks, 2);
    ASSERT_EQ(r.levels, an.levels);
    ASSERT_EQ(r.bounds, blocks);
    auto a = dense(l);
    ASSERT_EQ(r.l.nnz(), l.nnz());
    std::vector<char> seen(l.n, 0);
    for (int q = 0; q < npes; ++q)
      for (int32_t nw = blocks[q]; nw < blocks[q + 1]; ++nw) {
        const int32_t old = r.old_of[nw], e = r.l.row_ptr[nw + 1] - 1;
        ASSERT_GE(old, blocks[q]) << "row left its block";
        ASSERT_LT(old, blocks[q + 1]) << "row left its block";
        ASSERT_FALSE(seen[old]) << "not a permutation";
        seen[old] = 1;
        if (nw > blocks[q]) {
          const int32_t prev = r.old_of[nw - 1];
          ASSERT_TRUE(an.level[prev] < an.level[old] || (an.level[prev] == an.level[old] && prev < old))
              << "not by level, then original index";
        }
        ASSERT_EQ(r.l.col[e], nw) << "diagonal last";
        ASSERT_EQ(r.l.val[e], a[old][old]);
        for (int32_t k = r.l.row_ptr[nw]; k < e; ++k) {
          if (k > r.l.row_ptr[nw]) ASSERT_LT(r.l.col[k - 1], r.l.col[k]) << "columns ascending";
          ASSERT_LT(r.l.col[k], nw) << "not lower triangular";
          ASSERT_EQ(r.l.val[k], a[old][r.old_of[r.l.col[k]]]);
        }
      }
  });
  // Blocks that do not cover L's rows in order are refused.
  const csr l = gen("grid2d:n=5", order::natural);
  EXPECT_THROW(renumber_in_blocks(l, {0, 20, 10, l.n}), input_error);
  EXPECT_THROW(renumber_in_blocks(l, {0, 10}), input_error);
}

// tile_order: a permutation in chunks of at most width * depth rows, where every dependency is in
// an earlier chunk or earlier in the same one (what the kernels' progress argument needs); on a
// natural-order 2D grid all bands but the middle one's are tiled.
TEST(Renumber, TilesKeepDependenciesBehind) {
  for (const char* spec : {"grid2d:n=40", "grid2d:n=33", "grid3d:n=7", "road:rows=500", "rmat:scale=8", "banded:n=90,band=2"})
    for (order o : {order::natural, order::random})
      for (int32_t width : {4, 32})
        for (int32_t depth : {1, 3, 8}) {
          SCOPED_TRACE(std::string(spec) + " width " + std::to_string(width) + " depth " + std::to_string(depth) +
                       (o == order::random ? " random" : ""));
          const csr l = gen(spec, o);
          const tiling t = tile_order(l, width, depth);
          EXPECT_EQ(t.levels, analyze(l).levels);
          ASSERT_EQ((int32_t)t.new_of.size(), l.n);
          std::vector<int32_t> seen(l.n, 0);
          for (int32_t i = 0; i < l.n; ++i) {
            ASSERT_GE(t.new_of[i], 0);
            ASSERT_LT(t.new_of[i], l.n);
            ASSERT_EQ(seen[t.new_of[i]]++, 0) << "not a permutation";
          }
          ASSERT_EQ(t.chunk_start.front(), 0);
          ASSERT_EQ(t.chunk_start.back(), l.n);
          std::vector<int32_t> chunk_of(l.n);
          for (size_t c = 0; c + 1 < t.chunk_start.size(); ++c) {
            ASSERT_GT(t.chunk_start[c + 1], t.chunk_start[c]);
            ASSERT_LE(t.chunk_start[c + 1] - t.chunk_start[c], width * depth);
            for (int32_t k = t.chunk_start[c]; k < t.chunk_start[c + 1]; ++k) chunk_of[k] = (int32_t)c;
          }
          for (int32_t i = 0; i < l.n; ++i)
            for (int32_t k = l.row_ptr[i]; k < l.row_ptr[i + 1] - 1; ++k) {
              const int32_t ni = t.new_of[i], nc = t.new_of[l.col[k]];
              ASSERT_LT(nc, ni);
              ASSERT_LE(chunk_of[nc], chunk_of[ni]);
            }
          if (std::string(spec).rfind("grid2d", 0) == 0 && o == order::natural && depth > 1)
            EXPECT_GE(t.tiled_bands, t.bands - 1);
        }
}

TEST(Analyze, HandExample) {
  // Row 1 depends on 0, row 3 on 1 and 2, rows 0 and 2 on nothing.
  csr l;
  l.n = 4;
  l.row_ptr = {0, 1, 3, 4, 7};
  l.col = {0, 0, 1, 2, 1, 2, 3};
  l.val = {1, -1, 1, 1, -1, -1, 1};
  analysis a = analyze(l);
  EXPECT_EQ(a.level, (std::vector<int32_t>{0, 1, 0, 2}));
  EXPECT_EQ(a.levels, 3);
  EXPECT_EQ(a.critical_path, 1 + 2 + 3);  // rows 0, 1, 3
  csr empty;
  empty.row_ptr = {0};
  EXPECT_EQ(analyze(empty).levels, 0);
}

::testing::AssertionResult partition_ok(const csr& l, const std::vector<int32_t>& b, int npes) {
  if (b.size() != (size_t)npes + 1 || b.front() != 0 || b.back() != l.n)
    return ::testing::AssertionFailure() << "ends";
  for (int k = 0; k < npes; ++k) {
    if (b[k + 1] < b[k]) return ::testing::AssertionFailure() << "backwards at " << k;
    if (l.n >= npes && b[k + 1] == b[k]) return ::testing::AssertionFailure() << "empty PE " << k;
  }
  return ::testing::AssertionSuccess();
}

TEST(Partition, EqualRows) {
  csr l = gen("banded:n=10,band=2");
  EXPECT_EQ(partition(l, 3, false), (std::vector<int32_t>{0, 3, 6, 10}));
  for (int npes : {1, 2, 3, 7, 10, 13}) {
    std::vector<int32_t> b = partition(l, npes, false);
    EXPECT_TRUE(partition_ok(l, b, npes)) << npes;
    for (int k = 0; k < npes; ++k) EXPECT_LE(b[k + 1] - b[k], (10 + npes - 1) / npes);
  }
  EXPECT_THROW(partition(l, 0, false), input_error);
}

TEST(Partition, ByNnz) {
  // Row i of a full band has i + 1 nonzeros: equal rows would give the last PE most of them.
  csr l = gen("banded:n=400,band=400");
  int32_t widest = 400;
  for (int npes : {1, 2, 4, 7}) {
    std::vector<int32_t> b = partition(l, npes, true);
    ASSERT_TRUE(partition_ok(l, b, npes)) << npes;
    for (int k = 0; k < npes; ++k) {
      int64_t nnz = l.row_ptr[b[k + 1]] - l.row_ptr[b[k]];
      EXPECT_NEAR((double)nnz, (double)l.nnz() / npes, widest) << npes << " PE " << k;
    }
  }
  EXPECT_EQ(partition(l, 2, true)[1], 283);  // sqrt(1/2) of the rows hold half the nonzeros
  // One row holds nearly everything: still a row for every PE.
  csr h = gen("banded:n=5,band=1");
  EXPECT_TRUE(partition_ok(h, partition(h, 5, true), 5));
  csr s = gen("banded:n=2");
  EXPECT_TRUE(partition_ok(s, partition(s, 4, true), 4));
}

TEST(Check, MultiplyHandExample) {
  csr l;
  l.n = 3;
  l.row_ptr = {0, 1, 3, 5};
  l.col = {0, 0, 1, 1, 2};
  l.val = {2, -1, 3, -0.5, 1};
  EXPECT_EQ(multiply(l, {1, 2, 3}), (std::vector<double>{2, 5, 2}));
  EXPECT_THROW(multiply(l, {1, 2}), std::invalid_argument);
}

TEST(Check, RelativeError) {
  std::vector<double> ref = {1, 2, 4};
  error_report r = relative_error<double>({1, 2.5, 4}, ref, 0, 3);
  EXPECT_EQ(r.rel_error, 0.125);
  EXPECT_EQ(r.worst_row, 1);
  r = relative_error<double>({2, 3}, ref, 1, 3);  // rows 1 and 2; scaled by the global max
  EXPECT_EQ(r.rel_error, 0.25);
  EXPECT_EQ(r.worst_row, 2);
  r = relative_error<float>({1.0f, 2.0f, 4.5f}, ref, 0, 3);
  EXPECT_EQ(r.rel_error, 0.125);
  EXPECT_EQ(r.worst_row, 2);
  r = relative_error<double>({1, 2, 4}, ref, 0, 3);
  EXPECT_EQ(r.rel_error, 0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  r = relative_error<double>({100, nan, 4}, ref, 0, 3);
  EXPECT_TRUE(std::isnan(r.rel_error));
  EXPECT_EQ(r.worst_row, 1);
  r = relative_error<float>({1, 2, std::numeric_limits<float>::quiet_NaN()}, ref, 0, 3);
  EXPECT_TRUE(std::isnan(r.rel_error));
  EXPECT_EQ(r.worst_row, 2);
  EXPECT_THROW(relative_error<double>({1}, ref, 0, 3), std::invalid_argument);
}

TEST(Check, XRefAndSolvedSystem) {
  std::vector<double> x = make_x_ref(1000, 5);
  EXPECT_EQ(x, make_x_ref(1000, 5));
  EXPECT_NE(x, make_x_ref(1000, 6));
  for (double v : x) EXPECT_TRUE(v >= 0.5 && v <= 1.5) << v;
  // b = L x_ref, and a forward substitution on b gives x_ref back.
  csr l = gen("road:rows=1000");
  std::vector<double> b = multiply(l, x), y(l.n);
  for (int32_t i = 0; i < l.n; ++i) {
    double s = b[i];
    for (int32_t k = l.row_ptr[i]; k < l.row_ptr[i + 1] - 1; ++k) s -= l.val[k] * y[l.col[k]];
    y[i] = s / l.val[l.row_ptr[i + 1] - 1];
  }
  EXPECT_LT(relative_error(y, x, 0, l.n).rel_error, 1e-12);
}

}  // namespace
}  // namespace spts

namespace spts {
namespace {

// --cache DIR (csr_cache.cpp): a stored input comes back bit for bit, and a file that is not a
// complete, consistent cache file is refused with a reason (the app then generates again).
TEST(Cache, RoundTripAndRefusals) {
  char tmpl[] = "/tmp/spts-cache-XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  const csr l = generate(parse_gen("road:rows=5000"), order::random, diag_mode::dominant);
  const std::string path = cache_path(dir, "road:rows=5000,deg=2.5", "random");
  EXPECT_EQ(path, dir + "/road_rows=5000,deg=2.5@random.csr");
  std::string why;
  ASSERT_TRUE(cache_store(path, l, &why)) << why;
  csr back;
  ASSERT_TRUE(cache_load(path, &back, &why)) << why;
  EXPECT_EQ(back.n, l.n);
  EXPECT_EQ(back.row_ptr, l.row_ptr);
  EXPECT_EQ(back.col, l.col);
  EXPECT_EQ(back.val, l.val);

  auto rewrite = [&](long at, const void* bytes, size_t n) {
    FILE* f = fopen(path.c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    fseek(f, at, SEEK_SET);
    fwrite(bytes, 1, n, f);
    fclose(f);
  };
  csr untouched;
  untouched.n = 7;
  // A column past the diagonal in row 1 (header 24 bytes, then n + 1 row pointers, then columns).
  const int32_t bad_col = l.n + 5;
  const long col0 = 24 + 4L * (l.n + 1) + 4L * l.row_ptr[1];
  rewrite(col0, &bad_col, 4);
  EXPECT_FALSE(cache_load(path, &untouched, &why));
  EXPECT_NE(why.find("row 1 is malformed"), std::string::npos) << why;
  EXPECT_EQ(untouched.n, 7) << "a refused file leaves the matrix alone";

  ASSERT_TRUE(cache_store(path, l, &why)) << why;
  ASSERT_EQ(truncate(path.c_str(), 100), 0);
  EXPECT_FALSE(cache_load(path, &untouched, &why));
  EXPECT_NE(why.find("truncated"), std::string::npos) << why;
  rewrite(0, "XXXX", 4);
  EXPECT_FALSE(cache_load(path, &untouched, &why));
  EXPECT_NE(why.find("not a spts cache file"), std::string::npos) << why;
  EXPECT_FALSE(cache_load(dir + "/none.csr", &untouched, &why));
  std::string cmd = "rm -rf '" + dir + "'";
  ASSERT_EQ(system(cmd.c_str()), 0);
}

}  // namespace
}  // namespace spts
