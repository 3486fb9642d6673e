// Reading this PE's own symmetric memory from host code, while kernels and peers may be writing it.
#pragma once
#include <cstddef>

#include "host/runtime.h"

namespace gio {

// Copies `bytes` at the symmetric address `sym` of this PE into `dst`, each `elem`-byte word (1, 2,
// 4 or 8, `sym` aligned to it) read whole. The host platform loads each word atomically (the
// softnic and proxy threads store with atomics); GPUs copy on a copy engine, so a running kernel
// of this GPU that holds every SM cannot stall the read and the read never waits for kernels.
// An address outside the symmetric heap and the program's data segment (its globals: read as host
// memory on every platform) is a fatal error naming `routine`.
void host_local_read(runtime& r, const char* routine, void* dst, const void* sym, size_t bytes, size_t elem);

}  // namespace gio
