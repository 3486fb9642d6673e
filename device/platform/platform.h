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
// Public routines of host code only (long double's, GIO_RMA_HOST_TYPES): never __device__, so a
// kernel that calls one does not compile, rather than run with nvcc's long double (double there).
#define GIO_HFN inline

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

// A routine family's macro body takes where its routines run as a token W, so one body serves both:
// GIO_FN_##W and GIO_DISPATCH_##W are GIO_HDFN and GIO_DISPATCH for W = HD (host code and kernels),
// GIO_HFN and libgio's host half alone for W = H (host code only: the device half is never named).
#define GIO_FN_HD GIO_HDFN
#define GIO_FN_H GIO_HFN
#define GIO_DISPATCH_HD(dev_stmt, host_stmt) GIO_DISPATCH(dev_stmt, host_stmt)
#define GIO_DISPATCH_H(dev_stmt, host_stmt) \
  do {                                     \
    host_stmt;                             \
  } while (0)

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
// On cuda the wave size is a constant: nvcc hands warpSize to ptxas as a run-time value (PTX's
// WARP_SZ), so `% warpSize` became a full unsigned division (a dozen instructions, MUFU.RCP among
// them) in every wave-scope call. Every NVIDIA GPU has 32 lanes.
#if defined(GIO_PLATFORM_CUDA)
GIO_DFN constexpr unsigned wave_size() { return 32; }
#else
GIO_DFN unsigned wave_size() { return warpSize; }
#endif
GIO_DFN unsigned wave_lane() { return wg_thread() % wave_size(); }
// Threads of the calling thread's wave that exist (the last wave of a work-group may be partial).
GIO_DFN unsigned wave_active() {
  unsigned base = wg_thread() - wave_lane();
  unsigned left = wg_size() - base;
  return left < wave_size() ? left : wave_size();
}
GIO_DFN void wg_sync() { __syncthreads(); }
GIO_DFN void wave_sync() {
#if defined(GIO_PLATFORM_HIP)
  __builtin_amdgcn_wave_barrier();  // AMD wavefronts execute in lockstep; this orders LDS use
#else
  __syncwarp();
#endif
}
// p, which the caller knows is the same in every lane of its wave (a cooperative call's outcome,
// computed from arguments every lane passes alike), in a form the compiler knows is the same. On
// cuda that is a vote over the whole wave (the lanes wave_sync waits for), whose result ptxas
// treats as warp-uniform: a branch on it then jumps over an out-of-line call with no convergence
// region. On a per-lane predicate ptxas opened one around the call and, its barrier being one the
// callee uses, saved and restored that barrier (BMOV) on every pass, taken or not: in a loop of
// 8-byte wave puts that was 2.7x the branch-resolving stalls and 17 % of the time against the same
// loop with a free barrier (Nsight Compute, results/2026-11-28-2xh200-s25). Elsewhere p itself.
GIO_DFN bool wave_uniform(bool p) {
#if defined(GIO_PLATFORM_CUDA)
  return __all_sync(0xffffffffu, p);
#else
  return p;
#endif
}

// ---- wave collectives over a subset of lanes --------------------------------------------------
// A mask names lanes of the calling thread's wave (bit i = lane i); 64 bits, since AMD wavefronts
// have 64 lanes. Every lane of `m` must make the same call with the same `m`, and `m` must be the
// lanes that made the previous wave call together (wave_active_mask() or a subset every member
// agrees on): on AMD the lanes of a wave run in lockstep, so a collective over lanes that are not
// all present would wait forever; on the host emulator one warp barrier serves every call site.
typedef unsigned long long wave_mask;

GIO_DFN wave_mask wave_lane_bit() { return 1ull << wave_lane(); }
GIO_DFN wave_mask wave_lanes_below() { return wave_lane_bit() - 1; }
GIO_DFN unsigned wave_count(wave_mask m) { return (unsigned)__popcll(m); }
GIO_DFN unsigned wave_lowest(wave_mask m) { return (unsigned)__ffsll((long long)m) - 1u; }
GIO_DFN unsigned wave_highest(wave_mask m) { return 63u - (unsigned)__clzll((long long)m); }

