// Host completion of device-initiated operations: a kernel issues _nbi puts and ends without
// shmem_quiet; the host's shmem_quiet (or shmem_barrier_all alone) must complete them, whatever
// the transport. Over gda the NIC may still be working through the kernel's send queue when the
// kernel ends, so the host has to wait for the queue's completions, not only for the kernel.
#include <mpi.h>

#include <cstring>

#include "gio_test.h"

using namespace giotest;

namespace {
// Where PEs share a GPU, every staged chunk's copy into GPU memory waits for its process's time
// slice (gio_test.h pes_share_gpu): over proxy_staged's 4 KiB chunks, 8 puts of 4 MiB are 8192 such
// waits a PE, which beside other processes' spinning kernels take longer than GIO_TIMEOUT_MS while
// the proxies still move (fault.proxy_quiet_crawl shows that report). 256 KiB puts are 512 there.
size_t put_bytes() {
  static const size_t n = pes_share_gpu() ? 256u << 10 : 4u << 20;
  return n;
}
const int kPuts = 8;

__global__ void nbi_puts(uint8_t* dst, const uint8_t* src, size_t n, int count, int pe) {
  if (threadIdx.x == 0)
    for (int k = 0; k < count; ++k) shmem_putmem_nbi(dst + (size_t)k * n, src, n, pe);
  // No shmem_quiet: completing them is the host's job.
}

enum class completes { quiet, barrier };

// A kernel puts kPuts copies of this PE's pattern into the next PE; the host completes them and
// every PE checks what its previous PE sent. After shmem_quiet the source tells its target over
// MPI, a channel that does not pass through the transport, so the target reads at once: a quiet
// that returned early is caught however fast the NIC catches up afterwards.
void kernel_puts_then_host_completes(completes how, unsigned salt) {
  const size_t kPut = put_bytes();
  sym<uint8_t> src(kPut, false), dst(kPut * kPuts);
  const int self = me();
  std::vector<uint8_t> mine(kPut);
  for (size_t i = 0; i < kPut; ++i) mine[i] = pattern(self, i, salt);
  src.write(mine);
  shmem_barrier_all();
  hipLaunchKernelGGL(nbi_puts, dim3(1), dim3(32), 0, 0, dst.get(), (const uint8_t*)src.get(), kPut, kPuts, next_pe());
  ASSERT_TRUE(synced());
  if (how == completes::quiet) {
    shmem_quiet();
    int token = me(), from = -1;
    MPI_Sendrecv(&token, 1, MPI_INT, next_pe(), 77, &from, 1, MPI_INT, prev_pe(), 77, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    ASSERT_EQ(from, prev_pe());
  } else {
    shmem_barrier_all();
  }
  // Only the last byte of each put first (the NIC writes a put front to back), then everything.
  const int from = prev_pe();
  std::vector<uint8_t> want(kPut);
  for (size_t i = 0; i < kPut; ++i) want[i] = pattern(from, i, salt);
  int last_bytes = 0;
  for (int k = 0; k < kPuts; ++k) {
    uint8_t b = 0;
    HIP_OK(hipMemcpy(&b, dst.get() + (size_t)k * kPut + kPut - 1, 1, hipMemcpyDeviceToHost));
    last_bytes += b == want[kPut - 1];
  }
  EXPECT_EQ(last_bytes, kPuts) << "puts from PE " << from << " whose last byte had arrived";
  const std::vector<uint8_t> got = dst.read();
  int whole = 0;
  for (int k = 0; k < kPuts; ++k) whole += memcmp(got.data() + (size_t)k * kPut, want.data(), kPut) == 0;
  EXPECT_EQ(whole, kPuts) << "puts from PE " << from << " that arrived whole";
  shmem_barrier_all();
}
}  // namespace

TEST(HostCompletion, QuietCompletesKernelNbiPuts) { kernel_puts_then_host_completes(completes::quiet, 1); }
TEST(HostCompletion, BarrierCompletesKernelNbiPuts) { kernel_puts_then_host_completes(completes::barrier, 2); }
