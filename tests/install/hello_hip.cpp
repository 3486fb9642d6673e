// A standard HIP + OpenSHMEM program, built against an installed GIO the ways a user would
// (tests/install/check.sh): it includes <hip/hip_runtime.h>, <shmem.h> and <shmemg.h> (the GPU
// Auxiliary Specification draft's GPU heap) and nothing of GIO's own, so it builds unchanged with
// ROCm's header on hip and GIO's on cuda and host.
#include <hip/hip_runtime.h>
#include <shmem.h>
#include <shmemg.h>

#include <cstdio>

#define CHECK(call)                                                                              \
  do {                                                                                           \
    hipError_t e_ = (call);                                                                      \
    if (e_ != hipSuccess) {                                                                      \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
      return 1;                                                                                  \
    }                                                                                            \
  } while (0)

constexpr int kN = 256;

// Each thread puts one word into the next PE's buffer, then thread 0 raises its flag there.
__global__ void ring(int* buf, uint64_t* flag) {
  const int me = shmem_my_pe(), next = (me + 1) % shmem_n_pes();
  shmem_int_p(&buf[threadIdx.x], me * 1000 + (int)threadIdx.x, next);
  __syncthreads();
  if (threadIdx.x == 0) {
    shmem_quiet();
    shmem_uint64_atomic_set(flag, 1, next);
    shmem_uint64_wait_until(flag, SHMEM_CMP_EQ, 1);
  }
}

int main() {
  shmem_init_thread(SHMEM_THREAD_SINGLE | SHMEM_DEVICE_KERNEL_INIT, nullptr);
  const int me = shmem_my_pe(), n = shmem_n_pes(), prev = (me + n - 1) % n;
  int* buf = (int*)shmemg_malloc(kN * sizeof(int));
  uint64_t* flag = (uint64_t*)shmemg_calloc(1, sizeof(uint64_t));
  hipLaunchKernelGGL(ring, dim3(1), dim3(kN), 0, 0, buf, flag);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  int got[kN];
  CHECK(hipMemcpy(got, buf, sizeof got, hipMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < kN; ++i) bad += got[i] != prev * 1000 + i;
  shmem_barrier_all();
  printf("hello_hip: PE %d of %d: %s\n", me, n, bad ? "WRONG" : "ok");
  shmemg_free(flag);
  shmemg_free(buf);
  shmem_finalize();
  return bad ? 1 : 0;
}
