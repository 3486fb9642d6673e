// Every PE moves data to and from every other PE at the same time: one work-group per peer posts
// puts with a signal and gets, each of many chunks where the proxy stages them, and no kernel
// waits; the host's quiet completes them all. Over the proxy every PE's thread then waits for its
// own chunks' acknowledgements and replies while its peers' chunks, acknowledgements, atomics and
// get replies arrive, each of which its peer's thread waits for in turn (host/proxy/proxy_run.cpp:
// a peer's request is served, and its receive buffer posted again, while the thread waits for its
// own; host/proxy/proxy_connect.cpp sizes the receives for the most that can be in flight). A
// thread that stopped serving while it waited would leave two PEs waiting on each other until
// GIO_TIMEOUT_MS. func.test_crossing.proxy_depth1 runs it with the fewest receives the proxy posts.
#include "gio_test.h"

using namespace giotest;

namespace {
// Per peer: kRounds puts with a signal and kRounds gets of kLen bytes each. Over proxy_staged (4 KiB
// chunks) that is 64 chunks a transfer, 512 a peer. Where PEs share a GPU each chunk's copy into
// GPU memory waits for a time slice (gio_test.h pes_share_gpu), so one round runs there.
const size_t kLen = 256u << 10;
int rounds() {
  static const int n = pes_share_gpu() ? 1 : 4;
  return n;
}

// Work-group g serves peer (me + g + 1) % n: its puts land in that peer's `put_dst` at this PE's
// region, each adding 1 to the peer's signal word for this PE; its gets fetch the peer's `src` into
// this PE's `get_dst` at the peer's region. Regions hold rounds * kLen bytes.
__global__ void cross(uint8_t* put_dst, uint8_t* get_dst, const uint8_t* src, uint64_t* sig, int rounds) {
  if (threadIdx.x != 0) return;
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const int pe = (me + (int)blockIdx.x + 1) % n;
  const size_t region = (size_t)rounds * kLen;
  for (int r = 0; r < rounds; ++r) {
    const size_t at = (size_t)r * kLen;
    shmem_putmem_signal_nbi(put_dst + (size_t)me * region + at, src + at, kLen, sig + me, 1, SHMEM_SIGNAL_ADD, pe);
    shmem_getmem_nbi(get_dst + (size_t)pe * region + at, src + at, kLen, pe);
  }
}

// The bytes of `got` that differ from PE `from`'s pattern.
size_t wrong_bytes(const std::vector<uint8_t>& got, size_t at, size_t len, int from, unsigned salt) {
  size_t bad = 0;
  for (size_t i = 0; i < len; ++i) bad += got[at + i] != pattern(from, i, salt);
  return bad;
}
}  // namespace

TEST(Crossing, EveryPePutsAndGetsToEveryOtherAtOnce) {
  const int n = npes();
  if (n < 2) GTEST_SKIP() << "needs a peer";
  const unsigned salt = 5;
  const size_t region = (size_t)rounds() * kLen;
  sym<uint8_t> src(region, false), put_dst(region * n), get_dst(region * n);
  sym<uint64_t> sig(n);
  std::vector<uint8_t> mine(region);
  for (size_t i = 0; i < region; ++i) mine[i] = pattern(me(), i, salt);
  src.write(mine);
  shmem_barrier_all();
  hipLaunchKernelGGL(cross, dim3(n - 1), dim3(32), 0, 0, put_dst.get(), get_dst.get(), (const uint8_t*)src.get(),
                     sig.get(), rounds());
  ASSERT_TRUE(synced());
  shmem_quiet();  // this PE's gets have landed, and its puts and signals are at their targets
  shmem_barrier_all();
  const std::vector<uint8_t> put_got = put_dst.read(), get_got = get_dst.read();
  for (int p = 0; p < n; ++p) {
    if (p == me()) continue;
    EXPECT_EQ(wrong_bytes(put_got, (size_t)p * region, region, p, salt), 0u) << "bytes PE " << p << " put here";
    EXPECT_EQ(shmem_signal_fetch(sig.get() + p), (uint64_t)rounds()) << "signals from PE " << p;
    EXPECT_EQ(wrong_bytes(get_got, (size_t)p * region, region, p, salt), 0u) << "bytes got from PE " << p;
  }
  shmem_barrier_all();
}
