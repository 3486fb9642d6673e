// Host code that dereferences a GPU-heap address (cuda, hip: the GPU heap is device memory) gets a
// message naming the address, the heap and what to do instead, not a bare SIGSEGV: a SIGSEGV
// handler recognizes fault addresses inside this PE's GPU heap or a peer's GPU heap mapped here,
// and hands every other fault to the handler the program had installed (or the default action).
#pragma once

namespace gio {
struct runtime;

// From shmem_init (once the heaps and peer mappings exist): on cuda and hip. On the host platform
// the GPU heap is host memory that never faults, so only `always` installs it there (the test that
// protects a page of the emulated GPU heap to stand for device memory, tests/func/faults).
void fault_guard_install(runtime& r, bool always = false);
// shmem_finalize: the previous handler is back (unless the program replaced this one since).
void fault_guard_remove();

}  // namespace gio
