// The hip platform (hipcc): the gio::plat names on ROCm. Selected by device/platform/platform.h.
#pragma once
#include <hip/hip_runtime.h>

#if defined(__HIP_DEVICE_COMPILE__)
#define GIO_DEVICE_CODE 1
#else
#define GIO_DEVICE_CODE 0
#endif
// Is this translation unit compiled by a kernel compiler (so it may define kernels and device state)?
#if defined(__HIPCC__)
#define GIO_KERNEL_COMPILER 1
#else
#define GIO_KERNEL_COMPILER 0
#endif

#include "device/platform/gpu_forms.h"  // the dispatch macro and the kernel qualifiers

#if GIO_KERNEL_COMPILER

namespace gio {
namespace plat {
GIO_HOST_DEVICE_INLINE bool in_kernel() { return GIO_DEVICE_CODE; }
GIO_DEVICE_INLINE unsigned wave_size() { return warpSize; }
}  // namespace plat
}  // namespace gio

#include "device/platform/ids.h"

namespace gio {
namespace plat {

GIO_DEVICE_INLINE void wave_sync() {
  __builtin_amdgcn_wave_barrier();  // AMD wavefronts execute in lockstep; this orders LDS use
}
// p, which the caller knows is the same in every lane of its wave (a cooperative call's outcome),
// in a form the compiler knows is the same: p itself here (cuda needs a vote, cuda/platform.h).
GIO_DEVICE_INLINE bool wave_uniform(bool p) { return p; }

// The exec mask: exactly the lanes executing this instruction.
GIO_DEVICE_INLINE wave_mask wave_active_mask() { return __ballot(1); }
GIO_DEVICE_INLINE wave_mask wave_ballot(wave_mask m, bool pred) { return __ballot(pred) & m; }
GIO_DEVICE_INLINE unsigned long long wave_shfl(wave_mask, unsigned long long v, unsigned src_lane) {
  return __shfl(v, (int)src_lane);
}
// Lanes of a wavefront cannot drift apart; this only keeps the compiler from moving memory
// accesses across the point.
GIO_DEVICE_INLINE void wave_sync_mask(wave_mask) { __builtin_amdgcn_wave_barrier(); }

}  // namespace plat
}  // namespace gio

#include "device/platform/wave_rounds.h"

namespace gio {
namespace plat {

// The lanes of m whose key equals the caller's (by rounds: wave_rounds.h).
GIO_DEVICE_INLINE wave_mask wave_match(wave_mask m, unsigned long long key) {
  return wave_match_rounds(m, key);
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
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "");  // "" = system scope
}

// An address of global memory computed as an integer, as a pointer (cuda: one the compiler knows
// is global).
GIO_DEVICE_INLINE uint8_t* global_ptr(uintptr_t a) { return (uint8_t*)a; }

// Whether a thread's put of up to 128 bytes takes the inline copy (device/core/copy.h
// copy_thread_small) before the transport switch (device/dispatch/dispatch.h put). Not here: the
// kernels of tests/func/test_lock.cpp already spill registers at the 128-VGPR cap of a 1024-lane
// work-group, and the inline copy's one-byte form (up to 16 predicated byte loads, then stores)
// makes Debian's hipcc 5.2 (clang 15) stop there with "unhandled SGPR spill to memory", a defect of
// its AMDGPU backend under register pressure. A thread's put goes straight to the switch.
constexpr bool thread_put_inline = false;

// Body of every spin-wait: on the host platform a waiting fiber must hand the core to the others.
GIO_DEVICE_INLINE void relax() {
}

// Nanoseconds from an arbitrary origin, for bounding waits.
GIO_DEVICE_INLINE uint64_t clock_ns() {
  return __builtin_amdgcn_s_memrealtime() * 10ull;  // 100 MHz constant clock on gfx9
}

// Atomics on memory another GPU or the CPU may touch: system scope everywhere.
template <typename T>
GIO_DEVICE_INLINE T atomic_load_acquire(const T* p) {
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM);
}

