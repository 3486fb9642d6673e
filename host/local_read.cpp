#include "host/local_read.h"

#include <cstdint>
#include <cstring>

#include "host/log.h"

namespace gio {

void host_local_read(runtime& r, const char* routine, void* dst, const void* sym, size_t bytes, size_t elem) {
  host_sym_offset(r, routine, sym, bytes, r.my_pe);
  if ((uintptr_t)sym % elem)
    fatal(GIO_ERR_ARG, routine, "address %p is not %zu-byte aligned", sym, elem);
#if defined(GIO_PLATFORM_HOST)
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
#else
  gpu::copy(dst, sym, bytes, routine);
#endif
}

}  // namespace gio
