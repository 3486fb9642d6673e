// GIO: the GPU-centric routines of the OpenSHMEM Auxiliary Specification for GPU Support (draft
// 0.1): shmemg_* at thread granularity, shmemg_*_tg at thread-group (= GIO's work-group, the
// shmemx_*_wg forms) and shmemg_*_htg at hardware-thread-group granularity (= a wave, the
// shmemx_*_wave forms), with and without a context argument where the draft lists both. Each name
// is a thin inline call into the same device code as its shmem_ / shmemx_ counterpart; errors
// name the shmemg_ routine. Kernels only (C++); from C this header gives the constants.
//
// SHMEM_DEVICE_TEAM_WORLD and SHMEM_DEVICE_TEAM_SHARED are predefined teams of their own (team
// routines, splits and collectives take them as any team). Device contexts are made on the host
// with shmem_ctx_create / shmem_team_create_ctx and SHMEM_DEVICE_CTX (at most SHMEM_DEVICE_MAX_CTX
// live at once) and passed to kernels; one made from a team numbers PEs in that team.
// SHMEM_DEVICE_CTX_DEFAULT is the kernels' default context (SHMEM_CTX_DEFAULT's handle, which in a
// kernel is the device default). What of the draft is not here is listed in docs/guide.md.
// The GPU heap's allocation routines, shmem_init_thread's GPU bits and the allocation hints are
// host routines and constants (runtime/api/shmemg_host.h; docs/heaps.md).
//
// Operands of GPU-centric routines lie in the GPU heap, by the draft's contract: the fast path never
// asks which heap an address is in. A default-heap address given as a remote operand stops the
// kernel with a message naming the routine, the PE and the address (device/core/check.h).
#pragma once
#include "shmem.h"
#include "runtime/api/shmemg_host.h"

// SHMEM_DEVICE_TEAM_WORLD, SHMEM_DEVICE_TEAM_SHARED and SHMEM_DEVICE_CTX: runtime/api/types.h.
#define SHMEM_DEVICE_CTX_DEFAULT SHMEM_CTX_DEFAULT

#ifdef __cplusplus
#if GIO_KERNEL_COMPILER
// The routine names these macros generate are listed in docs/api-index.md (tests/api/api_index.py).

GIO_DEVICE_INLINE int shmemg_my_pe(void) { return ::gio::dev::state_checked("shmemg_my_pe").my_pe; }
GIO_DEVICE_INLINE int shmemg_n_pes(void) { return ::gio::dev::state_checked("shmemg_n_pes").n_pes; }
// `dest` on `pe` (a PE of the team) for plain loads and stores in this kernel, or NULL where only
// RMA reaches it: shmem_ptr and shmem_team_ptr's device forms, as the draft's examples use them.
GIO_DEVICE_INLINE void* shmemg_ptr(const void* dest, int pe) { return ::gio::dev::ptr(dest, pe, "shmemg_ptr"); }
GIO_DEVICE_INLINE void* shmemg_team_ptr(shmem_team_t team, const void* dest, int pe) {
  const int world = shmem_team_translate_pe(team, pe, SHMEM_TEAM_WORLD);
  return world < 0 ? nullptr : ::gio::dev::ptr(dest, world, "shmemg_team_ptr");
}

