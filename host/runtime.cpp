// The runtime's one instance and the argument checks every host routine makes. Nothing here calls
// into init, the transports or the teams: they all call these.
#include <cstdio>
#include <mutex>

#include "host/heap/globals.h"
#include "host/log.h"
#include "host/runtime.h"

namespace gio {

runtime& rt() {
  static runtime r;  // function-local: kernel modules may register from static initializers
  return r;
}

runtime& rt_checked(const char* routine) {
  runtime& r = rt();
  if (!r.initialized) {
    if (r.finalized) fatal(GIO_ERR_INIT, routine, "called after shmem_finalize");
    fatal(GIO_ERR_INIT, routine, "called before shmem_init");
  }
  return r;
}

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
  if (cpu_heap_offset(r, sym, n, &seg_off)) return seg_off;  // the default heap
  if (segment_offset(r, sym, n, &seg_off)) return seg_off;   // a global or static of the program
  if (a < r.heap + GIO_HEAP_RESERVED || a >= r.heap + r.heap_size) {
    if (in_cpu_heap(r, a))
      fatal(GIO_ERR_ARG, routine, "%zu bytes at %p (for PE %d) run past the end of the default heap [%p, %p)", n, sym,
            pe, (void*)r.cpu.base, (void*)(r.cpu.base + r.cpu.size));
    if (r.seg.size && a >= r.seg.base && a < r.seg.base + r.seg.size)
      fatal(GIO_ERR_ARG, routine, "%zu bytes at %p (for PE %d) run past the end of the program's data segment [%p, %p)",
            n, sym, pe, (void*)r.seg.base, (void*)(r.seg.base + r.seg.size));
    const std::string heaps = symmetric_ranges(r);
    if (r.seg.size)
      fatal(GIO_ERR_ARG, routine, "address %p (for PE %d) is outside %s and the program's data segment [%p, %p)", sym,
            pe, heaps.c_str(), (void*)r.seg.base, (void*)(r.seg.base + r.seg.size));
    fatal(GIO_ERR_ARG, routine, "address %p (for PE %d) is outside %s (globals are not symmetric: %s)", sym, pe,
          heaps.c_str(), r.seg.why.c_str());
  }
  uint64_t off = (uint64_t)(a - r.heap);
  if (n > r.heap_size - off)
    fatal(GIO_ERR_ARG, routine, "%zu bytes at heap offset %llu (for PE %d) run past the heap end (%llu bytes)", n,
          (unsigned long long)off, pe, (unsigned long long)r.heap_size);
  return off;
}

int dev_ctx_slot(const runtime& r, const gio_ctx_v1* ctx) {
  const gio_ctx_v1* first = (const gio_ctx_v1*)(r.heap + GIO_HEAP_RSVD_CTX_TABLE) + r.dev_ctx_first;
  const uintptr_t off = (uintptr_t)ctx - (uintptr_t)first;
  if (!r.heap || off >= r.dev_ctx_team.size() * sizeof(gio_ctx_v1) || off % sizeof(gio_ctx_v1)) return -1;
  return (int)(off / sizeof(gio_ctx_v1));
}

std::string symmetric_ranges(const runtime& r) {
  char buf[160];
  if (r.cpu.base)
    snprintf(buf, sizeof buf, "the default heap [%p, %p) and the GPU heap [%p, %p)", (void*)r.cpu.base,
             (void*)(r.cpu.base + r.cpu.size), (void*)(r.heap + GIO_HEAP_RESERVED), (void*)(r.heap + r.heap_size));
  else
    snprintf(buf, sizeof buf, "the symmetric heap [%p, %p)", (void*)(r.heap + GIO_HEAP_RESERVED),
             (void*)(r.heap + r.heap_size));
  return buf;
}

void check_host_ctx(runtime& r, const char* routine, gio_ctx_v1* ctx) {
  if (!ctx) return;
  std::lock_guard<std::mutex> g(r.ctx_lock);  // another thread may be creating one
  for (auto& c : r.host_ctx)
    if (&c == ctx && c.in_use) return;
  if (dev_ctx_slot(r, ctx) >= 0)
    fatal(GIO_ERR_ARG, routine, "context %p was made with SHMEM_DEVICE_CTX: a device context is for GPU-centric "
          "routines in kernels; host code takes a context made without it (or SHMEM_CTX_DEFAULT)", (void*)ctx);
  fatal(GIO_ERR_ARG, routine, "context %p is not a live host context (device contexts cannot be used from host code)",
        (void*)ctx);
}

bool host_ctx_invalid(const gio_ctx_v1* ctx) { return ctx == (const gio_ctx_v1*)(uintptr_t)-1; }

}  // namespace gio
