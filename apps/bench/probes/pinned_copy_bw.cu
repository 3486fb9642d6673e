// Hardware probe (not part of libgio): the copy-engine bound of the proxy's staged puts. Bandwidth
// of cudaMemcpyAsync between device memory and pinned host memory, device-to-host and
// host-to-device, per chunk size, with `depth` copies in flight on one stream (as the proxy's
// staging pipeline issues them) and as one large copy.
// Build: nvcc -O2 -std=c++17 pinned_copy_bw.cu -o pinned_copy_bw ; run: ./pinned_copy_bw [MiB]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

int main(int argc, char** argv) {
  const size_t total = (argc > 1 ? strtoull(argv[1], nullptr, 10) : 256) << 20;
  void *dev, *host;
  CK(cudaMalloc(&dev, total));
  CK(cudaHostAlloc(&host, total, cudaHostAllocDefault));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  printf("# pinned_copy_bw: %zu MiB per point, chunks issued back to back on one stream\n%8s %10s %10s\n",
         total >> 20, "chunk", "D2H GB/s", "H2D GB/s");
  for (size_t chunk = 64 << 10; chunk <= total; chunk *= 4) {
    double gbs[2];
    for (int dir = 0; dir < 2; ++dir) {
      for (int rep = 0; rep < 2; ++rep) {  // the first is a warm-up
        const auto t0 = std::chrono::steady_clock::now();
        for (size_t off = 0; off < total; off += chunk) {
          char* d = (char*)dev + off;
          char* h = (char*)host + off;
          CK(dir == 0 ? cudaMemcpyAsync(h, d, chunk, cudaMemcpyDeviceToHost, s)
                      : cudaMemcpyAsync(d, h, chunk, cudaMemcpyHostToDevice, s));
        }
        CK(cudaStreamSynchronize(s));
        gbs[dir] = total / std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 1e9;
      }
    }
    printf("%8zu %10.2f %10.2f\n", chunk, gbs[0], gbs[1]);
    if (chunk > total / 4) break;
  }
  return 0;
}
