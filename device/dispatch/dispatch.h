// The one device dispatch point: every RMA, AMO and signal goes through a switch on the target
// PE's transport (p2p first), after the argument checks. No virtual calls on the device.
#pragma once
#include "device/core/check.h"
#include "runtime/api/types.h"  // shmem_ctx_t
#include "runtime/host_entry.h"
#include "runtime/team.h"  // a host-made device context's team (ctx_pe)
#include "device/gda/gda_ops.h"
#include "device/p2p/amo.h"
#include "device/p2p/p2p.h"
#include "device/proxy/proxy_ops.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {

[[noreturn]] GIO_DEVICE_NOINLINE void no_transport(const char* routine, int pe) {
  GIO_DEV_FATAL(routine, "PE %d is not reachable from this PE (transport id %d)", pe,
                (int)GIO_DSTATE.peer_transport[pe]);
}

[[noreturn]] GIO_DEVICE_NOINLINE void fail_ctx(const char* routine, shmem_ctx_t ctx) {
  GIO_DEV_FATAL(routine, "context %p is not a live device context", (void*)ctx);
}

// A user context must be a slot of the context table (or SHMEM_CTX_DEFAULT == nullptr): the
// kernels' own, or one the host made with SHMEM_DEVICE_CTX (up to ctx_end). This part is arithmetic
// on the constant state, so every routine pays it.
GIO_DEVICE_INLINE void check_ctx(const char* routine, shmem_ctx_t ctx) {
  if (ctx == nullptr) return;
  const gio_device_state_v1& st = GIO_DSTATE;
  const uint32_t end = st.ctx_end > st.num_ctx ? st.ctx_end : st.num_ctx;
  const uintptr_t off = (uintptr_t)ctx - (uintptr_t)st.ctx_table;
  if (off >= (uintptr_t)end * sizeof(gio_ctx_v1) || off % sizeof(gio_ctx_v1)) fail_ctx(routine, ctx);
}

[[noreturn]] GIO_DEVICE_NOINLINE void fail_ctx_pe(const char* routine, int pe, int n) {
  GIO_DEV_FATAL(routine, "target PE %d is out of range [0, %d) of the context's team", pe, n);
}
// A context the host made from a team (shmem_team_create_ctx with SHMEM_DEVICE_CTX) numbers PEs in
// that team: an operation on it takes the world PE of `pe` at its entry, before any check.
// Every other context (the default, the kernels' own) is in the world, which an address compare on
// the constant state tells, so only the host's contexts pay the load of the context's team.
GIO_DEVICE_INLINE bool ctx_in_team(shmem_ctx_t ctx) {
  if (ctx == nullptr) return false;
  const gio_device_state_v1& st = GIO_DSTATE;
  const uintptr_t off = (uintptr_t)ctx - (uintptr_t)(st.ctx_table + st.num_ctx);
  if (st.ctx_end <= st.num_ctx || off >= (uintptr_t)(st.ctx_end - st.num_ctx) * sizeof(gio_ctx_v1)) return false;
  return ctx->team != GIO_TEAM_SLOT_WORLD;
}
// The world PE of a team context's `pe` (ctx_in_team).
GIO_DEVICE_NOINLINE int team_ctx_pe(const char* routine, shmem_ctx_t ctx, int pe) {
  const gio_device_state_v1& st = GIO_DSTATE;
  const gio_team_v1& tm = ((const gio_team_v1*)(st.heap_base + GIO_HEAP_TEAM_TABLE))[ctx->team & (GIO_MAX_TEAMS - 1)];
  if ((unsigned)pe >= (unsigned)tm.n_pes) fail_ctx_pe(routine, pe, tm.n_pes);
  return tm.members[pe];
}
GIO_DEVICE_INLINE int ctx_pe(const char* routine, shmem_ctx_t ctx, int pe) {
  return ctx_in_team(ctx) ? team_ctx_pe(routine, ctx, pe) : pe;
}
// ... and one shmemx_wg_ctx_create handed out and nobody destroyed. This reads the context from
// global memory (an L2 round trip after any system-scope acquire, ~0.2 us), so only the paths that
// use the context's queues pay it: p2p never reads the context.
GIO_DEVICE_INLINE void check_ctx_live(const char* routine, shmem_ctx_t ctx) {
  if (ctx != nullptr && (ctx->magic != GIO_CTX_MAGIC || !ctx->in_use)) fail_ctx(routine, ctx);
}

