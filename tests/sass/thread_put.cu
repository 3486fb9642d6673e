// Kernels for check_thread_put.py: one thread's putmem_nbi of a constant 8..128 bytes (the sizes
// device/core/copy.h copy_thread_small moves inline), one of a run-time size (gio-bench callcost's
// form), and three copies the check must refuse (its self-test): the bytes moved by an out-of-line
// call, by a loop of loads and stores, and through a local-memory buffer.
#include <shmem.h>

template <int N>
__global__ void k_thread_put(char* d, const char* s, int pe) {
  shmem_putmem_nbi(d, s, N, pe);
}
template __global__ void k_thread_put<8>(char*, const char*, int);
template __global__ void k_thread_put<16>(char*, const char*, int);
template __global__ void k_thread_put<32>(char*, const char*, int);
template __global__ void k_thread_put<64>(char*, const char*, int);
template __global__ void k_thread_put<128>(char*, const char*, int);

__global__ void k_thread_put_var(char* d, const char* s, size_t n, int pe) { shmem_putmem_nbi(d, s, n, pe); }

// Refused: a call.
__global__ void k_refuse_call(char* d, const char* s) { gio::dev::copy_stage((uint8_t*)d, (const uint8_t*)s, 64); }
// Refused: one word loaded and stored at a time.
__global__ void k_refuse_loop(char* d, const char* s) {
#pragma unroll 1
  for (int i = 0; i < 4; ++i) ((uint4*)d)[i] = ((const uint4*)s)[i];
}
// Refused: local memory.
__global__ void k_refuse_stack(char* d, const char* s, int k) {
  unsigned long long stage[16];
  for (int i = 0; i < 16; ++i) stage[i] = ((const unsigned long long*)s)[i];
  ((unsigned long long*)d)[0] = stage[k & 15];  // an index only known at run time: the array is in memory
}

// A loop of run-time-size puts with a value live across it (a timer's start, as gio-bench callcost
// keeps): the loop must call out at one place only, read nothing back from local memory and hold
// the general p2p copy (its 16-word batch, the bulk-copy path) inline.
__global__ void k_thread_put_loop(char* d, const char* s, size_t n, int pe, int iters, long long* t) {
  const long long t0 = clock64();
  for (int i = 0; i < iters; ++i) shmem_putmem_nbi(d, s, n, pe);
  *t = clock64() - t0;
}

// Loops the loop check must refuse (its self-test), each for one reason.
// Refused: the copy by a call (no inline 16-word batch).
__global__ void k_refuse_loop_out(char* d, const char* s, size_t n, int iters, long long* t) {
  const long long t0 = clock64();
  for (int i = 0; i < iters; ++i) gio::dev::copy_stage((uint8_t*)d, (const uint8_t*)s, n);
  *t = clock64() - t0;
}
// Refused: a second call on the way.
__global__ void k_refuse_loop_calls(char* d, const char* s, size_t n, int pe, int iters, long long* t) {
  const long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
    shmem_putmem_nbi(d, s, n, pe);
    gio::dev::copy_stage((uint8_t*)d + n, (const uint8_t*)s, 8);
  }
  *t = clock64() - t0;
}
// Refused: a read of local memory (an array indexed at run time).
__global__ void k_refuse_loop_stack(char* d, const char* s, size_t n, int pe, int iters, long long* t) {
  unsigned long long stage[16];
  for (int k = 0; k < 16; ++k) stage[k] = ((const unsigned long long*)s)[k];
  long long sum = 0;
  for (int i = 0; i < iters; ++i) {
    shmem_putmem_nbi(d, s, n, pe);
    sum += (long long)stage[i & 15];
  }
  *t = sum;
}
