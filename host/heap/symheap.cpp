// Collective symmetric allocation: shmem_malloc / calloc / align / realloc / free.
// Every PE runs the same deterministic allocator on the same call sequence, so a block has the
// same offset everywhere; the size and alignment are compared across PEs first so a mismatched
// call is reported instead of silently giving PEs different layouts.
#include <cinttypes>
#include <vector>

#include "runtime/api/c/shmem_c.h"

#include "host/bootstrap/bootstrap.h"
#include "host/log.h"
#include "host/runtime.h"

using namespace gio;

namespace {
void agree(runtime& r, const char* routine, const char* what, uint64_t v) {
  uint64_t lo, hi;
  boot::minmax_u64(v, &lo, &hi, routine);
  if (lo != hi)
    fatal(GIO_ERR_COLLECTIVE, routine, "PEs called it with different %s: this PE %llu, others from %llu to %llu",
          what, (unsigned long long)v, (unsigned long long)lo, (unsigned long long)hi);
  (void)r;
}

void* alloc_common(const char* routine, size_t size, size_t align) {
  runtime& r = rt_checked(routine);
  std::lock_guard<std::recursive_mutex> g(r.lock);
  // Stream work queued before the call (a hipMemset of a block being reused, say) lands first:
  // calloc's zeroing and later host RMA run on GIO's own streams, which do not wait for it.
  gpu::sync(routine);
  agree(r, routine, "sizes", size);
  agree(r, routine, "alignments", align);
  if (align == 0 || (align & (align - 1)))
    fatal(GIO_ERR_ARG, routine, "alignment %zu is not a power of two", align);
  if (align > r.heap_size)
    fatal(GIO_ERR_ARG, routine, "alignment %zu is larger than the symmetric heap (%llu bytes; GIO_SYMMETRIC_SIZE)",
          align, (unsigned long long)r.heap_size);
  // The allocator aligns addresses, not offsets: past the heap base's own alignment the same offset
  // is aligned on every PE only if every base lies at the same distance from an aligned address. The
  // host platform aligns its heap to the heap size's largest power of two; a GPU heap (hipMalloc) is
  // aligned to 2 MiB, and beyond that the PEs' bases may or may not agree.
  const uint64_t bias = (uintptr_t)r.heap % align;
  if (align > GIO_HEAP_MIN_ALIGN) {
    uint64_t lo, hi;
    boot::minmax_u64(bias, &lo, &hi, routine);
    if (lo != hi)
      fatal(GIO_ERR_ARG, routine,
            "alignment %zu cannot be symmetric: the PEs' heap bases lie at different offsets modulo %zu (this PE's "
            "heap at %p, offset %llu; others from %llu to %llu)",
            align, align, (void*)r.heap, (unsigned long long)bias, (unsigned long long)lo, (unsigned long long)hi);
  }
  if (size == 0) {
    boot::barrier(routine);
    return nullptr;
  }
  auto off = r.alloc->alloc(size, align, bias);
  if (!off) {
    // OpenSHMEM: a request that cannot be met returns NULL (on every PE: each runs the same
    // allocator on the same calls), and the program decides. GIO_DEBUG=1 says why.
    info(1, "%s: symmetric heap exhausted: %zu bytes requested, %llu free (largest block %llu) of %llu, at "
         "alignment %zu; returning NULL (GIO_SYMMETRIC_SIZE sets the heap)", routine, size,
         (unsigned long long)r.alloc->bytes_free(), (unsigned long long)r.alloc->largest_free(),
         (unsigned long long)r.heap_size, align);
    boot::barrier(routine);
    return nullptr;
  }
  info(2, "%s(%zu) -> offset %llu", routine, size, (unsigned long long)*off);
  boot::barrier(routine);
  return r.heap + *off;
}

uint64_t offset_of(runtime& r, const char* routine, void* ptr) {
  uint8_t* p = (uint8_t*)ptr;
  if (p < r.heap || p >= r.heap + r.heap_size || !r.alloc->is_block((uint64_t)(p - r.heap)))
    fatal(GIO_ERR_ARG, routine, "%p is not a block returned by shmem_malloc on this PE", ptr);
  return (uint64_t)(p - r.heap);
}
}  // namespace

