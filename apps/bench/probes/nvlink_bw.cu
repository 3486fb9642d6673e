// Hardware probe (not part of libgio): how fast can one GPU write 256 MiB into its NVLink peer,
// by SM loads/stores (GIO's wg-scope copy: 16-byte words, B loads in flight per thread) and by the
// Hopper bulk-copy engine (TMA: cp.async.bulk global->shared, then shared->peer global), at 8, 32
// and 132 blocks; cudaMemcpyPeerAsync for reference. Prints GB/s (best of 5).
// Build: nvcc -O2 -arch=sm_90 -std=c++17 nvlink_bw.cu -o nvlink_bw
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

struct alignas(16) w16 { unsigned long long a, b; };

template <int B>
__global__ void ldst(w16* dst, const w16* src, size_t words) {
  const size_t per = (words + gridDim.x - 1) / gridDim.x;
  const size_t lo = blockIdx.x * per, hi = lo + per < words ? lo + per : words;
  size_t i = lo + threadIdx.x;
  for (; i + (B - 1) * blockDim.x < hi; i += (size_t)B * blockDim.x) {
    w16 v[B];
#pragma unroll
    for (int k = 0; k < B; ++k) v[k] = src[i + k * blockDim.x];
#pragma unroll
    for (int k = 0; k < B; ++k) dst[i + k * blockDim.x] = v[k];
  }
  for (; i < hi; i += blockDim.x) dst[i] = src[i];
}

__device__ inline uint32_t smem_addr(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }

// One thread per block drives the bulk-copy engine through NB shared buffers of TILE bytes.
template <int NB, int TILE>
__global__ void tma(uint8_t* dst, const uint8_t* src, size_t bytes) {
  extern __shared__ __align__(128) uint8_t sm[];
  __shared__ __align__(8) uint64_t bar[NB];
  const size_t per = (bytes / gridDim.x) & ~(size_t)(TILE - 1);
  const uint8_t* s = src + blockIdx.x * per;
  uint8_t* d = dst + blockIdx.x * per;
  if (threadIdx.x != 0) return;
  for (int b = 0; b < NB; ++b) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&bar[b])));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  uint32_t phase = 0;  // bit b: parity to wait for on bar[b]
  const size_t tiles = per / TILE;
  for (size_t t = 0; t < tiles; ++t) {
    const int b = (int)(t % NB);
    // Buffer b was last read by the store of tile t-NB: let at most NB-1 newer stores be pending.
    asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(NB - 1) : "memory");
    const uint32_t sb = smem_addr(sm + (size_t)b * TILE), mb = smem_addr(&bar[b]);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(TILE) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(sb), "l"(s + t * TILE), "r"(TILE), "r"(mb) : "memory");
    uint32_t done = 0;
    const uint32_t par = (phase >> b) & 1;
    while (!done)
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done) : "r"(mb), "r"(par) : "memory");
    phase ^= 1u << b;
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(d + t * TILE), "r"(sb), "r"(TILE)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  }
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

int main() {
  int n = 0;
  CK(cudaGetDeviceCount(&n));
  if (n < 2) { printf("needs 2 GPUs\n"); return 1; }
  const size_t bytes = 256u << 20;
  uint8_t *src, *dst;
  CK(cudaSetDevice(1));
  CK(cudaMalloc(&dst, bytes));
  CK(cudaDeviceEnablePeerAccess(0, 0));
  CK(cudaSetDevice(0));
  CK(cudaDeviceEnablePeerAccess(1, 0));
  CK(cudaMalloc(&src, bytes));
  CK(cudaMemset(src, 1, bytes));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  auto time = [&](const char* name, int blocks, size_t moved, auto launch) {
    float best = 1e30f;
    for (int r = 0; r < 6; ++r) {
      CK(cudaEventRecord(e0));
      launch();
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      CK(cudaGetLastError());
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      if (r > 0 && ms < best) best = ms;  // r == 0 warms up
    }
    printf("%-34s blocks %4d  %7.1f GB/s\n", name, blocks, moved / (best * 1e-3) / 1e9);
  };
  const size_t words = bytes / 16;
  // What the TMA kernel moves: each block's share rounded down to whole tiles.
  auto tiled = [&](int g, size_t tile) { return ((bytes / g) & ~(tile - 1)) * g; };
  constexpr int TILE = 32768, NB = 4;
  CK(cudaFuncSetAttribute(tma<NB, TILE>, cudaFuncAttributeMaxDynamicSharedMemorySize, NB * TILE));
  CK(cudaFuncSetAttribute(tma<2, 65536>, cudaFuncAttributeMaxDynamicSharedMemorySize, 2 * 65536));
  for (int g : {8, 16, 32, 66, 132}) {
    time("ld/st 16 B, 8 in flight x 256 thr", g, bytes, [&] { ldst<8><<<g, 256>>>((w16*)dst, (const w16*)src, words); });
    time("ld/st 16 B, 16 in flight x 256 thr", g, bytes, [&] { ldst<16><<<g, 256>>>((w16*)dst, (const w16*)src, words); });
    time("ld/st 16 B, 8 in flight x 1024 thr", g, bytes, [&] { ldst<8><<<g, 1024>>>((w16*)dst, (const w16*)src, words); });
    time("TMA 4 x 32 KiB tiles", g, tiled(g, TILE), [&] { tma<NB, TILE><<<g, 32, NB * TILE>>>(dst, src, bytes); });
    time("TMA 2 x 64 KiB tiles", g, tiled(g, 65536), [&] { tma<2, 65536><<<g, 32, 2 * 65536>>>(dst, src, bytes); });
  }
  time("cudaMemcpyPeerAsync", 0, bytes, [&] { CK(cudaMemcpyPeerAsync(dst, 1, src, 0, bytes)); });
  return 0;
}
