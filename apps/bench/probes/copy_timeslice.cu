// Hardware probe (not part of libgio): how long the proxy's small staging copies and the softnic's
// one-thread atomic kernel take while another process keeps a kernel running on the same GPU, as
// two PEs on one GPU do. Contexts of two processes share the GPU in time slices; a copy the driver
// does on a copy engine need not wait for this process's slice, one it does otherwise may.
// Compares cudaMemcpyAsync with cudaMemcpyBatchAsync(cudaMemcpyFlagPreferOverlapWithCompute).
// Build: nvcc -O2 -std=c++17 copy_timeslice.cu -o copy_timeslice
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

__device__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
// One block spinning for `ns`, or until *stop (a mapped host word) when given.
__global__ void spin(unsigned long long ns, volatile int* stop) {
  const unsigned long long t0 = now_ns();
  while (now_ns() - t0 < ns && !(stop && *stop)) __nanosleep(200);
}
__global__ void add_one(unsigned long long* p) { atomicAdd(p, 1ull); }

// A child process, forked before this one touches CUDA, that on start() keeps one block spinning
// for `ns` (CUDA must not be used in a child forked after its parent initialised it).
struct spinner {
  int go[2], ready[2];
  pid_t pid;
  explicit spinner(unsigned long long ns) {
    if (pipe(go) || pipe(ready)) exit(1);
    pid = fork();
    if (pid == 0) {
      char c;
      if (read(go[0], &c, 1) != 1) _exit(1);
      CK(cudaSetDevice(0));
      spin<<<1, 32>>>(1000, nullptr);
      CK(cudaDeviceSynchronize());
      spin<<<1, 32>>>(ns, nullptr);
      if (write(ready[1], &c, 1) != 1) _exit(1);
      CK(cudaDeviceSynchronize());
      _exit(0);
    }
  }
  void start() {
    char c = 1;
    if (write(go[1], &c, 1) != 1 || read(ready[0], &c, 1) != 1) exit(1);
    usleep(100000);
  }
  void join() {
    int st;
    waitpid(pid, &st, 0);
  }
};

struct ctx {
  cudaStream_t s;
  cudaEvent_t e;
  uint8_t *host, *dev, *reg;  // pinned (cudaHostAlloc), device, malloc'd then cudaHostRegister'd
  unsigned long long* word;
};

double wait_us(ctx& c, std::chrono::steady_clock::time_point t0) {
  while (cudaEventQuery(c.e) == cudaErrorNotReady) {
  }
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

// The ways of issuing a copy compared; H2D ones land in device memory, as the proxy's landings do.
enum method { ASYNC_H2D, ASYNC_D2H, BATCH_H2D, BATCH_D2H, COPY2D_H2D, BATCH_PADDED_H2D, REGISTERED_H2D, KERNEL, METHODS };
const char* names[] = {"memcpyAsync H2D", "memcpyAsync D2H", "batch+overlap H2D", "batch+overlap D2H",
                       "memcpy2DAsync H2D", "batch + 32K pad H2D", "registered H2D", "1-thread kernel"};

void batch(void* dst, const void* src, size_t n, cudaStream_t s, uint8_t* pad_dst = nullptr, const uint8_t* pad_src = nullptr) {
  cudaMemcpyAttributes a{};
  a.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  a.flags = cudaMemcpyFlagPreferOverlapWithCompute;
  size_t idx = 0, sizes[2] = {n, 32768};
  void* d[2] = {dst, pad_dst};
  const void* sr[2] = {src, pad_src};
  CK(cudaMemcpyBatchAsync(d, sr, sizes, pad_dst ? 2 : 1, &a, &idx, 1, s));
}

double median_us(ctx& c, int m, size_t n) {
  std::vector<double> v;
  for (int rep = 0; rep < 15; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    switch (m) {
      case ASYNC_H2D: CK(cudaMemcpyAsync(c.dev, c.host, n, cudaMemcpyDefault, c.s)); break;
      case ASYNC_D2H: CK(cudaMemcpyAsync(c.host, c.dev, n, cudaMemcpyDefault, c.s)); break;
      case BATCH_H2D: batch(c.dev, c.host, n, c.s); break;
      case BATCH_D2H: batch(c.host, c.dev, n, c.s); break;
      case COPY2D_H2D: CK(cudaMemcpy2DAsync(c.dev, n, c.host, n, n, 1, cudaMemcpyHostToDevice, c.s)); break;
      case BATCH_PADDED_H2D: batch(c.dev, c.host, n, c.s, c.dev + (1 << 20), c.host + (1 << 20)); break;
      case REGISTERED_H2D: CK(cudaMemcpyAsync(c.dev, c.reg, n, cudaMemcpyHostToDevice, c.s)); break;
      default: add_one<<<1, 1, 0, c.s>>>(c.word);
    }
    CK(cudaEventRecord(c.e, c.s));
    v.push_back(wait_us(c, t0));
  }
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void table(ctx& c, const char* cond) {
  const size_t sizes[] = {8, 256, 4096, 16384, 32768, 65536, 262144, 1 << 20};
  printf("\n# %s: median of 15, microseconds from issue to event done\n%-20s", cond, "method \\ bytes");
  for (size_t n : sizes) printf("%10zu", n);
  printf("\n");
  for (int m = 0; m < METHODS; ++m) {
    printf("%-20s", names[m]);
    for (size_t n : sizes) {
      printf("%10.1f", median_us(c, m, n));
      fflush(stdout);
      if (m == KERNEL) break;
    }
    printf("\n");
  }
}

int main() {
  const unsigned long long run_ns = 6000000000ull;  // the other process's kernel: 6 s per condition
  spinner a(run_ns), b(run_ns);
  ctx c;
  CK(cudaSetDevice(0));
  CK(cudaStreamCreateWithFlags(&c.s, cudaStreamNonBlocking));
  CK(cudaEventCreateWithFlags(&c.e, cudaEventDisableTiming));
  CK(cudaHostAlloc(&c.host, 2 << 20, cudaHostAllocDefault));
  CK(cudaMalloc(&c.dev, 2 << 20));
  c.reg = (uint8_t*)aligned_alloc(4096, 1 << 20);
  CK(cudaHostRegister(c.reg, 1 << 20, cudaHostRegisterDefault));
  CK(cudaMalloc(&c.word, 8));
  add_one<<<1, 1, 0, c.s>>>(c.word);  // load the module
  CK(cudaStreamSynchronize(c.s));
  table(c, "GPU otherwise idle");
  a.start();
  table(c, "another process's kernel spinning; none of this process's");
  a.join();

  int* stop;
  CK(cudaHostAlloc(&stop, sizeof(int), cudaHostAllocMapped));
  *stop = 0;
  cudaStream_t mine;
  CK(cudaStreamCreateWithFlags(&mine, cudaStreamNonBlocking));
  spin<<<1, 32, 0, mine>>>(run_ns, stop);
  table(c, "this process's own kernel spinning, no other process");
  b.start();
  table(c, "both processes' kernels spinning");
  *stop = 1;
  CK(cudaStreamSynchronize(mine));
  b.join();
  return 0;
}
