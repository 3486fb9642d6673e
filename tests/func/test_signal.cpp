// Signals as the only way a kernel learns that data arrived: put-with-signal at every scope
// (blocking and _nbi, SET and ADD) and "puts, shmem_fence, flag" ordering, each run by many
// work-groups at once on every PE, with the receiver checking every byte each time it sees the
// signal; plus signal_set/add/fetch from kernels and from host code. The vector wait/test
// routines are in test_wait.cpp.
//
// Where PEs share a GPU (pes_share_gpu), each round trip waits for the peer's kernel to get a time
// slice and each softnic or proxy signal on GPU memory for one of its own, so the many-work-group
// cases run 8 work-groups of 20 round trips there (every combination of blocking or _nbi and SET or
// ADD twice) instead of 64 of 200.
#include "gio_test.h"

#include <memory>
#include <string>

using namespace giotest;

namespace {
enum scope_kind { THREAD = 0, WAVE = 1, WG = 2 };

const unsigned kWGs = 64, kThreads = 64;
// Rounds per work-group of the many-work-group cases. 100 on the host platform: there each round
// trip waits for the emulator (and over the proxy for its thread) to be scheduled among 64
// work-group threads a PE, and the 200 of GPUs made test_signal 68 s of CI's time over the proxy
// at 4 PEs on 2 cores; 64 x 100 round trips a PE still interleave every work-group with the others.
// --gio_ring_iters=N sets it: the host suite's runs other than p2p, gda and the proxy at 2 PEs
// take 25 (tests/func/CMakeLists.txt, GIO_TEST_SUBSET_test_signal).
#if defined(GIO_PLATFORM_HOST)
const int kIters = 100;
#else
const int kIters = 200;
#endif
// The many-work-group cases' work-groups and rounds (gio_test.h says why they are fewer where PEs
// share a GPU, and over the proxy on a GPU).
unsigned ring_wgs() { return fewer_ops() ? 8 : kWGs; }
int ring_iters() { return (int)flag_value("gio_ring_iters", fewer_ops() ? 20 : kIters); }
const size_t kSlice = 2048;  // room per work-group; each sends fewer bytes, from an odd offset

__device__ __host__ inline size_t slice_len(unsigned b) { return 1000 + (b * 97) % 1000; }
__device__ __host__ inline size_t slice_off(unsigned b) { return b * kSlice + b % 4; }

// Per work-group counters: bytes found wrong, the first iteration with a wrong byte, and signal
// values that differed from what the wait had just seen.
struct wg_errors {
  unsigned bad_bytes, first_bad_iter, bad_signal, unused;
};

struct ring_args {
  uint8_t* inbox;  // symmetric: what the previous PE sends us
  uint8_t* src;    // what we send, rewritten every iteration
  uint64_t* sig;   // symmetric, one per work-group
  uint64_t* ack;   // symmetric, one per work-group: the receiver has checked iteration i
  wg_errors* err;
  int scope;
};

// Every byte of this work-group's slice from `from` must carry iteration `salt`'s pattern, and
// the byte after it must be untouched.
__device__ inline unsigned check_slice(const uint8_t* got, size_t len, int from, unsigned salt) {
  unsigned bad = 0;
  for (size_t k = threadIdx.x; k < len; k += blockDim.x) bad += got[k] != pattern(from, k, salt);
  if (threadIdx.x == 0) bad += got[len] != 0;
  return bad;
}

__device__ inline void record(wg_errors* e, unsigned bad, unsigned first, unsigned sig_bad) {
  if (bad) atomicAdd(&e->bad_bytes, bad);
  if (first) atomicMin(&e->first_bad_iter, first);
  if (sig_bad) atomicAdd(&e->bad_signal, sig_bad);
}

// Work-group b sends its slice to the next PE with one put-with-signal per iteration (blocking or
// _nbi by b's bit 0, SET or ADD by bit 1), waits for the previous PE's, checks it, and acks it.
__global__ void put_signal_ring(ring_args a, int iters) {
  const int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
  const unsigned b = blockIdx.x;
  const bool nbi = b & 1;
  const int op = (b & 2) ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET;
  const size_t len = slice_len(b);
  uint8_t* src = a.src + slice_off(b);
  uint8_t* dst = a.inbox + slice_off(b);
  uint64_t* sig = a.sig + b;
  unsigned bad = 0, first = 0, sig_bad = 0;
  for (int i = 1; i <= iters; ++i) {
    const unsigned salt = i * 64 + b;
    unsigned early = 0;
    for (size_t k = threadIdx.x; k < len; k += blockDim.x) src[k] = pattern(me, k, salt);
    __syncthreads();
    // SET writes the iteration number; ADD adds one per iteration: either way the signal reads i.
    const uint64_t v = op == SHMEM_SIGNAL_SET ? (uint64_t)i : 1;
    if (a.scope == THREAD) {
      if (threadIdx.x == 0)
        nbi ? shmem_putmem_signal_nbi(dst, src, len, sig, v, op, next) : shmem_putmem_signal(dst, src, len, sig, v, op, next);
    } else if (a.scope == WAVE) {
      if (threadIdx.x < (unsigned)warpSize)
        nbi ? shmemx_putmem_signal_nbi_wave(dst, src, len, sig, v, op, next)
            : shmemx_putmem_signal_wave(dst, src, len, sig, v, op, next);
    } else {
      nbi ? shmemx_putmem_signal_nbi_wg(dst, src, len, sig, v, op, next)
          : shmemx_putmem_signal_wg(dst, src, len, sig, v, op, next);
    }
    if (threadIdx.x == 0) {
      if (nbi) shmem_quiet();  // completes our _nbi put before `src` is rewritten
      shmem_signal_wait_until(sig, op == SHMEM_SIGNAL_SET ? SHMEM_CMP_EQ : SHMEM_CMP_GE, (uint64_t)i);
      sig_bad += shmem_signal_fetch(sig) != (uint64_t)i;
      // The bytes stored last must be there the moment the signal is seen, not a little later.
      early = dst[len - 1] != pattern(prev, len - 1, salt);
    }
    __syncthreads();
    const unsigned bad_now = check_slice(dst, len, prev, salt) + early;
    if (bad_now && !first) first = i;
    bad += bad_now;
    __syncthreads();
    // The sender may only overwrite our inbox once we are done reading it.
    if (threadIdx.x == 0) {
      shmem_signal_add(a.ack + b, 1, prev);
      shmem_signal_wait_until(a.ack + b, SHMEM_CMP_GE, (uint64_t)i);
    }
    __syncthreads();
  }
  record(a.err + b, bad, first, sig_bad);
}

// Checks the per-work-group error counters and the final signal values on every PE.
void expect_clean(const dbuf<wg_errors>& err, const char* what) {
  std::vector<wg_errors> e = err.read();
  for (unsigned b = 0; b < kWGs; ++b) {
    EXPECT_EQ(e[b].bad_bytes, 0u) << what << ": work-group " << b << " first saw wrong data in iteration "
                                  << e[b].first_bad_iter;
    EXPECT_EQ(e[b].bad_signal, 0u) << what << ": work-group " << b;
  }
}

dbuf<wg_errors>* new_errors() {
  auto* e = new dbuf<wg_errors>(kWGs);
  std::vector<wg_errors> init(kWGs, wg_errors{0, ~0u, 0, 0});
  e->write(init);
  return e;
}
}  // namespace

