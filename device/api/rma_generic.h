// The C11 type-generic names of OpenSHMEM 1.5 for RMA, atomics, signals and waits (shmem_put,
// shmem_p, shmem_atomic_fetch_add, shmem_wait_until, ...) as C++ templates, in host code and in
// kernels at thread scope. Each checks that T is in the routine's type table (a type outside it
// does not compile) and calls the same implementation as the typed routine, under the generic
// name. The ctx forms take the context first, as in C. The collectives are in coll_generic.h.
#pragma once
#include <type_traits>

#include "device/api/amo.h"
#include "device/api/rma.h"
#include "device/api/signal.h"
#include "device/api/wait.h"

// Value parameters do not take part in deduction (shmem_p(long_ptr, 5, pe) is T = long).
template <typename T>
struct gio_nodeduce {
  typedef T type;
};
// The routine names these macros generate are listed in docs/api-index.md (tests/api/api_index.py).
#define GIO_V typename gio_nodeduce<T>::type
#define GIO_IS_T(NAME, TT) std::is_same<T, TT>::value ||
// Type-table membership as traits (a constexpr function would be host-only to nvcc).
#define GIO_DEF_IS(TRAIT, TABLE) \
  template <typename T>          \
  struct TRAIT : std::integral_constant<bool, TABLE(GIO_IS_T) false> {};
GIO_DEF_IS(gio_is_rma_type, GIO_RMA_TYPES)
GIO_DEF_IS(gio_is_amo_std_type, GIO_AMO_STD_TYPES)
GIO_DEF_IS(gio_is_amo_ext_type, GIO_AMO_EXT_TYPES)
GIO_DEF_IS(gio_is_amo_bit_type, GIO_AMO_BIT_TYPES)
GIO_DEF_IS(gio_is_wait_type, GIO_WAIT_TYPES)
#undef GIO_DEF_IS
#undef GIO_IS_T
#define GIO_REQUIRE(TABLE, RT) static_assert(gio_is_##TABLE##_type<T>::value, RT ": not a type of this routine")

// The routines over the RMA types, for one element type T: W = HOST_DEVICE gives templates in T (host code
// and kernels, T checked against the table), W = HOST plain overloads for one host-only type
// (device/platform/forms.h), which overload resolution prefers to the template's failing
// instantiation.
#define GIO_GEN_FN_HOST_DEVICE template <typename T> GIO_HOST_DEVICE_INLINE
#define GIO_GEN_FN_HOST GIO_HOST_INLINE
#define GIO_REQUIRE_RMA_HOST_DEVICE(RT) GIO_REQUIRE(rma, RT)
#define GIO_REQUIRE_RMA_HOST(RT)
// A value parameter of type T that takes no part in deduction (GIO_V, with T spelled out).
#define GIO_VT(T) typename gio_nodeduce<T>::type
#define GIO_GEN_RMA(W, T, NAME, IMPL, ...)                                                             \
  GIO_GEN_FN_##W void shmem_##NAME(shmem_ctx_t ctx, T* dest, const T* source, size_t nelems, int pe) { \
    GIO_REQUIRE_RMA_##W("shmem_" #NAME);                                                              \
    IMPL("shmem_" #NAME, ctx, dest, source, nelems * sizeof(T), pe __VA_ARGS__);                      \
  }                                                                                                   \
  GIO_GEN_FN_##W void shmem_##NAME(T* dest, const T* source, size_t nelems, int pe) {                 \
    GIO_REQUIRE_RMA_##W("shmem_" #NAME);                                                              \
    IMPL("shmem_" #NAME, nullptr, dest, source, nelems * sizeof(T), pe __VA_ARGS__);                  \
  }
#define GIO_GEN_PG(W, T)                                                                              \
  GIO_GEN_FN_##W void shmem_p(shmem_ctx_t ctx, T* dest, GIO_VT(T) value, int pe) {                    \
    GIO_REQUIRE_RMA_##W("shmem_p");                                                                   \
    gio_rma_put("shmem_p", ctx, dest, &value, sizeof(T), pe);                                         \
  }                                                                                                   \
  GIO_GEN_FN_##W void shmem_p(T* dest, GIO_VT(T) value, int pe) {                                     \
    GIO_REQUIRE_RMA_##W("shmem_p");                                                                   \
    gio_rma_put("shmem_p", nullptr, dest, &value, sizeof(T), pe);                                     \
  }                                                                                                   \
  GIO_GEN_FN_##W T shmem_g(shmem_ctx_t ctx, const T* source, int pe) {                                \
    GIO_REQUIRE_RMA_##W("shmem_g");                                                                   \
    T v;                                                                                              \
    gio_rma_get("shmem_g", ctx, &v, source, sizeof(T), pe);                                           \
    return v;                                                                                         \
  }                                                                                                   \
  GIO_GEN_FN_##W T shmem_g(const T* source, int pe) {                                                 \
    GIO_REQUIRE_RMA_##W("shmem_g");                                                                   \
    T v;                                                                                              \
    gio_rma_get("shmem_g", nullptr, &v, source, sizeof(T), pe);                                       \
    return v;                                                                                         \
  }
