// MPI bootstrap. Non-blocking collectives polled with a deadline, so a PE that never arrives
// turns into a message instead of a hang.
#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "host/bootstrap/bootstrap.h"
#include "host/log.h"

namespace gio {
namespace boot {
namespace {
bool g_we_started_mpi = false;
int g_rank = 0, g_size = 1, g_local_rank = 0, g_local_size = 1;
uint64_t g_timeout_ms = 0;
std::vector<int> g_node;

void wait(MPI_Request* req, const char* what) {
  auto t0 = std::chrono::steady_clock::now();
  for (unsigned spins = 0;; ++spins) {
    int done = 0;
    MPI_Test(req, &done, MPI_STATUS_IGNORE);
    if (done) return;
    if (spins > 1000) sched_yield();
    if (g_timeout_ms && (spins & 255) == 0) {
      auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
      if ((uint64_t)ms > g_timeout_ms)
        fatal(GIO_ERR_TIMEOUT, what, "timed out after %lld ms waiting for the other %d PEs (GIO_TIMEOUT_MS=%llu)",
              (long long)ms, g_size - 1, (unsigned long long)g_timeout_ms);
    }
  }
}
}  // namespace

// A node is a host name, as it is to Open MPI's launcher: PEs that report the same name share a
// node, and a node's index is its lowest PE. Exchanged directly rather than through
// MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), which in Open MPI 4.1.6 hung with two PEs on each of
// two nodes (tests/func/two_nodes.sh) where a plain allgather of the names does not.
void discover_nodes() {
  struct name {
    char s[256];
  } mine{};
  if (gethostname(mine.s, sizeof mine.s - 1) != 0) snprintf(mine.s, sizeof mine.s, "(no host name)");
  std::vector<name> all(g_size);
  allgather(&mine, all.data(), sizeof mine, "shmem_init (node discovery)");
  g_node.assign(g_size, 0);
  g_local_rank = 0;
  g_local_size = 0;
  for (int pe = 0; pe < g_size; ++pe) {
    int first = 0;
    while (strcmp(all[first].s, all[pe].s) != 0) ++first;
    g_node[pe] = first;
    if (strcmp(all[pe].s, mine.s) == 0) {
      if (pe < g_rank) ++g_local_rank;
      ++g_local_size;
    }
  }
}

int init(int shmem_thread_level, uint64_t timeout_ms) {
  g_timeout_ms = timeout_ms;
  int inited = 0, provided = MPI_THREAD_SINGLE;
  MPI_Initialized(&inited);
  // SHMEM_THREAD_* and MPI_THREAD_* are in the same order.
  const int mpi_levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE};
  if (!inited) {
    if (MPI_Init_thread(nullptr, nullptr, mpi_levels[shmem_thread_level], &provided) != MPI_SUCCESS)
      fatal(GIO_ERR_INIT, "shmem_init", "MPI_Init_thread failed");
    g_we_started_mpi = true;
  } else {
    MPI_Query_thread(&provided);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  log_set_pe(g_rank, 0);
  discover_nodes();
  for (int i = 0; i < 4; ++i)
    if (mpi_levels[i] == provided) return i;
  return 0;
}

void finalize() {
  int fin = 0;
  MPI_Finalized(&fin);
  if (g_we_started_mpi && !fin) MPI_Finalize();
}

int rank() { return g_rank; }
int size() { return g_size; }
int local_rank() { return g_local_rank; }
int local_size() { return g_local_size; }
int node_of(int pe) { return g_node.at(pe); }

void allgather(const void* mine, void* all, size_t bytes, const char* what) {
  MPI_Request req;
  MPI_Iallgather(mine, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, MPI_COMM_WORLD, &req);
  wait(&req, what);
}

void barrier(const char* what) {
  MPI_Request req;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  wait(&req, what);
}

void bcast(void* buf, size_t bytes, int root, const char* what) {
  MPI_Request req;
  MPI_Ibcast(buf, (int)bytes, MPI_BYTE, root, MPI_COMM_WORLD, &req);
  wait(&req, what);
}

void minmax_u64(uint64_t v, uint64_t* lo, uint64_t* hi, const char* what) {
  std::vector<uint64_t> all(g_size);
  allgather(&v, all.data(), sizeof v, what);
  *lo = *hi = v;
  for (uint64_t x : all) {
    if (x < *lo) *lo = x;
    if (x > *hi) *hi = x;
  }
}

void global_exit(int status) {
  fflush(stdout);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, status);
  _Exit(status);
}

}  // namespace boot
}  // namespace gio
