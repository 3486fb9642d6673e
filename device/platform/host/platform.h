// The host platform (the CPU emulator, hip_host.h): the gio::plat names on CPU threads and fibers.
// Selected by device/platform/platform.h. Host code and kernels are one compilation here, so
// in_kernel() tells them apart at run time.
#pragma once
#include <stdio.h>

#include "device/platform/host/hip_host.h"
#include "runtime/module_abi.h"  // gio_host_abort

#define GIO_DEVICE_CODE 0
// Every translation unit may define kernels: they are plain C++ here.
#define GIO_KERNEL_COMPILER 1

// GIO_DISPATCH_HOST_DEVICE(device_stmt, host_stmt): the device half in kernels, libgio's host half elsewhere.
#define GIO_DISPATCH_HOST_DEVICE(dev_stmt, host_stmt)  \
  do {                                     \
    if (::gio::host::in_kernel()) {        \
      dev_stmt;                            \
    } else {                               \
      host_stmt;                           \
    }                                      \
  } while (0)

#include "device/platform/forms.h"

#if GIO_KERNEL_COMPILER
// Device messages (GIO_DEV_FATAL, device/core/check.h).
#define GIO_DEV_PRINT(...) fprintf(stderr, __VA_ARGS__)
// GIO_DEVICE_INLINE: the fast path, inlined into the caller. GIO_DEVICE_NOINLINE: called, not inlined, on GPUs: the
// gda posting path and every diagnostic (device printf expands to a lot of code, and inlining it at
// each of hundreds of call sites multiplied compile time and code size for nothing on the fast path).
#define GIO_DEVICE_INLINE inline
#define GIO_DEVICE_NOINLINE inline
#define GIO_DEVICE_NOINLINE_TEMPLATE inline
#define GIO_UNROLL _Pragma("GCC unroll 8")

namespace gio {
namespace plat {
inline bool in_kernel() { return ::gio::host::in_kernel(); }
GIO_DEVICE_INLINE unsigned wave_size() { return warpSize; }
}  // namespace plat
}  // namespace gio

#include "device/platform/ids.h"

namespace gio {
namespace plat {

GIO_DEVICE_INLINE void wave_sync() { __syncwarp(); }
// p, which the caller knows is the same in every lane of its wave (a cooperative call's outcome),
// in a form the compiler knows is the same: p itself here (cuda needs a vote, cuda/platform.h).
GIO_DEVICE_INLINE bool wave_uniform(bool p) { return p; }

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

}  // namespace plat
}  // namespace gio

#include "device/platform/wave_rounds.h"

