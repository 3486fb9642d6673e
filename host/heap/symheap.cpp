// Collective symmetric allocation on the two heaps (docs/heaps.md): shmem_malloc / calloc / align /
// realloc / free / malloc_with_hints on the default heap (CPU-attached; the GPU heap with
// GIO_DEFAULT_HEAP=gpu), shmemg_malloc / calloc / align / free on the GPU heap.
// Every PE runs the same deterministic allocator on the same call sequence, so a block has the
// same offset everywhere; the size and alignment are compared across PEs first so a mismatched
// call is reported instead of silently giving PEs different layouts.
#include "gio_config.h"  // GIO_PLATFORM_HOST: whether the GPU heap is host memory
#include <cinttypes>
#include <cstring>
#include <vector>

#include "runtime/api/c/shmem_c.h"
#include "runtime/api/shmemg_host.h"

#include "host/bootstrap/bootstrap.h"
#include "host/log.h"
#include "host/runtime.h"

using namespace gio;

namespace {

// One heap as the allocation routines see it.
struct heap_view {
  uint8_t* base;
  uint64_t size;
  heap_allocator* alloc;
  bool host_memory;      // loads and stores from host code (else: copies through the platform)
  const char* name;      // in messages
  const char* size_key;  // the setting that sizes it
  const char* alloc_name;  // what returned its blocks, in messages
};

heap_view gpu_heap(runtime& r) {
#if defined(GIO_PLATFORM_HOST)
  const bool host_memory = true;
#else
  const bool host_memory = false;
#endif
  return {r.heap, r.heap_size, r.alloc.get(), host_memory, "the GPU heap", "SHMEM_DEVICE_SYMMETRIC_SIZE (or GIO_SYMMETRIC_SIZE)",
          "shmemg_malloc"};
}

// shmem_malloc's heap: the default heap, or the GPU heap under GIO_DEFAULT_HEAP=gpu.
heap_view default_heap(runtime& r) {
  if (!r.cpu.base) {
    heap_view h = gpu_heap(r);
    h.alloc_name = "shmem_malloc";
    return h;
  }
  return {r.cpu.base, r.cpu.size, r.cpu.alloc.get(), true, "the default heap", "SHMEM_SYMMETRIC_SIZE", "shmem_malloc"};
}

// The GPU heap's routines need the draft's GPU initialization (its Annex C leaves the rest undefined;
// GIO stops with what to do).
void require_gpu_init(runtime& r, const char* routine) {
  if (r.device_bits & (SHMEM_DEVICE_HOST_INIT | SHMEM_DEVICE_KERNEL_INIT)) return;
  fatal(GIO_ERR_INIT, routine, "the GPU heap needs GPU support: initialize with shmem_init_thread(level | "
        "SHMEM_DEVICE_KERNEL_INIT (kernels) or SHMEM_DEVICE_HOST_INIT (host routines), &provided) instead of "
        "shmem_init, or allocate host-side data with shmem_malloc");
}

void agree(const char* routine, const char* what, uint64_t v) {
  uint64_t lo, hi;
  boot::minmax_u64(v, &lo, &hi, routine);
  if (lo != hi)
    fatal(GIO_ERR_COLLECTIVE, routine, "PEs called it with different %s: this PE %llu, others from %llu to %llu",
          what, (unsigned long long)v, (unsigned long long)lo, (unsigned long long)hi);
}

void* alloc_common(runtime& r, const heap_view& h, const char* routine, size_t size, size_t align) {
  std::lock_guard<std::recursive_mutex> g(r.lock);
  // Stream work queued before the call (a hipMemset of a block being reused, say) lands first:
  // calloc's zeroing and later host RMA run on GIO's own streams, which do not wait for it.
  gpu::sync(routine);
  agree(routine, "sizes", size);
  agree(routine, "alignments", align);
  if (align == 0 || (align & (align - 1)))
    fatal(GIO_ERR_ARG, routine, "alignment %zu is not a power of two", align);
  if (align > h.size)
    fatal(GIO_ERR_ARG, routine, "alignment %zu is larger than %s (%llu bytes; %s)", align, h.name,
          (unsigned long long)h.size, h.size_key);
  // The allocator aligns addresses, not offsets: past the heap base's own alignment the same offset
  // is aligned on every PE only if every base lies at the same distance from an aligned address.
  // Host-memory heaps are placed on their size's largest power of two; a GPU heap (hipMalloc) is
  // aligned to 2 MiB, and beyond that the PEs' bases may or may not agree.
  const uint64_t bias = (uintptr_t)h.base % align;
  if (align > GIO_HEAP_MIN_ALIGN) {
    uint64_t lo, hi;
    boot::minmax_u64(bias, &lo, &hi, routine);
    if (lo != hi)
      fatal(GIO_ERR_ARG, routine,
            "alignment %zu cannot be symmetric: the PEs' bases of %s lie at different offsets modulo %zu (this "
            "PE's at %p, offset %llu; others from %llu to %llu)",
            align, h.name, align, (void*)h.base, (unsigned long long)bias, (unsigned long long)lo,
            (unsigned long long)hi);
  }
  if (size == 0) {
    boot::barrier(routine);
    return nullptr;
  }
  auto off = h.alloc->alloc(size, align, bias);
  if (!off) {
    // OpenSHMEM: a request that cannot be met returns NULL (on every PE: each runs the same
    // allocator on the same calls), and the program decides. GIO_DEBUG=1 says why.
    info(1, "%s: %s is exhausted: %zu bytes requested, %llu free (largest block %llu) of %llu, at alignment %zu; "
         "returning NULL (%s sets its size)", routine, h.name, size, (unsigned long long)h.alloc->bytes_free(),
         (unsigned long long)h.alloc->largest_free(), (unsigned long long)h.size, align, h.size_key);
    boot::barrier(routine);
    return nullptr;
  }
  info(2, "%s(%zu) -> offset %llu of %s", routine, size, (unsigned long long)*off, h.name);
  boot::barrier(routine);
  return h.base + *off;
}

void zero(const heap_view& h, void* p, size_t n, const char* routine) {
  if (h.host_memory) {
    memset(p, 0, n);
    return;
  }
  // GPU memory: zeroed through a bounce buffer the platform can copy from.
  std::vector<uint8_t> zeros(n < (1u << 20) ? n : (1u << 20), 0);
  for (size_t done = 0; done < n; done += zeros.size()) {
    const size_t k = n - done < zeros.size() ? n - done : zeros.size();
    gpu::copy((uint8_t*)p + done, zeros.data(), k, routine);
  }
}

void* calloc_common(runtime& r, const heap_view& h, const char* routine, size_t count, size_t size) {
  if (size && count > SIZE_MAX / size)
    fatal(GIO_ERR_ARG, routine, "count %zu x size %zu overflows", count, size);
  void* p = alloc_common(r, h, routine, count * size, GIO_HEAP_MIN_ALIGN);
  if (p) {
    zero(h, p, count * size, routine);
    boot::barrier(routine);
  }
  return p;
}

// The block's offset in `h`, or a fatal error that says which heap it does belong to.
uint64_t offset_of(runtime& r, const heap_view& h, const char* routine, void* ptr) {
  uint8_t* p = (uint8_t*)ptr;
  if (p >= h.base && p < h.base + h.size && h.alloc->is_block((uint64_t)(p - h.base))) return (uint64_t)(p - h.base);
  if (h.base != r.heap && in_gpu_heap(r, p))
    fatal(GIO_ERR_ARG, routine, "%p is in the GPU heap, not the default heap: free it with shmemg_free", ptr);
  if (h.base == r.heap && in_cpu_heap(r, p))
    fatal(GIO_ERR_ARG, routine, "%p is in the default heap, not the GPU heap: free it with shmem_free", ptr);
  fatal(GIO_ERR_ARG, routine, "%p is not a block returned by %s on this PE", ptr, h.alloc_name);
}

void free_common(runtime& r, const heap_view& h, const char* routine, void* ptr) {
  std::lock_guard<std::recursive_mutex> g(r.lock);
  uint64_t off = ptr ? offset_of(r, h, routine, ptr) : 0;
  agree(routine, "blocks (heap offsets)", off);
  // No kernel or copy of this PE (gpu::sync), and no other PE (the barrier), may still be writing
  // into the block when it is handed out again.
  gpu::sync(routine);
  boot::barrier(routine);
  if (ptr) h.alloc->free(off);
}

}  // namespace

