// Host operations follow the peer's transport: host put/get, atomics, signals and quiet reach a
// peer the way its kernels do. CMake also runs this file over gda with GIO_NODE_PER_PE=1, where
// no peer heap is mapped for the host API or kernels (as for a PE on another node), so a host
// call that wrote through a mapping would write to nullptr + offset.
#include <mpi.h>

#include <algorithm>
#include <string>

#include "gio_test.h"

using namespace giotest;

namespace {
std::vector<uint8_t> pattern_bytes(int pe, size_t n, unsigned salt) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = pattern(pe, i, salt);
  return v;
}

// Sizes around the inline limit (28 B), the host bounce area (1 MiB) and odd offsets. Where PEs
// share a GPU (pes_share_gpu) each chunk a proxy or the softnic stages waits for a time slice
// (proxy_staged: 4 KiB chunks), so 1 MiB + 3 there is the largest (two bounce areas' worth still).
std::vector<size_t> sizes() {
  if (pes_share_gpu()) return {1, 7, 8, 28, 29, 64, 1000, 65537, (1u << 20) + 3};
  return {1, 7, 8, 28, 29, 64, 1000, 65537, (1u << 20) + 3, 3u << 20};
}
const size_t kOff = 5;  // unaligned on both sides
}  // namespace

TEST(HostTransport, PeersAreReachedAsKernelsReachThem) {
  sym<uint8_t> probe(64);
  for (int pe = 0; pe < npes(); ++pe) {
    EXPECT_TRUE(shmem_pe_accessible(pe)) << "PE " << pe;
    // Only a p2p peer is load/store reachable (and a PE's own heap always is).
    const bool p2p = std::string(shmemx_transport_name(pe)) == "p2p";
    EXPECT_EQ(shmem_ptr(probe.get(), pe) != nullptr, p2p || pe == me()) << "PE " << pe << " over "
                                                                         << shmemx_transport_name(pe);
  }
}

// Host putmem from host memory (inline / bounce path over gda) and from the heap (the NIC reads
// it in place), then host getmem into host memory and into the heap, every size. Each size has a
// region of its own (kOff bytes into a 64-byte aligned block, a guard byte each side), so all of a
// source's puts go between one pair of barriers.
TEST(HostTransport, PutGetEverySize) {
  std::vector<size_t> at;
  size_t cap = 0;
  for (size_t n : sizes()) at.push_back(cap), cap += (kOff + n + 1 + 63) / 64 * 64;
  sym<uint8_t> inbox(cap), src_heap(cap, false), got_heap(cap);
  for (int from_heap = 0; from_heap < 2; ++from_heap) {
    const unsigned salt = 1 + from_heap;
    inbox.fill_bytes(0);
    got_heap.fill_bytes(0);
    if (from_heap) {
      for (size_t j = 0; j < at.size(); ++j) {
        const std::vector<uint8_t> mine = pattern_bytes(me(), sizes()[j], salt);
        HIP_OK(hipMemcpy(src_heap.get() + at[j] + kOff, mine.data(), mine.size(), hipMemcpyHostToDevice));
      }
    }
    // Host RMA runs on GIO's own streams, not after the application's stream work (docs/guide.md:
    // "Host calls and your streams"); a pageable hipMemcpy may return before its DMA lands.
    HIP_OK(hipDeviceSynchronize());
    shmem_barrier_all();
    for (size_t j = 0; j < at.size(); ++j) {
      const size_t n = sizes()[j];
      uint8_t* to = inbox.get() + at[j] + kOff;
      if (from_heap) {
        shmem_putmem(to, src_heap.get() + at[j] + kOff, n, next_pe());
      } else {
        const std::vector<uint8_t> mine = pattern_bytes(me(), n, salt);
        shmem_putmem(to, mine.data(), n, next_pe());
      }
    }
    shmem_barrier_all();
    const std::vector<uint8_t> in = inbox.read();
    for (size_t j = 0; j < at.size(); ++j) {
      const size_t n = sizes()[j], o = at[j] + kOff;
      const std::vector<uint8_t> mine = pattern_bytes(me(), n, salt), want = pattern_bytes(prev_pe(), n, salt);
      EXPECT_EQ(in[o - 1], 0) << n << " B put: guard before";
      EXPECT_EQ(in[o + n], 0) << n << " B put: guard after";
      EXPECT_TRUE(std::equal(want.begin(), want.end(), in.begin() + o))
          << n << " B put from " << (from_heap ? "the heap" : "host memory");
      // Get back what the next PE received (this PE's pattern) into host memory and the heap.
      std::vector<uint8_t> back(n + 2, 0);
      shmem_getmem(back.data() + 1, inbox.get() + o, n, next_pe());
      EXPECT_TRUE(std::equal(mine.begin(), mine.end(), back.begin() + 1)) << n << " B get into host memory";
      EXPECT_EQ(back[0] | back[n + 1], 0) << n << " B get into host memory: guards";
      shmem_getmem(got_heap.get() + o, inbox.get() + o, n, next_pe());
    }
    const std::vector<uint8_t> gh = got_heap.read();
    for (size_t j = 0; j < at.size(); ++j) {
      const size_t n = sizes()[j], o = at[j] + kOff;
      const std::vector<uint8_t> mine = pattern_bytes(me(), n, salt);
      EXPECT_TRUE(std::equal(mine.begin(), mine.end(), gh.begin() + o)) << n << " B get into the heap";
      EXPECT_EQ(gh[o - 1] | gh[o + n], 0) << n << " B get into the heap: guards";
    }
    shmem_barrier_all();
  }
}

