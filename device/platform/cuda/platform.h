// The cuda platform (nvcc): the gio::plat names on CUDA. Selected by device/platform/platform.h.
#pragma once
#include "runtime/cuda_hip_compat.h"  // the HIP names on CUDA

#if defined(__CUDA_ARCH__)
#define GIO_DEVICE_CODE 1
#else
#define GIO_DEVICE_CODE 0
#endif
// Is this translation unit compiled by a kernel compiler (so it may define kernels and device state)?
#if defined(__CUDACC__)
#define GIO_KERNEL_COMPILER 1
#else
#define GIO_KERNEL_COMPILER 0
#endif

#include "device/platform/gpu_forms.h"  // the dispatch macro and the kernel qualifiers

#if GIO_KERNEL_COMPILER

namespace gio {
namespace plat {
GIO_HOST_DEVICE_INLINE bool in_kernel() { return GIO_DEVICE_CODE; }
// On cuda the wave size is a constant: nvcc hands warpSize to ptxas as a run-time value (PTX's
// WARP_SZ), so `% warpSize` became a full unsigned division (a dozen instructions, MUFU.RCP among
// them) in every wave-scope call. Every NVIDIA GPU has 32 lanes.
GIO_DEVICE_INLINE constexpr unsigned wave_size() { return 32; }
}  // namespace plat
}  // namespace gio

#include "device/platform/ids.h"

namespace gio {
namespace plat {

GIO_DEVICE_INLINE void wave_sync() { __syncwarp(); }
// p, which the caller knows is the same in every lane of its wave (a cooperative call's outcome,
// computed from arguments every lane passes alike), in a form the compiler knows is the same. On
// cuda that is a vote over the whole wave (the lanes wave_sync waits for), whose result ptxas
// treats as warp-uniform: a branch on it then jumps over an out-of-line call with no convergence
// region. On a per-lane predicate ptxas opened one around the call and, its barrier being one the
// callee uses, saved and restored that barrier (BMOV) on every pass, taken or not: in a loop of
// 8-byte wave puts that was 2.7x the branch-resolving stalls and 17 % of the time against the same
// loop with a free barrier (Nsight Compute on gio-bench msgrate --scope wave; tests/sass/check_call_branch.py checks it). Elsewhere p itself.
GIO_DEVICE_INLINE bool wave_uniform(bool p) { return __all_sync(0xffffffffu, p); }

// A lane alone in m executes no warp-synchronous instruction: it has nobody to exchange with, and a
// cooperative scope's gda or proxy post is always one lane (dispatch.h), so the post skips the
// match, shuffle and sync. (These one-lane instructions do not release the other lanes'
// __syncwarp() on H200: apps/bench/probes/warpsync_alone.cu. What can drop a wave's sync is a
// __syncwarp() that ptxas compiles away: device/dispatch/dispatch.h, lane_done.)
GIO_DEVICE_INLINE bool wave_alone(wave_mask m) { return m == wave_lane_bit(); }
GIO_DEVICE_INLINE wave_mask wave_active_mask() { return __activemask(); }
GIO_DEVICE_INLINE wave_mask wave_ballot(wave_mask m, bool pred) {
  return wave_alone(m) ? (pred ? m : 0) : __ballot_sync((unsigned)m, pred);
}
GIO_DEVICE_INLINE unsigned long long wave_shfl(wave_mask m, unsigned long long v, unsigned src_lane) {
  return wave_alone(m) ? v : __shfl_sync((unsigned)m, v, (int)src_lane);
}
// Also orders the memory accesses of the lanes in m (CUDA's __syncwarp guarantee).
GIO_DEVICE_INLINE void wave_sync_mask(wave_mask m) {
  if (!wave_alone(m)) __syncwarp((unsigned)m);
}

}  // namespace plat
}  // namespace gio

#include "device/platform/wave_rounds.h"