extern "C" void* shmem_malloc(size_t size) {
  runtime& r = rt_checked("shmem_malloc");
  return alloc_common(r, default_heap(r), "shmem_malloc", size, GIO_HEAP_MIN_ALIGN);
}

// The hints say how the block will be used. Every GIO block is reachable by every transport's
// atomics and signals already, so no OpenSHMEM hint changes the allocation; the GPU draft's
// SHMEM_DEVICE_MALLOC_* hints take the block from the GPU heap once GPU support is initialized
// (before that they are ignored like unknown hints: a program that never asked for GPU support
// gets a block host code can use). Hints GIO does not know (another implementation's, or a later
// spec's) are ignored as the spec lets an implementation do, so a program written for another
// OpenSHMEM still runs (tests-sos passes every bit). GIO_DEBUG=1 says so.
extern "C" void* shmem_malloc_with_hints(size_t size, long hints) {
  const long device = SHMEM_DEVICE_MALLOC_HOST_INIT | SHMEM_DEVICE_MALLOC_KERNEL_INIT;
  const long known = SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE | device;
  runtime& r = rt_checked("shmem_malloc_with_hints");
  if ((hints & ~known) && r.cfg.GIO_DEBUG)
    fprintf(stderr, "GIO: PE %d: shmem_malloc_with_hints: hints 0x%lx outside SHMEM_MALLOC_ATOMICS_REMOTE | "
            "SHMEM_MALLOC_SIGNAL_REMOTE | SHMEM_DEVICE_MALLOC_* (0x%lx) are ignored\n", r.my_pe,
            (unsigned long)hints, (unsigned long)known);
  agree("shmem_malloc_with_hints", "GPU heap hints (SHMEM_DEVICE_MALLOC_*)", (uint64_t)(hints & device));
  if ((hints & device) && r.device_bits)
    return alloc_common(r, gpu_heap(r), "shmem_malloc_with_hints", size, GIO_HEAP_MIN_ALIGN);
  return alloc_common(r, default_heap(r), "shmem_malloc_with_hints", size, GIO_HEAP_MIN_ALIGN);
}

