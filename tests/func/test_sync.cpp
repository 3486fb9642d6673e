// barrier_all / sync_all: the device forms at every scope (work-group collective, _wg, _wave,
// _thread), long runs of device barriers (epochs keep growing across launches), and the host forms
// between kernel launches and after host-side puts.
//
// Every round, each PE bumps a counter on every other PE (and, for barrier_all, also puts the round
// number there), then synchronizes and checks that all n-1 contributions of this round arrived.
// Rounds alternate between two slot sets: a peer already in round r+1 writes the other set, and it
// cannot reach round r+2 (the same set again) before this PE has checked and entered barrier r+1.
// So any missing or leaky barrier shows up as a short count or a stale round number.
#include "gio_test.h"

using namespace giotest;

namespace {
enum barrier_kind {
  BARRIER_ALL, SYNC_ALL, BARRIER_WG, SYNC_WG, BARRIER_WAVE, SYNC_WAVE, BARRIER_THREAD, SYNC_THREAD, KINDS
};
const char* const kKindNames[KINDS] = {"barrier_all", "sync_all", "barrier_all_wg", "sync_all_wg",
                                       "barrier_all_wave", "sync_all_wave", "barrier_all_thread",
                                       "sync_all_thread"};
GIO_HOST_DEVICE_INLINE bool is_sync(int kind) { return kind % 2 == 1; }

// Result of a kernel's self-check: how many slots were wrong, and the first round that had one.
struct verdict {
  unsigned long long bad;
  unsigned first_bad_round;
};

// Layout of the symmetric box: cnt[2][n] then val[2][n]; slot [q][src] belongs to PE src.
GIO_HOST_DEVICE_INLINE uint64_t* cnt_slot(uint64_t* box, int n, int q, int src) { return box + q * n + src; }
GIO_HOST_DEVICE_INLINE uint64_t* val_slot(uint64_t* box, int n, int q, int src) { return box + (2 + q) * n + src; }

__global__ void rounds_kernel(int kind, uint64_t* box, unsigned r_begin, unsigned r_end, verdict* out) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  // Which threads stand for this PE in the barrier; the others sit the whole kernel out.
  unsigned parts = blockDim.x;
  if (kind == BARRIER_WAVE || kind == SYNC_WAVE) parts = warpSize;
  if (kind == BARRIER_THREAD || kind == SYNC_THREAD) parts = 1;
  const unsigned t = threadIdx.x;
  if (t >= parts) return;
  for (unsigned r = r_begin; r < r_end; ++r) {
    const int q = r & 1;
    for (int k = 1 + (int)t; k < n; k += (int)parts) {
      const int pe = (me + k) % n;
      // Fetching, so the add is complete on return even under sync_all (which implies no quiet).
      (void)shmem_uint64_atomic_fetch_add(cnt_slot(box, n, q, me), 1, pe);
      if (!is_sync(kind)) shmem_uint64_p(val_slot(box, n, q, me), r, pe);
    }
    switch (kind) {
      case BARRIER_ALL: shmem_barrier_all(); break;
      case SYNC_ALL: shmem_sync_all(); break;
      case BARRIER_WG: shmemx_barrier_all_wg(); break;
      case SYNC_WG: shmemx_sync_all_wg(); break;
      case BARRIER_WAVE: shmemx_barrier_all_wave(); break;
      case SYNC_WAVE: shmemx_sync_all_wave(); break;
      case BARRIER_THREAD: shmemx_barrier_all_thread(); break;
      default: shmemx_sync_all_thread(); break;
    }
    // Rounds of parity q so far, counting from round 0: (r + 2) / 2 for even r, (r + 1) / 2 odd.
    const uint64_t want = (r + 2 - (unsigned)q) / 2;
    for (int src = (int)t; src < n; src += (int)parts) {
      if (src == me) continue;
      const uint64_t c = *(volatile uint64_t*)cnt_slot(box, n, q, src);
      const bool val_ok = is_sync(kind) || *(volatile uint64_t*)val_slot(box, n, q, src) == r;
      if (c != want || !val_ok) {
        atomicAdd(&out->bad, 1ull);
        atomicMin(&out->first_bad_round, r);
      }
    }
  }
}

verdict run_rounds(int kind, const sym<uint64_t>& box, unsigned r_begin, unsigned r_end) {
  dbuf<verdict> out(1);
  out.write({verdict{0, ~0u}});
  hipLaunchKernelGGL(rounds_kernel, dim3(1), dim3(128), 0, 0, kind, box.get(), r_begin, r_end, out.get());
  EXPECT_TRUE(synced());
  return out.read()[0];
}
}  // namespace

class DeviceBarrier : public ::testing::TestWithParam<int> {};

// A fresh (zeroed) box and rounds from 0: the counts rounds_kernel expects.
TEST_P(DeviceBarrier, EveryRoundSeesAllContributions) {
  sym<uint64_t> box(4 * npes());
  shmem_barrier_all();
  const verdict v = run_rounds(GetParam(), box, 0, 200);
  EXPECT_EQ(v.bad, 0u) << kKindNames[GetParam()] << ": first wrong round " << v.first_bad_round;
  shmem_barrier_all();
}

