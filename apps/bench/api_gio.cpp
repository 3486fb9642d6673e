// bench_api.h's host half on GIO (gio-bench).
#include "bench_api.h"
#include "coll_spec.h"
#include <shmemg.h>

void b_init(int*, char***) { shmem_init_thread(SHMEM_THREAD_SINGLE | SHMEM_DEVICE_KERNEL_INIT, nullptr); }
void b_finalize() { shmem_finalize(); }
void b_abort(int status) {
  shmem_global_exit(status);
  __builtin_unreachable();
}
int b_my_pe() { return shmem_my_pe(); }
int b_n_pes() { return shmem_n_pes(); }
void* b_malloc(size_t n) { return shmemg_malloc(n); }
void b_free(void* p) { shmemg_free(p); }
void b_barrier_all() {
  (void)hipDeviceSynchronize();  // shmem_barrier_all does this too; stated here for the twin's sake
  shmem_barrier_all();
}
void b_host_put_signal(void* d, const void* s, size_t n, uint64_t* sig, uint64_t v, int pe) {
  shmem_putmem(d, s, n, pe);
  shmem_signal_set(sig, v, pe);
  shmem_quiet();
}
// The Inter-K host polls its own signal the way gio-bench-nvshmem does: one 8-byte device-to-host
// copy (shmem_signal_fetch from the host is an atomic kernel on GPUs, a dearer read). The host
// platform's "device" memory is shared with the peer process, so there the read must be atomic.
uint64_t b_host_signal_read(const uint64_t* sig) {
#if defined(GIO_PLATFORM_HOST)
  return shmem_signal_fetch(sig);
#else
  uint64_t v = 0;
  (void)hipMemcpy(&v, sig, sizeof v, hipMemcpyDeviceToHost);
  return v;
#endif
}
void b_host_get(void* d, const void* s, size_t n, int pe) { shmem_getmem(d, s, n, pe); }
int b_coll_on_stream(bench::coll_op op, float* d, const float* s, size_t n, hipStream_t st) {
  switch (op) {
    case bench::coll_op::barrier: return shmemx_team_sync_on_stream(SHMEM_TEAM_WORLD, st);
    case bench::coll_op::broadcast:
      return shmemx_float_broadcast_on_stream(SHMEM_TEAM_WORLD, d, s, n, bench::kCollRoot, st);
    case bench::coll_op::fcollect: return shmemx_float_fcollect_on_stream(SHMEM_TEAM_WORLD, d, s, n, st);
    case bench::coll_op::alltoall: return shmemx_float_alltoall_on_stream(SHMEM_TEAM_WORLD, d, s, n, st);
    default: return shmemx_float_sum_reduce_on_stream(SHMEM_TEAM_WORLD, d, s, n, st);
  }
}
const char* b_impl() { return "gio"; }
const char* b_transport(int pe) { return shmemx_transport_name(pe); }
