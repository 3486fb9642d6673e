// Device teams and device contexts of the GPU Auxiliary Specification (shmemg.h): the predefined
// SHMEM_DEVICE_TEAM_WORLD and SHMEM_DEVICE_TEAM_SHARED as teams of their own (queries, splits, a
// kernel's team sync on a split), and contexts the host makes with SHMEM_DEVICE_CTX that kernels
// use, one made from a team numbering PEs in that team (RMA, AMO, put-with-signal), up to
// SHMEM_DEVICE_MAX_CTX live at once. Each case checks what arrived.
#include "gio_test.h"

#include <shmemg.h>

#include <vector>

using namespace giotest;

namespace {
const unsigned kThreads = 64;

// Team PE `to` of the context's team gets this PE's team number + 1 at inbox[slot] (a put), one
// fetch-add on counter, and a signal ADD of 1.
__global__ void team_ctx_kernel(shmem_ctx_t ctx, int to, int slot, int* inbox, int* counter, uint64_t* sig,
                                int* fetched) {
  if (threadIdx.x == 0) {
    const int val = slot + 1;
    shmemg_ctx_putmem(ctx, inbox + slot, &val, sizeof val, to);
    shmemg_ctx_quiet(ctx);
    *fetched = shmemg_ctx_int_atomic_fetch_add(ctx, counter, 1, to);
    shmemg_ctx_putmem_signal(ctx, inbox + 64 + slot, &val, sizeof val, sig, 1, SHMEM_SIGNAL_ADD, to);
    shmemg_ctx_quiet(ctx);
  }
  __syncthreads();
}

// Gets and work-group puts through a team context: got[0] by one thread, got[1] by the work-group,
// and the work-group's put of kGroupInts ints into block `slot` of `blocks`, all from team PE `from`.
constexpr int kGroupInts = 48;
__global__ void team_ctx_get_kernel(shmem_ctx_t ctx, int from, int slot, const int* marker, int* blocks, int* got) {
  __shared__ int mine[kGroupInts];
  if (threadIdx.x == 0) shmemg_ctx_getmem(ctx, &got[0], marker, sizeof(int), from);
  for (int i = threadIdx.x; i < kGroupInts; i += blockDim.x) mine[i] = slot * 1000 + i;
  __syncthreads();
  shmemg_ctx_getmem_tg(ctx, &got[1], marker, sizeof(int), from);
  shmemg_ctx_putmem_tg(ctx, blocks + slot * kGroupInts, mine, sizeof mine, from);
  shmemg_ctx_quiet(ctx);
  __syncthreads();
}

__global__ void team_sync_kernel(shmem_team_t team, int* out) {
  out[threadIdx.x] = shmemg_team_sync_tg(team);
}

__global__ void put_next_kernel(shmem_ctx_t ctx, int* dst, int next) {
  if (threadIdx.x == 0) {
    const int v = shmemg_my_pe() + 100;
    shmemg_ctx_putmem(ctx, dst, &v, sizeof v, next);
    shmemg_ctx_quiet(ctx);
  }
}
}  // namespace

// A kernel's put on `ctx` to the next PE lands there (and the previous PE's here).
static void expect_put_to_next(shmem_ctx_t ctx) {
  sym<int> dst(1);
  dst.write({-1});
  shmem_barrier_all();
  hipLaunchKernelGGL(put_next_kernel, dim3(1), dim3(kThreads), 0, 0, ctx, dst.get(), next_pe());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  EXPECT_EQ(dst.read()[0], prev_pe() + 100);
}

