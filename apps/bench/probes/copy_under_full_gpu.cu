// Hardware probe (not part of libgio): can the softnic's work still run while an application
// kernel holds every SM and spins? The softnic moves data with cudaMemcpyAsync on a non-blocking
// stream and does atomics with a one-thread kernel. This fills device 0 with spinning blocks
// (released through a pinned host flag), then times each kind of copy / kernel issued meanwhile.
// Build: nvcc -O2 -arch=sm_90 -std=c++17 copy_under_full_gpu.cu -o copy_under_full_gpu
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

__global__ void spin(volatile int* release) {
  if (threadIdx.x == 0)
    while (*release == 0) __nanosleep(1000);
  __syncthreads();
}
__global__ void add_one(unsigned long long* p) { atomicAdd(p, 1ull); }

// Issue `what` on a non-blocking stream and wait up to 2 s for it.
template <class F>
void timed(const char* name, int blocks_per_sm, F issue) {
  cudaStream_t s;
  CK(cudaSetDevice(0));
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int* release;
  CK(cudaHostAlloc(&release, sizeof(int), cudaHostAllocMapped));
  *release = 0;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  if (blocks_per_sm) spin<<<prop.multiProcessorCount * blocks_per_sm, 1024>>>(release);
  auto t0 = std::chrono::steady_clock::now();
  issue(s);
  double ms = -1;
  while (true) {
    cudaError_t q = cudaStreamQuery(s);
    double el = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (q == cudaSuccess) { ms = el; break; }
    if (el > 2000) break;
  }
  *release = 1;
  CK(cudaDeviceSynchronize());
  CK(cudaStreamSynchronize(s));
  printf("%-44s full GPU (%d x 1024 threads/SM): %s", name, blocks_per_sm, ms < 0 ? "NOT DONE after 2 s\n" : "");
  if (ms >= 0) printf("done in %.3f ms\n", ms);
  CK(cudaStreamDestroy(s));
  CK(cudaFreeHost(release));
}

int main() {
  int n = 0;
  CK(cudaGetDeviceCount(&n));
  void *a0, *b0, *a1 = nullptr;
  CK(cudaSetDevice(0));
  CK(cudaMalloc(&a0, 1 << 20));
  CK(cudaMalloc(&b0, 1 << 20));
  if (n > 1) {
    CK(cudaDeviceEnablePeerAccess(1, 0));
    CK(cudaSetDevice(1));
    CK(cudaMalloc(&a1, 1 << 20));
    CK(cudaDeviceEnablePeerAccess(0, 0));
    CK(cudaSetDevice(0));
  }
  unsigned long long* pinned;
  CK(cudaHostAlloc(&pinned, 64, 0));
  for (int full : {0, 2}) {
    timed("memcpy D2D same device 64 KiB", full, [&](cudaStream_t s) { CK(cudaMemcpyAsync(b0, a0, 65536, cudaMemcpyDefault, s)); });
    timed("memcpy D2D same device 8 B", full, [&](cudaStream_t s) { CK(cudaMemcpyAsync(b0, a0, 8, cudaMemcpyDefault, s)); });
    if (a1) {
      timed("memcpy D2D to peer 64 KiB (Default)", full, [&](cudaStream_t s) { CK(cudaMemcpyAsync(a1, a0, 65536, cudaMemcpyDefault, s)); });
      timed("memcpy D2D to peer 8 B (Default)", full, [&](cudaStream_t s) { CK(cudaMemcpyAsync(a1, a0, 8, cudaMemcpyDefault, s)); });
      timed("memcpyPeerAsync 64 KiB", full, [&](cudaStream_t s) { CK(cudaMemcpyPeerAsync(a1, 1, a0, 0, 65536, s)); });
    }
    timed("memcpy H2D pinned 8 B", full, [&](cudaStream_t s) { CK(cudaMemcpyAsync(b0, pinned, 8, cudaMemcpyDefault, s)); });
    timed("memcpy D2H pinned 8 B", full, [&](cudaStream_t s) { CK(cudaMemcpyAsync(pinned, b0, 8, cudaMemcpyDefault, s)); });
    timed("one-thread atomic kernel", full, [&](cudaStream_t s) { add_one<<<1, 1, 0, s>>>((unsigned long long*)b0); });
  }
  return 0;
}
