// Strided RMA's argument faults (device/api/strided.h, host/strided.cpp): a destination stride of
// 0, a negative source stride, a subarray of 4 dimensions, and a subarray whose whole strided
// extent runs past the heap end although its first row fits. Raised by PE 0; PE 1 parks.
#include <shmem.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace {

enum strided_fault { SF_IGET_NEG, SF_SUB_NDIMS };

__global__ void strided_fault_kernel(int which, long* sym) {
  const ptrdiff_t st[4] = {1, 1, 1, 1};
  const size_t counts[4] = {1, 1, 1, 1};
  if (which == SF_IGET_NEG && threadIdx.x == 0) shmem_long_iget(sym, sym + 64, 1, -2, 4, 1);
  if (which == SF_SUB_NDIMS) shmemx_putmem_subarray_wg(sym, st, sym + 64, st, counts, 4, 8, 1);
}

long* pe0_sym() {
  shmem_init();
  long* s = (long*)shmem_calloc(512, sizeof(long));
  if (shmem_my_pe() != 0) {
    fflush(stderr);
    sleep(60);  // mpirun ends this PE when PE 0 aborts
    _exit(4);
  }
  return s;
}

void launch(int which, int threads) {
  long* s = pe0_sym();
  hipLaunchKernelGGL(strided_fault_kernel, dim3(1), dim3(threads), 0, 0, which, s);
  if (hipDeviceSynchronize() != hipSuccess) {
    fprintf(stderr, "fault: the kernel trapped\n");
    _exit(1);
  }
}

char host_mem[64];

}  // namespace

// Runs the case `name` if it is one of these (returning only if GIO did not stop it).
bool fault_strided(const std::string& name) {
  if (name == "strided_iput_zero_stride") {
    long* s = pe0_sym();
    shmem_long_iput(s, s + 64, 0, 1, 4, 1);
  } else if (name == "strided_ibput_overlap") {  // blocks of 3 elements, 2 apart at the target
    long* s = pe0_sym();
    shmem_long_ibput(s, s + 64, 2, 4, 3, 2, 1);
  } else if (name == "strided_subarray_past_end") {
    // 8 rows of 8 bytes, 1 MiB apart at the target: 7 MiB + 8 bytes, in a 4 MiB heap.
    char* s = (char*)pe0_sym();
    const ptrdiff_t ds[2] = {1, 1 << 20}, ss[2] = {1, 8};
    const size_t counts[2] = {8, 8};
    shmemx_putmem_subarray(s, ds, host_mem, ss, counts, 2, 1, 1);
  } else if (name == "dev_strided_iget_negative_stride") {
    launch(SF_IGET_NEG, 1);
  } else if (name == "dev_strided_subarray_ndims") {
    launch(SF_SUB_NDIMS, 64);
  } else {
    return false;
  }
  return true;
}
