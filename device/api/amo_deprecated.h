// The OpenSHMEM 1.3 atomic names (deprecated since 1.4, still called by older programs), host and
// kernels: shmem_TYPE_fadd, finc, cswap, add, inc on int, long, long long; swap, fetch, set also on
// float and double. Each is its 1.5 routine under the old name (messages name the old one).
#pragma once
#include "device/api/amo.h"

// The routine names these macros generate are listed in docs/api-index.md (tests/api/api_index.py).
#define GIO_DEF_AMO13_STD(NAME, T)                                                                   \
  GIO_HOST_DEVICE_INLINE T shmem_##NAME##_fadd(T* dest, T value, int pe) {                                        \
    return gio_amo<T>("shmem_" #NAME "_fadd", nullptr, GIO_AMO_FETCH_ADD, dest, value, (T)0, pe);   \
  }                                                                                                  \
  GIO_HOST_DEVICE_INLINE T shmem_##NAME##_finc(T* dest, int pe) {                                                 \
    return gio_amo<T>("shmem_" #NAME "_finc", nullptr, GIO_AMO_FETCH_ADD, dest, (T)1, (T)0, pe);    \
  }                                                                                                  \
  GIO_HOST_DEVICE_INLINE T shmem_##NAME##_cswap(T* dest, T cond, T value, int pe) {                               \
    return gio_amo<T>("shmem_" #NAME "_cswap", nullptr, GIO_AMO_CSWAP, dest, value, cond, pe);      \
  }                                                                                                  \
  GIO_HOST_DEVICE_INLINE void shmem_##NAME##_add(T* dest, T value, int pe) {                                      \
    gio_amo<T>("shmem_" #NAME "_add", nullptr, GIO_AMO_FETCH_ADD, dest, value, (T)0, pe);           \
  }                                                                                                  \
  GIO_HOST_DEVICE_INLINE void shmem_##NAME##_inc(T* dest, int pe) {                                               \
    gio_amo<T>("shmem_" #NAME "_inc", nullptr, GIO_AMO_FETCH_ADD, dest, (T)1, (T)0, pe);            \
  }
#define GIO_DEF_AMO13_EXT(NAME, T)                                                                   \
  GIO_HOST_DEVICE_INLINE T shmem_##NAME##_swap(T* dest, T value, int pe) {                                        \
    return gio_amo<T>("shmem_" #NAME "_swap", nullptr, GIO_AMO_SWAP, dest, value, (T)0, pe);        \
  }                                                                                                  \
  GIO_HOST_DEVICE_INLINE T shmem_##NAME##_fetch(const T* source, int pe) {                                        \
    return gio_amo<T>("shmem_" #NAME "_fetch", nullptr, GIO_AMO_FETCH, (T*)source, (T)0, (T)0, pe); \
  }                                                                                                  \
  GIO_HOST_DEVICE_INLINE void shmem_##NAME##_set(T* dest, T value, int pe) {                                      \
    gio_amo<T>("shmem_" #NAME "_set", nullptr, GIO_AMO_SET, dest, value, (T)0, pe);                 \
  }
GIO_AMO13_STD_TYPES(GIO_DEF_AMO13_STD)
GIO_AMO13_EXT_TYPES(GIO_DEF_AMO13_EXT)
#undef GIO_DEF_AMO13_STD
#undef GIO_DEF_AMO13_EXT
