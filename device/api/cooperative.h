// Cooperative forms (GIO extensions, rocSHMEM-style names): shmemx_<routine>_wg is called by every
// thread of a work-group with the same arguments, shmemx_<routine>_wave by every thread of a wave.
// The lanes share the copy; the call returns when the whole scope's part is done.
#pragma once
#include "device/api/signal.h"
#include "device/api/sync.h"

#if GIO_KERNEL_COMPILER
// The routine names these macros generate are listed in docs/api-index.md (tests/api/api_index.py).
#define GIO_DEF_SCOPED(SFX, S)                                                                     \
  GIO_DEVICE_INLINE void shmemx_ctx_putmem##SFX(shmem_ctx_t ctx, void* d, const void* s, size_t n, int pe) { \
    ::gio::dev::putmem<S>("shmemx_ctx_putmem" #SFX, ctx, d, s, n, pe);                            \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemx_putmem##SFX(void* d, const void* s, size_t n, int pe) {                      \
    ::gio::dev::putmem<S>("shmemx_putmem" #SFX, nullptr, d, s, n, pe);                            \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemx_putmem_nbi##SFX(void* d, const void* s, size_t n, int pe) {                  \
    ::gio::dev::putmem<S>("shmemx_putmem_nbi" #SFX, nullptr, d, s, n, pe, true);                        \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemx_ctx_putmem_nbi##SFX(shmem_ctx_t ctx, void* d, const void* s, size_t n, int pe) { \
    ::gio::dev::putmem<S>("shmemx_ctx_putmem_nbi" #SFX, ctx, d, s, n, pe, true);                        \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemx_ctx_getmem##SFX(shmem_ctx_t ctx, void* d, const void* s, size_t n, int pe) { \
    ::gio::dev::getmem<S>("shmemx_ctx_getmem" #SFX, ctx, d, s, n, pe);                            \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemx_getmem##SFX(void* d, const void* s, size_t n, int pe) {                      \
    ::gio::dev::getmem<S>("shmemx_getmem" #SFX, nullptr, d, s, n, pe);                            \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemx_getmem_nbi##SFX(void* d, const void* s, size_t n, int pe) {                  \
    ::gio::dev::getmem<S>("shmemx_getmem_nbi" #SFX, nullptr, d, s, n, pe);                        \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemx_ctx_putmem_signal##SFX(shmem_ctx_t ctx, void* d, const void* s, size_t n,   \
                                             uint64_t* sig, uint64_t v, int op, int pe) {         \
    ::gio::dev::putmem_signal<S>("shmemx_ctx_putmem_signal" #SFX, ctx, d, s, n, sig, v, op, pe);  \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemx_putmem_signal##SFX(void* d, const void* s, size_t n, uint64_t* sig,         \
                                         uint64_t v, int op, int pe) {                             \
    ::gio::dev::putmem_signal<S>("shmemx_putmem_signal" #SFX, nullptr, d, s, n, sig, v, op, pe);  \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemx_putmem_signal_nbi##SFX(void* d, const void* s, size_t n, uint64_t* sig,     \
                                             uint64_t v, int op, int pe) {                         \
    ::gio::dev::putmem_signal<S>("shmemx_putmem_signal_nbi" #SFX, nullptr, d, s, n, sig, v, op, pe, true); \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemx_barrier_all##SFX() { ::gio::dev::barrier<S>("shmemx_barrier_all" #SFX, true); } \
  GIO_DEVICE_INLINE void shmemx_sync_all##SFX() { ::gio::dev::barrier<S>("shmemx_sync_all" #SFX, false); }

GIO_DEF_SCOPED(_wg, ::gio::dev::scope_wg)
GIO_DEF_SCOPED(_wave, ::gio::dev::scope_wave)
// One thread standing for its PE in a barrier (NVSHMEM's nvshmem_barrier_all semantics).
GIO_DEVICE_INLINE void shmemx_barrier_all_thread() {
  ::gio::dev::barrier<::gio::dev::scope_thread>("shmemx_barrier_all_thread", true);
}
GIO_DEVICE_INLINE void shmemx_sync_all_thread() {
  ::gio::dev::barrier<::gio::dev::scope_thread>("shmemx_sync_all_thread", false);
}
#undef GIO_DEF_SCOPED

#define GIO_DEF_SCOPED_TYPED1(NAME, T, SFX, S)                                                     \
  GIO_DEVICE_INLINE void shmemx_##NAME##_put##SFX(T* d, const T* s, size_t nelems, int pe) {                \
    ::gio::dev::putmem<S>("shmemx_" #NAME "_put" #SFX, nullptr, d, s, nelems * sizeof(T), pe);    \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemx_##NAME##_put_nbi##SFX(T* d, const T* s, size_t nelems, int pe) {            \
    ::gio::dev::putmem<S>("shmemx_" #NAME "_put_nbi" #SFX, nullptr, d, s, nelems * sizeof(T), pe, true); \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemx_ctx_##NAME##_put##SFX(shmem_ctx_t ctx, T* d, const T* s, size_t nelems, int pe) { \
    ::gio::dev::putmem<S>("shmemx_ctx_" #NAME "_put" #SFX, ctx, d, s, nelems * sizeof(T), pe);    \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemx_##NAME##_get##SFX(T* d, const T* s, size_t nelems, int pe) {                \
    ::gio::dev::getmem<S>("shmemx_" #NAME "_get" #SFX, nullptr, d, s, nelems * sizeof(T), pe);    \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemx_##NAME##_get_nbi##SFX(T* d, const T* s, size_t nelems, int pe) {            \
    ::gio::dev::getmem<S>("shmemx_" #NAME "_get_nbi" #SFX, nullptr, d, s, nelems * sizeof(T), pe); \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemx_ctx_##NAME##_get##SFX(shmem_ctx_t ctx, T* d, const T* s, size_t nelems, int pe) { \
    ::gio::dev::getmem<S>("shmemx_ctx_" #NAME "_get" #SFX, ctx, d, s, nelems * sizeof(T), pe);    \
  }                                                                                                \
  GIO_DEVICE_INLINE void shmemx_##NAME##_put_signal##SFX(T* d, const T* s, size_t nelems, uint64_t* sig,    \
                                               uint64_t v, int op, int pe) {                       \
    ::gio::dev::putmem_signal<S>("shmemx_" #NAME "_put_signal" #SFX, nullptr, d, s, nelems * sizeof(T), \
                                 sig, v, op, pe);                                                  \
  }
#define GIO_DEF_SCOPED_TYPED(NAME, T)                             \
  GIO_DEF_SCOPED_TYPED1(NAME, T, _wg, ::gio::dev::scope_wg)       \
  GIO_DEF_SCOPED_TYPED1(NAME, T, _wave, ::gio::dev::scope_wave)
GIO_RMA_TYPES(GIO_DEF_SCOPED_TYPED)
#undef GIO_DEF_SCOPED_TYPED
#undef GIO_DEF_SCOPED_TYPED1
#endif