// The checks every put and get makes, in their order; false when there is nothing to move (n = 0:
// nothing is addressed, whatever the pointers, and every lane of a scope agrees).
GIO_DEVICE_INLINE bool check_rma(const char* rt, shmem_ctx_t ctx, const void* sym, size_t n, int pe) {
  check_pe(rt, pe);
  if (n == 0) return false;
  check_sym(rt, sym, n, pe);
  check_ctx(rt, ctx);
  return true;
}

// A cooperative scope's gda or proxy operation: lane 0 posts for the whole scope and waits there,
// and the scope syncs before returning, here, where the branch that diverges is visible (this is
// always inlined into the switch). A sync left to the caller, after the call, is not enough on
// CUDA: ptxas treats a call made by a converged warp as returning converged and compiles the
// caller's __syncwarp() to nothing, leaving only the call's convergence barrier (BSYNC), which lets
// the waiting lanes go while lane 0 still spins (sm_90, nvcc 13: the wave-scope reduce's lanes 1..31
// folded `in` before lane 0's get had filled it, test_coll_device). With the branch in
// view, the sync stays a divergence check and a WARPSYNC (tests/sass/check_scope_sync.py). A
// thread-scope call syncs nothing.
template <typename S, typename Post>
GIO_DEVICE_INLINE void lane_done(Post post) {
  if (S::lane() == 0) post();
  S::sync();
}

// A put to this PE, or a get from it, whose source overlaps its destination moves the bytes as
// memmove does on every transport (docs/guide.md, "Overlapping source and destination"). Over p2p
// the copy does it (p2p.h); a NIC or the proxy copies in chunks as it pleases, so over gda and the
// proxy this PE's heap, the kernel's own memory, is copied in place by the scope, once the
// context's earlier operations (which may be writing there) are complete.
template <typename S>
GIO_DEVICE_NOINLINE void move_here(const char* rt, shmem_ctx_t ctx, const gio_device_state_v1& st, void* dst,
                                   const void* src, size_t n) {
  check_ctx_live(rt, ctx);
  lane_done<S>([&] {
    if (st.peer_transport[st.my_pe] == GIO_TRANSPORT_GDA) gda::quiet(rt, st, ctx);
    else proxy::quiet(rt, st, ctx);
  });
  p2p::copy_overlapping<S>((uint8_t*)dst, (const uint8_t*)src, n);
}

// put's transport switch, after the checks.
template <typename S>
GIO_DEVICE_INLINE void put_switch(const char* rt, shmem_ctx_t ctx, void* dst, const void* src, size_t n, int pe, bool nbi) {
  const gio_device_state_v1& st = GIO_DSTATE;
  switch (st.peer_transport[pe]) {
    case GIO_TRANSPORT_P2P: p2p::put<S>(st, p2p::remote(st, dst, pe), src, n); return;
    case GIO_TRANSPORT_GDA:
      if (pe == st.my_pe && p2p::overlapping(dst, src, n)) return move_here<S>(rt, ctx, st, dst, src, n);
      check_ctx_live(rt, ctx);
      lane_done<S>([&] { gda::put(rt, st, ctx, dst, src, n, pe, nbi); });
      return;
    case GIO_TRANSPORT_PROXY:
      if (pe == st.my_pe && p2p::overlapping(dst, src, n)) return move_here<S>(rt, ctx, st, dst, src, n);
      check_ctx_live(rt, ctx);
      lane_done<S>([&] { proxy::put(rt, st, ctx, dst, src, n, pe, nbi); });
      return;
    default: no_transport(rt, pe);
  }
}
template <typename S>
GIO_DEVICE_NOINLINE void put_switch_out(const char* rt, shmem_ctx_t ctx, void* dst, const void* src, size_t n, int pe, bool nbi) {
  put_switch<S>(rt, ctx, dst, src, n, pe, nbi);
}

