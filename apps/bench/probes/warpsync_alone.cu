// Hardware probe (not part of libgio): can a lane that runs a warp-synchronous instruction with a
// mask of only itself release the other lanes of its warp from a __syncwarp() they wait at?
// This is the shape of a cooperative GIO call over gda or the proxy: lanes 1..31 return from the
// routine and wait at the scope's __syncwarp() while lane 0 posts (the post's lane aggregation ran
// __match_any_sync / __shfl_sync / __syncwarp with mask 1 << 0) and waits for its completion; then
// every lane reads what lane 0's operation wrote. Lanes that read too early see stale data in
// wave-scope collectives over gda and the proxy (func.test_coll_device on GPUs).
//
// Each variant: lanes 1..31 go straight to __syncwarp(); lane 0 waits `pre` (0 or 20 us, so that
// the others are already waiting), runs the variant's one-lane instruction, waits 20 us more, stores
// 1 into a flag and reaches __syncwarp(). After the barrier every lane reads the flag: a lane that
// reads 0 left the barrier before lane 0 arrived at it. Prints, per variant and `pre`, the warps
// (of 1000, one per block) in which some lane left early, and the lanes that did.
// Build: nvcc -O2 -arch=sm_90 -std=c++17 warpsync_alone.cu -o warpsync_alone
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

enum variant { V_NONE, V_SYNCWARP, V_SHFL, V_MATCH, V_BALLOT, V_ACTIVEMASK_MATCH, V_COUNT };
const char* kName[V_COUNT] = {"none", "__syncwarp(1)", "__shfl_sync(1)", "__match_any_sync(1)", "__ballot_sync(1)",
                              "__match_any_sync(__activemask())"};

__device__ __forceinline__ uint64_t gt() { uint64_t t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ void spin_ns(uint64_t ns) { const uint64_t t0 = gt(); while (gt() - t0 < ns) {} }

// One warp per block; flag[b] per block; early[b] counts lanes of block b that left early.
__global__ void k_probe(int v, unsigned pre_ns, unsigned* flag, unsigned* early, unsigned long long* sink,
                        unsigned* amask) {
  const unsigned lane = threadIdx.x & 31, b = blockIdx.x;
  volatile unsigned* f = flag + b;
  if (lane == 0) {
    spin_ns(pre_ns);
    if (b == 0) *amask = __activemask();
    unsigned long long x = clock64();
    switch (v) {
      case V_SYNCWARP: __syncwarp(1u); break;
      case V_SHFL: x = __shfl_sync(1u, x, 0); break;
      case V_MATCH: x = __match_any_sync(1u, x); break;
      case V_BALLOT: x = __ballot_sync(1u, x != 0); break;
      case V_ACTIVEMASK_MATCH: x = __match_any_sync(__activemask(), x); break;
      default: break;
    }
    if (x == 42) *sink = x;  // keep the instruction
    spin_ns(20000);
    *f = 1;
  }
  __syncwarp();
  if (*f == 0) atomicAdd(early + b, 1u);
}

int main() {
  const int blocks = 1000;
  unsigned *flag, *early;
  unsigned long long* sink;
  unsigned* amask;
  CK(cudaMalloc(&amask, sizeof(unsigned)));
  CK(cudaMalloc(&flag, blocks * sizeof(unsigned)));
  CK(cudaMalloc(&early, blocks * sizeof(unsigned)));
  CK(cudaMalloc(&sink, sizeof(unsigned long long)));
  unsigned* h = (unsigned*)malloc(blocks * sizeof(unsigned));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  printf("%-34s %-8s %s\n", "lane 0 alone ran", "pre", "warps with a lane out early (of 1000), lanes out early");
  // The variants in order, __activemask() last: if lane 0 saw more lanes than itself there, its
  // match would wait for them (a hang ends the run at run-gpu.sh's timeout; the lines above stay).
  for (int v = 0; v < V_COUNT; ++v)
    for (unsigned pre : {0u, 20000u}) {
      CK(cudaMemset(flag, 0, blocks * sizeof(unsigned)));
      CK(cudaMemset(early, 0, blocks * sizeof(unsigned)));
      k_probe<<<blocks, 32>>>(v, pre, flag, early, sink, amask);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(h, early, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
      unsigned warps = 0, lanes = 0;
      for (int b = 0; b < blocks; ++b) warps += h[b] != 0, lanes += h[b];
      unsigned am = 0;
      CK(cudaMemcpy(&am, amask, sizeof am, cudaMemcpyDeviceToHost));
      printf("%-34s %-8s %u, %u (lane 0's __activemask() in block 0: 0x%x)\n", kName[v], pre ? "20 us" : "0", warps,
             lanes, am);
      fflush(stdout);
    }
  return 0;
}