// RMA and put-with-signal at one granularity: SFX is the name's suffix (none, _tg, _htg), S the
// device scope that carries it out.
#define GIO_DEF_G_RMA(SFX, S)                                                                      \
  GIO_DEVICE_INLINE void shmemg_putmem##SFX(void* dest, const void* source, size_t nelems, int pe) { \
    ::gio::dev::putmem<S>("shmemg_putmem" #SFX, nullptr, dest, source, nelems, pe);                \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemg_ctx_putmem##SFX(shmem_ctx_t ctx, void* dest, const void* source,   \
                                                size_t nelems, int pe) {                           \
    ::gio::dev::putmem<S>("shmemg_ctx_putmem" #SFX, ctx, dest, source, nelems, pe);                \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemg_putmem_nbi##SFX(void* dest, const void* source, size_t nelems, int pe) { \
    ::gio::dev::putmem<S>("shmemg_putmem_nbi" #SFX, nullptr, dest, source, nelems, pe, true);      \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemg_ctx_putmem_nbi##SFX(shmem_ctx_t ctx, void* dest, const void* source, \
                                                    size_t nelems, int pe) {                       \
    ::gio::dev::putmem<S>("shmemg_ctx_putmem_nbi" #SFX, ctx, dest, source, nelems, pe, true);      \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemg_getmem##SFX(void* dest, const void* source, size_t nelems, int pe) { \
    ::gio::dev::getmem<S>("shmemg_getmem" #SFX, nullptr, dest, source, nelems, pe);                \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemg_ctx_getmem##SFX(shmem_ctx_t ctx, void* dest, const void* source,   \
                                                size_t nelems, int pe) {                           \
    ::gio::dev::getmem<S>("shmemg_ctx_getmem" #SFX, ctx, dest, source, nelems, pe);                \
  }                                                                                                \
  /* A get completes before it returns (the draft lets _nbi do so); quiet has nothing left. */     \
  GIO_DEVICE_INLINE void shmemg_getmem_nbi##SFX(void* dest, const void* source, size_t nelems, int pe) { \
    ::gio::dev::getmem<S>("shmemg_getmem_nbi" #SFX, nullptr, dest, source, nelems, pe);            \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemg_ctx_getmem_nbi##SFX(shmem_ctx_t ctx, void* dest, const void* source, \
                                                    size_t nelems, int pe) {                       \
    ::gio::dev::getmem<S>("shmemg_ctx_getmem_nbi" #SFX, ctx, dest, source, nelems, pe);            \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemg_putmem_signal##SFX(void* dest, const void* source, size_t nelems,  \
                                                   uint64_t* sig_addr, uint64_t signal, int sig_op, int pe) { \
    ::gio::dev::putmem_signal<S>("shmemg_putmem_signal" #SFX, nullptr, dest, source, nelems, sig_addr, \
                                 signal, sig_op, pe);                                              \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemg_ctx_putmem_signal##SFX(shmem_ctx_t ctx, void* dest, const void* source, \
                                                       size_t nelems, uint64_t* sig_addr, uint64_t signal, \
                                                       int sig_op, int pe) {                       \
    ::gio::dev::putmem_signal<S>("shmemg_ctx_putmem_signal" #SFX, ctx, dest, source, nelems, sig_addr, \
                                 signal, sig_op, pe);                                              \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemg_putmem_signal_nbi##SFX(void* dest, const void* source, size_t nelems, \
                                                       uint64_t* sig_addr, uint64_t signal, int sig_op, int pe) { \
    ::gio::dev::putmem_signal<S>("shmemg_putmem_signal_nbi" #SFX, nullptr, dest, source, nelems, sig_addr, \
                                 signal, sig_op, pe, true);                                        \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemg_ctx_putmem_signal_nbi##SFX(shmem_ctx_t ctx, void* dest, const void* source, \
                                                           size_t nelems, uint64_t* sig_addr,      \
                                                           uint64_t signal, int sig_op, int pe) {  \
    ::gio::dev::putmem_signal<S>("shmemg_ctx_putmem_signal_nbi" #SFX, ctx, dest, source, nelems, sig_addr, \
                                 signal, sig_op, pe, true);                                        \
  }                                                                                                \
  template <typename GIO_T_ = void>                                                                \
  GIO_DEVICE_INLINE int shmemg_team_sync##SFX(shmem_team_t team) {                                 \
    return ::gio::dev::team_sync<S>("shmemg_team_sync" #SFX, team);                                \
  }                                                                                                \
  /* The draft's sync_all: every PE of the world has arrived; no completion of RMA. */            \
  GIO_DEVICE_INLINE void shmemg_sync_all##SFX(void) { ::gio::dev::barrier<S>("shmemg_sync_all" #SFX, false); }
GIO_DEF_G_RMA(, ::gio::dev::scope_thread)
GIO_DEF_G_RMA(_tg, ::gio::dev::scope_wg)
GIO_DEF_G_RMA(_htg, ::gio::dev::scope_wave)
#undef GIO_DEF_G_RMA

// AMOs: thread granularity only, as the draft defines them; each with and without a context.
// OP is GIO's AMO code, ARGS the routine's value parameters, VAL/CMP what reaches the AMO.
#define GIO_DEF_G_AMO1(NAME, T, FORM, OP, RET, ARGS, VAL, CMP)                                     \
  GIO_DEVICE_INLINE RET shmemg_##NAME##_atomic_##FORM(T* dest ARGS, int pe) {                      \
    return (RET)::gio::dev::amo<T>("shmemg_" #NAME "_atomic_" #FORM, nullptr, OP, dest, VAL, CMP, pe); \
  }                                                                                                \
  GIO_DEVICE_INLINE RET shmemg_ctx_##NAME##_atomic_##FORM(shmem_ctx_t ctx, T* dest ARGS, int pe) { \
    return (RET)::gio::dev::amo<T>("shmemg_ctx_" #NAME "_atomic_" #FORM, ctx, OP, dest, VAL, CMP, pe); \
  }
// The nonblocking fetching forms: the old value is in `fetch` when the call returns (GIO completes
// a fetching AMO before it returns on every transport, device/api/amo_nbi.h says why).
#define GIO_DEF_G_AMO_NBI(NAME, T, FORM, OP, ARGS, VAL, CMP)                                       \
  GIO_DEVICE_INLINE void shmemg_##NAME##_atomic_##FORM##_nbi(T* fetch, T* dest ARGS, int pe) {     \
    *fetch = ::gio::dev::amo<T>("shmemg_" #NAME "_atomic_" #FORM "_nbi", nullptr, OP, dest, VAL, CMP, pe); \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemg_ctx_##NAME##_atomic_##FORM##_nbi(shmem_ctx_t ctx, T* fetch, T* dest ARGS, \
                                                                 int pe) {                         \
    *fetch = ::gio::dev::amo<T>("shmemg_ctx_" #NAME "_atomic_" #FORM "_nbi", ctx, OP, dest, VAL, CMP, pe); \
  }
#define GIO_G_COMMA ,
#define GIO_G_NOARG
#define GIO_DEF_G_AMO_EXT(NAME, T)                                                                 \
  GIO_DEVICE_INLINE T shmemg_##NAME##_atomic_fetch(const T* source, int pe) {                      \
    return ::gio::dev::amo<T>("shmemg_" #NAME "_atomic_fetch", nullptr, GIO_AMO_FETCH, (T*)source, (T)0, (T)0, pe); \
  }                                                                                                \
  GIO_DEVICE_INLINE T shmemg_ctx_##NAME##_atomic_fetch(shmem_ctx_t ctx, const T* source, int pe) { \
    return ::gio::dev::amo<T>("shmemg_ctx_" #NAME "_atomic_fetch", ctx, GIO_AMO_FETCH, (T*)source, (T)0, (T)0, pe); \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemg_##NAME##_atomic_fetch_nbi(T* fetch, const T* source, int pe) {     \
    *fetch = ::gio::dev::amo<T>("shmemg_" #NAME "_atomic_fetch_nbi", nullptr, GIO_AMO_FETCH, (T*)source, (T)0, \
                                (T)0, pe);                                                         \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemg_ctx_##NAME##_atomic_fetch_nbi(shmem_ctx_t ctx, T* fetch, const T* source, int pe) { \
    *fetch = ::gio::dev::amo<T>("shmemg_ctx_" #NAME "_atomic_fetch_nbi", ctx, GIO_AMO_FETCH, (T*)source, (T)0, \
                                (T)0, pe);                                                         \
  }                                                                                                \
  GIO_DEF_G_AMO1(NAME, T, set, GIO_AMO_SET, void, GIO_G_COMMA T value, value, (T)0)                \
  GIO_DEF_G_AMO1(NAME, T, swap, GIO_AMO_SWAP, T, GIO_G_COMMA T value, value, (T)0)                 \
  GIO_DEF_G_AMO_NBI(NAME, T, swap, GIO_AMO_SWAP, GIO_G_COMMA T value, value, (T)0)
#define GIO_DEF_G_AMO_STD(NAME, T)                                                                 \
  GIO_DEF_G_AMO1(NAME, T, compare_swap, GIO_AMO_CSWAP, T, GIO_G_COMMA T cond GIO_G_COMMA T value, value, cond) \
  GIO_DEF_G_AMO_NBI(NAME, T, compare_swap, GIO_AMO_CSWAP, GIO_G_COMMA T cond GIO_G_COMMA T value, value, cond) \
  GIO_DEF_G_AMO1(NAME, T, add, GIO_AMO_FETCH_ADD, void, GIO_G_COMMA T value, value, (T)0)          \
  GIO_DEF_G_AMO1(NAME, T, fetch_add, GIO_AMO_FETCH_ADD, T, GIO_G_COMMA T value, value, (T)0)       \
  GIO_DEF_G_AMO_NBI(NAME, T, fetch_add, GIO_AMO_FETCH_ADD, GIO_G_COMMA T value, value, (T)0)       \
  GIO_DEF_G_AMO1(NAME, T, inc, GIO_AMO_FETCH_ADD, void, GIO_G_NOARG, (T)1, (T)0)                   \
  GIO_DEF_G_AMO1(NAME, T, fetch_inc, GIO_AMO_FETCH_ADD, T, GIO_G_NOARG, (T)1, (T)0)                \
  GIO_DEF_G_AMO_NBI(NAME, T, fetch_inc, GIO_AMO_FETCH_ADD, GIO_G_NOARG, (T)1, (T)0)
#define GIO_DEF_G_AMO_BIT1(NAME, T, OPN, OP)                                                       \
  GIO_DEF_G_AMO1(NAME, T, OPN, OP, void, GIO_G_COMMA T value, value, (T)0)                         \
  GIO_DEF_G_AMO1(NAME, T, fetch_##OPN, OP, T, GIO_G_COMMA T value, value, (T)0)                    \
  GIO_DEF_G_AMO_NBI(NAME, T, fetch_##OPN, OP, GIO_G_COMMA T value, value, (T)0)
#define GIO_DEF_G_AMO_BIT(NAME, T)                                                                 \
  GIO_DEF_G_AMO_BIT1(NAME, T, and, GIO_AMO_FETCH_AND)                                              \
  GIO_DEF_G_AMO_BIT1(NAME, T, or, GIO_AMO_FETCH_OR)                                                \
  GIO_DEF_G_AMO_BIT1(NAME, T, xor, GIO_AMO_FETCH_XOR)
GIO_AMO_EXT_TYPES(GIO_DEF_G_AMO_EXT)
GIO_AMO_STD_TYPES(GIO_DEF_G_AMO_STD)
GIO_AMO_BIT_TYPES(GIO_DEF_G_AMO_BIT)
#undef GIO_DEF_G_AMO_EXT
#undef GIO_DEF_G_AMO_STD
#undef GIO_DEF_G_AMO_BIT
#undef GIO_DEF_G_AMO_BIT1
#undef GIO_DEF_G_AMO_NBI
#undef GIO_DEF_G_AMO1
#undef GIO_G_COMMA
#undef GIO_G_NOARG

// Point-to-point synchronization on one local object (thread granularity; bounded by GIO_TIMEOUT_MS).
#define GIO_DEF_G_WAIT(NAME, T)                                                                    \
  GIO_DEVICE_INLINE void shmemg_##NAME##_wait_until(T* ivar, int cmp, T cmp_value) {               \
    ::gio::dev::wait_kind<T>("shmemg_" #NAME "_wait_until", GIO_WAIT_UNTIL, ivar, 1, nullptr, nullptr, cmp, \
                             &cmp_value, false, nullptr);                                          \
  }                                                                                                \
  GIO_DEVICE_INLINE int shmemg_##NAME##_test(T* ivar, int cmp, T cmp_value) {                      \
    return (int)::gio::dev::wait_kind<T>("shmemg_" #NAME "_test", GIO_TEST, ivar, 1, nullptr, nullptr, cmp, \
                                         &cmp_value, false, nullptr);                              \
  }
GIO_WAIT_TYPES(GIO_DEF_G_WAIT)
#undef GIO_DEF_G_WAIT

GIO_DEVICE_INLINE uint64_t shmemg_signal_wait_until(uint64_t* sig_addr, int cmp, uint64_t cmp_value) {
  uint64_t seen = 0;
  ::gio::dev::wait_kind<uint64_t>("shmemg_signal_wait_until", GIO_WAIT_UNTIL, sig_addr, 1, nullptr, nullptr, cmp,
                                  &cmp_value, false, &seen);
  return seen;
}
GIO_DEVICE_INLINE uint64_t shmemg_signal_fetch(const uint64_t* sig_addr) {
  return ::gio::plat::atomic_load_acquire(sig_addr);
}

// Ordering and completion (thread granularity), on the given context or the default one. The
// draft makes SHMEM_CTX_INVALID a no-op here; any other handle that is no context is an error.
GIO_DEVICE_INLINE void shmemg_fence(void) { ::gio::dev::fence("shmemg_fence", nullptr); }
GIO_DEVICE_INLINE void shmemg_ctx_fence(shmem_ctx_t ctx) {
  if (ctx != SHMEM_CTX_INVALID) ::gio::dev::fence("shmemg_ctx_fence", ctx);
}
GIO_DEVICE_INLINE void shmemg_quiet(void) { ::gio::dev::quiet("shmemg_quiet", nullptr); }
GIO_DEVICE_INLINE void shmemg_ctx_quiet(shmem_ctx_t ctx) {
  if (ctx != SHMEM_CTX_INVALID) ::gio::dev::quiet("shmemg_ctx_quiet", ctx);
}

#endif  // GIO_KERNEL_COMPILER
#endif  // __cplusplus