// A cooperative scope inlines only the p2p put of up to S::inline_words words per lane
// (copy_lane_words) and calls everything else: the general copy loops need ~120 registers and the
// gda/proxy paths more, and inlined into a loop of small puts they made the caller keep its own
// state on the stack (255 registers, a 1.7 KiB frame, loads from local memory on every call). The
// call costs little next to a larger copy or a queue post. The source words are loaded before the
// transport and the peer's mapping are read, so those constant loads overlap the loads' latency
// (a non-p2p peer then takes the call, the loaded words unused). A thread-scope put inlines its own
// small copy the same way (copy_thread_small) where the platform takes it (plat::thread_put_inline:
// cuda and host, not hip), and its general p2p copy too (p2p::put: the 16-word batches, the
// bulk-copy path); only a put that is not p2p or fails a check takes the call (put_out). One thread
// runs every instruction of its put back to back with nothing to hide their latency, so the p2p
// copy behind two calls (put_out, then the switch, which read the peer's state again) cost a put of
// 256 B to 4 KiB about 700 cycles more than inline (gio-bench callcost --scope thread, on an H200).
// The call saved the caller no registers: ptxas gives a callee registers of its own on top of its
// caller's (copy.h, copy_stage). tests/sass/check_thread_put.py: a loop of such puts holds the
// copy's 16-word batch, calls out only for the other transports and the reports, and reads no
// local memory.
static_assert((GIO_MAX_PES & (GIO_MAX_PES - 1)) == 0, "put/get mask a PE into the state's tables");

// A team context's put (ctx_in_team) takes the call (put_team), which translates the PE and comes
// back with WorldPe; every other put keeps the caller's PE, so the loads above depend on arguments
// alone. Translated on the common path, the PE read through the context kept the peer's state loads
// in a loop of calls on any context the kernel was given (tests/sass/check_put_loop.py, *_ctx).
template <typename S>
GIO_DEVICE_NOINLINE_TEMPLATE void put_team(const char* rt, shmem_ctx_t ctx, void* dst, const void* src, size_t n,
                                           int pe, bool nbi);
template <typename S, bool WorldPe>
GIO_DEVICE_NOINLINE_TEMPLATE void put_out(const char* rt, shmem_ctx_t ctx, void* dst, const void* src, size_t n,
                                          int pe, bool nbi, bool ok);

