// Host-initiated RMA, atomics and synchronization (the "Inter-K" path: the host moves heap data
// between kernels). Same argument checks and messages as the device side, and the same transport:
// every operation goes through the table of the peer's transport (host/transport/transport.h), so
// a peer the kernels reach over gda is reached over gda from here too.
//
// Threads (SHMEM_THREAD_MULTIPLE): nothing here keeps state between calls; the platform's copies
// and atomics and the gda host queues serialize what they share themselves. Argument checks are
// host/runtime.cpp's, contexts host/ctx.cpp's.
#include "runtime/api/c/shmem_c.h"
#include "runtime/host_entry.h"

#include "host/bootstrap/bootstrap.h"
#include "host/coll/arrivals.h"
#include "host/coll/coll.h"
#include "host/log.h"
#include "host/platform/gpu.h"
#include "host/runtime.h"
#include "host/transport/transport.h"

#include <vector>

using namespace gio;

namespace {
// A put to this PE whose source overlaps its destination, or a get from it likewise, moves the
// bytes as memmove does, on every transport (docs/guide.md, "Overlapping source and destination"):
// the source is read into a host buffer first, so no transport's copy (the proxy's chunked
// fi_write or fi_read, a copy engine, a forward loop) reads bytes it has already overwritten. On
// this PE the symmetric address is the local one, so the test is on the caller's pointers.
bool overlaps_here(const runtime& r, int pe, const void* a, const void* b, size_t n) {
  const uint8_t *x = (const uint8_t*)a, *y = (const uint8_t*)b;
  return pe == r.my_pe && x != y && x < y + n && y < x + n;
}
}  // namespace

extern "C" void gio_host_putmem(const char* routine, gio_ctx_v1* ctx, void* dest, const void* src, size_t n, int pe) {
  runtime& r = rt_checked(routine);
  check_host_ctx(r, routine, ctx);
  pe = team_ctx_world_pe(r, routine, ctx, pe);
  const uint64_t off = host_sym_offset(r, routine, dest, n, pe);
  if (!n) return;
  if (overlaps_here(r, pe, dest, src, n)) {
    std::vector<uint8_t> staged(n);
    gpu::copy(staged.data(), src, n, routine);
    transport_for(r, routine, off, pe).put(r, routine, off, staged.data(), n, pe);
    return;
  }
  transport_for(r, routine, off, pe).put(r, routine, off, src, n, pe);
}

extern "C" void gio_host_getmem(const char* routine, gio_ctx_v1* ctx, void* dest, const void* src, size_t n, int pe) {
  runtime& r = rt_checked(routine);
  check_host_ctx(r, routine, ctx);
  pe = team_ctx_world_pe(r, routine, ctx, pe);
  const uint64_t off = host_sym_offset(r, routine, src, n, pe);
  if (!n) return;
  if (overlaps_here(r, pe, dest, src, n)) {
    std::vector<uint8_t> staged(n);
    transport_for(r, routine, off, pe).get(r, routine, staged.data(), off, n, pe);
    gpu::copy(dest, staged.data(), n, routine);
    return;
  }
  transport_for(r, routine, off, pe).get(r, routine, dest, off, n, pe);
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
  return transport_for(r, routine, off, pe).amo(r, routine, op, off, value, compare, size, pe);
}

// Every host operation has completed when it returns. What is left is what kernels issued and did
// not complete themselves: what they left with a transport (gda WQEs, proxy commands; p2p stores
// are done when the kernel is).

extern "C" void gio_host_quiet(gio_ctx_v1* ctx) {
  runtime& r = rt_checked("shmem_quiet");
  if (host_ctx_invalid(ctx)) return;
  check_host_ctx(r, "shmem_quiet", ctx);
  transports_drain(r, "shmem_quiet");
}
// Every named PE is checked first; then the context is quiet for all of them at once (a quiet of
// every PE completes at least what the spec asks of these).
extern "C" void gio_host_pe_quiet(const char* routine, gio_ctx_v1* ctx, const int* target_pes, size_t npes) {
  runtime& r = rt_checked(routine);
  if (host_ctx_invalid(ctx)) return;
  check_host_ctx(r, routine, ctx);
  if (npes == 0) return;
  if (!target_pes) fatal(GIO_ERR_ARG, routine, "target_pes is NULL with npes %zu", npes);
  for (size_t i = 0; i < npes; ++i) host_check_pe(r, routine, team_ctx_world_pe(r, routine, ctx, target_pes[i]));
  transports_drain(r, routine);
}
extern "C" void gio_host_fence(gio_ctx_v1* ctx) {
  runtime& r = rt_checked("shmem_fence");
  if (host_ctx_invalid(ctx)) return;
  check_host_ctx(r, "shmem_fence", ctx);
}

extern "C" void gio_host_barrier_all(void) {
  runtime& r = rt_checked("shmem_barrier_all");
  gpu::sync("shmem_barrier_all");  // kernels this PE launched may still be writing
  transports_drain(r, "shmem_barrier_all");  // ... or have left WQEs with the NIC, commands with the proxy
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
  const uint64_t sig_off = host_sym_offset(r, routine, sig_addr, sizeof(uint64_t), pe);
  if ((uintptr_t)sig_addr % sizeof(uint64_t))
    fatal(GIO_ERR_ARG, routine, "address %p (for PE %d) is not %zu-byte aligned", (void*)sig_addr, pe,
          sizeof(uint64_t));
  if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
    fatal(GIO_ERR_ARG, routine, "signal operation %d is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD", sig_op);
  const uint64_t off = host_sym_offset(r, routine, dest, n, pe);
  // The data and the signal may lie in different heaps, each moved its own way (transport_for).
  std::vector<uint8_t> staged;
  if (overlaps_here(r, pe, dest, src, n)) {
    staged.resize(n);
    gpu::copy(staged.data(), src, n, routine);
    src = staged.data();
  }
  if (n) transport_for(r, routine, off, pe).put(r, routine, off, src, n, pe);  // complete on return: the signal never overtakes it
  transport_for(r, routine, sig_off, pe)
      .signal(r, routine, sig_off, signal, sig_op == SHMEM_SIGNAL_ADD ? GIO_AMO_FETCH_ADD : GIO_AMO_SET, pe);
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
  // The default heap: where this PE maps the peer's (its node's PEs), whatever the peer's transport.
  if (cpu_heap_offset(r, dest, 1, &seg_off)) return sym_mapped(r, seg_off, pe);
  if (segment_offset(r, dest, 1, &seg_off))
    return pe == r.my_pe ? sym_mapped(r, seg_off, pe) : transport_of(r, pe).ptr(r, seg_off, pe);
  if (a < r.heap + GIO_HEAP_RESERVED || a >= r.heap + r.heap_size) return nullptr;
  if (pe == r.my_pe) return (void*)dest;  // a PE's own heap is always load/store reachable
  return transport_of(r, pe).ptr(r, (uint64_t)(a - r.heap), pe);
}
