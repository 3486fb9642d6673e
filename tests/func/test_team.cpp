// Teams (OpenSHMEM 1.5 section 9.4), host side: the predefined teams, strided and 2-D splits
// (membership, numbering, translate_pe both ways, nested splits), what SHMEM_TEAM_INVALID and
// invalid triplets return, the limit on live teams, team contexts (team-relative PE numbers) and
// shmem_team_sync on several teams in different orders on different PEs.
#include <algorithm>
#include <cstring>
#include <set>

#include "gio_test.h"

using namespace giotest;

namespace {

// World PEs of a team, asked of the team itself through translate_pe.
std::vector<int> world_members(shmem_team_t t) {
  std::vector<int> w;
  for (int i = 0; i < shmem_team_n_pes(t); ++i) w.push_back(shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD));
  return w;
}

// Checks `t` is the team of `want` (world PEs in team order) as this PE sees it, when this PE is in it.
void expect_team(shmem_team_t t, const std::vector<int>& want, const char* what) {
  const auto it = std::find(want.begin(), want.end(), me());
  if (it == want.end()) {
    EXPECT_EQ(t, SHMEM_TEAM_INVALID) << what;
    return;
  }
  ASSERT_NE(t, SHMEM_TEAM_INVALID) << what;
  EXPECT_EQ(shmem_team_n_pes(t), (int)want.size()) << what;
  EXPECT_EQ(shmem_team_my_pe(t), (int)(it - want.begin())) << what;
  EXPECT_EQ(world_members(t), want) << what;
  for (int w = 0; w < npes(); ++w) {
    const auto at = std::find(want.begin(), want.end(), w);
    EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, w, t), at == want.end() ? -1 : (int)(at - want.begin()))
        << what << ": world PE " << w;
  }
  EXPECT_EQ(shmem_team_translate_pe(t, -1, SHMEM_TEAM_WORLD), -1) << what;
  EXPECT_EQ(shmem_team_translate_pe(t, (int)want.size(), SHMEM_TEAM_WORLD), -1) << what;
  EXPECT_EQ(shmem_team_sync(t), 0) << what;
}

std::vector<int> strided(int start, int stride, int size) {
  std::vector<int> v;
  for (int i = 0; i < size; ++i) v.push_back(start + i * stride);
  return v;
}

}  // namespace

TEST(Team, Predefined) {
  EXPECT_EQ(shmem_team_my_pe(SHMEM_TEAM_WORLD), me());
  EXPECT_EQ(shmem_team_n_pes(SHMEM_TEAM_WORLD), npes());
  for (int pe = 0; pe < npes(); ++pe) EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_WORLD), pe);
  shmem_team_config_t cfg{-5};
  EXPECT_EQ(shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &cfg), 0);
  EXPECT_GE(cfg.num_contexts, 0);
  // SHMEM_TEAM_SHARED: this PE, among PEs in increasing order, and every member agrees (its sync
  // completes); all of them share this node in the runs here except under GIO_NODE_PER_PE=1.
  const std::vector<int> shared = world_members(SHMEM_TEAM_SHARED);
  EXPECT_TRUE(std::is_sorted(shared.begin(), shared.end()));
  ASSERT_GE(shmem_team_my_pe(SHMEM_TEAM_SHARED), 0);
  EXPECT_EQ(shared[shmem_team_my_pe(SHMEM_TEAM_SHARED)], me());
  EXPECT_EQ(shmem_team_sync(SHMEM_TEAM_SHARED), 0);
  EXPECT_EQ(shmem_sync(SHMEM_TEAM_WORLD), 0);
}

TEST(Team, InvalidHandleAnswers) {
  EXPECT_EQ(shmem_team_my_pe(SHMEM_TEAM_INVALID), -1);
  EXPECT_EQ(shmem_team_n_pes(SHMEM_TEAM_INVALID), -1);
  EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD), -1);
  EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_INVALID), -1);
  shmem_team_config_t cfg{7};
  EXPECT_NE(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &cfg), 0);
  EXPECT_EQ(cfg.num_contexts, 7);  // no operation
  shmem_team_destroy(SHMEM_TEAM_INVALID);  // no operation
  shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
  EXPECT_NE(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &ctx), 0);
  EXPECT_EQ(ctx, SHMEM_CTX_INVALID);
  shmem_team_t t = SHMEM_TEAM_WORLD;
  EXPECT_NE(shmem_ctx_get_team(SHMEM_CTX_INVALID, &t), 0);
  EXPECT_EQ(t, SHMEM_TEAM_INVALID);
  EXPECT_EQ(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &t), 0);
  EXPECT_EQ(t, SHMEM_TEAM_WORLD);
  shmem_team_t x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
  EXPECT_NE(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, nullptr, 0, &t), 0);
  EXPECT_EQ(t, SHMEM_TEAM_INVALID);
  EXPECT_NE(shmem_team_split_2d(SHMEM_TEAM_INVALID, 1, nullptr, 0, &x, nullptr, 0, &y), 0);
  EXPECT_EQ(x, SHMEM_TEAM_INVALID);
  EXPECT_EQ(y, SHMEM_TEAM_INVALID);
}

