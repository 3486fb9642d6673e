// SHMEM_THREAD_MULTIPLE from host code, and host threads that talk to a running kernel.
// - Several host threads per PE do fetching atomics, puts, gets and quiets at once: every fetched
//   value must be exact (the fetch-add tickets of all threads of all PEs are a permutation).
// - A kernel waits for a value that a host thread of its own PE sets while the kernel runs: host
//   atomics, signals and puts must not wait for the GPU's kernels to finish. On the host platform
//   launches are synchronous, so the setter is another thread; on GPUs the launch returns at once
//   and the main thread sets the value too.
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "gio_test.h"

// This binary starts with shmem_init_thread(SHMEM_THREAD_MULTIPLE) (see gio_test_main.cpp).
extern "C" {
int giotest_thread_level = SHMEM_THREAD_MULTIPLE;
}

using namespace giotest;

namespace {
const int kThreads = 4;
const int kOps = 48;
const size_t kBlock = 3000;  // per thread and op: above the gda inline size

std::vector<uint8_t> block_of(int pe, int t, int k) {
  std::vector<uint8_t> v(kBlock);
  for (size_t i = 0; i < kBlock; ++i) v[i] = pattern(pe, i, (unsigned)(t * kOps + k + 1));
  return v;
}
}  // namespace

TEST(HostThreads, MultipleIsProvided) {
  int level = -1;
  shmem_query_thread(&level);
  EXPECT_EQ(level, SHMEM_THREAD_MULTIPLE);
}

TEST(HostThreads, ConcurrentAtomicsPutsGetsAndQuiets) {
  const int n = npes();
  sym<long long> ctr(1);
  sym<int> ictr(1);
  sym<long long> tickets((size_t)kThreads * kOps * n);
  sym<int> itickets((size_t)kThreads * kOps * n);
  sym<uint8_t> inbox((size_t)kThreads * kBlock);  // one block per thread of the previous PE
  shmem_barrier_all();
  std::vector<std::vector<long long>> mine(kThreads);
  std::vector<std::vector<int>> imine(kThreads);
  std::vector<int> bad_gets(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int k = 0; k < kOps; ++k) {
        mine[t].push_back(shmem_longlong_atomic_fetch_add(ctr.get(), 1, 0));
        imine[t].push_back(shmem_int_atomic_fetch_inc(ictr.get(), 0));
        const std::vector<uint8_t> b = block_of(me(), t, k);
        shmem_putmem_nbi(inbox.get() + t * kBlock, b.data(), kBlock, next_pe());
        shmem_quiet();
        // The block this thread just put is the one its slot holds now: nobody else writes there.
        std::vector<uint8_t> back(kBlock);
        shmem_getmem(back.data(), inbox.get() + t * kBlock, kBlock, next_pe());
        bad_gets[t] += back != b;
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(bad_gets[t], 0) << "thread " << t << ": gets that did not return the thread's own put";
    shmem_putmem(tickets.get() + ((size_t)me() * kThreads + t) * kOps, mine[t].data(), kOps * sizeof(long long), 0);
    shmem_putmem(itickets.get() + ((size_t)me() * kThreads + t) * kOps, imine[t].data(), kOps * sizeof(int), 0);
  }
  shmem_barrier_all();
  if (me() == 0) {
    std::vector<long long> all = tickets.read();
    std::vector<int> iall = itickets.read();
    std::sort(all.begin(), all.end());
    std::sort(iall.begin(), iall.end());
    size_t wrong = 0, iwrong = 0;
    for (size_t i = 0; i < all.size(); ++i) {
      wrong += all[i] != (long long)i;
      iwrong += iall[i] != (int)i;
    }
    EXPECT_EQ(wrong, 0u) << "8-byte fetch_add results are not a permutation of 0.." << all.size() - 1;
    EXPECT_EQ(iwrong, 0u) << "4-byte fetch_inc results are not a permutation of 0.." << iall.size() - 1;
  }
  // What the previous PE's threads put last.
  const std::vector<uint8_t> in = inbox.read();
  for (int t = 0; t < kThreads; ++t) {
    const std::vector<uint8_t> want = block_of(prev_pe(), t, kOps - 1);
    EXPECT_TRUE(std::equal(want.begin(), want.end(), in.begin() + t * kBlock)) << "block of thread " << t;
  }
  shmem_barrier_all();
}

