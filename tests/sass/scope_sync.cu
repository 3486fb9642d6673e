// Kernels for check_scope_sync.py: cooperative puts and gets at wave and work-group scope, whose
// gda and proxy paths let lane 0 post for the scope and wait.
#include <shmem.h>

__global__ void k_wave(int* d, const int* s, size_t n, int pe) {
  shmemx_getmem_wave(d, s, n, pe);
  shmemx_putmem_wave(d, s, n, pe);
}
__global__ void k_wg(int* d, const int* s, size_t n, int pe) {
  shmemx_getmem_wg(d, s, n, pe);
  shmemx_putmem_wg(d, s, n, pe);
}
