// Tests of the host platform's HIP emulation: indexing, shared memory, barriers, warp
// operations, atomics, cross-work-group progress and the runtime API.
#include "device/platform/host/hip_host.h"
#include "device/core/check.h"  // gio::dev::bounded_wait, the device wait lockstep mode hooks into

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <vector>

namespace {

// ---- indexing ---------------------------------------------------------------------------------
__global__ void cover_kernel(unsigned* hits, unsigned* bad) {
  unsigned nt = blockDim.x * blockDim.y * blockDim.z;
  unsigned b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (t != gio::host::linear_thread_id() || b != gio::host::linear_block_id() ||
      !gio::host::in_kernel())
    atomicAdd(bad, 1u);
  atomicAdd(&hits[b * nt + t], 1u);
}

TEST(HostEmu, EveryThreadOfA3DGridRunsExactlyOnce) {
  dim3 grid(4, 3, 2), block(8, 4, 2);
  std::vector<unsigned> hits(4 * 3 * 2 * 8 * 4 * 2, 0);
  unsigned bad = 0;
  hipLaunchKernelGGL(cover_kernel, grid, block, 0, 0, hits.data(), &bad);
  EXPECT_EQ(bad, 0u);
  for (size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i], 1u) << "thread " << i;
  EXPECT_FALSE(gio::host::in_kernel());
  EXPECT_EQ(threadIdx.x, 0u);
  EXPECT_EQ(blockDim.x, 1u);
}

// ---- shared memory and block barriers ---------------------------------------------------------
__global__ void reduce_kernel(const int* in, long long* out, unsigned* mixups) {
  __shared__ long long part[256];
  __shared__ unsigned owner;
  unsigned t = threadIdx.x;
  if (t == 0) owner = blockIdx.x;
  part[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  if (owner != blockIdx.x) atomicAdd(mixups, 1u);
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s) part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = part[0];
}

TEST(HostEmu, SharedMemoryIsPerWorkGroupAndVisibleAfterBarrier) {
  const unsigned groups = 16, threads = 256;
  std::vector<int> in(groups * threads);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int(i * 7919 % 1000) - 500;
  std::vector<long long> out(groups, 0);
  unsigned mixups = 0;
  hipLaunchKernelGGL(reduce_kernel, dim3(groups), dim3(threads), 0, 0, in.data(), out.data(), &mixups);
  EXPECT_EQ(mixups, 0u);
  for (unsigned g = 0; g < groups; ++g) {
    long long want = std::accumulate(in.begin() + g * threads, in.begin() + (g + 1) * threads, 0ll);
    EXPECT_EQ(out[g], want) << "group " << g;
  }
}

__global__ void early_exit_kernel(int* seen) {
  __shared__ int slot[256];
  unsigned t = threadIdx.x;
  if (t % 3 == 0) return;  // a third of the threads leave before any barrier
  slot[t] = int(t) + 1000 * int(blockIdx.x);
  __syncthreads();
  unsigned n = (t + 1) % 256;
  while (n % 3 == 0) n = (n + 1) % 256;
  seen[blockIdx.x * 256 + t] = slot[n];
  __syncthreads();
  if (t % 3 == 1) return;  // more leave between barriers
  __syncthreads();
  seen[blockIdx.x * 256 + t] += 1;
}

TEST(HostEmu, BarrierCountsReturnedThreadsAsArrived) {
  std::vector<int> seen(4 * 256, -1);
  hipLaunchKernelGGL(early_exit_kernel, dim3(4), dim3(256), 0, 0, seen.data());
  for (unsigned b = 0; b < 4; ++b)
    for (unsigned t = 0; t < 256; ++t) {
      int got = seen[b * 256 + t];
      if (t % 3 == 0) {
        EXPECT_EQ(got, -1);
        continue;
      }
      unsigned n = (t + 1) % 256;
      while (n % 3 == 0) n = (n + 1) % 256;
      EXPECT_EQ(got, int(n) + 1000 * int(b) + (t % 3 == 2 ? 1 : 0)) << b << "/" << t;
    }
}

