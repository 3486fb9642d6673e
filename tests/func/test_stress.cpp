// Stress: many work-groups each issue a long stream of small puts and atomics to a neighbour,
// wrapping every gda send queue many times over. Nothing may be lost or reordered per target
// address: each slot ends with the last value written to it and the atomic counter with the exact
// number of adds. Operation count: --gio_stress_ops=N (default 2000 on the host platform);
// work-groups: --gio_stress_wgs=N (default 64). With a GPU per PE over p2p or a ConnectX the size
// is 64 x 100000 (apps/bench/gpu/run-gpu.sh stress runs it over gda, softnic included); CI runs
// 8 x 70000 over gda, past every queue's 16-bit index wrap, as func.test_stress.gda.full.np2
// (tests/func/CMakeLists.txt says why).
//
// Where PEs share a GPU (pes_share_gpu), each softnic or proxy atomic on GPU memory waits for a time
// slice, so the defaults there are 16 work-groups x 2000 operations with an add every 64th (about 500
// atomics a PE where 64 x 100000 made 800,000): 2031 WQEs still wrap each work-group's queue (256
// slots by default) seven times; so they are where a CPU thread serves the wire on a GPU (gio_test.h
// cpu_serves_wire: the proxy, gda's softnic). The options, where given, still set the first two.
#include "gio_test.h"

using namespace giotest;

namespace {
unsigned long ops_per_wg() {
#if defined(GIO_PLATFORM_HOST)
  return flag_value("gio_stress_ops", 2000);
#else
  return flag_value("gio_stress_ops", fewer_ops() ? 2000 : 100000);
#endif
}
unsigned long work_groups() { return flag_value("gio_stress_wgs", fewer_ops() ? 16 : 64); }
// An atomic add every add_every() operations.
unsigned add_every() { return fewer_ops() ? 64 : 8; }

constexpr unsigned kSlots = 32;

__global__ void stress(uint64_t* slots, uint64_t* counter, unsigned long ops, unsigned every) {
  if (threadIdx.x != 0) return;
  const int n = shmem_n_pes(), me = shmem_my_pe(), peer = (me + 1) % n;
  uint64_t* mine = slots + ((size_t)me * gridDim.x + blockIdx.x) * kSlots;  // this (PE, wg)'s slots at the peer
  for (unsigned long i = 1; i <= ops; ++i) {
    const uint64_t v = ((uint64_t)blockIdx.x << 40) | i;
    shmem_uint64_put_nbi(mine + i % kSlots, &v, 1, peer);
    if (i % every == 0) shmem_uint64_atomic_add(counter, 1, peer);
    if (i % 4096 == 0) shmem_quiet();
  }
  shmem_quiet();
}
}  // namespace

TEST(Stress, SixtyFourWorkGroupsWrapEveryQueue) {
  const unsigned long ops = ops_per_wg();
  const unsigned kWgs = (unsigned)work_groups(), every = add_every();
  ASSERT_GE(kWgs, 1u);
  sym<uint64_t> slots((size_t)npes() * kWgs * kSlots);
  sym<uint64_t> counter(1);
  shmem_barrier_all();
  hipLaunchKernelGGL(stress, dim3(kWgs), dim3(32), 0, 0, slots.get(), counter.get(), ops, every);
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  const int from = prev_pe();
  std::vector<uint64_t> got = slots.read();
  for (unsigned wg = 0; wg < kWgs; ++wg)
    for (unsigned s = 0; s < kSlots; ++s) {
      // The last i <= ops with i % kSlots == s.
      unsigned long last = ops - ((ops - s) % kSlots + kSlots) % kSlots;
      const uint64_t want = last ? (((uint64_t)wg << 40) | last) : 0;
      ASSERT_EQ(got[((size_t)from * kWgs + wg) * kSlots + s], want) << "from PE " << from << " wg " << wg << " slot " << s;
    }
  EXPECT_EQ(counter.read()[0], (uint64_t)kWgs * (ops / every));
  if (me() == 0) printf("stress: %u work-groups x %lu operations each (+%lu atomics) per PE\n", kWgs, ops, ops / every);
}
