// Host-initiated RMA, atomics and synchronization (the "Inter-K" path: the host moves heap data
// between kernels). Same argument checks and messages as the device side, and the same transport:
// a peer the kernels reach over gda is reached over gda from here too (host/gda/gda_host.h), and
// only a load/store-reachable (p2p) peer is written through its mapping.
//
// Threads (SHMEM_THREAD_MULTIPLE): nothing here keeps state between calls except the host
// contexts (guarded by r.ctx_lock); the platform's copies and atomics and the gda host queues
// serialize what they share themselves.
#include <shmem.h>

#include "host/bootstrap/bootstrap.h"
#include "host/coll/arrivals.h"
#include "host/coll/coll.h"
#include "host/gda/gda_host.h"
#include "host/proxy/proxy_state.h"
#include "host/log.h"
#include "host/runtime.h"

namespace gio {

void host_check_pe(runtime& r, const char* routine, int pe) {
  if (pe < 0 || pe >= r.n_pes) fatal(GIO_ERR_ARG, routine, "target PE %d is out of range [0, %d)", pe, r.n_pes);
  if (r.peers[pe].transport == GIO_TRANSPORT_NONE)
    fatal(GIO_ERR_TRANSPORT, routine, "PE %d is not reachable from this PE (%s)", pe, r.peers[pe].why.c_str());
}

uint64_t host_sym_offset(runtime& r, const char* routine, const void* sym, size_t n, int pe) {
  host_check_pe(r, routine, pe);
  // Nothing is addressed: a call with nelems 0 moves nothing whatever its pointers (tests-sos's
  // zero_comm passes NULL). Callers move n bytes from the offset, so none.
  if (n == 0) return 0;
  const uint8_t* a = (const uint8_t*)sym;
  uint64_t seg_off;
  if (segment_offset(r, sym, n, &seg_off)) return seg_off;  // a global or static of the program
  if (a < r.heap + GIO_HEAP_RESERVED || a >= r.heap + r.heap_size) {
    if (r.seg.size && a >= r.seg.base && a < r.seg.base + r.seg.size)
      fatal(GIO_ERR_ARG, routine, "%zu bytes at %p (for PE %d) run past the end of the program's data segment [%p, %p)",
            n, sym, pe, (void*)r.seg.base, (void*)(r.seg.base + r.seg.size));
    if (r.seg.size)
      fatal(GIO_ERR_ARG, routine, "address %p (for PE %d) is outside the symmetric heap [%p, %p) and the program's "
            "data segment [%p, %p)", sym, pe, (void*)(r.heap + GIO_HEAP_RESERVED), (void*)(r.heap + r.heap_size),
            (void*)r.seg.base, (void*)(r.seg.base + r.seg.size));
    fatal(GIO_ERR_ARG, routine, "address %p (for PE %d) is outside the symmetric heap [%p, %p) (globals are not "
          "symmetric: %s)", sym, pe, (void*)(r.heap + GIO_HEAP_RESERVED), (void*)(r.heap + r.heap_size),
          r.seg.why.c_str());
  }
  uint64_t off = (uint64_t)(a - r.heap);
  if (n > r.heap_size - off)
    fatal(GIO_ERR_ARG, routine, "%zu bytes at heap offset %llu (for PE %d) run past the heap end (%llu bytes)", n,
          (unsigned long long)off, pe, (unsigned long long)r.heap_size);
  return off;
}

// The peer's heap or data segment at `off`, where the host may load and store (p2p). Checked: a
// peer without a mapping is a runtime bug here, never a write to nullptr + off.
static uint8_t* mapped(runtime& r, const char* routine, uint64_t off, int pe) {
  uint8_t* p = sym_mapped(r, off, pe);
  if (!p) fatal(GIO_ERR_TRANSPORT, routine, "PE %d has no load/store mapping (%s)", pe, r.peers[pe].why.c_str());
  return p;
}

void check_host_ctx(runtime& r, const char* routine, gio_ctx_v1* ctx) {
  if (!ctx) return;
  std::lock_guard<std::mutex> g(r.ctx_lock);  // another thread may be creating one
  for (auto& c : r.host_ctx)
    if (&c == ctx && c.in_use) return;
  fatal(GIO_ERR_ARG, routine, "context %p is not a live host context (device contexts cannot be used from host code)",
        (void*)ctx);
}

}  // namespace gio