__global__ void dynamic_shared_kernel(int* out) {
  HIP_DYNAMIC_SHARED(int, buf);
  buf[threadIdx.x] = int(threadIdx.x * 2);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

TEST(HostEmu, DynamicSharedMemory) {
  std::vector<int> out(3 * 64);
  hipLaunchKernelGGL(dynamic_shared_kernel, dim3(3), dim3(64), 64 * sizeof(int), 0, out.data());
  for (unsigned i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], int((63 - i % 64) * 2));
}

// A GPU thread may wait on another thread of its own group without a barrier (Volta+).
__global__ void intra_group_wait_kernel(int* result) {
  __shared__ int flag;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    while (__atomic_load_n(&flag, __ATOMIC_ACQUIRE) == 0) gio::host::yield();
    *result = 1;
  } else if (threadIdx.x == blockDim.x - 1) {
    __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
  }
}

TEST(HostEmu, ThreadCanWaitOnLaterThreadOfItsGroup) {
  int result = 0;
  hipLaunchKernelGGL(intra_group_wait_kernel, dim3(1), dim3(128), 0, 0, &result);
  EXPECT_EQ(result, 1);
}

// ---- cross-work-group progress ------------------------------------------------------------------
struct handshake {
  int started, go, done;
};

__global__ void cross_group_kernel(handshake* h) {
  if (blockIdx.x == 1) {
    if (threadIdx.x == 0) {
      atomicExch(&h->started, 1);
      while (atomicAdd(&h->go, 0) == 0) __nanosleep(100);
    }
    __syncthreads();
  } else if (blockIdx.x == 0) {
    // Sets the flag only after group 1 is already waiting, so both must be resident at once.
    if (threadIdx.x == 0)
      while (atomicAdd(&h->started, 0) == 0) __nanosleep(100);
    __syncthreads();
    if (threadIdx.x == 0) atomicExch(&h->go, 1);
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&h->done, 1);
}

// The first work-group waits on the last one, which a GPU also schedules after it.
__global__ void last_releases_first_kernel(handshake* h) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    while (__atomic_load_n(&h->go, __ATOMIC_ACQUIRE) == 0) gio::host::yield();
  __syncthreads();
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == blockDim.x - 1)
    __atomic_store_n(&h->go, 1, __ATOMIC_RELEASE);
  if (threadIdx.x == 0) atomicAdd(&h->done, 1);
}

TEST(HostEmu, WorkGroupCanSpinOnFlagSetByAnother) {
  handshake h{0, 0, 0};
  hipLaunchKernelGGL(cross_group_kernel, dim3(64), dim3(256), 0, 0, &h);
  EXPECT_EQ(h.go, 1);
  EXPECT_EQ(h.done, 64);
  handshake h2{0, 0, 0};
  hipLaunchKernelGGL(last_releases_first_kernel, dim3(64), dim3(256), 0, 0, &h2);
  EXPECT_EQ(h2.done, 64);
}

__global__ void concurrency_kernel(int* running, int* peak, int* finished) {
  if (threadIdx.x == 0) {
    int now = atomicAdd(running, 1) + 1;
    atomicMax(peak, now);
  }
  __syncthreads();
  for (int i = 0; i < 4; ++i) gio::host::yield();
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicSub(running, 1);
    atomicAdd(finished, 1);
  }
}

TEST(HostEmu, ConcurrencyLimitIsHonouredAndGridCompletes) {
  auto saved = gio::host::emu_settings();
  gio::host::emu_settings().max_concurrent_wg = 2;
  int running = 0, peak = 0, finished = 0;
  hipLaunchKernelGGL(concurrency_kernel, dim3(100), dim3(64), 0, 0, &running, &peak, &finished);
  gio::host::emu_settings() = saved;
  EXPECT_EQ(finished, 100);
  EXPECT_GE(peak, 1);
  EXPECT_LE(peak, 2);
}

// ---- warp operations ----------------------------------------------------------------------------
struct warp_out {
  int bcast, down_sum, xor_sum, scan, seg;
  double dbl;
  long long ll;
  unsigned long long ballot;
  int any, all;
};