#if defined(GIO_PLATFORM_HOST)
// The emulator runs one lane at a time and switches only at waits and barriers, so "the lanes that
// call together" has to be made: a caller joins its warp's open gathering and yields once; every
// lane of the warp that reaches this point during that scheduler round joins too, and the first
// member to run again closes it. Each member only waits for its own yield to return, so lanes that
// arrive at different times just form smaller groups.
// The collectives below do not use the emulator's warp barrier: that one barrier is shared by every
// call site of a warp, so two disjoint groups of one warp would be made to wait for each other (a
// group parked in it could not publish what a lane of the other group spins on). Here a collective
// completes when the last lane of its own mask arrives, which computes every member's result.
namespace host_wave {
struct lane_slot {
  unsigned seq = 0;   // collectives this lane has entered
  unsigned done = 0;  // the last of them that has completed
  unsigned src = 0;   // shuffle source lane
  unsigned long long val = 0, out = 0;
};
struct state {
  unsigned open[32] = {};      // per warp: lanes in the gathering not yet closed
  unsigned members[1024] = {};  // per thread: the gathering it was in
  lane_slot lane[1024];
};
inline state& get() {
  static thread_local state s;  // one per OS thread, i.e. per running work-group
  return s;
}
enum op_kind { OP_SHFL, OP_BALLOT };
// Every lane of m enters with its value; the last to arrive computes each member's result.
inline unsigned long long collective(wave_mask m, op_kind kind, unsigned long long v, unsigned src) {
  state& s = get();
  const unsigned t = wg_thread(), first = t & ~31u;
  lane_slot& me = s.lane[t];
  const unsigned seq = ++me.seq;
  me.val = v;
  me.src = src;
  bool all = true;
  for (wave_mask r = m; r && all; r &= r - 1) all = s.lane[first + (unsigned)__builtin_ctzll(r)].seq == seq;
  if (all) {
    unsigned long long ballot = 0;
    for (wave_mask r = m; r; r &= r - 1) {
      const unsigned l = (unsigned)__builtin_ctzll(r);
      if (s.lane[first + l].val) ballot |= 1ull << l;
    }
    for (wave_mask r = m; r; r &= r - 1) {
      lane_slot& o = s.lane[first + (unsigned)__builtin_ctzll(r)];
      o.out = kind == OP_BALLOT ? ballot : s.lane[first + (o.src & 31u)].val;
      o.done = seq;
    }
  }
  while (me.done != seq) ::gio::host::yield();
  return me.out;
}
}  // namespace host_wave
namespace host_wave {
// Gathers the lanes that call together; each gets those of them that passed the same key.
inline wave_mask gather(unsigned long long key) {
  if (!in_kernel()) return 1;  // host code is lane 0 of a one-lane wave
  const unsigned t = wg_thread(), w = t / 32u, bit = 1u << (t % 32u);
  if (t >= 1024u) return bit;
  state& s = get();
  s.open[w] |= bit;
  s.lane[t].val = key;
  ::gio::host::yield();
  if (s.open[w] & bit) {  // first member back: nobody else can join now
    const unsigned members = s.open[w];
    s.open[w] = 0;
    // Members enter their collectives in step from here: give them one count to compare.
    unsigned top = 0;
    for (unsigned m = members; m; m &= m - 1) {
      const unsigned seq = s.lane[w * 32u + (unsigned)__builtin_ctz(m)].seq;
      top = seq > top ? seq : top;
    }
    for (unsigned m = members; m; m &= m - 1) {
      const unsigned o = w * 32u + (unsigned)__builtin_ctz(m);
      unsigned same = 0;
      for (unsigned k = members; k; k &= k - 1)
        if (s.lane[w * 32u + (unsigned)__builtin_ctz(k)].val == s.lane[o].val) same |= k & (0u - k);
      s.members[o] = same;
      s.lane[o].seq = s.lane[o].done = top;
    }
  }
  return s.members[t];
}
}  // namespace host_wave
inline wave_mask wave_active_mask() { return host_wave::gather(0); }
// A one-lane mask needs no exchange.
inline wave_mask wave_ballot(wave_mask m, bool pred) {
  if (m == wave_lane_bit() || !in_kernel()) return pred ? m & wave_lane_bit() : 0;
  return host_wave::collective(m, host_wave::OP_BALLOT, pred, 0) & m;
}
inline unsigned long long wave_shfl(wave_mask m, unsigned long long v, unsigned src_lane) {
  if (m == wave_lane_bit() || !in_kernel()) return v;
  return host_wave::collective(m, host_wave::OP_SHFL, v, src_lane);
}
inline void wave_sync_mask(wave_mask m) {
  if (m != wave_lane_bit() && in_kernel()) host_wave::collective(m, host_wave::OP_BALLOT, 0, 0);
}
#elif defined(GIO_PLATFORM_HIP)
// The exec mask: exactly the lanes executing this instruction.
GIO_DFN wave_mask wave_active_mask() { return __ballot(1); }
GIO_DFN wave_mask wave_ballot(wave_mask m, bool pred) { return __ballot(pred) & m; }
GIO_DFN unsigned long long wave_shfl(wave_mask, unsigned long long v, unsigned src_lane) {
  return __shfl(v, (int)src_lane);
}
// Lanes of a wavefront cannot drift apart; this only keeps the compiler from moving memory
// accesses across the point.
GIO_DFN void wave_sync_mask(wave_mask) { __builtin_amdgcn_wave_barrier(); }
#else
// A lane alone in m executes no warp-synchronous instruction: it has nobody to exchange with, and a
// cooperative scope's gda or proxy post is always one lane (dispatch.h), so the post skips the
// match, shuffle and sync. (Session 20 suspected these one-lane instructions of releasing the other
// lanes' __syncwarp(); the probe results/probes/warpsync_alone.cu showed they do not, on H200. The
// real cause was a __syncwarp() that ptxas compiled away: dispatch.h, lane_done.)
GIO_DFN bool wave_alone(wave_mask m) { return m == wave_lane_bit(); }
GIO_DFN wave_mask wave_active_mask() { return __activemask(); }
GIO_DFN wave_mask wave_ballot(wave_mask m, bool pred) {
  return wave_alone(m) ? (pred ? m : 0) : __ballot_sync((unsigned)m, pred);
}
GIO_DFN unsigned long long wave_shfl(wave_mask m, unsigned long long v, unsigned src_lane) {
  return wave_alone(m) ? v : __shfl_sync((unsigned)m, v, (int)src_lane);
}
// Also orders the memory accesses of the lanes in m (CUDA's __syncwarp guarantee).
GIO_DFN void wave_sync_mask(wave_mask m) {
  if (!wave_alone(m)) __syncwarp((unsigned)m);
}
#endif

