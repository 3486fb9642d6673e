// The one seam between the benchmarks and the library they measure. Every benchmark source calls
// only the b_* names below, so the same kernels build against GIO (gio-bench) and, with
// -DGIO_BENCH_NVSHMEM, against NVSHMEM (gio-bench-nvshmem): same method, same launch shape.
// Kernels stay in HIP syntax; the NVSHMEM build reaches CUDA through GIO's compat header.
#pragma once
#include <cstddef>
#include <cstdint>

#include "bench.h"

#if defined(GIO_BENCH_NVSHMEM)
#include <nvshmem.h>
#include <nvshmemx.h>

#include "runtime/cuda_hip_compat.h"
#define B_DFN __device__ __forceinline__
#define B_SIG_SET NVSHMEM_SIGNAL_SET
#define B_SIG_ADD NVSHMEM_SIGNAL_ADD
// NVSHMEM has no device-created contexts: every work-group uses the default one (its buffers and
// signals are still its own).
typedef int b_ctx_t;
#else
#include <shmem.h>
#define B_DFN GIO_DEVICE_INLINE
#define B_SIG_SET SHMEM_SIGNAL_SET
#define B_SIG_ADD SHMEM_SIGNAL_ADD
typedef shmem_ctx_t b_ctx_t;
#endif

// ---- scopes: who issues one operation --------------------------------------------------------
struct b_thread {
  static B_DFN unsigned lane() { return 0; }
  static B_DFN unsigned lanes() { return 1; }
  static B_DFN void sync() {}
};
struct b_wave {
  static B_DFN unsigned lane() { return threadIdx.x % warpSize; }
  static B_DFN unsigned lanes() { return warpSize; }
  static B_DFN void sync() {
#if defined(GIO_BENCH_NVSHMEM)
    __syncwarp();
#else
    ::gio::plat::wave_sync();
#endif
  }
};
struct b_wg {
  static B_DFN unsigned lane() { return threadIdx.x; }
  static B_DFN unsigned lanes() { return blockDim.x; }
  static B_DFN void sync() { __syncthreads(); }
};

// Nanoseconds of a clock every work-group of the GPU shares (cuda: %globaltimer).
B_DFN uint64_t b_clock_ns() {
#if defined(GIO_BENCH_NVSHMEM)
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#else
  return ::gio::plat::clock_ns();
#endif
}

// The issuing SM's cycle counter (the host platform: its clock64, nanoseconds). For per-call
// costs within one work-group; not comparable across SMs.
B_DFN uint64_t b_cycles() { return (uint64_t)clock64(); }

// dest on PE pe as a load/store pointer (nullptr when the transport maps no such path).
B_DFN void* b_ptr(const void* d, int pe) {
#if defined(GIO_BENCH_NVSHMEM)
  return nvshmem_ptr(d, pe);
#else
  return shmem_ptr(d, pe);
#endif
}

B_DFN void b_spin_ns(uint64_t ns) {
  const uint64_t t0 = b_clock_ns();
  while (b_clock_ns() - t0 < ns) {
#if !defined(GIO_BENCH_NVSHMEM)
    ::gio::plat::relax();  // the host platform's fibers must share the core
#endif
  }
}

// ---- contexts (work-group collectives) -------------------------------------------------------
// A work-group that gets no context of its own falls back to the default one and counts itself
// in *failed, so the host can say the measurement was not what was asked.
B_DFN b_ctx_t b_ctx_create(int* failed) {
#if defined(GIO_BENCH_NVSHMEM)
  (void)failed;
  return 0;
#else
  shmem_ctx_t ctx;
  if (shmemx_wg_ctx_create(0, &ctx) != 0) {
    if (threadIdx.x == 0) atomicAdd(failed, 1);
    return SHMEM_CTX_DEFAULT;
  }
  return ctx;
#endif
}
B_DFN void b_ctx_destroy(b_ctx_t ctx) {
#if defined(GIO_BENCH_NVSHMEM)
  (void)ctx;
#else
  if (ctx != SHMEM_CTX_DEFAULT) shmemx_wg_ctx_destroy(ctx);
#endif
}