// Every PE's host thread races on the same words of PE 0 and of its next PE.
TEST(HostTransport, AtomicsAreExact) {
  const int kOps = 64;
  sym<long> ctr(2);
  sym<int> ictr(1);
  sym<unsigned> bits(1);
  sym<uint64_t> tickets(kOps * 8);
  shmem_barrier_all();
  std::vector<long> mine;
  for (int k = 0; k < kOps; ++k) {
    mine.push_back(shmem_long_atomic_fetch_add(ctr.get(), 1, 0));
    shmem_int_atomic_add(ictr.get(), 2, 0);
    shmem_uint_atomic_or(bits.get(), 1u << ((me() * kOps + k) % 32), next_pe());
  }
  // Each PE's tickets to PE 0's staging, then PE 0 checks they are a permutation of 0..n*kOps-1.
  shmem_putmem(tickets.get() + me() * kOps, mine.data(), kOps * sizeof(long), 0);
  shmem_barrier_all();
  if (me() == 0) {
    std::vector<uint64_t> all = tickets.read();
    all.resize((size_t)kOps * npes());
    std::sort(all.begin(), all.end());
    for (size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], i) << "fetch_add tickets";
    EXPECT_EQ(ctr.read()[0], (long)kOps * npes());
    EXPECT_EQ(ictr.read()[0], 2 * kOps * npes());
  }
  unsigned expect_bits = 0;
  for (int k = 0; k < kOps; ++k) expect_bits |= 1u << ((prev_pe() * kOps + k) % 32);
  EXPECT_EQ(bits.read()[0], expect_bits) << "or from PE " << prev_pe();
  shmem_barrier_all();
  // compare_swap: exactly one PE wins; swap/fetch/set and the and/xor loops on the next PE's word.
  const long won = shmem_long_atomic_compare_swap(ctr.get() + 1, 0, me() + 1, 0);
  shmem_barrier_all();
  const long final_value = shmem_long_atomic_fetch(ctr.get() + 1, 0);
  EXPECT_EQ(won == 0 ? (long)me() + 1 : won, final_value) << "compare_swap returned " << won;
  int winner = won == 0, winners = 0;
  MPI_Allreduce(&winner, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(winners, 1) << "PEs whose compare_swap succeeded";
  shmem_barrier_all();
  shmem_uint_atomic_set(bits.get(), 0xf0f0u, next_pe());
  EXPECT_EQ(shmem_uint_atomic_fetch_and(bits.get(), 0xff00u, next_pe()), 0xf0f0u);
  EXPECT_EQ(shmem_uint_atomic_fetch_xor(bits.get(), 0x0ff0u, next_pe()), 0xf000u);
  EXPECT_EQ(shmem_uint_atomic_swap(bits.get(), 7u, next_pe()), 0xfff0u);
  EXPECT_EQ(shmem_uint_atomic_fetch(bits.get(), next_pe()), 7u);
  shmem_barrier_all();
}