// Everything check_rma, ctx_in_team and check_pe's fast half ask of a put, as one predicate on the
// constant state and the arguments (no branch, no call): the state is this contract, pe is a world
// PE of it (the context is not a team's: a host-made context's team is read by a predicated load)
// reached by p2p, [dst, dst + n) lies in the user heap and the context is a slot of the table.
// False sends the put to put_out, which tells which check failed.
template <bool WorldPe>
GIO_DEVICE_INLINE bool small_put_ok(const gio_device_state_v1& st, shmem_ctx_t ctx, const void* dst, size_t n, int pe,
                                    bool is_p2p) {
  uint64_t head;
  __builtin_memcpy(&head, &st, sizeof head);
  const uint8_t* a = (const uint8_t*)dst;
  const bool sym = (a >= st.heap_base + GIO_HEAP_RESERVED) & (a < st.heap_base + st.heap_size) &
                   (n <= st.heap_size - (uint64_t)(a - st.heap_base));
  const uint32_t end = st.ctx_end > st.num_ctx ? st.ctx_end : st.num_ctx;
  const uintptr_t off = (uintptr_t)ctx - (uintptr_t)st.ctx_table;
  const bool slot = (ctx == nullptr) | ((off < (uintptr_t)end * sizeof(gio_ctx_v1)) & (off % sizeof(gio_ctx_v1) == 0));
  bool world = true;
  if constexpr (!WorldPe) {
    const bool host_made = (ctx != nullptr) & (off >= (uintptr_t)st.num_ctx * sizeof(gio_ctx_v1)) & slot;
    world = !host_made || ctx->team == GIO_TEAM_SLOT_WORLD;
  }
  return (head == kStateHead) & ((unsigned)pe < (unsigned)st.n_pes) & is_p2p & sym & slot & world;
}
template <typename S, bool WorldPe = false>
GIO_DEVICE_INLINE void put(const char* rt, shmem_ctx_t ctx, void* dst, const void* src, size_t n, int pe, bool nbi = false) {
  if constexpr (S::one_lane && plat::thread_put_inline) {
    // Every condition of the inline copy is one predicate (small_put_ok) and one branch on it; a
    // small p2p put is then one straight run of loads, then stores (copy_thread_small), and a put
    // that fails a check never reads its source. Everything else, reports of bad arguments
    // included, takes one call (put_out), which checks again in the routine's order. With
    // the team translation, the PE check's slow half and the switch as three calls here, ptxas kept
    // what lives across them on the stack: gio-bench callcost's loop of thread puts read local
    // memory 6 times on the way to an 8-byte copy, each read ahead of a branch. With `ok` folded
    // into every word's predicate instead of a branch, the loop-invariant predicates outgrew the
    // registers and spilled the same way. A larger p2p put that passed the checks copies inline
    // too (see above). tests/sass/check_thread_put.py: one call and no local memory read in such a
    // loop (k_thread_put_loop).
    const gio_device_state_v1& st = GIO_DSTATE;
    const int at = pe & (GIO_MAX_PES - 1);
    uint8_t* const mapped = p2p::remote_global(st, dst, at);
    const bool ok = small_put_ok<WorldPe>(st, ctx, dst, n, pe, st.peer_transport[at] == GIO_TRANSPORT_P2P);
    if (ok) {
      if (n <= kThreadInlineMax &&
          copy_thread_small<false>((uintptr_t)dst | (uintptr_t)src | n, mapped, (const uint8_t*)src, n, true))
        return;
      return p2p::put<S>(st, mapped, src, n);
    }
    put_out<S, WorldPe>(rt, ctx, dst, src, n, pe, nbi, ok);
  } else if constexpr (S::one_lane) {
    // The platform keeps a thread's put to the switch (plat::thread_put_inline).
    if (!WorldPe && ctx_in_team(ctx)) return put_team<S>(rt, ctx, dst, src, n, pe, nbi);
    if (!check_rma(rt, ctx, dst, n, pe)) return;
    put_switch<S>(rt, ctx, dst, src, n, pe, nbi);
  } else {
    // The peer's transport and mapping are read before the checks, at an index masked into the
    // tables (the value of a PE the check refuses is never used), so that no check's branch guards
    // their loads: ptxas then hoists them out of a caller's loop of puts. Read after the checks,
    // they were loaded again on every call, and the checks cost 120 of a wave put's 392 cycles
    // (gio-bench callcost --scope wave; tests/sass/check_put_loop.py checks the loop). The mapping is read whatever the transport, so that its
    // load need not wait for the transport's; where the peer is not p2p it is never stored to.
    const gio_device_state_v1& st = GIO_DSTATE;
    const int at = pe & (GIO_MAX_PES - 1);
    uint8_t* const mapped = p2p::remote_any(st, dst, at);
    const bool overlap = p2p::overlapping(mapped, src, n);
    const bool ok = small_put_ok<WorldPe>(st, ctx, dst, n, pe, st.peer_transport[at] == GIO_TRANSPORT_P2P) & !overlap;
    // Every lane gets the same answer; S::agree tells the compiler so (scope.h).
    // An overlapping copy (a put to this PE inside one buffer) takes the call: p2p.h moves it as memmove.
    if (S::agree(copy_lane_words<S, false>((uintptr_t)dst | (uintptr_t)src | n, mapped, (const uint8_t*)src, n, ok)))
      return;
    put_out<S, WorldPe>(rt, ctx, dst, src, n, pe, nbi, ok);
  }
}

template <typename S>
GIO_DEVICE_NOINLINE_TEMPLATE void put_team(const char* rt, shmem_ctx_t ctx, void* dst, const void* src, size_t n,
                                           int pe, bool nbi) {
  put<S, true>(rt, ctx, dst, src, n, team_ctx_pe(rt, ctx, pe), nbi);
}
// A put that is not a small p2p one, or whose arguments fail a check (small_put_ok): the checks in
// the routine's order, with their reports, then the transport switch. A put that passed them all
// (ok: a p2p peer of the world, the heap, a context slot; only too large for the inline copy) goes
// straight to the switch, without reading the state for the checks again (a scope's put of more
// than its inline words: apps/bench/gpu/run-gpu-smallput.sh; a thread's copies inline, see put).
template <typename S, bool WorldPe>
GIO_DEVICE_NOINLINE_TEMPLATE void put_out(const char* rt, shmem_ctx_t ctx, void* dst, const void* src, size_t n,
                                          int pe, bool nbi, bool ok) {
  if (ok) {
    if (n != 0) put_switch_out<S>(rt, ctx, dst, src, n, pe, nbi);
    return;
  }
  if (!WorldPe && ctx_in_team(ctx)) return put_team<S>(rt, ctx, dst, src, n, pe, nbi);
  if (!check_rma(rt, ctx, dst, n, pe)) return;
  put_switch_out<S>(rt, ctx, dst, src, n, pe, nbi);
}

