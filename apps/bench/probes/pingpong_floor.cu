// Hardware probe (not part of libgio): the two costs left in gio-bench put_latency's ping-pong
// after the ordering study (nvlink_ordering.cu). One process drives both GPUs, one thread each.
//  1. The waiting side: does polling with ld.acquire.sys on every spin cost latency against a
//     relaxed (or volatile) spin followed by one acquire fence once the value is seen?
//  2. 4 KiB from one thread: is it bounded by loads (registers in flight), by one thread's remote
//     store issue rate, or does the Hopper bulk-copy engine (one thread, 4 KiB shared staging,
//     cp.async.bulk in and out) beat both?
// Prints the half round trip (best of 5 runs of 2000 iterations).
// Build: nvcc -O2 -arch=sm_90 -std=c++17 pingpong_floor.cu -o pingpong_floor
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

__device__ __forceinline__ uint64_t gt() { uint64_t t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ __forceinline__ uint32_t saddr(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }

enum wait_kind { W_ACQ, W_RELAXED_FENCE, W_VOLATILE_FENCE, W_RELAXED_NOFENCE };
enum sig_kind { S_PLAIN, S_RELEASE, S_FENCE_STORE };
enum copy_kind { C_REGS16, C_REGS32, C_STORES_ONLY, C_TMA, C_TMA_STORE_ONLY, C_NONE8 };

template <int W>
__device__ __forceinline__ void wait_ge(const uint64_t* f, uint64_t v) {
  uint64_t x;
  if (W == W_ACQ) {
    do asm volatile("ld.acquire.sys.u64 %0, [%1];" : "=l"(x) : "l"(f) : "memory"); while (x < v);
  } else if (W == W_VOLATILE_FENCE) {
    do x = *(volatile const uint64_t*)f; while (x < v);
    asm volatile("fence.acq_rel.sys;" ::: "memory");
  } else {
    do asm volatile("ld.relaxed.sys.u64 %0, [%1];" : "=l"(x) : "l"(f) : "memory"); while (x < v);
    if (W == W_RELAXED_FENCE) asm volatile("fence.acq_rel.sys;" ::: "memory");
  }
}
template <int S>
__device__ __forceinline__ void signal(uint64_t* f, uint64_t v) {
  if (S == S_PLAIN) asm volatile("st.relaxed.sys.u64 [%0], %1;" ::"l"(f), "l"(v) : "memory");
  else if (S == S_RELEASE) asm volatile("st.release.sys.u64 [%0], %1;" ::"l"(f), "l"(v) : "memory");
  else {
    asm volatile("fence.acq_rel.sys;" ::: "memory");
    asm volatile("st.relaxed.sys.u64 [%0], %1;" ::"l"(f), "l"(v) : "memory");
  }
}

template <int B>
__device__ __forceinline__ void copy_regs(int4* d, const int4* s, int w) {
  for (int k = 0; k < w; k += B) {
    int4 v[B];
#pragma unroll
    for (int j = 0; j < B; ++j) v[j] = s[k + j];
#pragma unroll
    for (int j = 0; j < B; ++j) d[k + j] = v[j];
  }
}

// One thread: 4 KiB global -> shared (mbarrier completion), then shared -> peer (bulk group),
// wait for the bulk store to finish, and order the async proxy's writes before the generic signal.
__device__ __forceinline__ void copy_tma(uint8_t* d, const uint8_t* s, uint32_t n, uint8_t* stage, uint64_t* bar,
                                         uint32_t& phase, bool load) {
  const uint32_t sb = saddr(stage), mb = saddr(bar);
  if (load) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(n) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(sb), "l"(s), "r"(n), "r"(mb) : "memory");
    uint32_t done = 0;
    while (!done)
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done) : "r"(mb), "r"(phase) : "memory");
    phase ^= 1;
  }
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(d), "r"(sb), "r"(n) : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  asm volatile("fence.proxy.async.global;" ::: "memory");
}