// ---- RMA at scope S (every lane of the scope calls with the same arguments) ------------------
template <class S>
B_DFN void b_put_nbi(b_ctx_t ctx, void* d, const void* s, size_t n, int pe);
template <class S>
B_DFN void b_put_signal(b_ctx_t ctx, void* d, const void* s, size_t n, uint64_t* sig, uint64_t v,
                        int op, int pe);

#if defined(GIO_BENCH_NVSHMEM)
#define B_RMA(S, PUT_NBI, PUT_SIG)                                                                   \
  template <>                                                                                      \
  B_DFN void b_put_nbi<S>(b_ctx_t, void* d, const void* s, size_t n, int pe) {                     \
    PUT_NBI(d, s, n, pe);                                                                          \
  }                                                                                                \
  template <>                                                                                      \
  B_DFN void b_put_signal<S>(b_ctx_t, void* d, const void* s, size_t n, uint64_t* sig, uint64_t v, \
                             int op, int pe) {                                                     \
    PUT_SIG(d, s, n, sig, v, op, pe);                                                              \
  }
B_RMA(b_thread, nvshmem_putmem_nbi, nvshmem_putmem_signal)
B_RMA(b_wave, nvshmemx_putmem_nbi_warp, nvshmemx_putmem_signal_warp)
B_RMA(b_wg, nvshmemx_putmem_nbi_block, nvshmemx_putmem_signal_block)
#else
#define B_RMA(S, PUT_NBI, PUT_SIG)                                                                   \
  template <>                                                                                      \
  B_DFN void b_put_nbi<S>(b_ctx_t ctx, void* d, const void* s, size_t n, int pe) {                 \
    PUT_NBI(ctx, d, s, n, pe);                                                                     \
  }                                                                                                \
  template <>                                                                                      \
  B_DFN void b_put_signal<S>(b_ctx_t ctx, void* d, const void* s, size_t n, uint64_t* sig,         \
                             uint64_t v, int op, int pe) {                                         \
    PUT_SIG(ctx, d, s, n, sig, v, op, pe);                                                         \
  }
B_RMA(b_thread, shmem_ctx_putmem_nbi, shmem_ctx_putmem_signal)
B_RMA(b_wave, shmemx_ctx_putmem_nbi_wave, shmemx_ctx_putmem_signal_wave)
B_RMA(b_wg, shmemx_ctx_putmem_nbi_wg, shmemx_ctx_putmem_signal_wg)
#endif
#undef B_RMA

// quiet for the whole scope: once the scope has synchronized, one lane's quiet covers every
// lane's puts (the system fence is cumulative), as both libraries' own scoped routines assume.
template <class S>
B_DFN void b_quiet(b_ctx_t ctx) {
  S::sync();
  if (S::lane() == 0) {
#if defined(GIO_BENCH_NVSHMEM)
    (void)ctx;
    nvshmem_quiet();
#else
    shmem_ctx_quiet(ctx);
#endif
  }
  S::sync();
}

// Lane 0 of the scope waits for *sig >= v; the scope leaves together.
template <class S>
B_DFN void b_wait_ge(uint64_t* sig, uint64_t v) {
  if (S::lane() == 0) {
#if defined(GIO_BENCH_NVSHMEM)
    nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, v);
#else
    shmem_signal_wait_until(sig, SHMEM_CMP_GE, v);
#endif
  }
  S::sync();
}

// ---- collectives over SHMEM_TEAM_WORLD at scope S --------------------------------------------
// Every lane of the scope calls with the same arguments; 0 on success. floats throughout, so the
// reduce is a float sum and the check can tell every element's origin (coll_spec.h).
#if defined(GIO_BENCH_NVSHMEM)
#define B_TEAM_WORLD NVSHMEM_TEAM_WORLD
#else
#define B_TEAM_WORLD SHMEM_TEAM_WORLD
#endif
template <class S>
B_DFN int b_team_sync();
template <class S>
B_DFN int b_broadcast(float* d, const float* s, size_t nelems, int root);
template <class S>
B_DFN int b_fcollect(float* d, const float* s, size_t nelems);
template <class S>
B_DFN int b_alltoall(float* d, const float* s, size_t nelems);
template <class S>
B_DFN int b_sum_reduce(float* d, const float* s, size_t nreduce);