namespace {
enum class setter { signal_set, atomic_set, putmem_signal };
const size_t kData = 4096 + 5;
const uint64_t kValue = 42;

__global__ void wait_for_host(uint64_t* started, uint64_t* sig, int how, const uint8_t* data, int pe, int* ok) {
  if (threadIdx.x != 0) return;
  shmem_uint64_atomic_set(started, 1, shmem_my_pe());  // tell the host this kernel is running
  if (how == (int)setter::atomic_set)
    shmem_uint64_wait_until(sig, SHMEM_CMP_EQ, kValue);
  else
    shmem_signal_wait_until(sig, SHMEM_CMP_EQ, kValue);
  int good = 1;
  if (how == (int)setter::putmem_signal)
    for (size_t i = 0; i < kData; ++i) good &= data[i] == giotest::pattern(pe, i, 53);
  *ok = good;
}

// Sets the value the kernel waits for, once the kernel says it runs; bounded.
void set_when_running(setter how, uint64_t* started, uint64_t* sig, uint8_t* data, const std::vector<uint8_t>& src,
                      bool* saw_kernel) {
  const auto t0 = std::chrono::steady_clock::now();
  while (shmem_uint64_atomic_fetch(started, me()) == 0) {
    if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(30)) return;  // the kernel fails the test
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  *saw_kernel = true;
  switch (how) {
    case setter::signal_set: shmem_signal_set(sig, kValue, me()); break;
    case setter::atomic_set: shmem_uint64_atomic_set(sig, kValue, me()); break;
    case setter::putmem_signal:
      shmem_putmem_signal(data, src.data(), kData, sig, kValue, SHMEM_SIGNAL_SET, me());
      break;
  }
}

void host_sets_while_kernel_waits(setter how, bool from_main_thread) {
  sym<uint64_t> started(1), sig(1);
  sym<uint8_t> data(kData);
  dbuf<int> ok(1);
  std::vector<uint8_t> src(kData);
  for (size_t i = 0; i < kData; ++i) src[i] = pattern(me(), i, 53);
  shmem_barrier_all();
  bool saw_kernel = false;
  if (from_main_thread) {  // GPUs only: the launch returns while the kernel runs
    hipLaunchKernelGGL(wait_for_host, dim3(1), dim3(32), 0, 0, started.get(), sig.get(), (int)how,
                       (const uint8_t*)data.get(), me(), ok.get());
    set_when_running(how, started.get(), sig.get(), data.get(), src, &saw_kernel);
  } else {
    std::thread t(set_when_running, how, started.get(), sig.get(), data.get(), std::cref(src), &saw_kernel);
    hipLaunchKernelGGL(wait_for_host, dim3(1), dim3(32), 0, 0, started.get(), sig.get(), (int)how,
                       (const uint8_t*)data.get(), me(), ok.get());
    t.join();
  }
  ASSERT_TRUE(synced());
  EXPECT_TRUE(saw_kernel) << "the host never saw the kernel start";
  EXPECT_EQ(ok.read()[0], 1) << "the kernel did not see the data before the signal";
  shmem_barrier_all();
}
}  // namespace

TEST(HostThreads, SignalSetReachesRunningKernel) { host_sets_while_kernel_waits(setter::signal_set, false); }
TEST(HostThreads, AtomicSetReachesRunningKernel) { host_sets_while_kernel_waits(setter::atomic_set, false); }
TEST(HostThreads, PutmemSignalReachesRunningKernel) { host_sets_while_kernel_waits(setter::putmem_signal, false); }
#if !defined(GIO_PLATFORM_HOST)
TEST(HostThreads, MainThreadSignalsRunningKernel) { host_sets_while_kernel_waits(setter::signal_set, true); }
TEST(HostThreads, MainThreadAtomicSetReachesRunningKernel) { host_sets_while_kernel_waits(setter::atomic_set, true); }
#endif

// Host threads that poll a word (as a lock's holder or a waiter does) must not starve another host
// thread of the same PE: the gda and proxy host queues take one thread at a time, in arrival order.
// Two pollers loop on a fetch of a word of this PE; a third thread makes kWorkerOps fetching adds
// on it. The worker must finish while the pollers still poll (they give up after 60 s), and the
// pollers may complete only a bounded number of operations per worker operation: in arrival order
// each worker operation waits behind at most one operation of each poller (the bound, 50 per
// poller and worker operation, leaves room for a descheduled worker). Without the arrival order
// this starved the worker on a 16-core GPU host (test_lock's FIFO case on one H100, 6ef2993); on
// two cores the scheduler happens to alternate, so there it passes either way.
TEST(HostThreads, PollingThreadsDoNotStarveAnother) {
  const int kWorkerOps = 200, kPollers = 2;
  sym<long> flag(1), ctr(1);
  shmem_barrier_all();
  std::atomic<bool> done{false};
  std::atomic<long> polls{0};
  std::vector<std::thread> pollers;
  for (int p = 0; p < kPollers; ++p)
    pollers.emplace_back([&] {
      const auto t0 = std::chrono::steady_clock::now();
      while (!done && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60)) {
        (void)shmem_long_atomic_fetch(flag.get(), me());
        ++polls;
        std::this_thread::yield();
      }
    });
  while (polls < 2 * kPollers) std::this_thread::yield();  // both are polling
  const long polls0 = polls;
  const auto t0 = std::chrono::steady_clock::now();
  long last = -1;
  for (int k = 0; k < kWorkerOps && !HasFailure(); ++k) {
    EXPECT_EQ(last = shmem_long_atomic_fetch_add(ctr.get(), 1, me()), k);
    if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(60)) break;
  }
  const long during = polls - polls0;
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  done = true;
  for (std::thread& t : pollers) t.join();
  EXPECT_EQ(last, kWorkerOps - 1) << "the worker got " << last + 1 << " of " << kWorkerOps << " operations through in "
                                  << ms << " ms while two threads polled";
  EXPECT_LE(during, 50L * kPollers * kWorkerOps) << "the pollers got " << during << " operations through beside the worker's "
                                                 << kWorkerOps;
  printf("PE %d: %d worker operations in %.1f ms, %ld polls meanwhile\n", me(), kWorkerOps, ms, during);
  shmem_barrier_all();
}