__global__ void warp_kernel(warp_out* out) {
  unsigned t = threadIdx.x, lane = t % warpSize;
  // Each work-group its own rows: both wrote rows 0-63 at once before (TSan: a race).
  warp_out& o = out[blockIdx.x * blockDim.x + t];
  o.bcast = __shfl_sync(0xffffffffu, int(t * 10), 3);
  int v = int(lane);
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  o.down_sum = __shfl_sync(0xffffffffu, v, 0);
  int x = int(lane);
  for (int m = 1; m < 32; m *= 2) x += __shfl_xor_sync(0xffffffffu, x, m);
  o.xor_sum = x;
  int s = 1;
  for (unsigned d = 1; d < 32; d *= 2) {
    int up = __shfl_up_sync(0xffffffffu, s, d);
    if (lane >= d) s += up;
  }
  o.scan = s;
  o.seg = __shfl_sync(0xffffffffu, int(lane), 1, 8);  // lane 1 of each 8-lane segment
  o.dbl = __shfl_sync(0xffffffffu, 0.5 * lane, 31);
  o.ll = __shfl_xor_sync(0xffffffffu, (long long)lane << 40, 1);
  o.ballot = __ballot_sync(0xffffffffu, lane % 3 == 0);
  o.any = __any_sync(0xffffffffu, lane == 5);
  o.all = __all_sync(0xffffffffu, lane < 31);
  __syncwarp();
}

TEST(HostEmu, WarpShufflesAndVotes) {
  std::vector<warp_out> out(2 * 64);
  hipLaunchKernelGGL(warp_kernel, dim3(2), dim3(64), 0, 0, out.data());
  unsigned long long thirds = 0;
  for (unsigned l = 0; l < 32; l += 3) thirds |= 1ull << l;
  for (unsigned i = 0; i < out.size(); ++i) {
    unsigned t = i % 64, lane = t % 32, warp0 = t - lane;
    EXPECT_EQ(out[i].bcast, int((warp0 + 3) * 10)) << "thread " << i;
    EXPECT_EQ(out[i].down_sum, 496);
    EXPECT_EQ(out[i].xor_sum, 496);
    EXPECT_EQ(out[i].scan, int(lane + 1));
    EXPECT_EQ(out[i].seg, int((lane & ~7u) + 1));
    EXPECT_EQ(out[i].dbl, 15.5);
    EXPECT_EQ(out[i].ll, (long long)(lane ^ 1) << 40);
    EXPECT_EQ(out[i].ballot, thirds);
    EXPECT_EQ(out[i].any, 1);
    EXPECT_EQ(out[i].all, 0);
  }
}

__global__ void partial_warp_kernel(unsigned long long* ballots, int* sums, int* from20) {
  unsigned t = threadIdx.x;
  ballots[t] = __ballot_sync(0xffffffffu, 1);
  int v = 1;
  for (int m = 1; m < 16; m *= 2) v += __shfl_xor_sync(0xffffffffu, v, m, 16);
  sums[t] = v;
  from20[t] = __shfl_sync(0xffffffffu, int(t), 20);
}

TEST(HostEmu, PartialLastWarpOnlyCountsItsLanes) {
  std::vector<unsigned long long> ballots(48);
  std::vector<int> sums(48), from20(48);
  hipLaunchKernelGGL(partial_warp_kernel, dim3(1), dim3(48), 0, 0, ballots.data(), sums.data(),
                     from20.data());
  for (unsigned t = 0; t < 48; ++t) {
    EXPECT_EQ(ballots[t], t < 32 ? 0xffffffffull : 0xffffull);
    EXPECT_EQ(sums[t], 16);
    // Lane 20 of the second warp does not exist: the caller gets its own value back.
    EXPECT_EQ(from20[t], t < 32 ? 20 : int(t));
  }
}

// ---- atomics ------------------------------------------------------------------------------------
struct counters {
  unsigned count;
  unsigned long long sum;
  float fsum;
  double dsum;
  int imax, imin;
  unsigned long long ormask;
  unsigned cas_count;
  long long ll_sum;
};

__global__ void atomic_kernel(counters* c) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&c->count, 1);
  atomicAdd(&c->sum, (unsigned long long)id);
  atomicAdd(&c->fsum, 1.0f);
  atomicAdd_system(&c->dsum, 0.5);
  atomicMax(&c->imax, int(id));
  atomicMin_block(&c->imin, -int(id));
  atomicOr(&c->ormask, 1ull << (id % 64));
  atomicAdd(&c->ll_sum, -1ll);
  // The first guess is read while other work-groups CAS the word: an atomic load, not a plain one.
  unsigned old = __atomic_load_n(&c->cas_count, __ATOMIC_RELAXED), seen;
  while ((seen = atomicCAS(&c->cas_count, old, old + 1)) != old) old = seen;
}

