// Lock misuse (device/api/lock.h, host/lock.cpp), from host code and from a kernel of PE 0:
// - "host_lock_outside", "dev_lock_outside": a lock word outside the symmetric heap.
// - "dev_lock_misaligned": a lock word inside the heap, not 8-byte aligned.
// - "host_clear_not_held", "dev_clear_not_held": a clear by a caller that does not hold the lock.
// - "host_lock_timeout", "dev_lock_timeout": PE 1 takes the lock and never clears it; PE 0's set
//   must stop at GIO_TIMEOUT_MS naming the lock and whom it queued behind.
#include <shmem.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace {

enum { LF_OUTSIDE, LF_MISALIGNED, LF_NOT_HELD, LF_TIMEOUT };

__global__ void lock_fault_kernel(int which, long* sym, long* priv) {
  if (threadIdx.x != 0) return;
  switch (which) {
    case LF_OUTSIDE: shmem_set_lock(priv); break;
    case LF_MISALIGNED: shmem_set_lock((long*)((char*)sym + 4)); break;
    case LF_NOT_HELD: shmem_clear_lock(sym); break;
    default: shmem_set_lock(sym); break;
  }
}

[[noreturn]] void park() {
  fflush(stdout);
  fflush(stderr);
  sleep(60);  // mpirun ends this PE when the faulting one aborts; ctest's TIMEOUT is the backstop
  fprintf(stderr, "fault: PE %d parked for 60 s: the other PE never stopped the job\n", shmem_my_pe());
  _exit(4);
}

// Every PE gets a zeroed symmetric lock; with `held_by_1`, PE 1 takes it before PE 0 goes on.
long* setup(bool held_by_1) {
  shmem_init();
  long* lk = (long*)shmem_calloc(8, sizeof(long));
  if (held_by_1 && shmem_my_pe() == 1) shmem_set_lock(lk);
  shmem_barrier_all();
  if (shmem_my_pe() != 0) park();
  return lk;
}

void device(int which) {
  long* lk = setup(which == LF_TIMEOUT);
  long* priv = nullptr;
  if (hipMalloc(&priv, 64) != hipSuccess) exit(3);
  hipLaunchKernelGGL(lock_fault_kernel, dim3(1), dim3(32), 0, 0, which, lk, priv);
  if (hipDeviceSynchronize() != hipSuccess) {
    fprintf(stderr, "fault: kernel stopped\n");
    fflush(stderr);
    _exit(1);
  }
}

// Ordinary host memory, outside the symmetric heap and the program's data segment (a global would be
// symmetric: shmem_init makes the segment so).
long* host_word() {
  static long* w = (long*)calloc(1, sizeof(long));
  return w;
}

}  // namespace

void fault_lock_host_outside() { setup(false); shmem_set_lock(host_word()); }
void fault_lock_host_not_held() { shmem_clear_lock(setup(false)); }
void fault_lock_host_timeout() { shmem_set_lock(setup(true)); }
void fault_lock_dev_outside() { device(LF_OUTSIDE); }
void fault_lock_dev_misaligned() { device(LF_MISALIGNED); }
void fault_lock_dev_not_held() { device(LF_NOT_HELD); }
void fault_lock_dev_timeout() { device(LF_TIMEOUT); }