// A single-copy-atomic 8-byte store another GPU or the CPU may poll (no value comes back, so it
// costs no round trip, unlike an exchange). Ordering comes from a fence before it.
GIO_DEVICE_INLINE void store_relaxed_system(unsigned long long* p, unsigned long long v) {
  __hip_atomic_store(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
}
// Adds v to an 8-byte word another GPU or the CPU may poll, with nothing coming back (ordering from
// a fence before it). On cuda one `red`: atomicAdd_system with its result unused compiled to a
// returning ATOMG inside GIO's signal paths (REDG only in a plain kernel).
GIO_DEVICE_INLINE void red_add_system(unsigned long long* p, unsigned long long v) {
  (void)__hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
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
  __hip_atomic_store(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
}

// ---- device scope: words only this GPU's threads touch --------------------------------------
// (the gda queues' reserved / published / completed counters: in GPU memory, read by no CPU, NIC or
// other GPU). On GPUs these stay in the GPU's L2: no system-scope round trip, no system fence. On the
// host platform every GPU thread is a CPU thread, so they are the std atomics they always were.

// A ticket: a relaxed fetch-add (nothing is ordered by it).
GIO_DEVICE_INLINE unsigned long long atomic_fetch_add_device(unsigned long long* p, unsigned long long v) {
  return __hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
// An acquire load at device scope: later accesses of this thread are ordered after it (one L2 read;
// the system-scope form also has to reach past the GPU).
GIO_DEVICE_INLINE unsigned long long atomic_load_acquire_device(const unsigned long long* p) {
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
}
// A device-scope load whose ordering comes from the caller's next acq_rel fence (ld.relaxed +
// fence.acq_rel is an acquire pattern), so it can be in flight together with other loads instead of
// waiting for an acquire of its own. On the host platform an acquire load: ThreadSanitizer does not
// model standalone fences, and on x86 the acquire costs nothing.
GIO_DEVICE_INLINE unsigned long long load_before_fence_device(const unsigned long long* p) {
  return __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
// A release store at device scope: this thread's earlier accesses (and, cumulatively, what it has
// observed) are visible to this GPU's threads before the store is. A store, not an exchange: no value
// comes back, so nothing waits for a round trip.
GIO_DEVICE_INLINE void store_release_device(unsigned long long* p, unsigned long long v) {
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
}

// Acquire-release fences. Release half: this thread's earlier accesses (and what it observed) are
// ordered before its later stores; acquire half: its earlier loads before its later accesses. Not
// sequentially consistent: a later load may still be served before an earlier store is visible,
// which is what makes them cheaper than fence_system (CUDA: MEMBAR.ALL.* instead of MEMBAR.SC.*).
GIO_DEVICE_INLINE void fence_acq_rel_system() {
  __builtin_amdgcn_fence(__ATOMIC_ACQ_REL, "");  // "" = system scope
}
GIO_DEVICE_INLINE void fence_acq_rel_device() {
  __builtin_amdgcn_fence(__ATOMIC_ACQ_REL, "agent");
}
// An 8-byte release store at system or device scope (an MMIO doorbell, a word a NIC reads): release
// fence and store in one (CUDA st.release: MEMBAR.ALL then the store, without the L1 invalidation a
// standalone acq_rel fence adds).
GIO_DEVICE_INLINE void store_release_system_or_device(unsigned long long* p, unsigned long long v, bool system) {
  (void)system;  // AMD: always system scope (PCIe readers of VRAM go through the HDP, not the L2)
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);
}

#include "device/platform/gpu_atomics.h"  // system-scope atomics, alike on cuda and hip

// Stops the kernel on a fatal error: a trap, which the launcher reports as a failed launch.
[[noreturn]] GIO_DEVICE_INLINE void stop(int status) {
  (void)status;
  __builtin_trap();
}
// A device wait spans one of these (Site::tag names its call site), and calls wait_report() when it times out: the host
// emulator's lockstep waves use them (host/platform.h); a GPU has nothing to track.
template <typename Site>
struct wait_scope {};
GIO_DEVICE_INLINE void wait_report() {}

}  // namespace plat
}  // namespace gio
#endif  // GIO_KERNEL_COMPILER
