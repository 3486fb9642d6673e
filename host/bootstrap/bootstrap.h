// Bootstrap: how PEs find each other and exchange setup data. Over MPI (Open MPI's mpirun, or a
// singleton when the process was started alone: a 1-PE job). Every wait is bounded.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gio {
namespace boot {

// Starts MPI if the application has not; returns the MPI thread level obtained.
int init(int shmem_thread_level, uint64_t timeout_ms);
void finalize();
int rank();
int size();
int local_rank();  // rank among the PEs of this node (chooses the GPU)
int local_size();
int node_of(int pe);  // node index of a PE (PEs on the same node share it)

// Collectives over all PEs; `what` names the operation for timeout messages.
void allgather(const void* mine, void* all, size_t bytes, const char* what);
void barrier(const char* what);
void bcast(void* buf, size_t bytes, int root, const char* what);
void minmax_u64(uint64_t v, uint64_t* lo, uint64_t* hi, const char* what);
// Ends every PE with `status` (shmem_global_exit).
[[noreturn]] void global_exit(int status);

}  // namespace boot
}  // namespace gio