INSTANTIATE_TEST_SUITE_P(AllForms, DeviceBarrier, ::testing::Range(0, (int)KINDS),
                         [](const ::testing::TestParamInfo<int>& i) { return std::string(kKindNames[i.param]); });

// 1000 device barriers over several launches, with host barriers and syncs in between: the
// device epoch keeps growing across launches and mixes with the host's barriers.
TEST(DeviceBarriers, ThousandAcrossLaunches) {
  sym<uint64_t> box(4 * npes());
  shmem_barrier_all();
  const unsigned per_launch = 250;
  for (unsigned l = 0; l < 4; ++l) {
    const int kind = l % 2 ? BARRIER_THREAD : BARRIER_ALL;
    const verdict v = run_rounds(kind, box, l * per_launch, (l + 1) * per_launch);
    EXPECT_EQ(v.bad, 0u) << "launch " << l << ": first wrong round " << v.first_bad_round;
    if (l % 2) shmem_sync_all(); else shmem_barrier_all();
  }
  // The counters hold exactly 500 contributions per parity from every other PE.
  std::vector<uint64_t> got = box.read();
  for (int q = 0; q < 2; ++q)
    for (int src = 0; src < npes(); ++src)
      EXPECT_EQ(got[q * npes() + src], src == me() ? 0u : 500u) << "parity " << q << " from PE " << src;
  shmem_barrier_all();
}

// ---- host barrier_all / sync_all between kernel launches ---------------------------------------

namespace {
__global__ void put_round_kernel(uint64_t* slots, uint64_t round) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  if (threadIdx.x != 0) return;
  for (int k = 1; k < n; ++k) shmem_uint64_p(slots + (round & 1) * n + me, round, (me + k) % n);
  shmem_quiet();
}

// After the host synchronization, this PE's slots of `round` hold `round` from every other PE.
::testing::AssertionResult round_landed(const sym<uint64_t>& slots, uint64_t round) {
  std::vector<uint64_t> got = slots.read();
  for (int src = 0; src < npes(); ++src) {
    const uint64_t v = got[(round & 1) * npes() + src];
    if (src != me() && v != round)
      return ::testing::AssertionFailure() << "round " << round << ": slot of PE " << src << " holds " << v;
  }
  return ::testing::AssertionSuccess();
}
}  // namespace

// shmem_barrier_all itself waits for this PE's kernels: no hipDeviceSynchronize before it.
TEST(HostBarrier, BarrierAllBetweenKernelLaunches) {
  sym<uint64_t> slots(2 * npes());
  shmem_barrier_all();
  for (uint64_t round = 1; round <= 60; ++round) {
    hipLaunchKernelGGL(put_round_kernel, dim3(1), dim3(32), 0, 0, slots.get(), round);
    shmem_barrier_all();
    EXPECT_TRUE(round_landed(slots, round));
  }
  EXPECT_TRUE(synced());
  shmem_barrier_all();
}

// sync_all does not wait for kernels or quiet: the kernel's own quiet plus a device sync do.
TEST(HostBarrier, SyncAllBetweenKernelLaunches) {
  sym<uint64_t> slots(2 * npes());
  shmem_barrier_all();
  for (uint64_t round = 1; round <= 60; ++round) {
    hipLaunchKernelGGL(put_round_kernel, dim3(1), dim3(32), 0, 0, slots.get(), round);
    EXPECT_TRUE(synced());
    shmem_sync_all();
    EXPECT_TRUE(round_landed(slots, round));
  }
  shmem_barrier_all();
}

namespace {
// Kernel-side check of host-written slots: counts wrong ones.
__global__ void check_round_kernel(const uint64_t* slots, uint64_t round, unsigned* bad) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  for (int src = threadIdx.x; src < n; src += blockDim.x)
    if (src != me && slots[(round & 1) * n + src] != round) atomicAdd(bad, 1u);
}
}  // namespace

// Host puts (no explicit quiet) are complete everywhere once shmem_barrier_all returns, seen both
// by host reads and by a kernel launched afterwards. Odd rounds use putmem, even rounds typed p.
TEST(HostBarrier, BarrierAllCompletesHostPuts) {
  sym<uint64_t> slots(2 * npes());
  dbuf<unsigned> bad(1);
  shmem_barrier_all();
  for (uint64_t round = 1; round <= 60; ++round) {
    for (int k = 1; k < npes(); ++k) {
      uint64_t* dst = slots.get() + (round & 1) * npes() + me();
      if (round & 1)
        shmem_putmem(dst, &round, sizeof round, next_pe(k));
      else
        shmem_uint64_p(dst, round, next_pe(k));
    }
    shmem_barrier_all();
    EXPECT_TRUE(round_landed(slots, round));
    hipLaunchKernelGGL(check_round_kernel, dim3(1), dim3(32), 0, 0, slots.get(), round, bad.get());
    EXPECT_TRUE(synced());
  }
  EXPECT_EQ(bad.read()[0], 0u) << "slots a kernel saw stale, over all rounds";
  shmem_barrier_all();
}
