// Which PEs a host world barrier (shmem_barrier_all, shmem_sync_all) waits for. Each PE counts the
// ones it entered in a symmetric word (taken at init, coll_state::arrivals); a PE whose barrier
// times out reads the others' counts (one-sided: a parked PE need not answer) and names those
// behind it, instead of "the other N PEs".
#pragma once

namespace gio {
struct runtime;

// Called on entering a host world barrier, before the bootstrap's barrier.
void world_barrier_arrive(runtime& r);

}  // namespace gio