// get's transport switch, after the checks; cooperative scopes as put.
template <typename S>
GIO_DEVICE_INLINE void get_switch(const char* rt, shmem_ctx_t ctx, void* dst, const void* src, size_t n, int pe) {
  const gio_device_state_v1& st = GIO_DSTATE;
  switch (st.peer_transport[pe]) {
    case GIO_TRANSPORT_P2P: p2p::get<S>(st, dst, p2p::remote(st, src, pe), n); return;
    case GIO_TRANSPORT_GDA:
      if (pe == st.my_pe && p2p::overlapping(dst, src, n)) return move_here<S>(rt, ctx, st, dst, src, n);
      check_ctx_live(rt, ctx);
      lane_done<S>([&] { gda::get(rt, st, ctx, dst, src, n, pe); });
      return;
    case GIO_TRANSPORT_PROXY:
      if (pe == st.my_pe && p2p::overlapping(dst, src, n)) return move_here<S>(rt, ctx, st, dst, src, n);
      check_ctx_live(rt, ctx);
      lane_done<S>([&] { proxy::get(rt, st, ctx, dst, src, n, pe); });
      return;
    default: no_transport(rt, pe);
  }
}
template <typename S>
GIO_DEVICE_NOINLINE void get_switch_out(const char* rt, shmem_ctx_t ctx, void* dst, const void* src, size_t n, int pe) {
  get_switch<S>(rt, ctx, dst, src, n, pe);
}

// A team context's get takes the call, as put's does.
template <typename S>
GIO_DEVICE_NOINLINE_TEMPLATE void get_team(const char* rt, shmem_ctx_t ctx, void* dst, const void* src, size_t n,
                                           int pe);
template <typename S, bool WorldPe = false>
GIO_DEVICE_INLINE void get(const char* rt, shmem_ctx_t ctx, void* dst, const void* src, size_t n, int pe) {
  if constexpr (S::one_lane) {
    if (!WorldPe && ctx_in_team(ctx)) return get_team<S>(rt, ctx, dst, src, n, pe);
    if (!check_rma(rt, ctx, src, n, pe)) return;
    get_switch<S>(rt, ctx, dst, src, n, pe);
  } else {
    // Loaded before the checks, as put's (above).
    const gio_device_state_v1& st = GIO_DSTATE;
    const int at = pe & (GIO_MAX_PES - 1);
    const bool is_p2p = st.peer_transport[at] == GIO_TRANSPORT_P2P;
    const uint8_t* const mapped = p2p::remote_any(st, src, at);
    if (!WorldPe && ctx_in_team(ctx)) return get_team<S>(rt, ctx, dst, src, n, pe);
    if (!check_rma(rt, ctx, src, n, pe)) return;
    if (S::agree(copy_lane_words<S, false>((uintptr_t)dst | (uintptr_t)src | n, (uint8_t*)dst, mapped, n,
                                           is_p2p && !p2p::overlapping(dst, mapped, n))))
      return;
    get_switch_out<S>(rt, ctx, dst, src, n, pe);
  }
}

template <typename S>
GIO_DEVICE_NOINLINE_TEMPLATE void get_team(const char* rt, shmem_ctx_t ctx, void* dst, const void* src, size_t n,
                                           int pe) {
  get<S, true>(rt, ctx, dst, src, n, team_ctx_pe(rt, ctx, pe));
}

// Transport-wide ordering points of the calling thread's context.
GIO_DEVICE_INLINE void quiet(const char* rt, shmem_ctx_t ctx) {
  const gio_device_state_v1& st = state_checked(rt);
  check_ctx(rt, ctx);
  p2p::quiet();
  if (st.gda_queues) {
    check_ctx_live(rt, ctx);
    gda::quiet(rt, st, ctx);
  }
  if (st.proxy_rings) {
    check_ctx_live(rt, ctx);
    proxy::quiet(rt, st, ctx);
  }
}
GIO_DEVICE_INLINE void fence(const char* rt, shmem_ctx_t ctx) {
  const gio_device_state_v1& st = state_checked(rt);
  check_ctx(rt, ctx);
  p2p::fence();
  if (st.gda_queues) {
    check_ctx_live(rt, ctx);
    gda::fence(st, ctx);
  }
  // proxy: nothing to do. A context's commands share one ring, which the proxy executes in order,
  // each complete (delivery complete) before the next starts, so puts to a PE are already ordered.
}