// Bindings keep every opaque handle in a pointer-sized slot (shmem4py's cffi declarations) and
// store all 8 bytes of one into the handle they pass on; an int handle lost the next 4 bytes to
// that store. The predefined handles are constants of the type, in host code and in kernels.
namespace {
struct boxed_team {
  shmem_team_t team;
  uint32_t guard;  // what follows the handle in the binding's memory
};
struct team_answers {
  unsigned long long size;  // sizeof(shmem_team_t) in a kernel
  int n_pes, my_pe, world_n_pes, invalid_n_pes;
};
__global__ void team_through_a_word(uint64_t word, team_answers* out) {
  shmem_team_t t;
  memcpy(&t, &word, sizeof word);  // an 8-byte handle, as a binding passes it
  out->size = sizeof(shmem_team_t);
  out->n_pes = shmem_team_n_pes(t);
  out->my_pe = shmem_team_my_pe(t);
  const shmem_team_t world = SHMEM_TEAM_WORLD, invalid = SHMEM_TEAM_INVALID;
  out->world_n_pes = shmem_team_n_pes(world);
  out->invalid_n_pes = shmem_team_n_pes(invalid);
}
}  // namespace

TEST(Team, HandleIsPointerSized) {
  EXPECT_EQ(sizeof(shmem_team_t), sizeof(void*));
  EXPECT_EQ(sizeof(shmem_ctx_t), sizeof(void*));
  static const shmem_team_t predefined[] = {SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED, SHMEM_TEAM_INVALID};
  EXPECT_EQ(shmem_team_n_pes(predefined[0]), npes());
  EXPECT_GE(shmem_team_n_pes(predefined[1]), 1);
  EXPECT_EQ(shmem_team_n_pes(predefined[2]), -1);
  shmem_team_t evens = SHMEM_TEAM_INVALID;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes() + 1) / 2, nullptr, 0, &evens), 0);
  boxed_team box{SHMEM_TEAM_INVALID, 0x5a5a5a5au};
  const uint64_t word = (uint64_t)(uintptr_t)evens;  // the binding's copy of the handle
  std::memcpy(&box.team, &word, 8);
  EXPECT_EQ(box.guard, 0x5a5a5a5au) << "an 8-byte store into a team handle overwrote what follows it";
  EXPECT_EQ(box.team, evens);
  if (me() % 2 == 0) {
    EXPECT_EQ(shmem_team_n_pes(box.team), (npes() + 1) / 2);
    EXPECT_EQ(shmem_team_my_pe(box.team), me() / 2);
    EXPECT_EQ(shmem_team_sync(box.team), 0);
  } else {
    EXPECT_EQ(box.team, SHMEM_TEAM_INVALID);
  }
  dbuf<team_answers> out(1);
  hipLaunchKernelGGL(team_through_a_word, dim3(1), dim3(1), 0, 0, word, out.get());
  ASSERT_TRUE(synced());
  const team_answers a = out.read()[0];
  EXPECT_EQ(a.size, sizeof(void*));
  EXPECT_EQ(a.n_pes, me() % 2 == 0 ? (npes() + 1) / 2 : -1);
  EXPECT_EQ(a.my_pe, me() % 2 == 0 ? me() / 2 : -1);
  EXPECT_EQ(a.world_n_pes, npes());
  EXPECT_EQ(a.invalid_n_pes, -1);
  shmem_team_destroy(evens);
}

