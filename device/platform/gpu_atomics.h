// The system-scope atomics of the two GPU platforms (cuda, hip), which spell them alike (HIP's
// names on CUDA: runtime/cuda_hip_compat.h). Included inside namespace gio::plat by each one's
// platform.h, after atom_bits (device/platform/ids.h) and GIO_DEVICE_INLINE are defined.
#pragma once
#define GIO_ATOMIC_RMW(name, fn)                                                   \
  template <typename T>                                                            \
  GIO_DEVICE_INLINE T name(T* p, T v) {                                                      \
    typedef typename atom_bits<T>::type U;                                         \
    U old = fn((U*)p, *(U*)&v);                                                    \
    return *(T*)&old;                                                              \
  }
GIO_ATOMIC_RMW(atomic_fetch_add, atomicAdd_system)
GIO_ATOMIC_RMW(atomic_exchange, atomicExch_system)
GIO_ATOMIC_RMW(atomic_fetch_and, atomicAnd_system)
GIO_ATOMIC_RMW(atomic_fetch_or, atomicOr_system)
GIO_ATOMIC_RMW(atomic_fetch_xor, atomicXor_system)
#undef GIO_ATOMIC_RMW
template <typename T>
GIO_DEVICE_INLINE T atomic_cas(T* p, T cmp, T v) {
  typedef typename atom_bits<T>::type U;
  U old = atomicCAS_system((U*)p, *(U*)&cmp, *(U*)&v);
  return *(T*)&old;
}
