// Point-to-point synchronization: wait_until / test (+ _all, _any, _some) and signal_wait_until.
// Device routines; every wait is bounded by GIO_TIMEOUT_MS and reports what it waited for.
#pragma once
#include "runtime/api/base.h"
#include "device/dispatch/dispatch.h"
#include "runtime/api/types.h"


#if GIO_KERNEL_COMPILER
// Where the _any rotation table lives: device global memory of the module (host: a plain global).
#if defined(GIO_PLATFORM_HOST)
// The routine names these macros generate are listed in docs/api-index.md (tests/api/api_index.py).
#define GIO_ROTOR_SPACE
#else
#define GIO_ROTOR_SPACE __device__
#endif

namespace gio {
namespace dev {

template <typename T>
GIO_DEVICE_INLINE bool cmp_ok(int cmp, T a, T b) {
  switch (cmp) {
    case SHMEM_CMP_EQ: return a == b;
    case SHMEM_CMP_NE: return a != b;
    case SHMEM_CMP_GT: return a > b;
    case SHMEM_CMP_GE: return a >= b;
    case SHMEM_CMP_LT: return a < b;
    default: return a <= b;
  }
}
GIO_DEVICE_INLINE const char* cmp_name(int cmp) {
  const char* names[] = {"==", "!=", ">", ">=", "<", "<="};
  return (cmp >= 0 && cmp <= 5) ? names[cmp] : "?";
}

[[noreturn]] GIO_DEVICE_NOINLINE void fail_cmp(const char* rt, int cmp) {
  GIO_DEV_FATAL(rt, "comparison %d is not a SHMEM_CMP_* value", cmp);
}
template <typename T>
GIO_DEVICE_INLINE void check_wait_args(const char* rt, const T* ivar, size_t n, int cmp) {
  const gio_device_state_v1& st = state_checked(rt);
  if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE) fail_cmp(rt, cmp);
  check_sym(rt, ivar, n * sizeof(T), st.my_pe);
}

template <typename T>
GIO_DEVICE_INLINE T wait_until(const char* rt, const T* ivar, int cmp, T value) {
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
GIO_DEVICE_INLINE bool test_one(const T* ivar, int cmp, T value) {
  return cmp_ok(cmp, plat::atomic_load_acquire(ivar), value);
}
// The comparison value of element i: one for all, or cmp_values[i] in the _vector forms.
template <typename T>
GIO_DEVICE_INLINE T value_at(const T* vals, bool vec, size_t i) {
  return vals[vec ? i : 0];
}

// Index set helpers for the vector forms: status[i] != 0 excludes element i. _some answers every
// ready index at once, so it needs no rotation to serve them all; _any does (below).
template <typename T>
GIO_DEVICE_INLINE size_t test_some(const T* ivars, size_t n, size_t* idx, const int* status, int cmp, const T* vals, bool vec) {
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    if ((!status || !status[i]) && test_one(ivars + i, cmp, value_at(vals, vec, i))) idx[k++] = i;
  return k;
}
// _any fairness. A scan that always starts at index 0 answers the lowest ready index every time,
// so a caller that loops until every index has been served once, over flags that stay ready (the
// spec's shmem_test_any example never masks them), spins forever. Each scan therefore starts just
// after the index the previous call on the same array returned. There is no per-call-site state on
// a GPU, so the "previous call" is remembered in a small per-module table keyed by the array's
// address: threads sharing an array share its rotation (which spreads them over the ready indices),
// and two arrays that share a slot only move each other's start, which never stops the rotation.
// Sandia OpenSHMEM starts at a random index instead; a rotor serves n always-ready indices in
// exactly n calls rather than in about n ln n. The slots are relaxed atomics: a lost update costs
// fairness for one call, never correctness (any returned index is ready).
constexpr unsigned kAnyRotorSlots = 64;
static GIO_ROTOR_SPACE unsigned long long any_rotor[kAnyRotorSlots];

GIO_DEVICE_INLINE unsigned long long* any_rotor_slot(const void* ivars) {
  const uintptr_t a = (uintptr_t)ivars;
  return &any_rotor[((a >> 3) ^ (a >> 9) ^ (a >> 15)) % kAnyRotorSlots];
}

template <typename T>
GIO_DEVICE_INLINE size_t test_any(const T* ivars, size_t n, const int* status, int cmp, const T* vals, bool vec) {
  if (n == 0) return SIZE_MAX;
  unsigned long long* rotor = any_rotor_slot(ivars);
  size_t i = (size_t)(plat::atomic_load_acquire(rotor) % n);
  for (size_t k = 0; k < n; ++k, i = i + 1 == n ? 0 : i + 1)
    if ((!status || !status[i]) && test_one(ivars + i, cmp, value_at(vals, vec, i))) {
      plat::store_relaxed_system(rotor, (unsigned long long)i + 1);
      return i;
    }
  return SIZE_MAX;
}
template <typename T>
GIO_DEVICE_INLINE bool test_all(const T* ivars, size_t n, const int* status, int cmp, const T* vals, bool vec) {
  for (size_t i = 0; i < n; ++i)
    if ((!status || !status[i]) && !test_one(ivars + i, cmp, value_at(vals, vec, i))) return false;
  return true;
}

template <typename T, typename Done>
GIO_DEVICE_INLINE void wait_vector(const char* rt, const T* ivars, size_t n, int cmp, const T* vals, bool vec, Done done) {
  check_wait_args(rt, ivars, n, cmp);
  bounded_wait(done, [&](unsigned long long ms) {
    GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u, thread %u) waited %llu ms on %llu "
                  "variables at %p for %s %s %lld\n",
                  rt, GIO_DSTATE.my_pe, plat::wg_id(), plat::wg_thread(), ms, (unsigned long long)n,
                  (const void*)ivars, vec ? "values" : "value", cmp_name(cmp), (long long)vals[0]);
  });
}

