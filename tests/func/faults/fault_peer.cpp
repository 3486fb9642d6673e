// Cases "pe_killed_host_barrier" and "pe_killed_dev_wait": PE 1 dies (SIGKILL, as the kernel's
// OOM killer or a node failure would) while PE 0 waits for it, in a host barrier or in a kernel
// waiting for a value PE 1 would have put. mpirun notices the death at once, names the rank
// ("process rank 1 ... exited on signal 9") and ends the job with a non-zero exit, well inside
// GIO_TIMEOUT_MS; GIO's own bounded waits are the backstop where a launcher would not do that.
#include <shmem.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>

namespace {

__global__ void wait_for_peer(int* flag) { shmem_int_wait_until(flag, SHMEM_CMP_EQ, 1); }

[[noreturn]] void pe_killed(bool in_kernel) {
  shmem_init();
  int* flag = (int*)shmem_calloc(1, sizeof(int));
  shmem_barrier_all();
  if (shmem_my_pe() == 1) {
    fprintf(stderr, "fault: PE 1 kills itself with SIGKILL\n");
    fflush(stderr);
    raise(SIGKILL);
  }
  if (in_kernel) {
    hipLaunchKernelGGL(wait_for_peer, dim3(1), dim3(1), 0, 0, flag);
    (void)hipDeviceSynchronize();
  } else {
    shmem_barrier_all();
  }
  fprintf(stderr, "fault: PE 0 went on past a wait for the dead PE 1\n");
  exit(2);
}

}  // namespace

void fault_pe_killed_host_barrier() { pe_killed(false); }
void fault_pe_killed_dev_wait() { pe_killed(true); }