#define GIO_GEN_PUT_SIGNAL(W, T, NAME, NBI)                                                           \
  GIO_GEN_FN_##W void shmem_##NAME(shmem_ctx_t ctx, T* dest, const T* source, size_t nelems,          \
                                   uint64_t* sig_addr, uint64_t signal, int sig_op, int pe) {         \
    GIO_REQUIRE_RMA_##W("shmem_" #NAME);                                                              \
    gio_putmem_signal("shmem_" #NAME, ctx, dest, source, nelems * sizeof(T), sig_addr, signal, sig_op, pe, NBI); \
  }                                                                                                   \
  GIO_GEN_FN_##W void shmem_##NAME(T* dest, const T* source, size_t nelems, uint64_t* sig_addr,       \
                                   uint64_t signal, int sig_op, int pe) {                             \
    GIO_REQUIRE_RMA_##W("shmem_" #NAME);                                                              \
    gio_putmem_signal("shmem_" #NAME, nullptr, dest, source, nelems * sizeof(T), sig_addr, signal, sig_op, pe, \
                      NBI);                                                                           \
  }
// Strided: iput/iget (nelems single elements) and the 1.6 ibput/ibget (nblocks blocks of bsize).
#define GIO_GEN_STRIDED(W, T, NAME, PUT, BLOCK_PARAMS, BSIZE, N)                                       \
  GIO_GEN_FN_##W void shmem_##NAME(shmem_ctx_t ctx, T* dest, const GIO_VT(T)* source, ptrdiff_t dst,  \
                                   ptrdiff_t sst, BLOCK_PARAMS, int pe) {                             \
    GIO_REQUIRE_RMA_##W("shmem_" #NAME);                                                              \
    gio_rma_blocks("shmem_" #NAME, ctx, PUT, dest, source, dst, sst, BSIZE, N, sizeof(T), pe);        \
  }                                                                                                   \
  GIO_GEN_FN_##W void shmem_##NAME(T* dest, const GIO_VT(T)* source, ptrdiff_t dst, ptrdiff_t sst,    \
                                   BLOCK_PARAMS, int pe) {                                            \
    GIO_REQUIRE_RMA_##W("shmem_" #NAME);                                                              \
    gio_rma_blocks("shmem_" #NAME, nullptr, PUT, dest, source, dst, sst, BSIZE, N, sizeof(T), pe);    \
  }
#define GIO_ONE size_t nelems
#define GIO_BLOCKS size_t bsize, size_t nblocks
#define GIO_GEN_RMA_ALL(W, T)                                                                         \
  GIO_GEN_RMA(W, T, put, gio_rma_put)                                                                 \
  GIO_GEN_RMA(W, T, put_nbi, gio_rma_put, , true)                                                     \
  GIO_GEN_RMA(W, T, get, gio_rma_get)                                                                 \
  GIO_GEN_RMA(W, T, get_nbi, gio_rma_get)                                                             \
  GIO_GEN_PG(W, T)                                                                                    \
  GIO_GEN_PUT_SIGNAL(W, T, put_signal, false)                                                         \
  GIO_GEN_PUT_SIGNAL(W, T, put_signal_nbi, true)                                                      \
  GIO_GEN_STRIDED(W, T, iput, true, GIO_ONE, 1, nelems)                                               \
  GIO_GEN_STRIDED(W, T, iget, false, GIO_ONE, 1, nelems)                                              \
  GIO_GEN_STRIDED(W, T, ibput, true, GIO_BLOCKS, bsize, nblocks)                                      \
  GIO_GEN_STRIDED(W, T, ibget, false, GIO_BLOCKS, bsize, nblocks)
#define GIO_GEN_RMA_HOST(NAME, TT) GIO_GEN_RMA_ALL(HOST, TT)
GIO_GEN_RMA_ALL(HOST_DEVICE, T)
GIO_RMA_HOST_TYPES(GIO_GEN_RMA_HOST)
#undef GIO_GEN_RMA_HOST
#undef GIO_GEN_RMA_ALL
#undef GIO_GEN_RMA
#undef GIO_GEN_PG
#undef GIO_GEN_PUT_SIGNAL
#undef GIO_GEN_STRIDED
#undef GIO_ONE
#undef GIO_BLOCKS
#undef GIO_GEN_FN_HOST_DEVICE
#undef GIO_GEN_FN_HOST
#undef GIO_REQUIRE_RMA_HOST_DEVICE
#undef GIO_REQUIRE_RMA_HOST
#undef GIO_VT

// Atomics: (dest, [args,] pe) and (ctx, dest, [args,] pe). PARAMS and ARGS: the arguments between
// dest and pe; OP, VALUE, COMPARE: what gio_amo gets.
#define GIO_GEN_AMO(RET, NAME, TABLE, PARAMS, OP, VALUE, COMPARE)                                     \
  template <typename T>                                                                               \
  GIO_HOST_DEVICE_INLINE RET shmem_atomic_##NAME(shmem_ctx_t ctx, T* dest PARAMS, int pe) {                        \
    GIO_REQUIRE(TABLE, "shmem_atomic_" #NAME);                                                        \
    return (RET)gio_amo<T>("shmem_atomic_" #NAME, ctx, OP, dest, VALUE, COMPARE, pe);                 \
  }                                                                                                   \
  template <typename T>                                                                               \
  GIO_HOST_DEVICE_INLINE RET shmem_atomic_##NAME(T* dest PARAMS, int pe) {                                          \
    GIO_REQUIRE(TABLE, "shmem_atomic_" #NAME);                                                        \
    return (RET)gio_amo<T>("shmem_atomic_" #NAME, nullptr, OP, dest, VALUE, COMPARE, pe);             \
  }
#define GIO_P1 , GIO_V value
#define GIO_P2 , GIO_V cond, GIO_V value
GIO_GEN_AMO(void, set, amo_ext, GIO_P1, GIO_AMO_SET, value, (T)0)
GIO_GEN_AMO(T, swap, amo_ext, GIO_P1, GIO_AMO_SWAP, value, (T)0)
GIO_GEN_AMO(T, compare_swap, amo_std, GIO_P2, GIO_AMO_CSWAP, value, cond)
GIO_GEN_AMO(T, fetch_inc, amo_std, , GIO_AMO_FETCH_ADD, (T)1, (T)0)
GIO_GEN_AMO(void, inc, amo_std, , GIO_AMO_FETCH_ADD, (T)1, (T)0)
GIO_GEN_AMO(T, fetch_add, amo_std, GIO_P1, GIO_AMO_FETCH_ADD, value, (T)0)
GIO_GEN_AMO(void, add, amo_std, GIO_P1, GIO_AMO_FETCH_ADD, value, (T)0)
GIO_GEN_AMO(T, fetch_and, amo_bit, GIO_P1, GIO_AMO_FETCH_AND, value, (T)0)
GIO_GEN_AMO(void, and, amo_bit, GIO_P1, GIO_AMO_FETCH_AND, value, (T)0)
GIO_GEN_AMO(T, fetch_or, amo_bit, GIO_P1, GIO_AMO_FETCH_OR, value, (T)0)
GIO_GEN_AMO(void, or, amo_bit, GIO_P1, GIO_AMO_FETCH_OR, value, (T)0)
GIO_GEN_AMO(T, fetch_xor, amo_bit, GIO_P1, GIO_AMO_FETCH_XOR, value, (T)0)
GIO_GEN_AMO(void, xor, amo_bit, GIO_P1, GIO_AMO_FETCH_XOR, value, (T)0)
#undef GIO_GEN_AMO
#undef GIO_P1
#undef GIO_P2
template <typename T>
GIO_HOST_DEVICE_INLINE T shmem_atomic_fetch(shmem_ctx_t ctx, const T* source, int pe) {
  GIO_REQUIRE(amo_ext, "shmem_atomic_fetch");
  return gio_amo<T>("shmem_atomic_fetch", ctx, GIO_AMO_FETCH, (T*)source, (T)0, (T)0, pe);
}
template <typename T>
GIO_HOST_DEVICE_INLINE T shmem_atomic_fetch(const T* source, int pe) {
  GIO_REQUIRE(amo_ext, "shmem_atomic_fetch");
  return gio_amo<T>("shmem_atomic_fetch", nullptr, GIO_AMO_FETCH, (T*)source, (T)0, (T)0, pe);
}
// The 1.3 generic names, deprecated since 1.4 and still required by the spec (no ctx forms).
template <typename T> GIO_HOST_DEVICE_INLINE T shmem_fetch(const T* source, int pe) { return shmem_atomic_fetch(source, pe); }
template <typename T> GIO_HOST_DEVICE_INLINE void shmem_set(T* dest, GIO_V value, int pe) { shmem_atomic_set(dest, value, pe); }
template <typename T> GIO_HOST_DEVICE_INLINE T shmem_swap(T* dest, GIO_V value, int pe) { return shmem_atomic_swap(dest, value, pe); }
template <typename T>
GIO_HOST_DEVICE_INLINE T shmem_cswap(T* dest, GIO_V cond, GIO_V value, int pe) {
  return shmem_atomic_compare_swap(dest, cond, value, pe);
}
template <typename T> GIO_HOST_DEVICE_INLINE T shmem_finc(T* dest, int pe) { return shmem_atomic_fetch_inc(dest, pe); }
template <typename T> GIO_HOST_DEVICE_INLINE void shmem_inc(T* dest, int pe) { shmem_atomic_inc(dest, pe); }
template <typename T> GIO_HOST_DEVICE_INLINE T shmem_fadd(T* dest, GIO_V value, int pe) { return shmem_atomic_fetch_add(dest, value, pe); }
template <typename T> GIO_HOST_DEVICE_INLINE void shmem_add(T* dest, GIO_V value, int pe) { shmem_atomic_add(dest, value, pe); }

// Non-blocking fetching atomics: (fetch, dest, [args,] pe) and (ctx, fetch, dest, [args,] pe).
#define GIO_GEN_AMO_NBI(NAME, TABLE, PARAMS, OP, VALUE, COMPARE)                                      \
  template <typename T>                                                                               \
  GIO_HOST_DEVICE_INLINE void shmem_atomic_##NAME##_nbi(shmem_ctx_t ctx, T* fetch, T* dest PARAMS, int pe) {       \
    GIO_REQUIRE(TABLE, "shmem_atomic_" #NAME "_nbi");                                                 \
    gio_amo_nbi<T>("shmem_atomic_" #NAME "_nbi", ctx, OP, fetch, dest, VALUE, COMPARE, pe);           \
  }                                                                                                   \
  template <typename T>                                                                               \
  GIO_HOST_DEVICE_INLINE void shmem_atomic_##NAME##_nbi(T* fetch, T* dest PARAMS, int pe) {                         \
    GIO_REQUIRE(TABLE, "shmem_atomic_" #NAME "_nbi");                                                 \
    gio_amo_nbi<T>("shmem_atomic_" #NAME "_nbi", nullptr, OP, fetch, dest, VALUE, COMPARE, pe);       \
  }
#define GIO_P1 , GIO_V value
#define GIO_P2 , GIO_V cond, GIO_V value
GIO_GEN_AMO_NBI(swap, amo_ext, GIO_P1, GIO_AMO_SWAP, value, (T)0)
GIO_GEN_AMO_NBI(compare_swap, amo_std, GIO_P2, GIO_AMO_CSWAP, value, cond)
GIO_GEN_AMO_NBI(fetch_inc, amo_std, , GIO_AMO_FETCH_ADD, (T)1, (T)0)
GIO_GEN_AMO_NBI(fetch_add, amo_std, GIO_P1, GIO_AMO_FETCH_ADD, value, (T)0)
GIO_GEN_AMO_NBI(fetch_and, amo_bit, GIO_P1, GIO_AMO_FETCH_AND, value, (T)0)
GIO_GEN_AMO_NBI(fetch_or, amo_bit, GIO_P1, GIO_AMO_FETCH_OR, value, (T)0)
GIO_GEN_AMO_NBI(fetch_xor, amo_bit, GIO_P1, GIO_AMO_FETCH_XOR, value, (T)0)
#undef GIO_GEN_AMO_NBI
#undef GIO_P1
#undef GIO_P2
template <typename T>
GIO_HOST_DEVICE_INLINE void shmem_atomic_fetch_nbi(shmem_ctx_t ctx, T* fetch, const T* source, int pe) {
  GIO_REQUIRE(amo_ext, "shmem_atomic_fetch_nbi");
  gio_amo_nbi<T>("shmem_atomic_fetch_nbi", ctx, GIO_AMO_FETCH, fetch, (T*)source, (T)0, (T)0, pe);
}
template <typename T>
GIO_HOST_DEVICE_INLINE void shmem_atomic_fetch_nbi(T* fetch, const T* source, int pe) {
  GIO_REQUIRE(amo_ext, "shmem_atomic_fetch_nbi");
  gio_amo_nbi<T>("shmem_atomic_fetch_nbi", nullptr, GIO_AMO_FETCH, fetch, (T*)source, (T)0, (T)0, pe);
}

// Waits and tests (the forms of GIO_WAIT_FORMS under their generic names).
#define GIO_GEN_WAIT(RET, FORM, PARAMS, KIND, N, IDX, ST, VALS, VEC)                                   \
  template <typename T>                                                                               \
  GIO_HOST_DEVICE_INLINE RET shmem_##FORM PARAMS {                                                                  \
    GIO_REQUIRE(wait, "shmem_" #FORM);                                                                \
    return (RET)gio_wait<T>("shmem_" #FORM, KIND, ivars, N, IDX, ST, cmp, VALS, VEC);                 \
  }
#define GIO_GEN_WAIT_SCALAR(RET, FORM, PARAMS, KIND, N, IDX, ST)                                      \
  GIO_GEN_WAIT(RET, FORM, PARAMS, KIND, N, IDX, ST, &cmp_value, false)
#define GIO_GEN_WAIT_VECTOR(RET, FORM, PARAMS, KIND, N, IDX, ST)                                      \
  GIO_GEN_WAIT(RET, FORM, PARAMS, KIND, N, IDX, ST, cmp_values, true)
GIO_GEN_WAIT_SCALAR(void, wait_until, (T* ivars, int cmp, GIO_V cmp_value), GIO_WAIT_UNTIL, 1, nullptr, nullptr)
GIO_GEN_WAIT_SCALAR(int, test, (T* ivars, int cmp, GIO_V cmp_value), GIO_TEST, 1, nullptr, nullptr)
GIO_GEN_WAIT_SCALAR(void, wait_until_all, (T* ivars, size_t n, const int* status, int cmp, GIO_V cmp_value),
                    GIO_WAIT_ALL, n, nullptr, status)
GIO_GEN_WAIT_SCALAR(size_t, wait_until_any, (T* ivars, size_t n, const int* status, int cmp, GIO_V cmp_value),
                    GIO_WAIT_ANY, n, nullptr, status)
GIO_GEN_WAIT_SCALAR(size_t, wait_until_some,
                    (T* ivars, size_t n, size_t* indices, const int* status, int cmp, GIO_V cmp_value),
                    GIO_WAIT_SOME, n, indices, status)
GIO_GEN_WAIT_SCALAR(int, test_all, (T* ivars, size_t n, const int* status, int cmp, GIO_V cmp_value), GIO_TEST_ALL,
                    n, nullptr, status)
GIO_GEN_WAIT_SCALAR(size_t, test_any, (T* ivars, size_t n, const int* status, int cmp, GIO_V cmp_value),
                    GIO_TEST_ANY, n, nullptr, status)
GIO_GEN_WAIT_SCALAR(size_t, test_some,
                    (T* ivars, size_t n, size_t* indices, const int* status, int cmp, GIO_V cmp_value),
                    GIO_TEST_SOME, n, indices, status)
GIO_GEN_WAIT_VECTOR(void, wait_until_all_vector, (T* ivars, size_t n, const int* status, int cmp, T* cmp_values),
                    GIO_WAIT_ALL, n, nullptr, status)
GIO_GEN_WAIT_VECTOR(size_t, wait_until_any_vector, (T* ivars, size_t n, const int* status, int cmp, T* cmp_values),
                    GIO_WAIT_ANY, n, nullptr, status)
GIO_GEN_WAIT_VECTOR(size_t, wait_until_some_vector,
                    (T* ivars, size_t n, size_t* indices, const int* status, int cmp, T* cmp_values),
                    GIO_WAIT_SOME, n, indices, status)
GIO_GEN_WAIT_VECTOR(int, test_all_vector, (T* ivars, size_t n, const int* status, int cmp, T* cmp_values),
                    GIO_TEST_ALL, n, nullptr, status)
GIO_GEN_WAIT_VECTOR(size_t, test_any_vector, (T* ivars, size_t n, const int* status, int cmp, T* cmp_values),
                    GIO_TEST_ANY, n, nullptr, status)
GIO_GEN_WAIT_VECTOR(size_t, test_some_vector,
                    (T* ivars, size_t n, size_t* indices, const int* status, int cmp, T* cmp_values),
                    GIO_TEST_SOME, n, indices, status)
#undef GIO_GEN_WAIT
#undef GIO_GEN_WAIT_SCALAR
#undef GIO_GEN_WAIT_VECTOR
#undef GIO_REQUIRE
#undef GIO_V