// Every wait and test form through one entry (`kind`: gio_wait_kind, a constant at each call site,
// so the inlined switch folds to one case). `vals`: the comparison value, or one per element.
template <typename T>
GIO_DEVICE_INLINE size_t wait_kind(const char* rt, int kind, const T* ivars, size_t n, size_t* idx, const int* status,
                         int cmp, const T* vals, bool vec, T* seen) {
  bool any_active = false;
  switch (kind) {
    case GIO_WAIT_UNTIL: {
      const T v = wait_until<T>(rt, ivars, cmp, vals[0]);
      if (seen) *seen = v;
      return 0;
    }
    case GIO_TEST: check_wait_args(rt, ivars, 1, cmp); return test_one<T>(ivars, cmp, vals[0]) ? 1 : 0;
    case GIO_TEST_ALL: check_wait_args(rt, ivars, n, cmp); return test_all<T>(ivars, n, status, cmp, vals, vec) ? 1 : 0;
    case GIO_TEST_ANY: check_wait_args(rt, ivars, n, cmp); return test_any<T>(ivars, n, status, cmp, vals, vec);
    case GIO_TEST_SOME: check_wait_args(rt, ivars, n, cmp); return test_some<T>(ivars, n, idx, status, cmp, vals, vec);
    default: break;
  }
  for (size_t i = 0; i < n; ++i) any_active |= !status || !status[i];
  size_t r = 0;
  if (kind == GIO_WAIT_ALL) {
    if (any_active)
      wait_vector<T>(rt, ivars, n, cmp, vals, vec, [&] { return test_all<T>(ivars, n, status, cmp, vals, vec); });
  } else if (kind == GIO_WAIT_ANY) {
    if (!any_active) return SIZE_MAX;
    wait_vector<T>(rt, ivars, n, cmp, vals, vec,
                   [&] { return (r = test_any<T>(ivars, n, status, cmp, vals, vec)) != SIZE_MAX; });
  } else {
    if (!any_active) return 0;
    wait_vector<T>(rt, ivars, n, cmp, vals, vec,
                   [&] { return (r = test_some<T>(ivars, n, idx, status, cmp, vals, vec)) != 0; });
  }
  return r;
}

}  // namespace dev
}  // namespace gio
#endif  // GIO_KERNEL_COMPILER

// Host code and kernels: the device's waits in kernels, libgio's (host/wait.cpp) in host code.
template <typename T>
GIO_HOST_DEVICE_INLINE size_t gio_wait(const char* rt, int kind, T* ivars, size_t n, size_t* idx, const int* status, int cmp,
                         const T* vals, bool vec, T* seen = nullptr) {
  size_t r = 0;
  GIO_DISPATCH_HOST_DEVICE(r = ::gio::dev::wait_kind<T>(rt, kind, ivars, n, idx, status, cmp, vals, vec, seen),
               r = gio_host_wait(rt, kind, ivars, n, sizeof(T), std::is_signed<T>::value, status, cmp, vals, vec, idx, seen));
  return r;
}

#define GIO_DEF_WAIT_FORM(NAME, T, RET, FORM, PARAMS, KIND, N, IDX, ST, VALS, VEC)                      \
  GIO_HOST_DEVICE_INLINE RET shmem_##NAME##_##FORM PARAMS {                                                         \
    return (RET)gio_wait<T>("shmem_" #NAME "_" #FORM, KIND, ivars, N, IDX, ST, cmp, VALS, VEC);       \
  }
#define GIO_DEF_WAIT(NAME, T) GIO_WAIT_FORMS(GIO_DEF_WAIT_FORM, NAME, T)
GIO_WAIT_TYPES(GIO_DEF_WAIT)
#undef GIO_DEF_WAIT
#undef GIO_DEF_WAIT_FORM

GIO_HOST_DEVICE_INLINE uint64_t shmem_signal_wait_until(uint64_t* sig_addr, int cmp, uint64_t cmp_value) {
  uint64_t seen = 0;
  gio_wait<uint64_t>("shmem_signal_wait_until", GIO_WAIT_UNTIL, sig_addr, 1, nullptr, nullptr, cmp, &cmp_value,
                     false, &seen);
  return seen;
}
