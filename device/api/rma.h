// RMA routines: putmem/getmem, typed and sized put/get, p/g, _nbi forms, ctx forms.
// Thread scope here (host and device); the cooperative _wg/_wave forms are in device/api/cooperative.h.
// On p2p a blocking put has finished its stores when it returns, so _nbi is the same call;
// completion and visibility at the target come from quiet (or a signal).
#pragma once
#include "device/dispatch/dispatch.h"
#include "runtime/api/types.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
// Cooperative forms synchronize their scope at entry and exit (see scope.h).
template <typename S>
GIO_DEVICE_INLINE void putmem(const char* rt, shmem_ctx_t ctx, void* d, const void* s, size_t n, int pe, bool nbi = false) {
  S::sync();
  put<S>(rt, ctx, d, s, n, pe, nbi);
  S::sync();
}
template <typename S>
GIO_DEVICE_INLINE void getmem(const char* rt, shmem_ctx_t ctx, void* d, const void* s, size_t n, int pe) {
  S::sync();
  get<S>(rt, ctx, d, s, n, pe);
  S::sync();
}
}  // namespace dev
}  // namespace gio
#endif

GIO_HOST_DEVICE_INLINE void gio_rma_put(const char* rt, shmem_ctx_t ctx, void* d, const void* s, size_t n, int pe,
                          bool nbi = false) {
  (void)nbi;
  GIO_DISPATCH_HOST_DEVICE(::gio::dev::put<::gio::dev::scope_thread>(rt, ctx, d, s, n, pe, nbi),
               gio_host_putmem(rt, ctx, d, s, n, pe));
}
GIO_HOST_DEVICE_INLINE void gio_rma_get(const char* rt, shmem_ctx_t ctx, void* d, const void* s, size_t n, int pe) {
  GIO_DISPATCH_HOST_DEVICE(::gio::dev::get<::gio::dev::scope_thread>(rt, ctx, d, s, n, pe),
               gio_host_getmem(rt, ctx, d, s, n, pe));
}

// putmem / getmem (+ _nbi, + ctx)
// The routine names these macros generate are listed in docs/api-index.md (tests/api/api_index.py).
#define GIO_DEF_MEM(OP, IMPL, ...)                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_##OP(shmem_ctx_t ctx, void* dest, const void* src, size_t n, int pe) {  \
    IMPL("shmem_ctx_" #OP, ctx, dest, src, n, pe __VA_ARGS__);                                    \
  }                                                                                               \
  GIO_HOST_DEVICE_INLINE void shmem_##OP(void* dest, const void* src, size_t n, int pe) {                       \
    IMPL("shmem_" #OP, nullptr, dest, src, n, pe __VA_ARGS__);                                    \
  }
GIO_DEF_MEM(putmem, gio_rma_put)
GIO_DEF_MEM(putmem_nbi, gio_rma_put, , true)
GIO_DEF_MEM(getmem, gio_rma_get)
GIO_DEF_MEM(getmem_nbi, gio_rma_get)
#undef GIO_DEF_MEM