// The lanes of m whose key equals the caller's. CUDA sm_70+ has it in hardware; elsewhere the
// lowest unmatched lane's key is broadcast, once per distinct key. Every lane of m stays for every
// round (an AMD wave pays the rounds anyway), so each collective runs on exactly m.
GIO_DFN wave_mask wave_match(wave_mask m, unsigned long long key) {
#if defined(GIO_PLATFORM_CUDA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  return wave_alone(m) ? m : __match_any_sync((unsigned)m, key);  // (wave_alone: see wave_shfl)
#else
  wave_mask mine = 0;
  for (wave_mask left = m; left;) {
    const unsigned long long k = wave_shfl(m, key, wave_lowest(left));
    const wave_mask same = wave_ballot(m, key == k);
    if (key == k) mine = same;
    left &= ~same;
  }
  return mine;
#endif
}

// The lanes of the wave that make this call together and pass the same key (the host emulator
// gathers and matches in one step, with no exchange).
GIO_DFN wave_mask wave_active_match(unsigned long long key) {
#if defined(GIO_PLATFORM_HOST)
  return host_wave::gather(key);
#else
  return wave_match(wave_active_mask(), key);
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
// Adds v to an 8-byte word another GPU or the CPU may poll, with nothing coming back (ordering from
// a fence before it). On cuda one `red`: atomicAdd_system with its result unused compiled to a
// returning ATOMG inside GIO's signal paths (REDG only in a plain kernel).
GIO_DFN void red_add_system(unsigned long long* p, unsigned long long v) {
#if defined(GIO_PLATFORM_HIP)
  (void)__hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
#elif defined(GIO_PLATFORM_CUDA)
  // In the global space: a generic red compiled to a returning ATOM (behind a shared-window test).
  asm volatile("red.relaxed.sys.global.add.u64 [%0], %1;" ::"l"(__cvta_generic_to_global(p)), "l"(v) : "memory");
#else
  // Sequentially consistent, as the host's other RMWs: ThreadSanitizer ignores the standalone
  // fence before it, and sees the release here.
  __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
  ::gio::host::wave_step();
#endif
}
// An 8-byte store that publishes this thread's earlier stores to a CPU thread polling the word
// (a proxy command's sequence word): system-scope release fence, then the store. On the host
// platform one release store, the form ThreadSanitizer models.
GIO_DFN void store_release_system(unsigned long long* p, unsigned long long v) {
#if defined(GIO_PLATFORM_HOST)
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
  ::gio::host::wave_step();
#else
  fence_release_system();
  store_relaxed_system(p, v);
#endif
}
// A poll of a byte or half-word another agent (the NIC) writes, whose order the caller sets with
// its own fence: a volatile load on GPUs; on the host platform an acquire load, the form the
// compiler's memory model (and ThreadSanitizer) knows for a word another thread writes.
template <typename T>
GIO_DFN T load_polled(const T* p) {
#if defined(GIO_PLATFORM_HOST)
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#else
  return *(volatile const T*)p;
#endif
}

// A word the NIC (for the softnic, a CPU thread) reads to learn that the stores before it are
// complete (a doorbell record), written right after the caller's system fence. On GPUs that fence
// already orders the earlier stores, so the store itself is relaxed: a release store there cost
// about 5 % more per post on H200 (results/2026-11-24-h200-s6). On the host platform it is a release
// store, the form ThreadSanitizer understands (it does not model standalone fences).
GIO_DFN void store_after_fence_system(uint32_t* p, uint32_t v) {
#if defined(GIO_PLATFORM_HIP)
  __hip_atomic_store(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
#elif defined(GIO_PLATFORM_CUDA)
  asm volatile("st.relaxed.sys.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
#else
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
#endif
}

// ---- device scope: words only this GPU's threads touch --------------------------------------
// (the gda queues' reserved / published / completed counters: in GPU memory, read by no CPU, NIC or
// other GPU). On GPUs these stay in the GPU's L2: no system-scope round trip, no system fence. On the
// host platform every GPU thread is a CPU thread, so they are the std atomics they always were.

// A ticket: a relaxed fetch-add (nothing is ordered by it).
GIO_DFN unsigned long long atomic_fetch_add_device(unsigned long long* p, unsigned long long v) {
#if defined(GIO_PLATFORM_HIP)
  return __hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
#elif defined(GIO_PLATFORM_CUDA)
  return atomicAdd(p, v);  // atom.add: relaxed, gpu scope
#else
  const unsigned long long old = __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
  ::gio::host::wave_step();
  return old;
#endif
}
// An acquire load at device scope: later accesses of this thread are ordered after it (one L2 read;
// the system-scope form also has to reach past the GPU).
GIO_DFN unsigned long long atomic_load_acquire_device(const unsigned long long* p) {
#if defined(GIO_PLATFORM_HIP)
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
#elif defined(GIO_PLATFORM_CUDA)
  unsigned long long v;
  asm volatile("ld.acquire.gpu.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
#else
  const unsigned long long v = __atomic_load_n(p, __ATOMIC_ACQUIRE);
  ::gio::host::wave_step();
  return v;
#endif
}
// A device-scope load whose ordering comes from the caller's next acq_rel fence (ld.relaxed +
// fence.acq_rel is an acquire pattern), so it can be in flight together with other loads instead of
// waiting for an acquire of its own. On the host platform an acquire load: ThreadSanitizer does not
// model standalone fences, and on x86 the acquire costs nothing.
GIO_DFN unsigned long long load_before_fence_device(const unsigned long long* p) {
#if defined(GIO_PLATFORM_HIP)
  return __hip_atomic_load(p, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
#elif defined(GIO_PLATFORM_CUDA)
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
#else
  const unsigned long long v = __atomic_load_n(p, __ATOMIC_ACQUIRE);
  ::gio::host::wave_step();
  return v;
#endif
}
// A release store at device scope: this thread's earlier accesses (and, cumulatively, what it has
// observed) are visible to this GPU's threads before the store is. A store, not an exchange: no value
// comes back, so nothing waits for a round trip.
GIO_DFN void store_release_device(unsigned long long* p, unsigned long long v) {
#if defined(GIO_PLATFORM_HIP)
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
#elif defined(GIO_PLATFORM_CUDA)
  asm volatile("st.release.gpu.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
#else
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
  ::gio::host::wave_step();
#endif
}

// Acquire-release fences. Release half: this thread's earlier accesses (and what it observed) are
// ordered before its later stores; acquire half: its earlier loads before its later accesses. Not
// sequentially consistent: a later load may still be served before an earlier store is visible,
// which is what makes them cheaper than fence_system (CUDA: MEMBAR.ALL.* instead of MEMBAR.SC.*).
GIO_DFN void fence_acq_rel_system() {
#if defined(GIO_PLATFORM_CUDA)
  asm volatile("fence.acq_rel.sys;" ::: "memory");
#elif defined(GIO_PLATFORM_HIP)
  __builtin_amdgcn_fence(__ATOMIC_ACQ_REL, "");  // "" = system scope
#else
  __atomic_thread_fence(__ATOMIC_ACQ_REL);
#endif
}
GIO_DFN void fence_acq_rel_device() {
#if defined(GIO_PLATFORM_CUDA)
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
#elif defined(GIO_PLATFORM_HIP)
  __builtin_amdgcn_fence(__ATOMIC_ACQ_REL, "agent");
#else
  __atomic_thread_fence(__ATOMIC_ACQ_REL);
#endif
}
// An 8-byte release store at system or device scope (an MMIO doorbell, a word a NIC reads): release
// fence and store in one (CUDA st.release: MEMBAR.ALL then the store, without the L1 invalidation a
// standalone acq_rel fence adds).
GIO_DFN void store_release_system_or_device(unsigned long long* p, unsigned long long v, bool system) {
#if defined(GIO_PLATFORM_HIP)
  (void)system;  // AMD: always system scope (PCIe readers of VRAM go through the HDP, not the L2)
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);
#elif defined(GIO_PLATFORM_CUDA)
  if (system)
    asm volatile("st.release.sys.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
  else
    asm volatile("st.release.gpu.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
#else
  (void)system;
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
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
