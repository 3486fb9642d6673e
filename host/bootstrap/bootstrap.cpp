// Chooses the bootstrap (GIO_BOOTSTRAP) and builds what is common to both on its collectives:
// node discovery, minmax, global exit.
#include "host/bootstrap/bootstrap.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "host/config.h"
#include "host/log.h"

namespace gio {
namespace boot {
namespace {
const ops* g_ops = &mpi_ops();
std::string g_why = "not started";
int g_rank = 0, g_size = 1, g_local_rank = 0, g_local_size = 1;
std::vector<int> g_node;
std::string (*g_waiting_for)(const char*) = nullptr;
bool g_initialized = false, g_finalized = false, g_exiting = false;
pid_t g_init_pid = 0;  // a child forked after init is not a PE: its exit is not checked

// A program that returns from main (or calls exit) on a PE that never called shmem_finalize
// leaves the other PEs waiting in theirs until GIO_TIMEOUT_MS: say which PE it was, now, and end
// the job the way GIO's errors do.
void check_finalized_at_exit() {
  if (!g_initialized || g_finalized || g_exiting || getpid() != g_init_pid) return;
  fatal(GIO_ERR_INIT, "shmem_finalize", "this PE is exiting without calling shmem_finalize (every PE must call "
        "it before it ends: the others wait for it there)");
}

// Under auto, the launcher decides: mpirun and mpiexec start MPI processes (their PMIx server, if
// any, is there for MPI), an application that initialized MPI keeps it, and a PMIx server with no
// MPI launcher (srun, prterun) is what PMIx is for. Alone, MPI becomes a singleton.
const ops* choose(const config& cfg, std::string* why) {
  const ops* pmix = pmix_ops();
  if (cfg.GIO_BOOTSTRAP == "mpi") {
    *why = "set by GIO_BOOTSTRAP=mpi";
    return &mpi_ops();
  }
  if (cfg.GIO_BOOTSTRAP == "pmix") {
    if (!pmix)
      fatal(GIO_ERR_INIT, "shmem_init", "GIO_BOOTSTRAP=pmix, but libgio was built without PMIx (install "
            "libpmix-dev and rebuild)");
    *why = "set by GIO_BOOTSTRAP=pmix";
    return pmix;
  }
  const launch_env env = launch_env_load();
  if (mpi_ops().active()) {
    *why = "auto: the application initialized MPI";
    return &mpi_ops();
  }
  if (pmix && pmix->active()) {
    *why = "auto: the application initialized PMIx";
    return pmix;
  }
  if (env.ompi) {
    *why = "auto: started by Open MPI's mpirun (OMPI_COMM_WORLD_SIZE is set)";
    return &mpi_ops();
  }
  if (env.mpich) {
    *why = "auto: started by an MPICH launcher (PMI_RANK and PMI_SIZE are set)";
    return &mpi_ops();
  }
  if (env.pmix && pmix) {
    *why = "auto: a PMIx server started this process (PMIX_NAMESPACE, PMIX_RANK) and no MPI launcher did";
    return pmix;
  }
  if (env.pmix) {
    *why = "auto: a PMIx server started this process, but libgio was built without PMIx; MPI";
    return &mpi_ops();
  }
  *why = "auto: no launcher; an MPI singleton (a 1-PE job)";
  return &mpi_ops();
}

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
}  // namespace

int init(int shmem_thread_level, const config& cfg) {
  g_ops = choose(cfg, &g_why);
  const int level = g_ops->init(shmem_thread_level, cfg.GIO_TIMEOUT_MS, &g_rank, &g_size);
  log_set_pe(g_rank, 0);
  discover_nodes();
  static bool hooked = false;
  if (!hooked) atexit(check_finalized_at_exit);
  hooked = true;
  g_initialized = true;
  g_init_pid = getpid();
  return level;
}

void finalize() {
  g_finalized = true;
  g_ops->finalize();
}
const char* name() { return g_ops->name; }
const char* why() { return g_why.c_str(); }
int rank() { return g_rank; }
int size() { return g_size; }
int local_rank() { return g_local_rank; }
int local_size() { return g_local_size; }
int node_of(int pe) { return g_node.at(pe); }

void allgather(const void* mine, void* all, size_t bytes, const char* what) { g_ops->allgather(mine, all, bytes, what); }
void barrier(const char* what) { g_ops->barrier(what); }
void bcast(void* buf, size_t bytes, int root, const char* what) { g_ops->bcast(buf, bytes, root, what); }

void minmax_u64(uint64_t v, uint64_t* lo, uint64_t* hi, const char* what) {
  std::vector<uint64_t> all(g_size);
  allgather(&v, all.data(), sizeof v, what);
  *lo = *hi = v;
  for (uint64_t x : all) {
    if (x < *lo) *lo = x;
    if (x > *hi) *hi = x;
  }
}

void set_waiting_for(std::string (*who)(const char*)) { g_waiting_for = who; }
std::string waiting_for(const char* what) { return g_waiting_for ? g_waiting_for(what) : std::string(); }

void global_exit(int status) {
  g_exiting = true;
  fflush(stdout);
  fflush(stderr);
  g_ops->abort(status);
  _Exit(status);
}

}  // namespace boot
}  // namespace gio
