// ring.cpp: each PE's kernel puts 1024 ints into the next PE's buffer and signals it.
#include <shmem.h>
#include <shmemg.h>

#include <cstdio>

constexpr int N = 1024;

__global__ void ring(int* inbox, const int* outbox, uint64_t* arrived) {
  int next = (shmem_my_pe() + 1) % shmem_n_pes();
  // Every thread of the work-group takes part; one signal tells `next` the data is complete.
  shmemx_putmem_signal_wg(inbox, outbox, N * sizeof(int), arrived, 1, SHMEM_SIGNAL_SET, next);
  if (threadIdx.x == 0) shmem_signal_wait_until(arrived, SHMEM_CMP_EQ, 1);
  __syncthreads();
}

int main() {
  // Kernels will call OpenSHMEM: ask for GPU-centric support (the GPU Auxiliary Specification's bit).
  shmem_init_thread(SHMEM_THREAD_SINGLE | SHMEM_DEVICE_KERNEL_INIT, nullptr);
  int me = shmem_my_pe(), n = shmem_n_pes();
  // Kernels' symmetric buffers come from the GPU heap: shmemg_malloc is collective and returns the
  // same offset on every PE. (shmem_malloc gives host memory, which host code loads and stores.)
  int* inbox = (int*)shmemg_malloc(N * sizeof(int));
  int* outbox = (int*)shmemg_malloc(N * sizeof(int));
  uint64_t* arrived = (uint64_t*)shmemg_calloc(1, sizeof(uint64_t));  // the signal, 0 everywhere
  static int host[N];
  for (int i = 0; i < N; ++i) host[i] = me * N + i;
  hipMemcpy(outbox, host, sizeof host, hipMemcpyHostToDevice);
  shmem_barrier_all();  // every PE's signal is 0 and its outbox filled before any kernel runs

  hipLaunchKernelGGL(ring, dim3(1), dim3(256), 0, 0, inbox, outbox, arrived);
  hipDeviceSynchronize();

  hipMemcpy(host, inbox, sizeof host, hipMemcpyDeviceToHost);
  printf("PE %d of %d: received %d..%d\n", me, n, host[0], host[N - 1]);
  shmemg_free(arrived);
  shmemg_free(outbox);
  shmemg_free(inbox);
  shmem_finalize();
  return 0;
}
