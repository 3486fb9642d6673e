// Distributed locks (shmem_set_lock, shmem_test_lock, shmem_clear_lock) from host threads and
// kernel work-groups of every PE, alone and mixed.
// - Mutual exclusion: every holder increments a counter on the last PE with a plain get and put
//   (an atomic fetch and set under ThreadSanitizer, see get_long);
//   only a lock that excludes (and hands on the holder's completed puts) makes the sum exact.
// - FIFO: contenders of every PE, work-groups and host threads, are let into the queue one at a
//   time while PE 0 holds the lock (the holder watches the tail word on PE 0 change as each swaps
//   itself in), and must then get the lock in exactly that order.
// - test_lock: 1 while another holds the lock, 0 (and the lock held) when it is free.
// Where PEs share a GPU (pes_share_gpu), every atomic of a hand-off and every get and put of a
// critical section over the softnic or the proxy waits for a time slice, so the contention tests
// run fewer rounds there (and the cooperative ones two work-groups, not four): the same contenders
// of every kind, every lane's increment in each critical section, fewer times over.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "gio_test.h"

extern "C" {
int giotest_thread_level = SHMEM_THREAD_MULTIPLE;
}

using namespace giotest;

namespace {
const int kHostThreads = 3;
const unsigned kWGs = 6;
// Rounds per contender: fewer where PEs share a GPU (the header says why).
struct lock_load {
  int host_iters, dev_iters, coop_wgs, coop_iters;
};
const lock_load& load() {
  static const lock_load l = pes_share_gpu() ? lock_load{5, 3, 2, 2} : lock_load{20, 10, 4, 5};
  return l;
}

// The critical sections' plain get and put. Under ThreadSanitizer they are an atomic fetch and an
// atomic set: still two steps (without the lock, increments would be lost just the same), but TSan
// cannot see a hand-off that passes through another process (this PE's thread, then a peer's, then
// this PE's other thread) and would report the plain copies of two threads of this PE as a race.
GIO_HOST_DEVICE_INLINE long get_long(const long* p, int pe) {
#if defined(GIO_TEST_TSAN)
  return shmem_long_atomic_fetch(p, pe);
#else
  return shmem_long_g(p, pe);
#endif
}
GIO_HOST_DEVICE_INLINE void put_long(long* p, long v, int pe) {
#if defined(GIO_TEST_TSAN)
  shmem_long_atomic_set(p, v, pe);
#else
  shmem_long_p(p, v, pe);
#endif
}

// One increment of the counter at `ctr` on `pe` under `lock`: a get and a put, not an atomic.
GIO_HOST_DEVICE_INLINE void locked_increment(long* lock, long* ctr, int pe, bool try_first) {
  if (try_first) {
    while (shmem_test_lock(lock) != 0) {
    }
  } else {
    shmem_set_lock(lock);
  }
  put_long(ctr, get_long(ctr, pe) + 1, pe);
  shmem_clear_lock(lock);
}

__global__ void increment_kernel(long* lock, long* ctr, int pe, int iters, int try_first) {
  if (threadIdx.x != 0) return;  // thread scope: one thread per work-group takes the lock
  for (int i = 0; i < iters; ++i) locked_increment(lock, ctr, pe, try_first != 0);
}

void host_increments(long* lock, long* ctr, int pe, int iters, bool try_first) {
  for (int i = 0; i < iters; ++i) locked_increment(lock, ctr, pe, try_first);
}

// Host threads and/or a kernel of every PE increment one counter; it must come out exact.
void contend(int threads, unsigned wgs, bool try_first) {
  sym<long> lock(1), ctr(1);
  const int owner = npes() - 1;
  shmem_barrier_all();
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; ++t)
    ts.emplace_back(host_increments, lock.get(), ctr.get(), owner, load().host_iters, try_first);
  if (wgs)  // on GPUs the launch returns while the kernel runs; on the host platform it runs here
    hipLaunchKernelGGL(increment_kernel, dim3(wgs), dim3(64), 0, 0, lock.get(), ctr.get(), owner, load().dev_iters,
                       (int)try_first);
  for (std::thread& t : ts) t.join();
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  const long want = (long)npes() * (threads * load().host_iters + (long)wgs * load().dev_iters);
  EXPECT_EQ(shmem_long_g(ctr.get(), owner), want);
  EXPECT_EQ(shmem_long_g(lock.get(), 0), 0) << "the tail must be empty once every holder released";
  shmem_barrier_all();
}
}  // namespace

