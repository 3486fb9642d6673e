// What libgio's C symbols (host/capi/*.cpp) are built from: the C header (so every definition is
// checked against the declaration C programs see), libgio's gio_host_* entry points, and small
// helpers the table's bodies call. Never the C++ inline API: its routines have the same names.
#pragma once
#include <cstring>
#include <type_traits>

#include "runtime/api/c/shmem_c.h"
#include "runtime/host_entry.h"
#include "runtime/api/coll_host.h"

// A C symbol's definition from its table entry.
#define GIO_C_X(RET, NAME, PARAMS, ...) \
  extern "C" RET NAME PARAMS { return (RET)(__VA_ARGS__); }

template <typename T>
inline T gio_c_g(const char* rt, shmem_ctx_t ctx, const T* source, int pe) {
  T v;
  gio_host_getmem(rt, ctx, &v, source, sizeof(T), pe);
  return v;
}
// Operands and the old value travel as bit patterns (runtime/host_entry.h).
template <typename T>
inline T gio_c_amo(const char* rt, shmem_ctx_t ctx, int op, T* dest, T value, T compare, int pe) {
  uint64_t v = 0, c = 0;
  memcpy(&v, &value, sizeof(T));
  memcpy(&c, &compare, sizeof(T));
  v = gio_host_amo(rt, ctx, op, dest, v, c, sizeof(T), pe);
  T r;
  memcpy(&r, &v, sizeof(T));
  return r;
}
// shmem_team_ptr: `dest` on member `pe` of `team`, as shmem_ptr reaches it (nullptr if it does not).
inline void* gio_c_team_ptr(shmem_team_t team, const void* dest, int pe) {
  const int world = gio_host_team_translate_pe(team, pe, SHMEM_TEAM_WORLD);
  return world < 0 ? nullptr : gio_host_ptr(dest, world);
}
template <typename T>
inline void gio_c_amo_nbi(const char* rt, shmem_ctx_t ctx, int op, T* fetch, T* dest, T value, T compare, int pe) {
  uint64_t v = 0, c = 0;
  memcpy(&v, &value, sizeof(T));
  memcpy(&c, &compare, sizeof(T));
  gio_host_amo_nbi(rt, ctx, op, fetch, dest, v, c, sizeof(T), pe);
}
template <typename T>
inline size_t gio_c_wait(const char* rt, int kind, T* ivars, size_t n, size_t* idx, const int* status, int cmp,
                         const T* vals, bool vec) {
  return gio_host_wait(rt, kind, ivars, n, sizeof(T), std::is_signed<T>::value, status, cmp, vals, vec, idx, nullptr);
}
template <typename T>
inline T gio_c_wait_until(const char* rt, T* ivar, int cmp, T value) {
  T seen = 0;
  gio_host_wait(rt, GIO_WAIT_UNTIL, ivar, 1, sizeof(T), std::is_signed<T>::value, nullptr, cmp, &value, 0, nullptr, &seen);
  return seen;
}
