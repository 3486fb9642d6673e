// gda transport: OpenSHMEM operations built from WQEs (see gda.h for posting).
// One lane of a cooperative scope posts; the NIC moves the bytes, so wider scopes add nothing
// but the entry/exit synchronization their wrappers already do.
#pragma once
#include "runtime/gda_amo4.h"
#include "runtime/host_entry.h"  // gio_amo_op
#include "device/core/copy.h"  // copy_stage, for the bounce buffer
#include "device/gda/gda_post.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
namespace gda {

GIO_DEVICE_INLINE uint64_t raddr(const gio_device_state_v1& st, const gio_gda_queue_v1* q, const void* sym) {
  return q->remote_base + (uint64_t)((const uint8_t*)sym - st.heap_base);
}
// The key of the queue block (scratch landing words, bounce buffer), which the atomics' templates
// carry.
GIO_DEVICE_INLINE uint32_t queue_lkey(const gio_gda_queue_v1* q) { return q->tmpl[GIO_GDA_T_FA8].lkey; }

// Every WQE of a context goes through here: the context's pending fence to `pe` rides on it.
GIO_DEVICE_INLINE uint64_t post_ctx(const char* rt, gio_ctx_v1* ctx, int pe, gio_gda_queue_v1* q, int kind, wqe_args a,
                          bool hold = false) {
  a.fence = fence_take(ctx, pe);
  return post(rt, q, kind, a, hold);
}


[[noreturn]] GIO_DEVICE_NOINLINE void fail_unregistered(const char* rt, const void* p, size_t n, int pe) {
  GIO_DEV_FATAL(rt, "local buffer %p (%llu bytes, for PE %d) is outside the symmetric heap, too large to travel "
                "inline (%u bytes) and the gda queues have no bounce buffer (GIO_GDA_BOUNCE_BYTES=0)",
                p, (unsigned long long)n, pe, GIO_GDA_INLINE_MAX);
}

// ---- the bounce buffer -------------------------------------------------------------------------
// A local buffer outside the heap (shared, stack, hipMalloc memory) is staged through the queue's
// bounce buffer, which lies in the queue block under the queue's key. One thread holds it at a
// time. The holder runs inside the spin loop's successful iteration, so lanes of one wave that
// wait for it never stand between the holder and its release (no SIMT spin-lock deadlock).
template <typename Body>
GIO_DEVICE_INLINE void with_bounce(const char* rt, gio_gda_queue_v1* q, Body body) {
  bounded_wait(
      [&] {
        if (plat::atomic_cas(&q->bounce_lock, 0u, 1u) != 0u) return false;
        plat::fence_device();  // the previous holder's bounce_used and data are seen
        body();
        plat::fence_device();
        plat::atomic_exchange(&q->bounce_lock, 0u);
        return true;
      },
      [&](unsigned long long ms) {
        GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u, thread %u) waited %llu ms for the bounce buffer of "
                      "the gda queue to PE %d (qpn 0x%x), which another thread holds\n",
                      rt, GIO_DSTATE.my_pe, plat::wg_id(), plat::wg_thread(), ms, q->peer, q->qpn);
      });
}

// Half h of the bounce buffer, once the last WQE that used it has completed.
GIO_DEVICE_INLINE uint8_t* bounce_half(const char* rt, gio_gda_queue_v1* q, uint32_t h) {
  if (q->bounce_used[h]) wait_done(rt, q, q->bounce_used[h] - 1);
  return q->bounce + (size_t)h * (q->bounce_bytes / 2);
}