// Atomic on the 4- or 8-byte object `dst` of `pe`; returns the old value for fetching ops.
// amo_raw is unchecked: also used by the runtime itself on its reserved words (lock queue nodes).
template <typename T>
GIO_DEVICE_INLINE T amo_raw(const char* rt, shmem_ctx_t ctx, int op, T* dst, T value, T compare, int pe) {
  const gio_device_state_v1& st = GIO_DSTATE;
  typedef typename plat::atom_bits<T>::type U;
  U v, c, old;
  memcpy(&v, &value, sizeof v);
  memcpy(&c, &compare, sizeof c);
  if (st.peer_transport[pe] == GIO_TRANSPORT_GDA) {
    check_ctx_live(rt, ctx);
    old = gda::amo<U>(rt, st, ctx, op, (U*)dst, v, c, pe);
    T r;
    memcpy(&r, &old, sizeof r);
    return r;
  }
  if (st.peer_transport[pe] == GIO_TRANSPORT_PROXY) {
    check_ctx_live(rt, ctx);
    old = proxy::amo<U>(rt, st, ctx, op, (U*)dst, v, c, pe);
    T r;
    memcpy(&r, &old, sizeof r);
    return r;
  }
  if (st.peer_transport[pe] != GIO_TRANSPORT_P2P) no_transport(rt, pe);
  old = p2p::amo<U>(st, op, (U*)dst, v, c, pe);
  T r;
  memcpy(&r, &old, sizeof r);
  return r;
}
template <typename T>
GIO_DEVICE_INLINE T amo(const char* rt, shmem_ctx_t ctx, int op, T* dst, T value, T compare, int pe) {
  pe = ctx_pe(rt, ctx, pe);
  check_pe(rt, pe);
  check_sym(rt, dst, sizeof(T), pe);
  check_align(rt, dst, sizeof(T), pe);
  check_ctx(rt, ctx);
  return amo_raw<T>(rt, ctx, op, dst, value, compare, pe);
}

}  // namespace dev
}  // namespace gio
#endif

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
// Checked before a put-with-signal moves any data, so a bad signal argument stops the call
// before a byte lands at the target.
[[noreturn]] GIO_DEVICE_NOINLINE void fail_signal_op(const char* rt, int op) {
  GIO_DEV_FATAL(rt, "signal operation %d is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD", op);
}
GIO_DEVICE_INLINE void check_signal(const char* rt, const uint64_t* sig, int op, int pe) {
  check_pe(rt, pe);
  check_sym(rt, sig, sizeof(uint64_t), pe);
  check_align(rt, sig, sizeof(uint64_t), pe);
  if (op != 0 /* SHMEM_SIGNAL_SET */ && op != 1 /* SHMEM_SIGNAL_ADD */) fail_signal_op(rt, op);
}

// Update the 8-byte signal `sig` on `pe` after every earlier put of this thread (and, once its
// scope synchronized, of its scope) is visible there: release first, then one atomic.
// Unchecked: also used by the runtime itself on its reserved flags (barriers).
GIO_DEVICE_INLINE void signal_raw(const char* rt, shmem_ctx_t ctx, uint64_t* sig, uint64_t value, int op, int pe) {
  const gio_device_state_v1& st = GIO_DSTATE;
  switch (st.peer_transport[pe]) {
    case GIO_TRANSPORT_GDA:
      check_ctx_live(rt, ctx);
      gda::signal(rt, st, ctx, sig, value, op, pe);
      return;
    case GIO_TRANSPORT_PROXY:
      check_ctx_live(rt, ctx);
      proxy::signal(rt, st, ctx, sig, value, op, pe);
      return;
    case GIO_TRANSPORT_P2P: p2p::signal(st, sig, value, op, pe); return;
    default: no_transport(rt, pe);
  }
}
GIO_DEVICE_INLINE void signal(const char* rt, shmem_ctx_t ctx, uint64_t* sig, uint64_t value, int op, int pe) {
  pe = ctx_pe(rt, ctx, pe);
  check_signal(rt, sig, op, pe);
  check_ctx(rt, ctx);
  signal_raw(rt, ctx, sig, value, op, pe);
}
}  // namespace dev
}  // namespace gio
#endif
