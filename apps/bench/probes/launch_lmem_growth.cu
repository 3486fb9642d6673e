// Hardware probe (not part of libgio): whether a kernel launch that needs more local memory (stack
// frame) per thread than the context has reserved waits for the running kernels, and whether it
// holds up another host thread's launch meanwhile. That is the proxy's and the softnic's situation:
// a kernel spins until a signal arrives, the host thread that launched it launches the next kernel
// of its stream (a stream collective's data kernel, with a larger frame), and the proxy thread must
// launch the one-thread atomic kernel that delivers the signal (gpu_nic.cpp nic_amo). If the second
// launch waits for the spinner and the third waits for the second, nothing moves until the
// spinner's own bound ends it.
//
// Each case: `spin` (no frame) waits for a flag in mapped host memory, bounded by kBoundMs; thread A
// launches `frame<N>` (an N-int frame) on another stream, unless the case leaves it out; 200 ms
// later thread B launches `set_flag` (no frame) on a third stream, which ends the spinner. Printed:
// how long each launch call took and how long the spinner ran. The cases, in this order: A absent;
// A a kernel not launched before (with CUDA_MODULE_LOADING=LAZY that launch loads it, which the
// EAGER setting of host/platform/gpu_device.cpp avoids); a 512-byte frame (below the default 1 KiB
// stack limit, as the stream collectives' kernels are: 256 and 352 bytes on sm_90); a 16 KiB frame;
// the 16 KiB frame again (is its memory still reserved?). `reserve` first sets cudaLimitStackSize
// to 32 KiB a thread while no kernel runs.
// Build: nvcc -O2 -std=c++17 -arch=sm_90 launch_lmem_growth.cu -o launch_lmem_growth
// Run:   ./launch_lmem_growth; ./launch_lmem_growth reserve; CUDA_MODULE_LOADING=LAZY ./launch_lmem_growth
// (nvcc -Xptxas -v shows the frames)
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <string>
#include <thread>

#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

constexpr unsigned long long kBoundMs = 5000;
constexpr int kBigInts = 4096;  // 16 KiB of local memory a thread

__device__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__global__ void spin(volatile int* flag, unsigned long long* ran_ns) {
  const unsigned long long t0 = now_ns();
  while (!*flag && now_ns() - t0 < kBoundMs * 1000000ull) __nanosleep(1000);
  *ran_ns = now_ns() - t0;
}
// Indexed by run-time values, so the array stays in local memory.
template <int N>
__global__ void frame(int* io) {
  int a[N];
  for (int i = 0; i < N; ++i) a[(i * 7 + io[1]) % N] = i ^ io[2];
  io[3 + threadIdx.x] = a[(io[0] + threadIdx.x) % N];
}
__global__ void set_flag(int* flag) { atomicExch(flag, 1); }
__global__ void fresh(int* io) { io[3 + threadIdx.x] = io[0]; }

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// frame_kernel: what thread A launches, or nullptr for no launch A.
void run_case(const char* name, void (*frame_kernel)(int*), int* flag, unsigned long long* ran, int* io) {
  cudaStream_t spin_s, a_s, b_s;
  CK(cudaStreamCreateWithFlags(&spin_s, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&a_s, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&b_s, cudaStreamNonBlocking));
  *(volatile int*)flag = 0;
  *ran = 0;
  spin<<<1, 32, 0, spin_s>>>(flag, ran);
  CK(cudaGetLastError());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the spinner is running
  const auto t0 = std::chrono::steady_clock::now();
  double a_ms = -1, b_ms = -1, b_started = -1;
  std::thread a([&] {
    if (!frame_kernel) return;
    const auto t = std::chrono::steady_clock::now();
    frame_kernel<<<1, 32, 0, a_s>>>(io);
    a_ms = ms_since(t);
  });
  std::thread b([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto t = std::chrono::steady_clock::now();
    b_started = ms_since(t0);
    set_flag<<<1, 1, 0, b_s>>>(flag);
    b_ms = ms_since(t);
  });
  a.join();
  b.join();
  CK(cudaDeviceSynchronize());
  printf("%-32s launch A %9.1f ms | launch B (flag) at %6.1f ms took %9.1f ms | spinner ran %7.1f ms%s\n",
         name, a_ms, b_started, b_ms, *ran / 1e6, *ran / 1000000ull >= kBoundMs ? "  (ran to its bound: B's flag came late)" : "");
  CK(cudaStreamDestroy(spin_s));
  CK(cudaStreamDestroy(a_s));
  CK(cudaStreamDestroy(b_s));
}

int main(int argc, char** argv) {
  const bool reserve = argc > 1 && std::string(argv[1]) == "reserve";
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);  // as libgio, unless the caller set it
  CK(cudaSetDevice(0));
  int* flag;
  unsigned long long* ran;
  int* io;
  CK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  CK(cudaHostAlloc(&ran, sizeof(unsigned long long), cudaHostAllocMapped));
  CK(cudaMalloc(&io, 64 * sizeof(int)));
  CK(cudaMemset(io, 0, 64 * sizeof(int)));
  if (reserve) CK(cudaDeviceSetLimit(cudaLimitStackSize, 2 * kBigInts * sizeof(int)));  // 32 KiB, while idle
  size_t limit = 0;
  CK(cudaDeviceGetLimit(&limit, cudaLimitStackSize));
  cudaFuncAttributes small, big;
  CK(cudaFuncGetAttributes(&small, frame<128>));
  CK(cudaFuncGetAttributes(&big, frame<kBigInts>));
  printf("# stack limit %zu bytes a thread; frames %zu and %zu bytes a thread; spinner bound %llu ms\n", limit,
         (size_t)small.localSizeBytes, (size_t)big.localSizeBytes, kBoundMs);
  // Load everything and run the small kernels once, with nothing else running.
  *flag = 1;
  spin<<<1, 32>>>(flag, ran);
  set_flag<<<1, 1>>>(flag);
  CK(cudaDeviceSynchronize());

  run_case("no launch A", nullptr, flag, ran, io);
  run_case("A: first launch of a kernel", fresh, flag, ran, io);
  run_case("A: 512-byte frame", frame<128>, flag, ran, io);
  run_case("A: 16 KiB frame", frame<kBigInts>, flag, ran, io);
  run_case("A: 16 KiB frame again", frame<kBigInts>, flag, ran, io);
  return 0;
}
