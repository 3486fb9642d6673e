// MPI bootstrap. Non-blocking collectives polled with a deadline, so a PE that never arrives
// turns into a message instead of a hang.
#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "host/backoff.h"
#include "host/bootstrap/bootstrap.h"
#include "host/log.h"

namespace gio {
namespace boot {
namespace {
bool g_we_started_mpi = false;
int g_size = 1;
uint64_t g_timeout_ms = 0;

void wait(MPI_Request* req, const char* what) {
  auto t0 = std::chrono::steady_clock::now();
  backoff pace;  // host/backoff.h
  for (unsigned spins = 0;; ++spins) {
    int done = 0;
    MPI_Test(req, &done, MPI_STATUS_IGNORE);
    if (done) return;
    pace.pause();
    if (g_timeout_ms && (spins & 255) == 0) {
      auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
      if ((uint64_t)ms > g_timeout_ms) {
        std::string who = waiting_for(what);
        if (who.empty()) who = "the other " + std::to_string(g_size - 1) + " PEs";
        fatal(GIO_ERR_TIMEOUT, what, "timed out after %lld ms waiting for %s (GIO_TIMEOUT_MS=%llu)", (long long)ms,
              who.c_str(), (unsigned long long)g_timeout_ms);
      }
    }
  }
}

bool mpi_active() {
  int inited = 0, fin = 0;
  MPI_Initialized(&inited);
  MPI_Finalized(&fin);
  return inited && !fin;
}

int mpi_init(int shmem_thread_level, uint64_t timeout_ms, int* rank, int* size) {
  g_timeout_ms = timeout_ms;
  int provided = MPI_THREAD_SINGLE;
  // SHMEM_THREAD_* and MPI_THREAD_* are in the same order.
  const int mpi_levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE};
  if (!mpi_active()) {
    if (MPI_Init_thread(nullptr, nullptr, mpi_levels[shmem_thread_level], &provided) != MPI_SUCCESS)
      fatal(GIO_ERR_INIT, "shmem_init", "MPI_Init_thread failed");
    g_we_started_mpi = true;
  } else {
    MPI_Query_thread(&provided);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  g_size = *size;
  for (int i = 0; i < 4; ++i)
    if (mpi_levels[i] == provided) return i;
  return 0;
}

void mpi_finalize() {
  int fin = 0;
  MPI_Finalized(&fin);
  if (g_we_started_mpi && !fin) MPI_Finalize();
}

void mpi_allgather(const void* mine, void* all, size_t bytes, const char* what) {
  MPI_Request req;
  MPI_Iallgather(mine, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, MPI_COMM_WORLD, &req);
  wait(&req, what);
}

void mpi_barrier(const char* what) {
  MPI_Request req;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  wait(&req, what);
}

void mpi_bcast(void* buf, size_t bytes, int root, const char* what) {
  MPI_Request req;
  MPI_Ibcast(buf, (int)bytes, MPI_BYTE, root, MPI_COMM_WORLD, &req);
  wait(&req, what);
}

void mpi_abort(int status) { MPI_Abort(MPI_COMM_WORLD, status); }

const ops g_ops = {"mpi", mpi_active, mpi_init, mpi_finalize, mpi_allgather, mpi_barrier, mpi_bcast, mpi_abort};
}  // namespace

const ops& mpi_ops() { return g_ops; }

}  // namespace boot
}  // namespace gio