namespace gio {
namespace plat {

// The lanes of m whose key equals the caller's (by rounds: wave_rounds.h).
GIO_DEVICE_INLINE wave_mask wave_match(wave_mask m, unsigned long long key) {
  return wave_match_rounds(m, key);
}

// The lanes of the wave that make this call together and pass the same key (the host emulator
// gathers and matches in one step, with no exchange).
GIO_DEVICE_INLINE wave_mask wave_active_match(unsigned long long key) {
  return host_wave::gather(key);
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
  __atomic_thread_fence(__ATOMIC_RELEASE);
}

// An address of global memory computed as an integer, as a pointer (cuda: one the compiler knows
// is global).
GIO_DEVICE_INLINE uint8_t* global_ptr(uintptr_t a) { return (uint8_t*)a; }

// A thread's put of up to 128 bytes takes the inline copy (device/core/copy.h copy_thread_small)
// before the transport switch, as on cuda (hip/platform.h says why this is the platform's choice).
constexpr bool thread_put_inline = true;

// Body of every spin-wait: on the host platform a waiting fiber must hand the core to the others.
GIO_DEVICE_INLINE void relax() {
  ::gio::host::yield();
}

// Nanoseconds from an arbitrary origin, for bounding waits.
GIO_DEVICE_INLINE uint64_t clock_ns() {
  return (uint64_t)clock64();
}

// Atomics on memory another GPU or the CPU may touch: system scope everywhere.
template <typename T>
GIO_DEVICE_INLINE T atomic_load_acquire(const T* p) {
  const T v = __atomic_load_n(p, __ATOMIC_ACQUIRE);
  ::gio::host::wave_step();  // lockstep-wave mode: wave-mates catch up (hip_host.h)
  return v;
}

// A single-copy-atomic 8-byte store another GPU or the CPU may poll (no value comes back, so it
// costs no round trip, unlike an exchange). Ordering comes from a fence before it.
GIO_DEVICE_INLINE void store_relaxed_system(unsigned long long* p, unsigned long long v) {
  __atomic_store_n(p, v, __ATOMIC_RELAXED);
  ::gio::host::wave_step();
}
// Adds v to an 8-byte word another GPU or the CPU may poll, with nothing coming back (ordering from
// a fence before it). On cuda one `red`: atomicAdd_system with its result unused compiled to a
// returning ATOMG inside GIO's signal paths (REDG only in a plain kernel).
GIO_DEVICE_INLINE void red_add_system(unsigned long long* p, unsigned long long v) {
  // Sequentially consistent, as the host's other RMWs: ThreadSanitizer ignores the standalone
  // fence before it, and sees the release here.
  __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
  ::gio::host::wave_step();
}
// An 8-byte store that publishes this thread's earlier stores to a CPU thread polling the word
// (a proxy command's sequence word): system-scope release fence, then the store. On the host
// platform one release store, the form ThreadSanitizer models.
GIO_DEVICE_INLINE void store_release_system(unsigned long long* p, unsigned long long v) {
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
  ::gio::host::wave_step();
}
// A poll of a byte or half-word another agent (the NIC) writes, whose order the caller sets with
// its own fence: a volatile load on GPUs; on the host platform an acquire load, the form the
// compiler's memory model (and ThreadSanitizer) knows for a word another thread writes.
template <typename T>
GIO_DEVICE_INLINE T load_polled(const T* p) {
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

// A word the NIC (for the softnic, a CPU thread) reads to learn that the stores before it are
// complete (a doorbell record), written right after the caller's system fence. On GPUs that fence
// already orders the earlier stores, so the store itself is relaxed: a release store there cost
// about 5 % more per post on H200 (gio-gda-post, apps/gda_post). On the host platform it is a release
// store, the form ThreadSanitizer understands (it does not model standalone fences).
GIO_DEVICE_INLINE void store_after_fence_system(uint32_t* p, uint32_t v) {
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

// ---- device scope: words only this GPU's threads touch --------------------------------------
// (the gda queues' reserved / published / completed counters: in GPU memory, read by no CPU, NIC or
// other GPU). On GPUs these stay in the GPU's L2: no system-scope round trip, no system fence. On the
// host platform every GPU thread is a CPU thread, so they are the std atomics they always were.

// A ticket: a relaxed fetch-add (nothing is ordered by it).
GIO_DEVICE_INLINE unsigned long long atomic_fetch_add_device(unsigned long long* p, unsigned long long v) {
  const unsigned long long old = __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
  ::gio::host::wave_step();
  return old;
}
// An acquire load at device scope: later accesses of this thread are ordered after it (one L2 read;
// the system-scope form also has to reach past the GPU).
GIO_DEVICE_INLINE unsigned long long atomic_load_acquire_device(const unsigned long long* p) {
  const unsigned long long v = __atomic_load_n(p, __ATOMIC_ACQUIRE);
  ::gio::host::wave_step();
  return v;
}
// A device-scope load whose ordering comes from the caller's next acq_rel fence (ld.relaxed +
// fence.acq_rel is an acquire pattern), so it can be in flight together with other loads instead of
// waiting for an acquire of its own. On the host platform an acquire load: ThreadSanitizer does not
// model standalone fences, and on x86 the acquire costs nothing.
GIO_DEVICE_INLINE unsigned long long load_before_fence_device(const unsigned long long* p) {
  const unsigned long long v = __atomic_load_n(p, __ATOMIC_ACQUIRE);
  ::gio::host::wave_step();
  return v;
}
// A release store at device scope: this thread's earlier accesses (and, cumulatively, what it has
// observed) are visible to this GPU's threads before the store is. A store, not an exchange: no value
// comes back, so nothing waits for a round trip.
GIO_DEVICE_INLINE void store_release_device(unsigned long long* p, unsigned long long v) {
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
  ::gio::host::wave_step();
}

// Acquire-release fences. Release half: this thread's earlier accesses (and what it observed) are
// ordered before its later stores; acquire half: its earlier loads before its later accesses. Not
// sequentially consistent: a later load may still be served before an earlier store is visible,
// which is what makes them cheaper than fence_system (CUDA: MEMBAR.ALL.* instead of MEMBAR.SC.*).
GIO_DEVICE_INLINE void fence_acq_rel_system() {
  __atomic_thread_fence(__ATOMIC_ACQ_REL);
}
GIO_DEVICE_INLINE void fence_acq_rel_device() {
  __atomic_thread_fence(__ATOMIC_ACQ_REL);
}
// An 8-byte release store at system or device scope (an MMIO doorbell, a word a NIC reads): release
// fence and store in one (CUDA st.release: MEMBAR.ALL then the store, without the L1 invalidation a
// standalone acq_rel fence adds).
GIO_DEVICE_INLINE void store_release_system_or_device(unsigned long long* p, unsigned long long v, bool system) {
  (void)system;
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
  ::gio::host::wave_step();
}

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

// Stops the job on a fatal error: kernels are CPU threads of this process, so libgio aborts it
// with the status.
[[noreturn]] inline void stop(int status) { gio_host_abort(status); }
// A device wait spans one of these (Site::tag names its call site): in lockstep-wave mode leaving
// it is the wait's reconvergence point (hip_host.h); wait_report() names the wave-mates held there.
template <typename Site>
struct wait_scope : ::gio::host::wave_wait_scope {
  wait_scope() : ::gio::host::wave_wait_scope(&Site::tag) {}
};
inline void wait_report() { ::gio::host::wave_wait_report(); }

}  // namespace plat
}  // namespace gio
#endif  // GIO_KERNEL_COMPILER
