// Host half of the non-blocking fetching atomics (device/api/amo_nbi.h says why they complete
// before returning). `fetch` may be host memory or device memory (the heap, hipMalloc), so the old
// value is written with the platform's copy, which reaches either.
#include "runtime/api/c/shmem_c.h"
#include "runtime/host_entry.h"

#include "host/platform/gpu.h"

extern "C" void gio_host_amo_nbi(const char* routine, gio_ctx_v1* ctx, int op, void* fetch, void* dest,
                                 uint64_t value, uint64_t compare, size_t size, int pe) {
  const uint64_t old = gio_host_amo(routine, ctx, op, dest, value, compare, size, pe);
  gio::gpu::copy(fetch, &old, size, routine);  // little-endian: the low `size` bytes come first
}