// putmem_signal (set and add) and signal_set/add from the host; the target sees the data once it
// sees the signal.
TEST(HostTransport, SignalsFollowTheirData) {
  const size_t n = 4096 + 3;
  sym<uint8_t> data(n);
  sym<uint64_t> sig(2);
  shmem_barrier_all();
  const std::vector<uint8_t> mine = pattern_bytes(me(), n, 41);
  shmem_putmem_signal(data.get(), mine.data(), n, sig.get(), 5, SHMEM_SIGNAL_SET, next_pe());
  shmem_putmem_signal_nbi(data.get(), mine.data(), 16, sig.get() + 1, 3, SHMEM_SIGNAL_ADD, next_pe());
  shmem_signal_add(sig.get() + 1, 4, next_pe());
  shmem_quiet();
  shmem_barrier_all();
  EXPECT_EQ(shmem_signal_fetch(sig.get()), 5u);
  EXPECT_EQ(shmem_signal_fetch(sig.get() + 1), 7u);
  EXPECT_EQ(data.read(), pattern_bytes(prev_pe(), n, 41));
  shmem_barrier_all();
  shmem_signal_set(sig.get(), 9, next_pe());
  shmem_barrier_all();
  EXPECT_EQ(shmem_signal_fetch(sig.get()), 9u);
  shmem_barrier_all();
}

// A host _nbi put is complete after shmem_quiet: the target is told over MPI (not through the
// transport) and reads at once.
TEST(HostTransport, QuietCompletesHostNbiPuts) {
  const size_t n = 2u << 20;
  sym<uint8_t> inbox(n);
  shmem_barrier_all();
  const std::vector<uint8_t> mine = pattern_bytes(me(), n, 43);
  shmem_putmem_nbi(inbox.get(), mine.data(), n, next_pe());
  shmem_quiet();
  int token = me(), from = -1;
  MPI_Sendrecv(&token, 1, MPI_INT, next_pe(), 78, &from, 1, MPI_INT, prev_pe(), 78, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  EXPECT_EQ(inbox.read(), pattern_bytes(prev_pe(), n, 43));
  shmem_barrier_all();
}

namespace {
__global__ void put_next(uint8_t* dst, const uint8_t* src, size_t n, int pe) {
  if (threadIdx.x == 0) {
    shmem_putmem(dst, src, n, pe);
    shmem_quiet();
  }
}
}  // namespace

// Kernels reach the same peers (they, too, have no mapping under GIO_NODE_PER_PE), and host and
// kernel traffic meet in one heap.
TEST(HostTransport, KernelAndHostShareThePeers) {
  const size_t n = 1000;
  sym<uint8_t> src(n, false), dst(n);
  src.write(pattern_bytes(me(), n, 47));
  shmem_barrier_all();
  hipLaunchKernelGGL(put_next, dim3(1), dim3(32), 0, 0, dst.get(), (const uint8_t*)src.get(), n, next_pe());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  std::vector<uint8_t> back(n);
  shmem_getmem(back.data(), dst.get(), n, next_pe());  // what this PE's kernel wrote there
  EXPECT_EQ(back, pattern_bytes(me(), n, 47));
  shmem_barrier_all();
}