using namespace gio;

extern "C" void gio_host_putmem(const char* routine, gio_ctx_v1* ctx, void* dest, const void* src, size_t n, int pe) {
  runtime& r = rt_checked(routine);
  check_host_ctx(r, routine, ctx);
  pe = team_ctx_world_pe(r, routine, ctx, pe);
  const uint64_t off = host_sym_offset(r, routine, dest, n, pe);
  if (!n) return;
  if (r.peers[pe].transport == GIO_TRANSPORT_GDA)
    gda_host_put(r, routine, off, src, n, pe);
  else if (r.peers[pe].transport == GIO_TRANSPORT_PROXY)
    proxy_host_put(r, routine, off, src, n, pe);
  else
    gpu::copy(mapped(r, routine, off, pe), src, n, routine);
}

extern "C" void gio_host_getmem(const char* routine, gio_ctx_v1* ctx, void* dest, const void* src, size_t n, int pe) {
  runtime& r = rt_checked(routine);
  check_host_ctx(r, routine, ctx);
  pe = team_ctx_world_pe(r, routine, ctx, pe);
  const uint64_t off = host_sym_offset(r, routine, src, n, pe);
  if (!n) return;
  if (r.peers[pe].transport == GIO_TRANSPORT_GDA)
    gda_host_get(r, routine, dest, off, n, pe);
  else if (r.peers[pe].transport == GIO_TRANSPORT_PROXY)
    proxy_host_get(r, routine, dest, off, n, pe);
  else
    gpu::copy(dest, mapped(r, routine, off, pe), n, routine);
}

extern "C" uint64_t gio_host_amo(const char* routine, gio_ctx_v1* ctx, int op, void* dest, uint64_t value,
                                 uint64_t compare, size_t size, int pe) {
  runtime& r = rt_checked(routine);
  check_host_ctx(r, routine, ctx);
  pe = team_ctx_world_pe(r, routine, ctx, pe);
  const uint64_t off = host_sym_offset(r, routine, dest, size, pe);
  if ((uintptr_t)dest % size)
    fatal(GIO_ERR_ARG, routine, "address %p (for PE %d) is not %zu-byte aligned", dest, pe, size);
  if (size != 4 && size != 8) fatal(GIO_ERR_ARG, routine, "atomic on %zu bytes is not supported", size);
  if (r.peers[pe].transport == GIO_TRANSPORT_GDA) return gda_host_amo(r, routine, op, off, value, compare, size, pe);
  if (r.peers[pe].transport == GIO_TRANSPORT_PROXY) return proxy_host_amo(r, routine, op, off, value, compare, size, pe);
  if (sym_is_segment(off)) return cpu_amo(mapped(r, routine, off, pe), op, value, compare, size, routine);
  return gpu::amo(mapped(r, routine, off, pe), op, value, compare, size, routine);
}

// Every host operation has completed when it returns. What is left is what kernels issued and did
// not complete themselves: their gda WQEs and proxy commands (p2p stores are done when the kernel is).
// SHMEM_CTX_INVALID, what a failed shmem_team_create_ctx stores, may be quieted, fenced and
// destroyed with no effect: the spec's own shmem_team_create_ctx example does so on the PEs
// outside the team.
static bool ctx_invalid(gio_ctx_v1* ctx) { return ctx == (gio_ctx_v1*)(uintptr_t)-1; }

extern "C" void gio_host_quiet(gio_ctx_v1* ctx) {
  runtime& r = rt_checked("shmem_quiet");
  if (ctx_invalid(ctx)) return;
  check_host_ctx(r, "shmem_quiet", ctx);
  gda_drain(r, "shmem_quiet");
  proxy_drain(r, "shmem_quiet");
}
extern "C" void gio_host_fence(gio_ctx_v1* ctx) {
  runtime& r = rt_checked("shmem_fence");
  if (ctx_invalid(ctx)) return;
  check_host_ctx(r, "shmem_fence", ctx);
}

extern "C" void gio_host_barrier_all(void) {
  runtime& r = rt_checked("shmem_barrier_all");
  gpu::sync("shmem_barrier_all");  // kernels this PE launched may still be writing
  gda_drain(r, "shmem_barrier_all");  // ... or have left WQEs with the NIC
  proxy_drain(r, "shmem_barrier_all");  // ... or commands with the proxy
  world_barrier_arrive(r);  // a timeout then names the PEs that did not enter (host/coll/arrivals.h)
  boot::barrier("shmem_barrier_all");
}