extern "C" void* shmem_malloc(size_t size) { return alloc_common("shmem_malloc", size, GIO_HEAP_MIN_ALIGN); }

// The hints say how the block will be used. Every GIO block is reachable by every transport's
// atomics and signals already, so no hint changes the allocation. Hints GIO does not know (another
// implementation's, or a later spec's) are ignored as the spec lets an implementation do, so a
// program written for another OpenSHMEM still runs (tests-sos passes every bit). GIO_DEBUG=1 says so.
extern "C" void* shmem_malloc_with_hints(size_t size, long hints) {
  const long known = SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE;
  runtime& r = rt_checked("shmem_malloc_with_hints");
  if ((hints & ~known) && r.cfg.GIO_DEBUG)
    fprintf(stderr, "GIO: PE %d: shmem_malloc_with_hints: hints 0x%lx outside SHMEM_MALLOC_ATOMICS_REMOTE | "
            "SHMEM_MALLOC_SIGNAL_REMOTE (0x%lx) are ignored\n", r.my_pe, (unsigned long)hints, (unsigned long)known);
  return alloc_common("shmem_malloc_with_hints", size, GIO_HEAP_MIN_ALIGN);
}

extern "C" void* shmem_align(size_t alignment, size_t size) { return alloc_common("shmem_align", size, alignment); }

extern "C" void* shmem_calloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size)
    fatal(GIO_ERR_ARG, "shmem_calloc", "count %zu x size %zu overflows", count, size);
  void* p = alloc_common("shmem_calloc", count * size, GIO_HEAP_MIN_ALIGN);
  if (p) {
    // The heap is device memory: zero through a bounce buffer the platform can copy from.
    std::vector<uint8_t> zeros(count * size < (1u << 20) ? count * size : (1u << 20), 0);
    for (size_t done = 0; done < count * size; done += zeros.size()) {
      size_t n = count * size - done < zeros.size() ? count * size - done : zeros.size();
      gpu::copy((uint8_t*)p + done, zeros.data(), n, "shmem_calloc");
    }
    boot::barrier("shmem_calloc");
  }
  return p;
}

extern "C" void shmem_free(void* ptr) {
  runtime& r = rt_checked("shmem_free");
  std::lock_guard<std::recursive_mutex> g(r.lock);
  uint64_t off = ptr ? offset_of(r, "shmem_free", ptr) : 0;
  agree(r, "shmem_free", "blocks (heap offsets)", off);
  // No kernel or copy of this PE (gpu::sync), and no other PE (the barrier), may still be writing
  // into the block when it is handed out again.
  gpu::sync("shmem_free");
  boot::barrier("shmem_free");
  if (ptr) r.alloc->free(off);
}

extern "C" void* shmem_realloc(void* ptr, size_t size) {
  if (!ptr) return shmem_malloc(size);
  if (size == 0) {
    shmem_free(ptr);
    return nullptr;
  }
  runtime& r = rt_checked("shmem_realloc");
  std::lock_guard<std::recursive_mutex> g(r.lock);
  uint64_t off = offset_of(r, "shmem_realloc", ptr);
  agree(r, "shmem_realloc", "blocks (heap offsets)", off);
  agree(r, "shmem_realloc", "sizes", size);
  boot::barrier("shmem_realloc");
  uint64_t old_size = r.alloc->block_size(off);
  bool moved = false;
  auto noff = r.alloc->realloc(off, size, &moved);
  if (!noff) {
    // As for shmem_malloc: NULL, and the block stays as it was.
    info(1, "shmem_realloc: symmetric heap exhausted: %zu bytes requested, %llu free (largest block %llu); returning "
         "NULL, the block unchanged", size, (unsigned long long)r.alloc->bytes_free(),
         (unsigned long long)r.alloc->largest_free());
    boot::barrier("shmem_realloc");
    return nullptr;
  }
  if (moved) {
    gpu::copy(r.heap + *noff, r.heap + off, old_size < size ? old_size : size, "shmem_realloc");
    r.alloc->free(off);
  }
  boot::barrier("shmem_realloc");
  return r.heap + *noff;
}
