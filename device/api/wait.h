// Point-to-point synchronization: wait_until / test (+ _all, _any, _some) and signal_wait_until.
// Device routines; every wait is bounded by GIO_TIMEOUT_MS and reports what it waited for.
#pragma once
#include "device/api/dispatch.h"
#include "device/api/types.h"

#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_GE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_LE 5

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {

template <typename T>
GIO_DFN bool cmp_ok(int cmp, T a, T b) {
  switch (cmp) {
    case SHMEM_CMP_EQ: return a == b;
    case SHMEM_CMP_NE: return a != b;
    case SHMEM_CMP_GT: return a > b;
    case SHMEM_CMP_GE: return a >= b;
    case SHMEM_CMP_LT: return a < b;
    default: return a <= b;
  }
}
GIO_DFN const char* cmp_name(int cmp) {
  const char* names[] = {"==", "!=", ">", ">=", "<", "<="};
  return (cmp >= 0 && cmp <= 5) ? names[cmp] : "?";
}

[[noreturn]] GIO_DOUT void fail_cmp(const char* rt, int cmp) {
  GIO_DEV_FATAL(rt, "comparison %d is not a SHMEM_CMP_* value", cmp);
}
template <typename T>
GIO_DFN void check_wait_args(const char* rt, const T* ivar, size_t n, int cmp) {
  const gio_device_state_v1& st = state_checked(rt);
  if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE) fail_cmp(rt, cmp);
  check_sym(rt, ivar, n * sizeof(T), st.my_pe);
}

template <typename T>
GIO_DFN T wait_until(const char* rt, const T* ivar, int cmp, T value) {
  check_wait_args(rt, ivar, 1, cmp);
  T seen = plat::atomic_load_acquire(ivar);
  bounded_wait([&] { return cmp_ok(cmp, seen = plat::atomic_load_acquire(ivar), value); },
               [&](unsigned long long ms) {
                 GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u, thread %u) waited %llu ms at %p "
                               "for value %s %lld; last value seen %lld\n",
                               rt, GIO_DSTATE.my_pe, plat::wg_id(), plat::wg_thread(), ms,
                               (const void*)ivar, cmp_name(cmp), (long long)value, (long long)seen);
               });
  return seen;
}

template <typename T>
GIO_DFN bool test_one(const T* ivar, int cmp, T value) {
  return cmp_ok(cmp, plat::atomic_load_acquire(ivar), value);
}

// Index set helpers for the vector forms: status[i] != 0 excludes element i.
template <typename T>
GIO_DFN size_t test_some(const T* ivars, size_t n, size_t* idx, const int* status, int cmp, T value) {
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    if ((!status || !status[i]) && test_one(ivars + i, cmp, value)) idx[k++] = i;
  return k;
}
template <typename T>
GIO_DFN size_t test_any(const T* ivars, size_t n, const int* status, int cmp, T value) {
  for (size_t i = 0; i < n; ++i)
    if ((!status || !status[i]) && test_one(ivars + i, cmp, value)) return i;
  return SIZE_MAX;
}
template <typename T>
GIO_DFN bool test_all(const T* ivars, size_t n, const int* status, int cmp, T value) {
  for (size_t i = 0; i < n; ++i)
    if ((!status || !status[i]) && !test_one(ivars + i, cmp, value)) return false;
  return true;
}

template <typename T, typename Done>
GIO_DFN void wait_vector(const char* rt, const T* ivars, size_t n, int cmp, T value, Done done) {
  check_wait_args(rt, ivars, n, cmp);
  bounded_wait(done, [&](unsigned long long ms) {
    GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u, thread %u) waited %llu ms on %llu "
                  "variables at %p for value %s %lld\n",
                  rt, GIO_DSTATE.my_pe, plat::wg_id(), plat::wg_thread(), ms, (unsigned long long)n,
                  (const void*)ivars, cmp_name(cmp), (long long)value);
  });
}

}  // namespace dev
}  // namespace gio

