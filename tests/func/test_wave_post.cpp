// Every lane of a wave posts at once, at thread scope. On AMD GPUs a wave's
// lanes run in lockstep, so a lane that waits for a wave-mate to publish first can wait forever.
// Runs in the generic suite (every transport), and over gda with GIO_HOST_WAVE_LOCKSTEP=1 as
// func.test_wave_post.gda.lockstep.np2 (tests/func/CMakeLists.txt), where the emulator holds a
// lane that leaves a wait until its wave-mates in that wait leave it too.
#include "gio_test.h"

using namespace giotest;

namespace {

constexpr unsigned kWgs = 2, kThreads = 64;  // two full waves per work-group
constexpr size_t kSlice = 40;                // bytes per lane

__global__ void wave_putmem_nbi(uint8_t* dst, const uint8_t* src, int pe) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  shmem_putmem_nbi(dst + t * kSlice, src + t * kSlice, kSlice, pe);
  shmem_quiet();
}

__global__ void wave_int_p(int* words, int pe) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  shmem_int_p(words + t, (int)(t + 1) * (shmem_my_pe() + 1), pe);
  shmem_quiet();
}

TEST(WavePost, EveryLaneOfAWavePutsAtOnce) {
  const size_t lanes = kWgs * kThreads;
  sym<uint8_t> dst(lanes * kSlice);
  dbuf<uint8_t> src(lanes * kSlice);
  std::vector<uint8_t> mine(lanes * kSlice);
  for (size_t i = 0; i < mine.size(); ++i) mine[i] = pattern(me(), i, 3);
  src.write(mine);
  shmem_barrier_all();
  hipLaunchKernelGGL(wave_putmem_nbi, dim3(kWgs), dim3(kThreads), 0, 0, dst.get(), src.get(), next_pe());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  std::vector<uint8_t> got = dst.read();
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(got[i], pattern(prev_pe(), i, 3)) << "lane " << i / kSlice << " byte " << i % kSlice;
}

TEST(WavePost, EveryLaneOfAWaveStoresAtOnce) {
  const size_t lanes = kWgs * kThreads;
  sym<int> words(lanes);
  shmem_barrier_all();
  hipLaunchKernelGGL(wave_int_p, dim3(kWgs), dim3(kThreads), 0, 0, words.get(), next_pe());
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  std::vector<int> got = words.read();
  for (size_t t = 0; t < lanes; ++t) ASSERT_EQ(got[t], (int)(t + 1) * (prev_pe() + 1)) << "lane " << t;
}

}  // namespace