class PutSignal : public ::testing::TestWithParam<int> {};

TEST_P(PutSignal, ManyWorkGroupsDataCompleteWhenSignalSeen) {
  sym<uint8_t> inbox(kSlice * kWGs);
  sym<uint64_t> sig(kWGs), ack(kWGs);
  sym<uint8_t> src(kSlice * kWGs);  // in the heap, so a real NIC (gda) may read it too
  std::unique_ptr<dbuf<wg_errors>> err(new_errors());
  shmem_barrier_all();
  ring_args a{inbox.get(), src.get(), sig.get(), ack.get(), err->get(), GetParam()};
  const unsigned wgs = ring_wgs();
  const int iters = ring_iters();
  hipLaunchKernelGGL(put_signal_ring, dim3(wgs), dim3(kThreads), 0, 0, a, iters);
  ASSERT_TRUE(synced());
  expect_clean(*err, "putmem_signal");
  std::vector<uint64_t> s = sig.read(), k = ack.read();
  for (unsigned b = 0; b < wgs; ++b) {
    EXPECT_EQ(s[b], (uint64_t)iters) << "signal of work-group " << b;
    EXPECT_EQ(shmem_signal_fetch(sig.get() + b), (uint64_t)iters) << "host signal_fetch, work-group " << b;
    EXPECT_EQ(k[b], (uint64_t)iters) << "acks of work-group " << b;
  }
  shmem_barrier_all();
}

