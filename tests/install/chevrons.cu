// A CUDA-syntax OpenSHMEM program as the GPU auxiliary specification draft writes them: kernels
// launched with <<<...>>> (two to four configuration values, a template kernel, a kernel in a
// namespace, arguments over several lines, a launch inside a comment and a string left alone).
// Built by the install check with oshc++ on every platform (on the host platform the wrapper
// rewrites the launches) and run at 2 PEs there.
#include <shmem.h>
#include <shmemg.h>
#include <stdio.h>

namespace ring {
__global__ void put_next(int* dest, int value) {
  shmemg_putmem(dest, &value, sizeof value, (shmemg_my_pe() + 1) % shmemg_n_pes());
  shmemg_quiet();
}
}  // namespace ring

template <typename T, int Add>
__global__ void bump(T* word) {
  if (threadIdx.x == 0) *word += (T)Add;
}

__global__ void noargs(void) {}

int main(void) {
  int provided = 0;
  shmem_init_thread(SHMEM_THREAD_SINGLE | SHMEM_DEVICE_KERNEL_INIT, &provided);
  if (!(provided & SHMEM_DEVICE_KERNEL_INIT)) shmem_global_exit(1);
  const int me = shmem_my_pe(), n = shmem_n_pes();
  int* dest = (int*)shmemg_malloc(sizeof(int));
  long* local = (long*)shmemg_calloc(1, sizeof(long));
  const char* text = "a<<<1, 1>>>(b) in a string";  /* k<<<1, 1>>>(x) in a comment */
  ring::put_next<<<1, 1>>>(dest, 100 + me);
  bump<long, 3><<<dim3(1), dim3(32), 0>>>(
      local);
  bump<long, 4><<<1, 32, 0, 0>>>(local);
  noargs<<<2, 2>>>();
  hipDeviceSynchronize();
  shmem_barrier_all();
  int got = 0;
  long sum = 0;
  shmem_getmem(&got, dest, sizeof got, me);
  shmem_getmem(&sum, local, sizeof sum, me);
  const int ok = got == 100 + (me + n - 1) % n && sum == 7 && text[1] == '<';
  printf("hello_chevrons: PE %d of %d: %s\n", me, n, ok ? "ok" : "WRONG");
  shmemg_free(local);
  shmemg_free(dest);
  shmem_finalize();
  return ok ? 0 : 1;
}
