// gda transport: OpenSHMEM operations built from WQEs (see gda.h for posting).
// One lane of a cooperative scope posts; the NIC moves the bytes, so wider scopes add nothing
// but the entry/exit synchronization their wrappers already do.
#pragma once
#include "device/api/host_entry.h"  // gio_amo_op
#include "device/gda/gda.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
namespace gda {

GIO_DFN uint64_t raddr(const gio_device_state_v1& st, const gio_gda_queue_v1* q, const void* sym) {
  return q->remote_base + (uint64_t)((const uint8_t*)sym - st.heap_base);
}
// The key of the queue's scratch landing words, which the atomics' templates carry: the softnic's
// any-local key, or on a ConnectX the queue block's registration.
GIO_DFN uint32_t scratch_lkey(const gio_gda_queue_v1* q) { return q->tmpl[GIO_GDA_T_FA8].lkey; }
[[noreturn]] GIO_DOUT void fail_unregistered(const char* rt, const void* p, int pe) {
  GIO_DEV_FATAL(rt, "local buffer %p (for PE %d) is outside the symmetric heap: a ConnectX can only "
                "read or write registered memory (use a buffer from shmem_malloc)", p, pe);
}
// Local buffers inside the heap use the heap's registration (0: the template's key). Anything else
// works only with the softnic's any-local key; on a ConnectX it is refused here, not with a
// protection error from the NIC.
GIO_DFN uint32_t lkey_for(const char* rt, const gio_device_state_v1& st, const gio_gda_queue_v1* q, const void* p,
                          int pe) {
  const uint8_t* a = (const uint8_t*)p;
  if (a >= st.heap_base && a < st.heap_base + st.heap_size) return 0u;
  if (scratch_lkey(q) != mlx5::be32(GIO_GDA_LKEY_ANY_LOCAL)) fail_unregistered(rt, p, pe);
  return mlx5::be32(GIO_GDA_LKEY_ANY_LOCAL);
}

// Blocking puts return once the NIC has read the source (its completion); _nbi puts return at once
// except small ones, which travel inline and never need waiting.
GIO_DOUT void put(const char* rt, const gio_device_state_v1& st, const gio_ctx_v1* ctx, void* dst, const void* src,
                 size_t n, int pe, bool nbi) {
  if (n == 0) return;
  gio_gda_queue_v1* q = queue(st, ctx, pe);
  const uint64_t chunk = 1ull << 30;  // byte_count is 32 bits; keep each WQE at 1 GiB or less
  for (size_t off = 0; off < n; off += chunk) {
    const uint32_t len = (uint32_t)(n - off < chunk ? n - off : chunk);
    wqe_args a{raddr(st, q, (const uint8_t*)dst + off), (uint64_t)(uintptr_t)((const uint8_t*)src + off), len, 0, 0, 0};
    if (len <= GIO_GDA_INLINE_MAX) {
      post(rt, q, GIO_GDA_T_PUT_INLINE, a);
      continue;
    }
    a.lkey = lkey_for(rt, st, q, (const uint8_t*)src + off, pe);
    const uint64_t idx = post(rt, q, GIO_GDA_T_PUT, a);
    if (!nbi) wait_done(rt, q, idx);
  }
}

// Gets always complete before returning (the data must be in dst). Small ones land in the slot's
// scratch word first, so dst may be a thread-local variable the NIC cannot address.
GIO_DOUT void get(const char* rt, const gio_device_state_v1& st, const gio_ctx_v1* ctx, void* dst, const void* src,
                 size_t n, int pe) {
  if (n == 0) return;
  gio_gda_queue_v1* q = queue(st, ctx, pe);
  if (n <= 8) {
    // laddr 0 asks post() to land the data in the slot's scratch word.
    wqe_args a{raddr(st, q, src), 0, (uint32_t)n, scratch_lkey(q), 0, 0};
    const uint64_t i = post(rt, q, GIO_GDA_T_GET, a, true);
    wait_done(rt, q, i);
    const uint64_t v = take_result(q, i);
    for (size_t k = 0; k < n; ++k) ((uint8_t*)dst)[k] = (uint8_t)(v >> (8 * k));  // little-endian landing word
    return;
  }
  const uint64_t chunk = 1ull << 30;
  uint64_t last = 0;
  for (size_t off = 0; off < n; off += chunk) {
    const uint32_t len = (uint32_t)(n - off < chunk ? n - off : chunk);
    wqe_args a{raddr(st, q, (const uint8_t*)src + off), (uint64_t)(uintptr_t)((uint8_t*)dst + off), len,
               lkey_for(rt, st, q, (uint8_t*)dst + off, pe), 0, 0};
    last = post(rt, q, GIO_GDA_T_GET, a);
  }
  wait_done(rt, q, last);
}

// One NIC atomic (fetch-add or compare-swap, 4 or 8 B); returns the old value's bits.
GIO_DOUT uint64_t nic_atomic(const char* rt, gio_gda_queue_v1* q, int kind, uint64_t raddr_, uint64_t v, uint64_t c,
                            bool fetch) {
  wqe_args a{raddr_, 0, 0, 0, v, c};
  const uint64_t idx = post(rt, q, kind, a, fetch);
  if (!fetch) return 0;
  wait_done(rt, q, idx);
  return take_result(q, idx, kind);
}

[[noreturn]] GIO_DOUT void fail_cas_loop(const char* rt, int pe, const void* dst, unsigned long long seen,
                                          unsigned long long tries, unsigned long long ms) {
  GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u, thread %u): the compare-swap loop on %p at PE %d did not "
                "stick in %llu ms (%llu tries; the value keeps changing); last value seen 0x%llx\n",
                rt, GIO_DSTATE.my_pe, plat::wg_id(), plat::wg_thread(), dst, pe, ms, tries, seen);
  die(GIO_ERR_TIMEOUT);
}