// shmem_TYPE_{put,get}[_nbi], shmem_TYPE_{p,g}, and their ctx forms (W: device/platform/forms.h)
#define GIO_DEF_TYPED_RMA(W, NAME, T)                                                             \
  GIO_##W##_INLINE void shmem_ctx_##NAME##_put(shmem_ctx_t ctx, T* dest, const T* src, size_t nelems, int pe) { \
    gio_rma_put("shmem_ctx_" #NAME "_put", ctx, dest, src, nelems * sizeof(T), pe);              \
  }                                                                                               \
  GIO_##W##_INLINE void shmem_##NAME##_put(T* dest, const T* src, size_t nelems, int pe) {              \
    gio_rma_put("shmem_" #NAME "_put", nullptr, dest, src, nelems * sizeof(T), pe);              \
  }                                                                                               \
  GIO_##W##_INLINE void shmem_ctx_##NAME##_put_nbi(shmem_ctx_t ctx, T* dest, const T* src, size_t nelems, int pe) { \
    gio_rma_put("shmem_ctx_" #NAME "_put_nbi", ctx, dest, src, nelems * sizeof(T), pe, true);          \
  }                                                                                               \
  GIO_##W##_INLINE void shmem_##NAME##_put_nbi(T* dest, const T* src, size_t nelems, int pe) {          \
    gio_rma_put("shmem_" #NAME "_put_nbi", nullptr, dest, src, nelems * sizeof(T), pe, true);          \
  }                                                                                               \
  GIO_##W##_INLINE void shmem_ctx_##NAME##_get(shmem_ctx_t ctx, T* dest, const T* src, size_t nelems, int pe) { \
    gio_rma_get("shmem_ctx_" #NAME "_get", ctx, dest, src, nelems * sizeof(T), pe);              \
  }                                                                                               \
  GIO_##W##_INLINE void shmem_##NAME##_get(T* dest, const T* src, size_t nelems, int pe) {              \
    gio_rma_get("shmem_" #NAME "_get", nullptr, dest, src, nelems * sizeof(T), pe);              \
  }                                                                                               \
  GIO_##W##_INLINE void shmem_ctx_##NAME##_get_nbi(shmem_ctx_t ctx, T* dest, const T* src, size_t nelems, int pe) { \
    gio_rma_get("shmem_ctx_" #NAME "_get_nbi", ctx, dest, src, nelems * sizeof(T), pe);          \
  }                                                                                               \
  GIO_##W##_INLINE void shmem_##NAME##_get_nbi(T* dest, const T* src, size_t nelems, int pe) {          \
    gio_rma_get("shmem_" #NAME "_get_nbi", nullptr, dest, src, nelems * sizeof(T), pe);          \
  }                                                                                               \
  GIO_##W##_INLINE void shmem_ctx_##NAME##_p(shmem_ctx_t ctx, T* dest, T value, int pe) {              \
    gio_rma_put("shmem_ctx_" #NAME "_p", ctx, dest, &value, sizeof(T), pe);                      \
  }                                                                                               \
  GIO_##W##_INLINE void shmem_##NAME##_p(T* dest, T value, int pe) {                                    \
    gio_rma_put("shmem_" #NAME "_p", nullptr, dest, &value, sizeof(T), pe);                      \
  }                                                                                               \
  GIO_##W##_INLINE T shmem_ctx_##NAME##_g(shmem_ctx_t ctx, const T* src, int pe) {                      \
    T v;                                                                                          \
    gio_rma_get("shmem_ctx_" #NAME "_g", ctx, &v, src, sizeof(T), pe);                           \
    return v;                                                                                     \
  }                                                                                               \
  GIO_##W##_INLINE T shmem_##NAME##_g(const T* src, int pe) {                                           \
    T v;                                                                                          \
    gio_rma_get("shmem_" #NAME "_g", nullptr, &v, src, sizeof(T), pe);                           \
    return v;                                                                                     \
  }
#define GIO_DEF_TYPED_RMA_HOST_DEVICE(NAME, T) GIO_DEF_TYPED_RMA(HOST_DEVICE, NAME, T)
#define GIO_DEF_TYPED_RMA_HOST(NAME, T) GIO_DEF_TYPED_RMA(HOST, NAME, T)
GIO_RMA_TYPES(GIO_DEF_TYPED_RMA_HOST_DEVICE)
GIO_RMA_HOST_TYPES(GIO_DEF_TYPED_RMA_HOST)
#undef GIO_DEF_TYPED_RMA_HOST_DEVICE
#undef GIO_DEF_TYPED_RMA_HOST
#undef GIO_DEF_TYPED_RMA

// shmem_put{8,...,128}[_nbi], shmem_get..., ctx forms
#define GIO_DEF_SIZED_RMA(BITS, BYTES)                                                            \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_put##BITS(shmem_ctx_t ctx, void* d, const void* s, size_t n, int pe) {  \
    gio_rma_put("shmem_ctx_put" #BITS, ctx, d, s, n * BYTES, pe);                                \
  }                                                                                               \
  GIO_HOST_DEVICE_INLINE void shmem_put##BITS(void* d, const void* s, size_t n, int pe) {                       \
    gio_rma_put("shmem_put" #BITS, nullptr, d, s, n * BYTES, pe);                                \
  }                                                                                               \
  GIO_HOST_DEVICE_INLINE void shmem_put##BITS##_nbi(void* d, const void* s, size_t n, int pe) {                 \
    gio_rma_put("shmem_put" #BITS "_nbi", nullptr, d, s, n * BYTES, pe, true);                         \
  }                                                                                               \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_get##BITS(shmem_ctx_t ctx, void* d, const void* s, size_t n, int pe) {  \
    gio_rma_get("shmem_ctx_get" #BITS, ctx, d, s, n * BYTES, pe);                                \
  }                                                                                               \
  GIO_HOST_DEVICE_INLINE void shmem_get##BITS(void* d, const void* s, size_t n, int pe) {                       \
    gio_rma_get("shmem_get" #BITS, nullptr, d, s, n * BYTES, pe);                                \
  }                                                                                               \
  GIO_HOST_DEVICE_INLINE void shmem_get##BITS##_nbi(void* d, const void* s, size_t n, int pe) {                 \
    gio_rma_get("shmem_get" #BITS "_nbi", nullptr, d, s, n * BYTES, pe);                         \
  }
GIO_RMA_SIZES(GIO_DEF_SIZED_RMA)
#undef GIO_DEF_SIZED_RMA
