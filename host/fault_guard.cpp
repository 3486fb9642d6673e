// The SIGSEGV handler of fault_guard.h.
//
// The handler reads only a fixed table filled before it is installed; a fault it recognizes is a
// synchronous fault of the thread that made the access, which then ends the job through fatal()
// like any GIO error (the job's shared files are removed, mpirun stops the other PEs).
#include "host/fault_guard.h"

#include <signal.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "gio_config.h"  // GIO_PLATFORM_HOST
#include "host/log.h"
#include "host/runtime.h"

namespace gio {
namespace {

struct range {
  uintptr_t lo, hi;
  int pe;
};
range g_ranges[GIO_MAX_PES + 1];
std::atomic<int> g_count{0};
struct sigaction g_prev;
std::atomic<bool> g_installed{false};

void on_segv(int sig, siginfo_t* si, void* ctx) {
  const uintptr_t a = (uintptr_t)si->si_addr;
  const int n = g_count.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i) {
    const range& g = g_ranges[i];
    if (a < g.lo || a >= g.hi) continue;
    if (g.pe == log_pe())
      fatal(GIO_ERR_ARG, "host load or store",
            "address %p lies in this PE's GPU heap [%p, %p) (shmemg_malloc, or shmem_malloc with "
            "GIO_DEFAULT_HEAP=gpu), which is GPU memory host code cannot load or store: move it with shmem_getmem / "
            "shmem_putmem (to this PE too) or hipMemcpy, use it in a kernel, or keep host-side data in the default "
            "heap (shmem_malloc)", (void*)a, (void*)g.lo, (void*)g.hi);
    fatal(GIO_ERR_ARG, "host load or store",
          "address %p lies in PE %d's GPU heap as mapped here [%p, %p) (shmem_ptr of a GPU-heap address), which only "
          "kernels may load and store: from host code use shmem_getmem / shmem_putmem to PE %d", (void*)a, g.pe,
          (void*)g.lo, (void*)g.hi, g.pe);
  }
  // Not GIO's: the handler the program had, or the default action.
  if (g_prev.sa_flags & SA_SIGINFO) {
    if (g_prev.sa_sigaction) return g_prev.sa_sigaction(sig, si, ctx);
  } else if (g_prev.sa_handler != SIG_DFL && g_prev.sa_handler != SIG_IGN) {
    return g_prev.sa_handler(sig);
  }
  // SIG_DFL (or SIG_IGN, which the kernel does not honour for a fault): put it back and return;
  // the access faults again and takes it, with the core dump and exit status of a plain SIGSEGV.
  sigaction(SIGSEGV, &g_prev, nullptr);
}

}  // namespace

void fault_guard_install(runtime& r, bool always) {
#if defined(GIO_PLATFORM_HOST)
  if (!always) return;
#else
  (void)always;
#endif
  if (g_installed.load()) return;
  int n = 0;
  g_ranges[n++] = {(uintptr_t)r.heap, (uintptr_t)(r.heap + r.heap_size), r.my_pe};
  for (int pe = 0; pe < (int)r.peers.size() && n < (int)(sizeof g_ranges / sizeof g_ranges[0]); ++pe) {
    uint8_t* m = r.peers[pe].mapped ? r.peers[pe].mapped : r.peers[pe].base;
    if (pe != r.my_pe && m) g_ranges[n++] = {(uintptr_t)m, (uintptr_t)(m + r.heap_size), pe};
  }
  g_count.store(n, std::memory_order_release);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGSEGV, &sa, &g_prev) != 0) {
    info(1, "no SIGSEGV handler for GPU-heap addresses: %s", strerror(errno));
    return;
  }
  g_installed.store(true);
}

void fault_guard_remove() {
  if (!g_installed.exchange(false)) return;
  struct sigaction cur;
  if (sigaction(SIGSEGV, nullptr, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_segv)
    sigaction(SIGSEGV, &g_prev, nullptr);
  g_count.store(0);
}

}  // namespace gio
