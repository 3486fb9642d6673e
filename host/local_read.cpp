#include "host/local_read.h"

#include <cstdint>
#include <cstring>

#include "gio_config.h"  // GIO_PLATFORM_HOST: without it the host platform took the copy path
#include "host/log.h"

namespace gio {
namespace {
// Each `elem`-byte word loaded whole, with acquire: the softnic and proxy threads, and peers' CPUs
// through their mappings, store such words with atomics.
void load_words(void* dst, const void* sym, size_t bytes, size_t elem) {
  uint8_t* d = (uint8_t*)dst;
  const uint8_t* s = (const uint8_t*)sym;
  for (size_t i = 0; i < bytes; i += elem) {
    switch (elem) {
      case 1: d[i] = __atomic_load_n(s + i, __ATOMIC_ACQUIRE); break;
      case 2: { uint16_t v = __atomic_load_n((const uint16_t*)(s + i), __ATOMIC_ACQUIRE); memcpy(d + i, &v, 2); break; }
      case 4: { uint32_t v = __atomic_load_n((const uint32_t*)(s + i), __ATOMIC_ACQUIRE); memcpy(d + i, &v, 4); break; }
      default: { uint64_t v = __atomic_load_n((const uint64_t*)(s + i), __ATOMIC_ACQUIRE); memcpy(d + i, &v, 8); break; }
    }
  }
}
}  // namespace

void host_local_read(runtime& r, const char* routine, void* dst, const void* sym, size_t bytes, size_t elem) {
  const uint64_t off = host_sym_offset(r, routine, sym, bytes, r.my_pe);
  if ((uintptr_t)sym % elem)
    fatal(GIO_ERR_ARG, routine, "address %p is not %zu-byte aligned", sym, elem);
#if defined(GIO_PLATFORM_HOST)
  (void)off;
  const bool host_memory = true;  // the heap is process memory too
#else
  // A global or a default-heap word (host/heap/globals.h) is host memory on every platform.
  const bool host_memory = sym_is_host_memory(off);
#endif
  if (host_memory)
    load_words(dst, sym, bytes, elem);
  else
    gpu::copy(dst, sym, bytes, routine);
}

}  // namespace gio
