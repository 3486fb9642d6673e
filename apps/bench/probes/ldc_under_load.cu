// Hardware probe (not part of libgio): does a constant-bank load on a store's address path slow the
// 8-byte message rate into the NVLink peer when every SM is storing? gio-bench msgrate's k_stream
// may load the peer's mapping on every call with a per-thread indexed `LDC` (or a uniform `ULDC`);
// this probe asks whether such a load costs rate at all (apps/bench/gpu/run-gpu.sh OUT ldcprobe).
//
// Each wave's lane 0 stores 8 fresh bytes per iteration into GPU 1, as gio-bench msgrate does, at an
// address built from the peer's base pointer, which comes from:
//   param             a kernel parameter (no load in the loop): the floor
//   const, loop index a __constant__ table, indexed by slot + zero * i
//   const, lane index a __constant__ table, indexed by slot + zero * (i + threadIdx.x)
//   global            the same table in global memory, indexed by slot + zero * i (LDG)
// `zero` is 0 at run time, so every index is the peer's slot, and ptxas can neither hoist the table
// loads out of the loop nor fold them. With nvcc 13 for sm_90 both const rows compile to an indexed
// `LDC.64` inside the loop (the load sinks under lane 0's predicate, so it is per-thread); no form
// here gets the uniform `ULDC`. Check with `cuobjdump -sass ldc_under_load | grep -E "LDC|LDG"`.
// Prints Mmsg/s (median of 5) at 1, 32 and 132 blocks of 256 threads. Argument: iterations (1000).
// Build: nvcc -O2 -arch=sm_90 -std=c++17 ldc_under_load.cu -o ldc_under_load
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

enum source { PARAM, CONST_LOOP, CONST_LANE, GLOBAL };
constexpr int kThreads = 256, kWarps = kThreads / 32, kSlots = 8;

__constant__ unsigned long long* c_base[kSlots];

__device__ inline uint64_t now_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

struct args {
  unsigned long long* base;         // PARAM
  unsigned long long* const* g_base;  // GLOBAL: the table in global memory
  const unsigned long long* src;
  uint64_t* t;
  int slot, zero, iters;
};

template <source S>
__global__ void k(args a) {
  const unsigned issuers = gridDim.x * kWarps, id = blockIdx.x * kWarps + threadIdx.x / 32;
  const bool leader = threadIdx.x % 32 == 0;
  __syncthreads();
  const uint64_t t0 = now_ns();
#pragma unroll 1
  for (int i = 0; i < a.iters; ++i) {
    unsigned long long* base;
    if (S == PARAM) base = a.base;
    else if (S == CONST_LOOP) base = c_base[a.slot + a.zero * i];
    else if (S == CONST_LANE) base = c_base[a.slot + a.zero * (i + (int)threadIdx.x)];
    else base = a.g_base[a.slot + a.zero * i];
    if (leader) base[(size_t)i * issuers + id] = a.src[id];
  }
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) {
    a.t[2 * blockIdx.x] = t0;
    a.t[2 * blockIdx.x + 1] = now_ns();
  }
}

template <source S>
double rate(args a, int blocks) {
  const unsigned issuers = blocks * kWarps;
  double r[5];
  uint64_t h[2 * 132];
  for (int rep = 0; rep < 5; ++rep) {
    k<S><<<blocks, kThreads>>>(a);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, a.t, 2 * blocks * sizeof(uint64_t), cudaMemcpyDeviceToHost));
    uint64_t lo = h[0], hi = h[1];
    for (int b = 0; b < blocks; ++b) lo = std::min(lo, h[2 * b]), hi = std::max(hi, h[2 * b + 1]);
    r[rep] = (double)issuers * a.iters / (double)(hi - lo) * 1e3;  // Mmsg/s
  }
  std::sort(r, r + 5);
  return r[2];
}

int main(int argc, char** argv) {
  int n = 0;
  CK(cudaGetDeviceCount(&n));
  if (n < 2) {
    printf("needs two GPUs\n");
    return 1;
  }
  args a{};
  a.iters = argc > 1 ? atoi(argv[1]) : 1000;
  a.slot = 1;
  const size_t bytes = (size_t)132 * kWarps * a.iters * 8;
  CK(cudaSetDevice(1));
  CK(cudaMalloc(&a.base, bytes));
  CK(cudaSetDevice(0));
  CK(cudaDeviceEnablePeerAccess(1, 0));
  unsigned long long* table[kSlots] = {};
  table[a.slot] = a.base;
  CK(cudaMemcpyToSymbol(c_base, table, sizeof table));
  unsigned long long** g;
  CK(cudaMalloc(&g, sizeof table));
  CK(cudaMemcpy(g, table, sizeof table, cudaMemcpyHostToDevice));
  a.g_base = g;
  unsigned long long* src;
  CK(cudaMalloc(&src, (size_t)132 * kWarps * 8));
  CK(cudaMemset(src, 0x5a, (size_t)132 * kWarps * 8));
  a.src = src;
  CK(cudaMalloc(&a.t, 2 * 132 * sizeof(uint64_t)));
  printf("wave lane 0 stores 8 B into GPU 1, fresh address each of %d iterations, Mmsg/s (median of 5)\n", a.iters);
  printf("%-34s %10s %10s %10s\n", "peer base from", "1 block", "32", "132");
  const int blocks[3] = {1, 32, 132};
#define ROW(NAME, S)                                             \
  do {                                                           \
    printf("%-34s", NAME);                                       \
    for (int b : blocks) printf(" %10.1f", rate<S>(a, b));       \
    printf("\n");                                                \
  } while (0)
  ROW("param (no load)", PARAM);
  ROW("const, loop index", CONST_LOOP);
  ROW("const, lane index", CONST_LANE);
  ROW("global (LDG)", GLOBAL);
  return 0;
}