TEST(HostEmu, AtomicsFromManyWorkGroupsAddUp) {
  counters c{};
  const unsigned n = 32 * 256;
  hipLaunchKernelGGL(atomic_kernel, dim3(32), dim3(256), 0, 0, &c);
  EXPECT_EQ(c.count, n);
  EXPECT_EQ(c.sum, 1ull * n * (n - 1) / 2);
  EXPECT_EQ(c.fsum, float(n));
  EXPECT_EQ(c.dsum, n * 0.5);
  EXPECT_EQ(c.imax, int(n - 1));
  EXPECT_EQ(c.imin, -int(n - 1));
  EXPECT_EQ(c.ormask, ~0ull);
  EXPECT_EQ(c.cas_count, n);
  EXPECT_EQ(c.ll_sum, -(long long)n);
  unsigned u = 5;
  EXPECT_EQ(atomicExch(&u, 9u), 5u);
  EXPECT_EQ(atomicInc(&u, 9u), 9u);
  EXPECT_EQ(u, 0u);
  EXPECT_EQ(atomicXor(&u, 6u), 0u);
  EXPECT_EQ(atomicAnd(&u, 3u), 6u);
  EXPECT_EQ(u, 2u);
}

// ---- runtime API --------------------------------------------------------------------------------
__global__ void scale_kernel(unsigned char* p, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) p[i] = static_cast<unsigned char>(p[i] + 1);
}

TEST(HostEmu, MemcpyMemsetAndErrors) {
  (void)hipGetLastError();  // errors are sticky per thread: start from a clean slate
  const size_t n = 1000;
  unsigned char* dev = nullptr;
  ASSERT_EQ(hipMalloc(&dev, n), hipSuccess);
  ASSERT_NE(dev, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(dev) % 256, 0u);
  ASSERT_EQ(hipMemset(dev, 0xab, n), hipSuccess);
  hipLaunchKernelGGL(scale_kernel, dim3((n + 255) / 256), dim3(256), 0, 0, dev, n);
  EXPECT_EQ(hipGetLastError(), hipSuccess);
  std::vector<unsigned char> host(n, 0);
  ASSERT_EQ(hipMemcpy(host.data(), dev, n, hipMemcpyDeviceToHost), hipSuccess);
  for (unsigned char b : host) ASSERT_EQ(b, 0xac);
  std::vector<unsigned char> src(n);
  for (size_t i = 0; i < n; ++i) src[i] = static_cast<unsigned char>(i);
  ASSERT_EQ(hipMemcpyAsync(dev, src.data(), n, hipMemcpyHostToDevice, 0), hipSuccess);
  ASSERT_EQ(hipMemsetAsync(dev, 7, 10), hipSuccess);
  ASSERT_EQ(hipMemcpy(host.data(), dev, n, hipMemcpyDefault), hipSuccess);
  EXPECT_EQ(host[9], 7);
  EXPECT_EQ(host[10], 10);
  EXPECT_EQ(host[999], static_cast<unsigned char>(999));
  EXPECT_EQ(hipFree(dev), hipSuccess);

  hipLaunchKernelGGL(scale_kernel, dim3(1), dim3(0), 0, 0, dev, n);  // empty block: rejected
  EXPECT_EQ(hipPeekAtLastError(), hipErrorInvalidConfiguration);
  EXPECT_EQ(hipGetLastError(), hipErrorInvalidConfiguration);
  EXPECT_EQ(hipGetLastError(), hipSuccess);
  EXPECT_EQ(hipSetDevice(1), hipErrorInvalidDevice);
  EXPECT_STREQ(hipGetErrorString(hipErrorInvalidDevice), "invalid device ordinal");
  (void)hipGetLastError();

  int count = 0, dev_id = -1;
  EXPECT_EQ(hipGetDeviceCount(&count), hipSuccess);
  EXPECT_EQ(count, 1);
  EXPECT_EQ(hipGetDevice(&dev_id), hipSuccess);
  EXPECT_EQ(dev_id, 0);
  hipDeviceProp_t prop;
  ASSERT_EQ(hipGetDeviceProperties(&prop, 0), hipSuccess);
  EXPECT_EQ(prop.warpSize, 32);
  EXPECT_GE(prop.multiProcessorCount, 1);
  EXPECT_GT(prop.totalGlobalMem, 0u);
}

