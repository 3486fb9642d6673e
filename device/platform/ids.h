// What every platform computes alike from its primitives: a thread's place in its work-group and
// wave, wave-mask arithmetic, the work-group and device fences, and the bit-pattern type of the
// atomics. Included by each platform's platform.h once it has defined GIO_DEVICE_INLINE, in_kernel() and
// wave_size().
#pragma once
#include <string.h>

#include <type_traits>

namespace gio {
namespace plat {

GIO_DEVICE_INLINE unsigned wg_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
GIO_DEVICE_INLINE unsigned wg_size() { return blockDim.x * blockDim.y * blockDim.z; }
GIO_DEVICE_INLINE unsigned wg_id() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }
GIO_DEVICE_INLINE unsigned wave_lane() { return wg_thread() % wave_size(); }
// Threads of the calling thread's wave that exist (the last wave of a work-group may be partial).
GIO_DEVICE_INLINE unsigned wave_active() {
  unsigned base = wg_thread() - wave_lane();
  unsigned left = wg_size() - base;
  return left < wave_size() ? left : wave_size();
}
GIO_DEVICE_INLINE void wg_sync() { __syncthreads(); }
// ---- wave collectives over a subset of lanes --------------------------------------------------
// A mask names lanes of the calling thread's wave (bit i = lane i); 64 bits, since AMD wavefronts
// have 64 lanes. Every lane of `m` must make the same call with the same `m`, and `m` must be the
// lanes that made the previous wave call together (wave_active_mask() or a subset every member
// agrees on): on AMD the lanes of a wave run in lockstep, so a collective over lanes that are not
// all present would wait forever; on the host emulator one warp barrier serves every call site.
typedef unsigned long long wave_mask;

GIO_DEVICE_INLINE wave_mask wave_lane_bit() { return 1ull << wave_lane(); }
GIO_DEVICE_INLINE wave_mask wave_lanes_below() { return wave_lane_bit() - 1; }
GIO_DEVICE_INLINE unsigned wave_count(wave_mask m) { return (unsigned)__popcll(m); }
GIO_DEVICE_INLINE unsigned wave_lowest(wave_mask m) { return (unsigned)__ffsll((long long)m) - 1u; }
GIO_DEVICE_INLINE unsigned wave_highest(wave_mask m) { return 63u - (unsigned)__clzll((long long)m); }

GIO_DEVICE_INLINE void fence_wg() { __threadfence_block(); }
GIO_DEVICE_INLINE void fence_device() { __threadfence(); }

// Integer atomics of 4 and 8 bytes, by bit pattern; T is the caller's type.
template <typename T>
struct atom_bits {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "GIO atomics are 4 or 8 bytes");
  typedef typename std::conditional<sizeof(T) == 4, unsigned int, unsigned long long>::type type;
};

}  // namespace plat
}  // namespace gio