template <int W, int S, int C>
__global__ void pingpong(int me, uint8_t* rdata, const uint8_t* ldata, uint32_t n, uint64_t* rflag,
                         uint64_t* lflag, int iters, double* out) {
  __shared__ __align__(128) uint8_t stage[4096];
  __shared__ __align__(8) uint64_t bar;
  uint32_t phase = 0;
  if (C == C_TMA || C == C_TMA_STORE_ONLY) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(saddr(&bar)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    if (C == C_TMA_STORE_ONLY)
      for (uint32_t i = 0; i < n; ++i) stage[i] = ldata[i];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  uint64_t t0 = 0;
  for (int i = 1; i <= iters + 10; ++i) {
    if (i == 11) t0 = gt();
    if (me == 1) wait_ge<W>(lflag, (uint64_t)i);
    const int w = (int)(n / 16);
    if (C == C_REGS16) copy_regs<16>((int4*)rdata, (const int4*)ldata, w);
    else if (C == C_REGS32) copy_regs<32>((int4*)rdata, (const int4*)ldata, w);
    else if (C == C_STORES_ONLY) for (int k = 0; k < w; ++k) ((int4*)rdata)[k] = make_int4(i, k, i, k);
    else if (C == C_TMA) copy_tma(rdata, ldata, n, stage, &bar, phase, true);
    else if (C == C_TMA_STORE_ONLY) copy_tma(rdata, ldata, n, stage, &bar, phase, false);
    else *(volatile uint64_t*)rdata = *(const volatile uint64_t*)ldata + i;
    signal<S>(rflag, (uint64_t)i);
    if (me == 0) wait_ge<W>(lflag, (uint64_t)i);
  }
  if (me == 0) *out = (double)(gt() - t0) / iters / 2;
}

int main() {
  int ndev = 0;
  CK(cudaGetDeviceCount(&ndev));
  if (ndev < 2) { printf("needs two GPUs\n"); return 1; }
  uint8_t* buf[2];
  uint64_t* flag[2];
  double* out;
  for (int g = 0; g < 2; ++g) {
    CK(cudaSetDevice(g));
    CK(cudaDeviceEnablePeerAccess(1 - g, 0));
    CK(cudaMalloc(&buf[g], 1 << 20));
    CK(cudaMalloc(&flag[g], 4096));
    CK(cudaMemset(buf[g], 1, 1 << 20));
  }
  CK(cudaMallocManaged(&out, 64));
  auto pp = [&](auto kern, const char* name, uint32_t n) {
    double best = 1e30;
    for (int rep = 0; rep < 5; ++rep) {
      for (int g = 0; g < 2; ++g) { CK(cudaSetDevice(g)); CK(cudaMemset(flag[g], 0, 4096)); CK(cudaDeviceSynchronize()); }
      for (int g = 0; g < 2; ++g) {
        CK(cudaSetDevice(g));
        kern<<<1, 1>>>(g, buf[1 - g] + 65536, buf[g], n, flag[1 - g], flag[g], 2000, out);
        CK(cudaGetLastError());
      }
      for (int g = 0; g < 2; ++g) { CK(cudaSetDevice(g)); CK(cudaDeviceSynchronize()); }
      best = *out < best ? *out : best;
    }
    printf("%-52s n=%-5u half-RTT %.3f us\n", name, n, best / 1000);
  };
  printf("-- 8 B: signal primitive x how the waiter polls\n");
  pp(pingpong<W_ACQ, S_PLAIN, C_NONE8>, "plain store / ld.acquire.sys spin (no order)", 8);
  pp(pingpong<W_RELAXED_NOFENCE, S_PLAIN, C_NONE8>, "plain store / ld.relaxed.sys spin (no order)", 8);
  pp(pingpong<W_ACQ, S_RELEASE, C_NONE8>, "st.release.sys / ld.acquire.sys spin", 8);
  pp(pingpong<W_RELAXED_FENCE, S_RELEASE, C_NONE8>, "st.release.sys / relaxed spin + fence.acq_rel", 8);
  pp(pingpong<W_VOLATILE_FENCE, S_RELEASE, C_NONE8>, "st.release.sys / volatile spin + fence.acq_rel", 8);
  pp(pingpong<W_ACQ, S_FENCE_STORE, C_NONE8>, "fence.acq_rel+st.relaxed (GIO) / acquire spin", 8);
  pp(pingpong<W_RELAXED_FENCE, S_FENCE_STORE, C_NONE8>, "fence.acq_rel+st.relaxed / relaxed spin + fence", 8);
  printf("-- 4 KiB from one thread (st.release.sys signal, acquire spin)\n");
  pp(pingpong<W_ACQ, S_RELEASE, C_REGS16>, "16 x 16 B loads in flight", 4096);
  pp(pingpong<W_ACQ, S_RELEASE, C_REGS32>, "32 x 16 B loads in flight", 4096);
  pp(pingpong<W_ACQ, S_RELEASE, C_STORES_ONLY>, "256 x 16 B stores of registers, no loads", 4096);
  pp(pingpong<W_ACQ, S_RELEASE, C_TMA>, "bulk copy: global->shared->peer, 4 KiB staging", 4096);
  pp(pingpong<W_ACQ, S_RELEASE, C_TMA_STORE_ONLY>, "bulk store only (shared->peer)", 4096);
  pp(pingpong<W_ACQ, S_RELEASE, C_TMA>, "bulk copy, 1 KiB", 1024);
  pp(pingpong<W_ACQ, S_RELEASE, C_REGS16>, "16 loads in flight, 1 KiB", 1024);
  return 0;
}
