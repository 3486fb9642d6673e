// PMIx bootstrap, for launchers that start processes with a PMIx server but no MPI (srun,
// prterun; Open MPI's mpirun serves PMIx too, which is how CI tests it). An allgather is one
// key per PE: each puts its bytes, a fence that collects the data, then every PE gets each key.
// Fences are non-blocking and polled against GIO_TIMEOUT_MS; gets carry PMIX_TIMEOUT.
#include <pmix.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "host/backoff.h"
#include "host/bootstrap/bootstrap.h"
#include "host/log.h"

namespace gio {
namespace boot {
namespace {
pmix_proc_t g_me;
int g_size = 1;
uint64_t g_timeout_ms = 0;
unsigned g_seq = 0;  // every PE runs the same collectives in the same order: keys match

// Outlives a timed-out fence, whose callback may still come while the job is being stopped.
struct fence_state {
  std::atomic<bool> done{false};
  pmix_status_t status = PMIX_SUCCESS;
};

void fence_done(pmix_status_t status, void* cbdata) {
  auto* f = static_cast<fence_state*>(cbdata);
  f->status = status;
  f->done.store(true, std::memory_order_release);
}

void check(pmix_status_t rc, const char* what, const char* call) {
  if (rc != PMIX_SUCCESS) fatal(GIO_ERR_INIT, what, "%s failed: %s", call, PMIx_Error_string(rc));
}

// All PEs of the job meet; with `collect`, each leaves with every PE's committed keys.
void fence(bool collect, const char* what) {
  pmix_proc_t all;
  PMIX_LOAD_PROCID(&all, g_me.nspace, PMIX_RANK_WILDCARD);
  pmix_info_t info;
  bool flag = collect;
  PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &flag, PMIX_BOOL);
  auto* f = new fence_state;
  pmix_status_t rc = PMIx_Fence_nb(&all, 1, &info, 1, fence_done, f);
  if (rc == PMIX_OPERATION_SUCCEEDED) {
    PMIX_INFO_DESTRUCT(&info);
    delete f;
    return;
  }
  check(rc, what, "PMIx_Fence_nb");
  auto t0 = std::chrono::steady_clock::now();
  backoff pace;  // host/backoff.h
  for (unsigned spins = 0; !f->done.load(std::memory_order_acquire); ++spins) {
    pace.pause();
    if (g_timeout_ms && (spins & 255) == 0) {
      auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
      if ((uint64_t)ms > g_timeout_ms) {
        std::string who = waiting_for(what);
        if (who.empty()) who = "the other " + std::to_string(g_size - 1) + " PEs";
        fatal(GIO_ERR_TIMEOUT, what, "timed out after %lld ms in a PMIx fence, waiting for %s (GIO_TIMEOUT_MS=%llu)",
              (long long)ms, who.c_str(), (unsigned long long)g_timeout_ms);
      }
    }
  }
  PMIX_INFO_DESTRUCT(&info);
  check(f->status, what, "PMIx_Fence_nb");
  delete f;
}

void put(const char* key, const void* bytes, size_t n, const char* what) {
  pmix_value_t v;
  PMIX_VALUE_CONSTRUCT(&v);
  v.type = PMIX_BYTE_OBJECT;
  v.data.bo.bytes = (char*)bytes;  // PMIx_Put copies it
  v.data.bo.size = n;
  check(PMIx_Put(PMIX_GLOBAL, key, &v), what, "PMIx_Put");
  check(PMIx_Commit(), what, "PMIx_Commit");
}

void get(int rank, const char* key, void* out, size_t n, const char* what) {
  pmix_proc_t p;
  PMIX_LOAD_PROCID(&p, g_me.nspace, rank);
  pmix_info_t info;
  int secs = g_timeout_ms ? (int)((g_timeout_ms + 999) / 1000) : 0;  // 0: PMIx waits forever too
  PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &secs, PMIX_INT);
  pmix_value_t* v = nullptr;
  pmix_status_t rc = PMIx_Get(&p, key, &info, 1, &v);
  PMIX_INFO_DESTRUCT(&info);
  if (rc != PMIX_SUCCESS) fatal(GIO_ERR_INIT, what, "PMIx_Get of %s from PE %d failed: %s", key, rank, PMIx_Error_string(rc));
  if (v->type != PMIX_BYTE_OBJECT || v->data.bo.size != n)
    fatal(GIO_ERR_INIT, what, "PMIx_Get of %s from PE %d: %zu bytes of type %d, expected %zu bytes", key, rank,
          v->type == PMIX_BYTE_OBJECT ? v->data.bo.size : 0, (int)v->type, n);
  memcpy(out, v->data.bo.bytes, n);
  PMIX_VALUE_RELEASE(v);
}

void next_key(char* key, size_t len) { snprintf(key, len, "gio.boot.%u", g_seq++); }

bool pmix_active() { return PMIx_Initialized(); }

int pmix_init(int shmem_thread_level, uint64_t timeout_ms, int* rank, int* size) {
  g_timeout_ms = timeout_ms;
  pmix_status_t rc = PMIx_Init(&g_me, nullptr, 0);
  if (rc != PMIX_SUCCESS)
    fatal(GIO_ERR_INIT, "shmem_init", "PMIx_Init failed: %s (GIO_BOOTSTRAP=pmix needs a PMIx server: srun "
          "--mpi=pmix, prterun, mpirun)", PMIx_Error_string(rc));
  pmix_proc_t job;
  PMIX_LOAD_PROCID(&job, g_me.nspace, PMIX_RANK_WILDCARD);
  pmix_value_t* v = nullptr;
  check(PMIx_Get(&job, PMIX_JOB_SIZE, nullptr, 0, &v), "shmem_init", "PMIx_Get(PMIX_JOB_SIZE)");
  g_size = (int)v->data.uint32;
  PMIX_VALUE_RELEASE(v);
  *rank = (int)g_me.rank;
  *size = g_size;
  return shmem_thread_level;  // the PMIx client library is thread-safe
}

void pmix_finalize() {
  if (PMIx_Initialized()) PMIx_Finalize(nullptr, 0);
}

void pmix_allgather(const void* mine, void* all, size_t bytes, const char* what) {
  char key[32];
  next_key(key, sizeof key);
  put(key, mine, bytes, what);
  fence(true, what);
  for (int pe = 0; pe < g_size; ++pe) get(pe, key, (char*)all + pe * bytes, bytes, what);
}

void pmix_barrier(const char* what) { fence(false, what); }

void pmix_bcast(void* buf, size_t bytes, int root, const char* what) {
  char key[32];
  next_key(key, sizeof key);
  if ((int)g_me.rank == root) put(key, buf, bytes, what);
  fence(true, what);
  if ((int)g_me.rank != root) get(root, key, buf, bytes, what);
}

// A null process list aborts every process of this job.
void pmix_abort(int status) { PMIx_Abort(status, "shmem_global_exit", nullptr, 0); }

const ops g_ops = {"pmix", pmix_active, pmix_init, pmix_finalize, pmix_allgather, pmix_barrier, pmix_bcast,
                   pmix_abort};
}  // namespace

const ops* pmix_ops() { return &g_ops; }

}  // namespace boot
}  // namespace gio