// Put through the bounce buffer: each chunk is copied in, then posted; the halves alternate, so
// the copy of chunk c+1 overlaps chunk c on the wire. The source is free when this returns.
GIO_DEVICE_NOINLINE void put_bounced(const char* rt, gio_ctx_v1* ctx, gio_gda_queue_v1* q, int pe, uint64_t ra,
                          const uint8_t* src, size_t n, bool nbi) {
  const size_t half = q->bounce_bytes / 2;
  uint64_t last = 0;
  with_bounce(rt, q, [&] {
    uint32_t h = 0;
    for (size_t off = 0; off < n; off += half, h ^= 1u) {
      const uint32_t len = (uint32_t)(n - off < half ? n - off : half);
      uint8_t* b = bounce_half(rt, q, h);
      copy_stage(b, src + off, len);  // post()'s system fence orders these stores before the doorbell
      wqe_args a{ra + off, (uint64_t)(uintptr_t)b, len, queue_lkey(q), 0, 0, false};
      last = post_ctx(rt, ctx, pe, q, GIO_GDA_T_PUT, a);
      q->bounce_used[h] = last + 1;
    }
  });
  if (!nbi) wait_done(rt, q, last);
}

// Get through the bounce buffer: up to two chunks in flight, each copied out once complete.
GIO_DEVICE_NOINLINE void get_bounced(const char* rt, gio_ctx_v1* ctx, gio_gda_queue_v1* q, int pe, uint64_t ra, uint8_t* dst,
                          size_t n) {
  const size_t half = q->bounce_bytes / 2;
  with_bounce(rt, q, [&] {
    auto len = [&](size_t off) { return (uint32_t)(n - off < half ? n - off : half); };
    auto issue = [&](size_t off, uint32_t h) {
      uint8_t* b = bounce_half(rt, q, h);
      wqe_args a{ra + off, (uint64_t)(uintptr_t)b, len(off), queue_lkey(q), 0, 0, false};
      q->bounce_used[h] = post_ctx(rt, ctx, pe, q, GIO_GDA_T_GET, a) + 1;
    };
    issue(0, 0);
    if (half < n) issue(half, 1);
    uint32_t h = 0;
    for (size_t off = 0; off < n; off += half, h ^= 1u) {
      wait_done(rt, q, q->bounce_used[h] - 1);  // poll() fenced: the landed bytes are visible
      copy_stage(dst + off, q->bounce + (size_t)h * half, len(off));
      if (off + 2 * half < n) issue(off + 2 * half, h);
    }
  });
}

// Blocking puts return once the NIC has read the source (its completion); _nbi puts return at once
// except small ones, which travel inline and never need waiting. A source outside the heap travels
// inline when it fits, else through the bounce buffer (copied before return, so _nbi holds too).
GIO_DEVICE_NOINLINE void put(const char* rt, const gio_device_state_v1& st, gio_ctx_v1* ctx, void* dst, const void* src,
                 size_t n, int pe, bool nbi) {
  if (n == 0) return;
  gio_gda_queue_v1* q = queue(st, ctx, pe);
  const uint8_t* s = (const uint8_t*)src;
  if (n > GIO_GDA_INLINE_MAX && !in_heap(st, src, n)) {
    if (!q->bounce_bytes) fail_unregistered(rt, src, n, pe);
    put_bounced(rt, ctx, q, pe, raddr(st, q, dst), s, n, nbi);
    return;
  }
  const uint64_t chunk = 1ull << 30;  // byte_count is 32 bits; keep each WQE at 1 GiB or less
  for (size_t off = 0; off < n; off += chunk) {
    const uint32_t len = (uint32_t)(n - off < chunk ? n - off : chunk);
    wqe_args a{raddr(st, q, (const uint8_t*)dst + off), (uint64_t)(uintptr_t)(s + off), len, 0, 0, 0, false};
    if (len <= GIO_GDA_INLINE_MAX) {
      post_ctx(rt, ctx, pe, q, GIO_GDA_T_PUT_INLINE, a);
      continue;
    }
    const uint64_t idx = post_ctx(rt, ctx, pe, q, GIO_GDA_T_PUT, a);
    if (!nbi) wait_done(rt, q, idx);
  }
}

