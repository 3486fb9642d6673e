// Kernels for check_put_loop.py: a loop of cooperative puts and gets, as a message-rate or halo
// loop calls them, at wave and work-group scope.
#include <shmem.h>

__global__ void k_put_wave(char* d, const char* s, size_t n, int pe, int iters) {
  for (int i = 0; i < iters; ++i) shmemx_putmem_nbi_wave(d, s, n, pe);
}
__global__ void k_put_wg(char* d, const char* s, size_t n, int pe, int iters) {
  for (int i = 0; i < iters; ++i) shmemx_putmem_nbi_wg(d, s, n, pe);
}
__global__ void k_get_wave(char* d, const char* s, size_t n, int pe, int iters) {
  for (int i = 0; i < iters; ++i) shmemx_getmem_wave(d, s, n, pe);
}
__global__ void k_get_wg(char* d, const char* s, size_t n, int pe, int iters) {
  for (int i = 0; i < iters; ++i) shmemx_getmem_wg(d, s, n, pe);
}
