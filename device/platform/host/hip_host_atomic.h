// HIP/CUDA device atomics on the host platform (included by hip_host.h).
//
// Every operation is sequentially consistent: emulated work-groups are real OS threads on real
// cores, and GIO's device code pairs these atomics with fences the way it would on a GPU; the
// strongest order keeps that pairing correct without reasoning about each call site.
// All of them return the old value, as on the GPU.
#pragma once

#include <type_traits>

namespace gio {
namespace host {
namespace detail {
// The operand is converted to the pointee type rather than deduced from it, so that
// atomicAdd(&unsigned_counter, 1) resolves as it does with the GPU compilers' overload sets.
template <class T>
struct same {
  using type = T;
};
template <class T>
using operand_t = typename same<T>::type;

template <class T>
constexpr bool atomic_arith_ok = std::is_arithmetic<T>::value && (sizeof(T) == 4 || sizeof(T) == 8);

// Every atomic returns through here: in lockstep-wave mode the wave's other lanes catch up.
template <class T>
inline T stepped(T old) {
  wave_step();
  return old;
}

// Read-modify-write through compare-and-swap, for operations GCC has no fetch builtin for
// (floating-point add, min, max, wrapping increments).
template <class T, class F>
inline T atomic_update(T* p, F f) {
  T old;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  T desired = f(old);
  while (!__atomic_compare_exchange(p, &old, &desired, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
    desired = f(old);
  return stepped(old);
}
}  // namespace detail
}  // namespace host
}  // namespace gio

template <class T>
inline T atomicAdd(T* p, gio::host::detail::operand_t<T> v) {
  static_assert(gio::host::detail::atomic_arith_ok<T>, "atomicAdd: 4- or 8-byte arithmetic type");
  if constexpr (std::is_integral<T>::value)
    return gio::host::detail::stepped(__atomic_fetch_add(p, v, __ATOMIC_SEQ_CST));
  else
    return gio::host::detail::atomic_update(p, [v](T o) { return T(o + v); });
}

template <class T>
inline T atomicSub(T* p, gio::host::detail::operand_t<T> v) {
  static_assert(gio::host::detail::atomic_arith_ok<T>, "atomicSub: 4- or 8-byte arithmetic type");
  if constexpr (std::is_integral<T>::value)
    return gio::host::detail::stepped(__atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST));
  else
    return gio::host::detail::atomic_update(p, [v](T o) { return T(o - v); });
}

template <class T>
inline T atomicExch(T* p, gio::host::detail::operand_t<T> v) {
  static_assert(gio::host::detail::atomic_arith_ok<T>, "atomicExch: 4- or 8-byte arithmetic type");
  T old;
  __atomic_exchange(p, &v, &old, __ATOMIC_SEQ_CST);
  return gio::host::detail::stepped(old);
}

template <class T>
inline T atomicCAS(T* p, gio::host::detail::operand_t<T> compare, gio::host::detail::operand_t<T> val) {
  static_assert(gio::host::detail::atomic_arith_ok<T>, "atomicCAS: 4- or 8-byte arithmetic type");
  // On failure the builtin stores the current value into compare; on success compare already
  // equals the old value. Either way it is what the GPU returns.
  __atomic_compare_exchange(p, &compare, &val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return gio::host::detail::stepped(compare);
}

template <class T>
inline T atomicMin(T* p, gio::host::detail::operand_t<T> v) {
  static_assert(gio::host::detail::atomic_arith_ok<T>, "atomicMin: 4- or 8-byte arithmetic type");
  return gio::host::detail::atomic_update(p, [v](T o) { return v < o ? v : o; });
}

template <class T>
inline T atomicMax(T* p, gio::host::detail::operand_t<T> v) {
  static_assert(gio::host::detail::atomic_arith_ok<T>, "atomicMax: 4- or 8-byte arithmetic type");
  return gio::host::detail::atomic_update(p, [v](T o) { return o < v ? v : o; });
}

template <class T>
inline T atomicAnd(T* p, gio::host::detail::operand_t<T> v) {
  static_assert(std::is_integral<T>::value, "atomicAnd: integer type");
  return gio::host::detail::stepped(__atomic_fetch_and(p, v, __ATOMIC_SEQ_CST));
}

template <class T>
inline T atomicOr(T* p, gio::host::detail::operand_t<T> v) {
  static_assert(std::is_integral<T>::value, "atomicOr: integer type");
  return gio::host::detail::stepped(__atomic_fetch_or(p, v, __ATOMIC_SEQ_CST));
}

template <class T>
inline T atomicXor(T* p, gio::host::detail::operand_t<T> v) {
  static_assert(std::is_integral<T>::value, "atomicXor: integer type");
  return gio::host::detail::stepped(__atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST));
}

// ((old >= limit) ? 0 : old + 1), as the GPU defines it.
inline unsigned atomicInc(unsigned* p, unsigned limit) {
  return gio::host::detail::atomic_update(p, [limit](unsigned o) { return o >= limit ? 0u : o + 1; });
}

// ((old == 0 || old > limit) ? limit : old - 1), as the GPU defines it.
inline unsigned atomicDec(unsigned* p, unsigned limit) {
  return gio::host::detail::atomic_update(
      p, [limit](unsigned o) { return (o == 0 || o > limit) ? limit : o - 1; });
}

// All CPU cores share one coherent memory, so the scope of an atomic changes nothing here.
#define GIO_HOST_SCOPED_ATOMIC(op)                                 \
  template <class T, class... A>                                   \
  inline T op##_system(T* p, A... a) { return op(p, a...); }       \
  template <class T, class... A>                                   \
  inline T op##_block(T* p, A... a) { return op(p, a...); }
GIO_HOST_SCOPED_ATOMIC(atomicAdd)
GIO_HOST_SCOPED_ATOMIC(atomicSub)
GIO_HOST_SCOPED_ATOMIC(atomicExch)
GIO_HOST_SCOPED_ATOMIC(atomicCAS)
GIO_HOST_SCOPED_ATOMIC(atomicMin)
GIO_HOST_SCOPED_ATOMIC(atomicMax)
GIO_HOST_SCOPED_ATOMIC(atomicAnd)
GIO_HOST_SCOPED_ATOMIC(atomicOr)
GIO_HOST_SCOPED_ATOMIC(atomicXor)
GIO_HOST_SCOPED_ATOMIC(atomicInc)
GIO_HOST_SCOPED_ATOMIC(atomicDec)
#undef GIO_HOST_SCOPED_ATOMIC
