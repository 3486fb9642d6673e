// The platform layer: where a kernel runs (cuda, hip, or the host emulator).
//
// Device API code uses only the gio::plat names below; each platform maps them onto its runtime.
// GIO_DEVICE_CODE is 1 in a device compilation pass (cuda/hip) and 0 elsewhere; on the host platform
// the same code serves both, so `gio::plat::in_kernel()` tells them apart at run time.
#pragma once
#include "gio_config.h"  // GIO_PLATFORM_{CUDA,HIP,HOST}, generated at configure time
#include "runtime/defs.h"
#include <string.h>
#include <type_traits>

#if defined(GIO_PLATFORM_CUDA)
#include "device/platform/cuda_hip_compat.h"
#if defined(__CUDA_ARCH__)
#define GIO_DEVICE_CODE 1
#else
#define GIO_DEVICE_CODE 0
#endif
#elif defined(GIO_PLATFORM_HIP)
#include <hip/hip_runtime.h>
#if defined(__HIP_DEVICE_COMPILE__)
#define GIO_DEVICE_CODE 1
#else
#define GIO_DEVICE_CODE 0
#endif
#elif defined(GIO_PLATFORM_HOST)
#include "device/platform/host/hip_host.h"
#define GIO_DEVICE_CODE 0
#else
#error "GIO: no platform selected (GIO_PLATFORM_CUDA, GIO_PLATFORM_HIP or GIO_PLATFORM_HOST)"
#endif

// Is this translation unit compiled by a kernel compiler (so it may define kernels and device state)?
#if defined(GIO_PLATFORM_HOST) || defined(__CUDACC__) || defined(__HIPCC__)
#define GIO_KERNEL_COMPILER 1
#else
#define GIO_KERNEL_COMPILER 0
#endif

// Public routines usable from host code and kernels alike.
#define GIO_HDFN GIO_HOST_DEVICE inline

// GIO_DISPATCH(device_stmt, host_stmt): the device half in kernels, libgio's host half elsewhere.
#if defined(GIO_PLATFORM_HOST)
#define GIO_DISPATCH(dev_stmt, host_stmt)  \
  do {                                     \
    if (::gio::host::in_kernel()) {        \
      dev_stmt;                            \
    } else {                               \
      host_stmt;                           \
    }                                      \
  } while (0)
#elif GIO_DEVICE_CODE
#define GIO_DISPATCH(dev_stmt, host_stmt) \
  do {                                    \
    dev_stmt;                             \
  } while (0)
#else
#define GIO_DISPATCH(dev_stmt, host_stmt) \
  do {                                    \
    host_stmt;                            \
  } while (0)
#endif

#if GIO_KERNEL_COMPILER
// GIO_DFN: the fast path, inlined into the caller. GIO_DOUT: called, not inlined, on GPUs: the
// gda posting path and every diagnostic (device printf expands to a lot of code, and inlining it at
// each of hundreds of call sites multiplied compile time and code size for nothing on the fast path).
#if defined(GIO_PLATFORM_HOST)
#define GIO_DFN inline
#define GIO_DOUT inline
#define GIO_UNROLL _Pragma("GCC unroll 8")
#else
#define GIO_UNROLL _Pragma("unroll")
#define GIO_DFN __device__ __forceinline__
// (HIP's headers define __noinline__ as nothing, hence the attribute; inline keeps the ODR happy.)
#define GIO_DOUT __device__ inline __attribute__((noinline))
#endif

namespace gio {
namespace plat {

#if defined(GIO_PLATFORM_HOST)
inline bool in_kernel() { return ::gio::host::in_kernel(); }
#else
GIO_HDFN bool in_kernel() { return GIO_DEVICE_CODE; }
#endif

GIO_DFN unsigned wg_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
GIO_DFN unsigned wg_size() { return blockDim.x * blockDim.y * blockDim.z; }
GIO_DFN unsigned wg_id() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }
GIO_DFN unsigned wave_size() { return warpSize; }
GIO_DFN unsigned wave_lane() { return wg_thread() % warpSize; }
// Threads of the calling thread's wave that exist (the last wave of a work-group may be partial).
GIO_DFN unsigned wave_active() {
  unsigned base = wg_thread() - wave_lane();
  unsigned left = wg_size() - base;
  return left < (unsigned)warpSize ? left : (unsigned)warpSize;
}
GIO_DFN void wg_sync() { __syncthreads(); }
GIO_DFN void wave_sync() {
#if defined(GIO_PLATFORM_HIP)
  __builtin_amdgcn_wave_barrier();  // AMD wavefronts execute in lockstep; this orders LDS use
#else
  __syncwarp();
#endif
}

GIO_DFN void fence_wg() { __threadfence_block(); }
GIO_DFN void fence_device() { __threadfence(); }
// Full system-scope fence (sequentially consistent): orders this thread's (and, by cumulativity,
// its work-group's already-synchronized) earlier accesses before every later access, as seen by
// other GPUs and the CPU. The p2p quiet: after it, a later load must not be served before an earlier
// put is visible (store->load order, which a release fence does not give).
GIO_DFN void fence_system() { __threadfence_system(); }
// Release fence at system scope: earlier accesses are ordered before every later store. Enough for
// shmem_fence (put->put order) and before a signal store; cheaper than the sequentially consistent
// fence because nothing after it has to wait for it except stores.
GIO_DFN void fence_release_system() {
#if defined(GIO_PLATFORM_CUDA)
  asm volatile("fence.acq_rel.sys;" ::: "memory");
#elif defined(GIO_PLATFORM_HIP)
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "");  // "" = system scope
#else
  __atomic_thread_fence(__ATOMIC_RELEASE);
#endif
}

