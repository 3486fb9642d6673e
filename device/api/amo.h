// Atomic memory operations (OpenSHMEM 1.5 names), thread scope, host and device.
#pragma once
#include "device/dispatch/dispatch.h"
#include "runtime/api/types.h"

template <typename T>
GIO_HOST_DEVICE_INLINE T gio_amo(const char* rt, shmem_ctx_t ctx, int op, T* dest, T value, T compare, int pe) {
  T r = T();
  uint64_t v = 0, c = 0;
  (void)v;
  (void)c;
  GIO_DISPATCH_HOST_DEVICE(r = ::gio::dev::amo<T>(rt, ctx, op, dest, value, compare, pe),
               (memcpy(&v, &value, sizeof(T)), memcpy(&c, &compare, sizeof(T)),
                v = gio_host_amo(rt, ctx, op, dest, v, c, sizeof(T), pe), memcpy(&r, &v, sizeof(T))));
  return r;
}

// fetch, set, swap: extended types
// The routine names these macros generate are listed in docs/api-index.md (tests/api/api_index.py).
#define GIO_DEF_AMO_EXT(NAME, T)                                                                   \
  GIO_HOST_DEVICE_INLINE T shmem_ctx_##NAME##_atomic_fetch(shmem_ctx_t ctx, const T* src, int pe) {             \
    return gio_amo<T>("shmem_ctx_" #NAME "_atomic_fetch", ctx, GIO_AMO_FETCH, (T*)src, (T)0, (T)0, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE T shmem_##NAME##_atomic_fetch(const T* src, int pe) {                                  \
    return gio_amo<T>("shmem_" #NAME "_atomic_fetch", nullptr, GIO_AMO_FETCH, (T*)src, (T)0, (T)0, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_##NAME##_atomic_set(shmem_ctx_t ctx, T* dest, T value, int pe) {        \
    gio_amo<T>("shmem_ctx_" #NAME "_atomic_set", ctx, GIO_AMO_SET, dest, value, (T)0, pe);         \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_##NAME##_atomic_set(T* dest, T value, int pe) {                             \
    gio_amo<T>("shmem_" #NAME "_atomic_set", nullptr, GIO_AMO_SET, dest, value, (T)0, pe);         \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE T shmem_ctx_##NAME##_atomic_swap(shmem_ctx_t ctx, T* dest, T value, int pe) {          \
    return gio_amo<T>("shmem_ctx_" #NAME "_atomic_swap", ctx, GIO_AMO_SWAP, dest, value, (T)0, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE T shmem_##NAME##_atomic_swap(T* dest, T value, int pe) {                               \
    return gio_amo<T>("shmem_" #NAME "_atomic_swap", nullptr, GIO_AMO_SWAP, dest, value, (T)0, pe); \
  }
GIO_AMO_EXT_TYPES(GIO_DEF_AMO_EXT)
#undef GIO_DEF_AMO_EXT

// compare_swap, fetch_inc, inc, fetch_add, add: standard types
#define GIO_DEF_AMO_STD(NAME, T)                                                                   \
  GIO_HOST_DEVICE_INLINE T shmem_ctx_##NAME##_atomic_compare_swap(shmem_ctx_t ctx, T* dest, T cond, T value, int pe) { \
    return gio_amo<T>("shmem_ctx_" #NAME "_atomic_compare_swap", ctx, GIO_AMO_CSWAP, dest, value, cond, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE T shmem_##NAME##_atomic_compare_swap(T* dest, T cond, T value, int pe) {               \
    return gio_amo<T>("shmem_" #NAME "_atomic_compare_swap", nullptr, GIO_AMO_CSWAP, dest, value, cond, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE T shmem_ctx_##NAME##_atomic_fetch_add(shmem_ctx_t ctx, T* dest, T value, int pe) {     \
    return gio_amo<T>("shmem_ctx_" #NAME "_atomic_fetch_add", ctx, GIO_AMO_FETCH_ADD, dest, value, (T)0, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE T shmem_##NAME##_atomic_fetch_add(T* dest, T value, int pe) {                          \
    return gio_amo<T>("shmem_" #NAME "_atomic_fetch_add", nullptr, GIO_AMO_FETCH_ADD, dest, value, (T)0, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_##NAME##_atomic_add(shmem_ctx_t ctx, T* dest, T value, int pe) {        \
    gio_amo<T>("shmem_ctx_" #NAME "_atomic_add", ctx, GIO_AMO_FETCH_ADD, dest, value, (T)0, pe);   \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_##NAME##_atomic_add(T* dest, T value, int pe) {                             \
    gio_amo<T>("shmem_" #NAME "_atomic_add", nullptr, GIO_AMO_FETCH_ADD, dest, value, (T)0, pe);   \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE T shmem_ctx_##NAME##_atomic_fetch_inc(shmem_ctx_t ctx, T* dest, int pe) {              \
    return gio_amo<T>("shmem_ctx_" #NAME "_atomic_fetch_inc", ctx, GIO_AMO_FETCH_ADD, dest, (T)1, (T)0, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE T shmem_##NAME##_atomic_fetch_inc(T* dest, int pe) {                                   \
    return gio_amo<T>("shmem_" #NAME "_atomic_fetch_inc", nullptr, GIO_AMO_FETCH_ADD, dest, (T)1, (T)0, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_##NAME##_atomic_inc(shmem_ctx_t ctx, T* dest, int pe) {                 \
    gio_amo<T>("shmem_ctx_" #NAME "_atomic_inc", ctx, GIO_AMO_FETCH_ADD, dest, (T)1, (T)0, pe);    \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_##NAME##_atomic_inc(T* dest, int pe) {                                      \
    gio_amo<T>("shmem_" #NAME "_atomic_inc", nullptr, GIO_AMO_FETCH_ADD, dest, (T)1, (T)0, pe);    \
  }
GIO_AMO_STD_TYPES(GIO_DEF_AMO_STD)
#undef GIO_DEF_AMO_STD

// and, or, xor (+ fetch forms): bitwise types
#define GIO_DEF_AMO_BIT1(NAME, T, OPNAME, OP)                                                      \
  GIO_HOST_DEVICE_INLINE T shmem_ctx_##NAME##_atomic_fetch_##OPNAME(shmem_ctx_t ctx, T* dest, T value, int pe) { \
    return gio_amo<T>("shmem_ctx_" #NAME "_atomic_fetch_" #OPNAME, ctx, OP, dest, value, (T)0, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE T shmem_##NAME##_atomic_fetch_##OPNAME(T* dest, T value, int pe) {                     \
    return gio_amo<T>("shmem_" #NAME "_atomic_fetch_" #OPNAME, nullptr, OP, dest, value, (T)0, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_##NAME##_atomic_##OPNAME(shmem_ctx_t ctx, T* dest, T value, int pe) {   \
    gio_amo<T>("shmem_ctx_" #NAME "_atomic_" #OPNAME, ctx, OP, dest, value, (T)0, pe);             \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_##NAME##_atomic_##OPNAME(T* dest, T value, int pe) {                        \
    gio_amo<T>("shmem_" #NAME "_atomic_" #OPNAME, nullptr, OP, dest, value, (T)0, pe);             \
  }
#define GIO_DEF_AMO_BIT(NAME, T)                       \
  GIO_DEF_AMO_BIT1(NAME, T, and, GIO_AMO_FETCH_AND)    \
  GIO_DEF_AMO_BIT1(NAME, T, or, GIO_AMO_FETCH_OR)      \
  GIO_DEF_AMO_BIT1(NAME, T, xor, GIO_AMO_FETCH_XOR)
GIO_AMO_BIT_TYPES(GIO_DEF_AMO_BIT)
#undef GIO_DEF_AMO_BIT
#undef GIO_DEF_AMO_BIT1
