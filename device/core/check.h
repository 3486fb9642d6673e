// Device-side argument checks, fatal errors and bounded waits.
// A bad argument or an expired wait prints PE, work-group, thread and the values involved, then
// stops the kernel (trap on GPUs: the host sees the failure at its next synchronization; on the
// host platform the job exits with GIO_EXIT_CODE).
#pragma once
#include "device/core/state.h"
#include "runtime/status.h"
#include <stdio.h>

#if GIO_KERNEL_COMPILER
// GIO_DEV_PRINT: the platform's printf for device messages (device/platform/*/platform.h).

// Every device error line starts the same way so logs can be grepped.
#define GIO_DEV_FATAL(routine, fmt, ...)                                                          \
  do {                                                                                            \
    GIO_DEV_PRINT("GIO error: %s on PE %d (work-group %u, thread %u): " fmt "\n", routine,        \
                  GIO_DSTATE.my_pe, ::gio::plat::wg_id(), ::gio::plat::wg_thread(), ##__VA_ARGS__); \
    ::gio::dev::die(GIO_ERR_ARG);                                                                 \
  } while (0)

namespace gio {
namespace dev {

[[noreturn]] GIO_DEVICE_INLINE void die(int status) { plat::stop(status); }

// The failure halves below are out of line: the checks inline to a compare and a branch.
[[noreturn]] GIO_DEVICE_NOINLINE void fail_init(const char* routine) {
  GIO_DEV_PRINT("GIO error: %s called in a kernel before shmem_init (or after shmem_finalize)\n", routine);
  die(GIO_ERR_INIT);
}
[[noreturn]] GIO_DEVICE_NOINLINE void fail_pe(const char* routine, int pe) {
  GIO_DEV_FATAL(routine, "target PE %d is out of range [0, %d)", pe, GIO_DSTATE.n_pes);
}
[[noreturn]] GIO_DEVICE_NOINLINE void fail_sym(const char* routine, const void* p, size_t n, int pe) {
  const gio_device_state_v1& st = GIO_DSTATE;
  const uint8_t* a = (const uint8_t*)p;
  // Device routines take GPU-heap operands by contract (the GPU draft's Annex C): the fast path
  // never asks which heap an address is in; only a failed check tells a default-heap block apart.
  if (st.cpu_heap_base && a >= st.cpu_heap_base && a < st.cpu_heap_base + st.cpu_heap_size)
    GIO_DEV_FATAL(routine, "address %p (for PE %d) is in the default heap [%p, %p) (shmem_malloc: host memory); "
                  "device routines take symmetric operands in the GPU heap [%p, %p) (shmemg_malloc); kernels reach "
                  "default-heap blocks by loads and stores only (a peer's through shmem_ptr)", p, pe,
                  (void*)st.cpu_heap_base, (void*)(st.cpu_heap_base + st.cpu_heap_size),
                  (void*)(st.heap_base + GIO_HEAP_RESERVED), (void*)(st.heap_base + st.heap_size));
  if (a < st.heap_base + GIO_HEAP_RESERVED || a >= st.heap_base + st.heap_size)
    GIO_DEV_FATAL(routine, "address %p (for PE %d) is outside the symmetric heap [%p, %p)", p, pe,
                  (void*)(st.heap_base + GIO_HEAP_RESERVED), (void*)(st.heap_base + st.heap_size));
  GIO_DEV_FATAL(routine, "%llu bytes at heap offset %llu (for PE %d) run past the heap end (%llu bytes)",
                (unsigned long long)n, (unsigned long long)(a - st.heap_base), pe,
                (unsigned long long)st.heap_size);
}
[[noreturn]] GIO_DEVICE_NOINLINE void fail_align(const char* routine, const void* p, size_t align, int pe) {
  GIO_DEV_FATAL(routine, "address %p (for PE %d) is not %llu-byte aligned", p, pe, (unsigned long long)align);
}

// The state libgio wrote follows another contract than this module's headers: its layout past the
// version fields cannot be trusted, so nothing else of it is read (not even the PE).
[[noreturn]] GIO_DEVICE_NOINLINE void fail_contract(const char* routine) {
  GIO_DEV_PRINT("GIO error: %s: kernel module built against contract %u.%u, libgio provides %u.%u\n", routine,
                (unsigned)GIO_CONTRACT_MAJOR, (unsigned)GIO_CONTRACT_MINOR, (unsigned)GIO_DSTATE.version_major,
                (unsigned)GIO_DSTATE.version_minor);
  die(GIO_ERR_INIT);
}

GIO_DEVICE_INLINE const gio_device_state_v1& state_checked(const char* routine) {
  if (GIO_DSTATE.magic != GIO_STATE_MAGIC) fail_init(routine);
  // A newer minor only adds fields at the end, which this module does not read. (+ 1 on both
  // sides: at minor 0 a plain `< 0` is a comparison nvcc warns about in every kernel file.)
  if (GIO_DSTATE.version_major != GIO_CONTRACT_MAJOR || GIO_DSTATE.version_minor + 1 < GIO_CONTRACT_MINOR + 1)
    fail_contract(routine);
  return GIO_DSTATE;
}

// The state's first 8 bytes when libgio's contract is exactly this module's: magic, major, minor.
constexpr uint64_t kStateHead =
    (uint64_t)GIO_STATE_MAGIC | (uint64_t)GIO_CONTRACT_MAJOR << 32 | (uint64_t)GIO_CONTRACT_MINOR << 48;

// check_pe's slow half: the full state check (a newer minor passes, with the PE checked after it).
GIO_DEVICE_NOINLINE void check_pe_slow(const char* routine, int pe) {
  const gio_device_state_v1& st = state_checked(routine);
  if ((unsigned)pe >= (unsigned)st.n_pes) fail_pe(routine, pe);
}

// Every RMA, AMO and signal call checks its PE first, inside the caller's loops, so the fast path
// is one branch: the state's head as one 8-byte word against this module's (magic and version in
// one compare) and the PE against n_pes, where there were three branches, each waiting on its own
// constant load (magic, version, PE); in a loop of calls ptxas now keeps the whole test outside
// the loop but one predicate, and a wave-scope put went from 375 to 355 cycles on 2 H200
// (gio-bench callcost --scope wave). n_pes is read before the head is known good: it is in bounds
// whatever the layout, and used only when the head matched. A state that is not this exact
// contract (not initialized, another major, a newer minor) takes the slow half, which reports the
// first two and lets the third through.
GIO_DEVICE_INLINE void check_pe(const char* routine, int pe) {
  uint64_t head;
  __builtin_memcpy(&head, &GIO_DSTATE, sizeof head);
  if ((head != kStateHead) | ((unsigned)pe >= (unsigned)GIO_DSTATE.n_pes)) check_pe_slow(routine, pe);
}

// [p, p+n) must lie in the user part of the symmetric heap.
GIO_DEVICE_INLINE void check_sym(const char* routine, const void* p, size_t n, int pe) {
  const gio_device_state_v1& st = GIO_DSTATE;
  const uint8_t* a = (const uint8_t*)p;
  if (a < st.heap_base + GIO_HEAP_RESERVED || a >= st.heap_base + st.heap_size ||
      n > st.heap_size - (uint64_t)(a - st.heap_base))
    fail_sym(routine, p, n, pe);
}

GIO_DEVICE_INLINE void check_align(const char* routine, const void* p, size_t align, int pe) {
  if ((uintptr_t)p % align) fail_align(routine, p, align, pe);
}

// [p, p + n) lies wholly inside this PE's symmetric heap: the local buffers a transport can name by
// heap offset or the heap's key (gda, proxy); others are staged.
GIO_DEVICE_INLINE bool in_heap(const gio_device_state_v1& st, const void* p, size_t n) {
  const uint8_t* a = (const uint8_t*)p;
  return a >= st.heap_base && a < st.heap_base + st.heap_size && n <= st.heap_size - (uint64_t)(a - st.heap_base);
}

// Prints the timeout report (out of line) and stops.
template <typename Fail>
[[noreturn]] GIO_DEVICE_NOINLINE void fail_timeout(Fail fail, unsigned long long ms) {
  fail(ms);
  plat::wait_report();
  die(GIO_ERR_TIMEOUT);
}

// One address per wait call site (each call site's condition is a lambda of its own type).
template <typename Done>
struct wait_site {
  static constexpr char tag = 0;
};

// Spin until done() holds, relaxing between polls; past GIO_TIMEOUT_MS call fail(elapsed_ms).
// The clock is read every 64 polls so the fast path is a tight load loop.
template <typename Done, typename Fail>
GIO_DEVICE_INLINE void bounded_wait(Done done, Fail fail) {
  plat::wait_scope<wait_site<Done>> reconverge;  // leaving it is the wait's reconvergence point
  (void)reconverge;
  if (done()) return;
  const uint64_t limit = GIO_DSTATE.timeout_ns;
  const uint64_t t0 = plat::clock_ns();
  for (unsigned spins = 1;; ++spins) {
    plat::relax();
    if (done()) return;
    if (limit && (spins & 63) == 0) {
      uint64_t dt = plat::clock_ns() - t0;
      if (dt > limit) fail_timeout(fail, (unsigned long long)(dt / 1000000ull));
    }
  }
}

}  // namespace dev
}  // namespace gio
#endif
