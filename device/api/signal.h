// put-with-signal and signal routines. The signal is the only supported way for the target's
// kernel to learn that data arrived: it is written after the data is visible there.
#pragma once
#include "runtime/api/base.h"
#include "device/api/rma.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
template <typename S>
GIO_DEVICE_INLINE void putmem_signal(const char* rt, shmem_ctx_t ctx, void* d, const void* s, size_t n,
                           uint64_t* sig, uint64_t value, int op, int pe, bool nbi = false) {
  S::sync();
  check_signal(rt, sig, op, ctx_pe(rt, ctx, pe));  // put and signal each take the context's PE number
  put<S>(rt, ctx, d, s, n, pe, nbi);
  S::sync();  // every lane's stores are done before lane 0 releases them with the signal
  if (S::lane() == 0) signal(rt, ctx, sig, value, op, pe);
  S::sync();
}
}  // namespace dev
}  // namespace gio
#endif

GIO_HOST_DEVICE_INLINE void gio_putmem_signal(const char* rt, shmem_ctx_t ctx, void* d, const void* s, size_t n,
                                uint64_t* sig, uint64_t value, int op, int pe, bool nbi = false) {
  (void)nbi;
  GIO_DISPATCH_HOST_DEVICE(::gio::dev::putmem_signal<::gio::dev::scope_thread>(rt, ctx, d, s, n, sig, value, op, pe, nbi),
               gio_host_putmem_signal(rt, ctx, d, s, n, sig, value, op, pe));
}

// The routine names these macros generate are listed in docs/api-index.md (tests/api/api_index.py).
#define GIO_DEF_PUT_SIGNAL(SUFFIX, SUFFIX_NBI)                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_putmem_signal##SUFFIX(shmem_ctx_t ctx, void* dest, const void* src,     \
                                                size_t n, uint64_t* sig_addr, uint64_t signal,    \
                                                int sig_op, int pe) {                             \
    gio_putmem_signal("shmem_ctx_putmem_signal" #SUFFIX, ctx, dest, src, n, sig_addr, signal, sig_op, pe, SUFFIX_NBI); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_putmem_signal##SUFFIX(void* dest, const void* src, size_t n,                \
                                            uint64_t* sig_addr, uint64_t signal, int sig_op, int pe) { \
    gio_putmem_signal("shmem_putmem_signal" #SUFFIX, nullptr, dest, src, n, sig_addr, signal, sig_op, pe, SUFFIX_NBI); \
  }
GIO_DEF_PUT_SIGNAL(, false)
GIO_DEF_PUT_SIGNAL(_nbi, true)
#undef GIO_DEF_PUT_SIGNAL

// shmem_[ctx_]TYPE_put_signal[_nbi] (W: device/platform/forms.h); CTXP is ctx_ or empty, as in the C table.
#define GIO_DEF_TYPED_PUT_SIGNAL_CTX(W, NAME, T, CTXP, SUFFIX, NBI)                                             \
  GIO_##W##_INLINE void shmem_##CTXP##NAME##_put_signal##SUFFIX(GIO_SIG_CTXARG_##CTXP T* dest, const T* src,         \
                                                         size_t nelems, uint64_t* sig_addr, uint64_t signal,   \
                                                         int sig_op, int pe) {                                 \
    gio_putmem_signal("shmem_" #CTXP #NAME "_put_signal" #SUFFIX, GIO_SIG_CTX_##CTXP, dest, src,                \
                      nelems * sizeof(T), sig_addr, signal, sig_op, pe, NBI);                                  \
  }
#define GIO_SIG_CTXARG_ctx_ shmem_ctx_t ctx,
#define GIO_SIG_CTXARG_
#define GIO_SIG_CTX_ctx_ ctx
#define GIO_SIG_CTX_ nullptr
#define GIO_DEF_TYPED_PUT_SIGNAL(W, NAME, T)                   \
  GIO_DEF_TYPED_PUT_SIGNAL_CTX(W, NAME, T, , , false)          \
  GIO_DEF_TYPED_PUT_SIGNAL_CTX(W, NAME, T, , _nbi, true)       \
  GIO_DEF_TYPED_PUT_SIGNAL_CTX(W, NAME, T, ctx_, , false)      \
  GIO_DEF_TYPED_PUT_SIGNAL_CTX(W, NAME, T, ctx_, _nbi, true)
#define GIO_DEF_TYPED_PUT_SIGNAL_HOST_DEVICE(NAME, T) GIO_DEF_TYPED_PUT_SIGNAL(HOST_DEVICE, NAME, T)
#define GIO_DEF_TYPED_PUT_SIGNAL_HOST(NAME, T) GIO_DEF_TYPED_PUT_SIGNAL(HOST, NAME, T)
GIO_RMA_TYPES(GIO_DEF_TYPED_PUT_SIGNAL_HOST_DEVICE)
GIO_RMA_HOST_TYPES(GIO_DEF_TYPED_PUT_SIGNAL_HOST)
#undef GIO_DEF_TYPED_PUT_SIGNAL_HOST_DEVICE
#undef GIO_DEF_TYPED_PUT_SIGNAL_HOST
#undef GIO_DEF_TYPED_PUT_SIGNAL
#undef GIO_DEF_TYPED_PUT_SIGNAL_CTX
#undef GIO_SIG_CTXARG_ctx_
#undef GIO_SIG_CTXARG_
#undef GIO_SIG_CTX_ctx_
#undef GIO_SIG_CTX_

// Signal-only updates (OpenSHMEM 1.6 names).
GIO_HOST_DEVICE_INLINE void shmem_signal_set(uint64_t* sig_addr, uint64_t signal, int pe) {
  gio_putmem_signal("shmem_signal_set", nullptr, sig_addr, sig_addr, 0, sig_addr, signal,
                    SHMEM_SIGNAL_SET, pe);
}
GIO_HOST_DEVICE_INLINE void shmem_signal_add(uint64_t* sig_addr, uint64_t signal, int pe) {
  gio_putmem_signal("shmem_signal_add", nullptr, sig_addr, sig_addr, 0, sig_addr, signal,
                    SHMEM_SIGNAL_ADD, pe);
}
GIO_HOST_DEVICE_INLINE void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t* sig_addr, uint64_t signal, int pe) {
  gio_putmem_signal("shmem_ctx_signal_set", ctx, sig_addr, sig_addr, 0, sig_addr, signal, SHMEM_SIGNAL_SET, pe);
}
GIO_HOST_DEVICE_INLINE void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t* sig_addr, uint64_t signal, int pe) {
  gio_putmem_signal("shmem_ctx_signal_add", ctx, sig_addr, sig_addr, 0, sig_addr, signal, SHMEM_SIGNAL_ADD, pe);
}

GIO_HOST_DEVICE_INLINE uint64_t shmem_signal_fetch(const uint64_t* sig_addr) {
  uint64_t v = 0;
  GIO_DISPATCH_HOST_DEVICE(v = ::gio::plat::atomic_load_acquire(sig_addr), v = gio_host_signal_fetch(sig_addr));
  return v;
}
