// One struct per OpenSHMEM AMO type name, generated from the type tables in runtime/api/types.h, so
// that the AMO tests are written once as templates yet every call still goes through the routine
// of that exact name (int and int32 may be the same C type, but shmem_int_* and shmem_int32_* are
// different routines and both must work). Every operation can be routed through the plain name or
// the ctx form, so the same checks cover shmem_ctx_TYPE_atomic_*. Shared by test_amo.cpp and
// test_amo_host.cpp, with the permutation and fetch-add chain checks both use.
#pragma once
#include <gtest/gtest.h>
#include <shmem.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace giotest {

// How an atomic is issued: the plain routine, or its ctx form on `ctx`.
struct via {
  bool use_ctx;
  shmem_ctx_t ctx;
};

#define GIOTEST_AMO(NAME, OP, V, ...) \
  ((V).use_ctx ? shmem_ctx_##NAME##_atomic_##OP((V).ctx, __VA_ARGS__) : shmem_##NAME##_atomic_##OP(__VA_ARGS__))

// fetch, set, swap (extended types).
#define GIOTEST_EXT_OPS(NAME, TYPE)                                                                           \
  struct ext_##NAME {                                                                                         \
    typedef TYPE T;                                                                                           \
    static const char* name() { return #NAME; }                                                               \
    static GIO_HOST_DEVICE_INLINE T fetch(via v, const T* s, int pe) { return GIOTEST_AMO(NAME, fetch, v, s, pe); }         \
    static GIO_HOST_DEVICE_INLINE void set(via v, T* d, T x, int pe) { GIOTEST_AMO(NAME, set, v, d, x, pe); }               \
    static GIO_HOST_DEVICE_INLINE T swap(via v, T* d, T x, int pe) { return GIOTEST_AMO(NAME, swap, v, d, x, pe); }         \
  };
GIO_AMO_EXT_TYPES(GIOTEST_EXT_OPS)
#undef GIOTEST_EXT_OPS

// compare_swap, fetch_add, add, fetch_inc, inc (standard types), plus the extended routines.
#define GIOTEST_STD_OPS(NAME, TYPE)                                                                           \
  struct std_##NAME : ext_##NAME {                                                                            \
    typedef TYPE T;                                                                                           \
    static GIO_HOST_DEVICE_INLINE T cswap(via v, T* d, T cond, T x, int pe) {                                               \
      return GIOTEST_AMO(NAME, compare_swap, v, d, cond, x, pe);                                              \
    }                                                                                                         \
    static GIO_HOST_DEVICE_INLINE T fetch_add(via v, T* d, T x, int pe) { return GIOTEST_AMO(NAME, fetch_add, v, d, x, pe); } \
    static GIO_HOST_DEVICE_INLINE void add(via v, T* d, T x, int pe) { GIOTEST_AMO(NAME, add, v, d, x, pe); }               \
    static GIO_HOST_DEVICE_INLINE T fetch_inc(via v, T* d, int pe) { return GIOTEST_AMO(NAME, fetch_inc, v, d, pe); }       \
    static GIO_HOST_DEVICE_INLINE void inc(via v, T* d, int pe) { GIOTEST_AMO(NAME, inc, v, d, pe); }                       \
  };
GIO_AMO_STD_TYPES(GIOTEST_STD_OPS)
#undef GIOTEST_STD_OPS

// and, or, xor and their fetch forms (bitwise types).
#define GIOTEST_BIT_OPS(NAME, TYPE)                                                                           \
  struct bit_##NAME {                                                                                         \
    typedef TYPE T;                                                                                           \
    static const char* name() { return #NAME; }                                                               \
    static GIO_HOST_DEVICE_INLINE T fetch_and(via v, T* d, T x, int pe) { return GIOTEST_AMO(NAME, fetch_and, v, d, x, pe); } \
    static GIO_HOST_DEVICE_INLINE T fetch_or(via v, T* d, T x, int pe) { return GIOTEST_AMO(NAME, fetch_or, v, d, x, pe); }   \
    static GIO_HOST_DEVICE_INLINE T fetch_xor(via v, T* d, T x, int pe) { return GIOTEST_AMO(NAME, fetch_xor, v, d, x, pe); } \
    static GIO_HOST_DEVICE_INLINE void and_(via v, T* d, T x, int pe) { GIOTEST_AMO(NAME, and, v, d, x, pe); }              \
    static GIO_HOST_DEVICE_INLINE void or_(via v, T* d, T x, int pe) { GIOTEST_AMO(NAME, or, v, d, x, pe); }                \
    static GIO_HOST_DEVICE_INLINE void xor_(via v, T* d, T x, int pe) { GIOTEST_AMO(NAME, xor, v, d, x, pe); }              \
  };
GIO_AMO_BIT_TYPES(GIOTEST_BIT_OPS)
#undef GIOTEST_BIT_OPS

// `got` holds each of first, first + 1, ..., first + got.size() - 1 exactly once.
template <typename T>
::testing::AssertionResult is_permutation_of_range(const std::vector<T>& got, long long first) {
  std::vector<int> seen(got.size(), 0);
  for (size_t i = 0; i < got.size(); ++i) {
    const long long k = (long long)got[i] - first;
    if (k < 0 || k >= (long long)got.size() || seen[k]++)
      return ::testing::AssertionFailure() << "value " << (long long)got[i] << " (entry " << i << ") is "
                                           << (k < 0 || k >= (long long)got.size() ? "out of range" : "repeated");
  }
  return ::testing::AssertionSuccess();
}

// fetch_adds {old value returned, amount added} on one counter that started at 0 and ended at
// `total`: sorted by old value they must chain exactly (each returned what the previous left).
inline ::testing::AssertionResult fetch_adds_chain(std::vector<std::pair<long long, long long>> steps,
                                                   long long total) {
  std::sort(steps.begin(), steps.end());
  long long at = 0;
  for (const auto& s : steps) {
    if (s.first != at)
      return ::testing::AssertionFailure() << "a fetch_add returned " << s.first << " where the earlier adds left " << at;
    at += s.second;
  }
  if (at != total) return ::testing::AssertionFailure() << "the adds sum to " << at << " but the counter holds " << total;
  return ::testing::AssertionSuccess();
}

}  // namespace giotest