TEST(HostEmu, EventsMeasureNonNegativeTime) {
  hipStream_t s = nullptr;
  int least = 1, greatest = 1;
  ASSERT_EQ(hipDeviceGetStreamPriorityRange(&least, &greatest), hipSuccess);
  ASSERT_EQ(hipStreamCreateWithPriority(&s, hipStreamNonBlocking, greatest), hipSuccess);
  hipEvent_t a, b;
  ASSERT_EQ(hipEventCreate(&a), hipSuccess);
  ASSERT_EQ(hipEventCreate(&b), hipSuccess);
  float ms = -1;
  EXPECT_EQ(hipEventElapsedTime(&ms, a, b), hipErrorInvalidHandle);  // not recorded yet
  EXPECT_EQ(hipGetLastError(), hipErrorInvalidHandle);
  ASSERT_EQ(hipEventRecord(a, s), hipSuccess);
  std::vector<unsigned char> buf(4096, 0);
  hipLaunchKernelGGL(scale_kernel, dim3(16), dim3(256), 0, s, buf.data(), buf.size());
  ASSERT_EQ(hipEventRecord(b, s), hipSuccess);
  ASSERT_EQ(hipStreamWaitEvent(s, b), hipSuccess);
  ASSERT_EQ(hipEventSynchronize(b), hipSuccess);
  ASSERT_EQ(hipEventElapsedTime(&ms, a, b), hipSuccess);
  EXPECT_GE(ms, 0.0f);
  EXPECT_EQ(buf[4095], 1);
  EXPECT_EQ(hipStreamSynchronize(s), hipSuccess);
  EXPECT_EQ(hipEventDestroy(a), hipSuccess);
  EXPECT_EQ(hipEventDestroy(b), hipSuccess);
  EXPECT_EQ(hipStreamDestroy(s), hipSuccess);
}