extern "C" void* shmem_align(size_t alignment, size_t size) {
  runtime& r = rt_checked("shmem_align");
  return alloc_common(r, default_heap(r), "shmem_align", size, alignment);
}

extern "C" void* shmem_calloc(size_t count, size_t size) {
  runtime& r = rt_checked("shmem_calloc");
  return calloc_common(r, default_heap(r), "shmem_calloc", count, size);
}

extern "C" void shmem_free(void* ptr) {
  runtime& r = rt_checked("shmem_free");
  // A block of shmem_malloc_with_hints' GPU hints lives in the GPU heap: shmem_free takes it back.
  if (ptr && r.cpu.base && in_gpu_heap(r, ptr)) return free_common(r, gpu_heap(r), "shmem_free", ptr);
  free_common(r, default_heap(r), "shmem_free", ptr);
}

extern "C" void* shmem_realloc(void* ptr, size_t size) {
  if (!ptr) return shmem_malloc(size);
  if (size == 0) {
    shmem_free(ptr);
    return nullptr;
  }
  runtime& r = rt_checked("shmem_realloc");
  const heap_view h = r.cpu.base && in_gpu_heap(r, ptr) ? gpu_heap(r) : default_heap(r);
  std::lock_guard<std::recursive_mutex> g(r.lock);
  uint64_t off = offset_of(r, h, "shmem_realloc", ptr);
  agree("shmem_realloc", "blocks (heap offsets)", off);
  agree("shmem_realloc", "sizes", size);
  gpu::sync("shmem_realloc");
  boot::barrier("shmem_realloc");
  uint64_t old_size = h.alloc->block_size(off);
  bool moved = false;
  auto noff = h.alloc->realloc(off, size, &moved);
  if (!noff) {
    // As for shmem_malloc: NULL, and the block stays as it was.
    info(1, "shmem_realloc: %s is exhausted: %zu bytes requested, %llu free (largest block %llu); returning NULL, "
         "the block unchanged", h.name, size, (unsigned long long)h.alloc->bytes_free(),
         (unsigned long long)h.alloc->largest_free());
    boot::barrier("shmem_realloc");
    return nullptr;
  }
  if (moved) {
    const size_t n = old_size < size ? old_size : size;
    if (h.host_memory)
      memcpy(h.base + *noff, h.base + off, n);
    else
      gpu::copy(h.base + *noff, h.base + off, n, "shmem_realloc");
    h.alloc->free(off);
  }
  boot::barrier("shmem_realloc");
  return h.base + *noff;
}

extern "C" void* shmemg_malloc(size_t size) {
  runtime& r = rt_checked("shmemg_malloc");
  require_gpu_init(r, "shmemg_malloc");
  return alloc_common(r, gpu_heap(r), "shmemg_malloc", size, GIO_HEAP_MIN_ALIGN);
}

extern "C" void* shmemg_calloc(size_t count, size_t size) {
  runtime& r = rt_checked("shmemg_calloc");
  require_gpu_init(r, "shmemg_calloc");
  return calloc_common(r, gpu_heap(r), "shmemg_calloc", count, size);
}

extern "C" void* shmemg_align(size_t alignment, size_t size) {
  runtime& r = rt_checked("shmemg_align");
  require_gpu_init(r, "shmemg_align");
  return alloc_common(r, gpu_heap(r), "shmemg_align", size, alignment);
}

extern "C" void shmemg_free(void* ptr) {
  runtime& r = rt_checked("shmemg_free");
  require_gpu_init(r, "shmemg_free");
  free_common(r, gpu_heap(r), "shmemg_free", ptr);
}
