// Hardware probe (not part of libgio): the 8-byte message rate into the NVLink peer with nothing
// but a store, by issuer scope, with and without the scope synchronization that GIO's cooperative
// puts do on entry and exit. It asks whether the wave/work-group gap to NVSHMEM in gio-bench
// msgrate is the synchronization, or something else in the call.
// Issuers are threads, waves (lane 0 stores) or work-groups (thread 0 stores) of 256-thread
// blocks; each iteration writes a fresh 8 bytes per issuer, as gio-bench msgrate does. Prints
// Mmsg/s (best of 5) at 1, 32 and 132 blocks.
// Build: nvcc -O2 -arch=sm_90 -std=c++17 msgrate_scopes.cu -o msgrate_scopes
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

enum scope { THREAD, WAVE, WG };
constexpr int kThreads = 256, kIters = 100;

__device__ inline uint64_t now_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

template <scope S, bool SYNC>
__global__ void k(unsigned long long* dst, const unsigned long long* src, uint64_t* t) {
  const unsigned warps = kThreads / 32;
  const unsigned issuers = S == THREAD ? gridDim.x * kThreads : S == WAVE ? gridDim.x * warps : gridDim.x;
  const unsigned id = S == THREAD ? blockIdx.x * kThreads + threadIdx.x
                      : S == WAVE ? blockIdx.x * warps + threadIdx.x / 32 : blockIdx.x;
  const bool leader = S == THREAD || (S == WAVE ? threadIdx.x % 32 == 0 : threadIdx.x == 0);
  __syncthreads();
  const uint64_t t0 = now_ns();
  for (int i = 0; i < kIters; ++i) {
    if (SYNC) S == WG ? __syncthreads() : __syncwarp();
    if (leader) dst[(size_t)i * issuers + id] = src[id];
    if (SYNC) S == WG ? __syncthreads() : __syncwarp();
  }
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) {
    t[2 * blockIdx.x] = t0;
    t[2 * blockIdx.x + 1] = now_ns();
  }
}

template <scope S, bool SYNC>
double rate(unsigned long long* dst, const unsigned long long* src, uint64_t* t, int blocks) {
  const unsigned issuers = S == THREAD ? blocks * kThreads : S == WAVE ? blocks * kThreads / 32 : blocks;
  double best = 0;
  uint64_t h[2 * 132];
  for (int rep = 0; rep < 5; ++rep) {
    k<S, SYNC><<<blocks, kThreads>>>(dst, src, t);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, t, 2 * blocks * sizeof(uint64_t), cudaMemcpyDeviceToHost));
    uint64_t lo = h[0], hi = h[1];
    for (int b = 0; b < blocks; ++b) lo = h[2 * b] < lo ? h[2 * b] : lo, hi = h[2 * b + 1] > hi ? h[2 * b + 1] : hi;
    const double r = (double)issuers * kIters / (double)(hi - lo) * 1e3;  // Mmsg/s
    best = r > best ? r : best;
  }
  return best;
}

int main() {
  int n = 0;
  CK(cudaGetDeviceCount(&n));
  if (n < 2) {
    printf("needs two GPUs\n");
    return 1;
  }
  const size_t bytes = (size_t)132 * kThreads * kIters * 8;
  unsigned long long* dst;
  CK(cudaSetDevice(1));
  CK(cudaMalloc(&dst, bytes));
  CK(cudaSetDevice(0));
  CK(cudaDeviceEnablePeerAccess(1, 0));
  unsigned long long* src;
  uint64_t* t;
  CK(cudaMalloc(&src, (size_t)132 * kThreads * 8));
  CK(cudaMemset(src, 0x5a, (size_t)132 * kThreads * 8));
  CK(cudaMalloc(&t, 2 * 132 * sizeof(uint64_t)));
  printf("8-byte stores into GPU 1 from GPU 0, fresh address each iteration, Mmsg/s (best of 5)\n");
  printf("%-28s %10s %10s %10s\n", "issuer", "1 block", "32", "132");
  const int blocks[3] = {1, 32, 132};
#define ROW(NAME, S, SYNC)                                                  \
  do {                                                                      \
    printf("%-28s", NAME);                                                  \
    for (int b : blocks) printf(" %10.1f", rate<S, SYNC>(dst, src, t, b));  \
    printf("\n");                                                           \
  } while (0)
  ROW("thread", THREAD, false);
  ROW("wave (lane 0)", WAVE, false);
  ROW("wave + syncwarp x2", WAVE, true);
  ROW("work-group (thread 0)", WG, false);
  ROW("work-group + syncthreads x2", WG, true);
  return 0;
}
