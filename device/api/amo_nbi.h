// Non-blocking fetching atomics (OpenSHMEM 1.5 section 9.8): shmem_[ctx_]TYPE_atomic_<op>_nbi,
// host and device. The old value is stored to `fetch`, which may be any local memory (heap, global,
// __shared__, a thread's stack); the spec makes it valid after the next quiet.
//
// GIO completes each of them before it returns, which the spec allows, on every transport:
// - p2p: the atomic is one instruction on the mapped word; there is nothing to defer.
// - gda: the NIC lands the old value in the queue slot's scratch word, which the ring reuses as it
//   wraps, so a deferred copy to `fetch` would need a per-queue table of (slot, fetch) pairs that
//   every quiet, host and device, drains, and a `fetch` on a thread's stack or in __shared__ that
//   the host's quiet cannot reach. On 8 bytes only fetch, fetch_add and compare_swap are single
//   WQEs at all: swap, and/or/xor are compare-swap loops that need each old value before the next
//   try (4-byte ones are one masked atomic each).
// - proxy: the old value comes back in the proxy's reply; deferring it has the same costs.
// So `fetch` is valid on return already, and a later quiet has nothing left to complete for it.
#pragma once
#include "device/api/amo.h"

template <typename T>
GIO_HOST_DEVICE_INLINE void gio_amo_nbi(const char* rt, shmem_ctx_t ctx, int op, T* fetch, T* dest, T value, T compare, int pe) {
  uint64_t v = 0, c = 0;
  (void)v;
  (void)c;
  GIO_DISPATCH_HOST_DEVICE(*fetch = ::gio::dev::amo<T>(rt, ctx, op, dest, value, compare, pe),
               (memcpy(&v, &value, sizeof(T)), memcpy(&c, &compare, sizeof(T)),
                gio_host_amo_nbi(rt, ctx, op, fetch, dest, v, c, sizeof(T), pe)));
}

// fetch, swap: extended types
// The routine names these macros generate are listed in docs/api-index.md (tests/api/api_index.py).
#define GIO_DEF_AMO_NBI_EXT(NAME, T)                                                               \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_##NAME##_atomic_fetch_nbi(shmem_ctx_t ctx, T* fetch, const T* src, int pe) { \
    gio_amo_nbi<T>("shmem_ctx_" #NAME "_atomic_fetch_nbi", ctx, GIO_AMO_FETCH, fetch, (T*)src, (T)0, (T)0, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_##NAME##_atomic_fetch_nbi(T* fetch, const T* src, int pe) {                 \
    gio_amo_nbi<T>("shmem_" #NAME "_atomic_fetch_nbi", nullptr, GIO_AMO_FETCH, fetch, (T*)src, (T)0, (T)0, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_##NAME##_atomic_swap_nbi(shmem_ctx_t ctx, T* fetch, T* dest, T value, int pe) { \
    gio_amo_nbi<T>("shmem_ctx_" #NAME "_atomic_swap_nbi", ctx, GIO_AMO_SWAP, fetch, dest, value, (T)0, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_##NAME##_atomic_swap_nbi(T* fetch, T* dest, T value, int pe) {              \
    gio_amo_nbi<T>("shmem_" #NAME "_atomic_swap_nbi", nullptr, GIO_AMO_SWAP, fetch, dest, value, (T)0, pe); \
  }
GIO_AMO_EXT_TYPES(GIO_DEF_AMO_NBI_EXT)
#undef GIO_DEF_AMO_NBI_EXT

// compare_swap, fetch_inc, fetch_add: standard types
#define GIO_DEF_AMO_NBI_STD(NAME, T)                                                               \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_##NAME##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T* fetch, T* dest, T cond, T value, \
                                                           int pe) {                               \
    gio_amo_nbi<T>("shmem_ctx_" #NAME "_atomic_compare_swap_nbi", ctx, GIO_AMO_CSWAP, fetch, dest, value, cond, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_##NAME##_atomic_compare_swap_nbi(T* fetch, T* dest, T cond, T value, int pe) { \
    gio_amo_nbi<T>("shmem_" #NAME "_atomic_compare_swap_nbi", nullptr, GIO_AMO_CSWAP, fetch, dest, value, cond, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_##NAME##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T* fetch, T* dest, T value, int pe) { \
    gio_amo_nbi<T>("shmem_ctx_" #NAME "_atomic_fetch_add_nbi", ctx, GIO_AMO_FETCH_ADD, fetch, dest, value, (T)0, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_##NAME##_atomic_fetch_add_nbi(T* fetch, T* dest, T value, int pe) {         \
    gio_amo_nbi<T>("shmem_" #NAME "_atomic_fetch_add_nbi", nullptr, GIO_AMO_FETCH_ADD, fetch, dest, value, (T)0, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_##NAME##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T* fetch, T* dest, int pe) { \
    gio_amo_nbi<T>("shmem_ctx_" #NAME "_atomic_fetch_inc_nbi", ctx, GIO_AMO_FETCH_ADD, fetch, dest, (T)1, (T)0, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_##NAME##_atomic_fetch_inc_nbi(T* fetch, T* dest, int pe) {                  \
    gio_amo_nbi<T>("shmem_" #NAME "_atomic_fetch_inc_nbi", nullptr, GIO_AMO_FETCH_ADD, fetch, dest, (T)1, (T)0, pe); \
  }
GIO_AMO_STD_TYPES(GIO_DEF_AMO_NBI_STD)
#undef GIO_DEF_AMO_NBI_STD

// fetch_and, fetch_or, fetch_xor: bitwise types
#define GIO_DEF_AMO_NBI_BIT1(NAME, T, OPNAME, OP)                                                  \
  GIO_HOST_DEVICE_INLINE void shmem_ctx_##NAME##_atomic_fetch_##OPNAME##_nbi(shmem_ctx_t ctx, T* fetch, T* dest, T value, int pe) { \
    gio_amo_nbi<T>("shmem_ctx_" #NAME "_atomic_fetch_" #OPNAME "_nbi", ctx, OP, fetch, dest, value, (T)0, pe); \
  }                                                                                                \
  GIO_HOST_DEVICE_INLINE void shmem_##NAME##_atomic_fetch_##OPNAME##_nbi(T* fetch, T* dest, T value, int pe) {  \
    gio_amo_nbi<T>("shmem_" #NAME "_atomic_fetch_" #OPNAME "_nbi", nullptr, OP, fetch, dest, value, (T)0, pe); \
  }
#define GIO_DEF_AMO_NBI_BIT(NAME, T)                       \
  GIO_DEF_AMO_NBI_BIT1(NAME, T, and, GIO_AMO_FETCH_AND)    \
  GIO_DEF_AMO_NBI_BIT1(NAME, T, or, GIO_AMO_FETCH_OR)      \
  GIO_DEF_AMO_NBI_BIT1(NAME, T, xor, GIO_AMO_FETCH_XOR)
GIO_AMO_BIT_TYPES(GIO_DEF_AMO_NBI_BIT)
#undef GIO_DEF_AMO_NBI_BIT
#undef GIO_DEF_AMO_NBI_BIT1