TEST(Lock, HostThreadsOfEveryPE) { contend(kHostThreads, 0, false); }
TEST(Lock, WorkGroupsOfEveryPE) { contend(0, kWGs, false); }
TEST(Lock, HostThreadsAndWorkGroupsMixed) { contend(kHostThreads, kWGs, false); }
TEST(Lock, TestLockSpinMixed) { contend(2, 3, true); }

namespace {
// Cooperative forms: every lane of the scope increments its own counter on the last PE inside the
// critical section, so the hand-off must cover every lane's put, not only the queuing lane's.
// COOP_WG_TEST tries test_lock first and queues only when refused: a spin on test_lock by 64-lane
// holders' peers floods PE 0's proxy with compare-swaps (27 s at 4 PEs), and a wrong answer fails
// either way (a wrong 0 loses increments, a wrong 1 queues behind itself until GIO_TIMEOUT_MS).
enum { COOP_WG, COOP_WAVE, COOP_WG_TEST };
const unsigned kCoopThreads = 64;

__global__ void coop_kernel(long* lock, long* ctrs, int pe, int iters, int how) {
  for (int i = 0; i < iters; ++i) {
    if (how == COOP_WAVE)
      shmemx_set_lock_wave(lock);
    else if (how == COOP_WG)
      shmemx_set_lock_wg(lock);
    else if (shmemx_test_lock_wg(lock) != 0)  // refused: queue (a wrong 1 would wait for itself)
      shmemx_set_lock_wg(lock);
    put_long(&ctrs[threadIdx.x], get_long(&ctrs[threadIdx.x], pe) + 1, pe);
    if (how == COOP_WAVE)
      shmemx_clear_lock_wave(lock);
    else
      shmemx_clear_lock_wg(lock);
  }
}

void coop(int how) {
  sym<long> lock(1), ctrs(kCoopThreads);
  const int owner = npes() - 1;
  shmem_barrier_all();
  const int wgs = load().coop_wgs, iters = load().coop_iters;
  hipLaunchKernelGGL(coop_kernel, dim3(wgs), dim3(kCoopThreads), 0, 0, lock.get(), ctrs.get(), owner, iters, how);
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  std::vector<long> got(kCoopThreads);
  shmem_getmem(got.data(), ctrs.get(), sizeof(long) * kCoopThreads, owner);
  for (unsigned t = 0; t < kCoopThreads; ++t) EXPECT_EQ(got[t], (long)wgs * iters * npes()) << "lane " << t;
  shmem_barrier_all();
}
}  // namespace

TEST(Lock, CooperativeWorkGroups) { coop(COOP_WG); }
TEST(Lock, CooperativeWaves) { coop(COOP_WAVE); }
TEST(Lock, CooperativeTestLockWorkGroups) { coop(COOP_WG_TEST); }

TEST(Lock, TestLockSemantics) {
  sym<long> lock(1), ctr(1);
  if (me() == 0) EXPECT_EQ(shmem_test_lock(lock.get()), 0) << "a free lock is taken";
  shmem_barrier_all();
  if (me() != 0) EXPECT_EQ(shmem_test_lock(lock.get()), 1) << "a held lock is refused";
  shmem_barrier_all();
  if (me() == 0) {
    EXPECT_EQ(shmem_test_lock(lock.get()), 1) << "held by this PE's other caller";
    shmem_clear_lock(lock.get());
  }
  shmem_barrier_all();
  // Each PE in turn takes the free lock with test_lock and keeps it until the next barrier.
  for (int pe = 0; pe < npes(); ++pe) {
    if (me() == pe) {
      EXPECT_EQ(shmem_test_lock(lock.get()), 0);
      put_long(ctr.get(), get_long(ctr.get(), 0) + 1, 0);
    }
    shmem_barrier_all();
    if (me() != pe) EXPECT_EQ(shmem_test_lock(lock.get()), 1);
    shmem_barrier_all();
    if (me() == pe) shmem_clear_lock(lock.get());
    shmem_barrier_all();
  }
  EXPECT_EQ(shmem_long_g(ctr.get(), 0), npes());
  shmem_barrier_all();
}