INSTANTIATE_TEST_SUITE_P(AllScopes, PutSignal, ::testing::Values(THREAD, WAVE, WG),
                         [](const ::testing::TestParamInfo<int>& i) {
                           return std::string(i.param == THREAD ? "thread" : i.param == WAVE ? "wave" : "wg");
                         });

// ---- puts, shmem_fence, then a flag written with shmem_TYPE_p ------------------------------------

struct flag_args {
  uint8_t* inbox;
  uint8_t* src;
  int* iflag;       // symmetric, per work-group: flag of the even work-groups
  uint64_t* uflag;  // symmetric, per work-group: flag of the odd ones
  int* ack;         // symmetric, per work-group
  wg_errors* err;
};

// The data goes out as several plain puts, then one thread fences and writes the flag; the
// receiver polls the flag with wait_until and must then find every byte. Work-groups b % 4 < 2:
// thread 0 issues all the puts (putmem, putmem_nbi, uint8_put); otherwise every thread puts its
// own chunk and the work-group synchronizes before thread 0's fence, which then orders them all.
__global__ void fence_flag_ring(flag_args a, int iters) {
  const int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
  const unsigned b = blockIdx.x, t = threadIdx.x;
  const size_t len = slice_len(b), third = len / 3;
  uint8_t* src = a.src + slice_off(b);
  uint8_t* dst = a.inbox + slice_off(b);
  unsigned bad = 0, first = 0;
  for (int i = 1; i <= iters; ++i) {
    const unsigned salt = i * 64 + b + 7;
    unsigned early = 0;
    for (size_t k = t; k < len; k += blockDim.x) src[k] = pattern(me, k, salt);
    __syncthreads();
    if (b % 4 < 2) {
      if (t == 0) {
        shmem_putmem(dst, src, third, next);
        shmem_putmem_nbi(dst + third, src + third, third, next);
        shmem_uint8_put(dst + 2 * third, src + 2 * third, len - 2 * third, next);
      }
    } else {
      const size_t chunk = (len + blockDim.x - 1) / blockDim.x, lo = t * chunk < len ? t * chunk : len;
      const size_t hi = lo + chunk < len ? lo + chunk : len;
      if (hi > lo) (t & 1) ? shmem_putmem_nbi(dst + lo, src + lo, hi - lo, next) : shmem_putmem(dst + lo, src + lo, hi - lo, next);
    }
    __syncthreads();
    if (t == 0) {
      shmem_fence();
      if (b % 2 == 0) {
        shmem_int_p(a.iflag + b, i, next);
        shmem_int_wait_until(a.iflag + b, SHMEM_CMP_EQ, i);
      } else {
        shmem_uint64_p(a.uflag + b, (uint64_t)i, next);
        shmem_uint64_wait_until(a.uflag + b, SHMEM_CMP_GE, (uint64_t)i);
      }
      early = dst[len - 1] != pattern(prev, len - 1, salt);
    }
    __syncthreads();
    const unsigned bad_now = check_slice(dst, len, prev, salt) + early;
    if (bad_now && !first) first = i;
    bad += bad_now;
    __syncthreads();
    if (t == 0) {
      shmem_int_p(a.ack + b, i, prev);
      shmem_int_wait_until(a.ack + b, SHMEM_CMP_GE, i);
      // The next iteration rewrites src: an _nbi put's source is free only after a quiet (the
      // peer's ack says the data arrived, not that this PE's NIC is done with the source).
      shmem_quiet();
    }
    __syncthreads();
  }
  record(a.err + b, bad, first, 0);
}

TEST(FenceFlag, ManyWorkGroupsDataCompleteWhenFlagSeen) {
  sym<uint8_t> inbox(kSlice * kWGs);
  sym<int> iflag(kWGs), ack(kWGs);
  sym<uint64_t> uflag(kWGs);
  sym<uint8_t> src(kSlice * kWGs);  // in the heap, so a real NIC (gda) may read it too
  std::unique_ptr<dbuf<wg_errors>> err(new_errors());
  shmem_barrier_all();
  flag_args a{inbox.get(), src.get(), iflag.get(), uflag.get(), ack.get(), err->get()};
  const unsigned wgs = ring_wgs();
  const int iters = ring_iters();
  hipLaunchKernelGGL(fence_flag_ring, dim3(wgs), dim3(kThreads), 0, 0, a, iters);
  ASSERT_TRUE(synced());
  expect_clean(*err, "fence then flag");
  std::vector<int> f = iflag.read();
  std::vector<uint64_t> u = uflag.read();
  for (unsigned b = 0; b < wgs; ++b) EXPECT_EQ(b % 2 ? (long long)u[b] : (long long)f[b], iters) << "flag " << b;
  shmem_barrier_all();
}