extern "C" void gio_host_sync_all(void) {
  world_barrier_arrive(rt_checked("shmem_sync_all"));
  boot::barrier("shmem_sync_all");
}

extern "C" void gio_host_putmem_signal(const char* routine, gio_ctx_v1* ctx, void* dest, const void* src, size_t n,
                                       uint64_t* sig_addr, uint64_t signal, int sig_op, int pe) {
  // Every signal argument is checked before the data moves: a rejected call writes nothing.
  runtime& r = rt_checked(routine);
  check_host_ctx(r, routine, ctx);
  pe = team_ctx_world_pe(r, routine, ctx, pe);  // once: the calls below get the world PE
  host_sym_offset(r, routine, sig_addr, sizeof(uint64_t), pe);
  if ((uintptr_t)sig_addr % sizeof(uint64_t))
    fatal(GIO_ERR_ARG, routine, "address %p (for PE %d) is not %zu-byte aligned", (void*)sig_addr, pe,
          sizeof(uint64_t));
  if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
    fatal(GIO_ERR_ARG, routine, "signal operation %d is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD", sig_op);
  gio_host_putmem(routine, nullptr, dest, src, n, pe);
  gio_host_amo(routine, nullptr, sig_op == SHMEM_SIGNAL_ADD ? GIO_AMO_FETCH_ADD : GIO_AMO_SET, sig_addr, signal, 0,
               sizeof(uint64_t), pe);
}

extern "C" uint64_t gio_host_signal_fetch(const uint64_t* sig_addr) {
  runtime& r = rt_checked("shmem_signal_fetch");
  return gio_host_amo("shmem_signal_fetch", nullptr, GIO_AMO_FETCH, (void*)sig_addr, 0, 0, sizeof(uint64_t), r.my_pe);
}

extern "C" void* gio_host_ptr(const void* dest, int pe) {
  runtime& r = rt_checked("shmem_ptr");
  const uint8_t* a = (const uint8_t*)dest;
  if (pe < 0 || pe >= r.n_pes) return nullptr;
  uint64_t seg_off;
  if (segment_offset(r, dest, 1, &seg_off))
    return pe == r.my_pe || r.peers[pe].transport == GIO_TRANSPORT_P2P ? sym_mapped(r, seg_off, pe) : nullptr;
  if (a < r.heap + GIO_HEAP_RESERVED || a >= r.heap + r.heap_size) return nullptr;
  if (pe == r.my_pe) return (void*)dest;  // a PE's own heap is always load/store reachable
  return r.peers[pe].transport == GIO_TRANSPORT_P2P ? r.peers[pe].base + (a - r.heap) : nullptr;
}

extern "C" int gio_host_ctx_create(long options, gio_ctx_v1** ctx) {
  runtime& r = rt_checked("shmem_ctx_create");
  std::lock_guard<std::mutex> g(r.ctx_lock);
  for (size_t i = 1; i < r.host_ctx.size(); ++i)
    if (!r.host_ctx[i].in_use) {
      r.host_ctx[i].in_use = 1;
      r.host_ctx[i].options = (uint32_t)options;
      *ctx = &r.host_ctx[i];
      return 0;
    }
  // Fixed capacity: pointers handed out must stay valid, so the vector never reallocates.
  if (r.host_ctx.size() >= r.host_ctx.capacity()) {
    *ctx = SHMEM_CTX_INVALID;
    return 1;
  }
  r.host_ctx.push_back(gio_ctx_v1{});
  gio_ctx_v1& c = r.host_ctx.back();
  c.magic = GIO_CTX_MAGIC;
  c.index = (uint32_t)(r.host_ctx.size() - 1);
  c.in_use = 1;
  c.options = (uint32_t)options;
  *ctx = &c;
  return 0;
}

extern "C" void gio_host_ctx_destroy(gio_ctx_v1* ctx) {
  runtime& r = rt_checked("shmem_ctx_destroy");
  if (!ctx || ctx_invalid(ctx)) return;
  check_host_ctx(r, "shmem_ctx_destroy", ctx);
  team_ctx_reset(r, ctx);
  std::lock_guard<std::mutex> g(r.ctx_lock);
  ctx->in_use = 0;
}