#define GIO_DEF_WAIT(NAME, T)                                                                      \
  GIO_DFN void shmem_##NAME##_wait_until(T* ivar, int cmp, T value) {                              \
    ::gio::dev::wait_until<T>("shmem_" #NAME "_wait_until", ivar, cmp, value);                     \
  }                                                                                                \
  GIO_DFN int shmem_##NAME##_test(T* ivar, int cmp, T value) {                                     \
    ::gio::dev::check_wait_args("shmem_" #NAME "_test", ivar, 1, cmp);                             \
    return ::gio::dev::test_one<T>(ivar, cmp, value) ? 1 : 0;                                      \
  }                                                                                                \
  GIO_DFN void shmem_##NAME##_wait_until_all(T* ivars, size_t n, const int* status, int cmp, T value) { \
    ::gio::dev::wait_vector<T>("shmem_" #NAME "_wait_until_all", ivars, n, cmp, value,             \
                               [&] { return ::gio::dev::test_all<T>(ivars, n, status, cmp, value); }); \
  }                                                                                                \
  GIO_DFN size_t shmem_##NAME##_wait_until_any(T* ivars, size_t n, const int* status, int cmp, T value) { \
    size_t r = SIZE_MAX;                                                                           \
    bool any_active = false;                                                                       \
    for (size_t i = 0; i < n; ++i) any_active |= !status || !status[i];                            \
    if (!any_active) return SIZE_MAX;                                                              \
    ::gio::dev::wait_vector<T>("shmem_" #NAME "_wait_until_any", ivars, n, cmp, value, [&] {       \
      return (r = ::gio::dev::test_any<T>(ivars, n, status, cmp, value)) != SIZE_MAX;              \
    });                                                                                            \
    return r;                                                                                      \
  }                                                                                                \
  GIO_DFN size_t shmem_##NAME##_wait_until_some(T* ivars, size_t n, size_t* indices, const int* status, \
                                                int cmp, T value) {                                \
    size_t k = 0;                                                                                  \
    bool any_active = false;                                                                       \
    for (size_t i = 0; i < n; ++i) any_active |= !status || !status[i];                            \
    if (!any_active) return 0;                                                                     \
    ::gio::dev::wait_vector<T>("shmem_" #NAME "_wait_until_some", ivars, n, cmp, value, [&] {      \
      return (k = ::gio::dev::test_some<T>(ivars, n, indices, status, cmp, value)) != 0;           \
    });                                                                                            \
    return k;                                                                                      \
  }                                                                                                \
  GIO_DFN int shmem_##NAME##_test_all(T* ivars, size_t n, const int* status, int cmp, T value) {  \
    ::gio::dev::check_wait_args("shmem_" #NAME "_test_all", ivars, n, cmp);                        \
    return ::gio::dev::test_all<T>(ivars, n, status, cmp, value) ? 1 : 0;                          \
  }                                                                                                \
  GIO_DFN size_t shmem_##NAME##_test_any(T* ivars, size_t n, const int* status, int cmp, T value) { \
    ::gio::dev::check_wait_args("shmem_" #NAME "_test_any", ivars, n, cmp);                        \
    return ::gio::dev::test_any<T>(ivars, n, status, cmp, value);                                  \
  }                                                                                                \
  GIO_DFN size_t shmem_##NAME##_test_some(T* ivars, size_t n, size_t* indices, const int* status, \
                                          int cmp, T value) {                                      \
    ::gio::dev::check_wait_args("shmem_" #NAME "_test_some", ivars, n, cmp);                       \
    return ::gio::dev::test_some<T>(ivars, n, indices, status, cmp, value);                        \
  }
GIO_WAIT_TYPES(GIO_DEF_WAIT)
#undef GIO_DEF_WAIT

GIO_DFN uint64_t shmem_signal_wait_until(uint64_t* sig_addr, int cmp, uint64_t cmp_value) {
  return ::gio::dev::wait_until<uint64_t>("shmem_signal_wait_until", sig_addr, cmp, cmp_value);
}
#endif  // GIO_KERNEL_COMPILER