// ---- signal_set / signal_add / signal_fetch, from kernels and from host code --------------------

// Work-group 0 of PE 0 waits while every other work-group of every PE adds into PE 0's `sum` and
// one thread per PE sets its slot twice (a SET must overwrite, not accumulate).
__global__ void signal_counts(uint64_t* sum, uint64_t* slots, uint64_t total, uint64_t* seen) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  if (me == 0 && blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      shmem_signal_wait_until(sum, SHMEM_CMP_EQ, total);
      for (int p = 0; p < n; ++p) shmem_signal_wait_until(slots + p, SHMEM_CMP_EQ, 100 + p);
      seen[0] = shmem_signal_fetch(sum);
    }
    return;
  }
  shmem_signal_add(sum, 1 + threadIdx.x % 7, 0);
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    shmem_signal_set(slots + me, 50 + me, 0);
    shmem_signal_set(slots + me, 100 + me, 0);
  }
}

// PE 0's kernel waits for the signals other PEs' host code sends, then checks their data.
__global__ void watch_host_signals(const uint8_t* inbox, uint64_t* sigs, const int* status, uint64_t* hsum,
                                   uint64_t hsum_want, unsigned* bad, size_t len) {
  const int n = shmem_n_pes();
  if (threadIdx.x == 0) {
    shmem_uint64_wait_until_all(sigs, n, status, SHMEM_CMP_EQ, 1);
    shmem_signal_wait_until(hsum, SHMEM_CMP_EQ, hsum_want);
  }
  __syncthreads();
  unsigned b = 0;
  for (int p = 1; p < n; ++p)
    for (size_t k = threadIdx.x; k < len; k += blockDim.x) b += inbox[p * len + k] != pattern(p, k, 3);
  if (b) atomicAdd(bad, b);
}

TEST(SignalOps, SetAddFetchFromKernelsAndHost) {
  const unsigned wgs = 8, threads = 64;
  sym<uint64_t> sum(1), slots(npes()), sigs(npes()), hsum(1);
  const size_t len = 3001;
  sym<uint8_t> inbox(len * npes());
  dbuf<uint64_t> seen(1);
  dbuf<unsigned> bad(1);
  uint64_t total = 0;
  for (int p = 0; p < npes(); ++p)
    for (unsigned b = p == 0 ? 1 : 0; b < wgs; ++b)
      for (unsigned t = 0; t < threads; ++t) total += 1 + t % 7;
  shmem_barrier_all();
  hipLaunchKernelGGL(signal_counts, dim3(wgs), dim3(threads), 0, 0, sum.get(), slots.get(), total, seen.get());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  if (me() == 0) {
    EXPECT_EQ(seen.read()[0], total);
    EXPECT_EQ(shmem_signal_fetch(sum.get()), total);
    for (int p = 0; p < npes(); ++p) EXPECT_EQ(shmem_signal_fetch(slots.get() + p), (uint64_t)(100 + p)) << "PE " << p;
  }

  // Host-initiated: every other PE's host code sends data with a signal (blocking or _nbi) and adds
  // into hsum, while PE 0's kernel waits for all of it.
  uint64_t hsum_want = 0;
  for (int p = 1; p < npes(); ++p) hsum_want += 10 + p;
  shmem_barrier_all();
  if (me() == 0) {
    std::vector<int> status(npes(), 0);
    status[0] = 1;  // nobody signals PE 0's own slot
    dbuf<int> st(npes());
    st.write(status);
    hipLaunchKernelGGL(watch_host_signals, dim3(1), dim3(threads), 0, 0, inbox.get(), sigs.get(), st.get(),
                       hsum.get(), hsum_want, bad.get(), len);
    ASSERT_TRUE(synced());
    EXPECT_EQ(bad.read()[0], 0u) << "data not complete when the host's signal was seen";
  } else {
    std::vector<uint8_t> data(len);
    for (size_t k = 0; k < len; ++k) data[k] = pattern(me(), k, 3);
    if (me() % 2)
      shmem_putmem_signal(inbox.get() + me() * len, data.data(), len, sigs.get() + me(), 1, SHMEM_SIGNAL_SET, 0);
    else
      shmem_putmem_signal_nbi(inbox.get() + me() * len, data.data(), len, sigs.get() + me(), 1, SHMEM_SIGNAL_ADD, 0);
    shmem_signal_add(hsum.get(), 5, 0);
    shmem_signal_add(hsum.get(), 5 + me(), 0);
    shmem_quiet();
  }
  shmem_barrier_all();
  if (me() == 0) EXPECT_EQ(shmem_signal_fetch(hsum.get()), hsum_want);
  shmem_barrier_all();
}

