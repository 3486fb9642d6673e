// Files in GIO_HOST_SHM_DIR (tmpfs) that peers map: the host platform's GPU heaps ("heap") and
// every platform's default heaps ("cpuheap", cpu_heap.cpp) and globals ("globals", globals.cpp). Such a file must keep its name only until every peer has
// mapped it, and a process that ends before then must not leave it behind.
//
// So the names say whose they are, "gio-<role>-<PID namespace>-<PID>-<16 hex digits>", and:
//  - an abort (fatal, a kernel's failed check: host/log.h's at_abort) or a SIGTERM (mpirun stopping
//    the other PEs of a job one PE aborted) removes the files this process still holds;
//  - a process killed outright (SIGKILL) cannot, so each init (and gio-info, which initializes)
//    first removes the files of processes of this PID namespace that no longer exist.
// The proxy's libfabric regions follow the same scheme (host/proxy/shm_names.h).
#pragma once
#include <string>

namespace gio {

// A fresh path in `dir` for this process; `unique` (16 hex digits) is a job tag, or empty for a
// random one.
std::string shm_file_path(const std::string& dir, const char* role, const std::string& unique = "");
// Notes a file (just created) as this process's: removed on abort or SIGTERM until shm_file_remove.
void shm_file_hold(const char* path);
// Maps a peer's file of `bytes` shared, read-write; MAP_FAILED (errno set) if it cannot be opened or
// mapped.
void* shm_file_map(const char* path, size_t bytes);
// Removes the file and forgets it (every peer holds its mapping).
void shm_file_remove(const char* path);
// Removes the files in `dir` of processes of this PID namespace that no longer exist; says how many.
unsigned shm_file_sweep(const std::string& dir);

}  // namespace gio
