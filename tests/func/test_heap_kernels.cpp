// Kernels and the two heaps (docs/heaps.md): a kernel loads, stores and runs atomics on this PE's
// default-heap blocks and, through the pointer host code's shmem_ptr gives, on a node-local peer's,
// zero-copy; its device routines take GPU-heap operands (shmemg_malloc), and host routines then
// read what they left there (GPU-aware). Each case checks the words that arrived.
#include "gio_test.h"

using namespace giotest;

extern "C" {
int giotest_thread_level = SHMEM_THREAD_SINGLE | SHMEM_DEVICE_HOST_INIT | SHMEM_DEVICE_KERNEL_INIT;
}

namespace {
const unsigned kThreads = 64;

// Thread i doubles word i of this PE's default-heap block, then adds 1 to the counter of PE `next`
// (through its mapping here; nullptr where the peer is not on this node).
__global__ void touch_default_heap(long* mine, unsigned long long* peer_counter) {
  const unsigned i = threadIdx.x;
  mine[i] = mine[i] * 2;
  if (peer_counter) atomicAdd(peer_counter, 1ull);
}

// Device routines on the GPU heap, the result written into the default heap: thread 0 puts its PE
// number into the next PE's GPU-heap inbox and signals it, waits for its own, and stores what came
// into this PE's default-heap block.
__global__ void gpu_heap_then_default(int* inbox, uint64_t* sig, long* out) {
  if (threadIdx.x != 0) return;
  const int me = shmemg_my_pe(), next = (me + 1) % shmemg_n_pes();
  const int v = 1000 + me;
  shmemg_putmem_signal(inbox, &v, sizeof v, sig, 1, SHMEM_SIGNAL_SET, next);
  shmemg_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
  out[0] = inbox[0];
}
}  // namespace

TEST(HeapKernels, KernelsLoadStoreAndAtomicsOnTheDefaultHeap) {
  long* mine = (long*)shmem_malloc(kThreads * sizeof(long));
  unsigned long long* counter = (unsigned long long*)shmem_calloc(1, sizeof(unsigned long long));
  ASSERT_NE(mine, nullptr);
  for (unsigned i = 0; i < kThreads; ++i) mine[i] = me() * 1000 + i;  // host stores: host memory
  shmem_barrier_all();
  auto* peer = (unsigned long long*)shmem_ptr(counter, next_pe());
  hipLaunchKernelGGL(touch_default_heap, dim3(1), dim3(kThreads), 0, 0, mine, peer);
  ASSERT_TRUE(synced());
  shmem_barrier_all();
  for (unsigned i = 0; i < kThreads; ++i) EXPECT_EQ(mine[i], 2 * (me() * 1000 + (long)i)) << "word " << i;
  // The previous PE added one per thread where it maps this PE's default heap (its node's PEs).
  EXPECT_EQ(*counter, shmem_ptr(counter, prev_pe()) ? (unsigned long long)kThreads : 0ull);
  shmem_barrier_all();
  shmem_free(counter);
  shmem_free(mine);
}

TEST(HeapKernels, DeviceRoutinesOnTheGpuHeapHostRoutinesAfter) {
  gsym<int> inbox(1);
  gsym<uint64_t> sig(1);
  long* out = (long*)shmem_calloc(1, sizeof(long));
  shmem_barrier_all();
  hipLaunchKernelGGL(gpu_heap_then_default, dim3(1), dim3(kThreads), 0, 0, inbox.get(), sig.get(), out);
  ASSERT_TRUE(synced());
  EXPECT_EQ(out[0], 1000 + prev_pe());
  shmem_barrier_all();
  // GPU-aware: a host get of the peer's GPU-heap inbox, a host AMO on this PE's signal.
  int got = -1;
  shmem_int_get(&got, inbox.get(), 1, next_pe());
  EXPECT_EQ(got, 1000 + me());
  EXPECT_EQ(shmem_uint64_atomic_fetch_add(sig.get(), 1, me()), 1u);
  EXPECT_EQ(shmem_signal_fetch(sig.get()), 2u);
  shmem_barrier_all();
  shmem_free(out);
}
