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
// launches `big_frame` (a 16 KiB frame) on another stream, unless the case leaves it out; 200 ms
// later thread B launches `set_flag` (no frame) on a third stream, which ends the spinner. Printed:
// how long each launch call took and how long the spinner ran. The cases: A absent; A present; A
// present again (is the memory the first A needed still reserved?). Run it twice: plain, and with
// `reserve`, which first sets cudaLimitStackSize to 32 KiB a thread while no kernel runs.
// Build: nvcc -O2 -std=c++17 -arch=sm_90 launch_lmem_growth.cu -o launch_lmem_growth
// Run:   ./launch_lmem_growth; ./launch_lmem_growth reserve   (nvcc -Xptxas -v shows the frames)
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <string>
#include <thread>

#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

constexpr unsigned long long kBoundMs = 5000;
constexpr int kFrameInts = 4096;  // 16 KiB of local memory a thread

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
__global__ void big_frame(int* io) {
  int a[kFrameInts];
  for (int i = 0; i < kFrameInts; ++i) a[(i * 7 + io[1]) % kFrameInts] = i ^ io[2];
  io[3 + threadIdx.x] = a[(io[0] + threadIdx.x) % kFrameInts];
}
__global__ void set_flag(int* flag) { atomicExch(flag, 1); }

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void run_case(const char* name, bool with_big, int* flag, unsigned long long* ran, int* io) {
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
    if (!with_big) return;
    const auto t = std::chrono::steady_clock::now();
    big_frame<<<1, 32, 0, a_s>>>(io);
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
  printf("%-44s launch A (16 KiB frame) %9.1f ms | launch B (flag) at %6.1f ms took %9.1f ms | spinner ran %7.1f ms%s\n",
         name, a_ms, b_started, b_ms, *ran / 1e6, *ran / 1000000ull >= kBoundMs ? "  (ran to its bound: B's flag came late)" : "");
  CK(cudaStreamDestroy(spin_s));
  CK(cudaStreamDestroy(a_s));
  CK(cudaStreamDestroy(b_s));
}

int main(int argc, char** argv) {
  const bool reserve = argc > 1 && std::string(argv[1]) == "reserve";
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);  // no module load inside a launch (libgio does the same)
  CK(cudaSetDevice(0));
  int* flag;
  unsigned long long* ran;
  int* io;
  CK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  CK(cudaHostAlloc(&ran, sizeof(unsigned long long), cudaHostAllocMapped));
  CK(cudaMalloc(&io, 64 * sizeof(int)));
  CK(cudaMemset(io, 0, 64 * sizeof(int)));
  if (reserve) CK(cudaDeviceSetLimit(cudaLimitStackSize, 2 * kFrameInts * sizeof(int)));  // 32 KiB, while idle
  size_t limit = 0;
  CK(cudaDeviceGetLimit(&limit, cudaLimitStackSize));
  cudaFuncAttributes fa;
  CK(cudaFuncGetAttributes(&fa, big_frame));
  printf("# stack limit %zu bytes a thread; big_frame local memory %zu bytes a thread; spinner bound %llu ms\n", limit,
         (size_t)fa.localSizeBytes, kBoundMs);
  // Load everything and run the small kernels once, with nothing else running.
  *flag = 1;
  spin<<<1, 32>>>(flag, ran);
  set_flag<<<1, 1>>>(flag);
  CK(cudaDeviceSynchronize());

  run_case("no launch A", false, flag, ran, io);
  run_case("launch A", true, flag, ran, io);
  run_case("launch A again", true, flag, ran, io);
  return 0;
}
