// The two heaps' faults (docs/heaps.md): a default-heap address given to a device routine, the GPU
// heap's routines without GPU support or on the other heap's block, a default-heap address of a
// peer reached over gda from another node, and host code dereferencing a GPU-heap address. Raised
// by PE 0; PE 1 parks (or takes part in the collective call that fails on every PE).
#include <shmem.h>
#include <shmemg.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "host/fault_guard.h"

namespace gio {
runtime& rt();  // host/runtime.h: the running runtime, for the fault guard's test hook
}

namespace {

enum heap_fault { HF_SHMEMG_PUT, HF_SHMEM_AMO };

// A GPU-centric routine and a standard device routine given a default-heap address.
__global__ void default_heap_kernel(int which, long* dflt) {
  if (threadIdx.x != 0) return;
  const long v = 5;
  if (which == HF_SHMEMG_PUT) shmemg_putmem(dflt, &v, sizeof v, 1);
  if (which == HF_SHMEM_AMO) shmem_long_atomic_add(dflt, 1, 1);
}

void park_unless_pe0() {
  if (shmem_my_pe() == 0) return;
  fflush(stderr);
  sleep(60);  // mpirun ends this PE when PE 0 aborts
  _exit(4);
}

void init_gpu() { shmem_init_thread(SHMEM_THREAD_SINGLE | SHMEM_DEVICE_HOST_INIT | SHMEM_DEVICE_KERNEL_INIT, nullptr); }

void device_fault(int which) {
  init_gpu();
  long* d = (long*)shmem_calloc(8, sizeof(long));
  park_unless_pe0();
  hipLaunchKernelGGL(default_heap_kernel, dim3(1), dim3(32), 0, 0, which, d);
  if (hipDeviceSynchronize() != hipSuccess) {
    fprintf(stderr, "fault: the kernel trapped\n");
    _exit(1);
  }
}

volatile sig_atomic_t g_own_ran = 0;
void own_handler(int, siginfo_t* si, void*) {
  char msg[96];
  const int n = snprintf(msg, sizeof msg, "fault: the program's own SIGSEGV handler ran for %p\n", si->si_addr);
  (void)!write(2, msg, (size_t)n);
  _exit(3);
}

// Host code stores into a GPU-heap block of this PE. On cuda and hip it is device memory, which
// faults by itself; on the host platform the block's page is protected to stand for it, and the
// guard that cuda and hip install at shmem_init is installed through its test hook.
void host_store_gpu_heap() {
  init_gpu();
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  long* g = (long*)shmemg_align(page, 2 * page);
  park_unless_pe0();
  gio::fault_guard_install(gio::rt(), true);
  (void)mprotect(g, page, PROT_NONE);  // fails harmlessly on a GPU's device address
  *(volatile long*)g = 1;
}

}  // namespace

// Runs the case `name` if it is one of these (returning only if GIO did not stop it).
bool fault_heaps(const std::string& name) {
  if (name == "heap_dev_shmemg_put_default") {
    device_fault(HF_SHMEMG_PUT);
  } else if (name == "heap_dev_amo_default") {
    device_fault(HF_SHMEM_AMO);
  } else if (name == "heap_shmemg_without_gpu_init") {
    shmem_init();
    (void)shmemg_malloc(64);
  } else if (name == "heap_shmemg_free_default_block") {
    init_gpu();
    void* d = shmem_malloc(64);
    shmemg_free(d);
  } else if (name == "heap_default_over_gda_off_node") {
    shmem_init();
    long* d = (long*)shmem_calloc(8, sizeof(long));
    park_unless_pe0();
    long v = 7;
    shmem_long_put(d, &v, 1, 1);
  } else if (name == "heap_host_store_gpu_heap") {
    host_store_gpu_heap();
  } else if (name == "heap_segv_chains_to_program") {
    // The program's handler, installed before shmem_init, still gets the faults that are not GIO's.
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = own_handler;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, nullptr);
    init_gpu();
    park_unless_pe0();
    gio::fault_guard_install(gio::rt(), true);
    *(volatile long*)16 = 1;
  } else if (name == "heap_segv_default_action") {
    init_gpu();
    park_unless_pe0();
    gio::fault_guard_install(gio::rt(), true);
    *(volatile long*)16 = 1;
  } else {
    return false;
  }
  return true;
}