TEST(DeviceTeams, PredefinedTeamsOfTheirOwn) {
  EXPECT_NE(SHMEM_DEVICE_TEAM_WORLD, SHMEM_TEAM_WORLD);
  EXPECT_NE(SHMEM_DEVICE_TEAM_SHARED, SHMEM_TEAM_SHARED);
  EXPECT_EQ(shmem_team_n_pes(SHMEM_DEVICE_TEAM_WORLD), npes());
  EXPECT_EQ(shmem_team_my_pe(SHMEM_DEVICE_TEAM_WORLD), me());
  // SHMEM_DEVICE_TEAM_SHARED: every member's GPU heap is load/store reachable from here.
  sym<int> block(16);
  const int n = shmem_team_n_pes(SHMEM_DEVICE_TEAM_SHARED);
  ASSERT_GE(n, 1);
  ASSERT_GE(shmem_team_my_pe(SHMEM_DEVICE_TEAM_SHARED), 0);
  for (int i = 0; i < n; ++i) {
    const int pe = shmem_team_translate_pe(SHMEM_DEVICE_TEAM_SHARED, i, SHMEM_TEAM_WORLD);
    ASSERT_GE(pe, 0);
    EXPECT_NE(shmem_ptr(block.get(), pe), nullptr) << "team PE " << i << " (PE " << pe << ")";
  }
  shmem_ctx_t ctx;
  ASSERT_EQ(shmem_team_create_ctx(SHMEM_DEVICE_TEAM_WORLD, SHMEM_DEVICE_CTX, &ctx), 0);
  shmem_team_t back = SHMEM_TEAM_INVALID;
  EXPECT_EQ(shmem_ctx_get_team(ctx, &back), 0);
  EXPECT_EQ(back, SHMEM_DEVICE_TEAM_WORLD);
  shmem_ctx_destroy(ctx);
  shmem_barrier_all();
}

TEST(DeviceTeams, SplitOfTheDeviceWorldSyncsInAKernel) {
  // Even PEs of the device world; the odd ones get SHMEM_TEAM_INVALID.
  shmem_team_t evens = SHMEM_TEAM_INVALID;
  const int size = (npes() + 1) / 2;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_DEVICE_TEAM_WORLD, 0, 2, size, nullptr, 0, &evens), 0);
  if (me() % 2 == 0) {
    ASSERT_NE(evens, SHMEM_TEAM_INVALID);
    EXPECT_EQ(shmem_team_n_pes(evens), size);
    EXPECT_EQ(shmem_team_my_pe(evens), me() / 2);
    dbuf<int> out(kThreads);
    hipLaunchKernelGGL(team_sync_kernel, dim3(1), dim3(kThreads), 0, 0, evens, out.get());
    ASSERT_TRUE(synced());
    for (int v : out.read()) EXPECT_EQ(v, 0);
    shmem_team_destroy(evens);
  } else {
    EXPECT_EQ(evens, SHMEM_TEAM_INVALID);
  }
  shmem_barrier_all();
}

TEST(DeviceCtx, HostMadeContextCarriesKernelPuts) {
  shmem_ctx_t ctx = SHMEM_CTX_INVALID;
  ASSERT_EQ(shmem_ctx_create(SHMEM_DEVICE_CTX, &ctx), 0);
  ASSERT_NE(ctx, SHMEM_CTX_INVALID);
  ASSERT_NE(ctx, SHMEM_CTX_DEFAULT);
  expect_put_to_next(ctx);
  shmem_ctx_destroy(ctx);
  shmem_barrier_all();
}

// A team whose PE 0 is world PE 1 (PEs 1..n-1): a context of it sends to team PE 0, so every
// member's operations land at world PE 1, never at world PE 0.
TEST(DeviceCtx, TeamContextNumbersPesInItsTeam) {
  if (npes() < 2) GTEST_SKIP() << "needs 2 PEs";
  shmem_team_t tail = SHMEM_TEAM_INVALID;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, npes() - 1, nullptr, 0, &tail), 0);
  sym<int> inbox(128), counter(1);
  sym<uint64_t> sig(1);
  inbox.write(std::vector<int>(128, 0));
  counter.write({0});
  sig.write({0});
  shmem_barrier_all();
  if (me() >= 1) {
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    ASSERT_EQ(shmem_team_create_ctx(tail, SHMEM_DEVICE_CTX, &ctx), 0);
    shmem_team_t back = SHMEM_TEAM_INVALID;
    EXPECT_EQ(shmem_ctx_get_team(ctx, &back), 0);
    EXPECT_EQ(back, tail);
    dbuf<int> fetched(1);
    hipLaunchKernelGGL(team_ctx_kernel, dim3(1), dim3(kThreads), 0, 0, ctx, 0, shmem_team_my_pe(tail), inbox.get(),
                       counter.get(), sig.get(), fetched.get());
    ASSERT_TRUE(synced());
    EXPECT_GE(fetched.read()[0], 0);
    EXPECT_LT(fetched.read()[0], npes() - 1);
    shmem_ctx_destroy(ctx);
  }
  shmem_barrier_all();
  const std::vector<int> in = inbox.read();
  const int members = npes() - 1;
  if (me() == 1) {
    EXPECT_EQ(counter.read()[0], members);
    EXPECT_EQ(sig.read()[0], (uint64_t)members);
    for (int s = 0; s < members; ++s) {
      EXPECT_EQ(in[s], s + 1) << "put from team PE " << s;
      EXPECT_EQ(in[64 + s], s + 1) << "put-with-signal from team PE " << s;
    }
  } else {
    // World PE 0 (outside the team) and the other members receive nothing.
    EXPECT_EQ(counter.read()[0], 0);
    EXPECT_EQ(sig.read()[0], 0u);
    for (int v : in) EXPECT_EQ(v, 0);
  }
  if (tail != SHMEM_TEAM_INVALID) shmem_team_destroy(tail);
  shmem_barrier_all();
}