// ---- a kernel holding every multiprocessor ------------------------------------------------------
// A persistent kernel at full occupancy (Jacobi2D's gio and ikn variants) leaves no room on its GPU
// for another kernel until it ends. Its signals, atomic sets and fetches, carried by the softnic
// (gda) or by the proxies, must then not need one: here PE 0's kernel fills every thread slot of
// its GPU (two work-groups of 1024 threads per multiprocessor; a kernel that leaves registers or
// threads free lets a one-thread kernel run beside it) and, once every work-group has arrived (a
// kernel launched while the grid is still being placed slips in beside it), fetches a word of PE
// 1's, sets another, puts data with a SET signal and waits for PE 1's host to answer with a
// put-with-signal of its own. Over gda the set is left out: mlx5 has no atomic write, so gda sets
// by a compare-and-swap loop, which the softnic can only run as a kernel (a fetch is a fetch-add of
// 0, which it reads by a copy).
const uint64_t kFullWord = 0x5a5a00000000c0deull, kFullSet = 0x0123456789abcdefull;
const size_t kFullLen = 1000;
#if defined(GIO_PLATFORM_HOST)
const unsigned kFullThreads = 64;  // the emulator's work-groups are fibers: keep them few
#else
const unsigned kFullThreads = 1024;
#endif

struct full_args {
  uint64_t *word, *set_word, *sig_out, *sig_in;
  uint8_t* inbox;     // symmetric: PE 0's data lands in PE 1's
  const uint8_t* src; // PE 0's data
  unsigned* arrived;  // work-groups other than 0 that are running
  unsigned* gate;     // work-group 0 opens it when done; the others hold their slots until then
  unsigned* errs;     // [0] wrong fetch, [1] work-groups that gave up waiting for the gate,
                      // [2] work-group 0 gave up waiting for the others to arrive
};

__global__ void __launch_bounds__(kFullThreads, 2) hold_every_multiprocessor(full_args a, int peer, int set,
                                                                               unsigned long long give_up_ns) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      const unsigned long long t0 = gio::plat::clock_ns();
      while (gio::plat::atomic_load_acquire(a.arrived) != gridDim.x - 1) {
        gio::plat::relax();
        if (gio::plat::clock_ns() - t0 > give_up_ns) {
          a.errs[2] = 1;
          break;
        }
      }
      if (shmem_uint64_atomic_fetch(a.word, peer) != kFullWord) a.errs[0] = 1;
      if (set) shmem_uint64_atomic_set(a.set_word, kFullSet, peer);
      shmem_putmem_signal(a.inbox, a.src, kFullLen, a.sig_out, 1, SHMEM_SIGNAL_SET, peer);
      shmem_signal_wait_until(a.sig_in, SHMEM_CMP_EQ, 1);
      __threadfence();
      atomicExch(a.gate, 1u);
    }
    return;
  }
  if (threadIdx.x == 0) {
    atomicAdd(a.arrived, 1u);
    const unsigned long long t0 = gio::plat::clock_ns();
    while (!gio::plat::atomic_load_acquire(a.gate)) {
      gio::plat::relax();
      if (gio::plat::clock_ns() - t0 > give_up_ns) {
        atomicAdd(a.errs + 1, 1u);
        break;
      }
    }
  }
  __syncthreads();
}