// Body of every spin-wait: on the host platform a waiting fiber must hand the core to the others.
GIO_DFN void relax() {
#if defined(GIO_PLATFORM_HOST)
  ::gio::host::yield();
#endif
}

// Nanoseconds from an arbitrary origin, for bounding waits.
GIO_DFN uint64_t clock_ns() {
#if defined(GIO_PLATFORM_CUDA)
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#elif defined(GIO_PLATFORM_HIP)
  return __builtin_amdgcn_s_memrealtime() * 10ull;  // 100 MHz constant clock on gfx9
#else
  return (uint64_t)clock64();
#endif
}

// Atomics on memory another GPU or the CPU may touch: system scope everywhere.
template <typename T>
GIO_DFN T atomic_load_acquire(const T* p) {
#if defined(GIO_PLATFORM_HIP)
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM);
#elif defined(GIO_PLATFORM_CUDA)
  // One acquire load at system scope (sm_70+): polling loops must not pay a full fence per poll.
  T v;
  if (sizeof(T) == 8) {
    unsigned long long x;
    asm volatile("ld.acquire.sys.b64 %0, [%1];" : "=l"(x) : "l"(p) : "memory");
    memcpy(&v, &x, 8);
  } else if (sizeof(T) == 4) {
    unsigned int x;
    asm volatile("ld.acquire.sys.b32 %0, [%1];" : "=r"(x) : "l"(p) : "memory");
    memcpy(&v, &x, 4);
  } else {
    v = *(const volatile T*)p;
    __threadfence_system();
  }
  return v;
#else
  const T v = __atomic_load_n(p, __ATOMIC_ACQUIRE);
  ::gio::host::wave_step();  // lockstep-wave mode: wave-mates catch up (hip_host.h)
  return v;
#endif
}

// A single-copy-atomic 8-byte store another GPU or the CPU may poll (no value comes back, so it
// costs no round trip, unlike an exchange). Ordering comes from a fence before it.
GIO_DFN void store_relaxed_system(unsigned long long* p, unsigned long long v) {
#if defined(GIO_PLATFORM_HIP)
  __hip_atomic_store(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
#elif defined(GIO_PLATFORM_CUDA)
  asm volatile("st.relaxed.sys.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
#else
  __atomic_store_n(p, v, __ATOMIC_RELAXED);
  ::gio::host::wave_step();
#endif
}

// Integer atomics of 4 and 8 bytes, by bit pattern; T is the caller's type.
template <typename T>
struct atom_bits {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "GIO atomics are 4 or 8 bytes");
  typedef typename std::conditional<sizeof(T) == 4, unsigned int, unsigned long long>::type type;
};

#if defined(GIO_PLATFORM_HOST)
#define GIO_ATOMIC_RMW(name, builtin)                                              \
  template <typename T>                                                            \
  inline T name(T* p, T v) {                                                       \
    typedef typename atom_bits<T>::type U;                                         \
    U uv;                                                                          \
    memcpy(&uv, &v, sizeof v);                                                     \
    U old = builtin((U*)p, uv, __ATOMIC_SEQ_CST);                                  \
    ::gio::host::wave_step();                                                      \
    T r;                                                                           \
    memcpy(&r, &old, sizeof r);                                                    \
    return r;                                                                      \
  }
GIO_ATOMIC_RMW(atomic_fetch_add, __atomic_fetch_add)
GIO_ATOMIC_RMW(atomic_exchange, __atomic_exchange_n)
GIO_ATOMIC_RMW(atomic_fetch_and, __atomic_fetch_and)
GIO_ATOMIC_RMW(atomic_fetch_or, __atomic_fetch_or)
GIO_ATOMIC_RMW(atomic_fetch_xor, __atomic_fetch_xor)
#undef GIO_ATOMIC_RMW
template <typename T>
inline T atomic_cas(T* p, T cmp, T v) {
  typedef typename atom_bits<T>::type U;
  U uc, uv;
  memcpy(&uc, &cmp, sizeof cmp);
  memcpy(&uv, &v, sizeof v);
  __atomic_compare_exchange_n((U*)p, &uc, uv, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  ::gio::host::wave_step();
  T r;
  memcpy(&r, &uc, sizeof r);  // on failure uc holds the value seen, on success the old value == cmp
  return r;
}
#else
#define GIO_ATOMIC_RMW(name, fn)                                                   \
  template <typename T>                                                            \
  GIO_DFN T name(T* p, T v) {                                                      \
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
GIO_DFN T atomic_cas(T* p, T cmp, T v) {
  typedef typename atom_bits<T>::type U;
  U old = atomicCAS_system((U*)p, *(U*)&cmp, *(U*)&v);
  return *(T*)&old;
}
#endif

}  // namespace plat
}  // namespace gio
#endif  // GIO_KERNEL_COMPILER
