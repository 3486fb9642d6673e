// proxy transport: OpenSHMEM operations as proxy commands (posting: proxy_post.h). One lane of a
// cooperative scope posts; the proxy moves the bytes.
//
// Local buffers: a heap buffer is named by its heap offset (the proxy reaches the heap through
// its registration or its staging); a put of at most GIO_PROXY_INLINE_MAX bytes travels in the
// command; any other buffer (shared, stack, a non-heap device allocation the CPU cannot read) is
// staged through the ring's bounce buffer in host memory, one chunk at a time.
#pragma once
#include "runtime/host_entry.h"  // gio_amo_op
#include "device/core/copy.h"     // copy_stage
#include "device/proxy/proxy_post.h"

#if GIO_KERNEL_COMPILER
namespace gio {
namespace dev {
namespace proxy {

GIO_DEVICE_INLINE uint64_t heap_off(const gio_device_state_v1& st, const void* sym) {
  return (uint64_t)((const uint8_t*)sym - st.heap_base);
}

GIO_DEVICE_INLINE gio_proxy_cmd_v1 rma_cmd(uint8_t op, int pe, uint64_t roff, uint64_t len) {
  gio_proxy_cmd_v1 c{};
  c.op = op;
  c.pe = pe;
  c.roff = roff;
  c.len = len;
  return c;
}

[[noreturn]] GIO_DEVICE_NOINLINE void fail_no_bounce(const char* rt, const void* p, size_t n, int pe) {
  GIO_DEV_FATAL(rt, "local buffer %p (%llu bytes, for PE %d) is outside the symmetric heap and the proxy rings have "
                "no bounce buffer (GIO_PROXY_BOUNCE_BYTES=0)", p, (unsigned long long)n, pe);
}

// One thread at a time stages through the ring's bounce buffer. The holder runs inside the spin
// loop's successful iteration, so wave-mates waiting for it never stand between it and its release.
template <typename Body>
GIO_DEVICE_INLINE void with_bounce(const char* rt, gio_proxy_ring_v1* r, Body body) {
  bounded_wait(
      [&] {
        if (plat::atomic_cas(&r->bounce_lock, 0u, 1u) != 0u) return false;
        plat::fence_device();
        body();
        plat::fence_device();
        plat::atomic_exchange(&r->bounce_lock, 0u);
        return true;
      },
      [&](unsigned long long ms) {
        GIO_DEV_PRINT("GIO timeout: %s on PE %d (work-group %u, thread %u) waited %llu ms for the bounce buffer of "
                      "proxy ring %u, which another thread holds\n",
                      rt, GIO_DSTATE.my_pe, plat::wg_id(), plat::wg_thread(), ms, r->set);
      });
}

// Blocking puts return once the proxy has completed them (the bytes are at the target); _nbi puts
// from the heap return at once. Inline and bounced puts have copied their source when they return.
GIO_DEVICE_NOINLINE void put(const char* rt, const gio_device_state_v1& st, gio_ctx_v1* ctx, void* dst, const void* src,
                 size_t n, int pe, bool nbi) {
  if (n == 0) return;
  gio_proxy_ring_v1* r = ring(st, ctx);
  gio_proxy_cmd_v1 c = rma_cmd(GIO_PROXY_OP_PUT, pe, heap_off(st, dst), n);
  uint64_t idx;
  if (n <= GIO_PROXY_INLINE_MAX) {
    c.local = GIO_PROXY_LOCAL_INLINE;
    uint8_t b[16] = {};
    for (size_t k = 0; k < n; ++k) b[k] = ((const uint8_t*)src)[k];
    memcpy(&c.value, b, 8);
    memcpy(&c.compare, b + 8, 8);
    idx = post(rt, r, c);
  } else if (in_heap(st, src, n)) {
    c.local = GIO_PROXY_LOCAL_HEAP;
    c.laddr = heap_off(st, src);
    idx = post(rt, r, c);
  } else {
    if (!r->bounce_bytes) fail_no_bounce(rt, src, n, pe);
    // Each chunk waits for the previous one's completion before reusing the buffer; the source is
    // free on return, so an _nbi put from a stack buffer is safe too.
    const size_t chunk = r->bounce_bytes;
    with_bounce(rt, r, [&] {
      for (size_t off = 0; off < n; off += chunk) {
        const size_t len = n - off < chunk ? n - off : chunk;
        copy_stage(r->bounce, (const uint8_t*)src + off, len);
        gio_proxy_cmd_v1 k = rma_cmd(GIO_PROXY_OP_PUT, pe, c.roff + off, len);
        k.local = GIO_PROXY_LOCAL_HOST;
        k.laddr = (uint64_t)(uintptr_t)r->bounce;
        wait_done(rt, r, post(rt, r, k));  // post's release orders the copy before the command
      }
    });
    return;
  }
  if (!nbi) wait_done(rt, r, idx);
}

// Gets complete before returning. Up to 8 bytes land in the slot's result word (dst may be a
// register-backed local); heap destinations directly; others through the bounce buffer.
GIO_DEVICE_NOINLINE void get(const char* rt, const gio_device_state_v1& st, gio_ctx_v1* ctx, void* dst, const void* src,
                 size_t n, int pe) {
  if (n == 0) return;
  gio_proxy_ring_v1* r = ring(st, ctx);
  gio_proxy_cmd_v1 c = rma_cmd(GIO_PROXY_OP_GET, pe, heap_off(st, src), n);
  if (n <= 8) {
    c.local = GIO_PROXY_LOCAL_RESULT;
    const uint64_t i = post(rt, r, c, true);
    wait_done(rt, r, i);
    const uint64_t v = take_result(r, i);
    for (size_t k = 0; k < n; ++k) ((uint8_t*)dst)[k] = (uint8_t)(v >> (8 * k));
    return;
  }
  if (in_heap(st, dst, n)) {
    c.local = GIO_PROXY_LOCAL_HEAP;
    c.laddr = heap_off(st, dst);
    wait_done(rt, r, post(rt, r, c));
    plat::fence_system();  // the proxy's writes into the heap are seen by this thread's later loads
    return;
  }
  if (!r->bounce_bytes) fail_no_bounce(rt, dst, n, pe);
  const size_t chunk = r->bounce_bytes;
  with_bounce(rt, r, [&] {
    for (size_t off = 0; off < n; off += chunk) {
      const size_t len = n - off < chunk ? n - off : chunk;
      gio_proxy_cmd_v1 k = rma_cmd(GIO_PROXY_OP_GET, pe, c.roff + off, len);
      k.local = GIO_PROXY_LOCAL_HOST;
      k.laddr = (uint64_t)(uintptr_t)r->bounce;
      wait_done(rt, r, post(rt, r, k));
      copy_stage((uint8_t*)dst + off, r->bounce, len);
    }
  });
}

// Every gio_amo_op is one command: the proxy issues the matching libfabric atomic (or, for a
// GPU-resident target, has the target's proxy run it on that GPU). Returns the old value's bits.
template <typename U>
GIO_DEVICE_NOINLINE U amo(const char* rt, const gio_device_state_v1& st, gio_ctx_v1* ctx, int op, U* dst, U v, U c, int pe) {
  gio_proxy_ring_v1* r = ring(st, ctx);
  gio_proxy_cmd_v1 k = rma_cmd(GIO_PROXY_OP_AMO, pe, heap_off(st, dst), 0);
  k.amo_op = (uint8_t)op;
  k.bytes = (uint8_t)sizeof(U);
  k.value = (uint64_t)v;
  k.compare = (uint64_t)c;
  const uint64_t i = post(rt, r, k, true);
  wait_done(rt, r, i);
  return (U)take_result(r, i);
}

// After the data: same ring, executed in order, each command complete before the next starts.
GIO_DEVICE_NOINLINE void signal(const char* rt, const gio_device_state_v1& st, gio_ctx_v1* ctx, uint64_t* sig, uint64_t value,
                    int op, int pe) {
  gio_proxy_ring_v1* r = ring(st, ctx);
  gio_proxy_cmd_v1 k = rma_cmd(GIO_PROXY_OP_SIGNAL, pe, heap_off(st, sig), 0);
  k.amo_op = (uint8_t)op;
  k.bytes = 8;
  k.value = value;
  post(rt, r, k);
}

// quiet: every command this context's ring handed out before the call has completed. A created
// context owns its ring; default contexts share theirs, so their quiet may also wait for a
// neighbour's commands (never for ones posted after it began).
GIO_DEVICE_NOINLINE void quiet(const char* rt, const gio_device_state_v1& st, gio_ctx_v1* ctx) {
  gio_proxy_ring_v1* r = ring(st, ctx);
  const uint64_t res = plat::atomic_load_acquire(&r->reserved);
  if (res) wait_done(rt, r, res - 1);
  plat::fence_system();  // gets' and fetched data landed by the proxy are seen after this
}

}  // namespace proxy
}  // namespace dev
}  // namespace gio
#endif
