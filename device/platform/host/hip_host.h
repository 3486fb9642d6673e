// HIP programming model emulated on the CPU (GIO_PLATFORM_HOST).
//
// Kernels written in HIP syntax compile with a plain C++17 compiler and run on the CPU: every
// work-group runs on an OS thread of its own, and every GPU thread of it is a fiber on that OS
// thread. Barriers, shuffles and votes switch between fibers, so code that relies on GPU
// synchronisation (block barriers, warp-synchronous exchange, spin-waits on other work-groups)
// behaves as on a GPU. Launches are synchronous; streams and events only record time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

// Kernels compiled into an application read the thread-local indices the scheduler in libgio
// writes; if the library were built with hidden visibility each side would get its own copy.
#pragma GCC visibility push(default)

// ---- qualifiers -------------------------------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __constant__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
// A work-group's fibers all live on one OS thread and no other work-group runs on that thread
// until they have all returned, so "one copy per OS thread" is exactly "one copy per work-group,
// shared by its threads". Like GPU shared memory, the contents are left over from the previous
// work-group, not initialised.
#define __shared__ static thread_local
#define HIP_DYNAMIC_SHARED(type, var) \
  type* var = reinterpret_cast<type*>(::gio::host::detail::tl_group.dynamic_shared)
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(x) x

#include "runtime/emu_api.h"

namespace gio {
namespace host {
namespace detail {
template <class T>
inline T shuffle_bits(unsigned mask, T v, unsigned src_lane) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                "warp shuffles move values of at most 8 bytes");
  unsigned long long bits = 0;
  __builtin_memcpy(&bits, &v, sizeof(T));
  bits = warp_shuffle(mask, bits, src_lane);
  T out;
  __builtin_memcpy(&out, &bits, sizeof(T));
  return out;
}
}  // namespace detail

// Spans one device wait in lockstep-wave mode (runtime/emu_api.h); `site` names its call site.
class wave_wait_scope {
 public:
  explicit wave_wait_scope(const void* site) : slot_(wave_lockstep() ? detail::wave_wait_enter(site) : -1) {}
  ~wave_wait_scope() {
    if (slot_ >= 0) detail::wave_wait_exit(slot_);
  }
  wave_wait_scope(const wave_wait_scope&) = delete;
  wave_wait_scope& operator=(const wave_wait_scope&) = delete;

 private:
  int slot_;
};

}  // namespace host
}  // namespace gio

#define threadIdx (::gio::host::detail::tl_thread->thread_idx)
#define blockIdx (::gio::host::detail::tl_group.block_idx)
#define blockDim (::gio::host::detail::tl_group.block_dim)
#define gridDim (::gio::host::detail::tl_group.grid_dim)

// ---- synchronisation, warp operations ---------------------------------------------------------
inline void __syncthreads() { ::gio::host::detail::block_sync(); }
inline void __syncwarp(unsigned mask = 0xffffffffu) { ::gio::host::detail::warp_sync(mask); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline unsigned __lane_id() { return ::gio::host::linear_thread_id() % 32u; }
inline unsigned __activemask() { return ::gio::host::detail::warp_active_mask(); }

template <class T>
inline T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize) {
  unsigned lane = __lane_id(), w = unsigned(width), base = lane & ~(w - 1);
  return ::gio::host::detail::shuffle_bits(mask, var, base + (unsigned(src_lane) & (w - 1)));
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize) {
  unsigned lane = __lane_id(), base = lane & ~(unsigned(width) - 1);
  return ::gio::host::detail::shuffle_bits(mask, var, lane - base >= delta ? lane - delta : lane);
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize) {
  unsigned lane = __lane_id(), w = unsigned(width), base = lane & ~(w - 1);
  return ::gio::host::detail::shuffle_bits(mask, var, lane - base + delta < w ? lane + delta : lane);
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize) {
  unsigned lane = __lane_id(), w = unsigned(width), base = lane & ~(w - 1);
  unsigned src = lane ^ unsigned(lane_mask);
  return ::gio::host::detail::shuffle_bits(mask, var, src < base + w && src < 32u ? src : lane);
}
// HIP's mask-less spellings.
template <class T>
inline T __shfl(T var, int src_lane, int width = warpSize) {
  return __shfl_sync(0xffffffffu, var, src_lane, width);
}
template <class T>
inline T __shfl_up(T var, unsigned delta, int width = warpSize) {
  return __shfl_up_sync(0xffffffffu, var, delta, width);
}
template <class T>
inline T __shfl_down(T var, unsigned delta, int width = warpSize) {
  return __shfl_down_sync(0xffffffffu, var, delta, width);
}
template <class T>
inline T __shfl_xor(T var, int lane_mask, int width = warpSize) {
  return __shfl_xor_sync(0xffffffffu, var, lane_mask, width);
}

inline unsigned long long __ballot_sync(unsigned mask, int pred) {
  unsigned parts;
  return ::gio::host::detail::warp_vote(mask, pred, &parts);
}
inline int __any_sync(unsigned mask, int pred) { return __ballot_sync(mask, pred) != 0; }
inline int __all_sync(unsigned mask, int pred) {
  unsigned parts;
  return ::gio::host::detail::warp_vote(mask, pred, &parts) == parts;
}

inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(int x) { return x ? __builtin_clz(unsigned(x)) : 32; }
inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }

inline void __nanosleep(unsigned) { ::gio::host::yield(); }

#include "device/platform/host/hip_host_atomic.h"

#pragma GCC visibility pop