#define B_COLL(S, SYNC, BCAST, FCOLLECT, ALLTOALL, REDUCE)                                          \
  template <>                                                                                      \
  B_DFN int b_team_sync<S>() {                                                                     \
    return SYNC(B_TEAM_WORLD);                                                                     \
  }                                                                                                \
  template <>                                                                                      \
  B_DFN int b_broadcast<S>(float* d, const float* s, size_t nelems, int root) {                    \
    return BCAST(B_TEAM_WORLD, d, s, nelems, root);                                                \
  }                                                                                                \
  template <>                                                                                      \
  B_DFN int b_fcollect<S>(float* d, const float* s, size_t nelems) {                               \
    return FCOLLECT(B_TEAM_WORLD, d, s, nelems);                                                   \
  }                                                                                                \
  template <>                                                                                      \
  B_DFN int b_alltoall<S>(float* d, const float* s, size_t nelems) {                               \
    return ALLTOALL(B_TEAM_WORLD, d, s, nelems);                                                   \
  }                                                                                                \
  template <>                                                                                      \
  B_DFN int b_sum_reduce<S>(float* d, const float* s, size_t nreduce) {                            \
    return REDUCE(B_TEAM_WORLD, d, s, nreduce);                                                    \
  }
#if defined(GIO_BENCH_NVSHMEM)
B_COLL(b_thread, nvshmem_team_sync, nvshmem_float_broadcast, nvshmem_float_fcollect,
       nvshmem_float_alltoall, nvshmem_float_sum_reduce)
B_COLL(b_wave, nvshmemx_team_sync_warp, nvshmemx_float_broadcast_warp, nvshmemx_float_fcollect_warp,
       nvshmemx_float_alltoall_warp, nvshmemx_float_sum_reduce_warp)
B_COLL(b_wg, nvshmemx_team_sync_block, nvshmemx_float_broadcast_block, nvshmemx_float_fcollect_block,
       nvshmemx_float_alltoall_block, nvshmemx_float_sum_reduce_block)
#else
B_COLL(b_thread, shmem_team_sync, shmem_float_broadcast, shmem_float_fcollect, shmem_float_alltoall,
       shmem_float_sum_reduce)
B_COLL(b_wave, shmemx_team_sync_wave, shmemx_float_broadcast_wave, shmemx_float_fcollect_wave,
       shmemx_float_alltoall_wave, shmemx_float_sum_reduce_wave)
B_COLL(b_wg, shmemx_team_sync_wg, shmemx_float_broadcast_wg, shmemx_float_fcollect_wg,
       shmemx_float_alltoall_wg, shmemx_float_sum_reduce_wg)
#endif
#undef B_COLL

// ---- host side --------------------------------------------------------------------------------
void b_init(int* argc, char*** argv);
void b_finalize();
[[noreturn]] void b_abort(int status);
int b_my_pe();
int b_n_pes();
void* b_malloc(size_t n);  // collective
void b_free(void* p);      // collective
void b_barrier_all();      // waits for this PE's kernels first
// The Inter-K hop: the host moves n bytes and then sets the peer's signal (host-side API).
void b_host_put_signal(void* d, const void* s, size_t n, uint64_t* sig, uint64_t v, int pe);
uint64_t b_host_signal_read(const uint64_t* sig);  // this PE's own signal
void b_host_get(void* d, const void* s, size_t n, int pe);
// coll's stream scope: one collective over the world team, float, enqueued on `stream` (GIO:
// shmemx_*_on_stream; NVSHMEM: nvshmemx_*_on_stream); barrier = team sync; 0 on success.
int b_coll_on_stream(bench::coll_op op, float* d, const float* s, size_t nelems, hipStream_t stream);
const char* b_impl();                 // "gio" or "nvshmem"
const char* b_transport(int pe);      // how this PE reaches pe
