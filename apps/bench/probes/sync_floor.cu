// Hardware probe (not part of libgio): what a work-group-scope team sync over NVLink costs, by
// the ordering each step carries. One process drives 2..4 GPUs, one work-group of 256 threads on
// each, running back-to-back syncs (the in-kernel barrier row of `gio-bench coll`). Every variant
// is "work-group sync, thread 0 signals every other GPU and waits for them all, work-group sync":
// one round, so the time per sync is one one-way trip plus what the ordering adds.
//   plain:      st.relaxed.sys of the epoch into the peer's slot for this GPU, ld.relaxed.sys spin
//               (no ordering at all: the floor)
//   volatile:   volatile store, volatile spin (no fence; what a library that skips the release does)
//   rel-store:  st.release.sys into the slot, ld.acquire.sys spin
//   fence+st:   fence.acq_rel.sys, then st.relaxed.sys into the slot, acquire spin (GIO's SET)
//   fence+red:  fence.acq_rel.sys, then red.add.sys on one counter per GPU, acquire spin on
//               counter >= n-1 more (GIO's team sync)
//   fence+atom: as fence+red, but a returning atom.add.sys whose result is not used (what GIO's
//               signal adds compiled to before red_add_system: ATOMG, not REDG)
//   red.rel:    red.release.sys.add, acquire spin
//   gpu-fence:  fence.acq_rel.gpu, then st.relaxed.sys (too weak for the model across GPUs;
//               shown for the cost only)
// "+stores": every thread stores one word into its own GPU's memory first (the data a sync
// must make visible), so the release has something to drain.
// Prints the time per sync (best of 5 runs of 20000 syncs, GPU 0's globaltimer).
// Build: nvcc -O2 -arch=sm_90 -std=c++17 sync_floor.cu -o sync_floor
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

constexpr int kMax = 8;
struct peers { uint64_t* slot[kMax]; uint64_t* local[kMax]; };  // every GPU's flag area

