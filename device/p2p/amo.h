// p2p AMOs and signals: system-scope atomics and stores on the peer's heap, mapped into this GPU
// (p2p.h). The dispatch point (device/dispatch/dispatch.h) calls these for a p2p peer once the
// arguments are checked.
#pragma once
#include "device/p2p/p2p.h"
#include "runtime/amo_apply.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
namespace p2p {

// The platform's system-scope atomics, as amo_apply takes them.
struct plat_atomics {
  template <typename U>
  static GIO_DEVICE_INLINE U load(U* p) { return plat::atomic_fetch_or(p, U(0)); }
  template <typename U>
  static GIO_DEVICE_INLINE U exchange(U* p, U v) { return plat::atomic_exchange(p, v); }
  template <typename U>
  static GIO_DEVICE_INLINE U cas(U* p, U c, U v) { return plat::atomic_cas(p, c, v); }
  template <typename U>
  static GIO_DEVICE_INLINE U fetch_add(U* p, U v) { return plat::atomic_fetch_add(p, v); }
  template <typename U>
  static GIO_DEVICE_INLINE U fetch_and(U* p, U v) { return plat::atomic_fetch_and(p, v); }
  template <typename U>
  static GIO_DEVICE_INLINE U fetch_or(U* p, U v) { return plat::atomic_fetch_or(p, v); }
  template <typename U>
  static GIO_DEVICE_INLINE U fetch_xor(U* p, U v) { return plat::atomic_fetch_xor(p, v); }
};

// Atomic `op` on the 4- or 8-byte word `dst` of `pe`, by bit pattern U; returns the old value.
template <typename U>
GIO_DEVICE_INLINE U amo(const gio_device_state_v1& st, int op, U* dst, U v, U c, int pe) {
  U old = 0;
  amo_apply<plat_atomics>((U*)remote(st, dst, pe), op, v, c, old);
  return old;
}

// Sets or adds (op 1, SHMEM_SIGNAL_ADD) `value` to the signal word `sig` of `pe` after every
// earlier put of this thread is visible there: release, then a store the target's acquire load
// pairs with. No value is needed back, so SET is a plain system-scope store and ADD a
// fire-and-forget reduction (no round trip).
GIO_DEVICE_INLINE void signal(const gio_device_state_v1& st, uint64_t* sig, uint64_t value, int op, int pe) {
  unsigned long long* p = (unsigned long long*)remote(st, sig, pe);
  plat::fence_release_system();
  if (op == 1 /* SHMEM_SIGNAL_ADD */)
    plat::red_add_system(p, (unsigned long long)value);
  else
    plat::store_relaxed_system(p, (unsigned long long)value);
}

}  // namespace p2p
}  // namespace dev
}  // namespace gio
#endif