namespace gio {
namespace plat {

// The lanes of m whose key equals the caller's: in hardware on sm_70+, else by rounds (wave_rounds.h).
GIO_DEVICE_INLINE wave_mask wave_match(wave_mask m, unsigned long long key) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  return wave_alone(m) ? m : __match_any_sync((unsigned)m, key);  // (wave_alone: see wave_shfl)
#else
  return wave_match_rounds(m, key);
#endif
}

// The lanes of the wave that make this call together and pass the same key.
GIO_DEVICE_INLINE wave_mask wave_active_match(unsigned long long key) {
  return wave_match(wave_active_mask(), key);
}

// Full system-scope fence (sequentially consistent): orders this thread's (and, by cumulativity,
// its work-group's already-synchronized) earlier accesses before every later access, as seen by
// other GPUs and the CPU. The p2p quiet: after it, a later load must not be served before an earlier
// put is visible (store->load order, which a release fence does not give).
GIO_DEVICE_INLINE void fence_system() { __threadfence_system(); }
// Release fence at system scope: earlier accesses are ordered before every later store. Enough for
// shmem_fence (put->put order) and before a signal store; cheaper than the sequentially consistent
// fence because nothing after it has to wait for it except stores.
GIO_DEVICE_INLINE void fence_release_system() {
  asm volatile("fence.acq_rel.sys;" ::: "memory");
}

// An address of global memory computed as an integer, as a pointer the compiler knows is global, so
// its stores are st.global (STG) rather than generic (the global window of the generic space is the
// identity). A peer's p2p heap mapping is global memory.
GIO_DEVICE_INLINE uint8_t* global_ptr(uintptr_t a) { return (uint8_t*)__cvta_global_to_generic((size_t)a); }

// A thread's put of up to 128 bytes takes the inline copy (device/core/copy.h copy_thread_small)
// before the transport switch (hip/platform.h says why this is the platform's choice).
constexpr bool thread_put_inline = true;

// Body of every spin-wait: on the host platform a waiting fiber must hand the core to the others.
GIO_DEVICE_INLINE void relax() {
}

// Nanoseconds from an arbitrary origin, for bounding waits.
GIO_DEVICE_INLINE uint64_t clock_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Atomics on memory another GPU or the CPU may touch: system scope everywhere.
template <typename T>
GIO_DEVICE_INLINE T atomic_load_acquire(const T* p) {
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
}

// A single-copy-atomic 8-byte store another GPU or the CPU may poll (no value comes back, so it
// costs no round trip, unlike an exchange). Ordering comes from a fence before it.
GIO_DEVICE_INLINE void store_relaxed_system(unsigned long long* p, unsigned long long v) {
  asm volatile("st.relaxed.sys.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
// Adds v to an 8-byte word another GPU or the CPU may poll, with nothing coming back (ordering from
// a fence before it). On cuda one `red`: atomicAdd_system with its result unused compiled to a
// returning ATOMG inside GIO's signal paths (REDG only in a plain kernel).
GIO_DEVICE_INLINE void red_add_system(unsigned long long* p, unsigned long long v) {
  // In the global space: a generic red compiled to a returning ATOM (behind a shared-window test).
  asm volatile("red.relaxed.sys.global.add.u64 [%0], %1;" ::"l"(__cvta_generic_to_global(p)), "l"(v) : "memory");
}
// An 8-byte store that publishes this thread's earlier stores to a CPU thread polling the word
// (a proxy command's sequence word): system-scope release fence, then the store. On the host
// platform one release store, the form ThreadSanitizer models.
GIO_DEVICE_INLINE void store_release_system(unsigned long long* p, unsigned long long v) {
  fence_release_system();
  store_relaxed_system(p, v);
}
// A poll of a byte or half-word another agent (the NIC) writes, whose order the caller sets with
// its own fence: a volatile load on GPUs; on the host platform an acquire load, the form the
// compiler's memory model (and ThreadSanitizer) knows for a word another thread writes.
template <typename T>
GIO_DEVICE_INLINE T load_polled(const T* p) {
  return *(volatile const T*)p;
}

// A word the NIC (for the softnic, a CPU thread) reads to learn that the stores before it are
// complete (a doorbell record), written right after the caller's system fence. On GPUs that fence
// already orders the earlier stores, so the store itself is relaxed: a release store there cost
// about 5 % more per post on H200 (gio-gda-post, apps/gda_post). On the host platform it is a release
// store, the form ThreadSanitizer understands (it does not model standalone fences).
GIO_DEVICE_INLINE void store_after_fence_system(uint32_t* p, uint32_t v) {
  asm volatile("st.relaxed.sys.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// ---- device scope: words only this GPU's threads touch --------------------------------------
// (the gda queues' reserved / published / completed counters: in GPU memory, read by no CPU, NIC or
// other GPU). On GPUs these stay in the GPU's L2: no system-scope round trip, no system fence. On the
// host platform every GPU thread is a CPU thread, so they are the std atomics they always were.

// A ticket: a relaxed fetch-add (nothing is ordered by it).
GIO_DEVICE_INLINE unsigned long long atomic_fetch_add_device(unsigned long long* p, unsigned long long v) {
  return atomicAdd(p, v);  // atom.add: relaxed, gpu scope
}
// An acquire load at device scope: later accesses of this thread are ordered after it (one L2 read;
// the system-scope form also has to reach past the GPU).
GIO_DEVICE_INLINE unsigned long long atomic_load_acquire_device(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.acquire.gpu.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
// A device-scope load whose ordering comes from the caller's next acq_rel fence (ld.relaxed +
// fence.acq_rel is an acquire pattern), so it can be in flight together with other loads instead of
// waiting for an acquire of its own. On the host platform an acquire load: ThreadSanitizer does not
// model standalone fences, and on x86 the acquire costs nothing.
GIO_DEVICE_INLINE unsigned long long load_before_fence_device(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
// A release store at device scope: this thread's earlier accesses (and, cumulatively, what it has
// observed) are visible to this GPU's threads before the store is. A store, not an exchange: no value
// comes back, so nothing waits for a round trip.
GIO_DEVICE_INLINE void store_release_device(unsigned long long* p, unsigned long long v) {
  asm volatile("st.release.gpu.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

// Acquire-release fences. Release half: this thread's earlier accesses (and what it observed) are
// ordered before its later stores; acquire half: its earlier loads before its later accesses. Not
// sequentially consistent: a later load may still be served before an earlier store is visible,
// which is what makes them cheaper than fence_system (CUDA: MEMBAR.ALL.* instead of MEMBAR.SC.*).
GIO_DEVICE_INLINE void fence_acq_rel_system() {
  asm volatile("fence.acq_rel.sys;" ::: "memory");
}
GIO_DEVICE_INLINE void fence_acq_rel_device() {
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
}
// An 8-byte release store at system or device scope (an MMIO doorbell, a word a NIC reads): release
// fence and store in one (CUDA st.release: MEMBAR.ALL then the store, without the L1 invalidation a
// standalone acq_rel fence adds).
GIO_DEVICE_INLINE void store_release_system_or_device(unsigned long long* p, unsigned long long v, bool system) {
  if (system)
    asm volatile("st.release.sys.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
  else
    asm volatile("st.release.gpu.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

#include "device/platform/gpu_atomics.h"  // system-scope atomics, alike on cuda and hip

// Stops the kernel on a fatal error: a trap, which the launcher reports as a failed launch.
[[noreturn]] GIO_DEVICE_INLINE void stop(int status) {
  (void)status;
  __trap();
  __builtin_unreachable();
}
// A device wait spans one of these (Site::tag names its call site), and calls wait_report() when it times out: the host
// emulator's lockstep waves use them (host/platform.h); a GPU has nothing to track.
template <typename Site>
struct wait_scope {};
GIO_DEVICE_INLINE void wait_report() {}

}  // namespace plat
}  // namespace gio
#endif  // GIO_KERNEL_COMPILER