// The same team (world PEs 1..n-1): a get from team PE 0 reads world PE 1's marker, by one thread
// and by a work-group, and a work-group's put to team PE 0 lands at world PE 1 only.
TEST(DeviceCtx, TeamContextGetsAndGroupPutsUseItsPes) {
  if (npes() < 2) GTEST_SKIP() << "needs 2 PEs";
  shmem_team_t tail = SHMEM_TEAM_INVALID;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, npes() - 1, nullptr, 0, &tail), 0);
  sym<int> marker(1), blocks((size_t)kGroupInts * npes());
  marker.write({7000 + me()});
  blocks.write(std::vector<int>((size_t)kGroupInts * npes(), -1));
  shmem_barrier_all();
  if (me() >= 1) {
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    ASSERT_EQ(shmem_team_create_ctx(tail, SHMEM_DEVICE_CTX, &ctx), 0);
    dbuf<int> got(2);
    hipLaunchKernelGGL(team_ctx_get_kernel, dim3(1), dim3(kThreads), 0, 0, ctx, 0, shmem_team_my_pe(tail),
                       (const int*)marker.get(), blocks.get(), got.get());
    ASSERT_TRUE(synced());
    EXPECT_EQ(got.read()[0], 7001) << "a thread's get from team PE 0";
    EXPECT_EQ(got.read()[1], 7001) << "a work-group's get from team PE 0";
    shmem_ctx_destroy(ctx);
  }
  shmem_barrier_all();
  const std::vector<int> b = blocks.read();
  for (int slot = 0; slot < npes(); ++slot)
    for (int i = 0; i < kGroupInts; ++i) {
      const bool sent = me() == 1 && slot < npes() - 1;  // one block from each team member, at world PE 1
      ASSERT_EQ(b[(size_t)slot * kGroupInts + i], sent ? slot * 1000 + i : -1) << "block " << slot << ", int " << i;
    }
  shmem_team_destroy(tail);
  shmem_barrier_all();
}

TEST(DeviceCtx, AtMostMaxContextsLiveThenReused) {
  // SHMEM_DEVICE_MAX_CTX is 8 unless the environment says otherwise.
  const char* env = getenv("SHMEM_DEVICE_MAX_CTX");
  const int max = env ? atoi(env) : 8;
  std::vector<shmem_ctx_t> made;
  for (int i = 0; i < max; ++i) {
    shmem_ctx_t c = SHMEM_CTX_INVALID;
    ASSERT_EQ(shmem_ctx_create(SHMEM_DEVICE_CTX | SHMEM_CTX_PRIVATE, &c), 0) << "context " << i;
    for (shmem_ctx_t o : made) EXPECT_NE(o, c);
    made.push_back(c);
  }
  shmem_ctx_t extra = SHMEM_CTX_DEFAULT;
  EXPECT_NE(shmem_ctx_create(SHMEM_DEVICE_CTX, &extra), 0);
  EXPECT_EQ(extra, SHMEM_CTX_INVALID);
  // Host contexts are counted apart.
  shmem_ctx_t host = SHMEM_CTX_INVALID;
  EXPECT_EQ(shmem_ctx_create(0, &host), 0);
  shmem_ctx_destroy(host);
  for (shmem_ctx_t c : made) shmem_ctx_destroy(c);
  // Every slot is free again, and a reused one carries puts.
  shmem_ctx_t again = SHMEM_CTX_INVALID;
  ASSERT_EQ(shmem_ctx_create(SHMEM_DEVICE_CTX, &again), 0);
  expect_put_to_next(again);
  shmem_ctx_destroy(again);
  shmem_barrier_all();
}