// Gets always complete before returning (the data must be in dst). Small ones land in the slot's
// scratch word first, so dst may be a register-backed local; larger ones into memory outside the
// heap land in the bounce buffer and are copied out.
GIO_DEVICE_NOINLINE void get(const char* rt, const gio_device_state_v1& st, gio_ctx_v1* ctx, void* dst, const void* src,
                 size_t n, int pe) {
  if (n == 0) return;
  gio_gda_queue_v1* q = queue(st, ctx, pe);
  if (n <= 8) {
    // laddr 0 asks post() to land the data in the slot's scratch word.
    wqe_args a{raddr(st, q, src), 0, (uint32_t)n, queue_lkey(q), 0, 0, false};
    const uint64_t i = post_ctx(rt, ctx, pe, q, GIO_GDA_T_GET, a, true);
    wait_done(rt, q, i);
    const uint64_t v = take_result(q, i);
    for (size_t k = 0; k < n; ++k) ((uint8_t*)dst)[k] = (uint8_t)(v >> (8 * k));  // little-endian landing word
    return;
  }
  if (!in_heap(st, dst, n)) {
    if (!q->bounce_bytes) fail_unregistered(rt, dst, n, pe);
    get_bounced(rt, ctx, q, pe, raddr(st, q, src), (uint8_t*)dst, n);
    return;
  }
  const uint64_t chunk = 1ull << 30;
  uint64_t last = 0;
  for (size_t off = 0; off < n; off += chunk) {
    const uint32_t len = (uint32_t)(n - off < chunk ? n - off : chunk);
    wqe_args a{raddr(st, q, (const uint8_t*)src + off), (uint64_t)(uintptr_t)((uint8_t*)dst + off), len, 0, 0, 0, false};
    last = post_ctx(rt, ctx, pe, q, GIO_GDA_T_GET, a);
  }
  wait_done(rt, q, last);
}

// One NIC atomic (fetch-add or compare-swap, 4 or 8 B; the 4-byte ones are masked, and a 4-byte
// compare-swap carries `swap_mask` and `compare_mask`); returns the old value's bits.
GIO_DEVICE_NOINLINE uint64_t nic_atomic(const char* rt, gio_ctx_v1* ctx, int pe, gio_gda_queue_v1* q, int kind, uint64_t raddr_,
                            uint64_t v, uint64_t c, bool fetch, uint32_t swap_mask = ~0u, uint32_t compare_mask = ~0u) {
  wqe_args a{raddr_, 0, 0, 0, v, c, false, swap_mask, compare_mask};
  const uint64_t idx = post_ctx(rt, ctx, pe, q, kind, a, fetch);
  if (!fetch) return 0;
  wait_done(rt, q, idx);
  return take_result(q, idx, kind);
}

[[noreturn]] GIO_DEVICE_NOINLINE void fail_cas_loop(const char* rt, int pe, const void* dst, unsigned long long seen,
                                          unsigned long long tries, unsigned long long ms) {
  GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u, thread %u): the compare-swap loop on %p at PE %d did not "
                "stick in %llu ms (%llu tries; the value keeps changing); last value seen 0x%llx\n",
                rt, GIO_DSTATE.my_pe, plat::wg_id(), plat::wg_thread(), dst, pe, ms, tries, seen);
  die(GIO_ERR_TIMEOUT);
}

// An 8-byte swap/set/and/or/xor: a compare-swap loop, bounded by GIO_TIMEOUT_MS (under a stream of
// other updates to the word it may never stick). Each try is a NIC round trip, so n contenders
// cost O(n^2) atomics.
template <typename U>
GIO_DEVICE_NOINLINE U amo_cas_loop(const char* rt, const gio_device_state_v1& st, gio_ctx_v1* ctx, gio_gda_queue_v1* q,
                                   int op, U* dst, uint64_t ra, U v, int pe) {
  U old = (U)nic_atomic(rt, ctx, pe, q, GIO_GDA_T_FA8, ra, 0, 0, true);
  const uint64_t limit = st.timeout_ns, t0 = plat::clock_ns();
  for (unsigned long long tries = 1;; ++tries) {
    U want = op == GIO_AMO_FETCH_AND ? (U)(old & v) : op == GIO_AMO_FETCH_OR ? (U)(old | v)
           : op == GIO_AMO_FETCH_XOR ? (U)(old ^ v) : v;  // SET, SWAP
    const U seen = (U)nic_atomic(rt, ctx, pe, q, GIO_GDA_T_CS8, ra, (uint64_t)want, (uint64_t)old, true);
    if (seen == old) return old;
    old = seen;
    if (limit && plat::clock_ns() - t0 > limit)  // a round trip per try: the clock read costs nothing
      fail_cas_loop(rt, pe, dst, (unsigned long long)seen, tries, (unsigned long long)((plat::clock_ns() - t0) / 1000000ull));
  }
}