// ---- cost ---------------------------------------------------------------------------------------
__global__ void barrier_heavy_kernel(unsigned* out) {
  __shared__ unsigned acc;
  if (threadIdx.x == 0) acc = 0;
  for (int i = 0; i < 8; ++i) {
    __syncthreads();
    atomicAdd_block(&acc, 1u);
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(out, acc);
}

TEST(HostEmu, LaunchOf64x256IsCheap) {
  unsigned out = 0;
  hipLaunchKernelGGL(barrier_heavy_kernel, dim3(64), dim3(256), 0, 0, &out);  // warms the workers
  out = 0;
  auto t0 = std::chrono::steady_clock::now();
  hipLaunchKernelGGL(barrier_heavy_kernel, dim3(64), dim3(256), 0, 0, &out);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(out, 64u * 256u * 8u);
  std::printf("64 x 256 threads, 9 barriers each: %.2f ms\n", ms);
  EXPECT_LT(ms, 5000.0);  // loose: valgrind runs this too; the point is a finite, small cost
}

// ---- lockstep-wave mode (GIO_HOST_WAVE_LOCKSTEP) ------------------------------------------------
// Turns the mode on for one scope (the runtime sets it from the environment at shmem_init).
struct lockstep_mode {
  explicit lockstep_mode(bool on) { gio::host::emu_settings().wave_lockstep = on; }
  ~lockstep_mode() { gio::host::emu_settings().wave_lockstep = false; }
};

// Lane k waits until lane k-1 has left its own wait and raised its flag: each lane waits on a
// wave-mate's action after that wave-mate's wait, which a lockstep wave never reaches.
__global__ void wave_chain_kernel(unsigned* flags) {
  const unsigned k = threadIdx.x;
  gio::dev::bounded_wait([&] { return k == 0 || gio::plat::atomic_load_acquire(&flags[k - 1]) != 0; },
                         [&](unsigned long long ms) {
                           std::fprintf(stderr, "wave_chain: lane %u waited %llu ms for lane %u\n", k, ms, k - 1);
                         });
  gio::plat::atomic_exchange(&flags[k], 1u);
}

// Lanes 0..30 wait for lane 31, which raises the flag before its own wait: fine in lockstep.
__global__ void wave_last_lane_kernel(unsigned* flag, unsigned* passed) {
  if (threadIdx.x == 31) gio::plat::atomic_exchange(flag, 1u);
  gio::dev::bounded_wait([&] { return gio::plat::atomic_load_acquire(flag) != 0; },
                         [&](unsigned long long) { std::fprintf(stderr, "wave_last_lane: flag never seen\n"); });
  atomicAdd(passed, 1u);
}

// Two atomic adds per lane on one counter: which values each lane gets shows the interleaving.
__global__ void wave_interleave_kernel(unsigned* ctr, unsigned* got) {
  got[2 * threadIdx.x] = atomicAdd(ctr, 1u);
  got[2 * threadIdx.x + 1] = atomicAdd(ctr, 1u);
}

TEST(HostEmu, WaveLaneMayWaitOnWaveMateAfterItsWaitOutsideLockstep) {
  gio_host_dstate.timeout_ns = 10ull * 1000 * 1000 * 1000;
  lockstep_mode mode(false);
  std::vector<unsigned> flags(32, 0);
  hipLaunchKernelGGL(wave_chain_kernel, dim3(1), dim3(32), 0, 0, flags.data());
  for (unsigned k = 0; k < 32; ++k) EXPECT_EQ(flags[k], 1u) << "lane " << k;
}

TEST(HostEmuDeathTest, WaveLaneWaitingOnWaveMateAfterItsWaitHangsInLockstep) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        gio_host_dstate.timeout_ns = 1000ull * 1000 * 1000;
        lockstep_mode mode(true);
        std::vector<unsigned> flags(32, 0);
        hipLaunchKernelGGL(wave_chain_kernel, dim3(1), dim3(32), 0, 0, flags.data());
      },
      testing::ExitedWithCode(GIO_EXIT_CODE),
      "GIO lockstep: work-group 0, wave 0: lanes 0x00000001 left this wait and are held at its reconvergence "
      "point while lane [0-9]+ is still in it");
}

TEST(HostEmu, LockstepWaitOnWaveMateBeforeItsWaitCompletes) {
  gio_host_dstate.timeout_ns = 10ull * 1000 * 1000 * 1000;
  lockstep_mode mode(true);
  unsigned flag = 0, passed = 0;
  hipLaunchKernelGGL(wave_last_lane_kernel, dim3(2), dim3(64), 0, 0, &flag, &passed);
  EXPECT_EQ(passed, 128u);
}

TEST(HostEmu, LockstepLanesInterleaveAtAtomics) {
  std::vector<unsigned> got(64);
  unsigned ctr = 0;
  {
    lockstep_mode mode(true);
    hipLaunchKernelGGL(wave_interleave_kernel, dim3(1), dim3(32), 0, 0, &ctr, got.data());
  }
  for (unsigned k = 0; k < 32; ++k) {  // every lane's first add before any lane's second
    EXPECT_EQ(got[2 * k], k) << "lane " << k;
    EXPECT_EQ(got[2 * k + 1], 32 + k) << "lane " << k;
  }
  ctr = 0;
  hipLaunchKernelGGL(wave_interleave_kernel, dim3(1), dim3(32), 0, 0, &ctr, got.data());
  for (unsigned k = 0; k < 32; ++k) {  // normally each lane runs on until it waits
    EXPECT_EQ(got[2 * k], 2 * k) << "lane " << k;
    EXPECT_EQ(got[2 * k + 1], 2 * k + 1) << "lane " << k;
  }
}

// ---- misuse -------------------------------------------------------------------------------------
__global__ void deadlock_kernel() {
  if (threadIdx.x == 0)
    __syncwarp();  // waits for lanes that are parked in the block barrier below
  else
    __syncthreads();
}

TEST(HostEmuDeathTest, BarrierDeadlockIsReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(hipLaunchKernelGGL(deadlock_kernel, dim3(1), dim3(64), 0, 0), "deadlock in work-group");
}

}  // namespace
