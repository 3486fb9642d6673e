// Fatal errors and diagnostics of the host runtime. Every message names the routine and the PE.
#pragma once
#include "runtime/status.h"

namespace gio {

// Prints "GIO error: <routine> on PE <pe>: <message>" to stderr and ends the whole job with
// GIO_EXIT_CODE (mpirun then stops the other PEs).
[[noreturn]] void fatal(int status, const char* routine, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));
// "GIO: ..." informational line on stderr, printed when GIO_DEBUG >= level.
void info(int level, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
// Registers a cleanup that runs when the job is aborted (fatal, a kernel's failed check) before
// the process exits without destructors: for what other processes would trip over later, such
// as a named shared-memory region. Must be async-signal-safe; at most 8 are kept.
void at_abort(void (*fn)());
// The PE number used in messages (-1 before the bootstrap knows it).
int log_pe();
void log_set_pe(int pe, int debug_level);

}  // namespace gio