// mlx5 offers fetch-add and compare-swap; every other AMO is a compare-swap loop, bounded by
// GIO_TIMEOUT_MS: under a stream of other updates to the word it may never stick.
template <typename U>
GIO_DOUT U amo(const char* rt, const gio_device_state_v1& st, const gio_ctx_v1* ctx, int op, U* dst, U v, U c, int pe) {
  gio_gda_queue_v1* q = queue(st, ctx, pe);
  const uint64_t ra = raddr(st, q, dst);
  const bool is8 = sizeof(U) == 8;
  const int fa = is8 ? GIO_GDA_T_FA8 : GIO_GDA_T_FA4, cs = is8 ? GIO_GDA_T_CS8 : GIO_GDA_T_CS4;
  const uint64_t mask = is8 ? ~0ull : 0xffffffffull;
  switch (op) {
    case GIO_AMO_FETCH: return (U)(nic_atomic(rt, q, fa, ra, 0, 0, true) & mask);
    case GIO_AMO_FETCH_ADD: return (U)(nic_atomic(rt, q, fa, ra, (uint64_t)v, 0, true) & mask);
    case GIO_AMO_CSWAP: return (U)(nic_atomic(rt, q, cs, ra, (uint64_t)v, (uint64_t)c, true) & mask);
    default: break;
  }
  U old = (U)(nic_atomic(rt, q, fa, ra, 0, 0, true) & mask);
  const uint64_t limit = st.timeout_ns, t0 = plat::clock_ns();
  for (unsigned long long tries = 1;; ++tries) {
    U want = op == GIO_AMO_FETCH_AND ? (U)(old & v) : op == GIO_AMO_FETCH_OR ? (U)(old | v)
           : op == GIO_AMO_FETCH_XOR ? (U)(old ^ v) : v;  // SET, SWAP
    const U seen = (U)(nic_atomic(rt, q, cs, ra, (uint64_t)want, (uint64_t)old, true) & mask);
    if (seen == old) return old;
    old = seen;
    if (limit && plat::clock_ns() - t0 > limit)  // a round trip per try: the clock read costs nothing
      fail_cas_loop(rt, pe, dst, (unsigned long long)seen, tries, (unsigned long long)((plat::clock_ns() - t0) / 1000000ull));
  }
}

// Signal after the data: same queue, so the NIC executes it after the put (RC order).
GIO_DOUT void signal(const char* rt, const gio_device_state_v1& st, const gio_ctx_v1* ctx, uint64_t* sig, uint64_t value,
                    int op, int pe) {
  gio_gda_queue_v1* q = queue(st, ctx, pe);
  if (op == 1 /* SHMEM_SIGNAL_ADD */) {
    nic_atomic(rt, q, GIO_GDA_T_FA8, raddr(st, q, sig), value, 0, false);
  } else {
    wqe_args a{raddr(st, q, sig), (uint64_t)(uintptr_t)&value, 8, 0, 0, 0};
    post(rt, q, GIO_GDA_T_PUT_INLINE, a);
  }
}

// quiet: every WQE this context published to any gda peer has completed.
GIO_DOUT void quiet(const char* rt, const gio_device_state_v1& st, const gio_ctx_v1* ctx) {
  for (int pe = 0; pe < st.n_pes; ++pe) {
    if (st.peer_transport[pe] != GIO_TRANSPORT_GDA) continue;
    gio_gda_queue_v1* q = queue(st, ctx, pe);
    const uint64_t pub = load64(&q->published);
    if (pub) wait_done(rt, q, pub - 1);
  }
}

// fence: the next WQE on each of the context's queues waits for the earlier ones (fence mode).
GIO_DFN void fence(const gio_device_state_v1& st, const gio_ctx_v1* ctx) {
  for (int pe = 0; pe < st.n_pes; ++pe)
    if (st.peer_transport[pe] == GIO_TRANSPORT_GDA) queue(st, ctx, pe)->fence_next = 1;
}

}  // namespace gda
}  // namespace dev
}  // namespace gio
#endif
