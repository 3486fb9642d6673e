// Hardware probe (not part of libgio): what each ordering primitive costs between two peer GPUs
// over NVLink, to choose GIO's p2p signal/fence/quiet code. One process drives both GPUs.
// Build: nvcc -O2 -arch=sm_90 -std=c++17 nvlink_ordering.cu -o nvlink_ordering
// Prints the half round trip of an 8-byte put + signal ping-pong per signalling primitive, the
// same for 4 KiB with the copy batched 1/8/16/32 loads deep, and a store + fence loop (put_nbi+quiet)
// to the peer, to pinned host memory and to local memory (what a gda post pays per fence).
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)
__device__ __forceinline__ uint64_t gt() { uint64_t t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ __forceinline__ uint64_t ld_acq(const uint64_t* p) { uint64_t v; asm volatile("ld.acquire.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory"); return v; }
template <int V> __device__ __forceinline__ void sig(uint64_t* f, uint64_t v) {
  if (V == 0) { *(volatile uint64_t*)f = v; }
  else if (V == 1) { __threadfence_system(); atomicExch_system((unsigned long long*)f, v); }
  else if (V == 2) { asm volatile("fence.sc.sys;" ::: "memory"); asm volatile("st.relaxed.sys.u64 [%0], %1;" :: "l"(f), "l"(v) : "memory"); }
  else if (V == 3) { asm volatile("fence.acq_rel.sys;" ::: "memory"); asm volatile("st.relaxed.sys.u64 [%0], %1;" :: "l"(f), "l"(v) : "memory"); }
  else if (V == 4) { asm volatile("st.release.sys.u64 [%0], %1;" :: "l"(f), "l"(v) : "memory"); }
  else if (V == 5) { asm volatile("red.release.sys.global.add.u64 [%0], %1;" :: "l"(f), "l"(1ull) : "memory"); }
  else if (V == 6) { asm volatile("fence.acq_rel.sys;" ::: "memory"); atomicExch_system((unsigned long long*)f, v); }
}
// ping-pong: data (n bytes, one thread, batched copy) then signal; returns ns per half RTT in *out
template <int V, int B>
__global__ void pingpong(int me, uint8_t* rdata, const uint8_t* ldata, size_t n, uint64_t* rflag, uint64_t* lflag, int iters, double* out) {
  uint64_t t0 = 0;
  for (int i = 1; i <= iters + 10; ++i) {
    if (i == 11) t0 = gt();
    if (me == 1) while (ld_acq(lflag) < (uint64_t)i) {}
    // copy
    const int4* s = (const int4*)ldata; int4* d = (int4*)rdata; size_t w = n / 16;
    size_t k = 0;
    if (B > 1) for (; k + B <= w; k += B) { int4 v[B]; for (int j = 0; j < B; ++j) v[j] = s[k + j]; for (int j = 0; j < B; ++j) d[k + j] = v[j]; }
    for (; k < w; ++k) d[k] = s[k];
    if (n < 16) for (size_t j = 0; j < n; ++j) rdata[j] = ldata[j];
    sig<V>(rflag, (uint64_t)i);
    if (me == 0) while (ld_acq(lflag) < (uint64_t)i) {}
  }
  if (me == 0) *out = (double)(gt() - t0) / iters / 2;
}
template <int Q>
__global__ void quietk(uint64_t* rdata, int iters, double* out) {
  uint64_t t0 = gt();
  for (int i = 0; i < iters; ++i) {
    rdata[i & 63] = i;
    if (Q == 0) __threadfence_system();
    else if (Q == 1) asm volatile("fence.acq_rel.sys;" ::: "memory");
    else if (Q == 2) { asm volatile("fence.sc.sys;" ::: "memory"); }
  }
  *out = (double)(gt() - t0) / iters;
}
int main() {
  uint8_t *buf[2]; uint64_t* flag[2]; double* out;
  for (int g = 0; g < 2; ++g) { CK(cudaSetDevice(g)); CK(cudaDeviceEnablePeerAccess(1 - g, 0)); CK(cudaMalloc(&buf[g], 1 << 20)); CK(cudaMalloc(&flag[g], 4096)); CK(cudaMemset(buf[g], 1, 1 << 20)); }
  CK(cudaMallocManaged(&out, 64));
  const char* names[] = {"plain-store(no order)", "fence.sc+atomicExch_system", "fence.sc+st.relaxed.sys", "fence.acq_rel+st.relaxed.sys", "st.release.sys", "red.release.sys.add", "fence.acq_rel+atomicExch"};
  auto pp = [&](auto k0, const char* name, size_t n) {
    double best = 1e30;
    for (int rep = 0; rep < 5; ++rep) {
      for (int g = 0; g < 2; ++g) { CK(cudaSetDevice(g)); CK(cudaMemset(flag[g], 0, 4096)); CK(cudaDeviceSynchronize()); }
      for (int g = 0; g < 2; ++g) { CK(cudaSetDevice(g)); k0<<<1, 1>>>(g, buf[1 - g] + 65536, buf[g], n, flag[1 - g], flag[g], 2000, out); }
      for (int g = 0; g < 2; ++g) { CK(cudaSetDevice(g)); CK(cudaDeviceSynchronize()); }
      if (*out < best) best = *out;
    }
    printf("pingpong %-32s n=%-6zu half-RTT %.3f us (best of 5)\n", name, n, best / 1000);
  };
  pp(pingpong<0, 1>, names[0], 8); pp(pingpong<1, 1>, names[1], 8); pp(pingpong<2, 1>, names[2], 8);
  pp(pingpong<3, 1>, names[3], 8); pp(pingpong<4, 1>, names[4], 8); pp(pingpong<5, 1>, names[5], 8); pp(pingpong<6, 1>, names[6], 8);
  pp(pingpong<1, 1>, "fence.sc+atomicExch b1", 4096); pp(pingpong<1, 8>, "fence.sc+atomicExch b8", 4096); pp(pingpong<1, 16>, "fence.sc+atomicExch b16", 4096);
  pp(pingpong<4, 8>, "st.release b8", 4096); pp(pingpong<4, 16>, "st.release b16", 4096); pp(pingpong<4, 32>, "st.release b32", 4096);
  CK(cudaSetDevice(0));
  const char* qn[] = {"__threadfence_system", "fence.acq_rel.sys", "fence.sc.sys"};
  auto qq = [&](auto k, const char* name) { double best = 1e30; for (int r = 0; r < 5; ++r) { k<<<1, 1>>>((uint64_t*)(buf[1]), 2000, out); CK(cudaDeviceSynchronize()); if (*out < best) best = *out; } printf("store8+%-24s %.3f us/iter\n", name, best / 1000); };
  qq(quietk<0>, qn[0]); qq(quietk<1>, qn[1]); qq(quietk<2>, qn[2]);
  // The gda post path's case: stores into pinned host memory (the softnic's rings) then a fence.
  uint64_t* hostbuf;
  CK(cudaHostAlloc((void**)&hostbuf, 4096, cudaHostAllocMapped));
  auto qh = [&](auto k, const char* name) { double best = 1e30; for (int r = 0; r < 5; ++r) { k<<<1, 1>>>(hostbuf, 2000, out); CK(cudaDeviceSynchronize()); if (*out < best) best = *out; } printf("host-store8+%-19s %.3f us/iter\n", name, best / 1000); };
  qh(quietk<0>, qn[0]); qh(quietk<1>, qn[1]); qh(quietk<2>, qn[2]);
  // And into this GPU's own memory (rings in device memory).
  auto qd = [&](auto k, const char* name) { double best = 1e30; for (int r = 0; r < 5; ++r) { k<<<1, 1>>>((uint64_t*)buf[0], 2000, out); CK(cudaDeviceSynchronize()); if (*out < best) best = *out; } printf("local-store8+%-18s %.3f us/iter\n", name, best / 1000); };
  qd(quietk<0>, qn[0]); qd(quietk<1>, qn[1]); qd(quietk<2>, qn[2]);
  return 0;
}
