// Bootstrap: how PEs find each other and exchange setup data. Over MPI (mpirun, or a singleton
// when the process was started alone: a 1-PE job) or PMIx (srun, prterun: a PMIx server and no
// MPI launcher), chosen by GIO_BOOTSTRAP (bootstrap.cpp). Every wait is bounded.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace gio {
struct config;

namespace boot {

// Picks the bootstrap and starts it (MPI only if the application has not); returns the thread
// level obtained (SHMEM_THREAD_*).
int init(int shmem_thread_level, const config& cfg);
void finalize();
const char* name();  // "mpi" or "pmix"
const char* why();   // the reason init chose it (gio-info prints it)
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

// Whom a timed-out collective `what` waits for ("PE 2, which ..."), for its message; "" when not
// known. The runtime sets it once PEs can read each other's arrival counts (host/coll/arrivals.cpp).
void set_waiting_for(std::string (*who)(const char* what));
std::string waiting_for(const char* what);

// What one bootstrap provides (mpi.cpp, pmix.cpp); bootstrap.cpp builds the rest on it.
struct ops {
  const char* name;
  bool (*active)();  // already initialized in this process (by the application)
  // Starts it; sets this PE's rank and the job's size; returns the thread level obtained.
  int (*init)(int shmem_thread_level, uint64_t timeout_ms, int* rank, int* size);
  void (*finalize)();
  void (*allgather)(const void* mine, void* all, size_t bytes, const char* what);
  void (*barrier)(const char* what);
  void (*bcast)(void* buf, size_t bytes, int root, const char* what);
  void (*abort)(int status);  // ends every PE, or returns if it could not
};
const ops& mpi_ops();
const ops* pmix_ops();  // null when libgio was built without PMIx (pmix_absent.cpp)

}  // namespace boot
}  // namespace gio
