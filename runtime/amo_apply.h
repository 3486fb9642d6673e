// Applying an AMO (gio_amo_op) to memory the caller reaches directly: the one switch from an
// operation code to an atomic, shared by libgio on the CPU (its own words, the host platform's heap
// and the softnic's atomics: cpu_atomics below) and by kernels on a p2p peer (device/p2p/amo.h,
// the platform's system-scope atomics). Header-only.
#pragma once
#include "runtime/defs.h"
#include "runtime/host_entry.h"  // gio_amo_op

namespace gio {

// A supplies load, exchange, cas(p, compare, value), fetch_add, fetch_and, fetch_or and fetch_xor
// on a U*, each returning the old value. False (old untouched) for an unknown operation.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <class A, typename U>
GIO_HOST_DEVICE inline bool amo_apply(U* p, int op, U v, U c, U& old) {
  switch (op) {
    case GIO_AMO_FETCH: old = A::load(p); return true;
    case GIO_AMO_SET:
    case GIO_AMO_SWAP: old = A::exchange(p, v); return true;
    case GIO_AMO_CSWAP: old = A::cas(p, c, v); return true;
    case GIO_AMO_FETCH_ADD: old = A::fetch_add(p, v); return true;
    case GIO_AMO_FETCH_AND: old = A::fetch_and(p, v); return true;
    case GIO_AMO_FETCH_OR: old = A::fetch_or(p, v); return true;
    case GIO_AMO_FETCH_XOR: old = A::fetch_xor(p, v); return true;
    default: return false;
  }
}

// The CPU's atomics, sequentially consistent (host code only).
struct cpu_atomics {
  template <typename U>
  static U load(U* p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
  template <typename U>
  static U exchange(U* p, U v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }
  template <typename U>
  static U cas(U* p, U c, U v) {
    __atomic_compare_exchange_n(p, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return c;  // the value seen: == the compare operand on success
  }
  template <typename U>
  static U fetch_add(U* p, U v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
  template <typename U>
  static U fetch_and(U* p, U v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }
  template <typename U>
  static U fetch_or(U* p, U v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
  template <typename U>
  static U fetch_xor(U* p, U v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); }
};

}  // namespace gio