TEST(Team, SplitStrided) {
  const int n = npes();
  struct triplet {
    int start, stride, size;
  };
  // Evens, odds, everyone, the last PE alone, and everyone backwards.
  const triplet cases[] = {{0, 2, (n + 1) / 2}, {1, 2, n / 2}, {0, 1, n}, {n - 1, 1, 1}, {n - 1, -1, n}};
  for (const triplet& c : cases) {
    if (c.size == 0) continue;  // the odd PEs at 1 PE: no PE, a bad triplet (SplitRejectsBadTriplets)
    shmem_team_t t = SHMEM_TEAM_WORLD;
    shmem_team_config_t cfg{3};
    ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, c.start, c.stride, c.size, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &t), 0);
    const std::string what = "split (" + std::to_string(c.start) + ", " + std::to_string(c.stride) + ", " +
                             std::to_string(c.size) + ")";
    expect_team(t, strided(c.start, c.stride, c.size), what.c_str());
    if (t != SHMEM_TEAM_INVALID) {
      shmem_team_config_t got{0};
      EXPECT_EQ(shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &got), 0);
      EXPECT_EQ(got.num_contexts, 3);
    }
    shmem_team_destroy(t);
  }
}

// A split of a split: PEs are numbered in the parent, and translate_pe goes through both.
TEST(Team, SplitOfASplit) {
  const int n = npes();
  if (n == 1) GTEST_SKIP() << "needs 2 PEs";
  shmem_team_t all_but_first = SHMEM_TEAM_INVALID;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, n - 1, nullptr, 0, &all_but_first), 0);
  expect_team(all_but_first, strided(1, 1, n - 1), "world PEs 1..n-1");
  if (all_but_first != SHMEM_TEAM_INVALID) {
    // Parent PEs 0, 2, ... of that team are world PEs 1, 3, ...
    shmem_team_t child = SHMEM_TEAM_INVALID;
    ASSERT_EQ(shmem_team_split_strided(all_but_first, 0, 2, n / 2, nullptr, 0, &child), 0);
    expect_team(child, strided(1, 2, n / 2), "every other of 1..n-1");
    if (child != SHMEM_TEAM_INVALID)
      for (int i = 0; i < shmem_team_n_pes(child); ++i)
        EXPECT_EQ(shmem_team_translate_pe(child, i, all_but_first), 2 * i);
    shmem_team_destroy(child);
  }
  shmem_team_destroy(all_but_first);
}

// Triplets that name PEs outside the parent, repeat a PE or name none: nonzero and
// SHMEM_TEAM_INVALID everywhere, and the parent is still usable after.
TEST(Team, SplitRejectsBadTriplets) {
  const int n = npes();
  struct triplet {
    int start, stride, size;
  };
  const triplet bad[] = {{n, 1, 1},  {-1, 1, 1}, {0, 1, n + 1}, {0, 1, 0},     {0, 0, 2},
                         {1, n, 2},  {0, -1, 2}, {0, 2, n},     {n - 1, 1, 2}, {0, 1, -3}};
  for (const triplet& c : bad) {
    if (n == 1 && c.start == 0 && c.stride == 2) continue;  // (0, 2, 1) is PE 0 alone at 1 PE
    shmem_team_t t = SHMEM_TEAM_WORLD;
    EXPECT_NE(shmem_team_split_strided(SHMEM_TEAM_WORLD, c.start, c.stride, c.size, nullptr, 0, &t), 0)
        << "(" << c.start << ", " << c.stride << ", " << c.size << ")";
    EXPECT_EQ(t, SHMEM_TEAM_INVALID);
  }
  shmem_team_t x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
  EXPECT_NE(shmem_team_split_2d(SHMEM_TEAM_WORLD, 0, nullptr, 0, &x, nullptr, 0, &y), 0);
  EXPECT_EQ(x, SHMEM_TEAM_INVALID);
  EXPECT_EQ(y, SHMEM_TEAM_INVALID);
  EXPECT_EQ(shmem_team_sync(SHMEM_TEAM_WORLD), 0);
}

TEST(Team, Split2d) {
  const int n = npes();
  // xrange 2 (a full grid), 3 (a short last row at 4 PEs) and past the team size (one row).
  for (int xrange : {2, 3, n + 5}) {
    shmem_team_t xt = SHMEM_TEAM_INVALID, yt = SHMEM_TEAM_INVALID;
    shmem_team_config_t xc{1}, yc{2};
    ASSERT_EQ(shmem_team_split_2d(SHMEM_TEAM_WORLD, xrange, &xc, SHMEM_TEAM_NUM_CONTEXTS, &xt, &yc,
                                  SHMEM_TEAM_NUM_CONTEXTS, &yt), 0);
    const int xr = std::min(xrange, n), x = me() % xr, y = me() / xr;
    std::vector<int> row, column;
    for (int pe = y * xr; pe < std::min(n, (y + 1) * xr); ++pe) row.push_back(pe);
    for (int pe = x; pe < n; pe += xr) column.push_back(pe);
    const std::string what = "xrange " + std::to_string(xrange);
    expect_team(xt, row, (what + " x-axis").c_str());
    expect_team(yt, column, (what + " y-axis").c_str());
    EXPECT_EQ(shmem_team_my_pe(xt), x);
    EXPECT_EQ(shmem_team_my_pe(yt), y);
    shmem_team_config_t got{0};
    EXPECT_EQ(shmem_team_get_config(yt, SHMEM_TEAM_NUM_CONTEXTS, &got), 0);
    EXPECT_EQ(got.num_contexts, 2);
    shmem_team_destroy(xt);
    shmem_team_destroy(yt);
  }
}

