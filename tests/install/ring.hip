// A HIP + OpenSHMEM program in a .hip file (tests/install/check.sh): the wrappers and
// gio_kernel_sources must compile it as kernel code on every platform, though the host C++
// compiler does not know the suffix. Each thread adds 1 to a counter on the next PE.
#include <hip/hip_runtime.h>
#include <shmem.h>
#include <shmemg.h>

#include <cstdio>

constexpr int kThreads = 64;

__global__ void add_to_next(int* counter) {
  const int next = (shmem_my_pe() + 1) % shmem_n_pes();
  shmem_int_atomic_add(counter, 1, next);
}

int main() {
  shmem_init_thread(SHMEM_THREAD_SINGLE | SHMEM_DEVICE_KERNEL_INIT, nullptr);
  const int me = shmem_my_pe(), n = shmem_n_pes();
  int* counter = (int*)shmemg_calloc(1, sizeof(int));
  hipLaunchKernelGGL(add_to_next, dim3(1), dim3(kThreads), 0, 0, counter);
  hipError_t e = hipDeviceSynchronize();
  shmem_barrier_all();  // completes every PE's kernel operations
  int got = -1;
  if (e == hipSuccess) e = hipMemcpy(&got, counter, sizeof got, hipMemcpyDeviceToHost);
  const bool ok = e == hipSuccess && got == kThreads;
  printf("hello_ring: PE %d of %d: %s\n", me, n, ok ? "ok" : "WRONG");
  if (!ok) fprintf(stderr, "hello_ring: PE %d: counter %d, want %d (%s)\n", me, got, kThreads, hipGetErrorString(e));
  shmemg_free(counter);
  shmem_finalize();
  return ok ? 0 : 1;
}