TEST(SignalOps, SetAndFetchReachAKernelHoldingEveryMultiprocessor) {
  if (npes() < 2) GTEST_SKIP() << "needs a second PE";
  const unsigned threads = kFullThreads;
  sym<uint64_t> word(1), set_word(1), sig_out(1), sig_in(1), answer(1);
  sym<uint8_t> inbox(kFullLen), src(kFullLen);
  dbuf<unsigned> arrived(1), gate(1), errs(3);
  const bool set = std::string(shmemx_transport_name(me() == 0 ? 1 : 0)) != "gda";
  if (me() == 1) word.write({kFullWord});
  if (me() == 0) {
    std::vector<uint8_t> data(kFullLen);
    for (size_t k = 0; k < kFullLen; ++k) data[k] = pattern(0, k, 11);
    src.write(data);
  }
  shmem_barrier_all();
  if (me() == 0) {
    int dev = 0, per_mp = 0;
    HIP_OK(hipGetDevice(&dev));
    hipDeviceProp_t prop;
    HIP_OK(hipGetDeviceProperties(&prop, dev));
    HIP_OK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_mp, hold_every_multiprocessor, (int)threads, 0));
    const unsigned grid = (unsigned)(per_mp * prop.multiProcessorCount);
    ASSERT_GT(grid, 1u);
    const full_args a{word.get(), set_word.get(), sig_out.get(), sig_in.get(), inbox.get(), src.get(), arrived.get(),
                      gate.get(), errs.get()};
    hipLaunchKernelGGL(hold_every_multiprocessor, dim3(grid), dim3(threads), 0, 0, a, 1, set ? 1 : 0,
                       120000000000ull);
    ASSERT_TRUE(synced());
    const std::vector<unsigned> e = errs.read();
    EXPECT_EQ(e[0], 0u) << "shmem_uint64_atomic_fetch from the full GPU read a wrong value";
    EXPECT_EQ(e[1], 0u) << "work-groups gave up waiting for work-group 0 (" << grid << " launched)";
    EXPECT_EQ(e[2], 0u) << "not all " << grid << " work-groups were running at once";
  } else if (me() == 1) {
    shmem_signal_wait_until(sig_out.get(), SHMEM_CMP_EQ, 1);
    const std::vector<uint8_t> got = inbox.read();
    unsigned bad = 0;
    for (size_t k = 0; k < kFullLen; ++k) bad += got[k] != pattern(0, k, 11);
    EXPECT_EQ(bad, 0u) << "data not complete when the signal was seen";
    if (set) EXPECT_EQ(set_word.read()[0], kFullSet);
    const uint64_t one = 1;
    shmem_putmem_signal(answer.get(), &one, sizeof one, sig_in.get(), 1, SHMEM_SIGNAL_SET, 0);
    shmem_quiet();
  }
  shmem_barrier_all();
}

// ---- long double put-with-signal, from host code (the type has no GPU form) ---------------------

// Every PE sends its values to the next one with each form (typed, ctx, generic, generic ctx;
// blocking and _nbi), each with a signal of its own, which the next PE's host waits for before it
// reads that slot.
TEST(SignalOps, LongDoublePutSignalFromHost) {
  typedef long double LD;
  ASSERT_TRUE(ld_beyond_double());
  const size_t n = 7, forms = 8;
  sym<LD> box(forms * n);
  sym<uint64_t> sig(forms);
  std::vector<LD> mine(n);
  for (size_t k = 0; k < n; ++k) mine[k] = ld_value(me(), k);
  const shmem_ctx_t c = SHMEM_CTX_DEFAULT;
  LD* b = box.get();
  uint64_t* s = sig.get();
  const int to = next_pe(), set = SHMEM_SIGNAL_SET, add = SHMEM_SIGNAL_ADD;
  shmem_barrier_all();
  shmem_longdouble_put_signal(b, mine.data(), n, s, 1, set, to);
  shmem_longdouble_put_signal_nbi(b + n, mine.data(), n, s + 1, 2, add, to);
  shmem_ctx_longdouble_put_signal(c, b + 2 * n, mine.data(), n, s + 2, 3, set, to);
  shmem_ctx_longdouble_put_signal_nbi(c, b + 3 * n, mine.data(), n, s + 3, 4, add, to);
  shmem_put_signal(b + 4 * n, mine.data(), n, s + 4, 5, set, to);
  shmem_put_signal_nbi(b + 5 * n, mine.data(), n, s + 5, 6, add, to);
  shmem_put_signal(c, b + 6 * n, mine.data(), n, s + 6, 7, set, to);
  shmem_put_signal_nbi(c, b + 7 * n, mine.data(), n, s + 7, 8, add, to);
  shmem_quiet();
  for (size_t f = 0; f < forms; ++f) {
    EXPECT_EQ(shmem_signal_wait_until(s + f, SHMEM_CMP_EQ, f + 1), f + 1);
    std::vector<LD> got(n);
    HIP_OK(hipMemcpy(got.data(), b + f * n, n * sizeof(LD), hipMemcpyDeviceToHost));
    for (size_t k = 0; k < n; ++k) EXPECT_EQ(got[k], ld_value(prev_pe(), k)) << "form " << f << ", element " << k;
  }
  shmem_barrier_all();
}
