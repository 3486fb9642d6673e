// hello: every PE's kernel sends a greeting and a block of numbers into the next PE's symmetric
// buffer with one putmem_signal, waits for the previous PE's signal, and checks what arrived.
// Runs on GPUs (cuda/hip) or on the CPU emulation (host platform), unchanged.
#include <shmem.h>
#include <shmemg.h>

#include <cstdio>
#include <cstring>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    hipError_t e_ = (call);                                                               \
    if (e_ != hipSuccess) {                                                               \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
      return 1;                                                                           \
    }                                                                                     \
  } while (0)

constexpr int kWords = 1024;

struct message {
  char text[64];
  int words[kWords];
};

__global__ void exchange(message* inbox, message* outbox, uint64_t* arrived, int* ok) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const int next = (me + 1) % n, prev = (me + n - 1) % n;
  // Build the outgoing message in our own symmetric outbox (any local memory would do).
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) outbox->words[i] = me * 100000 + i;
  if (threadIdx.x == 0) {
    const char hi[] = "hello from PE ";
    int k = 0;
    for (; hi[k]; ++k) outbox->text[k] = hi[k];
    outbox->text[k++] = char('0' + me / 10 % 10);
    outbox->text[k++] = char('0' + me % 10);
    outbox->text[k] = 0;
  }
  // The whole work-group moves the message, then one signal tells `next` it has arrived.
  shmemx_putmem_signal_wg(inbox, outbox, sizeof(message), arrived, 1, SHMEM_SIGNAL_ADD, next);
  if (threadIdx.x == 0) shmem_signal_wait_until(arrived, SHMEM_CMP_GE, 1);
  __syncthreads();
  int bad = 0;
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) bad += inbox->words[i] != prev * 100000 + i;
  if (bad) atomicAdd(ok, bad);
}

int main() {
  shmem_init_thread(SHMEM_THREAD_SINGLE | SHMEM_DEVICE_KERNEL_INIT, nullptr);
  const int me = shmem_my_pe(), n = shmem_n_pes();
  message* inbox = (message*)shmemg_malloc(sizeof(message));
  message* outbox = (message*)shmemg_malloc(sizeof(message));
  uint64_t* arrived = (uint64_t*)shmemg_calloc(1, sizeof(uint64_t));
  int* bad_d;
  CHECK(hipMalloc(&bad_d, sizeof(int)));
  CHECK(hipMemset(bad_d, 0, sizeof(int)));

  hipLaunchKernelGGL(exchange, dim3(1), dim3(256), 0, 0, inbox, outbox, arrived, bad_d);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());

  message got;
  int bad = 0;
  CHECK(hipMemcpy(&got, inbox, sizeof got, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&bad, bad_d, sizeof bad, hipMemcpyDeviceToHost));
  shmem_barrier_all();
  for (int pe = 0; pe < n; ++pe) {
    if (pe == me)
      printf("PE %d of %d received \"%s\" and %d numbers: %s\n", me, n, got.text, kWords,
             bad ? "WRONG" : "all correct");
    fflush(stdout);
    shmem_barrier_all();
  }
  CHECK(hipFree(bad_d));
  shmemg_free(arrived);
  shmemg_free(outbox);
  shmemg_free(inbox);
  shmem_finalize();
  return bad ? 1 : 0;
}
