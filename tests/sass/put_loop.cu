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
// The same through a context the kernel was given (a created context numbers PEs in its team, which
// a context the host made from a team reads from memory: that read must not keep the peer's state
// in the loop for every other context).
__global__ void k_put_wave_ctx(shmem_ctx_t ctx, char* d, const char* s, size_t n, int pe, int iters) {
  for (int i = 0; i < iters; ++i) shmemx_ctx_putmem_nbi_wave(ctx, d, s, n, pe);
}
__global__ void k_put_wg_ctx(shmem_ctx_t ctx, char* d, const char* s, size_t n, int pe, int iters) {
  for (int i = 0; i < iters; ++i) shmemx_ctx_putmem_nbi_wg(ctx, d, s, n, pe);
}
__global__ void k_get_wave_ctx(shmem_ctx_t ctx, char* d, const char* s, size_t n, int pe, int iters) {
  for (int i = 0; i < iters; ++i) shmemx_ctx_getmem_wave(ctx, d, s, n, pe);
}
__global__ void k_get_wg_ctx(shmem_ctx_t ctx, char* d, const char* s, size_t n, int pe, int iters) {
  for (int i = 0; i < iters; ++i) shmemx_ctx_getmem_wg(ctx, d, s, n, pe);
}