// Two locks in one word pair: holding one does not hold the other, and one caller may hold both.
TEST(Lock, TwoLocksNest) {
  sym<long> locks(2), ctr(2);
  for (int i = 0; i < 10; ++i) {
    shmem_set_lock(&locks.get()[0]);
    shmem_set_lock(&locks.get()[1]);
    put_long(&ctr.get()[0], get_long(&ctr.get()[0], 0) + 1, 0);
    shmem_clear_lock(&locks.get()[1]);
    put_long(&ctr.get()[1], get_long(&ctr.get()[1], 0) + 1, 0);
    shmem_clear_lock(&locks.get()[0]);
  }
  shmem_barrier_all();
  EXPECT_EQ(shmem_long_g(&ctr.get()[0], 0), 10L * npes());
  EXPECT_EQ(shmem_long_g(&ctr.get()[1], 0), 10L * npes());
  shmem_barrier_all();
}

namespace {
// FIFO: contender j of a PE (work-groups 0..kFifoWGs-1, then host threads) waits for go[j] on its
// PE, takes the lock, appends its id to the log on PE 0 and lets go.
const unsigned kFifoWGs = 3;
const int kFifoThreads = 2;
const int kFifoPer = (int)kFifoWGs + kFifoThreads;

GIO_HOST_DEVICE_INLINE void fifo_enter(long* lock, long* log, long* count, long id) {
  shmem_set_lock(lock);
  const long k = get_long(count, 0);
  put_long(&log[k], id, 0);
  put_long(count, k + 1, 0);
  shmem_clear_lock(lock);
}

__global__ void fifo_kernel(long* lock, long* go, long* log, long* count) {
  if (threadIdx.x != 0) return;
  shmem_long_wait_until(&go[blockIdx.x], SHMEM_CMP_EQ, 1);
  fifo_enter(lock, log, count, (long)shmem_my_pe() * kFifoPer + blockIdx.x);
}

void fifo_host(long* lock, long* go, long* log, long* count, int j) {
  const auto t0 = std::chrono::steady_clock::now();
  while (shmem_long_atomic_fetch(&go[j], me()) != 1) {
    if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(60)) return;  // the holder's check fails
    std::this_thread::yield();
  }
  fifo_enter(lock, log, count, (long)me() * kFifoPer + j);
}
}  // namespace

TEST(Lock, FifoAcrossPEsWorkGroupsAndThreads) {
  const int n = npes(), total = n * kFifoPer;
  sym<long> lock(1), go(kFifoPer), log(total), count(1);
  // PE 0's holder thread takes the lock (and, as its holder, must be the one to clear it) while
  // the queue forms behind it.
  std::vector<long> order;
  std::atomic<int> held{0}, start{0};
  std::thread holder;
  if (me() == 0)
    holder = std::thread([&] {
      shmem_set_lock(lock.get());
      held = 1;
      while (!start) std::this_thread::yield();
      // Let contender (pe, j) in, interleaving PEs, and wait until its swap changed the tail.
      long tail = shmem_long_atomic_fetch(lock.get(), 0);
      for (int j = 0; j < kFifoPer; ++j)
        for (int pe = 0; pe < n; ++pe) {
          shmem_long_atomic_set(&go.get()[j], 1, pe);
          const auto t0 = std::chrono::steady_clock::now();
          long now;
          while ((now = shmem_long_atomic_fetch(lock.get(), 0)) == tail &&
                 std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60))
            std::this_thread::yield();
          EXPECT_NE(now, tail) << "contender " << j << " of PE " << pe << " never queued";
          tail = now;
          order.push_back((long)pe * kFifoPer + j);
        }
      shmem_clear_lock(lock.get());
    });
  while (me() == 0 && !held) std::this_thread::yield();
  shmem_barrier_all();
  start = 1;
  std::vector<std::thread> ts;
  for (int t = 0; t < kFifoThreads; ++t)
    ts.emplace_back(fifo_host, lock.get(), go.get(), log.get(), count.get(), (int)kFifoWGs + t);
  hipLaunchKernelGGL(fifo_kernel, dim3(kFifoWGs), dim3(32), 0, 0, lock.get(), go.get(), log.get(), count.get());
  if (holder.joinable()) holder.join();
  for (std::thread& t : ts) t.join();
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  if (me() == 0) {
    ASSERT_EQ(shmem_long_g(count.get(), 0), total);
    std::vector<long> got(total);
    shmem_getmem(got.data(), log.get(), total * sizeof(long), 0);
    EXPECT_EQ(got, order) << "the lock was not granted in queue order";
  }
  shmem_barrier_all();
}