__device__ __forceinline__ uint64_t gt() { uint64_t t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ __forceinline__ uint64_t ld_relaxed(const uint64_t* p) { uint64_t x; asm volatile("ld.relaxed.sys.u64 %0, [%1];" : "=l"(x) : "l"(p) : "memory"); return x; }
__device__ __forceinline__ uint64_t ld_acquire(const uint64_t* p) { uint64_t x; asm volatile("ld.acquire.sys.u64 %0, [%1];" : "=l"(x) : "l"(p) : "memory"); return x; }

enum kind { K_PLAIN, K_VOLATILE, K_REL_STORE, K_FENCE_STORE, K_FENCE_RED, K_FENCE_ATOM, K_RED_REL, K_GPU_FENCE };

template <int K, bool STORES>
__global__ void k_sync(int me, int n, peers p, uint32_t iters, uint64_t* data, uint64_t* out_ns) {
  uint64_t* mine = p.slot[me];  // slots [0, n) per source GPU; word 64 is the counter
  uint64_t t0 = 0, consumed = 0;
  for (uint32_t it = 0; it <= iters; ++it) {
    if (it == 1) t0 = gt();  // the first sync lines the GPUs up
    if (STORES) data[threadIdx.x] = it;
    __syncthreads();
    if (threadIdx.x == 0) {
      const uint64_t epoch = it + 1;
      for (int k = 1; k < n; ++k) {
        const int to = (me + k) % n;
        uint64_t* s = p.slot[to] + me;
        uint64_t* c = p.slot[to] + 64;
        if (K == K_PLAIN) asm volatile("st.relaxed.sys.u64 [%0], %1;" ::"l"(s), "l"(epoch) : "memory");
        else if (K == K_VOLATILE) *(volatile uint64_t*)s = epoch;
        else if (K == K_REL_STORE) asm volatile("st.release.sys.u64 [%0], %1;" ::"l"(s), "l"(epoch) : "memory");
        else if (K == K_FENCE_STORE) {
          if (k == 1) asm volatile("fence.acq_rel.sys;" ::: "memory");
          asm volatile("st.relaxed.sys.u64 [%0], %1;" ::"l"(s), "l"(epoch) : "memory");
        } else if (K == K_FENCE_RED) {
          if (k == 1) asm volatile("fence.acq_rel.sys;" ::: "memory");
          asm volatile("red.relaxed.sys.global.add.u64 [%0], %1;" ::"l"(c), "l"(1ull) : "memory");
        } else if (K == K_FENCE_ATOM) {
          if (k == 1) asm volatile("fence.acq_rel.sys;" ::: "memory");
          uint64_t old;
          asm volatile("atom.relaxed.sys.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(c), "l"(1ull) : "memory");
        } else if (K == K_RED_REL) asm volatile("red.release.sys.global.add.u64 [%0], %1;" ::"l"(c), "l"(1ull) : "memory");
        else {
          if (k == 1) asm volatile("fence.acq_rel.gpu;" ::: "memory");
          asm volatile("st.relaxed.sys.u64 [%0], %1;" ::"l"(s), "l"(epoch) : "memory");
        }
      }
      if (K == K_FENCE_RED || K == K_FENCE_ATOM || K == K_RED_REL) {
        consumed += n - 1;
        while (ld_acquire(mine + 64) < consumed) {}
      } else {
        for (int k = 1; k < n; ++k) {
          const uint64_t* s = mine + (me - k + n) % n;
          if (K == K_PLAIN) while (ld_relaxed(s) < epoch) {}
          else if (K == K_VOLATILE) while (*(volatile const uint64_t*)s < epoch) {}
          else while (ld_acquire(s) < epoch) {}
        }
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) *out_ns = gt() - t0;
}

int main(int argc, char** argv) {
  int ndev = 0;
  CK(cudaGetDeviceCount(&ndev));
  if (ndev < 2) { printf("needs two GPUs\n"); return 1; }
  const uint32_t iters = 20000;
  peers p{};
  uint64_t* data[kMax];
  uint64_t* out[kMax];
  for (int g = 0; g < ndev && g < kMax; ++g) {
    CK(cudaSetDevice(g));
    for (int h = 0; h < ndev; ++h)
      if (h != g) CK(cudaDeviceEnablePeerAccess(h, 0));
    CK(cudaMalloc(&p.slot[g], 4096));
    CK(cudaMalloc(&data[g], 4096));
    CK(cudaMalloc(&out[g], 8));
  }
  auto run = [&](int n, auto kern, const char* name) {
    double best = 1e30;
    for (int rep = 0; rep < 5; ++rep) {
      for (int g = 0; g < n; ++g) { CK(cudaSetDevice(g)); CK(cudaMemset(p.slot[g], 0, 4096)); CK(cudaDeviceSynchronize()); }
      for (int g = 0; g < n; ++g) {
        CK(cudaSetDevice(g));
        kern<<<1, 256>>>(g, n, p, iters, data[g], out[g]);
        CK(cudaGetLastError());
      }
      for (int g = 0; g < n; ++g) { CK(cudaSetDevice(g)); CK(cudaDeviceSynchronize()); }
      uint64_t ns = 0;
      CK(cudaSetDevice(0));
      CK(cudaMemcpy(&ns, out[0], 8, cudaMemcpyDeviceToHost));
      best = ns < best ? ns : best;
    }
    printf("%d GPUs  %-34s %.3f us per sync\n", n, name, best / iters / 1000);
  };
  for (int n = 2; n <= ndev && n <= 4; n += 2) {
    run(n, k_sync<K_PLAIN, false>, "plain (no ordering)");
    run(n, k_sync<K_VOLATILE, false>, "volatile (no fence)");
    run(n, k_sync<K_REL_STORE, false>, "st.release.sys / acquire");
    run(n, k_sync<K_FENCE_STORE, false>, "fence.sys + st (GIO SET)");
    run(n, k_sync<K_FENCE_RED, false>, "fence.sys + red.add (GIO sync)");
    run(n, k_sync<K_FENCE_ATOM, false>, "fence.sys + atom.add, result unused");
    run(n, k_sync<K_RED_REL, false>, "red.release.sys.add");
    run(n, k_sync<K_GPU_FENCE, false>, "fence.gpu + st (cost only)");
    run(n, k_sync<K_VOLATILE, true>, "volatile +stores");
    run(n, k_sync<K_REL_STORE, true>, "st.release.sys +stores");
    run(n, k_sync<K_FENCE_RED, true>, "fence.sys + red.add +stores");
  }
  return 0;
}
