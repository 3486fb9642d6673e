// Named shared memory of the proxy on one node: libfabric shm's endpoint regions and the staging
// inboxes (proxy_inbox.cpp), all in /dev/shm.
//
// A named region outlives a process that is aborted or killed before removing it, and every run
// that ended so would leave its regions behind. So the names say whose they are,
// "gio-<PID namespace>-<PID>-<64 random bits>", and GIO removes a name as soon as every peer has
// mapped the region (the mappings stay); until then an abort removes this process's names
// (unlink_own_shm_regions, from host/log.h's at_abort), and each shm endpoint opened removes
// those of processes of this PID namespace that no longer exist (remove_dead_shm_regions).
#pragma once
#include <string>

namespace gio {
namespace proxy {

// A fresh name for this process, without the leading '/' (shm_open and fi_setname add it).
std::string new_shm_name();
// Notes a name as this process's until released or forgotten; returns its handle (-1: more than
// 8 at once, then it is not removed on abort).
int remember_shm_name(const std::string& name);
// Removes the name from /dev/shm and forgets it.
void release_shm_name(int handle);
// Forgets it (its owner removed it).
void forget_shm_name(int handle);

// Removes every name this process still holds (async-signal-safe: for an abort, which runs no
// destructors).
void unlink_own_shm_regions();
// Removes the regions in `dir` of processes of this PID namespace that no longer exist; says how
// many.
unsigned remove_dead_shm_regions(const char* dir);

}  // namespace proxy
}  // namespace gio