// mlx5 offers fetch-add and compare-swap, and on 4 bytes their masked forms, with which every
// 4-byte AMO is one NIC atomic (runtime/gda_amo4.h); 8-byte swap/set/and/or/xor are amo_cas_loop.
template <typename U>
GIO_DEVICE_NOINLINE U amo(const char* rt, const gio_device_state_v1& st, gio_ctx_v1* ctx, int op, U* dst, U v, U c, int pe) {
  gio_gda_queue_v1* q = queue(st, ctx, pe);
  const uint64_t ra = raddr(st, q, dst);
  if constexpr (sizeof(U) == 8) {
    switch (op) {
      case GIO_AMO_FETCH: return (U)nic_atomic(rt, ctx, pe, q, GIO_GDA_T_FA8, ra, 0, 0, true);
      case GIO_AMO_FETCH_ADD: return (U)nic_atomic(rt, ctx, pe, q, GIO_GDA_T_FA8, ra, (uint64_t)v, 0, true);
      case GIO_AMO_CSWAP: return (U)nic_atomic(rt, ctx, pe, q, GIO_GDA_T_CS8, ra, (uint64_t)v, (uint64_t)c, true);
      default: return amo_cas_loop<U>(rt, st, ctx, q, op, dst, ra, v, pe);
    }
  } else {
    const gio_gda_amo4 m = gio_gda_amo4_for(op, (uint32_t)v, (uint32_t)c);
    return (U)(uint32_t)nic_atomic(rt, ctx, pe, q, m.kind, ra, m.swap_add, m.compare, true, m.swap_mask, m.compare_mask);
  }
}

// Signal after the data: same queue, so the NIC executes it after the put (RC order).
GIO_DEVICE_NOINLINE void signal(const char* rt, const gio_device_state_v1& st, gio_ctx_v1* ctx, uint64_t* sig, uint64_t value,
                    int op, int pe) {
  gio_gda_queue_v1* q = queue(st, ctx, pe);
  if (op == 1 /* SHMEM_SIGNAL_ADD */) {
    nic_atomic(rt, ctx, pe, q, GIO_GDA_T_FA8, raddr(st, q, sig), value, 0, false);
  } else {
    wqe_args a{raddr(st, q, sig), (uint64_t)(uintptr_t)&value, 8, 0, 0, 0, false};
    post_ctx(rt, ctx, pe, q, GIO_GDA_T_PUT_INLINE, a);
  }
}

// quiet: every WQE this context published to any gda peer has completed. Its pending fences are
// dropped first: whatever a fence was to order is published by now (shmem_fence's release orders
// the publication before the mark this exchange reads, and this fence orders the exchange before
// the reads of `published`), so the wait below covers it.
GIO_DEVICE_NOINLINE void quiet(const char* rt, const gio_device_state_v1& st, gio_ctx_v1* ctx) {
  fence_clear_all(ctx, st.n_pes);
  plat::fence_device();
  for (int pe = 0; pe < st.n_pes; ++pe) {
    if (st.peer_transport[pe] != GIO_TRANSPORT_GDA) continue;
    gio_gda_queue_v1* q = queue(st, ctx, pe);
    const uint64_t pub = load64(&q->published);
    if (pub) wait_done(rt, q, pub - 1);
  }
}

// fence: this context's next WQE to each PE waits for the earlier ones on its queue (fence mode).
GIO_DEVICE_INLINE void fence(const gio_device_state_v1& st, gio_ctx_v1* ctx) { fence_mark_all(ctx, st.n_pes); }

}  // namespace gda
}  // namespace dev
}  // namespace gio
#endif
