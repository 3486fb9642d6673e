#include "host/log.h"

#include <unistd.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>

#include "runtime/module_abi.h"  // gio_host_abort

namespace gio {
namespace {
int g_pe = -1;
int g_debug = 0;
std::atomic<void (*)()> g_at_abort[8];
std::atomic<unsigned> g_at_abort_n{0};
}  // namespace

void at_abort(void (*fn)()) {
  const unsigned i = g_at_abort_n.fetch_add(1);
  if (i < 8) g_at_abort[i].store(fn);
}
void run_at_abort() {
  const unsigned n = g_at_abort_n.load();
  for (unsigned i = 0; i < n && i < 8; ++i)
    if (void (*fn)() = g_at_abort[i].load()) fn();
}

int log_pe() { return g_pe; }
void log_set_pe(int pe, int debug_level) {
  g_pe = pe;
  g_debug = debug_level;
}

void fatal(int status, const char* routine, const char* fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "GIO error: %s on PE %d: %s\n", routine, g_pe, msg);
  gio_host_abort(status);
}

void info(int level, const char* fmt, ...) {
  if (g_debug < level) return;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "GIO: PE %d: %s\n", g_pe, msg);
}

}  // namespace gio

// Exit without running destructors or MPI_Finalize: other threads (host-platform kernels, a
// stuck MPI request) may still be running. mpirun sees the non-zero exit and stops the job.
extern "C" void gio_host_abort(int status) {
  fflush(stdout);
  fflush(stderr);
  (void)status;  // the message already said what went wrong; the exit code says "GIO aborted"
  gio::run_at_abort();
  _exit(GIO_EXIT_CODE);
}