// Splits of the world until GIO runs out of team slots: nonzero on every PE, and after destroying
// them splits work again.
TEST(Team, LimitOnLiveTeams) {
  std::vector<shmem_team_t> teams;
  for (int i = 0; i < 100; ++i) {
    shmem_team_t t = SHMEM_TEAM_WORLD;
    const int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes(), nullptr, 0, &t);
    if (rc) {
      EXPECT_EQ(t, SHMEM_TEAM_INVALID);
      break;
    }
    teams.push_back(t);
  }
  EXPECT_EQ(teams.size(), 60u);  // 64 slots less the predefined four (world, shared, and their device teams)
  EXPECT_EQ(std::set<shmem_team_t>(teams.begin(), teams.end()).size(), teams.size());
  for (shmem_team_t t : teams) shmem_team_destroy(t);
  shmem_team_t t = SHMEM_TEAM_INVALID;
  EXPECT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes(), nullptr, 0, &t), 0);
  EXPECT_EQ(shmem_team_sync(t), 0);
  shmem_team_destroy(t);
}

// A team context numbers PEs in its team: over the reversed world, team PE 0 is the last world PE.
TEST(Team, ContextUsesTeamNumbering) {
  const int n = npes();
  sym<int> box(n);
  shmem_team_t rev = SHMEM_TEAM_INVALID;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, nullptr, 0, &rev), 0);
  shmem_ctx_t ctx = SHMEM_CTX_INVALID;
  ASSERT_EQ(shmem_team_create_ctx(rev, 0, &ctx), 0);
  shmem_team_t got = SHMEM_TEAM_INVALID;
  EXPECT_EQ(shmem_ctx_get_team(ctx, &got), 0);
  EXPECT_EQ(got, rev);
  // Write this PE's number into slot `me` of team PE 0 (world PE n-1), through the context.
  const int mine = me() + 100;
  shmem_ctx_int_put(ctx, box.get() + me(), &mine, 1, 0);
  (void)shmem_ctx_int_atomic_fetch_add(ctx, box.get() + me(), 1000, 0);
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  if (me() == n - 1)
    for (int pe = 0; pe < n; ++pe) EXPECT_EQ(box.read()[pe], pe + 1100) << "from PE " << pe;
  shmem_ctx_destroy(ctx);
  // A context of a team destroyed with it (shareable contexts go with their team).
  ASSERT_EQ(shmem_team_create_ctx(rev, 0, &ctx), 0);
  shmem_team_destroy(rev);
  shmem_ctx_t plain = SHMEM_CTX_INVALID;
  ASSERT_EQ(shmem_ctx_create(0, &plain), 0);
  EXPECT_EQ(shmem_ctx_get_team(plain, &got), 0);
  EXPECT_EQ(got, SHMEM_TEAM_WORLD);
  shmem_ctx_destroy(plain);
}

// Syncs on teams that overlap, called in a different order by odd and even PEs: each team's
// counters are its own, so neither can satisfy or starve the other.
TEST(Team, SyncsOfOverlappingTeamsInAnyOrder) {
  shmem_team_t xt = SHMEM_TEAM_INVALID, yt = SHMEM_TEAM_INVALID;
  ASSERT_EQ(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, nullptr, 0, &xt, nullptr, 0, &yt), 0);
  for (int i = 0; i < 50; ++i) {
    if (me() % 2 == 0) {
      EXPECT_EQ(shmem_team_sync(xt), 0);
      EXPECT_EQ(shmem_team_sync(yt), 0);
    } else {
      EXPECT_EQ(shmem_team_sync(yt), 0);
      EXPECT_EQ(shmem_team_sync(xt), 0);
    }
    if (i % 10 == 0) EXPECT_EQ(shmem_team_sync(SHMEM_TEAM_WORLD), 0);
  }
  shmem_team_destroy(xt);
  shmem_team_destroy(yt);
}
